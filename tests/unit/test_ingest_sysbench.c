/*
 * tests/unit/test_ingest_sysbench.c - the sysbench fileio formats
 * (ingest/sysbench.c) through the whole ingest driver.
 *
 * Every samples/ sysbench capture and every pasted form in tests/data is
 * ingested and each stored value is checked against the figure sysbench
 * printed, as written in the tables below (1.0 prints rates; 0.4 prints
 * counts and sizes, and the expected rate is that count over the printed
 * total time, written here as the division). Parameters are checked as
 * bstore prints them, every sysbench parameter of the family. Rejects and
 * warnings are checked word for word, and every input gives the same
 * events at every chunk size.
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

#include "ingest/ingest.h"
#include "ingest/sysbench.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/sha256.h"
#include "util/timefmt.h"
#include "util/banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define GIB 1073741824.0
#define MIB 1048576.0

struct want_val {
	const char *key; /* NULL ends the list */
	double v;
};

struct want_run {
	int64_t line; /* the block's first line */
	const char *format;
	const char *version; /* NULL: none printed */
	const char *first;   /* the run's raw text starts so */
	const char *params;  /* every sysbench parameter, as bstore prints */
	const char *warning;
	struct want_val res[16];
};

struct file_case {
	const char *file; /* under $SRC */
	const char *log;  /* rejects and warnings, in order */
	int nruns;
	struct want_run runs[2];
};

/* clang-format off */
#define SB10 BS_FMT_SYSBENCH_10
#define SB04 BS_FMT_SYSBENCH_04
#define HDR10 "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)"
/* The options every 64M capture of samples/ ran with. */
#define P64(mode, ratio, rest) "mode=" mode " threads=1 block_size_bytes=16384 file_num=128 file_total_bytes=67108864 rw_ratio=" ratio " " rest
#define FS_DEFAULT "fsync_freq=100 fsync_all=off fsync_end=on fsync_mode=- io_mode=sync extra_flags= direct=off"

