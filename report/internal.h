/*
 * report/internal.h - what the report module's files share; not part of
 * its public face (report/report.h). Its rooms (tests/cli/rooms.sh checks
 * that every file of report/ is named here):
 *
 *   report.h   the public face: comparison reports (bstore report, compare)
 *   internal.h this header
 *   report.c   the comparison model: groups read from the source, cells
 *              against the baseline, shading
 *   stats.h, stats.c
 *              intervals, Welch's test, Holm's correction, a cell's verdict
 *   summary.c  each group against its baseline at a glance (geometric means)
 *   fmt.c      what the report needs of the catalogue, number formatting
 *   metric_list.c
 *              a --metrics list into report metrics
 *   labels.c   the groups' labels and the report's title
 *   notes.c    the notes above the tables: why groups may not compare
 *   ident.c    test identities of each group against its baseline
 *   params.c   a group's parameters and their summary
 *   curves.c   the curves a report keeps (zcav's throughput by position)
 *   factor.h, factor.c
 *              factor comparisons (--by KEY --within KEY2): runs into groups
 *   runlist.c  the HTML list of runs, kept compactly (struct bs_rruns)
 *   pages.c    a page's template with the templates every HTML page includes
 *   render.c   model -> template dictionaries -> output: the entry point
 *   render_html.c
 *              the HTML page's tables and list of runs
 *   render_text.c
 *              the text report, laid out as bonnie++ prints its tables
 *   render_curves.c
 *              the curves as template dictionaries, for every format
 *   render_sweep.c
 *              a sweep's scaling view on the HTML page
 *   chart.h, chart.c
 *              what every SVG chart shares: styles, axes, frame, paths
 *   trend.h    trends (bstore trend): metrics over the time they were measured
 *   trend.c    the trend model: each group's runs read once, with dates
 *   render_trend.c
 *              the trend model -> template dictionaries -> output
 *   changept.h, changept.c
 *              change points of one series (binary segmentation)
 *   changes.h, changes.c
 *              change points of every series (bstore changes), the check of
 *              the newest runs (bstore check)
 *   site.h     the static web site of stored runs (bstore site)
 *   site_int.h what the site's files share: bounds, the kept runs, the
 *              site being written
 *   site.c     the site's entry point, file names and paths, what every
 *              page has, the writer (each page, the style sheet)
 *   site_read.c
 *              the runs read once: each run's page, what the lists keep,
 *              interned strings, test identities
 *   site_run.c the page of one run
 *   site_lists.c
 *              the pages of machines, tag values and tools: runs tables,
 *              pagers, the index's tables of them
 *   site_trend.c
 *              a list page's trend charts
 *   site_index.c
 *              the index: newest runs of each machine and test
 *   site_changes.c
 *              the Changes page, its Atom feed, the index's newest changes
 *   tmpl/      the C face over Google ctemplate (report/tmpl/tmpl.h)
 */
#ifndef BS_REPORT_INTERNAL_H
#define BS_REPORT_INTERNAL_H

#include <stddef.h>
#include <math.h>
#include <stdint.h>

#include "report/report.h"
#include "util/buf.h"
#include "util/intern.h"

/*
 * A section of the report: consecutive catalogue rows of one family that
 * share a section name ("Sequential Output": putc, put_block, rewrite).
 * Returns the row after the section that starts at row t.
 */
int bs_rsection_end(int t);

/* +1 when a higher number of report metric m is better, -1 when lower
 * (CPU, latency, and the catalogue's lower-is-better metrics), 0 when
 * neither is (counts, durations). */
int bs_rm_better(int m);
/* The kind of report metric m as templates name it: "rate", "cpu",
 * "latency". */
const char *bs_rm_kind(int m);
/* Report metric m for people: "Block write", "Block write CPU", "Block
 * write latency". */
const char *bs_rm_label(int m, char *out, size_t outsz);

/*
 * A number of metric m for people, in the report's unit, printed by the
 * one rule of core/bonnie_text.h: a stored value as its exact text, means
 * and differences at the same resolution; latencies as bonnie++ prints
 * them ("801ms").
 */
const char *bs_rfmt(const struct bs_report *rep, int m, double v, char *out,
		    size_t outsz);
