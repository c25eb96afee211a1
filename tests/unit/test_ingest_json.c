/*
 * tests/unit/test_ingest_json.c - bstore's own JSON export read back
 * (ingest/bstore_json.c).
 *
 * Runs of every kind (each bonnie++ sample as the CSV parser reads it, a
 * `bstore run` run with latencies, a zcav run with a curve, a sysbench
 * run with every kind of parameter) are written with bs_run_json() and
 * read back: the run read is the run written, field by field and as its
 * JSON, both by the parser alone and through the ingest driver at every
 * chunk size. Every reject reason, word for word.
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

#include "core/run_json.h"
#include "ingest/bstore_json.h"
#include "ingest/ingest.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- runs to write ------------------------------------------------- */

static void set_raw(struct bs_run *r, const char *raw)
{
	bs_run_set(&r->raw, raw);
	bs_sha256_hex(raw, strlen(raw), r->sha256);
}

static void provenance(struct bs_run *r, const char *source, int64_t line)
{
	r->id = 7;
	r->stored_at = 1700000000;
	bs_run_set(&r->source, source);
	r->source_line = line;
	bs_run_set(&r->parser_version, "bstore-ingest 1");
}

/* A `bstore run` run: latencies, host tags, a seed. */
static void make_bstore_run(struct bs_run *r)
{
	int m;

	bs_run_init(r);
	bs_run_set(&r->tool, "bstore");
	bs_run_set(&r->tool_version, "0.1.0");
	bs_run_set(&r->format, BS_FMT_BSTORE_RUN);
	bs_run_set(&r->machine, "tiny");
	r->measured_at = 1733011200;
	r->params.file_size_mib = 4;
	r->params.io_chunk_bytes = 8192;
	r->params.max_size = BS_SIZE_SYMLINK;
	r->params.seed = xstrdup("4213617618");
	for (m = 0; m < BS_M_BONNIE; m++) {
		struct bs_value *v = &r->res[m];

		v->status = m % 3 == 1 ? BS_ST_TOO_FAST : BS_ST_OK;
		v->value = v->status == BS_ST_OK ? 1203.5 + m : NAN;
		v->cpu_pct = v->status == BS_ST_OK ? 52 : NAN;
		v->lat_us = 19240 + m;
		v->lat_mean_us = 0.125 * m;
		v->lat_p50_us = 3.0 + m;
		v->lat_p99_us = 1e6 / 3;
	}
	bs_run_tag(r, "bench", "yes");
	bs_run_tag(r, "host.kernel", "6.1.0-18-amd64");
	set_raw(r, "1.98,bstore-0.1.0,tiny,1,4213617618,4M,,8192,5,...");
	provenance(r, "bstore run", BS_NONE);
	bs_run_set(&r->parser_version, "");
}

/* A zcav run: a curve with a too-fast block and an unknown time. */
static void make_zcav(struct bs_run *r)
{
	struct bs_series *s;
	int m;

	bs_run_init(r);
	r->family = BS_FAM_ZCAV;
	bs_run_set(&r->tool, "zcav");
	bs_run_set(&r->tool_version, NULL);
	bs_run_set(&r->format, "zcav");
	bs_run_set(&r->machine, "");
	r->params.block_mib = 256;
	r->params.passes = 1;
	m = bs_metric_find(BS_FAM_ZCAV, "read_mib_s");
	r->res[m].status = BS_ST_OK;
	r->res[m].value = 155.25;
	s = bs_run_series_add(r, m, "offset_gib");
	bs_series_point(s, 0, 160.3, 3.194);
	bs_series_point(s, 0.25, NAN, 0.004);
	bs_series_point(s, 0.5, 0.1, NAN);
	/* Text that JSON escapes. */
	set_raw(r, "#loops: 1\n0.00 160.30 3.194\n\"<&>\"\t\x7f caf\xc3\xa9");
	provenance(r, "z.txt", 3);
	bs_run_set(&r->warning, "a warning");
}

