/* util/timefmt.c - dates for people and for JSON. */
#include "util/timefmt.h"

#include <stdio.h>
#include <time.h>

#include "util/banned.h"

const char *bs_time_iso(char *out, size_t outsz, int64_t t)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (gmtime_r(&tt, &tm) == NULL)
		snprintf(out, outsz, "%lld", (long long)t);
	else
		strftime(out, outsz, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return out;
}
