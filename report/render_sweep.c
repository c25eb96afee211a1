/*
 * report/render_sweep.c - a sweep's scaling view on the HTML page
 * (docs/report.md, "Sweeps"): when the groups are the levels of a number
 * people sweep (--by threads, iodepth, numjobs, bs), a chart per main
 * rate and per p99 latency of its tools, the number against the level,
 * a line per block (--within), each level's ratio to the first said as
 * scaling, never as better or worse; and the same numbers as a table
 * under the chart, for phones and for reading.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "report/internal.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* The chart's frame: wide, and readable squeezed to a phone. */
static const struct bs_frame frame = {640, 300, 84, 16, 16, 58};

/* Whether catalogue row t is charted: a main rate (BS_MF_MAIN), or a
 * 99th percentile latency ("p99" alone, not p99.9), of the page, that
 * some level has more than 0 of (a read test's written MiB/s is 0 at
 * every level: nothing scales). */
static int charted(const struct bs_report *rep, int t)
{
	const char *k = bs_metrics[t].key, *p = strstr(k, "p99");
	int m = BS_RM(t, BS_MK_RATE), some = 0;
	size_t i;

	for (i = 0; i < rep->ngroups; i++)
		some |= rep->groups[i].cell[m].status == BS_ST_OK &&
			rep->groups[i].cell[m].mean > 0;
	if (!rep->shown[m] || !some)
		return 0;
	if (bs_metrics[t].flags & BS_MF_MAIN)
		return 1;
	return bs_metrics[t].category == BS_CAT_LATENCY && p &&
	       (p[3] == '_' &&
		(strcmp(p + 4, "us") == 0 || strcmp(p + 4, "ms") == 0));
}

/* Group i's level for people ("4", "4 KiB"): the sweep parameter's value
 * as its identity reads it, into b. */
static void level_text(const struct bs_report *rep, size_t i, int t,
		       struct bs_buf *b)
{
	const struct bs_report_group *g = &rep->groups[i];
	int k = rep->sweep_row[bs_metrics[t].family];
	size_t j;

	for (j = 0; k >= 0 && j < g->nidents; j++) {
		const struct bs_ident_val *v =
			bs_ident_get(&g->idents[j].id, k);

		if (v && v->known) {
			bs_ident_val_text(v, b);
			return;
		}
	}
	bs_buf_adds(b, g->label);
}

/* Group i's place among its block's levels (0, 1, ...), and the block's
 * count of levels into *n. */
static size_t level_of(const struct bs_report *rep, size_t i, size_t *n)
{
	size_t j, at = 0;

	*n = 0;
	for (j = 0; j < rep->ngroups; j++) {
		if (rep->groups[j].base != rep->groups[i].base)
			continue;
		if (j < i)
			at++;
		(*n)++;
	}
	return at;
}

