/*
 * tests/unit/test_report.c - the comparison model and its renderers, on
 * runs parsed from the real sample lines: the published seed comparisons,
 * statistics of a group, too_fast cells, notes, units, escaping in every
 * format, byte stability.
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
#include <unistd.h>

#include <cmocka.h>

#include "core/result.h"
#include "ingest/ingest.h"
#include "report/internal.h"
#include "report/report.h"
#include "core/bonnie_text.h"
#include "report/tmpl/tmpl.h"
#include "report/tmpl/tsyntax.h"
#include "util/csv.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* clang-format off */
/* The CSV lines of samples/bonnie++-1.03-*.txt. */
static const char EMC10_OFF[] = "jump,8G,12647,36,13414,8,7952,13,33636,97,146503,71,465.7,5,16,86,1,+++++,+++,161,1,81,1,+++++,+++,163,1";
static const char EMC5_OFF[] = "jump,8G,10956,30,10771,6,3388,5,34169,98,158861,75,431.1,5,16,81,1,+++++,+++,160,1,82,1,+++++,+++,109,1";
static const char EMC10_ON[] = "jump,8G,31447,90,73130,50,29123,50,33607,97,144470,71,493.5,6,16,786,13,+++++,+++,1534,14,781,12,+++++,+++,1527,15";
static const char EMC5_ON[] = "jump,8G,34620,98,103440,65,35756,61,33900,97,160964,76,495.4,6,16,788,12,+++++,+++,1503,14,783,11,+++++,+++,1520,15";
static const char T3[] = "billing,4G,9915,87,30319,56,11685,38,9999,99,47326,66,177.6,3,16,639,19,+++++,+++,1258,22,679,16,+++++,+++,1197,27";
/* samples/bonnie++-1.03d-pasted-blog.txt: -f runs, three without -n. */
static const char SRV1[] = "server_name,16G,,,51181,55,23045,47,,,56212,46,294.1,4,16,145,7,+++++,+++,162,6,162,6,+++++,+++,152,6";
static const char SRV2[] = "server_name,16G,,,58408,72,32513,58,,,100124,72,537.1,12,,,,,,,,,,,,,";
static const char SRV3[] = "server_name,16G,,,54601,65,31029,56,,,128065,92,606.3,7,,,,,,,,,,,,,";
static const char SRV4[] = "server_name,16G,,,51977,51,29662,62,,,73907,59,984.3,9,,,,,,,,,,,,,";
/* samples/bonnie++-2.00a-local-full.txt. */
static const char LABVM01[] = "1.98,2.00a,labvm01,1,1796019217,2G,,8192,5,545,94,297601,69,601561,52,480,82,1911048,69,6398,31,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,61372us,8122us,16325us,50917us,22633us,16072us,32123us,12290us,8617us,8111us,4158us,6056us";
/* Hostile names, as a user could store them. */
static const char XSS[] = "<script>alert(1)</script>,8G,12647,36,13414,8,7952,13,33636,97,146503,71,465.7,5,16,86,1,+++++,+++,161,1,81,1,+++++,+++,163,1";
static const char FORMULA[] = "=cmd|' /C calc'!A0,8G,10956,30,10771,6,3388,5,34169,98,158861,75,431.1,5,16,81,1,+++++,+++,160,1,82,1,+++++,+++,109,1";
/* clang-format on */

#define MAXG 6
#define MAXR 8

/* A source over lines: group g is lines[g][0..], NULL-terminated. */
struct lines_src {
	const char *lines[MAXG][MAXR];
	const char *tag_key, *tag_value; /* put on every run, or NULL */
	int reads;                       /* calls of each() */
};

static int lines_each(void *ctx, size_t g, bs_report_run_fn fn, void *fn_ctx,
		      struct bs_err *err)
{
	struct lines_src *s = ctx;
	struct bs_err why = BS_ERR_INIT;
	size_t k;
	int rc;

