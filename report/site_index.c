/*
 * report/site_index.c - the index: each machine's newest run, a section
 * per test, the newest runs, the saved comparisons.
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

/* The index's table of each machine's newest run, page k (0: the index
 * itself) of npages, in s->d. */
static void latest_table(struct site *s, const size_t *latest, size_t n,
			 size_t k, size_t npages)
{
	struct pager pg = {s, G_MACHINE, NULL, NULL, 1};
	struct bs_tdict *rt;
	struct bs_buf t = BS_BUF_INIT;
	size_t first = k * INDEX_ROWS;
	size_t cnt = n - first < INDEX_ROWS ? n - first : INDEX_ROWS;

	rt = bs_site_runs_table(s, s->d, latest + first, cnt,
				"Machines, each by its newest run", "", 0,
				NULL);
	bs_tdict_show(rt, "LATEST");
	if (npages > 1) {
		bs_buf_addf(&t, "Machines %zu to %zu of %zu.", first + 1,
			    first + cnt, n);
		if (k == 0) {
			struct bs_tdict *g = bs_tdict_add(rt, "PAGER");

			bs_tdict_set(g, "TEXT", bs_buf_str(&t));
			bs_site_pager_href(&pg, bs_tdict_add(g, "NEXT"), "HREF",
					   2);
		} else {
			bs_site_pager(&pg, rt, k + 1, npages, bs_buf_str(&t),
				      NULL);
		}
	}
	bs_buf_release(&t);
}

/* A machine's newest run of a test: the index's sections. */
struct newest {
	size_t test, run;
};

/* Spans of the index's tests: most machines first, else the first. */
static int cmp_span_first(const void *pa, const void *pb)
{
	const struct vrange *a = pa, *b = pb;

	return (a->first > b->first) - (a->first < b->first);
}

static int cmp_span_size(const void *pa, const void *pb)
{
	const struct vrange *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return cmp_span_first(pa, pb);
}

static int cmp_run_newer(const void *pa, const void *pb)
{
	return bs_site_newer(&bs_site_sort->runs[*(const size_t *)pa],
			     &bs_site_sort->runs[*(const size_t *)pb]);
}

static int cmp_newest(const void *pa, const void *pb)
{
	const struct newest *a = pa, *b = pb;
	int c = strcmp(bs_site_sort->tests[a->test].key,
		       bs_site_sort->tests[b->test].key);

	if (c == 0)
		c = strcmp(bs_site_sort->runs[a->run].machine,
			   bs_site_sort->runs[b->run].machine);
	return c;
}

/*
 * The index's lead: a section per test (identity, in key order: the
 * tool families together), "Latest results: sysbench rndrw, 1 thread",
 * with each machine's newest run of that test (TEST_MACHINES machines at
 * most, the newest runs first). s->mem is sorted: each machine's runs newest first.
 */
static void test_sections(struct site *s)
{
	struct newest *nw = xcalloc(s->nruns ? s->nruns : 1, sizeof(*nw));
	size_t *runs = xcalloc(s->nruns ? s->nruns : 1, sizeof(*runs));
	unsigned char *seen = xcalloc(s->ntests ? s->ntests : 1, 1);
	struct vrange *sec = xcalloc(s->nruns ? s->nruns : 1, sizeof(*sec));
	struct bs_buf t = BS_BUF_INIT;
	size_t i, j, n = 0, k, nsec, q, nshown;
	size_t shown[TEST_SECTIONS];
	char *names[TEST_SECTIONS];
	struct bs_tdict *rt = NULL;

	for (i = 0; i < s->nmem && s->mem[i].kind == G_MACHINE; i = j) {
		memset(seen, 0, s->ntests);
		for (j = i;
		     j < s->nmem && bs_site_same_group(&s->mem[i], &s->mem[j]);
		     j++) {
			size_t r = s->mem[j].run;

			if (seen[s->runs[r].test])
				continue;
			seen[s->runs[r].test] = 1;
			nw[n].test = s->runs[r].test;
			nw[n++].run = r;
		}
	}
	bs_site_sort = s;
	qsort(nw, n, sizeof(*nw), cmp_newest);
	/* Each test's span of nw; the TEST_SECTIONS of most machines keep
	 * their sections (ties: key order), shown in key order. */
	for (i = 0, nsec = 0; i < n; i = j, nsec++) {
		for (j = i; j < n && nw[j].test == nw[i].test; j++)
			;
		sec[nsec].first = i;
		sec[nsec].n = j - i;
	}
	if (nsec > TEST_SECTIONS) {
		qsort(sec, nsec, sizeof(*sec), cmp_span_size);
		qsort(sec, TEST_SECTIONS, sizeof(*sec), cmp_span_first);
	}
	nshown = nsec < TEST_SECTIONS ? nsec : TEST_SECTIONS;
	for (q = 0; q < nshown; q++)
		shown[q] = nw[sec[q].first].test;
	bs_site_name_tests(s, shown, nshown, names);
	for (q = 0; q < nshown; q++) {

		i = sec[q].first;
		j = i + sec[q].n;
		for (k = 0; k < j - i; k++)
			runs[k] = nw[i + k].run;
		/* The machines whose runs of the test are newest. */
		qsort(runs, k, sizeof(*runs), cmp_run_newer);
		if (k > TEST_MACHINES)
			k = TEST_MACHINES;
		bs_buf_reset(&t);
		bs_buf_addf(&t, "Latest results: %s", names[q]);
		rt = bs_site_runs_table(s, s->d, runs, k, bs_buf_str(&t), "", 0,
					NULL);
		if (j - i > k) {
			bs_buf_reset(&t);
			bs_buf_addf(&t,
				    "The %zu machines with the newest runs "
				    "of %zu; the others are under Machines.",
				    k, j - i);
			bs_tdict_set(bs_tdict_add(rt, "RUNS_MORE"),
				     "RUNS_MORE_TEXT", bs_buf_str(&t));
		}
	}
	if (nsec > TEST_SECTIONS) {
		bs_buf_reset(&t);
		bs_buf_addf(&t,
			    "%zu more tests are on the pages of their tools "
			    "and machines.",
			    nsec - TEST_SECTIONS);
		bs_tdict_set(bs_tdict_add(rt, "RUNS_MORE"), "RUNS_MORE_TEXT",
			     bs_buf_str(&t));
	}
	for (q = 0; q < nshown; q++)
		free(names[q]);
	bs_buf_release(&t);
	free(sec);
	free(seen);
	free(runs);
	free(nw);
}

