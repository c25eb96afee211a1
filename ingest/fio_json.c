/*
 * ingest/fio_json.c - fio's JSON output (--output-format=json or json+;
 * FORMATS.md section 6.2), a block format of the registry: one run per
 * entry of "jobs" (group_reporting makes one of a group).
 *
 * The block starts at a line that is "{" alone (fio prints its document
 * so; text before it, such as fio's own error lines, is skipped) and ends
 * where its braces close, counted outside strings. A document without
 * "fio version" among its first lines is someone else's JSON: the block
 * ends there and gives nothing. The block's cleaned lines (quote marks
 * and list numbers cut) are parsed with jansson.
 *
 * fio 3.x gives latencies in ns ("clat_ns", "lat_ns"); fio before 2.99
 * gave them in us ("clat", "lat"): both are stored in us. Bandwidth "bw"
 * is KiB/s in both. The parameters are the job's options over the global
 * ones, as fio applies them.
 */
#include "ingest/fio.h"
#include "ingest/ingest.h"
#include "ingest/json_lenient.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/metric.h"
#include "core/dist.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/text.h"
#include "util/timefmt.h"
#include "util/banned.h"

#define REASON 256
/* Lines of the document "fio version" must appear in (fio prints it on
 * the second). */
#define FIO_KEY_LINES 8

struct jscan {
	long depth;
	int in_str, esc;
	int lines;
	int fio;
};

_Static_assert(sizeof(struct jscan) <= BS_BLOCK_STATE_MAX, "state fits");

/* Whether p (len bytes) holds the key "fio version". */
static int has_fio_key(const char *p, size_t len)
{
	static const char key[] = "\"fio version\"";
	size_t i;

	for (i = 0; i + sizeof(key) - 1 <= len; i++)
		if (memcmp(p + i, key, sizeof(key) - 1) == 0)
			return 1;
	return 0;
}

static void scan(struct jscan *s, const char *p, size_t len)
{
	size_t i;

	s->lines++;
	if (!s->fio && has_fio_key(p, len))
		s->fio = 1;
	for (i = 0; i < len; i++) {
		char c = p[i];

		if (s->in_str) {
			if (s->esc)
				s->esc = 0;
			else if (c == '\\')
				s->esc = 1;
			else if (c == '"')
				s->in_str = 0;
		} else if (c == '"') {
			s->in_str = 1;
		} else if (c == '{' || c == '[') {
			s->depth++;
		} else if (c == '}' || c == ']') {
			s->depth--;
		}
	}
}

static int json_start(const struct bs_fline *l, void *state)
{
	if (l->len != 1 || l->text[0] != '{')
		return 0;
	scan(state, l->text, l->len);
	return 1;
}

static enum bs_scan json_more(const struct bs_fline *l, void *state)
{
	struct jscan *s = state;

	if (!s->fio && s->lines >= FIO_KEY_LINES)
		return BS_SCAN_END_BEFORE;
	scan(s, l->text, l->len);
	if (s->depth <= 0)
		return BS_SCAN_LAST;
	return BS_SCAN_TAKE;
}

static int json_complete(const void *state)
{
	const struct jscan *s = state;

	/* Someone else's JSON cut short is no fio document. */
	return !s->fio || s->depth <= 0;
}

/* The block index of the line that starts with "jobname" the n-th
 * time (0-based), or prev when there is none: runs and rejects are
 * reported in line order. */
static size_t job_line(const struct bs_block *b, size_t n, size_t prev)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->l[i].len > 10 &&
		    strncmp(b->l[i].text, "\"jobname\"", 9) == 0 && n-- == 0)
			return i > prev ? i : prev;
	return prev;
}

/* A number member of o, or -1 when absent or not a number. */
static int num(json_t *o, const char *key, double *v)
{
	json_t *n = json_object_get(o, key);

	if (!json_is_number(n))
		return -1;
	*v = json_number_value(n);
	return 0;
}

/* Options of an object (string values, as fio writes them) to r. */
static int options(struct bs_run *r, json_t *o, char *reason)
{
	const char *k;
	json_t *v;

	if (!json_is_object(o))
		return 0;
	json_object_foreach(o, k, v) {
		const char *s = json_string_value(v);

		if (s && bs_fio_option(r, k, s, json_string_length(v), reason,
				       REASON) < 0)
			return -1;
	}
	return 0;
}

/* The latency objects of a direction whose json+ "bins" are kept, in
 * the order of enum bs_fio_hist. */
