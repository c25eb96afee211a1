/*
 * tests/unit/test_db_sqlite.c - the SQLite row of the engines' table
 * (store/db_sqlite.c) reports as store/db.h says: the connection's
 * operations fill a struct bs_err with the engine's reason and return
 * its kind's -BS_E* code (BS_ENOTFOUND, BS_EINTR, else BS_EDB); the hot
 * statement operations return the code alone (never -1) and leave the
 * reason and the finer kind (errkind) on the connection.
 * tests/unit/test_db_pg.c holds the same for the PostgreSQL row.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "store/db.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/banned.h"

/* A file for the test under $SCRATCH (ctest's), none there yet. */
static void new_path(struct bs_buf *b, const char *name)
{
	const char *dir = getenv("SCRATCH");

	bs_buf_reset(b);
	bs_buf_addf(b, "%s/test_db_sqlite_%s.db", dir ? dir : ".", name);
	if (dir)
		mkdir(dir, 0700);
	unlink(bs_buf_str(b));
}

static struct bs_db *open_new(const char *name)
{
	struct bs_buf path = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_db *db = NULL;

	new_path(&path, name);
	assert_int_equal(bs_db_open(&bs_db_sqlite, &db, bs_buf_str(&path), 0,
				    NULL, NULL, &err),
			 0);
	assert_non_null(db);
	assert_int_equal(err.code, 0);
	bs_buf_release(&path);
	return db;
}

/* A missing archive: BS_ENOTFOUND and the system's reason, no
 * connection left to close. */
static void test_open_missing(void **state)
{
	struct bs_buf path = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_db other = {NULL};
	struct bs_db *db = &other; /* set to NULL on failure */

	(void)state;
	new_path(&path, "missing");
	assert_int_equal(bs_db_open(&bs_db_sqlite, &db, bs_buf_str(&path),
				    BS_DB_OPEN_EXISTING, NULL, NULL, &err),
			 -BS_ENOTFOUND);
	assert_null(db);
	assert_int_equal(err.code, BS_ENOTFOUND);
	assert_string_equal(err.msg, strerror(ENOENT));
	/* And one that cannot be: SQLite's in-memory database. */
	bs_err_reset(&err);
	assert_int_equal(bs_db_open(&bs_db_sqlite, &db, ":memory:", 0, NULL,
				    NULL, &err),
			 -BS_EDB);
	assert_null(db);
	assert_non_null(strstr(err.msg, "an archive is a file"));
	bs_buf_release(&path);
}

static void test_statement_errors(void **state)
{
	struct bs_db *db = open_new("errors");
	struct bs_db_stmt other = {NULL};
	struct bs_db_stmt *s = &other; /* set to NULL on failure */
	struct bs_err err = BS_ERR_INIT;

	(void)state;
	assert_int_equal(bs_db_exec(db,
				    "CREATE TABLE t (k TEXT PRIMARY KEY, n "
				    "INTEGER CHECK (n > 0)); INSERT INTO t "
				    "VALUES ('a', 1)",
				    &err),
			 0);
	/* exec: the engine's reason, as the store puts it after "PATH: ". */
	assert_int_equal(bs_db_exec(db, "SELEC 1", &err), -BS_EDB);
	assert_int_equal(err.code, BS_EDB);
	assert_string_equal(err.msg, "near \"SELEC\": syntax error");
	assert_int_equal(bs_db_errkind(db), BS_DB_EOTHER);
	assert_string_equal(bs_db_errmsg(db), err.msg);
	/* prepare: *out NULL. */
	bs_err_reset(&err);
	assert_int_equal(bs_db_prepare(db, "SELECT nope FROM t", 0, &s, &err),
			 -BS_EDB);
	assert_null(s);
	assert_string_equal(err.msg, "no such column: nope");
	/* A hot operation: the code alone, the finer kind on the
	 * connection. */
	assert_int_equal(bs_db_prepare(db, "INSERT INTO t VALUES (?, ?)", 0, &s,
				       NULL),
			 0);
	assert_int_equal(bs_db_bind_text(s, 1, "a", -1), 0);
	assert_int_equal(bs_db_bind_int64(s, 2, 2), 0);
	assert_int_equal(bs_db_step(s), -BS_EDB);
	assert_int_equal(bs_db_errkind(db), BS_DB_ECONSTRAINT);
	assert_non_null(strstr(bs_db_errmsg(db), "UNIQUE"));
	assert_int_equal(bs_db_reset(s), 0);
	assert_int_equal(bs_db_bind_int64(s, 7, 1), -BS_EDB);
	/* defer without the row's own: step and reset, the same code. */
	assert_int_equal(bs_db_bind_text(s, 1, "b", -1), 0);
	assert_int_equal(bs_db_bind_int64(s, 2, 0), 0);
	assert_int_equal(bs_db_defer(s), -BS_EDB);
	assert_int_equal(bs_db_errkind(db), BS_DB_ECONSTRAINT);
	assert_int_equal(bs_db_bind_int64(s, 2, 3), 0);
	assert_int_equal(bs_db_defer(s), 0);
	bs_db_finalize(s);
	bs_db_close(db);
}

