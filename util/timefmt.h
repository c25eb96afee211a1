/* util/timefmt.h - dates for people and for JSON, independent of locale. */
#ifndef BS_UTIL_TIMEFMT_H
#define BS_UTIL_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/*
 * The dates bstore takes: 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z
 * in unix seconds. Every one has an ISO 8601 form of four-digit years,
 * and SQLite's datetime() can write it.
 */
#define BS_TIME_MIN INT64_C(0)
#define BS_TIME_MAX INT64_C(253402300799)

/* ISO 8601 UTC ("2024-01-31T12:00:00Z") of unix seconds into out. */
const char *bs_time_iso(char *out, size_t outsz, int64_t t);

/*
 * Parses a date given by a user: YYYY-MM-DD, 'YYYY-MM-DD HH:MM[:SS]', the
 * same with 'T', a trailing 'Z', or @UNIXTIME; times are UTC. Dates
 * outside BS_TIME_MIN ... BS_TIME_MAX are refused ("'@-1' is out of range
 * (1970-01-01 to 9999-12-31)").
 */
int bs_time_parse(const char *s, int64_t *out /* OUT */,
		  struct bs_err *err /* OUT */);

/*
 * Parses a date as text carries it (not NUL-terminated): a mail's
 * "Tue, 14 Mar 2006 10:22:01 +0100" (RFC 2822, the day name optional),
 * date(1)'s and ctime's "Tue Mar 14 10:22:01 CET 2006", or ISO
 * "2006-03-14[ 10:22[:01]]". A numeric zone is applied; a zone name is
 * taken as UTC. Returns 0, or -BS_EPARSE for anything else or out of
 * range.
 */
int bs_time_parse_text(const char *s, size_t len, int64_t *out /* OUT */);

/*
 * Calendar periods, UTC. A period of k units starts at a multiple of k
 * counted from the epoch's unit: hours and days from 1970-01-01, weeks
 * (Monday to Sunday) from Monday 1969-12-29, months from January of year
 * 0 (k = 3: quarters from January, April, July, October), years from
 * year 0 (k = 10: decades 2000, 2010).
 */
enum bs_time_unit {
	BS_TU_HOUR,
	BS_TU_DAY,
	BS_TU_WEEK,
	BS_TU_MONTH,
	BS_TU_YEAR,
};

/* The start of the period of k units (k >= 1) that holds t. */
int64_t bs_time_floor(int64_t t, enum bs_time_unit u, int k);
/* t plus k units; t at the start of a unit (a month's first day, ...). */
int64_t bs_time_add(int64_t t, enum bs_time_unit u, int k);

#endif
