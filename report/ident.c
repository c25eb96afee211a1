/*
 * report/ident.c - test identities in a report (core/identity.h): each
 * group counts the identities of its runs; against its baseline, every
 * catalogue row is then the same test, different tests, can't tell,
 * related, a mixed group or a level of a swept factor (enum bs_rrel), and
 * only the same test gets a verdict. The notes that say so, and what to
 * do about it, come from here too, so that no note contradicts a cell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/* Marks in x the rows of r's family that r has a number or "+++++" of. */
static void mark_has(struct bs_rident *x, const struct bs_run *r)
{
	int t, first, end;

	bs_metric_rows(r->family, &first, &end);
	for (t = first; t < end; t++)
		if (r->res[t].status != BS_ST_NOT_RUN)
			x->has[t / 64] |= UINT64_C(1) << (t % 64);
}

static int has(const struct bs_rident *x, int t)
{
	return (x->has[t / 64] >> (t % 64)) & 1;
}

void bs_rident_add(struct bs_report_group *g, const struct bs_run *r)
{
	struct bs_ident id;
	size_t i;

	bs_ident_of(r, &id);
	for (i = 0; i < g->nidents; i++) {
		if (bs_ident_equal(&g->idents[i].id, &id)) {
			g->idents[i].n++;
			mark_has(&g->idents[i], r);
			return;
		}
	}
	if (g->nidents == BS_REPORT_IDENTS) {
		g->ident_other++;
		return;
	}
	if (g->idents == NULL)
		g->idents = xcalloc(BS_REPORT_IDENTS, sizeof(*g->idents));
	memset(&g->idents[g->nidents], 0, sizeof(g->idents[0]));
	g->idents[g->nidents].id = id;
	mark_has(&g->idents[g->nidents], r);
	g->idents[g->nidents++].n = 1;
}

void bs_rident_release(struct bs_report_group *g)
{
	free(g->idents);
	g->idents = NULL;
	g->nidents = 0;
	free(g->rel_why);
	g->rel_why = NULL;
}

enum bs_verdict bs_rrel_verdict(enum bs_rrel rel)
{
	switch (rel) {
	case BS_REL_APART:
		return BS_V_APART;
	case BS_REL_CANT:
		return BS_V_CANT;
	case BS_REL_RELATED:
		return BS_V_RELATED;
	case BS_REL_MIXED:
		return BS_V_MIXGRP;
	case BS_REL_SCALING:
		return BS_V_SCALING;
	case BS_REL_SAME:
		break;
	}
	return BS_V_NONE;
}

/* The first identity among g's whose runs have row t, or NULL. */
static const struct bs_rident *first_of(const struct bs_report_group *g, int t)
{
	size_t i;

	for (i = 0; i < g->nidents; i++)
		if (has(&g->idents[i], t))
			return &g->idents[i];
	return NULL;
}

/* Whether g's runs of row t's family ran different tests of t: two of
 * its identities that are not the same test of t (*param: the parameter
 * they differ or are unknown in, -1 none), or more identities than it
 * keeps. */
static int mixed(const struct bs_report *rep, const struct bs_report_group *g,
		 int t, int *param)
{
	enum bs_family f = bs_metrics[t].family;
	int sweep = rep->sweep_row[f];
	const struct bs_rident *a = first_of(g, t);
	size_t i;

	*param = -1;
	for (i = 0; a && i < g->nidents; i++) {
		const struct bs_rident *b = &g->idents[i];

		if (b == a || !has(b, t))
			continue;
		if (bs_ident_cmp(&a->id, &b->id, t, sweep, param) != BS_ID_SAME)
			return 1;
	}
	/* More identities than a group keeps: unlike runs all the same. */
	return g->ident_other > 0;
}

/* The relation of group g to its baseline b on row t. */
static enum bs_rrel relate(const struct bs_report *rep,
			   const struct bs_report_group *g,
			   const struct bs_report_group *b, int t, int *param,
			   int *side)
{
	const struct bs_rident *x, *y;
	int sweep = rep->sweep_row[bs_metrics[t].family];

	*param = -1;
	*side = 0;
	if (g->borrowed[t] || b->borrowed[t])
		return BS_REL_RELATED;
	if (mixed(rep, g, t, param))
		return BS_REL_MIXED;
	if (mixed(rep, b, t, param)) {
		*side = 1;
		return BS_REL_MIXED;
	}
	x = first_of(g, t);
	y = first_of(b, t);
	if (x == NULL || y == NULL)
		return BS_REL_SAME;
	switch (bs_ident_cmp(&x->id, &y->id, t, sweep, param)) {
	case BS_ID_DIFFER:
		return BS_REL_APART;
	case BS_ID_UNKNOWN:
		/* Unknown on which side? */
		if (*param >= 0) {
			const struct bs_ident_val *v =
				bs_ident_get(&x->id, *param);
			*side = v && v->known;
		}
		return BS_REL_CANT;
	case BS_ID_RELATED:
		return BS_REL_RELATED;
	case BS_ID_SAME:
		break;
	}
	return sweep >= 0 ? BS_REL_SCALING : BS_REL_SAME;
}

