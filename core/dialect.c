/*
 * core/dialect.c - the dialect table (core/dialect.h): finding a row. The
 * rows, one per value of runs.format, are the family rows' (core/
 * families/, core/family.h). tests/unit/test_dialect.c holds them against
 * the format registry (every reader is a registry row, every registry row
 * that names a runs.format value is a row here).
 */
#include "core/dialect.h"

#include <string.h>

#include "core/result.h"
#include "util/banned.h"

/* A format no row names: nothing claimed, bonnie++'s 2.00a table for the
 * bonnie family (as show has always printed it). */
static struct bs_dialect unknown[BS_FAM_COUNT];

__attribute__((constructor)) static void unknown_rows(void)
{
	int f;

	for (f = 0; f < BS_FAM_COUNT; f++) {
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
	if ((unsigned)r->family < BS_FAM_COUNT)
		return &unknown[r->family];
	return &unknown[BS_FAM_BONNIE];
}
