/*
 * ingest/ingest.c - the ingest driver: bytes in chunks -> lines (lines.c)
 * -> the format registry (formats.c) -> runs -> the caller's callbacks.
 *
 * One struct bs_run is reused for every line so that a long input does
 * not churn the allocator; memory stays bounded by the longest line, or
 * by the longest block (BS_BLOCK_MAX) of a format whose runs span lines.
 */
#include "ingest/ingest.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/same.h"
#include "ingest/bonnie_csv.h"
#include "ingest/lines.h"
#include "util/buf.h"
#include "util/timefmt.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/banned.h"

#define REASON_MAX 256

/* Where a line of the open block lies: as read in struct blk.raw, cleaned
 * in struct blk.text. */
struct bline_at {
	size_t raw, raw_len, text, len;
	int64_t lineno;
};

/* The block being gathered (ingest/block.h). */
struct blk {
	const struct bs_format *f; /* NULL: no block open */
	_Alignas(max_align_t) unsigned char state[BS_BLOCK_STATE_MAX];
	struct bs_buf raw;  /* the lines as read, "\n" between */
	struct bs_buf text; /* the lines cleaned (struct bs_fline) */
	struct bline_at *at;
	size_t n, cap;
	int whole; /* runs given the block's raw so far */
	int over;  /* passed BS_BLOCK_MAX: reject at end */
};

/* Text lines since the last run or block (struct bs_block.before). */
struct before {
	char text[BS_BLOCK_BEFORE][BS_BLOCK_BEFORE_LEN];
	size_t len[BS_BLOCK_BEFORE];
	int64_t lineno[BS_BLOCK_BEFORE];
	size_t n, next; /* lines kept; where the next goes */
};

/* Runs held back: their format prints values rounded, and the exact
 * print of the same measurement may follow (the dialect is rounded). */
#define HELD_MAX 16
/* Lines from a table's header to its CSV line, wrapped by a mailer. */
#define REJ_SPAN_MAX 32
/* Fragments of cut tables held at once (a table's two sections cut
 * apart, times two tables above one pair of CSV lines). */
#define REJ_HELD_MAX 4

struct held {
	struct bs_run r;
	int64_t line;
	int fmt; /* the registry row it counts under */
};

struct bs_ingest {
	char *source;
	struct bs_ingest_cb cb;
	const struct bs_format *force; /* --format, or NULL */
	struct bs_fline fline;
	char *plain; /* a line without its emphasis */
	size_t plain_cap;
	/* A line a line format rejected, held for one more line: a mail
	 * client may have wrapped it (wrap_join()). */
	int wrapped;
	struct bs_buf wrap;      /* its raw text */
	struct bs_buf wrap_text; /* cleaned (lines put together) */
	int wrap_n;              /* lines held */
	/* bonnie++ text tables rejected without a row of results (a
	 * mailer cut their lines, maybe into several fragments), held
	 * until the next run: when that is a bonnie++ CSV line just below,
	 * they were the same measurement, printed twice (rej_redundant()).
	 * Oldest first. */
	struct held_rej {
		struct bs_buf raw;
		int64_t line;
		int truncated;
		char reason[REASON_MAX];
	} rej[REJ_HELD_MAX];
	int nrej;
	/* A mail part in quoted-printable (its Content-Transfer-Encoding
	 * header): lines soft-broken by "=" held and joined, "=XX" decoded
	 * (qp_line()). */
	int qp;
	struct bs_buf qp_buf; /* the decoded line so far */
	int qp_n;             /* lines held in it */
	int64_t qp_line;
	int64_t wrap_line;
	char wrap_reason[REASON_MAX];
	struct bs_lines lines;
	struct bs_run run;
	struct bs_ingest_stats st;
	char hint[BS_INGEST_VERSION_MAX]; /* 1.0x version of a text table */
	int64_t text_date;                /* a mail's Date: above, or BS_NONE */
	struct blk blk;
	struct before before; /* text above the next block */
	struct held held[HELD_MAX];
	int nheld;
	/* The last exact run of a line format, as its line: a rounded
	 * print of it may follow (bonnie++ -q's CSV before its table). */
	struct bs_buf exact;
	char exact_hint[BS_INGEST_VERSION_MAX];
	int64_t exact_line;
	const char *exact_format;
	struct bs_run shadow; /* the last exact run of a block */
	int exact_block;      /* it is in shadow, not exact */
	int64_t emitted;      /* runs the formats gave */
	struct bs_err fail;   /* first error, repeated after */
	struct bs_err perr;   /* a line format's reason */
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
	bs_run_init(&p->shadow);
	bs_err_reset(&p->fail);
	p->text_date = BS_NONE;
	return p;
}

