/*
 * report/render_text.c - the text report's tables, laid out as bonnie++
 * prints its own (TABLE > LINE > TEXT: alignment needs widths, which a
 * template cannot compute), its notes wrapped at 76 columns
 * (WRAPPED_NOTE > LINE > TEXT) and its summary sentences likewise
 * (WRAPPED_SUMMARY > LINE > TEXT).
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "report/tmpl/tmpl.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/text.h"
#include "util/banned.h"

struct tcol {
	int m;
	size_t width;
	int star; /* the column marks its best value with '*' */
};

struct ttable {
	struct tcol col[BS_RM_COUNT];
	int ncols;
	size_t lw, pw; /* label and parameter column widths */
	char **cell;   /* nrows x (2 + ncols) */
	int nrows, cap;
};

static void tt_add_row(struct ttable *tt)
{
	int k, n = 2 + tt->ncols;

	if (tt->nrows == tt->cap) {
		tt->cap = tt->cap ? tt->cap * 2 : 16;
		tt->cell = xrealloc(tt->cell, (size_t)tt->cap * (size_t)n *
						      sizeof(*tt->cell));
	}
	for (k = 0; k < n; k++)
		tt->cell[tt->nrows * n + k] = NULL;
	tt->nrows++;
}

static void tt_set(struct ttable *tt, int col, const char *s)
{
	struct bs_buf b = BS_BUF_INIT;

	/* Only the row added last is written. */
	assert(tt->nrows > 0 && col >= 0 && col < 2 + tt->ncols);
	bs_text_clean(&b, s, strlen(s), BS_TEXT_TAB);
	tt->cell[(tt->nrows - 1) * (2 + tt->ncols) + col] =
		bs_buf_detach(&b, NULL);
}

static const char *tt_get(const struct ttable *tt, int row, int col)
{
	const char *s;

	assert(row >= 0 && row < tt->nrows && col >= 0 && col < 2 + tt->ncols);
	s = tt->cell[row * (2 + tt->ncols) + col];
	return s ? s : "";
}

static void tt_release(struct ttable *tt)
{
	int k;

	for (k = 0; k < tt->nrows * (2 + tt->ncols); k++)
		free(tt->cell[k]);
	free(tt->cell);
}

/*
 * Drops the statistics, diff and ratio rows (any row whose label is not a
 * group's "[n] ...") that have nothing in any column.
 */
static void tt_drop_empty(struct ttable *tt)
{
	int n = 2 + tt->ncols, r, k, keep = 0, empty;

	for (r = 0; r < tt->nrows; r++) {
		const char *label = tt_get(tt, r, 0);
		empty = label[0] != '[';
		for (k = 2; k < n && empty; k++)
			empty = strspn(tt_get(tt, r, k), " ") ==
				strlen(tt_get(tt, r, k));
		if (empty) {
			for (k = 0; k < n; k++)
				free(tt->cell[r * n + k]);
			continue;
		}
		if (keep != r)
			memmove(&tt->cell[keep * n], &tt->cell[r * n],
				(size_t)n * sizeof(*tt->cell));
		keep++;
	}
	tt->nrows = keep;
}

void bs_rtext_pad(struct bs_buf *b, const char *s, size_t w, int right)
{
	size_t n = bs_rwidth(s);

	if (right)
		for (; n < w; n++)
			bs_buf_addc(b, ' ');
	bs_buf_adds(b, s);
	if (!right)
		for (; n < w; n++)
			bs_buf_addc(b, ' ');
}

/* "--Block--": title centred in dashes, the extra dash on the left. */
static void dashes(struct bs_buf *b, const char *title, size_t w)
{
	size_t n = strlen(title), left, i;

	if (n > w)
		n = w;
	left = (w - n + 1) / 2;
	for (i = 0; i < left; i++)
		bs_buf_addc(b, '-');
	bs_buf_add(b, title, n);
	for (i = left + n; i < w; i++)
		bs_buf_addc(b, '-');
}

