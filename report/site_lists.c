/*
 * report/site_lists.c - the list pages of machines, tag values and
 * tools, their runs tables and pagers, and the index's tables of them.
 */
#include "report/site.h"
#include "core/supply.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "core/identity.h"
#include "core/metric.h"
#include "core/param.h"
#include "core/result.h"
#include "report/changes.h"
#include "report/chart.h"
#include "report/internal.h"
#include "report/site_int.h"
#include "report/tmpl/tmpl.h"
#include "report/trend.h"
#include "util/embed.h"
#include "util/hash.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/timefmt.h"
#include "util/banned.h"

/* ---- lists ------------------------------------------------------------ */

/* Newest first: by measured_at (unknown last), then id. */
int bs_site_newer(const struct srun *x, const struct srun *y)
{
	if (x->measured_at != y->measured_at) {
		if (x->measured_at == BS_NONE)
			return 1;
		if (y->measured_at == BS_NONE)
			return -1;
		return x->measured_at > y->measured_at ? -1 : 1;
	}
	return (x->id < y->id) - (x->id > y->id);
}

const struct site *bs_site_sort; /* qsort has no context argument */

int bs_site_cmp_member(const void *pa, const void *pb)
{
	const struct member *a = pa, *b = pb;
	int c;

	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	c = strcmp(a->a, b->a);
	if (c == 0 && a->b && b->b)
		c = strcmp(a->b, b->b);
	if (c == 0)
		c = bs_site_newer(&bs_site_sort->runs[a->run],
				  &bs_site_sort->runs[b->run]);
	return c;
}

/* Of one kind, and for tags of one key. */
static int same_kind_key(const struct member *a, const struct member *b)
{
	return a->kind == b->kind && strcmp(a->a, b->a) == 0;
}

int bs_site_same_group(const struct member *a, const struct member *b)
{
	return a->kind == b->kind && strcmp(a->a, b->a) == 0 &&
	       (a->kind != G_TAG || strcmp(a->b, b->b) == 0);
}

/* The main metrics of the families among the runs, in catalogue order:
 * want[k] for main[k]. */
static void main_columns(const struct site *s, const size_t *runs, size_t n,
			 unsigned char want[MAIN_MAX])
{
	unsigned fams = 0;
	size_t i;
	int k;

	for (i = 0; i < n; i++)
		fams |= 1u << s->runs[runs[i]].family;
	for (k = 0; k < s->nmain; k++)
		want[k] = (fams >> bs_metrics[s->main[k]].family) & 1 &&
			  (bs_metrics[s->main[k]].flags & BS_MF_MAIN);
}

/* A RUNS table of runs[0..n-1] (indices into s->runs), in d; returns it
 * for its pager. */