void bs_ingest_free(struct bs_ingest *p)
{
	int i;

	if (p == NULL)
		return;
	while (p->nheld > 0)
		bs_run_release(&p->held[--p->nheld].r);
	bs_buf_release(&p->exact);
	bs_run_release(&p->shadow);
	bs_run_release(&p->run);
	bs_lines_release(&p->lines);
	bs_buf_release(&p->blk.raw);
	bs_buf_release(&p->blk.text);
	bs_buf_release(&p->wrap);
	bs_buf_release(&p->wrap_text);
	for (i = 0; i < REJ_HELD_MAX; i++)
		bs_buf_release(&p->rej[i].raw);
	bs_buf_release(&p->qp_buf);
	free(p->plain);
	free(p->blk.at);
	free(p->source);
	free(p);
}

/* A line format's parse into p->run, its reason into p->reason. */
static int line_parse(struct bs_ingest *p, const struct bs_format *f,
		      const struct bs_fline *l)
{
	int rc;

	bs_err_reset(&p->perr);
	rc = f->parse(f, l, &p->run, &p->perr);
	if (rc < 0)
		snprintf(p->reason, sizeof(p->reason), "%.*s", REASON_MAX - 1,
			 p->perr.msg);
	return rc;
}

/* The one rule for every reason, whichever format wrote it: a reason
 * that quotes the input shows no control character ('?' instead). */