/* A sysbench run: text, real, boolean and integer parameters. */
static void make_sysbench(struct bs_run *r)
{
	int m;

	bs_run_init(r);
	r->family = BS_FAM_SYSBENCH;
	bs_run_set(&r->tool, "sysbench");
	bs_run_set(&r->tool_version, "1.0.20");
	bs_run_set(&r->format, "sysbench-1.0");
	bs_run_set(&r->machine, "sb");
	r->params.mode = xstrdup("rndrw");
	r->params.rw_ratio = 1.5;
	r->params.fsync_all = 0;
	r->params.fsync_end = 1;
	r->params.threads = 16;
	r->params.extra_flags = xstrdup("");
	m = bs_metric_find(BS_FAM_SYSBENCH, "read_mib_s");
	r->res[m].status = BS_ST_OK;
	r->res[m].value = 0.1;
	m = bs_metric_find(BS_FAM_SYSBENCH, "events");
	r->res[m].status = BS_ST_TOO_FAST;
	set_raw(r, "sysbench 1.0.20\nfile operations:");
	provenance(r, "sb.txt", 12);
	bs_run_tag(r, "tool.threads", "16");
}

static char *json_of(const struct bs_run *r)
{
	struct bs_buf b = BS_BUF_INIT;

	bs_run_json(r, &b);
	return bs_buf_detach(&b, NULL);
}

/* ---- the parser alone ---------------------------------------------- */

/* Parses line; returns the parse's result, reason filled on a reject. */
static int parse(const char *line, struct bs_run *out, char *reason, size_t rsz)
{
	struct bs_err err = BS_ERR_INIT;
	int rc;

	bs_run_init(out);
	rc = bs_ingest_parse_line(line, strlen(line), NULL, out, &err);
	snprintf(reason, rsz, "%.*s", (int)rsz - 1, err.msg);
	return rc;
}

/* Equal, or both unknown. */
static int same(double a, double b)
{
	return isnan(a) ? isnan(b) : a == b;
}

/* Written, read back: the same run, provenance and all. */
static void check_same(struct bs_run *want)
{
	char *line = json_of(want), *again, reason[256];
	struct bs_run got;
	int m;
	size_t i;

	assert_int_equal(parse(line, &got, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "");
	/* The id is the archive's: the store gives a new one. */
	assert_true(got.id == 0);
	got.id = want->id;
	again = json_of(&got);
	assert_string_equal(again, line);
	/* Field by field, so that a field the JSON does not show fails. */
	assert_int_equal(got.family, want->family);
	assert_string_equal(got.tool, want->tool);
	if (want->tool_version)
		assert_string_equal(got.tool_version, want->tool_version);
	else
		assert_null(got.tool_version);
	assert_string_equal(got.format, want->format);
	assert_string_equal(got.machine, want->machine);
	assert_true(got.measured_at == want->measured_at);
	assert_true(got.stored_at == want->stored_at);
	assert_string_equal(got.raw, want->raw);
	assert_string_equal(got.sha256, want->sha256);
	assert_string_equal(got.source, want->source);
	assert_true(got.source_line == want->source_line);
	assert_string_equal(got.parser_version, want->parser_version);
	if (want->warning)
		assert_string_equal(got.warning, want->warning);
	else
		assert_null(got.warning);
	for (m = 0; m < bs_nmetrics; m++) {
		const struct bs_value *a = &want->res[m], *b = &got.res[m];

		assert_int_equal(a->status, b->status);
		assert_true(same(a->value, b->value));
		assert_true(same(a->cpu_pct, b->cpu_pct));
		assert_true(same(a->lat_us, b->lat_us));
		assert_true(same(a->lat_mean_us, b->lat_mean_us));
		assert_true(same(a->lat_p50_us, b->lat_p50_us));
		assert_true(same(a->lat_p99_us, b->lat_p99_us));
	}
	for (m = 0; m < bs_nparams; m++) {
		struct bs_buf x = BS_BUF_INIT, y = BS_BUF_INIT;

		bs_param_json(&want->params, m, &x);
		bs_param_json(&got.params, m, &y);
		assert_string_equal(bs_buf_str(&x), bs_buf_str(&y));
		bs_buf_release(&x);
		bs_buf_release(&y);
	}
	assert_int_equal(got.ntags, want->ntags);
	for (i = 0; i < want->ntags; i++)
		assert_string_equal(bs_run_tag_get(&got, want->tags[i].key),
				    want->tags[i].value);
	assert_int_equal(got.nseries, want->nseries);
	for (i = 0; i < want->nseries; i++) {
		const struct bs_series *a = &want->series[i];
		const struct bs_series *b = &got.series[i];
		size_t k;

		assert_int_equal(a->metric, b->metric);
		assert_string_equal(a->axis, b->axis);
		assert_int_equal(a->n, b->n);
		for (k = 0; k < a->n; k++) {
			assert_true(a->pt[k].x == b->pt[k].x);
			assert_true(same(a->pt[k].y, b->pt[k].y));
			assert_true(same(a->pt[k].seconds, b->pt[k].seconds));
		}
	}
	free(again);
	free(line);
	bs_run_release(&got);
}

static void test_families(void **state)
{
	struct bs_run r;

	(void)state;
	make_bstore_run(&r);
	check_same(&r);
	bs_run_release(&r);
	make_zcav(&r);
	check_same(&r);
	bs_run_release(&r);
	make_sysbench(&r);
	check_same(&r);
	bs_run_release(&r);
}

/* ---- through the driver -------------------------------------------- */

struct coll {
	struct bs_buf log; /* one line per run or reject */
	char **json;       /* the runs, as JSON */
	size_t n;
};

static int coll_run(struct bs_run *r, void *ctx)
{
	struct coll *c = ctx;
	char *j = json_of(r);

	bs_buf_addf(&c->log, "run %s\n", j);
	c->json = xrealloc(c->json, (c->n + 1) * sizeof(*c->json));
	c->json[c->n++] = j;
	return 0;
}

static int coll_reject(int64_t line, const char *raw, size_t len, int truncated,
		       const char *reason, void *ctx)
{
	struct coll *c = ctx;

	(void)raw;
	(void)len;
	(void)truncated;
	bs_buf_addf(&c->log, "reject %" PRId64 ": %s\n", line, reason);
	return 0;
}

static void coll_release(struct coll *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->json[i]);
	free(c->json);
	bs_buf_release(&c->log);
	memset(c, 0, sizeof(*c));
}

