/*
 * ingest/bonnie_table.h - private to ingest/: the text tables of bonnie++
 * (1.0x, 1.92b-1.97, 1.98-2.00a; docs/formats.md "Ingest: bonnie++ text
 * tables and Bonnie") and of Tim Bray's Bonnie and its relatives, as
 * registry rows (ingest/formats.c).
 *
 * A bonnie++ table followed by its own CSV line is one run: the CSV
 * line's, with the CSV line as its raw text, exactly as if the table were
 * not there. A table without a CSV line is a run of its own, in the
 * dialect of its era (bonnie++-text-1.0x, -1.9x, -1.98; core/dialect.h).
 * core/bonnie_text.c writes what these read.
 */
#ifndef BS_INGEST_BONNIE_TABLE_H
#define BS_INGEST_BONNIE_TABLE_H

#include <stddef.h>

#include "ingest/format.h"

extern const struct bs_block_ops bs_bonnie_text_ops;
extern const struct bs_block_ops bs_bonnie_classic_ops;

/* Bonnie's -html row, a line format. */
int bs_bonnie_html_probe(const struct bs_format *f, const struct bs_fline *l);
int bs_bonnie_html_parse(const struct bs_format *f, const struct bs_fline *l,
			 struct bs_run *r, struct bs_err *err);

#endif
