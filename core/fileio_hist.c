/*
 * core/fileio_hist.c - sysbench 1.0.20's latency histogram for `bstore
 * fileio` (core/fileio.h): sysbench.c sets it up with 1024 buckets from
 * 0.001 to 100000 ms on a log scale, and sb_histogram.c puts a latency
 * in the bucket nearest its logarithm, the ends taking what is beyond
 * them. bstore keeps the same buckets, so that its rows are sysbench's.
 */
#include "core/fileio.h"

#include <math.h>

#include "util/banned.h"

#define RANGE_MIN_MS 0.001
#define RANGE_MAX_MS 100000.0

/* Buckets per unit of the natural logarithm. */
static double mult(void)
{
	return (BS_FILEIO_HIST_SIZE - 1) /
	       (log(RANGE_MAX_MS) - log(RANGE_MIN_MS));
}

void bs_fileio_hist_add(struct bs_fileio_hist *h, uint64_t ns)
{
	double ms = (double)ns / 1e6, i;

	i = ms > 0 ? floor((log(ms) - log(RANGE_MIN_MS)) * mult() + 0.5) : 0;
	if (i < 0)
		i = 0;
	else if (i > BS_FILEIO_HIST_SIZE - 1)
		i = BS_FILEIO_HIST_SIZE - 1;
	h->n[(size_t)i]++;
}

void bs_fileio_hist_merge(struct bs_fileio_hist *dst,
			  const struct bs_fileio_hist *src)
{
	size_t i;

	for (i = 0; i < BS_FILEIO_HIST_SIZE; i++)
		dst->n[i] += src->n[i];
}

double bs_fileio_hist_ms(unsigned i)
{
	return exp(i / mult() + log(RANGE_MIN_MS));
}
