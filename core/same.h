/*
 * core/same.h - one measurement, one run: the rule that says two runs
 * are the same measurement printed twice (docs/ingest.md, "One
 * measurement, one run"). The ingest driver applies it within one input
 * (a bonnie++ table and its CSV line, a fio job's terse line and its
 * normal report), the store across inputs (bonnie++ -q's CSV line on
 * stdout and its table on stderr, ingested as two files).
 */
#ifndef BS_CORE_SAME_H
#define BS_CORE_SAME_H

#include "core/result.h"

/*
 * Whether a and b are one measurement printed twice: one of them in a
 * rounded dialect (core/dialect.h: a bonnie++ table, fio's normal text),
 * the other exact (two exact prints, or two rounded ones, of equal values
 * are two runs that measured alike); the same family, tool and machine (a
 * rounded print's machine may be the start of the other's: bonnie++ cuts
 * it to fit); the same version and measured_at where both know one (an
 * era such as "1.0x" names no version); the same value of every
 * parameter both know; the same status of every metric, a metric the
 * rounded print leaves out (2.00a's file tests) being no difference; and
 * every value, CPU and latency both have equal as the rounded print shows
 * it (bonnie++'s as its 2.00a table prints a cell, "291m"; fio's text to
 * half a percent or 1; other tools exactly).
 */
int bs_run_same(const struct bs_run *a, const struct bs_run *b);

#endif
