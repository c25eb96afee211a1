/*
 * report/site_trend.c - the trend charts of a list page.
 */
#include "report/site.h"
#include "core/supply.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "core/identity.h"
#include "core/metric.h"
#include "core/param.h"
#include "core/result.h"
#include "report/changes.h"
#include "report/chart.h"
#include "report/internal.h"
#include "report/site_int.h"
#include "report/tmpl/tmpl.h"
#include "report/trend.h"
#include "util/embed.h"
#include "util/hash.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/timefmt.h"
#include "util/banned.h"

/* ---- trend charts ----------------------------------------------------- */

/* The number of run id among the chart's points, or NAN. */
static double point_value(const struct bs_trend_sample *pt, size_t n,
			  int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pt[i].id == id)
			return pt[i].v;
	return NAN;
}

/*
 * The change points of the chart's series (machine, test, catalogue
 * metric m) whose runs before and after are both among its points (a
 * tag's page may chart a part of a series only): each a CP of the chart
 * (bs_changes_mark's names, X, Y and the plot's Y_TOP, Y_BOT) and a
 * CP_TEXT for the text below it.
 */
static void chart_changes(struct site *s, struct bs_tdict *c,
			  const struct bs_spark *sp, int m,
			  const struct bs_trend_sample *pt, size_t n,
			  const char *machine, const char *test)
{
	const struct bs_changes *ch = s->changes;
	size_t i;

	if (ch == NULL)
		return;
	for (i = bs_changes_next(ch, 0, machine, test, m); i < ch->n;
	     i = bs_changes_next(ch, i + 1, machine, test, m)) {
		const struct bs_changes_item *it = &ch->item[i];
		double v = point_value(pt, n, it->run_id);
		struct bs_tdict *x;

		if (isnan(v) || isnan(point_value(pt, n, it->prev_id)))
			continue;
		x = bs_tdict_add(c, "CP");
		bs_changes_mark(it, x);
		bs_tdict_setf(x, "X", "%.1f", bs_spark_x(sp, it->measured_at));
		bs_tdict_setf(x, "Y", "%.1f", bs_spark_y(sp, v));
		bs_tdict_set_i64(x, "Y_TOP", sp->f.top);
		bs_tdict_set_i64(x, "Y_BOT", sp->f.h - sp->f.bottom);
		bs_changes_mark(it, bs_tdict_add(c, "CP_TEXT"));
		bs_tdict_show(c, "HAS_CP");
	}
}

/* A small chart of a main metric's numbers by date (report/chart.h),
 * titled title. */
static void chart(struct site *s, struct bs_tdict *trend, int k,
		  const char *title, struct bs_trend_sample *pt, size_t n,
		  const char *machine, const char *test)
{
	struct bs_spark sp;
	struct bs_tdict *c, *p;
	struct bs_buf pts = BS_BUF_INIT;
	char num[64], date[48];
	double vmax = 0;
	size_t i;
	int m = s->main[k];

	qsort(pt, n, sizeof(*pt), bs_trend_sample_cmp);
	for (i = 0; i < n; i++)
		if (pt[i].v > vmax)
			vmax = pt[i].v;
	bs_spark_init(&sp, pt[0].t, pt[n - 1].t, vmax);
	c = bs_tdict_add(trend, "CHART");
	bs_tdict_set(c, "LABEL", title);
	bs_tdict_set(c, "UNIT", bs_metric_unit(m, 0));
	bs_spark_fill(&sp, c);
	bs_tdict_set(c, "VMAX",
		     bs_metric_fmt(num, sizeof(num), m, vmax, BS_SHOW_GROUP));
	bs_tdict_set(c, "VMIN", "0");
	bs_tdict_setf(c, "DFIRST", "%.10s",
		      bs_site_date_text(pt[0].t, date, sizeof(date)));
	bs_tdict_setf(c, "DLAST", "%.10s",
		      bs_site_date_text(pt[n - 1].t, date, sizeof(date)));
	for (i = 0; i < n && n <= CHART_POINTS_MAX; i++) {
		p = bs_tdict_add(c, "PT");
		bs_tdict_setf(p, "X", "%.1f", bs_spark_x(&sp, pt[i].t));
		bs_tdict_setf(p, "Y", "%.1f", bs_spark_y(&sp, pt[i].v));
		bs_tdict_set_i64(p, "ID", pt[i].id);
		bs_tdict_set(p, "DATE",
			     bs_site_date_text(pt[i].t, date, sizeof(date)));
		bs_tdict_set(p, "VALUE",
			     bs_metric_fmt(num, sizeof(num), m, pt[i].v,
					   BS_SHOW_GROUP));
	}
	bs_spark_line(&sp, pt, n, &pts);
	bs_tdict_set(c, "POINTS", bs_buf_str(&pts));
	bs_buf_release(&pts);
	chart_changes(s, c, &sp, m, pt, n, machine, test);
}

/* A list's dated runs by test (key order), machine, then date. */
static int cmp_series(const void *pa, const void *pb)
{
	const struct srun *a = bs_site_sort->runs + *(const size_t *)pa;
	const struct srun *b = bs_site_sort->runs + *(const size_t *)pb;
	int c = a->test == b->test ? 0
				   : strcmp(bs_site_sort->tests[a->test].key,
					    bs_site_sort->tests[b->test].key);

	if (c == 0)
		c = strcmp(a->machine, b->machine);
	if (c == 0 && a->measured_at != b->measured_at)
		c = a->measured_at < b->measured_at ? -1 : 1;
	return c ? c : (a->id > b->id) - (a->id < b->id);
}

