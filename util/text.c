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

void bs_text_clean(struct bs_buf *out, const char *s, size_t len,
		   unsigned keep)
{
	size_t i;

	for (i = 0; i < len; i++)
		bs_buf_addc(out, bs_text_is_control((unsigned char)s[i], keep)
					 ? '?'
					 : s[i]);
}

void bs_text_clean_inplace(char *s, unsigned keep)
{
	for (; *s; s++)
		if (bs_text_is_control((unsigned char)*s, keep))
			*s = '?';
}

void bs_text_put(FILE *f, const char *s, unsigned keep)
{
	for (; *s; s++)
		fputc(bs_text_is_control((unsigned char)*s, keep) ? '?' : *s,
		      f);
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
