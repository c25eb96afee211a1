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
