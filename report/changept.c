/*
 * report/changept.c - change points of one series (report/changept.h):
 * binary segmentation on the Mann-Whitney rank statistic, each split
 * tested by that statistic (the search's correction), then pruned against
 * its neighbours by it; Yuen's trimmed t-test on the logs for a split a
 * caller chose (bs_changept_test: bstore check's newest runs).
 * docs/changes.md gives the method and its references.
 *
 * The work is done on the series' numbers alone (its OK points, in
 * order: "ok space"); a change's indexes are mapped back at the end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "report/changept.h"
#include "report/stats.h"
#include "util/mem.h"
#include "util/banned.h"

/* Yuen's customary trimming (Wilcox 2012). */
#define TRIM 0.2

void bs_changept_opts_init(struct bs_changept_opts *o)
{
	o->noise_pct = BS_STAT_NOISE_PCT;
	o->alpha = BS_CHANGEPT_ALPHA;
	o->min_seg = BS_CHANGEPT_MIN_SEG;
	o->trim = TRIM;
}

/* A series in ok space, with the scratch the statistics need. */
struct cp {
	const struct bs_changept_opts *o;
	size_t m;        /* numbers */
	double *y;       /* what is tested: the logs, or the values */
	double *x;       /* the values (for the medians) */
	size_t *orig;    /* each number's index in the series */
	double *s1, *s2; /* scratch of m each */
	struct rk {
		double y;
		size_t i;
	} * rk;       /* scratch of m, for the ranks */
	double *rank; /* scratch of m */
	double *ps;   /* scratch of m + 1: the ranks' prefix sums */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static int cmp_rk(const void *a, const void *b)
{
	const struct rk *x = a, *y = b;

	if (x->y != y->y)
		return (x->y > y->y) - (x->y < y->y);
	return (x->i > y->i) - (x->i < y->i);
}

/*
 * Of one sorted side: its trimmed mean, the winsorized sum of squares
 * (the g smallest numbers set to the (g+1)-th, the g largest to the
 * (n-g)-th: sum of (w - mean w)^2). Returns h, the numbers kept.
 */
static size_t yuen_side(const double *v, size_t n, double trim, double *tm,
			double *ssw)
{
	size_t g = (size_t)floor(trim * (double)n), h = n - 2 * g, i;
	double lo = v[g], hi = v[n - g - 1], sum = 0, wsum = 0, wss = 0, w;

	for (i = g; i < n - g; i++)
		sum += v[i];
	*tm = sum / (double)h;
	*ssw = 0;
	if (lo == hi)
		return h; /* no spread: exactly, not by rounding */
	for (i = 0; i < n; i++) {
		w = v[i] < lo ? lo : v[i] > hi ? hi : v[i];
		wsum += w;
	}
	wsum /= (double)n;
	for (i = 0; i < n; i++) {
		w = v[i] < lo ? lo : v[i] > hi ? hi : v[i];
		wss += (w - wsum) * (w - wsum);
	}
	*ssw = wss;
	return h;
}

/*
 * The two-sided trimmed t-test of equal trimmed means (Yuen and Dixon
 * 1973) of the n1 numbers in c->s1 and the n2 in c->s2 (sorted here):
 * t = (tm1 - tm2) / sqrt(s^2 (1 / h1 + 1 / h2)), s^2 = (ssw1 + ssw2) /
 * (h1 + h2 - 2), on h1 + h2 - 2 degrees of freedom. The spread is
 * pooled, not Welch's: on the logs, benchmark noise is one proportion
 * of the level on both sides of a shift, and pooling keeps three runs
 * that happen to agree closely from passing for a level of their own.
 * Both sides without spread: 0 when the means differ, 1 when equal.
 */
static double yuen(struct cp *c, size_t n1, size_t n2)
{
	size_t h1, h2;
	double t1, t2, q1, q2, s2, t, df;

	qsort(c->s1, n1, sizeof *c->s1, cmp_double);
	qsort(c->s2, n2, sizeof *c->s2, cmp_double);
	h1 = yuen_side(c->s1, n1, c->o->trim, &t1, &q1);
	h2 = yuen_side(c->s2, n2, c->o->trim, &t2, &q2);
	/* One number on a side is allowed (the pooled spread is the other
	 * side's: a prediction test of one new run). */
	if (h1 < 1 || h2 < 1 || h1 + h2 < 3)
		return NAN;
	df = (double)(h1 + h2 - 2);
	s2 = (q1 + q2) / df;
	/* No spread at all: levels of several runs each that differ are
	 * apart; one run against a level that never moved (a number
	 * printed to two decimals) says nothing of the noise. */
	if (s2 <= 0)
		return t1 == t2 ? 1.0 : h1 < 2 || h2 < 2 ? NAN : 0.0;
	t = fabs(t1 - t2) / sqrt(s2 * (1.0 / (double)h1 + 1.0 / (double)h2));
	return 2.0 * gsl_cdf_tdist_Q(t, df);
}

/* Yuen's test of y[a, k) against y[k, b). */
static double yuen_p(struct cp *c, size_t a, size_t k, size_t b)
{
	memcpy(c->s1, c->y + a, (k - a) * sizeof *c->s1);
	memcpy(c->s2, c->y + k, (b - k) * sizeof *c->s2);
	return yuen(c, k - a, b - k);
}

/* The places a split of [a, b) may be: each side min_seg numbers. */
static double tries(const struct cp *c, size_t a, size_t b)
{
	size_t len = b - a, two = 2 * c->o->min_seg;

	return len >= two ? (double)(len - two + 1) : 0;
}

/*
 * The mid-ranks of y[a, b) into c->rank[0, b - a), and the variance
 * factor of a rank sum: the rank sum of w of the n numbers has variance
 * w (n - w) / 12 * ((n + 1) - ties / (n (n - 1))) (Mann-Whitney's, with
 * the ties' correction), ties the sum of t^3 - t over runs of t equal
 * numbers. Returns that last factor; 0 when every number is the same.
 */
static double ranks(struct cp *c, size_t a, size_t b)
{
	size_t len = b - a, i, j, k;
	double ties = 0, n = (double)len, t, var;

	for (i = 0; i < len; i++) {
		c->rk[i].y = c->y[a + i];
		c->rk[i].i = i;
	}
	qsort(c->rk, len, sizeof *c->rk, cmp_rk);
	for (i = 0; i < len; i = j) {
		for (j = i + 1; j < len && c->rk[j].y == c->rk[i].y; j++)
			;
		t = (double)(j - i);
		ties += t * t * t - t;
		for (k = i; k < j; k++)
			c->rank[c->rk[k].i] = (double)(i + j + 1) / 2.0;
	}
	var = (n + 1) - ties / (n * (n - 1));
	return var <= 1e-12 * n ? 0 : var;
}

/*
 * Where [a, b) splits best: the k (a + min_seg <= k <= b - min_seg)
 * whose rank sum of y[a, k) is furthest from its expectation, in
 * standard deviations (Mann-Whitney's statistic, standardised). Returns
 * 0 when no split is possible or every number is the same. The ranks'
 * prefix sums stay in c->ps for best_pair.
 */
static size_t best_split(struct cp *c, size_t a, size_t b, double *var,
			 double *z2best)
{
	size_t len = b - a, k, best = 0, ms = c->o->min_seg;
	double n = (double)len, s = 0, z2, bestz2 = -1, u;

	*var = 0;
	*z2best = 0;
	if (len < 2 * ms)
		return 0;
	*var = ranks(c, a, b);
	if (*var == 0)
		return 0;
	c->ps[0] = 0;
	for (k = 1; k <= len; k++) {
		s += c->rank[k - 1];
		c->ps[k] = s;
		if (k < ms || len - k < ms)
			continue;
		u = s - (double)k * (n + 1) / 2.0;
		z2 = u * u / ((double)k * (double)(len - k) / 12.0 * *var);
		if (z2 > bestz2) {
			bestz2 = z2;
			best = a + k;
		}
	}
	*z2best = bestz2 > 0 ? bestz2 : 0;
	return best;
}

/*
 * The stretch [i, j) inside [a, b) (each of the three parts min_seg
 * numbers or more) whose ranks differ most from the rest's: circular
 * binary segmentation's split (Olshen et al. 2004), which finds a level
 * that came and went, where a single split of the whole stretch sees
 * little. Needs best_split's prefix sums of the ranks. Returns the number
 * of places tried (0: none), *i and *j set.
 */
static double best_pair(struct cp *c, size_t a, size_t b, double var,
			size_t *bi, size_t *bj, double *z2best)
{
	size_t len = b - a, ms = c->o->min_seg, i, j, w;
	double n = (double)len, u, z2, bestz2 = -1, ntries = 0;
	const double *ps = c->ps;

	if (len < 3 * ms || var == 0)
		return 0;
	for (i = ms; i + 2 * ms <= len; i++)
		for (j = i + ms; j + ms <= len; j++) {
			w = j - i;
			u = ps[j] - ps[i] - (double)w * (n + 1) / 2.0;
			z2 = u * u /
			     ((double)w * (double)(len - w) / 12.0 * var);
			ntries++;
			if (z2 > bestz2) {
				bestz2 = z2;
				*bi = a + i;
				*bj = a + j;
			}
		}
	*z2best = bestz2 > 0 ? bestz2 : 0;
	return ntries;
}

/* The median of x[a, b). */
static double median_of(struct cp *c, size_t a, size_t b)
{
	memcpy(c->s1, c->x + a, (b - a) * sizeof *c->s1);
	return bs_stat_median(c->s1, b - a);
}

/*
 * The p-value of the best of the splits of a stretch of len numbers
 * (each side ms or more), whose own test gave p: the chance that the
 * largest of the ntries statistics is this far out when nothing
 * changed. The splits' statistics are strongly correlated (neighbours
 * share all numbers but one), so Bonferroni's ntries * p is far too
 * strict on a long series. Under no change a standardised two-sample
 * statistic over the split fraction t is a Brownian bridge over
 * sqrt(t (1 - t)), an Ornstein-Uhlenbeck process in log(t / (1 - t)),
 * whose maximum over [t0, 1 - t0] exceeds b with probability about
 * b phi(b) 2 log((1 - t0) / t0) (James, James and Siegmund 1987;
 * Siegmund 1988, without the discreteness correction, which only
 * lowers it): p read as the normal b of the same two-sided tail.
 * The smaller of the two bounds, never below p itself.
 */
static double max_p(double p, double ntries, size_t len, size_t ms)
{
	double adj, b, t0, approx;

	if (isnan(p) || ntries <= 1)
		return p;
	adj = p * ntries;
	if (p > 0 && len > 2 * ms) {
		b = gsl_cdf_ugaussian_Qinv(p / 2);
		t0 = (double)ms / (double)len;
		approx = b * gsl_ran_ugaussian_pdf(b) * 2.0 *
			 log((1 - t0) / t0);
		if (approx < adj)
			adj = approx;
	}
	return fmin(1.0, fmax(p, adj));
}

/*
 * The two-sided p-value of the standardised Mann-Whitney statistic of
 * y[a, k) against y[k, b) (its normal approximation, with ranks()'s
 * correction for ties): the statistic best_split maximises, so that a
 * split is found and tested by one measure. NAN when every number is
 * the same.
 */
static double rank_p(struct cp *c, size_t a, size_t k, size_t b)
{
	double var = ranks(c, a, b), s = 0, n = (double)(b - a);
	double w = (double)(k - a), u;
	size_t i;

	if (var == 0)
		return NAN;
	for (i = 0; i < k - a; i++)
		s += c->rank[i];
	u = s - w * (n + 1) / 2.0;
	return 2.0 *
	       gsl_cdf_ugaussian_Q(fabs(u) / sqrt(w * (n - w) / 12.0 * var));
}

/* The statistics of [a, k) against [k, b), in ok space, into *r: p from
 * the rank statistic (rank) or from Yuen's test. */
static void measure(struct cp *c, size_t a, size_t k, size_t b, double ntries,
		    int rank, struct bs_changept *r)
{
	double p = rank ? rank_p(c, a, k, b) : yuen_p(c, a, k, b);

	r->before = median_of(c, a, k);
	r->after = median_of(c, k, b);
	r->n_before = k - a;
	r->n_after = b - k;
	r->ratio = r->before != 0 ? r->after / r->before : NAN;
	r->pct = (r->ratio - 1.0) * 100.0;
	if (r->before < 0)
		r->pct = -r->pct;
	r->p = max_p(p, ntries, b - a, c->o->min_seg);
	r->direction = r->after >= r->before ? 1 : -1;
}

int bs_changept_reported(const struct bs_changept *c,
			 const struct bs_changept_opts *o)
{
	return !isnan(c->p) && c->p < o->alpha && !isnan(c->pct) &&
	       fabs(c->pct) >= o->noise_pct;
}

/* Fills c's ok space from the series' OK points. */
static void cp_init(struct cp *c, const double *v, const enum bs_status *st,
		    size_t from, size_t to, const struct bs_changept_opts *o)
{
	size_t i, m = 0;
	int positive = 1;

	memset(c, 0, sizeof *c);
	c->o = o;
	for (i = from; i < to; i++)
		m += st[i] == BS_ST_OK && isfinite(v[i]);
	c->y = xmalloc((m + 1) * sizeof *c->y);
	c->x = xmalloc((m + 1) * sizeof *c->x);
	c->orig = xmalloc((m + 1) * sizeof *c->orig);
	c->s1 = xmalloc((m + 1) * sizeof *c->s1);
	c->s2 = xmalloc((m + 1) * sizeof *c->s2);
	c->rk = xmalloc((m + 1) * sizeof *c->rk);
	c->rank = xmalloc((m + 1) * sizeof *c->rank);
	c->ps = xmalloc((m + 2) * sizeof *c->ps);
	for (i = from; i < to; i++) {
		if (st[i] != BS_ST_OK || !isfinite(v[i]))
			continue;
		c->x[c->m] = v[i];
		c->orig[c->m++] = i;
		positive &= v[i] > 0;
	}
	/* Benchmark noise is a proportion of the level (a run 3% slower
	 * is 3% whatever the disk): on the logs it has one spread across
	 * levels, and a 10x shift is a step of log 10. Values that are not
	 * all positive are tested as they are. */
	for (i = 0; i < c->m; i++)
		c->y[i] = positive ? log(c->x[i]) : c->x[i];
}

static void cp_release(struct cp *c)
{
	free(c->y);
	free(c->x);
	free(c->orig);
	free(c->s1);
	free(c->s2);
	free(c->rk);
	free(c->rank);
	free(c->ps);
}

/* A split's change in series indexes. */
static void to_series(const struct cp *c, const int64_t *t, size_t a, size_t k,
		      size_t b, size_t n, struct bs_changept *r)
{
	r->index = c->orig[k];
	r->prev = c->orig[k - 1];
	r->time = t ? t[r->index] : 0;
	r->from = a == 0 ? 0 : c->orig[a];
	r->to = b == c->m ? n : c->orig[b];
}

int bs_changept_test(const double *v, const enum bs_status *st,
		     const int64_t *t, size_t from, size_t at, size_t to,
		     double ntries, const struct bs_changept_opts *o,
		     struct bs_changept *r)
{
	struct cp c;
	size_t k = 0;
	int rc = 0;