	(void)err;
	s->reads++;
	for (k = 0; k < MAXR && s->lines[g][k]; k++) {
		struct bs_run r;
		bs_run_init(&r);
		rc = bs_ingest_parse_line(s->lines[g][k],
					  strlen(s->lines[g][k]), "1.03", &r,
					  &why);
		if (rc != 1)
			fail_msg("%s: %s", s->lines[g][k], why.msg);
		r.id = (int64_t)(g * 100 + k + 1);
		if (s->tag_key)
			bs_run_tag(&r, s->tag_key, s->tag_value);
		rc = fn(&r, fn_ctx);
		bs_run_release(&r);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static struct bs_report *build(struct lines_src *s, size_t ngroups,
			       const char *const *labels,
			       struct bs_report_opts *o)
{
	struct bs_report_source src = {lines_each, s};
	struct bs_err err = BS_ERR_INIT;
	struct bs_report *rep = NULL;

	assert_int_equal(bs_report_build(&rep, o, labels, ngroups, &src, &err),
			 0);
	return rep;
}

/* Renders rep in fmt into a malloc'd string. */
static char *render(struct bs_report *rep, struct lines_src *s,
		    enum bs_report_format fmt, const char *tdir)
{
	struct bs_report_source src = {lines_each, s};
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_int_equal(bs_report_templates_load(&ts, tdir, fmt, &err), 0);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	if (bs_report_render(rep, ts, fmt, &src, f, &err) < 0)
		fail_msg("render: %s", err.msg);
	fclose(f);
	bs_tmpl_set_free(ts);
	return text;
}

static const struct bs_report_cell *cell(const struct bs_report *rep, size_t g,
					 int test, int kind)
{
	return &rep->groups[g].cell[BS_RM(test, kind)];
}

/* Squeezes runs of spaces, so a table row can be matched as words. */
static char *squeeze(const char *s)
{
	struct bs_buf b = BS_BUF_INIT;

	for (; *s; s++)
		if (!(*s == ' ' && b.len && b.data[b.len - 1] == ' '))
			bs_buf_addc(&b, *s);
	return bs_buf_detach(&b, NULL);
}

/* s as one line: every line break and the blanks after it one blank. */
static char *flat(const char *s)
{
	struct bs_buf b = BS_BUF_INIT;

	for (; *s; s++) {
		if (*s == '\n') {
			while (s[1] == ' ')
				s++;
			bs_buf_addc(&b, ' ');
			continue;
		}
		bs_buf_addc(&b, *s);
	}
	return bs_buf_detach(&b, NULL);
}

static void want_rates(struct bs_report_opts *o)
{
	struct bs_err err = BS_ERR_INIT;

	assert_int_equal(bs_report_metrics_parse("putc,put_block,getc,get_block",
						 o->want, &err),
			 0);
}

/* ---- labels and a baseline per block ------------------------------- */

/* Automatic labels drop the terms every selector has; the title keeps
 * them in front. */
static void test_auto_labels(void **state)
{
	struct lines_src s = {{{EMC10_OFF, NULL}, {EMC5_OFF, NULL}},
			      NULL,
			      NULL,
			      0};
	const char *sel[] = {"array=emc,raid=10,cache=off",
			     "array=emc,raid=5,cache=off"};
	const char *mine[] = {"RAID10", NULL};
	struct bs_report_opts o;
	struct bs_report *rep;

	(void)state;
	memset(&o, 0, sizeof(o));
	rep = build(&s, 2, sel, &o);
	assert_string_equal(rep->groups[0].label, "raid=10");
	assert_string_equal(rep->groups[1].label, "raid=5");
	assert_string_equal(rep->groups[1].selector, sel[1]);
	assert_string_equal(rep->title,
			    "array=emc, cache=off: raid=10 vs raid=5");
	bs_report_free(rep);
	/* A ',' written "\\," inside a value does not split a term. */
	{
		const char *esc[] = {"host.mount=rw\\,relatime,raid=10",
				     "host.mount=rw\\,relatime,raid=5"};

		rep = build(&s, 2, esc, &o);
		assert_string_equal(rep->groups[0].label, "raid=10");
		assert_string_equal(rep->title, "host.mount=rw\\,relatime: "
						"raid=10 vs raid=5");
		bs_report_free(rep);
	}
	/* Terms compare as parsed: "id=1" and "1" are one term, common to
	 * both; a term is written back in its plain form. */
	{
		const char *ids[] = {"raid=10,id=1-2", "1-2,last"};

		rep = build(&s, 2, ids, &o);
		assert_string_equal(rep->groups[0].label, "raid=10");
		assert_string_equal(rep->groups[1].label, "last:1");
		assert_string_equal(rep->title, "1-2: raid=10 vs last:1");
		bs_report_free(rep);
	}
	/* A label given wins; a NULL one is automatic. */
	o.labels = mine;
	rep = build(&s, 2, sel, &o);
	assert_string_equal(rep->groups[0].label, "RAID10");
	assert_string_equal(rep->groups[1].label, "raid=5");
	bs_report_free(rep);
}

/*
 * Two blocks, each with its own baseline: [1] RAID10 against [2] RAID5
 * with cache off, [3] RAID10 against [4] RAID5 with cache on. Each diff
 * is the published one of its own block, not against a global baseline.
 */
static void test_block_baselines(void **state)
{
	struct lines_src s = {{{EMC10_OFF, NULL},
			       {EMC5_OFF, NULL},
			       {EMC10_ON, NULL},
			       {EMC5_ON, NULL}},
			      NULL,
			      NULL,
			      0};
	const char *sel[] = {"a", "b", "c", "d"};
	const size_t bases[] = {1, 1, 3, 3};
	const size_t bad[] = {1, 2, 3, 3};
	struct bs_report_source src = {lines_each, &s};
	struct bs_err err = BS_ERR_INIT;
	struct bs_report_opts o;
	struct bs_report *rep = NULL;
	char *text;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.bases = bases;
	rep = build(&s, 4, sel, &o);
	assert_true(rep->multi_base);
	assert_int_equal(rep->groups[0].base, 1);
	assert_int_equal(rep->groups[2].base, 3);
	assert_true(cell(rep, 0, BS_M_PUT_BLOCK, BS_MK_RATE)->diff == 2643);
	assert_true(cell(rep, 2, BS_M_PUT_BLOCK, BS_MK_RATE)->diff == -30310);
	assert_true(isnan(cell(rep, 1, BS_M_PUT_BLOCK, BS_MK_RATE)->diff));
	assert_true(isnan(cell(rep, 3, BS_M_PUT_BLOCK, BS_MK_RATE)->diff));
	assert_null(rep->groups[1].sum.sentence);
	assert_non_null(
		strstr(rep->groups[2].sum.sentence, "[3] c against [4] d:"));
	text = render(rep, &s, BS_REPORT_TEXT, NULL);
	assert_non_null(strstr(text, "diff [3]-[4]"));
	assert_non_null(strstr(text, "change [1] vs [2]"));
	assert_null(strstr(text, "diff [2]-"));
	assert_non_null(strstr(text, "[3] c: 1 run (id 201); jump; bonnie++ "
				     "1.03; file size "));
	assert_non_null(strstr(text, " (against [4])\n"));
	free(text);
	bs_report_free(rep);
	/* A group's baseline must be a baseline itself. */
	o.bases = bad;
	assert_int_equal(bs_report_build(&rep, &o, sel, 4, &src, &err),
			 -BS_EINVAL);
	assert_string_equal(err.msg,
			    "group 1's baseline 2 is not a baseline group");
}

/* ---- the published comparisons (samples/expected) ------------------- */

static void test_seed_raid10_vs_raid5(void **state)
{
	static const int t[] = {BS_M_PUTC, BS_M_PUT_BLOCK, BS_M_GETC,
				BS_M_GET_BLOCK};
	static const double nocache[] = {1691, 2643, -533, -12358};
	static const double cache[] = {-3173, -30310, -293, -16494};
	const char *labels[] = {"raid10", "raid5"};
	struct lines_src s = {{{EMC10_OFF}, {EMC5_OFF}}, NULL, NULL, 0};
	struct lines_src c = {{{EMC10_ON}, {EMC5_ON}}, NULL, NULL, 0};
	struct bs_report_opts o;
	struct bs_report *rep;
	char *text, *sq;
	int i;

	(void)state;
	/* "diff (RAID10 - RAID5)": RAID10 against the RAID5 baseline, in
	 * the published K/sec (--units kib). */
	memset(&o, 0, sizeof(o));
	o.baseline = 1;
	o.units = BS_UNITS_KIB;
	want_rates(&o);
	rep = build(&s, 2, labels, &o);
	for (i = 0; i < 4; i++)
		assert_true(cell(rep, 0, t[i], BS_MK_RATE)->diff == nocache[i]);
	text = render(rep, &s, BS_REPORT_TEXT, NULL);
	sq = squeeze(text);
	assert_non_null(strstr(sq, "\ndiff [1]-[2] 1691 2643 -533 -12358\n"));
	assert_non_null(
		strstr(sq, "[1] raid10 8G 12647* 13414* 33636 146503\n"));
	assert_non_null(
		strstr(sq, "[2] raid5 8G 10956 10771 34169* 158861*\n"));
	free(sq);
	free(text);
	bs_report_free(rep);

	rep = build(&c, 2, labels, &o);
	for (i = 0; i < 4; i++)
		assert_true(cell(rep, 0, t[i], BS_MK_RATE)->diff == cache[i]);
	text = render(rep, &c, BS_REPORT_TEXT, NULL);
	sq = squeeze(text);
	assert_non_null(
		strstr(sq, "\ndiff [1]-[2] -3173 -30310 -293 -16494\n"));
	free(sq);
	free(text);
	bs_report_free(rep);
}

static void test_seed_t3_vs_emc(void **state)
{
	const char *labels[] = {"t3", "emc"};
	struct lines_src s = {{{T3}, {EMC5_ON}}, NULL, NULL, 0};
	struct bs_report_opts o;
	struct bs_report *rep;
	char *text, *sq;

	(void)state;
	/* "ratio (EMC / T3)": EMC against the T3 baseline (K/sec). */
	memset(&o, 0, sizeof(o));
	o.units = BS_UNITS_KIB;
	want_rates(&o);
	rep = build(&s, 2, labels, &o);
	text = render(rep, &s, BS_REPORT_TEXT, NULL);
	sq = squeeze(text);
	assert_non_null(strstr(sq, "\nratio [2]/[1] 3.49 3.41 3.39 3.40\n"));
	/* The file sizes differ (4G against 8G): different tests, as the
	 * report says. */
	free(sq);
	sq = flat(text);
	assert_non_null(strstr(sq, "different tests (file size 8 GiB "
				   "against 4 GiB)"));
	free(sq);
	free(text);
	bs_report_free(rep);

	/*
	 * "diff (T3 - EMC)": T3 against the EMC baseline. The published
	 * table has -73,120 for the block write; 30319 - 103440 is -73121.
	 */
	o.baseline = 1;
	rep = build(&s, 2, labels, &o);
	text = render(rep, &s, BS_REPORT_TEXT, NULL);
	sq = squeeze(text);
	assert_non_null(
		strstr(sq, "\ndiff [1]-[2] -24705 -73121 -23901 -113638\n"));
	free(sq);
	free(text);
	bs_report_free(rep);
}

/* ---- the model ------------------------------------------------------ */

static void test_group_statistics(void **state)
{
	const char *labels[] = {"server", "emc"};
	struct lines_src s = {{{SRV1, SRV2, SRV3, SRV4}, {EMC10_OFF}},
			      NULL,
			      NULL,
			      0};
	const struct bs_report_cell *c;
	struct bs_report_opts o;
	struct bs_report *rep;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.baseline = 1;
	rep = build(&s, 2, labels, &o);
	assert_int_equal(rep->groups[0].nruns, 4);
	assert_int_equal(rep->nruns, 5);
	c = cell(rep, 0, BS_M_PUT_BLOCK, BS_MK_RATE);
	assert_int_equal(c->status, BS_ST_OK);
	assert_int_equal(c->ok, 4);
	assert_true(c->mean == 54041.75);
	assert_true(fabs(c->sd - 3256.9915950152526) < 1e-9);
	assert_true(c->min == 51181 && c->max == 58408);
	assert_true(c->diff == 54041.75 - 13414);
	/* 16G against 8G files: different tests, so no side is better. */
	assert_int_equal(c->better, 0);
	assert_int_equal(c->verdict, BS_V_APART);
	/* Three of the four runs had no file tests: one number. */
	c = cell(rep, 0, BS_M_SEQ_CREATE, BS_MK_RATE);
	assert_int_equal(c->ok, 1);
	assert_int_equal(c->not_run, 3);
	assert_true(c->mean == 145 && isnan(c->sd));
	/* -f: per-char tests did not run in any of them. */
	c = cell(rep, 0, BS_M_PUTC, BS_MK_RATE);
	assert_int_equal(c->status, BS_ST_NOT_RUN);
	assert_true(isnan(c->mean) && isnan(c->diff) && isnan(c->ratio));
	/* CPU of different tests: context, no side is better. */
	c = cell(rep, 0, BS_M_PUT_BLOCK, BS_MK_CPU);
	assert_true(c->mean == 60.75);
	assert_int_equal(c->better, 0);
	assert_int_equal(c->verdict, BS_V_APART);
	/* Groups in common: ids as given, the one machine. */
	assert_int_equal(rep->groups[0].ids[3], 4);
	assert_int_equal(rep->groups[0].nmachines, 1);
	assert_string_equal(rep->groups[0].machines[0], "server_name");
	bs_report_free(rep);
}

/*
 * The summary claims only what was tested: a category is better when its
 * significant cells all are and its figure went that way too, mixed when
 * they went both ways, within noise when none changed (3 runs a side,
 * one configuration: no note, no different tests).
 */
static void test_summary_states(void **state)
{
	const char *labels[] = {"a", "b", "c"};
	/* put_block, rewrite, get_block, seeks; no file tests. */
	struct lines_src s = {
		{{"m,16G,,,50000,50,30000,40,,,100000,60,500.0,5,,,,,,,,,,,,,",
		  "m,16G,,,51000,50,30500,40,,,101000,60,505.0,5,,,,,,,,,,,,,",
		  "m,16G,,,52000,50,31000,40,,,102000,60,510.0,5,,,,,,,,,,,,,"},
		 /* block write twice, block read half: mixed */
		 {"m,16G,,,100000,50,30100,40,,,50000,60,505.0,5,,,,,,,,,,,,,",
		  "m,16G,,,101000,50,30400,40,,,51000,60,500.0,5,,,,,,,,,,,,,",
		  "m,16G,,,102000,50,30900,40,,,52000,60,510.0,5,,,,,,,,,,,,,"},
		 /* every rate twice: better */
		 {"m,16G,,,100000,50,60000,40,,,200000,60,1000.0,5,,,,,,,,,,,,,",
		  "m,16G,,,102000,50,61000,40,,,202000,60,1010.0,5,,,,,,,,,,,,,",
		  "m,16G,,,104000,50,62000,40,,,204000,60,1020.0,5,,,,,,,,,,,,,"}},
		NULL,
		NULL,
		0};
	struct bs_report_opts o;
	struct bs_report *rep;
	const struct bs_report_summary *b, *c;

	(void)state;
	memset(&o, 0, sizeof(o));
	rep = build(&s, 3, labels, &o);
	assert_int_equal(rep->nnotes, 0);
	b = &rep->groups[1].sum;
	c = &rep->groups[2].sum;
	assert_int_equal(b->state[BS_CAT_SEQUENTIAL], BS_V_MIXED);
	assert_int_equal(b->state[BS_CAT_RANDOM], BS_V_NOISE);
	assert_int_equal(c->state[BS_CAT_SEQUENTIAL], BS_V_BETTER);
	assert_int_equal(c->state[BS_CAT_RANDOM], BS_V_BETTER);
	assert_int_equal(cell(rep, 2, BS_M_GET_BLOCK, BS_MK_RATE)->verdict,
			 BS_V_BETTER);
	assert_int_equal(cell(rep, 1, BS_M_GET_BLOCK, BS_MK_RATE)->verdict,
			 BS_V_WORSE);
	assert_non_null(strstr(b->sentence, "random unchanged (1.00x), within "
					    "noise"));
	assert_non_null(strstr(b->sentence, ", mixed;"));
	assert_non_null(strstr(b->sentence, "1 better, 1 worse"));
	assert_non_null(strstr(c->sentence, "sequential 2.00x higher, better"));
	assert_non_null(strstr(c->sentence, "random 2.00x higher, better"));
	assert_null(strstr(c->sentence, "untested"));
	bs_report_free(rep);
}

static void test_too_fast_takes_no_part(void **state)
{
	const char *labels[] = {"a", "b"};
	struct lines_src s = {{{EMC10_OFF}, {EMC5_OFF}}, NULL, NULL, 0};
	const struct bs_report_cell *c;
	struct bs_report_opts o;
	struct bs_report *rep;
	char *text, *csv, *json;

	(void)state;
	memset(&o, 0, sizeof(o));
	rep = build(&s, 2, labels, &o);
	c = cell(rep, 1, BS_M_SEQ_STAT, BS_MK_RATE);
	assert_int_equal(c->status, BS_ST_TOO_FAST);
	assert_int_equal(c->too_fast, 1);
	assert_true(isnan(c->mean) && isnan(c->diff) && isnan(c->ratio));
	assert_int_equal(c->shade, -1);
	assert_int_equal(c->best, 0);
	/* Its CPU ("+++") is too fast as well, never 0. */
	c = cell(rep, 1, BS_M_SEQ_STAT, BS_MK_CPU);
	assert_int_equal(c->status, BS_ST_TOO_FAST);
	assert_true(rep->shown[BS_RM(BS_M_SEQ_STAT, BS_MK_RATE)]);
	/* 1.03 has no latencies: not shown at all. */
	assert_false(rep->shown[BS_RM(BS_M_SEQ_STAT, BS_MK_LAT)]);
	text = render(rep, &s, BS_REPORT_TEXT, NULL);
	assert_non_null(strstr(text, "+++++ +++"));
	csv = render(rep, &s, BS_REPORT_CSV, NULL);
	assert_non_null(strstr(csv, "\n\"b\",1,\"seq_stat\",\"files/s\","
				    ",,,,,,,0,\"too_fast\",\"\","));
	json = render(rep, &s, BS_REPORT_JSON, NULL);
	assert_non_null(strstr(json, "{\"group\": 2, \"status\": \"too_fast\", "
				     "\"count\": 0, \"too_fast\": 1, "
				     "\"not_run\": 0, \"mean\": null,"));
	free(text);
	free(csv);
	free(json);
	bs_report_free(rep);
}

static void test_notes(void **state)
{
	const char *labels[] = {"old", "new", "same"};
	struct lines_src s = {{{EMC10_OFF}, {LABVM01}, {EMC5_OFF}},
			      NULL,
			      NULL,
			      0};
	struct lines_src same = {{{EMC10_OFF}, {EMC5_OFF}}, NULL, NULL, 0};
	struct bs_report_opts o;
	struct bs_report *rep;

	(void)state;
	memset(&o, 0, sizeof(o));
	rep = build(&s, 3, labels, &o);
	/* bonnie++ 2.00a against 1.03 (other implementations: the per-char
	 * tests and seeks are related only), 2G against 8G files
	 * (different tests); [3] is [1]'s test. */
	assert_int_equal(rep->nnotes, 2);
	assert_string_equal(rep->notes[0],
			    "[2] against [1]: related (bonnie++ against "
			    "bonnie++ 1.0x): bonnie++ 1.0x writes and reads a "
			    "byte at a time through stdio and seeks with 3 "
			    "processes, 1.9x and later with a system call a "
			    "byte and 5 threads; given no verdict and no ratio "
			    "in the summary");
	assert_string_equal(rep->notes[1],
			    "[2] against [1]: different tests (file size 2 GiB "
			    "against 8 GiB): I/O rates depend on how much of "
			    "the file the page cache holds; given no verdict "
			    "and no ratio in the summary");
	assert_int_equal(rep->groups[1].rel[BS_M_PUTC], BS_REL_RELATED);
	assert_int_equal(rep->groups[1].rel[BS_M_PUT_BLOCK], BS_REL_APART);
	assert_int_equal(rep->groups[1].rel[BS_M_SEQ_CREATE], BS_REL_SAME);
	assert_int_equal(rep->groups[2].rel[BS_M_PUT_BLOCK], BS_REL_SAME);
	/* The catalogue shows I/O rates in MiB/s, whatever the runs. */
	assert_string_equal(bs_report_unit(rep, BS_M_PUT_BLOCK * 3), "MiB/s");
	bs_report_free(rep);

	rep = build(&same, 2, labels, &o);
	assert_int_equal(rep->nnotes, 0);
	assert_string_equal(bs_report_unit(rep, BS_M_PUT_BLOCK * 3), "MiB/s");
	bs_report_free(rep);

	/* --units kib: as stored. */
	o.units = BS_UNITS_KIB;
	rep = build(&s, 3, labels, &o);
	assert_string_equal(bs_report_unit(rep, BS_M_PUT_BLOCK * 3), "KiB/s");
	bs_report_free(rep);
}

static void test_metrics_parse(void **state)
{
	unsigned char want[BS_RM_COUNT];
	struct bs_err err = BS_ERR_INIT;
	int m, n = 0;

	(void)state;
	memset(want, 0, sizeof(want));
	assert_int_equal(bs_report_metrics_parse("put_block,seeks_cpu,"
						 "ran_del_latency",
						 want, &err),
			 0);
	for (m = 0; m < BS_RM_USED; m++)
		n += want[m];
	assert_int_equal(n, 3);
	assert_true(want[BS_RM(BS_M_PUT_BLOCK, BS_MK_RATE)]);
	assert_true(want[BS_RM(BS_M_SEEKS, BS_MK_CPU)]);
	assert_true(want[BS_RM(BS_M_RAN_DEL, BS_MK_LAT)]);
	memset(want, 0, sizeof(want));
	assert_int_equal(bs_report_metrics_parse("files,cpu", want, &err), 0);
	assert_true(want[BS_RM(BS_M_SEQ_CREATE, BS_MK_LAT)]);
	assert_true(want[BS_RM(BS_M_PUTC, BS_MK_CPU)]);
	assert_false(want[BS_RM(BS_M_PUTC, BS_MK_RATE)]);
	assert_int_equal(bs_report_metrics_parse("put_blok", want, &err),
			 -BS_EINVAL);
	assert_non_null(strstr(err.msg, "unknown metric 'put_blok'"));
	bs_err_reset(&err);
	assert_int_equal(bs_report_metrics_parse("putc,", want, &err),
			 -BS_EINVAL);
}

static void test_build_errors(void **state)
{
	const char *labels[] = {"a", "raid=6"};
	struct lines_src s = {{{EMC10_OFF}, {NULL}}, NULL, NULL, 0};
	struct bs_report_source src = {lines_each, &s};
	struct bs_err err = BS_ERR_INIT;
	struct bs_report_opts o;
	struct bs_report *rep = NULL;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(bs_report_build(&rep, &o, labels, 2, &src, &err),
			 -BS_ENOTFOUND);
	assert_string_equal(err.msg, "selector 'raid=6' matches no runs");
	assert_null(rep);
	bs_err_reset(&err);
	o.baseline = 2;
	assert_int_equal(bs_report_build(&rep, &o, labels, 2, &src, &err),
			 -BS_EINVAL);
	assert_string_equal(err.msg, "baseline 3 is not a group (1 to 2)");
}

static void test_shading(void **state)
{
	(void)state;
	/* Rates: the ratio to the best; half of it or less is the worst. */
	assert_int_equal(bs_rshade(1, 100, 100), 10);
	assert_int_equal(bs_rshade(1, 75, 100), 5);
	assert_int_equal(bs_rshade(1, 50, 100), 0);
	assert_int_equal(bs_rshade(1, 10, 100), 0);
	/* CPU and latency: lower is better. */
	assert_int_equal(bs_rshade(-1, 30, 30), 10);
	assert_int_equal(bs_rshade(-1, 40, 30), 5);
	assert_int_equal(bs_rshade(-1, 0, 0), 10);
	assert_int_equal(bs_rshade(1, NAN, 100), -1);
	/* Counts and durations: neither way is better, nothing to shade. */
	assert_int_equal(bs_rshade(0, 40, 30), -1);
}

static void test_number_formats(void **state)
{
	const char *labels[] = {"a"};
	struct lines_src s = {{{EMC10_OFF}}, NULL, NULL, 0};
	struct bs_report_opts o;
	struct bs_report *rep;
	char b[64];

	(void)state;
	memset(&o, 0, sizeof(o));
	o.units = BS_UNITS_KIB; /* as stored: KiB/s */
	rep = build(&s, 1, labels, &o);
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_PUTC, 0), -12358, b,
				    sizeof(b)),
			    "-12358");
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_SEEKS, 0), 465.7, b,
				    sizeof(b)),
			    "465.7");
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_SEEKS, 0), 0.25, b,
				    sizeof(b)),
			    "0.2");
	/* A seek rate keeps one decimal; a difference that rounds to
	 * nothing has no sign. */
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_SEEKS, 0), -0.04, b,
				    sizeof(b)),
			    "0.0");
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_SEEKS, 0), 3144, b,
				    sizeof(b)),
			    "3144.0");
	/* A mean is printed at bonnie++'s resolution, rounded to its
	 * nearest (not cut as bonnie++ cuts a measurement): 200812.93 KiB/s
	 * is 200813, 65.6 % is 66, 200812.4 is 200812. */
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_PUT_BLOCK, 0), 200812.93, b,
				    sizeof(b)),
			    "200813");
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_PUT_BLOCK, 0), 200812.4, b,
				    sizeof(b)),
			    "200812");
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_PUTC, BS_MK_CPU), 65.6, b,
				    sizeof(b)),
			    "66");
	/* A latency too, in the unit of its rounded value: 99999.7 us is
	 * 100 ms. */
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_PUTC, BS_MK_LAT), 99999.7,
				    b, sizeof(b)),
			    "100ms");
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_PUTC, BS_MK_LAT), 801000, b,
				    sizeof(b)),
			    "801ms");
	assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_PUTC, BS_MK_LAT), 61372, b,
				    sizeof(b)),
			    "61372us");
	/* The catalogue's rule (bs_metric_fmt) for every metric. */
	{
		/* clang-format off */
		static const struct {
			enum bs_family fam; const char *key; double v;
			unsigned flags; const char *want, *unit;
		} show[] = {
			{ BS_FAM_BONNIE, "put_block", 704997.08, 0, "688.5", "MiB/s" },
			{ BS_FAM_BONNIE, "put_block", 704997.08, BS_SHOW_KIB, "704997", "KiB/s" },
			{ BS_FAM_BONNIE, "put_block", 1911048, BS_SHOW_GROUP, "1,866.3", "MiB/s" },
			{ BS_FAM_BONNIE, "putc", 545, 0, "0.53", "MiB/s" },
			{ BS_FAM_BONNIE, "putc", -12358, 0, "-12.1", "MiB/s" },
			{ BS_FAM_BONNIE, "seeks", 575, 0, "575.0", "seeks/s" },
			{ BS_FAM_BONNIE, "seeks", 7510.9, 0, "7510.9", "seeks/s" },
			{ BS_FAM_FIO, "read_clat_p99_us", 999.96, 0, "1000", "us" },
			{ BS_FAM_BONNIE, "seq_create", 1525, BS_SHOW_GROUP, "1,525", "files/s" },
			{ BS_FAM_DD, "write_kib_s", 704997.08, 0, "688.5", "MiB/s" },
			{ BS_FAM_FIO, "read_bw_kib_s", 200704, 0, "196.0", "MiB/s" },
			{ BS_FAM_FIO, "read_iops", 50176.3, 0, "50176", "IO/s" },
			{ BS_FAM_FIO, "read_iops", 150.26, 0, "150.3", "IO/s" },
			{ BS_FAM_SYSBENCH, "read_mib_s", 570.1, 0, "570.10", "MiB/s" },
			{ BS_FAM_SYSBENCH, "latency_avg_ms", 0.01, 0, "0.01", "ms" },
			{ BS_FAM_ZCAV, "read_mib_s", 1290.2567, BS_SHOW_GROUP, "1,290.26", "MiB/s" },
			{ BS_FAM_GETC_PUTC, "write", 1776, 0, "1.73", "MiB/s" },
		};
		/* clang-format on */
		size_t k;

		for (k = 0; k < sizeof(show) / sizeof(show[0]); k++) {
			int m = bs_metric_find(show[k].fam, show[k].key);

			assert_true(m >= 0);
			if (strcmp(bs_metric_fmt(b, sizeof(b), m, show[k].v,
						 show[k].flags),
				   show[k].want) != 0)
				fail_msg("%s %.17g: got %s, want %s",
					 show[k].key, show[k].v, b,
					 show[k].want);
			assert_string_equal(bs_metric_unit(m, show[k].flags),
					    show[k].unit);
		}
		assert_string_equal(bs_metric_fmt(b, sizeof(b), 0, NAN, 0), "");
	}
	assert_string_equal(bs_rfmt_ratio(3.4917423, b, sizeof(b)), "3.49");
	assert_string_equal(bs_rfmt_pct(249.17423, b, sizeof(b)), "+249.2%");
	assert_string_equal(bs_rfmt_pct(-3.1, b, sizeof(b)), "-3.1%");
	assert_string_equal(bs_rfmt_raw(NAN, b, sizeof(b)), "");
	assert_string_equal(bs_bonnie_fmt_size(b, sizeof(b), 8192), "8G");
	assert_string_equal(bs_bonnie_fmt_size(b, sizeof(b), 7400), "7400M");
	/* For scripts: six significant digits, plain notation, no trailing
	 * zeros; integers whole; an exponent only from 1e15 up. */
	{
		/* clang-format off */
		static const struct { double v; const char *want; } raw[] = {
			{ 54041.75, "54041.8" },	{ 0.1, "0.1" },
			{ 1e-7, "0.0000001" },		{ -3.25e-5, "-0.0000325" },
			{ 1.0 / 3.0, "0.333333" },	{ 2.0e12, "2000000000000" },
			{ -0.0, "0" },			{ 123456789012.5, "123456789012" },
			{ 17469.073029213658, "17469.1" }, { -317.79999999999995, "-317.8" },
			{ 1e300, "1e+300" },		{ 2.5e15, "2.5e+15" },
			{ -0.00000000000000001, "0" },
		};
		/* clang-format on */
		size_t k;

		for (k = 0; k < sizeof(raw) / sizeof(raw[0]); k++)
			if (strcmp(bs_rfmt_raw(raw[k].v, b, sizeof(b)),
				   raw[k].want) != 0)
				fail_msg("%.17g: got %s, want %s", raw[k].v, b,
					 raw[k].want);
	}
	/* The fast path prints what printf prints, halves included. */
	{
		char want[64];
		uint64_t x = 88172645463325252u;
		double v;
		int k;

		for (k = 0; k < 200000; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = (double)(x % 40000000u) / ((k & 3) ? 1024.0 : 20.0);
			if (k & 8)
				v = -v;
			bs_fmt_double(want, sizeof(want), v, 1);
			if (strcmp(want, "-0.0") == 0)
				snprintf(want, sizeof(want), "0.0");
			assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_SEEKS, 0),
						    v, b, sizeof(b)),
					    want);
			bs_fmt_double(want, sizeof(want), v, 0);
			if (strcmp(want, "-0") == 0)
				snprintf(want, sizeof(want), "0");
			assert_string_equal(bs_rfmt(rep, BS_RM(BS_M_PUTC, 0), v,
						    b, sizeof(b)),
					    want);
		}
	}
	bs_report_free(rep);
}

