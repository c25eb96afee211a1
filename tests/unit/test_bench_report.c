/*
 * tests/unit/test_bench_report.c - the CSV line and text table of
 * `bstore run` against real bonnie++ output.
 *
 * Each case is what Debian's bonnie++ 2.00a printed (command in the
 * comment, run on a Debian 12 VM; or a line from docs/input-formats.md). The CSV
 * line is parsed by our ingest and written back with bs_bench_csv: it
 * must come out byte for byte. The text table must match bonnie++'s,
 * except where 2.00a is wrong (file-test rates, the dropped seek thread
 * count), which the expected text shows corrected.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/bench.h"
#include "core/bonnie_text.h"
#include "core/result.h"
#include "ingest/ingest.h"
#include "util/buf.h"
#include "util/banned.h"

struct tcase {
	const char *csv;
	const char *table; /* NULL: not checked */
};

/* clang-format off */
static const struct tcase cases[] = {
	/* bonnie++ -r 0 -m th -z 42 -s 0 -n 1 */
	{ "1.98,2.00a,th,1,42,,,,,,,,,,,,,,,,,1,,,,,+++++,+++,+++++,+++,"
	  "+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,234us,55us,144us,"
	  "816us,41us,97us",
	  "Version 2.00a       ------Sequential Create------ --------Random Create--------\n"
	  "th                  -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
	  "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "                  1 +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++\n"
	  "Latency               234us      55us     144us     816us      41us      97us\n" },
	/* bonnie++ -r 0 -m th -z 42 -s 8 -n 0 -f */
	{ "1.98,2.00a,th,1,42,8M,,8192,5,,,+++++,+++,+++++,+++,,,+++++,+++,"
	  "+++++,+++,,,,,,,,,,,,,,,,,,,123us,63us,,49us,12063us,,,,,,",
	  "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n"
	  "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	  "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "th               8M           +++++ +++ +++++ +++           +++++ +++ +++++ +++\n"
	  "Latency                         123us      63us                49us   12063us\n" },
	/* bonnie++ -r 0 -m averyveryverylongmachinename -z 42 -s 8 -n 1:-1 -f */
	{ "1.98,2.00a,averyveryverylongmachinename,1,42,8M,,8192,5,,,+++++,+++,"
	  "+++++,+++,,,+++++,+++,+++++,+++,1,link,,,,+++++,+++,+++++,+++,+++++,"
	  "+++,+++++,+++,+++++,+++,+++++,+++,,74us,96us,,56us,8196us,247us,"
	  "48us,147us,68us,55us,308us",
	  "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n"
	  "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	  "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "averyveryverylon 8M           +++++ +++ +++++ +++           +++++ +++ +++++ +++\n"
	  "Latency                          74us      96us                56us    8196us\n"
	  "Version 2.00a       ------Sequential Create------ --------Random Create--------\n"
	  "averyveryverylongma -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
	  "files:max            /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "             1:link +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++\n"
	  "Latency               247us      48us     147us      68us      55us     308us\n" },
	/* bonnie++ -r 0 -m th -s 64 -n 1 */
	{ "1.98,2.00a,th,1,1796022257,64M,,8192,5,712,99,+++++,+++,+++++,+++,"
	  "751,99,+++++,+++,+++++,+++,1,,,,,+++++,+++,+++++,+++,+++++,+++,"
	  "+++++,+++,+++++,+++,+++++,+++,13387us,130us,127us,12657us,298us,"
	  "8606us,205us,81us,189us,785us,46us,58us",
	  "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n"
	  "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	  "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "th              64M  712k  99 +++++ +++ +++++ +++  751k  99 +++++ +++ +++++ +++\n"
	  "Latency             13387us     130us     127us   12657us     298us    8606us\n"
	  "Version 2.00a       ------Sequential Create------ --------Random Create--------\n"
	  "th                  -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
	  "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "                  1 +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++\n"
	  "Latency               205us      81us     189us     785us      46us      58us\n" },
	/* bonnie++ -r 0 -m jump -z 7 -s 1024 -n 0 -f */
	{ "1.98,2.00a,jump,1,7,1G,,8192,5,,,563870,48,611267,51,,,+++++,+++,"
	  "+++++,+++,,,,,,,,,,,,,,,,,,,2513us,4112us,,3070us,12084us,,,,,,",
	  "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n"
	  "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	  "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "jump             1G            551m  48  597m  51           +++++ +++ +++++ +++\n"
	  "Latency                        2513us    4112us              3070us   12084us\n" },
	/* bonnie++ -r 0 -m jump -z 7 -s 0 -n 32:2000:100:4; 2.00a printed
	 * "32768" for every measured file rate: here the CSV's numbers. */
	{ "1.98,2.00a,jump,1,7,,,,,,,,,,,,,,,,,32,2000,100,,4,15172,68,+++++,"
	  "+++,4016,10,15950,83,+++++,+++,5011,11,,,,,,,787us,227us,4483us,"
	  "1895us,391us,8149us",
	  "Version 2.00a       ------Sequential Create------ --------Random Create--------\n"
	  "jump                -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
	  "files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "      32:2000:100/4 15172  68 +++++ +++  4016  10 15950  83 +++++ +++  5011  11\n"
	  "Latency               787us     227us    4483us    1895us     391us    8149us\n" },
	/* docs/input-formats.md section 1.6: a WSL blog post (2.00a), ms latencies, seeks and
	 * seek %CP over 100, 5-digit rates. */
	{ "1.98,2.00a,ANDREW-PC,1,1731170067,63G,,8192,5,6,6,51776,6,22717,6,"
	  "6,7,40308,4,8475,109,16,,,,,793,6,1765,7,1574,7,827,6,1945,8,1416,"
	  "6,1445ms,17524us,9356us,1284ms,5950us,408ms,15088us,15053us,"
	  "18784us,11317us,3377us,12653us",
	  "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n"
	  "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	  "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "ANDREW-PC       63G    6k   6 50.6m   6 22.2m   6    6k   7 39.4m   4  8475 109\n"
	  "Latency              1445ms   17524us    9356us    1284ms    5950us     408ms\n"
	  "Version 2.00a       ------Sequential Create------ --------Random Create--------\n"
	  "ANDREW-PC           -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
	  "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "                 16   793   6  1765   7  1574   7   827   6  1945   8  1416   6\n"
	  "Latency             15088us   15053us   18784us   11317us    3377us   12653us\n" },
	{ "1.98,2.00a,ANDREW-PC,1,1731168315,63G,,8192,5,540,99,745124,100,"
	  "980550,91,2205,99,1203968,58,+++++,+++,16,,,,,+++++,+++,+++++,+++,"
	  "+++++,+++,+++++,+++,+++++,+++,+++++,+++,16366us,5650us,12027us,"
	  "4465us,1806us,478us,586us,404us,3818us,3324us,837us,3156us",
	  NULL },
	/* bonnie++ -r 0 -m th -z 42 -s 8:4k:100:3 -c 2 -n 1:100:10:2 -f:
	 * 2.00a loses the chunk size in its CSV. */
	{ "1.98,2.00a,th,2,42,8M,,100,3,,,+++++,+++,+++++,+++,,,+++++,+++,"
	  "+++++,+++,1,100,10,,2,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
	  "+++++,+++,+++++,+++,,138us,72us,,58us,35us,267us,68us,1343us,"
	  "453us,95us,477us",
	  NULL },
	/* docs/input-formats.md section 1.2: bonnie++ 1.03e lines. */
	{ "ubuntu,8G,,,65284,18,39589,8,,,96293,8,7510.9,6,16,+++++,+++,+++++,"
	  "+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++",
	  NULL },
	{ "raid0,2G,83720,95,813061,95,1185231,100,84567,97,2828489,97,1187.5,"
	  "0,16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++",
	  NULL },
	{ ",2G,10874,85,52615,35,18392,12,12760,90,48394,9,103.9,0,16,13055,"
	  "93,+++++,+++,15189,87,12872,95,+++++,+++,20590,99",
	  NULL },
};
/* clang-format on */