static const char *text_unit(const struct bs_report *rep, int m)
{
	int t = BS_RM_TEST(m);

	switch (BS_RM_KIND(m)) {
	case BS_MK_CPU:
		return "%CP";
	case BS_MK_LAT:
		return "Latency";
	default:
		break;
	}
	/* bonnie++'s own table heads for its tests; other tools name the
	 * unit the value is shown in. */
	if (bs_metrics[t].family == BS_FAM_BONNIE &&
	    (bs_metrics[t].flags & BS_MF_KIB))
		return strcmp(bs_report_unit(rep, m), "MiB/s") == 0 ? "M/sec"
								    : "K/sec";
	if (bs_metrics[t].family == BS_FAM_BONNIE)
		return "/sec";
	return bs_report_unit(rep, m);
}

void bs_rtext_line(struct bs_tdict *table, struct bs_buf *b)
{
	while (b->len && b->data[b->len - 1] == ' ')
		bs_buf_trim(b, 1);
	bs_tdict_set(bs_tdict_add(table, "LINE"), "TEXT", bs_buf_str(b));
	bs_buf_reset(b);
}

/* s with a marker char appended (for columns that mark the best). */
static const char *mark(char *s, size_t n, char c)
{
	size_t l = strlen(s);

	if (l + 1 < n) {
		s[l] = c;
		s[l + 1] = '\0';
	}
	return s;
}

/*
 * The cell text of group i, metric m, in a row of the given kind: 0 the
 * value (the mean), 1 to 5 the statistics (median, sd, min, max, n, as
 * text_table's stat_name), 6 the diff, 7 the ratio, 8 the change in
 * percent with its verdict's mark (bs_rverdict_mark).
 */
static void text_cell(const struct bs_report *rep, int m, size_t i, int kind,
		      char *s, size_t n)
{
	const struct bs_report_cell *c = &rep->groups[i].cell[m];

	assert(kind >= 0 && kind <= 8 && n > 0);
	s[0] = '\0';
	switch (kind) {
	case 0: /* value */
		if (c->status == BS_ST_OK)
			bs_rfmt(rep, m, c->mean, s, n);
		else if (c->status == BS_ST_TOO_FAST)
			snprintf(s, n, "%s",
				 BS_RM_KIND(m) == BS_MK_CPU ? "+++" : "+++++");
		else
			snprintf(s, n, "-");
		break;
	case 1:
		bs_rfmt(rep, m, c->median, s, n);
		break;
	case 2:
		bs_rfmt(rep, m, c->sd, s, n);
		break;
	case 3:
		bs_rfmt(rep, m, c->min, s, n);
		break;
	case 4:
		bs_rfmt(rep, m, c->max, s, n);
		break;
	case 5: /* count of numbers; blank for none (the value says why) */
		if (c->ok)
			snprintf(s, n, "%lld", (long long)c->ok);
		break;
	case 6:
		bs_rfmt(rep, m, c->diff, s, n);
		break;
	case 8: /* rates only: CPU and latency keep their narrow columns */
		if (BS_RM_KIND(m) != BS_MK_RATE || isnan(c->pct))
			break;
		snprintf(s, n, fabs(c->pct) >= 99.95 ? "%+.0f%%" : "%+.1f%%",
			 c->pct);
		mark(s, n, bs_rverdict_mark(c));
		break;
	default:
		bs_rfmt_ratio(c->ratio, s, n);
		break;
	}
}

/* Widens the last column of [k0, k1] until the span fits title. */
static size_t fit_span(struct ttable *tt, int k0, int k1, const char *title)
{
	size_t span = 0, need = strlen(title) + 2;
	int k;

	assert(k0 >= 0 && k0 <= k1 && k1 < tt->ncols);
	for (k = k0; k <= k1; k++)
		span += tt->col[k].width + (k > k0);
	if (span < need) {
		tt->col[k1].width += need - span;
		span = need;
	}
	return span;
}

