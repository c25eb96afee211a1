/*
 * report/factor.h - factor comparisons (bstore report --by KEY [--within
 * KEY2]): the runs chosen are split into groups by the value of tag KEY
 * (or, for runs without such a tag, their parameter KEY: "--by mode"
 * splits sysbench runs by test mode),
 * and with KEY2 once per value of KEY2, each such block with its own
 * baseline. The groups are then a report's (report/report.h, with
 * opts.bases and opts.labels).
 *
 * Blocks come in the sorted order of KEY2's values, groups in a block in
 * the sorted order of KEY's (byte order); the baseline of a block is its
 * group of KEY=base_value, or its first when base_value is NULL. A run
 * without KEY (or KEY2) takes no part; skipped counts them.
 */
#ifndef BS_REPORT_FACTOR_H
#define BS_REPORT_FACTOR_H

#include <stddef.h>

#include "report/report.h"
#include "store/store.h"
#include "util/err.h"

struct bs_report_factor {
	size_t n;           /* groups */
	char **selector;    /* "PREFIX,raid=10,cache=on", for people */
	char **label;       /* "raid=10, cache=on": a selector too */
	size_t *base;       /* each group's baseline, 0-based */
	struct bs_ids *ids; /* each group's runs, ascending */
	char *title;        /* "PREFIX: raid 10 vs 5, for each cache" */
	size_t skipped;     /* runs without KEY or KEY2 */
	/* KEY is a parameter people sweep (core/param.h, BS_PF_SWEEP) in
	 * every run: the groups are its levels, by number, each value the
	 * number identity reads ("bs=4096" for 4k), and a report of them
	 * is a scaling view (opts.sweep). */
	int sweep;
};

/*
 * Splits the runs of group 0 of src (report/report.h; their tags loaded)
 * as above; prefix (may be NULL) is what chose them, put in front of
 * each selector and the title.
 * Fails with BS_ENOTFOUND when no run has the tags, or when base_value
 * is given and a block has no group of it ("no run with cache=on has
 * raid=5"). f is filled on success, released by
 * bs_report_factor_release() either way.
 */
int bs_report_factor_split(struct bs_report_factor *f,
			   const struct bs_report_source *src,
			   const char *prefix, const char *by,
			   const char *within, const char *base_value,
			   struct bs_err *err);
void bs_report_factor_release(struct bs_report_factor *f);

#endif
