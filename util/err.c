/* util/err.c - the first-error-wins message buffer. */
#include "util/err.h"
#include "util/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bs_error(struct bs_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (code <= 0)
		code = BS_EINVAL;
	if (err == NULL || err->code != 0)
		return -code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -code;
}

void bs_err_reset(struct bs_err *err)
{
	err->code = 0;
	err->msg[0] = '\0';
}

const char *bs_err_quote(char *out, size_t outsz, const char *s, size_t len,
			 size_t max)
{
	size_t i, n = 0;

	if (outsz == 0)
		return out;
	for (i = 0; i < len && i < max && n + 4 < outsz;) {
		size_t k = bs_text_control_len(s + i, len - i, 0);

		if (k) {
			out[n++] = '?';
			i += k;
		} else {
			/* A whole character, or none of it. */
			size_t w = bs_text_char_len(s + i, len - i);

			if (i + w > len || i + w > max || n + w + 3 >= outsz)
				break;
			memcpy(out + n, s + i, w);
			n += w;
			i += w;
		}
	}
	if (i < len && n + 4 <= outsz) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
	return out;
}

void bs_bug(const char *file, int line, const char *msg)
{
	fprintf(stderr, "bstore: internal error at %s:%d: %s\n", file, line,
		msg);
	abort();
}
