/*
 * core/timer.h - clocks and the latency histogram of the benchmark core.
 *
 * Wall time is CLOCK_MONOTONIC (bonnie++ uses gettimeofday, which jumps
 * when the clock is set); CPU time is user+system from
 * getrusage(RUSAGE_SELF), i.e. the whole process once, however many
 * threads it runs.
 *
 * A struct bs_hist keeps operation latencies in log-linear buckets: 16
 * linear buckets per power of two, so a percentile is within about 3% of
 * the true sample (the bucket's midpoint is reported, clamped to the
 * exact minimum and maximum). Count, sum, minimum and maximum are exact.
 * It is a fixed-size value: no allocation, merge by adding buckets.
 */
#ifndef BS_CORE_TIMER_H
#define BS_CORE_TIMER_H

#include <stdint.h>

#define BS_HIST_SUB_BITS 4
#define BS_HIST_SUB (1u << BS_HIST_SUB_BITS)
#define BS_HIST_BUCKETS (64u * BS_HIST_SUB)

struct bs_hist {
	uint64_t count;
	uint64_t min_ns;
	uint64_t max_ns;
	double sum_ns;
	uint64_t bucket[BS_HIST_BUCKETS];
};

/* Monotonic wall clock, nanoseconds. */
uint64_t bs_now_ns(void);
/* User+system CPU of the whole process so far, seconds. */
double bs_cpu_s(void);

void bs_hist_init(struct bs_hist *h);
void bs_hist_add(struct bs_hist *h, uint64_t ns);
/* Adds src's samples to dst. */
void bs_hist_merge(struct bs_hist *dst, const struct bs_hist *src);

/* Bucket index of a value, and the [lo, hi] range of a bucket (ns). */
unsigned bs_hist_index(uint64_t ns);
void bs_hist_range(unsigned idx, uint64_t *lo, uint64_t *hi);

/* Results in microseconds; NAN when the histogram is empty. */
double bs_hist_mean_us(const struct bs_hist *h);
double bs_hist_max_us(const struct bs_hist *h);
/* q in [0, 1]: 0.5 for the median, 0.99 for the 99th percentile. */
double bs_hist_quantile_us(const struct bs_hist *h, double q);

/*
 * One timed interval: wall and CPU time between bs_span_start and
 * bs_span_stop.
 */
struct bs_span {
	uint64_t t0_ns;
	double cpu0_s;
	double elapsed_s; /* set by bs_span_stop */
	double cpu_s;     /* set by bs_span_stop */
};

void bs_span_start(struct bs_span *s);
void bs_span_stop(struct bs_span *s);

#endif
