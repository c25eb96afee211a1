/*
 * tests/unit/test_bench.c - the benchmark core on tiny sizes in a scratch
 * directory under the build tree: every test gets a result with the right
 * status and latencies, nothing is left behind, and a signal or an I/O
 * error stops the run cleanly. test_bench_opts checks the options.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "core/bench.h"
#include "core/bench_opts.h"
#include "core/bonnie_text.h"
#include "core/result.h"
#include "core/scratch.h"
#include "util/banned.h"

static char base[4096];

/* A fresh, empty directory $SCRATCH/test_bench/<name>. */
static const char *fresh_dir(const char *name, char *buf, size_t size)
{
	const char *scratch = getenv("SCRATCH");

	assert_non_null(scratch);
	mkdir(scratch, 0755);
	snprintf(base, sizeof(base), "%s/test_bench", scratch);
	mkdir(base, 0755);
	snprintf(buf, size, "%s/%s", base, name);
	mkdir(buf, 0755);
	return buf;
}

/* Entries in dir other than "." and "..". */
static int entries(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static int count_fields(const char *s)
{
	int n = 1;

	for (; *s; s++)
		n += *s == ',';
	return n;
}

/*
 * Tiny sizes, and no syncs: these tests check results, files and cleanup,
 * not the disk. test_full_suite and -b sync for real.
 */
static void tiny_opts(struct bs_bench_opts *o, const char *dir)
{
	bs_bench_defaults(o);
	o->dir = dir;
	o->machine = "unit";
	o->tool_version = "0.1.0";
	o->p.file_size_mib = 8;
	o->p.per_char_mib = 0;
	o->p.num_files = 1;
	o->seed = 42;
	o->no_sync = 1;
}

/* Every test that should run has a status and a full latency summary. */
static void check_value(const struct bs_value *v)
{
	assert_true(v->status == BS_ST_OK || v->status == BS_ST_TOO_FAST);
	if (v->status == BS_ST_OK) {
		assert_true(v->value > 0);
		assert_true(v->cpu_pct >= 0);
	} else {
		assert_true(isnan(v->value));
		assert_true(isnan(v->cpu_pct));
	}
	assert_true(v->lat_us > 0);
	/* The maximum is stored as the CSV line prints it (cut to bonnie++'s
	 * unit, core/bonnie_text.h), the distribution exactly: compare at
	 * the maximum's resolution. */
	assert_true(v->lat_mean_us > 0 &&
		    bs_bonnie_round_latency(v->lat_mean_us) <= v->lat_us);
	assert_true(v->lat_p50_us > 0 && v->lat_p50_us <= v->lat_p99_us);
	assert_true(bs_bonnie_round_latency(v->lat_p99_us) <= v->lat_us);
}

/*
 * The record's parameters are the options' (core/bench.h), every row of
 * the parameter table, but for the per-char size (capped at the file
 * size) and the seed (its decimal text).
 */
static void check_params(const struct bs_bench_opts *o, const struct bs_run *r)
{
	const uint64_t per_char = (uint64_t)o->p.per_char_mib;
	const uint64_t file = (uint64_t)o->p.file_size_mib;
	struct bs_buf want = BS_BUF_INIT, got = BS_BUF_INIT;
	int i, k_per_char = bs_param_find("per_char_mib");
	int k_seed = bs_param_find("seed");
	char seed[32];

	for (i = 0; i < bs_nparams; i++) {
		if (i == k_per_char || i == k_seed)
			continue;
		bs_buf_reset(&want);
		bs_buf_reset(&got);
		bs_param_json(&o->p, i, &want);
		bs_param_json(&r->params, i, &got);
		if (strcmp(bs_buf_str(&got), bs_buf_str(&want)) != 0)
			fail_msg("%s: the record has %s, the options %s",
				 bs_param_table[i].key, bs_buf_str(&got),
				 bs_buf_str(&want));
	}
	assert_int_equal(r->params.per_char_mib,
			 per_char < file ? per_char : file);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)o->seed);
	assert_string_equal(r->params.seed, seed);
	bs_buf_release(&want);
	bs_buf_release(&got);
}

struct seen {
	int started[BS_M_BONNIE], done[BS_M_BONNIE];
	enum bs_metric stop_at; /* raise SIGINT when this test starts */
	int stop;
};

static void on_start(enum bs_metric m, uint64_t total, void *ctx)
{
	struct seen *s = ctx;

	assert_true(total > 0);
	s->started[m]++;
	if (s->stop && m == s->stop_at)
		raise(SIGINT);
}

static void on_done(enum bs_metric m, const struct bs_value *v,
		    double elapsed_s, void *ctx)
{
	struct seen *s = ctx;

	(void)v;
	assert_true(elapsed_s > 0);
	s->done[m]++;
}

