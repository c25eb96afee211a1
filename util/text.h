/*
 * util/text.h - the one rule for showing text that may hold anything (file
 * names, tag values, pasted lines): control characters become '?', so a
 * message or a row stays one line and no terminal escape gets through.
 */
#ifndef BS_UTIL_TEXT_H
#define BS_UTIL_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "util/buf.h"

/* What bs_text_clean lets through besides printable text. */
enum {
	BS_TEXT_TAB = 1,     /* keep tabs */
	BS_TEXT_NEWLINE = 2, /* keep newlines (multi-line output) */
};

/* Is c a control character (below 0x20, or DEL) not allowed by keep? */
static inline int bs_text_is_control(unsigned char c, unsigned keep)
{
	if (c == '\t' && (keep & BS_TEXT_TAB))
		return 0;
	if (c == '\n' && (keep & BS_TEXT_NEWLINE))
		return 0;
	return c < 0x20 || c == 0x7f;
}

/* Whether s holds a control character (tabs and newlines included). */
int bs_text_has_control(const char *s);
/* Appends len bytes of s with control characters (but keep) as '?'. */
void bs_text_clean(struct bs_buf *out, const char *s, size_t len,
		   unsigned keep);
/* Replaces control characters (but keep) of s in place with '?'. */
void bs_text_clean_inplace(char *s, unsigned keep);
/* Writes s to f with control characters (but keep) as '?'. */
void bs_text_put(FILE *f, const char *s, unsigned keep);

/* A word of a line of text: its bytes [s, e). */
struct bs_word {
	size_t s, e;
};

/* Splits t (n bytes, no NUL needed) at blanks (spaces and tabs): the
 * first max words into w; returns how many words there are (more than max
 * when some were left out). */
size_t bs_text_words(const char *t, size_t n, struct bs_word *w, size_t max);

/* Whether t (n bytes, no NUL needed) holds w somewhere. */
int bs_text_has(const char *t, size_t n, const char *w);
/* Whether t (n bytes, no NUL needed) begins with w. */
int bs_text_starts(const char *t, size_t n, const char *w);

#endif
