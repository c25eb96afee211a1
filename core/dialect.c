/*
 * core/dialect.c - the dialect table (core/dialect.h): finding a row. The
 * rows, one per value of runs.format, are the family rows' (core/
 * families/, core/family.h). tests/unit/test_dialect.c holds them against
 * the format registry (every reader is a registry row, every registry row
 * that names a runs.format value is a row here).
 */
#include "core/dialect.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "core/result.h"
#include "util/num.h"
#include "util/banned.h"

/* A format no row names: nothing claimed, bonnie++'s 2.00a table for the
 * bonnie family (as show has always printed it). */
static struct bs_dialect unknown[BS_FAM_MAX];

__attribute__((constructor)) static void unknown_rows(void)
{
	int f;

	/* Every room, whichever constructor runs first (the catalogue's
	 * count of families is core/family.c's). */
	for (f = 0; f < BS_FAM_MAX; f++) {
		unknown[f].era = BS_ERA_NONE;
		unknown[f].csv = BS_LAYOUT_NONE;
		unknown[f].table = f == BS_FAM_BONNIE ? BS_TABLE_2
						      : BS_TABLE_NONE;
		unknown[f].family = (enum bs_family)f;
	}
}

const struct bs_dialect *bs_dialect_find(const char *format)
{
	int i;

	if (format == NULL)
		return NULL;
	for (i = 0; i < bs_ndialects; i++)
		if (strcmp(bs_dialects[i].format, format) == 0)
			return &bs_dialects[i];
	return NULL;
}

enum bs_era bs_bonnie_era(const char *v)
{
	if (v == NULL)
		return BS_ERA_NONE;
	if (strncmp(v, "1.0", 3) == 0)
		return BS_ERA_1_0X;
	if (strncmp(v, "1.9", 3) == 0 && v[3] >= '0' && v[3] <= '7')
		return BS_ERA_1_9X;
	if ((v[0] >= '2' && v[0] <= '9') || strncmp(v, "1.9", 3) == 0)
		return BS_ERA_1_98;
	return BS_ERA_NONE;
}

const struct bs_dialect *bs_dialect_of(const struct bs_run *r)
{
	const struct bs_dialect *d = bs_dialect_find(r->format);

	if (d)
		return d;
	if (bs_family_ok(r->family))
		return &unknown[r->family];
	return &unknown[BS_FAM_BONNIE];
}

/* The step of a number as printed: "7510.9" is 0.1, "291m" 1 with the
 * multiplier of its suffix (k 1, m 1024, g 1048576: KiB/s), "545" 1. */
static double printed_step(const char *s)
{
	const char *dot = strchr(s, '.');
	double step = 1;
	size_t len = strlen(s);

	if (dot)
		for (dot++; *dot >= '0' && *dot <= '9'; dot++)
			step /= 10;
	if (len > 0 && s[len - 1] == 'm')
		step *= 1024;
	else if (len > 0 && s[len - 1] == 'g')
		step *= 1024 * 1024;
	return step;
}

/* The step of v written with the fewest decimals that read back as v
 * (what bs_fmt_g prints, without printing it: a report asks this of
 * every value, and printing costs 17 snprintf calls at worst). */
static double digits_step(double v)
{
	double p = 1;
	int k;

	if (v == floor(v))
		return 1;
	for (k = 1; k <= 17; k++) {
		p *= 10;
		if (fabs(v) * p > 9007199254740992.0) /* 2^53: no finer */
			break;
		if (nearbyint(v * p) / p == v)
			break;
	}
	return 1 / p;
}

double bs_dialect_step(const struct bs_run *r, int m, double v)
{
	return bs_dialect_step_in(bs_dialect_of(r), r, m, v);
}

const char *bs_dialect_print(const struct bs_run *r, int m, double v, char *buf,
			     size_t size)
{
	const struct bs_dialect *d = bs_dialect_of(r);

	if (!d->rounded || r->family != BS_FAM_BONNIE || isnan(v) || isinf(v))
		return NULL;
	return bs_bonnie_fmt_rate(buf, size, m, bs_bonnie_round(m, v));
}

double bs_dialect_step_in(const struct bs_dialect *d, const struct bs_run *r,
			  int m, double v)
{
	char buf[64];

	if (isnan(v) || isinf(v))
		return 0;
	if (d->rounded && r->family == BS_FAM_BONNIE)
		return printed_step(bs_bonnie_fmt_rate(buf, sizeof(buf), m,
						       bs_bonnie_round(m, v)));
	if (d->rounded)
		return v == 0 ? 0 : pow(10, floor(log10(fabs(v))) - 2);
	return digits_step(v);
}
