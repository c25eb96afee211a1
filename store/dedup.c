/*
 * store/dedup.c - one measurement, one run (docs/ingest.md): the rule
 * that says two runs read from different text are the same measurement
 * (bonnie++ -q's CSV line on stdout and its table on stderr, ingested as
 * two files), and the key the write path looks such a run up by.
 */
#include "store/internal.h"

#include <math.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "util/buf.h"
#include "util/banned.h"

/* A run read from bonnie++'s table prints fewer digits than its CSV
 * line. The same test as the index runs_measure_key's (schema.sql). */
static int is_table(const struct bs_run *r)
{
	return r->format && strncmp(r->format, "bonnie++-text", 13) == 0;
}

/*
 * A value of metric m at the coarsest precision any of its tool's outputs
 * prints it: bonnie++ 2.00a's table for bonnie++'s tests ("340m"), the
 * two decimals of bs_value_fmt for the others.
 */
static const char *coarse(char *buf, size_t size, int m, double v)
{
	if (bs_metrics[m].family == BS_FAM_BONNIE)
		return bs_bonnie_fmt_rate(buf, size, m, v);
	return bs_value_fmt(buf, size, m, v);
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h ^ 0xff) * 1099511628211ULL; /* a field separator */
}

int64_t bs_store_measure_key(const struct bs_run *r)
{
	uint64_t h = 14695981039346656037ULL;
	char buf[64];
	int m, ok = 0;

	/* The rule covers bonnie++'s two forms of one run so far: its CSV
	 * line and its text table (docs/ingest.md). */
	if (r->family != BS_FAM_BONNIE)
		return 0;

	h = fnv(h, bs_family_name(r->family));
	h = fnv(h, r->tool);
	h = fnv(h, r->machine ? r->machine : "");
	/* The I/O tests' statuses and rates, but not the file tests':
	 * bonnie++ 1.98-2.00a's table prints a wrong number there, which
	 * bstore does not store. Every test's maximum latency, which
	 * both forms print whole. */
	for (m = 0; m < BS_M_BONNIE; m++) {
		const struct bs_value *v = &r->res[m];
		if (m < BS_M_FIRST_FILE) {
			h = fnv(h, bs_status_name(v->status));
			if (v->status == BS_ST_OK) {
				h = fnv(h, coarse(buf, sizeof(buf), m,
						  v->value));
				ok++;
			}
		}
		if (!isnan(v->lat_us)) {
			h = fnv(h, bs_bonnie_fmt_latency(buf, sizeof(buf),
							 v->lat_us));
			ok++;
		}
	}
	/* A run with no number says too little to be matched with
	 * another: it has no key. */
	if (ok == 0)
		return 0;
	h &= 0x7fffffffffffffffULL;
	return h ? (int64_t)h : 1;
}

/* Two numbers as printed by fmt: the same, or both unknown or one. */
static int same_printed(const char *(*fmt)(char *, size_t, double), double a,
			double b)
{
	char x[64], y[64];

	if (isnan(a) || isnan(b))
		return 1;
	return strcmp(fmt(x, sizeof(x), a), fmt(y, sizeof(y), b)) == 0;
}

int bs_store_same_measurement(const struct bs_run *a, const struct bs_run *b)
{
	struct bs_buf x = BS_BUF_INIT, y = BS_BUF_INIT;
	char s[64], t[64];
	int k, m, end, same = 1;

	/* A table and a CSV line: two lines, or two tables, of the same
	 * values are two runs that measured alike. */
	if (is_table(a) == is_table(b))
		return 0;
	if (a->family != b->family || strcmp(a->tool, b->tool) != 0 ||
	    strcmp(a->machine ? a->machine : "", b->machine ? b->machine : "") !=
		    0)
		return 0;
	/* What only one of them knows is no difference. */
	if (a->tool_version && b->tool_version &&
	    strcmp(a->tool_version, b->tool_version) != 0)
		return 0;
	if (a->measured_at != BS_NONE && b->measured_at != BS_NONE &&
	    a->measured_at != b->measured_at)
		return 0;
	for (k = 0; k < bs_nparams && same; k++) {
		if (bs_param_table[k].family != a->family ||
		    !bs_param_known(&a->params, k) ||
		    !bs_param_known(&b->params, k))
			continue;
		bs_buf_reset(&x);
		bs_buf_reset(&y);
		bs_param_format(&a->params, k, &x);
		bs_param_format(&b->params, k, &y);
		same = strcmp(bs_buf_str(&x), bs_buf_str(&y)) == 0;
	}
	bs_metric_rows(a->family, &m, &end);
	for (; m < end && same; m++) {
		const struct bs_value *v = &a->res[m], *w = &b->res[m];
		/* A table's test with no number stored (2.00a's file tests)
		 * says nothing against the line's. */
		if ((v->status == BS_ST_NOT_RUN && is_table(a)) ||
		    (w->status == BS_ST_NOT_RUN && is_table(b)))
			continue;
		if (v->status != w->status) {
			same = 0;
		} else if (v->status == BS_ST_OK) {
			same = strcmp(coarse(s, sizeof(s), m, v->value),
				      coarse(t, sizeof(t), m, w->value)) == 0;
		}
		if (same)
			same = same_printed(bs_bonnie_fmt_cpu, v->cpu_pct,
					    w->cpu_pct) &&
			       same_printed(bs_bonnie_fmt_latency, v->lat_us,
					    w->lat_us);
	}
	bs_buf_release(&x);
	bs_buf_release(&y);
	return same;
}

/* Is r the same measurement as stored run id? */
static int check_one(struct bs_store *st, int64_t id, const struct bs_run *r,
		     struct bs_err *err)
{
	struct bs_run old;
	int rc = bs_store_get(st, id, 0, &old, err);

	if (rc == 0)
		rc = bs_store_same_measurement(r, &old);
	bs_run_release(&old);
	return rc;
}

int bs_store_find_same(struct bs_store *st, const struct bs_run *r,
		       int64_t key, int64_t *id, struct bs_err *err)
{
	/* A line looks for tables through the index; a table for lines
	 * by reading runs (tables are few: docs/ingest.md). */
	struct bs_db_stmt *s = is_table(r) ? st->same_line : st->same_table;
	int64_t cand[16];
	int n = 0, i, rc;

	if (key == 0)
		return 0;
	bs_db_bind_int64(s, 1, key);
	while (n < 16 && bs_db_step(s) == BS_DB_ROW)
		cand[n++] = bs_db_column_int64(s, 0);
	bs_db_reset(s);
	for (i = 0; i < n; i++) {
		rc = check_one(st, cand[i], r, err);
		if (rc != 0) {
			if (rc > 0)
				*id = cand[i];
			return rc;
		}
	}
	return 0;
}
