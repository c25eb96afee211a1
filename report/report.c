/*
 * report/report.c - the comparison model: groups of runs read from the
 * source -> each group's cells, compared against its baseline and shaded
 * (report/report.h: bs_report_build). The notes (notes.c), labels
 * (labels.c), parameters (params.c) and the kept list of runs (runlist.c)
 * are rooms of their own.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* ---- accumulating runs --------------------------------------------- */

struct acc {
	struct bs_report *rep;
	struct bs_report_group *g;
	double m2[BS_RM_COUNT]; /* Welford's sums of squares */
	/* Every number of each metric, for its median (8 bytes a number:
	 * 29 MB for 100,000 runs of bonnie++'s 36 metrics). */
	double *vals[BS_RM_COUNT];
	size_t vals_cap[BS_RM_COUNT];
	size_t ids_cap;
	int tags_set; /* g->tags holds the first run's tags */
	int want_any; /* opts.want chooses the metrics */
};

/*
 * Keeps the BS_REPORT_LIST smallest distinct strings seen, sorted, so the
 * list does not depend on the order runs come in.
 */
static void list_add(char ***list, size_t *n, int *more, const char *s)
{
	size_t i, pos = 0;
	int c = 1;

	if (*list == NULL)
		*list = xcalloc(BS_REPORT_LIST, sizeof(**list));
	for (pos = 0; pos < *n; pos++) {
		c = strcmp(s, (*list)[pos]);
		if (c <= 0)
			break;
	}
	if (pos < *n && c == 0)
		return;
	if (*n == BS_REPORT_LIST) {
		*more = 1;
		if (pos == BS_REPORT_LIST)
			return;
		free((*list)[BS_REPORT_LIST - 1]);
		(*n)--;
	}
	for (i = *n; i > pos; i--)
		(*list)[i] = (*list)[i - 1];
	(*list)[pos] = xstrdup(s);
	(*n)++;
}

/* Keeps in g->tags only the tags r has too. */
static void tags_keep_common(struct bs_report_group *g, const struct bs_run *r,
			     int first)
{
	size_t i, j, k = 0;

	if (first) {
		g->tags = xcalloc(r->ntags ? r->ntags : 1, sizeof(*g->tags));
		for (i = 0; i < r->ntags; i++) {
			g->tags[g->ntags].key = xstrdup(r->tags[i].key);
			g->tags[g->ntags++].value = xstrdup(r->tags[i].value);
		}
		return;
	}
	for (i = 0; i < g->ntags; i++) {
		int found = 0;
		for (j = 0; j < r->ntags && !found; j++)
			found = strcmp(g->tags[i].key, r->tags[j].key) == 0 &&
				strcmp(g->tags[i].value, r->tags[j].value) == 0;
		if (found) {
			g->tags[k++] = g->tags[i];
		} else {
			free(g->tags[i].key);
			free(g->tags[i].value);
		}
	}
	g->ntags = k;
}

/* Counts r's tags in g->mix (struct bs_report_tagmix). */
static void mix_add(struct bs_report_group *g, const struct bs_run *r)
{
	size_t i, j, v;

	for (i = 0; i < r->ntags; i++) {
		struct bs_report_tagmix *x = NULL;

		for (j = 0; j < g->nmix && x == NULL; j++)
			if (strcmp(g->mix[j].key, r->tags[i].key) == 0)
				x = &g->mix[j];
		if (x == NULL) {
			if (g->nmix == BS_REPORT_MIX_KEYS)
				continue;
			if (g->mix == NULL)
				g->mix = xcalloc(BS_REPORT_MIX_KEYS,
						 sizeof(*g->mix));
			x = &g->mix[g->nmix++];
			x->key = xstrdup(r->tags[i].key);
		}
		x->seen++;
		for (v = 0; v < x->nval; v++)
			if (strcmp(x->val[v], r->tags[i].value) == 0)
				break;
		if (v < x->nval) {
			x->cnt[v]++;
		} else if (x->nval < BS_REPORT_LIST) {
			x->val[x->nval] = xstrdup(r->tags[i].value);
			x->cnt[x->nval++] = 1;
		} else {
			x->other++;
		}
	}
}