static int reject_now(struct bs_ingest *p, int64_t lineno, const char *raw,
		      size_t len, int truncated)
{
	char *c;

	for (c = p->reason; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	p->st.rejects++;
	if (len > BS_REJECT_KEEP) {
		len = BS_REJECT_KEEP;
		truncated = 1;
	}
	if (p->cb.reject == NULL)
		return 0;
	return p->cb.reject(lineno, raw, len, truncated, p->reason, p->cb.ctx);
}

/* Forgets the oldest n held table rejects, keeping their buffers. */
static void rej_drop(struct bs_ingest *p, int n)
{
	struct held_rej keep[REJ_HELD_MAX];
	int i;

	if (n <= 0)
		return;
	memcpy(keep, p->rej, sizeof(keep));
	for (i = 0; i < REJ_HELD_MAX; i++)
		p->rej[i] = keep[(i + n) % REJ_HELD_MAX];
	p->nrej -= n;
}

/* Passes the oldest n held table rejects on. */
static int rej_flush_n(struct bs_ingest *p, int n)
{
	char reason[REASON_MAX];
	int i, rc = 0;

	memcpy(reason, p->reason, sizeof(reason));
	for (i = 0; i < n && rc >= 0; i++) {
		struct held_rej *h = &p->rej[i];

		memcpy(p->reason, h->reason, sizeof(p->reason));
		rc = reject_now(p, h->line, bs_buf_str(&h->raw), h->raw.len,
				h->truncated);
	}
	memcpy(p->reason, reason, sizeof(reason));
	rej_drop(p, n);
	return rc;
}

/* Passes every held table reject on. */
static int rej_flush(struct bs_ingest *p)
{
	return rej_flush_n(p, p->nrej);
}

/* A reject, p->reason saying why: a bonnie++ text table without a row
 * is held (struct bs_ingest.rej), anything else goes out at once. */
static int reject(struct bs_ingest *p, int64_t lineno, const char *raw,
		  size_t len, int truncated)
{
	struct held_rej *h;
	int rc;

	if (strncmp(p->reason, "bonnie++ ", 9) != 0 ||
	    !strstr(p->reason, "text table without a row of results")) {
		rc = rej_flush(p);
		return rc < 0 ? rc : reject_now(p, lineno, raw, len, truncated);
	}
	/* A fragment far below the held ones starts another table. */
	if (p->nrej > 0 && lineno - p->rej[0].line > REJ_SPAN_MAX &&
	    (rc = rej_flush(p)) < 0)
		return rc;
	if (p->nrej == REJ_HELD_MAX && (rc = rej_flush_n(p, 1)) < 0)
		return rc;
	h = &p->rej[p->nrej++];
	h->line = lineno;
	h->truncated = truncated;
	bs_buf_reset(&h->raw);
	bs_buf_add(&h->raw, raw, len);
	memcpy(h->reason, p->reason, sizeof(h->reason));
	return 0;
}

/* Whether the held table reject h is run r's other print: r is the next
 * run, a bonnie++ CSV line within REJ_SPAN_MAX lines of the table's
 * header. No value of the table was read, so none is lost. */
static int rej_redundant(const struct held_rej *h, const struct bs_run *r,
			 int64_t lineno)
{
	return r->format && strncmp(r->format, "bonnie++-csv", 12) == 0 &&
	       lineno > h->line && lineno - h->line <= REJ_SPAN_MAX;
}

static void twin(struct bs_ingest *p, int64_t line, int64_t kept_line,
		 const char *kept_format);

/* Passes a run on to the caller. */
static int deliver(struct bs_ingest *p, struct bs_run *r, int64_t lineno,
		   int fmt)
{
	int i, rc = 0;

	/* The fragments the run covers are its other print; older ones
	 * (none, as a table is one span) go out as rejects first. */
	for (i = 0; i < p->nrej && !rej_redundant(&p->rej[i], r, lineno);)
		i++;
	if (i < p->nrej) {
		int k;

		for (k = i; k < p->nrej; k++)
			if (!rej_redundant(&p->rej[k], r, lineno))
				break;
		if (k == p->nrej) {
			if ((rc = rej_flush_n(p, i)) < 0)
				return rc;
			for (k = 0; k < p->nrej; k++)
				twin(p, p->rej[k].line, lineno, r->format);
			rej_drop(p, p->nrej);
		} else if ((rc = rej_flush(p)) < 0) {
			return rc;
		}
	} else if ((rc = rej_flush(p)) < 0) {
		return rc;
	}
	p->st.by_format[fmt]++;
	p->st.runs++;
	if (p->cb.run)
		rc = p->cb.run(r, p->cb.ctx);
	/* A run restored from bstore's export keeps its warning, said
	 * when it was first ingested, without saying it again. */
	if (rc >= 0 && r->warning && p->cb.warn &&
	    !bs_format_restores(&bs_formats[fmt]))
		p->cb.warn(lineno, r->warning, p->cb.ctx);
	return rc;
}

/* Passes on the held runs, in their order. */
static int flush_held(struct bs_ingest *p)
{
	int i, rc = 0;

	for (i = 0; i < p->nheld; i++) {
		if (rc >= 0)
			rc = deliver(p, &p->held[i].r, p->held[i].line,
				     p->held[i].fmt);
		bs_run_release(&p->held[i].r);
	}
	p->nheld = 0;
	return rc;
}

/* A run not passed on: the same measurement as the run at kept_line. */
static void twin(struct bs_ingest *p, int64_t line, int64_t kept_line,
		 const char *kept_format)
{
	char msg[160];

	p->st.twins++;
	snprintf(msg, sizeof(msg),
		 "the same measurement as line %" PRId64 " (%s): stored once",
		 kept_line, kept_format);
	if (p->cb.warn)
		p->cb.warn(line, msg, p->cb.ctx);
}

/* Whether the last exact line run is the same measurement as r. */
static int exact_twin(struct bs_ingest *p, const struct bs_run *r)
{
	struct bs_run e;
	int same = 0;

	if (p->exact_line <= 0)
		return 0;
	if (p->exact_block)
		return bs_run_same(&p->shadow, r);
	bs_run_init(&e);
	if (bs_ingest_parse_line(p->exact.data, p->exact.len,
				 p->exact_hint[0] ? p->exact_hint : NULL, &e,
				 NULL) == 1)
		same = bs_run_same(&e, r);
	bs_run_release(&e);
	return same;
}

/*
 * One measurement, one run (bs_run_same()): a rounded run is
 * held until the input ends or an exact run comes that is not its
 * twin; an exact run that is a held run's twin replaces it, and a
 * rounded run that is the last exact run's twin is dropped. Either way
 * a warning names the run kept.
 */
static int pass_on(struct bs_ingest *p, const struct bs_format *f,
		   struct bs_run *r, int64_t lineno, int fmt)
{
	int i;

	if (bs_dialect_of(r)->rounded) {
		if (exact_twin(p, r)) {
			twin(p, lineno, p->exact_line, p->exact_format);
			return 0;
		}
		if (p->nheld == HELD_MAX && flush_held(p) < 0)
			return -1;
		p->held[p->nheld].r = *r;
		p->held[p->nheld].line = lineno;
		p->held[p->nheld++].fmt = fmt;
		bs_run_init(r);
		return 0;
	}
	for (i = 0; i < p->nheld; i++)
		if (bs_run_same(&p->held[i].r, r))
			break;
	if (i < p->nheld) {
		/* The print kept takes the name only the other gave. */
		if ((r->machine == NULL || r->machine[0] == '\0') &&
		    p->held[i].r.machine && p->held[i].r.machine[0])
			bs_run_set(&r->machine, p->held[i].r.machine);
		twin(p, p->held[i].line, lineno, r->format);
		bs_run_release(&p->held[i].r);
		memmove(&p->held[i], &p->held[i + 1],
			(size_t)(p->nheld - i - 1) * sizeof(p->held[0]));
		p->nheld--;
	} else if (p->nheld > 0 && flush_held(p) < 0) {
		return -1;
	}
	if (p->nheld == 0) {
		/* Kept only while no rounded run waits. A line's run is
		 * kept as its line (the common input, CSV lines alone,
		 * copies each line once), a block's as a copy of what
		 * bs_run_same() compares. */
		p->exact_block = f->block != NULL;
		if (f->block) {
			bs_run_release(&p->shadow);
			p->shadow.family = r->family;
			bs_run_set(&p->shadow.tool, r->tool);
			bs_run_set(&p->shadow.tool_version, r->tool_version);
			bs_run_set(&p->shadow.machine, r->machine);
			bs_run_set(&p->shadow.format, r->format);
			bs_params_copy(&p->shadow.params, &r->params);
			memcpy(p->shadow.res, r->res, sizeof(r->res));
		} else {
			bs_buf_reset(&p->exact);
			bs_buf_add(&p->exact, r->raw, strlen(r->raw));
			memcpy(p->exact_hint, p->hint, sizeof(p->hint));
		}
		p->exact_line = lineno;
		p->exact_format = f->name;
		if (f->block) {
			const struct bs_format *own = bs_format_find(r->format);

			if (own)
				p->exact_format = own->name;
		}
	} else {
		p->exact_line = 0;
	}
	return deliver(p, r, lineno, fmt);
}

/*
 * Gives r to the caller: line (len bytes) is its raw text unless the
 * format set one. A run a format restores whole (bstore's JSON export:
 * r->source set) keeps its source, line, parser version and date; any
 * other is this input's, at lineno, dated by a mail's Date: above when
 * the text itself did not say.
 */
static int emit(struct bs_ingest *p, const struct bs_format *f,
		struct bs_run *r, int64_t lineno, const char *line, size_t len)
{
	int fmt;

	assert(f >= bs_formats && f < bs_formats + bs_nformats);
	assert(r->format != NULL && r->tool != NULL);
	/* A block that hands over a line's run (a bonnie++ text table's
	 * CSV line) counts it under that line's format; any other run counts
	 * under the row that read it (a restored JSON run: bstore-json). */
	{
		const struct bs_format *own =
			f->block ? bs_format_find(r->format) : NULL;

		fmt = (int)((own ? own : f) - bs_formats);
	}
	p->emitted++;
	if (r->raw == NULL)
		r->raw = xstrndup(line, len);
	if (r->sha256[0] == '\0')
		bs_sha256_hex(r->raw, strlen(r->raw), r->sha256);
	if (r->source == NULL) {
		if (r->measured_at == BS_NONE)
			r->measured_at = p->text_date;
		bs_run_set(&r->source, p->source);
		r->source_line = lineno;
		bs_run_set(&r->parser_version, BS_PARSER_VERSION);
	}
	return pass_on(p, f, r, lineno, fmt);
}

/*
 * The format that parses l: the first whose probe claims it, or (with
 * --format) the forced one when any format claims it; NULL when none.
 */
static const struct bs_format *pick(const struct bs_format *force,
				    const struct bs_fline *l)
{
	int i;

	if (force && force->block)
		return NULL;
	if (force && force->probe(force, l))
		return force;
	for (i = 0; i < bs_nformats; i++)
		if (bs_formats[i].probe &&
		    bs_formats[i].probe(&bs_formats[i], l))
			return force ? force : &bs_formats[i];
	return NULL;
}

/* ---- blocks (ingest/block.h) ---- */

static int blk_run(struct bs_block_out *o, struct bs_run *r, int64_t line)
{
	struct bs_ingest *p = o->ctx;
	struct blk *b = &p->blk;
	int rc;

	if (r->format == NULL || r->tool == NULL)
		BS_BUG("a block format gave a run without format or tool");
	if (r->raw == NULL) {
		/* Several runs of one block's text (fio's jobs) are told
		 * apart by their rank in the digest. */
		r->raw = xstrndup(bs_buf_str(&b->raw), b->raw.len);
		if (b->whole > 0) {
			struct bs_buf salt = BS_BUF_INIT;

			bs_buf_add(&salt, b->raw.data, b->raw.len);
			bs_buf_addf(&salt, "\n#run %d", b->whole + 1);
			bs_sha256_hex(salt.data, salt.len, r->sha256);
			bs_buf_release(&salt);
		}
		b->whole++;
	}
	rc = emit(p, b->f, r, line, NULL, 0);
	bs_run_release(r);
	return rc;
}

static int blk_reject(struct bs_block_out *o, size_t first, size_t last,
		      const char *reason)
{
	struct bs_ingest *p = o->ctx;
	struct blk *b = &p->blk;
	size_t from, to;

	if (first > last || last >= b->n)
		BS_BUG("a block format rejected lines it does not hold");
	from = b->at[first].raw;
	to = b->at[last].raw + b->at[last].raw_len;
	snprintf(p->reason, sizeof(p->reason), "%s", reason);
	return reject(p, b->at[first].lineno, b->raw.data + from, to - from, 0);
}

/* Keeps a text line (cleaned, not blank) as context of the next block. */
static void before_add(struct bs_ingest *p, const struct bs_fline *l,
		       int64_t lineno)
{
	struct before *c = &p->before;
	size_t n = l->len < BS_BLOCK_BEFORE_LEN ? l->len : BS_BLOCK_BEFORE_LEN;

	if (l->len == 0)
		return;
	memcpy(c->text[c->next], l->text, n);
	c->len[c->next] = n;
	c->lineno[c->next] = lineno;
	c->next = (c->next + 1) % BS_BLOCK_BEFORE;
	if (c->n < BS_BLOCK_BEFORE)
		c->n++;
}

/* The kept lines, oldest first, into out (BS_BLOCK_BEFORE rows). */
static size_t before_get(const struct before *c, struct bs_bline *out)
{
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		k = (c->next + BS_BLOCK_BEFORE - c->n + i) % BS_BLOCK_BEFORE;
		out[i].raw = out[i].text = c->text[k];
		out[i].raw_len = out[i].len = c->len[k];
		out[i].lineno = c->lineno[k];
	}
	return c->n;
}

