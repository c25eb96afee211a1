/*
 * report/stats.c - intervals, Welch's test, Holm's correction and the
 * verdict of a comparison cell (report/stats.h).
 */
#include "report/stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

#include "util/banned.h"

static double t_quantile(double df)
{
	return gsl_cdf_tdist_Pinv(1.0 - (1.0 - BS_STAT_LEVEL) / 2.0, df);
}

double bs_stat_mean_ci(const struct bs_stat_sample *s)
{
	if (!(s->n >= 2) || isnan(s->sd))
		return NAN;
	return t_quantile(s->n - 1) * s->sd / sqrt(s->n);
}

/* Moves the k-th smallest of v[0..n) to v[k], the smaller before it and
 * the larger after it (Hoare's selection; linear on average). */
static void select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2], t;
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

double bs_stat_median(double *v, size_t n)
{
	double below;
	size_t i;

	if (n == 0)
		return NAN;
	select_kth(v, n, n / 2);
	if (n % 2)
		return v[n / 2];
	/* The other middle one: the largest of the smaller half. */
	below = v[0];
	for (i = 1; i < n / 2; i++)
		if (v[i] > below)
			below = v[i];
	return (below + v[n / 2]) / 2;
}

double bs_stat_cv(const struct bs_stat_sample *s)
{
	if (!(s->n >= 2) || isnan(s->sd) || s->mean == 0)
		return NAN;
	return s->sd / fabs(s->mean);
}

/* Welch-Satterthwaite degrees of freedom of two variance terms. */
static double welch_df(double vg, double ng, double vb, double nb)
{
	double num = (vg + vb) * (vg + vb);
	double den = vg * vg / (ng - 1) + vb * vb / (nb - 1);

	return den > 0 ? num / den : ng + nb - 2;
}

double bs_stat_welch_p(const struct bs_stat_sample *g,
		       const struct bs_stat_sample *b)
{
	double vg, vb, se, t;

	if (!(g->n >= BS_STAT_MIN_N) || !(b->n >= BS_STAT_MIN_N))
		return NAN;
	vg = g->sd * g->sd / g->n;
	vb = b->sd * b->sd / b->n;
	se = sqrt(vg + vb);
	if (!(se > 0))
		return g->mean == b->mean ? 1.0 : 0.0;
	t = fabs(g->mean - b->mean) / se;
	return 2.0 * gsl_cdf_tdist_Q(t, welch_df(vg, g->n, vb, b->n));
}

int bs_stat_ratio_ci(const struct bs_stat_sample *g,
		     const struct bs_stat_sample *b, double *lo, double *hi)
{
	double vg, vb, se, q, r;

	if (!(g->n >= 2) || !(b->n >= 2) || !(g->mean > 0) || !(b->mean > 0) ||
	    isnan(g->sd) || isnan(b->sd))
		return 0;
	vg = g->sd * g->sd / (g->n * g->mean * g->mean);
	vb = b->sd * b->sd / (b->n * b->mean * b->mean);
	se = sqrt(vg + vb);
	r = log(g->mean / b->mean);
	q = se > 0 ? t_quantile(welch_df(vg, g->n, vb, b->n)) : 0;
	*lo = exp(r - q * se);
	*hi = exp(r + q * se);
	return 1;
}

void bs_stat_holm(double *p, size_t n, size_t *scratch)
{
	size_t i, m = 0;
	double run = 0;

	/* Insertion sort by p, ties in the metrics' order: a page has a
	 * few hundred metrics at most. */
	for (i = 0; i < n; i++) {
		size_t k = m++;

		if (isnan(p[i])) {
			m--;
			continue;
		}
		while (k > 0 && p[scratch[k - 1]] > p[i]) {
			scratch[k] = scratch[k - 1];
			k--;
		}
		scratch[k] = i;
	}
	for (i = 0; i < m; i++) {
		double adj = (double)(m - i) * p[scratch[i]];

		if (adj > 1)
			adj = 1;
		if (adj < run) /* stays monotone: never below a smaller p's */
			adj = run;
		run = adj;
		p[scratch[i]] = adj;
	}
}

enum bs_verdict bs_stat_verdict(double pct, int better, double p,
				double noise_pct)
{
	if (isnan(pct) || better == 0)
		return BS_V_NONE;
	if (fabs(pct) < noise_pct)
		return BS_V_NOISE;
	if (isnan(p))
		return BS_V_FEW;
	if (p >= BS_STAT_ALPHA)
		return BS_V_NOTSIG;
	return (pct > 0) == (better > 0) ? BS_V_BETTER : BS_V_WORSE;
}

/* clang-format off */
const struct bs_verdict_info bs_verdicts[BS_V_COUNT] = {
	[BS_V_NONE]   = { "",       "",                "",       "",         ' ', "", "", "", "", "", "", "" },
	[BS_V_BETTER] = { "better", "better",          "better", "better",   '^', "significant (Welch's t-test, p < 0.05, Holm-corrected) and past the noise threshold, the better way", "better", "#116329", "#dafbe1", "#2da44e", "25B2", "25B2" },
	[BS_V_WORSE]  = { "worse",  "worse",           "worse",  "worse",    'v', "the same, the worse way", "worse", "#a40e26", "#ffebe9", "#cf222e", "25BC", "25BC" },
	[BS_V_NOISE]  = { "noise",  "within noise",    "noise",  "noise",    '~', "a change under the noise threshold, or within the precision the tools printed", "within noise", "var(--mute)", "", "", "2248", "2248" },
	[BS_V_NOTSIG] = { "not_significant", "not significant", "noise", "noise", '=', "past the threshold, but not significant after Holm's correction over the page's tests", "not significant", "var(--mute)", "", "", "2248", "2248" },
	[BS_V_FEW]    = { "few",    "untested",        "few-up", "few-down", '?', "past the threshold, but under 3 runs a side, so not tested", "untested", "#33393f", "", "#c6ccd3", "25B3", "25BD" },
	[BS_V_APART]  = { "apart",  "different tests", "apart",  "apart",    '!', "a parameter that decides the numbers differs: not compared", "not compared (different tests)", "var(--mute)", "#fff8c5", "#8c959f", "2260", "2260" },
	[BS_V_CANT]   = { "cant_tell", "can't tell",   "apart",  "apart",    '!', "a parameter that decides the numbers is unknown on one side: not compared", "not compared (can't tell)", "var(--mute)", "#fff8c5", "#8c959f", "2260", "2260" },
	[BS_V_RELATED] = { "related", "related",       "apart",  "apart",    '!', "other implementations or tools measure it their own ways: shown side by side, not compared", "not compared (related)", "var(--mute)", "#fff8c5", "#8c959f", "2260", "2260" },
	[BS_V_MIXGRP] = { "mixed_group", "mixed group", "apart", "apart",    '!', "a group whose own runs ran different tests: not compared", "not compared (mixed group)", "var(--mute)", "#fff8c5", "#8c959f", "2260", "2260" },
	[BS_V_SCALING] = { "scaling", "scaling",       "",       "",         ' ', "a level of the swept factor against the first: how the numbers scale, not better or worse", "scaling", "", "", "", "", "" },
	[BS_V_MIXED]  = { "mixed",  "mixed",           "mixed",  "mixed",    ' ', "some metrics significantly better, some worse", "mixed", "", "", "", "", "" },
};
/* clang-format on */

const char *bs_verdict_name(enum bs_verdict v)
{
	return (unsigned)v < BS_V_COUNT ? bs_verdicts[v].name : "";
}
