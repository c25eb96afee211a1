/*
 * report/dist.c - latency percentile curves of a report (report/
 * internal.h): each fio run's completion latency at the nines (50, 90,
 * 99, 99.9, 99.99), computed from its json+ clat histogram by fio's rule
 * (core/dist.h), and for the HTML page, per direction, one SVG chart:
 * latency (log scale) against the percentile on a nines axis (each nine
 * one step: x = -log10(1 - p / 100)), a line per group through the
 * median of its runs and a band from their lowest to their highest, and
 * a table of the same numbers, the chart's text alternative.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dist.h"
#include "report/chart.h"
#include "report/internal.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/text.h"
#include "util/banned.h"

static const double nines[BS_REPORT_NINES] = {50, 90, 99, 99.9, 99.99};
static const char *const nine_names[BS_REPORT_NINES] = {"50", "90", "99",
							"99.9", "99.99"};
static const char *const dir_names[3] = {"read", "write", "trim"};
static const char *const dir_labels[3] = {"Read", "Write", "Trim"};

/* Chart geometry, as the report's curves (render_curves.c). */
static const struct bs_frame frame = {600, 330, 80, 36, 28, 58};

void bs_rdist_add(struct bs_report *rep, size_t g, const struct bs_run *r)
{
	char key[32];
	int d, k;

	for (d = 0; d < 3; d++) {
		const struct bs_series *s;
		struct bs_report_dist *x;

		snprintf(key, sizeof(key), "%s_clat_hist", dir_names[d]);
		s = bs_run_series_find(r, bs_metric_find(BS_FAM_FIO, key));
		if (s == NULL || s->n == 0)
			continue;
		xgrow((void **)&rep->dists, &rep->dists_cap, rep->ndists + 1,
		      sizeof(*rep->dists));
		x = &rep->dists[rep->ndists++];
		x->group = g;
		x->dir = d;
		x->id = r->id;
		for (k = 0; k < BS_REPORT_NINES; k++)
			x->p_us[k] = bs_dist_percentile(s->pt, s->n, nines[k]) /
				     1000;
		x->bins = NULL;
		x->nbins = 0;
		if (rep->opts.cdf) {
			x->bins = xmalloc(s->n * sizeof(*x->bins));
			memcpy(x->bins, s->pt, s->n * sizeof(*x->bins));
			x->nbins = s->n;
		}
	}
}

