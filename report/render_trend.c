/*
 * report/render_trend.c - the trend model (report/trend.h) -> template
 * dictionaries -> output. Every format gets the model (GROUP, METRIC >
 * LINE > POINT, NOTE); CSV and JSON a flat ROW per point; text its
 * tables laid out (TABLE > LINE > TEXT); HTML an SVG chart per metric,
 * drawn with report/chart.h: a time axis, the y axis from 0, a line per
 * group through its periods' medians, and each point's spread (a min-max
 * whisker, a mean +- sd box). docs/trend.md lists the names.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/changes.h"
#include "report/chart.h"
#include "report/internal.h"
#include "report/tmpl/tmpl.h"
#include "report/trend.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/embed.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/text.h"
#include "util/timefmt.h"
#include "util/banned.h"

/* Generated from templates/ by report/CMakeLists.txt. */
extern const struct bs_embedded bs_tmpl_trend_txt[];
extern const struct bs_embedded bs_tmpl_trend_html[];
extern const struct bs_embedded bs_tmpl_trend_csv[];
extern const struct bs_embedded bs_tmpl_trend_json[];

static const char *const tmpl_names[] = {
	"trend.txt",
	"trend.html",
	"trend.csv",
	"trend.json",
};

int bs_trend_templates_load(struct bs_tmpl_set **out, const char *dir,
			    enum bs_report_format fmt, struct bs_err *err)
{
	const struct bs_embedded *pages[] = {
		bs_tmpl_trend_txt,
		bs_tmpl_trend_html,
		bs_tmpl_trend_csv,
		bs_tmpl_trend_json,
	};

	assert((size_t)fmt < sizeof(pages) / sizeof(pages[0]));
	return bs_rtemplates_load(out, pages[fmt], dir, err);
}

/* Chart geometry, in SVG user units, as the report's curves. */
#define TR_W 600
#define TR_H 330
#define TR_LEFT 64   /* at least; more for long y labels (y_frame) */
#define TR_CHAR 12   /* user units a digit takes at a phone's font */
#define TR_RIGHT 28  /* room for half the last x label */
#define TR_TOP 34    /* the unit above the top label, at a phone's font */
#define TR_BOTTOM 58 /* x labels and title, at a phone's font too */
#define TR_XTICKS 5  /* at most: "2005-03" at a phone's font */
#define TR_YTICKS 5
/* A line's points sit this far apart from the next line's at one date,
 * so that their whiskers do not hide each other. */
#define TR_SPREAD 5.0
/* The table of a line's points is open under this many points. */
#define TR_OPEN_MAX 12

/* The frame of a chart whose y axis is ay: room on the left for its
 * longest label at a phone's font. */
static void y_frame(const struct bs_axis *ay, struct bs_frame *f)
{
	char s[64], h[96];
	int left;

	bs_fmt_double(s, sizeof(s), ay->hi, ay->decimals);
	left = 16 + TR_CHAR * (int)strlen(bs_rfmt_thousands(s, h, sizeof(h)));
	f->w = TR_W;
	f->h = TR_H;
	f->left = left > TR_LEFT ? left : TR_LEFT;
	f->right = TR_RIGHT;
	f->top = TR_TOP;
	f->bottom = TR_BOTTOM;
}

/* A number for people by the report's rule, "" when NAN; on an HTML
 * page with thousands separators, as the report's pages have them. */
static const char *num(const struct bs_report *rep, int m, double v, int html,
		       char *s, size_t n)
{
	return html ? bs_rfmt_h(rep, m, v, s, n) : bs_rfmt(rep, m, v, s, n);
}

/* The change of v against first, in percent (NAN when undefined). */
static double change(double v, double first)
{
	if (isnan(v) || isnan(first) || first == 0)
		return NAN;
	return (v / first - 1) * 100;
}

