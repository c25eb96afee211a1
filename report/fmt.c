/*
 * report/fmt.c - what the report needs of the catalogue (keys, names,
 * sections, units, which way is better) and its number formatting, which
 * is the one rule of core/bonnie_text.h.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "report/internal.h"
#include "util/num.h"
#include "util/banned.h"

static const char *const kind_suffix[BS_MK_COUNT] = {"", "_cpu", "_latency"};
static const char *const kind_name[BS_MK_COUNT] = {"rate", "cpu", "latency"};
static const char *const kind_label[BS_MK_COUNT] = {"", " CPU", " latency"};

const char *bs_report_metric_key(int m, char *out, size_t outsz)
{
	snprintf(out, outsz, "%s%s", bs_metrics[BS_RM_TEST(m)].key,
		 kind_suffix[BS_RM_KIND(m)]);
	return out;
}

const char *bs_rm_kind(int m)
{
	return kind_name[BS_RM_KIND(m)];
}

const char *bs_rm_label(int m, char *out, size_t outsz)
{
	snprintf(out, outsz, "%s%s", bs_metrics[BS_RM_TEST(m)].label,
		 kind_label[BS_RM_KIND(m)]);
	return out;
}

int bs_rsection_end(int t)
{
	int e = t + 1;

	while (e < bs_nmetrics &&
	       bs_metrics[e].family == bs_metrics[t].family &&
	       strcmp(bs_metrics[e].section, bs_metrics[t].section) == 0)
		e++;
	return e;
}

int bs_rm_better(int m)
{
	if (BS_RM_KIND(m) != BS_MK_RATE)
		return -1;
	return (int)bs_metrics[BS_RM_TEST(m)].better;
}

/* The value of a report metric is shown by the catalogue's one rule
 * (bs_metric_fmt); CPU and latency, bonnie++'s, by bonnie++'s. */
const char *bs_report_unit(const struct bs_report *rep, int m)
{
	switch (BS_RM_KIND(m)) {
	case BS_MK_CPU:
		return "%";
	case BS_MK_LAT:
		return "us";
	default:
		break;
	}
	return bs_metric_unit(BS_RM_TEST(m), rep->show);
}

double bs_rscale(const struct bs_report *rep, int m, double v)
{
	if (BS_RM_KIND(m) != BS_MK_RATE)
		return v;
	return bs_metric_scale(BS_RM_TEST(m), rep->show, v);
}

static const char *rfmt(const struct bs_report *rep, int m, double v, char *out,
			size_t outsz, unsigned flags)
{
	char tmp[64];

	if (isnan(v)) {
		out[0] = '\0';
		return out;
	}
	switch (BS_RM_KIND(m)) {
	case BS_MK_LAT:
		bs_bonnie_fmt_latency(tmp, sizeof(tmp), v);
		break;
	case BS_MK_CPU:
		bs_bonnie_fmt_cpu(tmp, sizeof(tmp), v);
		break;
	default:
		return bs_metric_fmt(out, outsz, BS_RM_TEST(m), v,
				     rep->show | flags);
	}
	if (flags & BS_SHOW_GROUP)
		return bs_rfmt_thousands(tmp, out, outsz);
	snprintf(out, outsz, "%s", tmp);
	return out;
}

const char *bs_rfmt(const struct bs_report *rep, int m, double v, char *out,
		    size_t outsz)
{
	return rfmt(rep, m, v, out, outsz, 0);
}

const char *bs_rfmt_thousands(const char *num, char *out, size_t outsz)
{
	return bs_fmt_thousands(num, out, outsz);
}

const char *bs_rfmt_h(const struct bs_report *rep, int m, double v, char *out,
		      size_t outsz)
{
	return rfmt(rep, m, v, out, outsz, BS_SHOW_GROUP);
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
	int dec;
	size_t n;

	if (isnan(v) || isinf(v)) {
		out[0] = '\0';
		return out;
	}
	if (fabs(v) >= 1e15) {
		snprintf(out, outsz, "%.6g", v);
		return out;
	}
	if (v == floor(v)) {
		snprintf(out, outsz, "%lld", (long long)v);
		return out;
	}
	/* Six significant digits, no exponent under 1e15: a mean of KiB/s
	 * needs no more, and spreadsheets read it as written. */
	dec = v == 0 ? 0 : 5 - (int)floor(log10(fabs(v)));
	if (dec < 0)
		dec = 0;
	if (dec > 15)
		dec = 15;
	snprintf(out, outsz, "%.*f", dec, v);
	n = strlen(out);
	if (strchr(out, '.')) {
		while (n > 0 && out[n - 1] == '0')
			out[--n] = '\0';
		if (n > 0 && out[n - 1] == '.')
			out[--n] = '\0';
	}
	if (strcmp(out, "-0") == 0)
		snprintf(out, outsz, "0");
	return out;
}

