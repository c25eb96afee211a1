/*
 * tests/unit/test_ingest.c - the bonnie/bonnie++ CSV ingest parser.
 *
 * Every example line of docs/input-formats.md section 1 and every samples/ bonnie++
 * file, checked value by value; every reject reason word for word; and the
 * streaming contract: the same result at every chunk size from 1 byte to
 * the whole input, CRLF, over-long lines, NUL bytes, empty input, bounded
 * memory.
 *
 * Results are compared as compact text, one cell per test in bonnie++'s
 * column order: value "/" cpu ["@" latency_us], where value is "." for
 * not run, "+" for too fast, and cpu "-" when unknown.
 */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <cmocka.h>

#include "core/metric.h"
#include "core/same.h"
#include "ingest/ingest.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/sha256.h"
#include "util/banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- text forms of a run ---------------------------------------------- */

static void add_num(struct bs_buf *b, double v)
{
	char tmp[64];

	/* bs_fmt_g() would write 12760 as "1.276e+04". */
	if (v == floor(v) && fabs(v) < 1e15)
		bs_buf_addf(b, "%.0f", v);
	else
		bs_buf_adds(b, bs_fmt_g(tmp, sizeof(tmp), v));
}

static void add_param(struct bs_buf *b, const char *key, int64_t v)
{
	if (v == BS_NONE)
		bs_buf_addf(b, "%s=-", key);
	else if (strcmp(key, "max") == 0 && v == BS_SIZE_LINK)
		bs_buf_addf(b, "%s=link", key);
	else if (strcmp(key, "max") == 0 && v == BS_SIZE_SYMLINK)
		bs_buf_addf(b, "%s=symlink", key);
	else
		bs_buf_addf(b, "%s=%" PRId64, key, v);
}

static void dump_params(struct bs_buf *b, const struct bs_run *r)
{
	const struct bs_params *p = &r->params;

	add_param(b, "size", p->file_size_mib);
	bs_buf_addc(b, ' ');
	add_param(b, "chunk", p->io_chunk_bytes);
	bs_buf_addc(b, ' ');
	add_param(b, "seeks", p->seeks);
	bs_buf_addc(b, ' ');
	add_param(b, "procs", p->seek_procs);
	bs_buf_addc(b, ' ');
	add_param(b, "pchar", p->per_char_mib);
	bs_buf_addc(b, ' ');
	add_param(b, "files", p->num_files);
	bs_buf_addc(b, ' ');
	add_param(b, "max", p->max_size);
	bs_buf_addc(b, ' ');
	add_param(b, "min", p->min_size);
	bs_buf_addc(b, ' ');
	add_param(b, "dirs", p->num_dirs);
	bs_buf_addc(b, ' ');
	add_param(b, "fchunk", p->file_chunk_bytes);
	bs_buf_addc(b, ' ');
	add_param(b, "conc", p->concurrency);
	bs_buf_addf(b, " seed=%s", p->seed ? p->seed : "-");
}

static void dump_results(struct bs_buf *b, const struct bs_run *r)
{
	int m;

	for (m = 0; m < BS_M_BONNIE; m++) {
		const struct bs_value *v = &r->res[m];

		if (m > 0)
			bs_buf_addc(b, ' ');
		switch (v->status) {
		case BS_ST_NOT_RUN:
			assert_true(isnan(v->value));
			bs_buf_addc(b, '.');
			break;
		case BS_ST_TOO_FAST:
			/* Never a number, never 0. */
			assert_true(isnan(v->value));
			assert_true(isnan(v->cpu_pct));
			bs_buf_addc(b, '+');
			break;
		case BS_ST_OK:
			assert_false(isnan(v->value));
			add_num(b, v->value);
			break;
		default:
			fail_msg("bad status %d", (int)v->status);
		}
		bs_buf_addc(b, '/');
		if (isnan(v->cpu_pct))
			bs_buf_addc(b, '-');
		else
			add_num(b, v->cpu_pct);
		if (!isnan(v->lat_us)) {
			bs_buf_addc(b, '@');
			add_num(b, v->lat_us);
		}
		assert_true(isnan(v->lat_mean_us));
		assert_true(isnan(v->lat_p50_us));
		assert_true(isnan(v->lat_p99_us));
	}
}

/* "run L23 bonnie++-csv-1.0x 1.03 [jump] <params> | <results>" */
static void dump_run(struct bs_buf *b, const struct bs_run *r)
{
	assert_true(strcmp(r->tool, "bonnie++") == 0 ||
		    strcmp(r->tool, "bstore") == 0);
	assert_true(r->measured_at == BS_NONE);
	bs_buf_addf(b, "run L%" PRId64 " %s %s [%s] ", r->source_line,
		    r->format, r->tool_version, r->machine);
	dump_params(b, r);
	bs_buf_adds(b, " | ");
	dump_results(b, r);
	if (r->warning)
		bs_buf_addf(b, " ! %s", r->warning);
	bs_buf_addc(b, '\n');
}

/* ---- one line through bs_ingest_parse_line ---------------------------- */

struct ok_case {
	const char *line;
	const char *hint;
	const char *format;
	const char *version;
	const char *machine;
	const char *params;
	const char *results;
	const char *warning;
};

/* clang-format off */
#define P10X_8G "size=8192 chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=- seed=-"
#define P10X_2G "size=2048 chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=- seed=-"

/* A 1.03e line ([WEB] netbook forum post) with one field replaced. */
#define A3_HEAD ",2G,10874,85,52615,35,18392,12,12760,90,48394,9,103.9,0,"
#define A3_FILES "13055,93,+++++,+++,15189,87,12872,95,+++++,+++,20590,99"
#define A3_RES_IO "10874/85 52615/35 18392/12 12760/90 48394/9 103.9/0 "
#define A3_RES_F "13055/93 +/- 15189/87 12872/95 +/- 20590/99"

/* 1.98 -s 0 lines from docs/input-formats.md section 1.6 with the -n variants it lists. */
#define E_S0 "1.98,2.00a,th,1,1796023681,,,,,,,,,,,,,,,,,"
#define E_FT "+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,"
#define E_S0_RES "./- ./- ./- ./- ./- ./- "