/* Columns [*k0, *k1] of tests t0..t1, or 0 when none is shown. */
static int cols_of(const struct ttable *tt, int t0, int t1, int *k0, int *k1)
{
	int k;

	*k0 = -1;
	*k1 = -1;
	for (k = 0; k < tt->ncols; k++) {
		int t = BS_RM_TEST(tt->col[k].m);
		if (t < t0 || t > t1)
			continue;
		if (*k0 < 0)
			*k0 = k;
		*k1 = k;
	}
	return *k0 >= 0;
}

/* What the column after a group's label shows. */
enum pcol { PCOL_NONE, PCOL_SIZE, PCOL_FILES };

/*
 * One table over catalogue rows [t0, t1): the value and CPU columns, or
 * (lat) the latency columns, under the titles of their sections and
 * tests. Adds a TABLE to d unless no column is shown.
 */
static void text_table(const struct bs_report *rep, struct bs_tdict *d, int t0,
		       int t1, int lat, enum pcol pcol)
{
	static const char *const ptitles[] = {"", "Size", "Files"};
	const char *ptitle = ptitles[pcol];
	static const char *const stat_name[] = {"",    "median", "sd",
						"min", "max",    "n"};
	struct ttable tt;
	struct bs_buf b = BS_BUF_INIT;
	struct bs_tdict *table;
	char s[96];
	size_t i, w, span;
	int k, k0, k1, m, t, r, kind, sec, sec_end;

	memset(&tt, 0, sizeof(tt));
	for (t = t0; t < t1; t++) {
		for (m = BS_RM(t, 0); m < BS_RM(t + 1, 0); m++) {
			if (!rep->shown[m] ||
			    (BS_RM_KIND(m) == BS_MK_LAT) != lat)
				continue;
			assert(tt.ncols < BS_RM_COUNT);
			tt.col[tt.ncols].m = m;
			for (i = 0; i < rep->ngroups; i++)
				if (rep->groups[i].cell[m].best)
					tt.col[tt.ncols].star = 1;
			tt.ncols++;
		}
	}
	if (tt.ncols == 0)
		return;
	/* Rows: each group with its statistics, then diffs and ratios. */
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		for (kind = 0; kind < (g->nruns > 1 ? 6 : 1); kind++) {
			/* With two runs the median is the mean. */
			if (kind == 1 && g->nruns < 3)
				continue;
			tt_add_row(&tt);
			bs_buf_reset(&b);
			if (kind == 0)
				bs_buf_addf(&b, "[%zu] %s", i + 1, g->label);
			else
				bs_buf_addf(&b, "    %s", stat_name[kind]);
			tt_set(&tt, 0, bs_buf_str(&b));
			if (kind == 0 && pcol == PCOL_FILES)
				tt_set(&tt, 1, bs_rfmt_files(g, s, sizeof(s)));
			else if (kind == 0 && pcol == PCOL_SIZE)
				tt_set(&tt, 1,
				       bs_rfmt_param(g,
						     bs_param_find(
							     "file_size_mib"),
						     s, sizeof(s)));
			for (k = 0; k < tt.ncols; k++) {
				m = tt.col[k].m;
				text_cell(rep, m, i, kind, s, sizeof(s));
				if (tt.col[k].star)
					mark(s, sizeof(s),
					     kind == 0 && g->cell[m].best
						     ? '*'
						     : ' ');
				tt_set(&tt, 2 + k, s);
			}
		}
	}
	for (kind = 6; kind <= 8; kind++) {
		static const char *const what[] = {"diff", "ratio", "change"};
		static const char *const op[] = {"-", "/", " vs "};

		for (i = 0; i < rep->ngroups; i++) {
			if (i == rep->groups[i].base)
				continue;
			tt_add_row(&tt);
			bs_buf_reset(&b);
			bs_buf_addf(&b, "%s [%zu]%s[%zu]", what[kind - 6],
				    i + 1, op[kind - 6],
				    rep->groups[i].base + 1);
			tt_set(&tt, 0, bs_buf_str(&b));
			for (k = 0; k < tt.ncols; k++) {
				text_cell(rep, tt.col[k].m, i, kind, s,
					  sizeof(s));
				if (tt.col[k].star && s[0] && kind != 8)
					mark(s, sizeof(s), ' ');
				tt_set(&tt, 2 + k, s);
			}
		}
	}
	tt_drop_empty(&tt);
	/* Widths: the widest cell, bonnie++'s minimum, the unit title. */
	tt.lw = strlen("Group");
	tt.pw = strlen(ptitle);
	for (r = 0; r < tt.nrows; r++) {
		if (bs_rwidth(tt_get(&tt, r, 0)) > tt.lw)
			tt.lw = bs_rwidth(tt_get(&tt, r, 0));
		if (bs_rwidth(tt_get(&tt, r, 1)) > tt.pw)
			tt.pw = bs_rwidth(tt_get(&tt, r, 1));
	}
	for (k = 0; k < tt.ncols; k++) {
		m = tt.col[k].m;
		w = BS_RM_KIND(m) == BS_MK_RATE  ? 5
		    : BS_RM_KIND(m) == BS_MK_CPU ? 3
						 : 9;
		if (strlen(text_unit(rep, m)) > w)
			w = strlen(text_unit(rep, m));
		for (r = 0; r < tt.nrows; r++)
			if (bs_rwidth(tt_get(&tt, r, 2 + k)) > w)
				w = bs_rwidth(tt_get(&tt, r, 2 + k));
		tt.col[k].width = w;
	}
	/* Tests, then sections, get room for their dashed titles. */
	for (t = t0; t < t1; t++)
		if (cols_of(&tt, t, t, &k0, &k1))
			fit_span(&tt, k0, k1, bs_metrics[t].title);
	for (sec = t0; sec < t1; sec = sec_end) {
		sec_end = bs_rsection_end(sec);
		if (cols_of(&tt, sec, sec_end - 1, &k0, &k1))
			fit_span(&tt, k0, k1, bs_metrics[sec].section);
	}

	table = bs_tdict_add(d, "TABLE");
	/* Header lines as bonnie++ prints them. */
	bs_buf_reset(&b);
	bs_rtext_pad(&b, "", tt.lw + 1 + tt.pw, 0);
	for (sec = t0; sec < t1; sec = sec_end) {
		sec_end = bs_rsection_end(sec);
		if (!cols_of(&tt, sec, sec_end - 1, &k0, &k1))
			continue;
		span = fit_span(&tt, k0, k1, bs_metrics[sec].section);
		bs_buf_addc(&b, ' ');
		dashes(&b, bs_metrics[sec].section, span);
	}
	bs_rtext_line(table, &b);
	bs_rtext_pad(&b, "", tt.lw + 1 + tt.pw, 0);
	for (t = t0; t < t1; t++) {
		if (!cols_of(&tt, t, t, &k0, &k1))
			continue;
		span = fit_span(&tt, k0, k1, bs_metrics[t].title);
		bs_buf_addc(&b, ' ');
		dashes(&b, bs_metrics[t].title, span);
	}
	bs_rtext_line(table, &b);
	bs_rtext_pad(&b, "Group", tt.lw, 0);
	bs_buf_addc(&b, ' ');
	bs_rtext_pad(&b, ptitle, tt.pw, 1);
	for (k = 0; k < tt.ncols; k++) {
		bs_buf_addc(&b, ' ');
		bs_rtext_pad(&b, text_unit(rep, tt.col[k].m), tt.col[k].width,
			     1);
	}
	bs_rtext_line(table, &b);
	for (r = 0; r < tt.nrows; r++) {
		bs_rtext_pad(&b, tt_get(&tt, r, 0), tt.lw, 0);
		bs_buf_addc(&b, ' ');
		bs_rtext_pad(&b, tt_get(&tt, r, 1), tt.pw, 1);
		for (k = 0; k < tt.ncols; k++) {
			bs_buf_addc(&b, ' ');
			bs_rtext_pad(&b, tt_get(&tt, r, 2 + k), tt.col[k].width,
				     1);
		}
		bs_rtext_line(table, &b);
	}
	bs_buf_release(&b);
	tt_release(&tt);
}