static void parse(const char *line, struct bs_run *r)
{
	struct bs_err err = BS_ERR_INIT;
	int rc;

	bs_run_init(r);
	rc = bs_ingest_parse_line(line, strlen(line), NULL, r, &err);
	if (rc != 1)
		fail_msg("ingest: %s: %s", line, err.msg);
}

static void test_csv_round_trip(void **state)
{
	struct bs_buf out = BS_BUF_INIT;
	struct bs_run r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int is_103 = strncmp(cases[i].csv, "1.98,", 5) != 0;

		parse(cases[i].csv, &r);
		bs_buf_reset(&out);
		bs_bonnie_csv(&r, is_103 ? BS_CSV_1_03 : BS_CSV_1_98, &out);
		assert_string_equal(bs_buf_str(&out), cases[i].csv);
		bs_run_release(&r);
	}
	bs_buf_release(&out);
}

static void test_table(void **state)
{
	struct bs_buf out = BS_BUF_INIT;
	struct bs_run r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].table == NULL)
			continue;
		parse(cases[i].csv, &r);
		bs_buf_reset(&out);
		bs_bonnie_table(&r, BS_TABLE_2, &out);
		assert_string_equal(bs_buf_str(&out), cases[i].table);
		bs_run_release(&r);
	}
	bs_buf_release(&out);
}