/* NUMBERS of a point: text, R_ (raw, for CSV) and J_ (JSON) forms. */
static void point_numbers(const struct bs_report *rep, int m,
			  const struct bs_trend_point *p, double pct, int html,
			  struct bs_tdict *d)
{
	static const char *const names[] = {"MEDIAN", "MEAN", "SD", "MIN",
					    "MAX"};
	const double v[] = {p->median, p->mean, p->sd, p->min, p->max};
	char s[64], key[16];
	size_t k;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		bs_tdict_set(d, names[k],
			     num(rep, m, v[k], html, s, sizeof(s)));
		bs_rfmt_raw(bs_rscale(rep, m, v[k]), s, sizeof(s));
		snprintf(key, sizeof(key), "R_%s", names[k]);
		bs_tdict_set(d, key, s);
		snprintf(key, sizeof(key), "J_%s", names[k]);
		bs_tdict_set(d, key, s[0] ? s : "null");
	}
	bs_tdict_set_i64(d, "N", p->n);
	bs_tdict_set(d, "CHANGE", bs_rfmt_pct(pct, s, sizeof(s)));
	bs_rfmt_raw(pct, s, sizeof(s));
	bs_tdict_set(d, "R_CHANGE", s);
	bs_tdict_set(d, "J_CHANGE", s[0] ? s : "null");
}

/* PERIOD, START (ISO), RUN and J_RUN of a point. */
static void point_when(const struct bs_trend *tr,
		       const struct bs_trend_point *p, struct bs_tdict *d)
{
	char s[64];

	bs_tdict_set(d, "PERIOD",
		     bs_trend_period_label(tr->every, p->start, s, sizeof(s)));
	bs_tdict_set(d, "START", bs_time_iso(s, sizeof(s), p->start));
	if (p->run != BS_NONE) {
		bs_tdict_set_i64(d, "RUN", p->run);
		bs_tdict_set_i64(d, "J_RUN", p->run);
		bs_tdict_show(d, "HAS_RUN");
	} else {
		bs_tdict_set(d, "RUN", "");
		bs_tdict_set(d, "J_RUN", "null");
	}
}

static const char *better_word(int m)
{
	int b = bs_rm_better(m);

	return b > 0 ? "higher" : b < 0 ? "lower" : "neither";
}

/* The chart's own values: TEST, CHART_TITLE ("sysbench rndrw: read"),
 * and its metric's KEY, LABEL, UNIT, BETTER, FAMILY. */
static void metric_names(const struct bs_trend *tr,
			 const struct bs_trend_metric *tm, struct bs_tdict *d)
{
	char s[96];
	int m = tm->m;

	bs_tdict_set(d, "TEST", tm->test);
	bs_tdict_set(d, "CHART_TITLE", tm->title);

	bs_tdict_set(d, "KEY", bs_report_metric_key(m, s, sizeof(s)));
	bs_tdict_set(d, "LABEL", bs_rm_label(m, s, sizeof(s)));
	bs_tdict_set(d, "UNIT", bs_report_unit(tr->rep, m));
	bs_tdict_set(d, "BETTER", better_word(m));
	bs_tdict_set(d, "FAMILY",
		     bs_family_name(bs_metrics[BS_RM_TEST(m)].family));
}

/* GROUP_LABEL, SELECTOR, GROUP, COLOUR, DASH of group g. */
static void group_names(const struct bs_trend *tr, size_t g, struct bs_tdict *d)
{
	const struct bs_report_group *rg = &tr->rep->groups[g];

	bs_tdict_set_i64(d, "GROUP", (int64_t)g + 1);
	bs_tdict_set(d, "GROUP_LABEL", rg->label);
	bs_tdict_set(d, "SELECTOR", rg->selector);
	bs_tdict_set(d, "COLOUR", bs_chart_colour(g));
	bs_tdict_set(d, "DASH", bs_chart_dash(g));
}

/* A line's group, and its series: LINE_LABEL ("[1] all", ", jump" when
 * the group has several machines), MACHINE, TEST; its style is its
 * series'. */
static void line_names(const struct bs_trend *tr, const struct bs_trend_line *l,
		       struct bs_tdict *d)
{
	const struct bs_trend_series *x = &tr->series[l->series];

