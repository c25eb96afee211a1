/*
 * report/render_curves.c - the curves a report keeps (zcav's throughput
 * by position), as template dictionaries: their points and summaries for
 * every format (CURVE_METRIC), and for the HTML page an SVG line chart
 * per metric inside its section (CURVES): one path per run, a colour and
 * a dash pattern per group (told apart without colour too), axes with
 * ticks and units, and a table that is the chart's legend.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "report/tmpl.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/banned.h"

/*
 * A group's line: Okabe and Ito's colours, which people with any common
 * colour vision deficiency tell apart (their yellow is too pale on white
 * and left out), and a dash pattern each, so that lines differ without
 * colour too. Seven colours and five patterns: 35 groups before a style
 * repeats.
 */
static const char *const line_colour[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7",
	"#e69f00", "#56b4e9", "#000000",
};
static const char *const line_dash[] = {
	"none", "9 4", "2 3", "12 4 3 4", "5 2",
};
#define NCOLOURS (sizeof(line_colour) / sizeof(line_colour[0]))
#define NDASHES (sizeof(line_dash) / sizeof(line_dash[0]))

/* Chart geometry, in SVG user units: the plot inside the margins. */
#define CV_W 600
#define CV_H 330
#define CV_LEFT 64
#define CV_RIGHT 28 /* room for half the last x label */
#define CV_TOP 28
#define CV_BOTTOM 58 /* x labels and title, at a phone's font too */
#define CV_PW (CV_W - CV_LEFT - CV_RIGHT)
#define CV_PH (CV_H - CV_TOP - CV_BOTTOM)
#define CV_XTICKS 6 /* about this many ticks */
#define CV_YTICKS 5

static int has_curves(const struct bs_report *rep, int t)
{
	size_t i;

	if (!rep->shown[BS_RM(t, BS_MK_RATE)])
		return 0;
	for (i = 0; i < rep->ncurves; i++)
		if (rep->curves[i].test == t)
			return 1;
	return 0;
}

/* The summary numbers of a curve, as the templates name them. */
static void curve_summary(const struct bs_report *rep,
			  const struct bs_report_curve *c, struct bs_tdict *d)
{
	static const char *const names[] = {"FIRST", "LAST", "MIN", "MEAN",
					    "MAX"};
	const double v[] = {c->first, c->last, c->min, c->mean, c->max};
	char s[64], key[16];
	size_t k;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		/* No number: every block was too fast to time. */
		bs_tdict_set(d, names[k],
			     c->ok ? bs_rfmt(rep, BS_RM(c->test, BS_MK_RATE),
					     v[k], s, sizeof(s))
				   : "too fast");
		bs_rfmt_raw(v[k], s, sizeof(s));
		snprintf(key, sizeof(key), "R_%s", names[k]);
		bs_tdict_set(d, key, s);
		snprintf(key, sizeof(key), "J_%s", names[k]);
		bs_tdict_set(d, key, s[0] ? s : "null");
	}
	bs_tdict_set_i64(d, "RUN", c->id);
	bs_tdict_set_i64(d, "GROUP", (int64_t)c->group + 1);
	bs_tdict_set(d, "GROUP_LABEL", rep->groups[c->group].label);
	bs_tdict_set(d, "MACHINE", c->machine);
	bs_tdict_set_i64(d, "POINTS", (int64_t)c->n);
	bs_tdict_set_i64(d, "TOO_FAST", (int64_t)(c->n - c->ok));
}

static void curve_points(const struct bs_report_curve *c, struct bs_tdict *d)
{
	char s[64];
	size_t i;

	for (i = 0; i < c->n; i++) {
		struct bs_tdict *p = bs_tdict_add(d, "POINT");
		bs_tdict_set(p, "X", bs_rfmt_raw(c->pt[i].x, s, sizeof(s)));
		bs_rfmt_raw(c->pt[i].y, s, sizeof(s));
		bs_tdict_set(p, "Y", s);
		bs_tdict_set(p, "J_Y", s[0] ? s : "null");
		bs_rfmt_raw(c->pt[i].seconds, s, sizeof(s));
		bs_tdict_set(p, "S", s);
		bs_tdict_set(p, "J_S", s[0] ? s : "null");
	}
}