struct bs_tdict *bs_site_runs_table(struct site *s, struct bs_tdict *dd,
				    const size_t *runs, size_t n,
				    const char *title, const char *prefix,
				    int fold, const struct member *own)
{
	unsigned char want[MAIN_MAX];
	struct bs_tdict *d = bs_tdict_add(dd, "RUNS"), *row, *x;
	char num[64], date[48];
	size_t i, t, ntag;
	int k, mcol = !fold || n == 0, tcol = mcol;

	bs_tdict_set(d, "RUNS_TITLE", title);
	for (i = 0; i < n && s->runs[runs[i]].family != BS_FAM_BONNIE; i++)
		;
	bs_site_legend(dd, i < n);
	/* With fold, a machine or tool that every row has (a machine's
	 * page, a tool's) is said once above the table, not in each row. */
	for (i = 1; i < n && !(mcol && tcol); i++) {
		const struct srun *a = &s->runs[runs[0]],
				  *b = &s->runs[runs[i]];

		mcol |= strcmp(a->machine, b->machine) != 0;
		tcol |= strcmp(a->tool, b->tool) != 0 ||
			strcmp(a->version, b->version) != 0;
	}
	if (mcol)
		bs_tdict_show(d, "MCOL");
	if (tcol)
		bs_tdict_show(d, "TCOL");
	if (!mcol || !tcol) {
		const struct srun *a = &s->runs[runs[0]];

		bs_buf_reset(&s->text);
		if (!mcol)
			bs_buf_addf(&s->text, "machine %s",
				    bs_store_machine_name(a->machine));
		if (!tcol)
			bs_buf_addf(&s->text, "%s%s %s", mcol ? "" : ", ",
				    a->tool, a->version);
		bs_tdict_setf(bs_tdict_add(d, "SAME"), "TEXT",
			      "Every run here: %s.", bs_buf_str(&s->text));
	}
	main_columns(s, runs, n, want);
	for (k = 0; k < s->nmain; k++) {
		if (!want[k])
			continue;
		x = bs_tdict_add(d, "COL");
		bs_tdict_set(x, "LABEL", bs_metrics[s->main[k]].label);
		bs_tdict_set(x, "UNIT", bs_metric_unit(s->main[k], 0));
	}
	for (i = 0; i < n; i++) {
		const struct srun *r = &s->runs[runs[i]];

		row = bs_tdict_add(d, "ROW");
		bs_buf_reset(&s->path);
		bs_buf_adds(&s->path, prefix);
		bs_site_run_path(&s->path, r->id, r->sha8);
		bs_tdict_set(row, "HREF", bs_buf_str(&s->path));
		bs_tdict_set_i64(row, "ID", r->id);
		/* A list: the day, not the minute (the run's page has it). */
		bs_tdict_setf(row, "DATE", "%.10s",
			      bs_site_date_text(r->measured_at, date,
						sizeof(date)));
		if (mcol) {
			bs_tdict_show(row, "MCOL");
			bs_tdict_set(row, "MACHINE",
				     bs_store_machine_name(r->machine));
			bs_site_set_group_href(s, row, "MHREF", prefix,
					       G_MACHINE, r->machine, NULL);
		}
		if (tcol) {
			bs_tdict_show(row, "TCOL");
			bs_tdict_setf(row, "TOOL", "%s %s", r->tool,
				      r->version);
		}
		/* The run's tags but the host facts of bstore run, which
		 * the machine's page lists, and the page's own tag; as
		 * text, which a page of 500 rows can afford (the run's
		 * page links them). */
		ntag = 0;
		for (t = 0; t < r->ntags; t++) {
			const char *key = s->strs[r->str0 + 2 * t];
			const char *val = s->strs[r->str0 + 2 * t + 1];

			if (strncmp(key, "host.", 5) == 0 ||
			    bs_tag_bookkeeping(key) ||
			    (own && strcmp(key, own->a) == 0 &&
			     strcmp(val, own->b) == 0))
				continue;
			/* A comma apart: values may hold spaces. */
			x = bs_tdict_add(row, "TAG");
			bs_tdict_setf(x, "TEXT", "%s%s=%s", ntag++ ? ", " : "",
				      key, val);
		}
		if (r->nunpaged)
			bs_tdict_setf(bs_tdict_add(row, "TAG"), "TEXT",
				      "%sand %zu more on its page",
				      ntag ? ", " : "", r->nunpaged);
		for (k = 0; k < s->nmain; k++) {
			int m = s->main[k];

			if (!want[k])
				continue;
			x = bs_tdict_add(row, "CELL");
			if (bs_metrics[m].family != r->family)
				continue;
			/* sysbench seqwr's "read 0.00": absent, not 0. */
			if (!bs_ident_measures(&s->tests[r->test].id, m)) {
				bs_tdict_set(x, "TEXT", "not measured");
				bs_tdict_set(x, "CLASS", "nr");
				bs_tdict_show(x, "CLS");
				continue;
			}
			switch ((enum bs_status)r->status[s->slot[k]]) {
			case BS_ST_OK:
				bs_tdict_set(x, "TEXT",
					     bs_metric_fmt(num, sizeof(num), m,
							   r->val[s->slot[k]],
							   BS_SHOW_GROUP));
				break;
			case BS_ST_TOO_FAST:
				bs_tdict_set(x, "TEXT", "too fast");
				bs_tdict_set(x, "CLASS", "tf");
				bs_tdict_show(x, "CLS");
				break;
			case BS_ST_NOT_RUN:
				/* The word show prints (bs_absent_word). */
				bs_tdict_set(
					x, "TEXT",
					bs_absent_words[r->absent[s->slot[k]]]);
				s->absent |= 1u << r->absent[s->slot[k]];
				bs_tdict_set(x, "CLASS", "nr");
				bs_tdict_show(x, "CLS");
				break;
			}
		}
	}
	return d;
}

