/*
 * report/site_read.c - reading the runs: each run's page written as it
 * is read, what the lists need of it kept, its strings interned, its
 * test identity counted.
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

/* Whether the tag (the run's next, *npaged of its tags paged so far)
 * has a page and a place in the lists; counts it when it has. */
int bs_site_tag_paged(const struct bs_tag *t, size_t *npaged)
{
	if (*npaged >= PAGED_TAGS ||
	    strlen(t->key) + strlen(t->value ? t->value : "") > PAGED_TAG_BYTES)
		return 0;
	(*npaged)++;
	return 1;
}

/* ---- reading the runs ------------------------------------------------- */

static size_t str_hash(const char *v)
{
	return (size_t)bs_hash_fnv64_str(BS_FNV64_BASIS, v);
}

static const char *keep_str(struct site *s, const char *v)
{
	xgrow((void **)&s->strs, &s->capstrs, s->nstrs + 1, sizeof(*s->strs));
	s->strs[s->nstrs] = bs_intern_str(&s->pool, v);
	return s->strs[s->nstrs++];
}

static void add_member(struct site *s, enum gkind kind, const char *a,
		       const char *b, size_t run)
{
	xgrow((void **)&s->mem, &s->capmem, s->nmem + 1, sizeof(*s->mem));
	s->mem[s->nmem].kind = kind;
	s->mem[s->nmem].a = a;
	s->mem[s->nmem].b = b;
	s->mem[s->nmem].run = run;
	s->nmem++;
}

/* The index of r's test in s->tests, added when it is the first: a
 * table of the interned keys' pointers, open addressing, at most half
 * full. */
static size_t test_of(struct site *s, const struct bs_run *r)
{
	struct bs_ident id;
	const char *key;
	size_t i, k, mask;

	bs_ident_of(r, &id);
	bs_buf_reset(&s->text);
	bs_ident_key(&id, &s->text);
	key = bs_intern_str(&s->pool, bs_buf_str(&s->text));
	if (2 * (s->ntests + 1) > s->capth) {
		size_t cap = s->capth ? 2 * s->capth : 256;
		size_t *t = xcalloc(cap, sizeof(*t));

		for (k = 0; k < s->ntests; k++) {
			for (i = str_hash(s->tests[k].key) & (cap - 1); t[i];
			     i = (i + 1) & (cap - 1))
				;
			t[i] = k + 1;
		}
		free(s->thash);
		s->thash = t;
		s->capth = cap;
	}
	mask = s->capth - 1;
	for (i = str_hash(key) & mask; s->thash[i]; i = (i + 1) & mask)
		if (s->tests[s->thash[i] - 1].key == key)
			return s->thash[i] - 1;
	xgrow((void **)&s->tests, &s->captests, s->ntests + 1,
	      sizeof(*s->tests));
	s->tests[s->ntests].key = key;
	s->tests[s->ntests].id = id;
	s->thash[i] = s->ntests + 1;
	return s->ntests++;
}

/* The names of tests t[0..n) (indices into s->tests) among themselves,
 * into names[] (the caller frees each): a page's tests. */
void bs_site_name_tests(const struct site *s, const size_t *t, size_t n,
			char **names)
{
	struct bs_ident *ids = xcalloc(n ? n : 1, sizeof(*ids));
	size_t i;

	for (i = 0; i < n; i++)
		ids[i] = s->tests[t[i]].id;
	bs_ident_names(ids, n, names);
	free(ids);
}

int bs_site_on_run(const struct bs_run *r, void *vctx)
{
	struct site *s = vctx;
	struct srun *x;
	size_t i;
	int k;

	xgrow((void **)&s->runs, &s->caprun, s->nruns + 1, sizeof(*s->runs));
	x = &s->runs[s->nruns];
	memset(x, 0, sizeof(*x));
	x->id = r->id;
	x->measured_at = r->measured_at;
	snprintf(x->sha8, sizeof(x->sha8), "%.8s", r->sha256);
	x->family = r->family;
	x->machine = bs_intern_str(&s->pool, r->machine);
	x->tool = bs_intern_str(&s->pool, r->tool);
	x->version = bs_intern_str(&s->pool,
				   r->tool_version ? r->tool_version : "?");
	x->test = test_of(s, r);
	for (k = 0; k < s->nmain; k++) {
		if (bs_metrics[s->main[k]].family != r->family)
			continue;
		x->status[s->slot[k]] =
			(unsigned char)r->res[s->main[k]].status;
		x->absent[s->slot[k]] =
			(unsigned char)bs_absent_of(r, s->main[k]);
		x->val[s->slot[k]] = r->res[s->main[k]].value;
	}
	add_member(s, G_MACHINE, x->machine, NULL, s->nruns);
	add_member(s, G_TOOL, x->tool, NULL, s->nruns);
	x->str0 = s->nstrs;
	for (i = 0; i < r->ntags; i++) {
		const char *key;

		/* bstore's own bookkeeping (how a date was read, bstore
		 * zcav's target) is no fact to index runs by: its run's page
		 * shows it, no tag page, list row or index does. */
		if (bs_tag_bookkeeping(r->tags[i].key))
			continue;
		if (!bs_site_tag_paged(&r->tags[i], &x->ntags)) {
			x->nunpaged++;
			continue;
		}
		key = keep_str(s, r->tags[i].key);
		add_member(s, G_TAG, key, keep_str(s, r->tags[i].value),
			   s->nruns);
	}
	s->nruns++;
	return bs_site_run_page(s, r);
}
