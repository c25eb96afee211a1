/*
 * store/dedup.c - one measurement, one run across inputs (docs/ingest.md):
 * the key the write path looks up a run read from other text by (bonnie++
 * -q's CSV line on stdout and its table on stderr, ingested as two files),
 * and the lookup, which asks core's rule (bs_run_same(), core/same.h).
 */
#include "store/internal.h"

#include <math.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "core/same.h"
#include "util/buf.h"
#include "util/hash.h"
#include "util/banned.h"

/* A run read from bonnie++'s table prints fewer digits than its CSV
 * line. The same test as the index runs_measure_key's (schema.sql). */
int bs_store_is_table(const struct bs_run *r)
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

int64_t bs_store_measure_key(const struct bs_run *r)
{
	uint64_t h = BS_FNV64_BASIS;
	char buf[64];
	int m, ok = 0;

	/* The rule covers bonnie++'s two forms of one run so far: its CSV
	 * line and its text table (docs/ingest.md). */
	if (r->family != BS_FAM_BONNIE)
		return 0;

	h = bs_hash_fnv64_field(h, bs_family_name(r->family));
	h = bs_hash_fnv64_field(h, r->tool);
	h = bs_hash_fnv64_field(h, r->machine ? r->machine : "");
	/* The I/O tests' statuses and rates, but not the file tests':
	 * bonnie++ 1.98-2.00a's table prints a wrong number there, which
	 * bstore does not store. Every test's maximum latency, which
	 * both forms print whole. */
	for (m = 0; m < BS_M_BONNIE; m++) {
		const struct bs_value *v = &r->res[m];
		if (m < BS_M_FIRST_FILE) {
			h = bs_hash_fnv64_field(h, bs_status_name(v->status));
			if (v->status == BS_ST_OK) {
				h = bs_hash_fnv64_field(h,
							coarse(buf, sizeof(buf),
							       m, v->value));
				ok++;
			}
		}
		if (!isnan(v->lat_us)) {
			h = bs_hash_fnv64_field(
				h, bs_bonnie_fmt_latency(buf, sizeof(buf),
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

/* Is r the same measurement as stored run id? */
static int check_one(struct bs_store *st, int64_t id, const struct bs_run *r,
		     struct bs_err *err)
{
	struct bs_run old;
	/* Its tags: a date bstore gave it is no evidence (core/same.h). */
	int rc = bs_store_get(st, id, BS_LOAD_TAGS, &old, err);

	if (rc == 0)
		rc = bs_run_same(r, &old);
	bs_run_release(&old);
	return rc;
}

/*
 * Does the archive hold no bonnie++ table with a key, so that a CSV line
 * has no table to look for? Asked once per write transaction (writers
 * are serialised: nobody else adds a run inside it); what stores a table
 * or changes runs otherwise makes it ask again (bs_store_seen_forget).
 * Outside a transaction, never known.
 */
static int no_tables(struct bs_store *st)
{
	struct bs_buf sql = BS_BUF_INIT;
	struct bs_db_stmt *s = NULL;
	int rc;

	if (!st->in_tx)
		return 0;
	if (st->tables != BS_TABLES_UNKNOWN)
		return st->tables == BS_TABLES_NONE;
	/* The partial index runs_measure_key's WHERE, as same_table's. */
	bs_buf_adds(&sql, "SELECT id FROM runs WHERE measure_key IS NOT NULL "
			  "AND ");
	bs_db_glob(st->db, &sql, "format", BS_STORE_TABLE_FORMATS, NULL);
	bs_buf_adds(&sql, " LIMIT 1");
	rc = bs_db_prepare(st->db, bs_buf_str(&sql), 0, &s, NULL) < 0
		     ? BS_DB_ROW /* unknown: look as before */
		     : bs_db_step(s);
	bs_db_finalize(s);
	bs_buf_release(&sql);
	if (rc == BS_DB_DONE)
		st->tables = BS_TABLES_NONE;
	else if (rc == BS_DB_ROW)
		st->tables = BS_TABLES_SOME;
	return st->tables == BS_TABLES_NONE;
}

void bs_store_same_stored(struct bs_store *st, const struct bs_run *r,
			  int64_t key)
{
	if (key != 0 && bs_store_is_table(r))
		st->tables = BS_TABLES_SOME;
}

int bs_store_find_same(struct bs_store *st, const struct bs_run *r, int64_t key,
		       int seen, int64_t *id, struct bs_err *err)
{
	/* A line looks for tables through the index; a table for lines
	 * by reading runs (tables are few: docs/ingest.md). */
	struct bs_db_stmt *s = bs_store_is_table(r) ? st->same_line
						    : st->same_table;
	int64_t cand[16];
	int n = 0, i, rc;

	if (key == 0)
		return 0;
	if (!seen && !bs_store_is_table(r) && no_tables(st))
		return 0;
	if (seen)
		n = (int)bs_store_seen_same(st, key, !bs_store_is_table(r),
					    cand, 16);
	else {
		bs_db_bind_int64(s, 1, key);
		while (n < 16 && bs_db_step(s) == BS_DB_ROW)
			cand[n++] = bs_db_column_int64(s, 0);
		bs_db_reset(s);
	}
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