static void blk_note(struct bs_block_out *o, int64_t line, const char *msg)
{
	struct bs_ingest *p = o->ctx;

	if (p->cb.warn)
		p->cb.warn(line, msg, p->cb.ctx);
}

/* Parses the open block (or rejects it whole) and closes it. */
static int blk_close(struct bs_ingest *p, int at_end)
{
	struct blk *b = &p->blk;
	const struct bs_format *f = b->f;
	struct bs_block_out out = {blk_run, blk_reject, p, blk_note,
				   BS_BLOCK_MINE};
	int64_t runs = p->emitted + p->st.rejects;
	struct bs_bline *l;
	struct bs_bline ctx[BS_BLOCK_BEFORE];
	struct bs_block whole;
	size_t i;
	int rc;

	if (b->over ||
	    (at_end && f->block->complete && !f->block->complete(b->state))) {
		snprintf(p->reason, sizeof(p->reason),
			 b->over ? "a %s block longer than %d MiB"
				 : "the input ends inside a %s block",
			 f->name, BS_BLOCK_MAX / (1024 * 1024));
		rc = reject(p, b->at[0].lineno, bs_buf_str(&b->raw), b->raw.len,
			    b->over);
		goto out;
	}
	l = xcalloc(b->n, sizeof(*l));
	for (i = 0; i < b->n; i++) {
		l[i].raw = b->raw.data + b->at[i].raw;
		l[i].raw_len = b->at[i].raw_len;
		l[i].text = bs_buf_str(&b->text) + b->at[i].text;
		l[i].len = b->at[i].len;
		l[i].lineno = b->at[i].lineno;
	}
	whole.l = l;
	whole.n = b->n;
	whole.raw = bs_buf_str(&b->raw);
	whole.raw_len = b->raw.len;
	whole.before = ctx;
	whole.nbefore = before_get(&p->before, ctx);
	b->whole = 0;
	rc = f->block->parse(&whole, &out);
	free(l);
	if (rc >= 0 && out.verdict == BS_BLOCK_NOT_MINE) {
		p->st.blocked -= (int64_t)b->n;
		p->st.skipped += (int64_t)b->n;
	}
out:
	/* Closed only now: blk_run() counts the runs by b->f. The text
	 * above a block that gave no run or reject is still the text
	 * above the next (struct bs_block.before). */
	if (p->emitted + p->st.rejects > runs || rc < 0)
		p->before.n = 0;
	b->f = NULL;
	b->n = 0;
	bs_buf_reset(&b->raw);
	bs_buf_reset(&b->text);
	return rc < 0 ? rc : 0;
}

