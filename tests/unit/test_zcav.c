/*
 * tests/unit/test_zcav.c - core/zcav.h: the signatures that stop -w on a
 * device, and zcav's -b and -r syntax.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "core/zcav.h"
#include "util/buf.h"
#include "util/banned.h"

#define VOL (70 * 1024)

/* clang-format off */
static const struct {
	size_t at;
	const char *bytes;
	size_t n;
	const char *want;
} sig_cases[] = {
	{ 1080,  "\x53\xef",          2, "ext2/3/4" },
	{ 0,     "XFSB",              4, "xfs" },
	{ 65600, "_BHRfS_M",          8, "btrfs" },
	{ 4086,  "SWAPSPACE2",       10, "swap" },
	{ 4086,  "SWAP-SPACE",       10, "swap" },
	{ 0,     "LUKS\xba\xbe",      6, "LUKS" },
	{ 512,   "EFI PART",          8, "GPT" },
	{ 510,   "\x55\xaa",          2, "MBR" },
	{ 3,     "NTFS    ",          8, "NTFS" },
	{ 32769, "CD001",             5, "iso9660" },
	{ 1024,  "\x10\x20\xf5\xf2",  4, "f2fs" },
	/* Near misses: a byte off, or the other byte order. */
	{ 1081,  "\x53\xef",          2, NULL },
	{ 1080,  "\xef\x53",          2, NULL },
	{ 1,     "XFSB",              4, NULL },
	{ 511,   "\x55\xaa",          2, NULL },
};
/* clang-format on */

static void test_signatures(void **state)
{
	unsigned char *vol = calloc(VOL, 1);
	size_t i;

	(void)state;
	assert_non_null(vol);
	assert_null(bs_zcav_signature(vol, VOL));
	for (i = 0; i < sizeof(sig_cases) / sizeof(sig_cases[0]); i++) {
		const char *got;

		memset(vol, 0, VOL);
		memcpy(vol + sig_cases[i].at, sig_cases[i].bytes,
		       sig_cases[i].n);
		got = bs_zcav_signature(vol, VOL);
		if (sig_cases[i].want == NULL)
			assert_null(got);
		else
			assert_string_equal(got, sig_cases[i].want);
	}
	/* A short read sees only what it read: btrfs's magic lies past it. */
	memset(vol, 0, VOL);
	memcpy(vol + 65600, "_BHRfS_M", 8);
	assert_null(bs_zcav_signature(vol, 65600));
	free(vol);
}

static void test_parse_b(void **state)
{
	struct bs_zcav_opts o;
	struct bs_err err = BS_ERR_INIT;

	(void)state;
	bs_zcav_defaults(&o);
	assert_int_equal(o.block_mib, 512);
	assert_int_equal(o.chunk_mib, 1);
	assert_int_equal(bs_zcav_parse_b(&o, "16", &err), 0);
	assert_int_equal(o.block_mib, 16);
	assert_int_equal(o.chunk_mib, 1);
	assert_int_equal(bs_zcav_parse_b(&o, "16:4", &err), 0);
	assert_int_equal(o.chunk_mib, 4);
	assert_true(bs_zcav_parse_b(&o, "4:8", &err) < 0);
	assert_string_equal(err.msg, "-b: the chunk (8 MiB) must not be "
				     "larger than the block (4 MiB)");
	bs_err_reset(&err);
	assert_true(bs_zcav_parse_b(&o, "0", &err) < 0);
	bs_err_reset(&err);
	assert_true(bs_zcav_parse_b(&o, "16:", &err) < 0);
	bs_err_reset(&err);
	assert_true(bs_zcav_parse_b(&o, "x", &err) < 0);
	assert_string_equal(err.msg,
			    "-b: expected BLOCK[:CHUNK] in MiB, got 'x'");
}

static void test_parse_r(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	int64_t first, last;

	(void)state;
	assert_int_equal(bs_zcav_parse_r("100", &first, &last, &err), 0);
	assert_int_equal(first, 0);
	assert_int_equal(last, 100);
	assert_int_equal(bs_zcav_parse_r("8:20", &first, &last, &err), 0);
	assert_int_equal(first, 8);
	assert_int_equal(last, 20);
	assert_true(bs_zcav_parse_r("20:8", &first, &last, &err) < 0);
	assert_string_equal(err.msg, "-r: the end (8 MiB) must be past the "
				     "start (20 MiB)");
	bs_err_reset(&err);
	assert_true(bs_zcav_parse_r(":8", &first, &last, &err) < 0);
	bs_err_reset(&err);
	assert_true(bs_zcav_parse_r("-1", &first, &last, &err) < 0);
}

/* A run of n blocks of block_mib: the first nfast "++++" taking fast_s
 * each, the others timed. */
static void hint_run(struct bs_run *r, size_t n, size_t nfast, double fast_s)
{
	struct bs_series *s;
	size_t i;

	bs_run_init(r);
	r->family = BS_FAM_ZCAV;
	s = bs_run_series_add(r, bs_metric_find(BS_FAM_ZCAV, "read_mib_s"),
			      "offset_gib");
	for (i = 0; i < n; i++)
		bs_series_point(s, (double)i / 2, i < nfast ? NAN : 300,
				i < nfast ? fast_s : 1.7);
}

/* Storage too fast for the block: what to pass (bs_zcav_hint). */
static void test_hint(void **state)
{
	struct bs_zcav_opts o;
	struct bs_zcav_target t = BS_ZCAV_TARGET_INIT;
	struct bs_buf b = BS_BUF_INIT;
	struct bs_run r;

	(void)state;
	bs_zcav_defaults(&o);
	/* 512 MiB blocks in 0.2 s (2.5 GiB/s) on a 1 TiB disk. */
	t.size_bytes = (uint64_t)1 << 40;
	hint_run(&r, 8, 8, 0.2);
	assert_int_equal(bs_zcav_hint(&o, &t, &r, &b), 1);
	assert_string_equal(bs_buf_str(&b),
			    "8 of 8 blocks took under 1 s ('++++', no rate): "
			    "pass --min-time 0.1 (they took up to 0.200 s), "
			    "or -b 8192 (about 3.2 s a block at this speed)");
	bs_run_release(&r);
	/* The same on a 2 GiB file: the block does not fit. */
	bs_buf_reset(&b);
	t.size_bytes = (uint64_t)2 << 30;
	hint_run(&r, 4, 4, 0.2);
	assert_int_equal(bs_zcav_hint(&o, &t, &r, &b), 1);
	assert_non_null(strstr(bs_buf_str(&b),
			       "-b 8192 (about 3.2 s a block at this speed) "
			       "on a target of 8192 MiB or more (this one "
			       "holds 2048 MiB)"));
	bs_run_release(&r);
	/* Printed as 0.000 s: no scale, no --min-time. */
	bs_buf_reset(&b);
	hint_run(&r, 4, 4, 0);
	assert_int_equal(bs_zcav_hint(&o, &t, &r, &b), 1);
	assert_null(strstr(bs_buf_str(&b), "--min-time"));
	assert_non_null(strstr(bs_buf_str(&b), "no measurable time"));
	bs_run_release(&r);
	/* Most blocks timed: no hint. */
	bs_buf_reset(&b);
	hint_run(&r, 8, 3, 0.2);
	assert_int_equal(bs_zcav_hint(&o, &t, &r, &b), 0);
	assert_string_equal(bs_buf_str(&b), "");
	bs_run_release(&r);
	bs_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signatures),
		cmocka_unit_test(test_parse_b),
		cmocka_unit_test(test_parse_r),
		cmocka_unit_test(test_hint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
