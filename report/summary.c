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

void bs_rsay_state(struct bs_buf *b, const struct bs_report *rep, size_t i,
		   int cat)
{
	const struct bs_report_group *g = &rep->groups[i];
	const struct bs_report_summary *s = &g->sum;
	enum bs_verdict v = s->state[cat];
	char label[96];
	int m = s->few_m[cat];

	bs_buf_adds(b, bs_verdicts[v].words);
	if (v == BS_V_FEW && m >= 0) {
		/* The cell, and the side with the fewest timed runs. */
		const struct bs_report_cell *c = &g->cell[m];
		const struct bs_report_cell *bc = &rep->groups[g->base].cell[m];
		int base = bc->ok < c->ok;
		int64_t ok = base ? bc->ok : c->ok;

		bs_buf_addf(b, " (%s: %lld timed %s in [%zu])",
			    bs_rm_label(m, label, sizeof(label)), (long long)ok,
			    ok == 1 ? "run" : "runs", (base ? g->base : i) + 1);
	} else if (v == BS_V_NOTSIG && !isnan(s->p_min[cat])) {
		bs_buf_addf(b, " (p = %.2g after %d %s)", s->p_min[cat],
			    rep->ntests, rep->ntests == 1 ? "test" : "tests");
	}
}

void bs_rsay_cell(const struct bs_report *rep, size_t i, int m,
		  struct bs_buf *b)
{
	const struct bs_report_group *g = &rep->groups[i];
	const struct bs_report_cell *x = &g->cell[m];
	double noise = bs_report_noise(rep);

	switch (x->verdict) {
	case BS_V_BETTER:
	case BS_V_WORSE:
		bs_buf_addf(b,
			    "%s than the baseline: p = %.2g after %d tests "
			    "(Welch's t-test, Holm-corrected over the page)",
			    bs_verdicts[x->verdict].words, x->p, rep->ntests);
		break;
	case BS_V_NOISE:
		bs_buf_adds(b, bs_verdicts[BS_V_NOISE].words);
		if (x->in_print)
			bs_buf_adds(b, ": within the precision the tools "
				       "printed");
		else
			bs_buf_addf(b, ": under %g%%", noise);
		break;
	case BS_V_NOTSIG:
		bs_buf_addf(b,
			    "%s: p = %.2g after %d tests (Welch's t-test, "
			    "Holm-corrected over the page)",
			    bs_verdicts[BS_V_NOTSIG].words, x->p, rep->ntests);
		break;
	case BS_V_FEW:
		/* Untested: the way the number went, not a verdict. */
		bs_buf_addf(b,
			    "%s by more than %g%%, but %lld and %lld timed "
			    "runs, under %d a side: not tested",
			    x->pct > 0 ? "higher" : "lower", noise,
			    (long long)x->ok,
			    (long long)rep->groups[g->base].cell[m].ok,
			    BS_STAT_MIN_N);
		break;
	case BS_V_SCALING:
		bs_buf_addf(b, "%s: this level against the first",
			    bs_verdicts[BS_V_SCALING].words);
		break;
	case BS_V_NONE:
		if (!isnan(x->pct))
			bs_buf_adds(b, "context: not one of the page's tests");
		break;
	default:
		if (BS_V_UNCOMPARED(x->verdict)) {
			bs_rrel_say(rep, i, BS_RM_TEST(m), b);
			bs_buf_adds(b, ": not compared");
		}
		break;
	}
	if (!isnan(x->ratio_lo))
		bs_buf_addf(b, "; ratio %.3g to %.3g (95%%)", x->ratio_lo,
			    x->ratio_hi);
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
	int cat, any = 0, v, parts = 0;
	const char *sep = "; ";

