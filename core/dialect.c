/*
 * core/dialect.c - the dialect table (core/dialect.h): one row per value
 * of runs.format. tests/unit/test_dialect.c holds it against the format
 * registry (every reader is a registry row, every registry row that names
 * a runs.format value is a row here).
 */
#include "core/dialect.h"

#include <string.h>

#include "core/result.h"
#include "util/banned.h"

#define B BS_FAM_BONNIE
#define TABLES "core/bonnie_text.c"

/* clang-format off */
const struct bs_dialect bs_dialects[] = {
	/* bonnie++'s CSV lines: the exact print of a run. */
	{ BS_FMT_CSV_1_0X, "bonnie++", B, BS_ERA_1_0X, "1.00-1.04",
	  BS_LAYOUT_1_0X, BS_TABLE_1, 0, BS_FMT_CSV_1_0X,
	  TABLES " (export --csv-format 1.03)" },
	{ BS_FMT_CSV_BETA, "bonnie++", B, BS_ERA_1_9X, "1.90-1.92a",
	  BS_LAYOUT_BETA, BS_TABLE_19, 0, BS_FMT_CSV_BETA, NULL },
	{ BS_FMT_CSV_1_96, "bonnie++", B, BS_ERA_1_9X, "1.92b-1.96",
	  BS_LAYOUT_1_96, BS_TABLE_19, 0, BS_FMT_CSV_1_96, NULL },
	{ BS_FMT_CSV_1_96S, "bonnie++", B, BS_ERA_1_9X, "1.92b-1.96 (-s 0)",
	  BS_LAYOUT_1_96_S0, BS_TABLE_19, 0, BS_FMT_CSV_1_96S, NULL },
	{ BS_FMT_CSV_1_97, "bonnie++", B, BS_ERA_1_9X, "1.97",
	  BS_LAYOUT_1_97, BS_TABLE_19, 0, BS_FMT_CSV_1_97, NULL },
	{ BS_FMT_CSV_1_98, "bonnie++", B, BS_ERA_1_98, "1.98-2.00a",
	  BS_LAYOUT_1_98, BS_TABLE_2, 0, BS_FMT_CSV_1_98,
	  TABLES " (export --csv-format 1.98)" },
	/* bonnie++'s text tables: rounded (2.00a's "291m"), and without
	 * what only the line has (the seed, -c). */
	{ BS_FMT_TEXT_1_0X, "bonnie++", B, BS_ERA_1_0X, "1.00-1.04",
	  BS_LAYOUT_NONE, BS_TABLE_1, 1, "bonnie++-text", TABLES },
	{ BS_FMT_TEXT_1_9X, "bonnie++", B, BS_ERA_1_9X, "1.90-1.97",
	  BS_LAYOUT_NONE, BS_TABLE_19, 1, "bonnie++-text", TABLES },
	{ BS_FMT_TEXT_1_98, "bonnie++", B, BS_ERA_1_98, "1.98-2.00a",
	  BS_LAYOUT_NONE, BS_TABLE_2, 1, "bonnie++-text", TABLES },
	/* bstore run: a 1.98 line (with its own version and chunk) and
	 * 2.00a's table. */
	{ BS_FMT_BSTORE_RUN, "bstore", B, BS_ERA_1_98, "bstore run",
	  BS_LAYOUT_1_98, BS_TABLE_2, 0, NULL, "core/bench.c" },
	/* Tim Bray's Bonnie and its relatives. */
	{ BS_FMT_BONNIE_TEXT, "bonnie", B, BS_ERA_BONNIE, "Bonnie 1.x",
	  BS_LAYOUT_NONE, BS_TABLE_BONNIE, 0, BS_FMT_BONNIE_TEXT, NULL },
	{ BS_FMT_BONNIE_HTML, "bonnie", B, BS_ERA_BONNIE, "Bonnie 1.x -html",
	  BS_LAYOUT_NONE, BS_TABLE_BONNIE, 0, BS_FMT_BONNIE_HTML, NULL },
	{ BS_FMT_BONNIE64_TEXT, "bonnie", B, BS_ERA_BONNIE, "Bonnie-64 2.0.x",
	  BS_LAYOUT_NONE, BS_TABLE_BONNIE, 0, BS_FMT_BONNIE_TEXT, NULL },
	{ BS_FMT_BONNIE14_TEXT, "bonnie", B, BS_ERA_BONNIE,
	  "Linux Bonnie 1.2-1.4", BS_LAYOUT_NONE, BS_TABLE_BONNIE, 0,
	  BS_FMT_BONNIE_TEXT, NULL },
	/* sysbench fileio. */
	{ BS_FMT_SYSBENCH_04, "sysbench", BS_FAM_SYSBENCH, BS_ERA_SYSBENCH_04,
	  "0.4.x, 0.5", BS_LAYOUT_NONE, BS_TABLE_NONE, 0,
	  BS_FMT_SYSBENCH_04, NULL },
	{ BS_FMT_SYSBENCH_10, "sysbench", BS_FAM_SYSBENCH, BS_ERA_SYSBENCH_10,
	  "1.0.x", BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_SYSBENCH_10,
	  NULL },
	{ BS_FMT_BSTORE_FILEIO, "bstore", BS_FAM_SYSBENCH, BS_ERA_SYSBENCH_10,
	  "bstore fileio", BS_LAYOUT_NONE, BS_TABLE_NONE, 0, NULL,
	  "core/fileio_text.c" },
	/* fio: every dialect spans 2.x and 3.x. */
	{ BS_FMT_FIO_JSON, "fio", BS_FAM_FIO, BS_ERA_NONE, "2.x-3.x json(+)",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_FIO_JSON, NULL },
	{ BS_FMT_FIO_TERSE, "fio", BS_FAM_FIO, BS_ERA_NONE, "terse v3-v5",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_FIO_TERSE, NULL },
	{ BS_FMT_FIO_TEXT, "fio", BS_FAM_FIO, BS_ERA_NONE, "2.0-3.x normal",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 1, BS_FMT_FIO_TEXT, NULL },
	/* zcav, getc_putc, dd. */
	{ BS_FMT_ZCAV, "zcav", BS_FAM_ZCAV, BS_ERA_NONE, "1.02-2.00a",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_ZCAV, NULL },
	{ BS_FMT_BSTORE_ZCAV, "bstore", BS_FAM_ZCAV, BS_ERA_NONE, "bstore zcav",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, NULL, "core/zcav.c" },
	{ BS_FMT_GETC_PUTC, "getc_putc", BS_FAM_GETC_PUTC, BS_ERA_NONE,
	  "1.93-2.00a", BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_GETC_PUTC,
	  NULL },
	{ BS_FMT_DD, "dd", BS_FAM_DD, BS_ERA_NONE, "GNU coreutils, BSD",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_DD, NULL },
};