static const struct file_case cases[] = {
	{ "samples/sysbench-1.0.20-seqwr.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("seqwr", "-", FS_DEFAULT), NULL, {
	    { "reads_per_s", 0.00 }, { "writes_per_s", 252.38 },
	    { "fsyncs_per_s", 373.10 }, { "read_mib_s", 0.00 },
	    { "written_mib_s", 3.94 }, { "total_time_s", 2.3759 },
	    { "events", 1359 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 1.47 }, { "latency_max_ms", 22.16 },
	    { "latency_p95_ms", 4.03 }, { NULL, 0 } } } } },
	{ "samples/sysbench-1.0.20-seqrewr.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("seqrewr", "-", FS_DEFAULT), NULL, {
	    { "reads_per_s", 0.00 }, { "writes_per_s", 374.81 },
	    { "fsyncs_per_s", 499.90 }, { "read_mib_s", 0.00 },
	    { "written_mib_s", 5.86 }, { "total_time_s", 2.1329 },
	    { "events", 1739 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 1.15 }, { "latency_max_ms", 8.03 },
	    { "latency_p95_ms", 4.03 }, { NULL, 0 } } } } },
	{ "samples/sysbench-1.0.20-seqrd.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("seqrd", "-", FS_DEFAULT), NULL, {
	    { "reads_per_s", 167145.56 }, { "writes_per_s", 0.00 },
	    { "fsyncs_per_s", 0.00 }, { "read_mib_s", 2611.65 },
	    { "written_mib_s", 0.00 }, { "total_time_s", 2.0041 },
	    { "events", 335253 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 0.01 }, { "latency_max_ms", 28.72 },
	    { "latency_p95_ms", 0.00 }, { NULL, 0 } } } } },
	{ "samples/sysbench-1.0.20-rndrd.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("rndrd", "1.5", FS_DEFAULT), NULL, {
	    { "reads_per_s", 278482.97 }, { "writes_per_s", 0.00 },
	    { "fsyncs_per_s", 0.00 }, { "read_mib_s", 4351.30 },
	    { "written_mib_s", 0.00 }, { "total_time_s", 2.0067 },
	    { "events", 559259 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 0.00 }, { "latency_max_ms", 9.35 },
	    { "latency_p95_ms", 0.00 }, { NULL, 0 } } } } },
	{ "samples/sysbench-1.0.20-rndwr.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("rndwr", "1.5", FS_DEFAULT), NULL, {
	    { "reads_per_s", 0.00 }, { "writes_per_s", 1984.54 },
	    { "fsyncs_per_s", 2554.60 }, { "read_mib_s", 0.00 },
	    { "written_mib_s", 31.01 }, { "total_time_s", 2.0141 },
	    { "events", 9021 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 0.22 }, { "latency_max_ms", 8.78 },
	    { "latency_p95_ms", 0.39 }, { NULL, 0 } } } } },
	{ "samples/sysbench-1.0.20-rndrw.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("rndrw", "1.5", FS_DEFAULT), NULL, {
	    { "reads_per_s", 3857.76 }, { "writes_per_s", 2571.84 },
	    { "fsyncs_per_s", 8245.60 }, { "read_mib_s", 60.28 },
	    { "written_mib_s", 40.19 }, { "total_time_s", 2.0356 },
	    { "events", 29772 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 0.07 }, { "latency_max_ms", 4.88 },
	    { "latency_p95_ms", 0.19 }, { NULL, 0 } } } } },
	/* --threads=4 --percentile=99: p99, no p95. */
	{ "samples/sysbench-1.0.20-rndrw-threads4-p99.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10,
	    "mode=rndrw threads=4 block_size_bytes=16384 file_num=128 file_total_bytes=67108864 rw_ratio=1.5 " FS_DEFAULT, NULL, {
	    { "reads_per_s", 7209.10 }, { "writes_per_s", 4806.07 },
	    { "fsyncs_per_s", 15582.15 }, { "read_mib_s", 112.64 },
	    { "written_mib_s", 75.09 }, { "total_time_s", 2.0210 },
	    { "events", 55302 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 0.14 }, { "latency_max_ms", 65.22 },
	    { "latency_p99_ms", 0.92 }, { NULL, 0 } } } } },
	/* "Extra file open flags: directio" is --file-extra-flags=direct. */
	{ "samples/sysbench-1.0.20-rndwr-direct.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("rndwr", "1.5",
	    "fsync_freq=100 fsync_all=off fsync_end=on fsync_mode=- io_mode=sync extra_flags=direct direct=on"), NULL, {
	    { "reads_per_s", 0.00 }, { "writes_per_s", 3540.51 },
	    { "fsyncs_per_s", 4570.57 }, { "read_mib_s", 0.00 },
	    { "written_mib_s", 55.32 }, { "total_time_s", 2.0149 },
	    { "events", 16227 }, { "latency_min_ms", 0.03 },
	    { "latency_avg_ms", 0.12 }, { "latency_max_ms", 5.64 },
	    { "latency_p95_ms", 0.18 }, { NULL, 0 } } } } },
	{ "samples/sysbench-1.0.20-flags-sync-dsync.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("rndwr", "1.5",
	    "fsync_freq=100 fsync_all=off fsync_end=on fsync_mode=- io_mode=sync extra_flags=sync,dsync direct=off"), NULL, {
	    { "reads_per_s", 0.00 }, { "writes_per_s", 3665.71 },
	    { "fsyncs_per_s", 4791.18 }, { "read_mib_s", 0.00 },
	    { "written_mib_s", 57.28 }, { "total_time_s", 1.0077 },
	    { "events", 8408 }, { "latency_min_ms", 0.03 },
	    { "latency_avg_ms", 0.12 }, { "latency_max_ms", 3.79 },
	    { "latency_p95_ms", 0.23 }, { NULL, 0 } } } } },
	/* No "Periodic FSYNC" nor "at the end" line: both off; "fast
	 * mmaped" is --file-io-mode=mmap; fdatasync is never printed. */
	{ "samples/sysbench-1.0.20-rndrw-mmap-fsyncall.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("rndrw", "1.5",
	    "fsync_freq=0 fsync_all=on fsync_end=off fsync_mode=- io_mode=mmap extra_flags= direct=off"), NULL, {
	    { "reads_per_s", 5724.09 }, { "writes_per_s", 3816.39 },
	    { "fsyncs_per_s", 3816.39 }, { "read_mib_s", 89.44 },
	    { "written_mib_s", 59.63 }, { "total_time_s", 1.0021 },
	    { "events", 9577 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 0.10 }, { "latency_max_ms", 6.99 },
	    { "latency_p95_ms", 0.31 }, { NULL, 0 } } } } },
	/* --percentile=0: "percentile stats: disabled", no percentile. */
	{ "samples/sysbench-1.0.20-seqrd-merged-interval.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("seqrd", "-", FS_DEFAULT), NULL, {
	    { "reads_per_s", 95207.72 }, { "writes_per_s", 0.00 },
	    { "fsyncs_per_s", 0.00 }, { "read_mib_s", 5950.48 },
	    { "written_mib_s", 0.00 }, { "total_time_s", 2.0021 },
	    { "events", 190732 }, { "latency_min_ms", 0.01 },
	    { "latency_avg_ms", 0.01 }, { "latency_max_ms", 4.53 },
	    { NULL, 0 } } } } },
	{ "samples/sysbench-1.0.20-rndrd-histogram.txt", "", 1, {
	  { 2, SB10, "1.0.20", HDR10, P64("rndrd", "1.5",
	    "fsync_freq=100 fsync_all=off fsync_end=on fsync_mode=- io_mode=async extra_flags= direct=off"), NULL, {
	    { "reads_per_s", 326799.78 }, { "writes_per_s", 0.00 },
	    { "fsyncs_per_s", 0.00 }, { "read_mib_s", 5106.25 },
	    { "written_mib_s", 0.00 }, { "total_time_s", 1.0028 },
	    { "events", 328177 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 0.00 }, { "latency_max_ms", 4.07 },
	    { "latency_p95_ms", 0.00 },
	    /* Not printed: from --histogram by sysbench's rule
	     * (core/dist.h), rounded as sysbench prints. */
	    { "latency_p50_ms", 0.00 }, { "latency_p90_ms", 0.00 },
	    { "latency_p99_ms", 0.01 }, { NULL, 0 } } } } },
	{ "samples/sysbench-1.0.20-rndrw-local.txt", "", 1, {
	  { 1, SB10, "1.0.20", HDR10,
	    "mode=rndrw threads=1 block_size_bytes=16384 file_num=8 file_total_bytes=536870912 rw_ratio=1.5 " FS_DEFAULT, NULL, {
	    { "reads_per_s", 13579.09 }, { "writes_per_s", 9052.73 },
	    { "fsyncs_per_s", 1810.75 }, { "read_mib_s", 212.17 },
	    { "written_mib_s", 141.45 }, { "total_time_s", 5.0039 },
	    { "events", 122357 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 0.04 }, { "latency_max_ms", 5.62 },
	    { "latency_p95_ms", 0.44 }, { NULL, 0 } } } } },
	/* 0.4.12: rates are the counts over "total time: 300.0008s";
	 * "Read 1.2459Gb  Written 850.55Mb" are 1024-based. */
	{ "samples/sysbench-0.4.12-rndrw.txt", "", 1, {
	  { 2, SB04, "0.4.12", "sysbench 0.4.12: multi-threaded",
	    "mode=rndrw threads=1 block_size_bytes=16384 file_num=128 file_total_bytes=53687091200 rw_ratio=1.5 " FS_DEFAULT, NULL, {
	    { "reads_per_s", 81653 / 300.0008 },
	    { "writes_per_s", 54435 / 300.0008 },
	    { "fsyncs_per_s", 174080 / 300.0008 },
	    { "requests_per_s", 453.63 },
	    { "read_mib_s", 1.2459 * GIB / MIB / 300.0008 },
	    { "written_mib_s", 850.55 * MIB / MIB / 300.0008 },
	    { "total_time_s", 300.0008 }, { "events", 136088 },
	    { "latency_min_ms", 0.01 }, { "latency_avg_ms", 2.14 },
	    { "latency_max_ms", 519.93 }, { "latency_p95_ms", 6.46 },
	    { NULL, 0 } } } } },
	{ "samples/sysbench-0.4.12-seqwr.txt", "", 1, {
	  { 2, SB04, "0.4.12", "sysbench 0.4.12: multi-threaded",
	    "mode=seqwr threads=1 block_size_bytes=16384 file_num=128 file_total_bytes=53687091200 rw_ratio=- " FS_DEFAULT, NULL, {
	    { "reads_per_s", 0 / 217.3335 },
	    { "writes_per_s", 3276800 / 217.3335 },
	    { "fsyncs_per_s", 128 / 217.3335 },
	    { "requests_per_s", 15077.29 },
	    { "read_mib_s", 0 / MIB / 217.3335 },
	    { "written_mib_s", 50 * GIB / MIB / 217.3335 },
	    { "total_time_s", 217.3335 }, { "events", 3276800 },
	    { "latency_min_ms", 0.02 }, { "latency_avg_ms", 0.06 },
	    { "latency_max_ms", 2034.85 }, { "latency_p95_ms", 0.03 },
	    { NULL, 0 } } } } },
	/* A blog's 0.4.12 output as a numbered listing, spacing kept. */
	{ "tests/data/sysbench-0.4.12-numbered.txt", "", 1, {
	  { 3, SB04, "0.4.12", "  1. sysbench 0.4.12:  multi-threaded",
	    "mode=rndrw threads=1 block_size_bytes=16384 file_num=128 file_total_bytes=21474836480 rw_ratio=1.5 " FS_DEFAULT, NULL, {
	    { "reads_per_s", 421740 / 300.0035 },
	    { "writes_per_s", 281160 / 300.0035 },
	    { "fsyncs_per_s", 899653 / 300.0035 },
	    { "requests_per_s", 2342.97 },
	    { "read_mib_s", 6.4352 * GIB / MIB / 300.0035 },
	    { "written_mib_s", 4.2902 * GIB / MIB / 300.0035 },
	    { "total_time_s", 300.0035 }, { "events", 702900 },
	    { "latency_min_ms", 0.01 }, { "latency_avg_ms", 0.24 },
	    { "latency_max_ms", 25.72 }, { "latency_p95_ms", 0.73 },
	    { NULL, 0 } } } } },
	/* Quoted in a mail with CRLF (the Date: header dates it). */
	{ "tests/data/sysbench-1.0.20-mail-quoted.txt", "", 1, {
	  { 8, SB10, "1.0.20", "> " HDR10,
	    "mode=rndrw threads=4 block_size_bytes=16384 file_num=128 file_total_bytes=67108864 rw_ratio=1.5 " FS_DEFAULT, NULL, {
	    { "reads_per_s", 7209.10 }, { "writes_per_s", 4806.07 },
	    { "fsyncs_per_s", 15582.15 }, { "read_mib_s", 112.64 },
	    { "written_mib_s", 75.09 }, { "total_time_s", 2.0210 },
	    { "events", 55302 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 0.14 }, { "latency_max_ms", 65.22 },
	    { "latency_p99_ms", 0.92 }, { NULL, 0 } } } } },
	/* prepare, two runs, cleanup, with shell prompts between. */
	{ "tests/data/sysbench-1.0.20-session.txt", "", 2, {
	  { 137, SB10, "1.0.20", HDR10, P64("seqrd", "-", FS_DEFAULT), NULL, {
	    { "reads_per_s", 167145.56 }, { "writes_per_s", 0.00 },
	    { "fsyncs_per_s", 0.00 }, { "read_mib_s", 2611.65 },
	    { "written_mib_s", 0.00 }, { "total_time_s", 2.0041 },
	    { "events", 335253 }, { "latency_min_ms", 0.00 },
	    { "latency_avg_ms", 0.01 }, { "latency_max_ms", 28.72 },
	    { "latency_p95_ms", 0.00 }, { NULL, 0 } } },
	  { 182, SB10, "1.0.20", HDR10, P64("rndwr", "1.5",
	    "fsync_freq=100 fsync_all=off fsync_end=on fsync_mode=- io_mode=sync extra_flags=direct direct=on"), NULL, {
	    { "reads_per_s", 0.00 }, { "writes_per_s", 3540.51 },
	    { "fsyncs_per_s", 4570.57 }, { "read_mib_s", 0.00 },
	    { "written_mib_s", 55.32 }, { "total_time_s", 2.0149 },
	    { "events", 16227 }, { "latency_min_ms", 0.03 },
	    { "latency_avg_ms", 0.12 }, { "latency_max_ms", 5.64 },
	    { "latency_p95_ms", 0.18 }, { NULL, 0 } } } } },
	/* Neither a run nor a reject. */
	{ "tests/data/sysbench-1.0.20-prepare.txt", "", 0, { { 0 } } },
	{ "tests/data/sysbench-1.0.20-cleanup.txt", "", 0, { { 0 } } },
	{ "tests/data/sysbench-1.0.20-other-tests.txt", "", 0, { { 0 } } },
	/* Rejects. */
	{ "tests/data/sysbench-1.0.20-rndrw-fatal.txt",
	  "reject L19 sysbench fileio run failed: 'FATAL: Size of file "
	  "'test_file.28' is 64KiB, but at least 51...'\n", 0, { { 0 } } },
	{ "tests/data/sysbench-1.0.20-cut.txt",
	  "reject L24 sysbench 1.0 summary without 'total time'\n", 0,
	  { { 0 } } },
};
/* clang-format on */