/* Adds a line (l cleaned from line) to the open block. */
static void blk_add(struct bs_ingest *p, const struct bs_fline *l,
		    const char *line, size_t len, int64_t lineno)
{
	struct blk *b = &p->blk;
	struct bline_at *a;

	p->st.blocked++;
	if (b->over)
		return;
	if (b->raw.len + len + 1 > BS_BLOCK_MAX ||
	    b->text.len + l->len > BS_BLOCK_MAX) {
		b->over = 1;
		return;
	}
	xgrow((void **)&b->at, &b->cap, b->n + 1, sizeof(*b->at));
	a = &b->at[b->n++];
	if (b->n > 1)
		bs_buf_addc(&b->raw, '\n');
	a->raw = b->raw.len;
	a->raw_len = len;
	a->text = b->text.len;
	a->len = l->len;
	bs_buf_add(&b->text, l->text, l->len);
	a->lineno = lineno;
	bs_buf_add(&b->raw, line, len);
}

/* Offers l to the block formats' start(); opens a block on a yes. */
static int blk_start(struct bs_ingest *p, const struct bs_fline *l,
		     const char *line, size_t len, int64_t lineno)
{
	int i, rc;

	for (i = 0; i < bs_nformats; i++) {
		const struct bs_format *f = &bs_formats[i];

		if (f->block == NULL || (p->force && p->force != f))
			continue;
		memset(p->blk.state, 0, sizeof(p->blk.state));
		rc = f->block->start(l, p->blk.state);
		if (rc == 0)
			continue;
		p->blk.f = f;
		p->blk.over = 0;
		blk_add(p, l, line, len, lineno);
		return 1;
	}
	return 0;
}

