/*
 * ingest/bonnie_csv.h - private to ingest/: helpers of the bonnie/bonnie++
 * CSV parser (bs_ingest_parse_line in ingest.h) used by the driver.
 */
#ifndef BS_INGEST_BONNIE_CSV_H
#define BS_INGEST_BONNIE_CSV_H

#include <stddef.h>

/* Longest version string kept as a hint ("1.03e"). */
#define BS_INGEST_VERSION_MAX 16

/*
 * Recognises the first line of a bonnie++ text table, "Version  1.03 ...".
 * Returns 1 and sets out to the version when it is a 1.0x one ("1.03d"),
 * or to "" for any other version; returns 0 (out untouched) for other
 * lines. out must hold BS_INGEST_VERSION_MAX bytes.
 */
int bs_ingest_text_version(const char *line, size_t len,
			   char out[BS_INGEST_VERSION_MAX]);

#endif