	group_names(tr, l->group, d);
	bs_tdict_set(d, "LINE_LABEL", x->label);
	bs_tdict_set(d, "MACHINE", bs_store_machine_name(x->machine));
	bs_tdict_set(d, "TEST", x->test);
	bs_tdict_set(d, "COLOUR", bs_chart_colour(l->series));
	bs_tdict_set(d, "DASH", bs_chart_dash(l->series));
}

/* The line's summary: POINTS, RUNS, FIRST_PERIOD, LAST_PERIOD, FIRST,
 * LAST (medians), CHANGE (last against first). */
static void line_summary(const struct bs_trend *tr, int m,
			 const struct bs_trend_line *l, int html,
			 struct bs_tdict *d)
{
	const struct bs_trend_point *a = &l->pt[0], *z = &l->pt[l->n - 1];
	/* One point has no change. */
	double pct = l->n > 1 ? change(z->median, a->median) : NAN;
	char s[64];

	bs_tdict_set_i64(d, "POINTS", (int64_t)l->n);
	bs_tdict_set(d, "POINTS_WORD", l->n == 1 ? "point" : "points");
	bs_tdict_set_i64(d, "RUNS", l->runs);
	bs_tdict_set(d, "RUNS_WORD", l->runs == 1 ? "run" : "runs");
	bs_tdict_set(d, "FIRST_PERIOD",
		     bs_trend_period_label(tr->every, a->start, s, sizeof(s)));
	bs_tdict_set(d, "LAST_PERIOD",
		     bs_trend_period_label(tr->every, z->start, s, sizeof(s)));
	bs_tdict_set(d, "FIRST",
		     num(tr->rep, m, a->median, html, s, sizeof(s)));
	bs_tdict_set(d, "LAST", num(tr->rep, m, z->median, html, s, sizeof(s)));
	bs_tdict_set(d, "CHANGE", bs_rfmt_pct(pct, s, sizeof(s)));
	bs_rfmt_raw(pct, s, sizeof(s));
	bs_tdict_set(d, "J_CHANGE", s[0] ? s : "null");
	if (l->n <= TR_OPEN_MAX)
		bs_tdict_show(d, "OPEN");
}

/* ---- HTML: the chart ------------------------------------------------ */

/* The time axis of a metric's chart: its points' dates, a little room on
 * both sides (a period's worth when there is one date). */
static void time_axis(const struct bs_trend *tr,
		      const struct bs_trend_metric *tm, struct bs_axis *ax)
{
	double span = (double)(tm->tmax - tm->tmin), pad;

	if (span > 0) {
		pad = span * 0.05;
	} else {
		pad = (double)bs_trend_period_len(tr->every, tm->tmin) / 2;
		if (pad < 43200)
			pad = 43200;
	}
	ax->lo = (double)tm->tmin - pad;
	ax->hi = (double)tm->tmax + pad;
	ax->step = ax->hi - ax->lo;
	ax->decimals = 0;
}

static void fmt1(struct bs_tdict *d, const char *key, double v)
{
	char s[32];

	bs_tdict_set(d, key, bs_fmt_double(s, sizeof(s), v, 1));
}

/* A point's marks: X, Y (the median), Y_MIN, Y_MAX (the whisker), with
 * n >= 2 HAS_SD and Y_HI, H_SD (the mean +- sd box), XL, XR (the caps'
 * and the box's sides), and TIP. */
static void point_marks(const struct bs_trend *tr, int m,
			const struct bs_trend_line *l,
			const struct bs_trend_point *p, double x,
			const struct bs_frame *frame, const struct bs_axis *ay,
			struct bs_tdict *d)
{
	const struct bs_report *rep = tr->rep;
	struct bs_buf tip = BS_BUF_INIT;
	char s[64];

