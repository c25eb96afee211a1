/*
 * tests/unit/test_ingest_zcav.c - the zcav, getc_putc and dd block formats
 * through the ingest driver.
 *
 * The real captures in samples/ (zcav 2.00a, getc_putc 2.00a, GNU dd 9.1)
 * and the pasted and old-dialect texts in tests/data/ are checked value by
 * value against what the tool printed (the numbers below are the files'
 * own; rates the parser derives are recomputed here from them); rejects
 * reason by reason; and every input gives the same runs at every chunk
 * size and survives every cut.
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
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_RUNS 16
#define MAX_PTS 16

/* What the driver gave: a copy of each run, and the rejects. */
struct got_run {
	int family;
	char tool[32], format[32], version[32], machine[64], warning[160];
	int has_version, has_warning;
	int64_t line, measured_at;
	struct bs_params params;
	struct bs_value res[BS_M_MAX];
	char *raw;
	char sha[65];
	int nseries, series_metric;
	char axis[32];
	struct bs_point pt[MAX_PTS];
	size_t npt;
};

struct got {
	struct got_run run[MAX_RUNS];
	int nruns;
	struct bs_buf rejects; /* "L<line>: <reason>\n" */
	struct bs_buf dump;    /* every run and reject, exactly */
};

static void copy_str(char *dst, size_t sz, const char *s)
{
	snprintf(dst, sz, "%s", s ? s : "");
}

static int on_run(struct bs_run *r, void *ctx)
{
	struct got *g = ctx;
	struct got_run *o;
	size_t i;
	int m;

	assert_true(g->nruns < MAX_RUNS);
	o = &g->run[g->nruns++];
	memset(o, 0, sizeof(*o));
	o->family = (int)r->family;
	copy_str(o->tool, sizeof(o->tool), r->tool);
	copy_str(o->format, sizeof(o->format), r->format);
	copy_str(o->version, sizeof(o->version), r->tool_version);
	o->has_version = r->tool_version != NULL;
	copy_str(o->machine, sizeof(o->machine), r->machine);
	copy_str(o->warning, sizeof(o->warning), r->warning);
	o->has_warning = r->warning != NULL;
	o->line = r->source_line;
	o->measured_at = r->measured_at;
	bs_params_init(&o->params);
	bs_params_copy(&o->params, &r->params);
	memcpy(o->res, r->res, sizeof(o->res));
	o->raw = xstrdup(r->raw);
	memcpy(o->sha, r->sha256, sizeof(o->sha));
	o->nseries = (int)r->nseries;
	if (r->nseries) {
		assert_true(r->series[0].n <= MAX_PTS);
		o->series_metric = r->series[0].metric;
		copy_str(o->axis, sizeof(o->axis), r->series[0].axis);
		o->npt = r->series[0].n;
		memcpy(o->pt, r->series[0].pt, o->npt * sizeof(o->pt[0]));
	}
	/* The exact dump, for comparing chunkings. */
	bs_buf_addf(&g->dump, "run L%" PRId64 " %s %s %s [%s] %s %s\n", o->line,
		    o->tool, o->format, o->version, o->machine, o->warning,
		    o->sha);
	for (i = 0; i < (size_t)bs_nparams; i++) {
		struct bs_buf v = BS_BUF_INIT;

		bs_param_json(&r->params, (int)i, &v);
		bs_buf_addf(&g->dump, " %s=%s", bs_param_table[i].key,
			    bs_buf_str(&v));
		bs_buf_release(&v);
	}
	for (m = 0; m < bs_nmetrics; m++)
		bs_buf_addf(&g->dump, " %d:%a", (int)r->res[m].status,
			    r->res[m].value);
	for (i = 0; i < o->npt; i++)
		bs_buf_addf(&g->dump, " (%a %a %a)", o->pt[i].x, o->pt[i].y,
			    o->pt[i].seconds);
	bs_buf_addc(&g->dump, '\n');
	return 0;
}