/* Wraps text into lines of at most width columns, "* " then "  ". */
void bs_rtext_wrap(struct bs_tdict *d, const char *text, size_t width)
{
	struct bs_buf line = BS_BUF_INIT, clean = BS_BUF_INIT;
	const char *p, *sp;
	size_t n;

	assert(width > 2); /* wider than the "* " before a line */
	bs_text_clean(&clean, text, strlen(text), BS_TEXT_TAB);
	p = bs_buf_str(&clean);
	bs_buf_adds(&line, "* ");
	while (*p) {
		sp = strchr(p, ' ');
		n = sp ? (size_t)(sp - p) : strlen(p);
		if (line.len > 2 && line.len + 1 + n > width) {
			bs_tdict_set(bs_tdict_add(d, "LINE"), "TEXT",
				     bs_buf_str(&line));
			bs_buf_reset(&line);
			bs_buf_adds(&line, "  ");
		} else if (line.len > 2) {
			bs_buf_addc(&line, ' ');
		}
		bs_buf_add(&line, p, n);
		p += n;
		while (*p == ' ')
			p++;
	}
	bs_tdict_set(bs_tdict_add(d, "LINE"), "TEXT", bs_buf_str(&line));
	bs_buf_release(&line);
	bs_buf_release(&clean);
}

