/*
 * report/render.c - the report model -> template dictionaries -> output:
 * the entry point, and the dictionary of the model that every format
 * gets (docs/report.md lists its names).
 *
 * The HTML page's tables, charts and streamed list of runs are
 * render_html.c's, the text report's tables render_text.c's; each adds
 * to the dictionary filled here. The HTML page is expanded in three
 * parts (PART_HEAD, PART_RUNS, PART_TAIL), one after the other.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "report/tmpl/tmpl.h"
#include "util/buf.h"
#include "util/embed.h"
#include "util/mem.h"
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

int bs_report_templates_load(struct bs_tmpl_set **out, const char *dir,
			     enum bs_report_format fmt, struct bs_err *err)
{
	const struct bs_embedded *pages[] = {
		bs_tmpl_report_txt,
		bs_tmpl_report_html,
		bs_tmpl_report_csv,
		bs_tmpl_report_json,
	};

	assert((size_t)fmt < sizeof(pages) / sizeof(pages[0]));
	return bs_rtemplates_load(out, pages[fmt], dir, err);
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

	assert(k >= 0 && k < bs_nparams);
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

/* Whether a shown cell of the page has verdict v. */
static int on_page(const struct bs_report *rep, enum bs_verdict v)
{
	size_t i;
	int m;

	for (i = 0; i < rep->ngroups; i++)
		for (m = 0; m < BS_RM_USED; m++)
			if (rep->shown[m] &&
			    rep->groups[i].cell[m].verdict == v)
				return 1;
	return 0;
}

/*
 * The group's summary against the baseline (struct bs_report_summary):
 * SUMMARY > SENTENCE, BETTER_N, WORSE_N, NOISE_N, FEW_N, APART_N; a
 * TALLY per verdict with cells (N, NAME, WORDS, MARK: bs_verdicts[]);
 * and a CAT per category with a figure or of different tests (NAME;
 * GM, LO, HI as text and J_GM, J_LO, J_HI as JSON: the factor, above 1
 * better; RATIO the change the one way ("1.17x lower"), R_RATIO, R_LO,
 * R_HI group / baseline; STATE, STATE_WORDS, CLASS its verdict).
 */
/* bonnie++'s 0.5 s rule explains +++++ on pages of its runs only: zcav's
 * "++++" and fio have rules of their own, or none. */
static void bonnie_tf(const struct bs_report *rep, struct bs_tdict *d)
{
	size_t i;

	for (i = 0; i < rep->ngroups; i++)
		if (rep->groups[i].fam_runs[BS_FAM_BONNIE] > 0) {
			bs_tdict_show(d, "BONNIE_TF");
			return;
		}
}

void bs_rabsent_legend(struct bs_tdict *d, unsigned mask)
{
	struct bs_tdict *x;
	int k;

	if (mask == 0)
		return;
	x = bs_tdict_add(d, "ABSENT");
	for (k = 0; k <= BS_AB_COUNT; k++)
		if ((mask >> k) & 1)
			bs_tdict_set(bs_tdict_add(x, "WORD"), "TEXT",
				     k < BS_AB_COUNT ? bs_absent_words[k]
						     : "no data");
}

/* The words of the page's results without a number: of the cells that
 * have none (the text report's '-', a latency's "no data"), or with rows
 * of every run that has none (the HTML report's cells and list of runs,
 * whose latencies say "no data" in their cells). */
static unsigned page_absent(const struct bs_report *rep, int rows)
{
	unsigned mask = 0;
	size_t i;
	int m;

	for (i = 0; i < rep->ngroups; i++)
		for (m = 0; m < BS_RM_COUNT; m++) {
			const struct bs_report_cell *c =
				&rep->groups[i].cell[m];

			if (!rep->shown[m] ||
			    (!rows && c->status != BS_ST_NOT_RUN))
				continue;
			/* The HTML cells say "no data" themselves. */
			if (BS_RM_KIND(m) == BS_MK_LAT && rows)
				continue;
			if (BS_RM_KIND(m) == BS_MK_LAT)
				mask |= c->status == BS_ST_NOT_RUN
						? BS_RABSENT_NO_DATA
						: 0;
			else if (c->status == BS_ST_NOT_RUN &&
				 c->absent_mask == 0)
				mask |= 1u << BS_AB_NOT_RUN;
			else
				mask |= c->absent_mask;
		}
	return mask;
}

