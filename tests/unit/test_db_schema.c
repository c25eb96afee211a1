/*
 * tests/unit/test_db_schema.c - schema.sql as an engine runs it
 * (store/db_schema.c): SQLite's is the file byte for byte; PostgreSQL's
 * rewrites (bs_db_pg_schema) apply to whole tokens outside comments and
 * quotes, and leave none of SQLite's words in schema.sql's statements.
 * pg.schema (tests/pg/schema.sh) runs the result on a server.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "store/db.h"
#include "util/buf.h"
#include "util/embed.h"
#include "util/banned.h"

extern const struct bs_embedded bs_schema_files[];

/* PostgreSQL's glob of a literal pattern (store/db_pg.c's pg_glob), here
 * so that the test runs in a build without libpq. */
static void glob_literal(struct bs_buf *sql, const char *col,
			 const char *pattern, struct bs_buf *value)
{
	struct bs_buf re = BS_BUF_INIT;

	assert_null(value);
	bs_db_glob_regex(pattern, &re);
	bs_buf_addf(sql, "%s ~ '%s'", col, bs_buf_str(&re));
	bs_buf_release(&re);
}

static const struct bs_db_ops pg_rewrites = {
	.name = "postgresql",
	.schema_rewrites = bs_db_pg_schema,
	.glob = glob_literal,
};

static void rewrite(const struct bs_db_ops *ops, const char *sql,
		    struct bs_buf *out)
{
	bs_buf_reset(out);
	bs_db_schema(ops, sql, strlen(sql), out);
}

static void test_sqlite_as_is(void **state)
{
	const struct bs_embedded *f =
		bs_embed_find(bs_schema_files, bs_db_sqlite.schema_file);
	struct bs_buf out = BS_BUF_INIT;

	(void)state;
	assert_non_null(f);
	bs_db_schema(&bs_db_sqlite, f->text, f->len, &out);
	assert_int_equal(out.len, f->len);
	assert_memory_equal(bs_buf_str(&out), f->text, f->len);
	bs_buf_release(&out);
}

static void test_pg_rules(void **state)
{
	/* clang-format off */
	static const struct { const char *in, *out; } cases[] = {
		{"\tx INTEGER, -- INTEGER here\n",
		 "\tx BIGINT, -- INTEGER here\n"},
		{"a REAL DEFAULT 'REAL', b TEXT",
		 "a DOUBLE PRECISION DEFAULT 'REAL', b TEXT"},
		{"REALLY INTEGERS x_INTEGER t.INTEGER", /* whole tokens only */
		 "REALLY INTEGERS x_INTEGER t.INTEGER"},
		{"b BLOB, c ANY NOT NULL", "b BYTEA, c TEXT NOT NULL"},
		{"id INTEGER PRIMARY KEY AUTOINCREMENT, -- never",
		 "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- never"},
		{"id INTEGER  PRIMARY\n\tKEY,",
		 "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"},
		{"\tv TEXT\n) STRICT, WITHOUT ROWID;\n", "\tv TEXT\n);\n"},
		{"\tv TEXT\n) STRICT;\n", "\tv TEXT\n);\n"},
		{"CAST(r.putc AS INTEGER) AS putc",
		 "CAST(trunc(r.putc) AS BIGINT) AS putc"},
		{"WHEN r.seeks = CAST(r.seeks AS INTEGER) THEN CAST(r.seeks AS INTEGER)\n"
		 "\t     ELSE round(r.seeks, 1) END AS seeks",
		 "WHEN r.seeks = trunc(r.seeks) THEN CAST(r.seeks AS NUMERIC)\n"
		 "\t     ELSE round(CAST(r.seeks AS NUMERIC), 1) END AS seeks"},
		/* Another name at the second '$': the general CAST. */
		{"r.a = CAST(r.b AS INTEGER) THEN CAST(r.b AS INTEGER)",
		 "r.a = CAST(trunc(r.b) AS BIGINT) THEN CAST(trunc(r.b) AS BIGINT)"},
		{"\t     ELSE r.max_size END AS max_size,",
		 "\t     ELSE CAST(r.max_size AS TEXT) END AS max_size,"},
		{"\tdatetime(r.measured_at, 'unixepoch') AS measured_at,",
		 "\tto_char(to_timestamp(r.measured_at) AT TIME ZONE 'UTC',\n"
		 "\t\t'YYYY-MM-DD HH24:MI:SS') AS measured_at,"},
		{"WHERE format GLOB 'bonnie++-text*';",
		 "WHERE format ~ '^bonnie\\+\\+\\-text.*$';"},
		{"AND name NOT GLOB '*[^a-z]*'),",
		 "AND NOT (name ~ '^.*[^a-z].*$')),"},
		{"-- format GLOB 'x*' CAST(r.a AS INTEGER)\n",
		 "-- format GLOB 'x*' CAST(r.a AS INTEGER)\n"},
	};
	/* clang-format on */
	struct bs_buf out = BS_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rewrite(&pg_rewrites, cases[i].in, &out);
		if (strcmp(bs_buf_str(&out), cases[i].out) != 0)
			fail_msg("case %zu: '%s' rewritten as '%s', expected "
				 "'%s'",
				 i, cases[i].in, bs_buf_str(&out),
				 cases[i].out);
	}
	bs_buf_release(&out);
}

/* Whether word is a whole token of sql outside comments and quotes. */
static int has_word(const char *sql, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = sql; *p; p++) {
		if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
			if (*p == '\0')
				break;
		} else if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');
			if (q == NULL)
				break;
			p = q;
		} else if (strncmp(p, word, n) == 0 &&
			   (p == sql || !(p[-1] == '_' || p[-1] == '.' ||
					  (p[-1] >= 'A' && p[-1] <= 'Z'))) &&
			   !(p[n] == '_' || (p[n] >= 'A' && p[n] <= 'Z'))) {
			return 1;
		}
	}
	return 0;
}

static void test_pg_schema_has_no_sqlite_word(void **state)
{
	static const char *const words[] = {
		"INTEGER", "REAL", "BLOB",          "ANY",      "STRICT",
		"ROWID",   "GLOB", "AUTOINCREMENT", "datetime",
	};
	const struct bs_embedded *f =
		bs_embed_find(bs_schema_files, bs_db_pg.schema_file);
	struct bs_buf out = BS_BUF_INIT;
	size_t i;

	(void)state;
	assert_non_null(f);
	/* The words are in schema.sql, so that their absence below is the
	 * rewrites' doing. */
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!has_word(f->text, words[i]))
			fail_msg("schema.sql has no '%s'", words[i]);
	bs_db_schema(&pg_rewrites, f->text, f->len, &out);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (has_word(bs_buf_str(&out), words[i]))
			fail_msg("PostgreSQL's schema has '%s'", words[i]);
	/* The comments are kept. */
	assert_non_null(
		strstr(bs_buf_str(&out), "-- schema.sql - the bstore archive"));
	bs_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sqlite_as_is),
		cmocka_unit_test(test_pg_rules),
		cmocka_unit_test(test_pg_schema_has_no_sqlite_word),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