static int on_reject(int64_t line, const char *raw, size_t len, int truncated,
		     const char *reason, void *ctx)
{
	struct got *g = ctx;

	(void)truncated;
	bs_buf_addf(&g->rejects, "L%" PRId64 ": %s\n", line, reason);
	bs_buf_addf(&g->dump, "reject L%" PRId64 " %s [", line, reason);
	bs_buf_add(&g->dump, raw, len);
	bs_buf_adds(&g->dump, "]\n");
	return 0;
}

static void got_release(struct got *g)
{
	int i;

	for (i = 0; i < g->nruns; i++) {
		bs_params_release(&g->run[i].params);
		free(g->run[i].raw);
	}
	bs_buf_release(&g->rejects);
	bs_buf_release(&g->dump);
	memset(g, 0, sizeof(*g));
}

/* Feeds in (len bytes) in chunks of chunk bytes (0: whole). */
static void feed(const char *in, size_t len, size_t chunk, struct got *g)
{
	struct bs_ingest_cb cb = {on_run, on_reject, NULL, NULL};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest *p;
	size_t off = 0;

	memset(g, 0, sizeof(*g));
	cb.ctx = g;
	p = bs_ingest_new("t.txt", &cb, NULL);
	if (chunk == 0)
		chunk = len ? len : 1;
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;

		assert_int_equal(bs_ingest_feed(p, in + off, n, &err), 0);
		off += n;
	}
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	bs_ingest_free(p);
}

static char *slurp(const char *rel, size_t *len)
{
	const char *src = getenv("SRC");
	char path[4096];
	struct bs_buf b = BS_BUF_INIT;
	char tmp[4096];
	size_t n;
	FILE *f;

	assert_non_null(src);
	snprintf(path, sizeof(path), "%s/%s", src, rel);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		bs_buf_add(&b, tmp, n);
	fclose(f);
	return bs_buf_detach(&b, len);
}

static void feed_file(const char *rel, struct got *g)
{
	size_t len;
	char *in = slurp(rel, &len);

	feed(in, len, 0, g);
	free(in);
}

static int metric(int fam, const char *key)
{
	int m = bs_metric_find((enum bs_family)fam, key);

	assert_true(m >= 0);
	return m;
}

static void expect_ok(const struct got_run *r, const char *key, double v)
{
	const struct bs_value *x = &r->res[metric(r->family, key)];

	if (x->status != BS_ST_OK)
		fail_msg("%s: status %d, expected ok", key, (int)x->status);
	assert_float_equal(x->value, v, fabs(v) * 1e-12);
}

static void expect_status(const struct got_run *r, const char *key,
			  enum bs_status st)
{
	const struct bs_value *x = &r->res[metric(r->family, key)];

	if (x->status != st)
		fail_msg("%s: status %d, expected %d", key, (int)x->status,
			 (int)st);
	/* too_fast and not_run carry no number, never 0. */
	assert_true(isnan(x->value));
}

/* Every metric of the run's family other than those named is not run. */
static void expect_only(const struct got_run *r, const char *const *keys,
			size_t n)
{
	int first, end, m;
	size_t i;

	bs_metric_rows((enum bs_family)r->family, &first, &end);
	for (m = first; m < end; m++) {
		int named = 0;

		for (i = 0; i < n; i++)
			named |= strcmp(bs_metrics[m].key, keys[i]) == 0;
		if (!named && r->res[m].status != BS_ST_NOT_RUN)
			fail_msg("%s is %d, expected not run",
				 bs_metrics[m].key, (int)r->res[m].status);
	}
}

static void expect_point(const struct got_run *r, size_t i, double x, double y,
			 double s)
{
	assert_true(i < r->npt);
	assert_float_equal(r->pt[i].x, x, 1e-12);
	if (isnan(y))
		assert_true(isnan(r->pt[i].y));
	else
		assert_float_equal(r->pt[i].y, y, 1e-12);
	assert_float_equal(r->pt[i].seconds, s, 1e-12);
}