static void fill_summary(const struct bs_report *rep, size_t i,
			 struct bs_tdict *d)
{
	const struct bs_report_summary *s = &rep->groups[i].sum;
	struct bs_tdict *x;
	struct bs_buf b = BS_BUF_INIT;
	char v[64];
	int cat, n = 0, k;

	if (s->sentence == NULL) {
		bs_tdict_show(d, "NO_SUMMARY");
		return;
	}
	x = bs_tdict_add(d, "SUMMARY");
	bs_tdict_set(x, "SENTENCE", s->sentence);
	bs_tdict_set_i64(x, "BETTER_N", s->verdicts[BS_V_BETTER]);
	bs_tdict_set_i64(x, "WORSE_N", s->verdicts[BS_V_WORSE]);
	bs_tdict_set_i64(x, "NOISE_N", s->verdicts[BS_V_NOISE]);
	bs_tdict_set_i64(x, "FEW_N", s->verdicts[BS_V_FEW]);
	bs_tdict_set_i64(x, "APART_N", s->verdicts[BS_V_APART]);
	for (k = BS_V_BETTER; k < BS_V_COUNT; k++) {
		struct bs_tdict *t;

		/* Every verdict a cell can have, counted (JSON). */
		if (k != BS_V_MIXED) {
			t = bs_tdict_add(x, "VCOUNT");
			bs_tdict_set_i64(t, "N", s->verdicts[k]);
			bs_tdict_set(t, "NAME", bs_verdicts[k].name);
		}

		if (s->verdicts[k] == 0)
			continue;
		t = bs_tdict_add(x, "TALLY");
		bs_tdict_set_i64(t, "N", s->verdicts[k]);
		bs_tdict_set(t, "NAME", bs_verdicts[k].name);
		bs_tdict_set(t, "WORDS", bs_verdicts[k].tally);
		bs_tdict_setf(t, "MARK", "%c", bs_verdicts[k].mark);
	}
	for (cat = 0; cat < BS_CAT_COUNT; cat++) {
		struct bs_tdict *c;
		static const char *const key[3] = {"GM", "LO", "HI"};
		const double f[3] = {s->gm[cat], s->lo[cat], s->hi[cat]};
		/* group / baseline: the factor turned back where lower is
		 * better (the interval's ends swap). */
		const int sg = s->sign[cat];
		const double r[3] = {sg < 0 ? 1 / f[0] : f[0],
				     sg < 0 ? 1 / f[2] : f[1],
				     sg < 0 ? 1 / f[1] : f[2]};
		static const char *const rkey[3] = {"R_RATIO", "R_LO", "R_HI"};
		char name[8];
		int j;

		if (s->n[cat] == 0 && !BS_V_UNCOMPARED(s->state[cat]))
			continue;
		c = bs_tdict_add(x, "CAT");
		if (n++)
			bs_tdict_show(c, "NOT_FIRST");
		bs_tdict_set(c, "NAME",
			     bs_category_name((enum bs_category)cat));
		bs_tdict_setf(c, "KEY", "geomean:%s",
			      bs_category_name((enum bs_category)cat));
		bs_tdict_set_i64(c, "N", s->n[cat]);
		for (j = 0; j < 3; j++) {
			if (isnan(f[j]))
				snprintf(v, sizeof(v), "%s", "");
			else
				snprintf(v, sizeof(v), "%.2f", f[j]);
			bs_tdict_set(c, key[j], v);
			snprintf(name, sizeof(name), "J_%s", key[j]);
			bs_tdict_set(c, name, v[0] ? v : "null");
			if (isnan(r[j]))
				v[0] = '\0';
			else
				snprintf(v, sizeof(v), "%.2f", r[j]);
			bs_tdict_set(c, rkey[j], v);
			if (j == 0)
				bs_tdict_set(c, "J_R_RATIO", v[0] ? v : "null");
		}
		if (!isnan(s->lo[cat]))
			bs_tdict_show(c, "HAS_CI");
		bs_buf_reset(&b);
		if (s->n[cat])
			bs_rsay_ratio(&b, r[0]);
		bs_tdict_set(c, "RATIO", bs_buf_str(&b));
		bs_buf_reset(&b);
		bs_rsay_state(&b, rep, i, cat);
		bs_tdict_set(c, "STATE_WORDS", bs_buf_str(&b));
		bs_tdict_set(c, "STATE", bs_verdicts[s->state[cat]].name);
		bs_tdict_set(c, "CLASS", bs_verdicts[s->state[cat]].name);
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

	assert(i < rep->ngroups);
	bs_tdict_set_i64(d, "INDEX", (int64_t)i + 1);
	bs_tdict_set(d, "LABEL", g->label);
	bs_tdict_set(d, "SELECTOR", g->selector);
	if (!g->label_whole)
		bs_tdict_show(d, "HAS_SELECTOR");
	fill_summary(rep, i, d);
	bs_tdict_set_i64(d, "RUNS", g->nruns);
	bs_tdict_set(d, "RUNS_WORD", g->nruns == 1 ? "run" : "runs");
	/* A report of one group compares nothing: no baseline to mark. */
	marked = i == g->base && rep->ngroups > 1;
	bs_tdict_show(d, marked ? "IS_BASELINE" : "NOT_BASELINE");
	bs_tdict_setf(d, "ROW_CLASS", "%s%s", marked ? "baseline" : "",
		      bs_rblock_start(rep, i) ? (marked ? " blk" : "blk") : "");
	bs_tdict_set(d, "IDS_WORD", g->nruns == 1 ? "id" : "ids");
	bs_tdict_set(d, "J_BASELINE", i == g->base ? "true" : "false");
	bs_tdict_set_i64(d, "BASE", (int64_t)g->base + 1);
	bs_tdict_set(d, "BASE_LABEL", rep->groups[g->base].label);
	if (rep->multi_base && i != g->base)
		bs_tdict_show(d, "VS_BASE");
	ids_text(g, &b, 200);
	bs_tdict_set(d, "IDS", bs_buf_str(&b));
	bs_buf_reset(&b);
	for (k = 0; k < (size_t)g->nruns; k++)
		bs_buf_addf(&b, "%s%lld", k ? "," : "", (long long)g->ids[k]);
	bs_tdict_set(d, "J_IDS", bs_buf_str(&b));
	bs_buf_reset(&b);
	bs_tdict_set(d, "MACHINES", gtext[0]);
	bs_tdict_set(d, "TAGS", gtext[1]);
	/* The tags but the host facts, which the HTML page's own table
	 * shows (HOSTS). */
	for (k = 0; k < g->ntags; k++)
		if (strncmp(g->tags[k].key, "host.", 5) != 0)
			bs_buf_addf(&b, "%s%s=%s", b.len ? " " : "",
				    g->tags[k].key, g->tags[k].value);
	bs_tdict_set(d, "OWN_TAGS", bs_buf_str(&b));
	bs_buf_reset(&b);
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
		bs_tdict_setf(t, "TEXT", "%s=%s", g->tags[k].key,
			      g->tags[k].value);
		bs_tdict_set(t, "KEY", g->tags[k].key);
		bs_tdict_set(t, "VALUE", g->tags[k].value);
	}
	if (g->ntags)
		bs_tdict_show(d, "HAS_TAGS");
	bs_tdict_set(d, "FILE_SIZE",
		     bs_rfmt_param(g, bs_param_find("file_size_mib"), v,
				   sizeof(v)));
	bs_tdict_set(d, "FILES", bs_rfmt_files(g, v, sizeof(v)));
	/* What decides the numbers of its tools (BS_PF_DECIDES). */
	bs_buf_reset(&b);
	bs_rparams_deciding(g, &b);
	bs_tdict_set(d, "PARAMS", bs_buf_str(&b));
	bs_tdict_setf(d, "PARAMS_ROW", "[%zu] %s", i + 1, bs_buf_str(&b));
	if (b.len)
		bs_tdict_show(d, "HAS_PARAMS");
	for (p = 0; p < bs_nparams; p++)
		if ((bs_param_table[p].flags & BS_PF_DECIDES) &&
		    ((g->families >> bs_param_table[p].family) & 1))
			bs_tdict_set(bs_tdict_add(d, "DECIDES"), "KEY",
				     bs_param_table[p].key);
	bs_buf_reset(&b);
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
	if (i == rep->groups[i].base)
		return "baseline";
	if (isnan(c->diff) || c->verdict == BS_V_APART)
		return "";
	if (c->better == 0)
		return "same";
	return c->better > 0 ? bs_verdicts[BS_V_BETTER].name
			     : bs_verdicts[BS_V_WORSE].name;
}

