/*
 * ingest/bonnie_classic.c - Tim Bray's Bonnie and its relatives
 * (docs/formats.md "Ingest: bonnie++ text tables and Bonnie"): the text
 * table of Bonnie 1.x, of Bonnie-64 2.0.x and of the Linux "Bonnie 1.4"
 * variant as a block format, and Bonnie's -html row as a line format.
 *
 * Each data row is a run of tool "bonnie", family bonnie, mapped onto
 * bonnie++'s keys: the table's columns are bonnie++'s first six tests in
 * bonnie++'s order (putc, put_block, rewrite, getc, get_block, seeks),
 * K/sec is KiB/s (Bonnie divides bytes by 1024), %CPU keeps its decimal.
 * Bonnie prints no version, no "+++++" and no latency.
 */
#include "ingest/bonnie_table.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/err.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/text.h"
#include "util/banned.h"

#define MAX_TOK 40
#define REASON 256

enum dialect {
	D_CLASSIC, /* Bonnie 1.x: "Machine    MB K/sec %CPU" */
	D_64,      /* Bonnie-64: "Machine    GB M/sec %CPU" */
	D_14,      /* Linux Bonnie 1.2/1.4: "(nosync)", "3*1024" */
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* A number as Bonnie prints it: digits and at most one '.'. */
static int numeric(const char *s, size_t n)
{
	size_t i, dots = 0;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] == '.')
			dots++;
		else if (s[i] < '0' || s[i] > '9')
			return 0;
	}
	return dots <= 1 && s[0] != '.';
}

/* A size column: "400", or the 1.4 variant's "3*1024". */
static int size_cell(const char *s, size_t n)
{
	const char *star = memchr(s, '*', n);

	if (star == NULL)
		return numeric(s, n);
	return numeric(s, (size_t)(star - s)) &&
	       numeric(star + 1, n - (size_t)(star - s) - 1);
}

/* A data row: [name] size and twelve numbers. */
static int is_row(const char *t, size_t n)
{
	struct bs_word tk[MAX_TOK];
	size_t nt = bs_text_words(t, n, tk, MAX_TOK), i;

	if (nt < 13 || nt > MAX_TOK)
		return 0;
	for (i = nt - 12; i < nt; i++)
		if (!numeric(t + tk[i].s, tk[i].e - tk[i].s))
			return 0;
	return size_cell(t + tk[nt - 13].s, tk[nt - 13].e - tk[nt - 13].s);
}

/* ---- the text table (block) ------------------------------------------- */

struct scan {
	int blanks;
};

_Static_assert(sizeof(struct scan) <= BS_BLOCK_STATE_MAX, "scan state");

static int title(const char *t, size_t n)
{
	/* bonnie++'s own title has "--Sequential Input-" and starts with
	 * "Version": Bonnie's has three dashes and no version. */
	return bs_text_starts(t, n, "---") &&
	       bs_text_has(t, n, "Sequential Output") &&
	       bs_text_has(t, n, "---Sequential Input--");
}

static int classic_start(const struct bs_fline *l, void *state)
{
	(void)state;
	return title(l->text, l->len);
}

/* "MB " or "GB ": the size column's name. */
static int size_name(const char *s, size_t len)
{
	return len > 2 && (s[0] == 'M' || s[0] == 'G') && s[1] == 'B' &&
	       s[2] == ' ';
}

/* The column header: "Machine    MB K/sec %CPU ..." (the first word is
 * whatever the poster's rows name: "Kernel     MB ..." too), or with no
 * name column at all ("  MB K/sec %CPU ...": rows of an empty -m). */
static int is_columns(const char *s, size_t len)
{
	size_t i = 0;

	if (size_name(s, len))
		return bs_text_has(s, len, "/sec %CPU");
	while (i < len && s[i] != ' ')
		i++;
	while (i < len && s[i] == ' ')
		i++;
	return i > 0 && size_name(s + i, len - i) &&
	       bs_text_has(s, len, "/sec %CPU");
}

static enum bs_scan classic_more(const struct bs_fline *l, void *state)
{
	struct scan *s = state;

	if (l->len == 0)
		return ++s->blanks > 1 ? BS_SCAN_END_BEFORE : BS_SCAN_TAKE;
	s->blanks = 0;
	if (title(l->text, l->len))
		return BS_SCAN_END_BEFORE;
	/* The tests' row: "-Per Char-", or "-CharUnlk-" of the Linux
	 * variant's -u (putc_unlocked(), getc_unlocked()). */
	if (bs_text_has(l->text, l->len, "-Per Char-") ||
	    bs_text_has(l->text, l->len, "-CharUnlk-") ||
	    (bs_text_starts(l->text, l->len, "Machine") &&
	     bs_text_has(l->text, l->len, "%CPU")) ||
	    is_columns(l->text, l->len) || is_row(l->text, l->len))
		return BS_SCAN_TAKE;
	return BS_SCAN_END_BEFORE;
}