	bs_buf_addf(&t, "[%zu] %s against [%zu] %s:", i + 1, g->label,
		    g->base + 1, b->label);
	/* What takes verdicts away comes first (report/ident.c). */
	if (g->rel_why) {
		bs_buf_addf(&t, " %s", g->rel_why);
		any++;
	}
	for (cat = 0; cat < BS_CAT_COUNT; cat++) {
		if (s->n[cat] == 0)
			continue;
		bs_buf_addf(&t, "%s %s ", any++ ? ";" : "",
			    bs_category_name((enum bs_category)cat));
		bs_rsay_ratio(&t, raw_of(s->gm[cat], sign[cat]));
		bs_buf_adds(&t, ", ");
		bs_rsay_state(&t, rep, i, cat);
		parts++;
	}
	if (!any)
		bs_buf_adds(&t, " no rate to compare");
	else if (parts == 0 && g->rel_why)
		bs_buf_adds(&t, ": no verdict and no ratio across them");
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
	    s->verdicts[BS_V_NOISE] + s->verdicts[BS_V_NOTSIG] +
			    s->verdicts[BS_V_FEW] >
		    0) {
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

	if (cnt[BS_V_SCALING])
		return BS_V_SCALING;
	if (cnt[BS_V_BETTER] && cnt[BS_V_WORSE])
		return BS_V_MIXED;
	if (cnt[BS_V_BETTER])
		return up ? BS_V_BETTER : BS_V_MIXED;
	if (cnt[BS_V_WORSE])
		return down ? BS_V_WORSE : BS_V_MIXED;
	if (cnt[BS_V_FEW])
		return BS_V_FEW;
	if (cnt[BS_V_NOTSIG])
		return BS_V_NOTSIG;
	return BS_V_NOISE;
}

/* The verdict most of a category's uncompared cells have. */
static enum bs_verdict uncompared_state(const int *cnt)
{
	int v, best = BS_V_NONE;

	for (v = BS_V_APART; v <= BS_V_SCALING; v++)
		if (cnt[v] && (best == BS_V_NONE || cnt[v] > cnt[best]))
			best = v;
	return (enum bs_verdict)best;
}

/* The timed runs of the side of group i's cell m that has fewer. */
static int64_t fewest(const struct bs_report *rep, size_t i, int m)
{
	const struct bs_report_group *g = &rep->groups[i];
	int64_t a = g->cell[m].ok, b = rep->groups[g->base].cell[m].ok;

	return a < b ? a : b;
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
		memset(cnt, 0, sizeof(cnt));
		for (cat = 0; cat < BS_CAT_COUNT; cat++) {
			n[cat] = 0;
			sign[cat] = 1;
			s->gm[cat] = s->lo[cat] = s->hi[cat] = NAN;
			s->state[cat] = BS_V_NONE;
			s->few_m[cat] = -1;
			s->p_min[cat] = NAN;
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
			/* Not compared: no ratio (a sweep's levels have
			 * theirs: how the numbers scale). */
			if (BS_V_UNCOMPARED(c->verdict) &&
			    c->verdict != BS_V_SCALING)
				continue;
			sign[cat] = bs_rm_better(m);
			l[cat][n[cat]++] = log(f);
			few = c->ok < b->cell[m].ok ? c->ok : b->cell[m].ok;
			if (c->verdict == BS_V_FEW &&
			    (s->few_m[cat] < 0 ||
			     few < fewest(rep, i, s->few_m[cat])))
				s->few_m[cat] = m;
			if (c->verdict == BS_V_NOTSIG &&
			    (isnan(s->p_min[cat]) || c->p < s->p_min[cat]))
				s->p_min[cat] = c->p;
			if (s->top < 0 ||
			    fabs(log(f)) > fabs(log(s->top_factor))) {
				s->top = m;
				s->top_factor = f;
			}
		}
		for (cat = 0; cat < BS_CAT_COUNT; cat++) {
			category(s, cat, l[cat], n[cat]);
			if (n[cat])
				s->state[cat] = cat_state(cnt[cat], s->gm[cat],
							  bs_report_noise(rep));
			else
				s->state[cat] = uncompared_state(cnt[cat]);
		}
		memcpy(s->sign, sign, sizeof(s->sign));
		sentence(rep, i, s, sign);
	}
	for (cat = 0; cat < BS_CAT_COUNT; cat++)
		free(l[cat]);
}
