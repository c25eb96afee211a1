/*
 * tests/unit/test_fileio.c - `bstore fileio`'s option table
 * (core/fileio_opts.c): sysbench 1.0.20's defaults, values valid and not
 * with the exact message, bs_fileio_check(), the aliases; sysbench's
 * latency histogram (core/fileio_hist.c); and the text and record of
 * core/fileio_text.c: the stored values are the printed ones, the
 * histogram's rows are its series.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/fileio.h"
#include "util/buf.h"
#include "util/banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_defaults(void **state)
{
	struct bs_fileio_opts o;

	(void)state;
	bs_fileio_defaults(&o);
	assert_int_equal(o.file_num, 128);
	assert_int_equal(o.block_size, 16384);
	assert_int_equal(o.total_size, 2147483648ull);
	assert_int_equal(o.mode, BS_FILEIO_NOMODE);
	assert_int_equal(o.io_mode, BS_FILEIO_IO_SYNC);
	assert_int_equal(o.extra_flags, 0);
	assert_int_equal(o.fsync_freq, 100);
	assert_int_equal(o.fsync_all, 0);
	assert_int_equal(o.fsync_end, 1);
	assert_int_equal(o.fsync_mode, BS_FILEIO_FSYNC);
	assert_true(o.rw_ratio == 1.5);
	assert_int_equal(o.threads, 1);
	assert_int_equal(o.time_s, 10);
	assert_int_equal(o.events, 0);
	assert_int_equal(o.percentile, 95);
	assert_int_equal(o.rand_type, BS_FILEIO_RAND_UNIFORM);
	assert_int_equal(o.validate, 0);
	assert_int_equal(o.async_backlog, 128);
	assert_int_equal(o.merged_requests, 0);
	assert_int_equal(o.histogram, 0);
	/* sysbench: --file-fsync-all overrides the other two. */
	bs_fileio_settle(&o);
	assert_int_equal(o.fsync_freq, 100);
	o.fsync_all = 1;
	bs_fileio_settle(&o);
	assert_int_equal(o.fsync_freq, 0);
	assert_int_equal(o.fsync_end, 0);
}

/* Every alias names an option of the table, and is none itself. */
static void test_aliases(void **state)
{
	int i;

	(void)state;
	assert_int_equal(bs_fileio_naliases, 3);
	for (i = 0; i < bs_fileio_naliases; i++) {
		assert_true(bs_fileio_option_find(
				    bs_fileio_aliases[i].option) >= 0);
		assert_int_equal(bs_fileio_option_find(
					 bs_fileio_aliases[i].name),
				 -1);
	}
	assert_string_equal(bs_fileio_aliases[0].name, "num-threads");
	assert_string_equal(bs_fileio_aliases[0].option, "threads");
}

/* sysbench's buckets: 0.001 to 100000 ms, ends clamped, and the values
 * sysbench prints (samples/sysbench-1.0.20-rndrd-histogram.txt: 23 rows
 * of 0.001 before 0.002). */
static void test_hist(void **state)
{
	struct bs_fileio_hist h, h2;
	unsigned i;

	(void)state;
	memset(&h, 0, sizeof(h));
	bs_fileio_hist_add(&h, 0);
	bs_fileio_hist_add(&h, 1);    /* 1 ns */
	bs_fileio_hist_add(&h, 1000); /* 0.001 ms */
	assert_int_equal(h.n[0], 3);
	bs_fileio_hist_add(&h, UINT64_MAX); /* beyond 100000 ms */
	assert_int_equal(h.n[BS_FILEIO_HIST_SIZE - 1], 1);
	assert_true(fabs(bs_fileio_hist_ms(0) - 0.001) < 1e-12);
	assert_true(fabs(bs_fileio_hist_ms(BS_FILEIO_HIST_SIZE - 1) - 100000) <
		    1e-6);
	assert_true(bs_fileio_hist_ms(22) < 0.0015);
	assert_true(bs_fileio_hist_ms(23) >= 0.0015);
	/* A latency goes to the bucket whose value is nearest (in log). */
	for (i = 1; i < BS_FILEIO_HIST_SIZE - 1; i += 97) {
		memset(&h2, 0, sizeof(h2));
		bs_fileio_hist_add(&h2, (uint64_t)(bs_fileio_hist_ms(i) * 1e6 +
						   0.5));
		assert_int_equal(h2.n[i], 1);
	}
	bs_fileio_hist_merge(&h2, &h);
	assert_int_equal(h2.n[0], 3);
}