/* ---- list pages and the index ----------------------------------------- */

static const char *const kind_word[] = {"machine", "tag", "tool"};

/* "3 runs, measured 2004-03-01 to 2024-01-31" of a list. */
void bs_site_span_text(const struct site *s, const size_t *runs, size_t n,
		       struct bs_buf *b)
{
	int64_t lo = BS_NONE, hi = BS_NONE;
	char d1[48], d2[48];
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t t = s->runs[runs[i]].measured_at;

		if (t == BS_NONE)
			continue;
		if (lo == BS_NONE || t < lo)
			lo = t;
		if (hi == BS_NONE || t > hi)
			hi = t;
	}
	bs_buf_addf(b, "%zu run%s", n, n == 1 ? "" : "s");
	if (lo != BS_NONE && lo / 86400 != hi / 86400)
		bs_buf_addf(b, ", measured %.10s to %.10s",
			    bs_site_date_text(lo, d1, sizeof(d1)),
			    bs_site_date_text(hi, d2, sizeof(d2)));
	else if (lo != BS_NONE)
		bs_buf_addf(b, ", measured %.10s",
			    bs_site_date_text(lo, d1, sizeof(d1)));
	bs_buf_adds(b, ".");
}

static int cmp_id_asc(const void *pa, const void *pb)
{
	const struct srun *a = bs_site_sort->runs + *(const size_t *)pa;
	const struct srun *b = bs_site_sort->runs + *(const size_t *)pb;

	return (a->id > b->id) - (a->id < b->id);
}

int bs_site_cmp_id_desc(const void *pa, const void *pb)
{
	return cmp_id_asc(pb, pa);
}

/* Page k of a list from prefix: the list's own page (k 0), else its k-th
 * page, SLUG-HASH-pK.html; kind G_TAG with bv NULL: a key's values. */
static void list_path(struct bs_buf *b, const char *prefix, enum gkind kind,
		      const char *a, const char *bv, size_t k)
{
	bs_buf_adds(b, prefix);
	bs_site_group_path(b, kind, a, bv);
	if (k) {
		bs_buf_trim(b, 5); /* ".html" */
		bs_buf_addf(b, "-p%zu.html", k);
	}
}

void bs_site_pager_href(const struct pager *p, struct bs_tdict *d,
			const char *key, size_t k)
{
	struct bs_buf *b = &p->s->path;

	bs_buf_reset(b);
	if (p->root_index) {
		/* Page 1 of the index is index.html. */
		if (k > 1)
			bs_buf_addf(b, "index-p%zu.html", k);
		else
			bs_buf_adds(b, "index.html");
		bs_tdict_set(d, key, bs_buf_str(b));
		return;
	}
	/* From a page of the same directory: the file's name. */
	list_path(b, "", p->kind, p->a, p->b, k);
	bs_tdict_set(d, key, strchr(bs_buf_str(b), '/') + 1);
}

