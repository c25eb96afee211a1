/*
 * tests/unit/test_db_pg.c - the PostgreSQL row of the engines' table
 * (store/db_pg.c). Without a server: the URL shown without its password
 * when the connection fails. With one (BSTORE_TEST_DB, a postgresql://
 * URL; ctest's pg.unit.test_db_pg starts a throwaway cluster through
 * tests/pg/run.sh): placeholders, values through every bind and column
 * call, SQLSTATEs as error kinds, the schema version, the catalogue
 * operations, and the glob of selectors matching what SQLite's GLOB
 * matches, pattern by pattern.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store/db.h"
#include "store/selector.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* Built without libpq, the row is the stub: nothing to test. */
static int have_pg(void)
{
	return bs_db_pg.exec != NULL;
}

static struct bs_db *connect_test(int flags)
{
	const char *url = getenv("BSTORE_TEST_DB");
	struct bs_db *db = NULL;
	struct bs_err err = BS_ERR_INIT;

	if (url == NULL || !have_pg())
		return NULL;
	if (bs_db_pg.open(&db, url, flags, NULL, NULL, &err) < 0) {
		fprintf(stderr, "cannot connect: %s\n", err.msg);
		fail();
	}
	return db;
}

static void test_display_without_password(void **state)
{
	/* clang-format off */
	static const struct { const char *url, *shown; } cases[] = {
		{"postgresql://u:s3cret@/db?host=/nonexistent-bstore",
		 "postgresql://u@/db?host=/nonexistent-bstore"},
		{"postgres://u:s3cret@h:1/db?host=/nonexistent-bstore&password=p2&sslmode=disable",
		 "postgres://u@/db?host=/nonexistent-bstore&port=1&sslmode=disable"},
		{"postgresql:///db?password=p2&host=/nonexistent-bstore",
		 "postgresql:///db?host=/nonexistent-bstore"},
		{"postgresql://u@/db?host=/nonexistent-bstore",
		 "postgresql://u@/db?host=/nonexistent-bstore"},
	};
	/* clang-format on */
	size_t i;

	(void)state;
	if (!have_pg())
		skip();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bs_db *db = NULL;
		struct bs_err err = BS_ERR_INIT;
		char *shown = bs_db_shown(cases[i].url);

		/* A failed open leaves no connection: err says why. */
		assert_int_equal(bs_db_pg.open(&db, cases[i].url, 0, NULL, NULL,
					       &err),
				 -BS_EDB);
		assert_null(db);
		assert_int_equal(err.code, BS_EDB);
		assert_string_equal(shown, cases[i].shown);
		assert_null(strstr(err.msg, "s3cret"));
		assert_null(strchr(err.msg, '\n'));
		free(shown);
	}
}

/*
 * What may be shown of a connection string (bs_db_shown): libpq's reading
 * of it, every option it marks secret dropped, however it was spelled; one
 * it cannot read shows its scheme only; a path stays a path.
 */
static void test_shown(void **state)
{
	/* clang-format off */
	static const struct { const char *name, *shown; } cases[] = {
		{"postgresql://u:s3c?ret@h:5433/db", "postgresql://u@h:5433/db"},
		{"postgresql://h/db?%70assword=s3cret", "postgresql://h/db"},
		{"postgresql://h/db?passw%6Frd=s3cret&sslmode=require",
		 "postgresql://h/db?sslmode=require"},
		{"postgresql://u@h/db?sslpassword=s3cret", "postgresql://u@h/db"},
		{"postgresql://u:s3cret@h/d%20b?application_name=a%26b",
		 "postgresql://u@h/d%20b?application_name=a%26b"},
		{"postgresql://u:s3cret@h1,h2/db",
		 "postgresql://u@/db?host=h1,h2&port=,"},
		{"postgresql://u:s3%zzcret@h/db",
		 "postgresql://(a URL libpq cannot read)"},
		{"postgresql://h/db?password=s3cret=x",
		 "postgresql://(a URL libpq cannot read)"},
		{"host=h password=s3cret dbname='my db'",
		 "dbname='my db' host='h'"},
		{"host=h dbname=d", "host=h dbname=d"},
		{"/srv/bstore/fleet.db", "/srv/bstore/fleet.db"},
		{"a b.db", "a b.db"},
	};
	/* clang-format on */
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *shown = bs_db_shown(cases[i].name);
		assert_string_equal(shown, cases[i].shown);
		assert_null(strstr(shown, "s3c"));
		free(shown);
	}
}