/* clang-format off */
static const struct {
	const char *name, *value;
	const char *msg; /* NULL: accepted */
} cases[] = {
	{ "file-num", "4", NULL },
	{ "file-num", "0", "--file-num: 0 is out of range (1 to 1000000)" },
	{ "file-num", "x", "--file-num: 'x' is not a whole number" },
	{ "file-total-size", "4M", NULL },
	{ "file-total-size", "4Q", "--file-total-size: '4Q' is not a size (bytes, or with k, m, g or t)" },
	{ "file-block-size", "4k", NULL },
	{ "file-test-mode", "rndrw", NULL },
	{ "file-test-mode", "rnd\x01", "--file-test-mode: 'rnd?' is not one of seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw" },
	{ "file-extra-flags", "direct,dsync", NULL },
	{ "file-extra-flags", "direct,odd", "--file-extra-flags: 'odd' is not one of sync, dsync, direct" },
	{ "file-fsync-all", "on", NULL },
	{ "file-fsync-all", NULL, NULL },
	{ "file-fsync-end", "maybe", "--file-fsync-end: 'maybe' is not on or off" },
	{ "file-rw-ratio", "-1", "--file-rw-ratio: '-1' is not a number from 0 to 1e9" },
	{ "percentile", "101", "--percentile: 101 is out of range (0 to 100)" },
	{ "threads", NULL, "--threads needs a value" },
};
/* clang-format on */

static void test_values(void **state)
{
	struct bs_fileio_opts o;
	struct bs_err e2 = BS_ERR_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bs_err err = BS_ERR_INIT;
		int k = bs_fileio_option_find(cases[i].name);
		int rc;

		assert_true(k >= 0);
		bs_fileio_defaults(&o);
		rc = bs_fileio_option_set(&o, k, cases[i].value, &err);
		if (cases[i].msg == NULL) {
			assert_int_equal(rc, 0);
		} else {
			assert_int_equal(rc, -BS_EINVAL);
			assert_string_equal(err.msg, cases[i].msg);
		}
	}
	bs_fileio_defaults(&o);
	assert_int_equal(bs_fileio_option_set(&o,
					      bs_fileio_option_find(
						      "file-extra-flags"),
					      "sync,direct", &e2),
			 0);
	assert_int_equal(o.extra_flags, BS_FILEIO_F_SYNC | BS_FILEIO_F_DIRECT);
}

static void test_check(void **state)
{
	struct bs_fileio_opts o;
	struct bs_err err = BS_ERR_INIT;

	(void)state;
	bs_fileio_defaults(&o);
	assert_int_equal(bs_fileio_check(&o, 0, &err), 0);
	assert_int_equal(bs_fileio_check(&o, 1, &err), -BS_EINVAL);
	assert_string_equal(err.msg, "missing --file-test-mode (seqwr, "
				     "seqrewr, seqrd, rndrd, rndwr or rndrw)");
	bs_err_reset(&err);
	o.mode = BS_FILEIO_RNDRD;
	o.io_mode = BS_FILEIO_IO_ASYNC;
	assert_int_equal(bs_fileio_check(&o, 1, &err), 0);
	o.validate = 1;
	assert_int_equal(bs_fileio_check(&o, 1, &err), -BS_EINVAL);
	assert_string_equal(err.msg, "--validate cannot be used with "
				     "--file-io-mode=async: requests in "
				     "flight may read a block while it is "
				     "written");
	bs_err_reset(&err);
	o.validate = 0;
	o.io_mode = BS_FILEIO_IO_SYNC;
	/* Merged requests: sequential modes only, as sysbench. */
	o.merged_requests = 4;
	assert_int_equal(bs_fileio_request_size(&o), 16384);
	o.mode = BS_FILEIO_SEQRD;
	assert_int_equal(bs_fileio_request_size(&o), 65536);
	o.merged_requests = 1 << 20;
	assert_int_equal(bs_fileio_check(&o, 1, &err), -BS_EINVAL);
	assert_string_equal(err.msg, "--file-merged-requests 1048576 of "
				     "16384-byte blocks make requests over 1 "
				     "GiB");
	bs_err_reset(&err);
	o.merged_requests = 0;
	o.mode = BS_FILEIO_RNDRD;
	o.total_size = 1 << 20;
	o.file_num = 128; /* 8 KiB files, 16 KiB blocks */
	assert_int_equal(bs_fileio_check(&o, 1, &err), -BS_EINVAL);
	assert_string_equal(err.msg,
			    "--file-block-size 16384 is larger than a file "
			    "(8192 bytes: --file-total-size / --file-num)");
}