void bs_site_pager(const struct pager *p, struct bs_tdict *d, size_t k,
		   size_t npages, const char *text, const char *up)
{
	struct bs_tdict *g = bs_tdict_add(d, "PAGER"), *x;
	size_t i;

	bs_tdict_set(g, "TEXT", text);
	if (k == 0) {
		for (i = 1; i <= npages; i++) {
			if (i > PAGER_ENDS && i + PAGER_ENDS <= npages)
				continue;
			x = bs_tdict_add(g, "PAGE");
			bs_tdict_set_i64(x, "N", (int64_t)i);
			bs_site_pager_href(p, x, "HREF", i);
			if (i > 1 && i == npages - PAGER_ENDS + 1 &&
			    npages > 2 * PAGER_ENDS)
				bs_tdict_show(x, "GAP");
		}
		return;
	}
	if (up) {
		x = bs_tdict_add(g, "UP");
		bs_tdict_set(x, "LABEL", up);
		bs_site_pager_href(p, x, "HREF", 0);
	}
	if (k > 1)
		bs_site_pager_href(p, bs_tdict_add(g, "PREV"), "HREF", k - 1);
	if (k < npages)
		bs_site_pager_href(p, bs_tdict_add(g, "NEXT"), "HREF", k + 1);
}

/* The host facts (host.* tags) of the newest of runs that has them: a
 * machine's page shows them once, not in a column of every run. */
static void host_facts(struct site *s, struct bs_tdict *list,
		       const size_t *runs, size_t n)
{
	struct bs_tdict *h = NULL, *x;
	size_t i, t;

	for (i = 0; i < n && h == NULL; i++) {
		const struct srun *r = &s->runs[runs[i]];

		for (t = 0; t < r->ntags; t++) {
			const char *key = s->strs[r->str0 + 2 * t];
			const char *val = s->strs[r->str0 + 2 * t + 1];

			if (strncmp(key, "host.", 5) != 0)
				continue;
			if (h == NULL) {
				h = bs_tdict_add(list, "HOST");
				bs_tdict_set_i64(h, "RID", r->id);
				bs_buf_reset(&s->path);
				bs_site_run_path(&s->path, r->id, r->sha8);
				bs_tdict_setf(h, "RHREF", "../%s",
					      bs_buf_str(&s->path));
			}
			x = bs_tdict_add(h, "FACT");
			bs_tdict_set(x, "KEY", key + 5);
			bs_tdict_set(x, "VALUE", val);
			bs_site_set_group_href(s, x, "HREF", "../", G_TAG, key,
					       val);
		}
	}
}

