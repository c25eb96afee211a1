/*
 * ingest/zcav_text.h - private to ingest/: the zcav block format of the
 * registry (ingest/formats.c): bonnie++'s zcav output of every dialect
 * (1.02-1.03c K/s, 1.03d and later GiB/MiB/s, 2.00a), one run a pass
 * (docs/formats.md, "Ingest: zcav, getc_putc and dd").
 */
#ifndef BS_INGEST_ZCAV_TEXT_H
#define BS_INGEST_ZCAV_TEXT_H

#include "ingest/block.h"

extern const struct bs_block_ops bs_zcav_ops;

#endif
