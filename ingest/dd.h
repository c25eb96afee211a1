/*
 * ingest/dd.h - private to ingest/: the dd block format of the registry
 * (ingest/formats.c): a GNU or BSD dd summary, with its records lines and
 * the command line above it, one run (docs/formats.md, "Ingest: zcav,
 * getc_putc and dd").
 */
#ifndef BS_INGEST_DD_H
#define BS_INGEST_DD_H

#include "ingest/block.h"

extern const struct bs_block_ops bs_dd_ops;

#endif
