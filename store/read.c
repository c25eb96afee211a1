/*
 * store/read.c - reading runs back into struct bs_run, kept rejects, and
 * counts.
 */
#include "store/internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dist.h"
#include "core/supply.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/banned.h"

/* ---- reading ------------------------------------------------------ */

static char *col_text(struct bs_db_stmt *s, int i)
{
	const char *t = bs_db_column_text(s, i);

	if (t == NULL)
		return NULL;
	return xstrndup((const char *)t, (size_t)bs_db_column_bytes(s, i));
}

static int64_t col_i64(struct bs_db_stmt *s, int i)
{
	return bs_db_column_type(s, i) == BS_DB_NULL ? BS_NONE
						     : bs_db_column_int64(s, i);
}

static double col_double(struct bs_db_stmt *s, int i)
{
	return bs_db_column_type(s, i) == BS_DB_NULL
		       ? NAN
		       : bs_db_column_double(s, i);
}

struct reader {
	struct bs_db_stmt *runs;
	struct bs_db_stmt *tags;
	/* Reading runs in id order: the tags of those runs in the same
	 * order, read alongside (one query instead of one a run: on
	 * PostgreSQL each query is a round trip to the server). */
	struct bs_db_stmt *alltags;
	int tag_ready; /* alltags holds a row not yet taken */
	int tags_done;
	struct bs_db_stmt *lat;
	struct bs_db_stmt *res;  /* run_results of one run */
	struct bs_db_stmt *par;  /* run_params of one run */
	struct bs_db_stmt *ser;  /* series of one run */
	struct bs_db_stmt *dist; /* distributions of one run */
	int load;
	/* A merge source's (BS_STORE_NO_UPGRADE) run is read as ingest
	 * would take it: the first value that ingest could not have stored
	 * (a parameter of the wrong type, a metric or parameter the
	 * catalogue does not know, the no-date sentinel as a date) is kept
	 * in bad, and the run is refused with it (BS_EPARSE). */
	int strict;
	char bad[200];
};

/* Keeps the first reason a strict read refuses the run for. */
static void refuse(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void refuse(struct reader *rd, const char *fmt, ...)
{
	va_list ap;

	if (!rd->strict || rd->bad[0])
		return;
	va_start(ap, fmt);
	vsnprintf(rd->bad, sizeof(rd->bad), fmt, ap);
	va_end(ap);
}

enum read_mode { READ_ALL, READ_ONE, READ_RANGE };

/* The columns reader_row reads before the table-driven ones. */
#define HEAD_COLS                                                              \
	"id, family, tool, tool_version, format, machine, measured_at, "       \
	"stored_at, source, source_line, parser_version, warning, "            \
	"sha256, supplied, "

static int reader_open(struct bs_store *st, struct reader *rd, int load,
		       enum read_mode mode, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	static const char *const sfx[] = BS_STORE_METRIC_SUFFIXES;
	struct bs_buf sql = BS_BUF_INIT;
	int k, i, rc = 0;

	memset(rd, 0, sizeof(*rd));
	rd->load = load;
	rd->strict = st->no_upgrade;
	bs_buf_adds(&sql, "SELECT " HEAD_COLS);
	bs_buf_adds(&sql, (load & BS_LOAD_RAW) ? "raw" : "NULL");
	for (k = 0; k < st->npcol; k++)
		bs_buf_addf(&sql, ", %s", bs_param_table[st->pcol[k]].column);
	for (k = 0; k < st->nmcol; k++)
		for (i = 0; i < BS_STORE_METRIC_NCOLS; i++)
			bs_buf_addf(&sql, ", %s%s", bs_metrics[st->mcol[k]].key,
				    sfx[i]);
	bs_buf_adds(&sql, mode == READ_ALL ? " FROM runs ORDER BY id"
			  : mode == READ_ONE
				  ? " FROM runs WHERE id = ?"
				  : " FROM runs WHERE id BETWEEN ? AND "
				    "? ORDER BY id");
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &rd->runs, &dbe) < 0 ||
	    bs_db_prepare(st->db,
			  "SELECT key, value FROM tags WHERE run_id = ? ORDER "
			  "BY key",
			  0, &rd->tags, &dbe) < 0 ||
	    ((load & BS_LOAD_TAGS) && mode != READ_ONE &&
	     bs_db_prepare(st->db,
			   mode == READ_ALL
				   ? "SELECT run_id, key, value FROM tags "
				     "ORDER BY run_id, key"
				   : "SELECT run_id, key, value FROM tags "
				     "WHERE run_id BETWEEN ? AND ? ORDER BY "
				     "run_id, key",
			   0, &rd->alltags, &dbe) < 0) ||
	    bs_db_prepare(st->db,
			  "SELECT metric, mean_us, p50_us, p99_us FROM "
			  "latency WHERE run_id = ?",
			  0, &rd->lat, &dbe) < 0 ||
	    bs_db_prepare(st->db,
			  "SELECT metric, value, status, cpu_pct, lat_us FROM "
			  "run_results WHERE run_id = ?",
			  0, &rd->res, &dbe) < 0 ||
	    bs_db_prepare(st->db,
			  "SELECT key, value FROM run_params WHERE run_id = ?",
			  0, &rd->par, &dbe) < 0 ||
	    bs_db_prepare(st->db,
			  "SELECT metric, axis, x, y, seconds FROM series "
			  "WHERE run_id = ? ORDER BY metric, seq",
			  0, &rd->ser, &dbe) < 0 ||
	    bs_db_prepare(st->db,
			  "SELECT metric, axis, scheme, nbins, bins FROM "
			  "distributions WHERE run_id = ? ORDER BY metric",
			  0, &rd->dist, &dbe) < 0)
		rc = bs_store_db_fail(st, err, "cannot read runs", &dbe);
	bs_buf_release(&sql);
	return rc;
}

