/*
 * tests/unit/test_bench_opts.c - bonnie++'s option syntax (core/bench_opts.h):
 * -s, -n, -f, -c and -r arguments, valid and not, with the exact message;
 * the RAM rule; and the limits bs_bench_check() enforces. A refused
 * argument leaves the options as they were.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/bench.h"
#include "core/bench_opts.h"
#include "util/banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* An argument of 100 characters: quoted cut to 64 and "...". */
#define LONG_ARG                                                               \
	"1234567890123456789012345678901234567890"                             \
	"1234567890123456789012345678901234567890xxxxxxxxxxxxxxxxxxxx"
#define LONG_QUOTED                                                            \
	"1234567890123456789012345678901234567890123456789012345678901234..."

/*
 * Runs parse on arg against fresh defaults. A valid argument (msg NULL)
 * returns 0; a bad one -BS_EINVAL with msg, leaving o untouched.
 */
static void expect_parse(int (*parse)(struct bs_bench_opts *, const char *,
				      struct bs_err *),
			 const char *arg, const char *msg,
			 struct bs_bench_opts *o)
{
	struct bs_bench_opts before;
	struct bs_err err = BS_ERR_INIT;
	int rc;

	bs_bench_defaults(o);
	memcpy(&before, o, sizeof(before));
	if (msg == NULL) {
		if (parse(o, arg, &err) != 0)
			fail_msg("'%s' refused: %s", arg, err.msg);
		return;
	}
	rc = parse(o, arg, &err);
	if (rc != -BS_EINVAL || strcmp(err.msg, msg) != 0)
		fail_msg("'%s': got %d '%s', expected '%s'", arg, rc, err.msg,
			 msg);
	assert_memory_equal(o, &before, sizeof(before));
}

static void test_s(void **state)
{
	/* clang-format off */
	static const struct {
		const char *arg, *msg;
		uint64_t mib;
		uint32_t chunk;
		uint64_t seeks;
		uint32_t procs;
	} cases[] = {
		{ "8", NULL, 8, 8192, 8192, 5 },
		{ "0", NULL, 0, 8192, 8192, 5 },
		{ "2g", NULL, 2048, 8192, 8192, 5 },
		{ "8G", NULL, 8192, 8192, 8192, 5 },
		{ "1536m", NULL, 1536, 8192, 8192, 5 },
		{ "4194304k", NULL, 4096, 8192, 8192, 5 },
		{ "1t", NULL, 1048576, 8192, 8192, 5 },
		{ "16:4k", NULL, 16, 4096, 8192, 5 },
		{ "16:512:1000:2", NULL, 16, 512, 1000, 2 },
		{ "16:1m:2k:64", NULL, 16, 1048576, 2048, 64 },
		{ "16::100", NULL, 16, 8192, 100, 5 },
		{ "16:::3", NULL, 16, 8192, 8192, 3 },
		{ "16:4k::", NULL, 16, 4096, 8192, 5 },
		{ "16::0", NULL, 16, 8192, 0, 5 },
		/* Syntax only: the range is bs_bench_check's. */
		{ "16:3000", NULL, 16, 3000, 8192, 5 },
		{ "16:::0", NULL, 16, 8192, 8192, 0 },

		{ "", "-s: bad size ''", 0, 0, 0, 0 },
		{ "x", "-s: bad size 'x'", 0, 0, 0, 0 },
		{ "-1", "-s: bad size '-1'", 0, 0, 0, 0 },
		{ "8 ", "-s: bad size '8 '", 0, 0, 0, 0 },
		{ "512k", "-s: bad size '512k'", 0, 0, 0, 0 },
		{ "1.5g", "-s: bad size '1.5g'", 0, 0, 0, 0 },
		{ "18446744073709551616", "-s: bad size '18446744073709551616'",
		  0, 0, 0, 0 },
		{ "8:4k:1:2:3", "-s: bad size '8:4k:1:2:3'", 0, 0, 0, 0 },
		{ ":4k", "-s: bad size ':4k'", 0, 0, 0, 0 },
		{ "8:3k5", "-s: bad chunk size '3k5'", 0, 0, 0, 0 },
		{ "8:8g", "-s: bad chunk size '8g'", 0, 0, 0, 0 },
		{ "8::x", "-s: bad number of seeks 'x'", 0, 0, 0, 0 },
		{ "8::1m", "-s: bad number of seeks '1m'", 0, 0, 0, 0 },
		{ "8:::0x", "-s: bad number of seek threads '0x'", 0, 0, 0, 0 },
		{ "8:::5000000k", "-s: bad number of seek threads '5000000k'",
		  0, 0, 0, 0 },
		{ "8:\x01", "-s: bad chunk size '?'", 0, 0, 0, 0 },
		{ LONG_ARG, "-s: bad size '" LONG_QUOTED "'", 0, 0, 0, 0 },
	};
	/* clang-format on */
	struct bs_bench_opts o;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		expect_parse(bs_bench_opts_parse_s, cases[i].arg, cases[i].msg,
			     &o);
		if (cases[i].msg != NULL)
			continue;
		assert_int_equal(o.p.file_size_mib, cases[i].mib);
		assert_int_equal(o.p.io_chunk_bytes, cases[i].chunk);
		assert_int_equal(o.p.seeks, cases[i].seeks);
		assert_int_equal(o.p.seek_procs, cases[i].procs);
	}
}