/* The number at the start of num with thousands separators in its whole
 * part, for people: "159912" -> "159,912", "-12873.5us" -> "-12,873.5us". */
const char *bs_rfmt_thousands(const char *num, char *out, size_t outsz);
/* bs_rfmt with thousands separators (HTML pages). */
const char *bs_rfmt_h(const struct bs_report *rep, int m, double v, char *out,
		      size_t outsz);
/* A ratio, "3.49"; a change in percent, "+249.2%". */
const char *bs_rfmt_ratio(double v, char *out, size_t outsz);
const char *bs_rfmt_pct(double v, char *out, size_t outsz);

/*
 * A cell's verdict as every format shows it (one colour system): the
 * class "better", "worse" (significant), "noise" (within noise), "few-up"
 * or "few-down" (past the noise threshold the better or the worse way,
 * too few runs to test), or "" (nothing compared); and the text report's
 * mark after the change: '^', 'v', '~', '?' or ' '.
 */
const char *bs_rverdict_class(const struct bs_report_cell *c);
char bs_rverdict_mark(const struct bs_report_cell *c);

/* Does group i start a block of its own baseline (a page with several
 * baselines, --by --within), other than the first? */
int bs_rblock_start(const struct bs_report *rep, size_t i);

/* Fills every group's summary (struct bs_report_summary); after the
 * comparison. */
/* Appends a change the one way every format writes it (docs/report.md):
 * f = group / baseline as "1.17x higher", "1.17x lower" (f 0.86),
 * "unchanged (1.00x)", "no ratio". */
void bs_rsay_ratio(struct bs_buf *b, double f);
/* Appends the words of category cat's state in group i's summary
 * (bs_verdicts[v].words), naming the untested cell and its timed runs
 * ("untested (Block write: 1 timed run in [2])") or the p of what is
 * not significant ("not significant (p = 0.09 after 12 tests)"). */
void bs_rsay_state(struct bs_buf *b, const struct bs_report *rep, size_t i,
		   int cat);
/* Appends the verdict of group i's cell of report metric m in words,
 * with its numbers, as every format explains a cell: "not significant:
 * p = 0.09 after 12 tests (Welch's t-test, Holm-corrected); ratio 0.9
 * to 1.3 (95%)", "different tests (block size 4 KiB against 8 KiB): not
 * compared". */
void bs_rsay_cell(const struct bs_report *rep, size_t i, int m,
		  struct bs_buf *b);
/* Appends why catalogue row t of group i is not compared with its
 * baseline (its relation, report/ident.c): "different tests (block
 * size 4 KiB against 8 KiB)"; nothing for the same test. */
void bs_rrel_say(const struct bs_report *rep, size_t i, int t,
		 struct bs_buf *b);
void bs_report_summarise(struct bs_report *rep);

/* A number for scripts (CSV, JSON): rounded to 6 significant digits in
 * plain notation ("1195.72", "0.000123", "12647"), or empty when NAN. */
const char *bs_rfmt_raw(double v, char *out, size_t outsz);
/* The value of m in the report's unit (KiB/s -> MiB/s when asked). */
double bs_rscale(const struct bs_report *rep, int m, double v);

/* Parameter k (a row of the parameter table) of a group for people:
 * "8G", "4G-8G (mixed)", "" unknown. */
const char *bs_rfmt_param(const struct bs_report_group *g, int k, char *out,
			  size_t outsz);
/* A group's values of parameter k with their counts, appended: "rndrw (2
 * runs) and seqrd (1 run)", or the one value: "rndrw". */
void bs_rparam_values(const struct bs_report_group *g, int k, struct bs_buf *b);
/* The parameters that decide the numbers of the group's families
 * (BS_PF_DECIDES), appended for people: "test mode rndrw, block size
 * 16384 bytes, threads 1"; bonnie++'s -n spec as it spells it. */
void bs_rparams_deciding(const struct bs_report_group *g, struct bs_buf *b);
/* The -n spec of a group: "16", "16:100000:16/64", "mixed", "" unknown. */
const char *bs_rfmt_files(const struct bs_report_group *g, char *out,
			  size_t outsz);

/* Shade 0..10 of v given the best number (better: +1 higher is better,
 * -1 lower), -1 when not shaded. */
int bs_rshade(int better, double v, double best);

