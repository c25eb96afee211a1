/*
 * report/changes.h - the change points of every series of an archive
 * (bstore changes) and the check of its newest runs (bstore check).
 *
 * A series is one machine and one test (bs_changes_series_key), its runs
 * ordered by measured_at, then id; runs without a date take no part and
 * are counted. For each metric of the catalogue with a direction (higher
 * or lower is better), report/changept.h finds where the series' level
 * shifted; each change is explained by what differs between the last run
 * of the old level and the first of the new one (bs_changes_explain:
 * tool, version, every parameter, every tag and host.* fact).
 *
 * Check: in each series, the newest runs (those stored or measured since
 * opts.since; without it the newest run) are tested against the level
 * they follow (the runs since the last change point before them); a
 * change the worse way, significant and past the noise threshold, is a
 * regression; its p-value is multiplied by the number of series x
 * metrics checked (Bonferroni: one check's chance of any false alarm). docs/changes.md describes both in a user's words.
 */
#ifndef BS_REPORT_CHANGES_H
#define BS_REPORT_CHANGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/changept.h"
#include "report/report.h"
#include "util/buf.h"
#include "util/err.h"

struct bs_store;

/* One thing that differs between two runs: "host.kernel", its values
 * ("" when a run has none). */
struct bs_changes_why {
	char *key, *from, *to;
};

struct bs_changes_item {
	char *machine;  /* as stored (may be "") */
	char *identity; /* the series' test: "bonnie++ file_size_mib=8192,..." */
	char *tool;     /* the series' first run's tool */
	int metric;     /* catalogue row (core/metric.h) */
	int64_t run_id;  /* the first run of the new level */
	int64_t prev_id; /* the last run of the old level */
	int64_t measured_at, prev_at;
	struct bs_changept cp; /* indexes into the series' dated runs */
	int64_t series_runs;   /* the series' dated runs */
	int verdict;           /* +1 better, -1 worse */
	struct bs_changes_why *why;
	size_t nwhy;
	/* The least and greatest id of the runs of each level (0 before,
	 * 1 after): what bs_changes_level_selector names. */
	int64_t lo[2], hi[2];
};

struct bs_changes {
	struct bs_changes_item *item; /* newest first */
	size_t n;
	int64_t runs;    /* runs read */
	int64_t undated; /* of them, without a date: left out */
	int64_t series;  /* series (machine x test) with a dated run */
	int check;       /* built by check: items are the regressions */
	int64_t checked; /* check: series x metric with new runs tested */
	double noise_pct;
};

/* Where the runs come from: every run of group 0 of src, and one run by
 * id (with its tags) for the explanations. */
struct bs_changes_source {
	struct bs_report_source src;
	int (*get)(void *ctx, int64_t id, struct bs_run *r, struct bs_err *err);
	void *get_ctx;
};

struct bs_changes_opts {
	struct bs_changept_opts cp; /* bs_changept_opts_init, --noise */
	int check;                  /* bstore check */
	int64_t since;              /* check: BS_NONE, the newest run */
	/* check of every run without since: the archive whose cache keeps
	 * what each series gave (only runs added since are read), and what
	 * made it ("bstore 0.1.0": a cache of another is made again). */
	struct bs_store *cache;
	const char *cache_tag;
};

int bs_changes_build(struct bs_changes **out, const struct bs_changes_opts *o,
		     const struct bs_changes_source *src, struct bs_err *err);
void bs_changes_free(struct bs_changes *c);

/*
 * The series a run belongs to, appended to out: its machine, a 0x1f
 * byte, then its test identity's key (bs_ident_key, core/identity.h:
 * family, implementation and every deciding parameter normalised, "?"
 * for one the output did not carry), what bs_changes_item.identity
 * holds.
 */
void bs_changes_series_key(const struct bs_run *r, struct bs_buf *out);

/*
 * What differs between run a (before) and run b (after): the tool and
 * its version, every parameter of their family (core/param.h's table,
 * but those that differ by design, BS_PF_NOCOMPARE), and every tag
 * (host.* facts among them), in that order (tags by key). Calls fn for
 * each; returns how many.
 */
typedef void (*bs_changes_why_fn)(const char *key, const char *from,
				  const char *to, void *ctx);
size_t bs_changes_explain(const struct bs_run *a, const struct bs_run *b,
			  bs_changes_why_fn fn, void *ctx);

/*
 * The words of a change, one rule for every view (text, the trend's and
 * the site's charts, the site's Changes page and feed):
 *   headline: "Writes 39.5x lower from run 21 (2026-01-22), worse"
 *   why:      "host.kernel 6.1.0-18 -> 6.6.13; version 1.0 -> 1.1", or
 *             "nothing bstore knows of changed between runs 20 and 21"
 * Each appends to b.
 */
void bs_changes_headline(const struct bs_changes_item *it, struct bs_buf *b);
void bs_changes_why_text(const struct bs_changes_item *it, struct bs_buf *b);

/*
 * A selector of the runs of one level of a change (after 0: the level
 * before it, 1: the level after), appended to b:
 * "id=1-20,machine=vm,tool=sysbench" (the machine and tool escaped for
 * the selector language, docs/selectors.md). It names the level's span
 * of ids: when the machine ran other tests of the tool in between,
 * those runs are in it too (the report's notes then say the groups'
 * tests differ). `bstore report SEL0 SEL1` compares the two levels.
 */
void bs_changes_level_selector(const struct bs_changes_item *it, int after,
			       struct bs_buf *b);

/*
 * The next change of c at or after index from (c's order: newest first)
 * of one series and catalogue metric: its index, or c->n when there is
 * none. machine as stored, identity a bs_ident_key. A chart of the
 * series walks its changes so.
 */
size_t bs_changes_next(const struct bs_changes *c, size_t from,
		       const char *machine, const char *identity, int metric);

/*
 * The mark of a change on a chart (report/tmpl/tmpl.h): sets in d
 * RUN, PREV (run ids), DATE ("2026-01-22"), HEADLINE, WHY, TIP
 * (headline ": " why, the marker's hover text) and BETTER or WORSE
 * shown. The trend's and the site's charts both mark with it.
 */
struct bs_tdict;
void bs_changes_mark(const struct bs_changes_item *it, struct bs_tdict *d);

/* Writes c as text, HTML, CSV or JSON (one object a line) to out. */
int bs_changes_render(const struct bs_changes *c, enum bs_report_format fmt,
		      FILE *out, struct bs_err *err);

#endif