/* ---- escaping ------------------------------------------------------- */

static void test_html_escapes_everything(void **state)
{
	const char *labels[] = {"machine=<script>alert(1)</script>",
				"note==cmd|' /C calc'!A0"};
	struct lines_src s = {{{XSS}, {FORMULA}},
			      "note",
			      "=cmd|' /C calc'!A0",
			      0};
	struct bs_report_opts o;
	struct bs_report *rep;
	char *html;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.title = "<img src=x onerror=alert(2)>";
	o.list_runs = 1;
	rep = build(&s, 2, labels, &o);
	html = render(rep, &s, BS_REPORT_HTML, NULL);
	assert_null(strstr(html, "<script>"));
	assert_null(strstr(html, "<img"));
	assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(html, "<title>&lt;img src=x onerror=alert(2)"
				     "&gt;</title>"));
	assert_non_null(strstr(html, "note==cmd|&#39; /C calc&#39;!A0"));
	/* Self-contained: no URL of any kind. */
	assert_null(strstr(html, "http:"));
	assert_null(strstr(html, "https:"));
	assert_null(strstr(html, " src=\""));
	assert_null(strstr(html, " href=\""));
	free(html);
	bs_report_free(rep);
}

static void test_csv_neutralises_formulas(void **state)
{
	const char *labels[] = {"@sum", "machine==cmd"};
	struct lines_src s = {{{XSS}, {FORMULA}},
			      "note",
			      "=cmd|' /C calc'!A0",
			      0};
	struct bs_report_opts o;
	struct bs_report *rep;
	struct bs_buf b = BS_BUF_INIT;
	char *csv;

	(void)state;
	bs_csv_cell(&b, "=1+2", 4);
	bs_csv_cell(&b, "+1", 2);
	bs_csv_cell(&b, "-1", 2);
	bs_csv_cell(&b, "@x", 2);
	bs_csv_cell(&b, "\tx", 2);
	bs_csv_cell(&b, "a \"b\", c", 8);
	bs_csv_cell(&b, "", 0);
	assert_string_equal(bs_buf_str(&b), "\"'=1+2\"\"'+1\"\"'-1\"\"'@x\""
					    "\"'\tx\"\"a \"\"b\"\", c\"\"\"");
	bs_buf_release(&b);

	memset(&o, 0, sizeof(o));
	o.units = BS_UNITS_KIB; /* as stored: KiB/s */
	rep = build(&s, 2, labels, &o);
	csv = render(rep, &s, BS_REPORT_CSV, NULL);
	/* Group, machines and tags cells; numbers stay numbers. */
	assert_non_null(strstr(csv, "\n\"'@sum\",1,\"putc\",\"KiB/s\",12647,"));
	assert_non_null(strstr(csv, ",\"'=cmd|' /C calc'!A0\","
				    "\"note==cmd|' /C calc'!A0\","));
	assert_non_null(strstr(csv, "\"<script>alert(1)</script>\""));
	assert_non_null(strstr(csv, ",-1691,"));
	assert_null(strstr(csv, ",\"=cmd"));
	assert_null(strstr(csv, "\n="));
	free(csv);
	bs_report_free(rep);
}

