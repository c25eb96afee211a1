/*
 * report/render_html.c - what the HTML page gets besides the model: per
 * bonnie++ section a table of the groups with diff, ratio and change rows
 * and a bar chart (SECTION), the head of the list of runs (RUN_COL), and
 * the list of runs itself, streamed: PART_RUNS is expanded once per batch
 * of runs, so memory does not grow with them.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "core/host.h"
#include "report/chart.h"
#include "report/internal.h"
#include "report/tmpl/tmpl.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* Runs per expansion of the HTML page's PART_RUNS. */
#define RUNS_BATCH 512

/* ---- HTML: tables and charts per bonnie++ section ------------------- */

static const char *unit_head(const struct bs_report *rep, int m)
{
	int t = BS_RM_TEST(m);

	switch (BS_RM_KIND(m)) {
	case BS_MK_CPU:
		return "%CPU";
	case BS_MK_LAT:
		return "latency";
	default:
		break;
	}
	/* bonnie++'s own heads: seeks and files "/s". */
	if (bs_metrics[t].family == BS_FAM_BONNIE &&
	    !(bs_metrics[t].flags & BS_MF_KIB))
		return "/s";
	return bs_report_unit(rep, m);
}

/* What a cell without a number says; bonnie++ 1.0x has no latencies. */
static const char *status_words(int m, const struct bs_report_cell *x)
{
	if (x->status == BS_ST_TOO_FAST)
		return "too fast";
	if (BS_RM_KIND(m) == BS_MK_LAT)
		return "no data";
	/* The word show prints for its runs (bs_absent_word). */
	return x->absent ? x->absent : "not run";
}

static void html_value_cell(const struct bs_report *rep, int m, size_t i,
			    struct bs_tdict *c)
{
	const struct bs_report_group *g = &rep->groups[i];
	const struct bs_report_cell *x = &g->cell[m];
	char s[64];

	bs_tdict_set(c, "CLASS", "");
	bs_tdict_set(c, "TIP", "");
	if (x->status != BS_ST_OK) {
		bs_tdict_set(c, "TEXT", status_words(m, x));
		bs_tdict_set(c, "CLASS",
			     x->status == BS_ST_TOO_FAST ? "tf" : "nr");
		bs_tdict_set(c, "TIP",
			     x->status == BS_ST_TOO_FAST
				     ? "too fast to measure: the test took "
				       "under 0.5 s (bonnie++ +++++)"
			     : BS_RM_KIND(m) == BS_MK_LAT
				     ? "no latency recorded"
				     : status_words(m, x));
		return;
	}
	bs_tdict_set(c, "TEXT", bs_rfmt_h(rep, m, x->mean, s, sizeof(s)));
	/* One colour system: verdicts colour the changes and bars; a
	 * value is only bold when it is the column's best. */
	if (x->best && x->shade >= 0)
		bs_tdict_set(c, "CLASS", "best");
	if (g->nruns > 1) {
		struct bs_tdict *st = bs_tdict_add(c, "STATS");
		bs_tdict_set(st, "SD",
			     isnan(x->sd)
				     ? "-"
				     : bs_rfmt_h(rep, m, x->sd, s, sizeof(s)));
		bs_tdict_set(st, "MIN",
			     bs_rfmt_h(rep, m, x->min, s, sizeof(s)));
		bs_tdict_set(st, "MAX",
			     bs_rfmt_h(rep, m, x->max, s, sizeof(s)));
		bs_tdict_set_i64(st, "N", x->ok);
		bs_tdict_set_i64(st, "OF", g->nruns);
		/* With two numbers the median is their mean. */
		if (x->ok >= 3)
			bs_tdict_set(bs_tdict_add(st, "HAS_MEDIAN"), "MEDIAN",
				     bs_rfmt_h(rep, m, x->median, s,
					       sizeof(s)));
		/* The spread relative to the mean, where there is one. */
		{
			struct bs_stat_sample smp = {(double)x->ok, x->mean,
						     x->sd};
			double cv = bs_stat_cv(&smp);

			if (!isnan(cv))
				bs_tdict_setf(bs_tdict_add(st, "HAS_CV"), "CV",
					      "%.1f%%", cv * 100);
		}
	}
}

