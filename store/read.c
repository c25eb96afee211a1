/*
 * store/read.c - reading runs back into struct bs_run, kept rejects, and
 * counts.
 */
#include "store/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* ---- reading ------------------------------------------------------ */

static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	if (t == NULL)
		return NULL;
	return xstrndup((const char *)t, (size_t)sqlite3_column_bytes(s, i));
}

static int64_t col_i64(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL
	           ? BS_NONE
	           : sqlite3_column_int64(s, i);
}

static double col_double(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL
	           ? NAN
	           : sqlite3_column_double(s, i);
}

struct reader {
	sqlite3_stmt *runs;
	sqlite3_stmt *tags;
	sqlite3_stmt *lat;
	int load;
};

enum read_mode { READ_ALL, READ_ONE, READ_RANGE };

static int reader_open(struct bs_store *st, struct reader *rd, int load,
                       enum read_mode mode, struct bs_err *err)
{
	struct bs_buf sql = BS_BUF_INIT;
	size_t i;
	int rc = 0;

	memset(rd, 0, sizeof(*rd));
	rd->load = load;
	bs_buf_adds(&sql, "SELECT id, tool, tool_version, format, machine, "
	                  "measured_at, stored_at, seed, source, source_line, "
	                  "parser_version, warning, lower(hex(sha256)), ");
	bs_buf_adds(&sql, (load & BS_LOAD_RAW) ? "raw" : "NULL");
	for (i = 0; i < NPARAMS; i++)
		bs_buf_addf(&sql, ", %s", bs_store_param_cols[i]);
	for (i = 0; i < BS_M_COUNT; i++) {
		const char *k = bs_metrics[i].key;
		bs_buf_addf(&sql, ", %s, %s_status, %s_cpu, %s_lat_us", k, k, k,
		            k);
	}
	bs_buf_adds(&sql, mode == READ_ALL ? " FROM runs ORDER BY id"
	                  : mode == READ_ONE
	                      ? " FROM runs WHERE id = ?"
	                      : " FROM runs WHERE id BETWEEN ? AND "
	                        "? ORDER BY id");
	if (sqlite3_prepare_v2(st->db, bs_buf_str(&sql), -1, &rd->runs, NULL) !=
	        SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
	                       "SELECT key, value FROM tags WHERE run_id = ? "
	                       "ORDER BY key",
	                       -1, &rd->tags, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
	                       "SELECT metric, mean_us, p50_us, p99_us FROM "
	                       "latency WHERE run_id = ?",
	                       -1, &rd->lat, NULL) != SQLITE_OK)
		rc = bs_store_db_error(st, err, "cannot read runs");
	bs_buf_release(&sql);
	return rc;
}

static void reader_close(struct reader *rd)
{
	sqlite3_finalize(rd->runs);
	sqlite3_finalize(rd->tags);
	sqlite3_finalize(rd->lat);
}

/* Fills r from the current row of rd->runs, plus tags and latency. */
static int reader_row(struct bs_store *st, struct reader *rd, struct bs_run *r,
                      struct bs_err *err)
{
	sqlite3_stmt *s = rd->runs;
	int c = 0, i, rc;
	size_t k;

	bs_run_init(r);
	r->id = sqlite3_column_int64(s, c++);
	r->tool = col_text(s, c++);
	r->tool_version = col_text(s, c++);
	r->format = col_text(s, c++);
	r->machine = col_text(s, c++);
	r->measured_at = col_i64(s, c++);
	r->stored_at = col_i64(s, c++);
	r->params.seed = col_text(s, c++);
	r->source = col_text(s, c++);
	r->source_line = col_i64(s, c++);
	r->parser_version = col_text(s, c++);
	r->warning = col_text(s, c++);
	{
		const unsigned char *sha = sqlite3_column_text(s, c++);
		if (sha && strlen((const char *)sha) < sizeof(r->sha256))
			memcpy(r->sha256, sha, strlen((const char *)sha) + 1);
	}
	r->raw = col_text(s, c++);
	for (k = 0; k < NPARAMS; k++)
		*bs_store_param_ptr(&r->params, k) = col_i64(s, c++);
	for (i = 0; i < BS_M_COUNT; i++) {
		struct bs_value *v = &r->res[i];
		const unsigned char *stname;
		v->value = col_double(s, c++);
		stname = sqlite3_column_text(s, c++);
		if (stname == NULL ||
		    bs_status_parse((const char *)stname, &v->status) < 0)
			v->status = BS_ST_NOT_RUN;
		v->cpu_pct = col_double(s, c++);
		v->lat_us = col_double(s, c++);
	}
	if (rd->load & BS_LOAD_TAGS) {
		sqlite3_bind_int64(rd->tags, 1, r->id);
		while ((rc = sqlite3_step(rd->tags)) == SQLITE_ROW)
			bs_run_tag(
			    r, (const char *)sqlite3_column_text(rd->tags, 0),
			    (const char *)sqlite3_column_text(rd->tags, 1));
		sqlite3_reset(rd->tags);
		if (rc != SQLITE_DONE)
			return bs_store_db_error(st, err, "cannot read tags");
	}
	/* Latency distributions exist only for bstore's own runs. */
	if (strcmp(r->format ? r->format : "", BS_FMT_BSTORE_RUN) == 0) {
		sqlite3_bind_int64(rd->lat, 1, r->id);
		while ((rc = sqlite3_step(rd->lat)) == SQLITE_ROW) {
			int m = bs_metric_find(
			    (const char *)sqlite3_column_text(rd->lat, 0));
			if (m < 0)
				continue;
			r->res[m].lat_mean_us = col_double(rd->lat, 1);
			r->res[m].lat_p50_us = col_double(rd->lat, 2);
			r->res[m].lat_p99_us = col_double(rd->lat, 3);
		}
		sqlite3_reset(rd->lat);
		if (rc != SQLITE_DONE)
			return bs_store_db_error(st, err,
			                         "cannot read latency");
	}
	return 0;
}