static void test_json_strings(void **state)
{
	const char *labels[] = {"q\"uote\\ <b>\x01\xff"};
	struct lines_src s = {{{EMC10_OFF}}, NULL, NULL, 0};
	struct bs_report_opts o;
	struct bs_report *rep;
	char *json;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.units = BS_UNITS_KIB; /* as stored: KiB/s */
	rep = build(&s, 1, labels, &o);
	json = render(rep, &s, BS_REPORT_JSON, NULL);
	assert_non_null(strstr(json, "\"label\": \"q\\\"uote\\\\ "
				     "\\u003cb\\u003e\\u0001\\ufffd\""));
	assert_non_null(strstr(json, "\"mean\": 12647, \"stddev\": null, "
				     "\"min\": 12647, \"max\": 12647, "
				     "\"diff\": null"));
	free(json);
	bs_report_free(rep);
}

/* ---- templates ------------------------------------------------------ */

static const char *const t_names[] = {"t.txt"};

static char *expand_text(const char *tpl, struct bs_tdict *d)
{
	const struct bs_embedded def[] = {{"t.txt", tpl, strlen(tpl)},
					  {NULL, NULL, 0}};
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	struct bs_buf out = BS_BUF_INIT;

	assert_int_equal(bs_tmpl_set_load(&ts, def, t_names, 1, NULL, &err), 0);
	assert_int_equal(bs_tmpl_expand_buf(ts, "t.txt", d, &out, &err), 0);
	bs_tmpl_set_free(ts);
	return bs_buf_detach(&out, NULL);
}