static void reader_close(struct reader *rd)
{
	bs_db_finalize(rd->runs);
	bs_db_finalize(rd->tags);
	bs_db_finalize(rd->alltags);
	bs_db_finalize(rd->lat);
	bs_db_finalize(rd->res);
	bs_db_finalize(rd->par);
	bs_db_finalize(rd->ser);
	bs_db_finalize(rd->dist);
}

/*
 * Whether column i of s holds what parameter k's kind stores: an integer
 * for the integer kinds, a number for a real (or, from PostgreSQL's
 * run_params, whose values are text, the text of one).
 */
static void check_param(struct reader *rd, struct bs_db_stmt *s, int i, int k)
{
	enum bs_db_type t = bs_db_column_type(s, i);
	enum bs_pkind kind = bs_param_table[k].kind;
	const char *text;
	char q[48];
	int64_t v;
	double d;

	if (!rd->strict || t == BS_DB_NULL || kind == BS_PK_TEXT ||
	    t == BS_DB_INT || (t == BS_DB_FLOAT && kind == BS_PK_REAL))
		return;
	text = t == BS_DB_TEXT ? bs_db_column_text(s, i) : NULL;
	if (text &&
	    (kind == BS_PK_REAL ? bs_parse_double(text, strlen(text), &d) == 0
				: bs_parse_i64(text, strlen(text), &v) == 0))
		return;
	refuse(rd, "parameter '%s': '%s' is not %s", bs_param_table[k].key,
	       text ? bs_err_quote(q, sizeof(q), text, strlen(text), 32)
		    : "a value of its type",
	       kind == BS_PK_REAL ? "a number" : "an integer");
}

/* Column i of s into parameter k of p, as its kind says. */
static void col_param(struct bs_db_stmt *s, int i, struct bs_params *p, int k)
{
	switch (bs_param_table[k].kind) {
	case BS_PK_TEXT:
		free(*bs_param_text(p, k));
		*bs_param_text(p, k) = col_text(s, i);
		break;
	case BS_PK_REAL:
		*bs_param_real(p, k) = col_double(s, i);
		break;
	default:
		*bs_param_i64(p, k) = col_i64(s, i);
		break;
	}
}

