/*
 * report/render.c - the report model -> template dictionaries -> output:
 * the entry point, and the dictionary of the model that every format
 * gets (docs/report.md lists its names).
 *
 * The HTML page's tables, charts and streamed list of runs are
 * render_html.c's and add to the dictionary filled here; so do the text
 * report's tables, laid out below. The HTML page is expanded in three
 * parts (PART_HEAD, PART_RUNS, PART_TAIL), one after the other.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	bs_tdict_set(d, "TITLE", rep->title);
	rc = bs_tmpl_expand_file(ts, name, d, out, err);
out:
	bs_tdict_free(d);
	return rc;
}