/* A format no row names: nothing claimed, bonnie++'s 2.00a table for the
 * bonnie family (as show has always printed it). */
static const struct bs_dialect unknown[BS_FAM_COUNT] = {
	[BS_FAM_BONNIE] = { NULL, NULL, B, BS_ERA_NONE, NULL, BS_LAYOUT_NONE,
			    BS_TABLE_2, 0, NULL, NULL },
	[BS_FAM_SYSBENCH] = { NULL, NULL, BS_FAM_SYSBENCH, BS_ERA_NONE, NULL,
			      BS_LAYOUT_NONE, BS_TABLE_NONE, 0, NULL, NULL },
	[BS_FAM_ZCAV] = { NULL, NULL, BS_FAM_ZCAV, BS_ERA_NONE, NULL,
			  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, NULL, NULL },
	[BS_FAM_FIO] = { NULL, NULL, BS_FAM_FIO, BS_ERA_NONE, NULL,
			 BS_LAYOUT_NONE, BS_TABLE_NONE, 0, NULL, NULL },
	[BS_FAM_DD] = { NULL, NULL, BS_FAM_DD, BS_ERA_NONE, NULL,
			BS_LAYOUT_NONE, BS_TABLE_NONE, 0, NULL, NULL },
	[BS_FAM_GETC_PUTC] = { NULL, NULL, BS_FAM_GETC_PUTC, BS_ERA_NONE, NULL,
			       BS_LAYOUT_NONE, BS_TABLE_NONE, 0, NULL, NULL },
};
/* clang-format on */

const int bs_ndialects = (int)(sizeof(bs_dialects) / sizeof(bs_dialects[0]));

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
