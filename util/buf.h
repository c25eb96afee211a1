/*
 * util/buf.h - a growable byte buffer that always holds a valid
 * NUL-terminated string. Take its memory only with bs_buf_detach(); cap
 * growth from untrusted input with bs_buf_init_max().
 */
#ifndef BS_UTIL_BUF_H
#define BS_UTIL_BUF_H

#include <stddef.h>

#include "util/err.h"

struct bs_buf {
	char *data; /* NULL until the first append; bs_buf_str() never is */
	size_t len; /* bytes, without the NUL */
	size_t cap;
	size_t max; /* 0: unlimited */
};

/* clang-format off */
#define BS_BUF_INIT {NULL, 0, 0, 0}
/* clang-format on */

/* Limits the buffer to max bytes; appends beyond it fail with BS_ETOOBIG. */
void bs_buf_init_max(struct bs_buf *b, size_t max);
void bs_buf_release(struct bs_buf *b);
/* Empties the buffer and keeps its memory. */
void bs_buf_reset(struct bs_buf *b);
/* The contents; "" for an empty buffer. */
const char *bs_buf_str(const struct bs_buf *b);

/* Appends return 0, or -BS_ETOOBIG when the cap would be passed. */
int bs_buf_add(struct bs_buf *b, const void *data, size_t len);
int bs_buf_adds(struct bs_buf *b, const char *s);
int bs_buf_addc(struct bs_buf *b, char c);
int bs_buf_addf(struct bs_buf *b, const char *fmt, ...) BS_PRINTF(2, 3);
/* Removes the last n bytes (or all). */
void bs_buf_trim(struct bs_buf *b, size_t n);

/* Returns the memory (caller frees; never NULL) and empties the buffer. */
char *bs_buf_detach(struct bs_buf *b, size_t *len /* OUT, may be NULL */);

#endif