static void expect_ident(const struct got_run *r, int fam, const char *tool,
			 const char *format, const char *version)
{
	assert_int_equal(r->family, fam);
	assert_string_equal(r->tool, tool);
	assert_string_equal(r->format, format);
	if (version == NULL)
		assert_false(r->has_version);
	else
		assert_string_equal(r->version, version);
}

/* ---- zcav ---- */

/* zcav 2.00a -b 16 on a 96 MiB file, its first 40 MiB cached (real). */
static void test_zcav_read(void **state)
{
	static const char *const keys[] = {"read_mib_s", "total_mib_s"};
	struct got g;
	const struct got_run *r;
	size_t len;
	char *in = slurp("samples/zcav-2.00a-read-labvm.txt", &len);

	(void)state;
	feed(in, len, 0, &g);
	assert_int_equal(g.nruns, 1);
	assert_string_equal(bs_buf_str(&g.rejects), "");
	r = &g.run[0];
	expect_ident(r, BS_FAM_ZCAV, "zcav", "zcav", NULL);
	assert_int_equal(r->line, 1);
	/* The mean over the three timed blocks. */
	expect_ok(r, "read_mib_s", (12.13 + 11.93 + 11.56) / 3);
	/* zcav's last line, "# Read 96 megs in 4 seconds, 20 megabytes per
	 * second.": its own figure, kept beside the mean of the blocks. */
	expect_ok(r, "total_mib_s", 20);
	expect_only(r, keys, 2);
	assert_int_equal(r->params.block_mib, 16);
	assert_int_equal(r->params.passes, 1);
	assert_int_equal(r->params.skip, 1);
	assert_int_equal(r->nseries, 1);
	assert_int_equal(r->series_metric, metric(BS_FAM_ZCAV, "read_mib_s"));
	assert_string_equal(r->axis, "offset_gib");
	assert_int_equal(r->npt, 6);
	expect_point(r, 0, 0 * 16 / 1024.0, NAN, 0.004);
	expect_point(r, 1, 1 * 16 / 1024.0, NAN, 0.003);
	expect_point(r, 2, 2 * 16 / 1024.0, NAN, 0.698);
	expect_point(r, 3, 3 * 16 / 1024.0, 12.13, 1.319);
	expect_point(r, 4, 4 * 16 / 1024.0, 11.93, 1.341);
	expect_point(r, 5, 5 * 16 / 1024.0, 11.56, 1.385);
	/* The pass's text is the run's: here the whole file. */
	assert_int_equal(strlen(r->raw), len - 1);
	assert_memory_equal(r->raw, in, len - 1);
	got_release(&g);
	free(in);
}

/* Every block under zcav's one-second threshold: too fast, no rate. */
static void test_zcav_cached(void **state)
{
	struct got g;
	const struct got_run *r;
	size_t i;

	(void)state;
	feed_file("samples/zcav-2.00a-cached-labvm.txt", &g);
	assert_int_equal(g.nruns, 1);
	r = &g.run[0];
	expect_status(r, "read_mib_s", BS_ST_TOO_FAST);
	expect_status(r, "write_mib_s", BS_ST_NOT_RUN);
	/* Every block "++++": no mean, but zcav's total (the page cache). */
	expect_ok(r, "total_mib_s", 547);
	/* No command line: "# Read 96 megs" over six blocks. */
	assert_int_equal(r->params.block_mib, 96 / 6);
	assert_int_equal(r->params.passes, 1);
	assert_int_equal(r->npt, 6);
	for (i = 0; i < r->npt; i++)
		assert_true(isnan(r->pt[i].y));
	expect_point(r, 4, 4 * 16 / 1024.0, NAN, 0.134);
	got_release(&g);
}

