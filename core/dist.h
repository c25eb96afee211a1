/*
 * core/dist.h - latency distributions kept as data: fio's histogram
 * bins and the percentiles fio computes from them.
 *
 * fio counts every completion latency in a log-linear histogram
 * (stat.h: FIO_IO_U_PLAT_BITS 6, FIO_IO_U_PLAT_VAL 64, 29 groups, 1856
 * bins): values below 128 ns have a bin each; above, each power of two
 * is cut into 64 bins of equal width. Its json+ output prints every bin
 * that counted something as "value": count, the value being the bin's
 * midpoint in ns (plat_idx_to_val). bstore stores those values as fio
 * printed them (a series of the run: x the value, y the count), and
 * computes any percentile from them by fio's own rule, so that the
 * numbers are fio's to the nanosecond (docs/formats.md, "fio
 * distributions").
 */
#ifndef BS_CORE_DIST_H
#define BS_CORE_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

#define BS_FIO_PLAT_BITS 6
#define BS_FIO_PLAT_VAL (1u << BS_FIO_PLAT_BITS)
#define BS_FIO_PLAT_GROUPS 29u
#define BS_FIO_PLAT_NR (BS_FIO_PLAT_GROUPS * BS_FIO_PLAT_VAL)

/* The value fio prints for bin idx (< BS_FIO_PLAT_NR): its midpoint. */
uint64_t bs_fio_bin_value(unsigned idx);
/* The bin a latency of v ns is counted in (fio's plat_val_to_idx; the
 * last bin takes what is beyond it). */
unsigned bs_fio_bin_of(uint64_t v);
/*
 * Whether v is a bin's printed value: 1 and *idx the bin, or 0 when v is
 * no bin's value (a document that is not fio's, or bins of another
 * bucketing).
 */
int bs_fio_bin_index(uint64_t v, unsigned *idx /* OUT */);
/* The latencies bin idx counts: lo <= ns < hi. */
void bs_fio_bin_edges(unsigned idx, uint64_t *lo /* OUT */,
		      uint64_t *hi /* OUT */);

/*
 * Percentile p (0 < p <= 100) of a histogram of n bins in increasing x
 * (x a bin's value, y its count): fio's rule (stat.c,
 * calc_clat_percentiles): the value of the first bin at which the
 * running count reaches p / 100 of the total, compared in long double as
 * fio compares. NAN for an empty histogram.
 */
double bs_dist_percentile(const struct bs_point *pt, size_t n, double p);

/* The axis of a fio histogram series: x is a bin's value in ns. */
#define BS_DIST_FIO_AXIS "ns"

/*
 * Percentile p (0 < p <= 100) of sysbench 1.0.20's latency histogram as
 * it prints it (--histogram: x a bucket's value in ms with 3 decimals, y
 * its count; bstore fileio prints the same), by sysbench's rule
 * (sb_histogram.c, snapshot_get_pct): nmax = floor(total * p / 100 +
 * 0.5); the value of the first bucket whose running count reaches nmax
 * (bucket 0's when nmax is 0). The value is the bucket's exact one
 * (core/fileio.h bs_fileio_hist_ms), each printed bin taken as the first
 * bucket after the bin before it that prints as its value: where buckets
 * are closer than 0.001 ms (below about 0.055 ms) and not every one was
 * printed, it is one of the buckets printed alike. NAN when empty.
 */
double bs_dist_sysbench_percentile(const struct bs_point *pt, size_t n,
				   double p);

/*
 * Storage (schema version 7, table distributions): a histogram series
 * (a catalogue row named "<dir>_<kind>_hist", or "latency_histogram")
 * is one row, its bins packed by one of four schemes (docs/schema.md,
 * "distributions"):
 *   "fio"   x is fio's bin value: varint (bin index delta, count) pairs,
 *           the first delta from index 0;
 *   "milli" x is a whole number of thousandths (sysbench and bstore
 *           fileio print ms with 3 decimals, a value repeated where
 *           bins round alike): varint (delta of x * 1000, count)
 *           pairs, the first delta from 0;
 *   "dec4"  the same in ten-thousandths (bstore fileio prints 4
 *           decimals);
 *   "raw"   anything else: x, y and seconds as 8-byte IEEE doubles,
 *           little-endian, per point.
 * A varint is LEB128 (7 bits a byte, low first). Packing picks the first
 * scheme that gives the points back bit for bit, so unpacking is
 * lossless.
 */
#include "util/buf.h"

/* Is catalogue row m a distribution kept in table distributions? */
int bs_dist_metric(int m);
/* The direction ("read", "write", "trim"; "" for none) and kind ("clat",
 * "slat", "lat") of distribution m, each at most 8 bytes with the NUL. */
void bs_dist_names(int m, char dir[8], char kind[8]);
/* Packs s's points into out (appended); returns the scheme's name. */
const char *bs_dist_pack(const struct bs_series *s, struct bs_buf *out);
/* Appends the nbins points that n bytes b of scheme hold to s: 0, or
 * -BS_EPARSE for bytes that are not such a packing (the reader, which
 * names the archive and run, words it). */
int bs_dist_unpack(const char *scheme, const unsigned char *b, size_t n,
		   int64_t nbins, struct bs_series *s);

#endif