/* ---- reading and feeding ---- */

static char *read_file(const char *rel, size_t *len)
{
	const char *dir = getenv("SRC");
	struct bs_buf b = BS_BUF_INIT;
	char path[1024], tmp[4096];
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

struct coll {
	const struct file_case *fc; /* NULL: log everything */
	int nruns;
	struct bs_buf log; /* rejects and warnings */
	struct bs_buf all; /* every event, for the chunk test */
};

/* Every sysbench parameter as bstore prints it, "-" when unknown. */
static void add_params(struct bs_buf *b, const struct bs_run *r)
{
	int i, n = 0;

	for (i = 0; i < bs_nparams; i++) {
		if (bs_param_table[i].family != BS_FAM_SYSBENCH) {
			/* A field families share (direct) is sysbench's. */
			if (bs_param_find_in(BS_FAM_SYSBENCH,
					     bs_param_table[i].key) < 0)
				assert_false(bs_param_known(&r->params, i));
			continue;
		}
		bs_buf_addf(b, "%s%s=", n++ ? " " : "", bs_param_table[i].key);
		if (bs_param_known(&r->params, i))
			bs_param_format(&r->params, i, b);
		else
			bs_buf_addc(b, '-');
	}
}

static void add_results(struct bs_buf *b, const struct bs_run *r)
{
	char num[64];
	int m;

	for (m = 0; m < bs_nmetrics; m++) {
		if (r->res[m].status == BS_ST_NOT_RUN)
			continue;
		bs_buf_addf(b, " %s=%s", bs_metrics[m].key,
			    bs_fmt_g(num, sizeof(num), r->res[m].value));
	}
}

/* The expected value of metric m, or NAN when it must not be stored. */
static double want_of(const struct want_run *w, int m)
{
	size_t i;

	for (i = 0; w->res[i].key; i++)
		if (strcmp(w->res[i].key, bs_metrics[m].key) == 0 &&
		    bs_metrics[m].family == BS_FAM_SYSBENCH)
			return w->res[i].v;
	return NAN;
}

static void check_run(const struct bs_run *r, const struct want_run *w)
{
	struct bs_buf params = BS_BUF_INIT;
	char sha[BS_SHA256_HEX];
	size_t i, n;
	int m;

	assert_int_equal(r->family, BS_FAM_SYSBENCH);
	assert_string_equal(r->tool, "sysbench");
	assert_string_equal(r->format, w->format);
	if (w->version)
		assert_string_equal(r->tool_version, w->version);
	else
		assert_null(r->tool_version);
	assert_true(r->source_line == w->line);
	if (w->warning)
		assert_string_equal(r->warning, w->warning);
	else
		assert_null(r->warning);
	add_params(&params, r);
	assert_string_equal(bs_buf_str(&params), w->params);
	bs_buf_release(&params);
	/* Every value the tool printed (and the percentiles of its
	 * histogram), and nothing else. */
	for (n = 0; w->res[n].key; n++)
		assert_true(bs_metric_find(BS_FAM_SYSBENCH, w->res[n].key) >=
			    0);
	for (m = 0; m < bs_nmetrics; m++) {
		double want = want_of(w, m);

		if (isnan(want)) {
			if (r->res[m].status != BS_ST_NOT_RUN)
				fail_msg("%s stored, but not printed",
					 bs_metrics[m].key);
			assert_true(isnan(r->res[m].value));
			continue;
		}
		if (r->res[m].status != BS_ST_OK)
			fail_msg("%s not stored", bs_metrics[m].key);
		if (fabs(r->res[m].value - want) > 1e-12 * fabs(want))
			fail_msg("%s: got %.17g, want %.17g", bs_metrics[m].key,
				 r->res[m].value, want);
	}
	/* The run's text: from its first line to its last, digested. */
	assert_non_null(r->raw);
	i = strlen(w->first);
	assert_true(strncmp(r->raw, w->first, i) == 0);
	n = strlen(r->raw);
	assert_true(n > 0 && r->raw[n - 1] != '\n');
	bs_sha256_hex(r->raw, n, sha);
	assert_string_equal(r->sha256, sha);
}

static int on_run(struct bs_run *r, void *ctx)
{
	struct coll *c = ctx;

	if (c->fc) {
		assert_true(c->nruns < c->fc->nruns);
		check_run(r, &c->fc->runs[c->nruns]);
	}
	c->nruns++;
	bs_buf_addf(&c->all, "run L%" PRId64 " %s %s %s ", r->source_line,
		    r->format, r->tool_version ? r->tool_version : "-",
		    r->sha256);
	add_params(&c->all, r);
	add_results(&c->all, r);
	bs_buf_addf(&c->all, " at=%" PRId64 " warn=%s\n", r->measured_at,
		    r->warning ? r->warning : "-");
	return 0;
}

static int on_reject(int64_t line, const char *raw, size_t len, int truncated,
		     const char *reason, void *ctx)
{
	struct coll *c = ctx;

	(void)raw;
	assert_false(truncated);
	bs_buf_addf(&c->log, "reject L%" PRId64 " %s\n", line, reason);
	bs_buf_addf(&c->all, "reject L%" PRId64 " %s (%zu bytes)\n", line,
		    reason, len);
	return 0;
}

static void on_warn(int64_t line, const char *msg, void *ctx)
{
	struct coll *c = ctx;

	bs_buf_addf(&c->log, "warn L%" PRId64 " %s\n", line, msg);
	bs_buf_addf(&c->all, "warn L%" PRId64 " %s\n", line, msg);
}

/* Feeds src in chunks of chunk bytes (0: at once) into c. */
static void feed(const char *src, size_t len, size_t chunk, struct coll *c)
{
	struct bs_ingest_cb cb = {on_run, on_reject, on_warn, c};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest *p = bs_ingest_new("t.txt", &cb, NULL);
	struct bs_ingest_stats st;
	size_t off = 0;

	if (chunk == 0)
		chunk = len ? len : 1;
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;

		assert_int_equal(bs_ingest_feed(p, src + off, n, &err), 0);
		off += n;
	}
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	bs_ingest_stats(p, &st);
	bs_buf_addf(&c->all, "runs=%" PRId64 " rejects=%" PRId64 "\n", st.runs,
		    st.rejects);
	bs_ingest_free(p);
}