static int list_page(struct site *s, const struct member *g, size_t *runs,
		     size_t n)
{
	struct bs_buf t = BS_BUF_INIT, title = BS_BUF_INIT;
	struct pager pg = {s, g->kind, g->a, g->b, 0};
	size_t npages = n > PAGE_ROWS ? (n + PAGE_ROWS - 1) / PAGE_ROWS : 0;
	struct bs_tdict *list, *rt;
	size_t k;
	int rc;

	if (g->kind == G_TAG)
		bs_buf_addf(&title, "Tag %s=%s", g->a, g->b);
	else
		bs_buf_addf(&title, "%s %s",
			    g->kind == G_MACHINE ? "Machine" : "Tool",
			    g->kind == G_MACHINE ? bs_store_machine_name(g->a)
						 : g->a);
	bs_site_page_head(s->d, 1, bs_buf_str(&title), kind_word[g->kind]);
	bs_site_span_text(s, runs, n, &t);
	bs_site_lede(s->d, bs_buf_str(&t));
	list = bs_tdict_add(s->d, "LIST");
	bs_site_trend(s, list, runs, n);
	if (g->kind == G_MACHINE)
		host_facts(s, list, runs, n);
	rt = bs_site_runs_table(s, s->d, runs, npages ? PAGE_ROWS : n,
				npages ? "Newest runs" : "Runs", "../", 1,
				g->kind == G_TAG ? g : NULL);
	if (npages) {
		bs_buf_reset(&t);
		bs_buf_addf(&t,
			    "The newest %d of %zu runs. Every run, oldest first, "
			    "%d a page:",
			    PAGE_ROWS, n, PAGE_ROWS);
		bs_site_pager(&pg, rt, 0, npages, bs_buf_str(&t), NULL);
	}
	bs_buf_reset(&s->text);
	list_path(&s->text, "", g->kind, g->a, g->b, 0);
	rc = bs_site_emit(s, bs_buf_str(&s->text));
	/* Later pages hold the runs in the order they were stored, so a
	 * new run changes the last page only. */
	if (npages) {
		bs_site_sort = s;
		qsort(runs, n, sizeof(*runs), cmp_id_asc);
	}
	for (k = 1; k <= npages && rc == 0; k++) {
		size_t first = (k - 1) * PAGE_ROWS;
		size_t cnt = n - first < PAGE_ROWS ? n - first : PAGE_ROWS;

		bs_buf_reset(&t);
		bs_buf_addf(&t, "%s, page %zu", bs_buf_str(&title), k);
		bs_site_page_head(s->d, 1, bs_buf_str(&t), kind_word[g->kind]);
		bs_buf_reset(&t);
		bs_buf_addf(&t,
			    "Runs %zu to %zu, oldest first (%zu on this page).",
			    first + 1, first + cnt, cnt);
		bs_site_lede(s->d, bs_buf_str(&t));
		rt = bs_site_runs_table(s, s->d, runs + first, cnt, "Runs",
					"../", 1, g->kind == G_TAG ? g : NULL);
		bs_site_pager(&pg, rt, k, npages, bs_buf_str(&t),
			      "newest runs");
		bs_buf_reset(&s->text);
		list_path(&s->text, "", g->kind, g->a, g->b, k);
		rc = bs_site_emit(s, bs_buf_str(&s->text));
	}
	bs_buf_release(&t);
	bs_buf_release(&title);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The "more" column of an index row: the distinct tools of a machine,
 * machines of a tag value, versions of a tool. */
static void more_text(const struct site *s, enum gkind kind, const size_t *runs,
		      size_t n, struct bs_buf *b)
{
	const char **v = xcalloc(n ? n : 1, sizeof(*v));
	size_t i, k = 0, shown = 0;

	for (i = 0; i < n; i++) {
		const struct srun *r = &s->runs[runs[i]];

		v[i] = kind == G_MACHINE ? r->tool
		       : kind == G_TAG   ? bs_store_machine_name(r->machine)
					 : r->version;
	}
	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(v[i], v[i - 1]) == 0)
			continue;
		k++;
		if (shown < MORE_MAX)
			bs_buf_addf(b, "%s%s", shown++ ? ", " : "", v[i]);
	}
	if (k > shown)
		bs_buf_addf(b, " and %zu more", k - shown);
	free(v);
}

/* A row of a VALUES table (a tool on the index, a value on its key's
 * page): name, link, runs, newest date, "more". */
static void value_entry(struct site *s, struct bs_tdict *block,
			const struct member *g, const size_t *runs, size_t n,
			const char *prefix)
{
	struct bs_tdict *e = bs_tdict_add(block, "ENTRY");
	char date[48];
	int64_t newest = BS_NONE;
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t t = s->runs[runs[i]].measured_at;

		if (t != BS_NONE && (newest == BS_NONE || t > newest))
			newest = t;
	}
	bs_tdict_set(e, "NAME", g->kind == G_TAG ? g->b : g->a);
	bs_site_set_group_href(s, e, "HREF", prefix, g->kind, g->a, g->b);
	bs_tdict_set_i64(e, "NRUNS", (int64_t)n);
	/* The overview: the day, not the minute. */
	bs_tdict_setf(e, "NEWEST", "%.10s",
		      bs_site_date_text(newest, date, sizeof(date)));
	bs_buf_reset(&s->text);
	more_text(s, g->kind, runs, n, &s->text);
	bs_tdict_set(e, "MORE", bs_buf_str(&s->text));
}