static const char *const hist_obj[BS_FIO_NHIST] = {"clat_ns", "slat_ns",
						   "lat_ns"};

static int by_x(const void *a, const void *b)
{
	const struct bs_point *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

/*
 * json+'s "bins" of a latency object (lo) of direction d as histogram h
 * of r: each key a bin's value in ns as fio's bucketing defines it
 * (core/dist.h), each value its count. Zero counts are left out, as fio
 * leaves them out.
 */
static int bins(struct bs_run *r, int d, int h, json_t *lo, char *reason)
{
	json_t *b = json_object_get(lo, "bins"), *cv;
	struct bs_series *s = NULL;
	const char *k;
	uint64_t v;
	unsigned idx;
	double c;
	int m;

	if (!json_is_object(b) || json_object_size(b) == 0)
		return 0;
	m = bs_fio_hist_metric(d, h);
	json_object_foreach(b, k, cv) {
		if (bs_parse_u64(k, strlen(k), &v) < 0 ||
		    !bs_fio_bin_index(v, &idx)) {
			snprintf(reason, REASON,
				 "fio JSON %s bin '%.40s' is not a value of "
				 "fio's bins",
				 bs_metrics[m].key, k);
			return -1;
		}
		if (!json_is_integer(cv) || json_integer_value(cv) < 0 ||
		    !bs_metric_fits(m, BS_PART_VALUE,
				    (c = (double)json_integer_value(cv)))) {
			snprintf(reason, REASON,
				 "fio JSON %s bin %.40s: its count is not a "
				 "count of I/Os",
				 bs_metrics[m].key, k);
			return -1;
		}
		if (c == 0)
			continue;
		if (s == NULL)
			s = bs_run_series_add(r, m, BS_DIST_FIO_AXIS);
		bs_series_point(s, (double)v, c, NAN);
	}
	if (s)
		qsort(s->pt, s->n, sizeof(s->pt[0]), by_x);
	return 0;
}

/*
 * The clat percentiles bstore keeps that fio did not print (a
 * --percentile_list without 99.9, say), from the clat histogram by
 * fio's rule: the numbers fio would have printed.
 */
static int fill_percentiles(struct bs_run *r, int d, char *reason)
{
	const struct bs_series *s =
		bs_run_series_find(r, bs_fio_hist_metric(d, BS_FIO_HIST_CLAT));
	int st, m;

	if (s == NULL || s->n == 0)
		return 0;
	for (st = 0; st < BS_FIO_NSTAT; st++) {
		if (bs_fio_stat_pct(st) <= 0)
			continue;
		m = bs_fio_metric(d, st);
		if (r->res[m].status == BS_ST_OK)
			continue;
		if (bs_fio_set(r, d, st,
			       bs_dist_percentile(s->pt, s->n,
						  bs_fio_stat_pct(st)) /
				       1000,
			       reason, REASON) < 0)
			return -1;
	}
	return 0;
}

/* One direction of a job: d of r. */
static int direction(struct bs_run *r, json_t *job, int d, char *reason)
{
	static const char *const name[BS_FIO_NDIR] = {"read", "write", "trim"};
	json_t *o = json_object_get(job, name[d]), *lat, *clat, *pct;
	double ios = 0, v, scale = 1000;
	const char *k;
	json_t *pv;
	int h;

	if (!json_is_object(o))
		return 0;
	if (num(o, "total_ios", &ios) < 0 && num(o, "io_bytes", &ios) < 0)
		num(o, "io_kbytes", &ios);
	if (!(ios > 0))
		return 0;
	if (num(o, "bw", &v) < 0) {
		snprintf(reason, REASON, "fio JSON %s without bw", name[d]);
		return -1;
	}
	if (bs_fio_set(r, d, BS_FIO_BW, v, reason, REASON) < 0)
		return -1;
	if (num(o, "iops", &v) < 0) {
		snprintf(reason, REASON, "fio JSON %s without iops", name[d]);
		return -1;
	}
	if (bs_fio_set(r, d, BS_FIO_IOPS, v, reason, REASON) < 0)
		return -1;
	lat = json_object_get(o, "lat_ns");
	clat = json_object_get(o, "clat_ns");
	if (lat == NULL && clat == NULL) {
		/* fio before 2.99: microseconds. */
		lat = json_object_get(o, "lat");
		clat = json_object_get(o, "clat");
		scale = 1;
	}
	if (num(lat, "mean", &v) == 0 &&
	    bs_fio_set(r, d, BS_FIO_LAT_MEAN, v / scale, reason, REASON) < 0)
		return -1;
	pct = json_object_get(clat, "percentile");
	if (json_is_object(pct))
		json_object_foreach(pct, k, pv) {
			double p;
			int st;

			if (bs_parse_double(k, strlen(k), &p) < 0 ||
			    !json_is_number(pv))
				continue;
			st = bs_fio_pct_stat(p);
			if (st >= 0 &&
			    bs_fio_set(r, d, st, json_number_value(pv) / scale,
				       reason, REASON) < 0)
				return -1;
		}
	/* json+: the histograms, in ns (fio 3.x) only. */
	if (scale == 1000)
		for (h = 0; h < BS_FIO_NHIST; h++)
			if (bins(r, d, h, json_object_get(o, hist_obj[h]),
				 reason) < 0)
				return -1;
	return fill_percentiles(r, d, reason);
}

/* Whether the space-separated list holds the word w (n bytes). */
static int has_word(const char *list, const char *w, size_t n)
{
	const char *p = list;

	while (*p) {
		size_t k = strcspn(p, " ");

		if (k == n && memcmp(p, w, n) == 0)
			return 1;
		p += k;
		if (*p == ' ')
			p++;
	}
	return 0;
}

/*
 * The base names of the job's --write_lat_log, --write_bw_log and
 * --write_iops_log (its own over the global ones), as the tag that lets
 * ingest attach its log files (BS_INGEST_FIO_LOG_TAG). fio names a log
 * after its job when the option is given empty.
 */
static void log_prefixes(struct bs_run *r, json_t *glob, json_t *opts)
{
	static const char *const keys[] = {"write_lat_log", "write_bw_log",
					   "write_iops_log"};
	struct bs_buf b = BS_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(opts, keys[i]);
		const char *s, *base;
		size_t n;

		if (v == NULL)
			v = json_object_get(glob, keys[i]);
		s = json_string_value(v);
		if (s == NULL)
			continue;
		if (s[0] == '\0')
			s = r->params.jobname;
		base = strrchr(s, '/');
		base = base ? base + 1 : s;
		n = strlen(base);
		/* One word each, once; no control bytes in a tag. */
		if (n == 0 || n > 200 || strpbrk(base, " \t\r\n") ||
		    bs_text_has_control(base))
			continue;
		if (has_word(bs_buf_str(&b), base, n))
			continue;
		if (b.len)
			bs_buf_addc(&b, ' ');
		bs_buf_adds(&b, base);
	}
	if (b.len)
		bs_run_tag(r, BS_INGEST_FIO_LOG_TAG, bs_buf_str(&b));
	bs_buf_release(&b);
}