static int reject(struct bs_block_out *out, size_t first, size_t last,
		  const char *fmt, ...) BS_PRINTF(4, 5);
static int reject(struct bs_block_out *out, size_t first, size_t last,
		  const char *fmt, ...)
{
	char why[REASON];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return out->reject(out, first, last, why);
}

static const char *const dialect_fmt[] = {
	[D_CLASSIC] = BS_FMT_BONNIE_TEXT,
	[D_64] = BS_FMT_BONNIE64_TEXT,
	[D_14] = BS_FMT_BONNIE14_TEXT,
};

/*
 * Fills r's six results from the twelve cells (rate, CPU) starting at
 * cell[0]; mult turns the rate into KiB/s (1024 for Bonnie-64's M/sec).
 * Returns 0, or -1 with why filled.
 */
static int fill(struct bs_run *r, const char *const *cell, const size_t *len,
		double mult, char *why, size_t whysz)
{
	int m;

	for (m = 0; m < 6; m++) {
		struct bs_value *v = &r->res[BS_M_PUTC + m];
		double rate, cpu;

		if (bs_parse_double(cell[2 * m], len[2 * m], &rate) < 0 ||
		    bs_parse_double(cell[2 * m + 1], len[2 * m + 1], &cpu) <
			    0) {
			snprintf(why, whysz, "%s is not a number",
				 bs_metrics[m].key);
			return -1;
		}
		if (m < BS_M_SEEKS)
			rate *= mult;
		if (!bs_metric_fits(m, BS_PART_VALUE, rate) ||
		    !bs_metric_fits(m, BS_PART_CPU, cpu)) {
			snprintf(why, whysz, "%s is beyond any disk",
				 bs_metrics[m].key);
			return -1;
		}
		v->status = BS_ST_OK;
		v->value = rate;
		v->cpu_pct = cpu;
	}
	return 0;
}

/* "400" or "3*1024" (volumes of MiB) into MiB. */
static int size_mib(const char *s, size_t n, int64_t *mib)
{
	const char *star = memchr(s, '*', n);
	uint64_t a, b = 1;

	if (star) {
		if (bs_parse_u64(star + 1, n - (size_t)(star - s) - 1, &b) < 0)
			return -1;
		n = (size_t)(star - s);
	}
	if (bs_parse_u64(s, n, &a) < 0 || (b && a > INT64_MAX / b))
		return -1;
	*mib = (int64_t)(a * b);
	return 0;
}

static void set_size(struct bs_run *r, enum dialect d, const char *s, size_t n)
{
	int64_t mib;

	/* Bonnie-64 prints whole units of 1000 MiB, cut: not a size. */
	if (d == D_64) {
		bs_run_set(&r->warning,
			   "Bonnie-64 prints the file size in whole units of "
			   "1000 MiB: file_size_mib not stored");
		return;
	}
	if (size_mib(s, n, &mib) == 0 &&
	    bs_param_fits(bs_param_at(offsetof(struct bs_params, file_size_mib)),
			  mib))
		r->params.file_size_mib = mib;
}

