/*
 * ingest/bstore_json.h - private to ingest/: bstore's own JSON export
 * (`bstore export --format json`, docs/formats.md) read back as a line
 * format of the registry (ingest/formats.c).
 */
#ifndef BS_INGEST_BSTORE_JSON_H
#define BS_INGEST_BSTORE_JSON_H

#include <stddef.h>

#include "ingest/format.h"

/*
 * The most runs of one block told apart by a salted digest (ingest.c's
 * "\n#run K") that a line may claim to be; see the parse's comment.
 */
#define BS_BSTORE_JSON_RUN_MAX 4096

int bs_bstore_json_probe(const struct bs_format *f, const struct bs_fline *l);
/*
 * Parses one export line: every key of the export contract and "raw" (the
 * run's text), whose digest must be the line's sha256. Sets source,
 * source_line, parser_version and stored_at from the line too, though the
 * driver and the store give their own (docs/formats.md says which win).
 */
int bs_bstore_json_parse(const struct bs_format *f, const struct bs_fline *l,
			 struct bs_run *r, struct bs_err *err);

#endif
