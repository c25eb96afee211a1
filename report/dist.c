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
			x->p_us[k] = bs_dist_percentile(s->pt, s->n,
							nines[k]) /
				     1000;
	}
}

void bs_rdist_free(struct bs_report *rep)
{
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
	ay.lo = floor(log10(lo));
	ay.hi = ceil(log10(hi > 0 ? hi : 1));
	if (ay.hi <= ay.lo)
		ay.hi = ay.lo + 1;
	ay.step = 1;
	ay.decimals = 0;
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
			bs_tdict_set(pt, "X", bs_fmt_double(s, sizeof(s), x, 1));
			bs_tdict_set(pt, "Y", bs_fmt_double(s, sizeof(s), y, 1));
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
	}
}

/* ---- a run's page: its histograms ------------------------------------ */

/* The run page's histogram chart: bins as bars on a log latency axis. */
static const struct bs_frame hframe = {600, 300, 72, 28, 24, 58};

static void run_hist(const struct bs_run *r, const struct bs_series *s,
		     int dir, const char *lat, struct bs_tdict *h)
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
	ax.lo = floor(log10(s->pt[0].x > 0 ? s->pt[0].x / 1000 : 0.001));
	ax.hi = ceil(log10(s->pt[s->n - 1].x / 1000));
	if (ax.hi <= ax.lo)
		ax.hi = ax.lo + 1;
	ax.step = 1;
	ax.decimals = 0;
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

			snprintf(key, sizeof(key), "%s_%s_hist",
				 dir_names[dir], lats[l]);
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
