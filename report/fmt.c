/* report/fmt.c - metric tables and number formatting for reports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "util/num.h"
#include "util/banned.h"

/* clang-format off */
const struct bs_rsection bs_rsections[BS_RSECTIONS] = {
	{ "Sequential Output", "Sequential Output", BS_M_PUTC, BS_M_REWRITE },
	{ "Sequential Input",  "Sequential Input",  BS_M_GETC, BS_M_GET_BLOCK },
	{ "Random Seeks",      "Random",            BS_M_SEEKS, BS_M_SEEKS },
	{ "Sequential Create", "Sequential Create", BS_M_SEQ_CREATE,
	  BS_M_SEQ_DEL },
	{ "Random Create",     "Random Create",     BS_M_RAN_CREATE,
	  BS_M_RAN_DEL },
};

const char *const bs_rtest_title[BS_M_COUNT] = {
	"Per Chr", "Block", "Rewrite", "Per Chr", "Block", "Seeks",
	"Create", "Read", "Delete", "Create", "Read", "Delete",
};
/* clang-format on */

static const char *const kind_suffix[BS_MK_COUNT] = {"", "_cpu", "_latency"};

const char *bs_report_metric_key(int m, char *out, size_t outsz)
{
	snprintf(out, outsz, "%s%s", bs_metrics[BS_RM_TEST(m)].key,
		 kind_suffix[BS_RM_KIND(m)]);
	return out;
}

int bs_rm_higher(int m)
{
	return BS_RM_KIND(m) == BS_MK_RATE;
}

const char *bs_report_unit(const struct bs_report *rep, int m)
{
	int t = BS_RM_TEST(m);

	switch (BS_RM_KIND(m)) {
	case BS_MK_CPU:
		return "%";
	case BS_MK_LAT:
		return "us";
	default:
		break;
	}
	if (bs_metrics[t].is_io)
		return rep->mib ? "MiB/s" : "KiB/s";
	return bs_metrics[t].unit;
}

double bs_rscale(const struct bs_report *rep, int m, double v)
{
	if (rep->mib && BS_RM_KIND(m) == BS_MK_RATE &&
	    bs_metrics[BS_RM_TEST(m)].is_io)
		return v / 1024.0;
	return v;
}

/* Decimals of a metric's numbers for people. */
static int decimals(const struct bs_report *rep, int m)
{
	int t = BS_RM_TEST(m);

	if (BS_RM_KIND(m) != BS_MK_RATE)
		return 0;
	if (bs_metrics[t].is_io)
		return rep->mib ? 1 : 0;
	return t == BS_M_SEEKS ? 1 : 0;
}

/*
 * bs_fmt_double(v, 0 or 1 decimals) without snprintf (a list of runs
 * formats millions): the same text, "-12358", "465.7", "290.6". Returns
 * NULL when it cannot be sure to round as printf does: a value too large,
 * or one so near a half that the multiplication by 10 may have moved it.
 */
static const char *fmt_fast(char *out, size_t outsz, double v, int dec)
{
	char tmp[32];
	unsigned long long u;
	size_t n = 0, k = 0;
	double t = dec ? v * 10.0 : v, r = nearbyint(t);
	int neg = v < 0;

	/*
	 * t is within 1e-7 of v * 10 for |t| < 1e9; away from a half, its
	 * nearest integer is the one printf rounds the exact v to.
	 */
	if (!(fabs(t) < 1e9) || fabs(fabs(t - r) - 0.5) < 1e-6 || outsz < 24 ||
	    dec > 1)
		return NULL;
	u = (unsigned long long)(neg ? -r : r);
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
		if (dec && n == 1)
			tmp[n++] = '.';
	} while (u);
	if (dec && n == 2)
		tmp[n++] = '0';
	if (neg && (r != 0))
		out[k++] = '-';
	while (n)
		out[k++] = tmp[--n];
	out[k] = '\0';
	return out;
}

/* A latency as bonnie++ prints it: us below 0.1 s, ms below 100 s. */
static const char *fmt_latency(double us, int sign, char *out, size_t outsz)
{
	double a = fabs(us);
	const char *unit = "us";
	double v = us;
	char num[64];

	if (a >= 99999999.5) {
		v = us / 1e6;
		unit = "s";
	} else if (a >= 99999.5) {
		v = us / 1e3;
		unit = "ms";
	}
	if (!sign && fmt_fast(out, outsz, v, 0)) {
		size_t n = strlen(out);
		snprintf(out + n, outsz - n, "%s", unit);
		return out;
	}
	bs_fmt_double(num, sizeof(num), v, 0);
	snprintf(out, outsz, "%s%s%s",
		 sign && num[0] != '-' && v != 0 ? "+" : "", num, unit);
	return out;
}

const char *bs_rfmt(const struct bs_report *rep, int m, double v, int sign,
		    char *out, size_t outsz)
{
	char num[64];
	double x;
	int dec;

	if (isnan(v)) {
		out[0] = '\0';
		return out;
	}
	if (BS_RM_KIND(m) == BS_MK_LAT)
		return fmt_latency(v, sign, out, outsz);
	x = bs_rscale(rep, m, v);
	dec = decimals(rep, m);
	if (!sign && fmt_fast(out, outsz, x, dec))
		return out;
	bs_fmt_double(num, sizeof(num), x, dec);
	snprintf(out, outsz, "%s%s",
		 sign && num[0] != '-' && strspn(num, "0.") != strlen(num)
			 ? "+"
			 : "",
		 num);
	return out;
}

