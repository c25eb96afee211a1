/*
 * tests/unit/test_migrate.c - an archive written by the landed release
 * (schema version 1, tests/data/archive-v1.db, made as
 * tests/data/archive-v1.md says) is upgraded to version 2 with nothing
 * lost: every run, tag, reject, latency row and raw line byte for byte,
 * the run ids and the AUTOINCREMENT high mark; its schema is then the
 * same as a new archive's. An upgrade that fails leaves the archive as it
 * was. The test reads the files with SQLite itself, not through the
 * store, so that it checks what is really on disk.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/bonnie_text.h"
#include "core/dist.h"
#include "core/result.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/mem.h"

/* Copies the fixture to a scratch file; returns its path. */
static char *fixture_copy(const char *name)
{
	const char *src = getenv("SRC"), *dir = getenv("SCRATCH");
	struct bs_buf from = BS_BUF_INIT, to = BS_BUF_INIT;
	FILE *in, *out;
	char buf[8192];
	size_t n;

	assert_non_null(src);
	if (dir == NULL)
		dir = ".";
	mkdir(dir, 0700);
	bs_buf_addf(&from, "%s/tests/data/archive-v1.db", src);
	bs_buf_addf(&to, "%s/test_migrate_%s.db", dir, name);
	unlink(bs_buf_str(&to));
	in = fopen(bs_buf_str(&from), "rb");
	assert_non_null(in);
	out = fopen(bs_buf_str(&to), "wb");
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
	bs_buf_release(&from);
	return bs_buf_detach(&to, NULL);
}

static sqlite3 *db_open(const char *path)
{
	sqlite3 *db = NULL;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE,
					 NULL),
			 SQLITE_OK);
	return db;
}

/* Every row of a query as text, "a|b|c\n" each, into out. */
static void dump(sqlite3 *db, const char *sql, struct bs_buf *out)
{
	sqlite3_stmt *s = NULL;
	int i, rc;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (i = 0; i < sqlite3_column_count(s); i++) {
			const unsigned char *t = sqlite3_column_text(s, i);
			if (i)
				bs_buf_addc(out, '|');
			bs_buf_adds(out, t ? (const char *)t : "<null>");
		}
		bs_buf_addc(out, '\n');
	}
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(s);
}

static int64_t one_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s = NULL;
	int64_t v;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* What an upgrade must keep byte for byte. */
static const char *const kept[] = {
	"SELECT id, tool, tool_version, format, machine, measured_at, "
	"stored_at, seed, quote(raw), hex(sha256), source, source_line, "
	"parser_version, warning, file_size_mib, io_chunk_bytes, seek_count, "
	"seek_procs, per_char_mib, num_files, concurrency FROM runs ORDER BY "
	"id",
	"SELECT run_id, key, quote(value) FROM tags ORDER BY run_id, key",
	"SELECT id, source, line, reason, quote(raw), truncated, sha256, "
	"stored_at FROM rejects ORDER BY id",
	"SELECT run_id, metric, mean_us, p50_us, p99_us FROM latency ORDER BY "
	"run_id, metric",
	"SELECT name, seq FROM sqlite_sequence ORDER BY name",
	/* Statuses of every run. */
	"SELECT id, putc_status, put_block_status, rewrite_status, "
	"getc_status, get_block_status, seeks_status, seq_create_status, "
	"seq_stat_status, seq_del_status, ran_create_status, ran_stat_status, "
	"ran_del_status FROM runs ORDER BY id",
	NULL, /* every result column of ingested runs: results_query() */
};
#define NKEPT (sizeof(kept) / sizeof(kept[0]))

/* Every value, CPU and latency column of bonnie++'s twelve tests, of the
 * ingested runs (bstore's own are rounded, see below). */
static void results_query(struct bs_buf *q)
{
	int m;

	bs_buf_adds(q, "SELECT id");
	for (m = 0; m < BS_M_BONNIE; m++)
		bs_buf_addf(q, ", quote(%s), quote(%s_cpu), quote(%s_lat_us)",
			    bs_metrics[m].key, bs_metrics[m].key,
			    bs_metrics[m].key);
	bs_buf_adds(q, " FROM runs WHERE format <> 'bstore-run' ORDER BY id");
}

