/*
 * store/db.c - what the engines' table (store/db.h) shares: the choice of
 * a row by the archive's name, copying a column between two statements
 * of any engines, and globs as regular expressions.
 */
#include "store/db.h"

#include <string.h>

#include "util/banned.h"

int bs_db_is_url(const char *name)
{
	return strncmp(name, "postgresql://", 13) == 0 ||
	       strncmp(name, "postgres://", 11) == 0;
}

const struct bs_db_ops *bs_db_engine(const char *name)
{
	return bs_db_is_url(name) ? &bs_db_pg : &bs_db_sqlite;
}

int bs_db_bind_column(struct bs_db_stmt *dst, int i, struct bs_db_stmt *src,
		      int col)
{
	switch (bs_db_column_type(src, col)) {
	case BS_DB_INT:
		return bs_db_bind_int64(dst, i, bs_db_column_int64(src, col));
	case BS_DB_FLOAT:
		return bs_db_bind_double(dst, i,
					 bs_db_column_double(src, col));
	case BS_DB_TEXT: {
		const char *t = bs_db_column_text(src, col);
		return bs_db_bind_text(dst, i, t,
				       (ptrdiff_t)bs_db_column_bytes(src, col));
	}
	case BS_DB_BLOB: {
		const void *b = bs_db_column_blob(src, col);
		size_t n = bs_db_column_bytes(src, col);
		/* An empty blob is a blob, not NULL. */
		return bs_db_bind_blob(dst, i, b ? b : "", n);
	}
	case BS_DB_NULL:
	default:
		return bs_db_bind_null(dst, i);
	}
}

/* A character outside a class: letters, digits and bytes of UTF-8 stand
 * for themselves; anything else is escaped ("\." is a literal '.'). */
static void literal(struct bs_buf *out, unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c >= 0x80)
		bs_buf_addc(out, (char)c);
	else
		bs_buf_addf(out, "\\%c", c);
}

/* A class's member at p, a whole character (UTF-8 bytes as they are;
 * '\\', '[', ']', '^' and '-' escaped); returns what follows it. */
static const char *member(struct bs_buf *out, const char *p)
{
	unsigned char m = (unsigned char)*p++;

	if (m == '\\' || m == '[' || m == ']' || m == '^' || m == '-')
		bs_buf_addf(out, "\\%c", m);
	else
		bs_buf_addc(out, (char)m);
	if (m >= 0xc0)
		while (((unsigned char)*p & 0xc0) == 0x80)
			bs_buf_addc(out, *p++);
	return p;
}

void bs_db_glob_regex(const char *glob, struct bs_buf *out)
{
	size_t start = out->len;
	const char *p = glob, *q0;
	int prior;

	bs_buf_addc(out, '^');
	while (*p) {
		unsigned char c = (unsigned char)*p++;
		const char *q;

		if (c == '*') {
			bs_buf_adds(out, ".*");
		} else if (c == '?') {
			bs_buf_addc(out, '.');
		} else if (c == '[') {
			/* SQLite: [^...] negates, a ']' first is a member,
			 * a-z is a range, and an unclosed class matches
			 * nothing. */
			q = p;
			if (*q == '^')
				q++;
			if (*q == ']')
				q++;
			q = strchr(q, ']');
			if (q == NULL) {
				bs_buf_trim(out, out->len - start);
				bs_buf_adds(out, "a^"); /* never matches */
				return;
			}
			bs_buf_addc(out, '[');
			if (*p == '^') {
				bs_buf_addc(out, '^');
				p++;
			}
			/* As SQLite reads it: a '-' between a member and
			 * another is a range, but after a leading ']' or a
			 * range, first or last, it is a '-'. prior: the last
			 * member may start a range. */
			for (q0 = p, prior = 0; p < q;) {
				if (*p == '-' && prior && p + 1 < q) {
					bs_buf_addc(out, '-');
					p = member(out, p + 1);
					prior = 0;
					continue;
				}
				prior = !(*p == ']' && p == q0);
				p = member(out, p);
			}
			bs_buf_addc(out, ']');
			p = q + 1;
		} else {
			literal(out, c);
		}
	}
	bs_buf_addc(out, '$');
}
