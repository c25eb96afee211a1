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

#include "core/zcav.h"
#include "report/chart.h"
#include "report/internal.h"
#include "store/store.h"
#include "report/tmpl/tmpl.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* Chart geometry, in SVG user units: the plot inside the margins. */
#define CV_W 600
#define CV_H 330
#define CV_LEFT 64
#define CV_RIGHT 28 /* room for half the last x label */
#define CV_TOP 28
#define CV_BOTTOM 58 /* x labels and title, at a phone's font too */
#define CV_XTICKS 6  /* about this many ticks */
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
	bs_tdict_set(d, "CHART_SVG", "curve"); /* templates/chart_style.html */
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
		bs_tdict_set(x, "KEY",
			     bs_report_metric_key(m, key, sizeof(key)));
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

static const struct bs_frame frame = {
	CV_W, CV_H, CV_LEFT, CV_RIGHT, CV_TOP, CV_BOTTOM,
};

/* Curves whose means differ this much or more share a log axis, so that
 * a 12 MiB/s curve does not lie flat beside a 1.3 GB/s one. */
#define CV_LOG_RATIO 10.0

/* A y value on the axis: log10 of the rate on a log axis (no point for
 * 0 or less), else the rate. */
static double axis_y(double y, int logy)
{
	if (!logy)
		return y;
	return y > 0 ? log10(y) : NAN;
}

static void curve_path(const struct bs_report_curve *c,
		       const struct bs_axis *ax, const struct bs_axis *ay,
		       int logy, struct bs_buf *b)
{
	struct bs_path w;
	size_t i;

	bs_path_init(&w, b, &frame);
	for (i = 0; i < c->n; i++) {
		const struct bs_point *p = &c->pt[i];
		double y = isfinite(p->y) ? axis_y(p->y, logy) : NAN;

		if (!isfinite(p->x))
			continue;
		bs_path_point(&w, bs_frame_x(&frame, ax, p->x),
			      isfinite(y) ? bs_frame_y(&frame, ay, y) : NAN);
	}
	bs_path_end(&w);
}

/* BS_REPORT_CURVE_AXIS, for people: what the position is a position in
 * (bs_zcav_axis), in GiB. */
static const char *axis_title(const struct bs_report_curve *const *cs, size_t n,
			      char *out, size_t outsz)
{
	int dev = 0, file = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		dev += cs[i]->on_device == BS_ZCAV_DEVICE;
		file += cs[i]->on_device == BS_ZCAV_FILE;
	}
	snprintf(out, outsz, "%s, GiB", bs_zcav_axis(dev, file));
	return out;
}

/*
 * The chart of curves cs[0..n) of catalogue row t into ch: axes (a log
 * rate axis when the curves' means differ CV_LOG_RATIO-fold or more),
 * titles and a LINE per curve with its path (D, DRAWN). The caller adds
 * each LINE's other variables. Returns 1 when the rate axis is a log
 * axis.
 */
static int chart(const struct bs_report_curve *const *cs, size_t n,
		 const char *unit, struct bs_tdict *ch, struct bs_tdict **lines)
{
	struct bs_buf b = BS_BUF_INIT;
	struct bs_axis ax, ay;
	double xmin = INFINITY, xmax = -INFINITY, ymin = 0, ymax = 0;
	double mlo = INFINITY, mhi = 0, pmin = INFINITY;
	char title[96];
	size_t i, k;
	int logy;

	for (i = 0; i < n; i++) {
		const struct bs_report_curve *c = cs[i];
		for (k = 0; k < c->n; k++) {
			if (!isfinite(c->pt[k].x))
				continue;
			if (c->pt[k].x < xmin)
				xmin = c->pt[k].x;
			if (c->pt[k].x > xmax)
				xmax = c->pt[k].x;
			if (isfinite(c->pt[k].y) && c->pt[k].y > 0 &&
			    c->pt[k].y < pmin)
				pmin = c->pt[k].y;
		}
		if (c->ok && c->max > ymax)
			ymax = c->max;
		if (c->ok && c->min < ymin)
			ymin = c->min;
		if (c->ok && c->mean > 0 && c->mean < mlo)
			mlo = c->mean;
		if (c->ok && c->mean > mhi)
			mhi = c->mean;
	}
	if (!isfinite(xmin))
		xmin = xmax = 0;
	/* Positions from 0 unless the runs started far in; rates from 0
	 * (or below, should a rate ever be negative). */
	if (xmin > 0 && xmin < (xmax - xmin) / 2)
		xmin = 0;
	bs_axis_make(&ax, xmin, xmax, CV_XTICKS);
	logy = isfinite(mlo) && mhi / mlo >= CV_LOG_RATIO && ymin >= 0 &&
	       isfinite(pmin);
	if (logy) {
		bs_axis_decades(&ay, pmin, ymax);
	} else {
		bs_axis_make(&ay, ymin, ymax, CV_YTICKS);
	}
	bs_frame_fill(&frame, ch);
	bs_tdict_set(ch, "X_TITLE", axis_title(cs, n, title, sizeof(title)));
	if (logy)
		bs_tdict_setf(ch, "Y_TITLE", "%s (log scale)", unit);
	else
		bs_tdict_set(ch, "Y_TITLE", unit);
	bs_tdict_set(ch, "UNIT", unit);
	bs_frame_ticks(&frame, &ax, 0, ch);
	if (logy)
		bs_frame_log_ticks(&frame, &ay, ch);
	else
		bs_frame_ticks(&frame, &ay, 1, ch);
	for (i = 0; i < n; i++) {
		lines[i] = bs_tdict_add(ch, "LINE");
		bs_buf_reset(&b);
		curve_path(cs[i], &ax, &ay, logy, &b);
		bs_tdict_set(lines[i], "D", bs_buf_str(&b));
		/* Every block too fast: nothing to draw, a row of the legend. */
		if (b.len)
			bs_tdict_show(lines[i], "DRAWN");
	}
	bs_buf_release(&b);
	return logy;
}