/* Lays out a curve table: a title, the head (row 0), then the rows. */
static struct bs_tdict *curve_table(struct bs_tdict *d, char **cell,
				    size_t nrows, size_t ncol, int m, int t,
				    const struct bs_report *rep)
{
	struct bs_buf b = BS_BUF_INIT;
	struct bs_tdict *table = bs_tdict_add(d, "TABLE");
	char label[96];
	size_t w[16], k, r;

	assert(ncol <= sizeof(w) / sizeof(w[0]));
	for (k = 0; k < ncol; k++) {
		w[k] = 0;
		for (r = 0; r < nrows; r++)
			if (bs_rwidth(cell[r * ncol + k]) > w[k])
				w[k] = bs_rwidth(cell[r * ncol + k]);
	}
	bs_buf_addf(&b, "%s by position, %s: a row per run (%s)",
		    bs_rm_label(m, label, sizeof(label)),
		    bs_report_unit(rep, m),
		    bs_family_name(bs_metrics[t].family));
	bs_rtext_line(table, &b);
	for (r = 0; r < nrows; r++) {
		for (k = 0; k < ncol; k++) {
			if (k)
				bs_buf_addc(&b, ' ');
			/* Group and machine to the left, numbers right. */
			bs_rtext_pad(&b, cell[r * ncol + k], w[k],
				     k != 0 && k != 2);
		}
		bs_rtext_line(table, &b);
	}
	bs_buf_release(&b);
	return table;
}

/*
 * One table per metric with curves: a row per curve kept (run, group,
 * machine, its first, last, least, mean and most rate, its blocks and
 * how many were too fast to time), then what was left out.
 */