/* One integer-kind value of parameter k for people. */
static const char *fmt_pval(int k, int64_t v, char *out, size_t outsz)
{
	struct bs_params p;
	struct bs_buf b = BS_BUF_INIT;

	out[0] = '\0';
	if (v == BS_NONE)
		return out;
	/* The bonnie++ sizes in MiB print as bonnie++ does: "8G". */
	if (strcmp(bs_param_table[k].unit, "MiB") == 0)
		return bs_bonnie_fmt_size(out, outsz, v);
	bs_params_init(&p);
	*bs_param_i64(&p, k) = v;
	bs_param_format(&p, k, &b);
	snprintf(out, outsz, "%s", bs_buf_str(&b));
	bs_buf_release(&b);
	return out;
}

const char *bs_rfmt_param(const struct bs_report_group *g, int k, char *out,
			  size_t outsz)
{
	const struct bs_report_param *rp = &g->param[k];
	char lo[64], hi[64];

	switch (bs_param_table[k].kind) {
	case BS_PK_TEXT:
		snprintf(out, outsz, "%s",
			 rp->mixed  ? "mixed"
			 : rp->text ? rp->text
				    : "");
		return out;
	case BS_PK_REAL:
		if (rp->mixed)
			snprintf(out, outsz, "%s-%s (mixed)",
				 bs_fmt_g(lo, sizeof(lo), rp->rlo),
				 bs_fmt_g(hi, sizeof(hi), rp->rhi));
		else if (isnan(rp->rvalue))
			out[0] = '\0';
		else
			bs_fmt_g(out, outsz, rp->rvalue);
		return out;
	default:
		break;
	}
	if (rp->mixed) {
		snprintf(out, outsz, "%s-%s (mixed)",
			 fmt_pval(k, rp->lo, lo, sizeof(lo)),
			 fmt_pval(k, rp->hi, hi, sizeof(hi)));
		return out;
	}
	return fmt_pval(k, rp->value, out, outsz);
}

const char *bs_rfmt_files(const struct bs_report_group *g, char *out,
			  size_t outsz)
{
	const struct bs_param_rule *spec = NULL;
	struct bs_params p;
	int i, j, n, k[8];

	/* A group whose runs disagree on a parameter of the file tests (the
	 * rules on the -n spec's metrics) has a "mixed" spec. */
	for (i = 0; i < bs_nparam_rules && spec == NULL; i++)
		if (bs_param_rules[i].filespec)
			spec = &bs_param_rules[i];
	assert(spec != NULL);
	for (i = 0; i < bs_nparam_rules; i++) {
		const struct bs_param_rule *r = &bs_param_rules[i];
		if (r->family != spec->family ||
		    strcmp(r->metrics, spec->metrics) != 0)
			continue;
		n = bs_param_rule_keys(r, k, 8);
		for (j = 0; j < n; j++) {
			if (g->param[k[j]].mixed) {
				snprintf(out, outsz, "mixed");
				return out;
			}
		}
	}
	/* The group's integer parameters as one run's, spelled by the one
	 * rule for bonnie++'s -n spec. */
	bs_params_init(&p);
	for (j = 0; j < bs_nparams; j++)
		if (bs_param_table[j].kind != BS_PK_TEXT &&
		    bs_param_table[j].kind != BS_PK_REAL)
			*bs_param_i64(&p, j) = g->param[j].value;
	return bs_bonnie_fmt_files(out, outsz, &p);
}

int bs_rshade(int better, double v, double best)
{
	double q;
	int s;

	if (isnan(v) || isnan(best) || better == 0)
		return -1;
	if (better > 0)
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

size_t bs_rwidth(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

const char *bs_rverdict_class(const struct bs_report_cell *c)
{
	const struct bs_verdict_info *v = &bs_verdicts[c->verdict];

	return c->better > 0 ? v->class_up : v->class_down;
}

char bs_rverdict_mark(const struct bs_report_cell *c)
{
	return bs_verdicts[c->verdict].mark;
}