static void feed(const char *src, size_t len, size_t chunk, const char *name,
		 struct coll *c)
{
	struct bs_ingest_cb cb = {coll_run, coll_reject, NULL, c};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ingest *p = bs_ingest_new(name, &cb, NULL);
	size_t off = 0;

	if (chunk == 0)
		chunk = len;
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;

		assert_int_equal(bs_ingest_feed(p, src + off, n, &err), 0);
		off += n;
	}
	assert_int_equal(bs_ingest_finish(p, &err), 0);
	bs_ingest_free(p);
}

static char *read_sample(const char *name, size_t *len)
{
	const char *dir = getenv("SAMPLES");
	struct bs_buf b = BS_BUF_INIT;
	char path[1024], tmp[4096];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "samples", name);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		bs_buf_add(&b, tmp, n);
	fclose(f);
	return bs_buf_detach(&b, len);
}

/*
 * The driver gives each run it reads its own source, line and parser
 * version (ingest/ingest.c, emit()); the rest is the run written. So the
 * JSON read is the JSON written with those three as the driver sets them.
 */
static char *as_driver_reads(const char *json, const char *source, int64_t line)
{
	struct bs_run r;
	char reason[256], *out;

	/* A restored run keeps its original's source, line and parser. */
	(void)source;
	(void)line;
	assert_int_equal(parse(json, &r, reason, sizeof(reason)), 1);
	out = json_of(&r);
	bs_run_release(&r);
	return out;
}

static const char *const samples[] = {
	"bonnie++-1.03-ata-raid10-cache.txt",
	"bonnie++-1.03-emc-raid5-nocache.txt",
	"bonnie++-1.03d-pasted-blog.txt",
	"bonnie++-2.00a-local-full.txt",
};

/*
 * Each sample as the CSV parser reads it, tagged and dated as `bstore
 * ingest --tag --measured-at` would, exported and read back through the
 * driver: the same runs, in order, at every chunk size; and the same
 * digests, so that the store sees duplicates of the originals.
 */