int bs_rcurves_html(const struct bs_report *rep, int t, int first,
		    struct bs_tdict *sec)
{
	const struct bs_report_curve **cs;
	struct bs_tdict *ch, **lines;
	char label[96];
	size_t i, n = 0;
	int m = BS_RM(t, BS_MK_RATE), logy;

	if (!has_curves(rep, t))
		return 0;
	cs = xcalloc(rep->ncurves, sizeof(*cs));
	lines = xcalloc(rep->ncurves, sizeof(*lines));
	for (i = 0; i < rep->ncurves; i++)
		if (rep->curves[i].test == t)
			cs[n++] = &rep->curves[i];
	ch = bs_tdict_add(sec, "CURVES");
	logy = chart(cs, n, bs_report_unit(rep, m), ch, lines);
	bs_tdict_setf(ch, "CAPTION", "%s, %s by position: one line per run%s",
		      bs_rm_label(m, label, sizeof(label)),
		      bs_report_unit(rep, m),
		      logy ? "; a log scale, as the curves differ tenfold or "
			     "more"
			   : "");
	if (first && rep->curves_note)
		bs_tdict_set(bs_tdict_add(ch, "CHART_NOTE"), "TEXT",
			     rep->curves_note);
	for (i = 0; i < n; i++) {
		curve_summary(rep, cs[i], lines[i]);
		bs_tdict_set(lines[i], "COLOUR", bs_chart_colour(cs[i]->group));
		bs_tdict_set(lines[i], "DASH", bs_chart_dash(cs[i]->group));
	}
	free(cs);
	free(lines);
	return 1;
}

int bs_report_run_curve(const struct bs_run *r, int t, struct bs_tdict *d)
{
	static const char *const names[] = {"FIRST", "LAST", "MIN", "MEAN",
					    "MAX"};
	const struct bs_series *s = NULL;
	struct bs_report_curve c;
	const struct bs_report_curve *cs = &c;
	struct bs_tdict *line;
	char num[64];
	size_t i;

	for (i = 0; i < r->nseries; i++)
		if (r->series[i].metric == t && r->series[i].n > 0 &&
		    r->series[i].axis &&
		    strcmp(r->series[i].axis, BS_REPORT_CURVE_AXIS) == 0)
			s = &r->series[i];
	if (s == NULL)
		return 0;
	memset(&c, 0, sizeof(c));
	c.test = t;
	c.id = r->id;
	c.machine = r->machine;
	c.pt = s->pt; /* borrowed: c is not freed */
	c.n = s->n;
	c.on_device = bs_zcav_on_device(r);
	bs_rcurve_summarise(&c);
	chart(&cs, 1, bs_metric_unit(t, 0), d, &line);
	bs_tdict_setf(d, "CAPTION", "%s, %s by position", bs_metrics[t].label,
		      bs_metric_unit(t, 0));
	{
		const double v[] = {c.first, c.last, c.min, c.mean, c.max};

		for (i = 0; i < 5; i++)
			bs_tdict_set(line, names[i],
				     c.ok ? bs_metric_fmt(num, sizeof(num), t,
							  v[i], BS_SHOW_GROUP)
					  : "too fast");
	}
	bs_tdict_set(line, "COLOUR", bs_chart_colour(0));
	bs_tdict_set(line, "DASH", bs_chart_dash(0));
	bs_tdict_set_i64(line, "RUN", r->id);
	bs_tdict_set(line, "MACHINE", bs_store_machine_name(r->machine));
	bs_tdict_set_i64(line, "POINTS", (int64_t)c.n);
	bs_tdict_set_i64(line, "TOO_FAST", (int64_t)(c.n - c.ok));
	return 1;
}

int bs_rcurves_run_html(const struct bs_run *r, struct bs_tdict *d)
{
	size_t i;
	int n = 0;

	for (i = 0; i < r->nseries; i++) {
		const struct bs_series *s = &r->series[i];

		if (s->n == 0 || s->axis == NULL ||
		    strcmp(s->axis, BS_REPORT_CURVE_AXIS) != 0)
			continue;
		n += bs_report_run_curve(r, s->metric,
					 bs_tdict_add(d, "CURVES"));
	}
	return n;
}
