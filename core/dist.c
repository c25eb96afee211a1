/*
 * core/dist.c - fio's histogram bins and percentile rule (core/dist.h).
 */
#include "core/dist.h"

#include <math.h>

#include "util/banned.h"

uint64_t bs_fio_bin_value(unsigned idx)
{
	unsigned error_bits;
	uint64_t base, k;

	/* Below 2 * VAL every value has a bin of its own. */
	if (idx < (BS_FIO_PLAT_VAL << 1))
		return idx;
	error_bits = (idx >> BS_FIO_PLAT_BITS) - 1;
	base = UINT64_C(1) << (error_bits + BS_FIO_PLAT_BITS);
	k = idx % BS_FIO_PLAT_VAL;
	/* fio: base + (k + 0.5) * 2^error_bits, exact in integers as
	 * error_bits >= 1 here. */
	return base + (k << error_bits) + (UINT64_C(1) << (error_bits - 1));
}

unsigned bs_fio_bin_of(uint64_t v)
{
	unsigned msb = 0, error_bits, idx;
	uint64_t t = v;

	while (t >>= 1)
		msb++;
	if (v == 0 || msb <= BS_FIO_PLAT_BITS)
		return (unsigned)v;
	error_bits = msb - BS_FIO_PLAT_BITS;
	idx = ((error_bits + 1) << BS_FIO_PLAT_BITS) +
	      (unsigned)((BS_FIO_PLAT_VAL - 1) & (v >> error_bits));
	return idx < BS_FIO_PLAT_NR ? idx : BS_FIO_PLAT_NR - 1;
}

int bs_fio_bin_index(uint64_t v, unsigned *idx)
{
	unsigned i = bs_fio_bin_of(v);

	if (bs_fio_bin_value(i) != v)
		return -1;
	*idx = i;
	return 0;
}

void bs_fio_bin_edges(unsigned idx, uint64_t *lo, uint64_t *hi)
{
	unsigned e;
	uint64_t k;

	if (idx < (BS_FIO_PLAT_VAL << 1)) {
		*lo = idx;
		*hi = (uint64_t)idx + 1;
		return;
	}
	e = (idx >> BS_FIO_PLAT_BITS) - 1;
	k = idx % BS_FIO_PLAT_VAL;
	*lo = (BS_FIO_PLAT_VAL + k) << e;
	*hi = (BS_FIO_PLAT_VAL + k + 1) << e;
}

double bs_dist_percentile(const struct bs_point *pt, size_t n, double p)
{
	unsigned long long nr = 0, sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (pt[i].y > 0)
			nr += (unsigned long long)pt[i].y;
	if (nr == 0)
		return NAN;
	for (i = 0; i < n; i++) {
		if (pt[i].y > 0)
			sum += (unsigned long long)pt[i].y;
		if ((long double)sum >= (long double)p / 100.0 * nr)
			return pt[i].x;
	}
	return pt[n - 1].x;
}