static void test_n(void **state)
{
	/* clang-format off */
	static const struct {
		const char *arg, *msg;
		uint64_t num;
		int64_t max, min;
		uint32_t dirs, chunk;
	} cases[] = {
		{ "16", NULL, 16, 0, 0, 1, 8192 },
		{ "0", NULL, 0, 0, 0, 1, 8192 },
		{ "1m", NULL, 1024, 0, 0, 1, 8192 },
		{ "2M", NULL, 2048, 0, 0, 1, 8192 },
		{ "16:100", NULL, 16, 100, 0, 1, 8192 },
		{ "16:100000:16", NULL, 16, 100000, 16, 1, 8192 },
		{ "16:100000:16:64", NULL, 16, 100000, 16, 64, 8192 },
		{ "16:0:0:64", NULL, 16, 0, 0, 64, 8192 },
		{ "16:-1", NULL, 16, BS_SIZE_LINK, 0, 1, 8192 },
		{ "16:link", NULL, 16, BS_SIZE_LINK, 0, 1, 8192 },
		{ "16:-2", NULL, 16, BS_SIZE_SYMLINK, 0, 1, 8192 },
		{ "16:symlink", NULL, 16, BS_SIZE_SYMLINK, 0, 1, 8192 },
		{ "16:1k:512:2k:4k", NULL, 16, 1024, 512, 2048, 4096 },
		{ "16:1g", NULL, 16, 1073741824, 0, 1, 8192 },
		{ "1:300:10:2", NULL, 1, 300, 10, 2, 8192 },
		{ "16::::", NULL, 16, 0, 0, 1, 8192 },
		{ "16::::1m", NULL, 16, 0, 0, 1, 1048576 },
		/* Syntax only: the ranges are bs_bench_check's. */
		{ "20000:10:20:0:3000", NULL, 20000, 10, 20, 0, 3000 },

		{ "1:x", "-n: bad file test spec '1:x'", 0, 0, 0, 0, 0 },
		{ "", "-n: bad file test spec ''", 0, 0, 0, 0, 0 },
		{ "m", "-n: bad file test spec 'm'", 0, 0, 0, 0, 0 },
		{ "16k", "-n: bad file test spec '16k'", 0, 0, 0, 0, 0 },
		{ "1048577m", "-n: bad file test spec '1048577m'",
		  0, 0, 0, 0, 0 },
		{ "-1", "-n: bad file test spec '-1'", 0, 0, 0, 0, 0 },
		{ "16:-3", "-n: bad file test spec '16:-3'", 0, 0, 0, 0, 0 },
		{ "16:links", "-n: bad file test spec '16:links'",
		  0, 0, 0, 0, 0 },
		{ "16:1:link", "-n: bad file test spec '16:1:link'",
		  0, 0, 0, 0, 0 },
		{ "16:::x", "-n: bad file test spec '16:::x'", 0, 0, 0, 0, 0 },
		{ "16::::8g", "-n: bad file test spec '16::::8g'",
		  0, 0, 0, 0, 0 },
		{ "16:1:2:3:4:5", "-n: bad file test spec '16:1:2:3:4:5'",
		  0, 0, 0, 0, 0 },
		{ "16:9223372036854775808",
		  "-n: bad file test spec '16:9223372036854775808'",
		  0, 0, 0, 0, 0 },
		{ "1\n6", "-n: bad file test spec '1?6'", 0, 0, 0, 0, 0 },
	};
	/* clang-format on */
	struct bs_bench_opts o;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		expect_parse(bs_bench_opts_parse_n, cases[i].arg, cases[i].msg,
			     &o);
		if (cases[i].msg != NULL)
			continue;
		assert_int_equal(o.p.num_files, cases[i].num);
		assert_int_equal(o.p.max_size, cases[i].max);
		assert_int_equal(o.p.min_size, cases[i].min);
		assert_int_equal(o.p.num_dirs, cases[i].dirs);
		assert_int_equal(o.p.file_chunk_bytes, cases[i].chunk);
	}
}

