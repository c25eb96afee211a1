/*
 * report/render.c - the report model -> template dictionaries -> output.
 *
 * Every format gets the same dictionary of the model (docs/report.md lists
 * its names); the HTML page also gets its per-section tables and charts,
 * the text report its tables laid out in bonnie++'s columns (alignment
 * needs widths, which a template cannot compute). The HTML page's list of
 * runs is streamed: its template has three parts (PART_HEAD, PART_RUNS,
 * PART_TAIL), expanded one after the other, PART_RUNS once per batch of
 * runs (as the model kept them, or read again from the source).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "report/internal.h"
#include "report/tmpl.h"
#include "util/buf.h"
#include "util/embed.h"
#include "util/mem.h"
#include "util/text.h"
#include "util/banned.h"

/* Generated from templates/ by report/CMakeLists.txt. */
extern const struct bs_embedded bs_tmpl_report_txt[];
extern const struct bs_embedded bs_tmpl_report_html[];
extern const struct bs_embedded bs_tmpl_report_csv[];
extern const struct bs_embedded bs_tmpl_report_json[];

static const char *const tmpl_names[] = {
	"report.txt",
	"report.html",
	"report.csv",
	"report.json",
};

/* Runs per expansion of the HTML page's PART_RUNS. */
#define RUNS_BATCH 512

int bs_report_templates_load(struct bs_tmpl_set **out, const char *dir,
			     enum bs_report_format fmt, struct bs_err *err)
{
	const struct bs_embedded defaults[] = {
		bs_tmpl_report_txt[0],
		bs_tmpl_report_html[0],
		bs_tmpl_report_csv[0],
		bs_tmpl_report_json[0],
		{NULL, NULL, 0},
	};

	return bs_tmpl_set_load(out, defaults, &tmpl_names[fmt], 1, dir, err);
}

static const char *const kind_name[BS_MK_COUNT] = {"rate", "cpu", "latency"};

/* "Block write", "Block write CPU", "Block write latency". */
static const char *metric_label(int m, char *out, size_t outsz)
{
	static const char *const sfx[BS_MK_COUNT] = {"", " CPU", " latency"};

	snprintf(out, outsz, "%s%s", bs_metrics[BS_RM_TEST(m)].label,
		 sfx[BS_RM_KIND(m)]);
	return out;
}

/* A JSON value: the number text, or null. */
static const char *jnum(const char *raw)
{
	return raw[0] ? raw : "null";
}

/* "1-3, 7": ids as ranges, cut after about max bytes. */
static void ids_text(const struct bs_report_group *g, struct bs_buf *b,
		     size_t max)
{
	int64_t i = 0, j;

	while (i < g->nruns) {
		j = i;
		while (j + 1 < g->nruns && g->ids[j + 1] == g->ids[j] + 1)
			j++;
		if (b->len > max) {
			bs_buf_adds(b, ", ...");
			return;
		}
		bs_buf_addf(b, "%s%lld", i ? ", " : "", (long long)g->ids[i]);
		if (j > i)
			bs_buf_addf(b, "%s%lld", j == i + 1 ? ", " : "-",
				    (long long)g->ids[j]);
		i = j + 1;
	}
}

static void list_text(char **l, size_t n, int more, struct bs_buf *b)
{
	size_t i;

	for (i = 0; i < n; i++)
		bs_buf_addf(b, "%s%s", i ? ", " : "", l[i]);
	if (more)
		bs_buf_adds(b, ", ...");
}

/* ---- the model, for every format ----------------------------------- */

/* Parameter k's J_VALUE, J_MIN, J_MAX for JSON: a number, a string, or
 * null. */
static void jparam(struct bs_tdict *d, int k, const struct bs_report_param *p)
{
	struct bs_params x;
	struct bs_buf b = BS_BUF_INIT;
	static const char *const names[] = {"J_VALUE", "J_MIN", "J_MAX"};
	int i;

	bs_params_init(&x);
	for (i = 0; i < 3; i++) {
		bs_buf_reset(&b);
		switch (bs_param_table[k].kind) {
		case BS_PK_TEXT:
			*bs_param_text(&x, k) = p->mixed ? NULL : p->text;
			break;
		case BS_PK_REAL:
			*bs_param_real(&x, k) = i == 0   ? p->rvalue
						: i == 1 ? p->rlo
							 : p->rhi;
			break;
		default:
			*bs_param_i64(&x, k) = i == 0   ? p->value
					       : i == 1 ? p->lo
							: p->hi;
			break;
		}
		bs_param_json(&x, k, &b);
		bs_tdict_set(d, names[i], bs_buf_str(&b));
	}
	bs_buf_release(&b);
}