	fmt1(d, "X", x);
	fmt1(d, "XL", x - 4);
	fmt1(d, "XR", x + 4);
	fmt1(d, "Y", bs_frame_y(frame, ay, bs_rscale(rep, m, p->median)));
	fmt1(d, "Y_MIN", bs_frame_y(frame, ay, bs_rscale(rep, m, p->min)));
	fmt1(d, "Y_MAX", bs_frame_y(frame, ay, bs_rscale(rep, m, p->max)));
	if (!isnan(p->sd)) {
		double lo = bs_rscale(rep, m, p->mean - p->sd),
		       hi = bs_rscale(rep, m, p->mean + p->sd);
		double ylo, yhi;
		if (lo < ay->lo)
			lo = ay->lo;
		ylo = bs_frame_y(frame, ay, lo);
		yhi = bs_frame_y(frame, ay, hi);
		bs_tdict_show(d, "HAS_SD");
		fmt1(d, "Y_HI", yhi);
		fmt1(d, "H_SD", ylo - yhi > 1 ? ylo - yhi : 1);
	}
	bs_buf_addf(&tip, "%s, %s", tr->series[l->series].label,
		    bs_trend_period_label(tr->every, p->start, s, sizeof(s)));
	bs_buf_addf(&tip, ": median %s",
		    num(rep, m, p->median, 1, s, sizeof(s)));
	bs_buf_addf(&tip, " %s, n=%lld", bs_report_unit(rep, m),
		    (long long)p->n);
	if (p->n > 1) {
		bs_buf_addf(&tip, ", mean %s",
			    num(rep, m, p->mean, 1, s, sizeof(s)));
		bs_buf_addf(&tip, " \xc2\xb1 %s",
			    num(rep, m, p->sd, 1, s, sizeof(s)));
		bs_buf_addf(&tip, ", %s", num(rep, m, p->min, 1, s, sizeof(s)));
		bs_buf_addf(&tip, " to %s",
			    num(rep, m, p->max, 1, s, sizeof(s)));
	} else if (p->run != BS_NONE) {
		bs_buf_addf(&tip, ", run %lld", (long long)p->run);
	}
	bs_tdict_set(d, "TIP", bs_buf_str(&tip));
	bs_buf_release(&tip);
}

/*
 * The change points of line l of chart tm (its series' and metric's,
 * rates only: a CPU or latency column is no metric of its own), each a
 * CP of the line at the point whose period holds its first run: X, Y,
 * Y_TOP, Y_BOT (the plot's height), and bs_changes_mark's names; and
 * each a CP_TEXT of the chart (d), for the text below it.
 */
static void change_marks(const struct bs_trend *tr,
			 const struct bs_trend_metric *tm,
			 const struct bs_trend_line *l, const double *xs,
			 const struct bs_frame *frame, const struct bs_axis *ay,
			 struct bs_tdict *line, struct bs_tdict *d)
{
	const struct bs_trend_series *x = &tr->series[l->series];
	const struct bs_changes *c = tr->changes ? tr->changes[l->group] : NULL;
	int m = tm->m;
	size_t i, k;

	if (c == NULL || BS_RM_KIND(m) != BS_MK_RATE || l->n == 0)
		return;
	for (i = bs_changes_next(c, 0, x->machine, x->key, BS_RM_TEST(m));
	     i < c->n;
	     i = bs_changes_next(c, i + 1, x->machine, x->key, BS_RM_TEST(m))) {
		const struct bs_changes_item *it = &c->item[i];
		struct bs_tdict *cp = bs_tdict_add(line, "CP");
		struct bs_tdict *t;

		for (k = l->n - 1; k > 0 && l->pt[k].start > it->measured_at;
		     k--)
			;
		bs_changes_mark(it, cp);
		fmt1(cp, "X", xs[k]);
		fmt1(cp, "Y",
		     bs_frame_y(frame, ay,
				bs_rscale(tr->rep, m, l->pt[k].median)));
		fmt1(cp, "Y_TOP", frame->top);
		fmt1(cp, "Y_BOT", frame->h - frame->bottom);
		t = bs_tdict_add(d, "CP_TEXT");
		bs_changes_mark(it, t);
		bs_tdict_set(t, "LINE_LABEL", x->label);
		bs_tdict_show(d, "HAS_CP");
	}
}

/* The chart of metric tm: CAPTION, the frame, ticks and titles, and in
 * each LINE its path D and its POINTs' marks. */