static void test_values(void **state)
{
	static const unsigned char blob[] = {0, 1, 2, '\'', 0, 0xff};
	static const double reals[] = {0.1, 1.0 / 3, -2.5e-300, 1e300, 0};
	struct bs_db *db = connect_test(0);
	struct bs_db_stmt *ins = NULL, *sel = NULL;
	size_t i;

	(void)state;
	if (db == NULL)
		skip();
	assert_int_equal(
		bs_db_exec(db,
			   "DROP TABLE IF EXISTS v; CREATE TABLE v (i "
			   "BIGINT, r DOUBLE PRECISION, t TEXT, b BYTEA, "
			   "a TEXT)",
			   NULL),
		0);
	/* '?' in a string, an identifier and comments is not a parameter;
	 * ?N names one twice. */
	assert_int_equal(bs_db_prepare(db,
				       "INSERT INTO v (i, r, t, b, a) -- a ?\n"
				       "VALUES (?, ?, ? /* ? */, ?, ?3 || "
				       "'?')",
				       BS_DB_KEEP, &ins, NULL),
			 0);
	for (i = 0; i < sizeof(reals) / sizeof(reals[0]); i++) {
		assert_int_equal(bs_db_bind_int64(ins, 1,
						  i == 0 ? INT64_MIN
							 : INT64_MAX -
								   (int64_t)i),
				 0);
		assert_int_equal(bs_db_bind_double(ins, 2, reals[i]), 0);
		assert_int_equal(bs_db_bind_text(ins, 3, "it's", -1), 0);
		assert_int_equal(bs_db_bind_blob(ins, 4, blob, sizeof(blob)),
				 0);
		assert_int_equal(bs_db_step(ins), BS_DB_DONE);
		assert_int_equal(bs_db_changes(db), 1);
		assert_int_equal(bs_db_reset(ins), 0);
	}
	/* NaN is stored as NULL, as SQLite stores it. */
	bs_db_bind_double(ins, 2, NAN);
	bs_db_bind_null(ins, 4);
	assert_int_equal(bs_db_step(ins), BS_DB_DONE);
	bs_db_finalize(ins);

	assert_int_equal(bs_db_prepare(db,
				       "SELECT i, r, t, b, a FROM v WHERE b "
				       "= ? OR b IS NULL ORDER BY r NULLS "
				       "LAST, i",
				       0, &sel, NULL),
			 0);
	assert_int_equal(bs_db_column_count(sel), 5);
	assert_string_equal(bs_db_column_name(sel, 3), "b");
	bs_db_bind_blob(sel, 1, blob, sizeof(blob));
	for (i = 0; i < 5; i++) {
		/* reals in order: each comes back exactly. */
		static const double sorted[] = {-2.5e-300, 0, 0.1, 1.0 / 3,
						1e300};
		assert_int_equal(bs_db_step(sel), BS_DB_ROW);
		assert_int_equal(bs_db_column_type(sel, 0), BS_DB_INT);
		assert_int_equal(bs_db_column_type(sel, 1), BS_DB_FLOAT);
		assert_int_equal(bs_db_column_type(sel, 2), BS_DB_TEXT);
		assert_int_equal(bs_db_column_type(sel, 3), BS_DB_BLOB);
		assert_true(bs_db_column_double(sel, 1) == sorted[i]);
		assert_string_equal(bs_db_column_text(sel, 2), "it's");
		assert_string_equal(bs_db_column_text(sel, 4), "it's?");
		assert_int_equal(bs_db_column_bytes(sel, 3), sizeof(blob));
		assert_memory_equal(bs_db_column_blob(sel, 3), blob,
				    sizeof(blob));
	}
	assert_int_equal(bs_db_step(sel), BS_DB_ROW);
	assert_int_equal(bs_db_column_type(sel, 1), BS_DB_NULL);
	assert_int_equal(bs_db_column_type(sel, 3), BS_DB_NULL);
	assert_null(bs_db_column_text(sel, 1));
	assert_int_equal(bs_db_step(sel), BS_DB_DONE);
	bs_db_finalize(sel);

	/* The extremes of int64 come back whole. */
	assert_int_equal(bs_db_prepare(db, "SELECT min(i), max(i) FROM v", 0,
				       &sel, NULL),
			 0);
	assert_int_equal(bs_db_step(sel), BS_DB_ROW);
	assert_true(bs_db_column_int64(sel, 0) == INT64_MIN);
	assert_true(bs_db_column_int64(sel, 1) == INT64_MAX - 1);
	bs_db_finalize(sel);
	bs_db_pg.close(db);
}

