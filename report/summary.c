/*
 * report/summary.c - each group against its baseline at a glance: the
 * geometric mean of its rates' factors per category, with an interval,
 * the verdicts counted, the biggest change, and one sentence a person
 * would write (struct bs_report_summary in report/report.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * The one way a change is written (docs/report.md): the larger number
 * over the smaller, with the way the number went: "1.17x higher",
 * "1.17x lower" (a ratio of 0.86), "unchanged (1.00x)". f is group /
 * baseline.
 */
void bs_rsay_ratio(struct bs_buf *b, double f)
{
	char s[32];

	if (!(f > 0) || !isfinite(f)) {
		bs_buf_adds(b, "no ratio");
		return;
	}
	snprintf(s, sizeof(s), "%.2f", f >= 1 ? f : 1 / f);
	if (strcmp(s, "1.00") == 0)
		bs_buf_adds(b, "unchanged (1.00x)");
	else
		bs_buf_addf(b, "%sx %s", s, f >= 1 ? "higher" : "lower");
}

void bs_rsay_state(struct bs_buf *b, enum bs_verdict v, int64_t few)
{
	bs_buf_adds(b, bs_verdicts[v].words);
	if (v == BS_V_FEW && few >= 0)
		bs_buf_addf(b, ": %lld %s a side", (long long)few,
			    few == 1 ? "run" : "runs");
}

/* The raw ratio (group / baseline) of a category's oriented factor gm:
 * its metrics share one better side, sign. */
static double raw_of(double gm, int sign)
{
	return sign < 0 ? 1 / gm : gm;
}

static void sentence(const struct bs_report *rep, size_t i,
		     struct bs_report_summary *s, const int *sign)
{
	const struct bs_report_group *g = &rep->groups[i];
	const struct bs_report_group *b = &rep->groups[g->base];
	struct bs_buf t = BS_BUF_INIT;
	double noise = bs_report_noise(rep);
	char label[96];
	int cat, any = 0, v, parts = 0, few_said = 0;
	const char *sep = "; ";

	bs_buf_addf(&t, "[%zu] %s against [%zu] %s:", i + 1, g->label,
		    g->base + 1, b->label);
	if (g->apart_why) {
		bs_buf_addf(&t, " %s (%s)", bs_verdicts[BS_V_APART].words,
			    g->apart_why);
		any++;
	}
	for (cat = 0; cat < BS_CAT_COUNT; cat++) {
		if (s->n[cat] == 0)
			continue;
		bs_buf_addf(&t, "%s %s ", any++ ? ";" : "",
			    bs_category_name((enum bs_category)cat));
		bs_rsay_ratio(&t, raw_of(s->gm[cat], sign[cat]));
		bs_buf_adds(&t, ", ");
		/* The runs a side once, where "untested" first appears. */
		bs_rsay_state(&t, s->state[cat], few_said ? -1 : s->few_runs);
		few_said |= s->state[cat] == BS_V_FEW;
		parts++;
	}
	if (!any)
		bs_buf_adds(&t, " no rate to compare");
	else if (parts == 0 && g->apart_why)
		bs_buf_adds(&t, ": no ratio is given across them");
	if (s->top >= 0 && fabs(log(s->top_factor)) >= log(1 + noise / 100)) {
		const struct bs_report_cell *c = &g->cell[s->top];

		bs_buf_addf(&t, "; biggest change: %s, ",
			    bs_rm_label(s->top, label, sizeof(label)));
		bs_rsay_ratio(&t, c->ratio);
		bs_buf_addf(&t, " (%s)", bs_verdicts[c->verdict].words);
	}
	/* The cells counted by verdict, only the verdicts there are: a
	 * page where nothing is significant says so in words. */
	if (s->verdicts[BS_V_BETTER] + s->verdicts[BS_V_WORSE] == 0 &&
	    s->verdicts[BS_V_NOISE] + s->verdicts[BS_V_FEW] > 0) {
		bs_buf_adds(&t, "; no significant change:");
		sep = " ";
	}
	for (v = BS_V_BETTER; v < BS_V_COUNT; v++) {
		if (s->verdicts[v] == 0)
			continue;
		bs_buf_addf(&t, "%s%d %s", sep, s->verdicts[v],
			    bs_verdicts[v].tally);
		sep = ", ";
		if (v == BS_V_FEW)
			bs_buf_addf(&t, " (under %d runs a side)",
				    BS_STAT_MIN_N);
	}
	s->sentence = bs_buf_detach(&t, NULL);
}