enum { ROW_VALUE, ROW_DIFF, ROW_RATIO, ROW_PCT };

/* The change cell's tip: the verdict in words, with its numbers. */
static void verdict_tip(const struct bs_report *rep, size_t i, int m,
			struct bs_tdict *c)
{
	struct bs_buf b = BS_BUF_INIT;

	bs_rsay_cell(rep, i, m, &b);
	bs_tdict_set(c, "TIP", bs_buf_str(&b));
	bs_buf_release(&b);
}

static void html_row(const struct bs_report *rep, int t0, int t1, size_t i,
		     int kind, struct bs_tdict *r)
{
	static const char *const cls[] = {"val", "diff", "ratio", "pct"};
	const struct bs_report_group *g = &rep->groups[i];
	char s1[64];
	int m;

	assert(kind >= ROW_VALUE && kind <= ROW_PCT && i < rep->ngroups);
	bs_tdict_setf(r, "CLASS", "%s%s", cls[kind],
		      kind == ROW_VALUE && bs_rblock_start(rep, i) ? " blk"
								   : "");
	bs_tdict_set_i64(r, "GROUP", (int64_t)i + 1);
	bs_tdict_set_i64(r, "BASE", (int64_t)g->base + 1);
	bs_tdict_set(r, "LABEL", g->label);
	bs_tdict_show(r, kind == ROW_VALUE   ? "IS_VALUE"
			 : kind == ROW_DIFF  ? "IS_DIFF"
			 : kind == ROW_RATIO ? "IS_RATIO"
					     : "IS_PCT");
	if (kind == ROW_VALUE && i == g->base && rep->ngroups > 1)
		bs_tdict_show(r, "IS_BASELINE");
	for (m = BS_RM(t0, 0); m < BS_RM(t1, 0); m++) {
		const struct bs_report_cell *x = &g->cell[m];
		struct bs_tdict *c;
		if (!rep->shown[m])
			continue;
		c = bs_tdict_add(r, "CELL");
		bs_tdict_set(c, "KEY", bs_report_metric_key(m, s1, sizeof(s1)));
		if (kind == ROW_VALUE) {
			html_value_cell(rep, m, i, c);
			continue;
		}
		if (kind == ROW_DIFF)
			bs_rfmt_h(rep, m, x->diff, s1, sizeof(s1));
		else if (kind == ROW_RATIO)
			bs_rfmt_ratio(x->ratio, s1, sizeof(s1));
		else
			bs_rfmt_pct(x->pct, s1, sizeof(s1));
		bs_tdict_set(c, "TEXT", s1);
		bs_tdict_set(c, "TIP", "");
		bs_tdict_set(c, "CLASS", "");
		if (kind == ROW_PCT && !isnan(x->pct)) {
			bs_tdict_set(c, "CLASS", bs_rverdict_class(x));
			verdict_tip(rep, i, m, c);
		}
	}
}

/* A bar's share of the axis, in percent of the track ("41.27"). */
static void set_pct(struct bs_tdict *d, const char *name, double v,
		    const struct bs_axis *a)
{
	double p = v / a->hi * 100;

	bs_tdict_setf(d, name, "%.2f", p < 0 ? 0 : p > 100 ? 100 : p);
}

/* The tip of a bar: what it shows, in words. */
static void bar_tip(const struct bs_report *rep, int m, size_t i,
		    struct bs_tdict *bar)
{
	const struct bs_report_cell *c = &rep->groups[i].cell[m];
	char v[64], lo[64], hi[64];