static void test_zcav_skip(void **state)
{
	struct got g;
	const struct got_run *r;

	(void)state;
	feed_file("samples/zcav-2.00a-skip2-labvm.txt", &g);
	assert_int_equal(g.nruns, 1);
	r = &g.run[0];
	expect_status(r, "read_mib_s", BS_ST_TOO_FAST);
	expect_ok(r, "total_mib_s", 2388);
	assert_int_equal(r->params.skip, 2);
	assert_int_equal(r->params.block_mib, 16);
	assert_int_equal(r->npt, 3);
	expect_point(r, 2, 4 * 16 / 1024.0, NAN, 0.005);
	got_release(&g);
}

/* -c 2: one curve of trimmed means, one run with passes 2. */
static void test_zcav_passes(void **state)
{
	struct got g;
	const struct got_run *r;

	(void)state;
	feed_file("samples/zcav-2.00a-c2-labvm.txt", &g);
	assert_int_equal(g.nruns, 1);
	r = &g.run[0];
	expect_ok(r, "read_mib_s", (8.64 + 14.04 + 14.66) / 3);
	/* The last of the passes' totals. */
	expect_ok(r, "total_mib_s", 11);
	assert_int_equal(r->params.passes, 2);
	assert_int_equal(r->params.block_mib, 16);
	assert_int_equal(r->npt, 3);
	expect_point(r, 0, 0 * 16 / 1024.0, 8.64, 1.852);
	expect_point(r, 2, 2 * 16 / 1024.0, 14.66, 1.091);
	got_release(&g);
}

/* -w: the same output, the curve is a write curve. */
static void test_zcav_write(void **state)
{
	static const char *const keys[] = {"write_mib_s", "total_mib_s"};
	struct got g;
	const struct got_run *r;

	(void)state;
	feed_file("samples/zcav-2.00a-write-labvm.txt", &g);
	assert_int_equal(g.nruns, 1);
	r = &g.run[0];
	expect_ok(r, "write_mib_s", (11.94 + 11.91 + 12.00 + 11.94) / 4);
	expect_ok(r, "total_mib_s", 11);
	expect_only(r, keys, 2);
	assert_int_equal(r->series_metric, metric(BS_FAM_ZCAV, "write_mib_s"));
	assert_int_equal(r->npt, 4);
	expect_point(r, 3, 3 * 16 / 1024.0, 11.94, 1.341);
	got_release(&g);
}

/* zcav's failures give no run, and say why. */
static void test_zcav_errors(void **state)
{
	struct got g;

	(void)state;
	feed_file("tests/data/zcav-2.00a-errors-labvm.txt", &g);
	assert_int_equal(g.nruns, 0);
	assert_string_equal(
		bs_buf_str(&g.rejects),
		"L1: zcav failed, no block lines; zcav said 'Can't open "
		"/tmp/x/missing'\n"
		"L3: zcav header without block lines; zcav said 'Data "
		"file/device \"/tmp/x/tiny\" too small.'\n");
	got_release(&g);

	feed_file("tests/data/zcav-bad.txt", &g);
	assert_int_equal(g.nruns, 0);
	assert_string_equal(bs_buf_str(&g.rejects),
			    "L2: zcav header without block lines\n"
			    "L5: zcav block lines without a '#block' "
			    "header\n");
	got_release(&g);
}