struct bs_tdict *bs_site_values_table(struct bs_tdict *d, const char *title,
				      const char *col, const char *more)
{
	struct bs_tdict *v = bs_tdict_add(d, "VALUES");

	bs_tdict_set(v, "VALUES_TITLE", title);
	bs_tdict_set(v, "COL", col);
	bs_tdict_set(v, "MORE", more);
	return v;
}

static size_t range_runs(const struct site *s, const struct vrange *v,
			 size_t *runs)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		runs[i] = s->mem[v->first + i].run;
	return v->n;
}

/* The pages of a tag key's values (written when the index names only
 * some of them): PAGE_ROWS values a page, in byte order. */
static int key_pages(struct site *s, const char *key, const struct vrange *v,
		     size_t nv, size_t *runs)
{
	struct pager pg = {s, G_TAG, key, NULL, 0};
	size_t npages = (nv + PAGE_ROWS - 1) / PAGE_ROWS, k, i;
	struct bs_tdict *keep = s->d, *page = NULL, *vt;
	struct bs_buf t = BS_BUF_INIT;
	int rc;

	rc = bs_tdict_new(&page, s->err);
	s->d = page;
	for (k = 0; k < npages && rc == 0; k++) {
		size_t first = k * PAGE_ROWS;
		size_t cnt = nv - first < PAGE_ROWS ? nv - first : PAGE_ROWS;

		bs_buf_reset(&t);
		bs_buf_addf(&t, "Tag %s", key);
		if (k)
			bs_buf_addf(&t, ", page %zu", k + 1);
		bs_site_page_head(s->d, 1, bs_buf_str(&t), "tag");
		bs_buf_reset(&t);
		bs_buf_addf(&t, "Values %zu to %zu of %zu (%zu on this page).",
			    first + 1, first + cnt, nv, cnt);
		bs_site_lede(s->d, bs_buf_str(&t));
		vt = bs_site_values_table(s->d, "Values", "Value", "Machines");
		for (i = first; i < first + cnt; i++) {
			size_t n = range_runs(s, &v[i], runs);

			value_entry(s, vt, &s->mem[v[i].first], runs, n, "../");
		}
		if (npages > 1) {
			/* Page k + 1 of the key is list page k of its path. */
			struct bs_tdict *g = bs_tdict_add(vt, "PAGER");

			bs_tdict_set(g, "TEXT", bs_buf_str(&t));
			if (k)
				bs_site_pager_href(&pg, bs_tdict_add(g, "PREV"),
						   "HREF", k - 1);
			if (k + 1 < npages)
				bs_site_pager_href(&pg, bs_tdict_add(g, "NEXT"),
						   "HREF", k + 1);
		}
		bs_buf_reset(&s->text);
		list_path(&s->text, "", G_TAG, key, NULL, k);
		rc = bs_site_emit(s, bs_buf_str(&s->text));
	}
	s->d = keep;
	bs_tdict_free(page);
	bs_buf_release(&t);
	return rc;
}

/* The index's row of a tag key, once its values are known. */
static int key_row(struct site *s, struct bs_tdict *tags, const char *key,
		   const struct vrange *v, size_t nv, size_t *runs)
{
	struct bs_tdict *row = bs_tdict_add(tags, "KEY"), *x;
	size_t i, nruns = 0;

	for (i = 0; i < nv; i++)
		nruns += v[i].n;
	bs_tdict_set_i64(row, "NRUNS", (int64_t)nruns);
	bs_tdict_set_i64(row, "NVALUES", (int64_t)nv);
	bs_tdict_set(row, "NAME", key);
	for (i = 0; i < nv && i < KEY_VALUES; i++) {
		const struct member *g = &s->mem[v[i].first];

		x = bs_tdict_add(row, "VAL");
		bs_tdict_set(x, "NAME", g->b);
		bs_tdict_set_i64(x, "N", (int64_t)v[i].n);
		bs_site_set_group_href(s, x, "HREF", "", G_TAG, g->a, g->b);
	}
	if (nv <= KEY_VALUES)
		return 0;
	x = bs_tdict_add(row, "VMORE");
	bs_tdict_set_i64(x, "N", (int64_t)(nv - KEY_VALUES));
	bs_buf_reset(&s->path);
	list_path(&s->path, "", G_TAG, key, NULL, 0);
	bs_tdict_set(x, "HREF", bs_buf_str(&s->path));
	return key_pages(s, key, v, nv, runs);
}