static void test_errors(void **state)
{
	struct bs_db *db = connect_test(0), *ro = NULL;
	struct bs_db_stmt *s = NULL;
	struct bs_err err = BS_ERR_INIT;

	(void)state;
	if (db == NULL)
		skip();
	assert_int_equal(bs_db_exec(db,
				    "DROP TABLE IF EXISTS e; CREATE "
				    "TABLE e (k TEXT PRIMARY KEY, n BIGINT "
				    "CHECK (n > 0))",
				    NULL),
			 0);
	assert_int_equal(bs_db_exec(db, "INSERT INTO e VALUES ('a', 1)", NULL),
			 0);
	assert_int_equal(bs_db_exec(db, "INSERT INTO e VALUES ('a', 2)", NULL),
			 -BS_EDB);
	assert_int_equal(bs_db_errkind(db), BS_DB_ECONSTRAINT);
	assert_int_equal(bs_db_exec(db, "INSERT INTO e VALUES ('b', 0)", NULL),
			 -BS_EDB);
	assert_int_equal(bs_db_errkind(db), BS_DB_ECONSTRAINT);
	/* err holds the engine's reason alone; errmsg keeps it too. */
	assert_int_equal(bs_db_exec(db, "SELEC 1", &err), -BS_EDB);
	assert_int_equal(err.code, BS_EDB);
	assert_string_equal(err.msg, "syntax error at or near \"SELEC\"");
	assert_int_equal(bs_db_errkind(db), BS_DB_EOTHER);
	assert_string_equal(bs_db_errmsg(db),
			    "syntax error at or near \"SELEC\"");
	/* A failed statement's error comes from its step: a -BS_E* code. */
	assert_int_equal(bs_db_prepare(db, "SELECT nope FROM e", 0, &s, NULL),
			 0);
	assert_int_equal(bs_db_step(s), -BS_EDB);
	assert_non_null(strstr(bs_db_errmsg(db), "nope"));
	bs_db_finalize(s);

	ro = connect_test(BS_DB_OPEN_READONLY);
	assert_int_equal(bs_db_exec(ro, "INSERT INTO e VALUES ('c', 3)", NULL),
			 -BS_EDB);
	assert_int_equal(bs_db_errkind(ro), BS_DB_EREADONLY);
	bs_db_pg.close(ro);
	bs_db_pg.close(db);
}

static int collect(const char *table, const char *col, void *ctx)
{
	bs_buf_addf(ctx, "%s.%s ", table, col);
	return 0;
}