static void test_tdict(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_tdict *d, *row;
	char *out;

	(void)state;
	assert_int_equal(bs_tdict_new(&d, &err), 0);
	bs_tdict_set(d, "T", "top");
	bs_tdict_set(d, "X", "first");
	bs_tdict_set(d, "X", "replaced");
	row = bs_tdict_add(d, "ROW");
	bs_tdict_set_i64(row, "N", -42);
	row = bs_tdict_add(d, "ROW");
	bs_tdict_setf(row, "N", "%d%s", 7, "x");
	bs_tdict_show(d, "SHOWN");
	out = expand_text("{{X}}\n{{#ROW}}{{N}}:{{T}}{{#ROW_separator}},"
			  "{{/ROW_separator}}{{/ROW}}\n{{#SHOWN}}yes {{T}}"
			  "{{/SHOWN}}{{#HIDDEN}}no{{/HIDDEN}}\n",
			  d);
	assert_string_equal(out, "replaced\n-42:top,7x:top\nyes top\n");
	free(out);
	/* Cleared, it is empty and can be filled again. */
	bs_tdict_clear(d);
	bs_tdict_set(d, "X", "again");
	out = expand_text("[{{X}}{{T}}]{{#ROW}}r{{/ROW}}", d);
	assert_string_equal(out, "[again]");
	free(out);
	/* A NULL section (failed add) takes values without harm. */
	bs_tdict_set(NULL, "X", "y");
	bs_tdict_setf(NULL, "X", "%d", 1);
	bs_tdict_show(NULL, "S");
	bs_tdict_free(d);
	bs_tdict_free(NULL);
}

