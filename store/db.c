/*
 * store/db.c - what the engines' table (store/db.h) shares: the choice of
 * a row by the archive's name, a failure as a bs_err, copying a column
 * between two statements of any engines, and globs as regular
 * expressions.
 */
#include "store/db.h"

#include <string.h>

#include "util/text.h"
#include "util/banned.h"

volatile sig_atomic_t bs_db_engaged;

int bs_db_is_url(const char *name)
{
	return strncmp(name, "postgresql://", 13) == 0 ||
	       strncmp(name, "postgres://", 11) == 0;
}

const struct bs_db_ops *bs_db_engine(const char *name)
{
	return bs_db_is_url(name) ? &bs_db_pg : &bs_db_sqlite;
}

int bs_db_kind_code(enum bs_db_errkind k)
{
	switch (k) {
	case BS_DB_EINTERRUPT:
		return BS_EINTR;
	case BS_DB_ENOTFOUND:
		return BS_ENOTFOUND;
	default:
		return BS_EDB;
	}
}

int bs_db_fail(struct bs_db *db, struct bs_err *err)
{
	return bs_error(err, bs_db_kind_code(bs_db_errkind(db)), "%s",
			bs_db_errmsg(db));
}

int bs_db_bind_column(struct bs_db_stmt *dst, int i, struct bs_db_stmt *src,
		      int col)
{
	switch (bs_db_column_type(src, col)) {
	case BS_DB_INT:
		return bs_db_bind_int64(dst, i, bs_db_column_int64(src, col));
	case BS_DB_FLOAT:
		return bs_db_bind_double(dst, i, bs_db_column_double(src, col));
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
	else if (c < 0x20 || c == 0x7f)
		bs_buf_addf(out, "\\u%04x", c); /* never a raw control */
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
	else if (m < 0x20 || m == 0x7f)
		bs_buf_addf(out, "\\u%04x", m); /* never a raw control */
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

/* ---- globs over bytes (a SQL_ASCII database) ------------------------- */

/* One character as SQLite reads UTF-8: an ASCII byte, a stray
 * continuation byte, or a lead byte with every continuation after it. */
#define ONE_CHAR                                                               \
	"(?:[\\u0001-\\u007f]|[\\u0080-\\u00bf]|"                              \
	"[\\u00c0-\\u00ff][\\u0080-\\u00bf]*(?![\\u0080-\\u00bf]))"

static void byte_at(struct bs_buf *out, unsigned char c)
{
	bs_buf_addf(out, "\\u%04x", c);
}

static int encode(uint32_t c, unsigned char *b)
{
	if (c < 0x800) {
		b[0] = (unsigned char)(0xc0 | (c >> 6));
		b[1] = (unsigned char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		b[0] = (unsigned char)(0xe0 | (c >> 12));
		b[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (unsigned char)(0x80 | (c & 0x3f));
		return 3;
	}
	b[0] = (unsigned char)(0xf0 | ((c >> 18) & 0x07));
	b[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
	b[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
	b[3] = (unsigned char)(0x80 | (c & 0x3f));
	return 4;
}

static void byte_range(struct bs_buf *out, unsigned char a, unsigned char b)
{
	bs_buf_addc(out, '[');
	byte_at(out, a);
	bs_buf_addc(out, '-');
	byte_at(out, b);
	bs_buf_addc(out, ']');
}

/* The byte strings of n bytes from a to b (UTF-8 keeps code points'
 * order byte by byte), as a regular expression. */
static void seq_range(struct bs_buf *out, const unsigned char *a,
		      const unsigned char *b, int n)
{
	static const unsigned char lo[4] = {0x80, 0x80, 0x80, 0x80};
	static const unsigned char hi[4] = {0xbf, 0xbf, 0xbf, 0xbf};
	int i, full = 1;

	if (n == 1) {
		byte_range(out, a[0], b[0]);
		return;
	}
	if (a[0] == b[0]) {
		byte_at(out, a[0]);
		seq_range(out, a + 1, b + 1, n - 1);
		return;
	}
	for (i = 1; i < n; i++)
		full = full && a[i] == 0x80 && b[i] == 0xbf;
	if (full) {
		byte_range(out, a[0], b[0]);
		for (i = 1; i < n; i++)
			byte_range(out, 0x80, 0xbf);
		return;
	}
	bs_buf_adds(out, "(?:");
	byte_at(out, a[0]);
	seq_range(out, a + 1, hi, n - 1);
	if (a[0] + 1 <= b[0] - 1) {
		bs_buf_addc(out, '|');
		byte_range(out, (unsigned char)(a[0] + 1),
			   (unsigned char)(b[0] - 1));
		for (i = 1; i < n; i++)
			byte_range(out, 0x80, 0xbf);
	}
	bs_buf_addc(out, '|');
	byte_at(out, b[0]);
	seq_range(out, lo, b + 1, n - 1);
	bs_buf_addc(out, ')');
}

/* "|" and the characters lo to hi (both from U+0080) of a class, as
 * UTF-8 bytes, a whole character each. */
static void wide_range(struct bs_buf *out, uint32_t lo, uint32_t hi)
{
	static const uint32_t first[] = {0x80, 0x800, 0x10000},
			      last[] = {0x7ff, 0xffff, 0x10ffff};
	unsigned char a[4], b[4];
	size_t k;

	for (k = 0; k < 3; k++) {
		uint32_t x = lo > first[k] ? lo : first[k];
		uint32_t y = hi < last[k] ? hi : last[k];
		int n;
		if (x > y)
			continue;
		n = encode(x, a);
		encode(y, b);
		bs_buf_addc(out, '|');
		seq_range(out, a, b, n);
		bs_buf_adds(out, "(?![\\u0080-\\u00bf])");
	}
}

/* A class's members between p and q (past '[' and '^') as alternatives
 * of byte strings: the ASCII ones in one bracket, the others each. */
static void byte_class(struct bs_buf *out, const char *p, const char *q)
{
	struct bs_buf ascii = BS_BUF_INIT, wide = BS_BUF_INIT;
	const char *q0 = p;
	int prior = 0;

	while (p < q) {
		uint32_t lo, hi;
		prior = !(*p == ']' && p == q0);
		lo = bs_text_glob_char(&p);
		hi = lo;
		/* A range follows: take its end now. */
		if (prior && p + 1 < q && *p == '-') {
			p++;
			hi = bs_text_glob_char(&p);
			prior = 0;
			if (hi < lo)
				continue; /* the parser refuses it */
		}
		if (lo < 0x80) {
			byte_at(&ascii, (unsigned char)lo);
			if (hi > lo) {
				bs_buf_addc(&ascii, '-');
				byte_at(&ascii,
					(unsigned char)(hi < 0x80 ? hi : 0x7f));
			}
		}
		if (hi >= 0x80)
			wide_range(&wide, lo < 0x80 ? 0x80 : lo, hi);
	}
	bs_buf_adds(out, "(?:");
	if (ascii.len) {
		bs_buf_addc(out, '[');
		bs_buf_add(out, ascii.data, ascii.len);
		bs_buf_addc(out, ']');
	} else {
		bs_buf_adds(out, "a^"); /* no ASCII member */
	}
	if (wide.len)
		bs_buf_add(out, wide.data, wide.len);
	bs_buf_addc(out, ')');
	bs_buf_release(&ascii);
	bs_buf_release(&wide);
}

int bs_db_glob_by_char(const char *glob)
{
	return strpbrk(glob, "?[") != NULL;
}

void bs_db_glob_regex_bytes(const char *glob, struct bs_buf *out)
{
	size_t start = out->len;
	const char *p = glob, *q;

	bs_buf_addc(out, '^');
	while (*p) {
		unsigned char c = (unsigned char)*p++;

		if (c == '*') {
			bs_buf_adds(out, "(?:" ONE_CHAR ")*");
		} else if (c == '?') {
			bs_buf_adds(out, ONE_CHAR);
		} else if (c == '[') {
			int neg = *p == '^';
			q = p + neg;
			if (*q == ']')
				q++;
			q = strchr(q, ']');
			if (q == NULL) {
				bs_buf_trim(out, out->len - start);
				bs_buf_adds(out, "a^");
				return;
			}
			if (neg) {
				bs_buf_adds(out, "(?:(?!");
				byte_class(out, p + 1, q);
				bs_buf_adds(out, ")" ONE_CHAR ")");
			} else {
				byte_class(out, p, q);
			}
			p = q + 1;
		} else if (c >= 0x80) {
			byte_at(out, c);
		} else {
			literal(out, c);
		}
	}
	bs_buf_addc(out, '$');
}