static const struct ok_case ok_cases[] = {
	/* docs/input-formats.md section 1.2, Family A (1.00-1.04), real lines. */
	{ "ubuntu,8G,,,65284,18,39589,8,,,96293,8,7510.9,6,16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++",
	  NULL, BS_FMT_CSV_1_0X, "1.0x", "ubuntu", P10X_8G,
	  "./- 65284/18 39589/8 ./- 96293/8 7510.9/6 +/- +/- +/- +/- +/- +/-", NULL },
	{ "raid0,2G,83720,95,813061,95,1185231,100,84567,97,2828489,97,1187.5,0,16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++",
	  "1.03e", BS_FMT_CSV_1_0X, "1.03e", "raid0", P10X_2G,
	  "83720/95 813061/95 1185231/100 84567/97 2828489/97 1187.5/0 +/- +/- +/- +/- +/- +/-", NULL },
	{ A3_HEAD "16," A3_FILES, NULL, BS_FMT_CSV_1_0X, "1.0x", "", P10X_2G,
	  A3_RES_IO A3_RES_F, NULL },
	/* A hint that is not a 1.0x version does not apply. */
	{ A3_HEAD "16," A3_FILES, "1.97", BS_FMT_CSV_1_0X, "1.0x", "", P10X_2G,
	  A3_RES_IO A3_RES_F, NULL },
	/* Compound size with a chunk, and the -n forms of docs/input-formats.md section 1.7. */
	{ ",2G:64k,10874,85,52615,35,18392,12,12760,90,48394,9,103.9,0,16," A3_FILES,
	  "1.03d", BS_FMT_CSV_1_0X, "1.03d", "",
	  "size=2048 chunk=65536 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=- seed=-",
	  A3_RES_IO A3_RES_F, NULL },
	{ ",1G:512,10874,85,52615,35,18392,12,12760,90,48394,9,103.9,0,16," A3_FILES,
	  NULL, BS_FMT_CSV_1_0X, "1.0x", "",
	  "size=1024 chunk=512 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=- seed=-",
	  A3_RES_IO A3_RES_F, NULL },
	{ A3_HEAD "16:100000:16/64," A3_FILES, NULL, BS_FMT_CSV_1_0X, "1.0x", "",
	  "size=2048 chunk=8192 seeks=- procs=- pchar=- files=16 max=100000 min=16 dirs=64 fchunk=- conc=- seed=-",
	  A3_RES_IO A3_RES_F, NULL },
	{ A3_HEAD "16:100000:16," A3_FILES, NULL, BS_FMT_CSV_1_0X, "1.0x", "",
	  "size=2048 chunk=8192 seeks=- procs=- pchar=- files=16 max=100000 min=16 dirs=- fchunk=- conc=- seed=-",
	  A3_RES_IO A3_RES_F, NULL },
	{ A3_HEAD "16:100:0," A3_FILES, NULL, BS_FMT_CSV_1_0X, "1.0x", "",
	  "size=2048 chunk=8192 seeks=- procs=- pchar=- files=16 max=100 min=0 dirs=- fchunk=- conc=- seed=-",
	  A3_RES_IO A3_RES_F, NULL },
	{ A3_HEAD "16/64," A3_FILES, NULL, BS_FMT_CSV_1_0X, "1.0x", "",
	  "size=2048 chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=64 fchunk=- conc=- seed=-",
	  A3_RES_IO A3_RES_F, NULL },
	{ A3_HEAD "16:link," A3_FILES, NULL, BS_FMT_CSV_1_0X, "1.0x", "",
	  "size=2048 chunk=8192 seeks=- procs=- pchar=- files=16 max=link min=- dirs=- fchunk=- conc=- seed=-",
	  A3_RES_IO A3_RES_F, NULL },
	{ A3_HEAD "16:symlink/8," A3_FILES, NULL, BS_FMT_CSV_1_0X, "1.0x", "",
	  "size=2048 chunk=8192 seeks=- procs=- pchar=- files=16 max=symlink min=- dirs=8 fchunk=- conc=- seed=-",
	  A3_RES_IO A3_RES_F, NULL },
	/* -s 0: the name and 13 empty fields. */
	{ "th,,,,,,,,,,,,,,16," A3_FILES, NULL, BS_FMT_CSV_1_0X, "1.0x", "th",
	  "size=- chunk=- seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=- seed=-",
	  "./- ./- ./- ./- ./- ./- " A3_RES_F, NULL },
	/* 1.00-1.00b: bare MiB, "%4.1f" seeks with a leading space, and a
	 * CPU number beside "+++++". */
	{ "pc1,300,4102,97,10241,16,4433,10,4299,96,11523,9, 97.3,1,16,+++++,98,+++++,99,+++++,97,+++++,99,+++++,98,+++++,96",
	  "1.00", BS_FMT_CSV_1_0X, "1.00", "pc1",
	  "size=300 chunk=- seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=- seed=-",
	  "4102/97 10241/16 4433/10 4299/96 11523/9 97.3/1 +/- +/- +/- +/- +/- +/-", NULL },
	/* A numeric rate beside "+++" CPU, and CRLF leftovers and blanks. */
	{ "  ubuntu,8G,,,65284,+++,39589,8,,,96293,8,7510.9,6,16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++ \t\r",
	  NULL, BS_FMT_CSV_1_0X, "1.0x", "ubuntu", P10X_8G,
	  "./- 65284/- 39589/8 ./- 96293/8 7510.9/6 +/- +/- +/- +/- +/- +/-", NULL },

	/* A UTF-8 byte order mark from a Windows editor. */
	{ "\xef\xbb\xbf" "1.97,1.97,wifo3-02,1,1438076799,63G,,1905,91,364656,24,119264,12,3457,86,306391,14,439.5,17,16,,,,,8891,13,+++++,+++,17536,23,11535,17,+++++,+++,19876,28,8631us,18055us,184ms,23985us,57565us,83422us,391us,125us,128us,375us,20us,90us",
	  NULL, BS_FMT_CSV_1_97, "1.97", "wifo3-02",
	  "size=64512 chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=1 seed=1438076799",
	  "1905/91@8631 364656/24@18055 119264/12@184000 3457/86@23985 306391/14@57565 439.5/17@83422 "
	  "8891/13@391 +/-@125 17536/23@128 11535/17@375 +/-@20 19876/28@90", NULL },

	/* docs/input-formats.md section 1.4, Family C (1.92b-1.96), real lines. */
	{ "1.93c,1.93c,AcharyaX,1,1125982584,800M,,496,87,34925,12,37639,16,868,99,566685,98,3144,39,16,,,,,100,99,199,99,1480,98,148,99,201,99,349,99,753ms,380ms,9518us,18260us,8728us,95532us,39390us,19146us,10730us,22799us,18930us,16815us",
	  NULL, BS_FMT_CSV_1_96, "1.93c", "AcharyaX",
	  "size=800 chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=1 seed=1125982584",
	  "496/87@753000 34925/12@380000 37639/16@9518 868/99@18260 566685/98@8728 3144/39@95532 "
	  "100/99@39390 199/99@19146 1480/98@10730 148/99@22799 201/99@18930 349/99@16815", NULL },
	/* The 47-field -s 0 line: file block shifted left by one. */
	{ "1.96,1.96,fslab3,1,1374655110,,,,,,,,,,,,,,60,32,32,,,1702,14,2025,12,1332,4,1873,16,2047,13,1266,3,,,,,,,3874ms,6645ms,8659ms,505ms,7257ms,9627ms",
	  NULL, BS_FMT_CSV_1_96S, "1.96", "fslab3",
	  "size=- chunk=- seeks=- procs=- pchar=- files=60 max=32 min=32 dirs=- fchunk=- conc=1 seed=1374655110",
	  "./- ./- ./- ./- ./- ./- "
	  "1702/14@3874000 2025/12@6645000 1332/4@8659000 1873/16@505000 2047/13@7257000 1266/3@9627000", NULL },
	/* -f ([PKB] docstring). */
	{ "1.96,1.96,perfkit-7b22f510-0,1,1421800799,7423M,,,,72853,15,47358,5,,,156821,7,537.7,10,100,,,,,49223,58,+++++,+++,54405,53,2898,97,+++++,+++,59089,60,,512ms,670ms,,44660us,200ms,3747us,1759us,1643us,33518us,192us,839us",
	  NULL, BS_FMT_CSV_1_96, "1.96", "perfkit-7b22f510-0",
	  "size=7423 chunk=8192 seeks=- procs=- pchar=- files=100 max=- min=- dirs=- fchunk=- conc=1 seed=1421800799",
	  "./- 72853/15@512000 47358/5@670000 ./- 156821/7@44660 537.7/10@200000 "
	  "49223/58@3747 +/-@1759 54405/53@1643 2898/97@33518 +/-@192 59089/60@839", NULL },
	/* 1.93b writes format version 1.92b. */
	{ "1.92b,1.93b,AcharyaX,1,1125982584,800M,,496,87,34925,12,37639,16,868,99,566685,98,3144,39,16,,,,,100,99,199,99,1480,98,148,99,201,99,349,99,753ms,380ms,9518us,18260us,8728us,95532us,39390us,19146us,10730us,22799us,18930us,16815us",
	  NULL, BS_FMT_CSV_1_96, "1.93b", "AcharyaX",
	  "size=800 chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=1 seed=1125982584",
	  "496/87@753000 34925/12@380000 37639/16@9518 868/99@18260 566685/98@8728 3144/39@95532 "
	  "100/99@39390 199/99@19146 1480/98@10730 148/99@22799 201/99@18930 349/99@16815", NULL },
	/* A non-default I/O chunk. */
	{ "1.93c,1.93c,AcharyaX,1,1125982584,800M,4k,496,87,34925,12,37639,16,868,99,566685,98,3144,39,16,,,,,100,99,199,99,1480,98,148,99,201,99,349,99,753ms,380ms,9518us,18260us,8728us,95532us,39390us,19146us,10730us,22799us,18930us,16815us",
	  NULL, BS_FMT_CSV_1_96, "1.93c", "AcharyaX",
	  "size=800 chunk=4096 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=1 seed=1125982584",
	  "496/87@753000 34925/12@380000 37639/16@9518 868/99@18260 566685/98@8728 3144/39@95532 "
	  "100/99@39390 199/99@19146 1480/98@10730 148/99@22799 201/99@18930 349/99@16815", NULL },

	/* docs/input-formats.md section 1.5, Family D (1.97), real lines. */
	{ "1.97,1.97,nfs-worker1,1,1545782353,2G,,1113,97,78993,7,75546,11,2102,92,271440,13,6863,53,16,,,,,407,7,+++++,+++,1328,12,526,6,+++++,+++,1704,13,21103us,801ms,1565ms,19930us,21978us,9956us,65891us,18799us,81134us,31558us,3596us,10771us",
	  NULL, BS_FMT_CSV_1_97, "1.97", "nfs-worker1",
	  "size=2048 chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=1 seed=1545782353",
	  "1113/97@21103 78993/7@801000 75546/11@1565000 2102/92@19930 271440/13@21978 6863/53@9956 "
	  "407/7@65891 +/-@18799 1328/12@81134 526/6@31558 +/-@3596 1704/13@10771", NULL },
	{ "1.97,1.97,wifo3-02,1,1438076799,63G,,1905,91,364656,24,119264,12,3457,86,306391,14,439.5,17,16,,,,,8891,13,+++++,+++,17536,23,11535,17,+++++,+++,19876,28,8631us,18055us,184ms,23985us,57565us,83422us,391us,125us,128us,375us,20us,90us",
	  NULL, BS_FMT_CSV_1_97, "1.97", "wifo3-02",
	  "size=64512 chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=1 seed=1438076799",
	  "1905/91@8631 364656/24@18055 119264/12@184000 3457/86@23985 306391/14@57565 439.5/17@83422 "
	  "8891/13@391 +/-@125 17536/23@128 11535/17@375 +/-@20 19876/28@90", NULL },
	/* 1.97 fixed -s 0: 14 empty fields, 48 in all. */
	{ "1.97,1.97,fslab3,1,1374655110,,,,,,,,,,,,,,,60,32,32,,,1702,14,2025,12,1332,4,1873,16,2047,13,1266,3,,,,,,,3874ms,6645ms,8659ms,505ms,7257ms,9627ms",
	  NULL, BS_FMT_CSV_1_97, "1.97", "fslab3",
	  "size=- chunk=- seeks=- procs=- pchar=- files=60 max=32 min=32 dirs=- fchunk=- conc=1 seed=1374655110",
	  "./- ./- ./- ./- ./- ./- "
	  "1702/14@3874000 2025/12@6645000 1332/4@8659000 1873/16@505000 2047/13@7257000 1266/3@9627000", NULL },

	/* docs/input-formats.md section 1.6, Family E (1.98-2.00a), local runs. */
	{ "1.98,2.00a,th,1,1796023766,,,,,,,,,,,,,,,,,1,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,6037us,583us,233us,6445us,56us,243us",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "th",
	  "size=- chunk=- seeks=- procs=- pchar=- files=1 max=- min=- dirs=- fchunk=- conc=1 seed=1796023766",
	  E_S0_RES "+/-@6037 +/-@583 +/-@233 +/-@6445 +/-@56 +/-@243", NULL },
	{ E_S0 "1,100,10,,4," E_FT "6401us,81us,8935us,2404us,131us,5088us",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "th",
	  "size=- chunk=- seeks=- procs=- pchar=- files=1 max=100 min=10 dirs=4 fchunk=- conc=1 seed=1796023681",
	  E_S0_RES "+/-@6401 +/-@81 +/-@8935 +/-@2404 +/-@131 +/-@5088", NULL },
	{ E_S0 "1,100,,,," E_FT "6401us,81us,8935us,2404us,131us,5088us",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "th",
	  "size=- chunk=- seeks=- procs=- pchar=- files=1 max=100 min=- dirs=- fchunk=- conc=1 seed=1796023681",
	  E_S0_RES "+/-@6401 +/-@81 +/-@8935 +/-@2404 +/-@131 +/-@5088", NULL },
	{ E_S0 "1,link,,,," E_FT "6401us,81us,8935us,2404us,131us,5088us",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "th",
	  "size=- chunk=- seeks=- procs=- pchar=- files=1 max=link min=- dirs=- fchunk=- conc=1 seed=1796023681",
	  E_S0_RES "+/-@6401 +/-@81 +/-@8935 +/-@2404 +/-@131 +/-@5088", NULL },
	{ E_S0 "1,symlink,,,2," E_FT "6401us,81us,8935us,2404us,131us,5088us",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "th",
	  "size=- chunk=- seeks=- procs=- pchar=- files=1 max=symlink min=- dirs=2 fchunk=- conc=1 seed=1796023681",
	  E_S0_RES "+/-@6401 +/-@81 +/-@8935 +/-@2404 +/-@131 +/-@5088", NULL },
	/* Should a build print the file chunk (field 25), it is kept. */
	{ E_S0 "1,100,10,4k,4," E_FT "6401us,81us,8935us,2404us,131us,5088us",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "th",
	  "size=- chunk=- seeks=- procs=- pchar=- files=1 max=100 min=10 dirs=4 fchunk=4096 conc=1 seed=1796023681",
	  E_S0_RES "+/-@6401 +/-@81 +/-@8935 +/-@2404 +/-@131 +/-@5088", NULL },
	{ "1.98,2.00a,th,1,1796023477,16M,,8192,5,617,96,+++++,+++,+++++,+++,660,96,+++++,+++,+++++,+++,,,,,,,,,,,,,,,,,,25369us,102us,105us,29160us,236us,12063us,,,,,,",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "th",
	  "size=16 chunk=- seeks=8192 procs=5 pchar=- files=- max=- min=- dirs=- fchunk=- conc=1 seed=1796023477",
	  "617/96@25369 +/-@102 +/-@105 660/96@29160 +/-@236 +/-@12063 ./- ./- ./- ./- ./- ./-", NULL },
	{ "1.98,2.00a,th,1,1796024226,16M,,8192,5,,,+++++,+++,+++++,+++,,,+++++,+++,+++++,+++,,,,,,,,,,,,,,,,,,,127us,96us,,219us,13931us,,,,,,",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "th",
	  "size=16 chunk=- seeks=8192 procs=5 pchar=- files=- max=- min=- dirs=- fchunk=- conc=1 seed=1796024226",
	  "./- +/-@127 +/-@96 ./- +/-@219 +/-@13931 ./- ./- ./- ./- ./- ./-", NULL },
	{ "1.98,2.00a,th,1,1796023859,16M,,1000,2,,,+++++,+++,+++++,+++,,,+++++,+++,+++++,+++,,,,,,,,,,,,,,,,,,,1575us,165us,,92us,1614us,,,,,,",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "th",
	  "size=16 chunk=- seeks=1000 procs=2 pchar=- files=- max=- min=- dirs=- fchunk=- conc=1 seed=1796023859",
	  "./- +/-@1575 +/-@165 ./- +/-@92 +/-@1614 ./- ./- ./- ./- ./- ./-", NULL },
	{ "1.98,2.00a,th,1,1796026986,,,,,,,,,,,,,,,,,64,,,,,52065,99,+++++,+++,77779,86,7836,99,+++++,+++,97732,86,,,,,,,516us,263us,4473us,1763us,103us,1867us",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "th",
	  "size=- chunk=- seeks=- procs=- pchar=- files=64 max=- min=- dirs=- fchunk=- conc=1 seed=1796026986",
	  E_S0_RES "52065/99@516 +/-@263 77779/86@4473 7836/99@1763 +/-@103 97732/86@1867", NULL },
	{ "1.98,2.00a,ANDREW-PC,1,1731168315,63G,,8192,5,540,99,745124,100,980550,91,2205,99,1203968,58,+++++,+++,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,16366us,5650us,12027us,4465us,1806us,478us,586us,404us,3818us,3324us,837us,3156us",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "ANDREW-PC",
	  "size=64512 chunk=- seeks=8192 procs=5 pchar=- files=16 max=- min=- dirs=- fchunk=- conc=1 seed=1731168315",
	  "540/99@16366 745124/100@5650 980550/91@12027 2205/99@4465 1203968/58@1806 +/-@478 "
	  "+/-@586 +/-@404 +/-@3818 +/-@3324 +/-@837 +/-@3156", NULL },
	{ "1.98,2.00a,ANDREW-PC,1,1731170067,63G,,8192,5,6,6,51776,6,22717,6,6,7,40308,4,8475,109,16,,,,,793,6,1765,7,1574,7,827,6,1945,8,1416,6,1445ms,17524us,9356us,1284ms,5950us,408ms,15088us,15053us,18784us,11317us,3377us,12653us",
	  NULL, BS_FMT_CSV_1_98, "2.00a", "ANDREW-PC",
	  "size=64512 chunk=- seeks=8192 procs=5 pchar=- files=16 max=- min=- dirs=- fchunk=- conc=1 seed=1731170067",
	  "6/6@1445000 51776/6@17524 22717/6@9356 6/7@1284000 40308/4@5950 8475/109@408000 "
	  "793/6@15088 1765/7@15053 1574/7@18784 827/6@11317 1945/8@3377 1416/6@12653", NULL },
	/* Empty machine name, a -Z file name as the seed, seconds. */
	{ "1.98,2.00,,3,/tmp/rand.bin,1T,,8192,5,540,99,745124,100,980550,91,2205,99,1203968,58,575.5,12,16,,,,,1,2,3,4,5,6,7,8,9,10,11,12,101s,5650us,12027us,4465us,1806us,478us,586us,404us,3818us,3324us,837us,2s",
	  NULL, BS_FMT_CSV_1_98, "2.00", "",
	  "size=1048576 chunk=- seeks=8192 procs=5 pchar=- files=16 max=- min=- dirs=- fchunk=- conc=3 seed=/tmp/rand.bin",
	  "540/99@101000000 745124/100@5650 980550/91@12027 2205/99@4465 1203968/58@1806 575.5/12@478 "
	  "1/2@586 3/4@404 5/6@3818 7/8@3324 9/10@837 11/12@2000000", NULL },

	/* docs/input-formats.md section 1.3, Family B betas, laid out as the 1.90-1.92a
	 * sources print them: 45, 46 and 47 fields. */
	{ "2,1.90b,oldbox,1G,,1234,95,45678,30,23456,15,2345,96,56789,20,123.4,2,16,,,,2345,90,+++++,+++,3456,88,2222,91,+++++,+++,3333,89,12ms,45ms,300ms,9ms,20ms,150ms,800us,30us,900us,700us,25us,850us",
	  NULL, BS_FMT_CSV_BETA, "1.90b", "oldbox",
	  "size=1024 chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=- seed=-",
	  "1234/95@12000 45678/30@45000 23456/15@300000 2345/96@9000 56789/20@20000 123.4/2@150000 "
	  "2345/90@800 +/-@30 3456/88@900 2222/91@700 +/-@25 3333/89@850",
	  "bonnie++ 1.90b beta CSV layout stored best-effort" },
	{ "1.91a,1.91c,betabox,2G,4k,1234,95,45678,30,23456,15,2345,96,56789,20,123.4,2,16,100000,16,,64,2345,90,+++++,+++,3456,88,2222,91,+++++,+++,3333,89,12ms,45ms,300ms,9ms,20ms,150ms,800us,30us,900us,700us,25us,850us",
	  NULL, BS_FMT_CSV_BETA, "1.91c", "betabox",
	  "size=2048 chunk=4096 seeks=- procs=- pchar=- files=16 max=100000 min=16 dirs=64 fchunk=- conc=- seed=-",
	  "1234/95@12000 45678/30@45000 23456/15@300000 2345/96@9000 56789/20@20000 123.4/2@150000 "
	  "2345/90@800 +/-@30 3456/88@900 2222/91@700 +/-@25 3333/89@850",
	  "bonnie++ 1.91c beta CSV layout stored best-effort" },
	{ "1.92a,1.92a,box,1714000000,2G,,1234,95,45678,30,23456,15,2345,96,56789,20,123.4,2,16,link,,,,2345,90,+++++,+++,3456,88,2222,91,+++++,+++,3333,89,12ms,45ms,300ms,9ms,20ms,150ms,800us,30us,900us,700us,25us,850us",
	  NULL, BS_FMT_CSV_BETA, "1.92a", "box",
	  "size=2048 chunk=8192 seeks=- procs=- pchar=- files=16 max=link min=- dirs=- fchunk=- conc=- seed=1714000000",
	  "1234/95@12000 45678/30@45000 23456/15@300000 2345/96@9000 56789/20@20000 123.4/2@150000 "
	  "2345/90@800 +/-@30 3456/88@900 2222/91@700 +/-@25 3333/89@850",
	  "bonnie++ 1.92a beta CSV layout stored best-effort" },
	/* 1.92 prints its own version in field 0, with the 1.91c layout. */
	{ "1.92,1.92,box,2G,,1234,95,45678,30,23456,15,2345,96,56789,20,123.4,2,16,,,,,2345,90,+++++,+++,3456,88,2222,91,+++++,+++,3333,89,12ms,45ms,300ms,9ms,20ms,150ms,800us,30us,900us,700us,25us,850us",
	  NULL, BS_FMT_CSV_BETA, "1.92", "box",
	  "size=2048 chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=- seed=-",
	  "1234/95@12000 45678/30@45000 23456/15@300000 2345/96@9000 56789/20@20000 123.4/2@150000 "
	  "2345/90@800 +/-@30 3456/88@900 2222/91@700 +/-@25 3333/89@850",
	  "bonnie++ 1.92 beta CSV layout stored best-effort" },
	/* A beta -s 0 line keeps the literal "2" in field 0. */
	{ "2,1.92,box,,,,,,,,,,,,,,,16,,,,,2345,90,+++++,+++,3456,88,2222,91,+++++,+++,3333,89,,,,,,,800us,30us,900us,700us,25us,850us",
	  NULL, BS_FMT_CSV_BETA, "1.92", "box",
	  "size=- chunk=- seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=- seed=-",
	  "./- ./- ./- ./- ./- ./- 2345/90@800 +/-@30 3456/88@900 2222/91@700 +/-@25 3333/89@850",
	  "bonnie++ 1.92 beta CSV layout stored best-effort" },
};
/* clang-format on */

