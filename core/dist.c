/*
 * core/dist.c - fio's histogram bins and percentile rule (core/dist.h).
 */
#include "core/dist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/metric.h"
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
		return 0;
	*idx = i;
	return 1;
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

/* Does sysbench print bucket j's value as x ("%12.3f")? */
static int prints_as(unsigned j, double x)
{
	char t[48];
	double v;

	snprintf(t, sizeof(t), "%.3f", bs_fileio_hist_ms(j));
	v = strtod(t, NULL);
	return v == x;
}

/* The first bucket after prev (-1: none yet) that prints as x, or -1. */
static long sysbench_bucket(double x, long prev)
{
	long j = prev + 1;

	for (; j < (long)BS_FILEIO_HIST_SIZE; j++) {
		if (prints_as((unsigned)j, x))
			return j;
		if (bs_fileio_hist_ms((unsigned)j) > x + 0.001)
			break;
	}
	return -1;
}

double bs_dist_sysbench_percentile(const struct bs_point *pt, size_t n,
				   double p)
{
	uint64_t total = 0, cur = 0;
	double nmax;
	long prev = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (pt[i].y > 0)
			total += (uint64_t)pt[i].y;
	if (total == 0)
		return NAN;
	nmax = floor((double)total * p / 100 + 0.5);
	if (nmax <= 0)
		return bs_fileio_hist_ms(0);
	for (i = 0; i < n; i++) {
		long j = sysbench_bucket(pt[i].x, prev);

		if (j >= 0)
			prev = j;
		if (pt[i].y > 0)
			cur += (uint64_t)pt[i].y;
		if ((double)cur >= nmax)
			return j >= 0 ? bs_fileio_hist_ms((unsigned)j)
				      : pt[i].x;
	}
	return pt[n - 1].x;
}

int bs_dist_metric(int m)
{
	const char *k;
	size_t n;

	if (m < 0 || m >= bs_nmetrics || !(bs_metrics[m].flags & BS_MF_SERIES))
		return 0;
	k = bs_metrics[m].key;
	n = strlen(k);
	return strcmp(k, "latency_histogram") == 0 ||
	       (n > 5 && strcmp(k + n - 5, "_hist") == 0);
}

void bs_dist_names(int m, char dir[8], char kind[8])
{
	const char *k = bs_metrics[m].key, *u = strchr(k, '_');
	size_t n = u ? (size_t)(u - k) : 0;
	const char *rest = u ? u + 1 : "";
	size_t r = strcspn(rest, "_");

	dir[0] = kind[0] = '\0';
	if (strcmp(k, "latency_histogram") == 0 || n >= 8 || r >= 8) {
		memcpy(kind, "lat", 4);
		return;
	}
	memcpy(dir, k, n);
	dir[n] = '\0';
	memcpy(kind, rest, r);
	kind[r] = '\0';
}

static void put_varint(struct bs_buf *out, uint64_t v)
{
	while (v >= 0x80) {
		bs_buf_addc(out, (char)(0x80 | (v & 0x7f)));
		v >>= 7;
	}
	bs_buf_addc(out, (char)v);
}

static int get_varint(const unsigned char **p, const unsigned char *end,
		      uint64_t *v)
{
	uint64_t x = 0;
	unsigned shift = 0;

	while (*p < end && shift < 64) {
		unsigned char c = *(*p)++;

		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
		shift += 7;
	}
	return -1;
}

/* A count as the schemes keep it: a whole number, 0 to 2^53. */
static int whole_count(double y)
{
	return y >= 0 && y <= 9007199254740992.0 && y == floor(y);
}

/* Can s be packed as fio's bins? */
static int fits_fio(const struct bs_series *s)
{
	unsigned idx, prev = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct bs_point *p = &s->pt[i];

		if (!isnan(p->seconds) || !whole_count(p->y) || p->x < 0 ||
		    p->x > 1e19 || p->x != floor(p->x) ||
		    !bs_fio_bin_index((uint64_t)p->x, &idx) ||
		    (i > 0 && idx <= prev))
			return 0;
		prev = idx;
	}
	return 1;
}

/* Can s be packed as whole numbers of 1/scale (1000: thousandths)? x
 * may repeat: sysbench prints a value rounded to 3 decimals, and bins
 * below 0.0005 ms all as 0.001. */
