/*
 * tests/unit/test_zcav.c - core/zcav.h: the signatures that stop -w on a
 * device, and zcav's -b and -r syntax.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/zcav.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signatures),
		cmocka_unit_test(test_parse_b),
		cmocka_unit_test(test_parse_r),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
