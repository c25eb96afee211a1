/*
 * ingest/json_lenient.c - undo a hand's shortening of a JSON document
 * (ingest/json_lenient.h). One pass over the cleaned lines, outside
 * strings only:
 *   - "..." (three dots or more) and U+2026 are dropped: they stand for
 *     what the author cut;
 *   - a ',' after a value with nothing but blanks, line ends or dropped
 *     dots before the next '}' or ']' is dropped, and so is a ',' right after
 *     dropped dots that follow '{', '[' or another ',' (what is left of
 *     "...," between elements);
 *   - where dots were dropped between two values with no ',' left
 *     between them ("1\n...\n\"b\""), one is put back;
 *   - a member whose value was dots ("bw" : ...) gets null, which no
 *     reader takes for a figure.
 * Nothing else is guessed: a document still broken after this is
 * refused by the reader with the strict parser's words.
 */
#include "ingest/json_lenient.h"

#include <stdio.h>
#include <string.h>

#include "util/banned.h"

struct pass {
	struct bs_buf *out;
	size_t last;       /* offset in out of the last token byte + 1 */
	char last_c;       /* that byte, 0 at the start */
	char before_comma; /* the token byte before the last comma */
	int64_t comma_at;  /* input line of the comma last written */
	int elided;        /* dots dropped since the last token */
	struct bs_json_fixes *fx;
	int fixed;
};

/* Whether c ends a value (a string's closing quote, a number, true,
 * false, null, an object or array). */
static int value_end(char c)
{
	return c == '"' || c == '}' || c == ']' || (c >= '0' && c <= '9') ||
	       c == 'e' || c == 'l';
}

/* Whether c starts a member or a value. */
static int value_start(char c)
{
	return c == '"' || c == '{' || c == '[' || c == '-' ||
	       (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

static int token(struct pass *p, char c, int64_t lineno)
{
	if (c == ',' && p->elided &&
	    (p->last_c == ',' || p->last_c == '{' || p->last_c == '[')) {
		/* What "...," leaves between elements: a comma after no
		 * element. */
		p->fixed = 1;
		return 0;
	}
	if ((c == '}' || c == ']') && p->last_c == ',' &&
	    value_end(p->before_comma)) {
		p->out->data[p->last - 1] = ' ';
		if (!p->fx->comma_line)
			p->fx->comma_line = p->comma_at;
		p->fixed = 1;
	}
	if (p->elided && p->last_c == ':' &&
	    (c == ',' || c == '}' || c == ']')) {
		/* A member whose value was cut ("bw" : ...): null. */
		if (bs_buf_adds(p->out, "null") < 0)
			return -1;
		p->last_c = 'l';
		p->last = p->out->len;
		p->fixed = 1;
	}
	if (p->elided && value_start(c) && value_end(p->last_c) &&
	    p->last_c != 0) {
		if (bs_buf_addc(p->out, ',') < 0)
			return -1;
		p->fixed = 1;
	}
	if (c == ',')
		p->before_comma = p->last_c;
	if (bs_buf_addc(p->out, c) < 0)
		return -1;
	p->last = p->out->len;
	p->last_c = c;
	p->elided = 0;
	if (c == ',')
		p->comma_at = lineno;
	return 0;
}

/* Bytes of an elision at s (n bytes left), 0 when there is none. */
static size_t elision(const char *s, size_t n)
{
	size_t k = 0;

	if (n >= 3 && (unsigned char)s[0] == 0xe2 &&
	    (unsigned char)s[1] == 0x80 && (unsigned char)s[2] == 0xa6)
		return 3;
	while (k < n && s[k] == '.')
		k++;
	return k >= 3 ? k : 0;
}

int bs_json_lenient(const struct bs_block *b, struct bs_buf *out,
		    struct bs_json_fixes *fx)
{
	struct pass p;
	int in_str = 0, esc = 0;
	size_t i, j;

	memset(&p, 0, sizeof(p));
	memset(fx, 0, sizeof(*fx));
	p.out = out;
	p.fx = fx;
	for (i = 0; i < b->n; i++) {
		const char *t = b->l[i].text;
		size_t len = b->l[i].len;

		for (j = 0; j < len; j++) {
			char c = t[j];
			size_t k;

			if (in_str) {
				if (esc)
					esc = 0;
				else if (c == '\\')
					esc = 1;
				else if (c == '"')
					in_str = 0;
				if (bs_buf_addc(out, c) < 0)
					return -1;
				if (!in_str) {
					p.last = out->len;
					p.last_c = c;
				}
				continue;
			}
			k = elision(t + j, len - j);
			if (k) {
				if (!fx->elided_line)
					fx->elided_line = b->l[i].lineno;
				p.elided = 1;
				p.fixed = 1;
				j += k - 1;
				continue;
			}
			if (c == ' ' || c == '\t' || c == '\r') {
				if (bs_buf_addc(out, c) < 0)
					return -1;
				continue;
			}
			if (c == '"') {
				if (token(&p, c, b->l[i].lineno) < 0)
					return -1;
				in_str = 1;
				continue;
			}
			if (token(&p, c, b->l[i].lineno) < 0)
				return -1;
		}
		if (bs_buf_addc(out, '\n') < 0)
			return -1;
	}
	return p.fixed;
}

void bs_json_fixes_words(const struct bs_json_fixes *fx, char *buf, size_t n)
{
	int w = 0;

	buf[0] = '\0';
	if (fx->comma_line)
		w = snprintf(buf, n,
			     "a comma before a closing bracket at "
			     "line %lld dropped",
			     (long long)fx->comma_line);
	if (fx->elided_line && w >= 0 && (size_t)w < n)
		snprintf(buf + w, n - (size_t)w,
			 "%s'...' at line %lld read "
			 "as text the author cut",
			 w ? "; " : "", (long long)fx->elided_line);
}