	if (c->status != BS_ST_OK) {
		bs_tdict_setf(bar, "TIP", "[%zu] %s: %s", i + 1,
			      rep->groups[i].label, status_words(m, c));
		return;
	}
	bs_rfmt_h(rep, m, c->mean, v, sizeof(v));
	if (c->ok >= BS_STAT_MIN_N && !isnan(c->ci))
		bs_tdict_setf(bar, "TIP",
			      "[%zu] %s: mean %s %s of %lld runs, 95%% "
			      "interval %s to %s",
			      i + 1, rep->groups[i].label, v,
			      bs_report_unit(rep, m), (long long)c->ok,
			      bs_rfmt_h(rep, m, c->mean - c->ci, lo,
					sizeof(lo)),
			      bs_rfmt_h(rep, m, c->mean + c->ci, hi,
					sizeof(hi)));
	else
		bs_tdict_setf(bar, "TIP", "[%zu] %s: %s %s (%lld %s)", i + 1,
			      rep->groups[i].label, v, bs_report_unit(rep, m),
			      (long long)c->ok, c->ok == 1 ? "run" : "runs");
}

/*
 * A bar chart per rate of the section (CHART > BLOCK): a bar per group
 * (BAR: its width WP in percent of the axis, its class, the value; the
 * mean's 95% interval as an error bar ERR from 3 runs, as with 2 the
 * interval t(0.975, 1) = 12.7 sd says nothing), an axis from 0 in nice
 * steps (TICK: P percent, LABEL) and NTICKS for the grid lines; none
 * for a rate no group has a number for. Drawn by CSS in the page's own
 * font: it reads at any width.
 */
static void html_chart(const struct bs_report *rep, int t0, int t1,
		       struct bs_tdict *sec)
{
	struct bs_tdict *ch = NULL, *bl;
	struct bs_axis ax;
	char v[64], label[96];
	double k_unit;
	int t, m, k, nt;
	size_t i;

	for (t = t0; t < t1; t++) {
		double max = 0;
		int any = 0;
		m = BS_RM(t, BS_MK_RATE);
		if (!rep->shown[m])
			continue;
		for (i = 0; i < rep->ngroups; i++) {
			const struct bs_report_cell *c =
				&rep->groups[i].cell[m];
			double top = c->mean +
				     (c->ok >= BS_STAT_MIN_N && !isnan(c->ci)
					      ? c->ci
					      : 0);
			if (c->status != BS_ST_OK)
				continue;
			any = 1;
			if (top > max)
				max = top;
		}
		/* Every group too fast or not run: the table says so, and a
		 * chart would have no bar. */
		if (!any)
			continue;
		/* The axis in the unit the page shows (MiB/s or KiB/s). */
		k_unit = bs_rscale(rep, m, 1.0);
		bs_axis_make(&ax, 0, max > 0 ? max * k_unit : 1, 4);
		if (ch == NULL)
			ch = bs_tdict_add(sec, "CHART");
		bl = bs_tdict_add(ch, "BLOCK");
		bs_tdict_setf(bl, "BTITLE", "%s, %s%s",
			      bs_rm_label(m, label, sizeof(label)),
			      bs_report_unit(rep, m),
			      bs_rm_better(m) > 0   ? " (higher is better)"
			      : bs_rm_better(m) < 0 ? " (lower is better)"
						    : "");
		nt = (int)floor((ax.hi - ax.lo) / ax.step + 0.5);
		bs_tdict_set_i64(bl, "NTICKS", nt);
		for (k = 0; k <= nt; k++) {
			struct bs_tdict *tk = bs_tdict_add(bl, "TICK");
			char num[64];
			set_pct(tk, "P", ax.lo + k * ax.step, &ax);
			bs_fmt_double(num, sizeof(num), ax.lo + k * ax.step,
				      ax.decimals);
			bs_tdict_set(tk, "LABEL",
				     bs_rfmt_thousands(num, v, sizeof(v)));
		}
		for (i = 0; i < rep->ngroups; i++) {
			const struct bs_report_cell *c =
				&rep->groups[i].cell[m];
			struct bs_tdict *bar = bs_tdict_add(bl, "BAR");

			/* A gap before each block of its own baseline. */
			if (bs_rblock_start(rep, i))
				bs_tdict_show(bar, "GAP");
			bs_tdict_set_i64(bar, "G", (int64_t)i + 1);
			bs_tdict_set(bar, "BLABEL", rep->groups[i].label);
			bar_tip(rep, m, i, bar);
			if (c->status != BS_ST_OK) {
				bs_tdict_set(bar, "VALUE", status_words(m, c));
				bs_tdict_show(bar, "NOVAL");
				continue;
			}
			bs_tdict_set(bar, "VALUE",
				     bs_rfmt_h(rep, m, c->mean, v, sizeof(v)));
			{
				struct bs_tdict *b =
					bs_tdict_add(bar, "HAS_BAR");
				set_pct(b, "WP", c->mean * k_unit, &ax);
				bs_tdict_set(b, "BCLASS",
					     i == rep->groups[i].base ? "base"
					     : c->verdict == BS_V_NOISE ||
							     c->verdict ==
								     BS_V_NONE
						     ? "same"
						     : bs_rverdict_class(c));
			}
			if (c->ok >= BS_STAT_MIN_N && !isnan(c->ci)) {
				struct bs_tdict *e = bs_tdict_add(bar, "ERR");
				double lo = c->mean - c->ci;
				if (lo < 0)
					lo = 0;
				set_pct(e, "EL", lo * k_unit, &ax);
				bs_tdict_setf(e, "EW", "%.2f",
					      (c->mean + c->ci - lo) * k_unit /
						      ax.hi * 100);
			}
		}
	}
}