static void test_full_suite(void **state)
{
	struct bs_bench_opts o;
	struct bs_err err = BS_ERR_INIT;
	struct seen seen;
	struct bs_bench_cb cb = {on_start, NULL, on_done, &seen};
	struct bs_run r;
	char dir[4200];
	int i;

	(void)state;
	memset(&seen, 0, sizeof(seen));
	tiny_opts(&o, fresh_dir("full", dir, sizeof(dir)));
	o.p.per_char_mib = 1;
	/* Every sync of the suite, for real, once. */
	o.no_sync = 0;
	assert_int_equal(bs_bench_run(&o, &cb, &r, &err), 0);
	for (i = 0; i < BS_M_BONNIE; i++) {
		check_value(&r.res[i]);
		assert_int_equal(seen.started[i], 1);
		assert_int_equal(seen.done[i], 1);
	}
	assert_string_equal(r.tool, "bstore");
	assert_string_equal(r.tool_version, "0.1.0");
	assert_string_equal(r.format, BS_FMT_BSTORE_RUN);
	assert_string_equal(r.machine, "unit");
	assert_string_equal(r.source, "bstore run");
	assert_true(r.measured_at > 1600000000);
	assert_int_equal(r.params.file_size_mib, 8);
	assert_int_equal(r.params.io_chunk_bytes, 8192);
	assert_int_equal(r.params.seeks, 8192);
	assert_int_equal(r.params.seek_procs, 5);
	assert_int_equal(r.params.per_char_mib, 1);
	assert_int_equal(r.params.num_files, 1);
	assert_int_equal(r.params.num_dirs, 1);
	assert_int_equal(r.params.concurrency, 1);
	assert_string_equal(r.params.seed, "42");
	check_params(&o, &r);
	assert_int_equal(r.sha256[0], '\0');
	assert_non_null(r.raw);
	assert_int_equal(count_fields(r.raw), 50);
	assert_true(strncmp(r.raw, "1.98,bstore-0.1.0,unit,1,42,8M,,8192,5,",
			    39) == 0);
	/* Nothing left behind. */
	assert_int_equal(entries(dir), 0);
	bs_run_release(&r);
}

/* Skipped parts are not_run, and the CSV has empty fields for them. */
static void test_skips(void **state)
{
	struct bs_bench_opts o;
	struct bs_err err = BS_ERR_INIT;
	struct bs_run r;
	char dir[4200];
	int i;

	(void)state;
	tiny_opts(&o, fresh_dir("skips", dir, sizeof(dir)));
	o.p.num_files = 0;
	o.p.seeks = 0;
	assert_int_equal(bs_bench_run(&o, NULL, &r, &err), 0);
	assert_int_equal(r.res[BS_M_PUTC].status, BS_ST_NOT_RUN);
	assert_int_equal(r.res[BS_M_GETC].status, BS_ST_NOT_RUN);
	assert_int_equal(r.res[BS_M_SEEKS].status, BS_ST_NOT_RUN);
	check_value(&r.res[BS_M_PUT_BLOCK]);
	check_value(&r.res[BS_M_REWRITE]);
	check_value(&r.res[BS_M_GET_BLOCK]);
	for (i = BS_M_FIRST_FILE; i < BS_M_BONNIE; i++)
		assert_int_equal(r.res[i].status, BS_ST_NOT_RUN);
	assert_int_equal(count_fields(r.raw), 50);
	assert_true(strstr(r.raw, ",,,,,,,,,,,,,,,,,,") != NULL);
	check_params(&o, &r);
	assert_int_equal(entries(dir), 0);
	bs_run_release(&r);

	/* -s 0: only the file tests. */
	tiny_opts(&o, dir);
	o.p.file_size_mib = 0;
	assert_int_equal(bs_bench_run(&o, NULL, &r, &err), 0);
	for (i = 0; i < BS_M_FIRST_FILE; i++)
		assert_int_equal(r.res[i].status, BS_ST_NOT_RUN);
	for (i = BS_M_FIRST_FILE; i < BS_M_BONNIE; i++)
		check_value(&r.res[i]);
	/* Sixteen empty fields (5 to 20) after the seed. */
	assert_true(strncmp(r.raw,
			    "1.98,bstore-0.1.0,unit,1,42,,,,,,,,,,,,,,"
			    ",,,1,",
			    46) == 0);
	assert_int_equal(entries(dir), 0);
	bs_run_release(&r);
}

