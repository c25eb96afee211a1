/*
 * util/num.h - strict number parsing and locale-independent formatting.
 * Parsers accept the whole string or nothing: no empty input, no leading
 * or trailing junk or spaces, no overflow. They return 0 or -BS_EPARSE.
 */
#ifndef BS_UTIL_NUM_H
#define BS_UTIL_NUM_H

#include <stddef.h>
#include <stdint.h>

int bs_parse_u64(const char *s, size_t len, uint64_t *out);
int bs_parse_i64(const char *s, size_t len, int64_t *out);
/* Decimal with optional sign, fraction and exponent; no inf/nan/hex. */
int bs_parse_double(const char *s, size_t len, double *out);

/*
 * Size with an optional suffix: k (x1024), m (x1024^2), g (x1024^3),
 * t (x1024^4), case-insensitive, applied to unit bytes-per-1. E.g. with
 * unit 1 "64k" is 65536; used for both MiB and byte quantities.
 */
int bs_parse_size(const char *s, size_t len, uint64_t *out);

/*
 * Formats v with prec decimals into out, like "%.*f" in the C locale, and
 * returns out. Values that round to zero print without a minus sign.
 */
const char *bs_fmt_double(char *out, size_t outsz, double v, int prec);
/* A formatted number with ',' every three digits of its whole part:
 * "1234567.8" -> "1,234,567.8", "-12873" -> "-12,873"; other text is
 * copied. Returns out. */
const char *bs_fmt_thousands(const char *num, char *out, size_t outsz);

/* Shortest text that reads back as v ("%.0f" for whole numbers). */
const char *bs_fmt_g(char *out, size_t outsz, double v);

#endif