/* A host fact over a group's runs: its value, the values with their run
 * counts when runs differ ("ext4 (2), xfs (1)"), "unknown" when no run
 * has it; with "unknown (N)" for runs without it. */
static void host_cell(const struct bs_report_group *g, const char *key,
		      struct bs_buf *b)
{
	const struct bs_report_tagmix *x = NULL;
	size_t i;

	for (i = 0; i < g->nmix && x == NULL; i++)
		if (strcmp(g->mix[i].key, key) == 0)
			x = &g->mix[i];
	if (x == NULL || x->seen == 0) {
		bs_buf_adds(b, "unknown");
		return;
	}
	if (x->nval == 1 && x->other == 0 && x->seen == g->nruns) {
		bs_buf_adds(b, x->val[0]);
		return;
	}
	for (i = 0; i < x->nval; i++)
		bs_buf_addf(b, "%s%s (%lld)", i ? ", " : "", x->val[i],
			    (long long)x->cnt[i]);
	if (x->other)
		bs_buf_addf(b, ", other (%lld)", (long long)x->other);
	if (x->seen < g->nruns)
		bs_buf_addf(b, ", unknown (%lld)",
			    (long long)(g->nruns - x->seen));
}

/*
 * HOSTS: the host facts `bstore run` records (core/host.h's table), a
 * column per fact some group's runs have, a row per group (FACT > NAME;
 * HOST > INDEX, LABEL, CELL > TEXT). Not shown when no run has any.
 */
static void html_hosts(const struct bs_report *rep, struct bs_tdict *d)
{
	unsigned char shown[64] = {0};
	struct bs_tdict *hs = NULL;
	struct bs_buf b = BS_BUF_INIT;
	size_t i, j;
	int k;

	for (k = 0; k < bs_nhost_facts && k < 64; k++)
		for (i = 0; i < rep->ngroups && !shown[k]; i++)
			for (j = 0; j < rep->groups[i].nmix; j++)
				if (strcmp(rep->groups[i].mix[j].key,
					   bs_host_facts[k].key) == 0 &&
				    rep->groups[i].mix[j].seen > 0)
					shown[k] = 1;
	for (k = 0; k < bs_nhost_facts && k < 64; k++) {
		if (!shown[k])
			continue;
		if (hs == NULL)
			hs = bs_tdict_add(d, "HOSTS");
		bs_tdict_set(bs_tdict_add(hs, "FACT"), "NAME",
			     bs_host_facts[k].label);
	}
	if (hs == NULL)
		return;
	for (i = 0; i < rep->ngroups; i++) {
		struct bs_tdict *row = bs_tdict_add(hs, "HOST");

		bs_tdict_set_i64(row, "INDEX", (int64_t)i + 1);
		bs_tdict_set(row, "LABEL", rep->groups[i].label);
		for (k = 0; k < bs_nhost_facts && k < 64; k++) {
			if (!shown[k])
				continue;
			bs_buf_reset(&b);
			host_cell(&rep->groups[i], bs_host_facts[k].key, &b);
			bs_tdict_set(bs_tdict_add(row, "CELL"), "TEXT",
				     bs_buf_str(&b));
		}
	}
	bs_buf_release(&b);
}

