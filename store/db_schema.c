/*
 * store/db_schema.c - schema.sql, the one definition of the archive, as an
 * engine runs it: copied as is for SQLite, rewritten for PostgreSQL by
 * the table bs_db_pg_schema, which bs_db_schema walks.
 *
 * A rule's pattern is matched at the start of a token outside comments
 * and quotes, in order (the longer forms first); in it a space stands for
 * any run of spaces, tabs and newlines, '$' for a name (r.seeks: letters,
 * digits, '_' and '.', the same text at each '$' of one pattern) and '%'
 * for the text between two quotes. Its replacement is written with '$'
 * as the name and '@' as the engine's glob of the name and the quoted
 * text (bs_db_ops.glob, the form the store's queries write, so that a
 * partial index's WHERE is the query's).
 */
#include "store/db.h"

#include <string.h>

#include "util/buf.h"
#include "util/banned.h"

/* clang-format off */
const struct bs_db_rewrite bs_db_pg_schema[] = {
	/* Types (docs/schema.md has the table). */
	{"INTEGER PRIMARY KEY AUTOINCREMENT",
	 "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"},
	{"INTEGER PRIMARY KEY", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"},
	{") STRICT, WITHOUT ROWID;", ");"},
	{") STRICT;", ");"},
	/* The bonnie view: SQLite's CAST truncates, PostgreSQL's rounds;
	 * round() of one decimal takes a numeric; a CASE is of one type;
	 * datetime() is to_char() in UTC. */
	{"$ = CAST($ AS INTEGER) THEN CAST($ AS INTEGER)",
	 "$ = trunc($) THEN CAST($ AS NUMERIC)"},
	{"round($, 1)", "round(CAST($ AS NUMERIC), 1)"},
	{"CAST($ AS INTEGER)", "CAST(trunc($) AS BIGINT)"},
	{"ELSE $ END AS max_size", "ELSE CAST($ AS TEXT) END AS max_size"},
	{"datetime($, 'unixepoch')",
	 "to_char(to_timestamp($) AT TIME ZONE 'UTC',\n"
	 "\t\t'YYYY-MM-DD HH24:MI:SS')"},
	/* GLOB in a CHECK and an index's WHERE. */
	{"$ NOT GLOB '%'", "NOT (@)"},
	{"$ GLOB '%'", "@"},
	/* The remaining type words. */
	{"INTEGER", "BIGINT"},
	{"REAL", "DOUBLE PRECISION"},
	{"BLOB", "BYTEA"},
	{"ANY", "TEXT"},
	{NULL, NULL},
};
/* clang-format on */

static int is_name(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A rule's captures: the name ('$') and the quoted text ('%'). */
struct capture {
	const char *name, *text;
	size_t name_len, text_len;
};

/*
 * The length of the text at p (up to end) that pattern matches, filling
 * c; 0 if it does not match there.
 */
static size_t match(const char *pat, const char *p, const char *end,
		    struct capture *c)
{
	const char *start = p;
	size_t n;

	memset(c, 0, sizeof(*c));
	for (; *pat; pat++) {
		if (*pat == ' ') {
			if (p == end || !is_space(*p))
				return 0;
			while (p < end && is_space(*p))
				p++;
		} else if (*pat == '$') {
			for (n = 0; p + n < end && is_name(p[n]); n++)
				;
			if (n == 0)
				return 0;
			if (c->name == NULL) {
				c->name = p;
				c->name_len = n;
			} else if (n != c->name_len ||
				   memcmp(p, c->name, n) != 0) {
				return 0;
			}
			p += n;
		} else if (*pat == '%') {
			for (n = 0; p + n < end && p[n] != '\''; n++)
				;
			c->text = p;
			c->text_len = n;
			p += n;
		} else {
			if (p == end || *p != *pat)
				return 0;
			p++;
		}
	}
	/* A word ends where a name does. */
	if (is_name(pat[-1]) && p < end && is_name(*p))
		return 0;
	return (size_t)(p - start);
}

static void replace(const struct bs_db_ops *ops, const char *to,
		    const struct capture *c, struct bs_buf *out)
{
	struct bs_buf name = BS_BUF_INIT, text = BS_BUF_INIT;

	for (; *to; to++) {
		if (*to == '$') {
			bs_buf_add(out, c->name, c->name_len);
		} else if (*to == '@') {
			bs_buf_add(&name, c->name, c->name_len);
			bs_buf_add(&text, c->text, c->text_len);
			ops->glob(out, bs_buf_str(&name), bs_buf_str(&text),
				  NULL);
		} else {
			bs_buf_addc(out, *to);
		}
	}
	bs_buf_release(&name);
	bs_buf_release(&text);
}

void bs_db_schema(const struct bs_db_ops *ops, const char *sql, size_t len,
		  struct bs_buf *out)
{
	const char *p = sql, *end = sql + len;
	const struct bs_db_rewrite *r;
	struct capture c;
	size_t n;

	while (p < end) {
		if (p + 1 < end && p[0] == '-' && p[1] == '-') {
			const char *q = memchr(p, '\n', (size_t)(end - p));
			n = q ? (size_t)(q - p) : (size_t)(end - p); /* as is */
		} else if (*p == '\'' || *p == '"') {
			const char *q =
				memchr(p + 1, *p, (size_t)(end - p - 1));
			n = q ? (size_t)(q - p) + 1 : (size_t)(end - p);
		} else {
			n = 0;
			for (r = ops->schema_rewrites; r && r->from && n == 0;
			     r++) {
				if (p > sql && is_name(p[-1]))
					break;
				n = match(r->from, p, end, &c);
				if (n > 0)
					replace(ops, r->to, &c, out);
			}
			if (n > 0) {
				p += n;
				continue;
			}
			/* No rule: the whole name, or one character. */
			for (n = 0; p + n < end && is_name(p[n]); n++)
				;
			if (n == 0)
				n = 1;
		}
		bs_buf_add(out, p, n);
		p += n;
	}
}
