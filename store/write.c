/*
 * store/write.c - writing: one run with its tags and latencies, a rejected
 * line, tags on stored runs, deletion.
 */
#include "store/internal.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/dist.h"
#include "core/supply.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/sha256.h"
#include "util/text.h"
#include "util/timefmt.h"
#include "util/banned.h"

/* The columns of runs that put() binds, in order: identity, then the
 * table-driven parameter and result columns, then provenance. */
static const char *const head_cols[] = {
	"family",  "tool",        "tool_version", "format",
	"machine", "measured_at", "stored_at",    "raw",
	"sha256",  "source",      "source_line",  "parser_version",
	"warning", "measure_key", "supplied",
};
#define NHEAD (sizeof(head_cols) / sizeof(head_cols[0]))

/* A plain INSERT whose deferred rows may go together (BS_DB_BATCH):
 * every value is bound as its column's type. */
static int prepare_batch(struct bs_store *st, const char *sql,
			 struct bs_db_stmt **out, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;

	if (bs_db_prepare(st->db, sql, BS_DB_KEEP | BS_DB_BATCH, out, &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot prepare statement",
					&dbe);
	return 0;
}

/* The columns put() binds, each followed by `tail` ("" for INSERT's
 * list, " = ?" for UPDATE's SET); returns how many. */
static size_t run_cols(const struct bs_store *st, struct bs_buf *sql,
		       const char *tail)
{
	static const char *const sfx[] = BS_STORE_METRIC_SUFFIXES;
	size_t i, n = NHEAD;
	int k;

	for (i = 0; i < NHEAD; i++)
		bs_buf_addf(sql, "%s%s%s", i ? ", " : "", head_cols[i], tail);
	for (k = 0; k < st->npcol; k++, n++)
		bs_buf_addf(sql, ", %s%s", bs_param_table[st->pcol[k]].column,
			    tail);
	for (k = 0; k < st->nmcol; k++)
		for (i = 0; i < BS_STORE_METRIC_NCOLS; i++, n++)
			bs_buf_addf(sql, ", %s%s%s",
				    bs_metrics[st->mcol[k]].key, sfx[i], tail);
	return n;
}

static int prepare_put(struct bs_store *st, struct bs_err *err)
{
	struct bs_buf sql = BS_BUF_INIT;
	size_t i, n;
	int rc;

	bs_buf_adds(&sql, "INSERT INTO runs (");
	n = run_cols(st, &sql, "");
	bs_buf_adds(&sql, ") VALUES (?");
	for (i = 1; i < n; i++)
		bs_buf_adds(&sql, ", ?");
	bs_buf_adds(&sql, ") RETURNING id");
	rc = prepare_batch(st, bs_buf_str(&sql), &st->put, err);
	bs_buf_release(&sql);
	return rc;
}

int64_t bs_store_now(void)
{
	/* Reproducible builds' convention: tests pin timestamps with it.
	 * Read once: the environment is searched for no stored run. */
	static int read;
	static int64_t pinned = BS_NONE;

	if (!read) {
		const char *sde = getenv("SOURCE_DATE_EPOCH");
		int64_t v;
		if (sde && bs_parse_i64(sde, strlen(sde), &v) == 0)
			pinned = v;
		read = 1;
	}
	return pinned != BS_NONE ? pinned : (int64_t)time(NULL);
}

int bs_store_prepare_writes(struct bs_store *st, struct bs_err *err)
{
	static const struct {
		size_t off;
		const char *sql;
	} stmts[] = {
		/* The expression matches the index runs_sha256_prefix. */
		/* The same text measured at another known date is another
		 * measurement (find_dup); a date bstore gave a run read
		 * from a pipe (measured_at.source) is not known. */
		{offsetof(struct bs_store, dup),
		 "SELECT id FROM runs WHERE substr(sha256, 1, 8) = "
		 "substr(?1, 1, 8) AND sha256 = ?1 AND (measured_at IS NULL "
		 "OR CAST(?2 AS BIGINT) IS NULL OR measured_at = CAST(?2 AS "
		 "BIGINT) OR EXISTS (SELECT 1 FROM tags WHERE tags.run_id = "
		 "runs.id AND tags.key = '" BS_DATE_SOURCE_TAG "')) ORDER "
		 "BY id"},
		{offsetof(struct bs_store, put_tag),
		 "INSERT INTO tags (run_id, key, value) VALUES (?, ?, ?) "
		 "ON CONFLICT (run_id, key) DO UPDATE SET value = "
		 "excluded.value"},
		/* A run stored without waiting (seen.c) is new: its tags
		 * are plain rows, which COPY can take. */
		{offsetof(struct bs_store, put_tag_new),
		 "INSERT INTO tags (run_id, key, value) VALUES (?, ?, ?)"},
		{offsetof(struct bs_store, put_lat),
		 "INSERT INTO latency (run_id, metric, mean_us, p50_us, "
		 "p99_us) VALUES (?, ?, ?, ?, ?) ON CONFLICT (run_id, metric) "
		 "DO UPDATE SET mean_us = excluded.mean_us, p50_us = "
		 "excluded.p50_us, p99_us = excluded.p99_us"},
		{offsetof(struct bs_store, put_res),
		 "INSERT INTO run_results (run_id, metric, value, status, "
		 "cpu_pct, lat_us) VALUES (?, ?, ?, ?, ?, ?)"},
		{offsetof(struct bs_store, put_par),
		 "INSERT INTO run_params (run_id, key, value) VALUES (?, ?, ?)"},
		{offsetof(struct bs_store, put_ser),
		 "INSERT INTO series (run_id, metric, seq, axis, x, y, seconds) "
		 "VALUES (?, ?, ?, ?, ?, ?, ?)"},
		{offsetof(struct bs_store, put_dist),
		 "INSERT INTO distributions (run_id, metric, direction, kind, "
		 "scheme, axis, nbins, bins) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"},
		{offsetof(struct bs_store, reject),
		 "INSERT INTO rejects (source, line, reason, raw, truncated, "
		 "sha256, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT "
		 "DO NOTHING"},
	};
	struct bs_buf same = BS_BUF_INIT;
	size_t i;
	int rc = prepare_put(st, err);

	for (i = 0; i < sizeof(stmts) / sizeof(stmts[0]) && rc == 0; i++) {
		struct bs_db_stmt **out =
			(struct bs_db_stmt **)((char *)st + stmts[i].off);
		/* run_params' value is text that doubles are cast into: its
		 * rows are not batched. */
		rc = out == &st->put_res || out == &st->put_ser ||
				     out == &st->put_tag_new
			     ? prepare_batch(st, stmts[i].sql, out, err)
			     : bs_store_prepare(st, stmts[i].sql, out, err);
	}
	/* The first uses the partial index runs_measure_key, whose WHERE
	 * it repeats as the engine writes it. */
	bs_buf_adds(&same, "SELECT id FROM runs WHERE measure_key = ? AND "
			   "measure_key IS NOT NULL AND ");
	bs_db_glob(st->db, &same, "format", BS_STORE_TABLE_FORMATS, NULL);
	bs_buf_adds(&same, " ORDER BY id");
	if (rc == 0)
		rc = bs_store_prepare(st, bs_buf_str(&same), &st->same_table,
				      err);
	bs_buf_reset(&same);
	bs_buf_adds(&same,
		    "SELECT id FROM runs WHERE measure_key = ? AND NOT ");
	bs_db_glob(st->db, &same, "format", BS_STORE_TABLE_FORMATS, NULL);
	bs_buf_adds(&same, " ORDER BY id");
	if (rc == 0)
		rc = bs_store_prepare(st, bs_buf_str(&same), &st->same_line,
				      err);
	bs_buf_release(&same);
	return rc;
}

static void bind_text(struct bs_db_stmt *s, int i, const char *v)
{
	bs_db_bind_text(s, i, v, -1);
}

static void bind_i64(struct bs_db_stmt *s, int i, int64_t v)
{
	if (v == BS_NONE)
		bs_db_bind_null(s, i);
	else
		bs_db_bind_int64(s, i, v);
}

static void bind_double(struct bs_db_stmt *s, int i, double v)
{
	if (isnan(v))
		bs_db_bind_null(s, i);
	else
		bs_db_bind_double(s, i, v);
}

/* Parameter k of p, as its kind says; NULL when unknown. */
static void bind_param(struct bs_db_stmt *s, int i, const struct bs_params *p,
		       int k)
{
	switch (bs_param_table[k].kind) {
	case BS_PK_TEXT:
		bind_text(s, i, bs_param_get_text(p, k));
		break;
	case BS_PK_REAL:
		bind_double(s, i, bs_param_get_real(p, k));
		break;
	default:
		bind_i64(s, i, bs_param_get_i64(p, k));
		break;
	}
}

/* The digest is kept as 32 bytes: half the size of hex in the row and in
 * the index that every insert probes. Decoded through a table: this runs
 * for every ingested line. */
static void sha_bytes(const char *hex, uint8_t *bin)
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
}