/* gtext: the group's machines and tags as text, for CSV rows. */
static void fill_cell(const struct bs_report *rep, int m, size_t i,
		      char *const gtext[2], struct bs_tdict *d)
{
	const struct bs_report_group *g = &rep->groups[i];
	const struct bs_report_cell *c = &g->cell[m];
	static const char *const nums[] = {
		"VALUE", "SD",       "MIN",      "MAX", "DIFF", "RATIO",  "PCT",
		"CI",    "RATIO_LO", "RATIO_HI", "P",   "CV",   "MEDIAN",
	};
	struct bs_stat_sample smp = {(double)c->ok, c->mean, c->sd};
	double raw[13];
	char s[64], key[16];
	size_t k;

	assert(m >= 0 && m < BS_RM_USED && rep->shown[m]);
	assert(i < rep->ngroups);
	raw[0] = bs_rscale(rep, m, c->mean);
	raw[1] = bs_rscale(rep, m, c->sd);
	raw[2] = bs_rscale(rep, m, c->min);
	raw[3] = bs_rscale(rep, m, c->max);
	raw[4] = bs_rscale(rep, m, c->diff);
	raw[5] = c->ratio;
	raw[6] = c->pct;
	raw[7] = bs_rscale(rep, m, c->ci);
	raw[8] = c->ratio_lo;
	raw[9] = c->ratio_hi;
	raw[10] = c->p;
	raw[11] = c->status == BS_ST_OK ? bs_stat_cv(&smp) : NAN;
	raw[12] = bs_rscale(rep, m, c->median);
	bs_tdict_set_i64(d, "GROUP", (int64_t)i + 1);
	bs_tdict_set(d, "GROUP_LABEL", g->label);
	bs_tdict_set(d, "GROUP_SELECTOR", g->selector);
	bs_tdict_set(d, "GROUP_MACHINES", gtext[0]);
	bs_tdict_set(d, "GROUP_TAGS", gtext[1]);
	bs_tdict_set_i64(d, "RUNS", g->nruns);
	bs_tdict_set(d, "STATUS", bs_status_name(c->status));
	bs_tdict_set_i64(d, "COUNT", c->ok);
	bs_tdict_set_i64(d, "TOO_FAST", c->too_fast);
	bs_tdict_set_i64(d, "NOT_RUN", c->not_run);
	for (k = 0; k < sizeof(raw) / sizeof(raw[0]); k++) {
		bs_rfmt_raw(raw[k], s, sizeof(s));
		snprintf(key, sizeof(key), "R_%s", nums[k]);
		bs_tdict_set(d, key, s);
		snprintf(key, sizeof(key), "J_%s", nums[k]);
		bs_tdict_set(d, key, jnum(s));
	}
	bs_tdict_set(d, "VALUE", bs_rfmt(rep, m, c->mean, s, sizeof(s)));
	bs_tdict_set(d, "SD", bs_rfmt(rep, m, c->sd, s, sizeof(s)));
	bs_tdict_set(d, "MEDIAN", bs_rfmt(rep, m, c->median, s, sizeof(s)));
	bs_tdict_set(d, "MIN", bs_rfmt(rep, m, c->min, s, sizeof(s)));
	bs_tdict_set(d, "MAX", bs_rfmt(rep, m, c->max, s, sizeof(s)));
	bs_tdict_set(d, "DIFF", bs_rfmt(rep, m, c->diff, s, sizeof(s)));
	bs_tdict_set(d, "RATIO", bs_rfmt_ratio(c->ratio, s, sizeof(s)));
	bs_tdict_set(d, "PCT", bs_rfmt_pct(c->pct, s, sizeof(s)));
	bs_tdict_show(d, c->status == BS_ST_OK ? "HAS_VALUE" : "NO_VALUE");
	bs_tdict_set(d, "BETTER", better_word(rep, i, c));
	bs_tdict_set(d, "VERDICT", bs_verdict_name(c->verdict));
	bs_tdict_set(d, "J_BETTER",
		     isnan(c->diff) || c->better == 0 ? "null"
		     : c->better > 0                  ? "true"
						      : "false");
	bs_tdict_set(d, "J_BEST", c->best ? "true" : "false");
	if (c->best)
		bs_tdict_show(d, "IS_BEST");
	if (i == g->base)
		bs_tdict_show(d, "IS_BASELINE");
	bs_tdict_set_i64(d, "BASE", (int64_t)g->base + 1);
	if (c->shade >= 0)
		bs_tdict_set_i64(d, "SHADE", c->shade);
}
/*
 * Each verdict's look on the HTML page, from bs_verdicts[], as
 * <NAME>_COLOUR, _TINT, _BAR, _GLYPH_UP and _GLYPH_DOWN (BETTER_COLOUR,
 * FEW_GLYPH_DOWN): the page's style writes no colour of its own.
 */