/* gtext: the group's machines and tags as text (see fill_model). */
static void fill_group(const struct bs_report *rep, size_t i,
		       char *const gtext[2], struct bs_tdict *d)
{
	const struct bs_report_group *g = &rep->groups[i];
	struct bs_buf b = BS_BUF_INIT;
	char v[128];
	size_t k;
	int p, marked;

	bs_tdict_set_i64(d, "INDEX", (int64_t)i + 1);
	bs_tdict_set(d, "LABEL", g->label);
	bs_tdict_set_i64(d, "RUNS", g->nruns);
	bs_tdict_set(d, "RUNS_WORD", g->nruns == 1 ? "run" : "runs");
	/* A report of one group compares nothing: no baseline to mark. */
	marked = i == rep->opts.baseline && rep->ngroups > 1;
	bs_tdict_show(d, marked ? "IS_BASELINE" : "NOT_BASELINE");
	bs_tdict_set(d, "ROW_CLASS", marked ? "baseline" : "");
	bs_tdict_set(d, "IDS_WORD", g->nruns == 1 ? "id" : "ids");
	bs_tdict_set(d, "J_BASELINE",
		     i == rep->opts.baseline ? "true" : "false");
	ids_text(g, &b, 200);
	bs_tdict_set(d, "IDS", bs_buf_str(&b));
	bs_buf_reset(&b);
	for (k = 0; k < (size_t)g->nruns; k++)
		bs_buf_addf(&b, "%s%lld", k ? "," : "", (long long)g->ids[k]);
	bs_tdict_set(d, "J_IDS", bs_buf_str(&b));
	bs_buf_reset(&b);
	bs_tdict_set(d, "MACHINES", gtext[0]);
	bs_tdict_set(d, "TAGS", gtext[1]);
	list_text(g->versions, g->nversions, g->more_versions, &b);
	bs_tdict_set(d, "VERSIONS", bs_buf_str(&b));
	bs_buf_reset(&b);
	for (k = 0; k < g->nmachines; k++)
		bs_tdict_set(bs_tdict_add(d, "MACHINE"), "NAME",
			     g->machines[k]);
	for (k = 0; k < g->nversions; k++)
		bs_tdict_set(bs_tdict_add(d, "VERSION"), "NAME",
			     g->versions[k]);
	bs_tdict_set(d, "J_MORE_MACHINES", g->more_machines ? "true" : "false");
	for (k = 0; k < g->ntags; k++) {
		struct bs_tdict *t = bs_tdict_add(d, "TAG");
		const char *eq = strchr(g->tags[k], '=');
		bs_tdict_set(t, "TEXT", g->tags[k]);
		bs_tdict_setn(t, "KEY", g->tags[k],
			      eq ? (size_t)(eq - g->tags[k])
				 : strlen(g->tags[k]));
		bs_tdict_set(t, "VALUE", eq ? eq + 1 : "");
	}
	if (g->ntags)
		bs_tdict_show(d, "HAS_TAGS");
	bs_tdict_set(d, "FILE_SIZE",
		     bs_rfmt_param(g, bs_param_find("file_size_mib"), v,
				   sizeof(v)));
	bs_tdict_set(d, "FILES", bs_rfmt_files(g, v, sizeof(v)));
	/* The parameters of the tools the group's runs come from. */
	for (p = 0; p < bs_nparams; p++) {
		struct bs_tdict *x;
		struct bs_report_param rp = g->param[p];
		if (!((g->families >> bs_param_table[p].family) & 1) ||
		    (bs_param_table[p].flags & BS_PF_NOCOMPARE))
			continue;
		x = bs_tdict_add(d, "PARAM");
		bs_tdict_set(x, "KEY", bs_param_table[p].key);
		if (rp.mixed) {
			rp.value = BS_NONE;
			rp.rvalue = NAN;
		}
		jparam(x, p, &rp);
		bs_tdict_set(x, "TEXT", bs_rfmt_param(g, p, v, sizeof(v)));
	}
	bs_buf_release(&b);
}

static const char *better_word(const struct bs_report *rep, size_t i,
			       const struct bs_report_cell *c)
{
	if (i == rep->opts.baseline)
		return "baseline";
	if (isnan(c->diff))
		return "";
	return c->better > 0 ? "better" : c->better < 0 ? "worse" : "same";
}

/* gtext: the group's machines and tags as text, for CSV rows. */
static void fill_cell(const struct bs_report *rep, int m, size_t i,
		      char *const gtext[2], struct bs_tdict *d)
{
	const struct bs_report_group *g = &rep->groups[i];
	const struct bs_report_cell *c = &g->cell[m];
	static const char *const nums[] = {"VALUE", "SD",    "MIN", "MAX",
					   "DIFF",  "RATIO", "PCT"};
	double raw[7];
	char s[64], key[16];
	size_t k;

	raw[0] = bs_rscale(rep, m, c->mean);
	raw[1] = bs_rscale(rep, m, c->sd);
	raw[2] = bs_rscale(rep, m, c->min);
	raw[3] = bs_rscale(rep, m, c->max);
	raw[4] = bs_rscale(rep, m, c->diff);
	raw[5] = c->ratio;
	raw[6] = c->pct;
	bs_tdict_set_i64(d, "GROUP", (int64_t)i + 1);
	bs_tdict_set(d, "GROUP_LABEL", g->label);
	bs_tdict_set(d, "GROUP_MACHINES", gtext[0]);
	bs_tdict_set(d, "GROUP_TAGS", gtext[1]);
	bs_tdict_set_i64(d, "RUNS", g->nruns);
	bs_tdict_set(d, "STATUS", bs_status_name(c->status));
	bs_tdict_set_i64(d, "COUNT", c->ok);
	bs_tdict_set_i64(d, "TOO_FAST", c->too_fast);
	bs_tdict_set_i64(d, "NOT_RUN", c->not_run);
	for (k = 0; k < 7; k++) {
		bs_rfmt_raw(raw[k], s, sizeof(s));
		snprintf(key, sizeof(key), "R_%s", nums[k]);
		bs_tdict_set(d, key, s);
		snprintf(key, sizeof(key), "J_%s", nums[k]);
		bs_tdict_set(d, key, jnum(s));
	}
	bs_tdict_set(d, "VALUE", bs_rfmt(rep, m, c->mean, s, sizeof(s)));
	bs_tdict_set(d, "SD", bs_rfmt(rep, m, c->sd, s, sizeof(s)));
	bs_tdict_set(d, "MIN", bs_rfmt(rep, m, c->min, s, sizeof(s)));
	bs_tdict_set(d, "MAX", bs_rfmt(rep, m, c->max, s, sizeof(s)));
	bs_tdict_set(d, "DIFF", bs_rfmt(rep, m, c->diff, s, sizeof(s)));
	bs_tdict_set(d, "RATIO", bs_rfmt_ratio(c->ratio, s, sizeof(s)));
	bs_tdict_set(d, "PCT", bs_rfmt_pct(c->pct, s, sizeof(s)));
	bs_tdict_show(d, c->status == BS_ST_OK ? "HAS_VALUE" : "NO_VALUE");
	bs_tdict_set(d, "BETTER", better_word(rep, i, c));
	bs_tdict_set(d, "J_BETTER",
		     isnan(c->diff) || c->better == 0 ? "null"
		     : c->better > 0		      ? "true"
						      : "false");
	bs_tdict_set(d, "J_BEST", c->best ? "true" : "false");
	if (c->best)
		bs_tdict_show(d, "IS_BEST");
	if (i == rep->opts.baseline)
		bs_tdict_show(d, "IS_BASELINE");
	if (c->shade >= 0)
		bs_tdict_set_i64(d, "SHADE", c->shade);
}