static void snapshot(const char *path, struct bs_buf out[NKEPT])
{
	struct bs_buf q = BS_BUF_INIT;
	sqlite3 *db = db_open(path);
	size_t i;

	results_query(&q);
	for (i = 0; i < NKEPT; i++)
		dump(db, kept[i] ? kept[i] : bs_buf_str(&q), &out[i]);
	sqlite3_close(db);
	bs_buf_release(&q);
}

static void test_upgrade_keeps_everything(void **state)
{
	struct bs_buf before[NKEPT], after[NKEPT];
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	char *path = fixture_copy("keep");
	sqlite3 *db;
	size_t i;

	(void)state;
	memset(before, 0, sizeof(before));
	memset(after, 0, sizeof(after));
	db = db_open(path);
	assert_int_equal(one_int(db, "PRAGMA user_version"), 1);
	/* The fixture has what an upgrade must handle: deleted runs (ids
	 * 5 and 28, the last), tags, rejects, bstore runs with latency
	 * distributions and unrounded numbers. */
	assert_int_equal(one_int(db, "SELECT count(*) FROM runs"), 26);
	assert_int_equal(one_int(db, "SELECT seq FROM sqlite_sequence"), 28);
	assert_true(one_int(db, "SELECT count(*) FROM rejects") > 0);
	assert_true(one_int(db, "SELECT count(*) FROM latency") > 0);
	assert_true(one_int(db, "SELECT count(*) FROM runs WHERE putc <> "
				"CAST(putc AS INTEGER)") > 0);
	sqlite3_close(db);
	snapshot(path, before);

	assert_int_equal(bs_store_open(&st, path, BS_STORE_EXISTING, &err), 0);
	bs_store_close(st);

	snapshot(path, after);
	for (i = 0; i < NKEPT; i++) {
		if (strcmp(bs_buf_str(&before[i]), bs_buf_str(&after[i])) != 0)
			fail_msg("changed by the upgrade: %s\n--- before\n%s"
				 "--- after\n%s",
				 kept[i] ? kept[i] : "results",
				 bs_buf_str(&before[i]), bs_buf_str(&after[i]));
		assert_true(before[i].len > 0);
		bs_buf_release(&before[i]);
		bs_buf_release(&after[i]);
	}
	db = db_open(path);
	assert_int_equal(one_int(db, "PRAGMA user_version"), BS_SCHEMA_VERSION);
	assert_int_equal(one_int(db, "SELECT count(*) FROM runs WHERE family "
				     "<> 'bonnie'"),
			 0);
	/* Empty file-spec cells are unknown now, as everywhere. */
	assert_int_equal(one_int(db, "SELECT count(*) FROM runs WHERE format "
				     "LIKE 'bonnie++-csv-%' AND (max_size = 0 "
				     "OR num_dirs = 1)"),
			 0);
	/* What the cells said stays: 2.00a's -n 1:100:10:4 line. */
	assert_int_equal(one_int(db, "SELECT max_size * 10000 + min_size * 100 "
				     "+ num_dirs FROM runs WHERE seed = "
				     "'1796023681'"),
			 1001004);
	/* bstore run's own runs kept their measured 0 and 1. */
	assert_int_equal(one_int(db, "SELECT count(*) FROM runs WHERE format "
				     "= 'bstore-run' AND max_size = 0 AND "
				     "num_dirs = 1"),
			 2);
	/* The numbers views read are numbers only. */
	assert_int_equal(one_int(db, "SELECT count(*) FROM bonnie WHERE "
				     "typeof(put_block) = 'text' OR "
				     "typeof(seq_stat) = 'text'"),
			 0);
	assert_int_equal(one_int(db, "SELECT count(*) FROM results"),
			 26 * BS_M_BONNIE);
	sqlite3_close(db);
	free(path);
}

/*
 * What a user may have added to a version 1 archive: views of their own
 * over bonnie, results and latency, tags named "family" and "id" (run
 * fields from version 2 on), and latency rows of a run deleted with
 * foreign keys off. The upgrade keeps the views working, renames the tags
 * to tag.family and tag.id, and leaves the orphan rows behind; a copy of
 * the version 1 file is kept next to it.
 */
