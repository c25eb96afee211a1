/* util/timefmt.c - dates for people and for JSON. */
#include "util/timefmt.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
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
	if (len > 10 &&
	    ((s[10] != ' ' && s[10] != 'T') || digits(s + 11, 2, &h) < 0 ||
	     s[13] != ':' || digits(s + 14, 2, &mi) < 0))
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

static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
				   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

/* Splits s at blanks and commas into at most max words; returns the
 * count, or max + 1 when there are more. */
static int words(const char *s, size_t len, const char **w, size_t *wl, int max)
{
	size_t i = 0;
	int n = 0;

	for (;;) {
		size_t st;

		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == ','))
			i++;
		if (i == len)
			return n;
		if (n == max)
			return max + 1;
		st = i;
		while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != ',')
			i++;
		w[n] = s + st;
		wl[n++] = i - st;
	}
}

static int month_of(const char *s, size_t n)
{
	int m;

	if (n < 3)
		return -1;
	for (m = 0; m < 12; m++)
		if (strncasecmp(s, months[m], 3) == 0)
			return m + 1;
	return -1;
}

/* 1 or 2 digits of a day. */
static int day_of(const char *s, size_t n)
{
	int d;

	if (n < 1 || n > 2 || digits(s, n, &d) < 0)
		return -1;
	return d;
}

/* "+0100", "-0500", "UT", "GMT", "UTC", "Z": seconds east; else -1 with
 * *known 0 (a zone name such as CET is taken as UTC). */
static int64_t zone_of(const char *s, size_t n, int *known)
{
	int h, m;

	*known = 1;
	if (n == 5 && (s[0] == '+' || s[0] == '-') &&
	    digits(s + 1, 2, &h) == 0 && digits(s + 3, 2, &m) == 0 && h <= 23 &&
	    m <= 59)
		return (s[0] == '-' ? -1 : 1) * (int64_t)(h * 3600 + m * 60);
	*known = 0;
	return 0;
}

int bs_time_parse_text(const char *s, size_t len, int64_t *out)
{
	const char *w[8];
	size_t wl[8];
	char iso[32];
	int n = words(s, len, w, wl, 7), i = 0, y, mo, d, known;
	int64_t t, zone = 0;

	if (n < 1 || n > 7)
		return -BS_EPARSE;
	if (n <= 2 && wl[0] == 10 && len < sizeof(iso)) {
		/* ISO: "2006-03-14" or "2006-03-14 10:22:01" */
		memcpy(iso, w[0], wl[0]);
		if (n == 2 && wl[1] <= 9) {
			iso[10] = ' ';
			memcpy(iso + 11, w[1], wl[1]);
			iso[11 + wl[1]] = '\0';
		} else {
			iso[10] = '\0';
		}
		if (parse_iso(iso, &t) < 0)
			return -BS_EPARSE;
		*out = t;
		return 0;
	}
	if (wl[0] == 3 && month_of(w[0], wl[0]) < 0)
		i = 1; /* "Tue," */
	if (n - i < 4)
		return -BS_EPARSE;
	if ((d = day_of(w[i], wl[i])) > 0 &&
	    (mo = month_of(w[i + 1], wl[i + 1])) > 0) {
		/* RFC 2822: 14 Mar 2006 10:22:01 +0100 */
		if (wl[i + 2] != 4 || digits(w[i + 2], 4, &y) < 0 ||
		    wl[i + 3] > 8)
			return -BS_EPARSE;
		i += 3;
	} else if ((mo = month_of(w[i], wl[i])) > 0 &&
		   (d = day_of(w[i + 1], wl[i + 1])) > 0) {
		/* date(1), ctime: Mar 14 10:22:01 [CET] 2006 */
		const char *yw = w[n - 1];

		if (wl[n - 1] != 4 || digits(yw, 4, &y) < 0 || wl[i + 2] > 8)
			return -BS_EPARSE;
		i += 2;
		n--; /* the year is read */
	} else {
		return -BS_EPARSE;
	}
	snprintf(iso, sizeof(iso), "%04d-%02d-%02d %.*s", y, mo, d, (int)wl[i],
		 w[i]);
	if (wl[i] == 5)
		memcpy(iso + 16, ":00", 4); /* HH:MM */
	if (parse_iso(iso, &t) < 0)
		return -BS_EPARSE;
	for (i++; i < n; i++) {
		int64_t z = zone_of(w[i], wl[i], &known);

		if (known)
			zone = z;
	}
	t -= zone;
	if (t < BS_TIME_MIN || t > BS_TIME_MAX)
		return -BS_EPARSE;
	*out = t;
	return 0;
}

/* ---- calendar periods ------------------------------------------------ */

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

static int64_t floor_mod(int64_t a, int64_t b)
{
	return a - floor_div(a, b) * b;
}

/* Days since 1970-01-01 of a civil date, and back (Howard Hinnant's
 * algorithms: the proleptic Gregorian calendar, any year). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = floor_div(y, 400);
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = floor_div(z, 146097);
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

int64_t bs_time_floor(int64_t t, enum bs_time_unit u, int k)
{
	int64_t days = floor_div(t, 86400), y, mon;
	int m;

	if (k < 1)
		k = 1;
	switch (u) {
	case BS_TU_HOUR: {
		int64_t h = floor_div(t, 3600);
		return (h - floor_mod(h, k)) * 3600;
	}
	case BS_TU_DAY:
		return (days - floor_mod(days, k)) * 86400;
	case BS_TU_WEEK:
		/* Day 0 was a Thursday: day + 3 is 0 on Mondays. */
		return (days - floor_mod(days + 3, 7 * (int64_t)k)) * 86400;
	case BS_TU_MONTH:
		civil_from_days(days, &y, &m);
		mon = y * 12 + (m - 1);
		mon -= floor_mod(mon, k);
		return days_from_civil(floor_div(mon, 12),
				       (int)floor_mod(mon, 12) + 1, 1) *
		       86400;
	case BS_TU_YEAR:
		civil_from_days(days, &y, &m);
		return days_from_civil(y - floor_mod(y, k), 1, 1) * 86400;
	}
	return t;
}

int64_t bs_time_add(int64_t t, enum bs_time_unit u, int k)
{
	int64_t days = floor_div(t, 86400), y, mon;
	int m;

	switch (u) {
	case BS_TU_HOUR:
		return t + (int64_t)k * 3600;
	case BS_TU_DAY:
		return t + (int64_t)k * 86400;
	case BS_TU_WEEK:
		return t + (int64_t)k * 7 * 86400;
	case BS_TU_MONTH:
	case BS_TU_YEAR:
		civil_from_days(days, &y, &m);
		mon = y * 12 + (m - 1) +
		      (u == BS_TU_YEAR ? 12 * (int64_t)k : k);
		return days_from_civil(floor_div(mon, 12),
				       (int)floor_mod(mon, 12) + 1, 1) *
			       86400 +
		       floor_mod(t, 86400);
	}
	return t;
}
