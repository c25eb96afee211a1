/*
 * ingest/getc_putc.h - private to ingest/: the getc_putc block format of
 * the registry (ingest/formats.c): bonnie++'s getc_putc table and its CSV
 * line, one run (docs/formats.md, "Ingest: zcav, getc_putc and dd").
 */
#ifndef BS_INGEST_GETC_PUTC_H
#define BS_INGEST_GETC_PUTC_H

#include "ingest/block.h"

extern const struct bs_block_ops bs_getc_putc_ops;

#endif
