/* util/buf.c - growable NUL-terminated byte buffer. */
#include "util/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"

void bs_buf_init_max(struct bs_buf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
}

void bs_buf_release(struct bs_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void bs_buf_reset(struct bs_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

const char *bs_buf_str(const struct bs_buf *b)
{
	return b->data ? b->data : "";
}

static int reserve(struct bs_buf *b, size_t extra)
{
	size_t need, c;

	if (b->max && (extra > b->max || b->len > b->max - extra))
		return -BS_ETOOBIG;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	c = b->cap ? b->cap : 64;
	while (c < need)
		c *= 2;
	b->data = xrealloc(b->data, c);
	b->cap = c;
	return 0;
}

int bs_buf_add(struct bs_buf *b, const void *data, size_t len)
{
	if (reserve(b, len) < 0)
		return -BS_ETOOBIG;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

int bs_buf_adds(struct bs_buf *b, const char *s)
{
	return bs_buf_add(b, s, strlen(s));
}

int bs_buf_addc(struct bs_buf *b, char c)
{
	return bs_buf_add(b, &c, 1);
}

int bs_buf_addf(struct bs_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -BS_EINVAL;
	if (reserve(b, (size_t)n) < 0)
		return -BS_ETOOBIG;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void bs_buf_trim(struct bs_buf *b, size_t n)
{
	b->len = n >= b->len ? 0 : b->len - n;
	if (b->data)
		b->data[b->len] = '\0';
}

char *bs_buf_detach(struct bs_buf *b, size_t *len)
{
	char *p = b->data ? b->data : xstrdup("");

	if (len)
		*len = b->len;
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	return p;
}