void bs_rdist_free(struct bs_report *rep)
{
	size_t i;

	for (i = 0; i < rep->ndists; i++)
		free(rep->dists[i].bins);
	free(rep->dists);
	rep->dists = NULL;
	rep->ndists = rep->dists_cap = 0;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The runs of group g and direction d at nine k: median, min, max. */
struct band {
	size_t n;
	double med[BS_REPORT_NINES], lo[BS_REPORT_NINES], hi[BS_REPORT_NINES];
};

static void band_of(const struct bs_report *rep, size_t g, int d,
		    struct band *b)
{
	double *v = xcalloc(rep->ndists + 1, sizeof(*v));
	size_t i, n;
	int k;

	memset(b, 0, sizeof(*b));
	for (k = 0; k < BS_REPORT_NINES; k++) {
		n = 0;
		for (i = 0; i < rep->ndists; i++)
			if (rep->dists[i].group == g && rep->dists[i].dir == d)
				v[n++] = rep->dists[i].p_us[k];
		b->n = n;
		if (n == 0)
			break;
		qsort(v, n, sizeof(*v), by_double);
		b->med[k] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		b->lo[k] = v[0];
		b->hi[k] = v[n - 1];
	}
	free(v);
}

static double nine_x(int k)
{
	return -log10(1 - nines[k] / 100);
}

/* A latency in us as people read it: 3 significant digits. */
static const char *fmt_us(char *out, size_t outsz, double us)
{
	if (us >= 1000)
		snprintf(out, outsz, "%.3g ms", us / 1000);
	else
		snprintf(out, outsz, "%.3g us", us);
	return out;
}

static void chart_dir(const struct bs_report *rep, int d, struct bs_tdict *pc)
{
	struct bs_axis ax, ay;
	struct bs_buf p = BS_BUF_INIT;
	struct band b;
	char s[64], t[64], u[64];
	double lo = INFINITY, hi = 0;
	size_t g, i;
	int k;

	for (i = 0; i < rep->ndists; i++)
		if (rep->dists[i].dir == d)
			for (k = 0; k < BS_REPORT_NINES; k++) {
				double v = rep->dists[i].p_us[k];

				if (v > 0 && v < lo)
					lo = v;
				if (v > hi)
					hi = v;
			}
	if (!(lo > 0))
		lo = hi > 0 ? hi : 1;
	/* p50 a little in from the left edge, p99.99 on the right. */
	ax.lo = nine_x(0) - 0.2;
	ax.hi = nine_x(BS_REPORT_NINES - 1);
	ax.step = 1;
	ax.decimals = 0;
	bs_axis_decades(&ay, lo, hi > 0 ? hi : 1);
	bs_frame_fill(&frame, pc);
	bs_tdict_set(pc, "X_TITLE", "percentile (each nine one step)");
	bs_tdict_set(pc, "Y_TITLE", "clat, us (log scale)");
	bs_tdict_setf(pc, "CAPTION",
		      "%s completion latency (clat) by percentile: a line per "
		      "group through its runs' median, the band their lowest "
		      "to highest",
		      dir_labels[d]);
	for (k = 0; k < BS_REPORT_NINES; k++) {
		struct bs_tdict *x = bs_tdict_add(pc, "XTICK");

		bs_tdict_set(x, "LABEL", nine_names[k]);
		bs_tdict_set(x, "X",
			     bs_fmt_double(s, sizeof(s),
					   bs_frame_x(&frame, &ax, nine_x(k)),
					   1));
		bs_tdict_set(bs_tdict_add(pc, "PHEAD"), "P", nine_names[k]);
	}
	bs_frame_log_ticks(&frame, &ay, pc);
	for (g = 0; g < rep->ngroups; g++) {
		struct bs_tdict *l, *row;

		band_of(rep, g, d, &b);
		if (b.n == 0)
			continue;
		l = bs_tdict_add(pc, "PLINE");
		bs_tdict_set(l, "COLOUR", bs_chart_colour(g));
		bs_tdict_set(l, "DASH", bs_chart_dash(g));
		row = bs_tdict_add(pc, "PROW");
		bs_tdict_set_i64(row, "GROUP", (int64_t)g + 1);
		bs_tdict_set(row, "LABEL", rep->groups[g].label);
		bs_tdict_set_i64(row, "N", (int64_t)b.n);
		bs_buf_reset(&p);
		for (k = 0; k < BS_REPORT_NINES; k++) {
			struct bs_tdict *pt = bs_tdict_add(l, "PT"), *c;
			double x = bs_frame_x(&frame, &ax, nine_x(k)),
			       y = bs_frame_y(&frame, &ay,
					      log10(b.med[k] > 0 ? b.med[k]
								 : lo));

			bs_buf_addf(&p, "%s%.1f,%.1f", k ? " L" : "M", x, y);
			bs_tdict_set(pt, "X",
				     bs_fmt_double(s, sizeof(s), x, 1));
			bs_tdict_set(pt, "Y",
				     bs_fmt_double(s, sizeof(s), y, 1));
			bs_tdict_setf(pt, "TIP", "[%zu] p%s: %s", g + 1,
				      nine_names[k],
				      fmt_us(t, sizeof(t), b.med[k]));
			c = bs_tdict_add(row, "PCELL");
			bs_tdict_set(c, "V", fmt_us(t, sizeof(t), b.med[k]));
			if (b.n > 1 && b.lo[k] != b.hi[k]) {
				struct bs_tdict *rg = bs_tdict_add(c, "RANGE");

				bs_tdict_set(rg, "LO",
					     fmt_us(t, sizeof(t), b.lo[k]));
				bs_tdict_set(rg, "HI",
					     fmt_us(u, sizeof(u), b.hi[k]));
			}
		}
		bs_tdict_set(l, "D", bs_buf_str(&p));
		if (b.n > 1) {
			/* The band: along the highest, back along the
			 * lowest. */
			bs_buf_reset(&p);
			for (k = 0; k < BS_REPORT_NINES; k++)
				bs_buf_addf(&p, "%s%.1f,%.1f", k ? " L" : "M",
					    bs_frame_x(&frame, &ax, nine_x(k)),
					    bs_frame_y(&frame, &ay,
						       log10(b.hi[k] > 0
								     ? b.hi[k]
								     : lo)));
			for (k = BS_REPORT_NINES - 1; k >= 0; k--)
				bs_buf_addf(&p, " L%.1f,%.1f",
					    bs_frame_x(&frame, &ax, nine_x(k)),
					    bs_frame_y(&frame, &ay,
						       log10(b.lo[k] > 0
								     ? b.lo[k]
								     : lo)));
			bs_buf_adds(&p, " Z");
			bs_tdict_set(bs_tdict_add(l, "BAND"), "BAND_D",
				     bs_buf_str(&p));
		}
	}
	bs_buf_release(&p);
}

/* The latencies (us) of direction d's bins over every run: 0 when none. */
static int cdf_span(const struct bs_report *rep, int d, double *lo, double *hi)
{
	size_t i;

	*lo = INFINITY;
	*hi = 0;
	for (i = 0; i < rep->ndists; i++) {
		const struct bs_report_dist *x = &rep->dists[i];

		if (x->dir != d || x->nbins == 0)
			continue;
		if (x->bins[0].x > 0 && x->bins[0].x / 1000 < *lo)
			*lo = x->bins[0].x / 1000;
		if (x->bins[x->nbins - 1].x / 1000 > *hi)
			*hi = x->bins[x->nbins - 1].x / 1000;
	}
	if (!(*hi > 0))
		return 0;
	if (!(*lo > 0))
		*lo = *hi;
	return 1;
}

/* All of run x's I/Os in its bins when x is of direction d, else 0: a
 * run of the CDF's when above 0. */
static double cdf_ios(const struct bs_report_dist *x, int d)
{
	double total = 0;
	size_t k;

	if (x->dir != d)
		return 0;
	for (k = 0; k < x->nbins; k++)
		total += x->bins[k].y;
	return total;
}

/* Run x's I/Os at or under us. */
static double cdf_under(const struct bs_report_dist *x, double us)
{
	double under = 0;
	size_t k;

	for (k = 0; k < x->nbins; k++)
		if (x->bins[k].x / 1000 <= us)
			under += x->bins[k].y;
	return under;
}

/*
 * The CDF's table, every format's: a column (CHEAD: AT as people read it,
 * AT_US the number) per power of ten of the axis ax, a row (CROW) per run
 * with its group, label, id, I/Os and the share of them at or under each
 * (CCELL: V "12.34%", J_V 12.34).
 */
static void cdf_table(const struct bs_report *rep, int d,
		      const struct bs_axis *ax, struct bs_tdict *cc)
{
	char s[64];
	size_t i;
	int e;

	for (e = (int)ax->lo; e <= (int)ax->hi; e++) {
		struct bs_tdict *h = bs_tdict_add(cc, "CHEAD");

		bs_tdict_set(h, "AT", fmt_us(s, sizeof(s), pow(10, e)));
		bs_tdict_set(h, "AT_US",
			     bs_fmt_double(s, sizeof(s), pow(10, e),
					   e < 0 ? -e : 0));
	}
	for (i = 0; i < rep->ndists; i++) {
		const struct bs_report_dist *x = &rep->dists[i];
		double total;
		struct bs_tdict *row;

		if (!((total = cdf_ios(x, d)) > 0))
			continue;
		row = bs_tdict_add(cc, "CROW");
		bs_tdict_set_i64(row, "GROUP", (int64_t)x->group + 1);
		bs_tdict_set(row, "LABEL", rep->groups[x->group].label);
		bs_tdict_set_i64(row, "RUN", x->id);
		bs_tdict_setf(row, "IOS", "%.0f", total);
		for (e = (int)ax->lo; e <= (int)ax->hi; e++) {
			struct bs_tdict *c = bs_tdict_add(row, "CCELL");
			double pct = 100 * cdf_under(x, pow(10, e)) / total;

			bs_tdict_setf(c, "V", "%.2f%%", pct);
			bs_tdict_setf(c, "J_V", "%.2f", pct);
		}
	}
}

/*
 * --cdf: direction d's CDF chart, a line per run (the share of its I/Os
 * at or under a latency, a step at each of fio's bins, x on a log axis),
 * coloured and dashed by group; its text alternative, the table of
 * cdf_table.
 */
static void cdf_dir(const struct bs_report *rep, int d, struct bs_tdict *cc)
{
	struct bs_axis ax, ay;
	struct bs_buf p = BS_BUF_INIT;
	double lo, hi;
	char s[64];
	size_t i, k;
	int e;

	if (!cdf_span(rep, d, &lo, &hi))
		return;
	bs_axis_decades(&ax, lo, hi);
	bs_axis_make(&ay, 0, 100, 5);
	bs_frame_fill(&frame, cc);
	bs_frame_ticks(&frame, &ay, 1, cc);
	for (e = (int)ax.lo; e <= (int)ax.hi; e++) {
		struct bs_tdict *xt = bs_tdict_add(cc, "XTICK");
		char th[64];

		/* 10,000 as the percentile chart's axis writes it. */
		bs_tdict_set(xt, "LABEL",
			     bs_fmt_thousands(bs_fmt_double(s, sizeof(s),
							    pow(10, e),
							    e < 0 ? -e : 0),
					      th, sizeof(th)));
		bs_tdict_set(xt, "X",
			     bs_fmt_double(s, sizeof(s),
					   bs_frame_x(&frame, &ax, e), 1));
	}
	bs_tdict_set(cc, "X_TITLE", "clat, us (log scale)");
	bs_tdict_set(cc, "Y_TITLE", "% of I/Os at or under");
	bs_tdict_setf(cc, "CAPTION",
		      "%s completion latency (clat) CDF: a line per run, the "
		      "share of its I/Os at or under each latency (fio's json+ "
		      "bins)",
		      dir_labels[d]);
	for (i = 0; i < rep->ndists; i++) {
		const struct bs_report_dist *x = &rep->dists[i];
		struct bs_tdict *l;
		double total, run = 0, px;

		if (!((total = cdf_ios(x, d)) > 0))
			continue;
		l = bs_tdict_add(cc, "CLINE");
		bs_tdict_set(l, "COLOUR", bs_chart_colour(x->group));
		bs_tdict_set(l, "DASH", bs_chart_dash(x->group));
		bs_tdict_setf(l, "TIP", "[%zu] run %lld", x->group + 1,
			      (long long)x->id);
		bs_buf_reset(&p);
		px = bs_frame_x(&frame, &ax, ax.lo);
		bs_buf_addf(&p, "M%.1f,%.1f", px, bs_frame_y(&frame, &ay, 0));
		for (k = 0; k < x->nbins; k++) {
			double bx =
				x->bins[k].x > 0
					? bs_frame_x(&frame, &ax,
						     log10(x->bins[k].x / 1000))
					: px;

			bs_buf_addf(&p, " L%.1f,%.1f", bx,
				    bs_frame_y(&frame, &ay, 100 * run / total));
			run += x->bins[k].y;
			bs_buf_addf(&p, " L%.1f,%.1f", bx,
				    bs_frame_y(&frame, &ay, 100 * run / total));
		}
		bs_tdict_set(l, "D", bs_buf_str(&p));
	}
	cdf_table(rep, d, &ax, cc);
	bs_buf_release(&p);
}

/* The text report's lines of the table (HEAD, then TLINE's TEXT a run):
 * columns padded by what they show. */
static void cdf_text(const struct bs_report *rep, int d,
		     const struct bs_axis *ax, struct bs_tdict *cc)
{
	struct bs_buf b = BS_BUF_INIT;
	char s[64], at[80];
	size_t i;
	int e;

	bs_buf_adds(&b, "  ");
	bs_text_cell(&b, "group", 26);
	bs_buf_addf(&b, " %6s %8s", "run", "I/Os");
	for (e = (int)ax->lo; e <= (int)ax->hi; e++) {
		snprintf(at, sizeof(at), "<= %s",
			 fmt_us(s, sizeof(s), pow(10, e)));
		bs_buf_addf(&b, " %10s", at);
	}
	bs_tdict_set(cc, "HEAD", bs_buf_str(&b));
	for (i = 0; i < rep->ndists; i++) {
		const struct bs_report_dist *x = &rep->dists[i];
		double total;

		if (!((total = cdf_ios(x, d)) > 0))
			continue;
		bs_buf_reset(&b);
		snprintf(at, sizeof(at), "[%zu] %s", x->group + 1,
			 rep->groups[x->group].label);
		bs_buf_adds(&b, "  ");
		bs_text_cell(&b, at, 26);
		bs_buf_addf(&b, " %6lld %8.0f", (long long)x->id, total);
		for (e = (int)ax->lo; e <= (int)ax->hi; e++) {
			snprintf(s, sizeof(s), "%.2f%%",
				 100 * cdf_under(x, pow(10, e)) / total);
			bs_buf_addf(&b, " %10s", s);
		}
		bs_tdict_set(bs_tdict_add(cc, "TLINE"), "TEXT", bs_buf_str(&b));
	}
	bs_buf_release(&b);
}

void bs_rdist_cdf(const struct bs_report *rep, struct bs_tdict *d)
{
	static const char *const dir_keys[3] = {"read", "write", "trim"};
	struct bs_axis ax;
	double lo, hi;
	int dir;

	if (!rep->opts.cdf)
		return;
	for (dir = 0; dir < 3; dir++) {
		struct bs_tdict *cc;

		if (!cdf_span(rep, dir, &lo, &hi))
			continue;
		bs_tdict_show(d, "HAS_CDF");
		bs_axis_decades(&ax, lo, hi);
		cc = bs_tdict_add(d, "CDF");
		bs_tdict_set(cc, "DIR", dir_keys[dir]);
		bs_tdict_setf(cc, "CAPTION",
			      "%s completion latency (clat) CDF: each run's "
			      "share of I/Os at or under each latency (fio's "
			      "json+ bins)",
			      dir_labels[dir]);
		cdf_table(rep, dir, &ax, cc);
		cdf_text(rep, dir, &ax, cc);
	}
}

void bs_rdist_html(const struct bs_report *rep, struct bs_tdict *d)
{
	struct bs_tdict *sec = NULL;
	size_t i;
	int dir, any;

	for (dir = 0; dir < 3; dir++) {
		any = 0;
		for (i = 0; i < rep->ndists; i++)
			any |= rep->dists[i].dir == dir;
		if (!any)
			continue;
		if (sec == NULL) {
			sec = bs_tdict_add(d, "PCHARTS");
			bs_tdict_show(d, "HAS_CURVES");
			/* The curves' style (templates/chart_style.html). */
			bs_tdict_set(d, "CHART_SVG", "curve");
		}
		chart_dir(rep, dir, bs_tdict_add(sec, "PCHART"));
		if (rep->opts.cdf)
			cdf_dir(rep, dir, bs_tdict_add(sec, "CCHART"));
	}
}

/* ---- a run's page: its histograms ------------------------------------ */

/* The run page's histogram chart: bins as bars on a log latency axis. */
static const struct bs_frame hframe = {600, 300, 72, 28, 24, 58};

static void run_hist(const struct bs_run *r, const struct bs_series *s, int dir,
		     const char *lat, struct bs_tdict *h)
{
	struct bs_axis ax, ay;
	struct bs_buf b = BS_BUF_INIT;
	double top = 0, ios = 0, x, y0, y;
	char num[64], t[64];
	size_t i;
	int k;

	(void)r;
	for (i = 0; i < s->n; i++) {
		if (s->pt[i].y > top)
			top = s->pt[i].y;
		ios += s->pt[i].y;
	}
	bs_axis_decades(&ax, s->pt[0].x > 0 ? s->pt[0].x / 1000 : 0.001,
			s->pt[s->n - 1].x / 1000);
	bs_axis_make(&ay, 0, top, 4);
	bs_frame_fill(&hframe, h);
	bs_frame_ticks_h(&hframe, &ay, 1, h);
	for (k = (int)ax.lo; k <= (int)ax.hi; k++) {
		struct bs_tdict *xt = bs_tdict_add(h, "XTICK");

		bs_tdict_set(xt, "LABEL",
			     bs_fmt_double(num, sizeof(num), pow(10, k),
					   k < 0 ? -k : 0));
		bs_tdict_set(xt, "X",
			     bs_fmt_double(num, sizeof(num),
					   bs_frame_x(&hframe, &ax, k), 1));
	}
	bs_tdict_setf(h, "X_TITLE", "%s, us (log scale)", lat);
	bs_tdict_set(h, "Y_TITLE", "I/Os in the bin");
	y0 = bs_frame_y(&hframe, &ay, 0);
	for (i = 0; i < s->n; i++) {
		x = bs_frame_x(&hframe, &ax, log10(s->pt[i].x / 1000));
		y = bs_frame_y(&hframe, &ay, s->pt[i].y);
		bs_buf_addf(&b, "%sM%.1f,%.1fV%.1f", i ? " " : "", x, y0, y);
	}
	bs_tdict_set(h, "D", bs_buf_str(&b));
	bs_tdict_set(h, "COLOUR", bs_chart_colour(0));
	bs_tdict_setf(h, "CAPTION", "%s %s latency histogram", dir_labels[dir],
		      lat);
	bs_tdict_setf(h, "IOS", "%.0f", ios);
	bs_tdict_set_i64(h, "BINS", (int64_t)s->n);
	for (k = 0; k < BS_REPORT_NINES; k++) {
		struct bs_tdict *p = bs_tdict_add(h, "P");

		bs_tdict_set(p, "NAME", nine_names[k]);
		bs_tdict_set(p, "V",
			     fmt_us(t, sizeof(t),
				    bs_dist_percentile(s->pt, s->n, nines[k]) /
					    1000));
	}
	bs_buf_release(&b);
}

int bs_rdist_run_html(const struct bs_run *r, struct bs_tdict *d)
{
	static const char *const lats[] = {"clat", "slat", "lat"};
	struct bs_tdict *sec = NULL;
	char key[32];
	int dir, l, n = 0;

	if (r->family != BS_FAM_FIO)
		return 0;
	for (dir = 0; dir < 3; dir++)
		for (l = 0; l < 3; l++) {
			const struct bs_series *s;

			snprintf(key, sizeof(key), "%s_%s_hist", dir_names[dir],
				 lats[l]);
			s = bs_run_series_find(r,
					       bs_metric_find(BS_FAM_FIO, key));
			if (s == NULL || s->n == 0)
				continue;
			if (sec == NULL)
				sec = bs_tdict_add(d, "HISTS");
			run_hist(r, s, dir, lats[l], bs_tdict_add(sec, "HIST"));
			n++;
		}
	return n;
}

/* ---- a run's page: its fio logs over time ----------------------------- */

/* The run page's charts over time: the same windows for the IOPS line,
 * the heatmap's columns and the table rows (their text alternative). */
#define LOG_WINDOWS 16
#define HEAT_ROWS_PER_DECADE 4
static const struct bs_frame lframe = {600, 300, 72, 28, 24, 58};

static const struct bs_series *log_series(const struct bs_run *r, int dir,
					  const char *kind)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_%s_log", dir_names[dir], kind);
	return bs_run_series_find(r, bs_metric_find(BS_FAM_FIO, key));
}

