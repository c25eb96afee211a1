/*
 * report/changept.h - change points of one series: the places where the
 * level of a metric's values, in the order they were measured, shifts
 * and stays shifted. docs/changes.md describes the method and its
 * references in a user's words; in short:
 *
 *   - binary segmentation: a stretch of the series is split where the
 *     standardised Mann-Whitney rank statistic of "before" against
 *     "after" is largest (ranks: one outlier moves it by one rank, and
 *     a 10x shift counts as much as a 10% one);
 *   - each split is tested by the same rank statistic (its normal
 *     approximation, ties corrected), the p-value of the largest of the
 *     places the split could have been (James, James and Siegmund 1987,
 *     never looser than Bonferroni), and kept when that is under alpha;
 *   - bs_changept_test, for a split the caller chose (check: the newest
 *     runs, maybe one), uses Yuen and Dixon's trimmed-mean t-test (20%
 *     trimmed, the spread pooled) on the logs of the values instead;
 *   - the splits found are then tested again against their neighbours
 *     only, and the weakest that is not significant or whose medians
 *     differ by less than the noise threshold is dropped, until every
 *     one left is both.
 *
 * Only points with status BS_ST_OK and a finite value take part; the
 * others (too fast to time, not run, NAN) keep their place in the series
 * but are skipped. Times are not used by the method (runs come when they
 * come: a level is a level, however far apart its runs are); a change
 * reports the time of its first run. Nothing here fails or prints;
 * memory comes from xmalloc.
 */
#ifndef BS_REPORT_CHANGEPT_H
#define BS_REPORT_CHANGEPT_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

/*
 * The defaults. A level needs 5 runs on each side of its change: fewer
 * cannot be told from a few outliers of a noisy metric, and bench/
 * changes.sh finds 3 and 4 costing precision for no recall. The test's
 * level is 0.01 rather than the report's 0.05: an archive has a series
 * per machine, test and metric, each searched at many places, and a
 * team reads every alarm (docs/changes.md).
 */
#define BS_CHANGEPT_MIN_SEG 5
#define BS_CHANGEPT_ALPHA 0.01

struct bs_changept_opts {
	/* A change whose medians differ by less than this, in percent of
	 * the old level, is not reported (--noise; BS_STAT_NOISE_PCT). */
	double noise_pct;
	/* The level of the test after its correction (BS_CHANGEPT_ALPHA). */
	double alpha;
	/* Numbers a level needs on each side of a change found
	 * (BS_CHANGEPT_MIN_SEG). */
	size_t min_seg;
	/* Yuen's trimming: the fraction cut from each end of a level. */
	double trim;
};

/* The defaults, which need no tuning. */
void bs_changept_opts_init(struct bs_changept_opts *o);

/* One change point. Indexes are into the series as given. */
struct bs_changept {
	size_t index; /* the first point (OK) of the new level */
	size_t prev;  /* the last point (OK) of the old level */
	int64_t time; /* t[index], 0 when no times were given */
	/* The two levels compared: points [from, index) and [index, to),
	 * between the neighbouring change points (or the series' ends). */
	size_t from, to;
	double before, after;     /* the levels' medians */
	size_t n_before, n_after; /* the numbers in each (OK points) */
	double ratio;             /* after / before; NAN when before is 0 */
	double pct;               /* (ratio - 1) * 100 */
	/* The two-sided p-value, corrected for the places tried (at most 1):
	 * the rank test's from bs_changept_find, Yuen's from
	 * bs_changept_test. */
	double p;
	int direction; /* +1 the level rose, -1 it fell */
};

/*
 * Finds the change points of the n points v[], in time order, with their
 * statuses st[] and times t[] (unix seconds; t may be NULL). Returns how
 * many, with *out set to them in index order (caller frees; NULL when
 * there is none). A series with fewer than 2 * min_seg numbers has none.
 */
size_t bs_changept_find(const double *v, const enum bs_status *st,
			const int64_t *t, size_t n,
			const struct bs_changept_opts *o,
			struct bs_changept **out /* OUT: caller frees */);

/*
 * The statistics of one given split, for a caller that chose it (bstore
 * check: the newest runs against the level before them): the points
 * [from, at) against [at, to), the p-value multiplied by ntries (1 when
 * the split was not searched for). A side may hold one number (the test
 * is then a prediction test of that run against the other side's level
 * and spread); at least three in all. Whether it was tested: fills *c
 * and returns 1; 0 (c untouched) when a side has none or there are
 * fewer than three.
 */
int bs_changept_test(const double *v, const enum bs_status *st,
		     const int64_t *t, size_t from, size_t at, size_t to,
		     double ntries, const struct bs_changept_opts *o,
		     struct bs_changept *c /* OUT */);

/* Whether a change is reported: p under alpha and |pct| at least
 * noise_pct. */
int bs_changept_reported(const struct bs_changept *c,
			 const struct bs_changept_opts *o);

#endif