static int classic_parse(const struct bs_block *b, struct bs_block_out *out)
{
	enum dialect d = D_CLASSIC;
	struct bs_buf head = BS_BUF_INIT;
	size_t i, runs = 0; /* rows */
	int rc = 0;

	for (i = 0; i < b->n; i++) {
		const struct bs_bline *l = &b->l[i];

		if (bs_text_starts(l->text, l->len, "Machine") &&
		    bs_text_has(l->text, l->len, "M/sec"))
			d = D_64;
		if (bs_text_has(l->text, l->len, "sync)") ||
		    bs_text_has(l->text, l->len, "Rnd Seek"))
			d = D_14;
		if (l->len && !is_row(l->text, l->len)) {
			if (head.len)
				bs_buf_addc(&head, '\n');
			bs_buf_add(&head, l->raw, l->raw_len);
		}
	}
	for (i = 0; i < b->n && rc >= 0; i++) {
		const struct bs_bline *l = &b->l[i];
		struct bs_word tk[MAX_TOK];
		const char *cell[12];
		size_t len[12], nt, k;
		char why[REASON];
		struct bs_run r;
		struct bs_buf raw = BS_BUF_INIT;

		if (l->len == 0 || !is_row(l->text, l->len))
			continue;
		runs++;
		nt = bs_text_words(l->text, l->len, tk, MAX_TOK);
		if (d == D_CLASSIC && memchr(l->text + tk[nt - 13].s, '*',
					     tk[nt - 13].e - tk[nt - 13].s))
			d = D_14;
		for (k = 0; k < 12; k++) {
			cell[k] = l->text + tk[nt - 12 + k].s;
			len[k] = tk[nt - 12 + k].e - tk[nt - 12 + k].s;
		}
		bs_run_init(&r);
		if (fill(&r, cell, len, d == D_64 ? 1024 : 1, why,
			 sizeof(why)) < 0) {
			bs_run_release(&r);
			rc = reject(out, i, i, "Bonnie text table: %s", why);
			continue;
		}
		r.family = BS_FAM_BONNIE;
		bs_run_set(&r.tool, "bonnie");
		bs_run_set(&r.format, dialect_fmt[d]);
		/* The name is "%-8.8s": it may hold blanks, or be empty. */
		free(r.machine);
		r.machine = nt > 13 ? xstrndup(l->text, tk[nt - 14].e)
				    : xstrdup("");
		set_size(&r, d, l->text + tk[nt - 13].s,
			 tk[nt - 13].e - tk[nt - 13].s);
		bs_buf_add(&raw, head.data ? head.data : "", head.len);
		if (raw.len)
			bs_buf_addc(&raw, '\n');
		bs_buf_add(&raw, l->raw, l->raw_len);
		r.raw = bs_buf_detach(&raw, NULL);
		/* At its row: runs and rejects go out in line order. */
		rc = out->run(out, &r, l->lineno);
		bs_run_release(&r);
	}
	if (rc >= 0 && runs == 0)
		rc = reject(out, 0, b->n - 1,
			    "Bonnie text table without a row of results");
	bs_buf_release(&head);
	return rc < 0 ? rc : 0;
}

const struct bs_block_ops bs_bonnie_classic_ops = {
	.start = classic_start,
	.more = classic_more,
	.complete = NULL,
	.parse = classic_parse,
};

/* ---- the -html row (line) ---------------------------------------------- */

/* Case-insensitive prefix. */
static int istarts(const char *t, size_t n, const char *w)
{
	size_t k = strlen(w), i;

	if (n < k)
		return 0;
	for (i = 0; i < k; i++) {
		char c = t[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != w[i])
			return 0;
	}
	return 1;
}

/* The cells of "<TR><TD>a</TD>...</TR>": returns their count (up to max
 * kept), or -1 when the line is not a row of cells. */
static int html_cells(const char *t, size_t n, const char **cell, size_t *len,
		      int max)
{
	size_t i = 0;
	int k = 0;

	if (istarts(t, n, "<tr>"))
		i = 4;
	while (i < n) {
		const char *e;
		size_t j;

		if (!istarts(t + i, n - i, "<td>"))
			break;
		i += 4;
		for (j = i; j < n && t[j] != '<'; j++)
			;
		if (j == n || !istarts(t + j, n - j, "</td>"))
			return -1;
		e = t + j;
		if (k < max) {
			size_t s = i, f = (size_t)(e - t);

			while (s < f && is_blank(t[s]))
				s++;
			while (f > s && is_blank(t[f - 1]))
				f--;
			cell[k] = t + s;
			len[k] = f - s;
		}
		k++;
		i = j + 5;
	}
	if (i < n && !istarts(t + i, n - i, "</tr>"))
		return -1;
	return k;
}

int bs_bonnie_html_probe(const struct bs_format *f, const struct bs_fline *l)
{
	const char *cell[14];
	size_t len[14];

	(void)f;
	return (istarts(l->text, l->len, "<tr><td>") ||
		istarts(l->text, l->len, "<td>")) &&
	       html_cells(l->text, l->len, cell, len, 14) == 14 &&
	       numeric(cell[1], len[1]) && numeric(cell[13], len[13]);
}

int bs_bonnie_html_parse(const struct bs_format *f, const struct bs_fline *l,
			 struct bs_run *r, struct bs_err *err)
{
	const char *cell[14];
	size_t len[14];
	char why[REASON];

	(void)f;
	if (html_cells(l->text, l->len, cell, len, 14) != 14)
		snprintf(why, sizeof(why), "expected 14 cells");
	else if (fill(r, cell + 2, len + 2, 1, why, sizeof(why)) == 0)
		why[0] = '\0';
	if (why[0]) {
		bs_run_release(r);
		return bs_error(err, BS_EPARSE, "Bonnie -html row: %s", why);
	}
	r->family = BS_FAM_BONNIE;
	bs_run_set(&r->tool, "bonnie");
	bs_run_set(&r->format, BS_FMT_BONNIE_HTML);
	free(r->machine);
	r->machine = xstrndup(cell[0], len[0]);
	set_size(r, D_CLASSIC, cell[1], len[1]);
	return 1;
}