/* 1.03c (K/s, MiB offsets), 1.03e -c 3, and a versionless K/s one. */
static void test_zcav_old(void **state)
{
	struct got g;
	const struct got_run *r;

	(void)state;
	feed_file("tests/data/zcav-old-dialects.txt", &g);
	assert_int_equal(g.nruns, 3);
	assert_string_equal(bs_buf_str(&g.rejects), "");

	r = &g.run[0];
	expect_ident(r, BS_FAM_ZCAV, "zcav", "zcav", "1.03c");
	assert_int_equal(r->line, 5);
	/* K/s are KiB/s: /1024 is MiB/s; offsets in MiB: /1024 is GiB. */
	expect_ok(r, "read_mib_s", (31538 + 30890 + 29012) / 1024.0 / 3);
	assert_int_equal(r->params.block_mib, 100);
	assert_int_equal(r->params.passes, 1);
	assert_int_equal(r->npt, 4);
	expect_point(r, 0, 0, 31538 / 1024.0, 3.246789);
	expect_point(r, 1, 100 / 1024.0, 30890 / 1024.0, 3.314984);
	expect_point(r, 3, 300 / 1024.0, NAN, 0.412345);

	r = &g.run[1];
	expect_ident(r, BS_FAM_ZCAV, "zcav", "zcav", "1.03e");
	assert_int_equal(r->line, 12);
	expect_ok(r, "read_mib_s", (88.12 + 86.40 + 84.02) / 3);
	assert_int_equal(r->params.passes, 3);
	/* 0.25 GiB apart, and 84.02 MiB/s for 3.047 s: 256 MiB blocks. */
	assert_int_equal(r->params.block_mib, 256);
	assert_int_equal(r->npt, 4);
	expect_point(r, 3, 0.75, NAN, 0.431);

	r = &g.run[2];
	expect_ident(r, BS_FAM_ZCAV, "zcav", "zcav", NULL);
	expect_ok(r, "read_mib_s", (65536 + 63550) / 1024.0 / 2);
	assert_int_equal(r->params.passes, 2);
	assert_int_equal(r->params.block_mib, 256);
	got_release(&g);
}

/* A mail: quoted, dated, two runs of one block, each its own text. */
static void test_zcav_pasted(void **state)
{
	struct got g;
	const struct got_run *r;

	(void)state;
	feed_file("tests/data/zcav-pasted.txt", &g);
	assert_int_equal(g.nruns, 2);
	assert_string_equal(bs_buf_str(&g.rejects), "");
	r = &g.run[0];
	assert_int_equal(r->line, 7);
	assert_int_equal(r->measured_at, 1583226900); /* the Date: */
	expect_ok(r, "read_mib_s", (160.30 + 158.72 + 155.10) / 3);
	assert_int_equal(r->params.block_mib, 512);
	assert_int_equal(r->params.skip, 1);
	assert_string_equal(r->raw,
			    "> $ zcav -b 512 /dev/sdb\n"
			    "> #block offset (GiB), MiB/s, time\n"
			    "> 0.00 160.30 3.194\n"
			    "> 0.50 158.72 3.226\n"
			    "> 1.00 155.10 3.301\n"
			    "> # Read 1536 megs in 9 seconds, 157 megabytes "
			    "per second.");
	r = &g.run[1];
	assert_int_equal(r->line, 14);
	expect_ok(r, "write_mib_s", (140.00 + 138.50) / 2);
	expect_status(r, "read_mib_s", BS_ST_NOT_RUN);
	assert_int_equal(r->params.block_mib, 512);
	assert_int_equal(r->params.skip, 4);
	expect_point(r, 1, 2.00, 138.50, 3.697);
	assert_string_not_equal(g.run[0].sha, g.run[1].sha);
	got_release(&g);

	feed_file("tests/data/zcav-crlf.txt", &g);
	assert_int_equal(g.nruns, 1);
	r = &g.run[0];
	expect_ok(r, "read_mib_s", 160.30);
	/* 1024 megs over two blocks. */
	assert_int_equal(r->params.block_mib, 512);
	assert_int_equal(r->npt, 2);
	assert_null(strchr(r->raw, '\r'));
	got_release(&g);

	feed_file("tests/data/zcav-numbered.txt", &g);
	assert_int_equal(g.nruns, 1);
	r = &g.run[0];
	expect_ok(r, "read_mib_s", (12.13 + 11.93) / 2);
	assert_int_equal(r->params.block_mib, 32 / 2);
	assert_int_equal(r->params.skip, 1);
	got_release(&g);
}

/* ---- getc_putc ---- */

static const char *const gp_keys[] = {
	"write", "read", "putc_nt",       "getc_nt",
	"putc",  "getc", "putc_unlocked", "getc_unlocked",
};