/* Runs f with stderr sent to a file; returns what was written there. */
static char *stderr_of(void (*f)(void *), void *arg)
{
	char path[] = "/tmp/test_report_errXXXXXX";
	FILE *saved;
	char buf[4096];
	size_t n;
	int fd;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stderr);
	saved = fdopen(dup(2), "w");
	dup2(fd, 2);
	f(arg);
	fflush(stderr);
	dup2(fileno(saved), 2);
	fclose(saved);
	n = (size_t)pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n < sizeof(buf) ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return xstrdup(buf);
}

struct load_try {
	const char *dir;
	struct bs_err err;
	int rc;
};

static void try_load(void *arg)
{
	struct load_try *t = arg;
	struct bs_tmpl_set *ts = NULL;

	t->rc = bs_report_templates_load(&ts, t->dir, BS_REPORT_HTML, &t->err);
	bs_tmpl_set_free(ts);
}

static char *scratch_dir(const char *name)
{
	const char *base = getenv("SCRATCH");
	struct bs_buf b = BS_BUF_INIT;

	bs_buf_addf(&b, "%s/test_report_%s", base ? base : "/tmp", name);
	mkdir(base ? base : "/tmp", 0755);
	mkdir(bs_buf_str(&b), 0755);
	return bs_buf_detach(&b, NULL);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	struct bs_buf p = BS_BUF_INIT;
	FILE *f;

	bs_buf_addf(&p, "%s/%s", dir, name);
	f = fopen(bs_buf_str(&p), "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	bs_buf_release(&p);
}

static void test_template_dir(void **state)
{
	const char *labels[] = {"a", "b"};
	struct lines_src s = {{{EMC10_OFF}, {EMC5_OFF}}, NULL, NULL, 0};
	struct load_try t = {NULL, BS_ERR_INIT, 0};
	struct bs_report_opts o;
	struct bs_report *rep;
	char *dir = scratch_dir("tdir"), *out, *errtext;

	(void)state;
	/* A template of the user's; the others stay built in. */
	{
		struct bs_buf p = BS_BUF_INIT;
		bs_buf_addf(&p, "%s/report.html", dir);
		unlink(bs_buf_str(&p));
		bs_buf_release(&p);
	}
	write_file(dir, "report.txt",
		   "{{TITLE}}: {{#METRIC}}{{KEY}}={{#CELL}}{{VALUE}}"
		   "{{#CELL_separator}}/{{/CELL_separator}}{{/CELL}} "
		   "{{/METRIC}}\n");
	memset(&o, 0, sizeof(o));
	o.units = BS_UNITS_KIB; /* as stored: KiB/s */
	want_rates(&o);
	rep = build(&s, 2, labels, &o);
	out = render(rep, &s, BS_REPORT_TEXT, dir);
	assert_string_equal(out, "a vs b: putc=12647/10956 "
				 "put_block=13414/10771 getc=33636/34169 "
				 "get_block=146503/158861 \n");
	free(out);
	out = render(rep, &s, BS_REPORT_CSV, dir);
	assert_non_null(strstr(out, "group,runs,metric,unit,value"));
	free(out);
	bs_report_free(rep);

	/* A broken one fails to load, with ctemplate's reason, silently. */
	write_file(dir, "report.html", "{{#OPEN}} never closed\n");
	t.dir = dir;
	errtext = stderr_of(try_load, &t);
	assert_int_equal(t.rc, -BS_ETMPL);
	assert_non_null(strstr(t.err.msg, "/report.html' does not parse"));
	assert_non_null(strstr(t.err.msg, "before all sections were closed"));
	assert_string_equal(errtext, "");
	free(errtext);

	bs_err_reset(&t.err);
	t.dir = "/nonexistent/templates";
	try_load(&t);
	assert_int_equal(t.rc, -BS_EIO);
	assert_string_equal(t.err.msg, "cannot open template directory "
				       "'/nonexistent/templates': No such "
				       "file or directory");
	free(dir);
}

/* ---- the template text, as ctemplate will read it ------------------- */

/* Each stripped as ctemplate 2.4's STRIP_BLANK_LINES strips it (checked
 * against ctemplate), but the last, on which ctemplate hangs. */
static const struct {
	const char *in;
	size_t len;
	const char *out;
	size_t outlen;
} strip_cases[] = {
/* clang-format off */
#define S(in, out) {in, sizeof(in) - 1, out, sizeof(out) - 1}
	/* clang-format on */
	/* Blank lines go; a lone marker loses its white space and newline;
	 * a variable, or two markers, keep theirs. */
	S("a\n\n \t \nb", "a\nb"),
	S("  {{#S}} \r\nx\n\t{{/S}}\n", "{{#S}}x\n{{/S}}"),
	S("{{V}}\n{{#A}}{{/A}}\n{{!c}}\n", "{{V}}\n{{#A}}{{/A}}\n{{!c}}"),
	S("{{%AUTOESCAPE context=\"HTML\"}}\n{{>INC}}\n{{#A}}x\n{{/A}}\n",
	  "{{%AUTOESCAPE context=\"HTML\"}}{{>INC}}{{#A}}x\n{{/A}}"),
	/* Changed delimiters count from the next line; a NUL after the
	 * start marker makes the line removable, as in ctemplate. */
	S("{{=<% %>=}}\n<%#A%>\n{{#B}}\n<%/A%>\n",
	  "{{=<% %>=}}<%#A%>{{#B}}\n<%/A%>"),
	S("{{=<% %>=}}<%=[ ]=%>\n[#A]\nx\n[/A]\n",
	  "{{=<% %>=}}<%=[ ]=%>\n[#A]x\n[/A]"),
	S("{{\0}}\n", "{{\0}}"),
	/* Both delimiters empty: no line is a lone marker any more. */
	S("{{= =}}{{T}}\n{{#A}}\n\n", "{{= =}}{{T}}\n{{#A}}\n"),
#undef S
};

static void test_tsyntax_strip(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(strip_cases) / sizeof(strip_cases[0]); i++) {
		struct bs_buf b = BS_BUF_INIT;

		bs_tsyntax_strip(strip_cases[i].in, strip_cases[i].len, &b);
		assert_int_equal(b.len, strip_cases[i].outlen);
		assert_memory_equal(bs_buf_str(&b), strip_cases[i].out, b.len);
		bs_buf_release(&b);
	}
}

