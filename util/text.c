/* util/text.c - showing text that may hold anything (util/text.h). */
#include "util/text.h"

#include <string.h>

#include "util/banned.h"

int bs_text_has_control(const char *s)
{
	for (; *s; s++)
		if (bs_text_is_control((unsigned char)*s, 0))
			return 1;
	return 0;
}

/*
 * The characters beyond C0 and DEL that a terminal acts on instead of
 * showing: the C1 controls (U+009B is CSI, an escape sequence's start)
 * and the bidirectional formatting characters, which reorder what
 * follows ("abc<U+202E>gnp.exe" shows as "abcexe.png").
 */
static const struct {
	unsigned lo, hi;
} controls[] = {
	{0x80, 0x9f},     /* C1 */
	{0x61c, 0x61c},   /* ARABIC LETTER MARK */
	{0x200e, 0x200f}, /* LRM, RLM */
	{0x202a, 0x202e}, /* LRE, RLE, PDF, LRO, RLO */
	{0x2066, 0x2069}, /* LRI, RLI, FSI, PDI */
};

/* The UTF-8 character at s (n > 0 bytes): its length, its code point in
 * *cp; 0 when the bytes there are not one (a Latin-1 byte, a cut). */
static size_t utf8_at(const unsigned char *s, size_t n, unsigned *cp)
{
	size_t len, i;
	unsigned c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are no character. */
	if ((len == 3 && c < 0x800) ||
	    (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

size_t bs_text_control_len(const char *s, size_t n, unsigned keep)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned cp;
	size_t len, i;

	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return bs_text_is_control(u[0], keep) ? 1 : 0;
	len = utf8_at(u, n, &cp);
	/* A byte of no UTF-8 character is shown as itself (a Latin-1
	 * name), but not 0x80-0x9f: an 8-bit terminal's C1 controls. */
	if (len == 0)
		return u[0] <= 0x9f ? 1 : 0;
	for (i = 0; i < sizeof(controls) / sizeof(controls[0]); i++)
		if (cp >= controls[i].lo && cp <= controls[i].hi)
			return len;
	return 0;
}

uint32_t bs_text_glob_char(const char **p)
{
	const unsigned char *s = (const unsigned char *)*p;
	uint32_t c = *s++;

	if (c >= 0xc0)
		for (c &= c >= 0xe0 ? (c >= 0xf0 ? 0x07 : 0x0f) : 0x1f;
		     (*s & 0xc0) == 0x80; s++)
			c = (c << 6) | (*s & 0x3f);
	*p = (const char *)s;
	return c;
}

size_t bs_text_char_len(const char *s, size_t n)
{
	unsigned cp;
	size_t k = utf8_at((const unsigned char *)s, n, &cp);

	return k ? k : 1;
}

void bs_text_clean(struct bs_buf *out, const char *s, size_t len, unsigned keep)
{
	size_t i = 0, k;

	while (i < len) {
		k = bs_text_control_len(s + i, len - i, keep);
		if (k) {
			bs_buf_addc(out, '?');
			i += k;
		} else {
			k = bs_text_char_len(s + i, len - i);
			bs_buf_add(out, s + i, k);
			i += k;
		}
	}
}

void bs_text_clean_inplace(char *s, unsigned keep)
{
	size_t n = strlen(s), i = 0, o = 0, k;

	/* Never longer: one '?' for each sequence of one or more bytes. */
	while (i < n) {
		k = bs_text_control_len(s + i, n - i, keep);
		if (k) {
			s[o++] = '?';
			i += k;
		} else {
			for (k = bs_text_char_len(s + i, n - i); k > 0; k--)
				s[o++] = s[i++];
		}
	}
	s[o] = '\0';
}

void bs_text_put(FILE *f, const char *s, unsigned keep)
{
	size_t n = strlen(s), i = 0, k;

	while (i < n) {
		k = bs_text_control_len(s + i, n - i, keep);
		if (k) {
			fputc('?', f);
			i += k;
		} else {
			for (k = bs_text_char_len(s + i, n - i); k > 0; k--)
				fputc(s[i++], f);
		}
	}
}

/*
 * Columns a character takes on a terminal: 2 for the East Asian wide
 * and fullwidth blocks and the emoji, 0 for combining marks, else 1 (a
 * byte of no UTF-8 character too: a terminal shows it as one).
 */
static int columns(unsigned cp)
{
	static const struct {
		unsigned lo, hi;
		int w;
	} widths[] = {
		{0x0300, 0x036f, 0},   {0x200b, 0x200d, 0},
		{0x1100, 0x115f, 2},   {0x2e80, 0x303e, 2},
		{0x3041, 0x33ff, 2},   {0x3400, 0x4dbf, 2},
		{0x4e00, 0x9fff, 2},   {0xa000, 0xa4cf, 2},
		{0xac00, 0xd7a3, 2},   {0xf900, 0xfaff, 2},
		{0xfe30, 0xfe4f, 2},   {0xff00, 0xff60, 2},
		{0xffe0, 0xffe6, 2},   {0x1f300, 0x1f64f, 2},
		{0x1f900, 0x1f9ff, 2}, {0x20000, 0x3fffd, 2},
	};
	size_t i;

	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (cp >= widths[i].lo && cp <= widths[i].hi)
			return widths[i].w;
	return 1;
}

void bs_text_cell(struct bs_buf *out, const char *s, int width)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, k;
	int used = 0, w;
	unsigned cp;

	while (i < n) {
		k = bs_text_control_len(s + i, n - i, 0);
		if (k) {
			cp = '?';
		} else {
			k = utf8_at(u + i, n - i, &cp);
			if (k == 0) {
				k = 1;
				cp = 'x';
			}
		}
		w = columns(cp);
		if (used + w > width)
			break;
		if (cp == '?')
			bs_buf_addc(out, '?');
		else
			bs_buf_add(out, s + i, k);
		used += w;
		i += k;
	}
	for (; used < width; used++)
		bs_buf_addc(out, ' ');
}

size_t bs_text_words(const char *t, size_t n, struct bs_word *w, size_t max)
{
	size_t i = 0, k = 0;

	for (;;) {
		while (i < n && (t[i] == ' ' || t[i] == '\t'))
			i++;
		if (i == n)
			return k;
		if (k < max)
			w[k].s = i;
		while (i < n && t[i] != ' ' && t[i] != '\t')
			i++;
		if (k < max)
			w[k].e = i;
		k++;
	}
}

int bs_text_has(const char *t, size_t n, const char *w)
{
	size_t k = strlen(w), i;

	for (i = 0; i + k <= n; i++)
		if (memcmp(t + i, w, k) == 0)
			return 1;
	return 0;
}

int bs_text_starts(const char *t, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && memcmp(t, w, k) == 0;
}