int bs_store_get(struct bs_store *st, int64_t id, int load, struct bs_run *r,
                 struct bs_err *err)
{
	struct reader rd;
	int rc;

	bs_run_init(r);
	rc = reader_open(st, &rd, load, READ_ONE, err);
	if (rc < 0)
		goto out;
	sqlite3_bind_int64(rd.runs, 1, id);
	rc = sqlite3_step(rd.runs);
	if (rc == SQLITE_ROW) {
		rc = reader_row(st, &rd, r, err);
	} else if (rc == SQLITE_DONE) {
		rc = bs_error(err, BS_ENOTFOUND, "no run with id %lld",
		              (long long)id);
	} else {
		rc = bs_store_db_error(st, err, "cannot read run");
	}
out:
	reader_close(&rd);
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
			sqlite3_bind_int64(rd.runs, 1, ids->id[0]);
			sqlite3_bind_int64(rd.runs, 2, ids->id[ids->n - 1]);
		}
		while ((step = sqlite3_step(rd.runs)) == SQLITE_ROW) {
			if (mode == READ_RANGE) {
				/* Both ascend: skip rows not asked for. */
				int64_t id = sqlite3_column_int64(rd.runs, 0);
				while (i < ids->n && ids->id[i] < id)
					i++;
				if (i == ids->n)
					break;
				if (ids->id[i] != id)
					continue;
			}
			rc = reader_row(st, &rd, &r, err);
			if (rc == 0)
				rc = fn(&r, ctx);
			bs_run_release(&r);
			if (rc < 0)
				goto out;
		}
		if (step != SQLITE_DONE && step != SQLITE_ROW)
			rc = bs_store_db_error(st, err, "cannot read runs");
		goto out;
	}
	for (i = 0; i < ids->n; i++) {
		sqlite3_bind_int64(rd.runs, 1, ids->id[i]);
		step = sqlite3_step(rd.runs);
		if (step == SQLITE_ROW) {
			rc = reader_row(st, &rd, &r, err);
			sqlite3_reset(rd.runs);
			if (rc == 0)
				rc = fn(&r, ctx);
			bs_run_release(&r);
			if (rc < 0)
				goto out;
		} else {
			sqlite3_reset(rd.runs);
			if (step != SQLITE_DONE) {
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
	sqlite3_stmt *s = NULL;
	struct bs_reject r;
	int rc = 0, step;

	if (sqlite3_prepare_v2(
	        st->db,
	        "SELECT id, source, line, reason, raw, truncated, "
	        "stored_at FROM rejects ORDER BY id",
	        -1, &s, NULL) != SQLITE_OK)
		return bs_store_db_error(st, err, "cannot read rejects");
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		r.id = sqlite3_column_int64(s, 0);
		r.source = (const char *)sqlite3_column_text(s, 1);
		r.line = col_i64(s, 2);
		r.reason = (const char *)sqlite3_column_text(s, 3);
		r.raw = (const char *)sqlite3_column_text(s, 4);
		r.truncated = sqlite3_column_int(s, 5);
		r.stored_at = sqlite3_column_int64(s, 6);
		rc = fn(&r, ctx);
		if (rc < 0)
			break;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = bs_store_db_error(st, err, "cannot read rejects");
	sqlite3_finalize(s);
	return rc;
}

int bs_store_count(struct bs_store *st, int64_t *runs, int64_t *rejects,
                   struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(st->db,
	                       "SELECT (SELECT count(*) FROM runs), "
	                       "(SELECT count(*) FROM rejects)",
	                       -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW) {
		rc = bs_store_db_error(st, err, "cannot count runs");
	} else {
		if (runs)
			*runs = sqlite3_column_int64(s, 0);
		if (rejects)
			*rejects = sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	return rc;
}
