/*
 * store/write.c - writing: one run with its tags and latencies, a rejected
 * line, tags on stored runs, deletion.
 */
#include "store/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/buf.h"
#include "util/num.h"
#include "util/sha256.h"
#include "util/banned.h"

const char *const bs_store_param_cols[NPARAMS] = {
    "file_size_mib", "io_chunk_bytes",   "seek_count",  "seek_procs",
    "per_char_mib",  "num_files",        "max_size",    "min_size",
    "num_dirs",      "file_chunk_bytes", "concurrency",
};

int64_t *bs_store_param_ptr(struct bs_params *p, size_t i)
{
	int64_t *fields[NPARAMS] = {
	    &p->file_size_mib,    &p->io_chunk_bytes, &p->seeks,
	    &p->seek_procs,       &p->per_char_mib,   &p->num_files,
	    &p->max_size,         &p->min_size,       &p->num_dirs,
	    &p->file_chunk_bytes, &p->concurrency,
	};
	return fields[i];
}

static int prepare_put(struct bs_store *st, struct bs_err *err)
{
	struct bs_buf sql = BS_BUF_INIT;
	size_t i, n = 0;
	int rc;

	bs_buf_adds(&sql, "INSERT INTO runs (tool, tool_version, format, "
	                  "machine, measured_at, stored_at, seed, raw, sha256, "
	                  "source, source_line, parser_version, warning");
	n = 13;
	for (i = 0; i < NPARAMS; i++, n++)
		bs_buf_addf(&sql, ", %s", bs_store_param_cols[i]);
	for (i = 0; i < BS_M_COUNT; i++, n += 4) {
		const char *k = bs_metrics[i].key;
		bs_buf_addf(&sql, ", %s, %s_status, %s_cpu, %s_lat_us", k, k, k,
		            k);
	}
	bs_buf_adds(&sql, ") VALUES (?");
	for (i = 1; i < n; i++)
		bs_buf_adds(&sql, ", ?");
	bs_buf_adds(&sql, ")");
	rc = bs_store_prepare(st, bs_buf_str(&sql), &st->put, err);
	bs_buf_release(&sql);
	return rc;
}

static int64_t now_seconds(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	int64_t v;

	/* Reproducible builds' convention: tests pin timestamps with it. */
	if (sde && bs_parse_i64(sde, strlen(sde), &v) == 0)
		return v;
	return (int64_t)time(NULL);
}