static enum bs_status col_status(struct bs_db_stmt *s, int i)
{
	const char *t = bs_db_column_text(s, i);
	enum bs_status st;

	if (t == NULL || bs_status_parse((const char *)t, &st) < 0)
		return BS_ST_NOT_RUN;
	return st;
}

/* A result's four columns from column i on: value, status, CPU and
 * latency, as runs' and results' rows hold them. */
static void col_value(struct bs_db_stmt *s, int i, struct bs_value *v)
{
	v->value = col_double(s, i);
	v->status = col_status(s, i + 1);
	v->cpu_pct = col_double(s, i + 2);
	v->lat_us = col_double(s, i + 3);
}

/* The rows of q for run r->id, each passed to fn. */
static int each_row(struct bs_store *st, struct reader *rd,
		    struct bs_db_stmt *q, struct bs_run *r,
		    void (*fn)(struct reader *rd, struct bs_db_stmt *q,
			       struct bs_run *r),
		    const char *what, struct bs_err *err)
{
	int rc;

	bs_db_bind_int64(q, 1, r->id);
	while ((rc = bs_db_step(q)) == BS_DB_ROW)
		fn(rd, q, r);
	bs_db_reset(q);
	if (rc != BS_DB_DONE)
		return bs_store_db_error(st, err, what);
	return 0;
}

static void tag_row(struct reader *rd, struct bs_db_stmt *q, struct bs_run *r)
{
	(void)rd;
	/* tags is keyed by run and key: each key once. */
	bs_run_tag_add(r, bs_db_column_text(q, 0), bs_db_column_text(q, 1));
}

/* r's tags from the reader's tags in run order: those of earlier runs
 * (not asked for) are passed over. */
static int merge_tags(struct bs_store *st, struct reader *rd, struct bs_run *r,
		      struct bs_err *err)
{
	struct bs_db_stmt *q = rd->alltags;
	int64_t id;
	int rc;

	while (!rd->tags_done) {
		if (!rd->tag_ready) {
			rc = bs_db_step(q);
			if (rc == BS_DB_DONE) {
				rd->tags_done = 1;
				break;
			}
			if (rc != BS_DB_ROW)
				return bs_store_db_error(st, err,
							 "cannot read tags");
			rd->tag_ready = 1;
		}
		id = bs_db_column_int64(q, 0);
		if (id > r->id)
			break;
		if (id == r->id)
			bs_run_tag_add(r, bs_db_column_text(q, 1),
				       bs_db_column_text(q, 2));
		rd->tag_ready = 0;
	}
	return 0;
}

/* A metric the catalogue does not know (written by a newer bstore) is
 * skipped; a strict read refuses the run (what: the table's rows). */
static int metric_of(struct reader *rd, struct bs_db_stmt *q,
		     const struct bs_run *r, const char *what)
{
	const char *key = bs_db_column_text(q, 0);
	int m = key ? bs_metric_find(r->family, (const char *)key) : -1;
	char k[48];

	if (m < 0)
		refuse(rd,
		       "%s of metric '%s', which the catalogue does not "
		       "know for the %s family",
		       what,
		       bs_err_quote(k, sizeof(k), key ? key : "",
				    key ? strlen(key) : 0, 32),
		       bs_family(r->family)->name);
	return m;
}

static void lat_row(struct reader *rd, struct bs_db_stmt *q, struct bs_run *r)
{
	int m = metric_of(rd, q, r, "a latency");

	if (m < 0)
		return;
	r->res[m].lat_mean_us = col_double(q, 1);
	r->res[m].lat_p50_us = col_double(q, 2);
	r->res[m].lat_p99_us = col_double(q, 3);
}

static void res_row(struct reader *rd, struct bs_db_stmt *q, struct bs_run *r)
{
	int m = metric_of(rd, q, r, "a result");

	if (m >= 0)
		col_value(q, 1, &r->res[m]);
}

