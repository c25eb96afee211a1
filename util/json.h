/*
 * util/json.h - appending JSON values to a struct bs_buf. Strings are
 * escaped per RFC 8259 (control characters as \u00XX; bytes that are not
 * valid UTF-8 become U+FFFD so the output is always valid JSON), and
 * '<', '>' and '&' as \u003c, \u003e, \u0026 so that JSON may be put
 * inside an HTML page as it is. The one JSON escaper: exports and the
 * report templates' x-json modifier use it.
 */
#ifndef BS_UTIL_JSON_H
#define BS_UTIL_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* The inside of a JSON string (no quotes) for n bytes of s. */
void bs_json_escape(struct bs_buf *b, const char *s, size_t n);
/* A string, or null when s is NULL. */
void bs_json_str(struct bs_buf *b, const char *s);
/* A number with up to 17 significant digits, or null for NAN/inf. */
void bs_json_num(struct bs_buf *b, double v);
/* An integer, or null when v == INT64_MIN. */
void bs_json_i64(struct bs_buf *b, int64_t v);
/* "key": - a key with its colon, preceded by a comma unless first. */
void bs_json_key(struct bs_buf *b, const char *key, int first);

#endif