/* Job i of the document into r. */
static int job(struct bs_run *r, json_t *doc, json_t *j, char *reason)
{
	json_t *v = json_object_get(doc, "fio version");
	const char *name;
	double t, err;
	int d;

	bs_fio_run_start(BS_FMT_FIO_JSON, json_string_value(v),
			 json_is_string(v) ? json_string_length(v) : 0, r);
	name = json_string_value(json_object_get(j, "jobname"));
	if (name == NULL) {
		snprintf(reason, REASON, "fio JSON job without jobname");
		return -1;
	}
	bs_run_set(&r->params.jobname, name);
	if (num(doc, "timestamp", &t) == 0 && t >= BS_TIME_MIN &&
	    t <= BS_TIME_MAX)
		r->measured_at = (int64_t)t;
	else if (json_object_get(doc, "timestamp"))
		/* Stored all the same, but not silently undated. */
		bs_run_set(&r->warning, "the date could not be read (fio's "
					"\"timestamp\" is not a time in "
					"seconds)");
	if (options(r, json_object_get(doc, "global options"), reason) < 0 ||
	    options(r, json_object_get(j, "job options"), reason) < 0)
		return -1;
	if (json_is_object(json_object_get(j, "job options")))
		bs_fio_defaults(r);
	log_prefixes(r, json_object_get(doc, "global options"),
		     json_object_get(j, "job options"));
	for (d = 0; d < BS_FIO_NDIR; d++)
		if (direction(r, j, d, reason) < 0)
			return -1;
	if (num(j, "error", &err) == 0 && err != 0) {
		char code[24];

		snprintf(code, sizeof(code), "%.0f", err);
		return bs_fio_error(r, name, code, strlen(code), reason,
				    REASON);
	}
	return 0;
}

