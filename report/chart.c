/*
 * report/chart.c - the parts every SVG chart of a report shares: line
 * styles, axes, the plot frame and the path writer, and the site's small
 * trend charts (report/chart.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report/chart.h"
#include "report/internal.h"
#include "report/trend.h"
#include "util/num.h"
#include "util/banned.h"

/* Okabe and Ito's colours (their yellow is too pale on white and left
 * out) and five dash patterns. */
static const char *const line_colour[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7",
	"#e69f00", "#56b4e9", "#000000",
};
static const char *const line_dash[] = {
	"none", "9 4", "2 3", "12 4 3 4", "5 2",
};
#define NCOLOURS (sizeof(line_colour) / sizeof(line_colour[0]))
#define NDASHES (sizeof(line_dash) / sizeof(line_dash[0]))

const char *bs_chart_colour(size_t group)
{
	return line_colour[group % NCOLOURS];
}

const char *bs_chart_dash(size_t group)
{
	return line_dash[group % NDASHES];
}

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

void bs_axis_decades(struct bs_axis *a, double lo, double hi)
{
	a->lo = floor(log10(lo));
	a->hi = ceil(log10(hi));
	if (a->hi <= a->lo)
		a->hi = a->lo + 1;
	a->step = 1;
	a->decimals = 0;
}

void bs_axis_make(struct bs_axis *a, double min, double max, int n)
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

double bs_frame_x(const struct bs_frame *f, const struct bs_axis *a, double v)
{
	double pw = f->w - f->left - f->right;

	return clamp(f->left + (v - a->lo) / (a->hi - a->lo) * pw, f->left - pw,
		     f->left + 2 * pw);
}

double bs_frame_y(const struct bs_frame *f, const struct bs_axis *a, double v)
{
	double ph = f->h - f->top - f->bottom;

	return clamp(f->top + ph - (v - a->lo) / (a->hi - a->lo) * ph,
		     f->top - ph, f->top + 2 * ph);
}

void bs_frame_fill(const struct bs_frame *f, struct bs_tdict *d)
{
	int pw = f->w - f->left - f->right, ph = f->h - f->top - f->bottom;

	bs_tdict_set_i64(d, "W", f->w);
	bs_tdict_set_i64(d, "H", f->h);
	bs_tdict_set_i64(d, "PX", f->left);
	bs_tdict_set_i64(d, "PY", f->top);
	bs_tdict_set_i64(d, "PW", pw);
	bs_tdict_set_i64(d, "PH", ph);
	bs_tdict_set_i64(d, "PX2", f->left + pw);
	bs_tdict_set_i64(d, "PY2", f->top + ph);
	bs_tdict_set_i64(d, "XT_X", f->left + pw / 2);
}

/* The ticks of a, labelled with thousands separators or without. */
static void ticks(const struct bs_frame *f, const struct bs_axis *a,
		  int vertical, int thousands, struct bs_tdict *d)
{
	char s[64], h[96];
	double v;
	int k, n = (int)floor((a->hi - a->lo) / a->step + 0.5);

	for (k = 0; k <= n; k++) {
		struct bs_tdict *t =
			bs_tdict_add(d, vertical ? "YTICK" : "XTICK");
		v = a->lo + k * a->step;
		bs_fmt_double(s, sizeof(s), v, a->decimals);
		bs_tdict_set(t, "LABEL",
			     thousands ? bs_rfmt_thousands(s, h, sizeof(h))
				       : s);
		bs_tdict_set(t, vertical ? "Y" : "X",
			     bs_fmt_double(s, sizeof(s),
					   vertical ? bs_frame_y(f, a, v)
						    : bs_frame_x(f, a, v),
					   1));
	}
}

void bs_frame_ticks(const struct bs_frame *f, const struct bs_axis *a,
		    int vertical, struct bs_tdict *d)
{
	ticks(f, a, vertical, 0, d);
}

void bs_frame_ticks_h(const struct bs_frame *f, const struct bs_axis *a,
		      int vertical, struct bs_tdict *d)
{
	ticks(f, a, vertical, 1, d);
}

void bs_path_init(struct bs_path *w, struct bs_buf *b, const struct bs_frame *f)
{
	memset(w, 0, sizeof(*w));
	w->b = b;
	w->xmax = f->w - f->right;
}

static void path_put(struct bs_path *w, double x, double y)
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

/* Ends a piece of the line; a piece of one point would draw nothing and
 * becomes a short dash from it. */