static void chart(const struct bs_trend *tr, const struct bs_trend_metric *tm,
		  struct bs_tdict *d, struct bs_tdict *const *lines)
{
	const struct bs_report *rep = tr->rep;
	size_t ng = tm->nline, g, k;
	struct bs_axis ax, ay;
	struct bs_frame frame;
	struct bs_buf b = BS_BUF_INIT;
	char s[96], lo[32], hi[32];
	int m = tm->m, better = bs_rm_better(m);

	time_axis(tr, tm, &ax);
	bs_axis_make(&ay, 0, bs_rscale(rep, m, tm->ymax), TR_YTICKS);
	y_frame(&ay, &frame);
	bs_frame_fill(&frame, d);
	bs_frame_time_ticks(&frame, &ax, TR_XTICKS, d);
	bs_frame_ticks_h(&frame, &ay, 1, d);
	bs_tdict_set(d, "Y_TITLE", bs_report_unit(rep, m));
	bs_trend_period_label(BS_EVERY_DAY, tm->tmin, lo, sizeof(lo));
	bs_trend_period_label(BS_EVERY_DAY, tm->tmax, hi, sizeof(hi));
	if (strcmp(lo, hi) == 0)
		bs_buf_addf(&b, "measured %s (UTC)", lo);
	else
		bs_buf_addf(&b, "measured %s to %s (UTC)", lo, hi);
	bs_tdict_set(d, "X_TITLE", bs_buf_str(&b));
	bs_buf_reset(&b);
	bs_buf_addf(&b, "%s in %s, the median %s", bs_rm_label(m, s, sizeof(s)),
		    bs_report_unit(rep, m), bs_trend_every_text(tr->every));
	if (better)
		bs_buf_addf(&b, " (%s is better)", better_word(m));
	bs_tdict_set(d, "CAPTION", bs_buf_str(&b));
	for (g = 0; g < ng; g++) {
		const struct bs_trend_line *l = &tm->line[g];
		double dx = ((double)g - (double)(ng - 1) / 2) * TR_SPREAD;
		double *xs;
		struct bs_path w;
		if (l->n == 0 || lines[g] == NULL)
			continue;
		xs = xcalloc(l->n, sizeof(*xs));
		bs_buf_reset(&b);
		bs_path_init(&w, &b, &frame);
		for (k = 0; k < l->n; k++) {
			const struct bs_trend_point *p = &l->pt[k];
			double x = bs_frame_x(&frame, &ax, (double)p->start) +
				   dx;
			xs[k] = x;
			bs_path_point(&w, x,
				      bs_frame_y(&frame, &ay,
						 bs_rscale(rep, m, p->median)));
			point_marks(tr, m, l, p, x, &frame, &ay,
				    bs_tdict_add(lines[g], "MARK"));
		}
		bs_path_end(&w);
		bs_tdict_set(lines[g], "D", bs_buf_str(&b));
		change_marks(tr, tm, l, xs, &frame, &ay, lines[g], d);
		free(xs);
	}
	bs_buf_release(&b);
}

/* ---- text: a table per metric and group ------------------------------ */

static const char *const text_head[] = {
	"period", "n", "median", "mean", "sd", "min", "max", "change",
};
#define TEXT_NCOL (sizeof(text_head) / sizeof(text_head[0]))

static void text_table(const struct bs_trend *tr,
		       const struct bs_trend_metric *tm, size_t g,
		       struct bs_tdict *d)
{
	const struct bs_report *rep = tr->rep;
	const struct bs_trend_line *l = &tm->line[g];
	struct bs_tdict *table = bs_tdict_add(d, "TABLE");
	struct bs_buf b = BS_BUF_INIT, clean = BS_BUF_INIT;
	size_t w[TEXT_NCOL], r, k, nrows = l->n + 1;
	char **cell = xcalloc(nrows * TEXT_NCOL, sizeof(*cell));
	char s[96], p1[32], p2[32];
	int m = tm->m, better = bs_rm_better(m);

