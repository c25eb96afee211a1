/*
 * ingest/bonnie_text.h - private to ingest/: the text tables of bonnie++
 * (1.0x, 1.92b-1.97, 1.98-2.00a; docs/formats.md "Ingest: bonnie++ text
 * tables and Bonnie") and of Tim Bray's Bonnie and its relatives, as
 * registry rows (ingest/formats.c).
 *
 * A bonnie++ table followed by its own CSV line is one run: the CSV
 * line's, with the CSV line as its raw text, exactly as if the table were
 * not there. A table without a CSV line is a run of its own.
 */
#ifndef BS_INGEST_BONNIE_TEXT_H
#define BS_INGEST_BONNIE_TEXT_H

#include <stddef.h>

#include "ingest/format.h"

/* Registry rows (bs_format.name). */
#define BS_FMT_ROW_BONNIE_TEXT "bonnie++-text"
#define BS_FMT_ROW_CLASSIC "bonnie-text"
#define BS_FMT_ROW_CLASSIC_HTML "bonnie-html"

/* runs.format of a run read from a table (without a CSV line). */
#define BS_FMT_TEXT_1_0X "bonnie++-text-1.0x"  /* 1.00-1.04 */
#define BS_FMT_TEXT_1_9X "bonnie++-text-1.9x"  /* 1.90-1.97 */
#define BS_FMT_TEXT_1_98 "bonnie++-text-1.98"  /* 1.98-2.00a */
#define BS_FMT_BONNIE_TEXT "bonnie-text"       /* Tim Bray's Bonnie */
#define BS_FMT_BONNIE_HTML "bonnie-html"       /* its -html row */
#define BS_FMT_BONNIE64_TEXT "bonnie64-text"   /* Bonnie-64 2.0.x */
#define BS_FMT_BONNIE14_TEXT "bonnie-1.4-text" /* the Linux 1.2/1.4 one */

extern const struct bs_block_ops bs_bonnie_text_ops;
extern const struct bs_block_ops bs_bonnie_classic_ops;

/* Bonnie's -html row, a line format. */
int bs_bonnie_html_probe(const struct bs_format *f, const struct bs_fline *l);
int bs_bonnie_html_parse(const struct bs_format *f, const struct bs_fline *l,
			 struct bs_run *r, char *reason, size_t reasonsz);

#endif