void bs_rcurves_fill(const struct bs_report *rep, struct bs_tdict *d,
		     int points)
{
	char key[32], label[96];
	size_t i;
	int t;

	if (rep->ncurves == 0)
		return;
	bs_tdict_show(d, "HAS_CURVES");
	bs_tdict_set(d, "J_CURVES_NOTE", rep->curves_note ? "" : "null");
	if (rep->curves_note)
		bs_tdict_set(bs_tdict_add(d, "CURVES_NOTE"), "TEXT",
			     rep->curves_note);
	for (t = 0; t < bs_nmetrics; t++) {
		struct bs_tdict *x;
		int m = BS_RM(t, BS_MK_RATE);
		if (!has_curves(rep, t))
			continue;
		x = bs_tdict_add(d, "CURVE_METRIC");
		bs_tdict_set(x, "KEY", bs_report_metric_key(m, key, sizeof(key)));
		bs_tdict_set(x, "LABEL", bs_rm_label(m, label, sizeof(label)));
		bs_tdict_set(x, "UNIT", bs_report_unit(rep, m));
		bs_tdict_set(x, "AXIS", BS_REPORT_CURVE_AXIS);
		bs_tdict_set(x, "FAMILY", bs_family_name(bs_metrics[t].family));
		for (i = 0; i < rep->ncurves; i++) {
			struct bs_tdict *c;
			if (rep->curves[i].test != t)
				continue;
			c = bs_tdict_add(x, "CURVE");
			curve_summary(rep, &rep->curves[i], c);
			if (points)
				curve_points(&rep->curves[i], c);
		}
	}
}

/* ---- HTML: the chart ------------------------------------------------ */

/* A step of 1, 2, 2.5 or 5 times a power of ten that cuts range into
 * about n pieces. */
static double nice_step(double range, int n)
{
	double raw = range / n, mag = pow(10, floor(log10(raw))), f = raw / mag;

	if (f <= 1)
		f = 1;
	else if (f <= 2)
		f = 2;
	else if (f <= 2.5)
		f = 2.5;
	else if (f <= 5)
		f = 5;
	else
		f = 10;
	return f * mag;
}

/* Decimals that print every multiple of step exactly: 0.25 -> 2. */
static int step_decimals(double step)
{
	int d;

	for (d = 0; d < 6; d++) {
		double s = step * pow(10, d);
		if (fabs(s - floor(s + 0.5)) < 1e-6 * s)
			break;
	}
	return d;
}

struct axis {
	double lo, hi, step;
	int decimals;
};

/* An axis from lo to hi (lo on a tick at or below min, hi at or above
 * max), in ticks of a nice step. */
static void axis_make(struct axis *a, double min, double max, int n)
{
	if (!(max > min))
		max = min + 1;
	a->step = nice_step(max - min, n);
	a->lo = floor(min / a->step) * a->step;
	a->hi = ceil(max / a->step) * a->step;
	if (a->hi <= a->lo)
		a->hi = a->lo + a->step;
	/* Numbers no disk gives (a range past the doubles, a step lost in
	 * rounding): an axis of 0 to 1 rather than no end of ticks. */
	if (!isfinite(a->hi - a->lo) || !(a->step > 0) ||
	    (a->hi - a->lo) / a->step > 4.0 * n) {
		a->lo = 0;
		a->hi = a->step = 1;
	}
	a->decimals = step_decimals(a->step);
}

/* Within a plot's size of the plot, whatever the number. */
static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static double px(const struct axis *a, double x)
{
	return clamp(CV_LEFT + (x - a->lo) / (a->hi - a->lo) * CV_PW,
		     CV_LEFT - CV_PW, CV_LEFT + 2 * CV_PW);
}

static double py(const struct axis *a, double y)
{
	return clamp(CV_TOP + CV_PH - (y - a->lo) / (a->hi - a->lo) * CV_PH,
		     CV_TOP - CV_PH, CV_TOP + 2 * CV_PH);
}