void bs_rhtml_fill(const struct bs_report *rep, struct bs_tdict *d)
{
	size_t i, j;
	unsigned fams;
	int sn, t0, t1, m, t, any, first_curves = 1;
	char key[32];

	html_hosts(rep, d);
	bs_rsweep_html(rep, d);
	bs_rdist_html(rep, d);
	/* A section is consecutive catalogue rows; its id counts every
	 * section of the catalogue, so that it stays the same whichever
	 * sections a report shows. */
	for (sn = 1, t0 = 0; t0 < bs_nmetrics; t0 = t1, sn++) {
		struct bs_tdict *sec;
		t1 = bs_rsection_end(t0);
		any = 0;
		for (m = BS_RM(t0, 0); m < BS_RM(t1, 0); m++)
			any |= rep->shown[m];
		if (!any)
			continue;
		sec = bs_tdict_add(d, "SECTION");
		bs_tdict_set(sec, "NAME", bs_metrics[t0].section);
		bs_tdict_setf(sec, "ID", "sec%d", sn);
		for (t = t0; t < t1; t++) {
			struct bs_tdict *th = NULL;
			int span = 0;
			for (m = BS_RM(t, 0); m < BS_RM(t + 1, 0); m++) {
				struct bs_tdict *c;
				if (!rep->shown[m])
					continue;
				if (th == NULL) {
					th = bs_tdict_add(sec, "TEST");
					bs_tdict_set(th, "TITLE",
						     bs_metrics[t].label);
				}
				span++;
				c = bs_tdict_add(sec, "COL");
				bs_tdict_set(c, "UNIT", unit_head(rep, m));
				bs_tdict_set(c, "KEY",
					     bs_report_metric_key(m, key,
								  sizeof(key)));
				bs_tdict_set(c, "KIND", bs_rm_kind(m));
			}
			if (th)
				bs_tdict_set_i64(th, "SPAN", span);
		}
		for (i = 0; i < rep->ngroups; i++)
			html_row(rep, t0, t1, i, ROW_VALUE,
				 bs_tdict_add(sec, "ROW"));
		for (j = 0; j < 3; j++)
			for (i = 0; i < rep->ngroups; i++)
				if (i != rep->groups[i].base)
					html_row(rep, t0, t1, i,
						 (int)j + ROW_DIFF,
						 bs_tdict_add(sec, "ROW"));
		html_chart(rep, t0, t1, sec);
		for (t = t0; t < t1; t++)
			if (bs_rcurves_html(rep, t, first_curves, sec))
				first_curves = 0;
	}
	/* The header of the list of runs: the rates it shows
	 * (bs_rlist_slot), and bonnie++'s file size when it has runs. */
	fams = 0;
	for (i = 0; i < rep->ngroups; i++)
		fams |= rep->groups[i].families;
	if (fams & (1u << BS_FAM_BONNIE))
		bs_tdict_show(d, "HAS_SIZE");
	for (t = 0; t < bs_nmetrics; t++) {
		struct bs_tdict *th;
		m = BS_RM(t, BS_MK_RATE);
		if (!rep->shown[m] || bs_rlist_slot(t) < 0)
			continue;
		th = bs_tdict_add(d, "RUN_COL");
		/* Several tools: say whose ("Read" is sysbench's, zcav's,
		 * dd's). */
		if (fams & (fams - 1))
			bs_tdict_setf(th, "TITLE", "%s (%s)",
				      bs_metrics[t].label,
				      bs_family_name(bs_metrics[t].family));
		else
			bs_tdict_set(th, "TITLE", bs_metrics[t].label);
		bs_tdict_set(th, "UNIT", unit_head(rep, m));
	}
}