/* The rule with decides that names parameter row k. */
static const struct bs_param_rule *rule_of(int k)
{
	int r, j, n, keys[8];

	for (r = 0; r < bs_nparam_rules; r++) {
		if (!bs_param_rules[r].decides)
			continue;
		n = bs_param_rule_keys(&bs_param_rules[r], keys, 8);
		for (j = 0; j < n; j++)
			if (keys[j] == k)
				return &bs_param_rules[r];
	}
	return NULL;
}

/* Whether two identity values read alike. */
static int same_val(const struct bs_ident_val *v, const struct bs_ident_val *w)
{
	return w && v && w->known == v->known && w->num == v->num &&
	       strcmp(w->text, v->text) == 0;
}

/* A group's values of parameter k over its identities whose runs have row
 * t, with their counts when there are several: "1 (2 runs) and 16 (1
 * run)"; "unknown" for runs that do not say. */
static void values(const struct bs_report_group *g, int t, int k,
		   struct bs_buf *b)
{
	size_t i, j, distinct = 0, shown = 0;

	for (i = 0; i < g->nidents; i++) {
		const struct bs_ident_val *v =
			bs_ident_get(&g->idents[i].id, k);
		int dup = 0;

		if (!has(&g->idents[i], t) || v == NULL)
			continue;
		for (j = 0; j < i && !dup; j++)
			dup = has(&g->idents[j], t) &&
			      same_val(v, bs_ident_get(&g->idents[j].id, k));
		distinct += !dup;
	}
	for (i = 0; i < g->nidents; i++) {
		const struct bs_ident_val *v =
			bs_ident_get(&g->idents[i].id, k);
		int64_t runs = 0;
		int dup = 0;

		if (!has(&g->idents[i], t) || v == NULL)
			continue;
		/* Identities that differ elsewhere share this value. */
		for (j = 0; j < i && !dup; j++)
			dup = has(&g->idents[j], t) &&
			      same_val(v, bs_ident_get(&g->idents[j].id, k));
		if (dup)
			continue;
		if (shown++)
			bs_buf_adds(b, shown == distinct ? " and " : ", ");
		bs_ident_val_text(v, b);
		if (distinct < 2)
			continue;
		for (j = i; j < g->nidents; j++)
			if (has(&g->idents[j], t) &&
			    same_val(v, bs_ident_get(&g->idents[j].id, k)))
				runs += g->idents[j].n;
		bs_buf_addf(b, " (%lld %s)", (long long)runs,
			    runs == 1 ? "run" : "runs");
	}
	if (g->ident_other > 0)
		bs_buf_addf(b, " and more (%lld runs)",
			    (long long)g->ident_other);
}

/* The implementations of a group's identities whose runs have row t:
 * "bonnie++ and bstore run". */
static void impls(const struct bs_report_group *g, int t, struct bs_buf *b)
{
	const struct bs_impl *seen[BS_REPORT_IDENTS];
	size_t i, j, n = 0;

	for (i = 0; i < g->nidents; i++) {
		const struct bs_impl *im = g->idents[i].id.impl;

		if (!has(&g->idents[i], t))
			continue;
		for (j = 0; j < n && seen[j] != im; j++)
			;
		if (j < n)
			continue;
		seen[n++] = im;
		bs_buf_addf(b, "%s%s", n > 1 ? " and " : "",
			    im ? im->name : "an unknown tool");
	}
}

/* The related row of catalogue row t (its family's, core/family.h). */
static const struct bs_related *related_of(int t)
{
	const struct bs_family_info *row = bs_family(bs_metrics[t].family);
	int j;

	for (j = 0; j < row->nrelated; j++)
		if (strcmp(row->related[j].key, bs_metrics[t].key) == 0)
			return &row->related[j];
	BS_BUG("a borrowed row without its related row");
}

/* What takes row t's verdicts away, for people, into b: "different
 * tests (block size 4 KiB against 8 KiB)". */