static void fill_model(const struct bs_report *rep, struct bs_tdict *d)
{
	const struct bs_report_group *b = &rep->groups[rep->opts.baseline];
	char key[32], label[96];
	char **gtext;
	size_t i;
	int m;

	bs_tdict_set(d, "TITLE", rep->title);
	bs_tdict_set_i64(d, "NGROUPS", (int64_t)rep->ngroups);
	bs_tdict_set_i64(d, "NRUNS", rep->nruns);
	bs_tdict_set_i64(d, "BASELINE", (int64_t)rep->opts.baseline + 1);
	bs_tdict_set(d, "BASELINE_LABEL", b->label);
	bs_tdict_set(d, "IO_UNIT", rep->mib ? "MiB/s" : "KiB/s");
	if (rep->ngroups > 1)
		bs_tdict_show(d, "COMPARED");
	if (rep->nnotes)
		bs_tdict_show(d, "NOTES");
	for (i = 0; i < rep->nnotes; i++)
		bs_tdict_set(bs_tdict_add(d, "NOTE"), "TEXT", rep->notes[i]);
	/* Each group's machines and tags as text, for GROUP and CELL. */
	gtext = xcalloc(rep->ngroups * 2, sizeof(*gtext));
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		struct bs_buf t = BS_BUF_INIT;
		size_t k;
		list_text(g->machines, g->nmachines, g->more_machines, &t);
		gtext[2 * i] = bs_buf_detach(&t, NULL);
		for (k = 0; k < g->ntags; k++)
			bs_buf_addf(&t, "%s%s", k ? " " : "", g->tags[k]);
		gtext[2 * i + 1] = bs_buf_detach(&t, NULL);
		fill_group(rep, i, &gtext[2 * i], bs_tdict_add(d, "GROUP"));
	}
	for (m = 0; m < BS_RM_USED; m++) {
		struct bs_tdict *x;
		if (!rep->shown[m])
			continue;
		x = bs_tdict_add(d, "METRIC");
		bs_tdict_set(x, "KEY",
			     bs_report_metric_key(m, key, sizeof(key)));
		bs_tdict_set(x, "TEST", bs_metrics[BS_RM_TEST(m)].key);
		bs_tdict_set(x, "KIND", kind_name[BS_RM_KIND(m)]);
		bs_tdict_set(x, "LABEL", metric_label(m, label, sizeof(label)));
		bs_tdict_set(x, "UNIT", bs_report_unit(rep, m));
		bs_tdict_set(x, "BETTER",
			     bs_rm_better(m) > 0   ? "higher"
			     : bs_rm_better(m) < 0 ? "lower"
						   : "neither");
		bs_tdict_set(x, "SECTION", bs_metrics[BS_RM_TEST(m)].section);
		bs_tdict_set(x, "FAMILY",
			     bs_family_name(bs_metrics[BS_RM_TEST(m)].family));
		for (i = 0; i < rep->ngroups; i++)
			fill_cell(rep, m, i, &gtext[2 * i],
				  bs_tdict_add(x, "CELL"));
	}
	for (i = 0; i < rep->ngroups * 2; i++)
		free(gtext[i]);
	free(gtext);
}

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
static const char *status_words(int m, enum bs_status st)
{
	if (st == BS_ST_TOO_FAST)
		return "too fast";
	return BS_RM_KIND(m) == BS_MK_LAT ? "no data" : "not run";
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
		bs_tdict_set(c, "TEXT", status_words(m, x->status));
		bs_tdict_set(c, "CLASS",
			     x->status == BS_ST_TOO_FAST ? "tf" : "nr");
		bs_tdict_set(c, "TIP",
			     x->status == BS_ST_TOO_FAST
				     ? "too fast to measure: the test took "
				       "under 0.5 s (bonnie++ +++++)"
				     : BS_RM_KIND(m) == BS_MK_LAT
					     ? "no latency recorded"
					     : "not run");
		return;
	}
	bs_tdict_set(c, "TEXT", bs_rfmt(rep, m, x->mean, s, sizeof(s)));
	if (x->shade >= 0)
		bs_tdict_setf(c, "CLASS", "s%d%s", x->shade,
			      x->best ? " best" : "");
	if (g->nruns > 1) {
		struct bs_tdict *st = bs_tdict_add(c, "STATS");
		bs_tdict_set(st, "SD", isnan(x->sd) ? "-"
						      : bs_rfmt(rep, m, x->sd, s,
								sizeof(s)));
		bs_tdict_set(st, "MIN", bs_rfmt(rep, m, x->min, s,
						sizeof(s)));
		bs_tdict_set(st, "MAX", bs_rfmt(rep, m, x->max, s,
						sizeof(s)));
		bs_tdict_set_i64(st, "N", x->ok);
		bs_tdict_set_i64(st, "OF", g->nruns);
	}
}