/*
 * The rates the HTML list of runs shows: bonnie++'s twelve tests, and the
 * main metrics (BS_MF_MAIN) of the other tools. A run keeps those of its
 * tool in slots 0, 1, ...: bs_rlist_slot(t) is catalogue row t's slot
 * among its family's, or -1 when the list does not show it.
 */
int bs_rlist_slot(int t);

/* One run as the HTML list of runs shows it: its rates. */
struct bs_rrow {
	int64_t id;
	int64_t size_mib;
	uint32_t group;
	uint32_t machine, version; /* strings in the list's pool */
	unsigned char family;      /* enum bs_family */
	/* by slot (bs_rlist_slot), the rates the list shows */
	unsigned char status[BS_M_BONNIE]; /* enum bs_status of each */
	unsigned char absent[BS_M_BONNIE]; /* enum bs_absent: its word */
	double rate[BS_M_BONNIE];          /* NAN: no number */
};

/* The kept runs, and their machine and version strings, each once. */
struct bs_rruns {
	struct bs_rrow *row;
	size_t n, cap;
	int dropped; /* over BS_REPORT_KEEP_MAX: read the runs again */
	struct bs_intern pool; /* machine and version strings, each once */
};

/*
 * A legend's words for results without a number (report/render.c): an
 * ABSENT section in d with a WORD (TEXT) for each bit of mask, bit k
 * bs_absent_words[k] and bit BS_AB_COUNT "no data" (a latency); nothing
 * for mask 0.
 */
#define BS_RABSENT_NO_DATA (1u << BS_AB_COUNT)
void bs_rabsent_legend(struct bs_tdict *d, unsigned mask);

/* Adds run r of group to the kept list (report/runlist.c), or drops the
 * list past BS_REPORT_KEEP_MAX. */
void bs_rruns_keep(struct bs_rruns *rr, const struct bs_run *r, uint32_t group);

/* The number run r has for metric m (NAN if none) and its status.
 * Inline: it is asked for every metric of every run, from several files. */
static inline enum bs_status bs_rmetric(const struct bs_run *r, int m,
					double *v)
{
	const struct bs_value *x = &r->res[BS_RM_TEST(m)];

	*v = NAN;
	if (BS_RM_KIND(m) != BS_MK_RATE &&
	    !(bs_metrics[BS_RM_TEST(m)].flags & BS_MF_CPU_LAT))
		return BS_ST_NOT_RUN;
	switch (BS_RM_KIND(m)) {
	case BS_MK_RATE:
		if (x->status == BS_ST_OK && !isnan(x->value)) {
			*v = x->value;
			return BS_ST_OK;
		}
		return x->status == BS_ST_TOO_FAST ? BS_ST_TOO_FAST
						   : BS_ST_NOT_RUN;
	case BS_MK_CPU:
		if (x->status == BS_ST_OK && !isnan(x->cpu_pct)) {
			*v = x->cpu_pct;
			return BS_ST_OK;
		}
		return x->status == BS_ST_TOO_FAST ? BS_ST_TOO_FAST
						   : BS_ST_NOT_RUN;
	default:
		/* bonnie++ prints a latency even for a "+++++" test. */
		if (!isnan(x->lat_us)) {
			*v = x->lat_us;
			return BS_ST_OK;
		}
		return BS_ST_NOT_RUN;
	}
}
/* Fills row from r; strings go into the pool of rr. */
void bs_rrow_fill(struct bs_rruns *rr, const struct bs_run *r, uint32_t group,
		  struct bs_rrow *row);
void bs_rruns_free(struct bs_rruns *rr);

/*
 * Curves (curves.c). bs_rcurves_add keeps the curves of run r, read for
 * group g, that the report shows (want_any: opts.want chooses the
 * metrics), within the bounds of report/report.h; bs_rcurves_finish,
 * once every group is read, writes rep->curves_note when some were left
 * out; bs_rcurves_free frees them.
 */
void bs_rcurves_add(struct bs_report *rep, size_t g, const struct bs_run *r,
		    int want_any);
void bs_rcurves_finish(struct bs_report *rep);
/* Sets c's ok, first, last, min, mean and max from its points. */
void bs_rcurve_summarise(struct bs_report_curve *c);
void bs_rcurves_free(struct bs_report *rep);