/* A mail's "Date:" header dates the results below it. */
static int text_date(struct bs_ingest *p, const struct bs_fline *l)
{
	int64_t t;

	if (l->len < 6 || memcmp(l->text, "Date:", 5) != 0)
		return 0;
	if (bs_time_parse_text(l->text + 5, l->len - 5, &t) == 0)
		p->text_date = t;
	return 1;
}

/* Rejects the held line (struct bs_ingest.wrapped). */
static int wrap_reject(struct bs_ingest *p)
{
	p->wrapped = 0;
	snprintf(p->reason, sizeof(p->reason), "%s", p->wrap_reason);
	return reject(p, p->wrap_line, bs_buf_str(&p->wrap), p->wrap.len, 0);
}

/* Lines quoted-printable soft breaks ("=" at the end) may hold together. */
#define WRAP_LINES_MAX 8

/*
 * A mail client wraps long lines ("...,342.8,6," then "16,318,91,..."; a
 * number cut "616" then ".9,2,..."): the held line and this one, cleaned
 * and put together, are one line when a line format reads them so. Then
 * the run keeps the lines as published. A held line ending in "=" is a
 * quoted-printable soft break: the "=" is dropped and, while the lines
 * put together do not read yet, the next line joins them too. Returns 1
 * when this line was taken, 0 when not (the held lines are rejected), or
 * <0 (stop).
 */