static void par_row(struct reader *rd, struct bs_db_stmt *q, struct bs_run *r)
{
	const char *key = bs_db_column_text(q, 0);
	int k = key ? bs_param_find_in(r->family, (const char *)key) : -1;
	char kq[48];

	if (k < 0)
		refuse(rd,
		       "parameter '%s', which the catalogue does not know "
		       "for the %s family",
		       bs_err_quote(kq, sizeof(kq), key ? key : "",
				    key ? strlen(key) : 0, 32),
		       bs_family(r->family)->name);
	if (k >= 0) {
		check_param(rd, q, 1, k);
		col_param(q, 1, &r->params, k);
	}
}

static void ser_row(struct reader *rd, struct bs_db_stmt *q, struct bs_run *r)
{
	struct bs_series *s = r->nseries ? &r->series[r->nseries - 1] : NULL;
	int m = metric_of(rd, q, r, "a curve");
	const char *axis = bs_db_column_text(q, 1);

	/* A metric without curves here (a newer catalogue's) is skipped. */
	if (m < 0 || !(bs_metrics[m].flags & BS_MF_SERIES))
		return;
	/* Rows come ordered by metric: a new metric starts a curve. */
	if (s == NULL || s->metric != m)
		s = bs_run_series_add(r, m, axis ? (const char *)axis : "");
	bs_series_point(s, bs_db_column_double(q, 2), col_double(q, 3),
			col_double(q, 4));
}

/* A row of distributions: the curve its bins unpack to. */
static void dist_row(struct reader *rd, struct bs_db_stmt *q, struct bs_run *r)
{
	int m = metric_of(rd, q, r, "a distribution");
	const char *axis = bs_db_column_text(q, 1);
	const char *scheme = bs_db_column_text(q, 2);
	const unsigned char *b = bs_db_column_blob(q, 4);
	size_t n = b ? bs_db_column_bytes(q, 4) : 0;
	struct bs_series *s;
	char k[48];

	if (m < 0 || !bs_dist_metric(m) || bs_run_series_find(r, m))
		return;
	s = bs_run_series_add(r, m, axis ? (const char *)axis : "");
	if (bs_dist_unpack(scheme ? scheme : "",
			   b ? b : (const unsigned char *)"", n,
			   bs_db_column_int64(q, 3), s) < 0) {
		refuse(rd,
		       "distribution '%s' has bins that are not its "
		       "scheme's packing",
		       bs_err_quote(k, sizeof(k), bs_metrics[m].key,
				    strlen(bs_metrics[m].key), 32));
		s->n = 0;
	}
}

/* Orders a run's curves by metric key, as one query of series would. */
static int by_key(const void *a, const void *b)
{
	return strcmp(bs_metrics[((const struct bs_series *)a)->metric].key,
		      bs_metrics[((const struct bs_series *)b)->metric].key);
}

/* Can runs of family f have curves? Only then are series looked up. */
static int has_series(enum bs_family f)
{
	int t, t0, t1;

	bs_metric_rows(f, &t0, &t1);
	for (t = t0; t < t1; t++)
		if (bs_metrics[t].flags & BS_MF_SERIES)
			return 1;
	return 0;
}

/* The digest (32 bytes; any other length an archive holds, up to what
 * out takes) as lowercase hex. */
static void sha_hex(struct bs_db_stmt *s, int col, char out[BS_SHA256_HEX])
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *b = bs_db_column_blob(s, col);
	size_t n = b ? bs_db_column_bytes(s, col) : 0, i;

	if (n > (BS_SHA256_HEX - 1) / 2)
		n = 0;
	for (i = 0; i < n; i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	out[2 * n] = '\0';
}

/* Fills r from the current row of rd->runs, plus what else load asks. */
static int reader_row(struct bs_store *st, struct reader *rd, struct bs_run *r,
		      struct bs_err *err)
{
	struct bs_db_stmt *s = rd->runs;
	const char *fam;
	int c = 0, k, rc = 0;

