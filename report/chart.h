/*
 * report/chart.h - what every SVG chart of a report shares: the line
 * styles of its groups, axes in nice steps, a plot frame mapping numbers
 * to user units, and a path writer that keeps a line of any number of
 * points small. The zcav curves (render_curves.c), the trends
 * (render_trend.c) and bstore site's small charts (site.c) draw with it.
 */
#ifndef BS_REPORT_CHART_H
#define BS_REPORT_CHART_H

#include <stddef.h>

#include <stdint.h>

#include "report/tmpl/tmpl.h"
#include "util/buf.h"
#include "util/timefmt.h"

/*
 * A group's line: Okabe and Ito's colours, which people with any common
 * colour vision deficiency tell apart, and a dash pattern each, so that
 * lines differ without colour too (35 groups before a style repeats).
 */
const char *bs_chart_colour(size_t group);
const char *bs_chart_dash(size_t group);

/* An axis from lo to hi in ticks of step (1, 2, 2.5 or 5 times a power
 * of ten), each printed with decimals digits. */
struct bs_axis {
	double lo, hi, step;
	int decimals;
};

/* An axis whose ends are ticks at or around min and max, in about n
 * steps; numbers no disk gives fall back to 0 to 1. */
void bs_axis_make(struct bs_axis *a, double min, double max, int n);

/* A log axis in whole decades (lo and hi in log10, step 1): from the
 * power of ten at or under lo to the one at or over hi, at least one
 * decade; lo and hi are positive. */
void bs_axis_decades(struct bs_axis *a, double lo, double hi);

/* A chart's size and its plot's margins, in SVG user units. */
struct bs_frame {
	int w, h;                     /* the whole chart */
	int left, right, top, bottom; /* margins around the plot */
};

/* The user unit of a number on an axis: x across, y up; a number far
 * outside the axis is held within a plot's size of it. */
double bs_frame_x(const struct bs_frame *f, const struct bs_axis *a, double v);
double bs_frame_y(const struct bs_frame *f, const struct bs_axis *a, double v);

/* Sets the frame's W, H, PX, PY, PW, PH, PX2, PY2 and XT_X (the middle
 * of the plot's width) in d. */
void bs_frame_fill(const struct bs_frame *f, struct bs_tdict *d);

/* Adds a section XTICK (X, LABEL) or YTICK (Y, LABEL) to d for each tick
 * of a, labelled with its number. */
void bs_frame_ticks(const struct bs_frame *f, const struct bs_axis *a,
		    int vertical, struct bs_tdict *d);
/* Ticks of a log axis (ay's lo and hi are powers of ten, in log10):
 * each power of ten, and 2 and 5 times it when the axis spans three
 * decades or fewer; YTICK sections with thousands separators. */
void bs_frame_log_ticks(const struct bs_frame *f, const struct bs_axis *ay,
			struct bs_tdict *d);
/* The same, labels with thousands separators ("125,000"), as the
 * numbers of an HTML page's tables. */
void bs_frame_ticks_h(const struct bs_frame *f, const struct bs_axis *a,
		      int vertical, struct bs_tdict *d);

/*
 * A time axis, in unix seconds: ticks at the calendar step that suits the
 * span (hours, days, weeks, months, quarters, years, decades... UTC), the
 * smallest step that gives at most n ticks between lo and hi, each
 * labelled as its step asks: "2004", "2005-03", "03-14", "06:00" (an
 * hour tick at midnight shows its date). Writes at most n ticks to out
 * and returns how many.
 */
struct bs_time_tick {
	int64_t t;
	char label[16];
};
size_t bs_time_ticks(int64_t lo, int64_t hi, size_t n,
		     struct bs_time_tick *out);

/* Adds a section XTICK (X, LABEL) to d for each of bs_time_ticks' ticks
 * over the axis a (lo and hi in unix seconds), at most n. */
void bs_frame_time_ticks(const struct bs_frame *f, const struct bs_axis *a,
			 size_t n, struct bs_tdict *d);

/*
 * A path "M x y L x y ...": points in user units, NAN y a gap (a new
 * "M"). Points within half a unit of x of each other keep only their
 * first, least, most and last, so the path stays small whatever the
 * number of points, and looks the same. A piece of one point becomes a
 * short dash, inside the plot.
 */
struct bs_path {
	struct bs_buf *b;
	double xmax; /* the plot's right edge */
	int pen;     /* a line is being drawn */
	double bin;  /* x bin of the points held */
	size_t n;    /* points held: first, low, high, last */
	double x[4], y[4];
	size_t ilow, ihigh;
	size_t piece;  /* points put since the last "M" */
	double lx, ly; /* the last point put */
};

void bs_path_init(struct bs_path *w, struct bs_buf *b,
		  const struct bs_frame *f);
void bs_path_point(struct bs_path *w, double x, double y);
void bs_path_end(struct bs_path *w);

/*
 * A small chart of dated numbers (bstore site's list pages): a run's
 * number by its date, from 0 up to the largest number, each run a point,
 * a line through the mean of each date. bs_spark_init sets the frame (480
 * by 212) and the axes: dates t0 to t1 (unix seconds) across, 0 to vmax
 * up. bs_spark_x and bs_spark_y map a date and a number onto it; a span
 * of one date puts every point in the middle, a vmax of 0 every point at
 * the bottom. bs_spark_fill sets the chart's sizes in d: CW, CH, X0, Y0,
 * PW, PH, TX (the right edge of the number labels), YTOP, YBOT (their
 * baselines), YDATE (the dates' baseline) and XEND (the plot's right
 * edge). bs_spark_line appends the line's points, "x,y x,y ...", through
 * the mean of the numbers of each date of pt (sorted by date; dates
 * within half a unit of x of each other are one).
 */
struct bs_spark {
	struct bs_frame f;
	struct bs_axis x, y;
};
struct bs_trend_sample;
void bs_spark_init(struct bs_spark *s, int64_t t0, int64_t t1, double vmax);
double bs_spark_x(const struct bs_spark *s, int64_t t);
double bs_spark_y(const struct bs_spark *s, double v);
void bs_spark_fill(const struct bs_spark *s, struct bs_tdict *d);
void bs_spark_line(const struct bs_spark *s, const struct bs_trend_sample *pt,
		   size_t n, struct bs_buf *out);

#endif