static void test_getc_putc(void **state)
{
	static const double v300[] = {605,    4121,   295441, 275687,
				      197043, 280487, 439276, 516820};
	struct got g;
	const struct got_run *r;
	size_t i;

	(void)state;
	/* The table (its header after a progress message) and the CSV
	 * line: one run. */
	feed_file("samples/getc_putc-2.00a-300m-labvm.txt", &g);
	assert_int_equal(g.nruns, 1);
	assert_string_equal(bs_buf_str(&g.rejects), "");
	r = &g.run[0];
	expect_ident(r, BS_FAM_GETC_PUTC, "getc_putc", "getc_putc", "2.00a");
	assert_string_equal(r->machine, "labvm01");
	assert_int_equal(r->line, 11);
	for (i = 0; i < ARRAY_SIZE(gp_keys); i++)
		expect_ok(r, gp_keys[i], v300[i]);
	got_release(&g);

	feed_file("samples/getc_putc-2.00a-1m-labvm.txt", &g);
	assert_int_equal(g.nruns, 1);
	for (i = 0; i < ARRAY_SIZE(gp_keys); i++)
		expect_status(&g.run[0], gp_keys[i], BS_ST_TOO_FAST);
	got_release(&g);

	/* -q's stdout: the CSV line alone, no version. */
	feed_file("samples/getc_putc-2.00a-quiet-csv-labvm.txt", &g);
	assert_int_equal(g.nruns, 1);
	r = &g.run[0];
	expect_ident(r, BS_FAM_GETC_PUTC, "getc_putc", "getc_putc", NULL);
	assert_string_equal(r->machine, "labvm01");
	expect_ok(r, "write", 581);
	for (i = 1; i < ARRAY_SIZE(gp_keys); i++)
		expect_status(r, gp_keys[i], BS_ST_TOO_FAST);
	got_release(&g);
}

static void test_getc_putc_pasted(void **state)
{
	static const double lyta[] = {142,  651,  8189,  9348,
				      1763, 1813, 22174, 44887};
	static const double lng[] = {611,    4188,   295001, 275002,
				     197003, 280004, 439005, 516006};
	struct got g;
	const struct got_run *r;
	size_t i;

	(void)state;
	feed_file("tests/data/getc_putc-pasted.txt", &g);
	assert_int_equal(g.nruns, 3);
	assert_string_equal(bs_buf_str(&g.rejects), "");
	r = &g.run[0];
	expect_ident(r, BS_FAM_GETC_PUTC, "getc_putc", "getc_putc", "1.93");
	assert_string_equal(r->machine, "lyta");
	for (i = 0; i < ARRAY_SIZE(gp_keys); i++)
		expect_ok(r, gp_keys[i], lyta[i]);
	/* A blank cell is a test not timed. */
	r = &g.run[1];
	assert_string_equal(r->machine, "labvm01");
	expect_ok(r, "write", 605);
	expect_status(r, "read", BS_ST_NOT_RUN);
	expect_ok(r, "putc_nt", 295441);
	expect_status(r, "getc_unlocked", BS_ST_TOO_FAST);
	/* A name past its 20 columns shifts the cells. */
	r = &g.run[2];
	assert_string_equal(r->machine, "a-very-long-machine-name-01");
	for (i = 0; i < ARRAY_SIZE(gp_keys); i++)
		expect_ok(r, gp_keys[i], lng[i]);
	got_release(&g);
}

/* ---- dd ---- */

