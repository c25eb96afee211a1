/*
 * report/labels.c - the groups' labels and the report's title, made from
 * the selectors: each group's terms that not every selector has.
 */
#include <string.h>

#include "report/internal.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* The comma that ends the selector term at p, or NULL: a "\," inside a
 * value is not one (docs/selectors.md). */
static const char *term_end(const char *p)
{
	for (; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == ',')
			return p;
	}
	return NULL;
}

/* Is the term [t, t + len) one of the comma-separated terms of sel? */
static int has_term(const char *sel, const char *t, size_t len)
{
	const char *p = sel, *end;

	for (;;) {
		end = term_end(p);
		if ((end ? (size_t)(end - p) : strlen(p)) == len &&
		    memcmp(p, t, len) == 0)
			return 1;
		if (end == NULL)
			return 0;
		p = end + 1;
	}
}

/*
 * The terms of selector i that every selector has (common) or not (the
 * rest), each separated by ", " in selector order.
 */
static void split_terms(const char *const *sel, size_t n, size_t i,
			struct bs_buf *common, struct bs_buf *rest)
{
	const char *p = sel[i], *end;
	size_t len, j;
	int all;

	for (;;) {
		end = term_end(p);
		len = end ? (size_t)(end - p) : strlen(p);
		for (all = 1, j = 0; j < n && all; j++)
			all = has_term(sel[j], p, len);
		/* ", " between terms: a label wraps between them. */
		if (all && common)
			bs_buf_addf(common, "%s%.*s", common->len ? ", " : "",
				    (int)len, p);
		if (!all && rest)
			bs_buf_addf(rest, "%s%.*s", rest->len ? ", " : "",
				    (int)len, p);
		if (end == NULL)
			return;
		p = end + 1;
	}
}

/* The labels (opts.labels, else the terms that differ) and the title. */
void bs_rlabels_make(struct bs_report *rep, const struct bs_report_opts *opts,
		     const char *const *sel)
{
	struct bs_buf b = BS_BUF_INIT, common = BS_BUF_INIT;
	size_t i, n = rep->ngroups;

	if (n > 1)
		split_terms(sel, n, 0, &common, NULL);
	for (i = 0; i < n; i++) {
		struct bs_report_group *g = &rep->groups[i];

		g->selector = xstrdup(sel[i]);
		bs_buf_reset(&b);
		if (opts->labels && opts->labels[i]) {
			bs_buf_adds(&b, opts->labels[i]);
			g->label_whole = strcmp(opts->labels[i], sel[i]) == 0;
		} else {
			if (n > 1)
				split_terms(sel, n, i, NULL, &b);
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
	bs_buf_release(&b);
	bs_buf_release(&common);
}