/* ---- HTML: the list of runs, streamed ------------------------------- */

struct runs_ctx {
	const struct bs_report *rep;
	const struct bs_tmpl_set *ts;
	FILE *out;
	struct bs_tdict *d;
	struct bs_rruns *pool; /* strings of the rows */
	uint32_t group;        /* of the rows read again from the source */
	int64_t last_group;
	int batched;     /* runs in d */
	size_t in_group; /* rows listed of the group being listed */
	size_t cut;      /* of its rows not listed (opts.list_max) */
	int ncols;
	int has_size;       /* bonnie++ runs: their file size */
	int slot[BS_M_MAX]; /* bs_rlist_slot of each catalogue row */
	struct bs_err *err;
};

static const char *const shade_class[11] = {
	"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10",
};

static int runs_flush(struct runs_ctx *rc)
{
	int r;

	if (rc->batched == 0)
		return 0;
	bs_tdict_show(rc->d, "PART_RUNS");
	r = bs_tmpl_expand_file(rc->ts, "report.html", rc->d, rc->out, rc->err);
	bs_tdict_clear(rc->d);
	rc->batched = 0;
	return r;
}

/* After the rows of a group cut at opts.list_max: how many more. */
static int cut_flush(struct runs_ctx *rc)
{
	struct bs_tdict *c;
	int r;

	if (rc->cut == 0)
		return 0;
	r = runs_flush(rc);
	if (r < 0)
		return r;
	c = bs_tdict_add(rc->d, "RUNS_CUT");
	bs_tdict_set_i64(c, "COLSPAN", rc->ncols);
	bs_tdict_setf(c, "TEXT",
		      "and %zu more runs of [%lld] %s, not listed here: "
		      "bstore report lists every run",
		      rc->cut, (long long)rc->last_group + 1,
		      rc->rep->groups[rc->last_group].label);
	rc->cut = 0;
	rc->batched = 1;
	return runs_flush(rc);
}