static void test_samples(void **state)
{
	size_t i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(samples); i++) {
		struct coll orig = {BS_BUF_INIT, NULL, 0};
		struct coll back = {BS_BUF_INIT, NULL, 0};
		struct bs_buf exp = BS_BUF_INIT, want = BS_BUF_INIT;
		struct bs_run r;
		char reason[256], *whole, *src;
		size_t len;

		src = read_sample(samples[i], &len);
		feed(src, len, 0, samples[i], &orig);
		assert_true(orig.n > 0);
		for (k = 0; k < orig.n; k++) {
			struct bs_buf one = BS_BUF_INIT;
			char *j;

			/* The store's part: tags, a date, an id. */
			assert_int_equal(parse(orig.json[k], &r, reason,
					       sizeof(reason)),
					 1);
			bs_run_tag(&r, "raid", "10");
			bs_run_tag(&r, "note", "ATA, \"cache\" on");
			r.measured_at = 1142331721;
			r.id = (int64_t)k + 1;
			r.stored_at = 1700000000;
			bs_run_json(&r, &one);
			bs_buf_addf(&exp, "%s\n", bs_buf_str(&one));
			j = as_driver_reads(bs_buf_str(&one), "exp.jsonl",
					    (int64_t)k + 1);
			bs_buf_addf(&want, "run %s\n", j);
			free(j);
			bs_buf_release(&one);
			bs_run_release(&r);
		}
		feed(exp.data, exp.len, 0, "exp.jsonl", &back);
		assert_string_equal(bs_buf_str(&back.log), bs_buf_str(&want));
		/* The digest is the original's. */
		for (k = 0; k < orig.n; k++) {
			struct bs_run a, b;

			assert_int_equal(parse(orig.json[k], &a, reason,
					       sizeof(reason)),
					 1);
			assert_int_equal(parse(back.json[k], &b, reason,
					       sizeof(reason)),
					 1);
			assert_string_equal(a.sha256, b.sha256);
			assert_string_equal(a.raw, b.raw);
			assert_string_equal(a.tool_version, b.tool_version);
			assert_string_equal(a.format, b.format);
			bs_run_release(&a);
			bs_run_release(&b);
		}
		/* Every chunk size gives the same. */
		whole = bs_buf_detach(&back.log, NULL);
		for (k = 1; k <= exp.len; k += k < 64 ? 1 : 61) {
			coll_release(&back);
			feed(exp.data, exp.len, k, "exp.jsonl", &back);
			assert_string_equal(bs_buf_str(&back.log), whole);
		}
		free(whole);
		coll_release(&back);
		coll_release(&orig);
		bs_buf_release(&exp);
		bs_buf_release(&want);
		free(src);
	}
}

/* Quoted in a mail, CRLF, numbered: the same run. */
static void test_pasted(void **state)
{
	struct coll c = {BS_BUF_INIT, NULL, 0};
	struct bs_buf in = BS_BUF_INIT;
	struct bs_run r;
	char *line, *want;

	(void)state;
	make_zcav(&r);
	line = json_of(&r);
	bs_buf_addf(&in, "Subject: runs\r\n\r\n> %s\r\n  3. %s\n> -- \n", line,
		    line);
	feed(in.data, in.len, 0, "mail.txt", &c);
	assert_int_equal(c.n, 2);
	want = as_driver_reads(line, "mail.txt", 3);
	assert_string_equal(c.json[0], want);
	free(want);
	want = as_driver_reads(line, "mail.txt", 4);
	assert_string_equal(c.json[1], want);
	free(want);
	free(line);
	bs_run_release(&r);
	coll_release(&c);
	bs_buf_release(&in);
}

/* ---- rejects ------------------------------------------------------- */

/* The k-th run of one block's text (fio's jobs) has a salted digest. */
static void test_salted_digest(void **state)
{
	struct bs_run r, got;
	struct bs_buf salt = BS_BUF_INIT;
	char reason[256], *line;

	(void)state;
	make_sysbench(&r);
	bs_buf_addf(&salt, "%s\n#run %d", r.raw, 3);
	bs_sha256_hex(salt.data, salt.len, r.sha256);
	line = json_of(&r);
	assert_int_equal(parse(line, &got, reason, sizeof(reason)), 1);
	assert_string_equal(got.sha256, r.sha256);
	bs_run_release(&got);
	free(line);
	bs_buf_reset(&salt);
	bs_buf_addf(&salt, "%s\n#run %d", r.raw, BS_BSTORE_JSON_RUN_MAX + 1);
	bs_sha256_hex(salt.data, salt.len, r.sha256);
	line = json_of(&r);
	assert_true(parse(line, &got, reason, sizeof(reason)) < 0);
	free(line);
	bs_buf_release(&salt);
	bs_run_release(&r);
}