static void say(const struct bs_report *rep, size_t i, int t, enum bs_rrel rel,
		int k, int side, struct bs_buf *b)
{
	const struct bs_report_group *g = &rep->groups[i];
	const struct bs_report_group *base = &rep->groups[g->base];
	enum bs_family f = bs_metrics[t].family;
	const char *label = k >= 0 ? bs_param_table[k].label : NULL;

	bs_buf_addf(b, "%s (", bs_verdicts[bs_rrel_verdict(rel)].words);
	switch (rel) {
	case BS_REL_APART: {
		/* Every deciding value the two differ in, not only the
		 * first. */
		const struct bs_rident *x = first_of(g, t),
				       *y = first_of(base, t);
		int j, n = 0;

		for (j = 0; x && y && j < x->id.n && j < y->id.n; j++) {
			const struct bs_ident_val *v = &x->id.v[j];
			const struct bs_ident_val *w = &y->id.v[j];
			int p = v->param;

			if (!bs_ident_decides(&x->id, j, t) || !v->known ||
			    !w->known || same_val(v, w) ||
			    p == rep->sweep_row[f])
				continue;
			bs_buf_addf(b, "%s%s ", n++ ? "; " : "",
				    bs_param_table[p].label);
			values(g, t, p, b);
			bs_buf_adds(b, " against ");
			values(base, t, p, b);
		}
		if (n == 0) {
			bs_buf_addf(b, "%s ", label);
			values(g, t, k, b);
			bs_buf_adds(b, " against ");
			values(base, t, k, b);
		}
		break;
	}
	case BS_REL_CANT:
		bs_buf_addf(b, "%s unknown for [%zu]", label,
			    (side ? g->base : i) + 1);
		break;
	case BS_REL_RELATED:
		if (g->borrowed[t] || base->borrowed[t]) {
			const struct bs_related *x = related_of(t);

			bs_buf_addf(
				b, "%s's %s in %s's %s row",
				bs_family_name(x->from),
				bs_metrics[bs_metric_find(x->from, x->from_key)]
					.label,
				bs_family_name(f), bs_metrics[t].label);
			break;
		}
		impls(g, t, b);
		bs_buf_adds(b, " against ");
		impls(base, t, b);
		break;
	case BS_REL_MIXED: {
		size_t who = side ? g->base : i;

		bs_buf_addf(b, "[%zu] mixes ", who + 1);
		if (k >= 0) {
			bs_buf_addf(b, "%s ", label);
			values(&rep->groups[who], t, k, b);
			if (rep->opts.no_by)
				bs_buf_adds(b, "; a group for each value "
					       "splits it");
			else
				bs_buf_addf(b, "; --by %s splits it",
					    bs_param_table[k].key);
		} else {
			bs_buf_adds(b, "tests of ");
			impls(&rep->groups[who], t, b);
		}
		break;
	}
	case BS_REL_SCALING:
		bs_buf_addf(b, "%s", label ? label : "the factor");
		break;
	case BS_REL_SAME:
		break;
	}
	bs_buf_addc(b, ')');
}

void bs_rrel_say(const struct bs_report *rep, size_t i, int t, struct bs_buf *b)
{
	const struct bs_report_group *g = &rep->groups[i];
	enum bs_rrel rel = (enum bs_rrel)g->rel[t];

	if (rel != BS_REL_SAME)
		say(rep, i, t, rel, g->rel_param[t], g->rel_side[t], b);
}

void bs_rident_mark(struct bs_report *rep)
{
	struct bs_buf why = BS_BUF_INIT, one = BS_BUF_INIT;
	size_t i;
	int t, k, side;

	for (i = 0; i < rep->ngroups; i++) {
		struct bs_report_group *g = &rep->groups[i];
		const struct bs_report_group *b = &rep->groups[g->base];

		memset(g->rel, BS_REL_SAME, sizeof(g->rel));
		for (t = 0; t < BS_M_MAX; t++)
			g->rel_param[t] = -1;
		if (i == g->base)
			continue;
		bs_buf_reset(&why);
		for (t = 0; t < bs_nmetrics; t++) {
			enum bs_rrel rel;

			if (!bs_rhas_tests(g, t, t) || !bs_rhas_tests(b, t, t))
				continue;
			rel = relate(rep, g, b, t, &k, &side);
			g->rel[t] = (unsigned char)rel;
			g->rel_param[t] = (short)k;
			g->rel_side[t] = (unsigned char)side;
			if (rel == BS_REL_SAME || rel == BS_REL_SCALING)
				continue;
			/* Each reason once, in the order of the rows. */
			bs_buf_reset(&one);
			say(rep, i, t, rel, k, side, &one);
			if (strstr(bs_buf_str(&why), bs_buf_str(&one)))
				continue;
			if (why.len)
				bs_buf_adds(&why, "; ");
			bs_buf_adds(&why, bs_buf_str(&one));
		}
		if (why.len)
			g->rel_why = xstrdup(bs_buf_str(&why));
	}
	bs_buf_release(&why);
	bs_buf_release(&one);
}

/* How two implementations differ, from their family's equivalences:
 * the why of a row that names both. */
static void equiv_why(const struct bs_report *rep, size_t i, int t,
		      struct bs_buf *b)
{
	const struct bs_report_group *g = &rep->groups[i];
	const struct bs_rident *x = first_of(g, t);
	const struct bs_rident *y = first_of(&rep->groups[g->base], t);
	const struct bs_family_info *row = bs_family(bs_metrics[t].family);
	int j;