	bs_run_init(r);
	r->id = bs_db_column_int64(s, c++);
	fam = bs_db_column_text(s, c++);
	if (fam == NULL || bs_family_parse((const char *)fam, &r->family) < 0) {
		char q[48];
		const char *f = fam ? (const char *)fam : "";

		/* Only the reason: the caller names the archive and run. */
		return bs_error(err, BS_EPARSE,
				"unknown tool family '%s' (a newer bstore "
				"wrote it?)",
				bs_err_quote(q, sizeof(q), f, strlen(f), 32));
	}
	r->tool = col_text(s, c++);
	r->tool_version = col_text(s, c++);
	r->format = col_text(s, c++);
	r->machine = col_text(s, c++);
	/* BS_NONE is how a run says "no date": as a stored date it is no
	 * time ingest could have written. */
	if (bs_db_column_type(s, c) != BS_DB_NULL &&
	    bs_db_column_int64(s, c) == BS_NONE)
		refuse(rd, "measured_at %lld is no date", (long long)BS_NONE);
	r->measured_at = col_i64(s, c++);
	if (bs_db_column_type(s, c) == BS_DB_NULL ||
	    bs_db_column_int64(s, c) == BS_NONE)
		refuse(rd, "stored_at is no date");
	r->stored_at = col_i64(s, c++);
	r->source = col_text(s, c++);
	r->source_line = col_i64(s, c++);
	r->parser_version = col_text(s, c++);
	r->warning = col_text(s, c++);
	sha_hex(s, c++, r->sha256);
	bs_supplied_parse(r, bs_db_column_text(s, c++));
	r->raw = col_text(s, c++);
	for (k = 0; k < st->npcol; k++) {
		check_param(rd, s, c, st->pcol[k]);
		col_param(s, c++, &r->params, st->pcol[k]);
	}
	for (k = 0; k < st->nmcol; k++, c += 4)
		col_value(s, c, &r->res[st->mcol[k]]);
	if ((rd->load & BS_LOAD_TAGS) && rd->alltags)
		rc = merge_tags(st, rd, r, err);
	else if (rd->load & BS_LOAD_TAGS)
		rc = each_row(st, rd, rd->tags, r, tag_row, "cannot read tags",
			      err);
	if (rc == 0 && bs_store_keeps_latency(r))
		rc = each_row(st, rd, rd->lat, r, lat_row,
			      "cannot read latency", err);
	/* The bonnie family is all in runs' columns (the fast path). */
	if (rc == 0 && !(bs_family(r->family)->flags & BS_FAMF_COLUMNS))
		rc = each_row(st, rd, rd->res, r, res_row,
			      "cannot read results", err);
	if (rc == 0 && !(bs_family(r->family)->flags & BS_FAMF_COLUMNS))
		rc = each_row(st, rd, rd->par, r, par_row,
			      "cannot read parameters", err);
	if (rc == 0 && (rd->load & BS_LOAD_SERIES) && has_series(r->family))
		rc = each_row(st, rd, rd->ser, r, ser_row, "cannot read series",
			      err);
	if (rc == 0 && (rd->load & BS_LOAD_SERIES) && has_series(r->family)) {
		size_t before = r->nseries;

		rc = each_row(st, rd, rd->dist, r, dist_row,
			      "cannot read distributions", err);
		if (r->nseries > before && before > 0)
			qsort(r->series, r->nseries, sizeof(r->series[0]),
			      by_key);
	}
	/* Only the reason: the caller names the archive and run. */
	if (rc == 0 && rd->bad[0])
		rc = bs_error(err, BS_EPARSE, "%s", rd->bad);
	rd->bad[0] = '\0';
	return rc;
}

/* bs_store_get's reader, kept for the connection's life (merge reads
 * every run of its source through it). */
struct bs_store_getter {
	struct reader rd;
	int load;
};

void bs_store_getter_free(struct bs_store *st)
{
	if (st->getter == NULL)
		return;
	reader_close(&st->getter->rd);
	free(st->getter);
	st->getter = NULL;
}

int bs_store_get(struct bs_store *st, int64_t id, int load, struct bs_run *r,
		 struct bs_err *err)
{
	struct bs_err why = BS_ERR_INIT;
	int rc = bs_store_read(st, id, load, r, &why);

