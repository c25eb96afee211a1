/*
 * ingest/lines.c - the line splitter behind bs_ingest_feed. Lines that lie
 * whole inside one chunk are handed out in place; only a line split across
 * chunks is copied, and never more than max + 1 bytes of it.
 */
#include "ingest/lines.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/banned.h"

void bs_lines_init(struct bs_lines *p, size_t max, size_t keep)
{
	memset(p, 0, sizeof(*p));
	p->max = max;
	p->keep = keep < max ? keep : max;
}

void bs_lines_release(struct bs_lines *p)
{
	free(p->buf);
	bs_lines_init(p, p->max, p->keep);
}

/* Appends part of a line that has not ended yet. */
static void carry(struct bs_lines *p, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (!p->too_long && p->len + n > p->max + 1) {
		/* Even with a "\r" stripped the text is over max: keep the
		 * start only and count the rest. */
		size_t room = p->len < p->keep ? p->keep - p->len : 0;
		size_t take = n < room ? n : room;

		p->too_long = 1;
		p->total = p->len;
		p->len = p->len < p->keep ? p->len : p->keep;
		xgrow((void **)&p->buf, &p->cap, p->len + take + 1, 1);
		memcpy(p->buf + p->len, s, take);
		p->len += take;
	} else if (!p->too_long) {
		xgrow((void **)&p->buf, &p->cap, p->len + n + 1, 1);
		memcpy(p->buf + p->len, s, n);
		p->len += n;
		return;
	}
	p->total += n;
	p->last_cr = s[n - 1] == '\r';
}

/* Hands out a complete line of n bytes at s (its "\n" already cut). */
static int deliver(struct bs_lines *p, const char *s, size_t n, bs_lines_fn fn,
		   void *ctx)
{
	p->lineno++;
	if (n > 0 && s[n - 1] == '\r')
		n--;
	if (n > p->max)
		return fn(s, p->keep, n, p->lineno, ctx);
	return fn(s, n, n, p->lineno, ctx);
}

/* Hands out the carried line and empties the carry buffer. */
static int deliver_carried(struct bs_lines *p, bs_lines_fn fn, void *ctx)
{
	int rc;

	if (p->too_long) {
		uint64_t full = p->total - (p->last_cr ? 1 : 0);

		p->lineno++;
		rc = fn(p->buf, p->len, full, p->lineno, ctx);
	} else {
		rc = deliver(p, p->buf ? p->buf : "", p->len, fn, ctx);
	}
	p->len = 0;
	p->too_long = 0;
	p->total = 0;
	p->last_cr = 0;
	return rc;
}

static int nul_error(struct bs_lines *p, struct bs_err *err)
{
	return bs_error(err, BS_EPARSE,
			"not a text file (NUL byte at line %" PRId64 ")",
			p->lineno + 1);
}

int bs_lines_feed(struct bs_lines *p, const char *data, size_t len,
		  bs_lines_fn fn, void *ctx, struct bs_err *err)
{
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t n = nl ? (size_t)(nl - data) : len;
		int rc;

		if (memchr(data, '\0', n))
			return nul_error(p, err);
		if (nl == NULL) {
			carry(p, data, n);
			return 0;
		}
		if (p->len == 0 && !p->too_long) {
			rc = deliver(p, data, n, fn, ctx);
		} else {
			carry(p, data, n);
			rc = deliver_carried(p, fn, ctx);
		}
		if (rc < 0)
			return rc;
		data += n + 1;
		len -= n + 1;
	}
	return 0;
}

int bs_lines_finish(struct bs_lines *p, bs_lines_fn fn, void *ctx,
		    struct bs_err *err)
{
	(void)err;
	if (p->len == 0 && !p->too_long)
		return 0;
	return deliver_carried(p, fn, ctx);
}
