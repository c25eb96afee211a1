/*
 * ingest/fio.c - what fio's formats share (ingest/fio.h): the run of a
 * job, its metrics by direction and statistic (one table that names the
 * catalogue's keys), the percentiles kept, and the job options kept as
 * parameters.
 */
#include "ingest/fio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/err.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

static const char *const dir_names[BS_FIO_NDIR] = {"read", "write", "trim"};

static int metric_of(int dir, int stat);

/* The catalogue key of each stat after "<dir>_", and the percentile it
 * is (0: not a percentile). */
static const struct {
	const char *key;
	double pct;
} stats[BS_FIO_NSTAT] = {
	{"bw_kib_s", 0},           {"iops", 0},
	{"lat_mean_us", 0},        {"clat_p50_us", 50},
	{"clat_p90_us", 90},       {"clat_p95_us", 95},
	{"clat_p99_us", 99},       {"clat_p99_9_us", 99.9},
	{"clat_p99_99_us", 99.99},
};

int bs_fio_dir_find(const char *s, size_t len)
{
	int d;

	for (d = 0; d < BS_FIO_NDIR; d++)
		if (strlen(dir_names[d]) == len &&
		    strncasecmp(s, dir_names[d], len) == 0)
			return d;
	return -1;
}

int bs_fio_pct_stat(double p)
{
	int s;

	/* fio prints 99.9 as "99.900000" and "99.90th": compare at the
	 * precision it prints. */
	for (s = 0; s < BS_FIO_NSTAT; s++)
		if (stats[s].pct > 0 && fabs(p - stats[s].pct) < 0.0005)
			return s;
	return -1;
}

double bs_fio_stat_pct(int stat)
{
	return stat >= 0 && stat < BS_FIO_NSTAT ? stats[stat].pct : 0;
}

int bs_fio_hist_metric(int dir, int h)
{
	static const char *const hist[BS_FIO_NHIST] = {"clat", "slat", "lat"};
	char key[64];
	int m;

	snprintf(key, sizeof(key), "%s_%s_hist", dir_names[dir], hist[h]);
	m = bs_metric_find(BS_FAM_FIO, key);
	if (m < 0)
		BS_BUG("a fio histogram is missing from the catalogue");
	return m;
}

int bs_fio_metric(int dir, int stat)
{
	return metric_of(dir, stat);
}

/* The catalogue row of stat of dir (the fio rows exist: core/metric.c). */
static int metric_of(int dir, int stat)
{
	char key[64];
	int m;

	snprintf(key, sizeof(key), "%s_%s", dir_names[dir], stats[stat].key);
	m = bs_metric_find(BS_FAM_FIO, key);
	if (m < 0)
		BS_BUG("a fio metric is missing from the catalogue");
	return m;
}

void bs_fio_run_start(const char *format, const char *version,
		      size_t version_len, struct bs_run *r)
{
	r->family = BS_FAM_FIO;
	bs_run_set(&r->tool, "fio");
	bs_run_set(&r->format, format);
	if (version && version_len > 4 && strncmp(version, "fio-", 4) == 0) {
		version += 4;
		version_len -= 4;
	}
	free(r->tool_version);
	r->tool_version = NULL;
	if (version && version_len > 0 && version_len <= 64)
		r->tool_version = xstrndup(version, version_len);
}

void bs_fio_clean(char *reason)
{
	for (; *reason; reason++)
		if ((unsigned char)*reason < 0x20 || *reason == 0x7f)
			*reason = '?';
}

int bs_fio_set(struct bs_run *r, int dir, int stat, double v, char *reason,
	       size_t reasonsz)
{
	int m = metric_of(dir, stat);
	char num[64];

	if (!bs_metric_fits(m, BS_PART_VALUE, v)) {
		snprintf(reason, reasonsz, "fio %s %s out of range",
			 bs_metrics[m].key, bs_fmt_g(num, sizeof(num), v));
		return -1;
	}
	r->res[m].status = BS_ST_OK;
	r->res[m].value = v;
	return 0;
}

/* The major version of "3.33", "2.0.8": 0 when it does not start with
 * one. */
static int atoi_major(const char *v)
{
	int64_t n;
	size_t len = strspn(v, "0123456789");

	if (len == 0 || len > 3 || bs_parse_i64(v, len, &n) < 0)
		return 0;
	return (int)n;
}

/* Job options kept: the parameter's key (fio's own name). */
static const char *const text_opts[] = {"rw", "bs", "ioengine", "size"};
static const char *const int_opts[] = {"iodepth", "numjobs", "direct"};

