/*
 * ingest/sysbench.h - private to ingest/: the sysbench fileio formats of
 * the registry (ingest/formats.c), block formats (ingest/block.h) that
 * read what `sysbench fileio run` prints, one run per summary
 * (docs/formats.md, "Ingest: sysbench fileio").
 *
 * Two rows, one per layout of the summary: 0.4 ("Operations performed:",
 * "Test execution summary:"; also 0.5, which prints the same figures) and
 * 1.0 ("File operations:", "Latency (ms):"). Both store the same keys in
 * the same units. The output of `prepare` and `cleanup` is recognised and
 * gives neither a run nor a reject.
 */
#ifndef BS_INGEST_SYSBENCH_H
#define BS_INGEST_SYSBENCH_H

#include "ingest/block.h"

/* The block ops of the two rows. */
extern const struct bs_block_ops bs_sysbench_04_ops;
extern const struct bs_block_ops bs_sysbench_10_ops;

#endif