/* The events of src at once; caller frees. */
static char *events_of(const char *src, size_t len, size_t chunk)
{
	struct coll c = {NULL, 0, BS_BUF_INIT, BS_BUF_INIT};

	feed(src, len, chunk, &c);
	bs_buf_release(&c.log);
	return bs_buf_detach(&c.all, NULL);
}

static void test_files(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct file_case *fc = &cases[i];
		struct coll c = {fc, 0, BS_BUF_INIT, BS_BUF_INIT};
		size_t len;
		char *src = read_file(fc->file, &len);

		print_message("%s\n", fc->file);
		feed(src, len, 0, &c);
		assert_int_equal(c.nruns, fc->nruns);
		assert_string_equal(bs_buf_str(&c.log), fc->log);
		bs_buf_release(&c.log);
		bs_buf_release(&c.all);
		free(src);
	}
}

/* The mail's Date: header dates the quoted run; a capture has no date. */
static void test_mail_date(void **state)
{
	static const char date[] = "Tue, 01 Dec 2026 04:10:00 +0000";
	char want[64];
	size_t len;
	char *src =
		read_file("tests/data/sysbench-1.0.20-mail-quoted.txt", &len);
	char *got = events_of(src, len, 0);
	int64_t t;

	(void)state;
	assert_non_null(strstr(src, date));
	assert_int_equal(bs_time_parse_text(date, strlen(date), &t), 0);
	snprintf(want, sizeof(want), " at=%" PRId64 " ", t);
	assert_non_null(strstr(got, want));
	free(got);
	free(src);
	src = read_file("samples/sysbench-1.0.20-rndrw.txt", &len);
	got = events_of(src, len, 0);
	snprintf(want, sizeof(want), " at=%" PRId64 " ", (int64_t)BS_NONE);
	assert_non_null(strstr(got, want));
	free(got);
	free(src);
}

