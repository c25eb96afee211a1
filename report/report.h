/*
 * report/report.h - comparison reports: groups of runs -> a model with
 * statistics, diffs and ratios -> HTML, text, CSV or JSON through the
 * templates in templates/ (compiled in; a directory may override them).
 *
 * A report compares groups of runs (each group is what one selector
 * chose). For every metric of the catalogue (core/metric.h) its runs
 * have - each tool's rates, times and counts (bonnie++, Bonnie, sysbench
 * fileio, fio, zcav, dd, getc_putc), and for bonnie++'s tests also their
 * CPU percentage and latency - a group shows the mean over its runs with
 * a number, their standard deviation, minimum, maximum and count.
 * Against the baseline group (the first unless chosen otherwise) each
 * other group gets
 *
 *   diff    = group - baseline          (in the metric's unit)
 *   ratio   = group / baseline
 *   percent = (ratio - 1) * 100
 *
 * and is marked better or worse: rates are better higher, CPU percentages
 * and latencies lower, and the catalogue says which way each other
 * metric goes. A test its tool could not time (too_fast: bonnie++'s
 * "+++++") or did not run (not_run) has no number: such a cell says so and
 * takes no part in any arithmetic. Parameters that make numbers
 * incomparable (the rules of core/param.h: file size, chunk size,
 * bonnie++ 1.0x against 1.9x+, the file-test spec, sysbench's test mode,
 * fio's block size, ...) become notes shown above the tables.
 *
 * The runs are read through a source once. With opts.list_runs, what the
 * HTML page's list of runs shows (each run's rates) is kept too,
 * compactly (about 150 bytes a run); past BS_REPORT_KEEP_MAX bytes it is
 * dropped and the renderer reads the runs again instead, so memory stays
 * bounded for any number of runs.
 */
#ifndef BS_REPORT_REPORT_H
#define BS_REPORT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/identity.h"
#include "core/result.h"
#include "core/zcav.h"
#include "report/stats.h"
#include "util/err.h"

enum bs_report_format {
	BS_REPORT_TEXT,
	BS_REPORT_HTML,
	BS_REPORT_CSV,
	BS_REPORT_JSON,
};

enum bs_report_units {
	BS_UNITS_AUTO, /* each metric's unit in the catalogue (core/metric.h) */
	BS_UNITS_KIB,
	BS_UNITS_MIB,
	BS_UNITS_MB, /* decimal MB/s, as fio and dd print them */
};

/*
 * What a report metric measures about a catalogue metric (core/metric.h):
 * its value, and for bonnie++'s tests (BS_MF_CPU_LAT) also their CPU and
 * maximum latency.
 */
enum bs_mkind {
	BS_MK_RATE, /* the value: which way is better is the catalogue's */
	BS_MK_CPU,  /* CPU percent: lower is better */
	BS_MK_LAT,  /* maximum latency in microseconds: lower is better */
	BS_MK_COUNT
};

/* Report metrics are numbered catalogue row * BS_MK_COUNT + kind:
 * arrays have room for BS_RM_COUNT, loops go up to BS_RM_USED. */
#define BS_RM_COUNT (BS_M_MAX * BS_MK_COUNT)
#define BS_RM_USED (bs_nmetrics * BS_MK_COUNT)
#define BS_RM(test, kind) ((test)*BS_MK_COUNT + (kind))
#define BS_RM_TEST(m) ((m) / BS_MK_COUNT)
#define BS_RM_KIND(m) ((enum bs_mkind)((m) % BS_MK_COUNT))

/*
 * The metric's key: the catalogue's, with bonnie++'s CSV header suffixes
 * for CPU and latency: "put_block", "put_block_cpu", "put_block_latency".
 * Written into out (>= 32 bytes).
 */
const char *bs_report_metric_key(int m, char *out, size_t outsz);

/*
 * Parses a --metrics list: comma-separated metric keys, test keys with a
 * kind ("putc" is the rate only), or the families "rates", "cpu",
 * "latency", "io" (the six I/O tests, all kinds), "files" (the six file
 * tests, all kinds) and "all". Sets want[m] to 1 for each chosen metric.
 * Fails with BS_EINVAL naming the unknown word.
 */
