/*
 * report/site_int.h - what the files of the static site (report/site*.c)
 * share; not part of its public face (report/site.h). Its bounds, the
 * run as the lists keep it, the site being written, and the functions
 * one file of the site calls in another, by file.
 */
#ifndef BS_REPORT_SITE_INT_H
#define BS_REPORT_SITE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/identity.h"
#include "core/metric.h"
#include "core/result.h"
#include "report/site.h"
#include "util/buf.h"
#include "util/intern.h"

struct bs_tdict;
struct bs_tmpl_set;

/* The index lists this many of the newest runs. */
#define NEWEST_RUNS 25
/* Rows of a page of a list (runs of a machine, tag value or tool; values
 * of a tag key): with the run pages' 4 KB or less a row, no page of the
 * site passes 1 MiB whatever the archive's size. */
#define PAGE_ROWS 500
/* Machines on the index (and on each of its later pages), tag keys and
 * tools on the index, values of a tag key named there. */
#define INDEX_ROWS 100
#define KEY_VALUES 12
/*
 * A run's tags bound what it adds to the site, whatever it holds: its
 * first PAGED_TAGS tags of at most PAGED_TAG_BYTES (key and value) each
 * have a page of their own and show in its rows of the lists; the run's
 * page lists its first RUN_PAGE_TAGS tags (values cut at PAGED_TAG_BYTES)
 * and counts the rest. docs/report.md says so.
 */
#define PAGED_TAGS 64
#define PAGED_TAG_BYTES 256
#define RUN_PAGE_TAGS 1000
/* Machines in each test's section of the index (its newest runs of the
 * test): the index stays small whatever the number of tests. */
#define TEST_MACHINES 12
/* Tests with a section on the index: those of the most machines. */
#define TEST_SECTIONS 20
/* A list's own page links its first and last pages this many each. */
#define PAGER_ENDS 5
/* A trend chart marks each run with a point up to this many runs. */
#define CHART_POINTS_MAX 300
/* A list page draws this many trend charts at most (a test, metric and
 * machine each: a tool's page of 200 machines would have thousands);
 * the rest are on the machines' own pages. */
#define CHARTS_MAX 48
/* The "more" column of the index names at most this many values. */
#define MORE_MAX 4
/* Room for the catalogue's main metrics (BS_MF_MAIN) and tail latencies
 * drawn over time (BS_MF_TREND: trend charts, no list column), and for
 * those of one family, which is all a run keeps. */
#define MAIN_MAX 24
#define MAIN_FAMILY_MAX 4

/* What the list pages need of one run. */
struct srun {
	int64_t id, measured_at;
	char sha8[9];
	enum bs_family family;
	const char *machine, *tool, *version; /* interned */
	size_t test;        /* its test identity: site.tests[test] */
	size_t str0, ntags; /* its tags: site.strs[str0 + 2i], [.. + 1] */
	size_t nunpaged;    /* its other tags (tag_paged()) */
	/* Its family's main results, by site.slot[k] of main metric k. */
	unsigned char status[MAIN_FAMILY_MAX]; /* enum bs_status */
	unsigned char absent[MAIN_FAMILY_MAX]; /* enum bs_absent: its word */
	double val[MAIN_FAMILY_MAX];
};

/* Kinds of list page; their order is the index's. */
enum gkind { G_MACHINE, G_TAG, G_TOOL };

/* A run's membership of a list: its machine, one of its tags, its tool. */
struct member {
	enum gkind kind;
	const char *a, *b; /* name; a tag's key and value */
	size_t run;        /* index into site.runs */
};

/* A test identity among the runs (core/identity.h). */
struct stest {
	const char *key; /* interned bs_ident_key */
	struct bs_ident id;
};

