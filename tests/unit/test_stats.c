/*
 * tests/unit/test_stats.c - the comparison statistics (report/stats.h)
 * on numbers whose answers are known from t tables: intervals, Welch's
 * test, the ratio's interval, Holm's correction, and the verdicts on
 * constructed groups (a real 10% change over tight repeats is better, 1%
 * over noisy repeats is noise, one run is not enough).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "report/stats.h"
#include "util/banned.h"

/* t(0.975) quantiles from a table: 4 and 2 degrees of freedom. */
#define T975_4 2.776445
#define T975_2 4.302653

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_mean_ci(void **state)
{
	struct bs_stat_sample s = {5, 10.0, 2.0}, one = {1, 10.0, NAN};
	struct bs_stat_sample three = {3, 10.0, 1.0};

	(void)state;
	near(bs_stat_mean_ci(&s), T975_4 * 2.0 / sqrt(5.0), 1e-5);
	near(bs_stat_mean_ci(&three), T975_2 / sqrt(3.0), 1e-5);
	assert_true(isnan(bs_stat_mean_ci(&one)));
	near(bs_stat_cv(&s), 0.2, 1e-12);
	assert_true(isnan(bs_stat_cv(&one)));
}

/* The middle number, or the mean of the middle two, whatever the order;
 * an outlier moves the mean, not the median. */
static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void test_median(void **state)
{
	double odd[] = {9, 1, 5, 3, 7}, even[] = {4, 1000, 2, 6};
	double one[] = {42}, v[200], w[200];
	unsigned long long seed = 42;
	size_t n, i;

	(void)state;
	assert_true(isnan(bs_stat_median(odd, 0)));
	near(bs_stat_median(one, 1), 42, 0);
	near(bs_stat_median(odd, 5), 5, 0);
	near(bs_stat_median(even, 4), 5, 0);
	/* Against sorting, on many orders, sizes and ties. */
	for (n = 1; n < 200; n++) {
		for (i = 0; i < n; i++) {
			seed = seed * 6364136223846793005u +
			       1442695040888963407u;
			v[i] = w[i] = (double)((seed >> 33) % (n / 3 + 2));
		}
		qsort(w, n, sizeof(*w), cmp);
		near(bs_stat_median(v, n),
		     n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2, 0);
	}
}

static void test_welch(void **state)
{
	/* Equal spreads, n = 3: df = 4, se = sqrt(2/3); a difference of
	 * t(0.975, 4) * se is exactly p = 0.05. */
	double d = T975_4 * sqrt(2.0 / 3.0);
	struct bs_stat_sample b = {3, 100.0, 1.0}, g = {3, 100.0 + d, 1.0};
	struct bs_stat_sample flat1 = {3, 5.0, 0.0}, flat2 = {3, 6.0, 0.0};
	struct bs_stat_sample two = {2, 200.0, 1.0};

	(void)state;
	near(bs_stat_welch_p(&g, &b), 0.05, 1e-5);
	near(bs_stat_welch_p(&b, &g), 0.05, 1e-5);
	near(bs_stat_welch_p(&b, &b), 1.0, 1e-12);
	assert_true(bs_stat_welch_p(&flat1, &flat2) == 0.0);
	assert_true(bs_stat_welch_p(&flat1, &flat1) == 1.0);
	/* Fewer than three runs on a side: no test. */
	assert_true(isnan(bs_stat_welch_p(&two, &b)));
	assert_true(isnan(bs_stat_welch_p(&b, &two)));
}

static void test_ratio_ci(void **state)
{
	/* Equal relative spreads: df = 4. */
	struct bs_stat_sample b = {3, 100.0, 1.0}, g = {3, 110.0, 1.1};
	struct bs_stat_sample one = {1, 100.0, NAN}, zero = {3, 0.0, 1.0};
	struct bs_stat_sample flat = {3, 50.0, 0.0};
	double lo = 0, hi = 0;

	(void)state;
	assert_int_equal(bs_stat_ratio_ci(&g, &b, &lo, &hi), 1);
	near(lo, 1.0753440, 1e-6);
	near(hi, 1.1252213, 1e-6);
	assert_true(lo < 1.1 && hi > 1.1);
	assert_int_equal(bs_stat_ratio_ci(&flat, &flat, &lo, &hi), 1);
	near(lo, 1.0, 1e-12);
	near(hi, 1.0, 1e-12);
	assert_int_equal(bs_stat_ratio_ci(&one, &b, &lo, &hi), 0);
	assert_int_equal(bs_stat_ratio_ci(&g, &zero, &lo, &hi), 0);
}