/* A log's span in seconds: from 0 to its last point's end. */
static double log_end(const struct bs_series *s)
{
	double end = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		double e = s->pt[i].x +
			   (isfinite(s->pt[i].seconds) ? s->pt[i].seconds : 0);
		if (e > end)
			end = e;
	}
	return end;
}

static size_t window_of(double x, double end)
{
	size_t w = end > 0 ? (size_t)(x / end * LOG_WINDOWS) : 0;

	return w < LOG_WINDOWS ? w : LOG_WINDOWS - 1;
}

/* Whether an iops log has an entry per I/O (fio without --log_avg_msec:
 * each entry 1), not per window. fio averages its bw and iops logs
 * alike, so the bw log of the same job is the same kind. */
static int per_io_log(const struct bs_series *iops)
{
	size_t i;

	for (i = 0; i < iops->n; i++)
		if (iops->pt[i].y != 1 || isfinite(iops->pt[i].seconds))
			return 0;
	return 1;
}

/*
 * A rate per window of an iops or bw log (NAN in a window without an
 * entry). A log of windows (each entry fio's own IOPS or KiB/s over its
 * window): the mean of its entries in the window. A log of every I/O,
 * an iops log's (count): its entries' sum over the window's length.
 */
static void rate_windows(const struct bs_series *s, double end, int per_io,
			 double out[LOG_WINDOWS])
{
	double n[LOG_WINDOWS] = {0}, sum[LOG_WINDOWS] = {0};
	size_t i, w;

	for (i = 0; i < s->n; i++) {
		w = window_of(s->pt[i].x, end);
		n[w] += 1;
		sum[w] += s->pt[i].y;
	}
	for (w = 0; w < LOG_WINDOWS; w++)
		out[w] = per_io     ? sum[w] / (end / LOG_WINDOWS)
			 : n[w] > 0 ? sum[w] / n[w]
				    : NAN;
}