int bs_store_prepare_writes(struct bs_store *st, struct bs_err *err)
{
	int rc = prepare_put(st, err);

	if (rc < 0)
		return rc;
	/* The expression matches the index runs_sha256_prefix. */
	rc =
	    bs_store_prepare(st,
	                     "SELECT id FROM runs WHERE substr(sha256, 1, 8) = "
	                     "substr(?1, 1, 8) AND sha256 = ?1",
	                     &st->dup, err);
	if (rc < 0)
		return rc;
	rc = bs_store_prepare(st,
	                      "INSERT INTO tags (run_id, key, value) "
	                      "VALUES (?, ?, ?) ON CONFLICT (run_id, key) "
	                      "DO UPDATE SET value = excluded.value",
	                      &st->put_tag, err);
	if (rc < 0)
		return rc;
	rc = bs_store_prepare(st,
	                      "INSERT OR REPLACE INTO latency (run_id, metric, "
	                      "mean_us, p50_us, p99_us) VALUES (?, ?, ?, ?, ?)",
	                      &st->put_lat, err);
	if (rc < 0)
		return rc;
	rc = bs_store_prepare(st,
	                      "INSERT INTO rejects (source, line, reason, raw, "
	                      "truncated, sha256, stored_at) VALUES "
	                      "(?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
	                      &st->reject, err);
	if (rc < 0)
		return rc;
	return 0;
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

static void bind_i64(sqlite3_stmt *s, int i, int64_t v)
{
	if (v == BS_NONE)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

static void bind_double(sqlite3_stmt *s, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_double(s, i, v);
}

/* The digest is kept as 32 bytes: half the size of hex in the row and in
 * the index that every insert probes. Decoded through a table: this runs
 * for every ingested line. */
static void bind_sha(sqlite3_stmt *s, int i, const char *hex, uint8_t *bin)
{
	static signed char val[256];
	static int ready;
	int k;

	if (!ready) {
		memset(val, -1, sizeof(val));
		for (k = 0; k < 10; k++)
			val['0' + k] = (signed char)k;
		for (k = 0; k < 6; k++) {
			val['a' + k] = (signed char)(10 + k);
			val['A' + k] = (signed char)(10 + k);
		}
		ready = 1;
	}
	for (k = 0; k < 32; k++) {
		int hi = val[(unsigned char)hex[2 * k]];
		int lo = val[(unsigned char)hex[2 * k + 1]];
		if ((hi | lo) < 0)
			BS_BUG("malformed sha256 hex");
		bin[k] = (uint8_t)(hi << 4 | lo);
	}
	sqlite3_bind_blob(s, i, bin, 32, SQLITE_STATIC);
}

static int step_done(struct bs_store *st, sqlite3_stmt *s, const char *what,
                     struct bs_err *err)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return bs_store_db_error(st, err, what);
	return 0;
}

static int put_tags(struct bs_store *st, int64_t id, const struct bs_run *r,
                    struct bs_err *err)
{
	size_t i;
	int rc;

	for (i = 0; i < r->ntags; i++) {
		sqlite3_bind_int64(st->put_tag, 1, id);
		bind_text(st->put_tag, 2, r->tags[i].key);
		bind_text(st->put_tag, 3, r->tags[i].value);
		rc = step_done(st, st->put_tag, "cannot store tag", err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int put_latency(struct bs_store *st, int64_t id, const struct bs_run *r,
                       struct bs_err *err)
{
	int i, rc;

	for (i = 0; i < BS_M_COUNT; i++) {
		const struct bs_value *v = &r->res[i];
		if (isnan(v->lat_mean_us) && isnan(v->lat_p50_us) &&
		    isnan(v->lat_p99_us))
			continue;
		sqlite3_bind_int64(st->put_lat, 1, id);
		bind_text(st->put_lat, 2, bs_metrics[i].key);
		bind_double(st->put_lat, 3, v->lat_mean_us);
		bind_double(st->put_lat, 4, v->lat_p50_us);
		bind_double(st->put_lat, 5, v->lat_p99_us);
		rc = step_done(st, st->put_lat, "cannot store latency", err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int find_dup(struct bs_store *st, const char *hex, int64_t *id,
                    struct bs_err *err)
{
	uint8_t sha[32];
	int rc;

	bind_sha(st->dup, 1, hex, sha);
	rc = sqlite3_step(st->dup);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st->dup, 0);
	sqlite3_reset(st->dup);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return bs_store_db_error(st, err, "cannot look up duplicate");
	return rc == SQLITE_ROW;
}

static int put(struct bs_store *st, struct bs_run *r, int once,
               struct bs_err *err);

int bs_store_put(struct bs_store *st, struct bs_run *r, struct bs_err *err)
{
	return put(st, r, 1, err);
}

int bs_store_put_new(struct bs_store *st, struct bs_run *r, struct bs_err *err)
{
	return put(st, r, 0, err);
}

/* once: a run whose SHA-256 is stored already is not stored again. */
static int put(struct bs_store *st, struct bs_run *r, int once,
               struct bs_err *err)
{
	sqlite3_stmt *s = st->put;
	uint8_t sha[32];
	int i, n = 1, rc;
	size_t k;

	if (s == NULL)
		return bs_error(err, BS_EINVAL, "%s: archive opened read-only",
		                st->path);
	if (r->raw == NULL || r->tool == NULL || r->format == NULL)
		BS_BUG("run without raw text, tool or format");
	if (r->sha256[0] == '\0')
		bs_sha256_hex(r->raw, strlen(r->raw), r->sha256);
	rc = once ? find_dup(st, r->sha256, &r->id, err) : 0;
	if (rc != 0) /* stored already (1), or the lookup failed */
		return rc < 0 ? rc : 0;
	r->stored_at = now_seconds();
	bind_text(s, n++, r->tool);
	bind_text(s, n++, r->tool_version);
	bind_text(s, n++, r->format);
	bind_text(s, n++, r->machine ? r->machine : "");
	bind_i64(s, n++, r->measured_at);
	bind_i64(s, n++, r->stored_at);
	bind_text(s, n++, r->params.seed);
	bind_text(s, n++, r->raw);
	bind_sha(s, n++, r->sha256, sha);
	bind_text(s, n++, r->source ? r->source : "");
	bind_i64(s, n++, r->source_line);
	bind_text(s, n++, r->parser_version ? r->parser_version : "");
	bind_text(s, n++, r->warning);
	for (k = 0; k < NPARAMS; k++)
		bind_i64(s, n++, *bs_store_param_ptr(&r->params, k));
	for (i = 0; i < BS_M_COUNT; i++) {
		const struct bs_value *v = &r->res[i];
		bind_double(s, n++, v->status == BS_ST_OK ? v->value : NAN);
		sqlite3_bind_text(s, n++, bs_status_name(v->status), -1,
		                  SQLITE_STATIC);
		bind_double(s, n++, v->cpu_pct);
		bind_double(s, n++, v->lat_us);
	}
	rc = step_done(st, s, "cannot store run", err);
	if (rc < 0)
		return rc;
	r->id = sqlite3_last_insert_rowid(st->db);
	rc = put_tags(st, r->id, r, err);
	if (rc < 0)
		return rc;
	rc = put_latency(st, r->id, r, err);
	if (rc < 0)
		return rc;
	return 1;
}

int bs_store_reject(struct bs_store *st, const char *source, int64_t line,
                    const char *raw, size_t len, int truncated,
                    const char *reason, struct bs_err *err)
{
	sqlite3_stmt *s = st->reject;
	char sha[BS_SHA256_HEX];
	int rc;

	if (s == NULL)
		return bs_error(err, BS_EINVAL, "%s: archive opened read-only",
		                st->path);
	bs_sha256_hex(raw, len, sha);
	bind_text(s, 1, source);
	bind_i64(s, 2, line);
	bind_text(s, 3, reason);
	/* Kept as TEXT even when it is not valid UTF-8: nothing is lost. */
	sqlite3_bind_text(s, 4, raw, (int)len, SQLITE_STATIC);
	sqlite3_bind_int(s, 5, truncated ? 1 : 0);
	bind_text(s, 6, sha);
	sqlite3_bind_int64(s, 7, now_seconds());
	rc = step_done(st, s, "cannot store rejected line", err);
	if (rc < 0)
		return rc;
	return sqlite3_changes(st->db) > 0;
}

/* ---- changes ------------------------------------------------------ */

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

int bs_store_check_tag(const char *key, const char *value, struct bs_err *err)
{
	size_t len = strlen(key);
	char q[64];

	bs_err_quote(q, sizeof(q), key, len, 40);
	if (len == 0)
		return bs_error(err, BS_EINVAL, "empty tag key");
	if (has_control(key) || (value && has_control(value)))
		return bs_error(err, BS_EINVAL,
		                "tag '%s' has a control character (a "
		                "newline?)",
		                q);
	/* A selector splits at ',' and '=': such a key could never be
	 * selected. */
	if (strpbrk(key, "=,"))
		return bs_error(err, BS_EINVAL, "tag key '%s' has a '=' or ','",
		                q);
	if (bs_store_run_column(key, len) || strcmp(key, "id") == 0)
		return bs_error(err, BS_EINVAL,
		                "'%s' is a run field, not a tag key "
		                "(selectors read it from the run)",
		                q);
	return 0;
}

int bs_store_tag(struct bs_store *st, const struct bs_ids *ids, const char *key,
                 const char *value, struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	size_t i;
	int rc;

	/* Removing checks less: a tag stored before the checks existed can
	 * still be removed. */
	if (value)
		rc = bs_store_check_tag(key, value, err);
	else
		rc = key[0] ? 0 : bs_error(err, BS_EINVAL, "empty tag key");
	if (rc < 0)
		return rc;
	if (sqlite3_prepare_v2(st->db,
	                       value ? "INSERT INTO tags (run_id, key, value) "
	                               "VALUES (?, ?, ?) ON CONFLICT "
	                               "(run_id, key) DO UPDATE SET value = "
	                               "excluded.value"
	                             : "DELETE FROM tags WHERE run_id = ? AND "
	                               "key = ?",
	                       -1, &s, NULL) != SQLITE_OK)
		return bs_store_db_error(st, err, "cannot change tags");
	for (i = 0; i < ids->n; i++) {
		sqlite3_bind_int64(s, 1, ids->id[i]);
		bind_text(s, 2, key);
		if (value)
			bind_text(s, 3, value);
		rc = step_done(st, s, "cannot change tags", err);
		if (rc < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(s);
	return rc;
}

int bs_store_rm(struct bs_store *st, const struct bs_ids *ids,
                struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	size_t i;
	int rc, n = 0;

	if (sqlite3_prepare_v2(st->db, "DELETE FROM runs WHERE id = ?", -1, &s,
	                       NULL) != SQLITE_OK)
		return bs_store_db_error(st, err, "cannot delete runs");
	for (i = 0; i < ids->n; i++) {
		sqlite3_bind_int64(s, 1, ids->id[i]);
		rc = step_done(st, s, "cannot delete run", err);
		if (rc < 0)
			goto out;
		n += sqlite3_changes(st->db);
	}
	rc = n;
out:
	sqlite3_finalize(s);
	return rc;
}
