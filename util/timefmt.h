/* util/timefmt.h - dates for people and for JSON, independent of locale. */
#ifndef BS_UTIL_TIMEFMT_H
#define BS_UTIL_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

/* ISO 8601 UTC ("2024-01-31T12:00:00Z") of unix seconds into out. */
const char *bs_time_iso(char *out, size_t outsz, int64_t t);

#endif