static void rate_chart(double end, int dir, const char *what, const char *unit,
		       const double iops[LOG_WINDOWS], struct bs_tdict *c)
{
	struct bs_axis ax, ay;
	struct bs_buf b = BS_BUF_INIT;
	struct bs_path w;
	double top = 0;
	size_t k;

	for (k = 0; k < LOG_WINDOWS; k++)
		if (isfinite(iops[k]) && iops[k] > top)
			top = iops[k];
	bs_axis_make(&ax, 0, end, 6);
	bs_axis_make(&ay, 0, top, 4);
	bs_frame_fill(&lframe, c);
	bs_frame_ticks(&lframe, &ax, 0, c);
	bs_frame_ticks_h(&lframe, &ay, 1, c);
	bs_tdict_set(c, "X_TITLE", "time into the run, s");
	bs_tdict_set(c, "Y_TITLE", unit);
	bs_path_init(&w, &b, &lframe);
	for (k = 0; k < LOG_WINDOWS; k++)
		bs_path_point(&w,
			      bs_frame_x(&lframe, &ax,
					 end * ((double)k + 0.5) / LOG_WINDOWS),
			      isfinite(iops[k])
				      ? bs_frame_y(&lframe, &ay, iops[k])
				      : NAN);
	bs_path_end(&w);
	bs_tdict_set(c, "D", bs_buf_str(&b));
	bs_tdict_set(c, "COLOUR", bs_chart_colour(0));
	bs_tdict_setf(c, "CAPTION",
		      "%s %s over the run, %s, from fio's %s log: "
		      "each of %d windows of %.3g ms",
		      dir_labels[dir], what, unit,
		      strcmp(unit, "IO/s") == 0 ? "iops" : "bw", LOG_WINDOWS,
		      end / LOG_WINDOWS * 1000);
	bs_buf_release(&b);
}