/* How deep sections nest, as ctemplate's parser would meet them (each
 * checked against ctemplate's parse tree where ctemplate parses it). */
static const struct {
	const char *text;
	size_t depth;
} scan_cases[] = {
	{"", 0},
	{"{{V}}{{#A}}{{#B}}{{/B}}{{#C}}{{/C}}{{/A}}", 2},
	{"{{#A}}{{#A_separator}}{{/A_separator}}{{/A}}", 2},
	/* Not sections: comments, includes, variables, "{{{" text. */
	{"{{!{{#A}}{{>INC}}{{#A}}{{{#B}}}{{/B}}{{/A}}", 2},
	{"{{!x}}{{#A}}{{#A}}{{/A}}{{/A}}", 2},
	/* Changed delimiters, down to an empty end marker. */
	{"{{=<% %>=}}<%#A%>{{#B}}<%#C%><%/C%><%/A%>", 2},
	{"{{=<% %>=}}<%#A%><%=[ ]=%>[#B][#C][/C][/B][/A]", 3},
	{"{{=x =}}x#x#x#x/x/x/", 3},
	{"{{= =}}{{#A}}{{#B}}", 0},
	/* ctemplate stops at a section with a modifier or a bad name. */
	{"{{#A}}{{#B:x-csv}}{{#C}}{{#D}}", 1},
	{"{{#A}}{{#B-}}{{#C}}{{#D}}", 1},
	/* A marker never closed ends the parse. */
	{"{{#A}}{{#B", 1},
	/* ctemplate 2.4 has no inverted sections: {{^B}} is a bad name. */
	{"{{#A}}{{^B}}{{#C}}{{#D}}", 1},
};

static void test_tsyntax_scan(void **state)
{
	struct bs_tsyntax syn;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(scan_cases) / sizeof(scan_cases[0]); i++) {
		bs_tsyntax_scan(scan_cases[i].text, strlen(scan_cases[i].text),
				NULL, 0, &syn);
		assert_int_equal(syn.depth, scan_cases[i].depth);
	}
}

/* x- modifiers of variables and includes that are not bstore's. */
static void test_tsyntax_mods(void **state)
{
	static const char *const mods[] = {"x-csv", "x-json", "x-text"};
	static const struct {
		const char *text, *unknown;
	} cases[] = {
		{"{{V:x-csv}}{{W:x-json}}{{#A}}{{X:h:x-text:j}}{{/A}}", NULL},
		{"{{V:h:x-cvs:j}}{{W:x-nope}}", "x-cvs"},
		{"{{V:x-csv=1}}", "x-csv=1"},
		{"{{V:x-}}", "x-"},
		{"{{>INC:x-csvv}}", "x-csvv"},
		{"{{V:xy}}{{V:u}}", NULL},
		/* Not modifiers of a variable: a comment, a bad name (which
		 * stops ctemplate), changed delimiters. */
		{"{{! {{V:x-no}} }}", NULL},
		{"{{V-:x-no}}", NULL},
		{"{{=< >=}}{{V:x-no}}<V:x-yes>", "x-yes"},
	};
	struct bs_tsyntax syn;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bs_tsyntax_scan(cases[i].text, strlen(cases[i].text), mods, 3,
				&syn);
		if (cases[i].unknown == NULL) {
			assert_null(syn.unknown_mod);
			continue;
		}
		assert_non_null(syn.unknown_mod);
		assert_int_equal(syn.unknown_mod_len, strlen(cases[i].unknown));
		assert_memory_equal(syn.unknown_mod, cases[i].unknown,
				    syn.unknown_mod_len);
	}
}

/*
 * {{>NAME}} expands the set's template name.html once, with the
 * including dictionary; an include of a template not loaded, or of one
 * that includes others, is refused when the set loads.
 */
static void test_template_include(void **state)
{
	static const char *const names[] = {"t.txt", "head.html"};
	struct bs_embedded def[] = {
		{"t.txt", "<{{>HEAD}}|{{#S}}{{>HEAD}}{{/S}}>", 0},
		{"head.html", "[{{V}}]", 0},
		{NULL, NULL, 0},
	};
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	struct bs_buf out = BS_BUF_INIT;
	struct bs_tdict *d = NULL, *c;

	(void)state;
	def[0].len = strlen(def[0].text);
	def[1].len = strlen(def[1].text);
	assert_int_equal(bs_tmpl_set_load(&ts, def, names, 2, NULL, &err), 0);
	assert_int_equal(bs_tdict_new(&d, &err), 0);
	bs_tdict_set(d, "V", "a");
	c = bs_tdict_add(d, "S");
	bs_tdict_set(c, "V", "b");
	assert_int_equal(bs_tmpl_expand_buf(ts, "t.txt", d, &out, &err), 0);
	assert_string_equal(bs_buf_str(&out), "<[a]|[b]>");
	bs_tmpl_set_free(ts);
	bs_tdict_free(d);
	bs_buf_release(&out);

	/* head.html not loaded. */
	assert_int_equal(bs_tmpl_set_load(&ts, def, names, 1, NULL, &err),
			 -BS_ETMPL);
	assert_string_equal(err.msg, "template 't.txt' includes "
				     "'head.html', which is not loaded");
	/* An include that includes (itself). */
	bs_err_reset(&err);
	def[1].text = "[{{>HEAD}}]";
	def[1].len = strlen(def[1].text);
	assert_int_equal(bs_tmpl_set_load(&ts, def, names, 2, NULL, &err),
			 -BS_ETMPL);
	assert_non_null(strstr(err.msg, "which includes others"));
}

/* Nested 100 deep a template loads; 101 deep it is refused. */
static void test_template_depth(void **state)
{
	struct bs_buf tpl = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	struct bs_embedded def[] = {{"t.txt", NULL, 0}, {NULL, NULL, 0}};
	int i;

	(void)state;
	for (i = 0; i < BS_TMPL_MAX_DEPTH; i++)
		bs_buf_addf(&tpl, "{{#S%d}}", i);
	for (i = BS_TMPL_MAX_DEPTH - 1; i >= 0; i--)
		bs_buf_addf(&tpl, "{{/S%d}}", i);
	def[0].text = bs_buf_str(&tpl);
	def[0].len = tpl.len;
	assert_int_equal(bs_tmpl_set_load(&ts, def, t_names, 1, NULL, &err), 0);
	bs_tmpl_set_free(ts);

	bs_buf_reset(&tpl);
	bs_buf_adds(&tpl, "{{#OUTER}}\n");
	for (i = 0; i < BS_TMPL_MAX_DEPTH; i++)
		bs_buf_addf(&tpl, "{{#S%d}}", i);
	def[0].text = bs_buf_str(&tpl);
	def[0].len = tpl.len;
	assert_int_equal(bs_tmpl_set_load(&ts, def, t_names, 1, NULL, &err),
			 -BS_ETMPL);
	assert_null(ts);
	assert_string_equal(err.msg, "template 't.txt' nests sections 101 "
				     "deep (at most 100)");
	bs_buf_release(&tpl);
}

/* ctemplate compares the end marker after a set-delimiter marker's '='
 * before it knows the text holds it: refused, the text is never read
 * past its end (AddressSanitizer watches in the asan build). */