	if (rc == -BS_EPARSE)
		return bs_error(err, BS_EPARSE, "%s: run %lld: %s", st->path,
				(long long)id, why.msg);
	if (rc < 0)
		return bs_error(err, why.code, "%s", why.msg);
	return 0;
}

int bs_store_read(struct bs_store *st, int64_t id, int load, struct bs_run *r,
		  struct bs_err *err)
{
	struct reader *rd;
	int rc;

	bs_run_init(r);
	if (st->getter && st->getter->load != load)
		bs_store_getter_free(st);
	if (st->getter == NULL) {
		st->getter = xcalloc(1, sizeof(*st->getter));
		st->getter->load = load;
		rc = reader_open(st, &st->getter->rd, load, READ_ONE, err);
		if (rc < 0) {
			bs_store_getter_free(st);
			return rc;
		}
	}
	rd = &st->getter->rd;
	bs_db_bind_int64(rd->runs, 1, id);
	rc = bs_db_step(rd->runs);
	if (rc == BS_DB_ROW) {
		rc = reader_row(st, rd, r, err);
	} else if (rc == BS_DB_DONE) {
		rc = bs_error(err, BS_ENOTFOUND, "no run with id %lld",
			      (long long)id);
	} else {
		rc = bs_store_db_error(st, err, "cannot read run");
	}
	bs_db_reset(rd->runs);
	if (rc < 0)
		bs_run_release(r);
	return rc < 0 ? rc : 0;
}

/*
 * A run this bstore cannot read (reader_row's BS_EPARSE: an unknown
 * family, which an older bstore's merge let in) is skipped, and named in
 * a warning once per connection, so that one such run does not stop
 * every command that reads the archive.
 */
static int skip_run(struct bs_store *st, int64_t id, struct bs_err *why)
{
	struct bs_buf msg = BS_BUF_INIT;
	size_t i;

	for (i = 0; i < st->skipped.n; i++)
		if (st->skipped.id[i] == id)
			goto out;
	bs_ids_merge(&st->skipped, &id, 1);
	if (st->warn == NULL)
		goto out;
	bs_buf_addf(&msg, "%s: run %lld: %s; skipped", st->path, (long long)id,
		    why->msg);
	st->warn(bs_buf_str(&msg), st->warn_ctx);
out:
	bs_buf_release(&msg);
	bs_err_reset(why);
	return 0;
}

void bs_store_set_warn(struct bs_store *st, bs_store_warn_fn fn, void *ctx)
{
	st->warn = fn;
	st->warn_ctx = ctx;
}

/*
 * Hands run r (id), which reader_row read with result rc, to fn, skips it
 * when this bstore cannot read it, or says why reading failed; releases
 * r. Returns fn's result, 0 (skipped) or <0.
 */
static int deliver(struct bs_store *st, int rc, int64_t id, struct bs_run *r,
		   struct bs_err *why, bs_run_fn fn, void *ctx,
		   struct bs_err *err)
{
	if (rc == -BS_EPARSE)
		rc = skip_run(st, id, why);
	else if (rc < 0)
		bs_error(err, why->code, "%s", why->msg);
	else
		rc = fn(r, ctx);
	bs_run_release(r);
	return rc;
}

/* A dense id list is read with one range scan, a sparse one by lookups. */
static int dense(const struct bs_ids *ids)
{
	uint64_t span;

	if (ids->n < 64)
		return 0;
	span = (uint64_t)(ids->id[ids->n - 1] - ids->id[0]) + 1;
	return span <= 4 * (uint64_t)ids->n;
}