/* One chart: catalogue row t, a line per block. */
static void sweep_chart(const struct bs_report *rep, int t, struct bs_tdict *d)
{
	int m = BS_RM(t, BS_MK_RATE);
	struct bs_tdict *ch = bs_tdict_add(d, "SCHART"), *line = NULL;
	struct bs_buf b = BS_BUF_INIT, lv = BS_BUF_INIT;
	struct bs_axis ax, ay;
	struct bs_path path;
	double ymax = 0, v, first = NAN;
	size_t i, n, maxlevels = 1, at, blocks = 0;
	char s[64], label[96];
	int started = 0;

	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_cell *c = &rep->groups[i].cell[m];

		if (c->status == BS_ST_OK && bs_rscale(rep, m, c->mean) > ymax)
			ymax = bs_rscale(rep, m, c->mean);
		level_of(rep, i, &n);
		if (n > maxlevels)
			maxlevels = n;
	}
	ax.lo = 0;
	ax.hi = (double)(maxlevels > 1 ? maxlevels - 1 : 1);
	ax.step = 1;
	ax.decimals = 0;
	bs_axis_make(&ay, 0, ymax, 5);
	bs_frame_fill(&frame, ch);
	bs_frame_ticks_h(&frame, &ay, 1, ch);
	bs_rm_label(m, label, sizeof(label));
	bs_tdict_setf(ch, "CAPTION", "%s, %s, by %s", label,
		      bs_report_unit(rep, m), rep->sweep);
	bs_tdict_set(ch, "Y_TITLE", bs_report_unit(rep, m));
	bs_tdict_set(ch, "X_TITLE", rep->sweep);
	bs_tdict_set(ch, "NAME", label);
	bs_tdict_set(ch, "KEY_LABEL", rep->sweep);
	/* The x ticks: the first block's levels. */
	for (i = 0; i < rep->ngroups; i++) {
		struct bs_tdict *x;

		if (rep->groups[i].base != rep->groups[0].base)
			break;
		x = bs_tdict_add(ch, "XTICK");
		bs_buf_reset(&lv);
		level_text(rep, i, t, &lv);
		bs_tdict_set(x, "LABEL", bs_buf_str(&lv));
		bs_tdict_set(x, "X",
			     bs_fmt_double(s, sizeof(s),
					   bs_frame_x(&frame, &ax, (double)i),
					   1));
	}
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		const struct bs_report_cell *c = &g->cell[m];
		struct bs_tdict *pt, *row;

		if (i == g->base || line == NULL) {
			if (line) {
				bs_path_end(&path);
				bs_tdict_set(line, "D", bs_buf_str(&b));
			}
			line = bs_tdict_add(ch, "SLINE");
			bs_tdict_set(line, "COLOUR", bs_chart_colour(blocks));
			bs_tdict_set(line, "DASH", bs_chart_dash(blocks));
			blocks++;
			bs_buf_reset(&b);
			bs_path_init(&path, &b, &frame);
			first = NAN;
			started = 0;
		}
		at = level_of(rep, i, &n);
		bs_buf_reset(&lv);
		level_text(rep, i, t, &lv);
		row = bs_tdict_add(ch, "SROW");
		bs_tdict_setf(row, "LEVEL", "[%zu] %s", i + 1, bs_buf_str(&lv));
		if (c->status != BS_ST_OK) {
			bs_tdict_set(row, "VALUE", bs_status_name(c->status));
			bs_tdict_set(row, "RATIO", "");
			continue;
		}
		v = bs_rscale(rep, m, c->mean);
		if (!started) {
			first = c->mean;
			started = 1;
		}
		bs_path_point(&path, bs_frame_x(&frame, &ax, (double)at),
			      bs_frame_y(&frame, &ay, v));
		pt = bs_tdict_add(line, "PT");
		bs_tdict_set(pt, "X",
			     bs_fmt_double(s, sizeof(s),
					   bs_frame_x(&frame, &ax, (double)at),
					   1));
		bs_tdict_set(pt, "Y",
			     bs_fmt_double(s, sizeof(s),
					   bs_frame_y(&frame, &ay, v), 1));
		bs_rfmt_h(rep, m, c->mean, s, sizeof(s));
		bs_tdict_set(row, "VALUE", s);
		bs_tdict_setf(pt, "TIP", "[%zu] %s %s: %s %s", i + 1,
			      rep->sweep, bs_buf_str(&lv), s,
			      bs_report_unit(rep, m));
		if (first > 0 && i != g->base) {
			bs_buf_reset(&lv);
			bs_rsay_ratio(&lv, c->mean / first);
			bs_tdict_set(row, "RATIO", bs_buf_str(&lv));
		} else {
			bs_tdict_set(row, "RATIO", i == g->base ? "first" : "");
		}
	}
	if (line) {
		bs_path_end(&path);
		bs_tdict_set(line, "D", bs_buf_str(&b));
	}
	bs_buf_release(&b);
	bs_buf_release(&lv);
}

void bs_rsweep_html(const struct bs_report *rep, struct bs_tdict *d)
{
	struct bs_tdict *sw;
	int t, any = 0;

	if (rep->sweep == NULL || rep->ngroups < 2)
		return;
	for (t = 0; t < bs_nmetrics; t++)
		any |= charted(rep, t);
	if (!any)
		return;
	/* The style of the curves' charts (templates/chart_style.html). */
	bs_tdict_show(d, "HAS_CURVES");
	bs_tdict_set(d, "CHART_SVG", "curve");
	sw = bs_tdict_add(d, "SWEEP");
	bs_tdict_set(sw, "KEY", rep->sweep);
	for (t = 0; t < bs_nmetrics; t++)
		if (charted(rep, t))
			sweep_chart(rep, t, sw);
}