static void test_template_ends_in_delims(void **state)
{
	static const char *const texts[] = {"{{=a b=}", "x{{=<% %>=}",
					    "{{=[ ]]=}}[=<< >>=]"};
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	struct bs_embedded def[] = {{"t.txt", NULL, 0}, {NULL, NULL, 0}};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		def[0].text = texts[i];
		def[0].len = strlen(texts[i]);
		bs_err_reset(&err);
		assert_int_equal(bs_tmpl_set_load(&ts, def, t_names, 1, NULL,
						  &err),
				 -BS_ETMPL);
		assert_string_equal(err.msg, "template 't.txt' does not parse: "
					     "it ends inside a set-delimiter "
					     "marker");
	}
	/* One more byte, and it is an ordinary marker. */
	def[0].text = "{{=a b=}}";
	def[0].len = strlen(def[0].text);
	assert_int_equal(bs_tmpl_set_load(&ts, def, t_names, 1, NULL, &err), 0);
	bs_tmpl_set_free(ts);
}

/* At a second pragma marker ctemplate set up its HTML parser again,
 * leaking the first (LeakSanitizer watches in the asan build). */
static void test_template_two_pragmas(void **state)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_tmpl_set *ts = NULL;
	struct bs_embedded def[] = {{"t.txt",
				     "{{%AUTOESCAPE context=\"HTML\"}}x"
				     "{{%AUTOESCAPE context=\"HTML\"}}",
				     0},
				    {NULL, NULL, 0}};

	(void)state;
	def[0].len = strlen(def[0].text);
	assert_int_equal(bs_tmpl_set_load(&ts, def, t_names, 1, NULL, &err),
			 -BS_ETMPL);
	assert_null(ts);
	assert_string_equal(err.msg, "template 't.txt' does not parse: it "
				     "has 2 pragma markers ({{%...}}), and "
				     "only one is allowed, at the top");
}

/* Loads text as t.txt and expands it with d, into /dev/null; returns the
 * code, the message in err. */
static int expand_null(const char *text, const struct bs_tdict *d,
		       struct bs_err *err)
{
	struct bs_embedded def[] = {{"t.txt", text, strlen(text)},
				    {NULL, NULL, 0}};
	struct bs_tmpl_set *ts = NULL;
	FILE *null = fopen("/dev/null", "w");
	int rc;

	assert_non_null(null);
	assert_int_equal(bs_tmpl_set_load(&ts, def, t_names, 1, NULL, err), 0);
	rc = bs_tmpl_expand_file(ts, "t.txt", d, null, err);
	bs_tmpl_set_free(ts);
	fclose(null);
	return rc;
}

/* A section inside itself walks its parent's list again: 3 deep over 2
 * children is 8 rows; 25 deep would be 2^25 walks, and 11 deep over 3
 * children (531,440 walks) with 200 bytes of text 35 MB of output from a
 * 330-byte template: both stop, and fail. */
static void test_template_budget(void **state)
{
	struct bs_buf tpl = BS_BUF_INIT;
	struct bs_err err = BS_ERR_INIT;
	struct bs_tdict *d;
	char *text;
	int i;

	(void)state;
	assert_int_equal(bs_tdict_new(&d, &err), 0);
	bs_tdict_set(bs_tdict_add(d, "A"), "N", "1");
	bs_tdict_set(bs_tdict_add(d, "A"), "N", "2");
	text = expand_text("{{#A}}{{#A}}{{#A}}{{N}}{{/A}}{{/A}}{{/A}}", d);
	assert_string_equal(text, "12121212");
	free(text);

	for (i = 0; i < 25; i++)
		bs_buf_adds(&tpl, "{{#A}}");
	for (i = 0; i < 25; i++)
		bs_buf_adds(&tpl, "{{/A}}");
	assert_int_equal(expand_null(bs_buf_str(&tpl), d, &err), -BS_ETMPL);
	assert_true(strncmp(err.msg,
			    "cannot expand template 't.txt': more "
			    "than 4194",
			    41) == 0);
	assert_non_null(strstr(err.msg, " steps for this report's data (a "
					"section inside itself repeats its "
					"parent's list)"));

	bs_tdict_set(bs_tdict_add(d, "A"), "N", "3");
	bs_buf_reset(&tpl);
	for (i = 0; i < 11; i++)
		bs_buf_adds(&tpl, "{{#A}}");
	for (i = 0; i < 20; i++)
		bs_buf_adds(&tpl, "0123456789");
	for (i = 0; i < 11; i++)
		bs_buf_adds(&tpl, "{{/A}}");
	bs_err_reset(&err);
	assert_int_equal(expand_null(bs_buf_str(&tpl), d, &err), -BS_ETMPL);
	assert_non_null(strstr(err.msg, " steps for this report's data"));

	/* Into a buffer of 4 KiB: the expansion stops when the buffer is
	 * full, and says so, instead of running on to the step limit. */
	{
		struct bs_embedded def[] = {{"t.txt", bs_buf_str(&tpl),
					     tpl.len},
					    {NULL, NULL, 0}};
		struct bs_tmpl_set *ts = NULL;
		struct bs_buf out;

		bs_buf_init_max(&out, 4096);
		bs_err_reset(&err);
		assert_int_equal(bs_tmpl_set_load(&ts, def, t_names, 1, NULL,
						  &err),
				 0);
		assert_int_equal(bs_tmpl_expand_buf(ts, "t.txt", d, &out, &err),
				 -BS_ETOOBIG);
		assert_string_equal(err.msg, "output too large");
		bs_tmpl_set_free(ts);
		bs_buf_release(&out);
	}
	bs_tdict_free(d);
	bs_buf_release(&tpl);
}

/* ---- stability and the list of runs --------------------------------- */

static void test_html_list_kept_or_read_again(void **state)
{
	const char *labels[] = {"server", "emc", "labvm01"};
	struct lines_src s = {{{SRV1, SRV2, SRV3, SRV4}, {EMC10_OFF}, {LABVM01}},
			      NULL,
			      NULL,
			      0};
	struct bs_report_opts o;
	struct bs_report *kept, *again;
	char *a, *b, *c;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.list_runs = 1;
	kept = build(&s, 3, labels, &o);
	assert_int_equal(s.reads, 3);
	a = render(kept, &s, BS_REPORT_HTML, NULL);
	b = render(kept, &s, BS_REPORT_HTML, NULL);
	/* Kept runs are not read again. */
	assert_int_equal(s.reads, 3);
	assert_string_equal(a, b);
	o.list_runs = 0;
	again = build(&s, 3, labels, &o);
	c = render(again, &s, BS_REPORT_HTML, NULL);
	assert_int_equal(s.reads, 9);
	assert_string_equal(a, c);
	/* Every run is listed, with its rates (in MiB/s: labvm01 is fast). */
	assert_non_null(strstr(a, "<tr><td>[1]</td><td>4</td>"
				  "<td>server_name</td><td>1.03</td>"
				  "<td>16G</td><td class=\"nr\">not run</td>"
				  "<td class=\"s0\">50.8</td>"));
	assert_non_null(strstr(a, "<td>[3]</td><td>201</td><td>labvm01</td>"));
	free(a);
	free(b);
	free(c);
	bs_report_free(kept);
	bs_report_free(again);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto_labels),
		cmocka_unit_test(test_block_baselines),
		cmocka_unit_test(test_seed_raid10_vs_raid5),
		cmocka_unit_test(test_seed_t3_vs_emc),
		cmocka_unit_test(test_group_statistics),
		cmocka_unit_test(test_summary_states),
		cmocka_unit_test(test_too_fast_takes_no_part),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_metrics_parse),
		cmocka_unit_test(test_build_errors),
		cmocka_unit_test(test_shading),
		cmocka_unit_test(test_number_formats),
		cmocka_unit_test(test_html_escapes_everything),
		cmocka_unit_test(test_csv_neutralises_formulas),
		cmocka_unit_test(test_json_strings),
		cmocka_unit_test(test_tdict),
		cmocka_unit_test(test_template_dir),
		cmocka_unit_test(test_tsyntax_strip),
		cmocka_unit_test(test_tsyntax_scan),
		cmocka_unit_test(test_tsyntax_mods),
		cmocka_unit_test(test_template_depth),
		cmocka_unit_test(test_template_include),
		cmocka_unit_test(test_template_ends_in_delims),
		cmocka_unit_test(test_template_two_pragmas),
		cmocka_unit_test(test_template_budget),
		cmocka_unit_test(test_html_list_kept_or_read_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