/* A later -s or -n changes only the parts it gives. */
static void test_repeated(void **state)
{
	struct bs_bench_opts o;
	struct bs_err err = BS_ERR_INIT;

	(void)state;
	bs_bench_defaults(&o);
	assert_int_equal(bs_bench_opts_parse_s(&o, "8:4k:100:2", &err), 0);
	assert_int_equal(bs_bench_opts_parse_s(&o, "16::200", &err), 0);
	assert_int_equal(o.p.file_size_mib, 16);
	assert_int_equal(o.p.io_chunk_bytes, 4096);
	assert_int_equal(o.p.seeks, 200);
	assert_int_equal(o.p.seek_procs, 2);
	assert_int_equal(bs_bench_opts_parse_n(&o, "4:100:10:3", &err), 0);
	assert_int_equal(bs_bench_opts_parse_n(&o, "8", &err), 0);
	assert_int_equal(o.p.num_files, 8);
	assert_int_equal(o.p.max_size, 100);
	assert_int_equal(o.p.num_dirs, 3);
}

static void test_f_c_r(void **state)
{
	/* clang-format off */
	static const struct {
		char opt;
		const char *arg, *msg;
		int64_t want;
	} cases[] = {
		{ 'f', NULL, NULL, 0 },
		{ 'f', "4", NULL, 4 },
		{ 'f', "0", NULL, 0 },
		{ 'f', "1g", NULL, 1024 },
		{ 'f', "x", "-f: bad per-char size 'x'", 0 },
		{ 'f', "", "-f: bad per-char size ''", 0 },
		{ 'f', "100k", "-f: bad per-char size '100k'", 0 },
		{ 'c', "1", NULL, 1 },
		{ 'c', "200", NULL, 200 },
		{ 'c', "0", "-c: concurrency must be 1 to 200", 0 },
		{ 'c', "201", "-c: concurrency must be 1 to 200", 0 },
		{ 'c', "2k", "-c: concurrency must be 1 to 200", 0 },
		{ 'c', "", "-c: concurrency must be 1 to 200", 0 },
		{ 'r', "0", NULL, 0 },
		{ 'r', "1024", NULL, 1024 },
		{ 'r', "2g", NULL, 2048 },
		{ 'r', "x", "-r: bad RAM size 'x'", 0 },
		{ 'r', "-1", "-r: bad RAM size '-1'", 0 },
		{ 'r', "9223372036854775808",
		  "-r: bad RAM size '9223372036854775808'", 0 },
	};
	/* clang-format on */
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bs_bench_opts o;
		struct bs_err err = BS_ERR_INIT;
		int64_t got = -7;
		int rc;

		bs_bench_defaults(&o);
		if (cases[i].opt == 'f') {
			rc = bs_bench_opts_parse_f(&o, cases[i].arg, &err);
			if (rc == 0)
				got = (int64_t)o.p.per_char_mib;
			else
				assert_int_equal(o.p.per_char_mib,
						 bs_param_default(
							 "per_char_mib"));
		} else if (cases[i].opt == 'c') {
			rc = bs_bench_opts_parse_c(&o, cases[i].arg, &err);
			if (rc == 0)
				got = o.p.concurrency;
			else
				assert_int_equal(o.p.concurrency, 1);
		} else {
			rc = bs_bench_opts_parse_ram(cases[i].arg, &got, &err);
			if (rc < 0)
				assert_int_equal(got, -7);
		}
		if (cases[i].msg == NULL) {
			if (rc != 0)
				fail_msg("-%c '%s' refused: %s", cases[i].opt,
					 cases[i].arg, err.msg);
			assert_int_equal(got, cases[i].want);
		} else {
			assert_int_equal(rc, -BS_EINVAL);
			assert_string_equal(err.msg, cases[i].msg);
		}
	}
}