static int collect(const char *table, const char *col, void *ctx)
{
	bs_buf_addf(ctx, "%s.%s ", table, col);
	return 0;
}

static int stop(const char *table, const char *col, void *ctx)
{
	(void)table;
	(void)col;
	(void)ctx;
	return -BS_EINVAL;
}

static void test_catalogue(void **state)
{
	struct bs_db *db = open_new("catalogue");
	struct bs_buf refs = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	int v = -1, has = -1;

	(void)state;
	assert_int_equal(bs_db_get_version(db, &v, &err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(bs_db_exec(db,
				    "CREATE TABLE p (id INTEGER PRIMARY KEY); "
				    "CREATE TABLE c2 (run_id INTEGER "
				    "REFERENCES p (id)); CREATE TABLE c1 (pid "
				    "INTEGER REFERENCES p (id)); CREATE VIEW pv "
				    "AS SELECT id FROM p",
				    &err),
			 0);
	assert_int_equal(bs_db_set_version(db, 4, &err), 0);
	assert_int_equal(bs_db_get_version(db, &v, &err), 0);
	assert_int_equal(v, 4);
	assert_int_equal(bs_db_has_object(db, "pv", &has, &err), 0);
	assert_int_equal(has, 1);
	assert_int_equal(bs_db_has_object(db, "nope", &has, &err), 0);
	assert_int_equal(has, 0);
	assert_int_equal(bs_db_count_objects(db, &err), 4);
	assert_int_equal(bs_db_referrers(db, "p", collect, &refs, &err), 0);
	assert_string_equal(bs_buf_str(&refs), "c1.pid c2.run_id ");
	/* fn's own code is passed back; err is fn's caller's to fill. */
	assert_int_equal(bs_db_referrers(db, "p", stop, NULL, &err),
			 -BS_EINVAL);
	assert_int_equal(err.code, 0);
	assert_int_equal(bs_db_check_untrusted(db, (const char *[]){"p", "c1"},
					       2, &err),
			 0);
	assert_int_equal(bs_db_check_untrusted(db, (const char *[]){"pv"}, 1,
					       &err),
			 -BS_EDB);
	assert_int_equal(bs_db_errkind(db), BS_DB_ECORRUPT);
	assert_string_equal(err.msg, "its 'pv' is a view, not the table a "
				     "bstore archive has");
	assert_int_equal(bs_db_settle(db, NULL), 0);
	bs_buf_release(&refs);
	bs_db_close(db);
}

/* The cancel flag stops a long statement: BS_EINTR. */
static void test_interrupted(void **state)
{
	static volatile sig_atomic_t flag;
	struct bs_db *db = open_new("interrupted");
	struct bs_err err = BS_ERR_INIT;

	(void)state;
	flag = 1;
	bs_db_set_cancel(db, &flag);
	assert_int_equal(bs_db_exec(db,
				    "WITH RECURSIVE n(i) AS (SELECT 1 UNION "
				    "ALL SELECT i + 1 FROM n WHERE i < "
				    "100000000) SELECT count(*) FROM n",
				    &err),
			 -BS_EINTR);
	assert_int_equal(err.code, BS_EINTR);
	assert_int_equal(bs_db_errkind(db), BS_DB_EINTERRUPT);
	/* begin_write (BEGIN IMMEDIATE through exec) reports the same
	 * way once the flag is down. */
	flag = 0;
	bs_err_reset(&err);
	assert_int_equal(bs_db_begin_write(db, NULL, NULL, &err), 0);
	assert_int_equal(bs_db_begin_write(db, NULL, NULL, &err), -BS_EDB);
	assert_non_null(strstr(err.msg, "within a transaction"));
	bs_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_missing),
		cmocka_unit_test(test_statement_errors),
		cmocka_unit_test(test_catalogue),
		cmocka_unit_test(test_interrupted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