int bs_report_metrics_parse(const char *list, unsigned char want[BS_RM_COUNT],
			    struct bs_err *err);

struct bs_report_opts {
	size_t baseline; /* 0-based group index */
	/* Each group's baseline (0-based), or NULL: every group's is
	 * baseline. A group whose baseline is itself is a baseline; a page
	 * may have several (factor comparisons, --by), each the baseline of
	 * its block. Holm's correction stays over the whole page. */
	const size_t *bases;
	/* Short labels, one per group (--label), or NULL: automatic (see
	 * bs_report_build). */
	const char *const *labels;
	int list_runs;   /* keep what the HTML run list shows */
	size_t list_max; /* the HTML run list names at most this many runs a
			    group, then says how many more (0: every run) */
	enum bs_report_units units;
	unsigned char want[BS_RM_COUNT]; /* all zero: every metric */
	const char *title;               /* NULL: a title made of the labels */
	/* The parameter a factor comparison sweeps (--by threads: its key),
	 * or NULL: its levels are compared as scaling (BS_V_SCALING), the
	 * one parameter their identities may differ in (report/ident.c). */
	const char *sweep;
	/* With noise_set, a change smaller than noise_pct percent is within
	 * noise (--noise); else BS_STAT_NOISE_PCT is the threshold. */
	double noise_pct;
	int noise_set;
	/* The command has no --by (bstore trend): a mixed group's note
	 * says to give each value a group of its own instead. */
	int no_by;
	/* --cdf: the HTML page also draws each fio run's completion
	 * latency CDF from its json+ bins (report/dist.c). */
	int cdf;
};

/*
 * Where the runs come from. each() calls fn for every run of group g
 * (0-based), in the same order every time; it returns fn's negative
 * result to stop, or its own error.
 */
typedef int (*bs_report_run_fn)(const struct bs_run *r, void *ctx);
struct bs_report_source {
	int (*each)(void *src_ctx, size_t group, bs_report_run_fn fn,
		    void *fn_ctx, struct bs_err *err);
	void *ctx;
};

/* One group x one metric. */
struct bs_report_cell {
	int64_t ok, too_fast, not_run; /* runs by status */
	enum bs_status status; /* OK if any run has a number, else TOO_FAST
				  if any was too fast, else NOT_RUN */
	/* What its runs without a number say (core/result.h,
	 * bs_absent_word: "not run", "not reported", ...), the same word
	 * show prints; "no number" when its runs' words differ, NULL when
	 * every run had one. */
	const char *absent;
	unsigned absent_mask;      /* bit per enum bs_absent of those runs */
	double mean, sd, min, max; /* over the ok runs (sd: NAN if ok < 2) */
	double median;             /* over the ok runs */
	/* Against the baseline; NAN when either side has no number. */
	double diff, ratio, pct;
	int better; /* +1 better than the baseline, -1 worse, 0 neither */
	int best;   /* the best value of this metric over the groups */
	/* Statistics (report/stats.h): the t interval of the mean (mean +-
	 * ci; NAN under 2 runs), and against the baseline the ratio's
	 * interval, Welch's p-value corrected by Holm's method over the page
	 * (NAN when a side has under 3 runs) and the verdict. */
	double ci, ratio_lo, ratio_hi, p;
	enum bs_verdict verdict;
	/* The change lies within the precision its sources printed (dialect
	 * steps, core/dialect.h): no change (BS_V_NOISE). */
	int in_print;
	/* The step the group's values were printed in (the finest its
	 * numbers show: core/dialect.h, bs_dialect_step). */
	double step;
	int shade; /* 0 (worst) .. 10 (best), -1 unshaded */
};

/* Distinct machines, versions, tag and parameter values a group lists. */
#define BS_REPORT_LIST 4

/*
 * A parameter (a row of the parameter table) over a group's runs: one
 * value, several, or unknown. Integer kinds use value/lo/hi, reals
 * rvalue/rlo/rhi, text text (the first known value).
 */
