/*
 * ingest/ingest.c - the ingest driver: bytes in chunks -> lines (lines.c)
 * -> the format registry (formats.c) -> runs -> the caller's callbacks.
 *
 * One struct bs_run is reused for every line so that a long input does
 * not churn the allocator; memory stays bounded by the longest line.
 */
#include "ingest/ingest.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/bonnie_csv.h"
#include "ingest/lines.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/banned.h"

#define REASON_MAX 256

struct bs_ingest {
	char *source;
	struct bs_ingest_cb cb;
	const struct bs_format *force;    /* --format, or NULL */
	struct bs_fline fline;
	struct bs_lines lines;
	struct bs_run run;
	struct bs_ingest_stats st;
	char hint[BS_INGEST_VERSION_MAX]; /* 1.0x version of a text table */
	struct bs_err fail;               /* first error, repeated after */
	char reason[REASON_MAX];
};

_Static_assert(BS_INGEST_FORMATS_MAX >= 6, "room for the registry");

struct bs_ingest *bs_ingest_new(const char *source,
				const struct bs_ingest_cb *cb,
				const struct bs_format *force)
{
	struct bs_ingest *p = xcalloc(1, sizeof(*p));

	if (bs_nformats > BS_INGEST_FORMATS_MAX)
		BS_BUG("the format registry outgrew BS_INGEST_FORMATS_MAX");
	p->force = force;
	p->source = xstrdup(source ? source : "<stdin>");
	p->cb = *cb;
	bs_lines_init(&p->lines, BS_LINE_MAX, BS_REJECT_KEEP);
	bs_run_init(&p->run);
	bs_err_reset(&p->fail);
	return p;
}

void bs_ingest_free(struct bs_ingest *p)
{
	if (p == NULL)
		return;
	bs_run_release(&p->run);
	bs_lines_release(&p->lines);
	free(p->source);
	free(p);
}

static int reject(struct bs_ingest *p, int64_t lineno, const char *raw,
		  size_t len, int truncated)
{
	p->st.rejects++;
	if (len > BS_REJECT_KEEP) {
		len = BS_REJECT_KEEP;
		truncated = 1;
	}
	if (p->cb.reject == NULL)
		return 0;
	return p->cb.reject(lineno, raw, len, truncated, p->reason,
			    p->cb.ctx);
}

static int emit(struct bs_ingest *p, const struct bs_format *f,
		int64_t lineno, const char *line, size_t len)
{
	struct bs_run *r = &p->run;
	int rc = 0;

	assert(f >= bs_formats && f < bs_formats + bs_nformats);
	assert(r->format != NULL && r->tool != NULL);
	p->st.by_format[f - bs_formats]++;
	r->raw = xstrndup(line, len);
	bs_sha256_hex(line, len, r->sha256);
	r->source = xstrdup(p->source);
	r->source_line = lineno;
	r->parser_version = xstrdup(BS_PARSER_VERSION);
	p->st.runs++;
	if (p->cb.run)
		rc = p->cb.run(r, p->cb.ctx);
	if (rc >= 0 && r->warning && p->cb.warn)
		p->cb.warn(lineno, r->warning, p->cb.ctx);
	return rc;
}

/*
 * The format that parses l: the first whose probe claims it, or (with
 * --format) the forced one when any format claims it; NULL when none.
 */
static const struct bs_format *pick(const struct bs_format *force,
				    const struct bs_fline *l)
{
	int i;

	if (force && force->probe(force, l))
		return force;
	for (i = 0; i < bs_nformats; i++)
		if (bs_formats[i].probe(&bs_formats[i], l))
			return force ? force : &bs_formats[i];
	return NULL;
}

static int on_line(const char *line, size_t len, uint64_t full_len,
		   int64_t lineno, void *ctx)
{
	struct bs_ingest *p = ctx;
	struct bs_fline *l = &p->fline;
	const struct bs_format *f;
	int rc;

	p->st.lines++;
	if (full_len > len) {
		snprintf(p->reason, sizeof(p->reason),
			 "line is %" PRIu64 " bytes, longer than the 1 MiB "
			 "limit", full_len);
		return reject(p, lineno, line, len, 1);
	}
	if (!bs_fline_make(l, line, len, p->hint[0] ? p->hint : NULL) ||
	    bs_ingest_text_version(l->text, l->len, p->hint)) {
		p->st.skipped++;
		return 0;
	}
	f = pick(p->force, l);
	if (f == NULL) {
		p->st.skipped++;
		return 0;
	}
	rc = f->parse(f, l, &p->run, p->reason, sizeof(p->reason));
	if (rc < 0)
		return reject(p, lineno, line, len, 0);
	rc = emit(p, f, lineno, line, len);
	bs_run_release(&p->run);
	return rc;
}

int bs_ingest_parse_line(const char *line, size_t len,
			 const char *hint_version, struct bs_run *r,
			 char *reason, size_t reasonsz)
{
	struct bs_fline *l = xmalloc(sizeof(*l));
	const struct bs_format *f = NULL;
	int rc = 0;

	if (bs_fline_make(l, line, len, hint_version))
		f = pick(NULL, l);
	if (f)
		rc = f->parse(f, l, r, reason, reasonsz);
	free(l);
	return rc;
}

/* A callback asked to stop: keep its error, or say where it happened. */
static int stopped(struct bs_ingest *p, int rc, struct bs_err *err)
{
	if (p->fail.code == 0) {
		if (err && err->code != 0)
			bs_error(&p->fail, err->code, "%s", err->msg);
		else
			bs_error(&p->fail, -rc,
				 "ingest stopped at line %" PRId64,
				 p->lines.lineno);
	}
	return bs_error(err, p->fail.code, "%s", p->fail.msg);
}

int bs_ingest_feed(struct bs_ingest *p, const char *data, size_t len,
		   struct bs_err *err)
{
	int rc;

	if (p->fail.code != 0)
		return bs_error(err, p->fail.code, "%s", p->fail.msg);
	rc = bs_lines_feed(&p->lines, data, len, on_line, p, &p->fail);
	if (rc < 0)
		return stopped(p, rc, err);
	return 0;
}

int bs_ingest_finish(struct bs_ingest *p, struct bs_err *err)
{
	int rc;

	if (p->fail.code != 0)
		return bs_error(err, p->fail.code, "%s", p->fail.msg);
	rc = bs_lines_finish(&p->lines, on_line, p, &p->fail);
	if (rc < 0)
		return stopped(p, rc, err);
	return 0;
}

void bs_ingest_stats(const struct bs_ingest *p, struct bs_ingest_stats *out)
{
	*out = p->st;
}
