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

#include "report/chart.h"
#include "report/internal.h"
#include "report/tmpl.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/banned.h"

/* Chart geometry, in SVG user units: the plot inside the margins. */
#define CV_W 600
#define CV_H 330
#define CV_LEFT 64
#define CV_RIGHT 28 /* room for half the last x label */
#define CV_TOP 28
#define CV_BOTTOM 58 /* x labels and title, at a phone's font too */
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

static const struct bs_frame frame = {
	CV_W, CV_H, CV_LEFT, CV_RIGHT, CV_TOP, CV_BOTTOM,
};

static void curve_path(const struct bs_report_curve *c,
		       const struct bs_axis *ax, const struct bs_axis *ay,
		       struct bs_buf *b)
{
	struct bs_path w;
	size_t i;

	bs_path_init(&w, b, &frame);
	for (i = 0; i < c->n; i++) {
		const struct bs_point *p = &c->pt[i];
		if (!isfinite(p->x))
			continue;
		bs_path_point(&w, bs_frame_x(&frame, ax, p->x),
			      isfinite(p->y) ? bs_frame_y(&frame, ay, p->y)
					     : NAN);
	}
	bs_path_end(&w);
}

static const char *axis_title(const struct bs_report *rep)
{
	/* BS_REPORT_CURVE_AXIS, for people. */
	return rep->curve_x_title ? rep->curve_x_title
				  : "position on the disk, GiB";
}

int bs_rcurves_html(const struct bs_report *rep, int t, int first,
		    struct bs_tdict *sec)
{
	struct bs_buf b = BS_BUF_INIT;
	struct bs_tdict *ch;
	struct bs_axis ax, ay;
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
	bs_axis_make(&ax, xmin, xmax, CV_XTICKS);
	bs_axis_make(&ay, ymin, ymax, CV_YTICKS);

	ch = bs_tdict_add(sec, "CURVES");
	bs_tdict_setf(ch, "CAPTION", "%s, %s by position: one line per run",
		      bs_rm_label(m, label, sizeof(label)),
		      bs_report_unit(rep, m));
	bs_frame_fill(&frame, ch);
	bs_tdict_set(ch, "X_TITLE", axis_title(rep));
	bs_tdict_set(ch, "Y_TITLE", bs_report_unit(rep, m));
	bs_tdict_set(ch, "UNIT", bs_report_unit(rep, m));
	bs_frame_ticks(&frame, &ax, 0, ch);
	bs_frame_ticks(&frame, &ay, 1, ch);
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
		bs_tdict_set(l, "COLOUR", bs_chart_colour(c->group));
		bs_tdict_set(l, "DASH", bs_chart_dash(c->group));
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

int bs_rcurves_run_html(const struct bs_run *r, const char *x_title,
			struct bs_tdict *d)
{
	struct bs_report rep;
	struct bs_report_group grp;
	char label[32];
	size_t i;
	int t, n = 0;

	/* A report of one group, the run, that keeps its curves. */
	memset(&rep, 0, sizeof(rep));
	memset(&grp, 0, sizeof(grp));
	snprintf(label, sizeof(label), "run %lld", (long long)r->id);
	grp.label = label;
	rep.groups = &grp;
	rep.ngroups = 1;
	rep.curve_x_title = x_title;
	bs_rcurves_add(&rep, 0, r, 0);
	for (i = 0; i < rep.ncurves; i++)
		rep.shown[BS_RM(rep.curves[i].test, BS_MK_RATE)] = 1;
	for (t = 0; t < bs_nmetrics; t++)
		n += bs_rcurves_html(&rep, t, n == 0, d);
	bs_rcurves_free(&rep);
	return n;
}