int bs_site_index_page(struct site *s, const struct bs_site_opts *o)
{
	struct bs_tdict *d = s->d, *idx, *tags, *tools, *c;
	struct bs_buf t = BS_BUF_INIT;
	size_t *runs = xcalloc(s->nruns ? s->nruns : 1, sizeof(*runs));
	size_t *latest = xcalloc(s->nruns ? s->nruns : 1, sizeof(*latest));
	size_t i, nlatest = 0, npages, k;
	int rc;

	bs_site_sort = s;
	if (s->nmem > 0)
		qsort(s->mem, s->nmem, sizeof(*s->mem), bs_site_cmp_member);
	idx = bs_tdict_add(d, "INDEX");
	tags = bs_tdict_add(idx, "TAGS");
	tools = bs_site_values_table(d, "Tools", "Tool", "Versions");
	rc = bs_site_lists(s, tags, tools, latest, &nlatest);
	npages = (nlatest + INDEX_ROWS - 1) / INDEX_ROWS;
	/* The index's later pages: each a dictionary of its own, the
	 * index's being filled. */
	for (k = 1; k < npages && rc == 0; k++) {
		struct bs_tdict *page = NULL;

		rc = bs_tdict_new(&page, s->err);
		if (rc != 0)
			break;
		s->d = page;
		bs_buf_reset(&t);
		bs_buf_addf(&t, "Benchmark archive: machines, page %zu", k + 1);
		bs_site_page_head(page, 0, bs_buf_str(&t), "machines");
		latest_table(s, latest, nlatest, k, npages);
		bs_buf_reset(&t);
		bs_buf_addf(&t, "index-p%zu.html", k + 1);
		rc = bs_site_emit(s, bs_buf_str(&t));
		s->d = d;
		bs_tdict_free(page);
	}
	if (rc == 0) {
		bs_site_page_head(d, 0, "Benchmark archive", NULL);
		bs_site_latest_changes(s, idx);
		for (i = 0; i < s->nruns; i++)
			runs[i] = i;
		bs_buf_addf(&t, "%zu machine%s, ", nlatest,
			    nlatest == 1 ? "" : "s");
		bs_site_span_text(s, runs, s->nruns, &t);
		bs_site_lede(d, bs_buf_str(&t));
		if (s->nruns == 0)
			bs_tdict_set(bs_tdict_add(idx, "EMPTY"), "EMPTY_TEXT",
				     "No runs.");
		else
			test_sections(s);
		if (s->nruns)
			latest_table(s, latest, nlatest, 0, npages);
		qsort(runs, s->nruns, sizeof(*runs), bs_site_cmp_id_desc);
		if (s->nruns)
			c = bs_site_runs_table(s, d, runs,
					       s->nruns < NEWEST_RUNS
						       ? s->nruns
						       : NEWEST_RUNS,
					       "Newest runs", "", 0, NULL);
		if (s->nruns > NEWEST_RUNS)
			bs_tdict_set(bs_tdict_add(c, "RUNS_MORE"),
				     "RUNS_MORE_TEXT",
				     "Every run is on the pages of its machine, "
				     "its tool and each of its tags.");
		if (o && o->ncompares) {
			struct bs_tdict *cs = bs_tdict_add(idx, "COMPARES");

			for (i = 0; i < o->ncompares; i++) {
				struct bs_tdict *x =
					bs_tdict_add(cs, "COMPARE");

				bs_tdict_set(x, "NAME", o->compares[i]);
				bs_tdict_setf(x, "HREF", "compare/%s.html",
					      o->compares[i]);
			}
		}
		rc = bs_site_emit(s, "index.html");
	}
	free(latest);
	free(runs);
	bs_buf_release(&t);
	return rc;
}