static void test_holm(void **state)
{
	double p[] = {0.01, 0.04, 0.03, NAN, 0.005};
	double want[] = {0.03, 0.06, 0.06, NAN, 0.02};
	double ties[] = {0.02, 0.02, 0.9};
	size_t scratch[5], i;

	(void)state;
	bs_stat_holm(p, 5, scratch);
	for (i = 0; i < 5; i++) {
		if (isnan(want[i]))
			assert_true(isnan(p[i]));
		else
			near(p[i], want[i], 1e-12);
	}
	bs_stat_holm(ties, 3, scratch);
	near(ties[0], 0.06, 1e-12);
	near(ties[1], 0.06, 1e-12);
	near(ties[2], 0.9, 1e-12);
	bs_stat_holm(p, 0, scratch); /* nothing to do */
}

/* pct and p of group g against b, as the report computes them. */
static enum bs_verdict verdict(struct bs_stat_sample g, struct bs_stat_sample b,
			       int better)
{
	double pct = (g.mean - b.mean) * 100.0 / b.mean;

	return bs_stat_verdict(pct, better, bs_stat_welch_p(&g, &b),
			       BS_STAT_NOISE_PCT);
}

static void test_verdicts(void **state)
{
	struct bs_stat_sample tight_b = {5, 100.0, 1.0};
	struct bs_stat_sample tight_g = {5, 110.0, 1.0};
	struct bs_stat_sample noisy_b = {5, 100.0, 10.0};
	struct bs_stat_sample noisy_g = {5, 101.0, 10.0};
	struct bs_stat_sample wide_b = {3, 100.0, 20.0};
	struct bs_stat_sample wide_g = {3, 108.0, 20.0};
	struct bs_stat_sample one_b = {1, 100.0, NAN};
	struct bs_stat_sample one_g = {1, 170.0, NAN};

	(void)state;
	/* A real 10% change over tight repeats. */
	assert_int_equal(verdict(tight_g, tight_b, 1), BS_V_BETTER);
	assert_int_equal(verdict(tight_b, tight_g, 1), BS_V_WORSE);
	/* Latency: lower is better, so +10% is worse. */
	assert_int_equal(verdict(tight_g, tight_b, -1), BS_V_WORSE);
	/* 1% over noisy repeats: under the threshold. */
	assert_int_equal(verdict(noisy_g, noisy_b, 1), BS_V_NOISE);
	/* 8% over very noisy repeats: past the threshold, not significant
	 * (not "within noise": the change is not small). */
	assert_int_equal(verdict(wide_g, wide_b, 1), BS_V_NOTSIG);
	/* One run a side: past the threshold, untested. */
	assert_int_equal(verdict(one_g, one_b, 1), BS_V_FEW);
	/* A metric with no better side is context: nothing is claimed. */
	assert_int_equal(verdict(tight_g, tight_b, 0), BS_V_NONE);
	assert_int_equal(bs_stat_verdict(NAN, 1, 0.001, 5), BS_V_NONE);
	/* The threshold itself: 5% is past it, 4.99% is not. */
	assert_int_equal(bs_stat_verdict(5.0, 1, 0.001, 5), BS_V_BETTER);
	assert_int_equal(bs_stat_verdict(-4.99, 1, 0.001, 5), BS_V_NOISE);
	assert_string_equal(bs_verdict_name(BS_V_FEW), "few");
	assert_string_equal(bs_verdict_name(BS_V_NONE), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_ci), cmocka_unit_test(test_median),
		cmocka_unit_test(test_welch),   cmocka_unit_test(test_ratio_ci),
		cmocka_unit_test(test_holm),    cmocka_unit_test(test_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