static void path_lift(struct bs_path *w)
{
	double x = w->lx + 3;

	if (w->pen && w->piece == 1)
		path_put(w, x <= w->xmax ? x : w->lx - 3, w->ly);
	w->pen = 0;
}

static void path_flush(struct bs_path *w)
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

void bs_path_point(struct bs_path *w, double x, double y)
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
	/* SVG's y grows downwards: the least value is the largest y. */
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

void bs_path_end(struct bs_path *w)
{
	path_flush(w);
	path_lift(w);
}

/* ---- time axes ------------------------------------------------------- */

/* How a tick is labelled. */
enum tick_form { TF_TIME, TF_DAY, TF_MONTH, TF_YEAR };

/* The steps of a time axis, smallest first, with their labels' form. */
static const struct time_step {
	enum bs_time_unit unit;
	int k;
	enum tick_form form;
} time_steps[] = {
	{BS_TU_HOUR, 1, TF_TIME},    {BS_TU_HOUR, 2, TF_TIME},
	{BS_TU_HOUR, 3, TF_TIME},    {BS_TU_HOUR, 6, TF_TIME},
	{BS_TU_HOUR, 12, TF_TIME},   {BS_TU_DAY, 1, TF_DAY},
	{BS_TU_DAY, 2, TF_DAY},      {BS_TU_WEEK, 1, TF_DAY},
	{BS_TU_WEEK, 2, TF_DAY},     {BS_TU_MONTH, 1, TF_MONTH},
	{BS_TU_MONTH, 2, TF_MONTH},  {BS_TU_MONTH, 3, TF_MONTH},
	{BS_TU_MONTH, 6, TF_MONTH},  {BS_TU_YEAR, 1, TF_YEAR},
	{BS_TU_YEAR, 2, TF_YEAR},    {BS_TU_YEAR, 5, TF_YEAR},
	{BS_TU_YEAR, 10, TF_YEAR},   {BS_TU_YEAR, 20, TF_YEAR},
	{BS_TU_YEAR, 50, TF_YEAR},   {BS_TU_YEAR, 100, TF_YEAR},
	{BS_TU_YEAR, 200, TF_YEAR},  {BS_TU_YEAR, 500, TF_YEAR},
	{BS_TU_YEAR, 1000, TF_YEAR}, {BS_TU_YEAR, 2000, TF_YEAR},
	{BS_TU_YEAR, 5000, TF_YEAR}, {BS_TU_YEAR, 10000, TF_YEAR},
};
#define NTIME_STEPS (sizeof(time_steps) / sizeof(time_steps[0]))

static void tick_label(char *out, size_t outsz, const struct tm *tm,
		       enum tick_form form)
{
	switch (form) {
	case TF_TIME:
		/* A day's first hour shows the day. */
		if (tm->tm_hour != 0) {
			strftime(out, outsz, "%H:%M", tm);
			return;
		}
		/* fall through */
	case TF_DAY:
		strftime(out, outsz, "%m-%d", tm);
		return;
	case TF_MONTH:
		strftime(out, outsz, "%Y-%m", tm);
		return;
	case TF_YEAR:
		strftime(out, outsz, "%Y", tm);
		return;
	}
}

/* The first tick of step s at or after lo. */
static int64_t first_tick(const struct time_step *s, int64_t lo)
{
	int64_t t = bs_time_floor(lo, s->unit, s->k);

	return t < lo ? bs_time_add(t, s->unit, s->k) : t;
}

size_t bs_time_ticks(int64_t lo, int64_t hi, size_t n, struct bs_time_tick *out)
{
	const struct time_step *s = &time_steps[NTIME_STEPS - 1];
	size_t i, cnt = 0;
	int64_t t;

	if (n == 0)
		return 0;
	for (i = 0; i < NTIME_STEPS; i++) {
		for (cnt = 0, t = first_tick(&time_steps[i], lo);
		     t <= hi && cnt <= n;
		     t = bs_time_add(t, time_steps[i].unit, time_steps[i].k))
			cnt++;
		if (cnt <= n) {
			s = &time_steps[i];
			break;
		}
	}
	for (cnt = 0, t = first_tick(s, lo); t <= hi && cnt < n;
	     t = bs_time_add(t, s->unit, s->k)) {
		struct tm tm;
		time_t tt = (time_t)t;

		out[cnt].t = t;
		if (gmtime_r(&tt, &tm) == NULL)
			snprintf(out[cnt].label, sizeof(out[cnt].label), "?");
		else
			tick_label(out[cnt].label, sizeof(out[cnt].label), &tm,
				   s->form);
		cnt++;
	}
	return cnt;
}