	for (r = 0; r < nrows; r++) {
		const struct bs_trend_point *p = r ? &l->pt[r - 1] : NULL;
		for (k = 0; k < TEXT_NCOL; k++) {
			bs_buf_reset(&b);
			if (p == NULL)
				bs_buf_adds(&b, text_head[k]);
			else if (k == 0)
				bs_buf_adds(&b,
					    bs_trend_period_label(tr->every,
								  p->start, s,
								  sizeof(s)));
			else if (k == 1)
				bs_buf_addf(&b, "%lld", (long long)p->n);
			else if (k < 7)
				bs_buf_adds(&b, num(rep, m,
						    k == 2   ? p->median
						    : k == 3 ? p->mean
						    : k == 4 ? p->sd
						    : k == 5 ? p->min
							     : p->max,
						    0, s, sizeof(s)));
			else if (r > 1)
				bs_buf_adds(&b,
					    bs_rfmt_pct(change(p->median,
							       l->pt[0].median),
							s, sizeof(s)));
			cell[r * TEXT_NCOL + k] = bs_buf_detach(&b, NULL);
		}
	}
	for (k = 0; k < TEXT_NCOL; k++) {
		w[k] = 0;
		for (r = 0; r < nrows; r++)
			if (bs_rwidth(cell[r * TEXT_NCOL + k]) > w[k])
				w[k] = bs_rwidth(cell[r * TEXT_NCOL + k]);
	}
	bs_buf_addf(&b, "%s, %s", tm->title, bs_report_unit(rep, m));
	if (better)
		bs_buf_addf(&b, " (%s is better)", better_word(m));
	bs_buf_addf(&b, ": %s", tr->series[l->series].label);
	bs_text_clean(&clean, bs_buf_str(&b), b.len, 0);
	bs_buf_reset(&b);
	bs_rtext_line(table, &clean);
	bs_buf_addf(&b, "%lld run%s, %zu point%s, %s", (long long)l->runs,
		    l->runs == 1 ? "" : "s", l->n, l->n == 1 ? "" : "s",
		    bs_trend_period_label(tr->every, l->pt[0].start, p1,
					  sizeof(p1)));
	if (l->n > 1)
		bs_buf_addf(&b, " to %s",
			    bs_trend_period_label(tr->every,
						  l->pt[l->n - 1].start, p2,
						  sizeof(p2)));
	bs_rtext_line(table, &b);
	for (r = 0; r < nrows; r++) {
		bs_buf_adds(&b, "  ");
		for (k = 0; k < TEXT_NCOL; k++) {
			if (k)
				bs_buf_adds(&b, "  ");
			bs_rtext_pad(&b, cell[r * TEXT_NCOL + k], w[k], k != 0);
		}
		bs_rtext_line(table, &b);
	}
	for (r = 0; r < nrows * TEXT_NCOL; r++)
		free(cell[r]);
	free(cell);
	bs_buf_release(&b);
	bs_buf_release(&clean);
}

/* ---- the model, for every format ------------------------------------ */

/* KEY: date t in ISO 8601, or "" when BS_NONE; J_KEY the same in JSON
 * (the ISO form needs no escaping), or null. */
static void date_value(struct bs_tdict *d, const char *key, int64_t t)
{
	char s[64], jkey[32];

	snprintf(jkey, sizeof(jkey), "J_%s", key);
	if (t == BS_NONE) {
		bs_tdict_set(d, key, "");
		bs_tdict_set(d, jkey, "null");
		return;
	}
	bs_tdict_set(d, key, bs_time_iso(s, sizeof(s), t));
	bs_tdict_setf(d, jkey, "\"%s\"", s);
}

static void fill(const struct bs_trend *tr, enum bs_report_format fmt,
		 struct bs_tdict *d)
{
	const struct bs_report *rep = tr->rep;
	size_t ng = rep->ngroups, g, i, k;
	struct bs_tdict **lines = xcalloc(tr->nseries + 1, sizeof(*lines));
	int html = fmt == BS_REPORT_HTML;