/* "bonnie++ 1.03" into out (without snprintf: this runs for every run). */
static void version_of(const struct bs_run *r, char *out, size_t outsz)
{
	const char *t = r->tool ? r->tool : "?";
	const char *v = r->tool_version ? r->tool_version : "?";
	size_t lt = strlen(t), lv = strlen(v);

	if (lt + lv + 2 > outsz) {
		lt = lt < outsz / 2 ? lt : outsz / 2 - 1;
		lv = outsz - lt - 2;
	}
	memcpy(out, t, lt);
	out[lt] = ' ';
	memcpy(out + lt + 1, v, lv);
	out[lt + 1 + lv] = '\0';
}

/* The word a run without a number of report metric m says, kept once per
 * cell: the same one show prints (latencies have their own, "no data",
 * in the renderers). */
static void absent_add(struct bs_report_cell *c, const struct bs_run *r, int m)
{
	enum bs_absent k = bs_absent_of(r, BS_RM_TEST(m));
	const char *w = bs_absent_words[k];

	c->absent_mask |= 1u << k;
	if (c->absent == NULL)
		c->absent = w;
	else if (strcmp(c->absent, w) != 0)
		c->absent = "no number";
}

static int add_run(const struct bs_run *r, void *ctx)
{
	struct acc *a = ctx;
	struct bs_report_group *g = a->g;
	struct bs_report *rep = a->rep;
	int first = g->nruns == 0, m, t0, t1;
	const struct bs_dialect *dl;
	double v, d;
	char ver[128];

	if (rep->runs)
		bs_rruns_keep(rep->runs, r, (uint32_t)(g - rep->groups));
	xgrow((void **)&g->ids, &a->ids_cap, (size_t)g->nruns + 1,
	      sizeof(*g->ids));
	g->ids[g->nruns++] = r->id;
	list_add(&g->machines, &g->nmachines, &g->more_machines,
		 bs_store_machine_name(r->machine));
	version_of(r, ver, sizeof(ver));
	list_add(&g->versions, &g->nversions, &g->more_versions, ver);
	tags_keep_common(g, r, first);
	mix_add(g, r);
	bs_rident_add(g, r);
	g->families |= 1u << r->family;
	g->fam_runs[r->family]++;
	bs_rparams_add(g, r, first);
	if (r->nseries)
		bs_rcurves_add(rep, (size_t)(g - rep->groups), r, a->want_any);
	if (r->nseries && r->family == BS_FAM_FIO)
		bs_rdist_add(rep, (size_t)(g - rep->groups), r);
	/* The metrics of the run's family: consecutive catalogue rows. */
	bs_metric_rows(r->family, &t0, &t1);
	dl = bs_dialect_of(r);
	for (m = BS_RM(t0, 0); m < BS_RM(t1, 0); m++) {
		struct bs_report_cell *c = &g->cell[m];
		switch (bs_rmetric(r, m, &v)) {
		case BS_ST_OK:
			c->ok++;
			/* The step its sources printed it in: the finest
			 * its numbers show (1.00 printed reads back as 1,
			 * whose digits say less than the print had). */
			if (BS_RM_KIND(m) == BS_MK_RATE) {
				double st = bs_dialect_step_in(dl, r,
							       BS_RM_TEST(m),
							       v);
				if (c->ok == 1 || st < c->step)
					c->step = st;
			}
			/* Welford: stable mean and variance in one pass. */
			d = v - c->mean;
			c->mean += d / (double)c->ok;
			a->m2[m] += d * (v - c->mean);
			xgrow((void **)&a->vals[m], &a->vals_cap[m],
			      (size_t)c->ok, sizeof(*a->vals[m]));
			a->vals[m][c->ok - 1] = v;
			if (c->ok == 1 || v < c->min)
				c->min = v;
			if (c->ok == 1 || v > c->max)
				c->max = v;
			if (isnan(rep->run_best[m]) ||
			    (bs_rm_better(m) > 0 ? v > rep->run_best[m]
						 : v < rep->run_best[m]))
				rep->run_best[m] = v;
			if (isnan(rep->run_worst[m]) ||
			    (bs_rm_better(m) > 0 ? v < rep->run_worst[m]
						 : v > rep->run_worst[m]))
				rep->run_worst[m] = v;
			break;
		case BS_ST_TOO_FAST:
			c->too_fast++;
			break;
		default:
			c->not_run++;
			absent_add(c, r, m);
			break;
		}
	}
	return 0;
}