static void test_catalogue(void **state)
{
	struct bs_db *db = connect_test(0);
	struct bs_buf refs = BS_BUF_INIT;
	const char *const tables[] = {"p", "c2"};
	struct bs_err err = BS_ERR_INIT;
	int v = -1, has = -1;

	(void)state;
	if (db == NULL)
		skip();
	assert_int_equal(bs_db_exec(db,
				    "DROP TABLE IF EXISTS c1, c2, p, meta; DROP "
				    "VIEW IF EXISTS pv",
				    NULL),
			 0);
	assert_int_equal(bs_db_pg.get_version(db, &v, NULL), 0);
	assert_int_equal(v, 0);
	assert_int_equal(
		bs_db_exec(db,
			   "CREATE TABLE meta (key TEXT PRIMARY KEY, value "
			   "TEXT NOT NULL); CREATE TABLE p (id BIGINT "
			   "PRIMARY KEY); CREATE TABLE c2 (run_id BIGINT "
			   "REFERENCES p (id)); CREATE TABLE c1 (pid "
			   "BIGINT REFERENCES p (id)); CREATE VIEW pv AS "
			   "SELECT id FROM p",
			   NULL),
		0);
	assert_int_equal(bs_db_pg.set_version(db, 4, NULL), 0);
	assert_int_equal(bs_db_pg.get_version(db, &v, NULL), 0);
	assert_int_equal(v, 4);
	assert_int_equal(bs_db_pg.has_object(db, "pv", &has, NULL), 0);
	assert_int_equal(has, 1);
	assert_int_equal(bs_db_pg.has_object(db, "p_pkey", &has, NULL), 0);
	assert_int_equal(has, 1);
	assert_int_equal(bs_db_pg.has_object(db, "nope", &has, NULL), 0);
	assert_int_equal(has, 0);
	assert_true(bs_db_pg.count_objects(db, NULL) >= 7);
	assert_int_equal(bs_db_pg.referrers(db, "p", collect, &refs, NULL), 0);
	assert_string_equal(bs_buf_str(&refs), "c1.pid c2.run_id ");
	assert_int_equal(bs_db_pg.check_untrusted(db, tables, 2, NULL), 0);
	assert_int_equal(bs_db_pg.check_untrusted(db, (const char *[]){"pv"}, 1,
						  &err),
			 -BS_EDB);
	assert_int_equal(bs_db_errkind(db), BS_DB_ECORRUPT);
	assert_string_equal(err.msg, "its 'pv' is not a plain table, "
				     "as a bstore archive has");
	bs_buf_release(&refs);
	bs_db_exec(db, "DROP TABLE c1, c2, meta; DROP VIEW pv; DROP TABLE p",
		   NULL);
	bs_db_pg.close(db);
}

/* One pattern's matches among the texts, as a string of 0 and 1. */
static void matches(struct bs_db *db, const char *pattern, int literal,
		    char *out)
{
	struct bs_buf sql = BS_BUF_INIT, val = BS_BUF_INIT;
	struct bs_db_stmt *s = NULL;
	int n = 0;

	bs_buf_adds(&sql, "SELECT ");
	db->ops->glob(&sql, "t", pattern, literal ? NULL : &val);
	bs_buf_adds(&sql, " FROM g ORDER BY k");
	assert_int_equal(bs_db_prepare(db, bs_buf_str(&sql), 0, &s, NULL), 0);
	if (!literal)
		bs_db_bind_text(s, 1, bs_buf_str(&val), -1);
	while (bs_db_step(s) == BS_DB_ROW)
		out[n++] = bs_db_column_int64(s, 0) ? '1' : '0';
	out[n] = '\0';
	bs_db_finalize(s);
	bs_buf_release(&sql);
	bs_buf_release(&val);
}

