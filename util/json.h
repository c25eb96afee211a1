/*
 * util/json.h - appending JSON values to a struct bs_buf. Strings are
 * escaped per RFC 8259 (control characters as \u00XX; bytes that are not
 * valid UTF-8 become U+FFFD so the output is always valid JSON).
 */
#ifndef BS_UTIL_JSON_H
#define BS_UTIL_JSON_H

#include <stdint.h>

#include "util/buf.h"

/* A string, or null when s is NULL. */
void bs_json_str(struct bs_buf *b, const char *s);
/* A number with up to 17 significant digits, or null for NAN/inf. */
void bs_json_num(struct bs_buf *b, double v);
/* An integer, or null when v == INT64_MIN. */
void bs_json_i64(struct bs_buf *b, int64_t v);
/* "key": - a key with its colon, preceded by a comma unless first. */
void bs_json_key(struct bs_buf *b, const char *key, int first);

#endif