/* ---- after the runs ------------------------------------------------ */

static void finish_cells(struct bs_report_group *g, struct acc *a)
{
	int m;

	for (m = 0; m < BS_RM_USED; m++) {
		struct bs_report_cell *c = &g->cell[m];
		c->diff = c->ratio = c->pct = NAN;
		c->shade = -1;
		if (c->ok > 0) {
			c->status = BS_ST_OK;
			c->sd = c->ok > 1 ? sqrt(a->m2[m] / (double)(c->ok - 1))
					  : NAN;
			c->median = bs_stat_median(a->vals[m], (size_t)c->ok);
			continue;
		}
		c->status = c->too_fast > 0 ? BS_ST_TOO_FAST : BS_ST_NOT_RUN;
		c->mean = c->sd = c->min = c->max = c->median = NAN;
	}
}

static void acc_release(struct acc *a)
{
	int m;

	for (m = 0; m < BS_RM_COUNT; m++)
		free(a->vals[m]);
}

int bs_rblock_start(const struct bs_report *rep, size_t i)
{
	return rep->multi_base && i > 0 &&
	       rep->groups[i].base != rep->groups[i - 1].base;
}

double bs_report_noise(const struct bs_report *rep)
{
	return rep->opts.noise_set ? rep->opts.noise_pct : BS_STAT_NOISE_PCT;
}

static struct bs_stat_sample sample_of(const struct bs_report_cell *c)
{
	struct bs_stat_sample x = {(double)c->ok, c->mean, c->sd};

	return x;
}

/* Does group g have a number or a "+++++" for any test in [t0, t1]? */
int bs_rhas_tests(const struct bs_report_group *g, int t0, int t1)
{
	int t;

	for (t = t0; t <= t1; t++)
		if (g->cell[BS_RM(t, BS_MK_RATE)].status != BS_ST_NOT_RUN)
			return 1;
	return 0;
}

int bs_rhas_rule(const struct bs_report_group *g,
		 const struct bs_param_rule *pr)
{
	int t;

	for (t = 0; t < bs_nmetrics; t++)
		if (bs_param_rule_covers(pr, t) && bs_rhas_tests(g, t, t))
			return 1;
	return 0;
}

/*
 * Whether report metric m is one the page makes claims on, so that it is
 * tested and counted in Holm's correction: a rate (the value of a
 * catalogue row, not bonnie++'s %CPU or maximum latency of one
 * operation, which are context) with a better side, shown. The summary
 * counts the same metrics (docs/report.md, "The tests of a page").
 */
static int claimed(const struct bs_report *rep, int m)
{
	return rep->shown[m] && BS_RM_KIND(m) == BS_MK_RATE &&
	       bs_rm_better(m) != 0;
}

/*
 * Every group against the baseline: diff, ratio and change; the ratio's
 * interval and Welch's test of the claimed metrics of the same test, the
 * p-values corrected together over the page (Holm), then each cell's
 * verdict (report/stats.h): from its relation when it is not the same
 * test (report/ident.c), none for context.
 */
