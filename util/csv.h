/*
 * util/csv.h - the one CSV cell writer: RFC 4180 quoting (through libcsv)
 * and the formula guard. A spreadsheet runs a cell that starts with '=',
 * '+', '-', '@', a tab or a carriage return as a formula, so such text
 * gets a leading "'" (OWASP's advice for CSV injection). Text that starts
 * with "'" gets one too, so the guard is never ambiguous: a reader takes
 * one leading "'" off a text cell, if there is one, and has the text
 * ("'=1+1" is the text "=1+1", "''=1+1" the text "'=1+1"). Numbers are
 * written by the caller and never guarded.
 */
#ifndef BS_UTIL_CSV_H
#define BS_UTIL_CSV_H

#include <stddef.h>

#include "util/buf.h"

/* Appends len bytes of s as one CSV cell (no separator). */
void bs_csv_cell(struct bs_buf *out, const char *s, size_t len);

#endif
