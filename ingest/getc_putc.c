/*
 * ingest/getc_putc.c - bonnie++'s getc_putc (docs/input-formats.md section
 * 4.2) into one run: its text table, its CSV line, or both.
 *
 * getc_putc prints the table on stderr and the CSV line on stdout:
 *
 *   Version 2.00a          write   read putcNT getcNT   putc   getc  putcU  getcU
 *   labvm01                  605   4121 295441 275687 197043 280487 439276 516820
 *   labvm01,605,4121,295441,275687,197043,280487,439276,516820
 *
 * KiB/s each; "++++++" is a test that took under 0.5 s (too fast), a
 * blank cell one that was not timed (not run). In a capture of both
 * streams the header may follow the last progress message on its line
 * ("Reading with getc_unlocked()...Version 2.00a ..."), and "done" may
 * stand between the table and the CSV line. Table and CSV line next to
 * each other (either first) are one run: the CSV's values, the table's
 * version. A values line is read by the header's columns (each value ends
 * where its label does), so a blank cell stays blank.
 */
#include "ingest/getc_putc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "ingest/format.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

#define NVAL 8
#define VERSION_MAX 15

/* The catalogue keys in getc_putc's column order, and its labels. */
static const char *const keys[NVAL] = {
	"write", "read", "putc_nt",       "getc_nt",
	"putc",  "getc", "putc_unlocked", "getc_unlocked",
};
static const char *const labels[NVAL] = {
	"write", "read", "putcNT", "getcNT", "putc", "getc", "putcU", "getcU",
};

enum gl { GL_OTHER, GL_HDR, GL_CSV, GL_DONE };

/* What more() needs: where the block stands. */
struct gstate {
	int want_values; /* the next line is the table's values */
	int after_values;
	int after_done;
	int have_csv, have_hdr;
};

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/* A cell: digits, "++++++" or nothing. */
static int cell_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 6 && memcmp(s, "++++++", 6) == 0)
		return 1;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n <= 18;
}

/* The header's "Version" in s, or NULL. Sets the label ends (offsets from
 * "Version") and the version. */
static const char *header(const char *s, size_t n, size_t end[NVAL],
			  const char **ver, size_t *verlen)
{
	const char *v = NULL;
	size_t i, k, at;

	for (i = 0; i + 8 <= n; i++)
		if (memcmp(s + i, "Version ", 8) == 0) {
			v = s + i;
			break;
		}
	if (v == NULL)
		return NULL;
	n -= (size_t)(v - s);
	at = 8;
	while (at < n && blank(v[at]))
		at++;
	*ver = v + at;
	while (at < n && !blank(v[at]))
		at++;
	*verlen = (size_t)(v + at - *ver);
	if (*verlen == 0 || *verlen > VERSION_MAX)
		return NULL;
	for (k = 0; k < NVAL; k++) {
		size_t ll = strlen(labels[k]);

		if (at == n || !blank(v[at]))
			return NULL;
		while (at < n && blank(v[at]))
			at++;
		if (n - at < ll || memcmp(v + at, labels[k], ll) != 0 ||
		    (n - at > ll && !blank(v[at + ll])))
			return NULL;
		at += ll;
		end[k] = at;
	}
	return at == n ? v : NULL;
}

/* A CSV line: name and eight cells, one at least not empty. */
static int csv(const char *s, size_t n, struct bs_field f[NVAL + 1])
{
	size_t k = 0, i, st = 0;
	int any = 0;

	for (i = 0; i <= n; i++) {
		if (i < n && s[i] != ',')
			continue;
		if (k > NVAL)
			return 0;
		f[k].s = s + st;
		f[k].len = i - st;
		if (k > 0) {
			if (!cell_ok(f[k].s, f[k].len))
				return 0;
			any |= f[k].len > 0;
		}
		k++;
		st = i + 1;
	}
	return k == NVAL + 1 && any;
}

static enum gl classify(const char *s, size_t n)
{
	struct bs_field f[NVAL + 1];
	size_t end[NVAL], vl;
	const char *v;

	if (n == 4 && memcmp(s, "done", 4) == 0)
		return GL_DONE;
	if (header(s, n, end, &v, &vl))
		return GL_HDR;
	if (memchr(s, ',', n) && csv(s, n, f))
		return GL_CSV;
	return GL_OTHER;
}

static int gp_start(const struct bs_fline *l, void *state)
{
	struct gstate *g = state;

	switch (classify(l->text, l->len)) {
	case GL_HDR:
		g->have_hdr = 1;
		g->want_values = 1;
		return 1;
	case GL_CSV:
		g->have_csv = 1;
		return 1;
	default:
		return 0;
	}
}

static enum bs_scan gp_more(const struct bs_fline *l, void *state)
{
	struct gstate *g = state;
	enum gl k;

	if (g->want_values) {
		g->want_values = 0;
		g->after_values = 1;
		return g->have_csv ? BS_SCAN_LAST : BS_SCAN_TAKE;
	}
	k = classify(l->text, l->len);
	if (g->have_csv) {
		/* The CSV line came first: the table may follow. */
		if (k != GL_HDR || g->have_hdr)
			return BS_SCAN_END_BEFORE;
		g->have_hdr = 1;
		g->want_values = 1;
		return BS_SCAN_TAKE;
	}
	if (k == GL_DONE && g->after_values && !g->after_done) {
		g->after_done = 1;
		return BS_SCAN_TAKE;
	}
	if (k == GL_CSV && g->after_values)
		return BS_SCAN_LAST;
	return BS_SCAN_END_BEFORE;
}

