/*
 * tests/unit/test_trend.c - trends: calendar periods (util/timefmt.h),
 * the ticks of a time axis (report/chart.h), period labels, and the
 * model (report/trend.h) over runs made here: the periods each --every
 * gives, each point's n, median, mean, sd, min and max against numbers
 * worked out by hand, auto's choice, the runs left out, the errors.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/result.h"
#include "report/chart.h"
#include "report/report.h"
#include "report/trend.h"
#include "util/timefmt.h"
#include "util/banned.h"

static int64_t at(const char *iso)
{
	struct bs_err err = BS_ERR_INIT;
	int64_t t = 0;

	assert_int_equal(bs_time_parse(iso, &t, &err), 0);
	return t;
}

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%.17g, expected %.17g", got, want);
}

static const char *iso(int64_t t)
{
	static char s[64];

	return bs_time_iso(s, sizeof(s), t);
}

/* ---- calendar periods ------------------------------------------------ */

/* clang-format off */
static const struct {
	const char *t;
	enum bs_time_unit u;
	int k;
	const char *floor, *next;
} periods[] = {
	{ "2004-03-14 10:22:05", BS_TU_HOUR,  1, "2004-03-14T10:00:00Z", "2004-03-14T11:00:00Z" },
	{ "2004-03-14 10:22:05", BS_TU_HOUR,  6, "2004-03-14T06:00:00Z", "2004-03-14T12:00:00Z" },
	{ "2004-03-14 10:22:05", BS_TU_DAY,   1, "2004-03-14T00:00:00Z", "2004-03-15T00:00:00Z" },
	/* 2004-03-14 was a Sunday: its week started on Monday the 8th. */
	{ "2004-03-14 10:22:05", BS_TU_WEEK,  1, "2004-03-08T00:00:00Z", "2004-03-15T00:00:00Z" },
	{ "2004-03-15",          BS_TU_WEEK,  1, "2004-03-15T00:00:00Z", "2004-03-22T00:00:00Z" },
	/* The epoch's week began on Monday 1969-12-29. */
	{ "1970-01-01",          BS_TU_WEEK,  1, "1969-12-29T00:00:00Z", "1970-01-05T00:00:00Z" },
	{ "2004-02-29 23:59:59", BS_TU_MONTH, 1, "2004-02-01T00:00:00Z", "2004-03-01T00:00:00Z" },
	{ "2004-12-31 23:59:59", BS_TU_MONTH, 1, "2004-12-01T00:00:00Z", "2005-01-01T00:00:00Z" },
	{ "2004-05-20",          BS_TU_MONTH, 3, "2004-04-01T00:00:00Z", "2004-07-01T00:00:00Z" },
	{ "2004-12-20",          BS_TU_MONTH, 3, "2004-10-01T00:00:00Z", "2005-01-01T00:00:00Z" },
	{ "2004-12-20",          BS_TU_MONTH, 6, "2004-07-01T00:00:00Z", "2005-01-01T00:00:00Z" },
	{ "2004-12-20",          BS_TU_YEAR,  1, "2004-01-01T00:00:00Z", "2005-01-01T00:00:00Z" },
	{ "2004-12-20",          BS_TU_YEAR, 10, "2000-01-01T00:00:00Z", "2010-01-01T00:00:00Z" },
	{ "9999-12-31 23:59:59", BS_TU_YEAR,  1, "9999-01-01T00:00:00Z", "10000-01-01T00:00:00Z" },
};
/* clang-format on */

static void test_periods(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(periods) / sizeof(periods[0]); i++) {
		int64_t f = bs_time_floor(at(periods[i].t), periods[i].u,
					  periods[i].k);
		assert_string_equal(iso(f), periods[i].floor);
		if (strcmp(periods[i].next, "10000-01-01T00:00:00Z") == 0)
			continue; /* past strftime's four digits */
		assert_string_equal(iso(bs_time_add(f, periods[i].u,
						    periods[i].k)),
				    periods[i].next);
	}
}

/* ---- the ticks of a time axis ---------------------------------------- */

/* clang-format off */
static const struct {
	const char *lo, *hi;
	size_t n;
	const char *labels;
} ticks[] = {
	/* Twenty years: every five. */
	{ "2003-06-01", "2024-02-01", 5, "2005 2010 2015 2020" },
	{ "2003-06-01", "2006-02-01", 5, "2004 2005 2006" },
	/* Half a year: every second month, or each with room for 7. */
	{ "2004-01-01", "2004-06-30", 5, "2004-01 2004-03 2004-05" },
	{ "2004-01-01", "2004-06-30", 7, "2004-01 2004-02 2004-03 2004-04 2004-05 2004-06" },
	/* Two years: quarters would be 8, half years 4. */
	{ "2004-01-01", "2005-12-31", 5, "2004-01 2004-07 2005-01 2005-07" },
	/* Days, then weeks from Monday. */
	{ "2004-03-01", "2004-03-04", 5, "03-01 03-02 03-03 03-04" },
	{ "2004-03-01", "2004-03-28", 5, "03-01 03-08 03-15 03-22" },
	/* Hours, a day's first showing its date. */
	{ "2004-03-01 18:30", "2004-03-02 09:00", 5, "21:00 03-02 03:00 06:00 09:00" },
	{ "2004-03-01 18:30", "2004-03-02 09:00", 8, "20:00 22:00 03-02 02:00 04:00 06:00 08:00" },
};
/* clang-format on */