/* Every input gives the same events at every chunk size. */
static void test_chunks(void **state)
{
	size_t i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t len;
		char *src = read_file(cases[i].file, &len);
		char *want = events_of(src, len, 0);
		size_t stride = len > 4096 ? 61 : 5;

		for (k = 1; k <= len; k += k < 64 ? 1 : stride) {
			char *got = events_of(src, len, k);

			if (strcmp(got, want) != 0)
				fail_msg("%s at chunk size %zu:\n%s\nwant:\n%s",
					 cases[i].file, k, got, want);
			free(got);
		}
		free(want);
		free(src);
	}
}

/* ---- edited inputs: each a real capture with one thing changed ---- */

/* clang-format off */
/* samples/sysbench-1.0.20-rndwr.txt from its summary on. */
#define SUM10(reads, pct)                                                   \
	"File operations:\n"                                                 \
	"    reads/s:                      " reads "\n"                      \
	"    writes/s:                     1984.54\n"                        \
	"    fsyncs/s:                     2554.60\n"                        \
	"\n"                                                                 \
	"Throughput:\n"                                                      \
	"    read, MiB/s:                  0.00\n"                           \
	"    written, MiB/s:               31.01\n"                          \
	"\n"                                                                 \
	"General statistics:\n"                                              \
	"    total time:                          2.0141s\n"                 \
	"    total number of events:              9021\n"                    \
	"\n"                                                                 \
	"Latency (ms):\n"                                                    \
	"         min:                                    0.00\n"            \
	"         avg:                                    0.22\n"            \
	"         max:                                    8.78\n"            \
	"         " pct "\n"                                                 \
	"         sum:                                 1989.89\n"            \
	"\n"                                                                 \
	"Threads fairness:\n"                                                \
	"    events (avg/stddev):           9021.0000/0.00\n"                \
	"    execution time (avg/stddev):   1.9899/0.00\n"