/* A chart to draw: main metric k of the runs d[first..end). */
struct schart {
	size_t first, end, test; /* test: index into the charted tests */
	int k;
};

/*
 * The trend charts of a list, when its runs were measured on several
 * days: one per test (identity), main metric the test measures and
 * machine that has two numbers or more, titled "sysbench rndrw, 4
 * threads: read", and ", on jump" when the list has several machines.
 * No line joins runs of two tests or two machines. The dated runs are
 * sorted once by test, machine and date, so a page costs n log n.
 */
void bs_site_trend(struct site *s, struct bs_tdict *list, const size_t *runs,
		   size_t n)
{
	struct bs_trend_sample *pt = xcalloc(n ? n : 1, sizeof(*pt));
	size_t *d = xcalloc(n ? n : 1, sizeof(*d));
	size_t *tests = xcalloc(n ? n : 1, sizeof(*tests));
	struct schart *ch = NULL;
	size_t nch = 0, capch = 0, nd = 0, nt = 0;
	struct bs_tdict *t = NULL;
	struct bs_buf title = BS_BUF_INIT;
	char **names = NULL;
	const char *machine0 = NULL;
	int64_t day = BS_NONE;
	size_t i, j, e, c, np;
	int k, days = 0, machines = 1;

	for (i = 0; i < n; i++) {
		const struct srun *r = &s->runs[runs[i]];

		if (r->measured_at == BS_NONE)
			continue;
		if (day == BS_NONE || r->measured_at / 86400 != day)
			days += days < 2;
		day = r->measured_at / 86400;
		if (machine0 == NULL)
			machine0 = r->machine;
		machines += machines == 1 && r->machine != machine0;
		d[nd++] = runs[i];
	}
	if (days < 2)
		nd = 0;
	bs_site_sort = s;
	qsort(d, nd, sizeof(*d), cmp_series);
	/* The charts: per test, each main metric, each machine. */
	for (i = 0; i < nd; i = j) {
		const struct stest *x = &s->tests[s->runs[d[i]].test];
		size_t before = nch;

		for (j = i; j < nd && s->runs[d[j]].test == s->runs[d[i]].test;
		     j++)
			;
		for (k = 0; k < s->nmain; k++) {
			if (bs_metrics[s->main[k]].family != x->id.family ||
			    !bs_ident_measures(&x->id, s->main[k]))
				continue;
			for (c = i; c < j; c = e) {
				for (e = c, np = 0;
				     e < j && s->runs[d[e]].machine ==
						      s->runs[d[c]].machine;
				     e++)
					np += s->runs[d[e]].status[s->slot[k]] ==
						      BS_ST_OK &&
					      !isnan(s->runs[d[e]]
							     .val[s->slot[k]]);
				if (np < 2)
					continue;
				xgrow((void **)&ch, &capch, nch + 1,
				      sizeof(*ch));
				ch[nch].first = c;
				ch[nch].end = e;
				ch[nch].test = nt;
				ch[nch++].k = k;
			}
		}
		if (nch > before)
			tests[nt++] = s->runs[d[i]].test;
	}
	names = xcalloc(nt ? nt : 1, sizeof(*names));
	bs_site_name_tests(s, tests, nt, names);
	for (c = 0; c < nch && c < CHARTS_MAX; c++) {
		int m = s->main[ch[c].k];
		const char *label = bs_metrics[m].label;

		for (i = ch[c].first, np = 0; i < ch[c].end; i++) {
			const struct srun *r = &s->runs[d[i]];

			if (r->status[s->slot[ch[c].k]] != BS_ST_OK ||
			    isnan(r->val[s->slot[ch[c].k]]))
				continue;
			pt[np].t = r->measured_at;
			pt[np].id = r->id;
			pt[np].v = r->val[s->slot[ch[c].k]];
			np++;
		}
		if (t == NULL)
			t = bs_tdict_add(list, "TREND");
		bs_buf_reset(&title);
		bs_buf_addf(&title, "%s: ", names[ch[c].test]);
		/* "Block write" reads "block write" after the test. */
		if (label[0] >= 'A' && label[0] <= 'Z' && label[1] >= 'a' &&
		    label[1] <= 'z')
			bs_buf_addf(&title, "%c%s", label[0] - 'A' + 'a',
				    label + 1);
		else
			bs_buf_adds(&title, label);
		if (machines > 1)
			bs_buf_addf(&title, ", on %s",
				    bs_store_machine_name(
					    s->runs[d[ch[c].first]].machine));
		chart(s, t, ch[c].k, bs_buf_str(&title), pt, np,
		      s->runs[d[ch[c].first]].machine,
		      s->tests[s->runs[d[ch[c].first]].test].key);
	}
	if (nch > CHARTS_MAX)
		bs_tdict_setf(bs_tdict_add(t, "TREND_MORE"), "TEXT",
			      "The first %d of %zu charts; the others are on "
			      "the pages of their machines.",
			      CHARTS_MAX, nch);
	bs_buf_release(&title);
	for (i = 0; i < nt; i++)
		free(names[i]);
	free(names);
	free(ch);
	free(tests);
	free(d);
	free(pt);
}