/* Whether r holds a result: a job whose lines were all cut has none. */
static int has_result(const struct bs_run *r)
{
	int m, end;

	bs_metric_rows(BS_FAM_FIO, &m, &end);
	for (; m < end; m++)
		if (r->res[m].status == BS_ST_OK)
			return 1;
	return 0;
}

/*
 * The document of block b, parsed strictly and, when that fails, once
 * more after the lenient pass (ingest/json_lenient.c): a hand-shortened
 * paste. fixed gets the repairs in words ("" when none were needed),
 * reason the strict parser's words when both fail.
 */
static json_t *load(const struct bs_block *b, char *fixed, size_t fixedsz,
		    char *reason)
{
	struct bs_buf text = BS_BUF_INIT;
	struct bs_json_fixes fx;
	json_error_t jerr, jerr2;
	json_t *doc;
	size_t i;

	fixed[0] = '\0';
	for (i = 0; i < b->n; i++) {
		bs_buf_add(&text, b->l[i].text, b->l[i].len);
		bs_buf_addc(&text, '\n');
	}
	doc = json_loadb(text.data, text.len, 0, &jerr);
	if (doc == NULL) {
		bs_buf_reset(&text);
		if (bs_json_lenient(b, &text, &fx) == 1) {
			doc = json_loadb(text.data, text.len, 0, &jerr2);
			if (doc != NULL)
				bs_json_fixes_words(&fx, fixed, fixedsz);
		}
	}
	if (doc == NULL) {
		snprintf(reason, REASON,
			 "fio JSON does not parse: %.80s (its line %d)",
			 jerr.text, jerr.line);
		bs_fio_clean(reason);
	}
	bs_buf_release(&text);
	return doc;
}

static int json_parse(const struct bs_block *b, struct bs_block_out *out)
{
	struct bs_run r;
	json_t *doc = NULL, *jobs;
	char reason[REASON], fixed[REASON], msg[2 * REASON];
	size_t i, at = 0;
	int rc = 0;

	bs_run_init(&r);
	reason[0] = '\0';
	for (i = 0; i < b->n; i++)
		if (has_fio_key(b->l[i].text, b->l[i].len))
			break;
	if (i == b->n) {
		out->verdict = BS_BLOCK_NOT_MINE;
		goto out;
	}
	doc = load(b, fixed, sizeof(fixed), reason);
	if (doc == NULL) {
		rc = out->reject(out, 0, b->n - 1, reason);
		goto out;
	}
	jobs = json_object_get(doc, "jobs");
	if (!json_is_object(doc) || !json_is_array(jobs) ||
	    json_array_size(jobs) == 0) {
		rc = out->reject(out, 0, b->n - 1, "fio JSON without jobs");
		goto out;
	}
	for (i = 0; i < json_array_size(jobs); i++) {
		at = job_line(b, i, at);
		if (job(&r, doc, json_array_get(jobs, i), reason) == 0 &&
		    (!fixed[0] || has_result(&r))) {
			if (fixed[0]) {
				snprintf(msg, sizeof(msg),
					 "fio JSON shortened "
					 "by hand, read leniently: %s",
					 fixed);
				bs_fio_warn(&r, msg);
			}
			rc = out->run(out, &r, b->l[at].lineno);
		} else if (fixed[0] && out->note) {
			/* A job the author cut is no reject: the paste
			 * never meant to give it whole. */
			const char *name = json_string_value(
				json_object_get(json_array_get(jobs, i),
						"jobname"));

			if (reason[0] == '\0')
				snprintf(reason, sizeof(reason), "no results");
			bs_run_release(&r);
			snprintf(msg, sizeof(msg),
				 "fio JSON job '%.40s' cut "
				 "short by hand, not stored: %s",
				 name ? name : "", reason);
			bs_fio_clean(msg);
			out->note(out, b->l[at].lineno, msg);
		} else {
			bs_run_release(&r);
			bs_fio_clean(reason);
			rc = out->reject(out, at, at, reason);
		}
		reason[0] = '\0';
		if (rc < 0)
			goto out;
	}
out:
	bs_run_release(&r);
	json_decref(doc);
	return rc < 0 ? rc : 0;
}

const struct bs_block_ops bs_fio_json_ops = {
	json_start,
	json_more,
	json_complete,
	json_parse,
};