static int runs_row(struct runs_ctx *rc, const struct bs_rrow *row)
{
	const struct bs_report *rep = rc->rep;
	struct bs_tdict *d, *c;
	char s[64];
	int m, k, t;

	assert(row->group < rep->ngroups);
	assert(row->machine < rc->pool->pool.n &&
	       row->version < rc->pool->pool.n);
	if ((int64_t)row->group != rc->last_group) {
		int r = cut_flush(rc);
		if (r < 0)
			return r;
		rc->in_group = 0;
	}
	if (rep->opts.list_max && rc->in_group >= rep->opts.list_max) {
		rc->cut++;
		return 0;
	}
	rc->in_group++;
	d = bs_tdict_add(rc->d, "RUN");
	if ((int64_t)row->group != rc->last_group) {
		struct bs_tdict *gs = bs_tdict_add(d, "GROUP_START");
		rc->last_group = row->group;
		bs_tdict_set(gs, "LABEL", rep->groups[row->group].label);
		bs_tdict_set_i64(gs, "COLSPAN", rc->ncols);
	}
	bs_tdict_set_i64(d, "GROUP", (int64_t)row->group + 1);
	bs_tdict_set_i64(d, "ID", row->id);
	bs_tdict_set(d, "MACHINE", rc->pool->pool.str[row->machine]);
	bs_tdict_set(d, "VERSION", rc->pool->pool.str[row->version]);
	if (rc->has_size)
		bs_tdict_set(bs_tdict_add(d, "HAS_SIZE"), "SIZE",
			     bs_bonnie_fmt_size(s, sizeof(s), row->size_mib));
	for (t = 0; t < bs_nmetrics; t++) {
		double v;
		m = BS_RM(t, BS_MK_RATE);
		if (!rep->shown[m] || rc->slot[t] < 0)
			continue;
		c = bs_tdict_add(d, "CELL");
		/* Another tool's column: nothing to say. */
		if (bs_metrics[t].family != row->family) {
			bs_tdict_set(c, "TEXT", "");
			bs_tdict_set(c, "CLASS", "");
			continue;
		}
		v = row->rate[rc->slot[t]];
		if (isnan(v)) {
			int tf = row->status[rc->slot[t]] == BS_ST_TOO_FAST;
			/* The word show prints for the run (bs_absent_word). */
			bs_tdict_set(
				c, "TEXT",
				tf ? "too fast"
				   : bs_absent_words[row->absent[rc->slot[t]]]);
			bs_tdict_set(c, "CLASS", tf ? "tf" : "nr");
			continue;
		}
		bs_tdict_set(c, "TEXT", bs_rfmt_h(rep, m, v, s, sizeof(s)));
		k = rep->run_best[m] != rep->run_worst[m]
			    ? bs_rshade(bs_rm_better(m), v, rep->run_best[m])
			    : -1;
		assert(k >= -1 &&
		       k < (int)(sizeof(shade_class) / sizeof(shade_class[0])));
		bs_tdict_set(c, "CLASS", k >= 0 ? shade_class[k] : "");
	}
	if (++rc->batched >= RUNS_BATCH)
		return runs_flush(rc);
	return 0;
}

static int runs_from_src(const struct bs_run *r, void *ctx)
{
	struct runs_ctx *rc = ctx;
	struct bs_rrow row;

	bs_rrow_fill(rc->pool, r, rc->group, &row);
	return runs_row(rc, &row);
}

int bs_rhtml_runs(const struct bs_report *rep, const struct bs_tmpl_set *ts,
		  const struct bs_report_source *src, FILE *out,
		  struct bs_err *err)
{
	struct bs_rruns *own = NULL;
	struct runs_ctx rc;
	size_t i;
	int m, r = 0;

	/* Runs that were not kept are read again: that needs a source. */
	assert((rep->runs && !rep->runs->dropped) || (src && src->each));
	memset(&rc, 0, sizeof(rc));
	rc.rep = rep;
	rc.ts = ts;
	rc.out = out;
	rc.err = err;
	rc.last_group = -1;
	rc.ncols = 4;
	for (i = 0; i < rep->ngroups; i++)
		if (rep->groups[i].families & (1u << BS_FAM_BONNIE))
			rc.has_size = 1;
	rc.ncols += rc.has_size;
	for (m = 0; m < bs_nmetrics; m++) {
		rc.slot[m] = bs_rlist_slot(m);
		rc.ncols += rc.slot[m] >= 0 && rep->shown[BS_RM(m, BS_MK_RATE)];
	}
	r = bs_tdict_new(&rc.d, err);
	if (r < 0)
		return r;
	if (rep->runs && !rep->runs->dropped) {
		rc.pool = rep->runs;
		for (i = 0; i < rep->runs->n && r == 0; i++)
			r = runs_row(&rc, &rep->runs->row[i]);
	} else {
		/* Not kept (too many, or not asked for): read them again. */
		own = xcalloc(1, sizeof(*own));
		rc.pool = own;
		for (i = 0; i < rep->ngroups && r == 0; i++) {
			rc.group = (uint32_t)i;
			r = src->each(src->ctx, i, runs_from_src, &rc, err);
		}
	}
	if (r == 0)
		r = cut_flush(&rc);
	if (r == 0)
		r = runs_flush(&rc);
	bs_tdict_free(rc.d);
	bs_rruns_free(own);
	return r;
}
