/*
 * report/summary.c - each group against its baseline at a glance: the
 * geometric mean of its rates' factors per category, with an interval,
 * the verdicts counted, the biggest change, and one sentence a person
 * would write (struct bs_report_summary in report/report.h).
 */
#include <math.h>
#include <stdlib.h>

#include "report/internal.h"
#include "report/stats.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* The cell's factor, oriented so that above 1 is better; NAN if none. */
static double factor_of(int m, const struct bs_report_cell *c)
{
	int b = bs_rm_better(m);

	if (b == 0 || BS_RM_KIND(m) != BS_MK_RATE || !(c->ratio > 0) ||
	    !isfinite(c->ratio))
		return NAN;
	return b > 0 ? c->ratio : 1.0 / c->ratio;
}

/* Geometric mean of a category's factors, and a t interval over their
 * logs (how consistent the change is across its tests). */
static void category(struct bs_report_summary *s, int cat, const double *l,
		     int n)
{
	double sum = 0, ss = 0, mean;
	int i;

	s->n[cat] = n;
	s->gm[cat] = s->lo[cat] = s->hi[cat] = NAN;
	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		sum += l[i];
	mean = sum / n;
	s->gm[cat] = exp(mean);
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (l[i] - mean) * (l[i] - mean);
	{
		struct bs_stat_sample x = {n, mean, sqrt(ss / (n - 1))};
		double hw = bs_stat_mean_ci(&x);

		s->lo[cat] = exp(mean - hw);
		s->hi[cat] = exp(mean + hw);
	}
}

/* "4.10x faster", "about the same (1.04x)", "2.00x slower". */
static void say_factor(struct bs_buf *b, double f, double noise)
{
	if (f >= 1 + noise / 100)
		bs_buf_addf(b, "%.2fx better", f);
	else if (f <= 1 / (1 + noise / 100))
		bs_buf_addf(b, "%.2fx worse", 1 / f);
	else
		bs_buf_addf(b, "about the same (%.2fx)", f);
}

static void sentence(const struct bs_report *rep, size_t i,
		     struct bs_report_summary *s)
{
	const struct bs_report_group *b = &rep->groups[rep->groups[i].base];
	struct bs_buf t = BS_BUF_INIT;
	double noise = bs_report_noise(rep);
	char label[96];
	int cat, any = 0;

	bs_buf_addf(&t, "[%zu] %s against [%zu] %s:", i + 1,
		    rep->groups[i].label, rep->groups[i].base + 1, b->label);
	for (cat = 0; cat < BS_CAT_COUNT; cat++) {
		if (s->n[cat] == 0)
			continue;
		bs_buf_addf(&t, "%s %s ", any++ ? "," : "",
			    bs_category_name((enum bs_category)cat));
		say_factor(&t, s->gm[cat], noise);
	}
	if (!any)
		bs_buf_adds(&t, " no rate to compare");
	if (s->top >= 0 && fabs(log(s->top_factor)) >= log(1 + noise / 100)) {
		bs_buf_addf(&t, "; biggest change: %s, ",
			    bs_rm_label(s->top, label, sizeof(label)));
		say_factor(&t, s->top_factor, 0);
	}
	bs_buf_addf(&t, "; %d better, %d worse, %d within noise, %d untested "
			"(under %d runs a side)",
		    s->verdicts[BS_V_BETTER], s->verdicts[BS_V_WORSE],
		    s->verdicts[BS_V_NOISE], s->verdicts[BS_V_FEW],
		    BS_STAT_MIN_N);
	s->sentence = bs_buf_detach(&t, NULL);
}

void bs_report_summarise(struct bs_report *rep)
{
	double *l[BS_CAT_COUNT];
	int n[BS_CAT_COUNT], cat, m;
	size_t i;

	for (cat = 0; cat < BS_CAT_COUNT; cat++)
		l[cat] = xmalloc((size_t)bs_nmetrics * sizeof(double));
	for (i = 0; i < rep->ngroups; i++) {
		struct bs_report_group *g = &rep->groups[i];
		struct bs_report_summary *s = &g->sum;

		s->top = -1;
		s->top_factor = NAN;
		for (cat = 0; cat < BS_CAT_COUNT; cat++) {
			n[cat] = 0;
			s->gm[cat] = s->lo[cat] = s->hi[cat] = NAN;
		}
		if (i == g->base)
			continue;
		for (m = 0; m < BS_RM_USED; m++) {
			const struct bs_report_cell *c = &g->cell[m];
			double f = factor_of(m, c);

			if (!rep->shown[m] || isnan(f))
				continue;
			cat = bs_metrics[BS_RM_TEST(m)].category;
			l[cat][n[cat]++] = log(f);
			s->verdicts[c->verdict]++;
			if (s->top < 0 ||
			    fabs(log(f)) > fabs(log(s->top_factor))) {
				s->top = m;
				s->top_factor = f;
			}
		}
		for (cat = 0; cat < BS_CAT_COUNT; cat++)
			category(s, cat, l[cat], n[cat]);
		sentence(rep, i, s);
	}
	for (cat = 0; cat < BS_CAT_COUNT; cat++)
		free(l[cat]);
}
