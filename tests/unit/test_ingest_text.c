/*
 * tests/unit/test_ingest_text.c - the text-table formats: bonnie++'s
 * tables (ingest/bonnie_table.c) and Bonnie's (ingest/bonnie_classic.c).
 *
 * Real captures (samples/bonnie++-2.00a-table-*.txt) and pasted tables
 * (tests/data/) go through the whole ingest driver; every value stored is
 * checked against what the table printed, and every input gives the same
 * runs and rejects at every chunk size.
 *
 * A run reads as "L<line> <format> <tool> <version> [<machine>] <params> |
 * <12 cells>", a cell as value "/" cpu "@" latency_us, value "." for not
 * run and "+" for too fast, "-" for an unknown cpu or latency.
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

#include <cmocka.h>

#include "ingest/bonnie_table.h"
#include "ingest/ingest.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void add_num(struct bs_buf *b, double v)
{
	bs_buf_addf(b, "%.10g", v);
}

static void add_param(struct bs_buf *b, const char *key, int64_t v)
{
	if (v == BS_NONE)
		return;
	if (v == BS_SIZE_LINK && strcmp(key, "max") == 0)
		bs_buf_addf(b, " %s=link", key);
	else
		bs_buf_addf(b, " %s=%" PRId64, key, v);
}

static void add_run(struct bs_buf *b, const struct bs_run *r)
{
	const struct bs_params *p = &r->params;
	int m;

	bs_buf_addf(b, "L%" PRId64 " %s %s %s [%s]", r->source_line, r->format,
		    r->tool, r->tool_version ? r->tool_version : "(none)",
		    r->machine ? r->machine : "(null)");
	add_param(b, "size", p->file_size_mib);
	add_param(b, "chunk", p->io_chunk_bytes);
	add_param(b, "seeks", p->seeks);
	add_param(b, "procs", p->seek_procs);
	add_param(b, "files", p->num_files);
	add_param(b, "max", p->max_size);
	add_param(b, "min", p->min_size);
	add_param(b, "dirs", p->num_dirs);
	add_param(b, "conc", p->concurrency);
	bs_buf_adds(b, " |");
	for (m = 0; m < BS_M_BONNIE; m++) {
		const struct bs_value *v = &r->res[m];

		bs_buf_addc(b, ' ');
		if (v->status == BS_ST_NOT_RUN)
			bs_buf_addc(b, '.');
		else if (v->status == BS_ST_TOO_FAST)
			bs_buf_addc(b, '+');
		else
			add_num(b, v->value);
		bs_buf_addc(b, '/');
		if (isnan(v->cpu_pct))
			bs_buf_addc(b, '-');
		else
			add_num(b, v->cpu_pct);
		bs_buf_addc(b, '@');
		if (isnan(v->lat_us))
			bs_buf_addc(b, '-');
		else
			add_num(b, v->lat_us);
	}
	bs_buf_addc(b, '\n');
	if (r->warning)
		bs_buf_addf(b, "  warning: %s\n", r->warning);
}

/* What the driver gave: runs, rejects, and the digests apart. */
struct log {
	struct bs_buf text;
	struct bs_buf sums;
};

static int on_run(struct bs_run *r, void *ctx)
{
	struct log *lg = ctx;
	char sha[65];

	/* The digest is the raw text's, whatever the format. */
	bs_sha256_hex(r->raw, strlen(r->raw), sha);
	assert_string_equal(sha, r->sha256);
	add_run(&lg->text, r);
	bs_buf_addf(&lg->sums, "%s\n", r->sha256);
	return 0;
}

static int on_reject(int64_t line, const char *raw, size_t len, int truncated,
		     const char *reason, void *ctx)
{
	struct log *lg = ctx;

	(void)raw;
	(void)len;
	(void)truncated;
	bs_buf_addf(&lg->text, "reject L%" PRId64 ": %s\n", line, reason);
	return 0;
}

/* The log of src fed in chunks of chunk bytes (0: all at once). */
static char *log_of(const char *src, size_t len, size_t chunk, char **sums)
{
	struct log lg = {BS_BUF_INIT, BS_BUF_INIT};
	struct bs_ingest_cb cb = {on_run, on_reject, NULL, &lg};
	struct bs_ingest *p = bs_ingest_new("t", &cb, NULL);
	struct bs_err err = BS_ERR_INIT;
	size_t off = 0;

	if (chunk == 0)
		chunk = len ? len : 1;
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;

		assert_int_equal(bs_ingest_feed(p, src + off, n, &err), 0);
		off += n;
	}
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	bs_ingest_free(p);
	if (sums)
		*sums = bs_buf_detach(&lg.sums, NULL);
	bs_buf_release(&lg.sums);
	return bs_buf_detach(&lg.text, NULL);
}