static void test_upgrade_keeps_users_additions(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	struct bs_buf bak = BS_BUF_INIT;
	char *path = fixture_copy("users");
	int64_t lat_kept, runs;
	sqlite3 *db = db_open(path);

	(void)state;
	bs_buf_addf(&bak, "%s.v1.bak", path);
	unlink(bs_buf_str(&bak));
	assert_int_equal(
		sqlite3_exec(db,
			     "CREATE VIEW fast AS SELECT id, name FROM "
			     "bonnie WHERE put_block > 100000;"
			     "CREATE VIEW slow_tests AS SELECT run_id FROM "
			     "results WHERE metric = 'seeks' AND value < 500;"
			     "CREATE VIEW lat AS SELECT run_id, p99_us FROM "
			     "latency;"
			     "INSERT INTO tags VALUES (1, 'family', 'old'), "
			     "(1, 'id', 'x7'), (2, 'family', 'new');"
			     "PRAGMA foreign_keys = OFF;"
			     "DELETE FROM runs WHERE id = (SELECT max(run_id) "
			     "FROM latency);",
			     NULL, NULL, NULL),
		SQLITE_OK);
	lat_kept = one_int(db, "SELECT count(*) FROM latency WHERE run_id IN "
			       "(SELECT id FROM runs)");
	assert_true(lat_kept > 0);
	assert_true(one_int(db, "SELECT count(*) FROM latency") > lat_kept);
	runs = one_int(db, "SELECT count(*) FROM runs");
	sqlite3_close(db);

	assert_int_equal(bs_store_open(&st, path, BS_STORE_EXISTING, &err), 0);
	assert_int_equal(bs_store_upgraded_from(st), 1);
	bs_store_close(st);

	db = db_open(path);
	assert_int_equal(one_int(db, "PRAGMA user_version"), BS_SCHEMA_VERSION);
	assert_true(one_int(db, "SELECT count(*) FROM fast") > 0);
	assert_true(one_int(db, "SELECT count(*) FROM slow_tests") > 0);
	assert_int_equal(one_int(db, "SELECT count(*) FROM lat"), lat_kept);
	assert_int_equal(one_int(db, "SELECT count(*) FROM tags WHERE key IN "
				     "('family', 'id')"),
			 0);
	assert_int_equal(one_int(db, "SELECT count(*) FROM tags WHERE "
				     "(run_id, key, value) IN (VALUES (1, "
				     "'tag.family', 'old'), (1, 'tag.id', "
				     "'x7'), (2, 'tag.family', 'new'))"),
			 3);
	sqlite3_close(db);

	/* The copy is the version 1 archive as it was. */
	db = db_open(bs_buf_str(&bak));
	assert_int_equal(one_int(db, "PRAGMA user_version"), 1);
	assert_int_equal(one_int(db, "SELECT count(*) FROM runs"), runs);
	assert_int_equal(one_int(db, "SELECT count(*) FROM tags WHERE key = "
				     "'family'"),
			 2);
	sqlite3_close(db);
	/* Opening again neither upgrades nor copies. */
	unlink(bs_buf_str(&bak));
	assert_int_equal(bs_store_open(&st, path, 0, &err), 0);
	assert_int_equal(bs_store_upgraded_from(st), 0);
	bs_store_close(st);
	assert_int_equal(access(bs_buf_str(&bak), F_OK), -1);
	bs_buf_release(&bak);
	free(path);
}

/* A bstore run's record is what its CSV line says, after the upgrade. */
static int same_as_line(const struct bs_run *r, void *ctx)
{
	struct bs_run back;
	struct bs_err err = BS_ERR_INIT;
	int m, *n = ctx;

	if (strcmp(r->format, BS_FMT_BSTORE_RUN) != 0)
		return 0;
	(*n)++;
	bs_run_init(&back);
	assert_int_equal(bs_ingest_parse_line(r->raw, strlen(r->raw), NULL,
					      &back, &err),
			 1);
	for (m = 0; m < BS_M_BONNIE; m++) {
		const struct bs_value *a = &r->res[m], *b = &back.res[m];
		assert_int_equal(a->status, b->status);
		if (a->status != BS_ST_OK)
			continue;
		if (a->value != b->value || a->cpu_pct != b->cpu_pct)
			fail_msg("run %lld %s: %.17g/%.17g against the line's "
				 "%.17g/%.17g",
				 (long long)r->id, bs_metrics[m].key, a->value,
				 a->cpu_pct, b->value, b->cpu_pct);
		if (!(isnan(a->lat_us) && isnan(b->lat_us)))
			assert_true(a->lat_us == b->lat_us);
	}
	bs_run_release(&back);
	return 0;
}

