/*
 * ingest/json_lenient.h - the repairs a person's hand makes to a JSON
 * document worth undoing before a strict parser reads it: a comma left
 * before '}' or ']' when the lines after it were cut, and "..." (or
 * U+2026) standing for elided members, elements or values. Private to
 * ingest/; a reader calls it only after the strict parse failed, so a
 * document as a program printed it is never touched.
 */
#ifndef BS_INGEST_JSON_LENIENT_H
#define BS_INGEST_JSON_LENIENT_H

#include <stddef.h>
#include <stdint.h>

#include "ingest/block.h"
#include "util/buf.h"

/* What the lenient pass changed: the input line of the first repair of
 * each kind (0: none). */
struct bs_json_fixes {
	int64_t comma_line;  /* a comma dropped before '}' or ']' */
	int64_t elided_line; /* a "..." dropped */
};

/* The block's cleaned lines, joined by "\n", with the repairs made, to
 * out. Returns 1 when something was repaired, 0 when nothing was (the
 * text is then what a strict parser refused), -1 when out is full. */
int bs_json_lenient(const struct bs_block *b, struct bs_buf *out,
		    struct bs_json_fixes *fx);

/* The repairs in words for a warning ("a comma before '}' at line 44
 * dropped; '...' at line 61 read as elided text"), to buf. */
void bs_json_fixes_words(const struct bs_json_fixes *fx, char *buf, size_t n);

#endif
