/* util/timefmt.c - dates for people and for JSON. */
#include "util/timefmt.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/num.h"
#include "util/banned.h"

#define QUOTE_MAX 40 /* bytes of user data quoted in a message */

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

/* Exactly n digits at s into *out; 0, or -1. */
static int digits(const char *s, size_t n, int *out)
{
	size_t i;
	int v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* YYYY-MM-DD[( |T)HH:MM[:SS]][Z] as unix seconds; 0, or -1. */
static int parse_iso(const char *s, int64_t *out)
{
	struct tm tm;
	int y, mo, d, h = 0, mi = 0, sec = 0;
	size_t len = strlen(s);
	time_t t;

	if (len > 0 && s[len - 1] == 'Z')
		len--;
	if ((len != 10 && len != 16 && len != 19) || digits(s, 4, &y) < 0 ||
	    s[4] != '-' || digits(s + 5, 2, &mo) < 0 || s[7] != '-' ||
	    digits(s + 8, 2, &d) < 0)
		return -1;
	if (len > 10 && ((s[10] != ' ' && s[10] != 'T') ||
			 digits(s + 11, 2, &h) < 0 || s[13] != ':' ||
			 digits(s + 14, 2, &mi) < 0))
		return -1;
	if (len > 16 && (s[16] != ':' || digits(s + 17, 2, &sec) < 0))
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    sec > 59)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	t = timegm(&tm);
	/* timegm() makes 2023-02-31 into March 3rd: refuse what moved. */
	if (gmtime_r(&t, &tm) == NULL || tm.tm_year != y - 1900 ||
	    tm.tm_mon != mo - 1 || tm.tm_mday != d)
		return -1;
	*out = (int64_t)t;
	return 0;
}

int bs_time_parse(const char *s, int64_t *out, struct bs_err *err)
{
	char q[QUOTE_MAX + 8];
	int64_t t;
	int rc;

	if (s[0] == '@')
		rc = bs_parse_i64(s + 1, strlen(s + 1), &t) < 0 ? -1 : 0;
	else
		rc = parse_iso(s, &t);
	bs_err_quote(q, sizeof(q), s, strlen(s), QUOTE_MAX);
	if (rc < 0)
		return bs_error(err, BS_EPARSE,
				"'%s' is not a date (YYYY-MM-DD[ HH:MM[:SS]] "
				"or @UNIXTIME)",
				q);
	if (t < BS_TIME_MIN || t > BS_TIME_MAX)
		return bs_error(err, BS_EPARSE,
				"'%s' is out of range (1970-01-01 to "
				"9999-12-31)",
				q);
	*out = t;
	return 0;
}