static void test_parse_ok(void **state)
{
	struct bs_buf b = BS_BUF_INIT;
	struct bs_run r;
	struct bs_err err = BS_ERR_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ok_cases); i++) {
		const struct ok_case *c = &ok_cases[i];
		int rc;

		bs_run_init(&r);
		bs_err_reset(&err);
		rc = bs_ingest_parse_line(c->line, strlen(c->line), c->hint, &r,
					  &err);
		if (rc != 1)
			fail_msg("case %zu: rc %d (%s): %s", i, rc, err.msg,
				 c->line);
		assert_string_equal(r.tool, "bonnie++");
		assert_string_equal(r.format, c->format);
		assert_string_equal(r.tool_version, c->version);
		assert_string_equal(r.machine, c->machine);
		/* The parser leaves provenance to the driver. */
		assert_null(r.raw);
		assert_null(r.source);
		assert_string_equal(r.sha256, "");
		bs_buf_reset(&b);
		dump_params(&b, &r);
		if (strcmp(bs_buf_str(&b), c->params) != 0)
			fail_msg("case %zu params:\n got  %s\n want %s", i,
				 bs_buf_str(&b), c->params);
		bs_buf_reset(&b);
		dump_results(&b, &r);
		if (strcmp(bs_buf_str(&b), c->results) != 0)
			fail_msg("case %zu results:\n got  %s\n want %s", i,
				 bs_buf_str(&b), c->results);
		if (c->warning)
			assert_string_equal(r.warning, c->warning);
		else
			assert_null(r.warning);
		bs_run_release(&r);
	}
	bs_buf_release(&b);
}

/* ---- rejects ----------------------------------------------------------- */

/* clang-format off */
/* 2.00a, [WEB] WSL blog post: every cell filled. */
#define L98 "1.98,2.00a,ANDREW-PC,1,1731170067,63G,,8192,5,6,6,51776,6,22717,6,6,7,40308,4,8475,109,16,,,,,793,6,1765,7,1574,7,827,6,1945,8,1416,6,1445ms,17524us,9356us,1284ms,5950us,408ms,15088us,15053us,18784us,11317us,3377us,12653us"
#define L97 "1.97,1.97,nfs-worker1,1,1545782353,2G,,1113,97,78993,7,75546,11,2102,92,271440,13,6863,53,16,,,,,407,7,+++++,+++,1328,12,526,6,+++++,+++,1704,13,21103us,801ms,1565ms,19930us,21978us,9956us,65891us,18799us,81134us,31558us,3596us,10771us"
#define L93 "1.93c,1.93c,AcharyaX,1,1125982584,800M,,496,87,34925,12,37639,16,868,99,566685,98,3144,39,16,,,,,100,99,199,99,1480,98,148,99,201,99,349,99,753ms,380ms,9518us,18260us,8728us,95532us,39390us,19146us,10730us,22799us,18930us,16815us"
#define L10X A3_HEAD "16," A3_FILES
#define LB2 "1.91a,1.91c,betabox,2G,4k,1234,95,45678,30,23456,15,2345,96,56789,20,123.4,2,16,100000,16,,64,2345,90,+++++,+++,3456,88,2222,91,+++++,+++,3333,89,12ms,45ms,300ms,9ms,20ms,150ms,800us,30us,900us,700us,25us,850us"
#define LB1 "2,1.90b,oldbox,1G,,1234,95,45678,30,23456,15,2345,96,56789,20,123.4,2,16,,,,2345,90,+++++,+++,3456,88,2222,91,+++++,+++,3333,89,12ms,45ms,300ms,9ms,20ms,150ms,800us,30us,900us,700us,25us,850us"
#define X100 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
/* clang-format on */

