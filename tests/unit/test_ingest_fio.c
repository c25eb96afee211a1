/*
 * tests/unit/test_ingest_fio.c - fio's formats through the ingest driver:
 * JSON and JSON+ (fio 3.33 captures and a hand-written fio 2.x document),
 * terse v3, v4 and v5, and the normal text output, each run checked value
 * by value against the figures fio printed; the pasted forms (quoted
 * mail, CRLF, numbered lines); rejects with their reasons; the same
 * events at every chunk size; digests that tell the jobs of one document
 * apart and stay the same on a second read; and no crash on any cut of
 * the samples.
 *
 * A run is written as one line: "run L<line> <format> <version>
 * t=<measured_at> <params> | <key>=<value> ...", the results being the
 * fio metrics whose status is ok, in catalogue order. The JSON and terse
 * expectations were computed from fio's output by a separate Python
 * script (Python's json module and plain splitting), the text ones read
 * off the samples by hand: fio's "49.9MiB/s" is 51097.6 KiB/s, its
 * "2288" of a "(nsec)" block 2.288 us.
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
#include "util/num.h"
#include "util/banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_RUNS 4

/* ---- the log of an ingest ---------------------------------------------- */

struct coll {
	struct bs_buf log;
	char sha[MAX_RUNS * 2][65];
	size_t nsha;
};

static void add_text(struct bs_buf *b, const char *key, const char *v)
{
	bs_buf_addf(b, " %s=%s", key, v ? v : "-");
}

static void add_int(struct bs_buf *b, const char *key, int64_t v)
{
	if (v == BS_NONE)
		bs_buf_addf(b, " %s=-", key);
	else
		bs_buf_addf(b, " %s=%" PRId64, key, v);
}

static int on_run(struct bs_run *r, void *ctx)
{
	struct coll *c = ctx;
	const struct bs_params *p = &r->params;
	char num[64];
	int m, first, end, n = 0;

	assert_int_equal(r->family, BS_FAM_FIO);
	assert_string_equal(r->tool, "fio");
	bs_buf_addf(&c->log, "run L%" PRId64 " %s %s t=", r->source_line,
		    r->format, r->tool_version ? r->tool_version : "-");
	if (r->measured_at == BS_NONE)
		bs_buf_adds(&c->log, "-");
	else
		bs_buf_addf(&c->log, "%" PRId64, r->measured_at);
	add_text(&c->log, "jobname", p->jobname);
	add_text(&c->log, "rw", p->rw);
	add_text(&c->log, "bs", p->bs);
	add_text(&c->log, "ioengine", p->ioengine);
	add_int(&c->log, "iodepth", p->iodepth);
	add_int(&c->log, "numjobs", p->numjobs);
	add_text(&c->log, "size", p->size);
	add_int(&c->log, "direct", p->direct);
	bs_buf_adds(&c->log, " |");
	bs_metric_rows(BS_FAM_FIO, &first, &end);
	for (m = 0; m < bs_nmetrics; m++) {
		const struct bs_value *v = &r->res[m];

		if (m < first || m >= end) {
			/* Nothing outside the fio rows. */
			assert_int_equal(v->status, BS_ST_NOT_RUN);
			continue;
		}
		if (v->status == BS_ST_NOT_RUN) {
			/* Absent stays absent: never 0. */
			assert_true(isnan(v->value));
			continue;
		}
		assert_int_equal(v->status, BS_ST_OK);
		bs_buf_addf(&c->log, " %s=%s", bs_metrics[m].key,
			    bs_fmt_g(num, sizeof(num), v->value));
		n++;
	}
	bs_buf_addc(&c->log, '\n');
	if (c->nsha < ARRAY_SIZE(c->sha))
		memcpy(c->sha[c->nsha++], r->sha256, 65);
	return 0;
}

static int on_reject(int64_t line, const char *raw, size_t len, int truncated,
		     const char *reason, void *ctx)
{
	struct coll *c = ctx;

	(void)raw;
	(void)len;
	(void)truncated;
	bs_buf_addf(&c->log, "reject L%" PRId64 " %s\n", line, reason);
	return 0;
}

static void on_warn(int64_t line, const char *msg, void *ctx)
{
	struct coll *c = ctx;

	bs_buf_addf(&c->log, "warn L%" PRId64 " %s\n", line, msg);
}