enum { ROW_VALUE, ROW_DIFF, ROW_RATIO, ROW_PCT };

static void html_row(const struct bs_report *rep, int t0, int t1, size_t i,
		     int kind, struct bs_tdict *r)
{
	static const char *const cls[] = {"val", "diff", "ratio", "pct"};
	const struct bs_report_group *g = &rep->groups[i];
	char s1[64];
	int m;

	bs_tdict_set(r, "CLASS", cls[kind]);
	bs_tdict_set_i64(r, "GROUP", (int64_t)i + 1);
	bs_tdict_set_i64(r, "BASE", (int64_t)rep->opts.baseline + 1);
	bs_tdict_set(r, "LABEL", g->label);
	bs_tdict_show(r, kind == ROW_VALUE   ? "IS_VALUE"
			 : kind == ROW_DIFF  ? "IS_DIFF"
			 : kind == ROW_RATIO ? "IS_RATIO"
					     : "IS_PCT");
	if (kind == ROW_VALUE && i == rep->opts.baseline && rep->ngroups > 1)
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
			bs_rfmt(rep, m, x->diff, s1, sizeof(s1));
		else if (kind == ROW_RATIO)
			bs_rfmt_ratio(x->ratio, s1, sizeof(s1));
		else
			bs_rfmt_pct(x->pct, s1, sizeof(s1));
		bs_tdict_set(c, "TEXT", s1);
		bs_tdict_set(c, "TIP", "");
		bs_tdict_set(c, "CLASS", "");
		if (kind == ROW_PCT && !isnan(x->pct) && x->better) {
			bs_tdict_set(c, "CLASS",
				     x->better > 0 ? "better" : "worse");
			bs_tdict_show(c, x->better > 0 ? "IS_BETTER"
						       : "IS_WORSE");
		}
	}
}

/* Chart geometry, in SVG user units. */
#define CH_W 640
#define CH_LEFT 48
#define CH_BAR 430
#define CH_ROW 18
#define CH_HEAD 22

static void html_chart(const struct bs_report *rep, int t0, int t1,
		       struct bs_tdict *sec)
{
	struct bs_tdict *ch = NULL, *bl;
	char v[64], label[96];
	int y = 0, t, m;
	size_t i;

	for (t = t0; t < t1; t++) {
		double max = 0;
		m = BS_RM(t, BS_MK_RATE);
		if (!rep->shown[m])
			continue;
		for (i = 0; i < rep->ngroups; i++) {
			const struct bs_report_cell *c =
				&rep->groups[i].cell[m];
			if (c->status == BS_ST_OK && c->mean > max)
				max = c->mean;
		}
		if (ch == NULL)
			ch = bs_tdict_add(sec, "CHART");
		bl = bs_tdict_add(ch, "BLOCK");
		bs_tdict_setf(bl, "BTITLE", "%s, %s",
			      metric_label(m, label, sizeof(label)),
			      bs_report_unit(rep, m));
		bs_tdict_set_i64(bl, "Y", y + 14);
		y += CH_HEAD;
		for (i = 0; i < rep->ngroups; i++) {
			const struct bs_report_cell *c =
				&rep->groups[i].cell[m];
			struct bs_tdict *bar = bs_tdict_add(bl, "BAR");
			int w = 0;
			bs_tdict_setf(bar, "BNAME", "[%zu]", i + 1);
			bs_tdict_set_i64(bar, "Y", y);
			bs_tdict_set_i64(bar, "TY", y + 11);
			bs_tdict_set_i64(bar, "X", CH_LEFT);
			if (c->status == BS_ST_OK) {
				if (max > 0)
					w = (int)floor(c->mean / max * CH_BAR +
						       0.5);
				bs_tdict_set(bar, "VALUE",
					     bs_rfmt(rep, m, c->mean, v,
						     sizeof(v)));
			} else {
				bs_tdict_set(bar, "VALUE",
					     status_words(m, c->status));
			}
			bs_tdict_set_i64(bar, "W", w);
			bs_tdict_set_i64(bar, "TX", CH_LEFT + w + 4);
			bs_tdict_set(bar, "BCLASS",
				     i == rep->opts.baseline ? "base"
				     : c->better > 0	     ? "better"
				     : c->better < 0	     ? "worse"
							     : "same");
			y += CH_ROW;
		}
		y += 6;
	}
	if (ch) {
		bs_tdict_set_i64(ch, "CW", CH_W);
		bs_tdict_set_i64(ch, "CH", y);
	}
}

