/* tests/unit/test_timer.c - the latency histogram and the span timer. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/timer.h"
#include "util/banned.h"

/* Every value falls in the bucket whose range holds it; ranges tile. */
static void test_buckets_tile(void **state)
{
	static const uint64_t probes[] = {
		0,
		1,
		15,
		16,
		17,
		31,
		32,
		33,
		1000,
		1023,
		1024,
		123456789,
		4000000000ull,
		1ull << 40,
		(1ull << 63) + 12345,
		UINT64_MAX,
	};
	uint64_t lo, hi, prev_hi = 0;
	unsigned i, idx;

	(void)state;
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		idx = bs_hist_index(probes[i]);
		assert_true(idx < BS_HIST_BUCKETS);
		bs_hist_range(idx, &lo, &hi);
		assert_true(lo <= probes[i] && probes[i] <= hi);
	}
	/* Consecutive buckets are adjacent, and each is at most 1/16 wide. */
	for (idx = 0; idx < 976; idx++) {
		bs_hist_range(idx, &lo, &hi);
		if (idx > 0)
			assert_true(lo == prev_hi + 1);
		assert_true(hi >= lo);
		if (lo >= 16)
			assert_true((double)(hi - lo + 1) <= (double)lo / 16);
		prev_hi = hi;
	}
}

static void test_empty(void **state)
{
	struct bs_hist h;

	(void)state;
	bs_hist_init(&h);
	assert_true(isnan(bs_hist_mean_us(&h)));
	assert_true(isnan(bs_hist_max_us(&h)));
	assert_true(isnan(bs_hist_quantile_us(&h, 0.5)));
}

/* Latencies 1..10000 us: the exact answers are known. */
static void test_uniform(void **state)
{
	struct bs_hist h;
	uint64_t us;
	double p50, p99;

	(void)state;
	bs_hist_init(&h);
	for (us = 1; us <= 10000; us++)
		bs_hist_add(&h, us * 1000);
	assert_int_equal(h.count, 10000);
	assert_true(fabs(bs_hist_mean_us(&h) - 5000.5) < 1e-6);
	assert_true(bs_hist_max_us(&h) == 10000.0);
	p50 = bs_hist_quantile_us(&h, 0.5);
	p99 = bs_hist_quantile_us(&h, 0.99);
	/* Bucket midpoints: within 1/32 of the true value. */
	assert_true(fabs(p50 - 5000) <= 5000.0 / 32);
	assert_true(fabs(p99 - 9900) <= 9900.0 / 32);
	assert_true(bs_hist_quantile_us(&h, 0) == 1.0);
	assert_true(bs_hist_quantile_us(&h, 1) == 10000.0);
}

/* One slow outlier moves the maximum and the mean, not the median. */
static void test_outlier(void **state)
{
	struct bs_hist h;
	int i;

	(void)state;
	bs_hist_init(&h);
	for (i = 0; i < 999; i++)
		bs_hist_add(&h, 100000); /* 100 us */
	bs_hist_add(&h, 2000000000);     /* 2 s */
	assert_true(bs_hist_max_us(&h) == 2e6);
	assert_true(fabs(bs_hist_quantile_us(&h, 0.5) - 100) <= 100.0 / 32);
	assert_true(fabs(bs_hist_quantile_us(&h, 0.99) - 100) <= 100.0 / 32);
	assert_true(fabs(bs_hist_mean_us(&h) - (999 * 100 + 2e6) / 1000) <
		    1e-6);
}

static void test_merge(void **state)
{
	struct bs_hist a, b, all;
	uint64_t v;

	(void)state;
	bs_hist_init(&a);
	bs_hist_init(&b);
	bs_hist_init(&all);
	for (v = 1; v <= 5000; v++) {
		bs_hist_add(v % 2 ? &a : &b, v * 777);
		bs_hist_add(&all, v * 777);
	}
	bs_hist_merge(&a, &b);
	assert_int_equal(a.count, all.count);
	assert_int_equal(a.min_ns, all.min_ns);
	assert_int_equal(a.max_ns, all.max_ns);
	assert_memory_equal(a.bucket, all.bucket, sizeof(a.bucket));
	assert_true(bs_hist_quantile_us(&a, 0.99) ==
		    bs_hist_quantile_us(&all, 0.99));
}

/* A sleep is wall time, not CPU time; a busy loop is both. */
static void test_span(void **state)
{
	struct timespec ts = {0, 60 * 1000 * 1000};
	struct bs_span s;
	volatile uint64_t x = 0;
	uint64_t t0;

	(void)state;
	bs_span_start(&s);
	nanosleep(&ts, NULL);
	bs_span_stop(&s);
	assert_true(s.elapsed_s >= 0.059 && s.elapsed_s < 5);
	assert_true(s.cpu_s < s.elapsed_s);

	/* Spin until 50 ms of CPU are used (10 s at most on a loaded CI
	 * machine): the span sees them, and at least as much wall time. */
	bs_span_start(&s);
	t0 = bs_now_ns();
	while (bs_cpu_s() - s.cpu0_s < 0.05 &&
	       bs_now_ns() - t0 < 10000000000ull)
		x++;
	bs_span_stop(&s);
	assert_true(s.cpu_s >= 0.05);
	assert_true(s.elapsed_s >= s.cpu_s * 0.9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_tile),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_span),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