/*
 * A real line with field idx (0-based) replaced by repl; idx -1 keeps the
 * line, keep > 0 keeps only the first keep fields, and append adds text.
 */
struct rej_case {
	const char *base;
	int idx;
	const char *repl;
	int keep;
	const char *append;
	const char *reason;
};

/* clang-format off */
static const struct rej_case rej_cases[] = {
	{ L98, 11, "12x4", 0, NULL, "field 12 (put_block): '12x4' is not a number" },
	{ L98, 39, "123", 0, NULL, "field 40 (put_block_latency): '123' has no unit (us, ms or s)" },
	{ L98, 39, "1.5", 0, NULL, "field 40 (put_block_latency): '1.5' has no unit (us, ms or s)" },
	{ L98, 9, "-5", 0, NULL, "field 10 (putc): '-5' is negative" },
	{ L98, 10, "abc", 0, NULL, "field 11 (putc_cpu): 'abc' is not a number" },
	{ L98, 10, "-1", 0, NULL, "field 11 (putc_cpu): '-1' is negative" },
	{ L98, 44, "fast", 0, NULL, "field 45 (seq_create_latency): 'fast' is not a latency" },
	{ L98, 44, "-3ms", 0, NULL, "field 45 (seq_create_latency): '-3ms' is negative" },
	{ L98, 44, "ms", 0, NULL, "field 45 (seq_create_latency): 'ms' is not a latency" },
	{ L98, 44, "5ns", 0, NULL, "field 45 (seq_create_latency): '5ns' is not a latency" },
	{ L98, 44, "+++++", 0, NULL, "field 45 (seq_create_latency): '+++++' is not a latency" },
	{ L98, 5, "2X", 0, NULL, "field 6 (file_size): '2X' is not a size" },
	{ L98, 5, "2G:64k", 0, NULL, "field 6 (file_size): '2G:64k' is not a size" },
	{ L98, 6, "4q", 0, NULL, "field 7 (io_chunk_size): '4q' is not a size" },
	{ L98, 3, "-1", 0, NULL, "field 4 (concurrency): '-1' is negative" },
	{ L98, 3, "one", 0, NULL, "field 4 (concurrency): 'one' is not a number" },
	{ L98, 7, "lots", 0, NULL, "field 8 (seek_count): 'lots' is not a number" },
	{ L98, 8, "x", 0, NULL, "field 9 (seek_proc_count): 'x' is not a number" },
	{ L98, 19, "1.2.3", 0, NULL, "field 20 (seeks): '1.2.3' is not a number" },
	{ L98, 19, "1e999", 0, NULL, "field 20 (seeks): '1e999' is not a number" },
	{ L98, 21, "x", 0, NULL, "field 22 (num_files): 'x' is not a number" },
	{ L98, 22, "big", 0, NULL, "field 23 (max_size): 'big' is not a size" },
	{ L98, 23, "tiny", 0, NULL, "field 24 (min_size): 'tiny' is not a size" },
	{ L98, 24, "x", 0, NULL, "field 25 (file_chunk_size): 'x' is not a size" },
	{ L98, 25, "many", 0, NULL, "field 26 (num_dirs): 'many' is not a number" },
	{ L98, 1, "two", 0, NULL, "field 2 (bonnie_version): 'two' is not a version" },
	/* User data in reasons: cut to 40 bytes, control characters as '?'. */
	{ L98, 20, X100, 0, NULL, "field 21 (seeks_cpu): 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' is not a number" },
	{ L98, 11, "1\t2\033", 0, NULL, "field 12 (put_block): '1?2?' is not a number" },
	/* Beyond any disk or machine: the limits of the metric catalogue
	 * and the parameter table (docs/formats.md "Limits"). */
	{ L98, 11, "1e308", 0, NULL, "field 12 (put_block): '1e308' is beyond any disk (at most 1000000000 KiB/s)" },
	{ L98, 10, "1000001", 0, NULL, "field 11 (putc_cpu): '1000001' is beyond any machine (at most 1000000 %)" },
	{ L98, 19, "1000000000.5", 0, NULL, "field 20 (seeks): '1000000000.5' is beyond any disk (at most 1000000000 seeks/s)" },
	{ L98, 26, "1e10", 0, NULL, "field 27 (seq_create): '1e10' is beyond any disk (at most 1000000000 files/s)" },
	{ L98, 44, "1000001s", 0, NULL, "field 45 (seq_create_latency): '1000001s' is beyond any disk (at most 1000000000000 us)" },
	{ L98, 5, "1048577T", 0, NULL, "field 6 (file_size): '1048577T' is beyond any disk (at most 1099511627776 MiB)" },
	{ L98, 6, "2g", 0, NULL, "field 7 (io_chunk_size): '2g' is beyond any disk (at most 1073741824 bytes)" },
	{ L98, 3, "1048577", 0, NULL, "field 4 (concurrency): '1048577' is beyond any machine (at most 1048576)" },
	{ L98, 7, "1099511627777", 0, NULL, "field 8 (seek_count): '1099511627777' is beyond any machine (at most 1099511627776)" },
	{ L98, 8, "1048577", 0, NULL, "field 9 (seek_proc_count): '1048577' is beyond any machine (at most 1048576)" },
	{ L98, 21, "1073741825", 0, NULL, "field 22 (num_files): '1073741825' is beyond any machine (at most 1073741824)" },
	{ L98, 22, "2000000000000000000", 0, NULL, "field 23 (max_size): '2000000000000000000' is beyond any disk (at most 1152921504606846976 bytes)" },
	{ L98, 23, "1125899906842625k", 0, NULL, "field 24 (min_size): '1125899906842625k' is beyond any disk (at most 1152921504606846976 bytes)" },
	{ L98, 24, "2g", 0, NULL, "field 25 (file_chunk_size): '2g' is beyond any disk (at most 1073741824 bytes)" },
	{ L98, 25, "1099511627777", 0, NULL, "field 26 (num_dirs): '1099511627777' is beyond any machine (at most 1099511627776)" },
	{ L97, 1, "bstore-0.1.0", 0, NULL, "field 2 (bonnie_version): 'bstore-0.1.0' is not a version" },
	{ L97, 36, "21103", 0, NULL, "field 37 (putc_latency): '21103' has no unit (us, ms or s)" },
	{ L93, 18, "39%", 0, NULL, "field 19 (seeks_cpu): '39%' is not a number" },
	/* 1.0x. */
	{ L10X, 1, "8Q", 0, NULL, "field 2 (file_size): '8Q' is not a size" },
	{ L10X, 1, "2G:", 0, NULL, "field 2 (file_size): '2G:' is not a size" },
	{ L10X, 12, "fast", 0, NULL, "field 13 (seeks): 'fast' is not a number" },
	{ L10X, 14, "16:x", 0, NULL, "field 15 (num_files): '16:x' is not a files spec (num[:max:min][/dirs])" },
	{ L10X, 14, "16/", 0, NULL, "field 15 (num_files): '16/' is not a files spec (num[:max:min][/dirs])" },
	{ L10X, 14, "16:1:2:3", 0, NULL, "field 15 (num_files): '16:1:2:3' is not a files spec (num[:max:min][/dirs])" },
	{ L10X, 14, "16:link:0", 0, NULL, "field 15 (num_files): '16:link:0' is not a files spec (num[:max:min][/dirs])" },
	{ L10X, 16, "93%", 0, NULL, "field 17 (seq_create_cpu): '93%' is not a number" },
	{ L10X, 4, "1e10", 0, NULL, "field 5 (put_block): '1e10' is beyond any disk (at most 1000000000 KiB/s)" },
	{ L10X, 1, "1048577T", 0, NULL, "field 2 (file_size): '1048577T' is beyond any disk (at most 1099511627776 MiB)" },
	{ L10X, 1, "2G:2g", 0, NULL, "field 2 (file_size): '2G:2g' is beyond any disk (at most 1073741824 bytes)" },
	{ L10X, 14, "1073741825", 0, NULL, "field 15 (num_files): '1073741825' is beyond any machine (at most 1073741824)" },
	{ L10X, 14, "16:2000000000000000000:0", 0, NULL, "field 15 (num_files): '16:2000000000000000000:0' is beyond any disk (at most 1152921504606846976 bytes)" },
	{ L10X, 14, "16:0:0/1099511627777", 0, NULL, "field 15 (num_files): '16:0:0/1099511627777' is beyond any machine (at most 1099511627776)" },
	/* Field counts. */
	{ "1.98,2.00a,box", -1, NULL, 0, NULL, "expected 50 fields for bonnie++ 1.98 CSV, found 3" },
	{ L98, -1, NULL, 31, NULL, "expected 50 fields for bonnie++ 1.98 CSV, found 31" },
	{ L98, 2, "my,box", 0, NULL, "expected 50 fields for bonnie++ 1.98 CSV, found 51" },
	{ L97, -1, NULL, 0, ",", "expected 48 fields for bonnie++ 1.97 CSV, found 49" },
	{ L97, -1, NULL, 47, NULL, "expected 48 fields for bonnie++ 1.97 CSV, found 47" },
	{ L93, -1, NULL, 47, NULL, "expected 48 fields for bonnie++ 1.93c CSV, found 47 with I/O results" },
	{ L93, -1, NULL, 40, NULL, "expected 48 fields for bonnie++ 1.93c CSV, found 40" },
	{ L10X, -1, NULL, 26, NULL, "expected 27 fields for bonnie++ 1.0x CSV, found 26" },
	{ L10X, -1, NULL, 0, ",1,2,3,4", "expected 27 fields for bonnie++ 1.0x CSV, found 31" },
	{ "server_name,16G,,,58408,72,32513,58,,,100124,72,537.1,12,,,,,,,,,,,,", -1, NULL, 0, NULL,
	  "expected 27 fields for bonnie++ 1.0x CSV, found 26" },
	{ L10X, 0, "my,box", 0, NULL, "expected 27 fields for bonnie++ 1.0x CSV, found 28" },
	{ "1.99,2.01,box,1,2,3", -1, NULL, 0, NULL, "unsupported bonnie++ CSV format version '1.99'" },
	{ "2.01,2.01,box,1,2,3,4,5,6,7", -1, NULL, 0, NULL, "unsupported bonnie++ CSV format version '2.01'" },
	{ L98, 0, "1.97a", 0, NULL, "unsupported bonnie++ CSV format version '1.97a'" },
	/* Betas. */
	{ "2,1.90b,box", -1, NULL, 0, NULL, "expected 45 to 47 fields for bonnie++ 1.90b beta CSV, found 3" },
	{ LB1, 0, "1.91a", 0, NULL, "bonnie++ 1.90b beta CSV with 45 fields has no known layout" },
	{ LB2, 0, "1.92a", 0, NULL, "bonnie++ 1.91c beta CSV with 46 fields has no known layout" },
	{ LB2, 34, "123", 0, NULL, "bonnie++ 1.91c beta CSV layout not recognised: field 35 (putc_latency): '123' has no unit (us, ms or s)" },
	{ LB2, 7, "30%", 0, NULL, "bonnie++ 1.91c beta CSV layout not recognised: field 8 (put_block): '30%' is not a number" },
	{ LB2, 7, "1e10", 0, NULL, "bonnie++ 1.91c beta CSV layout not recognised: field 8 (put_block): '1e10' is beyond any disk (at most 1000000000 KiB/s)" },
};
/* clang-format on */

