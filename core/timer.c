/* core/timer.c - clocks and the log-linear latency histogram. */
#include "core/timer.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "util/banned.h"

uint64_t bs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double bs_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

void bs_hist_init(struct bs_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

unsigned bs_hist_index(uint64_t ns)
{
	unsigned e;

	if (ns < BS_HIST_SUB)
		return (unsigned)ns;
	e = 63u - (unsigned)__builtin_clzll(ns);
	return (e - BS_HIST_SUB_BITS + 1) * BS_HIST_SUB +
	       (unsigned)((ns >> (e - BS_HIST_SUB_BITS)) & (BS_HIST_SUB - 1));
}

void bs_hist_range(unsigned idx, uint64_t *lo, uint64_t *hi)
{
	unsigned e, sub;

	if (idx < BS_HIST_SUB) {
		*lo = *hi = idx;
		return;
	}
	e = idx / BS_HIST_SUB + BS_HIST_SUB_BITS - 1;
	sub = idx % BS_HIST_SUB;
	*lo = (uint64_t)(BS_HIST_SUB + sub) << (e - BS_HIST_SUB_BITS);
	*hi = *lo + ((uint64_t)1 << (e - BS_HIST_SUB_BITS)) - 1;
}

void bs_hist_add(struct bs_hist *h, uint64_t ns)
{
	h->count++;
	h->sum_ns += (double)ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->bucket[bs_hist_index(ns)]++;
}

void bs_hist_merge(struct bs_hist *dst, const struct bs_hist *src)
{
	unsigned i;

	if (src->count == 0)
		return;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	for (i = 0; i < BS_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

double bs_hist_mean_us(const struct bs_hist *h)
{
	if (h->count == 0)
		return NAN;
	return h->sum_ns / (double)h->count / 1000.0;
}

double bs_hist_max_us(const struct bs_hist *h)
{
	if (h->count == 0)
		return NAN;
	return (double)h->max_ns / 1000.0;
}

double bs_hist_quantile_us(const struct bs_hist *h, double q)
{
	uint64_t rank, seen = 0, lo, hi;
	double mid;
	unsigned i;

	if (h->count == 0)
		return NAN;
	if (q <= 0)
		return (double)h->min_ns / 1000.0;
	if (q >= 1)
		return (double)h->max_ns / 1000.0;
	/* The sample of rank ceil(q * n), 1-based (nearest-rank method). */
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < BS_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == BS_HIST_BUCKETS)
		return (double)h->max_ns / 1000.0;
	bs_hist_range(i, &lo, &hi);
	mid = ((double)lo + (double)hi) / 2.0;
	if (mid < (double)h->min_ns)
		mid = (double)h->min_ns;
	if (mid > (double)h->max_ns)
		mid = (double)h->max_ns;
	return mid / 1000.0;
}

void bs_span_start(struct bs_span *s)
{
	s->cpu0_s = bs_cpu_s();
	s->t0_ns = bs_now_ns();
	s->elapsed_s = 0;
	s->cpu_s = 0;
}

void bs_span_stop(struct bs_span *s)
{
	uint64_t t1 = bs_now_ns();

	s->elapsed_s = (double)(t1 - s->t0_ns) / 1e9;
	s->cpu_s = bs_cpu_s() - s->cpu0_s;
	if (s->cpu_s < 0)
		s->cpu_s = 0;
}