/* Ingests src fed in chunks of chunk bytes (0: at once) into c. */
static void ingest(const char *src, size_t len, size_t chunk, struct coll *c)
{
	struct bs_ingest_cb cb = {on_run, on_reject, on_warn, c};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest *p = bs_ingest_new("t", &cb, NULL);
	size_t off = 0;

	/* Zeroed is BS_BUF_INIT. */
	memset(c, 0, sizeof(*c));
	if (chunk == 0)
		chunk = len ? len : 1;
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;

		assert_int_equal(bs_ingest_feed(p, src + off, n, &err), 0);
		off += n;
	}
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	bs_ingest_free(p);
}

static char *log_of(const char *src, size_t len, size_t chunk)
{
	struct coll c;

	ingest(src, len, chunk, &c);
	return bs_buf_detach(&c.log, NULL);
}

/* Chunk sizes 1 to 64, then a few, and the whole input: same log. */
static void check_chunks(const char *name, const char *src, size_t len,
			 const char *want)
{
	static const size_t more[] = {97, 255, 1021, 4093};
	size_t k;

	for (k = 1; k <= 64 + ARRAY_SIZE(more); k++) {
		size_t chunk = k <= 64 ? k : more[k - 65];
		char *got = log_of(src, len, chunk);

		if (strcmp(got, want) != 0)
			fail_msg("%s at chunks of %zu:\n--- got\n%s--- want\n%s",
				 name, chunk, got, want);
		free(got);
	}
}

static char *read_file(const char *dir, const char *name, size_t *len)
{
	char path[1024];
	struct bs_buf b = BS_BUF_INIT;
	char tmp[4096];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		bs_buf_add(&b, tmp, n);
	fclose(f);
	return bs_buf_detach(&b, len);
}

enum where { SAMPLE, DATA };

static char *read_input(enum where w, const char *name, size_t *len)
{
	const char *dir;
	char path[1024];

	if (w == SAMPLE) {
		dir = getenv("SAMPLES");
		return read_file(dir ? dir : "samples", name, len);
	}
	dir = getenv("SRC");
	snprintf(path, sizeof(path), "%s/tests/data", dir ? dir : ".");
	return read_file(path, name, len);
}

/* ---- every input, value by value --------------------------------------- */

struct file_case {
	enum where where;
	const char *name;
	const char *runs[MAX_RUNS + 1]; /* lines of the log, NULL-ended */
};

/* clang-format off */
#define TEXT_P(name, rw, bs, eng, depth, jobs) \
	"jobname=" name " rw=" rw " bs=" bs " ioengine=" eng " iodepth=" depth \
	" numjobs=" jobs " size=- direct=- | "