static char *build_line(const struct rej_case *c)
{
	struct bs_buf b = BS_BUF_INIT;
	const char *s = c->base;
	int i = 0;

	for (;;) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);

		if (c->keep > 0 && i == c->keep)
			break;
		if (i > 0)
			bs_buf_addc(&b, ',');
		if (i == c->idx)
			bs_buf_adds(&b, c->repl);
		else
			bs_buf_add(&b, s, n);
		i++;
		if (comma == NULL)
			break;
		s = comma + 1;
	}
	if (c->append)
		bs_buf_adds(&b, c->append);
	return bs_buf_detach(&b, NULL);
}

static void test_parse_reject(void **state)
{
	struct bs_run r;
	struct bs_err err = BS_ERR_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rej_cases); i++) {
		char *line = build_line(&rej_cases[i]);
		int rc;

		bs_run_init(&r);
		bs_err_reset(&err);
		rc = bs_ingest_parse_line(line, strlen(line), NULL, &r, &err);
		if (rc != -BS_EPARSE)
			fail_msg("case %zu: rc %d: %s", i, rc, line);
		if (strcmp(err.msg, rej_cases[i].reason) != 0)
			fail_msg("case %zu:\n got  %s\n want %s", i, err.msg,
				 rej_cases[i].reason);
		/* A rejected line leaves nothing behind in the run. */
		assert_null(r.tool);
		assert_null(r.machine);
		assert_null(r.params.seed);
		assert_true(r.params.file_size_mib == BS_NONE);
		bs_run_release(&r);
		free(line);
	}
}

/* Lines that are not results: ignored, never rejected. */
static void test_parse_text(void **state)
{
	/* clang-format off */
	static const char *const lines[] = {
		"", "   ", "\t", "\r",
		"# bonnie++ 1.03, ATA RAID10, 1G cache on",
		"#1.98,2.00a,th,1,1796023766,,,,,,,,,,,,,,,,,1,,,,,+++++,+++",
		"Using uid:0, gid:1.",
		"start 'em...done...done...done...",
		"Version  1.03       ------Sequential Output------ --Sequential Input- --Random-",
		"jump             8G 34299  97 84734  54 30960  53 33918  97 155474  74 575.0   7",
		"Here, we see output (WRITE output to file) speed is 51M/s, input (READ input from file) speed is 56 M/s. ",
		"1. Re-write speed, which is read, do change, write back and re-read (simulate database operation).  ",
		"17179869184 bytes (17 GB) copied, 318.901 s, 53.9 MB/s",
		"name,file_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu",
		"format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,put_block_latency,rewrite_latency,getc_latency,get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency",
		",,,,,,,,,,,,,,,,,,,,,,,,,,",
		"a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,A",
		"1.98, the best version so far",
		"2,3", "2,1.5", "2,3.14,foo", "1.5,2.25", "2.0,1.0,3.0",
		"1.5,2.25,3,4,5,6,7,8,9",
		"#block offset (GiB), MiB/s, time",
		"    reads/s:                      1413.38",
		/* fio 3.33's normal output: key=value cells, never a broken
		 * bonnie++ 1.0x line. */
		"     issued rwts: total=8192,0,0,0 short=0,0,0,0 dropped=0,0,0,0",
		"     issued rwts: total=1992,2104,0,0 short=0,0,0,0 dropped=0,0,0,0",
		"  lat (usec)   : 2=14.18%, 4=33.35%, 10=3.78%, 20=0.02%, 50=17.75%",
		"     | 70.00th=[   62], 80.00th=[   70], 90.00th=[   83], 95.00th=[   93],",
		"   READ: bw=49.9MiB/s (52.3MB/s), 49.9MiB/s-49.9MiB/s (52.3MB/s-52.3MB/s), io=7968KiB (8159kB), run=156-156msec",
	};
	/* clang-format on */
	struct bs_run r;
	struct bs_err err = BS_ERR_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		int rc;

		bs_run_init(&r);
		rc = bs_ingest_parse_line(lines[i], strlen(lines[i]), NULL, &r,
					  &err);
		if (rc != 0)
			fail_msg("line %zu: rc %d: %s", i, rc, lines[i]);
		assert_null(r.tool);
		bs_run_release(&r);
	}
}

/*
 * `bstore run` prints 1.98 lines with "bstore-<version>" as the bonnie++
 * version (this one is its output, from test_bench_ingest): they read
 * back as tool "bstore".
 */
static void test_parse_own_line(void **state)
{
	/* clang-format off */
	static const char line[] =
		"1.98,bstore-0.1.0,ingest-me,1,7,4M,,1000,5,,,+++++,+++,+++++,+++,,,+++++,+++,+++++,+++,1,300,20,,2,1412,44,+++++,+++,1869,6,1672,41,+++++,+++,1135,4,,49us,1442us,,62us,61us,16326us,18400us,9267us,16231us,8081us,20210us";
	/* clang-format on */
	struct bs_buf b = BS_BUF_INIT;
	struct bs_run r;
	struct bs_err err = BS_ERR_INIT;

	(void)state;
	bs_run_init(&r);
	assert_int_equal(bs_ingest_parse_line(line, strlen(line), NULL, &r,
					      &err),
			 1);
	assert_string_equal(r.tool, "bstore");
	assert_string_equal(r.tool_version, "0.1.0");
	assert_string_equal(r.format, BS_FMT_CSV_1_98);
	assert_string_equal(r.machine, "ingest-me");
	dump_params(&b, &r);
	assert_string_equal(bs_buf_str(&b),
			    "size=4 chunk=- seeks=1000 procs=5 pchar=- files=1 "
			    "max=300 min=20 dirs=2 fchunk=- conc=1 seed=7");
	bs_buf_reset(&b);
	dump_results(&b, &r);
	assert_string_equal(bs_buf_str(&b),
			    "./- +/-@49 +/-@1442 ./- +/-@62 +/-@61 "
			    "1412/44@16326 +/-@18400 1869/6@9267 "
			    "1672/41@16231 +/-@8081 1135/4@20210");
	bs_run_release(&r);

	/* Only in a 1.98 line, and only with a version after the dash. */
	bs_run_init(&r);
	assert_int_equal(bs_ingest_parse_line("1.98,bstore-x,a", 15, NULL, &r,
					      &err),
			 0);
	bs_run_release(&r);
	bs_buf_release(&b);
}

/* A reason is cut to the error's buffer, never overrun; err may be NULL. */
static void test_parse_small_reason(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_run r;

	(void)state;
	bs_run_init(&r);
	assert_int_equal(bs_ingest_parse_line("1.98,2.00a,box", 14, NULL, &r,
					      &err),
			 -BS_EPARSE);
	assert_int_equal(err.code, BS_EPARSE);
	assert_string_equal(err.msg,
			    "expected 50 fields for bonnie++ 1.98 CSV, found 3");
	assert_int_equal(bs_ingest_parse_line("1.98,2.00a,box", 14, NULL, &r,
					      NULL),
			 -BS_EPARSE);
	bs_run_release(&r);
}

/* ---- the streaming driver ---------------------------------------------- */

struct coll {
	struct bs_buf log;
	const char *source;
	int stop_at;         /* stop with -BS_EDB at this run (1-based) */
	struct bs_err *fill; /* ... after filling this error, if set */
	int nruns;
	int quick; /* hash events into h instead of logging */
	uint64_t h;
};

/*
 * FNV-1a over everything the text log shows: feeding an input at every
 * chunk size is quadratic, and printf would dominate the test's time.
 */
static void h_bytes(struct coll *c, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		c->h = (c->h ^ b[i]) * 1099511628211ULL;
}

static void h_str(struct coll *c, const char *s)
{
	h_bytes(c, s ? s : "(null)", strlen(s ? s : "(null)") + 1);
}

static void h_i64(struct coll *c, int64_t v)
{
	h_bytes(c, &v, sizeof(v));
}

static void h_dbl(struct coll *c, double v)
{
	if (isnan(v))
		v = NAN;
	h_bytes(c, &v, sizeof(v));
}

static void hash_run(struct coll *c, const struct bs_run *r)
{
	const struct bs_params *p = &r->params;
	int m;

	h_i64(c, r->source_line);
	h_str(c, r->tool);
	h_str(c, r->format);
	h_str(c, r->tool_version);
	h_str(c, r->machine);
	h_str(c, r->raw);
	h_str(c, r->sha256);
	h_str(c, r->warning);
	h_str(c, p->seed);
	h_i64(c, p->file_size_mib);
	h_i64(c, p->io_chunk_bytes);
	h_i64(c, p->seeks);
	h_i64(c, p->seek_procs);
	h_i64(c, p->per_char_mib);
	h_i64(c, p->num_files);
	h_i64(c, p->max_size);
	h_i64(c, p->min_size);
	h_i64(c, p->num_dirs);
	h_i64(c, p->file_chunk_bytes);
	h_i64(c, p->concurrency);
	for (m = 0; m < BS_M_BONNIE; m++) {
		h_i64(c, r->res[m].status);
		h_dbl(c, r->res[m].value);
		h_dbl(c, r->res[m].cpu_pct);
		h_dbl(c, r->res[m].lat_us);
	}
}

static int coll_run(struct bs_run *r, void *ctx)
{
	struct coll *c = ctx;
	char sha[BS_SHA256_HEX];

	if (c->quick) {
		hash_run(c, r);
		return ++c->nruns == c->stop_at ? -BS_EDB : 0;
	}
	assert_non_null(r->raw);
	assert_null(strchr(r->raw, '\n'));
	bs_sha256_hex(r->raw, strlen(r->raw), sha);
	assert_string_equal(r->sha256, sha);
	assert_string_equal(r->source, c->source);
	assert_string_equal(r->parser_version, BS_PARSER_VERSION);
	assert_true(r->source_line >= 1);
	dump_run(&c->log, r);
	bs_buf_addf(&c->log, "  raw %zu %.16s\n", strlen(r->raw), r->sha256);
	/* The callee may tag the run it is given. */
	bs_run_tag(r, "raid", "10");
	if (++c->nruns == c->stop_at) {
		if (c->fill)
			bs_error(c->fill, BS_EDB, "database is locked");
		return -BS_EDB;
	}
	return 0;
}

