/*
 * tests/unit/test_validate.c - core/validate.c, the rule for a run from
 * outside (merge's sources, JSON restore): every run ingest makes of
 * samples/ and tests/data/ passes it, and each way a run can be wrong
 * (a table of changes to a valid run) fails it with its message.
 */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/validate.h"
#include "ingest/format.h"
#include "ingest/ingest.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/readfile.h"

/* ---- every run ingest makes passes ---- */

struct seen {
	const char *file;
	int runs;
};

static int on_run(struct bs_run *r, void *ctx)
{
	struct seen *s = ctx;
	struct bs_err err = BS_ERR_INIT;

	if (bs_run_check(r, &err) != 0)
		fail_msg("%s:%lld: a run ingest made is refused: %s", s->file,
			 (long long)r->source_line, err.msg);
	s->runs++;
	return 0;
}

static int on_reject(int64_t line, const char *raw, size_t len, int truncated,
		     const char *reason, void *ctx)
{
	(void)line, (void)raw, (void)len, (void)truncated, (void)reason;
	(void)ctx;
	return 0;
}

static int ingest_dir(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int runs = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		struct bs_buf path = BS_BUF_INIT;
		struct bs_err err = BS_ERR_INIT;
		struct seen s = {e->d_name, 0};
		struct bs_ingest_cb cb = {on_run, on_reject, NULL, &s};
		struct bs_buf text = BS_BUF_INIT;
		struct bs_ingest *p;

		if (e->d_name[0] == '.' || !strchr(e->d_name, '.') ||
		    strstr(e->d_name, ".db") || strstr(e->d_name, ".md"))
			continue;
		bs_buf_addf(&path, "%s/%s", dir, e->d_name);
		if (bs_readfile(bs_buf_str(&path), "input", 64 << 20, &text,
				&err) < 0) {
			bs_buf_release(&path);
			continue; /* a directory (samples/expected) */
		}
		p = bs_ingest_new(e->d_name, &cb, NULL);
		assert_int_equal(bs_ingest_feed(p, text.data, text.len, &err),
				 0);
		assert_int_equal(bs_ingest_finish(p, &err), 0);
		bs_ingest_free(p);
		runs += s.runs;
		bs_buf_release(&text);
		bs_buf_release(&path);
	}
	closedir(d);
	return runs;
}

static void test_ingested_runs_pass(void **state)
{
	const char *src = getenv("SRC");
	struct bs_buf dir = BS_BUF_INIT;

	(void)state;
	if (src == NULL)
		src = "../..";
	bs_buf_addf(&dir, "%s/samples", src);
	assert_true(ingest_dir(bs_buf_str(&dir)) > 50);
	bs_buf_reset(&dir);
	bs_buf_addf(&dir, "%s/tests/data", src);
	assert_true(ingest_dir(bs_buf_str(&dir)) > 20);
	bs_buf_release(&dir);
}

/* ---- each way to be wrong ---- */

/* A valid bonnie++ run: one line of samples/, parsed. */
static void good_run(struct bs_run *r)
{
	static const char line[] =
		"1.98,2.00a,labvm01,1,1796019217,2G,,8192,5,545,94,297601,"
		"69,601561,52,480,82,1911048,69,6398,31,16,,,,,+++++,+++,"
		"+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,61372us,"
		"8122us,16325us,50917us,22633us,16072us,32123us,12290us,"
		"8617us,8111us,4158us,6056us";
	struct bs_err err = BS_ERR_INIT;

	bs_run_init(r);
	assert_int_equal(bs_ingest_parse_line(line, strlen(line), NULL, r,
					      &err),
			 1);
	bs_run_set(&r->raw, line);
	bs_run_set(&r->source, "t.csv");
	memset(r->sha256, 'a', 64);
	r->sha256[64] = '\0';
}

static void put_block(struct bs_run *r, double v)
{
	r->res[BS_M_PUT_BLOCK].value = v;
}