static void test_dd(void **state)
{
	static const char *const w[] = {"write_kib_s"};
	static const char *const rd[] = {"read_kib_s"};
	struct got g;
	const struct got_run *r;

	(void)state;
	feed_file("samples/dd-coreutils-9.1-labvm.txt", &g);
	assert_int_equal(g.nruns, 4);
	assert_string_equal(bs_buf_str(&g.rejects), "");
	r = &g.run[0];
	expect_ident(r, BS_FAM_DD, "dd", "dd", NULL);
	assert_int_equal(r->line, 1);
	expect_ok(r, "write_kib_s", 67108864 / 1024.0 / 0.0653526);
	expect_only(r, w, 1);
	assert_int_equal(r->params.bytes, 67108864);
	assert_float_equal(r->params.seconds, 0.0653526, 0);
	assert_int_equal(r->params.bs_bytes, 1048576);
	assert_int_equal(r->params.count, 64);
	assert_string_equal(r->params.flags, "oflag=direct");
	assert_false(r->has_warning);
	assert_string_equal(r->raw,
			    "$ dd if=/dev/zero of=/tmp/x/f bs=1M count=64 "
			    "oflag=direct\n64+0 records in\n64+0 records out\n"
			    "67108864 bytes (67 MB, 64 MiB) copied, 0.0653526 "
			    "s, 1.0 GB/s");
	r = &g.run[1];
	expect_ok(r, "read_kib_s", 67108864 / 1024.0 / 0.12321);
	expect_only(r, rd, 1);
	assert_int_equal(r->params.count, BS_NONE);
	assert_string_equal(r->params.flags, "");
	r = &g.run[2];
	/* Under 1 kB: no parenthesis. */
	expect_ok(r, "write_kib_s", 512 / 1024.0 / 0.000603534);
	assert_int_equal(r->params.bs_bytes, 512);
	assert_string_equal(r->params.flags, "conv=fdatasync");
	r = &g.run[3];
	expect_ok(r, "write_kib_s", 16777216 / 1024.0 / 0.0276959);
	assert_int_equal(r->params.bs_bytes, 4096);
	assert_int_equal(r->params.count, 4096);
	got_release(&g);
}

static void test_dd_variants(void **state)
{
	struct got g;
	const struct got_run *r;

	(void)state;
	feed_file("tests/data/dd-variants.txt", &g);
	/* The summary pasted alone says no direction: a copy, with a
	 * warning that says what is unknown. */
	assert_int_equal(g.nruns, 5);
	assert_string_equal(bs_buf_str(&g.rejects), "");
	r = &g.run[0]; /* GNU 6.x */
	assert_int_equal(r->line, 2);
	expect_ok(r, "write_kib_s", 17179869184.0 / 1024 / 318.901);
	assert_int_equal(r->params.bs_bytes, 128 * 1024);
	assert_int_equal(r->params.count, 131072);
	r = &g.run[1]; /* BSD, bs=1m, of=/dev/null */
	expect_ok(r, "read_kib_s", 1073741824.0 / 1024 / 4.518410);
	assert_int_equal(r->params.bs_bytes, 1048576);
	assert_int_equal(r->params.count, 1024);
	assert_false(r->has_warning);
	r = &g.run[2]; /* a summary alone: direction and bs unknown */
	assert_int_equal(r->line, 14);
	expect_ok(r, "copy_kib_s", 1073741824.0 / 1024 / 2.5);
	assert_int_equal(r->params.bs_bytes, BS_NONE);
	assert_null(r->params.flags);
	assert_string_equal(r->warning,
			    "dd summary with no dd command line above it: "
			    "direction, block size and flags unknown (stored "
			    "as copy_kib_s)");
	r = &g.run[3]; /* progress lines, an error, the last summary */
	assert_int_equal(r->line, 17);
	expect_ok(r, "write_kib_s", 499122176.0 / 1024 / 2.38);
	assert_int_equal(r->params.bytes, 499122176);
	assert_int_equal(r->params.bs_bytes, 4 * 1048576);
	assert_string_equal(r->params.flags, "oflag=dsync conv=fsync");
	r = &g.run[4]; /* to a pipe: a read; MB is 10^6 */
	expect_ok(r, "read_kib_s", 100000000.0 / 1024 / 0.5);
	assert_int_equal(r->params.bs_bytes, 1000000);
	got_release(&g);
}