const char *bs_rfmt_ratio(double v, char *out, size_t outsz)
{
	if (isnan(v) || isinf(v)) {
		out[0] = '\0';
		return out;
	}
	return bs_fmt_double(out, outsz, v, 2);
}

const char *bs_rfmt_pct(double v, char *out, size_t outsz)
{
	char num[64];

	if (isnan(v) || isinf(v)) {
		out[0] = '\0';
		return out;
	}
	bs_fmt_double(num, sizeof(num), v, 1);
	snprintf(out, outsz, "%s%s%%",
		 num[0] != '-' && strspn(num, "0.") != strlen(num) ? "+" : "",
		 num);
	return out;
}

const char *bs_rfmt_raw(double v, char *out, size_t outsz)
{
	if (isnan(v) || isinf(v)) {
		out[0] = '\0';
		return out;
	}
	if (v == floor(v)) {
		if (fabs(v) < 1e9 && fmt_fast(out, outsz, v, 0))
			return out;
		return bs_fmt_g(out, outsz, v);
	}
	/*
	 * bs_fmt_g's shortest text, found faster: a number with up to 15
	 * significant digits prints as itself with %.15g.
	 */
	snprintf(out, outsz, "%.15g", v);
	if (strtod(out, NULL) == v)
		return out;
	return bs_fmt_g(out, outsz, v);
}

const char *bs_rfmt_size(int64_t mib, char *out, size_t outsz)
{
	size_t n;

	if (mib == BS_NONE || outsz < 24) {
		out[0] = '\0';
		return out;
	}
	if (mib > 0 && mib % 1024 == 0)
		fmt_fast(out, outsz, (double)(mib / 1024), 0);
	else
		fmt_fast(out, outsz, (double)mib, 0);
	n = strlen(out);
	out[n] = mib > 0 && mib % 1024 == 0 ? 'G' : 'M';
	out[n + 1] = '\0';
	return out;
}

/* One parameter value for people. */
static const char *fmt_pval(int p, int64_t v, char *out, size_t outsz)
{
	if (v == BS_NONE) {
		out[0] = '\0';
		return out;
	}
	switch (p) {
	case BS_RP_FILE_SIZE:
	case BS_RP_PER_CHAR:
		return bs_rfmt_size(v, out, outsz);
	case BS_RP_MAX_SIZE:
	case BS_RP_MIN_SIZE:
		if (v == BS_SIZE_LINK) {
			snprintf(out, outsz, "link");
			return out;
		}
		if (v == BS_SIZE_SYMLINK) {
			snprintf(out, outsz, "symlink");
			return out;
		}
		break;
	default:
		break;
	}
	snprintf(out, outsz, "%lld", (long long)v);
	return out;
}

const char *bs_rfmt_param(const struct bs_report_group *g, int p, char *out,
			  size_t outsz)
{
	const struct bs_report_param *rp = &g->param[p];
	char lo[32], hi[32];

	if (rp->mixed) {
		snprintf(out, outsz, "%s-%s (mixed)",
			 fmt_pval(p, rp->lo, lo, sizeof(lo)),
			 fmt_pval(p, rp->hi, hi, sizeof(hi)));
		return out;
	}
	return fmt_pval(p, rp->value, out, outsz);
}

const char *bs_rfmt_files(const struct bs_report_group *g, char *out,
			  size_t outsz)
{
	const struct bs_report_param *p = g->param;
	char v[32];
	size_t n;
	int i;

	for (i = BS_RP_NUM_FILES; i <= BS_RP_FILE_CHUNK; i++) {
		if (p[i].mixed) {
			snprintf(out, outsz, "mixed");
			return out;
		}
	}
	out[0] = '\0';
	if (p[BS_RP_NUM_FILES].value == BS_NONE)
		return out;
	snprintf(out, outsz, "%lld", (long long)p[BS_RP_NUM_FILES].value);
	/* bonnie++'s own spelling: num[:max[:min]][/dirs], max when not 0. */
	if (p[BS_RP_MAX_SIZE].value != BS_NONE &&
	    p[BS_RP_MAX_SIZE].value != 0) {
		n = strlen(out);
		snprintf(out + n, outsz - n, ":%s",
			 fmt_pval(BS_RP_MAX_SIZE, p[BS_RP_MAX_SIZE].value, v,
				  sizeof(v)));
		if (p[BS_RP_MIN_SIZE].value != BS_NONE) {
			n = strlen(out);
			snprintf(out + n, outsz - n, ":%lld",
				 (long long)p[BS_RP_MIN_SIZE].value);
		}
	}
	if (p[BS_RP_NUM_DIRS].value != BS_NONE &&
	    p[BS_RP_NUM_DIRS].value > 1) {
		n = strlen(out);
		snprintf(out + n, outsz - n, "/%lld",
			 (long long)p[BS_RP_NUM_DIRS].value);
	}
	return out;
}

int bs_rshade(int higher, double v, double best)
{
	double q;
	int s;

	if (isnan(v) || isnan(best))
		return -1;
	if (higher)
		q = best > 0 ? v / best : 1.0;
	else
		q = v > 0 ? best / v : 1.0;
	/* Half the best or worse is the reddest; equal to it the greenest. */
	s = (int)floor((q - 0.5) * 20.0 + 0.5);
	if (s < 0)
		s = 0;
	if (s > 10)
		s = 10;
	return s;
}

void bs_radd_clean(struct bs_buf *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		bs_buf_addc(b, (c < 0x20 && c != '\t') || c == 0x7f ? '?'
								    : (char)c);
	}
}

size_t bs_rwidth(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}