static void test_glob_as_sqlite(void **state)
{
	static const char *const texts[] = {
		"bonnie++-text-1.03",
		"bonnie++-csv-1.03",
		"EMC CX500",
		"a.b",
		"a+b",
		"x]y",
		"ab",
		"a\\b",
		"caf\xc3\xa9",
		"",
		"[x]",
		"^x$",
	};
	static const char *const patterns[] = {
		"bonnie++-text*",
		"*CX*",
		"a?b",
		"a.b",
		"[a-c]*",
		"[^a]*",
		"*]*",
		"[]]*",
		"*[.+]*",
		"a\\b",
		"caf?",
		"",
		"[x",
		"^x$",
		"*[^-a-z0-9]*",
		"[x]",
		"\\[x]",
		"(a|b)",
		"emc*",
		"*",
	};
	struct bs_db *pg = connect_test(0), *sq = NULL;
	struct bs_db_stmt *ins[2];
	struct bs_db *dbs[2];
	size_t i, k;

	(void)state;
	if (pg == NULL)
		skip();
	assert_int_equal(bs_db_sqlite.open(&sq, ":memory:", BS_DB_OPEN_MEMORY,
					   NULL, NULL, NULL),
			 0);
	dbs[0] = pg;
	dbs[1] = sq;
	for (k = 0; k < 2; k++) {
		bs_db_exec(dbs[k], "DROP TABLE IF EXISTS g", NULL);
		assert_int_equal(bs_db_exec(dbs[k],
					    "CREATE TABLE g (k "
					    "INTEGER, t TEXT)",
					    NULL),
				 0);
		assert_int_equal(bs_db_prepare(dbs[k],
					       "INSERT INTO g VALUES "
					       "(?, ?)",
					       0, &ins[k], NULL),
				 0);
		for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
			bs_db_bind_int64(ins[k], 1, (int64_t)i);
			bs_db_bind_text(ins[k], 2, texts[i], -1);
			assert_int_equal(bs_db_step(ins[k]), BS_DB_DONE);
			bs_db_reset(ins[k]);
		}
		bs_db_finalize(ins[k]);
	}
	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		char a[32], b[32], c[32];
		matches(pg, patterns[i], 0, a);
		matches(pg, patterns[i], 1, b);
		matches(sq, patterns[i], 0, c);
		if (strcmp(a, c) != 0 || strcmp(b, c) != 0)
			fprintf(stderr,
				"pattern '%s': postgresql %s %s, "
				"sqlite %s\n",
				patterns[i], a, b, c);
		assert_string_equal(a, c);
		assert_string_equal(b, c);
	}
	bs_db_exec(pg, "DROP TABLE g", NULL);
	bs_db_pg.close(pg);
	bs_db_sqlite.close(sq);
}

/* The characters random names and patterns are made of: ASCII letters
 * and the glob's and regular expressions' own, and UTF-8 of 2, 3 and 4
 * bytes, U+00A9 among them (its second byte is U+0080's range). */
static const char *const glyphs[] = {
	"a",
	"b",
	"c",
	"x",
	"A",
	"-",
	"]",
	"^",
	".",
	"+",
	"\\",
	"$",
	"(",
	"|",
	"{",
	" ",
	"\xc3\xa9",
	"\xc3\xbc",
	"\xc2\xa9",
	"\xe2\x82\xac",
	"\xf0\x9f\x98\x80",
	"\xd0\xb6",
};
enum {
	NGLYPH = sizeof(glyphs) / sizeof(glyphs[0]),
	NNAMES = 300,
	NPATTERNS = 4000
};

static uint64_t rnd_state = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (unsigned)(rnd_state % n);
}

/* A random glob: characters, '*', '?' and classes of members, ranges,
 * '^' first, ']' first, '-' first or last. */
static void random_pattern(struct bs_buf *b)
{
	unsigned n = rnd(6), i, k, m;

	for (i = 0; i < n; i++) {
		switch (rnd(8)) {
		case 0:
			bs_buf_addc(b, '*');
			break;
		case 1:
		case 2:
			bs_buf_addc(b, '?');
			break;
		case 3:
			bs_buf_addc(b, '[');
			if (rnd(3) == 0)
				bs_buf_addc(b, '^');
			if (rnd(6) == 0)
				bs_buf_addc(b, ']');
			for (k = 0, m = 1 + rnd(3); k < m; k++) {
				bs_buf_adds(b, glyphs[rnd(NGLYPH)]);
				if (rnd(3) == 0) {
					bs_buf_addc(b, '-');
					bs_buf_adds(b, glyphs[rnd(NGLYPH)]);
				}
			}
			bs_buf_addc(b, ']');
			break;
		default:
			bs_buf_adds(b, glyphs[rnd(NGLYPH)]);
		}
	}
}