/* The latencies of the lat log in window k, sorted; their count. */
static size_t window_lats(const struct bs_series *s, double end, size_t k,
			  double *v)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		if (isfinite(s->pt[i].y) && window_of(s->pt[i].x, end) == k)
			v[n++] = s->pt[i].y;
	qsort(v, n, sizeof(*v), by_double);
	return n;
}

/* Nearest rank (Hyndman and Fan 1996, definition 1) of sorted v[0..n). */
static double nearest_rank(const double *v, size_t n, double p)
{
	size_t r = (size_t)ceil(p / 100 * (double)n);

	return v[r ? r - 1 : 0];
}

/*
 * The heatmap of the lat log: LOG_WINDOWS columns of time, rows of
 * latency on a log axis (HEAT_ROWS_PER_DECADE a decade), each cell's
 * colour as deep as its I/O count against the fullest cell's; an empty
 * cell is not drawn.
 */
static void heatmap(const struct bs_series *s, double end, int dir,
		    struct bs_tdict *h)
{
	struct bs_axis ax, ay;
	double lo = INFINITY, hi = 0, most = 0, cw, ch, x0;
	size_t i, nrows, k, r;
	double *cnt;
	char num[64];

	for (i = 0; i < s->n; i++) {
		double y = s->pt[i].y;

		if (!(y > 0))
			continue;
		if (y < lo)
			lo = y;
		if (y > hi)
			hi = y;
	}
	if (!(hi > 0))
		return;
	bs_axis_decades(&ay, lo, hi);
	nrows = (size_t)(ay.hi - ay.lo) * HEAT_ROWS_PER_DECADE;
	cnt = xcalloc(nrows * LOG_WINDOWS, sizeof(*cnt));
	for (i = 0; i < s->n; i++) {
		double y = s->pt[i].y, f;

		if (!(y > 0))
			continue;
		f = (log10(y) - ay.lo) * HEAT_ROWS_PER_DECADE;
		r = f < 0 ? 0 : (size_t)f;
		if (r >= nrows)
			r = nrows - 1;
		k = window_of(s->pt[i].x, end);
		if (++cnt[r * LOG_WINDOWS + k] > most)
			most = cnt[r * LOG_WINDOWS + k];
	}
	bs_axis_make(&ax, 0, end, 6);
	bs_frame_fill(&lframe, h);
	bs_frame_ticks(&lframe, &ax, 0, h);
	bs_frame_log_ticks(&lframe, &ay, h);
	bs_tdict_set(h, "X_TITLE", "time into the run, s");
	bs_tdict_set(h, "Y_TITLE", "lat, us (log scale)");
	/* The windows span 0 to end, the axis to its next tick. */
	x0 = bs_frame_x(&lframe, &ax, 0);
	cw = (bs_frame_x(&lframe, &ax, end) - x0) / LOG_WINDOWS;
	ch = (double)(lframe.h - lframe.top - lframe.bottom) / (double)nrows;
	for (r = 0; r < nrows; r++)
		for (k = 0; k < LOG_WINDOWS; k++) {
			double c = cnt[r * LOG_WINDOWS + k];
			struct bs_tdict *cell;

			if (c == 0)
				continue;
			cell = bs_tdict_add(h, "CELL");
			bs_tdict_set(cell, "X",
				     bs_fmt_double(num, sizeof(num),
						   x0 + cw * (double)k, 1));
			bs_tdict_set(cell, "Y",
				     bs_fmt_double(num, sizeof(num),
						   lframe.h - lframe.bottom -
							   ch * (double)(r + 1),
						   1));
			bs_tdict_set(cell, "CW",
				     bs_fmt_double(num, sizeof(num), cw, 1));
			bs_tdict_set(cell, "CH",
				     bs_fmt_double(num, sizeof(num), ch, 1));
			/* Never fainter than 0.15: one I/O stays visible. */
			bs_tdict_set(cell, "OPACITY",
				     bs_fmt_double(num, sizeof(num),
						   0.15 + 0.85 * c / most, 2));
			bs_tdict_setf(cell, "TIP", "%.0f I/Os", c);
		}
	bs_tdict_set(h, "COLOUR", bs_chart_colour(0));
	bs_tdict_setf(h, "CAPTION",
		      "%s latency (lat) over the run, from fio's lat log: "
		      "%d windows of time by %d latency bins a decade, the "
		      "deeper the colour the more I/Os (the fullest cell %.0f)",
		      dir_labels[dir], LOG_WINDOWS, HEAT_ROWS_PER_DECADE, most);
	free(cnt);
}