/* samples/sysbench-0.4.12-seqwr.txt's options and summary. */
#define OPT04(flags)                                                        \
	"sysbench 0.4.12: multi-threaded system evaluation benchmark\n"      \
	"Running the test with following options:\n"                         \
	"Number of threads: 1\n"                                             \
	"Extra file open flags: " flags "\n"                                 \
	"128 files, 400Mb each\n"                                            \
	"50Gb total file size\n"                                             \
	"Block size 16Kb\n"                                                  \
	"Periodic FSYNC enabled, calling fsync() each 100 requests.\n"       \
	"Calling fsync() at the end of test, Enabled.\n"                     \
	"Using synchronous I/O mode\n"                                       \
	"Doing sequential write (creation) test\n"                           \
	"Threads started!\n"                                                 \
	"Done.\n"
#define SUM04(ops, events, min, pct)                                        \
	"Operations performed: " ops "\n"                                    \
	"Read 0b Written 50Gb Total transferred 50Gb (235.58Mb/sec)\n"       \
	"15077.29 Requests/sec executed\n"                                   \
	"Test execution summary:\n"                                          \
	"total time: 217.3335s\n"                                            \
	"total number of events: " events "\n"                               \
	"total time taken by event execution: 199.1954\n"                    \
	"per-request statistics:\n"                                          \
	"min: " min "\n"                                                     \
	"avg: 0.06ms\n"                                                      \
	"max: 2034.85ms\n"                                                   \
	pct                                                                  \
	"Threads fairness:\n"                                                \
	"events (avg/stddev): 3276800.0000/0.00\n"                           \
	"execution time (avg/stddev): 199.1954/0.00\n"