static void test_ram_rule(void **state)
{
	/* clang-format off */
	static const struct {
		int size_given;
		uint64_t mib;     /* -s, when given */
		int64_t ram_mib;
		uint64_t want;    /* the file size after the rule */
		const char *msg;
	} cases[] = {
		/* Without -s: twice the RAM, at least 300M, rounded up to a
		 * GiB when over half of one. */
		{ 0, 0, -1, 300, NULL },
		{ 0, 0, 0, 300, NULL },
		{ 0, 0, 100, 300, NULL },
		{ 0, 0, 200, 400, NULL },
		{ 0, 0, 256, 512, NULL },
		{ 0, 0, 257, 1024, NULL },
		{ 0, 0, 1000, 2048, NULL },
		{ 0, 0, 2100, 4200, NULL },
		{ 0, 0, 24105, 48210, NULL },
		/* Twice the RAM with no room to round up: left as it is, far
		 * over what bs_bench_check() takes, never wrapped to 0 (no
		 * I/O tests). fuzz_args found it: corpus-args/r-int64-max. */
		{ 0, 0, INT64_MAX, UINT64_MAX - 1, NULL },
		/* With -s: at least twice the RAM, unless the rule is off. */
		{ 1, 2048, 1024, 2048, NULL },
		{ 1, 8, 0, 8, NULL },
		{ 1, 8, -1, 8, NULL },
		{ 1, 0, 1024, 0, NULL },
		{ 1, 8, 1024, 8,
		  "file size 8M is less than twice the RAM (1024M): the read "
		  "tests would measure the page cache, not the disk. Use -s "
		  "2048M or more, or -r 0 to run anyway (bonnie++ refuses "
		  "this too)" },
		{ 1, 2047, 1024, 2047,
		  "file size 2047M is less than twice the RAM (1024M): the "
		  "read tests would measure the page cache, not the disk. Use "
		  "-s 2048M or more, or -r 0 to run anyway (bonnie++ refuses "
		  "this too)" },
	};
	/* clang-format on */
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bs_bench_opts o;
		struct bs_err err = BS_ERR_INIT;
		int rc;

		bs_bench_defaults(&o);
		o.p.file_size_mib = (int64_t)cases[i].mib;
		rc = bs_bench_opts_ram_rule(&o, cases[i].size_given,
					    cases[i].ram_mib, &err);
		if (cases[i].msg == NULL) {
			assert_int_equal(rc, 0);
		} else {
			assert_int_equal(rc, -BS_EINVAL);
			assert_string_equal(err.msg, cases[i].msg);
		}
		assert_int_equal(o.p.file_size_mib, cases[i].want);
	}
}