static int coll_reject(int64_t line, const char *raw, size_t len, int truncated,
		       const char *reason, void *ctx)
{
	struct coll *c = ctx;
	char sha[BS_SHA256_HEX];

	assert_true(len <= BS_REJECT_KEEP);
	if (c->quick) {
		h_i64(c, line);
		h_bytes(c, raw, len);
		h_i64(c, (int64_t)len);
		h_i64(c, truncated);
		h_str(c, reason);
		return 0;
	}
	bs_sha256_hex(raw, len, sha);
	bs_buf_addf(&c->log, "reject L%" PRId64 " len=%zu trunc=%d %.16s %s\n",
		    line, len, truncated, sha, reason);
	return 0;
}

static void coll_warn(int64_t line, const char *msg, void *ctx)
{
	struct coll *c = ctx;

	if (c->quick) {
		h_i64(c, line);
		h_str(c, msg);
		return;
	}
	bs_buf_addf(&c->log, "warn L%" PRId64 " %s\n", line, msg);
}

/*
 * Feeds src in chunks of chunk bytes (0: one feed) and logs every event,
 * the stats and the error, if any. Returns the feed/finish result.
 */
static int run_input(const char *src, size_t len, size_t chunk, struct coll *c)
{
	struct bs_ingest_cb cb = {coll_run, coll_reject, coll_warn, c};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest_stats st;
	struct bs_ingest *p;
	size_t off = 0;
	int rc = 0;

	if (c->source == NULL)
		c->source = "t.csv";
	c->nruns = 0;
	p = bs_ingest_new(c->source, &cb, NULL);
	if (chunk == 0)
		chunk = len;
	while (rc == 0 && off < len) {
		size_t n = len - off < chunk ? len - off : chunk;

		rc = bs_ingest_feed(p, src + off, n, &err);
		off += n;
	}
	if (rc == 0)
		rc = bs_ingest_finish(p, &err);
	bs_ingest_stats(p, &st);
	if (c->quick) {
		h_bytes(c, &st, sizeof(st));
		h_i64(c, rc);
		h_str(c, err.msg);
	}
	bs_buf_addf(&c->log,
		    "stats lines=%" PRId64 " runs=%" PRId64 " rejects=%" PRId64
		    " skipped=%" PRId64 "\n",
		    st.lines, st.runs, st.rejects, st.skipped);
	if (rc < 0)
		bs_buf_addf(&c->log, "error %d %s\n", rc, err.msg);
	else if (st.blocked == 0)
		assert_true(st.lines == st.runs + st.rejects + st.skipped);
	else
		assert_true(st.skipped + st.blocked <= st.lines);
	bs_ingest_free(p);
	return rc;
}

/* The log of src fed in chunks (0: whole); caller frees. */
static char *log_of(const char *src, size_t len, size_t chunk)
{
	struct coll c = {BS_BUF_INIT, "t.csv", 0, NULL, 0, 0, 0};

	run_input(src, len, chunk, &c);
	return bs_buf_detach(&c.log, NULL);
}

/* The same events as a hash: cheap enough for every chunk size. */
static uint64_t digest_of(const char *src, size_t len, size_t chunk)
{
	struct coll c =
		{BS_BUF_INIT, "t.csv", 0, NULL, 0, 1, 14695981039346656037ULL};

	run_input(src, len, chunk, &c);
	bs_buf_release(&c.log);
	return c.h;
}

/*
 * Every chunk size from 1 byte to the whole input gives the same events
 * as one feed of the whole input (whose log the caller checks).
 */
static void check_chunks(const char *src, size_t len, size_t every_to,
			 size_t stride)
{
	uint64_t want = digest_of(src, len, 0);
	size_t k;

	for (k = 1; k <= len; k += k < every_to ? 1 : stride)
		if (digest_of(src, len, k) != want)
			fail_msg("chunk size %zu gives other results than one "
				 "feed:\n%s",
				 k, log_of(src, len, k));
}

static void check_all_chunks(const char *src, size_t len)
{
	check_chunks(src, len, len, 1);
}

static char *read_sample(const char *name, size_t *len)
{
	const char *dir = getenv("SAMPLES");
	char path[1024];
	struct bs_buf b = BS_BUF_INIT;
	char tmp[4096];
	FILE *f;
	size_t n;

	if (dir == NULL)
		dir = "samples";
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		bs_buf_add(&b, tmp, n);
	fclose(f);
	return bs_buf_detach(&b, len);
}

struct want_run {
	int64_t line;
	const char *version;
	const char *machine;
	const char *params;
	const char *results;
	const char *raw;
	const char *before; /* warnings the log holds before the run */
};

struct sample_case {
	const char *file;
	const char *format;
	int64_t lines, skipped;
	struct want_run runs[6];
};

/* clang-format off */
#define P103(size) "size=" size " chunk=8192 seeks=- procs=- pchar=- files=16 max=- min=- dirs=- fchunk=- conc=- seed=-"
#define P103N0(size) "size=" size " chunk=8192 seeks=- procs=- pchar=- files=- max=- min=- dirs=- fchunk=- conc=- seed=-"
#define NO_FILES " ./- ./- ./- ./- ./- ./-"
#define DD_LOOP "dd summary under several different dd command lines: " \
	"not stored (which one is its own is unknown)"

static const struct sample_case samples[] = {
	{ "bonnie++-1.03-ata-raid10-cache.txt", BS_FMT_CSV_1_0X, 23, 14, {
	  { 23, "1.03", "jump", P103("8192"),
	    "34299/97 84734/54 30960/53 33918/97 155474/74 575/7 786/12 +/- 1525/13 783/11 +/- 1508/15",
	    "jump,8G,34299,97,84734,54,30960,53,33918,97,155474,74,575.0,7,16,786,12,+++++,+++,1525,13,783,11,+++++,+++,1508,15", NULL } } },
	{ "bonnie++-1.03-ata-raid10-nocache.txt", BS_FMT_CSV_1_0X, 23, 14, {
	  { 23, "1.03", "jump", P103("8192"),
	    "15587/44 16282/10 6433/10 33863/97 153921/73 538.8/6 99/1 +/- 161/1 91/1 +/- 180/1",
	    "jump,8G,15587,44,16282,10,6433,10,33863,97,153921,73,538.8,6,16,99,1,+++++,+++,161,1,91,1,+++++,+++,180,1", NULL } } },
	{ "bonnie++-1.03-emc-raid10-cache.txt", BS_FMT_CSV_1_0X, 23, 14, {
	  { 23, "1.03", "jump", P103("8192"),
	    "31447/90 73130/50 29123/50 33607/97 144470/71 493.5/6 786/13 +/- 1534/14 781/12 +/- 1527/15",
	    "jump,8G,31447,90,73130,50,29123,50,33607,97,144470,71,493.5,6,16,786,13,+++++,+++,1534,14,781,12,+++++,+++,1527,15", NULL } } },
	{ "bonnie++-1.03-emc-raid10-nocache.txt", BS_FMT_CSV_1_0X, 23, 14, {
	  { 23, "1.03", "jump", P103("8192"),
	    "12647/36 13414/8 7952/13 33636/97 146503/71 465.7/5 86/1 +/- 161/1 81/1 +/- 163/1",
	    "jump,8G,12647,36,13414,8,7952,13,33636,97,146503,71,465.7,5,16,86,1,+++++,+++,161,1,81,1,+++++,+++,163,1", NULL } } },
	{ "bonnie++-1.03-emc-raid5-cache.txt", BS_FMT_CSV_1_0X, 23, 14, {
	  { 23, "1.03", "jump", P103("8192"),
	    "34620/98 103440/65 35756/61 33900/97 160964/76 495.4/6 788/12 +/- 1503/14 783/11 +/- 1520/15",
	    "jump,8G,34620,98,103440,65,35756,61,33900,97,160964,76,495.4,6,16,788,12,+++++,+++,1503,14,783,11,+++++,+++,1520,15", NULL } } },
	{ "bonnie++-1.03-emc-raid5-nocache.txt", BS_FMT_CSV_1_0X, 23, 14, {
	  { 23, "1.03", "jump", P103("8192"),
	    "10956/30 10771/6 3388/5 34169/98 158861/75 431.1/5 81/1 +/- 160/1 82/1 +/- 109/1",
	    "jump,8G,10956,30,10771,6,3388,5,34169,98,158861,75,431.1,5,16,81,1,+++++,+++,160,1,82,1,+++++,+++,109,1", NULL } } },
	{ "bonnie++-1.03-t3-raid5.txt", BS_FMT_CSV_1_0X, 23, 14, {
	  { 23, "1.03", "billing", P103("4096"),
	    "9915/87 30319/56 11685/38 9999/99 47326/66 177.6/3 639/19 +/- 1258/22 679/16 +/- 1197/27",
	    "billing,4G,9915,87,30319,56,11685,38,9999,99,47326,66,177.6,3,16,639,19,+++++,+++,1258,22,679,16,+++++,+++,1197,27", NULL } } },
	{ "bonnie++-1.03d-pasted-blog.txt", BS_FMT_CSV_1_0X, 162, 116, {
	  { 29, "1.03d", "server_name", P103("16384"),
	    "./- 51181/55 23045/47 ./- 56212/46 294.1/4 145/7 +/- 162/6 162/6 +/- 152/6",
	    "server_name,16G,,,51181,55,23045,47,,,56212,46,294.1,4,16,145,7,+++++,+++,162,6,162,6,+++++,+++,152,6", NULL },
	  { 93, "1.03d", "server_name", P103N0("16384"),
	    "./- 58408/72 32513/58 ./- 100124/72 537.1/12" NO_FILES,
	    "server_name,16G,,,58408,72,32513,58,,,100124,72,537.1,12,,,,,,,,,,,,,",
	    /* dd's summaries under the shell loop of two dd commands. */
	    "warn L50 " DD_LOOP "\nwarn L54 " DD_LOOP "\n" },
	  { 108, "1.03d", "server_name", P103N0("16384"),
	    "./- 54601/65 31029/56 ./- 128065/92 606.3/7" NO_FILES,
	    "server_name,16G,,,54601,65,31029,56,,,128065,92,606.3,7,,,,,,,,,,,,,", NULL },
	  { 124, "1.03d", "server_name", P103N0("16384"),
	    "./- 51977/51 29662/62 ./- 73907/59 984.3/9" NO_FILES,
	    "server_name,16G,,,51977,51,29662,62,,,73907,59,984.3,9,,,,,,,,,,,,,", NULL },
	  { 141, "1.03d", "nfs_client", P103N0("16384"),
	    "./- 9436/25 5748/17 ./- 11288/18 322.9/19" NO_FILES,
	    "nfs_client,16G,,,9436,25,5748,17,,,11288,18,322.9,19,,,,,,,,,,,,,", NULL },
	  { 157, "1.03d", "iscsi_client", P103N0("2048"),
	    "./- 2896/5 2201/5 ./- 10731/13 116.3/3" NO_FILES,
	    "iscsi_client,2G,,,2896,5,2201,5,,,10731,13,116.3,3,,,,,,,,,,,,,", NULL } } },
	{ "bonnie++-2.00a-local-full.txt", BS_FMT_CSV_1_98, 24, 13, {
	  { 24, "2.00a", "labvm01",
	    "size=2048 chunk=- seeks=8192 procs=5 pchar=- files=16 max=- min=- dirs=- fchunk=- conc=1 seed=1796019217",
	    "545/94@61372 297601/69@8122 601561/52@16325 480/82@50917 1911048/69@22633 6398/31@16072 "
	    "+/-@32123 +/-@12290 +/-@8617 +/-@8111 +/-@4158 +/-@6056",
	    "1.98,2.00a,labvm01,1,1796019217,2G,,8192,5,545,94,297601,69,601561,52,480,82,1911048,69,6398,31,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,61372us,8122us,16325us,50917us,22633us,16072us,32123us,12290us,8617us,8111us,4158us,6056us", NULL } } },
};
/* clang-format on */