/*
 * One selector language on both engines (issue 28 item 7): thousands of
 * random globs over random UTF-8 names select the same names on
 * PostgreSQL (bound and written into the SQL) as on SQLite; '?' is one
 * character on both. A pattern the parser refuses (bs_sel_check_glob: a
 * range that goes down, chained ranges) is never sent to either.
 */
static void glob_random(struct bs_db *pg)
{
	struct bs_db *sq = NULL, *dbs[2];
	struct bs_db_stmt *ins;
	struct bs_buf pat = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	char a[NNAMES + 1], b[NNAMES + 1], c[NNAMES + 1], *names[NNAMES];
	size_t i, k, j, n, compared = 0, refused = 0, some = 0;

	rnd_state = 0x9e3779b97f4a7c15u;
	assert_int_equal(bs_db_sqlite.open(&sq, ":memory:", BS_DB_OPEN_MEMORY,
					   NULL, NULL, NULL),
			 0);
	dbs[0] = pg;
	dbs[1] = sq;
	for (k = 0; k < 2; k++) {
		bs_db_exec(dbs[k], "DROP TABLE IF EXISTS g", NULL);
		assert_int_equal(bs_db_exec(dbs[k],
					    "CREATE TABLE g (k "
					    "INTEGER, t TEXT)",
					    NULL),
				 0);
	}
	for (i = 0; i < NNAMES; i++) {
		bs_buf_reset(&pat);
		for (j = 0, n = rnd(6); j < n; j++)
			bs_buf_adds(&pat, glyphs[rnd(NGLYPH)]);
		names[i] = xstrdup(bs_buf_str(&pat));
		for (k = 0; k < 2; k++) {
			assert_int_equal(bs_db_prepare(dbs[k],
						       "INSERT INTO g "
						       "VALUES (?, ?)",
						       0, &ins, NULL),
					 0);
			bs_db_bind_int64(ins, 1, (int64_t)i);
			bs_db_bind_text(ins, 2, bs_buf_str(&pat), -1);
			assert_int_equal(bs_db_step(ins), BS_DB_DONE);
			bs_db_finalize(ins);
		}
	}
	for (i = 0; i < NPATTERNS; i++) {
		bs_buf_reset(&pat);
		random_pattern(&pat);
		if (bs_sel_check_glob(bs_buf_str(&pat), &err) < 0) {
			bs_err_reset(&err);
			refused++;
			continue;
		}
		matches(pg, bs_buf_str(&pat), 0, a);
		matches(pg, bs_buf_str(&pat), 1, b);
		matches(sq, bs_buf_str(&pat), 0, c);
		if (strcmp(a, c) != 0 || strcmp(b, c) != 0) {
			for (j = 0; c[j]; j++)
				if (a[j] != c[j] || b[j] != c[j])
					fprintf(stderr,
						"  name %zu '%s': "
						"postgresql %c %c, "
						"sqlite %c\n",
						j, names[j], a[j], b[j], c[j]);
			fail_msg("pattern '%s': postgresql %s %s, sqlite %s",
				 bs_buf_str(&pat), a, b, c);
		}
		compared++;
		some += strchr(c, '1') != NULL;
	}
	/* The patterns were not all refused, nor all matched nothing. */
	fprintf(stderr,
		"%zu random globs the same on both engines (%zu "
		"matched some name), %zu refused\n",
		compared, some, refused);
	assert_true(compared >= 3000);
	assert_true(some >= 500);
	assert_true(refused >= 50);
	bs_db_exec(pg, "DROP TABLE g", NULL);
	for (i = 0; i < NNAMES; i++)
		free(names[i]);
	bs_buf_release(&pat);
	bs_db_sqlite.close(sq);
}