/* A bstore run: field 1 names the tool, a non-default chunk is kept. */
static void test_bstore_run(void **state)
{
	struct bs_buf out = BS_BUF_INIT;
	struct bs_run r;
	int i;

	(void)state;
	bs_run_init(&r);
	bs_run_set(&r.tool, "bstore");
	bs_run_set(&r.tool_version, "0.1.0");
	bs_run_set(&r.machine, "th");
	bs_run_set(&r.params.seed, "42");
	r.params.file_size_mib = 8;
	r.params.io_chunk_bytes = 4096;
	r.params.seeks = 100;
	r.params.seek_procs = 3;
	r.params.concurrency = 2;
	r.params.num_files = 1;
	r.params.max_size = 100;
	r.params.min_size = 10;
	r.params.num_dirs = 2;
	for (i = 0; i < BS_M_BONNIE; i++) {
		r.res[i].status = BS_ST_TOO_FAST;
		r.res[i].lat_us = 1000 + i;
	}
	r.res[BS_M_PUTC].status = BS_ST_NOT_RUN;
	r.res[BS_M_GETC].status = BS_ST_NOT_RUN;
	r.res[BS_M_SEQ_DEL].status = BS_ST_OK;
	r.res[BS_M_SEQ_DEL].value = 289.7;
	r.res[BS_M_SEQ_DEL].cpu_pct = 2.9;
	r.res[BS_M_SEEKS].status = BS_ST_OK;
	r.res[BS_M_SEEKS].value = 600.46;
	r.res[BS_M_SEEKS].cpu_pct = 14.2;
	bs_bonnie_csv(&r, BS_CSV_1_98, &out);
	assert_string_equal(
		bs_buf_str(&out),
		"1.98,bstore-0.1.0,th,2,42,8M,4k,100,3,,,+++++,+++,+++++,+++,"
		",,+++++,+++,600.5,14,1,100,10,,2,+++++,+++,+++++,+++,289,2,"
		"+++++,+++,+++++,+++,+++++,+++,,1001us,1002us,,1004us,1005us,"
		"1006us,1007us,1008us,1009us,1010us,1011us");
	bs_buf_reset(&out);
	bs_bonnie_csv(&r, BS_CSV_1_03, &out);
	assert_string_equal(bs_buf_str(&out),
			    "th,8M:4k,,,+++++,+++,+++++,+++,,,+++++,+++,600.5,"
			    "14,1:100:10/2,+++++,+++,+++++,+++,289,2,+++++,"
			    "+++,+++++,+++,+++++,+++");
	bs_buf_reset(&out);
	bs_bonnie_table(&r, BS_TABLE_2, &out);
	/* clang-format off */
	assert_string_equal(
		bs_buf_str(&out),
		"bstore 0.1.0        ------Sequential Output------ --Sequential Input- --Random-\n"
		"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
		"Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
		"th    8M:4k:2:100:3           +++++ +++ +++++ +++           +++++ +++ 600.5  14\n"
		"Latency                        1001us    1002us              1004us    1005us\n"
		"bstore 0.1.0        ------Sequential Create------ --------Random Create--------\n"
		"th                  -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
		"files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
		"         1:100:10/2 +++++ +++ +++++ +++   289   2 +++++ +++ +++++ +++ +++++ +++\n"
		"Latency              1006us    1007us    1008us    1009us    1010us    1011us\n");
	/* clang-format on */
	bs_run_release(&r);
	bs_buf_release(&out);
}

