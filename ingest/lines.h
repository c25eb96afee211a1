/*
 * ingest/lines.h - splits input into lines for the format detectors.
 *
 * Feed bytes in chunks of any size; each complete line comes back through
 * the callback with its 1-based number, without its "\n" and without one
 * trailing "\r". The text is valid only during the callback. A line whose
 * text is longer than max bytes is never buffered whole: only its first
 * keep bytes are kept, and the callback sees len < full_len. Memory use is
 * bounded by max + 1 bytes whatever the input.
 *
 * A NUL byte means the input is not text: the feed fails with BS_EPARSE,
 * "not a text file (NUL byte at line N)".
 */
#ifndef BS_INGEST_LINES_H
#define BS_INGEST_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/*
 * One line. full_len is the length of the whole line; it is larger than
 * len only when the line was longer than max and was cut to keep bytes.
 * Return <0 to stop the feed (bs_lines_feed returns that value).
 */
typedef int (*bs_lines_fn)(const char *line, size_t len, uint64_t full_len,
			   int64_t lineno, void *ctx);

struct bs_lines {
	char *buf; /* the start of a line split across chunks */
	size_t len, cap;
	size_t max;     /* longest line passed whole */
	size_t keep;    /* bytes kept of a longer line */
	int64_t lineno; /* lines delivered so far */
	int too_long;   /* current line passed max: only counting now */
	uint64_t total; /* bytes of the current too-long line so far */
	int last_cr;    /* the too-long line's last byte so far is '\r' */
};

/* keep must not exceed max. */
void bs_lines_init(struct bs_lines *p, size_t max, size_t keep);
void bs_lines_release(struct bs_lines *p);

int bs_lines_feed(struct bs_lines *p, const char *data, size_t len,
		  bs_lines_fn fn, void *ctx, struct bs_err *err /* OUT */);
/* Delivers a last line that has no newline. */
int bs_lines_finish(struct bs_lines *p, bs_lines_fn fn, void *ctx,
		    struct bs_err *err /* OUT */);

#endif