/*
 * A group's parameters (report/params.c). bs_rparams_add adds run r's
 * parameters to g's summary of them (first: r is g's first run); an
 * unknown value stays unknown. bs_rpval_text writes value x of
 * parameter k for people, with its unit: "rndrw", "8G".
 */
void bs_rparams_add(struct bs_report_group *g, const struct bs_run *r,
		    int first);
const char *bs_rpval_text(int k, const struct bs_report_pval *x, char *out,
			  size_t outsz);

/* Does group g have a number or a "+++++" for any test in [t0, t1]? */
int bs_rhas_tests(const struct bs_report_group *g, int t0, int t1);
/* Does group g have a number or a "+++++" for any metric rule pr is
 * about? */
int bs_rhas_rule(const struct bs_report_group *g,
		 const struct bs_param_rule *pr);

/*
 * Test identities in a report (report/ident.c). bs_rident_add counts run
 * r's identity in g; bs_rident_mark sets each group's rel, rel_param and
 * rel_why against its baseline (after the cells, before the comparison);
 * bs_rident_notes writes the notes of what takes verdicts away;
 * bs_rident_release frees g's.
 */
void bs_rident_add(struct bs_report_group *g, const struct bs_run *r);
void bs_rident_mark(struct bs_report *rep);
void bs_rident_notes(struct bs_report *rep);
void bs_rident_release(struct bs_report_group *g);

/* The verdict that a relation other than BS_REL_SAME gives its cells. */
enum bs_verdict bs_rrel_verdict(enum bs_rrel rel);

/* Notes by what they change, in the order a page shows them. */
enum bs_rnote_rank {
	BS_NOTE_VERDICT, /* takes verdicts away (different tests, ...) */
	BS_NOTE_RELATED, /* other tools' numbers in a row */
	BS_NOTE_PARAM,   /* a parameter that differs without deciding */
	BS_NOTE_MIX,     /* a group's runs differ in tags or versions */
};
/* Appends b's text to rep's notes at rank, emptying b (report/notes.c);
 * the notes are kept in rank order, each rank in the order added. */
void bs_rnote_add(struct bs_report *rep, enum bs_rnote_rank rank,
		  struct bs_buf *b);
/* Writes rep's notes (report/notes.c); after the comparison. */
void bs_rnotes(struct bs_report *rep);

/* The groups' labels and selectors, and rep's title (report/labels.c),
 * as bs_report_build says. */
void bs_rlabels_make(struct bs_report *rep, const struct bs_report_opts *opts,
		     const char *const *sel);

/*
 * Loads page (an entry of a table of templates/, e.g. report.html) from
 * dir when it has it, else the copy compiled in, as bs_tmpl_set_load()
 * does; an HTML page or a style sheet with the templates it may include
 * (report/pages.c).
 */
struct bs_tmpl_set;
struct bs_embedded;
int bs_rtemplates_load(struct bs_tmpl_set **out, const struct bs_embedded *page,
		       const char *dir, struct bs_err *err);

/* Display width of s: UTF-8 code points. */
size_t bs_rwidth(const char *s);

/*
 * Rendering. render.c fills the dictionary of the model, which every
 * format gets, and calls these to add what one format needs besides; all
 * of them only read rep. Errors while filling are kept in the dictionary
 * (report/tmpl/tmpl.h) and come back from the next expansion.
 */
struct bs_tdict;
struct bs_tmpl_set;

/*
 * The HTML page's part of PART_HEAD (render_html.c): a SECTION row, with
 * its table and chart, per catalogue section that shows a metric, and
 * RUN_COL, the head of the list of runs.
 */
void bs_rhtml_fill(const struct bs_report *rep, struct bs_tdict *d);
/*
 * The HTML page's list of runs (render_html.c): expands PART_RUNS of
 * report.html from ts onto out, once per batch of RUN rows, from the runs
 * rep kept, or when it kept none (rep->runs NULL or dropped), from every
 * group read again through src. Call it after PART_HEAD is written and
 * before PART_TAIL. Returns 0, or <0 with err filled (a failed source, a
 * failed expansion or write).
 */
int bs_rhtml_runs(const struct bs_report *rep, const struct bs_tmpl_set *ts,
		  const struct bs_report_source *src, FILE *out,
		  struct bs_err *err);