static void compare(struct bs_report *rep)
{
	double noise = bs_report_noise(rep);
	size_t i, n = rep->ngroups * (size_t)BS_RM_USED, *scratch;
	double *p = xmalloc(n * sizeof(*p));
	int m;

	scratch = xmalloc(n * sizeof(*scratch));
	for (i = 0; i < rep->ngroups; i++) {
		struct bs_report_group *g = &rep->groups[i];
		const struct bs_report_group *b = &rep->groups[g->base];

		for (m = 0; m < BS_RM_USED; m++) {
			struct bs_report_cell *c = &g->cell[m];
			const struct bs_report_cell *bc = &b->cell[m];
			struct bs_stat_sample gs = sample_of(c);
			struct bs_stat_sample bs = sample_of(bc);

			p[i * (size_t)BS_RM_USED + (size_t)m] = NAN;
			c->ci = c->status == BS_ST_OK ? bs_stat_mean_ci(&gs)
						      : NAN;
			c->ratio_lo = c->ratio_hi = c->p = NAN;
			c->verdict = BS_V_NONE;
			if (i == g->base || c->status != BS_ST_OK ||
			    bc->status != BS_ST_OK)
				continue;
			c->diff = c->mean - bc->mean;
			if (bc->mean != 0) {
				c->ratio = c->mean / bc->mean;
				/* Not (ratio - 1) * 100: 6 / 30 gives 20.0. */
				c->pct = c->diff * 100.0 / bc->mean;
			}
			/* +1 when the change goes the better way. */
			if (c->mean != bc->mean)
				c->better = (c->mean > bc->mean ? 1 : -1) *
					    bs_rm_better(m);
			if (!bs_stat_ratio_ci(&gs, &bs, &c->ratio_lo,
					      &c->ratio_hi))
				c->ratio_lo = c->ratio_hi = NAN;
			/* Not the same test: no side is better, and no test
			 * is counted in Holm's correction. */
			if (g->rel[BS_RM_TEST(m)] != BS_REL_SAME) {
				c->better = 0;
				continue;
			}
			if (!claimed(rep, m))
				continue;
			/* Within the precision either side was printed in
			 * (sysbench's 0.06 against 0.0627): no change, and
			 * nothing to test. */
			if (fabs(c->diff) <= (c->step + bc->step) / 2) {
				c->in_print = 1;
				continue;
			}
			p[i * (size_t)BS_RM_USED + (size_t)m] =
				bs_stat_welch_p(&gs, &bs);
			if (!isnan(p[i * (size_t)BS_RM_USED + (size_t)m]))
				rep->ntests++;
		}
	}
	bs_stat_holm(p, n, scratch);
	for (i = 0; i < rep->ngroups; i++) {
		for (m = 0; m < BS_RM_USED; m++) {
			struct bs_report_cell *c = &rep->groups[i].cell[m];

			if (i == rep->groups[i].base || isnan(c->pct))
				continue;
			enum bs_rrel rel =
				(enum bs_rrel)rep->groups[i].rel[BS_RM_TEST(m)];

			c->p = p[i * (size_t)BS_RM_USED + (size_t)m];
			if (rel != BS_REL_SAME)
				c->verdict = bs_rrel_verdict(rel);
			else if (c->in_print)
				c->verdict = BS_V_NOISE;
			else if (claimed(rep, m))
				c->verdict = bs_stat_verdict(c->pct,
							     bs_rm_better(m),
							     c->p, noise);
		}
	}
	free(p);
	free(scratch);
}

/* Marks the best group per metric and shades the others against it. */
static void shade(struct bs_report *rep)
{
	size_t i;
	int m, distinct;
	double best, first;

	for (m = 0; m < BS_RM_USED; m++) {
		best = first = NAN;
		distinct = 0;
		for (i = 0; i < rep->ngroups; i++) {
			const struct bs_report_cell *c =
				&rep->groups[i].cell[m];
			if (c->status != BS_ST_OK)
				continue;
			if (isnan(first))
				first = c->mean;
			else if (c->mean != first)
				distinct = 1;
			if (isnan(best) ||
			    (bs_rm_better(m) > 0 ? c->mean > best
						 : c->mean < best))
				best = c->mean;
		}
		/* One number, or all equal, or no better side: nothing to
		 * rank. */
		if (!distinct || bs_rm_better(m) == 0)
			continue;
		for (i = 0; i < rep->ngroups; i++) {
			struct bs_report_cell *c = &rep->groups[i].cell[m];
			if (c->status != BS_ST_OK)
				continue;
			c->best = c->mean == best;
			c->shade = bs_rshade(bs_rm_better(m), c->mean, best);
		}
	}
}

