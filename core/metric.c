/*
 * core/metric.c - the metric catalogue (core/metric.h): finding a metric,
 * and the one rule for showing its values. The rows are the family rows'
 * (core/families/, core/family.h); their keys are the contract of
 * docs/formats.md (a test checks that it names each).
 */
#include "core/metric.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/num.h"
#include "util/banned.h"

static const char *const category_names[BS_CAT_COUNT] = {
	"sequential", "random", "metadata", "latency", "io", "other",
};

void bs_metric_rows(enum bs_family fam, int *first, int *end)
{
	*first = *end = bs_nmetrics;
	if (!bs_family_ok(fam))
		return;
	*first = bs_cat->metric0[fam];
	*end = *first + bs_family(fam)->nmetrics;
}

int bs_metric_find(enum bs_family fam, const char *key)
{
	int i, first, end;

	bs_metric_rows(fam, &first, &end);
	for (i = first; i < end; i++)
		if (strcmp(bs_metrics[i].key, key) == 0)
			return i;
	return -1;
}

const char *bs_better_name(enum bs_better b)
{
	switch (b) {
	case BS_BETTER_HIGHER:
		return "higher";
	case BS_BETTER_LOWER:
		return "lower";
	case BS_BETTER_NONE:
		break;
	}
	return NULL;
}

const char *bs_category_name(enum bs_category c)
{
	return (unsigned)c < BS_CAT_COUNT ? category_names[c] : "?";
}

/* The show rule of m under flags: the catalogue's, or --units' for the
 * KiB/s rates. */
static void show_rule(int m, unsigned flags, const char **unit, double *div,
		      int *dec, int *sig)
{
	const struct bs_metric_info *mi = &bs_metrics[m];

	*unit = mi->show_unit;
	*div = mi->show_div;
	*dec = mi->show_dec;
	*sig = mi->show_sig;
	/* Decimal MB/s: a KiB/s rate is 1024 bytes a second, a MiB/s
	 * rate 1048576. */
	if ((flags & BS_SHOW_MB) &&
	    ((mi->flags & BS_MF_KIB) || strcmp(mi->unit, "MiB/s") == 0)) {
		*unit = "MB/s";
		*div = (mi->flags & BS_MF_KIB) ? 1e6 / 1024.0 : 1e6 / 1048576.0;
		*dec = (mi->flags & BS_MF_KIB) ? 1 : mi->show_dec;
		*sig = (mi->flags & BS_MF_KIB) ? 0 : mi->show_sig;
		return;
	}
	if (!(mi->flags & BS_MF_KIB))
		return;
	if (flags & BS_SHOW_KIB) {
		*unit = "KiB/s";
		*div = 1.0;
		*dec = 0;
		*sig = 0;
	} else if (flags & BS_SHOW_MIB) {
		*unit = "MiB/s";
		*div = 1024.0;
		*dec = 1;
		*sig = 0;
	}
}

const char *bs_metric_unit(int m, unsigned flags)
{
	const char *unit;
	double div;
	int dec, sig;

	show_rule(m, flags, &unit, &div, &dec, &sig);
	return unit;
}

double bs_metric_scale(int m, unsigned flags, double v)
{
	const char *unit;
	double div;
	int dec, sig;

	show_rule(m, flags, &unit, &div, &dec, &sig);
	return v / div;
}

const char *bs_metric_fmt(char *buf, size_t size, int m, double v,
			  unsigned flags)
{
	return bs_metric_fmt_step(buf, size, m, v, flags, 0);
}

int bs_metric_step_decimals(int m, unsigned flags, double step)
{
	double s = bs_metric_scale(m, flags, step);

	/* The last digit is worth 10^-d: no less than the step (0.1 GiB/s
	 * is 102.4 MiB/s: whole MiB/s; 1 KiB/s is 0.00098 MiB/s: three
	 * decimals). The slack keeps 0.1 from reading as 0.0999... */
	if (!(s > 0) || isinf(s))
		return -1;
	if (s >= 1)
		return 0;
	return (int)floor(-log10(s) + 1e-9);
}

const char *bs_metric_fmt_step(char *buf, size_t size, int m, double v,
			       unsigned flags, double step)
{
	const char *unit;
	double div, a;
	int dec, sig, whole, most;
	char num[64];

	assert(m >= 0 && m < bs_nmetrics && size > 0);
	buf[0] = '\0';
	if (isnan(v) || isinf(v))
		return buf;
	show_rule(m, flags, &unit, &div, &dec, &sig);
	most = bs_metric_step_decimals(m, flags, step);
	v /= div;
	a = fabs(v);
	/* A converted value under 1 keeps two significant digits: 545
	 * KiB/s is 0.53 MiB/s, not 0.5 beside 480 KiB/s's 0.5. Values in
	 * the unit the tool printed keep its precision. */
	if (div != 1.0 && a > 0 && a < 1 && dec > 0) {
		int need = 1 - (int)floor(log10(a));
		if (need > dec)
			dec = need > 6 ? 6 : need;
	}
	if (sig > 0 && dec > 0) {
		/* The digits of the whole part once rounded to dec
		 * decimals: 999.96 is "1000", not "1000.0". */
		whole = a + 0.5 * pow(10, -dec) >= 1
				? (int)floor(log10(a + 0.5 * pow(10, -dec))) + 1
				: 1;
		if (whole >= sig)
			dec = 0;
	}
	/* No digit finer than the print it came from. */
	if (most >= 0 && dec > most)
		dec = most;
	/* A difference that rounds to nothing has no sign. */
	bs_fmt_double(num, sizeof(num), v, dec);
	if (flags & BS_SHOW_GROUP)
		bs_fmt_thousands(num, buf, size);
	else
		snprintf(buf, size, "%s", num);
	return buf;
}