	cp_init(&c, v, st, from, to, o);
	while (k < c.m && c.orig[k] < at)
		k++;
	if (k >= 1 && c.m - k >= 1 && c.m >= 3) {
		measure(&c, 0, k, c.m, ntries, 0, r);
		r->index = c.orig[k];
		r->prev = c.orig[k - 1];
		r->time = t ? t[r->index] : 0;
		r->from = from;
		r->to = to;
		rc = 1;
	}
	cp_release(&c);
	return rc;
}

/* Whether split i (of k splits s[]) stands against its neighbours, and
 * its statistics. */
static int stands(struct cp *c, const size_t *s, size_t k, size_t i,
		  struct bs_changept *r)
{
	size_t a = i == 0 ? 0 : s[i - 1], b = i + 1 == k ? c->m : s[i + 1];

	measure(c, a, s[i], b, tries(c, a, b), 1, r);
	return bs_changept_reported(r, c->o);
}

/* Of two failing splits, whether x is the weaker: the larger p, then
 * the smaller change. */
static int weaker(const struct bs_changept *x, const struct bs_changept *y)
{
	double px = isnan(x->p) ? 2 : x->p, py = isnan(y->p) ? 2 : y->p;

	if (px != py)
		return px > py;
	return fabs(x->pct) < fabs(y->pct);
}

/*
 * Each split of s[0, k) measured against its neighbours only; the
 * weakest that fails goes, its neighbours are measured again, until
 * every one left stands. Returns how many are left (res[] their
 * statistics).
 */
static size_t prune(struct cp *c, size_t *s, size_t k, struct bs_changept *res,
		    int *ok)
{
	size_t i, worst;

	for (i = 0; i < k; i++)
		ok[i] = stands(c, s, k, i, &res[i]);
	for (;;) {
		worst = k;
		for (i = 0; i < k; i++)
			if (!ok[i] &&
			    (worst == k || weaker(&res[i], &res[worst])))
				worst = i;
		if (worst == k)
			return k;
		memmove(s + worst, s + worst + 1, (k - worst - 1) * sizeof *s);
		memmove(res + worst, res + worst + 1,
			(k - worst - 1) * sizeof *res);
		memmove(ok + worst, ok + worst + 1,
			(k - worst - 1) * sizeof *ok);
		k--;
		if (worst > 0)
			ok[worst - 1] =
				stands(c, s, k, worst - 1, &res[worst - 1]);
		if (worst < k)
			ok[worst] = stands(c, s, k, worst, &res[worst]);
	}
}

/*
 * The best place for the split at k between a and b, the two levels'
 * medians (of y) held: the k' that puts each number with the level it
 * is nearer to, the least sum of absolute deviations (the L1 cost of a
 * robust segmentation). The rank statistic finds that a level changed;
 * a number of the old level ranked low among the new one can pull its
 * place by one or two, which this puts right.
 */
static size_t relocate(struct cp *c, size_t a, size_t k, size_t b)
{
	size_t ms = c->o->min_seg, i, best = k;
	double ml, mr, sum = 0, least = 0;

	memcpy(c->s1, c->y + a, (k - a) * sizeof *c->s1);
	ml = bs_stat_median(c->s1, k - a);
	memcpy(c->s1, c->y + k, (b - k) * sizeof *c->s1);
	mr = bs_stat_median(c->s1, b - k);
	/* sum(i) = cost of a split at i minus cost of a split at a + ms,
	 * walked from a + ms: moving the split past y[i] moves y[i] from
	 * the right level to the left one. */
	for (i = a + ms; i + ms <= b; i++) {
		if (i > a + ms)
			sum += fabs(c->y[i - 1] - ml) - fabs(c->y[i - 1] - mr);
		/* The first least, or k itself when it ties. */
		if (i == a + ms || sum < least || (sum == least && i == k)) {
			least = sum;
			best = i;
		}
	}
	return best;
}

size_t bs_changept_find(const double *v, const enum bs_status *st,
			const int64_t *t, size_t n,
			const struct bs_changept_opts *o,
			struct bs_changept **out)
{
	struct bs_changept_opts oo = *o;
	struct cp c;
	size_t *stack = NULL, *s = NULL, top = 0, k = 0, i;
	struct bs_changept *res = NULL;
	int *ok = NULL;