/* Options that parse but that bonnie++ (or the memory) does not allow. */
static void test_check(void **state)
{
	/* clang-format off */
	static const struct {
		const char *s, *n;
		int fsync_each, no_sync;
		const char *msg;
	} cases[] = {
		{ "8", "1", 0, 0, NULL },
		{ "0", "1", 0, 0, NULL },
		{ "8", "0", 0, 0, NULL },
		{ "8:256:0:64", "16384:1g:0:99999:1m", 0, 0, NULL },
		{ "8", "1:-2:0:1024", 0, 0, NULL },
		{ "8", "1:-1:20", 0, 0, NULL },
		{ "8", "1", 1, 0, NULL },
		{ "8", "1", 0, 1, NULL },
		{ "0", "0", 0, 0,
		  "nothing to run: -s 0 skips the I/O tests and -n 0 the file "
		  "tests" },
		{ "8:3000", "1", 0, 0,
		  "chunk size 3000 is not a power of 2 between 256 and 1m" },
		{ "8:128", "1", 0, 0,
		  "chunk size 128 is not a power of 2 between 256 and 1m" },
		{ "8:2m", "1", 0, 0,
		  "chunk size 2097152 is not a power of 2 between 256 and 1m" },
		{ "8::4294967295", "1", 0, 0, "4294967295 seeks are too many" },
		{ "8:::0", "1", 0, 0,
		  "seek processes must be 1 to 64, not 0" },
		{ "8:::65", "1", 0, 0,
		  "seek processes must be 1 to 64, not 65" },
		{ "8796093022208", "1", 0, 0,
		  "file size 8796093022208M is too big" },
		{ "8", "1:0:0:0", 0, 0,
		  "directories must be 1 to 99999, not 0" },
		{ "8", "1:0:0:100000", 0, 0,
		  "directories must be 1 to 99999, not 100000" },
		{ "8", "1:0:0:1:2m", 0, 0,
		  "file chunk size 2097152 is not a power of 2 between 256 and "
		  "1m" },
		{ "8", "1:10:20", 0, 0,
		  "file sizes must satisfy 0 <= min <= max" },
		{ "8", "1:1025m", 0, 0, "file test maximum size is over 1g" },
		{ "8", "1", 1, 1,
		  "-b (fsync after every write) and --no-sync (no syncs at "
		  "all) exclude each other" },
		{ "8", "20000", 0, 0,
		  "-n 20000 asks for too many files (at most 16384, i.e. 16m "
		  "files)" },
		{ "8", "1:0:0:2000", 0, 0,
		  "more directories (2000) than files (1024)" },
	};
	/* clang-format on */
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bs_bench_opts o;
		struct bs_err err = BS_ERR_INIT;
		int rc;

		bs_bench_defaults(&o);
		assert_int_equal(bs_bench_opts_parse_s(&o, cases[i].s, &err),
				 0);
		assert_int_equal(bs_bench_opts_parse_n(&o, cases[i].n, &err),
				 0);
		o.fsync_each = cases[i].fsync_each;
		o.no_sync = cases[i].no_sync;
		rc = bs_bench_check(&o, &err);
		if (cases[i].msg == NULL) {
			if (rc != 0)
				fail_msg("-s %s -n %s refused: %s", cases[i].s,
					 cases[i].n, err.msg);
		} else {
			assert_int_equal(rc, -BS_EINVAL);
			assert_string_equal(err.msg, cases[i].msg);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_s),        cmocka_unit_test(test_n),
		cmocka_unit_test(test_repeated), cmocka_unit_test(test_f_c_r),
		cmocka_unit_test(test_ram_rule), cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