struct site {
	struct bs_tmpl_set *ts;
	struct bs_tdict *d;
	/* The words of the page's cells without a number (bit per enum
	 * bs_absent), for its footer: set by runs_table, said by emit. */
	unsigned absent;
	struct bs_buf page, path, text;
	bs_site_put_fn put;
	void *ctx;
	struct bs_err *err;
	struct srun *runs;
	size_t nruns, caprun;
	struct member *mem;
	size_t nmem, capmem;
	const char **strs; /* tag keys and values of each run, interned */
	size_t nstrs, capstrs;
	struct bs_intern pool; /* every string kept, once (util/intern.h) */
	int main[MAIN_MAX];    /* catalogue rows of the main metrics */
	int slot[MAIN_MAX];    /* of main[k] among its family's main metrics */
	int nmain;
	int mainidx[BS_M_MAX]; /* catalogue row -> index in main, or -1 */
	struct stest *tests;
	size_t ntests, captests;
	size_t *thash, capth; /* key -> index + 1 in tests (test_of) */
	const struct bs_changes *changes; /* NULL: none */
	size_t *byid;                     /* run indices by id (run_of) */
};

/*
 * The pager of a list in npages pages, in d: on page k (1-based) its
 * neighbours and the list's own page (up, when named); on the own page
 * (k 0) its first and last pages. Links are from the page itself.
 */
struct pager {
	struct site *s;
	enum gkind kind;
	const char *a, *b;
	int root_index; /* the index's pages: index.html, index-pK.html */
};

/* The members of one tag value: s->mem[first..first + n - 1]. */
struct vrange {
	size_t first, n;
};

/* The site being sorted: qsort has no context argument
 * (report/site_lists.c). */
extern const struct site *bs_site_sort;

/* site.c */
void bs_site_group_path(struct bs_buf *b, enum gkind kind, const char *a,
			const char *bv);
void bs_site_run_path(struct bs_buf *b, int64_t id, const char *sha256);
const char *bs_site_date_text(int64_t t, char *out, size_t outsz);
void bs_site_set_group_href(struct site *s, struct bs_tdict *d, const char *key,
			    const char *prefix, enum gkind kind, const char *a,
			    const char *b);
void bs_site_page_head(struct bs_tdict *d, int depth, const char *title,
		       const char *crumb);
void bs_site_legend(struct bs_tdict *d, int bonnie);
void bs_site_lede(struct bs_tdict *d, const char *text);
int bs_site_emit(struct site *s, const char *path);
/* site_run.c */
int bs_site_run_page(struct site *s, const struct bs_run *r);
/* site_read.c */
int bs_site_tag_paged(const struct bs_tag *t, size_t *npaged);
void bs_site_name_tests(const struct site *s, const size_t *t, size_t n,
			char **names);
int bs_site_on_run(const struct bs_run *r, void *vctx);
/* site_lists.c */
int bs_site_newer(const struct srun *x, const struct srun *y);
int bs_site_cmp_member(const void *pa, const void *pb);
int bs_site_same_group(const struct member *a, const struct member *b);
struct bs_tdict *bs_site_runs_table(struct site *s, struct bs_tdict *dd,
				    const size_t *runs, size_t n,
				    const char *title, const char *prefix,
				    int fold, const struct member *own);
void bs_site_span_text(const struct site *s, const size_t *runs, size_t n,
		       struct bs_buf *b);
int bs_site_cmp_id_desc(const void *pa, const void *pb);
void bs_site_pager_href(const struct pager *p, struct bs_tdict *d,
			const char *key, size_t k);
void bs_site_pager(const struct pager *p, struct bs_tdict *d, size_t k,
		   size_t npages, const char *text, const char *up);
struct bs_tdict *bs_site_values_table(struct bs_tdict *d, const char *title,
				      const char *col, const char *more);
int bs_site_lists(struct site *s, struct bs_tdict *tags, struct bs_tdict *tools,
		  size_t *latest, size_t *nlatest);
/* site_trend.c */
void bs_site_trend(struct site *s, struct bs_tdict *list, const size_t *runs,
		   size_t n);
/* site_index.c */
int bs_site_index_page(struct site *s, const struct bs_site_opts *o);
/* site_changes.c */
void bs_site_latest_changes(struct site *s, struct bs_tdict *idx);
int bs_site_changes_page(struct site *s);
int bs_site_changes_feed(struct site *s);

#endif