static int step_done(struct bs_store *st, struct bs_db_stmt *s,
		     const char *what, struct bs_err *err)
{
	return bs_store_step_done(st, s, what, err);
}

/* A row of a run's, as the transaction's writer sends it (writer.c). */
static int write_row(struct bs_store *st, struct bs_db_stmt *s,
		     const char *what, struct bs_err *err)
{
	return st->writer->row(st, s, what, err);
}

static int put_tags(struct bs_store *st, int64_t id, const struct bs_run *r,
		    struct bs_err *err)
{
	struct bs_db_stmt *s = st->writer->tags(st);
	size_t i;
	int rc;

	for (i = 0; i < r->ntags; i++) {
		bs_db_bind_int64(s, 1, id);
		bind_text(s, 2, r->tags[i].key);
		bind_text(s, 3, r->tags[i].value);
		rc = write_row(st, s, "cannot store tag", err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int bs_store_keeps_latency(const struct bs_run *r)
{
	return r->format && strcmp(r->format, BS_FMT_BSTORE_RUN) == 0;
}

static int put_latency(struct bs_store *st, int64_t id, const struct bs_run *r,
		       struct bs_err *err)
{
	int i, end, rc;

	if (!bs_store_keeps_latency(r))
		return 0;
	bs_metric_rows(r->family, &i, &end);
	for (; i < end; i++) {
		const struct bs_value *v = &r->res[i];
		if (isnan(v->lat_mean_us) && isnan(v->lat_p50_us) &&
		    isnan(v->lat_p99_us))
			continue;
		bs_db_bind_int64(st->put_lat, 1, id);
		bind_text(st->put_lat, 2, bs_metrics[i].key);
		bind_double(st->put_lat, 3, v->lat_mean_us);
		bind_double(st->put_lat, 4, v->lat_p50_us);
		bind_double(st->put_lat, 5, v->lat_p99_us);
		rc = write_row(st, st->put_lat, "cannot store latency", err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The parameters of the run's family that runs has no column for. */
static int put_params(struct bs_store *st, int64_t id, const struct bs_run *r,
		      struct bs_err *err)
{
	int k, rc;

	for (k = 0; k < bs_nparams; k++) {
		const struct bs_param_info *p = &bs_param_table[k];
		if (p->column || p->family != r->family ||
		    !bs_param_known(&r->params, k))
			continue;
		bs_db_bind_int64(st->put_par, 1, id);
		bind_text(st->put_par, 2, p->key);
		bind_param(st->put_par, 3, &r->params, k);
		rc = write_row(st, st->put_par, "cannot store parameter", err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The results of the run's family that runs has no column for; a test
 * that did not run (and says nothing else) needs no row. */
static int put_results(struct bs_store *st, int64_t id, const struct bs_run *r,
		       struct bs_err *err)
{
	int m, rc;

	for (m = 0; m < bs_nmetrics; m++) {
		const struct bs_value *v = &r->res[m];
		if ((bs_metrics[m].flags & BS_MF_COLUMN) ||
		    bs_metrics[m].family != r->family ||
		    (v->status == BS_ST_NOT_RUN && isnan(v->cpu_pct) &&
		     isnan(v->lat_us)))
			continue;
		bs_db_bind_int64(st->put_res, 1, id);
		bind_text(st->put_res, 2, bs_metrics[m].key);
		bind_double(st->put_res, 3,
			    v->status == BS_ST_OK ? v->value : NAN);
		bind_text(st->put_res, 4, bs_status_name(v->status));
		bind_double(st->put_res, 5, v->cpu_pct);
		bind_double(st->put_res, 6, v->lat_us);
		rc = write_row(st, st->put_res, "cannot store result", err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int bs_store_put_dist(struct bs_store *st, struct bs_db_stmt *s, int64_t id,
		      const struct bs_series *c, struct bs_err *err)
{
	struct bs_buf bins = BS_BUF_INIT;
	const char *scheme = bs_dist_pack(c, &bins);
	char dir[8], kind[8];
	int rc;

	bs_dist_names(c->metric, dir, kind);
	bs_db_bind_int64(s, 1, id);
	bind_text(s, 2, bs_metrics[c->metric].key);
	bind_text(s, 3, dir);
	bind_text(s, 4, kind);
	bind_text(s, 5, scheme);
	bind_text(s, 6, c->axis);
	bs_db_bind_int64(s, 7, (int64_t)c->n);
	/* An empty blob is bytes, not NULL. */
	bs_db_bind_blob(s, 8, bins.len ? bs_buf_str(&bins) : "", bins.len);
	rc = write_row(st, s, "cannot store distribution", err);
	bs_buf_release(&bins);
	return rc;
}

/* The rows of one series of run id (a distribution's one row). */
static int put_one_series(struct bs_store *st, int64_t id,
			  const struct bs_series *c, struct bs_err *err)
{
	struct bs_db_stmt *s = st->put_ser;
	size_t k;
	int rc;

	if (bs_dist_metric(c->metric))
		return bs_store_put_dist(st, st->put_dist, id, c, err);
	for (k = 0; k < c->n; k++) {
		bs_db_bind_int64(s, 1, id);
		bind_text(s, 2, bs_metrics[c->metric].key);
		bs_db_bind_int64(s, 3, (int64_t)k);
		bind_text(s, 4, c->axis);
		bs_db_bind_double(s, 5, c->pt[k].x);
		bind_double(s, 6, c->pt[k].y);
		bind_double(s, 7, c->pt[k].seconds);
		rc = write_row(st, s, "cannot store series", err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int put_series(struct bs_store *st, int64_t id, const struct bs_run *r,
		      struct bs_err *err)
{
	size_t i;
	int rc;

	for (i = 0; i < r->nseries; i++) {
		rc = put_one_series(st, id, &r->series[i], err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int bs_store_add_series(struct bs_store *st, int64_t id,
			const struct bs_series *c, enum bs_store_outcome *how,
			struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *q = NULL;
	int rc;

	if (st->put_ser == NULL)
		return bs_error(err, BS_EINVAL, "%s: archive opened read-only",
				st->path);
	if (bs_db_prepare(st->db,
			  bs_dist_metric(c->metric)
				  ? "SELECT 1 FROM distributions WHERE run_id "
				    "= ? AND metric = ? LIMIT 1"
				  : "SELECT 1 FROM series WHERE run_id = ? AND "
				    "metric = ? LIMIT 1",
			  0, &q, &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot read series", &dbe);
	bs_db_bind_int64(q, 1, id);
	bind_text(q, 2, bs_metrics[c->metric].key);
	rc = bs_db_step(q);
	bs_db_finalize(q);
	if (rc < 0)
		return bs_store_db_error(st, err, "cannot read series");
	if (rc == BS_DB_ROW) {
		if (how)
			*how = BS_STORE_DUPLICATE;
		return 0;
	}
	rc = put_one_series(st, id, c, err);
	if (rc == 0 && how)
		*how = BS_STORE_STORED;
	return rc < 0 ? rc : 0;
}

/*
 * Is the run stored already? The same text is the same run, unless both
 * know when they were measured and the dates differ: a date from outside
 * the text (a mail's Date: header, --measured-at) makes the same bytes of
 * two nightly runs two measurements, while the same mailbox ingested
 * twice is stored once (docs/ingest.md). *seen may be cleared: the set
 * of seen.c knows digests, not dates.
 */
static int find_dup(struct bs_store *st, const uint8_t *sha, int64_t when,
		    int *seen, int64_t *id, struct bs_err *err)
{
	int rc;

	if (*seen) {
		rc = bs_store_seen_dup(st, sha, id);
		if (rc == 0 || when == BS_NONE)
			return rc;
		if ((rc = bs_store_seen_end(st, err)) < 0)
			return rc;
		*seen = 0;
	} else if ((rc = bs_store_absent(st, sha, err)) != 0) {
		return rc < 0 ? rc : 0; /* surely new (absent.c) */
	}
	bs_db_bind_blob(st->dup, 1, sha, 32);
	bind_i64(st->dup, 2, when);
	rc = bs_db_step(st->dup);
	if (rc == BS_DB_ROW)
		*id = bs_db_column_int64(st->dup, 0);
	bs_db_reset(st->dup);
	if (rc != BS_DB_ROW && rc != BS_DB_DONE)
		return bs_store_db_error(st, err, "cannot look up duplicate");
	return rc == BS_DB_ROW;
}

static int put(struct bs_store *st, struct bs_run *r, int once,
	       enum bs_store_outcome *how, struct bs_err *err);

/* Binds r to the columns of run_cols(), from parameter 1, sha being
 * r->sha256 decoded (sha_bytes); returns the number of the next
 * parameter. */
static int bind_run(struct bs_store *st, struct bs_db_stmt *s,
		    const struct bs_run *r, int64_t key, const uint8_t *sha)
{
	int k, n = 1;

	/* In the order of head_cols. */
	bind_text(s, n++, bs_family_name(r->family));
	bind_text(s, n++, r->tool);
	bind_text(s, n++, r->tool_version);
	bind_text(s, n++, r->format);
	bind_text(s, n++, r->machine ? r->machine : "");
	bind_i64(s, n++, r->measured_at);
	bind_i64(s, n++, r->stored_at);
	bind_text(s, n++, r->raw);
	bs_db_bind_blob(s, n++, sha, 32);
	bind_text(s, n++, r->source ? r->source : "");
	bind_i64(s, n++, r->source_line);
	bind_text(s, n++, r->parser_version ? r->parser_version : "");
	bind_text(s, n++, r->warning);
	bind_i64(s, n++, key ? key : BS_NONE);
	bs_buf_reset(&st->put_supplied);
	if (r->supplied) /* rare: no walk of the table for every line */
		bs_supplied_keys(r, &st->put_supplied);
	bind_text(s, n++,
		  st->put_supplied.len ? bs_buf_str(&st->put_supplied) : NULL);
	assert(n == (int)NHEAD + 1);
	for (k = 0; k < st->npcol; k++)
		bind_param(s, n++, &r->params, st->pcol[k]);
	for (k = 0; k < st->nmcol; k++) {
		const struct bs_value *v = &r->res[st->mcol[k]];
		bind_double(s, n++, v->status == BS_ST_OK ? v->value : NAN);
		bs_db_bind_text(s, n++, bs_status_name(v->status), -1);
		bind_double(s, n++, v->cpu_pct);
		bind_double(s, n++, v->lat_us);
	}
	return n;
}

static int put_rows(struct bs_store *st, const struct bs_run *r,
		    struct bs_err *err);
static int put_history(struct bs_store *st, const struct bs_run *r,
		       struct bs_err *err);

/*
 * r, a CSV line, is the same measurement as stored run id, read from its
 * text table: the line's numbers are exact where the table rounds them
 * ("312m" for 319885 KiB/s) and it has the file tests the table misprints,
 * so the line takes the run's place, keeping its id, stored_at, tags and
 * history: the archive is the one the line first would have made.
 */
static int replace(struct bs_store *st, struct bs_run *r, int64_t id,
		   int64_t key, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	static const char *const children[] = {
		"DELETE FROM run_results WHERE run_id = ?",
		"DELETE FROM run_params WHERE run_id = ?",
		"DELETE FROM latency WHERE run_id = ?",
		"DELETE FROM series WHERE run_id = ?",
		"DELETE FROM distributions WHERE run_id = ?",
	};
	struct bs_buf sql = BS_BUF_INIT;
	struct bs_db_stmt *s = NULL;
	struct bs_run old;
	uint8_t sha[32];
	size_t i;
	int n, rc;

	memset(&old, 0, sizeof(old));
	if ((rc = bs_store_seen_end(st, err)) < 0)
		return rc;
	if ((rc = bs_store_cache_drop(st, err)) < 0)
		return rc;
	rc = bs_store_get(st, id, BS_LOAD_TAGS, &old, err);
	if (rc < 0)
		goto out;
	r->id = id;
	r->stored_at = old.stored_at;
	/* A date the stored run's input gave wins over one bstore gave. */
	if (r->measured_at == BS_NONE ||
	    (bs_run_date_guessed(r) && old.measured_at != BS_NONE)) {
		r->measured_at = old.measured_at;
		if (!bs_run_date_guessed(&old))
			bs_run_untag(r, BS_DATE_SOURCE_TAG);
	}
	bs_buf_adds(&sql, "UPDATE runs SET ");
	run_cols(st, &sql, " = ?");
	bs_buf_adds(&sql, " WHERE id = ?");
	rc = -1;
	if (bs_db_prepare(st->db, bs_buf_str(&sql), 0, &s, &dbe) < 0)
		goto db;
	sha_bytes(r->sha256, sha);
	n = bind_run(st, s, r, key, sha);
	bs_db_bind_int64(s, n, id);
	if ((rc = step_done(st, s, "cannot replace run", err)) < 0)
		goto out;
	for (i = 0; i < sizeof(children) / sizeof(children[0]); i++) {
		bs_db_finalize(s);
		s = NULL;
		rc = -1;
		if (bs_db_prepare(st->db, children[i], 0, &s, &dbe) < 0)
			goto db;
		bs_db_bind_int64(s, 1, id);
		if ((rc = step_done(st, s, "cannot replace run", err)) < 0)
			goto out;
	}
	/* The line's real date replaces the one bstore gave the table. */
	if (bs_run_date_guessed(&old) && !bs_run_date_guessed(r)) {
		bs_db_finalize(s);
		s = NULL;
		rc = -1;
		if (bs_db_prepare(
			    st->db,
			    "DELETE FROM tags WHERE run_id = ? AND key = '" BS_DATE_SOURCE_TAG
			    "'",
			    0, &s, &dbe) < 0)
			goto db;
		bs_db_bind_int64(s, 1, id);
		if ((rc = step_done(st, s, "cannot replace run", err)) < 0)
			goto out;
	}
	rc = put_rows(st, r, err);
	goto out;
db:
	rc = bs_store_db_fail(st, err, "cannot replace run", &dbe);
out:
	bs_db_finalize(s);
	bs_buf_release(&sql);
	bs_run_release(&old);
	return rc;
}

int bs_store_put(struct bs_store *st, struct bs_run *r,
		 enum bs_store_outcome *how, struct bs_err *err)
{
	enum bs_store_outcome ignored;

	return put(st, r, 1, how ? how : &ignored, err);
}

int bs_store_put_new(struct bs_store *st, struct bs_run *r, struct bs_err *err)
{
	enum bs_store_outcome how;

	return put(st, r, 0, &how, err);
}

/* once: a run whose SHA-256 is stored already is not stored again, nor
 * one that is the same measurement as a stored run. */
static int put(struct bs_store *st, struct bs_run *r, int once,
	       enum bs_store_outcome *how, struct bs_err *err)
{
	struct bs_db_stmt *s = st->put;
	uint8_t sha[32];
	int64_t key;
	int n, rc, seen = 0;

	if (s == NULL)
		return bs_error(err, BS_EINVAL, "%s: archive opened read-only",
				st->path);
	if (r->raw == NULL || r->tool == NULL || r->format == NULL)
		BS_BUG("run without raw text, tool or format");
	assert(bs_family_ok(r->family));
	if (r->sha256[0] == '\0')
		bs_sha256_hex(r->raw, strlen(r->raw), r->sha256);
	/* Runs stored without the look-ups (merge, in savepoints) are not
	 * the set's (seen.c). */
	if (!once && (rc = bs_store_seen_end(st, err)) < 0)
		return rc;
	if (once && (seen = bs_store_seen_ready(st, err)) < 0)
		return seen;
	/* Decoded once: the lookup, the row and the set take the bytes. */
	sha_bytes(r->sha256, sha);
	rc = once ? find_dup(st, sha, bs_run_date_known(r), &seen, &r->id, err)
		  : 0;
	*how = BS_STORE_DUPLICATE;
	if (rc != 0) /* stored already (1), or the lookup failed */
		return rc < 0 ? rc : 0;
	/* The same measurement from other text (store/dedup.c). */
	key = bs_store_measure_key(r);
	rc = once ? bs_store_find_same(st, r, key, seen, &r->id, err) : 0;
	if (rc < 0)
		return rc;
	if (rc > 0 && !bs_store_is_table(r)) {
		*how = BS_STORE_REPLACED;
		rc = replace(st, r, r->id, key, err);
		return rc < 0 ? rc : 0;
	}
	*how = BS_STORE_SAME_RUN;
	if (rc > 0)
		return 0;
	*how = BS_STORE_STORED;
	/* A run restored from bstore's JSON export keeps when it was first
	 * stored; merge and bstore run (put_new) store now. */
	if (!once || r->stored_at == BS_NONE)
		r->stored_at = bs_store_now();
	n = bind_run(st, s, r, key, sha);
	(void)n;
	if ((rc = st->writer->run(st, s, seen, &r->id, err)) < 0)
		return rc;
	bs_store_same_stored(st, r, key);
	if (once)
		bs_store_seen_stored(st, sha, r->id, key, bs_store_is_table(r));
	if (once && (rc = bs_store_absent_stored(st, sha, err)) < 0)
		return rc;
	rc = put_rows(st, r, err);
	if (rc == 0)
		rc = put_history(st, r, err);
	st->writer->done(st);
	return rc < 0 ? rc : 0;
}

/* A history value as run_history keeps it: a date field's in seconds. */
static int bind_change(struct bs_store *st, struct bs_db_stmt *s, int i,
		       int is_date, const char *v, struct bs_err *err)
{
	struct bs_err why = BS_ERR_INIT;
	int64_t when;

	if (v == NULL) {
		bs_db_bind_null(s, i);
		return 0;
	}
	if (!is_date) {
		bind_text(s, i, v);
		return 0;
	}
	if (bs_time_parse(v, &when, &why) < 0)
		return bs_error(err, BS_EINVAL, "%s: cannot store history: %s",
				st->path, why.msg);
	bs_db_bind_int64(s, i, when);
	return 0;
}

/* What bstore set changed in r, carried by a run restored whole (bstore's
 * JSON export): rows of run_history, as bs_store_set writes them. */
static int put_history(struct bs_store *st, const struct bs_run *r,
		       struct bs_err *err)
{
	size_t i;
	int rc = 0;

	if (r->nhistory == 0)
		return 0;
	if (st->put_hist == NULL &&
	    (rc = bs_store_prepare(st,
				   "INSERT INTO run_history (run_id, field, "
				   "old_value, new_value, changed_at) VALUES "
				   "(?, ?, ?, ?, ?)",
				   &st->put_hist, err)) < 0)
		return rc;
	for (i = 0; i < r->nhistory && rc == 0; i++) {
		const struct bs_history *h = &r->history[i];
		const struct bs_set_field *f = bs_set_field(h->field);
		int date = f && f->is_date;

		bs_db_bind_int64(st->put_hist, 1, r->id);
		bind_text(st->put_hist, 2, h->field);
		rc = bind_change(st, st->put_hist, 3, date, h->old_value, err);
		if (rc == 0)
			rc = bind_change(st, st->put_hist, 4, date,
					 h->new_value, err);
		if (rc < 0) {
			bs_db_reset(st->put_hist);
			break;
		}
		bs_db_bind_int64(st->put_hist, 5, h->changed_at);
		rc = write_row(st, st->put_hist, "cannot store history", err);
	}
	return rc;
}

/* The rows of run r->id beside its row in runs. */
static int put_rows(struct bs_store *st, const struct bs_run *r,
		    struct bs_err *err)
{
	int rc = put_tags(st, r->id, r, err);

	if (rc == 0)
		rc = put_latency(st, r->id, r, err);
	/* A family in runs' own columns has no rows of its own. */
	if (rc == 0 && !(bs_family(r->family)->flags & BS_FAMF_COLUMNS))
		rc = put_params(st, r->id, r, err);
	if (rc == 0 && !(bs_family(r->family)->flags & BS_FAMF_COLUMNS))
		rc = put_results(st, r->id, r, err);
	if (rc == 0)
		rc = put_series(st, r->id, r, err);
	return rc;
}

int bs_store_reject(struct bs_store *st, const char *source, int64_t line,
		    const char *raw, size_t len, int truncated,
		    const char *reason, enum bs_store_outcome *how,
		    struct bs_err *err)
{
	struct bs_db_stmt *s = st->reject;
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
	bs_db_bind_text(s, 4, raw, (ptrdiff_t)len);
	bs_db_bind_int64(s, 5, truncated ? 1 : 0);
	bind_text(s, 6, sha);
	bs_db_bind_int64(s, 7, bs_store_now());
	rc = step_done(st, s, "cannot store rejected line", err);
	if (rc < 0)
		return rc;
	if (how)
		*how = bs_db_changes(st->db) > 0 ? BS_STORE_STORED
						 : BS_STORE_DUPLICATE;
	return 0;
}

/* ---- changes ------------------------------------------------------ */

int bs_store_tag(struct bs_store *st, const struct bs_ids *ids, const char *key,
		 const char *value, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *s = NULL;
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
	if (bs_db_prepare(st->db,
			  value ? "INSERT INTO tags (run_id, key, value) "
				  "VALUES (?, ?, ?) ON CONFLICT "
				  "(run_id, key) DO UPDATE SET value = "
				  "excluded.value"
				: "DELETE FROM tags WHERE run_id = ? AND "
				  "key = ?",
			  0, &s, &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot change tags", &dbe);
	for (i = 0; i < ids->n; i++) {
		bs_db_bind_int64(s, 1, ids->id[i]);
		bind_text(s, 2, key);
		if (value)
			bind_text(s, 3, value);
		rc = step_done(st, s, "cannot change tags", err);
		if (rc < 0)
			goto out;
	}
	rc = 0;
out:
	bs_db_finalize(s);
	return rc;
}

int bs_store_rm(struct bs_store *st, const struct bs_ids *ids,
		struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_db_stmt *s = NULL;
	size_t i;
	int rc, n = 0;

	if ((rc = bs_store_seen_end(st, err)) < 0)
		return rc;
	if ((rc = bs_store_cache_drop(st, err)) < 0)
		return rc;
	if (bs_db_prepare(st->db, "DELETE FROM runs WHERE id = ?", 0, &s,
			  &dbe) < 0)
		return bs_store_db_fail(st, err, "cannot delete runs", &dbe);
	for (i = 0; i < ids->n; i++) {
		bs_db_bind_int64(s, 1, ids->id[i]);
		rc = step_done(st, s, "cannot delete run", err);
		if (rc < 0)
			goto out;
		n += bs_db_changes(st->db);
	}
	rc = n;
out:
	bs_db_finalize(s);
	return rc;
}