struct bs_report_pval {
	int64_t i; /* integer kinds */
	double r;  /* reals */
	char *t;   /* text */
	int64_t n; /* runs with this value */
};
struct bs_report_param {
	int64_t value;  /* BS_NONE when unknown or mixed */
	int mixed;      /* runs disagree */
	int64_t lo, hi; /* range of the known values when mixed */
	double rvalue, rlo, rhi;
	char *text;
	/* The distinct known values of the group's runs of the parameter's
	 * family, in the order runs first had them, with their counts (at
	 * most BS_REPORT_LIST; runs with further values in vother). */
	struct bs_report_pval vals[BS_REPORT_LIST];
	size_t nvals;
	int64_t vother;
};

/*
 * A group against its baseline at a glance (report/summary.c): per
 * catalogue category the geometric mean of the rates' factors, each
 * factor oriented so that above 1 is better (group / baseline where
 * higher is better, baseline / group where lower is), with a t interval
 * over the category's metrics (NAN with fewer than 2); the cells'
 * verdicts counted; the metric that changed most; and one sentence.
 * Only the rates (BS_MK_RATE) of metrics with a better side count.
 */
struct bs_report_summary {
	double gm[BS_CAT_COUNT], lo[BS_CAT_COUNT], hi[BS_CAT_COUNT];
	int n[BS_CAT_COUNT]; /* metrics behind gm; 0: no figure */
	/* Each category's state (report/summary.c): BS_V_BETTER or
	 * BS_V_WORSE when its significant cells all go that way and so
	 * does gm, BS_V_MIXED when they go both ways, BS_V_FEW when none is
	 * significant and some are untested, BS_V_NOTSIG when some are past
	 * the noise threshold but not significant, BS_V_NOISE when every
	 * one is within noise, or the verdict of its cells when none is
	 * compared (different tests, can't tell, related, a mixed group:
	 * then n is 0, no figure). */
	enum bs_verdict state[BS_CAT_COUNT];
	int sign[BS_CAT_COUNT]; /* the category's better side: +1, -1 */
	/* The untested cell with the fewest timed runs a side (report
	 * metric, -1 none), and the smallest p of the cells not
	 * significant, per category. */
	int few_m[BS_CAT_COUNT];
	double p_min[BS_CAT_COUNT];
	int verdicts[BS_V_COUNT]; /* cells by verdict, rates only */
	int top;                  /* report metric that changed most, or -1 */
	double top_factor;
	char *sentence; /* NULL for the baseline */
};

/*
 * One tag key over a group's runs: its distinct values in the order runs
 * first had them, with how many runs had each; at most BS_REPORT_LIST
 * values are kept, runs with any further value are counted in other.
 * seen counts the runs with the key at all.
 */
struct bs_report_tagmix {
	char *key;
	char *val[BS_REPORT_LIST];
	int64_t cnt[BS_REPORT_LIST];
	size_t nval;
	int64_t other, seen;
};
/* Tag keys tracked per group; further keys are not. */
#define BS_REPORT_MIX_KEYS 32

/* A test identity of a group's runs, and how many runs have it. */
struct bs_rident {
	struct bs_ident id;
	int64_t n;
	/* The catalogue rows its runs have a number or a "+++++" of: only
	 * they say what a group's runs of a row measured. */
	uint64_t has[BS_M_MAX / 64];
};
#define BS_REPORT_IDENTS 8

/*
 * How a group's runs of one metric relate to its baseline's
 * (report/ident.c): the same test; different tests (a deciding parameter
 * differs); can't tell (one is known on one side only); related (other
 * implementations or tools the family row does not declare alike); a
 * mixed group (its own runs ran different tests); or the levels of the
 * swept factor (scaling).
 */
enum bs_rrel {
	BS_REL_SAME,
	BS_REL_APART,
	BS_REL_CANT,
	BS_REL_RELATED,
	BS_REL_MIXED,
	BS_REL_SCALING,
};