static void test_ticks(void **state)
{
	struct bs_time_tick t[16];
	char got[256];
	size_t i, k, n;

	(void)state;
	for (i = 0; i < sizeof(ticks) / sizeof(ticks[0]); i++) {
		n = bs_time_ticks(at(ticks[i].lo), at(ticks[i].hi), ticks[i].n,
				  t);
		assert_true(n <= ticks[i].n);
		got[0] = '\0';
		for (k = 0; k < n; k++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 "%s%s", k ? " " : "", t[k].label);
		assert_string_equal(got, ticks[i].labels);
	}
}

static void test_every(void **state)
{
	static const char *const labels[] = {
		"",           "2004-03-14 10:22:05",
		"2004-03-14", "2004-03-08",
		"2004-03",    "2004-Q1",
		"2004",
	};
	struct bs_err err = BS_ERR_INIT;
	enum bs_trend_every e;
	char s[64];
	int i;

	(void)state;
	for (i = BS_EVERY_RUN; i < BS_EVERY_COUNT; i++) {
		int64_t p = bs_trend_period((enum bs_trend_every)i,
					    at("2004-03-14 10:22:05"));
		assert_string_equal(bs_trend_period_label((enum bs_trend_every)i,
							  p, s, sizeof(s)),
				    labels[i]);
		assert_int_equal(
			bs_trend_every_parse(bs_trend_every_name(
						     (enum bs_trend_every)i),
					     &e, NULL),
			0);
		assert_int_equal(e, i);
	}
	assert_int_equal(bs_trend_every_parse("fortnight", &e, &err),
			 -BS_EINVAL);
	assert_string_equal(err.msg, "unknown period 'fortnight' (auto, run, "
				     "day, week, month, quarter or year)");
}

/* ---- the model ----------------------------------------------------- */

/* A run: its date ("" none) and its block write in KiB/s. */
struct trun {
	const char *date;
	double put_block;
};

struct tsrc {
	const struct trun *runs[2];
	size_t n[2];
};

static int src_each(void *ctx, size_t group, bs_report_run_fn fn, void *fn_ctx,
		    struct bs_err *err)
{
	struct tsrc *s = ctx;
	size_t i;
	int rc = 0;

	(void)err;
	for (i = 0; i < s->n[group] && rc >= 0; i++) {
		struct bs_run r;
		bs_run_init(&r);
		r.id = (int64_t)(group * 100 + i + 1);
		bs_run_set(&r.machine, "box");
		bs_run_set(&r.tool, "bonnie++");
		bs_run_set(&r.tool_version, "1.03");
		r.measured_at = s->runs[group][i].date[0]
					? at(s->runs[group][i].date)
					: BS_NONE;
		r.res[BS_M_PUT_BLOCK].status = BS_ST_OK;
		r.res[BS_M_PUT_BLOCK].value = s->runs[group][i].put_block;
		rc = fn(&r, fn_ctx);
		bs_run_release(&r);
	}
	return rc;
}

/* clang-format off */
static const struct trun box[] = {
	{ "2004-01-05", 100 }, { "2004-01-20", 140 }, { "2004-01-31 23:59:59", 90 },
	{ "2004-03-01", 200 },
	{ "2004-03-02", 180 }, { "2004-03-02", 220 },
	{ "", 999 },
};
/* clang-format on */

static int build(struct bs_trend **tr, struct tsrc *s, size_t ngroups,
		 enum bs_trend_every every, const char *since,
		 const char *until, struct bs_err *err)
{
	static const char *const sel[] = {"machine=box", "raid=5"};
	struct bs_report_source src = {src_each, s};
	struct bs_trend_opts o;

	memset(&o, 0, sizeof(o));
	o.every = every;
	o.since = since ? at(since) : BS_NONE;
	o.until = until ? at(until) : BS_NONE;
	o.want[BS_RM(BS_M_PUT_BLOCK, BS_MK_RATE)] = 1;
	return bs_trend_build(tr, &o, sel, ngroups, &src, err);
}