static void add_want_run(struct bs_buf *b, const struct want_run *w,
			 const char *format)
{
	char sha[BS_SHA256_HEX];

	bs_sha256_hex(w->raw, strlen(w->raw), sha);
	if (w->before)
		bs_buf_addf(b, "%s", w->before);
	bs_buf_addf(b, "run L%" PRId64 " %s %s [%s] %s | %s\n", w->line, format,
		    w->version, w->machine, w->params, w->results);
	bs_buf_addf(b, "  raw %zu %.16s\n", strlen(w->raw), sha);
}

static void test_samples(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(samples); i++) {
		const struct sample_case *s = &samples[i];
		struct bs_buf want = BS_BUF_INIT;
		int64_t nruns = 0;
		size_t len;
		char *src = read_sample(s->file, &len);
		char *got;

		for (j = 0; j < ARRAY_SIZE(s->runs) && s->runs[j].raw; j++) {
			add_want_run(&want, &s->runs[j], s->format);
			nruns++;
		}
		bs_buf_addf(&want,
			    "stats lines=%" PRId64 " runs=%" PRId64
			    " rejects=0 skipped=%" PRId64 "\n",
			    s->lines, nruns, s->skipped);
		got = log_of(src, len, 0);
		if (strcmp(got, bs_buf_str(&want)) != 0)
			fail_msg("%s:\n--- got\n%s--- want\n%s", s->file, got,
				 bs_buf_str(&want));
		check_all_chunks(src, len);
		free(got);
		free(src);
		bs_buf_release(&want);
	}
}

/* The log line(s) the collector writes for an ok_case on line no. */
static void add_want_case(struct bs_buf *b, const struct ok_case *c, int64_t no)
{
	char sha[BS_SHA256_HEX];

	bs_sha256_hex(c->line, strlen(c->line), sha);
	bs_buf_addf(b, "run L%" PRId64 " %s %s [%s] %s | %s", no, c->format,
		    c->version, c->machine, c->params, c->results);
	if (c->warning)
		bs_buf_addf(b, " ! %s", c->warning);
	bs_buf_addf(b, "\n  raw %zu %.16s\n", strlen(c->line), sha);
	if (c->warning)
		bs_buf_addf(b, "warn L%" PRId64 " %s\n", no, c->warning);
}

/*
 * Every example line at once, with CRLF, headers, comments and rejects;
 * the expected log is built from the tables above.
 */
static void test_mixed_stream(void **state)
{
	struct bs_buf in = BS_BUF_INIT, lf = BS_BUF_INIT, want = BS_BUF_INIT;
	const struct ok_case *last = NULL;
	int64_t no = 4, nruns = 0, nrej = 0;
	char sha[BS_SHA256_HEX];
	char *got;
	size_t i;

	(void)state;
	bs_buf_adds(&in, "format_version,bonnie_version,name,concurrency\r\n");
	bs_buf_adds(&in, "# a comment, with, commas\r\n\r\n   \r\n");
	for (i = 0; i < ARRAY_SIZE(ok_cases); i++) {
		const struct ok_case *c = &ok_cases[i];

		/* A hint needs a text table; a '\r' would not survive LF. */
		if (c->hint || strchr(c->line, '\r'))
			continue;
		bs_buf_adds(&in, c->line);
		bs_buf_adds(&in, "\r\n");
		add_want_case(&want, c, ++no);
		nruns++;
		if (strcmp(c->machine, "nfs-worker1") == 0)
			last = c;
	}
	for (i = 0; i < ARRAY_SIZE(rej_cases); i += 5) {
		char *line = build_line(&rej_cases[i]);
		size_t n = strlen(line);

		bs_buf_adds(&in, line);
		bs_buf_adds(&in, "\r\n");
		bs_sha256_hex(line, n, sha);
		bs_buf_addf(&want,
			    "reject L%" PRId64 " len=%zu trunc=0 %.16s %s\n",
			    ++no, n, sha, rej_cases[i].reason);
		nrej++;
		free(line);
	}
	/* The last line has no newline. */
	assert_non_null(last);
	bs_buf_adds(&in, last->line);
	add_want_case(&want, last, ++no);
	nruns++;
	bs_buf_addf(&want,
		    "stats lines=%" PRId64 " runs=%" PRId64 " rejects=%" PRId64
		    " skipped=4\n",
		    no, nruns, nrej);

	got = log_of(bs_buf_str(&in), in.len, 0);
	if (strcmp(got, bs_buf_str(&want)) != 0)
		fail_msg("--- got\n%s--- want\n%s", got, bs_buf_str(&want));
	free(got);
	/* The same bytes with LF line ends give the same runs and hashes. */
	for (i = 0; i < in.len; i++)
		if (!(in.data[i] == '\r' && in.data[i + 1] == '\n'))
			bs_buf_addc(&lf, in.data[i]);
	got = log_of(bs_buf_str(&lf), lf.len, 0);
	assert_string_equal(got, bs_buf_str(&want));
	free(got);
	/* Every split point of every line, then a sample of larger chunks:
	 * all sizes up to the whole 10 KiB would take too long. */
	check_chunks(bs_buf_str(&in), in.len, 1024, 61);
	bs_buf_release(&in);
	bs_buf_release(&lf);
	bs_buf_release(&want);
}

/* A text table's "Version" line names the version of the 1.0x CSV after. */
static void test_version_hint(void **state)
{
	/* clang-format off */
	static const char in[] =
		L10X "\n"
		"Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
		L10X "\n"
		L10X "\n"
		"Version 1.03e is what we ran, ------ nothing else\n"
		"Version 1.97 -- prose, not a table\n"
		L10X "\n"
		"Version  1.97       ------Sequential Output------ --Sequential Input- --Random-\n"
		L10X "\n"
		"Version 1.00c\t\t------Sequential Create------ --------Random Create--------\t\n"
		L10X "\n";
	/* clang-format on */
	char *log = log_of(in, sizeof(in) - 1, 0);

	(void)state;
	assert_non_null(strstr(log, "run L1 " BS_FMT_CSV_1_0X " 1.0x []"));
	assert_non_null(strstr(log, "run L3 " BS_FMT_CSV_1_0X " 1.03 []"));
	assert_non_null(strstr(log, "run L4 " BS_FMT_CSV_1_0X " 1.03 []"));
	assert_non_null(strstr(log, "run L7 " BS_FMT_CSV_1_0X " 1.03 []"));
	assert_non_null(strstr(log, "run L9 " BS_FMT_CSV_1_0X " 1.0x []"));
	assert_non_null(strstr(log, "run L11 " BS_FMT_CSV_1_0X " 1.00c []"));
	/* Lines 2, 8 and 10 open text tables (ingest/bonnie_table.c): not
	 * skipped but read into blocks. */
	assert_non_null(strstr(log, "stats lines=11 runs=6 rejects=0 "
				    "skipped=2\n"));
	check_all_chunks(in, sizeof(in) - 1);
	free(log);
}

static int date_run(struct bs_run *r, void *ctx)
{
	struct bs_buf *b = ctx;

	bs_buf_addf(b, "L%" PRId64 " %" PRId64 "\n", r->source_line,
		    r->measured_at);
	return 0;
}

/* A mail's Date: header dates the results below it, until the next. */
static void test_text_date(void **state)
{
	/* clang-format off */
	static const char in[] =
		L10X "\n"
		"From: admin@example.org\n"
		"> Date: Tue, 14 Mar 2006 10:22:01 +0100\n"
		"Subject: RAID5 numbers\n"
		L10X "\n"
		"Date: not a date\n"
		L10X "\n"
		"Date: Wed, 15 Mar 2006 09:22:01 +0000\n"
		L10X "\n";
	/* clang-format on */
	struct bs_buf log = BS_BUF_INIT;
	struct bs_ingest_cb cb = {date_run, NULL, NULL, &log};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest *p = bs_ingest_new("mail.txt", &cb, NULL);

	(void)state;
	assert_int_equal(bs_ingest_feed(p, in, sizeof(in) - 1, &err), 0);
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	assert_string_equal(bs_buf_str(&log), "L1 -9223372036854775808\n"
					      "L5 1142328121\n"
					      "L7 1142328121\n"
					      "L9 1142414521\n");
	bs_ingest_free(p);
	bs_buf_release(&log);
}

static void test_empty_input(void **state)
{
	struct coll c = {BS_BUF_INIT, "t.csv", 0, NULL, 0, 0, 0};
	struct bs_ingest_cb cb = {coll_run, coll_reject, NULL, &c};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest_stats st;
	struct bs_ingest *p;
	char *log;

	(void)state;
	log = log_of("", 0, 0);
	assert_string_equal(log, "stats lines=0 runs=0 rejects=0 skipped=0\n");
	free(log);

	p = bs_ingest_new("<stdin>", &cb, NULL);
	assert_int_equal(bs_ingest_feed(p, "", 0, &err), 0);
	assert_int_equal(bs_ingest_feed(p, "\n", 1, &err), 0);
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	bs_ingest_stats(p, &st);
	assert_true(st.lines == 1 && st.skipped == 1 && st.runs == 0);
	bs_ingest_free(p);
	bs_ingest_free(NULL);
	bs_buf_release(&c.log);
}