/*
 * The curves (render_curves.c), for every format: section HAS_CURVES,
 * CURVES_NOTE > TEXT and J_CURVES_NOTE, and a CURVE_METRIC row per metric
 * with curves (KEY, LABEL, UNIT, AXIS, FAMILY; CURVE rows with RUN,
 * GROUP, GROUP_LABEL, MACHINE, POINTS, TOO_FAST and FIRST, LAST, MIN,
 * MEAN, MAX as text, R_ and J_; with points, their POINT rows: X, Y, S,
 * J_Y, J_S). Nothing when the report keeps no curve.
 */
void bs_rcurves_fill(const struct bs_report *rep, struct bs_tdict *d,
		     int points);
/*
 * The HTML chart of the curves of catalogue row t, a CURVES row of the
 * section sec (CHART_NOTE, what was left out, goes into the first chart
 * of the page). Returns 1 when t has curves to draw, else 0.
 */
int bs_rcurves_html(const struct bs_report *rep, int t, int first,
		    struct bs_tdict *sec);
/*
 * A sweep's scaling view (render_sweep.c): when rep is a sweep, a SWEEP
 * section of d (KEY) with a SCHART per main rate and p99 latency
 * (CAPTION, NAME, the frame's and axes' variables, XTICK per level, an
 * SLINE per block with D, COLOUR, DASH and a PT per level with X, Y,
 * TIP; an SROW per group with LEVEL, VALUE, RATIO). Nothing otherwise.
 */
void bs_rsweep_html(const struct bs_report *rep, struct bs_tdict *d);
/*
 * Latency percentiles (dist.c): bs_rdist_add keeps the clat percentiles
 * of fio run r of group g (its <dir>_clat_hist series); bs_rdist_html
 * draws, per direction, a curve per group at the nines with its runs'
 * band, and its table (PCHARTS); bs_rdist_free frees them.
 */
void bs_rdist_add(struct bs_report *rep, size_t g, const struct bs_run *r);
void bs_rdist_html(const struct bs_report *rep, struct bs_tdict *d);
/* --cdf in the text and JSON reports: HAS_CDF, and a section CDF per
 * direction (DIR "read", "write", "trim"; CAPTION; the CDF's table:
 * CHEAD AT and AT_US, CROW GROUP, LABEL, RUN, IOS and CCELL V and J_V). */
void bs_rdist_cdf(const struct bs_report *rep, struct bs_tdict *d);
void bs_rdist_free(struct bs_report *rep);
/* A fio run's page (the site's): each of its histograms as a bar chart
 * on a log latency axis, with its I/Os and percentiles (HISTS). Returns
 * how many. */
int bs_rdist_run_html(const struct bs_run *r, struct bs_tdict *d);
/* A fio run's page: its iops and lat logs over the run in LOG_WINDOWS
 * windows of time (LOGS: an IOPS line, a latency heatmap, and a table
 * of each window's IOPS, I/Os and latency p50, p99 and max). Returns
 * how many directions. */
int bs_rdist_run_logs_html(const struct bs_run *r, struct bs_tdict *d);
/*
 * The HTML charts of one run's curves, drawn as bs_rcurves_html draws a
 * report's (the site's run page): a CURVES row of d per curve, through
 * bs_report_run_curve (the axis names a disk or a file as the run says).
 * Returns how many.
 */
int bs_rcurves_run_html(const struct bs_run *r, struct bs_tdict *d);
/*
 * The text report's WRAPPED_NOTE rows (rep's notes at 76 columns) and its
 * TABLE rows (render_text.c): bonnie++'s I/O and file tables, then their
 * latencies, then one table per other tool, each laid out line by line.
 */
void bs_rtext_fill(const struct bs_report *rep, struct bs_tdict *d);
/*
 * The text report's layout (render_text.c), which the trend's text
 * tables share: s padded with blanks to w columns (right: aligned to the
 * right); b as a LINE (TEXT) of table, its final blanks cut, then b
 * emptied; text wrapped into LINE rows of d of at most width columns,
 * "* " before the first and "  " before the others.
 */
void bs_rtext_pad(struct bs_buf *b, const char *s, size_t w, int right);
void bs_rtext_line(struct bs_tdict *table, struct bs_buf *b);
void bs_rtext_wrap(struct bs_tdict *d, const char *text, size_t width);

#endif