/* dd lines that hold no rate. */
static void test_dd_reject(void **state)
{
	static const char in[] =
		"$ dd if=/dev/zero of=f bs=1k count=0\n"
		"0+0 records in\n0+0 records out\n"
		"0 bytes copied, 0.000123 s, 0.0 kB/s\n"
		"dd if=/dev/zero of=/dev/null count=1\n"
		"1+0 records in\n1+0 records out\n"
		"512 bytes copied, 0 s, 0 kB/s\n"
		"Solaris: records only\n2+0 records in\n2+0 records out\n"
		"A summary alone:\n1+0 records in\n1+0 records out\n"
		"512 bytes copied, 0.5 s, 1.0 kB/s\n";
	struct got g;

	(void)state;
	feed(in, sizeof(in) - 1, 0, &g);
	/* The last summary has no command line above it (the one above
	 * the rejected summary is that summary's): a copy. */
	assert_int_equal(g.nruns, 1);
	expect_ok(&g.run[0], "copy_kib_s", 512 / 1024.0 / 0.5);
	assert_string_equal(bs_buf_str(&g.rejects),
			    "L4: dd summary of no time or no bytes: no rate\n"
			    "L8: dd summary of no time or no bytes: no rate\n");
	got_release(&g);
}

/* ---- every input: chunking and cuts ---- */

static const char *const inputs[] = {
	"samples/zcav-2.00a-read-labvm.txt",
	"samples/zcav-2.00a-cached-labvm.txt",
	"samples/zcav-2.00a-skip2-labvm.txt",
	"samples/zcav-2.00a-c2-labvm.txt",
	"samples/zcav-2.00a-write-labvm.txt",
	"tests/data/zcav-2.00a-errors-labvm.txt",
	"samples/getc_putc-2.00a-300m-labvm.txt",
	"samples/getc_putc-2.00a-1m-labvm.txt",
	"samples/getc_putc-2.00a-quiet-csv-labvm.txt",
	"samples/dd-coreutils-9.1-labvm.txt",
	"tests/data/zcav-old-dialects.txt",
	"tests/data/zcav-pasted.txt",
	"tests/data/zcav-crlf.txt",
	"tests/data/zcav-numbered.txt",
	"tests/data/zcav-bad.txt",
	"tests/data/getc_putc-pasted.txt",
	"tests/data/dd-variants.txt",
};

/* The same runs and rejects at every chunk size. */
static void test_chunks(void **state)
{
	size_t i, chunk, len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		char *in = slurp(inputs[i], &len);
		struct got whole, part;

		feed(in, len, 0, &whole);
		assert_true(whole.dump.len > 0);
		for (chunk = 1; chunk <= len; chunk++) {
			feed(in, len, chunk, &part);
			if (strcmp(bs_buf_str(&whole.dump),
				   bs_buf_str(&part.dump)) != 0)
				fail_msg("%s: chunk %zu differs", inputs[i],
					 chunk);
			got_release(&part);
		}
		got_release(&whole);
		free(in);
	}
}

/* Every prefix of every input: no crash, no leak (sanitizers), and the
 * same bytes give the same result. */
static void test_cuts(void **state)
{
	size_t i, cut, len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		char *in = slurp(inputs[i], &len);

		for (cut = 0; cut <= len; cut++) {
			struct got a, b;

			feed(in, cut, 0, &a);
			feed(in, cut, 7, &b);
			assert_string_equal(bs_buf_str(&a.dump),
					    bs_buf_str(&b.dump));
			got_release(&a);
			got_release(&b);
		}
		free(in);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zcav_read),
		cmocka_unit_test(test_zcav_cached),
		cmocka_unit_test(test_zcav_skip),
		cmocka_unit_test(test_zcav_passes),
		cmocka_unit_test(test_zcav_write),
		cmocka_unit_test(test_zcav_errors),
		cmocka_unit_test(test_zcav_old),
		cmocka_unit_test(test_zcav_pasted),
		cmocka_unit_test(test_getc_putc),
		cmocka_unit_test(test_getc_putc_pasted),
		cmocka_unit_test(test_dd),
		cmocka_unit_test(test_dd_variants),
		cmocka_unit_test(test_dd_reject),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_cuts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