	/* A level of one number is an outlier, never a level. */
	if (oo.min_seg < 2)
		oo.min_seg = 2;
	o = &oo;
	*out = NULL;
	cp_init(&c, v, st, 0, n, o);
	if (c.m < 2 * o->min_seg)
		goto out;
	/* Binary segmentation: a stack of stretches [a, b) to split. */
	stack = xmalloc(3 * (c.m + 1) * sizeof *stack);
	s = xmalloc((c.m + 1) * sizeof *s);
	stack[top++] = 0;
	stack[top++] = c.m;
	while (top > 0) {
		size_t b = stack[--top], a = stack[--top], at, pi = 0, pj = 0;
		double var, ntries, p, z2;

		at = best_split(&c, a, b, &var, &z2);
		if (at == 0)
			continue;
		/* The split is tested by the statistic that chose it: its
		 * standardised rank sum, the largest of the stretch's, read
		 * through the search's correction (max_p). */
		p = max_p(2.0 * gsl_cdf_ugaussian_Q(sqrt(z2)), tries(&c, a, b),
			  b - a, o->min_seg);
		if (p < o->alpha) {
			s[k++] = at;
			stack[top++] = a;
			stack[top++] = at;
			stack[top++] = at;
			stack[top++] = b;
			continue;
		}
		ntries = best_pair(&c, a, b, var, &pi, &pj, &z2);
		if (ntries == 0)
			continue;
		/* Bonferroni's bound over the pairs tried. */
		p = 2.0 * gsl_cdf_ugaussian_Q(sqrt(z2));
		if (p * ntries >= o->alpha)
			continue;
		s[k++] = pi;
		s[k++] = pj;
		stack[top++] = a;
		stack[top++] = pi;
		stack[top++] = pi;
		stack[top++] = pj;
		stack[top++] = pj;
		stack[top++] = b;
	}
	qsort(s, k, sizeof *s, cmp_size);
	/* Pruning, then each split moved to its best place between its
	 * neighbours, then pruning again (a move can weaken one). */
	res = xmalloc((k + 1) * sizeof *res);
	ok = xmalloc((k + 1) * sizeof *ok);
	k = prune(&c, s, k, res, ok);
	for (i = 0; i < k; i++)
		s[i] = relocate(&c, i == 0 ? 0 : s[i - 1], s[i],
				i + 1 == k ? c.m : s[i + 1]);
	k = prune(&c, s, k, res, ok);
	for (i = 0; i < k; i++)
		to_series(&c, t, i == 0 ? 0 : s[i - 1], s[i],
			  i + 1 == k ? c.m : s[i + 1], n, &res[i]);
	if (k > 0) {
		*out = res;
		res = NULL;
	}
out:
	free(res);
	free(ok);
	free(s);
	free(stack);
	cp_release(&c);
	return k;
}