/*
 * Every list page, and what the index shows of them (the members sorted
 * by cmp_member): latest[] gets each machine's newest run (in machine
 * order, *nlatest of them), tags a row per tag key but the host facts,
 * tools a row per tool.
 */
int bs_site_lists(struct site *s, struct bs_tdict *tags, struct bs_tdict *tools,
		  size_t *latest, size_t *nlatest)
{
	size_t *runs = xcalloc(s->nruns ? s->nruns : 1, sizeof(*runs));
	struct vrange *v = NULL;
	size_t nv = 0, capv = 0, nkeys = 0, ntools = 0, nhost = 0, more = 0;
	size_t i = 0, j, n;
	int rc = 0;

	*nlatest = 0;
	while (i < s->nmem && rc == 0) {
		const struct member *g = &s->mem[i];
		struct bs_tdict *keep = s->d, *page = NULL;

		for (j = i, n = 0;
		     j < s->nmem && bs_site_same_group(g, &s->mem[j]); j++)
			runs[n++] = s->mem[j].run;
		if (g->kind == G_MACHINE) {
			latest[(*nlatest)++] = runs[0]; /* newest first */
		} else if (g->kind == G_TOOL) {
			if (ntools++ < INDEX_ROWS)
				value_entry(s, tools, g, runs, n, "");
		} else if (strncmp(g->a, "host.", 5) != 0) {
			xgrow((void **)&v, &capv, nv + 1, sizeof(*v));
			v[nv].first = i;
			v[nv].n = n;
			nv++;
		} else if (i == 0 || s->mem[i - 1].kind != G_TAG ||
			   strcmp(s->mem[i - 1].a, g->a) != 0) {
			nhost++;
		}
		/* A list page is a dictionary of its own: the index's is
		 * being filled. */
		rc = bs_tdict_new(&page, s->err);
		if (rc == 0) {
			s->d = page;
			rc = list_page(s, g, runs, n);
			s->d = keep;
			bs_tdict_free(page);
		}
		/* The end of a tag key: its row on the index. */
		if (rc == 0 && nv &&
		    (j == s->nmem || !same_kind_key(g, &s->mem[j]))) {
			if (nkeys++ < INDEX_ROWS)
				rc = key_row(s, tags, s->mem[v[0].first].a, v,
					     nv, runs);
			else
				more++;
			nv = 0;
		}
		i = j;
	}
	if (nkeys == 0 && nhost == 0)
		bs_tdict_set(bs_tdict_add(tags, "TAGS_NOTE"), "TEXT",
			     "No run has a tag yet: bstore tag, or ingest --tag, "
			     "adds them.");
	if (more || nhost) {
		struct bs_buf t = BS_BUF_INIT;

		if (more)
			bs_buf_addf(&t,
				    "%zu more keys are on the pages of "
				    "their runs. ",
				    more);
		if (nhost)
			bs_buf_addf(&t,
				    "The host facts bstore run records "
				    "(%zu host.* keys) are on each "
				    "machine's page.",
				    nhost);
		bs_tdict_set(bs_tdict_add(tags, "TAGS_NOTE"), "TEXT",
			     bs_buf_str(&t));
		bs_buf_release(&t);
	}
	if (ntools > INDEX_ROWS)
		bs_tdict_set(bs_tdict_add(tools, "VALUES_NOTE"), "TEXT",
			     "More tools are on the pages of their runs.");
	free(v);
	free(runs);
	return rc;
}