static int fits_scaled(const struct bs_series *s, double scale)
{
	double prev = -1;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct bs_point *p = &s->pt[i];
		double k = floor(p->x * scale + 0.5);

		if (!isnan(p->seconds) || !whole_count(p->y) || p->x < 0 ||
		    k > 9007199254740992.0 || k / scale != p->x || k < prev)
			return 0;
		prev = k;
	}
	return 1;
}

/* The packings of whole numbers of 1/scale: name and scale. */
static const struct {
	const char *name;
	double scale;
} scaled[] = {{"milli", 1000.0}, {"dec4", 10000.0}};

static void put_double(struct bs_buf *out, double d)
{
	uint64_t u;
	int i;

	memcpy(&u, &d, sizeof(u));
	for (i = 0; i < 8; i++)
		bs_buf_addc(out, (char)((u >> (8 * i)) & 0xff));
}

static double get_double(const unsigned char *p)
{
	uint64_t u = 0;
	double d;
	int i;

	for (i = 7; i >= 0; i--)
		u = (u << 8) | p[i];
	memcpy(&d, &u, sizeof(d));
	return d;
}

const char *bs_dist_pack(const struct bs_series *s, struct bs_buf *out)
{
	uint64_t prev = 0;
	size_t i, k;

	if (fits_fio(s)) {
		for (i = 0; i < s->n; i++) {
			unsigned idx = 0;

			(void)bs_fio_bin_index((uint64_t)s->pt[i].x, &idx);
			put_varint(out, idx - prev);
			put_varint(out, (uint64_t)s->pt[i].y);
			prev = idx;
		}
		return "fio";
	}
	for (k = 0; k < sizeof(scaled) / sizeof(scaled[0]); k++) {
		if (!fits_scaled(s, scaled[k].scale))
			continue;
		for (i = 0; i < s->n; i++) {
			uint64_t v = (uint64_t)floor(
				s->pt[i].x * scaled[k].scale + 0.5);

			put_varint(out, v - prev);
			put_varint(out, (uint64_t)s->pt[i].y);
			prev = v;
		}
		return scaled[k].name;
	}
	for (i = 0; i < s->n; i++) {
		put_double(out, s->pt[i].x);
		put_double(out, s->pt[i].y);
		put_double(out, s->pt[i].seconds);
	}
	return "raw";
}

int bs_dist_unpack(const char *scheme, const unsigned char *b, size_t n,
		   int64_t nbins, struct bs_series *s)
{
	const unsigned char *p = b, *end = b + n;
	uint64_t at = 0, d, c;
	int64_t i;
	size_t k;
	double scale = 0;
	int fio = strcmp(scheme, "fio") == 0;

	if (nbins < 0)
		return -BS_EPARSE;
	if (strcmp(scheme, "raw") == 0) {
		/* Compared as n / 24: nbins * 24 could wrap. */
		if (n % 24 != 0 || (uint64_t)nbins != n / 24)
			return -BS_EPARSE;
		for (i = 0; i < nbins; i++, p += 24)
			bs_series_point(s, get_double(p), get_double(p + 8),
					get_double(p + 16));
		return 0;
	}
	for (k = 0; !fio && k < sizeof(scaled) / sizeof(scaled[0]); k++)
		if (strcmp(scheme, scaled[k].name) == 0)
			scale = scaled[k].scale;
	if (!fio && scale == 0)
		return -BS_EPARSE;
	for (i = 0; i < nbins; i++) {
		if (get_varint(&p, end, &d) < 0 ||
		    get_varint(&p, end, &c) < 0 || (fio && i > 0 && d == 0) ||
		    d > UINT64_C(1) << 53 || c > UINT64_C(1) << 53)
			return -BS_EPARSE;
		at += d;
		if (fio && at >= BS_FIO_PLAT_NR)
			return -BS_EPARSE;
		if (!fio && at > UINT64_C(1) << 53)
			return -BS_EPARSE;
		bs_series_point(s,
				fio ? (double)bs_fio_bin_value((unsigned)at)
				    : (double)at / scale,
				(double)c, NAN);
	}
	return p == end ? 0 : -BS_EPARSE;
}
