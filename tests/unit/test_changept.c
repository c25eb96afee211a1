/*
 * tests/unit/test_changept.c - change points of one series
 * (report/changept.h) on series whose answers are known: a step is found
 * where it is, with its medians, counts and direction; steady noise,
 * single outliers and a pair of slow runs at the end are not changes;
 * too-fast and missing points keep their places; a temporary regression
 * is two changes; a shift under the noise threshold is not reported; a
 * long series finds each of its steps; the rank test's p-value is
 * worked by hand on a step and on ties. The trimmed t-test's p-value is
 * checked against R on a worked example, on Student's test when nothing
 * is trimmed, and as the prediction test of one run.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "report/changept.h"
#include "util/banned.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))
#define MAXN 6000

/* A fixed pseudo-random noise in [-1, 1) (a 64-bit LCG): the same series
 * on every machine. */
static double noise(unsigned long long *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static double v[MAXN];
static enum bs_status st[MAXN];
static int64_t tm[MAXN];

/* Fills points [from, to) with level times (1 + cv * noise). */
static void level(size_t from, size_t to, double lv, double cv,
		  unsigned long long *seed)
{
	size_t i;

	for (i = from; i < to; i++) {
		v[i] = lv * (1.0 + cv * noise(seed));
		st[i] = BS_ST_OK;
		/* Unequal spacing: the method must not care. */
		tm[i] = 1700000000 + (int64_t)(i * i) * 3600;
	}
}

static size_t find(size_t n, double noise_pct, struct bs_changept **c)
{
	struct bs_changept_opts o;

	bs_changept_opts_init(&o);
	if (noise_pct >= 0)
		o.noise_pct = noise_pct;
	return bs_changept_find(v, st, tm, n, &o, c);
}

static void test_step(void **state)
{
	unsigned long long seed = 1;
	struct bs_changept *c;

	(void)state;
	level(0, 10, 100, 0.01, &seed);
	level(10, 20, 50, 0.01, &seed);
	assert_int_equal(find(20, -1, &c), 1);
	assert_int_equal(c[0].index, 10);
	assert_int_equal(c[0].prev, 9);
	assert_int_equal(c[0].time, tm[10]);
	assert_int_equal(c[0].from, 0);
	assert_int_equal(c[0].to, 20);
	assert_int_equal(c[0].n_before, 10);
	assert_int_equal(c[0].n_after, 10);
	near(c[0].before, 100, 1.5);
	near(c[0].after, 50, 0.75);
	near(c[0].ratio, 0.5, 0.02);
	near(c[0].pct, -50, 2);
	assert_int_equal(c[0].direction, -1);
	/* The rank test, worked by hand: ranks 11 to 20 before (sum 155,
	 * expected 10 x 21 / 2 = 105), variance 10 x 10 / 12 x 21 = 175, z =
	 * 50 / sqrt 175 = 3.7796, two-sided p = 1.5705e-4; the split could
	 * have been at 11 places and Bonferroni's 11 p is the smaller bound:
	 * 1.7276e-3 (rounded: no ranks test can say more of 20 runs). */
	near(c[0].p, 1.72758e-3, 1e-8);
	free(c);
}

/* Steady runs (3% noise), with a lone outlier at a third of the level
 * and two slow runs at the very end: no change. */
static void test_steady(void **state)
{
	unsigned long long seed = 7;
	struct bs_changept *c = NULL;
	size_t n;

	(void)state;
	for (n = 5; n <= 200; n += 13) {
		level(0, n, 1000, 0.03, &seed);
		if (n > 20) {
			v[n / 2] = 300;
			v[n - 1] *= 0.6;
			v[n - 2] *= 0.6;
		}
		assert_int_equal(find(n, -1, &c), 0);
		assert_null(c);
	}
}

/* Too-fast and missing points, around and at the change, take no part
 * and keep their places: the change is at the first number of the new
 * level. */
static void test_statuses(void **state)
{
	unsigned long long seed = 3;
	struct bs_changept *c;

	(void)state;
	level(0, 40, 200, 0.02, &seed);
	level(20, 40, 260, 0.02, &seed);
	st[5] = BS_ST_TOO_FAST;
	v[5] = NAN;
	st[20] = BS_ST_NOT_RUN;
	st[21] = BS_ST_TOO_FAST;
	v[30] = NAN; /* OK but no number: skipped too */
	assert_int_equal(find(40, -1, &c), 1);
	assert_int_equal(c[0].index, 22);
	assert_int_equal(c[0].prev, 19);
	assert_int_equal(c[0].n_before, 19);
	assert_int_equal(c[0].n_after, 17);
	assert_int_equal(c[0].direction, 1);
	near(c[0].ratio, 1.3, 0.03);
	free(c);
}

/* Ten points are enough for a 10x shift (five a side); nine are not:
 * a change needs min_seg numbers on each side. */
static void test_short(void **state)
{
	static const double ten[] = {1.0,  1.01, 0.99, 1.02, 1.0,
				     10.0, 10.1, 9.9,  10.2, 10.0};
	struct bs_changept *c;
	size_t i;

	(void)state;
	for (i = 0; i < 10; i++) {
		v[i] = ten[i];
		st[i] = BS_ST_OK;
	}
	assert_int_equal(find(10, -1, &c), 1);
	assert_int_equal(c[0].index, 5);
	/* Five ranks against five that do not overlap: u = 40 - 27.5 = 12.5;
	 * two pairs of ties (1.0 and 10.0), so the variance is 5 x 5 / 12 x
	 * (11 - 12 / 90), z = 2.6271, p = 0.0086 (one place to split: no
	 * correction), under 0.01: the smallest level is called. */
	near(c[0].p, 0.0086107, 1e-6);
	free(c);
	assert_int_equal(find(9, -1, &c), 0);
}

/* A 4% shift over 0.5% noise is real but under the 5% threshold: not
 * reported; with --noise 3 it is. */
static void test_noise_threshold(void **state)
{
	unsigned long long seed = 11;
	struct bs_changept *c;

	(void)state;
	level(0, 30, 500, 0.005, &seed);
	level(30, 60, 520, 0.005, &seed);
	assert_int_equal(find(60, -1, &c), 0);
	assert_int_equal(find(60, 3, &c), 1);
	assert_int_equal(c[0].index, 30);
	near(c[0].pct, 4, 0.5);
	free(c);
}

/* A temporary regression: 30% lower for ten runs, then back. */
static void test_blip(void **state)
{
	unsigned long long seed = 5;
	struct bs_changept *c;

	(void)state;
	level(0, 30, 100, 0.02, &seed);
	level(30, 40, 70, 0.02, &seed);
	level(40, 70, 100, 0.02, &seed);
	assert_int_equal(find(70, -1, &c), 2);
	assert_int_equal(c[0].index, 30);
	assert_int_equal(c[0].direction, -1);
	assert_int_equal(c[1].index, 40);
	assert_int_equal(c[1].direction, 1);
	/* The levels compared are the neighbours'. */
	assert_int_equal(c[0].from, 0);
	assert_int_equal(c[0].to, 40);
	assert_int_equal(c[1].from, 30);
	assert_int_equal(c[1].to, 70);
	free(c);
}

/* 5,000 points, 4% noise and 1% outliers, four shifts of 8% to 3x. */
static void test_long(void **state)
{
	static const size_t at[] = {700, 2100, 2150, 4900};
	unsigned long long seed = 13;
	struct bs_changept *c;
	size_t i;

	(void)state;
	level(0, 700, 1e5, 0.04, &seed);
	level(700, 2100, 1.08e5, 0.04, &seed);
	level(2100, 2150, 3.24e5, 0.04, &seed);
	level(2150, 4900, 1.1e5, 0.04, &seed);
	level(4900, 5000, 0.8e5, 0.04, &seed);
	for (i = 0; i < 5000; i += 97)
		v[i] *= 0.5;
	assert_int_equal(find(5000, -1, &c), 4);
	for (i = 0; i < 4; i++)
		assert_true(labs((long)c[i].index - (long)at[i]) <= 2);
	free(c);
}

/*
 * A long series' small shift: 4,000 runs of 4% noise, 0.35% faster from
 * run 2,000 (about 4.4 standard errors of the difference). Bonferroni's
 * bound over the 3,991 places a split could be (p times 3,991) misses
 * it; the bound for the largest of correlated split statistics (max_p in
 * report/changept.c) finds it, near where it is, with no noise threshold.
 * The same noise without the shift, 100 series of 1,000 runs, raises at
 * most 2 false changes (the level is 1% a series).
 */
static void test_long_small_shift(void **state)
{
	unsigned long long seed = 21;
	struct bs_changept *c = NULL;
	size_t k, false_alarms = 0;

	(void)state;
	level(0, 2000, 1000, 0.04, &seed);
	level(2000, 4000, 1004.2, 0.04, &seed);
	assert_int_equal(find(4000, 0, &c), 1);
	assert_true(labs((long)c[0].index - 2000) <= 150);
	assert_true(c[0].p < 0.01);
	assert_int_equal(c[0].direction, 1);
	free(c);
	for (k = 0; k < 100; k++) {
		level(0, 1000, 1000, 0.04, &seed);
		false_alarms += find(1000, 0, &c);
		free(c);
		c = NULL;
	}
	assert_true(false_alarms <= 2);
}

/* Quantised numbers (a tool printing whole files/s): ties everywhere,
 * each level without spread. */
static void test_ties(void **state)
{
	struct bs_changept *c;
	size_t i;

	(void)state;
	for (i = 0; i < 24; i++) {
		v[i] = i < 12 ? 786 : 1534;
		st[i] = BS_ST_OK;
	}
	assert_int_equal(find(24, -1, &c), 1);
	assert_int_equal(c[0].index, 12);
	/* Mid-ranks 6.5 and 18.5; two ties of 12 (t^3 - t = 1716 each), the
	 * variance 12 x 12 / 12 x (25 - 3432 / (24 x 23)) = 225.40, z = 72 /
	 * 15.013 = 4.7958, p = 1.6200e-6, times 15 places: 2.4300e-5. */
	near(c[0].p, 2.43002e-5, 1e-10);
	free(c);
	for (i = 0; i < 24; i++)
		v[i] = 786;
	assert_int_equal(find(24, -1, &c), 0);
}

/* Values that are not all positive are tested as they are. */
static void test_not_positive(void **state)
{
	unsigned long long seed = 17;
	struct bs_changept *c;
	size_t i;

	(void)state;
	for (i = 0; i < 30; i++) {
		v[i] = (i < 15 ? -10.0 : -5.0) + 0.1 * noise(&seed);
		st[i] = BS_ST_OK;
	}
	assert_int_equal(find(30, -1, &c), 1);
	assert_int_equal(c[0].index, 15);
	assert_int_equal(c[0].direction, 1);
	near(c[0].pct, 50, 3); /* -10 to -5: half as far below zero */
	free(c);
}

/*
 * The trimmed t-test on 1..10 against 6..15, 20% trimmed: trimmed means
 * 5.5 and 10.5, winsorized sums of squares 42.5 each, s^2 = 85 / 10, t =
 * 5 / sqrt(8.5 / 3) = 2.970443 on 10 degrees of freedom; R: 2 *
 * pt(-2.970443, 10) = 0.01403519. Untrimmed, it is Student's t-test (R's
 * t.test(var.equal = TRUE)), and with one run on a side the prediction
 * test of that run: t = (y - mean) / (sd sqrt(1 + 1 / n)).
 */
static void test_yuen(void **state)
{
	static const double a[] = {50.1, 49.7, 50.4, 50.0, 49.5, 50.6, 50.2};
	static const double b[] = {54.3, 53.8, 54.9, 53.5, 54.0,
				   54.6, 53.9, 54.2, 55.0};
	static const double x[] = {10.0, 10.2, 9.9, 10.1, 9.8, 10.0, 10.9};
	struct bs_changept_opts o;
	struct bs_changept c;
	size_t i;

	(void)state;
	bs_changept_opts_init(&o);
	/* On the logs: make the logs 1..10 and 6..15. */
	for (i = 0; i < 20; i++) {
		v[i] = exp((double)(i < 10 ? i + 1 : i - 10 + 6));
		st[i] = BS_ST_OK;
	}
	assert_int_equal(bs_changept_test(v, st, NULL, 0, 10, 20, 1, &o, &c),
			 1);
	near(c.p, 0.01403519, 1e-7);
	assert_int_equal(c.n_before, 10);
	assert_int_equal(c.direction, 1);
	/* Tried at 4 places: 4 times the p-value. */
	assert_int_equal(bs_changept_test(v, st, NULL, 0, 10, 20, 4, &o, &c),
			 1);
	near(c.p, 4 * 0.01403519, 4e-7);
	/* A side with no number: no test. */
	assert_int_equal(bs_changept_test(v, st, NULL, 0, 20, 20, 1, &o, &c),
			 0);

	o.trim = 0;
	for (i = 0; i < 16; i++)
		v[i] = exp(i < 7 ? a[i] : b[i - 7]);
	assert_int_equal(bs_changept_test(v, st, NULL, 0, 7, 16, 1, &o, &c), 1);
	near(c.p / 4.2030784561e-11, 1, 1e-6);
	/* R: 2 * pt(-(10.9 - m) / (s * sqrt(1 + 1/6)), 5). */
	for (i = 0; i < 7; i++)
		v[i] = exp(x[i]);
	assert_int_equal(bs_changept_test(v, st, NULL, 0, 6, 7, 1, &o, &c), 1);
	near(c.p, 0.00200234144113, 1e-9);
	assert_int_equal(c.n_after, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_statuses),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_noise_threshold),
		cmocka_unit_test(test_blip),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_long_small_shift),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_not_positive),
		cmocka_unit_test(test_yuen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