struct bs_report_group {
	char *label;     /* short: opts.labels[], or automatic */
	char *selector;  /* the selector as given */
	int label_whole; /* the label says all the selector says */
	size_t base;     /* 0-based index of its baseline group */
	int64_t nruns;
	int64_t *ids; /* run ids in source order */
	/* Distinct values, sorted, at most BS_REPORT_LIST shown. */
	char **machines;
	size_t nmachines;
	int more_machines; /* there were more than BS_REPORT_LIST */
	char **versions;   /* "bonnie++ 1.03" */
	size_t nversions;
	int more_versions;
	struct bs_tag *tags; /* the tags common to every run (copies) */
	size_t ntags;
	/* Every tag key of its runs (at most BS_REPORT_MIX_KEYS): a group
	 * whose runs differ in one gets a note ("[1] mixes cache=on (2
	 * runs) and cache=off (2 runs)"), as for tool versions and the
	 * parameters of bs_param_rules. */
	struct bs_report_tagmix *mix;
	size_t nmix;
	unsigned families;            /* bit per enum bs_family of its runs */
	int64_t fam_runs[BS_FAM_MAX]; /* its runs of each family */
	struct bs_report_param param[BS_P_MAX]; /* by parameter table row */
	/* The test identities of its runs (core/identity.h), each once
	 * with its count, at most BS_REPORT_IDENTS; runs of further ones
	 * in ident_other. */
	struct bs_rident *idents;
	size_t nidents;
	int64_t ident_other;
	/* Against its baseline, per catalogue row: how the two groups' runs
	 * relate (enum bs_rrel, report/ident.c), with the parameter row
	 * behind it (-1 none); the cells of a row that is not BS_REL_SAME
	 * get no verdict and the summary no ratio of it. rel_why says it
	 * for people: "different tests (block size 4 KiB against 8 KiB)". */
	unsigned char rel[BS_M_MAX];
	short rel_param[BS_M_MAX];
	unsigned char rel_side[BS_M_MAX]; /* 1: the baseline's side says it */
	char *rel_why;
	/* Catalogue rows whose cells hold another family's numbers (dd's
	 * write rate in bonnie++'s Block write: core/family.h's related). */
	unsigned char borrowed[BS_M_MAX];
	struct bs_report_cell cell[BS_RM_COUNT];
	struct bs_report_summary sum; /* against the baseline */
	int64_t curves_seen; /* curves its runs have, of metrics shown */
	int64_t curves_kept; /* of those, kept in rep->curves */
};

#define BS_REPORT_KEEP_MAX (64u << 20)

/* The nines a percentile curve is drawn at: 50, 90, 99, 99.9, 99.99. */
#define BS_REPORT_NINES 5

/* One direction of one fio run with a clat histogram: its completion
 * latency (us) at each of the nines, by fio's rule (core/dist.h). */
struct bs_report_dist {
	size_t group; /* 0-based */
	int dir;      /* 0 read, 1 write, 2 trim */
	int64_t id;
	double p_us[BS_REPORT_NINES];
	/* With opts.cdf: a copy of the clat bins (x ns, y I/Os). */
	struct bs_point *bins;
	size_t nbins;
};

/*
 * Curves. A metric with BS_MF_SERIES (zcav's read_mib_s, write_mib_s)
 * carries, per run, its curve: the rate (y, MiB/s; NAN for a block too
 * fast to time) by position on the disk (x, GiB; the series' axis
 * "offset_gib"). The report keeps the curves of the runs it reads, of
 * the metrics it shows, up to BS_REPORT_CURVES_MAX curves and
 * BS_REPORT_POINTS_MAX points in all, so that memory and the page stay
 * bounded. Past that, groups share the room: a curve of a group that
 * keeps fewer curves displaces the last curve of the group that keeps
 * the most, as long as that group still keeps more afterwards; each
 * group's first runs are the ones kept. rep->curves_note then says how
 * many were left out.
 */
#define BS_REPORT_CURVES_MAX 32
#define BS_REPORT_POINTS_MAX 100000
#define BS_REPORT_CURVE_AXIS "offset_gib"

struct bs_report_curve {
	int test;     /* catalogue row of the metric */
	size_t group; /* 0-based */
	int64_t id;   /* the run */
	char *machine;
	struct bs_point *pt; /* the run's points, in its order */
	size_t n;
	size_t ok; /* points with a number; n - ok too fast */
	enum bs_zcav_medium on_device; /* a disk, a file or unknown */
	/* Over the points with a number (NAN when there are none): the
	 * first and last of them, the least, the mean and the most. */
	double first, last, min, mean, max;
};