static void axis_ticks(const struct axis *a, int vertical,
		       struct bs_tdict *d)
{
	char s[64];
	double v;
	int k, n = (int)floor((a->hi - a->lo) / a->step + 0.5);

	for (k = 0; k <= n; k++) {
		struct bs_tdict *t = bs_tdict_add(d, vertical ? "YTICK" : "XTICK");
		v = a->lo + k * a->step;
		bs_tdict_set(t, "LABEL", bs_fmt_double(s, sizeof(s), v,
						       a->decimals));
		bs_tdict_set(t, vertical ? "Y" : "X",
			     bs_fmt_double(s, sizeof(s),
					   vertical ? py(a, v) : px(a, v), 1));
	}
}

/*
 * The path of a curve: "M x y L x y ...", a new "M" after each block that
 * was too fast to time (a gap in the line). Points that fall within half
 * a unit of x of each other keep only their first, least, most and last,
 * so the path stays small whatever the number of points, and looks the
 * same.
 */
struct pathw {
	struct bs_buf *b;
	int pen;           /* a line is being drawn */
	double bin;        /* x bin of the points held */
	size_t n;          /* points held: first, low, high, last */
	double x[4], y[4]; /* in user units; low/high by index 1/2 */
	size_t ilow, ihigh;
	size_t piece;      /* points put since the last "M" */
	double lx, ly;     /* the last point put */
};

static void path_put(struct pathw *w, double x, double y)
{
	char sx[32], sy[32];

	bs_buf_addf(w->b, "%s%s %s", w->pen ? " L" : (w->b->len ? " M" : "M"),
		    bs_fmt_double(sx, sizeof(sx), x, 1),
		    bs_fmt_double(sy, sizeof(sy), y, 1));
	w->piece = w->pen ? w->piece + 1 : 1;
	w->pen = 1;
	w->lx = x;
	w->ly = y;
}

/*
 * Ends a piece of the line. A piece of one point (a timed block between
 * blocks too fast to time) would draw nothing: it becomes a short dash
 * from the block's position on, inside the plot.
 */
static void path_lift(struct pathw *w)
{
	double x = w->lx + 3;

	if (w->pen && w->piece == 1)
		path_put(w, x <= CV_LEFT + CV_PW ? x : w->lx - 3, w->ly);
	w->pen = 0;
}

static void path_flush(struct pathw *w)
{
	/* The held points in the order they came, each once. */
	size_t idx[4] = {0, w->ilow, w->ihigh, w->n - 1}, k, done = 0;

	if (w->n == 0)
		return;
	for (;;) {
		size_t best = 4;
		for (k = 0; k < 4; k++)
			if (idx[k] >= done && (best == 4 || idx[k] < idx[best]))
				best = k;
		if (best == 4)
			break;
		path_put(w, w->x[best], w->y[best]);
		done = idx[best] + 1;
	}
	w->n = 0;
}

/* Adds a point, in user units (NAN y: a gap). */
static void path_point(struct pathw *w, double x, double y)
{
	double bin = floor(x * 2);

	if (isnan(y)) {
		path_flush(w);
		path_lift(w);
		return;
	}
	if (w->n && bin != w->bin)
		path_flush(w);
	if (w->n == 0) {
		w->bin = bin;
		w->x[0] = w->x[1] = w->x[2] = w->x[3] = x;
		w->y[0] = w->y[1] = w->y[2] = w->y[3] = y;
		w->ilow = w->ihigh = 0;
		w->n = 1;
		return;
	}
	/* SVG's y grows downwards: the least rate is the largest y. */
	if (y > w->y[1]) {
		w->x[1] = x;
		w->y[1] = y;
		w->ilow = w->n;
	}
	if (y < w->y[2]) {
		w->x[2] = x;
		w->y[2] = y;
		w->ihigh = w->n;
	}
	w->x[3] = x;
	w->y[3] = y;
	w->n++;
}

static void curve_path(const struct bs_report_curve *c, const struct axis *ax,
		       const struct axis *ay, struct bs_buf *b)
{
	struct pathw w;
	size_t i;

	memset(&w, 0, sizeof(w));
	w.b = b;
	for (i = 0; i < c->n; i++) {
		const struct bs_point *p = &c->pt[i];
		if (!isfinite(p->x))
			continue;
		path_point(&w, px(ax, p->x),
			   isfinite(p->y) ? py(ay, p->y) : NAN);
	}
	path_flush(&w);
	path_lift(&w);
}