/* clang-format off */
static void c_huge(struct bs_run *r) { put_block(r, 1e308); }
static void c_negative(struct bs_run *r) { put_block(r, -5); }
static void c_nan_value(struct bs_run *r) { put_block(r, NAN); }
static void c_too_fast_value(struct bs_run *r)
{
	r->res[BS_M_PUT_BLOCK].status = BS_ST_TOO_FAST;
}
static void c_not_run_cpu(struct bs_run *r)
{
	r->res[BS_M_PUT_BLOCK].status = BS_ST_NOT_RUN;
	r->res[BS_M_PUT_BLOCK].value = NAN;
}
static void c_cpu(struct bs_run *r) { r->res[BS_M_PUTC].cpu_pct = 2e6; }
static void c_lat(struct bs_run *r) { r->res[BS_M_SEEKS].lat_us = -1; }
static void c_other_family(struct bs_run *r)
{
	int m = bs_metric_find(BS_FAM_FIO, "read_iops");

	r->res[m].status = BS_ST_OK;
	r->res[m].value = 10;
}
static void c_family(struct bs_run *r) { r->family = (enum bs_family)BS_FAM_MAX; }
/* A name longer than BS_NAME_MAX: a line's limit. */
static void set_long(char **field)
{
	char *s = xmalloc(BS_NAME_MAX + 2);

	memset(s, 'a', BS_NAME_MAX + 1);
	s[BS_NAME_MAX + 1] = '\0';
	bs_run_set(field, s);
	free(s);
}
static void c_machine_long(struct bs_run *r) { set_long(&r->machine); }
static void c_format(struct bs_run *r) { bs_run_set(&r->format, "<script>"); }
static void c_format_long(struct bs_run *r)
{
	bs_run_set(&r->format, "a-format-name-longer-than-forty-bytes-xxxx");
}
static void c_no_format(struct bs_run *r) { bs_run_set(&r->format, NULL); }
static void c_no_tool(struct bs_run *r) { bs_run_set(&r->tool, ""); }
static void c_source(struct bs_run *r) { set_long(&r->source); }
static void c_date(struct bs_run *r) { r->measured_at = -1; }
static void c_date_far(struct bs_run *r) { r->stored_at = INT64_MAX; }
static void c_param(struct bs_run *r) { r->params.file_size_mib = -7; }
static void c_tag(struct bs_run *r) { bs_run_tag(r, "k", "a\nb"); }
static void c_tag_key(struct bs_run *r) { bs_run_tag(r, "", "v"); }
static void c_raw(struct bs_run *r) { bs_run_set(&r->raw, NULL); }
static void c_sha(struct bs_run *r) { r->sha256[3] = 'G'; }
/* clang-format on */

/* clang-format off */
static const struct bad {
	void (*change)(struct bs_run *r);
	const char *msg;
} bads[] = {
	{c_huge, "metric 'put_block': value 1e+308 is out of range (0 to 1000000000 KiB/s)"},
	{c_negative, "metric 'put_block': value -5 is out of range (0 to 1000000000 KiB/s)"},
	{c_nan_value, "metric 'put_block': status ok with no value"},
	{c_too_fast_value, "metric 'put_block': status too_fast with a value"},
	{c_not_run_cpu, "metric 'put_block': status not_run with a CPU figure"},
	{c_cpu, "metric 'putc': cpu_pct 2000000 is out of range (0 to 1000000 %)"},
	{c_lat, "metric 'seeks': latency -1 is out of range (0 to 1000000000000 us)"},
	{c_other_family, "metric 'read_iops' is not of family bonnie"},
	{c_family, "unknown tool family"},
	{c_machine_long, "machine 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is longer than 65536 bytes"},
	{c_format, "format '<script>' is not a format name"},
	{c_format_long, "format 'a-format-name-longer-than-forty-bytes-xx...' is not a format name"},
	{c_no_format, "format '' is not a format name"},
	{c_no_tool, "no tool"},
	{c_source, "source 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is longer than 65536 bytes"},
	{c_date, "measured_at -1 is not a date between 1970 and 9999"},
	{c_date_far, "stored_at 9223372036854775807 is not a date between 1970 and 9999"},
	{c_param, "parameter 'file_size_mib' is out of range"},
	{c_tag, "tag 'k' has a control character"},
	{c_tag_key, "a tag without a key"},
	{c_raw, "no text (raw)"},
	{c_sha, "sha256 is not 64 lowercase hex digits"},
};
/* clang-format on */

static void test_bad_runs(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_run r;
	size_t i;

	(void)state;
	good_run(&r);
	assert_int_equal(bs_run_check(&r, &err), 0);
	bs_run_release(&r);
	/* A name holds what ingest stores: control characters too. */
	good_run(&r);
	bs_run_set(&r.machine, "a\tb\033[31mc\a\b\r\x7f\n");
	bs_run_set(&r.source, "dir\tx/\nf.csv");
	assert_int_equal(bs_run_check(&r, &err), 0);
	bs_run_release(&r);
	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		bs_err_reset(&err);
		good_run(&r);
		bads[i].change(&r);
		assert_int_equal(bs_run_check(&r, &err), -BS_EPARSE);
		assert_string_equal(err.msg, bads[i].msg);
		bs_run_release(&r);
	}
}

/* Every format the registry names is a format name. */
static void test_format_names(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < bs_nformats; i++)
		assert_true(bs_format_name_ok(bs_formats[i].name));
	assert_true(bs_format_name_ok(BS_FMT_CSV_1_96S));
	assert_true(bs_format_name_ok(BS_FMT_BSTORE_RUN));
	assert_false(bs_format_name_ok(""));
	assert_false(bs_format_name_ok("CSV"));
	assert_false(bs_format_name_ok("a b"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ingested_runs_pass),
		cmocka_unit_test(test_bad_runs),
		cmocka_unit_test(test_format_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