static void test_nul_byte(void **state)
{
	static const char in[] = L98 "\nsome text\nbin\0ary\n" L97 "\n";
	struct coll c = {BS_BUF_INIT, "t.csv", 0, NULL, 0, 0, 0};
	struct bs_ingest_cb cb = {coll_run, coll_reject, NULL, &c};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest *p;
	char *log;

	(void)state;
	log = log_of(in, sizeof(in) - 1, 0);
	assert_non_null(strstr(log, "run L1 "));
	assert_null(strstr(log, "run L4 "));
	assert_non_null(strstr(log, "stats lines=2 runs=1 rejects=0 "
				    "skipped=1\nerror -2 not a text file (NUL "
				    "byte at line 3)\n"));
	check_all_chunks(in, sizeof(in) - 1);
	free(log);

	/* The error sticks: later feeds and the finish repeat it. */
	p = bs_ingest_new("t.csv", &cb, NULL);
	assert_int_equal(bs_ingest_feed(p, in, sizeof(in) - 1, &err),
			 -BS_EPARSE);
	bs_err_reset(&err);
	assert_int_equal(bs_ingest_feed(p, "x\n", 2, &err), -BS_EPARSE);
	assert_string_equal(err.msg, "not a text file (NUL byte at line 3)");
	bs_err_reset(&err);
	assert_int_equal(bs_ingest_finish(p, &err), -BS_EPARSE);
	assert_string_equal(err.msg, "not a text file (NUL byte at line 3)");
	bs_ingest_free(p);

	/* A NUL in a line without a newline yet, and in a long line. */
	log = log_of("abc\0", 4, 0);
	assert_non_null(strstr(log, "NUL byte at line 1"));
	free(log);
	bs_buf_release(&c.log);
}

static void fill_x(struct bs_buf *b, size_t n)
{
	char tmp[4096];

	memset(tmp, 'x', sizeof(tmp));
	while (n > 0) {
		size_t k = n < sizeof(tmp) ? n : sizeof(tmp);

		bs_buf_add(b, tmp, k);
		n -= k;
	}
}

static void test_long_lines(void **state)
{
	/* clang-format off */
	static const size_t chunks[] = {
		1, 2, 3, 4095, 65536, BS_LINE_MAX, BS_LINE_MAX + 1,
		BS_LINE_MAX + 2, 0,
	};
	/* clang-format on */
	struct bs_buf in = BS_BUF_INIT, want = BS_BUF_INIT;
	char sha[BS_SHA256_HEX];
	char *first = NULL;
	size_t i;

	(void)state;
	/* Line 1: exactly the limit (with CRLF): fine, a comment. */
	bs_buf_addc(&in, '#');
	fill_x(&in, BS_LINE_MAX - 1);
	bs_buf_adds(&in, "\r\n");
	/* Line 2: one byte over (with CRLF): rejected, 64 KiB kept. */
	bs_buf_addc(&in, '#');
	fill_x(&in, BS_LINE_MAX);
	bs_buf_adds(&in, "\r\n");
	/* Line 3: a result still parses. */
	bs_buf_adds(&in, L98 "\n");
	/* Line 4: 1.5 MiB without a newline at the end. */
	fill_x(&in, 3 * BS_LINE_MAX / 2);

	bs_buf_addf(&want, "reject L2 len=%d trunc=1 ", BS_REJECT_KEEP);
	bs_sha256_hex(in.data + BS_LINE_MAX + 2, BS_REJECT_KEEP, sha);
	bs_buf_addf(&want,
		    "%.16s line is %d bytes, longer than the 1 MiB "
		    "limit\n",
		    sha, BS_LINE_MAX + 1);
	for (i = 0; i < ARRAY_SIZE(chunks); i++) {
		char *log = log_of(bs_buf_str(&in), in.len, chunks[i]);

		if (first == NULL) {
			first = log;
			assert_true(strncmp(log, bs_buf_str(&want), want.len) ==
				    0);
			assert_non_null(strstr(log, "run L3 "));
			assert_non_null(strstr(log, "reject L4 len=65536 "
						    "trunc=1 "));
			assert_non_null(strstr(log, "line is 1572864 bytes, "
						    "longer than the 1 MiB "
						    "limit\n"));
			assert_non_null(strstr(log, "stats lines=4 runs=1 "
						    "rejects=2 skipped=1\n"));
			continue;
		}
		if (strcmp(log, first) != 0)
			fail_msg("chunk %zu:\n%s\nvs\n%s", chunks[i], log,
				 first);
		free(log);
	}
	free(first);
	bs_buf_release(&in);
	bs_buf_release(&want);
}

/* A malformed line under the limit but over 64 KiB is kept cut. */
static void test_long_reject(void **state)
{
	struct bs_buf in = BS_BUF_INIT;
	char *log;

	(void)state;
	bs_buf_adds(&in, "1.98,2.00a,");
	fill_x(&in, 100000);
	bs_buf_adds(&in, ",1,2\n");
	log = log_of(bs_buf_str(&in), in.len, 0);
	assert_non_null(strstr(log, "reject L1 len=65536 trunc=1 "));
	assert_non_null(strstr(log, " expected 50 fields for bonnie++ 1.98 "
				    "CSV, found 5\n"));
	free(log);
	bs_buf_release(&in);
}

static void test_callback_stop(void **state)
{
	static const char in[] = L98 "\n" L97 "\n" L93 "\n";
	struct coll c = {BS_BUF_INIT, "t.csv", 2, NULL, 0, 0, 0};
	struct bs_ingest_cb cb = {coll_run, coll_reject, NULL, &c};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest_stats st;
	struct bs_ingest *p;

	(void)state;
	/* The callback's own message is kept when it filled err. */
	c.fill = &err;
	p = bs_ingest_new("t.csv", &cb, NULL);
	assert_int_equal(bs_ingest_feed(p, in, sizeof(in) - 1, &err), -BS_EDB);
	assert_string_equal(err.msg, "database is locked");
	bs_ingest_stats(p, &st);
	assert_true(st.runs == 2);
	bs_err_reset(&err);
	assert_int_equal(bs_ingest_finish(p, &err), -BS_EDB);
	assert_string_equal(err.msg, "database is locked");
	bs_ingest_free(p);

	/* Otherwise the driver says where it stopped. */
	c.fill = NULL;
	bs_err_reset(&err);
	bs_buf_reset(&c.log);
	p = bs_ingest_new("t.csv", &cb, NULL);
	c.nruns = 0;
	assert_int_equal(bs_ingest_feed(p, in, sizeof(in) - 1, &err), -BS_EDB);
	assert_string_equal(err.msg, "ingest stopped at line 2");
	bs_ingest_free(p);
	bs_buf_release(&c.log);
}

/* No callbacks but run: rejects and warnings are counted, not reported. */
static void test_null_callbacks(void **state)
{
	static const char in[] = "1.98,2.00a,box\n" LB1 "\n";
	struct coll c = {BS_BUF_INIT, "t.csv", 0, NULL, 0, 0, 0};
	struct bs_ingest_cb cb = {coll_run, NULL, NULL, &c};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest_stats st;
	struct bs_ingest *p = bs_ingest_new("t.csv", &cb, NULL);

	(void)state;
	assert_int_equal(bs_ingest_feed(p, in, sizeof(in) - 1, &err), 0);
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	bs_ingest_stats(p, &st);
	assert_true(st.runs == 1 && st.rejects == 1);
	bs_ingest_free(p);
	bs_buf_release(&c.log);
}

static int count_run(struct bs_run *r, void *ctx)
{
	(void)r;
	(*(int64_t *)ctx)++;
	return 0;
}

/*
 * Memory stays flat however many lines go through: one run is reused and
 * only a split line is buffered. (glibc's counters; other libcs skip.)
 */
static void test_bounded_memory(void **state)
{
	enum { LINES = 100000, BATCH = 200 };
	struct bs_buf chunk = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	int64_t nruns = 0;
	struct bs_ingest_cb cb = {count_run, NULL, NULL, &nruns};
	struct bs_ingest *p = bs_ingest_new("big.csv", &cb, NULL);
	size_t at_start = 0;
	int i;

	(void)state;
	for (i = 0; i < BATCH; i++)
		bs_buf_adds(&chunk, L98 "\n");
	for (i = 0; i < LINES / BATCH; i++) {
		/* Odd split points so that lines straddle feeds. */
		size_t cut = (size_t)(i * 7919) % chunk.len;

		assert_int_equal(bs_ingest_feed(p, chunk.data, cut, &err), 0);
		assert_int_equal(bs_ingest_feed(p, chunk.data + cut,
						chunk.len - cut, &err),
				 0);
#ifdef __GLIBC__
		if (i == 10)
			at_start = mallinfo2().uordblks;
#endif
	}
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	assert_true(nruns == LINES);
#ifdef __GLIBC__
	{
		size_t at_end = mallinfo2().uordblks;

		if (at_end > at_start + 64 * 1024)
			fail_msg("heap grew from %zu to %zu bytes", at_start,
				 at_end);
	}
#else
	(void)at_start;
#endif
	bs_ingest_free(p);
	bs_buf_release(&chunk);
}

/* One measurement, one run: bs_run_same() (core/same.h) on the 1.97 CSV
 * line of tests/data/wild/bonnie++-1.97-ceph-admin.txt and prints of it. */
static void test_same_run(void **state)
{
	static const char line[] =
		"1.97,1.97,ceph-admin,1,1466766230,8196M,,646,97,86208,12,44422,"
		"5,2027,97,104162,5,889.7,8,16,,,,,20285,28,+++++,+++,+++++,+++,"
		"30720,69,+++++,+++,+++++,+++,12279us,1920ms,2462ms,4228us,"
		"41355us,43431us,727us,406us,431us,121us,35us,61us";
	struct bs_run a, b;
	int pb = bs_metric_find(BS_FAM_BONNIE, "put_block");

	(void)state;
	bs_run_init(&a);
	bs_run_init(&b);
	assert_int_equal(bs_ingest_parse_line(line, strlen(line), NULL, &a,
					      NULL),
			 1);
	assert_int_equal(bs_ingest_parse_line(line, strlen(line), NULL, &b,
					      NULL),
			 1);
	/* Two exact prints of equal values: two runs that measured alike. */
	assert_false(bs_run_same(&a, &b));
	assert_false(bs_dialect_of(&a)->rounded);
	/* The table's print: k/m/g, no seed, the machine cut to fit. */
	bs_run_set(&b.format, "bonnie++-text-1.9x");
	assert_true(bs_dialect_of(&b)->rounded);
	assert_true(bs_run_same(&a, &b));
	free(b.params.seed);
	b.params.seed = NULL;
	bs_run_set(&b.machine, "ceph-adm");
	b.res[pb].value = 84.2 * 1024; /* "84.2m" */
	assert_true(bs_run_same(&a, &b));
	assert_true(bs_run_same(&b, &a));
	/* Another measurement: one value off by more than the print. */
	b.res[pb].value = 85.0 * 1024;
	assert_false(bs_run_same(&a, &b));
	b.res[pb].value = 86208;
	/* A status differs: too fast is not a number. */
	b.res[pb].status = BS_ST_TOO_FAST;
	b.res[pb].value = NAN;
	assert_false(bs_run_same(&a, &b));
	bs_run_release(&a);
	bs_run_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_run),
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_reject),
		cmocka_unit_test(test_parse_text),
		cmocka_unit_test(test_parse_own_line),
		cmocka_unit_test(test_parse_small_reason),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_mixed_stream),
		cmocka_unit_test(test_version_hint),
		cmocka_unit_test(test_text_date),
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_long_reject),
		cmocka_unit_test(test_callback_stop),
		cmocka_unit_test(test_null_callbacks),
		cmocka_unit_test(test_bounded_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