static void test_bstore_runs_agree_with_their_lines(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	char *path = fixture_copy("lines");
	int n = 0;

	(void)state;
	assert_int_equal(bs_store_open(&st, path, BS_STORE_READONLY, &err), 0);
	assert_int_equal(bs_store_each(st, NULL, BS_LOAD_RAW, same_as_line, &n,
				       &err),
			 0);
	assert_int_equal(n, 2);
	bs_store_close(st);
	free(path);
}

/* Tables with their columns, indexes with theirs, views with their SQL. */
static void schema_of(const char *path, struct bs_buf *out)
{
	sqlite3 *db = db_open(path);
	sqlite3_stmt *s = NULL;
	struct bs_buf q = BS_BUF_INIT;

	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT type, name FROM "
					    "sqlite_schema WHERE name NOT "
					    "LIKE 'sqlite_%' ORDER BY type, "
					    "name",
					    -1, &s, NULL),
			 SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(s, 0);
		const char *name = (const char *)sqlite3_column_text(s, 1);
		bs_buf_addf(out, "%s %s\n", type, name);
		bs_buf_reset(&q);
		if (strcmp(type, "table") == 0)
			bs_buf_addf(
				&q,
				"SELECT cid, name, type, \"notnull\", "
				"dflt_value, pk FROM pragma_table_info('%s')",
				name);
		else if (strcmp(type, "index") == 0)
			bs_buf_addf(&q,
				    "SELECT seqno, cid, name FROM "
				    "pragma_index_info('%s')",
				    name);
		else
			bs_buf_addf(&q,
				    "SELECT sql FROM sqlite_schema WHERE name "
				    "= '%s'",
				    name);
		dump(db, bs_buf_str(&q), out);
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
	bs_buf_release(&q);
}

static void test_upgraded_schema_is_a_new_archives(void **state)
{
	struct bs_buf fresh = BS_BUF_INIT, upgraded = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	char *path = fixture_copy("schema");
	char *fpath = xstrdup(path);

	(void)state;
	fpath[strlen(fpath) - 3] = '\0';
	fpath = xrealloc(fpath, strlen(fpath) + 16);
	memcpy(fpath + strlen(fpath), "-new.db", 8);
	unlink(fpath);
	assert_int_equal(bs_store_open(&st, fpath, 0, &err), 0);
	bs_store_close(st);
	assert_int_equal(bs_store_open(&st, path, 0, &err), 0);
	bs_store_close(st);
	schema_of(fpath, &fresh);
	schema_of(path, &upgraded);
	assert_string_equal(bs_buf_str(&upgraded), bs_buf_str(&fresh));
	assert_non_null(strstr(bs_buf_str(&fresh), "view results"));
	bs_buf_release(&fresh);
	bs_buf_release(&upgraded);
	free(path);
	free(fpath);
}