/* In the test's UTF8 database, and in a SQL_ASCII one (docs/team.md's:
 * its regular expressions see bytes) made beside it. */
static void test_glob_random(void **state)
{
	struct bs_db *pg = connect_test(0), *ascii = NULL;
	char url[1024];

	(void)state;
	if (pg == NULL)
		skip();
	glob_random(pg);
	bs_db_exec(pg, "DROP DATABASE IF EXISTS bstore_ascii", NULL);
	assert_int_equal(bs_db_exec(pg,
				    "CREATE DATABASE bstore_ascii "
				    "ENCODING 'SQL_ASCII' TEMPLATE "
				    "template0 LC_COLLATE 'C' LC_CTYPE "
				    "'C'",
				    NULL),
			 0);
	snprintf(url, sizeof(url), "%s%sdbname=bstore_ascii",
		 getenv("BSTORE_TEST_DB"),
		 strchr(getenv("BSTORE_TEST_DB"), '?') ? "&" : "?");
	assert_int_equal(bs_db_pg.open(&ascii, url, 0, NULL, NULL, NULL), 0);
	glob_random(ascii);
	bs_db_pg.close(ascii);
	bs_db_exec(pg, "DROP DATABASE bstore_ascii", NULL);
	bs_db_pg.close(pg);
}

/*
 * A cursor's batches after its first come in binary (store/db_pg.c): each
 * value reads as the server's text of it would, numbers' text included
 * (the same bytes as the server's ::text; a boolean's t or f). Doubles of every
 * magnitude, powers of two, whole numbers, the specials, bigints and booleans;
 * a bytea's bytes and a NULL.
 */
static void test_binary_rows_as_text(void **state)
{
	struct bs_db *db = connect_test(BS_DB_OPEN_READONLY);
	struct bs_db_stmt *sel = NULL;
	int rows = 0, col;

	(void)state;
	if (db == NULL)
		skip();
	assert_int_equal(bs_db_exec(db, "SELECT setseed(0.25)", NULL), 0);
	assert_int_equal(
		bs_db_prepare(
			db,
			"SELECT x, x::text, i, i::text, i % 3 = 0, CASE WHEN i "
			"% 3 = 0 THEN 't' ELSE 'f' END, i * 1000003 - 4000000000, (i * "
			"1000003 - "
			"4000000000)::text, CAST(CASE WHEN i % 5 = 0 THEN "
			"NULL ELSE i END AS INTEGER), decode('00ff27', 'hex') "
			"FROM (SELECT g AS i, CASE g % 5 "
			"WHEN 0 THEN (random() - 0.5) * 10 ^ (random() * 600 - "
			"300) "
			"WHEN 1 THEN power(2::float8, g % 2090 - 1070) "
			"WHEN 2 THEN round((random() * 1e6)::numeric, (g % "
			"7)::int)::float8 "
			"WHEN 3 THEN g::float8 * 1000 - 7e5 "
			"ELSE (ARRAY['NaN', 'Infinity', '-Infinity', '-0', "
			"'1e15', '1e-5', '123456789012345', '0.0001', "
			"'1.7976931348623157e308', '5e-324', "
			"'2.2250738585072014e-308', '9007199254740993', "
			"'0.1', '1e14', '1e-4', '99999999999999.9'])[g / 5 % "
			"16 + 1]::float8 END AS x "
			"FROM generate_series(1::bigint, 9000) g) v ORDER BY v.i",
			0, &sel, NULL),
		0);
	while (bs_db_step(sel) == BS_DB_ROW) {
		for (col = 0; col < 8; col += 2) {
			const char *t = bs_db_column_text(sel, col);
			assert_non_null(t);
			assert_string_equal(t, bs_db_column_text(sel, col + 1));
			assert_int_equal(bs_db_column_bytes(sel, col),
					 strlen(t));
		}
		assert_true(bs_db_column_double(sel, 0) ==
				    strtod(bs_db_column_text(sel, 1), NULL) ||
			    isnan(bs_db_column_double(sel, 0)));
		assert_true(bs_db_column_int64(sel, 2) == rows + 1);
		assert_true(bs_db_column_int64(sel, 4) ==
			    ((rows + 1) % 3 == 0));
		assert_int_equal(bs_db_column_type(sel, 4), BS_DB_INT);
		if ((rows + 1) % 5 == 0) {
			assert_int_equal(bs_db_column_type(sel, 8), BS_DB_NULL);
			assert_null(bs_db_column_text(sel, 8));
		} else {
			assert_true(bs_db_column_int64(sel, 8) == rows + 1);
		}
		assert_int_equal(bs_db_column_type(sel, 9), BS_DB_BLOB);
		assert_int_equal(bs_db_column_bytes(sel, 9), 3);
		assert_memory_equal(bs_db_column_blob(sel, 9), "\0\xff'", 3);
		rows++;
	}
	if (rows != 9000)
		fprintf(stderr, "%s\n", bs_db_errmsg(db));
	assert_int_equal(rows, 9000);
	bs_db_finalize(sel);
	bs_db_pg.close(db);
}

