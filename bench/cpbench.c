/*
 * bench/cpbench.c - the corpus, the detector's run and the score of
 * bench/changes.sh (docs/benchmarks.md, "Change points"):
 *
 *   cpbench gen SEED POOLS [SERIES]   a corpus on stdout
 *   cpbench detect [NOISE_PCT] < CORPUS   bstore's change points
 *   cpbench cusum [NOISE_PCT] < CORPUS    the CUSUM baseline's
 *   cpbench score CORPUS FOUND [POOLS]  precision, recall, F1, false alarms
 *
 * POOLS has a line per pool of real noise: a name, a tab, then the
 * residuals of real repeated runs of one configuration and metric,
 * log(value / median), space-separated, "+" for a run too fast to time.
 *
 * A corpus line is one series: id, tab, pool, tab, the true changes
 * (indexes of the first point of each new level, ',' between, "-" for
 * none) with their shift factors ("37:1.25"), tab, then the points: a
 * number, "+" (too fast) or "-" (missing). A FOUND line is an id, a tab
 * and the indexes found ("-" for none).
 *
 * How a series is drawn (gen): its length from LENS below, its changes
 * at random places at least GAP points from each other and from the
 * ends, each shift a factor up or down, half of them from 1.05 to 1.3
 * and half from 1.3 to 10, log-uniform; every point is the level times
 * exp(a residual of its pool), drawn by the smoothed bootstrap (a
 * residual, plus a normal jitter of Silverman's bandwidth, shrunk so
 * that the spread stays the pool's: Efron and Tibshirani 1993, 16.4);
 * then 2% of the points are slow outliers (x 0.4 to 0.9), 0.5% fast ones
 * (x 1.1 to 1.6), 1% are missing, and a pool's share of "+" is too fast.
 * Every third series has no change at all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "report/changept.h"
#include "util/mem.h"
#include "util/banned.h"

#define GAP 10
#define MAXPOOL 256
#define MAXRES 4096

struct pool {
	char name[128];
	double r[MAXRES];
	size_t n, fast; /* residuals, runs too fast */
	double sd, h;   /* spread, bandwidth */
	double mad;     /* robust spread: 1.4826 x the median |r - median| */
};