static void test_months(void **state)
{
	struct tsrc s = {{box, NULL}, {7, 0}};
	struct bs_err err = BS_ERR_INIT;
	struct bs_trend *tr = NULL;
	const struct bs_trend_point *p;

	(void)state;
	assert_int_equal(build(&tr, &s, 1, BS_EVERY_MONTH, NULL, NULL, &err),
			 0);
	assert_int_equal(tr->nmetric, 1);
	assert_int_equal(tr->undated[0], 1);
	assert_int_equal(tr->metric[0].line[0].n, 2);
	assert_int_equal(tr->metric[0].line[0].runs, 6);
	p = &tr->metric[0].line[0].pt[0];
	assert_string_equal(iso(p->start), "2004-01-01T00:00:00Z");
	assert_int_equal(p->n, 3);
	assert_true(p->run == BS_NONE);
	near(p->median, 100, 1e-9);
	near(p->mean, 110, 1e-9);
	/* (100-110)^2 + (140-110)^2 + (90-110)^2 = 1400, / 2, sqrt. */
	near(p->sd, sqrt(700), 1e-9);
	near(p->min, 90, 1e-9);
	near(p->max, 140, 1e-9);
	p++;
	assert_string_equal(iso(p->start), "2004-03-01T00:00:00Z");
	assert_int_equal(p->n, 3);
	near(p->median, 200, 1e-9);
	assert_string_equal(tr->notes[0], "[1] machine=box: 1 run without a "
					  "date (measured_at) left out");
	bs_trend_free(tr);

	/* Each run: the two of 2004-03-02 share a point, the median of two
	 * the mean of them; a lone run names its id. */
	assert_int_equal(build(&tr, &s, 1, BS_EVERY_RUN, NULL, NULL, &err), 0);
	assert_int_equal(tr->metric[0].line[0].n, 5);
	p = &tr->metric[0].line[0].pt[4];
	assert_int_equal(p->n, 2);
	near(p->median, 200, 1e-9);
	assert_int_equal(tr->metric[0].line[0].pt[3].run, 4);
	assert_true(isnan(tr->metric[0].line[0].pt[3].sd));
	bs_trend_free(tr);

	/* auto: each run, as no line has 60. */
	assert_int_equal(build(&tr, &s, 1, BS_EVERY_AUTO, NULL, NULL, &err), 0);
	assert_int_equal(tr->every, BS_EVERY_RUN);
	assert_true(tr->auto_every);
	bs_trend_free(tr);

	/* since and until: from the first second, to the last. */
	assert_int_equal(build(&tr, &s, 1, BS_EVERY_DAY, "2004-01-20",
			       "2004-03-01 23:59:59", &err),
			 0);
	assert_int_equal(tr->metric[0].line[0].n, 3);
	assert_int_equal(tr->outside[0], 3);
	bs_trend_free(tr);
}

/* 90 runs a day apart: too many for each run or day, a week apiece. */
static void test_auto(void **state)
{
	struct trun many[90];
	char dates[90][16];
	struct tsrc s = {{many, box}, {90, 7}};
	struct bs_err err = BS_ERR_INIT;
	struct bs_trend *tr = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < 90; i++) {
		snprintf(dates[i], sizeof(dates[i]), "%s",
			 iso(at("2004-01-01") + (int64_t)i * 86400));
		dates[i][10] = '\0';
		many[i].date = dates[i];
		many[i].put_block = 1000 + (double)i;
	}
	assert_int_equal(build(&tr, &s, 2, BS_EVERY_AUTO, NULL, NULL, &err), 0);
	assert_int_equal(tr->every, BS_EVERY_WEEK);
	/* 2004-01-01 was a Thursday: a short first week, 13 more. */
	assert_int_equal(tr->metric[0].line[0].n, 14);
	assert_int_equal(tr->metric[0].line[0].pt[0].n, 4);
	assert_int_equal(tr->metric[0].line[1].n, 4);
	bs_trend_free(tr);
}

static void test_errors(void **state)
{
	static const struct trun undated[] = {{"", 1}, {"", 2}};
	struct tsrc s = {{box, undated}, {7, 2}};
	struct bs_err err = BS_ERR_INIT;
	struct bs_trend *tr = NULL;

	(void)state;
	assert_int_equal(build(&tr, &s, 2, BS_EVERY_AUTO, NULL, NULL, &err),
			 -BS_ENOTFOUND);
	assert_null(tr);
	assert_string_equal(err.msg, "selector 'raid=5' has no run with a "
				     "date (2 without one; ingest "
				     "--measured-at DATE dates runs whose "
				     "text has none)");
	bs_err_reset(&err);
	assert_int_equal(build(&tr, &s, 1, BS_EVERY_AUTO, "2005-01-01", NULL,
			       &err),
			 -BS_ENOTFOUND);
	assert_string_equal(err.msg,
			    "selector 'machine=box' has no run with a date "
			    "in the range (6 measured before "
			    "2005-01-01T00:00:00Z, 1 without a date)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_periods), cmocka_unit_test(test_ticks),
		cmocka_unit_test(test_every),   cmocka_unit_test(test_months),
		cmocka_unit_test(test_auto),    cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