	bs_tdict_set(d, "TITLE", tr->title);
	bs_tdict_set(d, "CHART_SVG", "trend"); /* templates/chart_style.html */
	bs_tdict_set(d, "EVERY", bs_trend_every_name(tr->every));
	bs_tdict_set(d, "EVERY_TEXT", bs_trend_every_text(tr->every));
	bs_tdict_set(d, "J_AUTO", tr->auto_every ? "true" : "false");
	if (tr->auto_every)
		bs_tdict_show(d, "AUTO");
	bs_tdict_set_i64(d, "AUTO_POINTS", BS_TREND_AUTO_POINTS);
	bs_tdict_set_i64(d, "NGROUPS", (int64_t)ng);
	bs_tdict_set(d, "GROUPS_WORD", ng == 1 ? "selector" : "selectors");
	bs_tdict_set_i64(d, "NRUNS", rep->nruns);
	bs_tdict_set(d, "RUNS_WORD", rep->nruns == 1 ? "run" : "runs");
	bs_tdict_set(d, "IO_UNIT", bs_metric_unit(BS_M_PUT_BLOCK, rep->show));
	date_value(d, "SINCE", tr->since);
	date_value(d, "UNTIL", tr->until);
	if (tr->nnotes)
		bs_tdict_show(d, "NOTES");
	for (i = 0; i < tr->nnotes; i++) {
		bs_tdict_set(bs_tdict_add(d, "NOTE"), "TEXT", tr->notes[i]);
		if (fmt == BS_REPORT_TEXT)
			bs_rtext_wrap(bs_tdict_add(d, "WRAPPED_NOTE"),
				      tr->notes[i], 76);
	}
	for (g = 0; g < ng; g++) {
		struct bs_tdict *x = bs_tdict_add(d, "GROUP");
		group_names(tr, g, x);
		bs_tdict_set_i64(x, "INDEX", (int64_t)g + 1);
		bs_tdict_set(x, "LABEL", rep->groups[g].label);
		bs_tdict_set_i64(x, "RUNS", rep->groups[g].nruns);
		bs_tdict_set_i64(x, "UNDATED", tr->undated[g]);
		bs_tdict_set_i64(x, "OUTSIDE", tr->outside[g]);
	}
	for (i = 0; i < tr->nmetric; i++) {
		const struct bs_trend_metric *tm = &tr->metric[i];
		struct bs_tdict *x = bs_tdict_add(d, "METRIC");
		int m = tm->m;
		metric_names(tr, tm, x);
		for (g = 0; g < tm->nline; g++) {
			const struct bs_trend_line *l = &tm->line[g];
			lines[g] = bs_tdict_add(x, "LINE");
			line_names(tr, l, lines[g]);
			line_summary(tr, m, l, html, lines[g]);
			for (k = 0; k < l->n; k++) {
				const struct bs_trend_point *p = &l->pt[k];
				double pct =
					k ? change(p->median, l->pt[0].median)
					  : NAN;
				struct bs_tdict *pd =
					bs_tdict_add(lines[g], "POINT");
				point_when(tr, p, pd);
				point_numbers(rep, m, p, pct, html, pd);
				if (fmt != BS_REPORT_CSV &&
				    fmt != BS_REPORT_JSON)
					continue;
				/* The flat rows of CSV and JSON. */
				pd = bs_tdict_add(d, "ROW");
				metric_names(tr, tm, pd);
				line_names(tr, l, pd);
				point_when(tr, p, pd);
				point_numbers(rep, m, p, pct, 0, pd);
			}
			if (fmt == BS_REPORT_TEXT)
				text_table(tr, tm, g, d);
		}
		if (fmt == BS_REPORT_HTML)
			chart(tr, tm, x, lines);
	}
	free(lines);
}

int bs_trend_render(const struct bs_trend *tr, const struct bs_tmpl_set *ts,
		    enum bs_report_format fmt, FILE *out, struct bs_err *err)
{
	struct bs_tdict *d = NULL;
	int rc;

	assert((size_t)fmt < sizeof(tmpl_names) / sizeof(tmpl_names[0]));
	rc = bs_tdict_new(&d, err);
	if (rc < 0)
		return rc;
	fill(tr, fmt, d);
	rc = bs_tmpl_expand_file(ts, tmpl_names[fmt], d, out, err);
	bs_tdict_free(d);
	return rc;
}