static const char *axis_title(void)
{
	/* BS_REPORT_CURVE_AXIS, for people. */
	return "position on the disk, GiB";
}

int bs_rcurves_html(const struct bs_report *rep, int t, int first,
		    struct bs_tdict *sec)
{
	struct bs_buf b = BS_BUF_INIT;
	struct bs_tdict *ch;
	struct axis ax, ay;
	double xmin = INFINITY, xmax = -INFINITY, ymin = 0, ymax = 0;
	char label[96];
	size_t i, k;
	int m = BS_RM(t, BS_MK_RATE);

	if (!has_curves(rep, t))
		return 0;
	for (i = 0; i < rep->ncurves; i++) {
		const struct bs_report_curve *c = &rep->curves[i];
		if (c->test != t)
			continue;
		for (k = 0; k < c->n; k++) {
			if (!isfinite(c->pt[k].x))
				continue;
			if (c->pt[k].x < xmin)
				xmin = c->pt[k].x;
			if (c->pt[k].x > xmax)
				xmax = c->pt[k].x;
		}
		if (c->ok && c->max > ymax)
			ymax = c->max;
		if (c->ok && c->min < ymin)
			ymin = c->min;
	}
	if (!isfinite(xmin))
		xmin = xmax = 0;
	/* Positions from 0 unless the runs started far in; rates from 0
	 * (or below, should a rate ever be negative). */
	if (xmin > 0 && xmin < (xmax - xmin) / 2)
		xmin = 0;
	axis_make(&ax, xmin, xmax, CV_XTICKS);
	axis_make(&ay, ymin, ymax, CV_YTICKS);

	ch = bs_tdict_add(sec, "CURVES");
	bs_tdict_setf(ch, "CAPTION", "%s, %s by position: one line per run",
		      bs_rm_label(m, label, sizeof(label)),
		      bs_report_unit(rep, m));
	bs_tdict_set_i64(ch, "W", CV_W);
	bs_tdict_set_i64(ch, "H", CV_H);
	bs_tdict_set_i64(ch, "PX", CV_LEFT);
	bs_tdict_set_i64(ch, "PY", CV_TOP);
	bs_tdict_set_i64(ch, "PW", CV_PW);
	bs_tdict_set_i64(ch, "PH", CV_PH);
	bs_tdict_set_i64(ch, "PX2", CV_LEFT + CV_PW);
	bs_tdict_set_i64(ch, "PY2", CV_TOP + CV_PH);
	bs_tdict_set_i64(ch, "XT_X", CV_LEFT + CV_PW / 2);
	bs_tdict_set(ch, "X_TITLE", axis_title());
	bs_tdict_set(ch, "Y_TITLE", bs_report_unit(rep, m));
	bs_tdict_set(ch, "UNIT", bs_report_unit(rep, m));
	axis_ticks(&ax, 0, ch);
	axis_ticks(&ay, 1, ch);
	if (first && rep->curves_note)
		bs_tdict_set(bs_tdict_add(ch, "CHART_NOTE"), "TEXT",
			     rep->curves_note);
	for (i = 0; i < rep->ncurves; i++) {
		const struct bs_report_curve *c = &rep->curves[i];
		struct bs_tdict *l;
		if (c->test != t)
			continue;
		l = bs_tdict_add(ch, "LINE");
		curve_summary(rep, c, l);
		bs_tdict_set(l, "COLOUR", line_colour[c->group % NCOLOURS]);
		bs_tdict_set(l, "DASH", line_dash[c->group % NDASHES]);
		bs_buf_reset(&b);
		curve_path(c, &ax, &ay, &b);
		bs_tdict_set(l, "D", bs_buf_str(&b));
		/* Every block too fast: nothing to draw, a row of the legend. */
		if (b.len)
			bs_tdict_show(l, "DRAWN");
	}
	bs_buf_release(&b);
	return 1;
}