/* The layouts' names and what the 1.03 layout has no field for
 * (export --csv-format warns with it). */
static void test_csv_layouts(void **state)
{
	struct bs_buf what = BS_BUF_INIT;
	enum bs_csv_format f = BS_CSV_1_98;
	struct bs_err err = BS_ERR_INIT;
	struct bs_run r;

	(void)state;
	assert_int_equal(bs_csv_format_parse("1.03", &f, &err), 0);
	assert_int_equal(f, BS_CSV_1_03);
	assert_int_equal(bs_csv_format_parse("1.98", &f, &err), 0);
	assert_int_equal(f, BS_CSV_1_98);
	assert_int_equal(bs_csv_format_parse("1.97", &f, &err), -BS_EINVAL);
	assert_string_equal(err.msg, "expected 1.98 or 1.03, got '1.97'");
	bs_err_reset(&err);
	assert_int_equal(bs_csv_format_parse("", &f, NULL), -BS_EINVAL);
	assert_int_equal(f, BS_CSV_1_98);
	assert_string_equal(bs_csv_format_name(BS_CSV_1_03), "1.03");
	assert_string_equal(bs_csv_format_names(), "1.98 or 1.03");
	assert_true(bs_csv_format_is_input(BS_CSV_1_98, BS_FMT_CSV_1_98));
	assert_true(bs_csv_format_is_input(BS_CSV_1_03, BS_FMT_CSV_1_0X));
	assert_false(bs_csv_format_is_input(BS_CSV_1_98, BS_FMT_CSV_1_0X));
	assert_false(bs_csv_format_is_input(BS_CSV_1_98, BS_FMT_CSV_1_97));
	assert_false(bs_csv_format_is_input(BS_CSV_1_03, BS_FMT_BSTORE_RUN));
	assert_false(bs_csv_format_is_input(BS_CSV_1_03, NULL));

	/* A 2.00a line: its latencies, seed and seek settings. */
	parse(cases[0].csv, &r);
	assert_int_equal(bs_bonnie_csv_drops(&r, BS_CSV_1_98), 0);
	bs_bonnie_csv_drops_names(bs_bonnie_csv_drops(&r, BS_CSV_1_03), &what);
	assert_string_equal(bs_buf_str(&what), "latencies, seed");
	bs_run_release(&r);
	parse(cases[1].csv, &r);
	bs_buf_reset(&what);
	bs_bonnie_csv_drops_names(bs_bonnie_csv_drops(&r, BS_CSV_1_03), &what);
	assert_string_equal(bs_buf_str(&what),
			    "latencies, seed, seek count, seek processes");
	bs_run_release(&r);
	/* -c 2 is kept by 1.98 only; 1 is what 1.03 means. */
	parse("1.98,2.00a,th,2,,8M,,,,,,+++++,+++,+++++,+++,,,+++++,+++,"
	      "+++++,+++,,,,,,,,,,,,,,,,,,,,,,,,,,,,,",
	      &r);
	bs_buf_reset(&what);
	bs_bonnie_csv_drops_names(bs_bonnie_csv_drops(&r, BS_CSV_1_03), &what);
	assert_string_equal(bs_buf_str(&what), "concurrency");
	bs_run_release(&r);
	/* A 1.0x line loses nothing in its own layout. */
	parse("jump,8G,34299,97,84734,54,30960,53,33918,97,155474,74,575.0,7,"
	      "16,786,12,+++++,+++,1525,13,783,11,+++++,+++,1508,15",
	      &r);
	assert_int_equal(bs_bonnie_csv_drops(&r, BS_CSV_1_03), 0);
	bs_run_release(&r);
	bs_buf_release(&what);
}

