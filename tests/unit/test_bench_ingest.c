/*
 * tests/unit/test_bench_ingest.c - the CSV line `bstore run` prints (and
 * stores as the run's raw text) reads back through our own ingest as the
 * same run: tool bstore, its version, the parameters and every cell.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "core/bench.h"
#include "core/bench_opts.h"
#include "core/result.h"
#include "ingest/ingest.h"
#include "util/banned.h"

static void same_cells(const struct bs_run *a, const struct bs_run *b)
{
	int i;

	for (i = 0; i < BS_M_BONNIE; i++) {
		const struct bs_value *x = &a->res[i], *y = &b->res[i];

		assert_int_equal(x->status, y->status);
		if (x->status == BS_ST_OK) {
			/* The CSV holds whole numbers (seeks: one decimal). */
			assert_true(fabs(floor(x->value) - floor(y->value)) <=
				    1);
			assert_true(fabs(floor(x->cpu_pct) - y->cpu_pct) < 1);
		}
		if (x->status != BS_ST_NOT_RUN)
			/* Latency text keeps whole us, ms or s. */
			assert_true(fabs(x->lat_us - y->lat_us) <=
				    (x->lat_us > 99999 ? 1000 : 1));
	}
}

static void test_real_run(void **state)
{
	const char *scratch = getenv("SCRATCH");
	struct bs_bench_opts o;
	struct bs_err err = BS_ERR_INIT;
	struct bs_run r, back;
	char dir[4096];
	int rc;

	(void)state;
	assert_non_null(scratch);
	mkdir(scratch, 0755);
	snprintf(dir, sizeof(dir), "%s/test_bench_ingest", scratch);
	mkdir(dir, 0755);
	bs_bench_defaults(&o);
	o.dir = dir;
	o.machine = "ingest-me";
	o.tool_version = "0.1.0";
	o.p.file_size_mib = 4;
	o.p.per_char_mib = 0;
	o.p.seeks = 1000;
	o.p.num_files = 1;
	o.p.max_size = 300;
	o.p.min_size = 20;
	o.p.num_dirs = 2;
	o.seed = 7;
	/* Only the line matters here: no real syncs. */
	o.no_sync = 1;
	assert_int_equal(bs_bench_run(&o, NULL, &r, &err), 0);

	bs_run_init(&back);
	rc = bs_ingest_parse_line(r.raw, strlen(r.raw), NULL, &back, &err);
	if (rc != 1)
		fail_msg("ingest refused '%s': %s", r.raw, err.msg);
	assert_string_equal(back.tool, "bstore");
	assert_string_equal(back.tool_version, "0.1.0");
	assert_string_equal(back.machine, "ingest-me");
	assert_string_equal(back.params.seed, "7");
	assert_int_equal(back.params.file_size_mib, 4);
	assert_int_equal(back.params.seeks, 1000);
	assert_int_equal(back.params.seek_procs, 5);
	assert_int_equal(back.params.num_files, 1);
	assert_int_equal(back.params.max_size, 300);
	assert_int_equal(back.params.min_size, 20);
	assert_int_equal(back.params.num_dirs, 2);
	same_cells(&r, &back);
	bs_run_release(&back);
	bs_run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
