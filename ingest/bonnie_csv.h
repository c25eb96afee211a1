/*
 * ingest/bonnie_csv.h - private to ingest/: the bonnie++ CSV formats of
 * the registry (ingest/formats.c), and the text-table version line the
 * driver uses as a hint for version-less 1.0x lines.
 */
#ifndef BS_INGEST_BONNIE_CSV_H
#define BS_INGEST_BONNIE_CSV_H

#include <stddef.h>

#include "ingest/format.h"

/* The registry's probe and parse for the bonnie++ CSV rows, one per
 * layout (enum bs_csv_layout, core/dialect.h; 1.98 also takes versions
 * newer than known): a row's arg points at its layout. */
int bs_bonnie_csv_probe(const struct bs_format *f, const struct bs_fline *l);
int bs_bonnie_csv_parse(const struct bs_format *f, const struct bs_fline *l,
			struct bs_run *r, struct bs_err *err);

/*
 * Recognises the first line of a bonnie++ text table, "Version  1.03 ...".
 * Returns 1 and sets out to the version when it is a 1.0x one ("1.03d"),
 * or to "" for any other version; returns 0 (out untouched) for other
 * lines. out must hold BS_INGEST_VERSION_MAX bytes.
 */
int bs_ingest_text_version(const char *line, size_t len,
			   char out[BS_INGEST_VERSION_MAX]);

#endif