static char *read_file(const char *rel, size_t *len)
{
	const char *dir = getenv("SRC");
	char path[1024];
	struct bs_buf b = BS_BUF_INIT;
	char tmp[4096];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".", rel);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		bs_buf_add(&b, tmp, n);
	fclose(f);
	return bs_buf_detach(&b, len);
}

/* The same log at every chunk size (up to 64 bytes, then a few). */
static void check_chunks(const char *src, size_t len, const char *want)
{
	size_t c;

	for (c = 1; c <= len; c = c < 64 ? c + 1 : c * 3) {
		char *got = log_of(src, len, c, NULL);

		if (strcmp(got, want) != 0)
			fail_msg("chunk %zu:\n--- got\n%s--- want\n%s", c, got,
				 want);
		free(got);
	}
}

struct file_case {
	const char *file;
	const char *want;
};

/* clang-format off */
#define TF "+/-@"
static const struct file_case files[] = {
	/* bonnie++ 2.00a, -s 64 -r 32 -n 1, captured here: rates under
	 * 10000 K/s print as "1159k". */
	{ "samples/bonnie++-2.00a-table-full-labvm.txt",
	  "L17 bonnie++-text-1.98 bonnie++ 2.00a [labvm] size=64 files=1 |"
	  " 1159/55@20019 " TF "8120 " TF "7388 2570/63@13936 " TF "288 " TF "16047"
	  " " TF "12091 " TF "1599 " TF "8155 " TF "13086 " TF "5 " TF "4770\n" },
	/* -n 0 -f: blank cells are tests not run, latency too. */
	{ "samples/bonnie++-2.00a-table-n0-f-labvm.txt",
	  "L9 bonnie++-text-1.98 bonnie++ 2.00a [labvm] size=64 |"
	  " ./-@- " TF "8079 " TF "8103 ./-@- " TF "4087 " TF "32267"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n" },
	/* -s 0 -n 2:4096:512: 2.00a printed 2048 (2 x 1024) for the rates
	 * its CSV line gives as 371, 2769 and 445: not stored. */
	{ "samples/bonnie++-2.00a-table-s0-files-labvm.txt",
	  "L11 bonnie++-text-1.98 bonnie++ 2.00a [labvm] files=2 max=4096 min=512 |"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-"
	  " " TF "4783 " TF "4176 ./-@34844 ./-@8302 " TF "6343 ./-@18445\n"
	  "  warning: bonnie++ 2.00a text table: the file-test rates are not "
	  "stored (1.98-2.00a print a wrong number there; the CSV line has them)\n" },
	{ "samples/bonnie++-2.00a-table-s0-link-labvm.txt",
	  "L11 bonnie++-text-1.98 bonnie++ 2.00a [labvm] files=1 max=link |"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-"
	  " " TF "2281 " TF "72 " TF "4059 " TF "405 " TF "54 " TF "68\n" },
	/* -s 64:4k:1000:2 -c 2: "labvm 64M:4k:2:1000", the seek thread
	 * count lost (a 2.00a bug). */
	{ "samples/bonnie++-2.00a-table-chunk-labvm.txt",
	  "L11 bonnie++-text-1.98 bonnie++ 2.00a [labvm] size=64 chunk=4096 seeks=1000 conc=2 |"
	  " 1462/80@15151 " TF "3014 " TF "3945 2631/72@12731 " TF "4080 " TF "719"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n" },
	/* k, m and g: 728m is 745472 KiB/s, 1.1g 1153433.6; the file rates
	 * (printed as 0) are dropped. */
	{ "tests/data/bonnie++-2.00a-table-wsl.txt",
	  "L4 bonnie++-text-1.98 bonnie++ 2.00a [ANDREW-PC] size=64512 files=16 |"
	  " 540/99@16366 745472/100@5650 980992/91@12027 2205/99@4465"
	  " 1153433.6/58@1806 " TF "478"
	  " ./-@15088 ./-@15053 ./-@18784 ./-@11317 ./-@3377 ./-@12653\n"
	  "  warning: bonnie++ 2.00a text table: the file-test rates are not "
	  "stored (1.98-2.00a print a wrong number there; the CSV line has them)\n" },
	{ "tests/data/bonnie++-2.00a-table-labvm01.txt",
	  "L17 bonnie++-text-1.98 bonnie++ 2.00a [labvm01] size=2048 files=16 |"
	  " 545/94@61372 297984/69@8122 601088/52@16325 480/82@50917"
	  " 1887436.8/69@22633 6398/31@16072"
	  " " TF "32123 " TF "12290 " TF "8617 " TF "8111 " TF "4158 " TF "6056\n" },
	/* Two 1.9x tables, one after the other; 566685 overflows its
	 * column. */
	{ "tests/data/bonnie++-1.9x-tables.txt",
	  "L6 bonnie++-text-1.9x bonnie++ 1.93c [AcharyaX] size=800 chunk=8192 files=16 conc=1 |"
	  " 496/87@753000 34925/12@380000 37639/16@9518 868/99@18260"
	  " 566685/98@8728 3144/39@95532 100/99@39390 199/99@19146"
	  " 1480/98@10730 148/99@22799 201/99@18930 349/99@16815\n"
	  "L17 bonnie++-text-1.9x bonnie++ 1.97 [nfs-worker1] size=2048 chunk=8192 files=16 conc=1 |"
	  " 1113/97@21103 78993/7@801000 75546/11@1565000 2102/92@19930"
	  " 271440/13@21978 6863/53@9956 407/7@65891 " TF "18799"
	  " 1328/12@81134 526/6@31558 " TF "3596 1704/13@10771\n" },
	/* Two rows under one header, as users paste an old and a new
	 * result: I/O row n goes with file row n. */
	{ "tests/data/bonnie++-1.97-table-two-rows.txt",
	  "L4 bonnie++-text-1.9x bonnie++ 1.97 [inez(old)] size=2048 chunk=8192 files=16 conc=1 |"
	  " 1113/97@21103 78993/7@801000 75546/11@1565000 2102/92@19930"
	  " 271440/13@21978 6863/53@9956 407/7@65891 " TF "18799"
	  " 1328/12@81134 526/6@31558 " TF "3596 1704/13@10771\n"
	  "L6 bonnie++-text-1.9x bonnie++ 1.97 [inez(new)] size=2048 chunk=8192 files=16 conc=1 |"
	  " 2113/97@11103 88993/7@701000 85546/11@1465000 3102/92@19930"
	  " 371440/13@21978 7863/53@9956 507/7@55891 " TF "18799"
	  " 2328/12@81134 626/6@31558 " TF "3596 2704/13@10771\n" },
	/* A 1.03 table pasted: quoted, with CRLF, numbered. */
#define BILLING "bonnie++-text-1.0x bonnie++ 1.03 [billing] size=4096 chunk=8192 files=16 |" \
	" 9915/87@- 30319/56@- 11685/38@- 9999/99@- 47326/66@- 177.6/3@-" \
	" 639/19@- +/-@- 1258/22@- 679/16@- +/-@- 1197/27@-\n"
	{ "tests/data/bonnie++-1.03-table-quoted.txt", "L5 " BILLING },
	{ "tests/data/bonnie++-1.03-table-crlf.txt", "L4 " BILLING },
	{ "tests/data/bonnie++-1.03-table-numbered.txt", "L4 " BILLING },
	/* A blog's 1.03d tables with -f (blank per-char cells), blank lines
	 * between every line. */
	{ "tests/data/bonnie++-1.03d-blog-tables.txt",
	  "L20 bonnie++-text-1.0x bonnie++ 1.03d [server_name] size=16384 chunk=8192 files=16 |"
	  " ./-@- 51181/55@- 23045/47@- ./-@- 56212/46@- 294.1/4@-"
	  " 145/7@- +/-@- 162/6@- 162/6@- +/-@- 152/6@-\n"
	  "L91 bonnie++-text-1.0x bonnie++ 1.03d [server_name] size=16384 chunk=8192 |"
	  " ./-@- 58408/72@- 32513/58@- ./-@- 100124/72@- 537.1/12@-"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n"
	  "L105 bonnie++-text-1.0x bonnie++ 1.03d [server_name] size=16384 chunk=8192 |"
	  " ./-@- 54601/65@- 31029/56@- ./-@- 128065/92@- 606.3/7@-"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n"
	  "L120 bonnie++-text-1.0x bonnie++ 1.03d [server_name] size=16384 chunk=8192 |"
	  " ./-@- 51977/51@- 29662/62@- ./-@- 73907/59@- 984.3/9@-"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n"
	  "L136 bonnie++-text-1.0x bonnie++ 1.03d [nfs_client] size=16384 chunk=8192 |"
	  " ./-@- 9436/25@- 5748/17@- ./-@- 11288/18@- 322.9/19@-"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n"
	  "L151 bonnie++-text-1.0x bonnie++ 1.03d [iscsi_client] size=2048 chunk=8192 |"
	  " ./-@- 2896/5@- 2201/5@- ./-@- 10731/13@- 116.3/3@-"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n" },
	/* Tim Bray's Bonnie: K/sec and %CPU with a decimal; a second row
	 * whose numbers overflow their columns. */
	{ "tests/data/bonnie-1.x-table.txt",
	  "L6 bonnie-text bonnie (none) [pre9-3] size=400 |"
	  " 15032/64.4@- 12843/13.8@- 6202/7.1@- 11421/38.1@- 13005/11.6@-"
	  " 118.1/1.2@- ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n"
	  "L7 bonnie-text bonnie (none) [new] size=100 |"
	  " 224399/99.9@- 1940202/99.4@- 1069114/99.9@- 199839/99.9@-"
	  " 3637437/100@- 118252.2/263.5@- ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n" },
	{ "tests/data/bonnie-1.x-html.txt",
	  "L1 bonnie-html bonnie (none) [pre9-3] size=400 |"
	  " 15032/64.4@- 12843/13.8@- 6202/7.1@- 11421/38.1@- 13005/11.6@-"
	  " 118.1/1.2@- ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n"
	  "reject L2: Bonnie -html row: get_block is not a number\n" },
	/* Linux Bonnie 1.4: "3*1024" is 3 volumes of 1024 MiB; no name. */
	{ "tests/data/bonnie-1.4-table.txt",
	  "L4 bonnie-1.4-text bonnie (none) [] size=1024 |"
	  " 72692/83.7@- 103022/40.5@- 25355/12@- 37188/67.5@- 40809/11.4@-"
	  " 382.1/2.4@- ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n"
	  "L5 bonnie-1.4-text bonnie (none) [M1135-] size=3072 |"
	  " 23779/95.2@- 20222/95.3@- 17248/54.7@- 26313/84.6@- 28849/58.9@-"
	  " 343.9/3.2@- ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n" },
	/* Bonnie-64: M/sec is 1024 KiB/s; the size in "GB" is not kept. */
	{ "tests/data/bonnie64-table.txt",
	  "L4 bonnie64-text bonnie (none) [bigbox] |"
	  " 94515.2/97.1@- 420352/45.2@- 184524.8/30.3@- 90931.2/96@-"
	  " 525004.8/40.1@- 9000/85@- ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n"
	  "  warning: Bonnie-64 prints the file size in whole units of 1000 "
	  "MiB: file_size_mib not stored\n" },
};
/* clang-format on */

/* A 1.03e table of a run with an empty name (-m ''), -f, and a chunk. */
static void test_empty_name(void **state)
{
	/* clang-format off */
	static const char in[] =
		"Version 1.03e       ------Sequential Output------ --Sequential Input- --Random-\n"
		"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
		"Machine   Size:chnk K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
		"              2G:4k           52615  35 18392  12           48394   9 103.9   0\n"
		"                    ------Sequential Create------ --------Random Create--------\n"
		"                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
		"              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
		"          16:100:0/8 13055  93 +++++ +++ 15189  87 12872  95 +++++ +++ 20590  99\n";
	static const char want[] =
		"L4 bonnie++-text-1.0x bonnie++ 1.03e [] size=2048 chunk=4096 files=16 max=100 min=0 dirs=8 |"
		" ./-@- 52615/35@- 18392/12@- ./-@- 48394/9@- 103.9/0@-"
		" 13055/93@- +/-@- 15189/87@- 12872/95@- +/-@- 20590/99@-\n";
	/* clang-format on */
	char *got = log_of(in, sizeof(in) - 1, 0, NULL);

	(void)state;
	assert_string_equal(got, want);
	check_chunks(in, sizeof(in) - 1, want);
	free(got);
}

static void test_files(void **state)
{
	size_t i, len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *src = read_file(files[i].file, &len);
		char *got = log_of(src, len, 0, NULL);

		if (strcmp(got, files[i].want) != 0)
			fail_msg("%s:\n--- got\n%s--- want\n%s", files[i].file,
				 got, files[i].want);
		check_chunks(src, len, files[i].want);
		free(got);
		free(src);
	}
}

/*
 * A table followed by its CSV line (a captured output) is the CSV line's
 * run alone: its format, its line, its digest, as if the table were not
 * there.
 */
static void test_table_and_csv(void **state)
{
	static const char *const caps[] = {
		"samples/bonnie++-1.03-t3-raid5.txt",
		"samples/bonnie++-2.00a-local-full.txt",
	};
	size_t i, len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		char *src = read_file(caps[i], &len);
		const char *csv = src + len - 1, *p;
		char *got, *sums, *alone, *alone_sums, sha[65];
		size_t csv_len;

		/* The CSV line is the file's last line. */
		while (csv > src && csv[-1] != '\n')
			csv--;
		csv_len = (size_t)(src + len - csv) - 1;
		got = log_of(src, len, 0, &sums);
		alone = log_of(csv, csv_len + 1, 0, &alone_sums);
		bs_sha256_hex(csv, csv_len, sha);
		assert_non_null(strstr(got, "-csv-"));
		assert_null(strstr(got, "-text-"));
		/* One run, the CSV line's, with its digest. */
		p = strchr(got, '\n');
		assert_non_null(p);
		assert_true(p[1] == '\0' ||
			    strncmp(p + 1, "  warning", 9) == 0);
		assert_int_equal(strncmp(sums, sha, 64), 0);
		assert_string_equal(sums, alone_sums);
		/* The same values as the line alone (its line number apart,
		 * and a 1.0x line's version, which the table names). */
		assert_string_equal(strchr(got, '['), strchr(alone, '['));
		assert_non_null(strstr(got, i == 0 ? " 1.03 [" : " 2.00a ["));
		check_chunks(src, len, got);
		free(got);
		free(sums);
		free(alone);
		free(alone_sums);
		free(src);
	}
}

/* The digest of a table-only run is its table's lines: pasted again with
 * other blank lines around, it is the same run. */
static void test_same_table_same_digest(void **state)
{
	size_t len;
	char *src = read_file("tests/data/bonnie++-2.00a-table-wsl.txt", &len);
	struct bs_buf b = BS_BUF_INIT;
	char *s1, *s2, *g1, *g2;

	(void)state;
	bs_buf_adds(&b, "Look:\n\n\n");
	bs_buf_add(&b, src, len);
	bs_buf_adds(&b, "\n\n");
	g1 = log_of(src, len, 0, &s1);
	g2 = log_of(b.data, b.len, 0, &s2);
	assert_string_equal(s1, s2);
	free(g1);
	free(g2);
	free(s1);
	free(s2);
	free(src);
	bs_buf_release(&b);
}

struct reject_case {
	const char *in;
	const char *want;
};

/* clang-format off */
#define V103 "Version 1.03e       ------Sequential Output------ --Sequential Input- --Random-\n" \
	"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n" \
	"Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
static const struct reject_case rejects[] = {
	/* Cells that fit no column, and not one per test. */
	{ V103 "box              2G 83720  95    813061  95  97 2828489  97  1187   0\n",
	  "reject L4: bonnie++ 1.03e text table: the cells of this row do "
	  "not line up with the columns\n" },
	/* A comma in a cell would shift the CSV line the row stands for. */
	{ V103 "box              2G 83720  95 813061  95 1185231 100 84567  97 2,28489  97  1187   0\n",
	  "reject L4: bonnie++ 1.03e text table: a cell holds a ','\n" },
	/* A header and nothing else. */
	{ V103 "\nsomething else\n",
	  "reject L1: bonnie++ 1.03e text table without a row of results\n" },
	/* A value the CSV format would refuse: past any disk. */
	{ V103 "box              2G 83720  95 813061  95 1185231 100 84567  97 99999999999999 97  1187   0\n",
	  "reject L4: bonnie++ 1.03e text table: field 11 (get_block): "
	  "'99999999999999' is beyond any disk (at most 1000000000 KiB/s)\n" },
	/* A 2.00a rate with a suffix on no number. */
	{ "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n"
	  "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	  "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
	  "ANDREW-PC       63G  540k  99  7.x8m 100  958m  91 2205k  99  1.1g  58 +++++ +++\n",
	  "reject L4: bonnie++ 2.00a text table: a rate is not a number with "
	  "k, m or g\n" },
	/* A Latency row before any row of results. */
	{ "Version  1.97       ------Sequential Output------ --Sequential Input- --Random-\n"
	  "Latency             21103us     801ms    1565ms   19930us   21978us    9956us\n",
	  "reject L2: bonnie++ 1.97 text table: a Latency row without its "
	  "row of results\n" },
	/* Rejects go out in the order of their lines; a table's run waits
	 * for the end of the input or a run of another format, as its CSV
	 * line may come later (core/same.c). */
	{ V103 "Latency             21103us     801ms    1565ms   19930us   21978us    9956us\n"
	  "box              2G 83720  95 813061  95 1185231 100 84567  97 2828489  97  1187   0\n"
	  "box2             2G 83720  95    813061  95  97 2828489  97  1187   0\n",
	  "reject L4: bonnie++ 1.03e text table: a Latency row without its "
	  "row of results\n"
	  "reject L6: bonnie++ 1.03e text table: the cells of this row do "
	  "not line up with the columns\n"
	  "L5 bonnie++-text-1.0x bonnie++ 1.03e [box] size=2048 chunk=8192 |"
	  " 83720/95@- 813061/95@- 1185231/100@- 84567/97@- 2828489/97@- 1187/0@-"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n" },
	/* A CSV line cut short after its table (a forum post) that agrees
	 * with the table in every field it has is the table's other print:
	 * the table is the run, no reject (a warning says so). */
	{ V103 "box              2G 83720  95 813061  95 1185231 100 84567  97 2828489  97  1187   0\n"
	  "box,2G,83720,95,813061,95,1185231,100,84567,97,2828489,97\n",
	  "L4 bonnie++-text-1.0x bonnie++ 1.03e [box] size=2048 chunk=8192 |"
	  " 83720/95@- 813061/95@- 1185231/100@- 84567/97@- 2828489/97@- 1187/0@-"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n" },
	/* One that disagrees (another run's, or a typo) is the CSV line's
	 * reject, as without the table; the table is still the run. */
	{ V103 "box              2G 83720  95 813061  95 1185231 100 84567  97 2828489  97  1187   0\n"
	  "box,2G,93720,95,813061,95,1185231,100,84567,97,2828489,97\n",
	  "reject L5: expected 27 fields for bonnie++ 1.0x CSV, found 12\n"
	  "L4 bonnie++-text-1.0x bonnie++ 1.03e [box] size=2048 chunk=8192 |"
	  " 83720/95@- 813061/95@- 1185231/100@- 84567/97@- 2828489/97@- 1187/0@-"
	  " ./-@- ./-@- ./-@- ./-@- ./-@- ./-@-\n" },
	/* Bonnie's table without a row. */
	{ "              -------Sequential Output-------- ---Sequential Input-- --Random--\n"
	  "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n",
	  "reject L1: Bonnie text table without a row of results\n" },
};
/* clang-format on */

static void test_rejects(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rejects); i++) {
		size_t len = strlen(rejects[i].in);
		char *got = log_of(rejects[i].in, len, 0, NULL);

		if (strcmp(got, rejects[i].want) != 0)
			fail_msg("case %zu:\n--- got\n%s--- want\n%s", i, got,
				 rejects[i].want);
		check_chunks(rejects[i].in, len, rejects[i].want);
		free(got);
	}
}

/* Text that merely looks like a table's parts is left alone. */
static void test_not_tables(void **state)
{
	static const char in[] =
		"Version 1.03e is what we ran, ------ nothing else\n"
		"Machine learning is -Per Chr- fun\n"
		"Latency was fine\n"
		"16 files of 4 kB\n"
		"<TR><TD>Machine</TD><TD>MB</TD></TR>\n"
		"---Sequential Output--- is a heading\n";
	char *got = log_of(in, sizeof(in) - 1, 0, NULL);

	(void)state;
	assert_string_equal(got, "");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_empty_name),
		cmocka_unit_test(test_table_and_csv),
		cmocka_unit_test(test_same_table_same_digest),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_not_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