/*
 * A category's state from its cells' verdicts (struct
 * bs_report_summary's state) and the way its figure went (gm above 1:
 * the better way).
 */
static enum bs_verdict cat_state(const int *cnt, double gm, double noise)
{
	int up = gm >= 1 + noise / 100, down = gm <= 1 / (1 + noise / 100);

	if (cnt[BS_V_BETTER] && cnt[BS_V_WORSE])
		return BS_V_MIXED;
	if (cnt[BS_V_BETTER])
		return up ? BS_V_BETTER : BS_V_MIXED;
	if (cnt[BS_V_WORSE])
		return down ? BS_V_WORSE : BS_V_MIXED;
	if (cnt[BS_V_FEW])
		return BS_V_FEW;
	return BS_V_NOISE;
}

void bs_report_summarise(struct bs_report *rep)
{
	double *l[BS_CAT_COUNT];
	int n[BS_CAT_COUNT], cat, m, sign[BS_CAT_COUNT];
	int cnt[BS_CAT_COUNT][BS_V_COUNT];
	size_t i;

	for (cat = 0; cat < BS_CAT_COUNT; cat++)
		l[cat] = xmalloc((size_t)bs_nmetrics * sizeof(double));
	for (i = 0; i < rep->ngroups; i++) {
		struct bs_report_group *g = &rep->groups[i];
		const struct bs_report_group *b = &rep->groups[g->base];
		struct bs_report_summary *s = &g->sum;

		s->top = -1;
		s->top_factor = NAN;
		s->few_runs = -1;
		memset(cnt, 0, sizeof(cnt));
		for (cat = 0; cat < BS_CAT_COUNT; cat++) {
			n[cat] = 0;
			sign[cat] = 1;
			s->gm[cat] = s->lo[cat] = s->hi[cat] = NAN;
			s->state[cat] = BS_V_NONE;
		}
		if (i == g->base)
			continue;
		for (m = 0; m < BS_RM_USED; m++) {
			const struct bs_report_cell *c = &g->cell[m];
			double f = factor_of(m, c);
			int64_t few;

			if (!rep->shown[m] || isnan(f))
				continue;
			cat = bs_metrics[BS_RM_TEST(m)].category;
			s->verdicts[c->verdict]++;
			cnt[cat][c->verdict]++;
			/* Different tests: no ratio. */
			if (c->verdict == BS_V_APART)
				continue;
			sign[cat] = bs_rm_better(m);
			l[cat][n[cat]++] = log(f);
			few = c->ok < b->cell[m].ok ? c->ok : b->cell[m].ok;
			if (c->verdict == BS_V_FEW &&
			    (s->few_runs < 0 || few < s->few_runs))
				s->few_runs = few;
			if (s->top < 0 ||
			    fabs(log(f)) > fabs(log(s->top_factor))) {
				s->top = m;
				s->top_factor = f;
			}
		}
		for (cat = 0; cat < BS_CAT_COUNT; cat++) {
			category(s, cat, l[cat], n[cat]);
			if (n[cat])
				s->state[cat] = cat_state(
					cnt[cat], s->gm[cat],
					bs_report_noise(rep));
			else if (cnt[cat][BS_V_APART])
				s->state[cat] = BS_V_APART;
		}
		memcpy(s->sign, sign, sizeof(s->sign));
		sentence(rep, i, s, sign);
	}
	for (cat = 0; cat < BS_CAT_COUNT; cat++)
		free(l[cat]);
}
