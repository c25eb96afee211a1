/*
 * tests/unit/test_dialect.c - core/dialect.c, the dialect table, held
 * against the format registry (ingest/formats.c) and the schema's test
 * for a table (runs_measure_key's index, schema.sql): one key a row,
 * every reader a registry row, every registry row a dialect's reader,
 * every rounded dialect beside an exact one of its tool, and every row
 * in docs/formats.md's "Dialects" with its tool and reader.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "core/dialect.h"
#include "core/result.h"
#include "ingest/format.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/readfile.h"

static void test_keys(void **state)
{
	int i, k;

	(void)state;
	assert_true(bs_ndialects > 20);
	for (i = 0; i < bs_ndialects; i++) {
		assert_non_null(bs_dialects[i].format);
		assert_non_null(bs_dialects[i].tool);
		assert_non_null(bs_dialects[i].versions);
		assert_ptr_equal(bs_dialect_find(bs_dialects[i].format),
				 &bs_dialects[i]);
		for (k = 0; k < i; k++)
			assert_string_not_equal(bs_dialects[i].format,
						bs_dialects[k].format);
		/* Someone reads or writes it. */
		assert_true(bs_dialects[i].reader || bs_dialects[i].writer);
		/* Only bonnie++'s family has tables and CSV lines. */
		if (bs_dialects[i].family != BS_FAM_BONNIE) {
			assert_int_equal(bs_dialects[i].table, BS_TABLE_NONE);
			assert_int_equal(bs_dialects[i].csv, BS_LAYOUT_NONE);
		} else {
			assert_int_not_equal(bs_dialects[i].table,
					     BS_TABLE_NONE);
		}
	}
	assert_null(bs_dialect_find("no-such-format"));
	assert_null(bs_dialect_find(NULL));
}

/* Every reader is a registry row of the dialect's family, and every
 * registry row reads a dialect (bstore-json's runs keep theirs). */
static void test_readers(void **state)
{
	int i, k, found;

	(void)state;
	for (i = 0; i < bs_ndialects; i++) {
		const struct bs_format *f;

		if (bs_dialects[i].reader == NULL)
			continue;
		f = bs_format_find(bs_dialects[i].reader);
		assert_non_null(f);
		assert_int_equal(f->family, bs_dialects[i].family);
	}
	for (k = 0; k < bs_nformats; k++) {
		if (strcmp(bs_formats[k].name, "bstore-json") == 0)
			continue;
		found = 0;
		for (i = 0; i < bs_ndialects; i++)
			if (bs_dialects[i].reader &&
			    strcmp(bs_dialects[i].reader, bs_formats[k].name) ==
				    0)
				found = 1;
		if (!found)
			fail_msg("registry row '%s' reads no dialect",
				 bs_formats[k].name);
	}
}

/* A rounded dialect has an exact one of its tool and family to yield
 * to; bonnie++'s rounded ones are the tables the schema's index finds
 * by "format LIKE 'bonnie++-text%'". */
static void test_rounded(void **state)
{
	int i, k, exact;

	(void)state;
	for (i = 0; i < bs_ndialects; i++) {
		const struct bs_dialect *d = &bs_dialects[i];

		if (d->family == BS_FAM_BONNIE)
			assert_int_equal(d->rounded,
					 strncmp(d->format, "bonnie++-text",
						 13) == 0);
		if (!d->rounded)
			continue;
		exact = 0;
		for (k = 0; k < bs_ndialects; k++)
			if (!bs_dialects[k].rounded &&
			    bs_dialects[k].family == d->family &&
			    strcmp(bs_dialects[k].tool, d->tool) == 0)
				exact = 1;
		assert_true(exact);
	}
}

/* The row of a run: its format's, else its family's that claims
 * nothing (show then prints a bonnie-family run as 2.00a did). */
static void test_of_run(void **state)
{
	struct bs_run r;

	(void)state;
	bs_run_init(&r);
	bs_run_set(&r.format, BS_FMT_TEXT_1_0X);
	assert_int_equal(bs_dialect_of(&r)->table, BS_TABLE_1);
	assert_int_equal(bs_dialect_of(&r)->era, BS_ERA_1_0X);
	bs_run_set(&r.format, BS_FMT_CSV_1_97);
	assert_int_equal(bs_dialect_of(&r)->table, BS_TABLE_19);
	bs_run_set(&r.format, "bonnie++-csv-9.99");
	assert_int_equal(bs_dialect_of(&r)->table, BS_TABLE_2);
	assert_int_equal(bs_dialect_of(&r)->era, BS_ERA_NONE);
	assert_null(bs_dialect_of(&r)->format);
	r.family = BS_FAM_FIO;
	assert_int_equal(bs_dialect_of(&r)->table, BS_TABLE_NONE);
	bs_run_release(&r);
}