static struct pool pools[MAXPOOL];
static size_t npools;

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_z(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static void read_pools(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *tok, *save;
	size_t cap = 0;

	if (!f) {
		perror(path);
		exit(1);
	}
	while (getline(&line, &cap, f) > 0 && npools < MAXPOOL) {
		struct pool *p = &pools[npools];
		char *tab = strchr(line, '\t');
		double s[MAXRES], iqr;

		if (!tab)
			continue;
		*tab = 0;
		snprintf(p->name, sizeof p->name, "%s", line);
		p->n = p->fast = 0;
		for (tok = strtok_r(tab + 1, " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save)) {
			if (strcmp(tok, "+") == 0)
				p->fast++;
			else if (p->n < MAXRES)
				p->r[p->n++] = strtod(tok, NULL);
		}
		if (p->n < 10)
			continue;
		memcpy(s, p->r, p->n * sizeof *s);
		qsort(s, p->n, sizeof *s, cmp_d);
		p->sd = gsl_stats_sd(s, 1, p->n);
		{
			double med =
				gsl_stats_median_from_sorted_data(s, 1, p->n);
			double dev[MAXRES];
			size_t i;

			for (i = 0; i < p->n; i++)
				dev[i] = fabs(s[i] - med);
			qsort(dev, p->n, sizeof *dev, cmp_d);
			p->mad =
				1.4826 *
				gsl_stats_median_from_sorted_data(dev, 1, p->n);
		}
		iqr = gsl_stats_quantile_from_sorted_data(s, 1, p->n, 0.75) -
		      gsl_stats_quantile_from_sorted_data(s, 1, p->n, 0.25);
		/* Silverman's rule of thumb (1986, 3.31). */
		p->h = 0.9 * fmin(p->sd, iqr > 0 ? iqr / 1.34 : p->sd) *
		       pow((double)p->n, -0.2);
		npools++;
	}
	free(line);
	fclose(f);
	if (npools == 0) {
		fprintf(stderr, "cpbench: %s: no pool of 10 runs\n", path);
		exit(1);
	}
}

/* A residual of pool p by the smoothed bootstrap, spread kept. */
static double draw(gsl_rng *rng, const struct pool *p)
{
	double mean = gsl_stats_mean(p->r, 1, p->n);
	double r = p->r[gsl_rng_uniform_int(rng, p->n)];
	double e = gsl_ran_gaussian(rng, 1.0);
	double shrink =
		p->sd > 0 ? 1.0 / sqrt(1.0 + p->h * p->h / (p->sd * p->sd))
			  : 1.0;

	return mean + (r - mean + p->h * e) * shrink;
}

static double loguni(gsl_rng *rng, double lo, double hi)
{
	return exp(log(lo) + gsl_rng_uniform(rng) * (log(hi) - log(lo)));
}

static int gen(unsigned long seed, const char *poolpath, size_t nseries)
{
	static const size_t lens[] = {5,   10,  20,  50,   100, 100,
				      200, 200, 500, 1000, 5000};
	static const size_t nlens = sizeof lens / sizeof lens[0];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t id, i, j;

	read_pools(poolpath);
	gsl_rng_set(rng, seed);
	for (id = 1; id <= nseries; id++) {
		int change = id % 3 != 0;
		size_t n = lens[gsl_rng_uniform_int(rng, nlens)];
		const struct pool *p = &pools[gsl_rng_uniform_int(rng, npools)];
		size_t at[1024], k = 0, want;
		double f[1024], level = loguni(rng, 1, 1e6);
		double pfast = (double)p->fast / (double)(p->n + p->fast);

		if (change && n < 2 * GAP + 1)
			n = 50;
		/* About one change per 100 points, at least one. */
		want = change ? 1 + gsl_ran_poisson(rng, (double)n / 100.0) : 0;
		for (j = 0; j < 50 * want && k < want; j++) {
			size_t c = GAP +
				   gsl_rng_uniform_int(rng, n - 2 * GAP + 1);
			int near = 0;

			for (i = 0; i < k; i++)
				near |= (c > at[i] ? c - at[i] : at[i] - c) <
					GAP;
			if (!near)
				at[k++] = c;
		}
		qsort(at, k, sizeof *at, cmp_z);
		printf("%zu\t%s\t", id, p->name);
		for (i = 0; i < k; i++) {
			double x = gsl_rng_uniform(rng) < 0.5
					   ? loguni(rng, 1.05, 1.3)
					   : loguni(rng, 1.3, 10);

			f[i] = gsl_rng_uniform(rng) < 0.5 ? x : 1.0 / x;
			printf("%s%zu:%.4f", i ? "," : "", at[i], f[i]);
		}
		printf("%s\t", k ? "" : "-");
		for (i = 0, j = 0; i < n; i++) {
			double u = gsl_rng_uniform(rng), v;

			while (j < k && at[j] == i)
				level *= f[j++];
			if (u < 0.01) {
				printf("%s-", i ? " " : "");
				continue;
			}
			if (gsl_rng_uniform(rng) < pfast) {
				printf("%s+", i ? " " : "");
				continue;
			}
			v = level * exp(draw(rng, p));
			u = gsl_rng_uniform(rng);
			if (u < 0.02)
				v *= 0.4 + 0.5 * gsl_rng_uniform(rng);
			else if (u < 0.025)
				v *= 1.1 + 0.5 * gsl_rng_uniform(rng);
			printf("%s%.6g", i ? " " : "", v);
		}
		printf("\n");
	}
	gsl_rng_free(rng);
	return 0;
}

/* Splits a corpus line into its fields (tabs become NULs). */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	f[n++] = line;
	while (n < max && (line = strchr(line, '\t'))) {
		*line++ = 0;
		f[n++] = line;
	}
	return n;
}

/*
 * The CUSUM baseline: binary segmentation (Vostrikova 1981) on the logs
 * with the CUSUM statistic sqrt(k (L - k) / L) |mean_1 - mean_2| / sigma,
 * sigma the series' noise from the median absolute deviation of its
 * first differences (robust to the shifts themselves: MAD / 0.6745 /
 * sqrt 2), split while the statistic passes 1.3 sqrt(2 log n)
 * (Fryzlewicz 2014's constant), at least 3 numbers a side; then, as for
 * bstore, a split whose neighbouring medians differ by less than the
 * noise threshold is dropped.
 */
static size_t cusum(const double *v, const enum bs_status *st, size_t n,
		    double noise, size_t *found)
{
	double *y = xmalloc((n + 1) * sizeof *y), *d, *ps, sigma, thr;
	size_t *orig = xmalloc((n + 1) * sizeof *orig), m = 0, i, k = 0;
	size_t stack[2048], top = 0, cut[1024], kept = 0;

	for (i = 0; i < n; i++)
		if (st[i] == BS_ST_OK && v[i] > 0) {
			y[m] = log(v[i]);
			orig[m++] = i;
		}
	if (m < 6)
		goto out;
	d = xmalloc(m * sizeof *d);
	for (i = 1; i < m; i++)
		d[i - 1] = fabs(y[i] - y[i - 1]);
	qsort(d, m - 1, sizeof *d, cmp_d);
	sigma = gsl_stats_median_from_sorted_data(d, 1, m - 1) / 0.6745 /
		sqrt(2.0);
	free(d);
	if (sigma <= 0)
		sigma = 1e-12;
	thr = 1.3 * sqrt(2.0 * log((double)m));
	ps = xmalloc((m + 1) * sizeof *ps);
	ps[0] = 0;
	for (i = 0; i < m; i++)
		ps[i + 1] = ps[i] + y[i];
	stack[top++] = 0;
	stack[top++] = m;
	while (top > 0 && k < 1000) {
		size_t b = stack[--top], a = stack[--top], j, best = 0;
		double L = (double)(b - a), bc = 0, c;

		for (j = a + 3; j + 3 <= b; j++) {
			double l = (double)(j - a), r = (double)(b - j);

			c = sqrt(l * r / L) *
			    fabs((ps[j] - ps[a]) / l - (ps[b] - ps[j]) / r) /
			    sigma;
			if (c > bc) {
				bc = c;
				best = j;
			}
		}
		if (best == 0 || bc < thr || top + 4 > 2048)
			continue;
		cut[k++] = best;
		stack[top++] = a;
		stack[top++] = best;
		stack[top++] = best;
		stack[top++] = b;
	}
	free(ps);
	qsort(cut, k, sizeof *cut, cmp_z);
	for (i = 0; i < k; i++) {
		size_t a = i ? cut[i - 1] : 0, b = i + 1 < k ? cut[i + 1] : m;
		double *w = xmalloc(m * sizeof *w), ml, mr;

		memcpy(w, y + a, (cut[i] - a) * sizeof *w);
		qsort(w, cut[i] - a, sizeof *w, cmp_d);
		ml = gsl_stats_median_from_sorted_data(w, 1, cut[i] - a);
		memcpy(w, y + cut[i], (b - cut[i]) * sizeof *w);
		qsort(w, b - cut[i], sizeof *w, cmp_d);
		mr = gsl_stats_median_from_sorted_data(w, 1, b - cut[i]);
		free(w);
		if (fabs(exp(mr - ml) - 1) * 100 >= noise)
			found[kept++] = orig[cut[i]];
	}
out:
	free(y);
	free(orig);
	return kept;
}

static int detect(double noise, int baseline)
{
	struct bs_changept_opts o;
	char *line = NULL, *f[4], *tok, *save;
	size_t cap = 0, n, ncap = 0, i, k;
	double *v = NULL;
	enum bs_status *st = NULL;

	bs_changept_opts_init(&o);
	if (noise >= 0)
		o.noise_pct = noise;
	/* Experiments only: CPBENCH_MIN_SEG, CPBENCH_ALPHA. */
	if (getenv("CPBENCH_MIN_SEG"))
		o.min_seg = strtoul(getenv("CPBENCH_MIN_SEG"), NULL, 10);
	if (getenv("CPBENCH_ALPHA"))
		o.alpha = strtod(getenv("CPBENCH_ALPHA"), NULL);
	while (getline(&line, &cap, stdin) > 0) {
		struct bs_changept *c;

		if (fields(line, f, 4) < 4)
			continue;
		n = 0;
		for (tok = strtok_r(f[3], " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save)) {
			if (n == ncap) {
				ncap = ncap ? 2 * ncap : 1024;
				v = xrealloc(v, ncap * sizeof *v);
				st = xrealloc(st, ncap * sizeof *st);
			}
			st[n] = *tok == '+'   ? BS_ST_TOO_FAST
				: *tok == '-' ? BS_ST_NOT_RUN
					      : BS_ST_OK;
			v[n] = st[n] == BS_ST_OK ? strtod(tok, NULL) : NAN;
			n++;
		}
		printf("%s\t", f[0]);
		if (baseline) {
			size_t got[1024];

			k = cusum(v, st, n, o.noise_pct, got);
			for (i = 0; i < k; i++)
				printf("%s%zu", i ? "," : "", got[i]);
		} else {
			k = bs_changept_find(v, st, NULL, n, &o, &c);
			for (i = 0; i < k; i++)
				printf("%s%zu", i ? "," : "", c[i].index);
			free(c);
		}
		printf("%s\n", k ? "" : "-");
	}
	free(line);
	free(v);
	free(st);
	return 0;
}

/* The indexes (and factors) of a list "12:1.5,40:0.8" or "12,40". */
static size_t parse_list(char *s, size_t *at, double *fac, size_t max)
{
	size_t k = 0;
	char *tok, *save, *colon;

	if (*s == '-' || *s == 0 || *s == '\n')
		return 0;
	for (tok = strtok_r(s, ",\n", &save); tok && k < max;
	     tok = strtok_r(NULL, ",\n", &save)) {
		at[k] = strtoul(tok, NULL, 10);
		colon = strchr(tok, ':');
		if (fac)
			fac[k] = colon ? strtod(colon + 1, NULL) : 1;
		k++;
	}
	return k;
}

/* Shift bins for the recall table: |log factor| bounds. */
static const double bins[] = {1.05, 1.1, 1.3, 2, 10.01};
#define NBINS 4

static double pool_mad(const char *name)
{
	size_t i;

	for (i = 0; i < npools; i++)
		if (strcmp(pools[i].name, name) == 0)
			return pools[i].mad;
	return 0;
}

/*
 * With POOLS, a true change is "visible" when its shift is at least
 * VISIBLE times its pool's robust spread (|log factor| >= 2 sigma): the
 * second set of figures counts only those, a point found at an invisible
 * change being neither right nor wrong.
 */
#define VISIBLE 2.0

static int score(const char *corpus, const char *found, int havepools)
{
	FILE *fc = fopen(corpus, "r"), *ff = fopen(found, "r");
	char *lc = NULL, *lf = NULL, *f[4], *g[2];
	size_t cc = 0, cf = 0, tp = 0, fp = 0, fn = 0, fa = 0, npts0 = 0;
	size_t bin_n[NBINS] = {0}, bin_hit[NBINS] = {0}, nser = 0;
	size_t vtp = 0, vfn = 0, vfp = 0;
	double prec, rec, f1;
	int b;

	if (!fc || !ff) {
		perror(!fc ? corpus : found);
		return 1;
	}
	while (getline(&lc, &cc, fc) > 0) {
		size_t at[1024], got[1024], nt, ng, i, j, npts = 1;
		double fac[1024];
		char used[1024] = {0}, hit[1024] = {0}, vis[1024];
		char usedby[1024] = {0};
		double mad;
		const char *p;

		if (getline(&lf, &cf, ff) <= 0 || fields(lc, f, 4) < 4 ||
		    fields(lf, g, 2) < 2 || strcmp(f[0], g[0]) != 0) {
			fprintf(stderr, "cpbench: %s and %s disagree\n", corpus,
				found);
			return 1;
		}
		nser++;
		for (p = f[3]; *p; p++)
			npts += *p == ' ';
		nt = parse_list(f[2], at, fac, 1024);
		ng = parse_list(g[1], got, NULL, 1024);
		mad = havepools ? pool_mad(f[1]) : 0;
		for (i = 0; i < nt; i++)
			vis[i] = !havepools ||
				 fabs(log(fac[i])) >= VISIBLE * mad;
		if (nt == 0) {
			npts0 += npts;
			fa += ng;
		}
		/* Each true change takes the nearest unused point found
		 * within 5. */
		for (i = 0; i < nt; i++) {
			size_t best = ng;

			for (j = 0; j < ng; j++) {
				size_t d = got[j] > at[i] ? got[j] - at[i]
							  : at[i] - got[j];

				if (!used[j] && d <= 5 &&
				    (best == ng ||
				     d < (got[best] > at[i]
						  ? got[best] - at[i]
						  : at[i] - got[best])))
					best = j;
			}
			if (best < ng) {
				used[best] = 1;
				usedby[best] = vis[i] ? 1 : 2;
				hit[i] = 1;
			}
		}
		for (i = 0; i < nt; i++) {
			double x = fac[i] >= 1 ? fac[i] : 1.0 / fac[i];

			tp += hit[i];
			fn += !hit[i];
			vtp += vis[i] && hit[i];
			vfn += vis[i] && !hit[i];
			for (b = 0; b < NBINS; b++)
				if (x >= bins[b] * 0.9999 && x < bins[b + 1]) {
					bin_n[b]++;
					bin_hit[b] += hit[i];
				}
		}
		for (j = 0; j < ng; j++) {
			fp += !used[j];
			vfp += usedby[j] == 0;
		}
	}
	prec = tp + fp ? (double)tp / (double)(tp + fp) : 1;
	rec = tp + fn ? (double)tp / (double)(tp + fn) : 1;
	f1 = prec + rec > 0 ? 2 * prec * rec / (prec + rec) : 0;
	printf("series %zu changes %zu found %zu\n", nser, tp + fn, tp + fp);
	printf("precision %.3f recall %.3f F1 %.3f\n", prec, rec, f1);
	printf("false_alarms_per_1000 %.2f (%zu in %zu points of no-change "
	       "series)\n",
	       npts0 ? 1000.0 * (double)fa / (double)npts0 : 0, fa, npts0);
	if (havepools) {
		double vp = vtp + vfp ? (double)vtp / (double)(vtp + vfp) : 1;
		double vr = vtp + vfn ? (double)vtp / (double)(vtp + vfn) : 1;

		printf("visible %zu precision %.3f recall %.3f F1 %.3f\n",
		       vtp + vfn, vp, vr,
		       vp + vr > 0 ? 2 * vp * vr / (vp + vr) : 0);
	}
	for (b = 0; b < NBINS; b++)
		printf("recall_shift_%.2f-%.2fx %.3f (%zu)\n", bins[b],
		       b + 1 == NBINS ? 10.0 : bins[b + 1],
		       bin_n[b] ? (double)bin_hit[b] / (double)bin_n[b] : 0,
		       bin_n[b]);
	free(lc);
	free(lf);
	fclose(fc);
	fclose(ff);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "gen") == 0)
		return gen(strtoul(argv[2], NULL, 10), argv[3],
			   argc > 4 ? strtoul(argv[4], NULL, 10) : 600);
	if (argc >= 2 && strcmp(argv[1], "detect") == 0)
		return detect(argc > 2 ? strtod(argv[2], NULL) : -1, 0);
	if (argc >= 2 && strcmp(argv[1], "cusum") == 0)
		return detect(argc > 2 ? strtod(argv[2], NULL) : -1, 1);
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "score") == 0) {
		if (argc == 5)
			read_pools(argv[4]);
		return score(argv[2], argv[3], argc == 5);
	}
	fprintf(stderr, "usage: cpbench gen SEED POOLS [SERIES]\n"
			"       cpbench detect [NOISE_PCT] < CORPUS\n"
			"       cpbench cusum [NOISE_PCT] < CORPUS\n"
			"       cpbench score CORPUS FOUND [POOLS]\n");
	return 2;
}