static const struct file_case files[] = {
	{ SAMPLE, "fio-3.33-randrw.json", {
	  "run L8 fio-json 3.33 t=1796101177 jobname=randrw rw=randrw bs=4k ioengine=psync iodepth=1 numjobs=1 size=16M direct=0 | "
	  "read_bw_kib_s=34344 read_iops=8586.206897 read_lat_mean_us=111.034109438 "
	  "read_clat_p50_us=83.456 read_clat_p90_us=119.296 read_clat_p95_us=148.48 "
	  "read_clat_p99_us=724.992 read_clat_p99_9_us=4046.848 read_clat_p99_99_us=4423.68 "
	  "write_bw_kib_s=36275 write_iops=9068.965517 write_lat_mean_us=3.8402989539999997 "
	  "write_clat_p50_us=3.12 write_clat_p90_us=5.344 write_clat_p95_us=6.624 "
	  "write_clat_p99_us=10.944 write_clat_p99_9_us=44.8 write_clat_p99_99_us=76.288",
	  NULL } },
	{ SAMPLE, "fio-3.33-randrw-jsonplus.json", {
	  "run L8 fio-json 3.33 t=1796101177 jobname=randrw rw=randrw bs=4k ioengine=psync iodepth=1 numjobs=1 size=16M direct=0 | "
	  "read_bw_kib_s=46057 read_iops=11514.450867 read_lat_mean_us=71.384641566 "
	  "read_clat_p50_us=60.672 read_clat_p90_us=73.216 read_clat_p95_us=81.408 "
	  "read_clat_p99_us=154.624 read_clat_p99_9_us=2965.504 read_clat_p99_99_us=4227.072 "
	  "write_bw_kib_s=48647 write_iops=12161.849711 write_lat_mean_us=3.16525903 "
	  "write_clat_p50_us=2.64 write_clat_p90_us=4.128 write_clat_p95_us=5.408 "
	  "write_clat_p99_us=9.152 write_clat_p99_9_us=43.264 write_clat_p99_99_us=52.992",
	  NULL } },
	{ SAMPLE, "fio-3.33-two-jobs.json", {
	  "run L15 fio-json 3.33 t=1796101180 jobname=seqwrite rw=write bs=64k ioengine=psync iodepth=1 numjobs=1 size=16M direct=0 | "
	  "write_bw_kib_s=2730666 write_iops=42666.666667 write_lat_mean_us=18.796691406 "
	  "write_clat_p50_us=9.024 write_clat_p90_us=14.656 write_clat_p95_us=15.68 "
	  "write_clat_p99_us=23.68 write_clat_p99_9_us=2113.536 write_clat_p99_99_us=2113.536",
	  "run L259 fio-json 3.33 t=1796101180 jobname=randread rw=randread bs=4k ioengine=psync iodepth=1 numjobs=1 size=16M direct=0 | "
	  "read_bw_kib_s=47080 read_iops=11770.114943 read_lat_mean_us=83.71017529299999 "
	  "read_clat_p50_us=76.288 read_clat_p90_us=104.96 read_clat_p95_us=113.152 "
	  "read_clat_p99_us=171.008 read_clat_p99_9_us=585.728 read_clat_p99_99_us=2998.272",
	  NULL } },
	{ SAMPLE, "fio-3.33-group-reporting.json", {
	  "run L8 fio-json 3.33 t=1796101182 jobname=grp rw=randread bs=4k ioengine=psync iodepth=1 numjobs=2 size=16M direct=0 | "
	  "read_bw_kib_s=92044 read_iops=23011.235955 read_lat_mean_us=85.54635974099999 "
	  "read_clat_p50_us=83.456 read_clat_p90_us=118.272 read_clat_p95_us=134.144 "
	  "read_clat_p99_us=193.536 read_clat_p99_9_us=659.456 read_clat_p99_99_us=2834.432",
	  NULL } },
	{ SAMPLE, "fio-3.33-randrw-terse3.txt", {
	  "run L1 fio-terse 3.33 t=- jobname=randrw rw=- bs=- ioengine=- iodepth=- numjobs=- size=- direct=- | "
	  "read_bw_kib_s=50113 read_iops=12528 read_lat_mean_us=67.652248 "
	  "read_clat_p50_us=55 read_clat_p90_us=77 read_clat_p95_us=96 "
	  "read_clat_p99_us=168 read_clat_p99_9_us=2637 read_clat_p99_99_us=3817 "
	  "write_bw_kib_s=52930 write_iops=13232 write_lat_mean_us=4.900783 "
	  "write_clat_p50_us=2 write_clat_p90_us=4 write_clat_p95_us=5 "
	  "write_clat_p99_us=7 write_clat_p99_9_us=41 write_clat_p99_99_us=4079",
	  NULL } },
	{ SAMPLE, "fio-3.33-randrw-terse4.txt", {
	  "run L1 fio-terse 3.33 t=- jobname=randrw rw=- bs=- ioengine=- iodepth=- numjobs=- size=- direct=- | "
	  "read_bw_kib_s=37584 read_iops=9396 read_lat_mean_us=87.00842 "
	  "read_clat_p50_us=62 read_clat_p90_us=110 read_clat_p95_us=123 "
	  "read_clat_p99_us=232 read_clat_p99_9_us=3457 read_clat_p99_99_us=3522 "
	  "write_bw_kib_s=39698 write_iops=9924 write_lat_mean_us=4.858584 "
	  "write_clat_p50_us=2 write_clat_p90_us=4 write_clat_p95_us=5 "
	  "write_clat_p99_us=10 write_clat_p99_9_us=67 write_clat_p99_99_us=3358",
	  NULL } },
	{ SAMPLE, "fio-3.33-randrw-terse5.txt", {
	  "run L1 fio-terse 3.33 t=- jobname=randrw rw=- bs=- ioengine=- iodepth=- numjobs=- size=- direct=- | "
	  "read_bw_kib_s=51076 read_iops=12769 read_lat_mean_us=63.928857 "
	  "read_clat_p50_us=56 read_clat_p90_us=72 read_clat_p95_us=81 "
	  "read_clat_p99_us=122 read_clat_p99_9_us=4014 read_clat_p99_99_us=4751 "
	  "write_bw_kib_s=53948 write_iops=13487 write_lat_mean_us=3.073831 "
	  "write_clat_p50_us=2 write_clat_p90_us=4 write_clat_p95_us=5 "
	  "write_clat_p99_us=8 write_clat_p99_9_us=14 write_clat_p99_99_us=46",
	  NULL } },
	{ DATA, "fio-2.x-handmade.json", {
	  "run L13 fio-json 2.2.10 t=1466086398 jobname=randread rw=randread bs=4k ioengine=libaio iodepth=32 numjobs=1 size=1G direct=1 | "
	  "read_bw_kib_s=17476 read_iops=4369.07 read_lat_mean_us=7321.87 "
	  "read_clat_p50_us=7328 read_clat_p90_us=7584 read_clat_p95_us=7648 "
	  "read_clat_p99_us=7904 read_clat_p99_9_us=8384 read_clat_p99_99_us=9792",
	  NULL } },
	{ DATA, "fio-3.33-two-jobs-crlf.json", {
	  "run L16 fio-json 3.33 t=1796101180 jobname=seqwrite rw=write bs=64k ioengine=psync iodepth=1 numjobs=1 size=16M direct=0 | "
	  "write_bw_kib_s=2730666 write_iops=42666.666667 write_lat_mean_us=18.796691406 "
	  "write_clat_p50_us=9.024 write_clat_p90_us=14.656 write_clat_p95_us=15.68 "
	  "write_clat_p99_us=23.68 write_clat_p99_9_us=2113.536 write_clat_p99_99_us=2113.536",
	  "run L260 fio-json 3.33 t=1796101180 jobname=randread rw=randread bs=4k ioengine=psync iodepth=1 numjobs=1 size=16M direct=0 | "
	  "read_bw_kib_s=47080 read_iops=11770.114943 read_lat_mean_us=83.71017529299999 "
	  "read_clat_p50_us=76.288 read_clat_p90_us=104.96 read_clat_p95_us=113.152 "
	  "read_clat_p99_us=171.008 read_clat_p99_9_us=585.728 read_clat_p99_99_us=2998.272",
	  NULL } },
	{ DATA, "fio-3.33-terse-numbered.txt", {
	  "run L3 fio-terse 3.33 t=- jobname=randrw rw=- bs=- ioengine=- iodepth=- numjobs=- size=- direct=- | "
	  "read_bw_kib_s=50113 read_iops=12528 read_lat_mean_us=67.652248 "
	  "read_clat_p50_us=55 read_clat_p90_us=77 read_clat_p95_us=96 "
	  "read_clat_p99_us=168 read_clat_p99_9_us=2637 read_clat_p99_99_us=3817 "
	  "write_bw_kib_s=52930 write_iops=13232 write_lat_mean_us=4.900783 "
	  "write_clat_p50_us=2 write_clat_p90_us=4 write_clat_p95_us=5 "
	  "write_clat_p99_us=7 write_clat_p99_9_us=41 write_clat_p99_99_us=4079",
	  "run L4 fio-terse 3.33 t=- jobname=randrw rw=- bs=- ioengine=- iodepth=- numjobs=- size=- direct=- | "
	  "read_bw_kib_s=51076 read_iops=12769 read_lat_mean_us=63.928857 "
	  "read_clat_p50_us=56 read_clat_p90_us=72 read_clat_p95_us=81 "
	  "read_clat_p99_us=122 read_clat_p99_9_us=4014 read_clat_p99_99_us=4751 "
	  "write_bw_kib_s=53948 write_iops=13487 write_lat_mean_us=3.073831 "
	  "write_clat_p50_us=2 write_clat_p90_us=4 write_clat_p95_us=5 "
	  "write_clat_p99_us=8 write_clat_p99_9_us=14 write_clat_p99_99_us=46",
	  NULL } },
	/* The normal text output. */
	{ SAMPLE, "fio-3.33-randrw.txt", {
	  "run L6 fio-text 3.33 t=1796083048 "
	  TEXT_P("randrw", "randrw", "4096B", "psync", "1", "1")
	  "read_bw_kib_s=51097.6 read_iops=12800 read_lat_mean_us=74.38 "
	  "read_clat_p50_us=53 read_clat_p90_us=83 read_clat_p95_us=93 "
	  "read_clat_p99_us=281 read_clat_p99_9_us=3523 read_clat_p99_99_us=4424 "
	  "write_bw_kib_s=53964.8 write_iops=13500 write_lat_mean_us=2.59706 "
	  "write_clat_p50_us=2.288 write_clat_p90_us=3.408 write_clat_p95_us=4.64 "
	  "write_clat_p99_us=6.304 write_clat_p99_9_us=9.664 write_clat_p99_99_us=38.656",
	  NULL } },
	{ SAMPLE, "fio-3.33-seqread.txt", {
	  "run L6 fio-text 3.33 t=1796083051 "
	  TEXT_P("seqread", "read", "4096B", "psync", "1", "1")
	  "read_bw_kib_s=200704 read_iops=50300 read_lat_mean_us=19.61438 "
	  "read_clat_p50_us=11.072 read_clat_p90_us=12.096 read_clat_p95_us=14.528 "
	  "read_clat_p99_us=18.56 read_clat_p99_9_us=4046.848 read_clat_p99_99_us=16187.392",
	  NULL } },
	{ SAMPLE, "fio-3.33-randwrite-libaio.txt", {
	  "run L6 fio-text 3.33 t=1796101179 "
	  TEXT_P("randwrite", "randwrite", "4096B", "libaio", "4", "1")
	  "write_bw_kib_s=133120 write_iops=33300 write_lat_mean_us=118.6 "
	  "write_clat_p50_us=106 write_clat_p90_us=133 write_clat_p95_us=145 "
	  "write_clat_p99_us=217 write_clat_p99_9_us=351 write_clat_p99_99_us=644",
	  NULL } },
	{ SAMPLE, "fio-3.33-two-jobs.txt", {
	  "run L8 fio-text 3.33 t=1796101180 "
	  TEXT_P("seqwrite", "write", "64.0KiB", "psync", "1", "1")
	  "write_bw_kib_s=2731008 write_iops=42700 write_lat_mean_us=19.91 "
	  "write_clat_p50_us=16 write_clat_p90_us=22 write_clat_p95_us=24 "
	  "write_clat_p99_us=53 write_clat_p99_9_us=545 write_clat_p99_99_us=545",
	  "run L25 fio-text 3.33 t=1796101180 "
	  TEXT_P("randread", "randread", "4096B", "psync", "1", "1")
	  "read_bw_kib_s=56934.4 read_iops=14200 read_lat_mean_us=69.74 "
	  "read_clat_p50_us=67 read_clat_p90_us=84 read_clat_p95_us=98 "
	  "read_clat_p99_us=149 read_clat_p99_9_us=359 read_clat_p99_99_us=1221",
	  NULL } },
	/* group_reporting: one report of two jobs. */
	{ SAMPLE, "fio-3.33-group-reporting.txt", {
	  "run L8 fio-text 3.33 t=1796101181 "
	  TEXT_P("grp", "randread", "4096B", "psync", "1", "2")
	  "read_bw_kib_s=81920 read_iops=20500 read_lat_mean_us=96.87 "
	  "read_clat_p50_us=94 read_clat_p90_us=141 read_clat_p95_us=153 "
	  "read_clat_p99_us=208 read_clat_p99_9_us=611 read_clat_p99_99_us=2278",
	  NULL } },
	/* A quoted mail: the Date: header does not override fio's own. */
	{ DATA, "fio-3.33-randrw-quoted.txt", {
	  "run L13 fio-text 3.33 t=1796083048 "
	  TEXT_P("randrw", "randrw", "4096B", "psync", "1", "1")
	  "read_bw_kib_s=51097.6 read_iops=12800 read_lat_mean_us=74.38 "
	  "read_clat_p50_us=53 read_clat_p90_us=83 read_clat_p95_us=93 "
	  "read_clat_p99_us=281 read_clat_p99_9_us=3523 read_clat_p99_99_us=4424 "
	  "write_bw_kib_s=53964.8 write_iops=13500 write_lat_mean_us=2.59706 "
	  "write_clat_p50_us=2.288 write_clat_p90_us=3.408 write_clat_p95_us=4.64 "
	  "write_clat_p99_us=6.304 write_clat_p99_9_us=9.664 write_clat_p99_99_us=38.656",
	  NULL } },
	/* A job that failed (trim on a file) is a reject, the error line
	 * before the document is skipped. */
	{ DATA, "fio-3.33-trim-error.json", {
	  "reject L9 fio job 'trim' ended with error 25 and did no I/O",
	  NULL } },
};
/* clang-format on */

