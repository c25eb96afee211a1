/*
 * report/labels.c - the groups' labels and the report's title, made from
 * the selectors as store/selector.h parses them: each group's clauses
 * (a term, or the alternatives of one) that not every selector has, each
 * written back as bs_sel_print() writes it.
 */
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "store/selector.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* Does sel have the clause of nc terms at t (store/selector.h: the
 * alternatives of one KEY OP A|B)? */
static int has_clause(const struct bs_sel *sel, const struct bs_sel_term *t,
		      size_t nc)
{
	size_t j, k, n;

	for (j = 0; j < sel->n; j += n) {
		n = bs_sel_clause(sel, j);
		for (k = 0; n == nc && k < nc; k++)
			if (!bs_sel_term_same(&sel->term[j + k], &t[k]))
				break;
		if (n == nc && k == nc)
			return 1;
	}
	return 0;
}

/*
 * The terms of selector i that every selector has (common) or not (the
 * rest), each written back and separated by ", " in selector order.
 */
static void split_terms(const struct bs_sel *sel, size_t n, size_t i,
			struct bs_buf *common, struct bs_buf *rest)
{
	size_t k, j, nc;
	int all;

	for (k = 0; k < sel[i].n; k += nc) {
		struct bs_sel one = {&sel[i].term[k], 0, 0, NULL};
		struct bs_buf *b;

		nc = bs_sel_clause(&sel[i], k);
		one.n = one.cap = nc;
		for (all = 1, j = 0; j < n && all; j++)
			all = has_clause(&sel[j], &sel[i].term[k], nc);
		b = all ? common : rest;
		if (b == NULL)
			continue;
		/* ", " between terms: a label wraps between them. */
		if (b->len)
			bs_buf_adds(b, ", ");
		if (bs_sel_print(&one, b) < 0)
			BS_BUG("a selector term does not print");
	}
}

void bs_rlabels_make(struct bs_report *rep, const struct bs_report_opts *opts,
		     const char *const *sel)
{
	struct bs_buf b = BS_BUF_INIT, common = BS_BUF_INIT;
	struct bs_sel *parsed = NULL;
	struct bs_err err = BS_ERR_INIT;
	size_t i, n = rep->ngroups;

	/* Selectors the store took parse; when one does not (a caller's
	 * own label), every label is its whole selector. */
	if (n > 1) {
		parsed = xcalloc(n, sizeof(*parsed));
		for (i = 0; i < n && parsed; i++) {
			if (bs_sel_parse(&parsed[i], sel[i], &err) >= 0)
				continue;
			while (i > 0)
				bs_sel_release(&parsed[--i]);
			free(parsed);
			parsed = NULL;
		}
	}
	if (parsed)
		split_terms(parsed, n, 0, &common, NULL);
	for (i = 0; i < n; i++) {
		struct bs_report_group *g = &rep->groups[i];

		g->selector = xstrdup(sel[i]);
		bs_buf_reset(&b);
		if (opts->labels && opts->labels[i]) {
			bs_buf_adds(&b, opts->labels[i]);
			g->label_whole = strcmp(opts->labels[i], sel[i]) == 0;
		} else {
			if (parsed)
				split_terms(parsed, n, i, NULL, &b);
			/* No term left out: every term, or the selector. */
			g->label_whole = common.len == 0 || b.len == 0;
		}
		g->label = xstrdup(b.len ? bs_buf_str(&b) : sel[i]);
	}
	bs_buf_reset(&b);
	if (opts->title) {
		rep->title = xstrdup(opts->title);
		goto out;
	}
	if (opts->labels == NULL && common.len)
		bs_buf_addf(&b, "%s: ", bs_buf_str(&common));
	for (i = 0; i < n; i++)
		bs_buf_addf(&b, "%s%s", i ? " vs " : "", rep->groups[i].label);
	rep->title = bs_buf_detach(&b, NULL);
out:
	for (i = 0; parsed && i < n; i++)
		bs_sel_release(&parsed[i]);
	free(parsed);
	bs_buf_release(&b);
	bs_buf_release(&common);
}