/* One cell into r's metric k; 0, or -1 when it holds no rate. */
static int cell(struct bs_run *r, int k, const char *s, size_t n)
{
	int m = bs_metric_find(BS_FAM_GETC_PUTC, keys[k]);
	uint64_t v;

	if (n == 0)
		return 0; /* not timed: stays not run */
	if (n == 6 && memcmp(s, "++++++", 6) == 0) {
		/* Under 0.5 s: too fast, never 0. */
		r->res[m].status = BS_ST_TOO_FAST;
		return 0;
	}
	if (bs_parse_u64(s, n, &v) < 0 ||
	    !bs_metric_fits(m, BS_PART_VALUE, (double)v))
		return -1;
	r->res[m].status = BS_ST_OK;
	r->res[m].value = (double)v;
	return 0;
}

/* The table's values line, by the header's columns; else its last eight
 * words. Sets the cells and the machine. */
static int values(struct bs_run *r, const char *hdr, size_t hdrlen,
		  const char *s, size_t n)
{
	size_t end[NVAL], vl, k, st[NVAL], len[NVAL], name_end = 0, any = 0;
	const char *v, *at = header(hdr, hdrlen, end, &v, &vl);
	int ok = at != NULL;

	/* Each cell is " %6d" (or " ++++++", or 7 blanks) ending where its
	 * label ends; the name is what comes before the first. */
	if (ok && end[0] >= 7)
		name_end = end[0] - 7 < n ? end[0] - 7 : n;
	for (k = 0; ok && k < NVAL; k++) {
		size_t e = end[k], c = e, from = e - 7, i;

		if (e < 7 || (e < n && !blank(s[e]))) {
			ok = 0;
			break;
		}
		if (e > n)
			e = c = n > from ? n : from;
		while (c > from && !blank(s[c - 1]))
			c--;
		/* The rest of the cell is blank: " %6d". */
		for (i = from; i < c && i < n; i++)
			if (!blank(s[i]))
				ok = 0;
		if (c == from && e > c)
			ok = 0;
		st[k] = c;
		len[k] = e - c;
		if (len[k] > 0 && !cell_ok(s + c, len[k]))
			ok = 0;
		any += len[k] > 0;
	}
	if (any == 0 || n > end[NVAL - 1])
		ok = 0;
	if (!ok) {
		/* Columns moved (a long name): the last eight words. */
		size_t e = n;

		for (k = NVAL; k-- > 0;) {
			size_t b;

			while (e > 0 && blank(s[e - 1]))
				e--;
			b = e;
			while (b > 0 && !blank(s[b - 1]))
				b--;
			if (b == e || !cell_ok(s + b, e - b))
				return -1;
			st[k] = b;
			len[k] = e - b;
			e = b;
		}
		name_end = e;
	}
	for (k = 0; k < NVAL; k++)
		if (cell(r, (int)k, s + st[k], len[k]) < 0)
			return -1;
	while (name_end > 0 && blank(s[name_end - 1]))
		name_end--;
	r->machine = xstrndup(s, name_end);
	return 0;
}

static int gp_parse(const struct bs_block *b, struct bs_block_out *out)
{
	struct bs_field f[NVAL + 1];
	struct bs_run r;
	size_t i, hdr = SIZE_MAX, csvl = SIZE_MAX, end[NVAL], vl;
	const char *v = NULL;
	int k;

	for (i = 0; i < b->n; i++) {
		enum gl g = classify(b->l[i].text, b->l[i].len);

		if (g == GL_HDR && hdr == SIZE_MAX)
			hdr = i;
		else if (g == GL_CSV && csvl == SIZE_MAX &&
			 (hdr == SIZE_MAX || i != hdr + 1))
			csvl = i;
	}
	bs_run_init(&r);
	r.family = BS_FAM_GETC_PUTC;
	bs_run_set(&r.tool, "getc_putc");
	bs_run_set(&r.format, BS_FMT_GETC_PUTC);
	if (hdr != SIZE_MAX) {
		if (header(b->l[hdr].text, b->l[hdr].len, end, &v, &vl))
			r.tool_version = xstrndup(v, vl);
	}
	if (csvl != SIZE_MAX) {
		csv(b->l[csvl].text, b->l[csvl].len, f);
		for (k = 0; k < NVAL; k++)
			if (cell(&r, k, f[k + 1].s, f[k + 1].len) < 0) {
				bs_run_release(&r);
				return out->reject(out, csvl, csvl,
						   "getc_putc CSV rate past "
						   "the limit of any disk");
			}
		r.machine = xstrndup(f[0].s, f[0].len);
	} else if (hdr == SIZE_MAX || hdr + 1 >= b->n) {
		bs_run_release(&r);
		return out->reject(out, 0, b->n - 1,
				   "getc_putc table without its values line");
	} else if (values(&r, b->l[hdr].text, b->l[hdr].len, b->l[hdr + 1].text,
			  b->l[hdr + 1].len) < 0) {
		bs_run_release(&r);
		return out->reject(out, hdr, hdr + 1,
				   "getc_putc values line does not match its "
				   "header (eight KiB/s cells, ++++++ or "
				   "blank)");
	}
	return out->run(out, &r, b->l[0].lineno);
}

const struct bs_block_ops bs_getc_putc_ops = {
	gp_start,
	gp_more,
	NULL,
	gp_parse,
};