struct rej {
	const char *from, *to; /* replaced in the zcav run's line */
	const char *reason;
};

/* clang-format off */
static const struct rej rejects[] = {
	{ "\"family\":\"zcav\"", "\"family\":\"nosuch\"",
	  "unknown family 'nosuch'" },
	{ "\"family\":\"zcav\"", "\"family\":7",
	  "bstore JSON 'family' is not a string" },
	{ "\"read_mib_s\":{", "\"read_mbs\":{",
	  "unknown metric 'read_mbs' of family zcav" },
	{ "\"status\":\"ok\"", "\"status\":\"fast\"",
	  "metric 'read_mib_s': bad status 'fast'" },
	{ "\"status\":\"ok\"", "\"status\":null",
	  "metric 'read_mib_s': bad status '(not a string)'" },
	{ "\"status\":\"ok\"", "\"status\":\"too_fast\"",
	  "metric 'read_mib_s': status too_fast with a value" },
	{ "\"value\":155.25", "\"value\":null",
	  "metric 'read_mib_s': status ok with a null value" },
	{ "\"value\":155.25,\"unit\":\"MiB/s\",\"cpu_pct\":null,"
	  "\"latency_us\":null,\"status\":\"ok\"",
	  "\"value\":null,\"unit\":\"MiB/s\",\"cpu_pct\":5,"
	  "\"latency_us\":null,\"status\":\"not_run\"",
	  "metric 'read_mib_s': status not_run with a cpu_pct" },
	{ "\"value\":155.25", "\"value\":-1",
	  "metric 'read_mib_s': 'value' -1 is out of range (0 to 1000000)" },
	{ "\"value\":155.25", "\"value\":\"155\"",
	  "metric 'read_mib_s': 'value' is not a number" },
	{ "\"unit\":\"MiB/s\"", "\"unit\":\"KiB/s\"",
	  "metric 'read_mib_s': unit 'KiB/s' is not MiB/s" },
	{ "\"status\":\"ok\"", "\"status\":\"ok\",\"max\":1",
	  "metric 'read_mib_s': unknown key 'max'" },
	{ "\"block_mib\":256", "\"block_mib\":256.5",
	  "parameter 'block_mib' is not an integer" },
	{ "\"block_mib\":256", "\"block_mib\":-2",
	  "parameter 'block_mib' is out of range" },
	{ "\"block_mib\":256", "\"blocks\":256",
	  "unknown parameter 'blocks' of family zcav" },
	{ "\"passes\":1", "\"passes\":1,\"threads\":1",
	  "unknown parameter 'threads' of family zcav" },
	{ "\"tags\":{}", "\"tags\":{\"a=b\":\"c\"}",
	  "tag 'a=b' is not a valid tag" },
	{ "\"tags\":{}", "\"tags\":{\"a\":1}",
	  "tag 'a' is not a string" },
	{ "\"tags\":{}", "\"tags\":[]",
	  "bstore JSON 'tags' is not an object" },
	{ "\"source\":\"z.txt\",", "",
	  "bstore JSON without 'source'" },
	{ "\"source_line\":3", "\"source_line\":0",
	  "bstore JSON 'source_line' is not a line number" },
	{ "\"measured_at\":null", "\"measured_at\":\"yesterday\"",
	  "bstore JSON 'measured_at': 'yesterday' is not a date" },
	{ "\"id\":7", "\"id\":\"7\"",
	  "bstore JSON 'id' is not an integer" },
	{ "\"id\":7", "\"id\":7,\"id\":8",
	  "bstore JSON that does not parse: duplicate object key near "
	  "'\"id\"' (column 12)" },
	{ "\"id\":7", "\"id\":7,\"colour\":\"red\"",
	  "bstore JSON with unknown key 'colour'" },
	{ "\"tool\":\"zcav\"", "\"tool\":\"\"",
	  "bstore JSON with an empty 'tool'" },
	{ "\"sha256\":\"", "\"sha256\":\"x",
	  "bstore JSON 'sha256' is not 64 hex digits" },
	{ "#loops: 1", "#loops: 2",
	  "bstore JSON 'sha256' is not the digest of 'raw' (the line was "
	  "edited, or the run's text was not UTF-8)" },
	{ ",\"raw\":\"", ",\"wry\":\"",
	  "bstore JSON with unknown key 'wry'" },
	{ "\"offset_gib\":0.25", "\"time_s\":0.25",
	  "series 'read_mib_s' point 2: axis 'time_s' is not 'offset_gib'" },
	{ "\"seconds\":3.194", "\"seconds\":\"3\"",
	  "series 'read_mib_s' point 1 is not {axis, mib_s, seconds} of "
	  "numbers" },
	{ "\"series\":{\"read_mib_s\"", "\"series\":{\"write_mib_s\":[],"
	  "\"x\"", "unknown series 'x' of family zcav" },
	{ "\"id\":7,", "\"id\":7,,", "bstore JSON that does not parse: "
	  "string or '}' expected near ',' (column 9)" },
};
/* clang-format on */