/*
 * Metrics of two families that measure alike (core/family.h, a family
 * row's related): when the report holds runs of both, a group without a
 * number in the row's own metric gets the other family's (dd's write
 * rate in bonnie++'s Block write row), so that the two stand side by
 * side; such a row is related only (report/ident.c: no verdict), and a
 * note says which groups and how the tests differ.
 */
static void same_tests(struct bs_report *rep)
{
	struct bs_buf b = BS_BUF_INIT;
	unsigned fams = 0;
	size_t i;
	int f, k;

	for (i = 0; i < rep->ngroups; i++)
		fams |= rep->groups[i].families;
	for (f = 0; f < BS_FAM_COUNT; f++) {
		const struct bs_family_info *row = bs_family((enum bs_family)f);

		for (k = 0; k < row->nrelated; k++) {
			const struct bs_related *s = &row->related[k];
			int from = bs_metric_find(s->from, s->from_key);
			int to = bs_metric_find((enum bs_family)f, s->key);
			int n = 0, fm, tm;

			if (from < 0 || to < 0)
				BS_BUG("a related row names a metric not in "
				       "the catalogue");
			fm = BS_RM(from, BS_MK_RATE);
			tm = BS_RM(to, BS_MK_RATE);
			if (!((fams >> s->from) & 1) || !((fams >> f) & 1))
				continue;
			for (i = 0; i < rep->ngroups; i++) {
				struct bs_report_group *g = &rep->groups[i];
				struct bs_report_cell *fc = &g->cell[fm];

				if (g->cell[tm].ok + g->cell[tm].too_fast > 0 ||
				    fc->ok + fc->too_fast == 0)
					continue;
				g->cell[tm] = *fc;
				g->borrowed[to] = 1;
				if (fc->ok > 0) {
					if (isnan(rep->run_best[tm]) ||
					    fc->max > rep->run_best[tm])
						rep->run_best[tm] = fc->max;
					if (isnan(rep->run_worst[tm]) ||
					    fc->min < rep->run_worst[tm])
						rep->run_worst[tm] = fc->min;
				}
				if (n++ == 0)
					bs_buf_addf(
						&b,
						"%s %s and %s are different "
						"tools (%s); their rates (%s) "
						"share the %s row, related "
						"only, for",
						bs_family_name(s->from),
						bs_metrics[from].label,
						bs_metrics[to].label, s->why,
						bs_metrics[to].unit,
						bs_metrics[to].label);
				bs_buf_addf(&b, "%s [%zu]", n > 1 ? "," : "",
					    i + 1);
			}
			if (n > 0)
				bs_rnote_add(rep, BS_NOTE_RELATED, &b);
		}
	}
	bs_buf_release(&b);
}