/* Files with contents in several directories, links, symlinks, -b, -D. */
static void test_file_variants(void **state)
{
	static const struct {
		int64_t max, min;
		uint32_t dirs, chunk;
	} v[] = {
		{2000, 100, 3, 512},
		{BS_SIZE_LINK, 0, 1, 8192},
		{BS_SIZE_SYMLINK, 0, 2, 8192},
	};
	struct bs_bench_opts o;
	struct bs_err err = BS_ERR_INIT;
	struct bs_run r;
	char dir[4200];
	size_t k;
	int i;

	(void)state;
	fresh_dir("files", dir, sizeof(dir));
	for (k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		tiny_opts(&o, dir);
		o.p.file_size_mib = 0;
		o.p.max_size = v[k].max;
		o.p.min_size = v[k].min;
		o.p.num_dirs = v[k].dirs;
		o.p.file_chunk_bytes = v[k].chunk;
		assert_int_equal(bs_bench_run(&o, NULL, &r, &err), 0);
		for (i = BS_M_FIRST_FILE; i < BS_M_BONNIE; i++)
			check_value(&r.res[i]);
		assert_int_equal(r.params.max_size, v[k].max);
		assert_int_equal(r.params.num_dirs, v[k].dirs);
		check_params(&o, &r);
		assert_int_equal(entries(dir), 0);
		bs_run_release(&r);
	}

	/* -b: fsync after every write, on a small file. */
	tiny_opts(&o, dir);
	o.p.file_size_mib = 1;
	o.p.num_files = 0;
	o.fsync_each = 1;
	o.no_sync = 0;
	o.p.seeks = 500;
	assert_int_equal(bs_bench_run(&o, NULL, &r, &err), 0);
	check_value(&r.res[BS_M_PUT_BLOCK]);
	check_value(&r.res[BS_M_SEEKS]);
	assert_int_equal(entries(dir), 0);
	bs_run_release(&r);

	/* -D: O_DIRECT, where the file system has it (not tmpfs). */
	tiny_opts(&o, dir);
	o.p.file_size_mib = 1;
	o.p.num_files = 0;
	o.direct = 1;
	o.p.seeks = 200;
	if (bs_bench_run(&o, NULL, &r, &err) == 0) {
		check_value(&r.res[BS_M_PUT_BLOCK]);
		check_value(&r.res[BS_M_REWRITE]);
		check_value(&r.res[BS_M_GET_BLOCK]);
		check_value(&r.res[BS_M_SEEKS]);
	} else {
		assert_non_null(strstr(err.msg, "O_DIRECT"));
		print_message("no O_DIRECT here, -D not tested: %s\n", err.msg);
	}
	assert_int_equal(entries(dir), 0);
	bs_run_release(&r);
}

/* A signal in the middle of any kind of test: BS_EINTR, nothing left. */
static void test_interrupt(void **state)
{
	static const enum bs_metric at[] = {BS_M_REWRITE, BS_M_SEEKS,
					    BS_M_SEQ_STAT, BS_M_RAN_CREATE};
	struct bs_bench_opts o;
	struct bs_err err;
	struct seen seen;
	struct bs_bench_cb cb = {on_start, NULL, on_done, &seen};
	struct bs_run r;
	char dir[4200], want[128];
	size_t k;

	(void)state;
	fresh_dir("interrupt", dir, sizeof(dir));
	for (k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		memset(&seen, 0, sizeof(seen));
		seen.stop = 1;
		seen.stop_at = at[k];
		bs_err_reset(&err);
		tiny_opts(&o, dir);
		bs_signals_install();
		assert_int_equal(bs_bench_run(&o, &cb, &r, &err), -BS_EINTR);
		assert_int_equal(bs_signal_pending(), SIGINT);
		bs_signals_restore();
		assert_int_equal(seen.done[at[k]], 0);
		assert_null(r.raw);
		snprintf(want, sizeof(want), "interrupted by signal %d",
			 SIGINT);
		assert_non_null(strstr(err.msg, want));
		assert_int_equal(entries(dir), 0);
		bs_run_release(&r);
	}
}

/* A write error (here: the file size limit) stops the run, cleaned up. */
static void test_io_error(void **state)
{
	struct bs_bench_opts o;
	struct bs_err err = BS_ERR_INIT;
	struct rlimit old, lim;
	struct bs_run r;
	char dir[4200];
	void (*oldsig)(int);

	(void)state;
	tiny_opts(&o, fresh_dir("ioerror", dir, sizeof(dir)));
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 4u << 20;
	oldsig = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(bs_bench_run(&o, NULL, &r, &err), -BS_EIO);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, oldsig);
	assert_true(strncmp(err.msg, "block write: cannot write '", 27) == 0);
	assert_non_null(strstr(err.msg, "/bstore.data': File too large"));
	assert_non_null(strstr(err.msg, dir));
	assert_int_equal(entries(dir), 0);
	bs_run_release(&r);
}

static void test_bad_dir(void **state)
{
	struct bs_bench_opts o;
	struct bs_err err = BS_ERR_INIT;
	struct bs_run r;
	char dir[4200];

	(void)state;
	tiny_opts(&o, "/nonexistent/bstore-test");
	assert_int_equal(bs_bench_run(&o, NULL, &r, &err), -BS_EIO);
	assert_string_equal(err.msg,
			    "cannot use directory '/nonexistent/bstore-test': "
			    "No such file or directory");
	bs_run_release(&r);

	/* More than the disk holds: refused before anything is written. */
	bs_err_reset(&err);
	tiny_opts(&o, fresh_dir("nospace", dir, sizeof(dir)));
	o.p.file_size_mib = 1ull << 40;
	assert_int_equal(bs_bench_run(&o, NULL, &r, &err), -BS_EIO);
	assert_true(strncmp(err.msg, "not enough free space in '", 26) == 0);
	assert_int_equal(entries(dir), 0);
	bs_run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_dir),
		cmocka_unit_test(test_full_suite),
		cmocka_unit_test(test_skips),
		cmocka_unit_test(test_file_variants),
		cmocka_unit_test(test_interrupt),
		cmocka_unit_test(test_io_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