struct rcase {
	double kib_s;
	const char *text;
};

static void test_rate_text(void **state)
{
	/* clang-format off */
	static const struct rcase rates[] = {
		/* Examples from docs/input-formats.md section 2.3 (2.00a's text output). */
		{ 745124, "728m" }, { 1203968, "1.1g" }, { 51776, "50.6m" },
		{ 2205, "2205k" },  { 540, "540k" },     { 980550, "958m" },
		{ 563870, "551m" }, { 611267, "597m" },  { 712.9, "712k" },
		{ 9999, "9999k" },  { 10000, "9.8m" },   { 102348, "99.9m" },
		{ 102400, "100m" }, { 1048064, "1.0g" }, { 200e6, "191g" },
	};
	/* clang-format on */
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		assert_string_equal(bs_bonnie_fmt_kib(buf, sizeof(buf),
						      rates[i].kib_s),
				    rates[i].text);
}

static void test_latency_text(void **state)
{
	char buf[32];

	(void)state;
	/* Rounded in its unit (a mean is printed at its nearest), with at
	 * most five digits, as bonnie++ prints. */
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), 13387.9),
			    "13388us");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), 99999),
			    "99999us");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), 99999.7),
			    "100ms");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), 100000),
			    "100ms");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), 801000),
			    "801ms");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), 1565000),
			    "1565ms");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), 99999499),
			    "99999ms");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), 99999999),
			    "100s");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), 123456789),
			    "123s");
	/* 0 prints as a number (a difference of nothing); the CSV line
	 * leaves such a cell empty as bonnie++ does (test_zero_latency). */
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), 0), "0us");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), NAN), "");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), -5000),
			    "-5000us");
	assert_string_equal(bs_bonnie_fmt_latency(buf, sizeof(buf), -801000),
			    "-801ms");
}

/* bonnie++ prints nothing for a latency of 0; neither does the line. */
static void test_zero_latency(void **state)
{
	struct bs_buf out = BS_BUF_INIT;
	struct bs_run r;

	(void)state;
	parse(cases[1].csv, &r);
	r.res[BS_M_PUT_BLOCK].lat_us = 0;
	bs_bonnie_csv(&r, BS_CSV_1_98, &out);
	assert_string_equal(bs_buf_str(&out),
			    "1.98,2.00a,th,1,42,8M,,8192,5,,,+++++,+++,+++++,"
			    "+++,,,+++++,+++,+++++,+++,,,,,,,,,,,,,,,,,,,,"
			    "63us,,49us,12063us,,,,,,");
	bs_run_release(&r);
	bs_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_round_trip),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_bstore_run),
		cmocka_unit_test(test_csv_layouts),
		cmocka_unit_test(test_rate_text),
		cmocka_unit_test(test_latency_text),
		cmocka_unit_test(test_zero_latency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