#define OPS04 "0 Read, 3276800 Write, 128 Other = 3276928 Total"

struct edit_case {
	const char *what;
	const char *text;
	const char *events;  /* every event, as events_of() writes them */
};

static const struct edit_case edits[] = {
	{ "a headerless 1.0 summary: no version, no parameters",
	  "Pasted from the wiki:\n" SUM10("0.00", "95th percentile:       0.39") "more text\n",
	  "run L2 sysbench-1.0 - " },
	{ "a 1.0 percentile with no key: a warning",
	  SUM10("0.00", "97th percentile:       0.40"),
	  "warn L1 the 97th percentile latency (0.40) is not stored: bstore keeps p50, p90, p95 and p99\n" },
	{ "a value that is not a number",
	  SUM10("12x", "95th percentile:       0.39"),
	  "reject L2 sysbench 'reads/s': '12x' is not a number (37 bytes)\n" },
	{ "a negative value",
	  SUM10("-1.00", "95th percentile:       0.39"),
	  "reject L2 sysbench 'reads/s': '-1.00' is not a number (39 bytes)\n" },
	{ "a value past its limit",
	  SUM10("1e300", "95th percentile:       0.39"),
	  "reject L2 sysbench 'reads/s': 1e+300 is beyond any disk (at most 1000000000 ops/s) (39 bytes)\n" },
	{ "a 1.0 summary without its percentile line",
	  SUM10("0.00", "sum:     1989.89"),
	  "reject L1 " },
	{ "0.4 with the flags of --file-extra-flags=direct, in decimal",
	  OPT04("16384") SUM04(OPS04, "3276800", "0.02ms", "approx. 95 percentile: 0.03ms\n"),
	  "extra_flags=direct" },
	{ "0.4 with open flags that are not Linux's sync, dsync, direct",
	  OPT04("12345") SUM04(OPS04, "3276800", "0.02ms", "approx. 95 percentile: 0.03ms\n"),
	  "extra_flags=12345" },
	{ "0.5 prints the flags in hex, and reads, writes",
	  "sysbench 0.5:  multi-threaded system evaluation benchmark\n"
	  "Extra file open flags: 4000\n"
	  "Using synchronous I/O mode\n"
	  "Doing sequential write (creation) test\n"
	  SUM04("0 reads, 3276800 writes, 128 Other = 3276928 Total", "3276800", "0.02ms", "approx.  95 percentile:               0.03ms\n"),
	  "run L1 sysbench-0.4 0.5 " },
	{ "1.0.0-1.0.12 print the flags in hex",
	  "sysbench 1.0.11 (using bundled LuaJIT 2.1.0-beta2)\n"
	  "Extra file open flags: 4000\n"
	  "Using synchronous I/O mode\n"
	  "Doing random write test\n"
	  SUM10("0.00", "95th percentile:       0.39"),
	  "extra_flags=direct" },
	{ "0.4 without events: latencies are not stored, nor a percentile",
	  OPT04("0") SUM04("0 Read, 0 Write, 0 Other = 0 Total", "0", "18446744073709.55ms", ""),
	  "warn L1 no events: the latencies are not stored\n" },
	{ "0.4 with another percentile, in seconds",
	  OPT04("0") SUM04(OPS04, "3276800", "0.00002s", "approx.  99 percentile:               0.00003s\n"),
	  "run L1 sysbench-0.4 0.4.12" },
	{ "0.4 summary cut after its requests line",
	  OPT04("0") "Operations performed: " OPS04 "\n"
	  "Read 0b Written 50Gb Total transferred 50Gb (235.58Mb/sec)\n"
	  "15077.29 Requests/sec executed\n\n(cut)\n",
	  "requests_per_s=15077.29 read_mib_s=0 written_mib_s=235.58 at=" },
	{ "a cut 0.4 summary: the lines cut are named",
	  OPT04("0") "Operations performed: " OPS04 "\n"
	  "Read 0b Written 50Gb Total transferred 50Gb (235.58Mb/sec)\n\n(cut)\n",
	  "warn L1 a shortened sysbench 0.4 summary: 'Requests/sec executed', "
	  "'total time', 'total number of events', 'min', 'avg', 'max' cut, not "
	  "reported; the rates are over 217.34 s, the total transferred over its "
	  "rate\n" },
	{ "a cut 0.4 summary without a total rate: no rates",
	  OPT04("0") "Operations performed: " OPS04 "\n\n(cut)\n",
	  "no total time: no rates\n" },
	{ "a 0.4 summary without its counts: rejected",
	  OPT04("0") "15077.29 Requests/sec executed\n"
	  "Test execution summary:\n"
	  "total time: 217.3335s\n"
	  "total number of events: 3276800\n",
	  "reject L14 sysbench 0.4 summary without 'Operations performed' (" },
	{ "later 0.4 builds and 0.5: reads, writes",
	  OPT04("0") SUM04("0 reads, 3276800 writes, 128 Other = 3276928 Total", "3276800", "0.02ms", "approx. 95 percentile: 0.03ms\n"),
	  "run L1 sysbench-0.4 0.4.12" },
	{ "a fileio run that never printed a summary",
	  OPT04("0") "\nmore text\n",
	  "reject L1 " },
	{ "a sysbench master build's other summary",
	  "sysbench 1.1.0-ead2689 (using bundled LuaJIT 2.1.0-beta3)\n"
	  "Extra file open flags: (none)\n"
	  "Using synchronous I/O mode\n"
	  "Doing random r/w test\n"
	  "Throughput:\n"
	  "         read:  IOPS=7209.10 112.64 MiB/s (118.11 MB/s)\n",
	  "reject L1 sysbench fileio run without a summary (this is sysbench 1.1.0-ead2689; bstore reads the 0.4 and 1.0 layouts) (" },
	{ "0.4 prepare and an OLTP test: nothing",
	  "sysbench 0.4.12:  multi-threaded system evaluation benchmark\n\n"
	  "128 files, 409600Kb each, 51200Mb total\n"
	  "Creating files for the test...\n"
	  "sysbench 0.4.12:  multi-threaded system evaluation benchmark\n\n"
	  "Running the test with following options:\n"
	  "Number of threads: 8\n\n"
	  "Doing OLTP test.\n"
	  "Running mixed OLTP test\n"
	  "Threads started!\n"
	  "Done.\n\n"
	  "Test execution summary:\n"
	  "    total time:                          60.0004s\n"
	  "    total number of events:              1040097\n",
	  "runs=0 rejects=0\n" },
};
/* clang-format on */