int bs_store_each(struct bs_store *st, const struct bs_ids *ids, int load,
		  bs_run_fn fn, void *ctx, struct bs_err *err)
{
	enum read_mode mode = ids == NULL  ? READ_ALL
			      : dense(ids) ? READ_RANGE
					   : READ_ONE;
	struct bs_err why = BS_ERR_INIT;
	struct bs_run r;
	struct reader rd;
	size_t i = 0;
	int rc, step;

	bs_run_init(&r);
	rc = reader_open(st, &rd, load, mode, err);
	if (rc < 0)
		goto out;
	if (mode != READ_ONE) {
		if (mode == READ_RANGE) {
			bs_db_bind_int64(rd.runs, 1, ids->id[0]);
			bs_db_bind_int64(rd.runs, 2, ids->id[ids->n - 1]);
			if (rd.alltags) {
				bs_db_bind_int64(rd.alltags, 1, ids->id[0]);
				bs_db_bind_int64(rd.alltags, 2,
						 ids->id[ids->n - 1]);
			}
		}
		while ((step = bs_db_step(rd.runs)) == BS_DB_ROW) {
			if (mode == READ_RANGE) {
				/* Both ascend: skip rows not asked for. */
				int64_t id = bs_db_column_int64(rd.runs, 0);
				while (i < ids->n && ids->id[i] < id)
					i++;
				if (i == ids->n)
					break;
				if (ids->id[i] != id)
					continue;
			}
			rc = reader_row(st, &rd, &r, &why);
			rc = deliver(st, rc, r.id, &r, &why, fn, ctx, err);
			if (rc < 0)
				goto out;
		}
		if (step != BS_DB_DONE && step != BS_DB_ROW)
			rc = bs_store_db_error(st, err, "cannot read runs");
		goto out;
	}
	for (i = 0; i < ids->n; i++) {
		bs_db_bind_int64(rd.runs, 1, ids->id[i]);
		step = bs_db_step(rd.runs);
		if (step == BS_DB_ROW) {
			rc = reader_row(st, &rd, &r, &why);
			bs_db_reset(rd.runs);
			rc = deliver(st, rc, ids->id[i], &r, &why, fn, ctx,
				     err);
			if (rc < 0)
				goto out;
		} else {
			bs_db_reset(rd.runs);
			if (step != BS_DB_DONE) {
				rc = bs_store_db_error(st, err,
						       "cannot read runs");
				goto out;
			}
		}
	}
	rc = 0;
out:
	bs_run_release(&r);
	reader_close(&rd);
	return rc;
}

int bs_store_each_reject(struct bs_store *st, bs_reject_fn fn, void *ctx,
			 struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *s = NULL;
	struct bs_reject r;
	int rc = 0, step;

	if (bs_db_prepare(st->db,
			  "SELECT id, source, line, reason, raw, truncated, "
			  "stored_at FROM rejects ORDER BY id",
			  0, &s, &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot read rejects", &dbe);
	while ((step = bs_db_step(s)) == BS_DB_ROW) {
		r.id = bs_db_column_int64(s, 0);
		r.source = bs_db_column_text(s, 1);
		r.line = col_i64(s, 2);
		r.reason = bs_db_column_text(s, 3);
		r.raw = bs_db_column_text(s, 4);
		r.truncated = (int)bs_db_column_int64(s, 5);
		r.stored_at = bs_db_column_int64(s, 6);
		rc = fn(&r, ctx);
		if (rc < 0)
			break;
	}
	if (rc == 0 && step != BS_DB_DONE)
		rc = bs_store_db_error(st, err, "cannot read rejects");
	bs_db_finalize(s);
	return rc;
}

int bs_store_count(struct bs_store *st, int64_t *runs, int64_t *rejects,
		   struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *s = NULL;
	int rc = 0;

	if (bs_db_prepare(st->db,
			  "SELECT (SELECT count(*) FROM runs), "
			  "(SELECT count(*) FROM rejects)",
			  0, &s, &dbe) < 0) {
		rc = bs_store_db_fail(st, err, "cannot count runs", &dbe);
	} else if (bs_db_step(s) != BS_DB_ROW) {
		rc = bs_store_db_error(st, err, "cannot count runs");
	} else {
		if (runs)
			*runs = bs_db_column_int64(s, 0);
		if (rejects)
			*rejects = bs_db_column_int64(s, 1);
	}
	bs_db_finalize(s);
	return rc;
}