static void curve_tables(const struct bs_report *rep, struct bs_tdict *d)
{
	static const char *const head[] = {
		"Group", "Run",  "Machine", "First",  "Last",
		"Min",   "Mean", "Max",     "Blocks", "Too fast",
	};
	enum { NCOL = sizeof(head) / sizeof(head[0]) };
	struct bs_buf b = BS_BUF_INIT, clean = BS_BUF_INIT;
	struct bs_tdict *table = NULL;
	char **cell = NULL, s[96];
	size_t i, k, r, nrows, cap = 0;
	int t, m;

	for (t = 0; t < bs_nmetrics; t++) {
		m = BS_RM(t, BS_MK_RATE);
		if (!(bs_metrics[t].flags & BS_MF_SERIES) || !rep->shown[m])
			continue;
		/* Row 0 is the head. */
		nrows = 0;
		for (i = 0; i <= rep->ncurves; i++) {
			const struct bs_report_curve *c =
				i ? &rep->curves[i - 1] : NULL;
			const double v[] = {
				c ? c->first : 0, c ? c->last : 0,
				c ? c->min : 0,   c ? c->mean : 0,
				c ? c->max : 0,
			};
			if (c && c->test != t)
				continue;
			xgrow((void **)&cell, &cap, (nrows + 1) * NCOL,
			      sizeof(*cell));
			for (k = 0; k < NCOL; k++) {
				bs_buf_reset(&b);
				if (c == NULL)
					bs_buf_adds(&b, head[k]);
				else if (k == 0)
					bs_buf_addf(&b, "[%zu] %s",
						    c->group + 1,
						    rep->groups[c->group].label);
				else if (k == 1)
					bs_buf_addf(&b, "%lld",
						    (long long)c->id);
				else if (k == 2)
					bs_buf_adds(&b, c->machine);
				else if (k < 8)
					/* Without a timed block: as bonnie++
					 * marks a test too fast to time. */
					bs_buf_adds(&b,
						    c->ok ? bs_rfmt(rep, m,
								    v[k - 3], s,
								    sizeof(s))
							  : "+++++");
				else
					bs_buf_addf(&b, "%zu",
						    k == 8 ? c->n
							   : c->n - c->ok);
				bs_buf_reset(&clean);
				bs_text_clean(&clean, bs_buf_str(&b), b.len,
					      BS_TEXT_TAB);
				cell[nrows * NCOL + k] =
					bs_buf_detach(&clean, NULL);
			}
			nrows++;
		}
		if (nrows > 1)
			table = curve_table(d, cell, nrows, NCOL, m, t, rep);
		for (r = 0; r < nrows * NCOL; r++)
			free(cell[r]);
	}
	if (table && rep->curves_note)
		bs_rtext_wrap(table, rep->curves_note, 76);
	free(cell);
	bs_buf_release(&b);
	bs_buf_release(&clean);
}

void bs_rtext_fill(const struct bs_report *rep, struct bs_tdict *d)
{
	size_t i;
	int t0, t1;

	for (i = 0; i < rep->nnotes; i++)
		bs_rtext_wrap(bs_tdict_add(d, "WRAPPED_NOTE"), rep->notes[i],
			      76);
	for (i = 0; i < rep->ngroups; i++)
		if (rep->groups[i].sum.sentence)
			bs_rtext_wrap(bs_tdict_add(d, "WRAPPED_SUMMARY"),
				      rep->groups[i].sum.sentence, 76);
	/* bonnie++'s two tables, values then latencies, in its layout. */
	text_table(rep, d, BS_M_PUTC, BS_M_FIRST_FILE, 0, PCOL_SIZE);
	text_table(rep, d, BS_M_FIRST_FILE, BS_M_BONNIE, 0, PCOL_FILES);
	text_table(rep, d, BS_M_PUTC, BS_M_FIRST_FILE, 1, PCOL_SIZE);
	text_table(rep, d, BS_M_FIRST_FILE, BS_M_BONNIE, 1, PCOL_FILES);
	/* Any other tool: a table of its metrics. */
	for (t0 = BS_M_BONNIE; t0 < bs_nmetrics; t0 = t1) {
		t1 = t0;
		while (t1 < bs_nmetrics &&
		       bs_metrics[t1].family == bs_metrics[t0].family)
			t1++;
		text_table(rep, d, t0, t1, 0, PCOL_NONE);
	}
	curve_tables(rep, d);
}