static void test_files(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		const struct file_case *fc = &files[i];
		struct bs_buf want = BS_BUF_INIT;
		size_t len;
		char *src = read_input(fc->where, fc->name, &len);
		char *got;

		for (j = 0; fc->runs[j]; j++)
			bs_buf_addf(&want, "%s\n", fc->runs[j]);
		got = log_of(src, len, 0);
		if (strcmp(got, bs_buf_str(&want)) != 0)
			fail_msg("%s:\n--- got\n%s--- want\n%s", fc->name, got,
				 bs_buf_str(&want));
		check_chunks(fc->name, src, len, bs_buf_str(&want));
		free(got);
		free(src);
		bs_buf_release(&want);
	}
}

/* ---- rejects and things that are not fio's ------------------------------ */

struct text_case {
	const char *what;
	const char *in;
	const char *log;
};

/* clang-format off */
#define T3_HEAD "3;fio-3.33;j;0;0;"
#define HDR "randrw: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1\n"
#define JOB "randrw: (groupid=0, jobs=1): err= 0: pid=20213: Mon Nov 30 23:57:28 2026\n"

static const struct text_case texts[] = {
	{ "a terse line cut short",
	  "before\n" T3_HEAD "7968;50113;12528\nafter\n",
	  "reject L2 expected at least 121 fields for fio terse version 3, found 8\n" },
	{ "a terse line with a word for a number",
	  NULL, NULL }, /* built in test_texts() */
	{ "a terse line of a failed job",
	  NULL, NULL },
	{ "JSON that is not fio's gives nothing",
	  "{\n  \"name\" : \"x\",\n  \"list\" : [ 1, 2 ]\n}\n", "" },
	{ "someone else's long JSON ends at its 8th line, no reject",
	  "{\n\"a\":1,\n\"b\":2,\n\"c\":3,\n\"d\":4,\n\"e\":5,\n\"f\":6,\n\"g\":7,\n\"h\":8\n}\n", "" },
	{ "a fio document cut short",
	  "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n",
	  "reject L1 the input ends inside a fio-json block\n" },
	{ "a fio document that does not parse",
	  "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [ { , } ]\n}\n",
	  "reject L1 fio JSON does not parse: string or '}' expected near ',' (its line 3)\n" },
	{ "a fio document without jobs",
	  "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : []\n}\n",
	  "reject L1 fio JSON without jobs\n" },
	{ "a value cut by hand (\"bw\" : ...) is null: the job a warning",
	  "{\n\"fio version\" : \"fio-3.33\",\n\"jobs\" : [ {\n\"jobname\" : \"j\",\n"
	  "\"read\" : { \"io_bytes\" : 1, \"bw\" : ..., \"iops\" : 3 }\n} ]\n}\n",
	  "warn L4 fio JSON job 'j' cut short by hand, not stored: fio JSON read without bw\n" },
	{ "dots inside a string are the string's",
	  "{\n\"fio version\" : \"fio-3.33\",\n\"jobs\" : [ {\n\"jobname\" : \"a...b\",\n"
	  "\"error\" : 0,\n} ]\n}\n",
	  "warn L4 fio JSON job 'a...b' cut short by hand, not stored: no results\n" },
	{ "a JSON job without jobname",
	  "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [ { \"error\" : 0 } ]\n}\n",
	  "reject L1 fio JSON job without jobname\n" },
	{ "a JSON direction without bw",
	  "{\n\"fio version\" : \"fio-3.33\",\n\"jobs\" : [ {\n\"jobname\" : \"j\",\n"
	  "\"read\" : { \"total_ios\" : 5, \"iops\" : 3 }\n} ]\n}\n",
	  "reject L4 fio JSON read without bw\n" },
	{ "a JSON option out of range",
	  "{\n\"fio version\" : \"fio-3.33\",\n\"jobs\" : [ {\n\"jobname\" : \"j\",\n"
	  "\"job options\" : { \"iodepth\" : \"-3\" },\n"
	  "\"read\" : { \"total_ios\" : 5, \"iops\" : 3, \"bw\" : 12 }\n} ]\n}\n",
	  "reject L4 fio option iodepth=-3 is not a valid iodepth\n" },
	{ "a JSON job with braces and quotes in strings, then text",
	  "{\n\"fio version\" : \"fio-3.33\",\n\"jobs\" : [ {\n\"jobname\" : \"a}\\\"{b\",\n"
	  "\"read\" : { \"total_ios\" : 5, \"iops\" : 3, \"bw\" : 12 }\n} ]\n}\n9,9,9\n",
	  "run L4 fio-json 3.33 t=- jobname=a}\"{b rw=- bs=- ioengine=- iodepth=- "
	  "numjobs=- size=- direct=- | read_bw_kib_s=12 read_iops=3\n" },
	{ "a text header without results: a note, not a reject",
	  "$ fio x.fio\n" HDR "fio-3.33\nStarting 1 process\n^C\n",
	  "warn L2 fio job header without job results: nothing stored from "
	  "it (a JSON or terse print of the run is read on its own)\n" },
	{ "a text job without directions",
	  HDR JOB "  cpu          : usr=0.00%, sys=38.06%, ctx=1979, majf=0, minf=13\n",
	  "reject L2 fio job 'randrw' without read, write or trim results\n" },
	{ "a text job with an unknown bandwidth unit",
	  HDR JOB "  read: IOPS=12.8k, BW=49.9Mfoo/s (52.3MB/s)(7968KiB/156msec)\n",
	  "reject L2 fio bandwidth unit unknown: '49.9Mfoo/s'\n" },
	{ "a text job in bits (unit_base=1)",
	  JOB "  read: IOPS=12.8k, BW=400Mibit/s (419Mbit/s)(7968KiB/156msec)\n",
	  "run L1 fio-text - t=1796083048 jobname=randrw rw=- bs=- ioengine=- iodepth=- "
	  "numjobs=1 size=- direct=- | read_bw_kib_s=51200 read_iops=12800\n" },
	{ "a text job that failed",
	  HDR "randrw: (groupid=0, jobs=1): err= 5 (file:io_u.c:1845, func=io_u error, error=Input/output error): pid=7: Mon Nov 30 23:57:28 2026\n"
	  "  read: IOPS=12.8k, BW=49.9MiB/s (52.3MB/s)(7968KiB/156msec)\n",
	  "run L2 fio-text - t=1796083048 jobname=randrw rw=randrw bs=4096B "
	  "ioengine=psync iodepth=1 numjobs=1 size=- direct=- | "
	  "read_bw_kib_s=51097.6 read_iops=12800\n"
	  "warn L2 fio job 'randrw' ended with error 5: its results are kept, "
	  "tagged fio.error=5\n" },
	{ "a text job that failed before any I/O",
	  HDR "randrw: (groupid=0, jobs=1): err= 5 (file:io_u.c:1845, func=io_u error, error=Input/output error): pid=7: Mon Nov 30 23:57:28 2026\n"
	  "  read: IOPS=0, BW=0KiB/s (0kB/s)(0KiB/156msec)\n",
	  "reject L2 fio job 'randrw' ended with error 5 and did no I/O\n" },
	{ "a text job with IOPS=, msec latency and a k suffix",
	  JOB "  write: IOPS=812, BW=3250KiB/s (3328kB/s)(16.0MiB/5041msec); 0 zone resets\n"
	  "     lat (msec): min=1, max=16k, avg=1.23, stdev=0.50\n"
	  "    clat percentiles (msec):\n"
	  "     |  1.00th=[    1], 50.00th=[    2], 99.99th=[   16]\n"
	  "Some text after.\n",
	  "run L1 fio-text - t=1796083048 jobname=randrw rw=- bs=- ioengine=- iodepth=- "
	  "numjobs=1 size=- direct=- | write_bw_kib_s=3250 write_iops=812 "
	  "write_lat_mean_us=1230 write_clat_p50_us=2000 write_clat_p99_99_us=16000\n" },
};
/* clang-format on */