static void test_edits(void **state)
{
	size_t i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(edits); i++) {
		const struct edit_case *e = &edits[i];
		size_t len = strlen(e->text);
		char *got = events_of(e->text, len, 0);

		if (strstr(got, e->events) == NULL)
			fail_msg("%s: '%s' not in:\n%s", e->what, e->events,
				 got);
		for (k = 1; k < len; k += 7) {
			char *again = events_of(e->text, len, k);

			assert_string_equal(again, got);
			free(again);
		}
		free(got);
	}
}

/* The events of the edit whose description starts with what. */
static char *edit_events(const char *what)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(edits); i++)
		if (strncmp(edits[i].what, what, strlen(what)) == 0)
			return events_of(edits[i].text, strlen(edits[i].text),
					 0);
	fail_msg("no edit '%s'", what);
	return NULL;
}

/* The values of the edits above, where the event text is not enough. */
static void test_edit_values(void **state)
{
	char want[128], num[64];
	char *got;

	(void)state;
	/* "0.00002s" is 0.02 ms; the 99th percentile goes to p99. */
	got = edit_events("0.4 with another percentile");
	snprintf(want, sizeof(want), " latency_min_ms=%s ",
		 bs_fmt_g(num, sizeof(num), 0.00002 * 1000));
	assert_non_null(strstr(got, want));
	snprintf(want, sizeof(want), " latency_p99_ms=%s ",
		 bs_fmt_g(num, sizeof(num), 0.00003 * 1000));
	assert_non_null(strstr(got, want));
	assert_null(strstr(got, "latency_p95_ms"));
	free(got);
	/* Without events: no latency, no percentile, the rates stay. */
	got = edit_events("0.4 without events");
	assert_null(strstr(got, "latency_"));
	assert_non_null(strstr(got, " writes_per_s=0 "));
	assert_non_null(strstr(got, " events=0 "));
	free(got);
	/* Unknown flags: stored as printed, with a warning. */
	got = edit_events("0.4 with open flags that are not");
	assert_non_null(strstr(got, "warn L1 extra open flags '12345' are "
				    "not Linux's O_SYNC, O_DSYNC or O_DIRECT: "
				    "stored as printed\n"));
	free(got);
	/* 0.5's hex flags. */
	got = edit_events("0.5 prints");
	assert_non_null(strstr(got, " extra_flags=direct "));
	free(got);
	/* The percentile line missing: named. */
	got = edit_events("a 1.0 summary without its percentile");
	assert_non_null(strstr(got, "reject L1 sysbench 1.0 summary without "
				    "'NNth percentile' ("));
	free(got);
	got = edit_events("a fileio run that never printed");
	assert_non_null(strstr(got, "reject L1 sysbench fileio run without a "
				    "summary ("));
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_mail_date),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_edits),
		cmocka_unit_test(test_edit_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
