/*
 * util/text.h - the one rule for showing text that may hold anything (file
 * names, tag values, pasted lines): control characters (C0, DEL, C1 and
 * the bidirectional controls, bs_text_control_len()) become '?', so a
 * message or a row stays one line and no terminal escape or reordering
 * gets through.
 */
#ifndef BS_UTIL_TEXT_H
#define BS_UTIL_TEXT_H

#include <stddef.h>
#include <stdint.h>
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

/*
 * The length in bytes of the control character at s (n bytes, no NUL
 * needed), 0 when s does not start with one. Control characters are C0
 * (but keep) and DEL, the C1 controls U+0080-U+009F (in UTF-8, or as
 * bytes of no UTF-8 character: an 8-bit terminal's C1), and the
 * bidirectional formatting characters U+061C, U+200E-U+200F,
 * U+202A-U+202E and U+2066-U+2069. bs_text_clean(), _inplace() and
 * _put() show each as one '?'.
 */
size_t bs_text_control_len(const char *s, size_t n, unsigned keep);

/* The bytes of the character at s (n > 0 of them): a UTF-8 character's,
 * or 1 for a byte of none (a Latin-1 byte). */
size_t bs_text_char_len(const char *s, size_t n);

/*
 * The code point at *p as SQLite's GLOB decodes it (a lead byte and the
 * continuation bytes after it, unchecked; a byte that leads none is
 * itself), and *p past it: what a selector's class and its translation
 * for the engines (store/selector.c, store/db.c) read as one character.
 */
uint32_t bs_text_glob_char(const char **p);

/*
 * Appends s as a terminal's column of width columns: cleaned as
 * bs_text_clean() does, cut at a character boundary so that it takes at
 * most width columns (a wide East Asian character takes 2, a combining
 * mark 0), and padded with spaces to width.
 */
void bs_text_cell(struct bs_buf *out, const char *s, int width);

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
