/*
 * tests/unit/test_changes.c - what explains a change (bs_changes_explain)
 * and which series a run is in (bs_changes_series_key): a parameter that
 * does not decide the series (bonnie++'s I/O chunk), a host fact, a tag
 * only the later run has and a new version are named, in the table's
 * order then the tags'; a seed (different by design) is not; the series
 * key holds the machine, the tool and the deciding parameters, "?" for
 * one the output did not carry.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/dialect.h"
#include "core/result.h"
#include "report/changes.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

static void collect(const char *key, const char *from, const char *to,
		    void *ctx)
{
	bs_buf_addf(ctx, "%s:%s>%s;", key, from, to);
}

static void bonnie(struct bs_run *r, const char *version, int64_t chunk,
		   const char *seed)
{
	bs_run_init(r);
	r->family = BS_FAM_BONNIE;
	bs_run_set(&r->tool, "bonnie++");
	bs_run_set(&r->tool_version, version);
	bs_run_set(&r->machine, "db1");
	r->params.file_size_mib = 16384;
	r->params.io_chunk_bytes = chunk;
	bs_run_set(&r->params.seed, seed);
}

static void test_explain(void **state)
{
	struct bs_run a, b;
	struct bs_buf out = BS_BUF_INIT;

	(void)state;
	bonnie(&a, "2.00a", 8192, "1");
	bonnie(&b, "2.00a", 65536, "2");
	bs_run_tag(&a, "host.kernel", "6.1.0-18");
	bs_run_tag(&b, "host.kernel", "6.6.13");
	bs_run_tag(&a, "raid", "10");
	bs_run_tag(&b, "raid", "10");
	bs_run_tag(&b, "cache", "on");
	assert_int_equal(bs_changes_explain(&a, &b, collect, &out), 3);
	assert_string_equal(bs_buf_str(&out),
			    "io_chunk_bytes:8192>65536;"
			    "host.kernel:6.1.0-18>6.6.13;cache:>on;");
	/* The same runs: nothing. A new version alone: the version. */
	bs_buf_reset(&out);
	assert_int_equal(bs_changes_explain(&a, &a, collect, &out), 0);
	bs_run_release(&b);
	bonnie(&b, "1.03e", 8192, "1");
	bs_run_tag(&b, "host.kernel", "6.1.0-18");
	bs_run_tag(&b, "raid", "10");
	assert_int_equal(bs_changes_explain(&a, &b, collect, &out), 1);
	assert_string_equal(bs_buf_str(&out), "version:2.00a>1.03e;");
	bs_run_release(&a);
	bs_run_release(&b);
	bs_buf_release(&out);
}

static void test_series_key(void **state)
{
	struct bs_run a, b;
	struct bs_buf ka = BS_BUF_INIT, kb = BS_BUF_INIT;

	(void)state;
	bonnie(&a, "2.00a", 8192, "1");
	bonnie(&b, "1.98", 8192, "2");
	bs_changes_series_key(&a, &ka);
	bs_changes_series_key(&b, &kb);
	/* A version of one implementation and the seed do not decide: one
	 * series. */
	assert_string_equal(bs_buf_str(&ka), bs_buf_str(&kb));
	assert_non_null(strstr(bs_buf_str(&ka), "db1\x1f"
						"bonnie|bonnie++|"));
	assert_non_null(strstr(bs_buf_str(&ka), "file_size_mib=16384"));
	assert_non_null(strstr(bs_buf_str(&ka), "num_files=?"));
	b.params.io_chunk_bytes = 65536;
	bs_buf_reset(&kb);
	bs_changes_series_key(&b, &kb);
	assert_string_not_equal(bs_buf_str(&ka), bs_buf_str(&kb));
	b.params.io_chunk_bytes = 8192;
	b.params.file_size_mib = 8192;
	bs_buf_reset(&kb);
	bs_changes_series_key(&b, &kb);
	assert_string_not_equal(bs_buf_str(&ka), bs_buf_str(&kb));
	/* bonnie++ 1.0x is another implementation (core/families/bonnie.c):
	 * another series. */
	bs_run_release(&b);
	bonnie(&b, "1.03e", 8192, "1");
	bs_run_set(&b.format, BS_FMT_CSV_1_0X);
	bs_buf_reset(&kb);
	bs_changes_series_key(&b, &kb);
	assert_string_not_equal(bs_buf_str(&ka), bs_buf_str(&kb));
	bs_run_release(&a);
	bs_run_release(&b);
	bs_buf_release(&ka);
	bs_buf_release(&kb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_series_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
