/*
 * ingest/bonnie_csv.h - private to ingest/: the bonnie++ CSV formats of
 * the registry (ingest/formats.c), and the text-table version line the
 * driver uses as a hint for version-less 1.0x lines.
 */
#ifndef BS_INGEST_BONNIE_CSV_H
#define BS_INGEST_BONNIE_CSV_H

#include <stddef.h>

#include "ingest/format.h"

/* The bonnie++ CSV families, one registry row each; a row's arg points
 * at its value. */
enum bs_csv_fam {
	BS_CSV_FAM_1_98,    /* 1.98-2.00a, and versions newer than known */
	BS_CSV_FAM_1_97,
	BS_CSV_FAM_1_96_S0, /* 1.92b-1.96 with -s 0: 47 fields */
	BS_CSV_FAM_1_96,    /* 1.92b-1.96 */
	BS_CSV_FAM_BETA,    /* 1.90-1.92a */
	BS_CSV_FAM_1_0X,    /* 1.00-1.04, no version field */
};

/* The registry's probe and parse for these rows. */
int bs_bonnie_csv_probe(const struct bs_format *f, const struct bs_fline *l);
int bs_bonnie_csv_parse(const struct bs_format *f, const struct bs_fline *l,
			struct bs_run *r, char *reason, size_t reasonsz);

/*
 * Recognises the first line of a bonnie++ text table, "Version  1.03 ...".
 * Returns 1 and sets out to the version when it is a 1.0x one ("1.03d"),
 * or to "" for any other version; returns 0 (out untouched) for other
 * lines. out must hold BS_INGEST_VERSION_MAX bytes.
 */
int bs_ingest_text_version(const char *line, size_t len,
			   char out[BS_INGEST_VERSION_MAX]);

#endif