static void fill_html(const struct bs_report *rep, struct bs_tdict *d)
{
	size_t i, j;
	int sn, t0, t1, m, t, any;
	char key[32];

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
				bs_tdict_set(c, "KIND",
					     kind_name[BS_RM_KIND(m)]);
			}
			if (th)
				bs_tdict_set_i64(th, "SPAN", span);
		}
		for (i = 0; i < rep->ngroups; i++)
			html_row(rep, t0, t1, i, ROW_VALUE,
				 bs_tdict_add(sec, "ROW"));
		for (j = 0; j < 3; j++)
			for (i = 0; i < rep->ngroups; i++)
				if (i != rep->opts.baseline)
					html_row(rep, t0, t1, i,
						 (int)j + ROW_DIFF,
						 bs_tdict_add(sec, "ROW"));
		html_chart(rep, t0, t1, sec);
	}
	/* The header of the list of runs: bonnie++'s rates shown. */
	for (t = 0; t < BS_M_BONNIE; t++) {
		struct bs_tdict *th;
		m = BS_RM(t, BS_MK_RATE);
		if (!rep->shown[m])
			continue;
		th = bs_tdict_add(d, "RUN_COL");
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
	struct bs_rruns *pool;  /* strings of the rows */
	uint32_t group;         /* of the rows read again from the source */
	int64_t last_group;
	int batched;            /* runs in d */
	int ncols;
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
	r = bs_tmpl_expand_file(rc->ts, "report.html", rc->d, rc->out,
				rc->err);
	bs_tdict_clear(rc->d);
	rc->batched = 0;
	return r;
}