/* An upgrade is one transaction: one that fails leaves version 1. */
static void test_failed_upgrade_changes_nothing(void **state)
{
	struct bs_buf before = BS_BUF_INIT, after = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	char *path = fixture_copy("fail");
	sqlite3 *db = db_open(path);

	(void)state;
	/* Rounding bstore's runs updates them: make that fail late in the
	 * upgrade, after the tables were changed. */
	assert_int_equal(sqlite3_exec(db,
				      "CREATE TRIGGER no BEFORE UPDATE ON runs "
				      "BEGIN SELECT RAISE(ABORT, 'refused'); "
				      "END",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	schema_of(path, &before);
	assert_int_equal(bs_store_open(&st, path, 0, &err), -BS_EDB);
	assert_null(st);
	assert_non_null(strstr(err.msg, "refused"));
	schema_of(path, &after);
	assert_string_equal(bs_buf_str(&after), bs_buf_str(&before));
	db = db_open(path);
	assert_int_equal(one_int(db, "PRAGMA user_version"), 1);
	assert_int_equal(one_int(db, "SELECT count(*) FROM runs"), 26);
	sqlite3_close(db);
	bs_buf_release(&before);
	bs_buf_release(&after);
	free(path);
}

/* Opening twice upgrades once; the second open writes nothing. */
static void test_upgrade_once(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	char *path = fixture_copy("once");
	sqlite3 *db;

	(void)state;
	assert_int_equal(bs_store_open(&st, path, 0, &err), 0);
	bs_store_close(st);
	assert_int_equal(bs_store_open(&st, path, BS_STORE_READONLY, &err), 0);
	bs_store_close(st);
	assert_int_equal(bs_store_open(&st, path, 0, &err), 0);
	bs_store_close(st);
	db = db_open(path);
	assert_int_equal(one_int(db, "SELECT count(*) FROM metrics"),
			 bs_nmetrics);
	assert_int_equal(one_int(db, "PRAGMA user_version"), BS_SCHEMA_VERSION);
	/* An archive filled by an older catalogue (a metric fewer) gets
	 * the current one when next opened to write, not to read. */
	assert_int_equal(sqlite3_exec(db,
				      "DELETE FROM metrics WHERE key = "
				      "'requests_per_s'; UPDATE meta SET "
				      "value = 'older' WHERE key = "
				      "'catalogue'",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(bs_store_open(&st, path, BS_STORE_READONLY, &err), 0);
	bs_store_close(st);
	db = db_open(path);
	assert_int_equal(one_int(db, "SELECT count(*) FROM metrics"),
			 bs_nmetrics - 1);
	sqlite3_close(db);
	assert_int_equal(bs_store_open(&st, path, 0, &err), 0);
	bs_store_close(st);
	db = db_open(path);
	assert_int_equal(one_int(db, "SELECT count(*) FROM metrics"),
			 bs_nmetrics);
	/* A row a newer bstore wrote stays when this one refreshes. */
	assert_int_equal(sqlite3_exec(db,
				      "INSERT INTO metrics VALUES ('fio', "
				      "'from_the_future', 0, 'Later', 'x', "
				      "NULL, 'other', 0, 0); UPDATE meta SET "
				      "value = 'newer' WHERE key = "
				      "'catalogue'",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(bs_store_open(&st, path, 0, &err), 0);
	bs_store_close(st);
	db = db_open(path);
	assert_int_equal(one_int(db, "SELECT count(*) FROM metrics"),
			 bs_nmetrics + 1);
	sqlite3_close(db);
	free(path);
}

static int on_run6(struct bs_run *r, void *ctx)
{
	struct bs_err err = BS_ERR_INIT;

	assert_true(bs_store_put(ctx, r, NULL, &err) >= 0);
	return 0;
}

static int on_reject6(int64_t line, const char *raw, size_t len, int trunc,
		      const char *reason, void *ctx)
{
	(void)line, (void)raw, (void)len, (void)trunc, (void)ctx;
	fail_msg("rejected: %s", reason);
	return 0;
}

static void on_warn6(int64_t line, const char *msg, void *ctx)
{
	(void)line, (void)msg, (void)ctx;
}

/* Ingests file (under $SRC) into st. */
static void ingest_file(struct bs_store *st, const char *file)
{
	struct bs_ingest_cb cb = {on_run6, on_reject6, on_warn6, st};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest *p = bs_ingest_new(file, &cb, NULL);
	struct bs_buf path = BS_BUF_INIT;
	char buf[65536];
	FILE *f;
	size_t n;

	bs_buf_addf(&path, "%s/%s", getenv("SRC"), file);
	f = fopen(bs_buf_str(&path), "rb");
	assert_non_null(f);
	assert_int_equal(bs_store_begin(st, &err), 0);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		assert_int_equal(bs_ingest_feed(p, buf, n, &err), 0);
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	assert_int_equal(bs_store_commit(st, &err), 0);
	bs_ingest_free(p);
	fclose(f);
	bs_buf_release(&path);
}

/*
 * Version 6 to 7: version 6 kept a histogram as series rows, one a bin.
 * A version 6 archive is made from a new one by writing its runs'
 * histograms back as those rows and dropping distributions; the upgrade
 * packs every one into its row of distributions, and the runs read back
 * have every bin of before, bit for bit, with no histogram row left in
 * series.
 */
static void test_upgrade_6_7(void **state)
{
	static const char *const files[] = {
		"tests/data/dist/randread-jsonplus.json",
		"tests/data/dist/randrw-plist.json",
		"samples/sysbench-1.0.20-rndrd-histogram.txt",
	};
	struct bs_err err = BS_ERR_INIT;
	struct bs_store *st = NULL;
	struct bs_run before[3], after;
	struct bs_buf path = BS_BUF_INIT;
	const char *dir = getenv("SCRATCH");
	sqlite3 *db;
	sqlite3_stmt *ins = NULL;
	size_t i, k, j, hists = 0, bins = 0;

	(void)state;
	bs_buf_addf(&path, "%s/test_migrate_v6.db", dir ? dir : ".");
	unlink(bs_buf_str(&path));
	assert_int_equal(bs_store_open(&st, bs_buf_str(&path), 0, &err), 0);
	for (i = 0; i < 3; i++)
		ingest_file(st, files[i]);
	for (i = 0; i < 3; i++)
		assert_int_equal(bs_store_get(st, (int64_t)i + 1, BS_LOAD_ALL,
					      &before[i], &err),
				 0);
	bs_store_close(st);

	db = db_open(bs_buf_str(&path));
	assert_int_equal(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "INSERT INTO series VALUES (?, ?, "
					    "?, ?, ?, ?, NULL)",
					    -1, &ins, NULL),
			 SQLITE_OK);
	for (i = 0; i < 3; i++)
		for (k = 0; k < before[i].nseries; k++) {
			const struct bs_series *s = &before[i].series[k];

			assert_true(bs_dist_metric(s->metric));
			hists++;
			for (j = 0; j < s->n; j++, bins++) {
				sqlite3_bind_int64(ins, 1, before[i].id);
				sqlite3_bind_text(ins, 2,
						  bs_metrics[s->metric].key, -1,
						  SQLITE_STATIC);
				sqlite3_bind_int64(ins, 3, (sqlite3_int64)j);
				sqlite3_bind_text(ins, 4, s->axis, -1,
						  SQLITE_STATIC);
				sqlite3_bind_double(ins, 5, s->pt[j].x);
				sqlite3_bind_double(ins, 6, s->pt[j].y);
				assert_int_equal(sqlite3_step(ins),
						 SQLITE_DONE);
				sqlite3_reset(ins);
			}
		}
	sqlite3_finalize(ins);
	assert_int_equal(hists, 6);
	assert_true(bins > 500);
	assert_int_equal(sqlite3_exec(db,
				      "DROP TABLE distributions; PRAGMA "
				      "user_version = 6; COMMIT",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(bs_store_open(&st, bs_buf_str(&path), 0, &err), 0);
	assert_int_equal(bs_store_upgraded_from(st), 6);
	for (i = 0; i < 3; i++) {
		assert_int_equal(bs_store_get(st, (int64_t)i + 1, BS_LOAD_ALL,
					      &after, &err),
				 0);
		assert_int_equal(after.nseries, before[i].nseries);
		for (k = 0; k < after.nseries; k++) {
			const struct bs_series *a = &after.series[k],
					       *b = &before[i].series[k];

			assert_int_equal(a->metric, b->metric);
			assert_string_equal(a->axis, b->axis);
			assert_int_equal(a->n, b->n);
			for (j = 0; j < a->n; j++) {
				assert_memory_equal(&a->pt[j].x, &b->pt[j].x,
						    sizeof(double));
				assert_memory_equal(&a->pt[j].y, &b->pt[j].y,
						    sizeof(double));
				assert_true(isnan(a->pt[j].seconds));
			}
		}
		bs_run_release(&after);
		bs_run_release(&before[i]);
	}
	bs_store_close(st);
	db = db_open(bs_buf_str(&path));
	assert_int_equal(one_int(db, "PRAGMA user_version"), BS_SCHEMA_VERSION);
	assert_int_equal(one_int(db, "SELECT count(*) FROM series"), 0);
	assert_int_equal(one_int(db, "SELECT count(*) FROM distributions"), 6);
	assert_int_equal(one_int(db, "SELECT sum(nbins) FROM distributions"),
			 (int64_t)bins);
	assert_int_equal(one_int(db, "SELECT count(*) FROM distributions "
				     "WHERE scheme = 'raw'"),
			 0);
	sqlite3_close(db);
	bs_buf_release(&path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_upgrade_keeps_everything),
		cmocka_unit_test(test_upgrade_keeps_users_additions),
		cmocka_unit_test(test_bstore_runs_agree_with_their_lines),
		cmocka_unit_test(test_upgraded_schema_is_a_new_archives),
		cmocka_unit_test(test_failed_upgrade_changes_nothing),
		cmocka_unit_test(test_upgrade_once),
		cmocka_unit_test(test_upgrade_6_7),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