	const struct bs_equiv *best = NULL;
	int score = -1;

	if (x == NULL || y == NULL || x->id.impl == NULL || y->id.impl == NULL)
		return;
	/* The row of the methods in use: one whose condition holds on
	 * both sides, else on the side that says. */
	for (j = 0; j < row->nequiv; j++) {
		const struct bs_equiv *e = &row->equiv[j];
		int s;

		if (!((strcmp(e->a, x->id.impl->name) == 0 &&
		       strcmp(e->b, y->id.impl->name) == 0) ||
		      (strcmp(e->b, x->id.impl->name) == 0 &&
		       strcmp(e->a, y->id.impl->name) == 0)))
			continue;
		s = bs_ident_holds(&x->id, e->when) +
		    bs_ident_holds(&y->id, e->when);
		if (s > score) {
			score = s;
			best = e;
		}
	}
	if (best && score >= 0)
		bs_buf_addf(b, ": %s", best->why);
	else
		bs_buf_adds(b, ": they measure it their own ways");
}

/* One selector of a group's runs: "5", "5-7" when their ids run on, else
 * SELECTOR (no one selector names a list of ids). */
static void ids_selector(const struct bs_report_group *g, struct bs_buf *b)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int64_t j;

	for (j = 0; j < g->nruns; j++) {
		lo = g->ids[j] < lo ? g->ids[j] : lo;
		hi = g->ids[j] > hi ? g->ids[j] : hi;
	}
	if (g->nruns == 0 || hi - lo + 1 != g->nruns)
		bs_buf_adds(b, "SELECTOR");
	else if (lo == hi)
		bs_buf_addf(b, "%lld", (long long)lo);
	else
		bs_buf_addf(b, "%lld-%lld", (long long)lo, (long long)hi);
}

/* What the user can do about a relation, appended to its note. */
static void hint(const struct bs_report *rep, size_t i, int t, enum bs_rrel rel,
		 int k, struct bs_buf *b)
{
	const struct bs_param_rule *pr = k >= 0 ? rule_of(k) : NULL;

	switch (rel) {
	case BS_REL_APART:
		if (pr)
			bs_buf_addf(b, ": %s", pr->why);
		break;
	case BS_REL_CANT: {
		/* The command that gives it, as typed: the runs by id. */
		const struct bs_report_group *who =
			&rep->groups[rep->groups[i].rel_side[t]
					     ? rep->groups[i].base
					     : i];
		struct bs_buf sel = BS_BUF_INIT;

		ids_selector(who, &sel);
		bs_buf_addf(b,
			    ": the output does not say it; give it with "
			    "`bstore set %s %s=VALUE` (or `bstore ingest "
			    "--param %s=VALUE`)",
			    bs_buf_str(&sel), bs_param_table[k].key,
			    bs_param_table[k].key);
		bs_buf_release(&sel);
		break;
	}
	case BS_REL_RELATED:
		if (rep->groups[i].borrowed[t] ||
		    rep->groups[rep->groups[i].base].borrowed[t])
			bs_buf_addf(b, ": %s", related_of(t)->why);
		else
			equiv_why(rep, i, t, b);
		break;
	case BS_REL_MIXED:
		if (pr)
			bs_buf_addf(b, ": %s", pr->why);
		break;
	case BS_REL_SAME:
	case BS_REL_SCALING:
		break;
	}
}

void bs_rident_notes(struct bs_report *rep)
{
	struct bs_buf seen = BS_BUF_INIT, one = BS_BUF_INIT, n = BS_BUF_INIT;
	size_t i;
	int t;

	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];

		if (i == g->base || g->rel_why == NULL)
			continue;
		for (t = 0; t < bs_nmetrics; t++) {
			enum bs_rrel rel = (enum bs_rrel)g->rel[t];
			int k = g->rel_param[t];

			if (rel == BS_REL_SAME || rel == BS_REL_SCALING)
				continue;
			bs_buf_reset(&one);
			say(rep, i, t, rel, k, g->rel_side[t], &one);
			if (strstr(bs_buf_str(&seen), bs_buf_str(&one)))
				continue;
			bs_buf_addf(&seen, "%zu:%s\n", i, bs_buf_str(&one));
			bs_buf_reset(&n);
			bs_buf_addf(&n, "[%zu] against [%zu]: %s", i + 1,
				    g->base + 1, bs_buf_str(&one));
			hint(rep, i, t, rel, k, &n);
			bs_buf_adds(&n, "; given no verdict and no ratio in "
					"the summary");
			bs_rnote_add(rep, BS_NOTE_VERDICT, &n);
		}
	}
	bs_buf_release(&seen);
	bs_buf_release(&one);
	bs_buf_release(&n);
}