/* The value after the last blank of the line that starts with label. */
static double printed(const char *text, const char *label)
{
	const char *p = strstr(text, label), *e, *b;

	assert_non_null(p);
	e = strchr(p, '\n');
	for (b = e; b[-1] != ' '; b--)
		;
	return strtod(b, NULL);
}

static void test_record(void **state)
{
	struct bs_fileio_opts o;
	struct bs_fileio_result res;
	struct bs_buf text = BS_BUF_INIT;
	struct bs_run r;
	int m;

	(void)state;
	bs_fileio_defaults(&o);
	o.mode = BS_FILEIO_RNDRW;
	memset(&res, 0, sizeof(res));
	bs_hist_init(&res.hist);
	bs_hist_add(&res.hist, 12345);
	bs_hist_add(&res.hist, 67890);
	bs_hist_add(&res.hist, 1234567);
	res.reads = 1000;
	res.writes = 667;
	res.fsyncs = 33;
	res.events = 3;
	res.bytes_read = 1000 * 16384ull;
	res.bytes_written = 667 * 16384ull;
	res.time_s = 1.2345678;
	memset(&res.sbhist, 0, sizeof(res.sbhist));
	bs_fileio_hist_add(&res.sbhist, 12345);
	bs_fileio_hist_add(&res.sbhist, 67890);
	bs_fileio_hist_add(&res.sbhist, 1234567);
	o.histogram = 1;
	o.merged_requests = 2;
	bs_fileio_text_head(&o, "0.1.0", 7, &text);
	bs_fileio_text_summary(&o, &res, &text);
	assert_non_null(strstr(bs_buf_str(&text), "Doing random r/w test\n"));
	bs_run_init(&r);
	bs_fileio_to_run(&o, &res, "0.1.0", "box", 0, bs_buf_str(&text), &r);
	m = bs_metric_find(BS_FAM_SYSBENCH, "reads_per_s");
	assert_true(r.res[m].value == printed(bs_buf_str(&text), "reads/s:"));
	m = bs_metric_find(BS_FAM_SYSBENCH, "total_time_s");
	assert_true(fabs(r.res[m].value - 1.2346) < 1e-9);
	m = bs_metric_find(BS_FAM_SYSBENCH, "latency_max_ms");
	assert_true(r.res[m].value == printed(bs_buf_str(&text), "max:"));
	m = bs_metric_find(BS_FAM_SYSBENCH, "latency_p95_ms");
	assert_true(r.res[m].value ==
		    printed(bs_buf_str(&text), "95th percentile:"));
	assert_string_equal(r.params.mode, "rndrw");
	assert_string_equal(r.params.extra_flags, "");
	assert_string_equal(r.tool, "bstore");
	assert_string_equal(r.format, BS_FMT_BSTORE_FILEIO);
	assert_non_null(strstr(bs_buf_str(&text),
			       "Merging requests up to "
			       "32KiB for sequential IO.\n"));
	/* The histogram: sysbench's layout, its rows the series. */
	assert_non_null(strstr(bs_buf_str(&text),
			       "Threads started!\n\n"
			       "Latency histogram (values are in "
			       "milliseconds)\n"
			       "       value  ------------- distribution "
			       "------------- count\n"
			       "      0.0124 |**************************"
			       "************** 1\n"));
	assert_non_null(strstr(bs_buf_str(&text),
			       "      1.2273 |****************************"
			       "************ 1\n \n\nFile operations:\n"));
	m = bs_metric_find(BS_FAM_SYSBENCH, "latency_histogram");
	assert_int_equal(r.nseries, 1);
	assert_int_equal(r.series[0].metric, m);
	assert_string_equal(r.series[0].axis, "latency_ms");
	assert_int_equal(r.series[0].n, 3);
	assert_true(r.series[0].pt[0].x == 0.0124);
	assert_true(r.series[0].pt[2].x == 1.2273);
	assert_true(r.series[0].pt[0].y + r.series[0].pt[1].y +
			    r.series[0].pt[2].y ==
		    (double)res.events);
	assert_int_equal(r.res[m].status, BS_ST_NOT_RUN);
	bs_run_release(&r);
	bs_buf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults), cmocka_unit_test(test_values),
		cmocka_unit_test(test_aliases),  cmocka_unit_test(test_hist),
		cmocka_unit_test(test_check),    cmocka_unit_test(test_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
