/*
 * report/curves.c - the curves a report keeps (report/report.h, "Curves"):
 * which runs' curves, within what bounds, how groups share the room, and
 * the summary of each curve (first, last, least, mean and most rate).
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/zcav.h"
#include "report/internal.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* The summary of a curve over its points with a number. */
void bs_rcurve_summarise(struct bs_report_curve *c)
{
	double sum = 0;
	size_t i;

	c->ok = 0;
	c->first = c->last = c->min = c->mean = c->max = NAN;
	for (i = 0; i < c->n; i++) {
		double y = c->pt[i].y;
		if (!isfinite(y))
			continue;
		if (c->ok++ == 0) {
			c->first = c->min = c->max = y;
		} else {
			if (y < c->min)
				c->min = y;
			if (y > c->max)
				c->max = y;
		}
		c->last = y;
		sum += y;
	}
	if (c->ok)
		c->mean = sum / (double)c->ok;
}

static void drop(struct bs_report *rep, size_t k)
{
	struct bs_report_curve *c = &rep->curves[k];

	assert(k < rep->ncurves);
	rep->groups[c->group].curves_kept--;
	rep->npoints -= c->n;
	free(c->machine);
	free(c->pt);
	memmove(c, c + 1, (rep->ncurves - k - 1) * sizeof(*c));
	rep->ncurves--;
}

/*
 * Finds the curves to drop so that one of group g with need points fits:
 * each the last kept curve of the group that keeps the most (the later
 * group on a tie), taken only while that group keeps at least two more
 * than g, so that the result is fairer and no two groups trade curves
 * back and forth. Marks them in gone[]; returns 0 when the curve then
 * fits, -1 when it does not (nothing is to be dropped then).
 */
static int make_room(const struct bs_report *rep, size_t g, size_t need,
		     unsigned char gone[BS_REPORT_CURVES_MAX])
{
	size_t ncur = rep->ncurves, npts = rep->npoints, k, last;
	int64_t most, left;

	memset(gone, 0, BS_REPORT_CURVES_MAX);
	while (ncur + 1 > BS_REPORT_CURVES_MAX ||
	       npts + need > BS_REPORT_POINTS_MAX) {
		size_t h = 0;
		most = -1;
		/* Kept curves per group, less those already marked. */
		for (k = 0; k < rep->ncurves; k++) {
			size_t j, gk = rep->curves[k].group;
			if (gone[k])
				continue;
			left = 0;
			for (j = 0; j < rep->ncurves; j++)
				left += !gone[j] && rep->curves[j].group == gk;
			if (left > most || (left == most && gk > h)) {
				most = left;
				h = gk;
			}
		}
		left = 0;
		for (k = 0; k < rep->ncurves; k++)
			left += !gone[k] && rep->curves[k].group == g;
		if (most < left + 2)
			return -1;
		last = rep->ncurves;
		for (k = 0; k < rep->ncurves; k++)
			if (!gone[k] && rep->curves[k].group == h)
				last = k;
		assert(last < rep->ncurves);
		gone[last] = 1;
		ncur--;
		npts -= rep->curves[last].n;
	}
	return 0;
}

void bs_rcurves_add(struct bs_report *rep, size_t g, const struct bs_run *r,
		    int want_any)
{
	struct bs_report_group *grp = &rep->groups[g];
	unsigned char gone[BS_REPORT_CURVES_MAX];
	struct bs_report_curve *c;
	size_t i, k;

	assert(g < rep->ngroups);
	for (i = 0; i < r->nseries; i++) {
		const struct bs_series *s = &r->series[i];
		int t = s->metric;
		assert(t >= 0 && t < bs_nmetrics);
		if (!(bs_metrics[t].flags & BS_MF_SERIES) ||
		    (want_any && !rep->opts.want[BS_RM(t, BS_MK_RATE)]) ||
		    s->n == 0 || s->axis == NULL ||
		    strcmp(s->axis, BS_REPORT_CURVE_AXIS) != 0)
			continue;
		grp->curves_seen++;
		if (s->n > BS_REPORT_POINTS_MAX ||
		    make_room(rep, g, s->n, gone) < 0)
			continue;
		for (k = rep->ncurves; k-- > 0;)
			if (gone[k])
				drop(rep, k);
		xgrow((void **)&rep->curves, &rep->curves_cap, rep->ncurves + 1,
		      sizeof(*rep->curves));
		c = &rep->curves[rep->ncurves++];
		memset(c, 0, sizeof(*c));
		c->test = t;
		c->group = g;
		c->id = r->id;
		c->machine = xstrdup(bs_store_machine_name(r->machine));
		c->on_device = bs_zcav_on_device(r);
		c->n = s->n;
		c->pt = xmalloc(s->n * sizeof(*c->pt));
		memcpy(c->pt, s->pt, s->n * sizeof(*c->pt));
		bs_rcurve_summarise(c);
		rep->npoints += c->n;
		grp->curves_kept++;
	}
}

void bs_rcurves_finish(struct bs_report *rep)
{
	struct bs_buf b = BS_BUF_INIT;
	int64_t seen = 0;
	size_t i;
	int n = 0;

	/* A curve of a metric no group has a result of is not shown. */
	for (i = rep->ncurves; i-- > 0;) {
		if (rep->shown[BS_RM(rep->curves[i].test, BS_MK_RATE)])
			continue;
		rep->groups[rep->curves[i].group].curves_seen--;
		drop(rep, i);
	}
	for (i = 0; i < rep->ngroups; i++)
		seen += rep->groups[i].curves_seen;
	if (seen == (int64_t)rep->ncurves)
		return;
	bs_buf_addf(&b,
		    "%zu of %lld curves are drawn: a report keeps at most %d "
		    "curves and %d points in all, shared between the groups "
		    "(each group's first runs); left out:",
		    rep->ncurves, (long long)seen, BS_REPORT_CURVES_MAX,
		    BS_REPORT_POINTS_MAX);
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		if (g->curves_seen == g->curves_kept)
			continue;
		bs_buf_addf(&b, "%s [%zu] %lld of %lld", n++ ? "," : "", i + 1,
			    (long long)(g->curves_seen - g->curves_kept),
			    (long long)g->curves_seen);
	}
	rep->curves_note = bs_buf_detach(&b, NULL);
}

void bs_rcurves_free(struct bs_report *rep)
{
	size_t i;

	for (i = 0; i < rep->ncurves; i++) {
		free(rep->curves[i].machine);
		free(rep->curves[i].pt);
	}
	free(rep->curves);
	free(rep->curves_note);
}