static int wrap_join(struct bs_ingest *p, const char *line, size_t len)
{
	struct bs_fline *l = &p->fline;
	struct bs_buf j = BS_BUF_INIT;
	const struct bs_format *f = NULL;
	size_t n = p->wrap_text.len;
	int soft = n > 0 && p->wrap_text.data[n - 1] == '=', rc = 0;

	bs_buf_add(&j, p->wrap_text.data, soft ? n - 1 : n);
	/* Joined, the lines are one line: within a line's limit. */
	if (p->wrap.len + 1 + len <= BS_LINE_MAX &&
	    bs_fline_make(line, len, NULL, l)) {
		bs_buf_add(&j, l->text, l->len);
		if (bs_fline_make(bs_buf_str(&j), j.len,
				  p->hint[0] ? p->hint : NULL, l))
			f = pick(p->force, l);
	} else {
		soft = 0;
	}
	if (f && line_parse(p, f, l) >= 0) {
		bs_buf_reset(&j);
		bs_buf_add(&j, p->wrap.data, p->wrap.len);
		bs_buf_addc(&j, '\n');
		bs_buf_add(&j, line, len);
		/* The lines after the first are counted as a block's. */
		p->st.blocked++;
		p->wrapped = 0;
		p->before.n = 0;
		rc = emit(p, f, &p->run, p->wrap_line, j.data, j.len);
		bs_run_release(&p->run);
		bs_buf_release(&j);
		return rc < 0 ? rc : 1;
	}
	bs_run_release(&p->run);
	if (soft && p->wrap_n < WRAP_LINES_MAX) {
		bs_buf_reset(&p->wrap_text);
		bs_buf_add(&p->wrap_text, j.data, j.len);
		bs_buf_addc(&p->wrap, '\n');
		bs_buf_add(&p->wrap, line, len);
		p->wrap_n++;
		p->st.blocked++;
		bs_buf_release(&j);
		return 1;
	}
	bs_buf_release(&j);
	rc = wrap_reject(p);
	return rc < 0 ? rc : 0;
}

static int on_text(const char *line, size_t len, uint64_t full_len,
		   int64_t lineno, void *ctx)
{
	struct bs_ingest *p = ctx;
	struct bs_fline *l = &p->fline;
	const struct bs_format *f;
	size_t plain;
	int rc;

	p->st.lines++;
	if (full_len > len) {
		if (p->blk.f && (rc = blk_close(p, 1)) < 0)
			return rc;
		snprintf(p->reason, sizeof(p->reason),
			 "line is %" PRIu64 " bytes, longer than the 1 MiB "
			 "limit",
			 full_len);
		return reject(p, lineno, line, len, 1);
	}
	if (p->wrapped && (rc = wrap_join(p, line, len)) != 0)
		return rc < 0 ? rc : 0;
	xgrow((void **)&p->plain, &p->plain_cap, len + 1, 1);
	plain = bs_line_plain(line, len, p->plain);
	bs_fline_make(plain ? p->plain : line, plain ? plain : len,
		      p->hint[0] ? p->hint : NULL, l);
	if (p->blk.f) {
		enum bs_scan sc = p->blk.f->block->more(l, p->blk.state);

		if (sc != BS_SCAN_END_BEFORE) {
			blk_add(p, l, line, len, lineno);
			if (sc == BS_SCAN_LAST)
				return blk_close(p, 0);
			return 0;
		}
		rc = blk_close(p, 0);
		if (rc < 0)
			return rc;
	}
	if (l->len == 0 || text_date(p, l)) {
		before_add(p, l, lineno);
		p->st.skipped++;
		return 0;
	}
	bs_ingest_text_version(l->text, l->len, p->hint);
	f = pick(p->force, l);
	if (f == NULL) {
		rc = blk_start(p, l, line, len, lineno);
		if (rc == 0) {
			before_add(p, l, lineno);
			p->st.skipped++;
		}
		return rc < 0 ? rc : 0;
	}
	p->before.n = 0;
	rc = line_parse(p, f, l);
	if (rc < 0) {
		bs_run_release(&p->run);
		p->wrapped = 1;
		p->wrap_line = lineno;
		snprintf(p->wrap_reason, sizeof(p->wrap_reason), "%s",
			 p->reason);
		bs_buf_reset(&p->wrap);
		bs_buf_add(&p->wrap, line, len);
		bs_buf_reset(&p->wrap_text);
		bs_buf_add(&p->wrap_text, l->text, l->len);
		p->wrap_n = 1;
		return 0;
	}
	rc = emit(p, f, &p->run, lineno, line, len);
	bs_run_release(&p->run);
	return rc;
}