static int runs_row(struct runs_ctx *rc, const struct bs_rrow *row)
{
	const struct bs_report *rep = rc->rep;
	struct bs_tdict *d, *c;
	char s[64];
	int m, k, t;

	d = bs_tdict_add(rc->d, "RUN");
	if ((int64_t)row->group != rc->last_group) {
		struct bs_tdict *gs = bs_tdict_add(d, "GROUP_START");
		rc->last_group = row->group;
		bs_tdict_set(gs, "LABEL", rep->groups[row->group].label);
		bs_tdict_set_i64(gs, "COLSPAN", rc->ncols);
	}
	bs_tdict_set_i64(d, "GROUP", (int64_t)row->group + 1);
	bs_tdict_set_i64(d, "ID", row->id);
	bs_tdict_set(d, "MACHINE", rc->pool->str[row->machine]);
	bs_tdict_set(d, "VERSION", rc->pool->str[row->version]);
	bs_tdict_set(d, "SIZE",
		     bs_bonnie_fmt_size(s, sizeof(s), row->size_mib));
	for (t = 0; t < BS_M_BONNIE; t++) {
		double v = row->rate[t];
		m = BS_RM(t, BS_MK_RATE);
		if (!rep->shown[m])
			continue;
		c = bs_tdict_add(d, "CELL");
		if (isnan(v)) {
			int tf = row->status[t] == BS_ST_TOO_FAST;
			bs_tdict_set(c, "TEXT", tf ? "too fast" : "not run");
			bs_tdict_set(c, "CLASS", tf ? "tf" : "nr");
			continue;
		}
		bs_tdict_set(c, "TEXT", bs_rfmt(rep, m, v, s, sizeof(s)));
		k = rep->run_best[m] != rep->run_worst[m]
			    ? bs_rshade(bs_rm_better(m), v, rep->run_best[m])
			    : -1;
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

static int html_runs(const struct bs_report *rep, const struct bs_tmpl_set *ts,
		     const struct bs_report_source *src, FILE *out,
		     struct bs_err *err)
{
	struct bs_rruns *own = NULL;
	struct runs_ctx rc;
	size_t i;
	int m, r = 0;

	memset(&rc, 0, sizeof(rc));
	rc.rep = rep;
	rc.ts = ts;
	rc.out = out;
	rc.err = err;
	rc.last_group = -1;
	rc.ncols = 5;
	for (m = 0; m < BS_RM(BS_M_BONNIE, 0); m++)
		rc.ncols += rep->shown[m] && BS_RM_KIND(m) == BS_MK_RATE;
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
		r = runs_flush(&rc);
	bs_tdict_free(rc.d);
	bs_rruns_free(own);
	return r;
}

/* ---- text: bonnie++'s columns ---------------------------------------- */

struct tcol {
	int m;
	size_t width;
	int star; /* the column marks its best value with '*' */
};

struct ttable {
	struct tcol col[BS_RM_COUNT];
	int ncols;
	size_t lw, pw;        /* label and parameter column widths */
	char **cell;          /* nrows x (2 + ncols) */
	int nrows, cap;
};

static void tt_add_row(struct ttable *tt)
{
	int k, n = 2 + tt->ncols;

	if (tt->nrows == tt->cap) {
		tt->cap = tt->cap ? tt->cap * 2 : 16;
		tt->cell = xrealloc(tt->cell, (size_t)tt->cap * (size_t)n *
						      sizeof(*tt->cell));
	}
	for (k = 0; k < n; k++)
		tt->cell[tt->nrows * n + k] = NULL;
	tt->nrows++;
}

static void tt_set(struct ttable *tt, int col, const char *s)
{
	struct bs_buf b = BS_BUF_INIT;

	bs_text_clean(&b, s, strlen(s), BS_TEXT_TAB);
	tt->cell[(tt->nrows - 1) * (2 + tt->ncols) + col] =
		bs_buf_detach(&b, NULL);
}

static const char *tt_get(const struct ttable *tt, int row, int col)
{
	const char *s = tt->cell[row * (2 + tt->ncols) + col];

	return s ? s : "";
}

static void tt_release(struct ttable *tt)
{
	int k;

	for (k = 0; k < tt->nrows * (2 + tt->ncols); k++)
		free(tt->cell[k]);
	free(tt->cell);
}

/*
 * Drops statistics, diff and ratio rows (those without a parameter cell
 * whose label is not a group's) that have nothing in any column.
 */
static void tt_drop_empty(struct ttable *tt)
{
	int n = 2 + tt->ncols, r, k, keep = 0, empty;

	for (r = 0; r < tt->nrows; r++) {
		const char *label = tt_get(tt, r, 0);
		empty = label[0] != '[';
		for (k = 2; k < n && empty; k++)
			empty = strspn(tt_get(tt, r, k), " ") ==
				strlen(tt_get(tt, r, k));
		if (empty) {
			for (k = 0; k < n; k++)
				free(tt->cell[r * n + k]);
			continue;
		}
		if (keep != r)
			memmove(&tt->cell[keep * n], &tt->cell[r * n],
				(size_t)n * sizeof(*tt->cell));
		keep++;
	}
	tt->nrows = keep;
}

static void pad(struct bs_buf *b, const char *s, size_t w, int right)
{
	size_t n = bs_rwidth(s);

	if (right)
		for (; n < w; n++)
			bs_buf_addc(b, ' ');
	bs_buf_adds(b, s);
	if (!right)
		for (; n < w; n++)
			bs_buf_addc(b, ' ');
}

/* "--Block--": title centred in dashes, the extra dash on the left. */
static void dashes(struct bs_buf *b, const char *title, size_t w)
{
	size_t n = strlen(title), left, i;

	if (n > w)
		n = w;
	left = (w - n + 1) / 2;
	for (i = 0; i < left; i++)
		bs_buf_addc(b, '-');
	bs_buf_add(b, title, n);
	for (i = left + n; i < w; i++)
		bs_buf_addc(b, '-');
}

static const char *text_unit(const struct bs_report *rep, int m)
{
	int t = BS_RM_TEST(m);

	switch (BS_RM_KIND(m)) {
	case BS_MK_CPU:
		return "%CP";
	case BS_MK_LAT:
		return "Latency";
	default:
		break;
	}
	if (bs_metrics[t].flags & BS_MF_KIB)
		return rep->mib ? "M/sec" : "K/sec";
	if (bs_metrics[t].family == BS_FAM_BONNIE)
		return "/sec";
	return bs_report_unit(rep, m);
}

static void line_out(struct bs_tdict *table, struct bs_buf *b)
{
	while (b->len && b->data[b->len - 1] == ' ')
		bs_buf_trim(b, 1);
	bs_tdict_set(bs_tdict_add(table, "LINE"), "TEXT", bs_buf_str(b));
	bs_buf_reset(b);
}

/* The cell text of group i, metric m, in a row of the given kind. */
static void text_cell(const struct bs_report *rep, int m, size_t i, int kind,
		      char *s, size_t n)
{
	const struct bs_report_cell *c = &rep->groups[i].cell[m];

	s[0] = '\0';
	switch (kind) {
	case 0: /* value */
		if (c->status == BS_ST_OK)
			bs_rfmt(rep, m, c->mean, s, n);
		else if (c->status == BS_ST_TOO_FAST)
			snprintf(s, n, "%s",
				 BS_RM_KIND(m) == BS_MK_CPU ? "+++" : "+++++");
		else
			snprintf(s, n, "-");
		break;
	case 1:
		bs_rfmt(rep, m, c->sd, s, n);
		break;
	case 2:
		bs_rfmt(rep, m, c->min, s, n);
		break;
	case 3:
		bs_rfmt(rep, m, c->max, s, n);
		break;
	case 4: /* count of numbers; blank for none (the value says why) */
		if (c->ok)
			snprintf(s, n, "%lld", (long long)c->ok);
		break;
	case 5:
		bs_rfmt(rep, m, c->diff, s, n);
		break;
	default:
		bs_rfmt_ratio(c->ratio, s, n);
		break;
	}
}

/* s with a marker char appended (for columns that mark the best). */
static const char *mark(char *s, size_t n, char c)
{
	size_t l = strlen(s);

	if (l + 1 < n) {
		s[l] = c;
		s[l + 1] = '\0';
	}
	return s;
}

/* Widens the last column of [k0, k1] until the span fits title. */
static size_t fit_span(struct ttable *tt, int k0, int k1, const char *title)
{
	size_t span = 0, need = strlen(title) + 2;
	int k;

	for (k = k0; k <= k1; k++)
		span += tt->col[k].width + (k > k0);
	if (span < need) {
		tt->col[k1].width += need - span;
		span = need;
	}
	return span;
}

/* Columns [*k0, *k1] of tests t0..t1, or 0 when none is shown. */
static int cols_of(const struct ttable *tt, int t0, int t1, int *k0, int *k1)
{
	int k;

	*k0 = -1;
	*k1 = -1;
	for (k = 0; k < tt->ncols; k++) {
		int t = BS_RM_TEST(tt->col[k].m);
		if (t < t0 || t > t1)
			continue;
		if (*k0 < 0)
			*k0 = k;
		*k1 = k;
	}
	return *k0 >= 0;
}

/* What the column after a group's label shows. */
enum pcol { PCOL_NONE, PCOL_SIZE, PCOL_FILES };

/*
 * One table over catalogue rows [t0, t1): the value and CPU columns, or
 * (lat) the latency columns, under the titles of their sections and
 * tests. Adds a TABLE to d unless no column is shown.
 */
static void text_table(const struct bs_report *rep, struct bs_tdict *d,
		       int t0, int t1, int lat, enum pcol pcol)
{
	static const char *const ptitles[] = {"", "Size", "Files"};
	const char *ptitle = ptitles[pcol];
	static const char *const stat_name[] = {"", "sd", "min", "max", "n"};
	struct ttable tt;
	struct bs_buf b = BS_BUF_INIT;
	struct bs_tdict *table;
	char s[96];
	size_t i, w, span;
	int k, k0, k1, m, t, r, kind, sec, sec_end;

	memset(&tt, 0, sizeof(tt));
	for (t = t0; t < t1; t++) {
		for (m = BS_RM(t, 0); m < BS_RM(t + 1, 0); m++) {
			if (!rep->shown[m] ||
			    (BS_RM_KIND(m) == BS_MK_LAT) != lat)
				continue;
			tt.col[tt.ncols].m = m;
			for (i = 0; i < rep->ngroups; i++)
				if (rep->groups[i].cell[m].best)
					tt.col[tt.ncols].star = 1;
			tt.ncols++;
		}
	}
	if (tt.ncols == 0)
		return;
	/* Rows: each group with its statistics, then diffs and ratios. */
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		for (kind = 0; kind < (g->nruns > 1 ? 5 : 1); kind++) {
			tt_add_row(&tt);
			bs_buf_reset(&b);
			if (kind == 0)
				bs_buf_addf(&b, "[%zu] %s", i + 1, g->label);
			else
				bs_buf_addf(&b, "    %s", stat_name[kind]);
			tt_set(&tt, 0, bs_buf_str(&b));
			if (kind == 0 && pcol == PCOL_FILES)
				tt_set(&tt, 1, bs_rfmt_files(g, s, sizeof(s)));
			else if (kind == 0 && pcol == PCOL_SIZE)
				tt_set(&tt, 1,
				       bs_rfmt_param(
					       g, bs_param_find("file_size_mib"),
					       s, sizeof(s)));
			for (k = 0; k < tt.ncols; k++) {
				m = tt.col[k].m;
				text_cell(rep, m, i, kind, s, sizeof(s));
				if (tt.col[k].star)
					mark(s, sizeof(s),
					     kind == 0 && g->cell[m].best
						     ? '*'
						     : ' ');
				tt_set(&tt, 2 + k, s);
			}
		}
	}
	for (kind = 5; kind <= 6; kind++) {
		for (i = 0; i < rep->ngroups; i++) {
			if (i == rep->opts.baseline)
				continue;
			tt_add_row(&tt);
			bs_buf_reset(&b);
			bs_buf_addf(&b, "%s [%zu]%s[%zu]",
				    kind == 5 ? "diff" : "ratio", i + 1,
				    kind == 5 ? "-" : "/",
				    rep->opts.baseline + 1);
			tt_set(&tt, 0, bs_buf_str(&b));
			for (k = 0; k < tt.ncols; k++) {
				text_cell(rep, tt.col[k].m, i, kind, s,
					  sizeof(s));
				if (tt.col[k].star && s[0])
					mark(s, sizeof(s), ' ');
				tt_set(&tt, 2 + k, s);
			}
		}
	}
	tt_drop_empty(&tt);
	/* Widths: the widest cell, bonnie++'s minimum, the unit title. */
	tt.lw = strlen("Group");
	tt.pw = strlen(ptitle);
	for (r = 0; r < tt.nrows; r++) {
		if (bs_rwidth(tt_get(&tt, r, 0)) > tt.lw)
			tt.lw = bs_rwidth(tt_get(&tt, r, 0));
		if (bs_rwidth(tt_get(&tt, r, 1)) > tt.pw)
			tt.pw = bs_rwidth(tt_get(&tt, r, 1));
	}
	for (k = 0; k < tt.ncols; k++) {
		m = tt.col[k].m;
		w = BS_RM_KIND(m) == BS_MK_RATE	 ? 5
		    : BS_RM_KIND(m) == BS_MK_CPU ? 3
						 : 9;
		if (strlen(text_unit(rep, m)) > w)
			w = strlen(text_unit(rep, m));
		for (r = 0; r < tt.nrows; r++)
			if (bs_rwidth(tt_get(&tt, r, 2 + k)) > w)
				w = bs_rwidth(tt_get(&tt, r, 2 + k));
		tt.col[k].width = w;
	}
	/* Tests, then sections, get room for their dashed titles. */
	for (t = t0; t < t1; t++)
		if (cols_of(&tt, t, t, &k0, &k1))
			fit_span(&tt, k0, k1, bs_metrics[t].title);
	for (sec = t0; sec < t1; sec = sec_end) {
		sec_end = bs_rsection_end(sec);
		if (cols_of(&tt, sec, sec_end - 1, &k0, &k1))
			fit_span(&tt, k0, k1, bs_metrics[sec].section);
	}

	table = bs_tdict_add(d, "TABLE");
	/* Header lines as bonnie++ prints them. */
	bs_buf_reset(&b);
	pad(&b, "", tt.lw + 1 + tt.pw, 0);
	for (sec = t0; sec < t1; sec = sec_end) {
		sec_end = bs_rsection_end(sec);
		if (!cols_of(&tt, sec, sec_end - 1, &k0, &k1))
			continue;
		span = fit_span(&tt, k0, k1, bs_metrics[sec].section);
		bs_buf_addc(&b, ' ');
		dashes(&b, bs_metrics[sec].section, span);
	}
	line_out(table, &b);
	pad(&b, "", tt.lw + 1 + tt.pw, 0);
	for (t = t0; t < t1; t++) {
		if (!cols_of(&tt, t, t, &k0, &k1))
			continue;
		span = fit_span(&tt, k0, k1, bs_metrics[t].title);
		bs_buf_addc(&b, ' ');
		dashes(&b, bs_metrics[t].title, span);
	}
	line_out(table, &b);
	pad(&b, "Group", tt.lw, 0);
	bs_buf_addc(&b, ' ');
	pad(&b, ptitle, tt.pw, 1);
	for (k = 0; k < tt.ncols; k++) {
		bs_buf_addc(&b, ' ');
		pad(&b, text_unit(rep, tt.col[k].m), tt.col[k].width, 1);
	}
	line_out(table, &b);
	for (r = 0; r < tt.nrows; r++) {
		pad(&b, tt_get(&tt, r, 0), tt.lw, 0);
		bs_buf_addc(&b, ' ');
		pad(&b, tt_get(&tt, r, 1), tt.pw, 1);
		for (k = 0; k < tt.ncols; k++) {
			bs_buf_addc(&b, ' ');
			pad(&b, tt_get(&tt, r, 2 + k), tt.col[k].width, 1);
		}
		line_out(table, &b);
	}
	bs_buf_release(&b);
	tt_release(&tt);
}

/* Wraps text into lines of at most width columns, "* " then "  ". */
static void wrap(struct bs_tdict *d, const char *text, size_t width)
{
	struct bs_buf line = BS_BUF_INIT, clean = BS_BUF_INIT;
	const char *p, *sp;
	size_t n;

	bs_text_clean(&clean, text, strlen(text), BS_TEXT_TAB);
	p = bs_buf_str(&clean);
	bs_buf_adds(&line, "* ");
	while (*p) {
		sp = strchr(p, ' ');
		n = sp ? (size_t)(sp - p) : strlen(p);
		if (line.len > 2 && line.len + 1 + n > width) {
			bs_tdict_set(bs_tdict_add(d, "LINE"), "TEXT",
				     bs_buf_str(&line));
			bs_buf_reset(&line);
			bs_buf_adds(&line, "  ");
		} else if (line.len > 2) {
			bs_buf_addc(&line, ' ');
		}
		bs_buf_add(&line, p, n);
		p += n;
		while (*p == ' ')
			p++;
	}
	bs_tdict_set(bs_tdict_add(d, "LINE"), "TEXT", bs_buf_str(&line));
	bs_buf_release(&line);
	bs_buf_release(&clean);
}

static void fill_text(const struct bs_report *rep, struct bs_tdict *d)
{
	size_t i;
	int t0, t1;

	for (i = 0; i < rep->nnotes; i++)
		wrap(bs_tdict_add(d, "WRAPPED_NOTE"), rep->notes[i], 76);
	/* bonnie++'s two tables, values then latencies, in its layout. */
	text_table(rep, d, BS_M_PUTC, BS_M_FIRST_FILE, 0, PCOL_SIZE);
	text_table(rep, d, BS_M_FIRST_FILE, BS_M_BONNIE, 0, PCOL_FILES);
	text_table(rep, d, BS_M_PUTC, BS_M_FIRST_FILE, 1, PCOL_SIZE);
	text_table(rep, d, BS_M_FIRST_FILE, BS_M_BONNIE, 1, PCOL_FILES);
	/* Any other tool: a table of its metrics. */
	for (t0 = BS_M_BONNIE; t0 < bs_nmetrics; t0 = t1) {
		t1 = t0;
		while (t1 < bs_nmetrics &&
		       bs_metrics[t1].family == bs_metrics[t0].family)
			t1++;
		text_table(rep, d, t0, t1, 0, PCOL_NONE);
	}
}

/* ---- rendering -------------------------------------------------------- */

int bs_report_render(const struct bs_report *rep,
		     const struct bs_tmpl_set *ts, enum bs_report_format fmt,
		     const struct bs_report_source *src, FILE *out,
		     struct bs_err *err)
{
	struct bs_tdict *d = NULL;
	const char *name = tmpl_names[fmt];
	int rc;

	rc = bs_tdict_new(&d, err);
	if (rc < 0)
		return rc;
	fill_model(rep, d);
	if (fmt == BS_REPORT_TEXT)
		fill_text(rep, d);
	if (fmt != BS_REPORT_HTML) {
		rc = bs_tmpl_expand_file(ts, name, d, out, err);
		goto out;
	}
	fill_html(rep, d);
	bs_tdict_show(d, "PART_HEAD");
	rc = bs_tmpl_expand_file(ts, name, d, out, err);
	if (rc < 0)
		goto out;
	rc = html_runs(rep, ts, src, out, err);
	if (rc < 0)
		goto out;
	bs_tdict_clear(d);
	bs_tdict_show(d, "PART_TAIL");
	bs_tdict_set(d, "TITLE", rep->title);
	rc = bs_tmpl_expand_file(ts, name, d, out, err);
out:
	bs_tdict_free(d);
	return rc;
}