void bs_frame_time_ticks(const struct bs_frame *f, const struct bs_axis *a,
			 size_t n, struct bs_tdict *d)
{
	struct bs_time_tick tick[16];
	char s[32];
	size_t i, cnt;

	if (n > sizeof(tick) / sizeof(tick[0]))
		n = sizeof(tick) / sizeof(tick[0]);
	cnt = bs_time_ticks((int64_t)ceil(a->lo), (int64_t)floor(a->hi), n,
			    tick);
	for (i = 0; i < cnt; i++) {
		struct bs_tdict *t = bs_tdict_add(d, "XTICK");
		bs_tdict_set(t, "LABEL", tick[i].label);
		bs_tdict_set(t, "X",
			     bs_fmt_double(s, sizeof(s),
					   bs_frame_x(f, a, (double)tick[i].t),
					   1));
	}
}

void bs_spark_init(struct bs_spark *s, int64_t t0, int64_t t1, double vmax)
{
	static const struct bs_frame f = {480, 212, 64, 12, 24, 38};

	s->f = f;
	s->x.lo = (double)t0;
	s->x.hi = (double)t1;
	s->y.lo = 0;
	s->y.hi = vmax;
	s->x.step = s->y.step = 0;
	s->x.decimals = s->y.decimals = 0;
}

double bs_spark_x(const struct bs_spark *s, int64_t t)
{
	int pw = s->f.w - s->f.left - s->f.right;

	if (s->x.hi <= s->x.lo)
		return s->f.left + pw / 2.0;
	return bs_frame_x(&s->f, &s->x, (double)t);
}

double bs_spark_y(const struct bs_spark *s, double v)
{
	if (s->y.hi <= 0)
		return s->f.h - s->f.bottom;
	return bs_frame_y(&s->f, &s->y, v);
}

void bs_spark_fill(const struct bs_spark *s, struct bs_tdict *d)
{
	const struct bs_frame *f = &s->f;
	int pw = f->w - f->left - f->right, ph = f->h - f->top - f->bottom;

	bs_tdict_set_i64(d, "CW", f->w);
	bs_tdict_set_i64(d, "CH", f->h);
	bs_tdict_set_i64(d, "X0", f->left);
	bs_tdict_set_i64(d, "Y0", f->top);
	bs_tdict_set_i64(d, "PW", pw);
	bs_tdict_set_i64(d, "PH", ph);
	bs_tdict_set_i64(d, "TX", f->left - 4);
	bs_tdict_set_i64(d, "YTOP", f->top + 10);
	bs_tdict_set_i64(d, "YBOT", f->top + ph);
	bs_tdict_set_i64(d, "YDATE", f->top + ph + 16);
	bs_tdict_set_i64(d, "XEND", f->left + pw);
}

void bs_spark_line(const struct bs_spark *s, const struct bs_trend_sample *pt,
		   size_t n, struct bs_buf *out)
{
	size_t i, j;

	/* The runs of one date make a point, not a vertical zigzag. */
	for (i = 0; i < n; i = j) {
		double sum = 0, x0 = bs_spark_x(s, pt[i].t);

		for (j = i; j < n && (pt[j].t == pt[i].t ||
				      bs_spark_x(s, pt[j].t) - x0 < 0.5);
		     j++)
			sum += pt[j].v;
		bs_buf_addf(out, "%s%.1f,%.1f", i ? " " : "", x0,
			    bs_spark_y(s, sum / (double)(j - i)));
	}
}

/* Ticks of a log axis from 10^lo to 10^hi: each power of ten, and 2 and
 * 5 times it when the axis spans three decades or fewer. */
void bs_frame_log_ticks(const struct bs_frame *f, const struct bs_axis *ay,
			struct bs_tdict *d)
{
	static const double mult[] = {1, 2, 5};
	char s[64], h[96];
	int k, j, nm = ay->hi - ay->lo <= 3 ? 3 : 1;

	for (k = (int)ay->lo; k <= (int)ay->hi; k++)
		for (j = 0; j < nm && (k < (int)ay->hi || j == 0); j++) {
			double v = mult[j] * pow(10, k);
			struct bs_tdict *t = bs_tdict_add(d, "YTICK");

			bs_fmt_double(s, sizeof(s), v, k < 0 ? -k : 0);
			bs_tdict_set(t, "LABEL",
				     bs_rfmt_thousands(s, h, sizeof(h)));
			bs_tdict_set(t, "Y",
				     bs_fmt_double(s, sizeof(s),
						   bs_frame_y(f, ay, log10(v)),
						   1));
		}
}