/* Lines a quoted-printable line may be soft-broken into. */
#define QP_LINES_MAX 16

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* s begins with w, ASCII case not minded. */
static int istarts(const char *s, size_t n, const char *w)
{
	size_t i, k = strlen(w);

	if (n < k)
		return 0;
	for (i = 0; i < k; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != w[i])
			return 0;
	}
	return 1;
}

/* "Content-Transfer-Encoding: quoted-printable" turns the decoding on;
 * the header of a part in another encoding turns it off. */
static void qp_header(struct bs_ingest *p, const char *s, size_t n)
{
	static const char h[] = "content-transfer-encoding:";
	size_t i;

	if (!istarts(s, n, h))
		return;
	p->qp = 0;
	for (i = sizeof(h) - 1; i < n; i++)
		if (istarts(s + i, n - i, "quoted-printable"))
			p->qp = 1;
}

/* Appends s decoded: "=XX" is the byte XX, other text as it is. */
static void qp_decode(struct bs_buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int hi, lo;

		if (s[i] == '=' && i + 2 < n && (hi = hexval(s[i + 1])) >= 0 &&
		    (lo = hexval(s[i + 2])) >= 0) {
			bs_buf_addc(b, (char)(hi * 16 + lo));
			i += 2;
		} else {
			bs_buf_addc(b, s[i]);
		}
	}
}

/*
 * A line of the input. In a quoted-printable mail part, a line ending in
 * "=" is soft-broken: it is held and the next joins it, up to
 * QP_LINES_MAX lines; the line put together, decoded, is read as one
 * line at the number of its first (a bonnie++ table row a mailer cut at
 * 76 columns reads whole).
 */
static int on_line(const char *line, size_t len, uint64_t full_len,
		   int64_t lineno, void *ctx)
{
	struct bs_ingest *p = ctx;
	int soft;

	if (full_len == len && p->qp_n == 0)
		qp_header(p, line, len);
	if (!p->qp || full_len > len)
		return on_text(line, len, full_len, lineno, p);
	soft = len > 0 && line[len - 1] == '=';
	if (p->qp_n == 0) {
		bs_buf_reset(&p->qp_buf);
		p->qp_line = lineno;
	}
	qp_decode(&p->qp_buf, line, soft ? len - 1 : len);
	p->qp_n++;
	if (soft && p->qp_n < QP_LINES_MAX && p->qp_buf.len < BS_LINE_MAX) {
		/* Counted here; the joined line counts once below. */
		p->st.lines++;
		p->st.blocked++;
		return 0;
	}
	p->qp_n = 0;
	return on_text(bs_buf_str(&p->qp_buf), p->qp_buf.len, p->qp_buf.len,
		       p->qp_line, p);
}

/* The held quoted-printable lines at the end of the input. */
static int qp_finish(struct bs_ingest *p)
{
	if (p->qp_n == 0)
		return 0;
	p->qp_n = 0;
	return on_text(bs_buf_str(&p->qp_buf), p->qp_buf.len, p->qp_buf.len,
		       p->qp_line, p);
}

int bs_ingest_parse_line(const char *line, size_t len, const char *hint_version,
			 struct bs_run *r, struct bs_err *err)
{
	struct bs_fline *l = xmalloc(sizeof(*l));
	const struct bs_format *f = NULL;
	int rc = 0;

	if (bs_fline_make(line, len, hint_version, l))
		f = pick(NULL, l);
	if (f)
		rc = f->parse(f, l, r, err);
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
	if (rc >= 0)
		rc = qp_finish(p);
	if (rc >= 0 && p->wrapped)
		rc = wrap_reject(p);
	if (rc >= 0 && p->blk.f)
		rc = blk_close(p, 1);
	if (rc >= 0)
		rc = flush_held(p);
	if (rc >= 0)
		rc = rej_flush(p);
	if (rc < 0)
		return stopped(p, rc, err);
	return 0;
}

void bs_ingest_stats(const struct bs_ingest *p, struct bs_ingest_stats *out)
{
	*out = p->st;
}