static void verdict_style(struct bs_tdict *d)
{
	static const char *const part[] = {"COLOUR", "TINT", "BAR", "GLYPH_UP",
					   "GLYPH_DOWN"};
	char key[64], name[16];
	size_t j, k;
	int v;

	for (v = BS_V_BETTER; v < BS_V_COUNT; v++) {
		const struct bs_verdict_info *x = &bs_verdicts[v];
		const char *val[] = {x->colour, x->tint, x->bar, x->glyph_up,
				     x->glyph_down};

		for (j = 0; x->name[j] && j + 1 < sizeof(name); j++)
			name[j] = (char)(x->name[j] >= 'a' && x->name[j] <= 'z'
						 ? x->name[j] - 'a' + 'A'
						 : x->name[j]);
		name[j] = '\0';
		for (k = 0; k < sizeof(part) / sizeof(part[0]); k++) {
			snprintf(key, sizeof(key), "%s_%s", name, part[k]);
			bs_tdict_set(d, key, val[k]);
		}
	}
}

static void fill_model(const struct bs_report *rep, struct bs_tdict *d)
{
	const struct bs_report_group *b = &rep->groups[rep->groups[0].base];
	char key[32], label[96];
	char **gtext;
	size_t i;
	int m;

	bs_tdict_set(d, "TITLE", rep->title);
	bs_tdict_set_i64(d, "NGROUPS", (int64_t)rep->ngroups);
	bs_tdict_set_i64(d, "NRUNS", rep->nruns);
	/* With a baseline per block, J_TOP_BASELINE is null and MULTI_BASE
	 * shows; BASELINE is the first block's. */
	bs_tdict_set_i64(d, "BASELINE", (int64_t)rep->groups[0].base + 1);
	bs_tdict_setf(d, "J_TOP_BASELINE", "%zu", rep->groups[0].base + 1);
	if (rep->multi_base) {
		bs_tdict_set(d, "J_TOP_BASELINE", "null");
		bs_tdict_show(d, "MULTI_BASE");
	} else {
		bs_tdict_show(d, "ONE_BASE");
	}
	bs_tdict_set(d, "BASELINE_LABEL", b->label);
	bs_tdict_set(d, "IO_UNIT", bs_metric_unit(BS_M_PUT_BLOCK, rep->show));
	bs_rfmt_raw(bs_report_noise(rep), key, sizeof(key));
	bs_tdict_set(d, "NOISE", key);
	if (rep->ngroups > 1)
		bs_tdict_show(d, "COMPARED");
	bonnie_tf(rep, d);
	bs_rabsent_legend(d, page_absent(rep, 0));
	/* The verdicts of the page's cells, for legends (bs_verdicts[]):
	 * better, worse and within noise always, the others where a cell
	 * has them. */
	for (m = BS_V_BETTER; m < BS_V_COUNT; m++) {
		struct bs_tdict *v;

		if (m == BS_V_MIXED)
			continue; /* a summary's only */
		if (m > BS_V_NOISE && !on_page(rep, (enum bs_verdict)m))
			continue;
		v = bs_tdict_add(d, "VERDICT");
		bs_tdict_set(v, "NAME", bs_verdicts[m].name);
		bs_tdict_set(v, "WORDS", bs_verdicts[m].words);
		bs_tdict_set(v, "LEGEND", bs_verdicts[m].legend);
		bs_tdict_setf(v, "MARK", "%c", bs_verdicts[m].mark);
	}
	verdict_style(d);
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
			bs_buf_addf(&t, "%s%s=%s", k ? " " : "", g->tags[k].key,
				    g->tags[k].value);
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
		bs_tdict_set(x, "KIND", bs_rm_kind(m));
		bs_tdict_set(x, "LABEL", bs_rm_label(m, label, sizeof(label)));
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

/* ---- rendering -------------------------------------------------------- */

int bs_report_render(const struct bs_report *rep, const struct bs_tmpl_set *ts,
		     enum bs_report_format fmt,
		     const struct bs_report_source *src, FILE *out,
		     struct bs_err *err)
{
	struct bs_tdict *d = NULL;
	const char *name;
	int rc;

	assert((size_t)fmt < sizeof(tmpl_names) / sizeof(tmpl_names[0]));
	assert(rep->ngroups > 0 && rep->groups[0].base < rep->ngroups);
	name = tmpl_names[fmt];
	rc = bs_tdict_new(&d, err);
	if (rc < 0)
		return rc;
	fill_model(rep, d);
	bs_rcurves_fill(rep, d, fmt == BS_REPORT_CSV || fmt == BS_REPORT_JSON);
	if (fmt == BS_REPORT_TEXT)
		bs_rtext_fill(rep, d);
	if (fmt == BS_REPORT_TEXT || fmt == BS_REPORT_JSON)
		bs_rdist_cdf(rep, d);
	if (fmt != BS_REPORT_HTML) {
		rc = bs_tmpl_expand_file(ts, name, d, out, err);
		goto out;
	}
	bs_rhtml_fill(rep, d);
	bs_tdict_show(d, "PART_HEAD");
	rc = bs_tmpl_expand_file(ts, name, d, out, err);
	if (rc < 0)
		goto out;
	rc = bs_rhtml_runs(rep, ts, src, out, err);
	if (rc < 0)
		goto out;
	bs_tdict_clear(d);
	bs_tdict_show(d, "PART_TAIL");
	bonnie_tf(rep, d);
	bs_rabsent_legend(d, page_absent(rep, 1));
	bs_tdict_set(d, "TITLE", rep->title);
	rc = bs_tmpl_expand_file(ts, name, d, out, err);
out:
	bs_tdict_free(d);
	return rc;
}