int bs_fio_option(struct bs_run *r, const char *name, const char *value,
		  size_t value_len, char *reason, size_t reasonsz)
{
	char q[48];
	int64_t v;
	size_t i;
	int p;

	/* fio also takes readwrite= for rw= and blocksize= for bs=. */
	if (strcmp(name, "readwrite") == 0)
		name = "rw";
	else if (strcmp(name, "blocksize") == 0)
		name = "bs";
	for (i = 0; i < sizeof(text_opts) / sizeof(text_opts[0]); i++)
		if (strcmp(name, text_opts[i]) == 0) {
			p = bs_param_find_in(BS_FAM_FIO, name);
			free(*bs_param_text(&r->params, p));
			*bs_param_text(&r->params, p) =
				xstrndup(value, value_len);
			return 0;
		}
	for (i = 0; i < sizeof(int_opts) / sizeof(int_opts[0]); i++)
		if (strcmp(name, int_opts[i]) == 0)
			break;
	if (i == sizeof(int_opts) / sizeof(int_opts[0]))
		return 0;
	p = bs_param_find_in(BS_FAM_FIO, name);
	if (strcmp(name, "direct") == 0 && value_len == 4 &&
	    strncasecmp(value, "true", 4) == 0)
		v = 1;
	else if (strcmp(name, "direct") == 0 && value_len == 5 &&
		 strncasecmp(value, "false", 5) == 0)
		v = 0;
	else if (bs_parse_i64(value, value_len, &v) < 0)
		v = -1;
	if (!bs_param_fits(p, v)) {
		bs_err_quote(q, sizeof(q), value, value_len, BS_FIO_QUOTE_MAX);
		snprintf(reason, reasonsz, "fio option %s=%s is not a valid %s",
			 name, q, name);
		return -1;
	}
	*bs_param_i64(&r->params, p) = v;
	return 0;
}

void bs_fio_defaults(struct bs_run *r)
{
	/* fio's own defaults of the text options (fio 3.x: fio 2.x's
	 * engine was sync); the integer ones are the parameter rows'. */
	static const struct {
		const char *key, *value;
		int since; /* the first major version that has it */
	} text[] = {
		{"rw", "read", 2},
		{"bs", "4k", 2},
		{"ioengine", "psync", 3},
	};
	int major = r->tool_version ? atoi_major(r->tool_version) : 0;
	size_t i;
	int k;

	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		k = bs_param_find_in(BS_FAM_FIO, text[i].key);
		if (major >= text[i].since && !bs_param_known(&r->params, k))
			*bs_param_text(&r->params, k) = xstrdup(text[i].value);
	}
	for (i = 0; i < sizeof(int_opts) / sizeof(int_opts[0]); i++) {
		k = bs_param_find_in(BS_FAM_FIO, int_opts[i]);
		if (major >= 2 && !bs_param_known(&r->params, k) &&
		    bs_param_table[k].dflt != BS_NONE)
			*bs_param_i64(&r->params, k) = bs_param_table[k].dflt;
	}
}

/*
 * One rule for a job whose err= (the JSON's "error", the terse line's
 * field 5) is not 0: fio still prints what the job did, so a job that
 * did I/O is kept, tagged fio.error=ERR and warned of; one that did
 * none is a reject.
 */
int bs_fio_error(struct bs_run *r, const char *name, const char *err,
		 size_t err_len, char *reason, size_t reasonsz)
{
	char msg[160], code[24];
	int m, end, did = 0;

	snprintf(code, sizeof(code), "%.*s", (int)(err_len < 20 ? err_len : 20),
		 err);
	bs_metric_rows(BS_FAM_FIO, &m, &end);
	for (; m < end; m++)
		if (r->res[m].status == BS_ST_OK && r->res[m].value > 0)
			did = 1;
	if (!did) {
		snprintf(reason, reasonsz,
			 "fio job '%.40s' ended with error %s and did no I/O",
			 name ? name : "", code);
		return -1;
	}
	bs_run_tag(r, "fio.error", code);
	snprintf(msg, sizeof(msg),
		 "fio job '%.40s' ended with error %s: its results are kept, "
		 "tagged fio.error=%s",
		 name ? name : "", code, code);
	bs_fio_warn(r, msg);
	return 0;
}

void bs_fio_warn(struct bs_run *r, const char *msg)
{
	if (r->warning && r->warning[0]) {
		size_t n = strlen(r->warning) + strlen(msg) + 3;
		char *w = xmalloc(n);

		snprintf(w, n, "%s; %s", r->warning, msg);
		free(r->warning);
		r->warning = w;
	} else {
		bs_run_set(&r->warning, msg);
	}
}
