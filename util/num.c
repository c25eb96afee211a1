/*
 * util/num.c - strict number parsing. bstore never calls setlocale() for
 * LC_NUMERIC, so strtod() and printf() always use '.' as the decimal point.
 */
#include "util/num.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

int bs_parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0)
		return -BS_EPARSE;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';
		if (d > 9)
			return -BS_EPARSE;
		if (v > (UINT64_MAX - d) / 10)
			return -BS_EPARSE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int bs_parse_i64(const char *s, size_t len, int64_t *out)
{
	uint64_t u;
	int neg = 0;

	if (len > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		s++;
		len--;
	}
	if (bs_parse_u64(s, len, &u) < 0)
		return -BS_EPARSE;
	if (neg) {
		if (u > (uint64_t)INT64_MAX + 1)
			return -BS_EPARSE;
		*out = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
	} else {
		if (u > INT64_MAX)
			return -BS_EPARSE;
		*out = (int64_t)u;
	}
	return 0;
}

int bs_parse_double(const char *s, size_t len, double *out)
{
	static const double p10[] = {1e0,  1e1,  1e2,  1e3, 1e4,  1e5,
				     1e6,  1e7,  1e8,  1e9, 1e10, 1e11,
				     1e12, 1e13, 1e14, 1e15};
	char tmp[64];
	size_t i = 0, digits = 0, decimals = 0;
	uint64_t mant = 0;
	char *end;
	double v;

	if (len == 0 || len >= sizeof(tmp))
		return -BS_EPARSE;
	/* Check the grammar first so strtod() cannot accept hex, inf, nan
	 * or leading spaces. */
	if (s[i] == '-' || s[i] == '+')
		i++;
	while (i < len && s[i] >= '0' && s[i] <= '9') {
		mant = mant * 10 + (uint64_t)(s[i] - '0');
		i++;
		digits++;
	}
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			mant = mant * 10 + (uint64_t)(s[i] - '0');
			i++;
			digits++;
			decimals++;
		}
	}
	if (digits == 0)
		return -BS_EPARSE;
	/*
	 * Clinger's fast path (Clinger 1990): at most 15 digits are an exact
	 * double, and so is 10^decimals up to 10^15; IEEE division rounds
	 * their quotient correctly, which is strtod's answer. A benchmark's
	 * numbers ("415828", "371.3") all take it; the rest go to strtod.
	 */
	if (i == len && digits <= 15 &&
	    decimals < sizeof(p10) / sizeof(p10[0])) {
		v = (double)mant / p10[decimals];
		*out = s[0] == '-' ? -v : v;
		return 0;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t exp_digits = 0;
		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			i++;
			exp_digits++;
		}
		if (exp_digits == 0)
			return -BS_EPARSE;
	}
	if (i != len)
		return -BS_EPARSE;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	errno = 0;
	v = strtod(tmp, &end);
	if (end != tmp + len || errno == ERANGE || !isfinite(v))
		return -BS_EPARSE;
	*out = v;
	return 0;
}

int bs_parse_size(const char *s, size_t len, uint64_t *out)
{
	uint64_t v, mult = 1;

	if (len > 1) {
		switch (s[len - 1]) {
		case 'k':
		case 'K':
			mult = 1024;
			break;
		case 'm':
		case 'M':
			mult = 1024 * 1024;
			break;
		case 'g':
		case 'G':
			mult = 1024ULL * 1024 * 1024;
			break;
		case 't':
		case 'T':
			mult = 1024ULL * 1024 * 1024 * 1024;
			break;
		default:
			break;
		}
		if (mult != 1)
			len--;
	}
	if (bs_parse_u64(s, len, &v) < 0)
		return -BS_EPARSE;
	if (v != 0 && mult > UINT64_MAX / v)
		return -BS_EPARSE;
	*out = v * mult;
	return 0;
}

/*
 * "%.*f" of v, through integers where that gives the same text: glibc's
 * printf of a double works in arbitrary precision and took a quarter of
 * a 100,000-run report's time. Only where v times 10^prec is far from a
 * half (where rounding cannot differ) and well inside an int64's exact
 * range; else 0, and the caller asks printf.
 */
static int fixed_fast(char *out, size_t outsz, double v, int prec)
{
	static const double p10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
	double x, whole, frac;
	long long n;
	char d[32];
	size_t k = 0, i = 0;
	int j;

	if (prec < 0 || prec > 6 || !isfinite(v))
		return 0;
	x = fabs(v) * p10[prec];
	if (!(x < 1e12))
		return 0;
	whole = floor(x);
	frac = x - whole;
	if (fabs(frac - 0.5) < 1e-3)
		return 0;
	n = (long long)whole + (frac > 0.5);
	/* Digits from the right: prec decimals, the point, the rest. */
	for (j = 0; j < prec; j++, n /= 10)
		d[k++] = (char)('0' + n % 10);
	if (prec > 0)
		d[k++] = '.';
	do {
		d[k++] = (char)('0' + n % 10);
		n /= 10;
	} while (n > 0);
	if (signbit(v))
		d[k++] = '-';
	if (k + 1 > outsz)
		return 0;
	while (k > 0)
		out[i++] = d[--k];
	out[i] = '\0';
	return 1;
}

const char *bs_fmt_double(char *out, size_t outsz, double v, int prec)
{
	if (!fixed_fast(out, outsz, v, prec))
		snprintf(out, outsz, "%.*f", prec, v);
	/* "-0.00" reads as a negative change to a person: print "0.00". */
	if (out[0] == '-') {
		const char *p = out + 1;
		while (*p == '0' || *p == '.')
			p++;
		if (*p == '\0')
			memmove(out, out + 1, strlen(out));
	}
	return out;
}

const char *bs_fmt_thousands(const char *num, char *out, size_t outsz)
{
	size_t i = 0, d, k, n = 0;

	if (num[0] == '-' || num[0] == '+')
		i = 1;
	for (d = i; num[d] >= '0' && num[d] <= '9'; d++)
		;
	for (k = 0; num[k] && n + 2 < outsz; k++) {
		if (k > i && k < d && (d - k) % 3 == 0)
			out[n++] = ',';
		out[n++] = num[k];
	}
	out[n] = '\0';
	return out;
}

const char *bs_fmt_g(char *out, size_t outsz, double v)
{
	int prec;

	/* Whole numbers (most benchmark values) print without exponent. */
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(out, outsz, "%.0f", v);
		return out;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(out, outsz, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			break;
	}
	return out;
}