int bs_rdist_run_logs_html(const struct bs_run *r, struct bs_tdict *d)
{
	struct bs_tdict *sec = NULL;
	int dir, n = 0;

	if (r->family != BS_FAM_FIO)
		return 0;
	for (dir = 0; dir < 3; dir++) {
		const struct bs_series *io = log_series(r, dir, "iops"),
				       *bw = log_series(r, dir, "bw"),
				       *lat = log_series(r, dir, "lat");
		double iops[LOG_WINDOWS], kib[LOG_WINDOWS], end = 0, *v = NULL;
		int per_io = 0, has_bw = 0;
		struct bs_tdict *x;
		char t[64], u[64];
		size_t k, nv;

		if (io && io->n == 0)
			io = NULL;
		if (bw && bw->n == 0)
			bw = NULL;
		if (lat && lat->n == 0)
			lat = NULL;
		if (io == NULL && lat == NULL)
			continue;
		if (io)
			end = log_end(io);
		if (lat && log_end(lat) > end)
			end = log_end(lat);
		if (!(end > 0))
			continue;
		if (sec == NULL)
			sec = bs_tdict_add(d, "LOGS");
		x = bs_tdict_add(sec, "LOG");
		bs_tdict_set(x, "DIR", dir_labels[dir]);
		bs_tdict_setf(x, "WINDOW", "%.3g", end / LOG_WINDOWS * 1000);
		for (k = 0; k < LOG_WINDOWS; k++)
			iops[k] = kib[k] = NAN;
		if (io) {
			per_io = per_io_log(io);
			rate_windows(io, end, per_io, iops);
			rate_chart(end, dir, "IOPS", "IO/s", iops,
				   bs_tdict_add(x, "RATE"));
		}
		/* A bw log of every I/O holds each I/O's size over its own
		 * latency, no throughput: drawn only when fio averaged it. */
		if (bw && io && !per_io) {
			has_bw = 1;
			rate_windows(bw, end, 0, kib);
			for (k = 0; k < LOG_WINDOWS; k++)
				kib[k] /= 1024;
			rate_chart(end, dir, "bandwidth", "MiB/s", kib,
				   bs_tdict_add(x, "RATE"));
			bs_tdict_show(x, "HAS_BW");
		} else if (bw) {
			bs_tdict_show(x, "BW_PER_IO");
		}
		if (lat) {
			heatmap(lat, end, dir, bs_tdict_add(x, "HEAT"));
			v = xcalloc(lat->n + 1, sizeof(*v));
		}
		for (k = 0; k < LOG_WINDOWS; k++) {
			struct bs_tdict *row = bs_tdict_add(x, "WROW");

			bs_tdict_setf(row, "FROM", "%.3f",
				      end * (double)k / LOG_WINDOWS);
			bs_tdict_set(row, "IOPS",
				     isfinite(iops[k])
					     ? bs_fmt_double(t, sizeof(t),
							     iops[k], 0)
					     : "-");
			if (has_bw)
				bs_tdict_set(bs_tdict_add(row, "BWCELL"), "V",
					     isfinite(kib[k])
						     ? bs_fmt_double(t,
								     sizeof(t),
								     kib[k], 2)
						     : "-");
			nv = lat ? window_lats(lat, end, k, v) : 0;
			bs_tdict_set_i64(row, "IOS", (int64_t)nv);
			bs_tdict_set(row, "P50",
				     nv ? fmt_us(t, sizeof(t),
						 nearest_rank(v, nv, 50))
					: "-");
			bs_tdict_set(row, "P90",
				     nv ? fmt_us(u, sizeof(u),
						 nearest_rank(v, nv, 90))
					: "-");
			bs_tdict_set(row, "MAX",
				     nv ? fmt_us(t, sizeof(t), v[nv - 1])
					: "-");
		}
		free(v);
		n++;
	}
	return n;
}