/* Reads n rows of s, whose column 0 counts from first: 0 or -1. */
static int read_count(struct bs_db_stmt *s, int64_t first, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (bs_db_step(s) != BS_DB_ROW ||
		    bs_db_column_int64(s, 0) != first + i)
			return -1;
	return 0;
}

/*
 * A reader's cursors (declared in a transaction begun for them) read
 * every row across batches when two are open at once, when the first
 * closes before the other, and when the caller's BEGIN and COMMIT come
 * between two batches (which ends that transaction: the cursors are held
 * past it); a cursor declared after reads too.
 */
static void test_reader_cursors(void **state)
{
	static const char sql[] =
		"SELECT g FROM generate_series(1::bigint, 9000) g ORDER BY g";
	struct bs_db *db = connect_test(BS_DB_OPEN_READONLY);
	struct bs_db_stmt *a = NULL, *b = NULL;

	(void)state;
	if (db == NULL)
		skip();
	assert_int_equal(bs_db_prepare(db, sql, 0, &a, NULL), 0);
	assert_int_equal(bs_db_prepare(db, sql, 0, &b, NULL), 0);
	assert_int_equal(read_count(a, 1, 3000), 0);
	assert_int_equal(read_count(b, 1, 5000), 0);
	bs_db_reset(b);
	assert_int_equal(read_count(a, 3001, 3000), 0);
	assert_int_equal(bs_db_exec(db, "BEGIN", NULL), 0);
	assert_int_equal(read_count(b, 1, 2500), 0);
	assert_int_equal(bs_db_exec(db, "COMMIT", NULL), 0);
	assert_int_equal(read_count(a, 6001, 3000), 0);
	assert_int_equal(bs_db_step(a), BS_DB_DONE);
	assert_int_equal(read_count(b, 2501, 6500), 0);
	assert_int_equal(bs_db_step(b), BS_DB_DONE);
	bs_db_finalize(a);
	bs_db_finalize(b);
	assert_int_equal(bs_db_prepare(db, sql, 0, &a, NULL), 0);
	assert_int_equal(read_count(a, 1, 9000), 0);
	assert_int_equal(bs_db_step(a), BS_DB_DONE);
	bs_db_finalize(a);
	/* Nothing left open: the caller's own transaction begins. */
	assert_int_equal(bs_db_exec(db,
				    "BEGIN; SET TRANSACTION ISOLATION "
				    "LEVEL REPEATABLE READ; COMMIT",
				    NULL),
			 0);
	bs_db_pg.close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_display_without_password),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_catalogue),
		cmocka_unit_test(test_glob_as_sqlite),
		cmocka_unit_test(test_shown),
		cmocka_unit_test(test_glob_random),
		cmocka_unit_test(test_binary_rows_as_text),
		cmocka_unit_test(test_reader_cursors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