/* A version as bonnie++ prints it names its era. */
static void test_bonnie_era(void **state)
{
	static const struct {
		const char *v;
		enum bs_era era;
	} cases[] = {
		{"1.00", BS_ERA_1_0X},  {"1.03", BS_ERA_1_0X},
		{"1.03d", BS_ERA_1_0X}, {"1.04", BS_ERA_1_0X},
		{"1.90a", BS_ERA_1_9X}, {"1.93c", BS_ERA_1_9X},
		{"1.96", BS_ERA_1_9X},  {"1.97", BS_ERA_1_9X},
		{"1.98", BS_ERA_1_98},  {"2.00a", BS_ERA_1_98},
		{"3.0", BS_ERA_1_98},   {"", BS_ERA_NONE},
		{"x", BS_ERA_NONE},     {NULL, BS_ERA_NONE},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(bs_bonnie_era(cases[i].v), cases[i].era);
}

/* docs/formats.md has a row per dialect: "| `format` | tool | ...",
 * naming the reader ("`bonnie++-text` |") or the command that writes
 * it. */
/* The step a source printed a value in (bs_dialect_step), known answers:
 * sysbench's two decimals, bonnie++ 2.00a's table cells, a CSV line's
 * whole KiB/s and seeks' one decimal, fio's three significant figures. */
static void test_step(void **state)
{
	static const struct {
		const char *format;
		enum bs_family fam;
		const char *key;
		double v, step;
	} cases[] = {
		{BS_FMT_SYSBENCH_10, BS_FAM_SYSBENCH, "latency_avg_ms", 0.06,
		 0.01},
		{BS_FMT_SYSBENCH_10, BS_FAM_SYSBENCH, "latency_avg_ms", 0.19,
		 0.01},
		{BS_FMT_BSTORE_FILEIO, BS_FAM_SYSBENCH, "latency_avg_ms",
		 0.0627, 0.0001},
		/* 291m: a step of 1 MiB/s (297984 KiB/s); 1.8g of 0.1 GiB/s. */
		{BS_FMT_TEXT_1_98, BS_FAM_BONNIE, "put_block", 297984, 1024},
		{BS_FMT_TEXT_1_98, BS_FAM_BONNIE, "get_block", 1887436.8,
		 104857.6},
		{BS_FMT_CSV_1_98, BS_FAM_BONNIE, "put_block", 297601, 1},
		{BS_FMT_CSV_1_98, BS_FAM_BONNIE, "seeks", 6398.3, 0.1},
		{BS_FMT_FIO_TEXT, BS_FAM_FIO, "read_bw_kib_s", 92876.8, 100},
	};
	struct bs_run r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double got;

		bs_run_init(&r);
		r.family = cases[i].fam;
		bs_run_set(&r.format, cases[i].format);
		got = bs_dialect_step(&r,
				      bs_metric_find(cases[i].fam,
						     cases[i].key),
				      cases[i].v);
		if (fabs(got - cases[i].step) > 1e-9 * cases[i].step)
			fail_msg("%s %s %g: step %g, want %g", cases[i].format,
				 cases[i].key, cases[i].v, got, cases[i].step);
		bs_run_release(&r);
	}
}

static void test_docs(void **state)
{
	struct bs_buf path = BS_BUF_INIT, want = BS_BUF_INIT, doc = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	const char *src = getenv("SRC"), *row, *end, *text;
	int i;

	(void)state;
	assert_non_null(src);
	bs_buf_addf(&path, "%s/docs/formats.md", src);
	assert_int_equal(bs_readfile(bs_buf_str(&path), "docs", 1 << 20, &doc,
				     &err),
			 0);
	text = bs_buf_str(&doc);
	for (i = 0; i < bs_ndialects; i++) {
		const struct bs_dialect *d = &bs_dialects[i];

		bs_buf_reset(&want);
		bs_buf_addf(&want, "\n| `%s` | %s | ", d->format, d->tool);
		row = strstr(text, bs_buf_str(&want));
		if (row == NULL)
			fail_msg("docs/formats.md has no row '%s'",
				 bs_buf_str(&want) + 1);
		end = strchr(row + 1, '\n');
		bs_buf_reset(&want);
		if (d->reader)
			bs_buf_addf(&want, "| `%s` |", d->reader);
		else
			bs_buf_adds(&want, "| (written by `bstore ");
		row = strstr(row, bs_buf_str(&want));
		if (row == NULL || row > end)
			fail_msg("docs/formats.md's row of '%s' does not name "
				 "'%s'",
				 d->format, bs_buf_str(&want));
	}
	bs_buf_release(&doc);
	bs_buf_release(&path);
	bs_buf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_readers),
		cmocka_unit_test(test_rounded),
		cmocka_unit_test(test_of_run),
		cmocka_unit_test(test_bonnie_era),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_docs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