int bs_report_build(struct bs_report **out, const struct bs_report_opts *opts,
		    const char *const *selectors, size_t ngroups,
		    const struct bs_report_source *src, struct bs_err *err)
{
	struct bs_report *rep;
	struct acc a;
	size_t i;
	int m, rc = 0, want_any = 0;
	char q[64];

	*out = NULL;
	if (ngroups == 0)
		return bs_error(err, BS_EINVAL, "a report needs a group");
	if (opts->baseline >= ngroups)
		return bs_error(err, BS_EINVAL,
				"baseline %zu is not a group (1 to %zu)",
				opts->baseline + 1, ngroups);
	for (i = 0; opts->bases && i < ngroups; i++)
		if (opts->bases[i] >= ngroups ||
		    opts->bases[opts->bases[i]] != opts->bases[i])
			return bs_error(err, BS_EINVAL,
					"group %zu's baseline %zu is not a "
					"baseline group",
					i + 1, opts->bases[i] + 1);
	rep = xcalloc(1, sizeof(*rep));
	rep->opts = *opts;
	/* The caller's; rep->title and the groups' labels are copies. */
	rep->opts.title = NULL;
	rep->opts.labels = NULL;
	rep->opts.bases = NULL;
	rep->opts.sweep = NULL;
	rep->sweep = opts->sweep ? xstrdup(opts->sweep) : NULL;
	for (i = 0; i < (size_t)BS_FAM_COUNT; i++)
		rep->sweep_row[i] =
			opts->sweep ? bs_param_find_in((enum bs_family)i,
						       opts->sweep)
				    : -1;
	rep->ngroups = ngroups;
	rep->groups = xcalloc(ngroups, sizeof(*rep->groups));
	for (i = 0; i < ngroups; i++) {
		rep->groups[i].base = opts->bases ? opts->bases[i]
						  : opts->baseline;
		if (rep->groups[i].base != rep->groups[0].base)
			rep->multi_base = 1;
	}
	if (opts->list_runs)
		rep->runs = xcalloc(1, sizeof(*rep->runs));
	for (m = 0; m < BS_RM_USED; m++) {
		rep->run_best[m] = rep->run_worst[m] = NAN;
		want_any |= opts->want[m];
	}
	bs_rlabels_make(rep, opts, selectors);
	for (i = 0; i < ngroups; i++) {
		struct bs_report_group *g = &rep->groups[i];
		memset(&a, 0, sizeof(a));
		a.rep = rep;
		a.g = g;
		a.want_any = want_any;
		rc = src->each(src->ctx, i, add_run, &a, err);
		if (rc < 0) {
			acc_release(&a);
			goto fail;
		}
		if (g->nruns == 0) {
			rc = bs_error(err, BS_ENOTFOUND,
				      "selector '%s' matches no runs",
				      bs_err_quote(q, sizeof(q), selectors[i],
						   strlen(selectors[i]), 40));
			goto fail;
		}
		rep->nruns += g->nruns;
		finish_cells(g, &a);
		acc_release(&a);
	}
	same_tests(rep);
	for (m = 0; m < BS_RM_USED; m++) {
		if (want_any && !opts->want[m])
			continue;
		for (i = 0; i < ngroups; i++)
			if (rep->groups[i].cell[m].status != BS_ST_NOT_RUN)
				rep->shown[m] = 1;
	}
	if (opts->units == BS_UNITS_MIB)
		rep->show = BS_SHOW_MIB;
	else if (opts->units == BS_UNITS_KIB)
		rep->show = BS_SHOW_KIB;
	else if (opts->units == BS_UNITS_MB)
		rep->show = BS_SHOW_MB;
	bs_rident_mark(rep);
	compare(rep);
	bs_report_summarise(rep);
	shade(rep);
	bs_rnotes(rep);
	bs_rcurves_finish(rep);
	*out = rep;
	return 0;
fail:
	bs_report_free(rep);
	return rc;
}

static void free_list(char **l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

static void free_list2(char **l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(l[i]);
}

void bs_report_free(struct bs_report *rep)
{
	size_t i, j;
	int k;

	if (rep == NULL)
		return;
	for (i = 0; i < rep->ngroups; i++) {
		struct bs_report_group *g = &rep->groups[i];
		free(g->label);
		free(g->selector);
		free(g->sum.sentence);
		bs_rident_release(g);
		free(g->ids);
		free_list(g->machines, g->nmachines);
		free_list(g->versions, g->nversions);
		for (j = 0; j < g->ntags; j++) {
			free(g->tags[j].key);
			free(g->tags[j].value);
		}
		free(g->tags);
		for (j = 0; j < g->nmix; j++) {
			free(g->mix[j].key);
			free_list2(g->mix[j].val, g->mix[j].nval);
		}
		free(g->mix);
		for (k = 0; k < bs_nparams; k++) {
			free(g->param[k].text);
			for (j = 0; j < g->param[k].nvals; j++)
				free(g->param[k].vals[j].t);
		}
	}
	free(rep->groups);
	bs_rruns_free(rep->runs);
	bs_rcurves_free(rep);
	bs_rdist_free(rep);
	free_list(rep->notes, rep->nnotes);
	free(rep->note_rank);
	free(rep->sweep);
	free(rep->title);
	free(rep);
}