struct bs_report {
	struct bs_report_opts opts;
	char *title;
	struct bs_report_group *groups;
	size_t ngroups;
	int64_t nruns;  /* over all groups (a run in two groups counts 2) */
	int multi_base; /* groups have different baselines */
	unsigned char shown[BS_RM_COUNT]; /* wanted, and run by some group */
	/* The tests of the page: the p-values Holm's correction ran over
	 * (report/report.c, claimed()). */
	int ntests;
	/* opts.sweep's parameter row in each family, -1 where none, and
	 * its key (a copy; NULL when the report is no sweep). */
	int sweep_row[BS_FAM_MAX];
	char *sweep;
	unsigned show; /* --units as BS_SHOW_* flags (core/metric.h) */
	/* Why numbers may not compare, the ones that take verdicts away
	 * first (note_rank: enum bs_rnote_rank, report/internal.h). */
	char **notes;
	unsigned char *note_rank;
	size_t nnotes;
	/* Best and worst number of each metric over all runs (NAN: none). */
	double run_best[BS_RM_COUNT], run_worst[BS_RM_COUNT];
	/* The runs for the HTML list, compact (opts.list_runs). */
	struct bs_rruns *runs;
	/* Curves kept, by group, each group's in the order of its runs. */
	struct bs_report_curve *curves;
	size_t ncurves, curves_cap, npoints;
	char *curves_note; /* what was left out, or NULL */
	/* fio runs' clat percentiles at the nines, from their json+
	 * histograms (report/dist.c). */
	struct bs_report_dist *dists;
	size_t ndists, dists_cap;
};

/*
 * Builds the model for ngroups groups chosen by selectors[] from src.
 * opts->baseline (and every opts->bases[], each a group that is its own
 * baseline) must be < ngroups. A group
 * without runs fails with BS_ENOTFOUND ("selector 'raid=6' matches no
 * runs").
 *
 * A group's label is opts->labels[i] when given, else the terms of its
 * selector (as store/selector.h parses it) that not every group's
 * selector has, each written back by bs_sel_print() ("array=emc,raid=10"
 * and "array=emc,raid=5" are labelled "raid=10" and "raid=5"); the
 * selector itself when nothing is left, or when a selector does not
 * parse. The default title
 * is the common terms, then the labels: "array=emc: raid=10 vs raid=5".
 */
int bs_report_build(struct bs_report **out, const struct bs_report_opts *opts,
		    const char *const *selectors, size_t ngroups,
		    const struct bs_report_source *src, struct bs_err *err);
void bs_report_free(struct bs_report *rep);

/* The unit of a metric as shown: "KiB/s", "MiB/s", "seeks/s", "%", "us". */
const char *bs_report_unit(const struct bs_report *rep, int m);

/*
 * Loads the template of format fmt (report.txt, report.html, report.csv
 * or report.json): from dir when it has one, else the copy compiled in
 * from templates/. See report/tmpl/tmpl.h.
 */
struct bs_tmpl_set;
int bs_report_templates_load(struct bs_tmpl_set **out, const char *dir,
			     enum bs_report_format fmt, struct bs_err *err);

/*
 * Writes the report in format fmt to out. The HTML page lists every run
 * of every group: from what the report kept, else read again from src.
 * The same report, source and templates always give the same bytes.
 */
int bs_report_render(const struct bs_report *rep, const struct bs_tmpl_set *ts,
		     enum bs_report_format fmt,
		     const struct bs_report_source *src, FILE *out,
		     struct bs_err *err);

/* The noise threshold the report uses, in percent (opts.noise_pct or
 * BS_STAT_NOISE_PCT). */
double bs_report_noise(const struct bs_report *rep);

/*
 * One run's curve of catalogue row t (zcav's read_mib_s or write_mib_s),
 * drawn as the report draws its curves, for a page of that run alone
 * (bstore site's run page): fills d with the variables of the report's
 * CURVES section (templates/report.html: CAPTION, W, H, PX..., YTICK,
 * XTICK, X_TITLE, Y_TITLE, UNIT, and one LINE with D, COLOUR, DASH,
 * DRAWN, FIRST, LAST, MIN, MEAN, MAX, POINTS, TOO_FAST, RUN, MACHINE).
 * Returns 1 when r has such a curve, else 0 (d untouched).
 */
struct bs_tdict;
int bs_report_run_curve(const struct bs_run *r, int t, struct bs_tdict *d);

#endif
