/*
 * report/trend.h - trends: metrics of groups of runs over the time they
 * were measured (measured_at), as HTML line charts, text tables, CSV or
 * JSON through templates/trend.* (compiled in; a directory may override
 * them).
 *
 * Each group (what one selector chose) is split into series, one per
 * machine and test identity (core/identity.h): a chart is one metric of
 * one test, titled with the test's name (bs_ident_names: "sysbench rndrw,
 * 4 threads: read"), and each series of that test is a line of it, so
 * that no line joins runs of two machines or two tests. A metric the
 * test does not measure (sysbench seqwr's read rate, printed as 0) has
 * no point (bs_ident_measures). A series' runs with a date are put into periods (each run, or a day,
 * an ISO week from Monday, a month, a quarter, a year; UTC), and each
 * period with a number becomes a point: the period's count n, median
 * (report/stats.h), mean, sample standard deviation (NAN under 2 runs, as
 * in the report), least and greatest number. Runs without a date, and
 * runs outside --since/--until, take no part and are counted in notes.
 *
 * The groups are read once, through a report (bs_report_build): its
 * labels, title, units (KiB/s or MiB/s) and notes on what makes numbers
 * incomparable are the trend's too, and its numbers are formatted by the
 * report's one rule (bs_rfmt).
 */
#ifndef BS_REPORT_TREND_H
#define BS_REPORT_TREND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"
#include "util/err.h"

/* The periods of a trend; BS_EVERY_AUTO is resolved when it is built. */
enum bs_trend_every {
	BS_EVERY_AUTO,
	BS_EVERY_RUN, /* each run (runs of the same second share a point) */
	BS_EVERY_DAY,
	BS_EVERY_WEEK, /* ISO weeks, Monday to Sunday */
	BS_EVERY_MONTH,
	BS_EVERY_QUARTER,
	BS_EVERY_YEAR,
	BS_EVERY_COUNT
};

/* auto: each run a point while no line has more than this many, else
 * the smallest period that gives no line more (a year at most). */
#define BS_TREND_AUTO_POINTS 60

/* "auto", "run", "day", "week", "month", "quarter", "year". */
const char *bs_trend_every_name(enum bs_trend_every e);
/* For people: "each run", "per day", "per week (Monday to Sunday)", ... */
const char *bs_trend_every_text(enum bs_trend_every e);
/* Parses one of those names; 0, or -BS_EINVAL for another ("unknown
 * period 'S' (auto, run, ...)"). */
int bs_trend_every_parse(const char *s, enum bs_trend_every *out,
			 struct bs_err *err);
/* The start of e's period that holds t (unix seconds; run: t itself). */
int64_t bs_trend_period(enum bs_trend_every e, int64_t t);
/* The length in seconds of e's period that starts at start (run: 0). */
int64_t bs_trend_period_len(enum bs_trend_every e, int64_t start);
/* A period for people, from its start: "2004-03-14 10:22:05" (run),
 * "2004-03-14" (day, and a week by its Monday), "2004-03", "2004-Q1",
 * "2004". */
const char *bs_trend_period_label(enum bs_trend_every e, int64_t start,
				  char *out, size_t outsz);

/* A run's number at its date; qsort() with bs_trend_sample_cmp orders
 * them by date, then run id (bstore site's trend charts sort so too). */
struct bs_trend_sample {
	int64_t t, id;
	double v;
};
int bs_trend_sample_cmp(const void *a, const void *b);

struct bs_trend_opts {
	enum bs_trend_every every;
	int64_t since, until; /* the runs measured in [since, until]; BS_NONE:
				 no bound */
	enum bs_report_units units;
	/* The report metrics to draw (bs_report_metrics_parse); all zero:
	 * the rates of the catalogue's main metrics (BS_MF_MAIN). Either
	 * way only those some run has a number of. */
	unsigned char want[BS_RM_COUNT];
	const char *title; /* NULL: "Trend: " and the report's title */
	/* When get is set, each group's change points (report/changes.h,
	 * over the group's runs in since..until) are marked on its lines:
	 * get reads a run by id with its tags, for their explanations. */
	int (*get)(void *ctx, int64_t id, struct bs_run *r, struct bs_err *err);
	void *get_ctx;
};

/* A period of a line, numbers in the metric's stored unit. */
struct bs_trend_point {
	int64_t start; /* the period's start; each run: its measured_at */
	int64_t run;   /* each run: its id when the point has one run, else
			  BS_NONE */
	int64_t n;
	double median, mean, sd, min, max; /* sd: NAN when n < 2 */
};

/* The points of one metric of one series (a group's runs of one
 * machine and one test identity), oldest first. */
struct bs_trend_line {
	struct bs_trend_point *pt;
	size_t n;
	int64_t runs;  /* runs with a number */
	size_t group;  /* its group (0-based) */
	size_t series; /* its series (bs_trend.series): its line style */
};

/* A series: the runs of one group, one machine and one test identity
 * (core/identity.h), never joined with another's. */
struct bs_trend_series {
	size_t group;
	char *machine;
	char *key;   /* bs_ident_key */
	char *test;  /* bs_ident_names among the trend's tests */
	char *label; /* "[1] all", and ", jump" when the group has runs of
			several machines */
};

/* A chart: one metric of one test, a line per series of that test. */
struct bs_trend_metric {
	int m;                      /* report metric (report/report.h) */
	const char *test;           /* its series' test name */
	char *title;                /* "sysbench rndrw, 4 threads: read" */
	struct bs_trend_line *line; /* in series order */
	size_t nline;
	int64_t tmin, tmax; /* first and last point's start */
	double ymax;        /* the largest max, or mean + sd */
};

struct bs_trend {
	struct bs_report *rep; /* groups, labels, units, notes */
	char *title;
	enum bs_trend_every every; /* never auto */
	int auto_every;            /* every was chosen by auto */
	/* By test (in the order of their first series), then catalogue
	 * order. */
	struct bs_trend_metric *metric;
	size_t nmetric;
	struct bs_trend_series *series; /* by group, machine, identity */
	size_t nseries;
	int64_t *undated; /* per group: runs without a date, left out */
	int64_t *outside; /* per group: runs outside since..until */
	int64_t since, until;
	char **notes; /* the trend's, then the report's */
	size_t nnotes;
	/* Per group: its change points (bs_changes_build), NULL without
	 * opts.get. A line's are those of its series and metric
	 * (bs_changes_next). */
	struct bs_changes **changes;
};

/*
 * Builds the trend of ngroups groups chosen by selectors[] from src. A
 * group without runs fails with BS_ENOTFOUND, as in bs_report_build; so
 * does one whose runs all lack a date or lie outside since..until, and a
 * trend in which no run has a number of a metric asked.
 */
int bs_trend_build(struct bs_trend **out, const struct bs_trend_opts *opts,
		   const char *const *selectors, size_t ngroups,
		   const struct bs_report_source *src, struct bs_err *err);
void bs_trend_free(struct bs_trend *tr);

/* Loads the template of format fmt (trend.txt, trend.html, trend.csv or
 * trend.json): from dir when it has one, else the copy compiled in. */
struct bs_tmpl_set;
int bs_trend_templates_load(struct bs_tmpl_set **out, const char *dir,
			    enum bs_report_format fmt, struct bs_err *err);

/* Writes the trend in format fmt to out (report/render_trend.c). The
 * same trend and templates always give the same bytes. */
int bs_trend_render(const struct bs_trend *tr, const struct bs_tmpl_set *ts,
		    enum bs_report_format fmt, FILE *out, struct bs_err *err);

#endif