/* A terse v3 line (the capture's) with field i (1-based) set to v. */
static char *terse_with(int i, const char *v)
{
	struct bs_buf b = BS_BUF_INIT;
	size_t len, k;
	char *src = read_input(SAMPLE, "fio-3.33-randrw-terse3.txt", &len);
	const char *s = src;
	int f = 1;

	for (k = 0; k < len; k++) {
		if (src[k] == ';' || src[k] == '\n') {
			if (f == i)
				bs_buf_adds(&b, v);
			else
				bs_buf_add(&b, s, (size_t)(src + k - s));
			bs_buf_addc(&b, src[k]);
			s = src + k + 1;
			f++;
		}
	}
	free(src);
	return bs_buf_detach(&b, NULL);
}

static void check_text(const char *what, const char *in, const char *want)
{
	char *got = log_of(in, strlen(in), 0);

	if (strcmp(got, want) != 0)
		fail_msg("%s:\n--- got\n%s--- want\n%s", what, got, want);
	free(got);
	check_chunks(what, in, strlen(in), want);
}

static void test_texts(void **state)
{
	char *in;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(texts); i++)
		if (texts[i].in)
			check_text(texts[i].what, texts[i].in, texts[i].log);
	in = terse_with(7, "fast");
	check_text(texts[1].what, in,
		   "reject L1 fio terse field 7 (read bandwidth) is not a "
		   "number: 'fast'\n");
	free(in);
	in = terse_with(5, "5");
	check_text(texts[2].what, in,
		   "run L1 fio-terse 3.33 t=- jobname=randrw rw=- bs=- "
		   "ioengine=- iodepth=- numjobs=- size=- direct=- | "
		   "read_bw_kib_s=50113 read_iops=12528 "
		   "read_lat_mean_us=67.652248 read_clat_p50_us=55 "
		   "read_clat_p90_us=77 read_clat_p95_us=96 "
		   "read_clat_p99_us=168 read_clat_p99_9_us=2637 "
		   "read_clat_p99_99_us=3817 write_bw_kib_s=52930 "
		   "write_iops=13232 write_lat_mean_us=4.900783 "
		   "write_clat_p50_us=2 write_clat_p90_us=4 write_clat_p95_us=5 "
		   "write_clat_p99_us=7 write_clat_p99_9_us=41 "
		   "write_clat_p99_99_us=4079\n"
		   "warn L1 fio job 'randrw' ended with error 5: its results "
		   "are kept, tagged fio.error=5\n");
	free(in);
	in = terse_with(18, "50.000000%=1e300");
	check_text("a percentile out of range", in,
		   "reject L1 fio read_clat_p50_us 1e+300 out of range\n");
	free(in);
}