static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	struct bs_buf b = BS_BUF_INIT;

	if (at == NULL)
		fail_msg("'%s' is not in the line", from);
	bs_buf_add(&b, s, (size_t)(at - s));
	bs_buf_adds(&b, to);
	bs_buf_adds(&b, at + strlen(from));
	return bs_buf_detach(&b, NULL);
}

static void test_rejects(void **state)
{
	struct bs_run r, got;
	char *line, *bad, reason[256];
	size_t i;

	(void)state;
	make_zcav(&r);
	line = json_of(&r);
	for (i = 0; i < ARRAY_SIZE(rejects); i++) {
		bad = replace(line, rejects[i].from, rejects[i].to);
		if (parse(bad, &got, reason, sizeof(reason)) >= 0)
			fail_msg("accepted: %s", bad);
		assert_string_equal(reason, rejects[i].reason);
		/* Released: back as bs_run_init() left it. */
		assert_null(got.tool);
		assert_null(got.raw);
		assert_int_equal(got.ntags, 0);
		assert_int_equal(got.nseries, 0);
		free(bad);
	}
	free(line);
	bs_run_release(&r);
}

/* An empty warning is none: the driver would say it aloud. */
static void test_empty_warning(void **state)
{
	struct bs_run r, got;
	char *line, *bad, reason[256];

	(void)state;
	make_zcav(&r);
	line = json_of(&r);
	bad = replace(line, "\"warning\":\"a warning\"", "\"warning\":\"\"");
	assert_int_equal(parse(bad, &got, reason, sizeof(reason)), 1);
	assert_null(got.warning);
	free(bad);
	free(line);
	bs_run_release(&got);
	bs_run_release(&r);
}

/* An export without raw (an older bstore's): a reject that says so. */
static void test_no_raw(void **state)
{
	struct bs_run r, got;
	char *line, reason[256];

	(void)state;
	make_zcav(&r);
	free(r.raw);
	r.raw = NULL;
	line = json_of(&r);
	assert_null(strstr(line, "\"raw\""));
	assert_true(parse(line, &got, reason, sizeof(reason)) < 0);
	assert_string_equal(reason,
			    "bstore JSON without 'raw' (export it with a "
			    "bstore that writes the run's text)");
	free(line);
	bs_run_release(&r);
}

/* Lines that are not this format: other JSON, prose. */
static void test_not_claimed(void **state)
{
	static const char *const lines[] = {
		"{\"jobs\": [], \"fio version\": \"fio-3.33\"}",
		"{",
		"results: family sha256",
		"{\"family\": \"bonnie\"}",
	};
	struct bs_run r;
	char reason[64];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(lines); i++)
		assert_int_equal(parse(lines[i], &r, reason, sizeof(reason)),
				 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_families),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_pasted),
		cmocka_unit_test(test_salted_digest),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_empty_warning),
		cmocka_unit_test(test_no_raw),
		cmocka_unit_test(test_not_claimed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