/* ---- digests ---------------------------------------------------------- */

/* Two jobs of one document are two runs (their digests differ), and the
 * same bytes give the same digests again: a second ingest stores none. */
static void test_digests(void **state)
{
	static const char *const names[] = {"fio-3.33-two-jobs.json",
					    "fio-3.33-two-jobs.txt"};
	struct coll a, b;
	size_t i, len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *src = read_input(SAMPLE, names[i], &len);

		ingest(src, len, 0, &a);
		ingest(src, len, 7, &b);
		assert_int_equal(a.nsha, 2);
		assert_int_equal(b.nsha, 2);
		assert_string_not_equal(a.sha[0], a.sha[1]);
		assert_string_equal(a.sha[0], b.sha[0]);
		assert_string_equal(a.sha[1], b.sha[1]);
		bs_buf_release(&a.log);
		bs_buf_release(&b.log);
		free(src);
	}
}

/* ---- any cut of any sample --------------------------------------------- */

/* Every sample cut at many places (and with a byte changed there) goes
 * through without a crash or a leak (the sanitizers watch); a cut JSON
 * document is a reject, never a run of half a job. */
static void test_cuts(void **state)
{
	static const char *const names[] = {"fio-3.33-randrw.json",
					    "fio-3.33-two-jobs.txt",
					    "fio-3.33-randrw-terse5.txt",
					    "fio-3.33-numjobs2.txt"};
	size_t i, at, len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *src = read_input(SAMPLE, names[i], &len);

		for (at = 0; at < len; at += 13) {
			char *got = log_of(src, at, 0);
			char saved = src[at];

			free(got);
			src[at] = saved == '}' ? ']' : '}';
			got = log_of(src, len, 0);
			free(got);
			src[at] = saved;
		}
		free(src);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_digests),
		cmocka_unit_test(test_cuts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
