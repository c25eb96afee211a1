/*
 * report/site.c - the static site of stored runs (report/site.h): reads
 * the runs once, writing each run's page as it goes and keeping what the
 * lists need of it; then the pages of each machine, tag value and tool,
 * and the index, through templates/site.html.
 */
#include "report/site.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "core/metric.h"
#include "core/param.h"
#include "report/tmpl.h"
#include "report/trend.h"
#include "util/embed.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/timefmt.h"
#include "util/banned.h"

/* Generated from templates/ by report/CMakeLists.txt. */
extern const struct bs_embedded bs_tmpl_site_html[];
extern const struct bs_embedded bs_tmpl_site_css[];

const char *const bs_site_dirs[] = {"run", "machine", "tag", "tool", "compare"};
const size_t bs_site_ndirs = sizeof(bs_site_dirs) / sizeof(bs_site_dirs[0]);

/* The length of the run of characters of set at the start of s. */
static size_t span_of(const char *s, const char *set)
{
	return strspn(s, set);
}

#define DIGITS "0123456789"
#define HEX8 "0123456789abcdef"

/* Whether s is "-pN" (a later page of a list) or empty, then ".html". */
static int page_tail(const char *s)
{
	if (s[0] == '-' && s[1] == 'p' && s[2] >= '1' && s[2] <= '9')
		s += 2 + span_of(s + 2, DIGITS);
	return strcmp(s, ".html") == 0;
}

int bs_site_own_name(const char *dir, const char *name)
{
	size_t n;

	if (strcmp(dir, "") == 0)
		return strncmp(name, "index", 5) == 0 && name[5] == '-' &&
		       page_tail(name + 5);
	if (strcmp(dir, "run") == 0) {
		n = span_of(name, DIGITS);
		return n > 0 && name[n] == '-' &&
		       span_of(name + n + 1, HEX8) == 8 &&
		       strcmp(name + n + 9, ".html") == 0;
	}
	if (strcmp(dir, "compare") == 0) {
		/* A saved comparison's name (cli/cmd_report.c's rule). */
		n = span_of(name, "abcdefghijklmnopqrstuvwxyz"
		                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ" DIGITS "._-");
		return n > 5 && n <= 64 + 5 && name[n] == '\0' &&
		       strcmp(name + n - 5, ".html") == 0 && name[0] != '.' &&
		       name[0] != '_' && name[0] != '-';
	}
	if (strcmp(dir, "machine") == 0 || strcmp(dir, "tag") == 0 ||
	    strcmp(dir, "tool") == 0) {
		/* SLUG-HASH8 of [a-z0-9-], then the page's tail. */
		size_t slug = span_of(name, "abcdefghijklmnopqrstuvwxyz" DIGITS
		                            "-");

		for (n = 1; n < slug; n++)
			if (name[n] == '-' && span_of(name + n + 1, HEX8) >= 8 &&
			    page_tail(name + n + 9))
				return 1;
	}
	return 0;
}

/* The index lists this many of the newest runs. */
#define NEWEST_RUNS 25
/* A trend chart marks each run with a point up to this many runs. */
#define CHART_POINTS_MAX 300
/* The "more" column of the index names at most this many values. */
#define MORE_MAX 4
/* Room for the catalogue's main metrics (BS_MF_MAIN). */
#define MAIN_MAX 16

/* What the list pages need of one run. */
struct srun {
	int64_t id, measured_at;
	char sha8[9];
	enum bs_family family;
	char *machine, *tool, *version;
	size_t str0, ntags; /* its tags: site.strs[str0 + 2i], [.. + 1] */
	unsigned char status[MAIN_MAX]; /* enum bs_status */
	double val[MAIN_MAX];
};

/* Kinds of list page; their order is the index's. */
enum gkind { G_MACHINE, G_TAG, G_TOOL };

/* A run's membership of a list: its machine, one of its tags, its tool. */
struct member {
	enum gkind kind;
	const char *a, *b; /* name; a tag's key and value */
	size_t run;        /* index into site.runs */
};

struct site {
	struct bs_tmpl_set *ts;
	struct bs_tdict *d;
	struct bs_buf page, path, text;
	bs_site_put_fn put;
	void *ctx;
	struct bs_err *err;
	struct srun *runs;
	size_t nruns, caprun;
	struct member *mem;
	size_t nmem, capmem;
	char **strs; /* tag keys and values the members point at */
	size_t nstrs, capstrs;
	int main[MAIN_MAX]; /* catalogue rows of the main metrics */
	int nmain;
	int mainidx[BS_M_MAX]; /* catalogue row -> index in main, or -1 */
};

/* ---- names and paths -------------------------------------------------- */

/* Appends the slug of s: [a-z0-9] as they are, runs of others as '-'. */
static void add_slug(struct bs_buf *b, const char *s)
{
	size_t start = b->len, n = 0;
	int dash = 0;

	for (; *s && n < 40; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && b->len > start) {
				bs_buf_addc(b, '-');
				n++;
			}
			bs_buf_addc(b, c);
			n++;
			dash = 0;
		} else {
			dash = 1;
		}
	}
	if (b->len == start)
		bs_buf_adds(b, "x");
}

/* The page of a machine, tag value or tool, from the site's root. */
static void group_path(struct bs_buf *b, enum gkind kind, const char *a,
                       const char *bv)
{
	static const char *const dir[] = {"machine", "tag", "tool"};
	struct bs_buf whole = BS_BUF_INIT;
	char hex[BS_SHA256_HEX];

	bs_buf_addf(b, "%s/", dir[kind]);
	add_slug(b, a);
	if (kind == G_TAG) {
		/* A key never holds '=': key=value names one tag value. */
		bs_buf_adds(b, "-");
		add_slug(b, bv);
		bs_buf_addf(&whole, "%s=%s", a, bv);
	} else {
		bs_buf_adds(&whole, a);
	}
	bs_sha256_hex(whole.data ? whole.data : "", whole.len, hex);
	bs_buf_addf(b, "-%.8s.html", hex);
	bs_buf_release(&whole);
}

static void run_path(struct bs_buf *b, int64_t id, const char *sha256)
{
	bs_buf_addf(b, "run/%lld-%.8s.html", (long long)id, sha256);
}

/* "2024-01-31 12:00", or "unknown". */
static const char *date_text(int64_t t, char *out, size_t outsz)
{
	char iso[48];

	if (t == BS_NONE) {
		snprintf(out, outsz, "unknown");
		return out;
	}
	bs_time_iso(iso, sizeof(iso), t);
	snprintf(out, outsz, "%.10s %.5s", iso, iso + 11);
	return out;
}

static const char *machine_name(const char *m)
{
	return m && m[0] ? m : "(no name)";
}

/* Sets key to prefix + the page of a group (prefix "" or "../"). */
static void set_group_href(struct site *s, struct bs_tdict *d, const char *key,
                           const char *prefix, enum gkind kind, const char *a,
                           const char *b)
{
	bs_buf_reset(&s->path);
	bs_buf_adds(&s->path, prefix);
	group_path(&s->path, kind, a, b);
	bs_tdict_set(d, key, bs_buf_str(&s->path));
}

/* ---- pages -------------------------------------------------------------- */

/* What every page has: title, style sheet and home links, the crumb. */
static void page_head(struct bs_tdict *d, int depth, const char *title,
                      const char *crumb)
{
	bs_tdict_set(d, "TITLE", title);
	bs_tdict_set(d, "HEADING", title);
	bs_tdict_set(d, "CSS_HREF", depth ? "../site.css" : "site.css");
	bs_tdict_set(d, "HOME_HREF", depth ? "../index.html" : "index.html");
	if (crumb)
		bs_tdict_set(bs_tdict_add(d, "CRUMB"), "KIND", crumb);
}

static void lede(struct bs_tdict *d, const char *text)
{
	bs_tdict_set(bs_tdict_add(d, "LEDE"), "TEXT", text);
}

/* Expands the page in s->d and hands it to put(). */
static int emit(struct site *s, const char *path)
{
	int rc;

	bs_buf_reset(&s->page);
	rc = bs_tmpl_expand_buf(s->ts, "site.html", s->d, &s->page, s->err);
	if (rc == 0)
		rc = s->put(s->ctx, path, bs_buf_str(&s->page), s->page.len,
		            s->err);
	bs_tdict_clear(s->d);
	return rc;
}

static void field(struct bs_tdict *d, const char *name, const char *value,
                  const char *href)
{
	struct bs_tdict *f = bs_tdict_add(d, "FIELD");

	bs_tdict_set(f, "NAME", name);
	bs_tdict_set(f, "VALUE", value ? value : "unknown");
	if (href) {
		bs_tdict_set(f, "HREF", href);
		bs_tdict_show(f, "LINK");
	} else {
		bs_tdict_show(f, "PLAIN");
	}
}

static void run_results(struct site *s, const struct bs_run *r)
{
	char num[64];
	int m, first, end, cpu = 0, lat = 0;

	/* The CPU and latency columns when some result has one: bonnie++
	 * 1.0x printed no latencies. */
	bs_metric_rows(r->family, &first, &end);
	for (m = first; m < end; m++) {
		cpu |= !isnan(r->res[m].cpu_pct);
		lat |= !isnan(r->res[m].lat_us);
	}
	if (cpu)
		bs_tdict_show(s->d, "HAS_CPU");
	if (lat)
		bs_tdict_show(s->d, "HAS_LAT");
	for (m = first; m < end; m++) {
		const struct bs_value *v = &r->res[m];
		struct bs_tdict *x = bs_tdict_add(s->d, "RESULT");

		bs_tdict_set(x, "LABEL", bs_metrics[m].label);
		bs_tdict_set(x, "KEY", bs_metrics[m].key);
		bs_tdict_set(x, "UNIT", bs_metrics[m].unit);
		switch (v->status) {
		case BS_ST_OK:
			bs_tdict_set(
			    x, "VALUE",
			    bs_value_fmt(num, sizeof(num), m, v->value));
			break;
		case BS_ST_TOO_FAST:
			bs_tdict_set(x, "VALUE", "too fast");
			bs_tdict_set(x, "CLASS", "tf");
			break;
		case BS_ST_NOT_RUN:
			bs_tdict_set(x, "VALUE", "not run");
			bs_tdict_set(x, "CLASS", "nr");
			break;
		}
		if (!isnan(v->cpu_pct)) {
			bs_tdict_setf(
			    x, "CPU", "%s%%",
			    bs_bonnie_fmt_cpu(num, sizeof(num), v->cpu_pct));
		}
		if (!isnan(v->lat_us))
			bs_tdict_set(
			    x, "LAT",
			    bs_bonnie_fmt_latency(num, sizeof(num), v->lat_us));
	}
}

/* The page of one run. */
static int run_page(struct site *s, const struct bs_run *r)
{
	struct bs_tdict *d = s->d;
	struct bs_buf href = BS_BUF_INIT, t = BS_BUF_INIT;
	char date[48], path[96];
	size_t i;
	int k, rc;

	bs_buf_addf(&t, "Run %lld: %s", (long long)r->id,
	            machine_name(r->machine));
	page_head(d, 1, bs_buf_str(&t), "run");
	bs_buf_reset(&t);
	bs_buf_addf(&t, "%s %s, measured %s", r->tool,
	            r->tool_version ? r->tool_version : "?",
	            date_text(r->measured_at, date, sizeof(date)));
	lede(d, bs_buf_str(&t));
	bs_tdict_show(d, "RUN");

	bs_buf_reset(&t);
	bs_buf_addf(&t, "%lld", (long long)r->id);
	field(d, "id", bs_buf_str(&t), NULL);
	bs_buf_adds(&href, "../");
	group_path(&href, G_MACHINE, r->machine ? r->machine : "", NULL);
	field(d, "machine", machine_name(r->machine), bs_buf_str(&href));
	bs_buf_reset(&href);
	bs_buf_adds(&href, "../");
	group_path(&href, G_TOOL, r->tool, NULL);
	field(d, "tool", r->tool, bs_buf_str(&href));
	field(d, "version", r->tool_version, NULL);
	field(d, "family", bs_family_name(r->family), NULL);
	field(d, "format", r->format, NULL);
	bs_buf_reset(&t);
	bs_buf_adds(&t, r->source ? r->source : "");
	if (r->source_line != BS_NONE)
		bs_buf_addf(&t, ":%lld", (long long)r->source_line);
	field(d, "source", bs_buf_str(&t), NULL);
	field(d, "measured at", date_text(r->measured_at, date, sizeof(date)),
	      NULL);
	field(d, "stored at", date_text(r->stored_at, date, sizeof(date)),
	      NULL);
	field(d, "sha256", r->sha256, NULL);
	field(d, "parser", r->parser_version, NULL);
	if (r->warning)
		field(d, "warning", r->warning, NULL);

	bs_tdict_show(d, r->ntags ? "HAS_TAGS" : "NO_TAGS");
	for (i = 0; i < r->ntags; i++) {
		struct bs_tdict *x = bs_tdict_add(d, "TAG");

		bs_tdict_set(x, "KEY", r->tags[i].key);
		bs_tdict_set(x, "VALUE", r->tags[i].value);
		set_group_href(s, x, "HREF", "../", G_TAG, r->tags[i].key,
		               r->tags[i].value);
	}
	for (k = 0; k < bs_nparams; k++) {
		struct bs_tdict *x;

		if (bs_param_table[k].family != r->family)
			continue;
		x = bs_tdict_add(d, "PARAM");
		bs_buf_reset(&t);
		bs_param_describe(&r->params, k, &t);
		bs_tdict_set(x, "LABEL", bs_param_table[k].label);
		bs_tdict_set(x, "VALUE", bs_buf_str(&t));
	}
	run_results(s, r);
	if (r->family == BS_FAM_BONNIE) {
		bs_buf_reset(&t);
		bs_bonnie_table(r, bs_bonnie_style_for(r), &t);
		bs_tdict_set(bs_tdict_add(d, "TEXT_TABLE"), "TABLE",
		             bs_buf_str(&t));
	}
	bs_tdict_set(d, "RAW", r->raw ? r->raw : "");
	bs_buf_reset(&t);
	run_path(&t, r->id, r->sha256);
	snprintf(path, sizeof(path), "%s", bs_buf_str(&t));
	rc = emit(s, path);
	bs_buf_release(&href);
	bs_buf_release(&t);
	return rc;
}

/* ---- reading the runs ------------------------------------------------- */

static const char *keep_str(struct site *s, const char *v)
{
	xgrow((void **)&s->strs, &s->capstrs, s->nstrs + 1, sizeof(*s->strs));
	s->strs[s->nstrs] = xstrdup(v ? v : "");
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

static int on_run(const struct bs_run *r, void *vctx)
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
	x->machine = xstrdup(r->machine ? r->machine : "");
	x->tool = xstrdup(r->tool ? r->tool : "");
	x->version = xstrdup(r->tool_version ? r->tool_version : "?");
	for (k = 0; k < s->nmain; k++) {
		x->status[k] = (unsigned char)r->res[s->main[k]].status;
		x->val[k] = r->res[s->main[k]].value;
	}
	add_member(s, G_MACHINE, x->machine, NULL, s->nruns);
	add_member(s, G_TOOL, x->tool, NULL, s->nruns);
	x->str0 = s->nstrs;
	x->ntags = r->ntags;
	for (i = 0; i < r->ntags; i++) {
		const char *key = keep_str(s, r->tags[i].key);

		add_member(s, G_TAG, key, keep_str(s, r->tags[i].value),
		           s->nruns);
	}
	s->nruns++;
	return run_page(s, r);
}

/* ---- lists ------------------------------------------------------------ */

/* Newest first: by measured_at (unknown last), then id. */
static int newer(const struct srun *x, const struct srun *y)
{
	if (x->measured_at != y->measured_at) {
		if (x->measured_at == BS_NONE)
			return 1;
		if (y->measured_at == BS_NONE)
			return -1;
		return x->measured_at > y->measured_at ? -1 : 1;
	}
	return (x->id < y->id) - (x->id > y->id);
}

static const struct site *sort_site; /* qsort has no context argument */

static int cmp_member(const void *pa, const void *pb)
{
	const struct member *a = pa, *b = pb;
	int c;

	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	c = strcmp(a->a, b->a);
	if (c == 0 && a->b && b->b)
		c = strcmp(a->b, b->b);
	if (c == 0)
		c = newer(&sort_site->runs[a->run], &sort_site->runs[b->run]);
	return c;
}

static int same_group(const struct member *a, const struct member *b)
{
	return a->kind == b->kind && strcmp(a->a, b->a) == 0 &&
	       (a->kind != G_TAG || strcmp(a->b, b->b) == 0);
}

/* The main metrics of the families among the runs, in catalogue order:
 * want[k] for main[k]. */
static void main_columns(const struct site *s, const size_t *runs, size_t n,
                         unsigned char want[MAIN_MAX])
{
	unsigned fams = 0;
	size_t i;
	int k;

	for (i = 0; i < n; i++)
		fams |= 1u << s->runs[runs[i]].family;
	for (k = 0; k < s->nmain; k++)
		want[k] = (fams >> bs_metrics[s->main[k]].family) & 1;
}

/* The RUNS table: runs[0..n-1] (indices into s->runs), at most limit. */
static void runs_table(struct site *s, const size_t *runs, size_t n,
                       size_t limit, const char *title, const char *prefix,
                       const char *more)
{
	unsigned char want[MAIN_MAX];
	struct bs_tdict *d = bs_tdict_add(s->d, "RUNS"), *row, *x;
	char num[64], date[48];
	size_t i, t;
	int k;

	bs_tdict_set(d, "RUNS_TITLE", title);
	main_columns(s, runs, n, want);
	for (k = 0; k < s->nmain; k++) {
		if (!want[k])
			continue;
		x = bs_tdict_add(d, "COL");
		bs_tdict_set(x, "LABEL", bs_metrics[s->main[k]].label);
		bs_tdict_set(x, "UNIT", bs_metrics[s->main[k]].unit);
	}
	for (i = 0; i < n && i < limit; i++) {
		const struct srun *r = &s->runs[runs[i]];

		row = bs_tdict_add(d, "ROW");
		bs_buf_reset(&s->path);
		bs_buf_adds(&s->path, prefix);
		run_path(&s->path, r->id, r->sha8);
		bs_tdict_set(row, "HREF", bs_buf_str(&s->path));
		bs_tdict_set_i64(row, "ID", r->id);
		bs_tdict_set(row, "DATE",
		             date_text(r->measured_at, date, sizeof(date)));
		bs_tdict_set(row, "MACHINE", machine_name(r->machine));
		set_group_href(s, row, "MHREF", prefix, G_MACHINE, r->machine,
		               NULL);
		bs_tdict_setf(row, "TOOL", "%s %s", r->tool, r->version);
		/* The run's tags but the host facts of bstore run, which
		 * its own page lists. */
		for (t = 0; t < r->ntags; t++) {
			const char *key = s->strs[r->str0 + 2 * t];
			const char *val = s->strs[r->str0 + 2 * t + 1];

			if (strncmp(key, "host.", 5) == 0)
				continue;
			x = bs_tdict_add(row, "TAG");
			bs_tdict_setf(x, "TEXT", "%s=%s", key, val);
			set_group_href(s, x, "THREF", prefix, G_TAG, key, val);
		}
		for (k = 0; k < s->nmain; k++) {
			int m = s->main[k];

			if (!want[k])
				continue;
			x = bs_tdict_add(row, "CELL");
			if (bs_metrics[m].family != r->family)
				continue;
			switch ((enum bs_status)r->status[k]) {
			case BS_ST_OK:
				bs_tdict_set(x, "TEXT",
				             bs_value_fmt(num, sizeof(num), m,
				                          r->val[k]));
				break;
			case BS_ST_TOO_FAST:
				bs_tdict_set(x, "TEXT", "too fast");
				bs_tdict_set(x, "CLASS", "tf");
				break;
			case BS_ST_NOT_RUN:
				bs_tdict_set(x, "TEXT", "not run");
				bs_tdict_set(x, "CLASS", "nr");
				break;
			}
		}
	}
	if (more && n > limit)
		bs_tdict_set(bs_tdict_add(d, "RUNS_MORE"), "RUNS_MORE_TEXT",
		             more);
}

/* ---- trend charts ----------------------------------------------------- */

/* Chart geometry, in SVG user units. */
enum { CW = 480, CH = 212, X0 = 64, Y0 = 24, PW = 404, PH = 150 };

static double chart_x(int64_t t, int64_t t0, int64_t t1)
{
	return t1 > t0 ? X0 + (double)(t - t0) / (double)(t1 - t0) * PW
	               : X0 + PW / 2.0;
}

static double chart_y(double v, double vmax)
{
	return Y0 + PH - (vmax > 0 ? v / vmax * PH : 0);
}

static void chart(struct site *s, struct bs_tdict *trend, int k,
                  struct bs_trend_sample *pt, size_t n)
{
	struct bs_tdict *c, *p;
	struct bs_buf pts = BS_BUF_INIT;
	char num[64], date[48];
	double vmax = 0;
	int64_t t0, t1;
	size_t i, j;
	int m = s->main[k];

	qsort(pt, n, sizeof(*pt), bs_trend_sample_cmp);
	t0 = pt[0].t;
	t1 = pt[n - 1].t;
	for (i = 0; i < n; i++)
		if (pt[i].v > vmax)
			vmax = pt[i].v;
	c = bs_tdict_add(trend, "CHART");
	bs_tdict_set(c, "LABEL", bs_metrics[m].label);
	bs_tdict_set(c, "UNIT", bs_metrics[m].unit);
	bs_tdict_set_i64(c, "CW", CW);
	bs_tdict_set_i64(c, "CH", CH);
	bs_tdict_set_i64(c, "X0", X0);
	bs_tdict_set_i64(c, "Y0", Y0);
	bs_tdict_set_i64(c, "PW", PW);
	bs_tdict_set_i64(c, "PH", PH);
	bs_tdict_set_i64(c, "TX", X0 - 4);
	bs_tdict_set_i64(c, "YTOP", Y0 + 10);
	bs_tdict_set_i64(c, "YBOT", Y0 + PH);
	bs_tdict_set_i64(c, "YDATE", Y0 + PH + 16);
	bs_tdict_set_i64(c, "XEND", X0 + PW);
	bs_tdict_set(c, "VMAX", bs_value_fmt(num, sizeof(num), m, vmax));
	bs_tdict_set(c, "VMIN", "0");
	bs_tdict_setf(c, "DFIRST", "%.10s", date_text(t0, date, sizeof(date)));
	bs_tdict_setf(c, "DLAST", "%.10s", date_text(t1, date, sizeof(date)));
	for (i = 0; i < n; i++) {
		double x = chart_x(pt[i].t, t0, t1);
		double y = chart_y(pt[i].v, vmax);

		if (n > CHART_POINTS_MAX)
			continue;
		p = bs_tdict_add(c, "PT");
		bs_tdict_setf(p, "X", "%.1f", x);
		bs_tdict_setf(p, "Y", "%.1f", y);
		bs_tdict_set_i64(p, "ID", pt[i].id);
		bs_tdict_set(p, "DATE", date_text(pt[i].t, date, sizeof(date)));
		bs_tdict_set(p, "VALUE",
		             bs_value_fmt(num, sizeof(num), m, pt[i].v));
	}
	/* The line joins the mean of the runs measured at each time, so
	 * that runs of one date make a point, not a vertical zigzag. */
	for (i = 0; i < n; i = j) {
		double sum = 0;

		for (j = i; j < n && pt[j].t == pt[i].t; j++)
			sum += pt[j].v;
		bs_buf_addf(&pts, "%s%.1f,%.1f", i ? " " : "",
		            chart_x(pt[i].t, t0, t1),
		            chart_y(sum / (double)(j - i), vmax));
	}
	bs_tdict_set(c, "POINTS", bs_buf_str(&pts));
	bs_buf_release(&pts);
}

/* The trend charts of a list, when its runs were measured on several
 * days: one per main metric that has two numbers or more. */
static void trend(struct site *s, struct bs_tdict *list, const size_t *runs,
                  size_t n)
{
	struct bs_trend_sample *pt = xcalloc(n ? n : 1, sizeof(*pt));
	struct bs_tdict *t = NULL;
	int64_t day = BS_NONE;
	size_t i, np;
	int k, days = 0;

	for (i = 0; i < n && days < 2; i++) {
		int64_t t0 = s->runs[runs[i]].measured_at;

		if (t0 == BS_NONE)
			continue;
		if (day == BS_NONE || t0 / 86400 != day)
			days++;
		day = t0 / 86400;
	}
	for (k = 0; k < s->nmain && days >= 2; k++) {
		for (i = 0, np = 0; i < n; i++) {
			const struct srun *r = &s->runs[runs[i]];

			if (r->measured_at == BS_NONE ||
			    r->family != bs_metrics[s->main[k]].family ||
			    r->status[k] != BS_ST_OK || isnan(r->val[k]))
				continue;
			pt[np].t = r->measured_at;
			pt[np].id = r->id;
			pt[np].v = r->val[k];
			np++;
		}
		if (np < 2)
			continue;
		if (t == NULL)
			t = bs_tdict_add(list, "TREND");
		chart(s, t, k, pt, np);
	}
	free(pt);
}

/* ---- list pages and the index ----------------------------------------- */

static const char *const kind_word[] = {"machine", "tag", "tool"};

/* "3 runs, measured 2004-03-01 to 2024-01-31" of a list. */
static void span_text(const struct site *s, const size_t *runs, size_t n,
                      struct bs_buf *b)
{
	int64_t lo = BS_NONE, hi = BS_NONE;
	char d1[48], d2[48];
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t t = s->runs[runs[i]].measured_at;

		if (t == BS_NONE)
			continue;
		if (lo == BS_NONE || t < lo)
			lo = t;
		if (hi == BS_NONE || t > hi)
			hi = t;
	}
	bs_buf_addf(b, "%zu run%s", n, n == 1 ? "" : "s");
	if (lo != BS_NONE && lo / 86400 != hi / 86400)
		bs_buf_addf(b, ", measured %.10s to %.10s",
		            date_text(lo, d1, sizeof(d1)),
		            date_text(hi, d2, sizeof(d2)));
	else if (lo != BS_NONE)
		bs_buf_addf(b, ", measured %.10s",
		            date_text(lo, d1, sizeof(d1)));
	bs_buf_adds(b, ".");
}

static int list_page(struct site *s, const struct member *g, const size_t *runs,
                     size_t n)
{
	struct bs_buf t = BS_BUF_INIT;
	int rc;

	if (g->kind == G_TAG)
		bs_buf_addf(&t, "Tag %s=%s", g->a, g->b);
	else
		bs_buf_addf(&t, "%s %s",
		            g->kind == G_MACHINE ? "Machine" : "Tool",
		            g->kind == G_MACHINE ? machine_name(g->a) : g->a);
	page_head(s->d, 1, bs_buf_str(&t), kind_word[g->kind]);
	bs_buf_reset(&t);
	span_text(s, runs, n, &t);
	lede(s->d, bs_buf_str(&t));
	trend(s, bs_tdict_add(s->d, "LIST"), runs, n);
	runs_table(s, runs, n, n, "Runs", "../", NULL);
	bs_buf_reset(&s->text);
	group_path(&s->text, g->kind, g->a, g->b);
	rc = emit(s, bs_buf_str(&s->text));
	bs_buf_release(&t);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The "more" column of an index row: the distinct tools of a machine,
 * machines of a tag value, versions of a tool. */
static void more_text(const struct site *s, enum gkind kind, const size_t *runs,
                      size_t n, struct bs_buf *b)
{
	const char **v = xcalloc(n ? n : 1, sizeof(*v));
	size_t i, k = 0, shown = 0;

	for (i = 0; i < n; i++) {
		const struct srun *r = &s->runs[runs[i]];

		v[i] = kind == G_MACHINE ? r->tool
		       : kind == G_TAG   ? machine_name(r->machine)
		                         : r->version;
	}
	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(v[i], v[i - 1]) == 0)
			continue;
		k++;
		if (shown < MORE_MAX)
			bs_buf_addf(b, "%s%s", shown++ ? ", " : "", v[i]);
	}
	if (k > shown)
		bs_buf_addf(b, " and %zu more", k - shown);
	free(v);
}

static void index_entry(struct site *s, struct bs_tdict *block,
                        const struct member *g, const size_t *runs, size_t n)
{
	struct bs_tdict *e = bs_tdict_add(block, "ENTRY");
	char date[48];
	int64_t newest = BS_NONE;
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t t = s->runs[runs[i]].measured_at;

		if (t != BS_NONE && (newest == BS_NONE || t > newest))
			newest = t;
	}
	bs_tdict_set(e, "NAME",
	             g->kind == G_TAG       ? g->b
	             : g->kind == G_MACHINE ? machine_name(g->a)
	                                    : g->a);
	set_group_href(s, e, "HREF", "", g->kind, g->a, g->b);
	bs_tdict_set_i64(e, "NRUNS", (int64_t)n);
	/* The overview: the day, not the minute. */
	bs_tdict_setf(e, "NEWEST", "%.10s",
	              date_text(newest, date, sizeof(date)));
	bs_buf_reset(&s->text);
	more_text(s, g->kind, runs, n, &s->text);
	bs_tdict_set(e, "MORE", bs_buf_str(&s->text));
}

/* A section of the index: machines, tags or tools. */
static struct bs_tdict *index_group(struct bs_tdict *d, const char *id,
                                    const char *name)
{
	struct bs_tdict *g = bs_tdict_add(d, "GROUPS");

	bs_tdict_set(g, "ID", id);
	bs_tdict_set(g, "NAME", name);
	return g;
}

static struct bs_tdict *index_block(struct bs_tdict *g, enum gkind kind,
                                    const char *name)
{
	static const char *const col[] = {"Machine", "Value", "Tool"};
	static const char *const more[] = {"Tools", "Machines", "Versions"};
	struct bs_tdict *b = bs_tdict_add(g, "BLOCK");

	bs_tdict_set(b, "COL", col[kind]);
	bs_tdict_set(b, "MORE", more[kind]);
	if (name)
		bs_tdict_set(bs_tdict_add(b, "BLOCK_NAME"), "NAME", name);
	return b;
}

/* Every list page, and the index's entries for them in sections (the
 * members sorted by cmp_member). */
static int lists(struct site *s, struct bs_tdict *sections[3])
{
	size_t *runs = xcalloc(s->nruns ? s->nruns : 1, sizeof(*runs));
	struct bs_tdict *block = NULL;
	const char *key = NULL;
	size_t i = 0, j, n;
	int rc = 0, prev_kind = -1;

	while (i < s->nmem && rc == 0) {
		const struct member *g = &s->mem[i];

		for (j = i, n = 0; j < s->nmem && same_group(g, &s->mem[j]);
		     j++)
			runs[n++] = s->mem[j].run;
		if ((int)g->kind != prev_kind ||
		    (g->kind == G_TAG && strcmp(key, g->a) != 0)) {
			block = index_block(sections[g->kind], g->kind,
			                    g->kind == G_TAG ? g->a : NULL);
			key = g->a;
			prev_kind = (int)g->kind;
		}
		index_entry(s, block, g, runs, n);
		/* A list page is a dictionary of its own: the index's is
		 * being filled. */
		{
			struct bs_tdict *keep = s->d;
			struct bs_tdict *page = NULL;

			rc = bs_tdict_new(&page, s->err);
			if (rc == 0) {
				s->d = page;
				rc = list_page(s, g, runs, n);
				s->d = keep;
				bs_tdict_free(page);
			}
		}
		i = j;
	}
	free(runs);
	return rc;
}

static int cmp_id_desc(const void *pa, const void *pb)
{
	const struct srun *a = sort_site->runs + *(const size_t *)pa;
	const struct srun *b = sort_site->runs + *(const size_t *)pb;

	return (a->id < b->id) - (a->id > b->id);
}

static int index_page(struct site *s, const struct bs_site_opts *o)
{
	struct bs_tdict *d = s->d, *idx, *sec[3], *c;
	struct bs_buf t = BS_BUF_INIT;
	size_t *runs = xcalloc(s->nruns ? s->nruns : 1, sizeof(*runs));
	size_t i, nmachines = 0;
	int rc;

	page_head(d, 0, "Benchmark archive", NULL);
	sort_site = s;
	qsort(s->mem, s->nmem, sizeof(*s->mem), cmp_member);
	for (i = 0; i < s->nruns; i++)
		runs[i] = i;
	for (i = 0; i < s->nmem; i++)
		if (s->mem[i].kind == G_MACHINE &&
		    (i == 0 || !same_group(&s->mem[i - 1], &s->mem[i])))
			nmachines++;
	bs_buf_addf(&t, "%zu machine%s, ", nmachines,
	            nmachines == 1 ? "" : "s");
	span_text(s, runs, s->nruns, &t);
	lede(d, bs_buf_str(&t));
	idx = bs_tdict_add(d, "INDEX");
	if (o && o->ncompares) {
		c = bs_tdict_add(idx, "COMPARES");
		for (i = 0; i < o->ncompares; i++) {
			struct bs_tdict *x = bs_tdict_add(c, "COMPARE");

			bs_tdict_set(x, "NAME", o->compares[i]);
			bs_tdict_setf(x, "HREF", "compare/%s.html",
			              o->compares[i]);
		}
	}
	sec[G_MACHINE] = index_group(idx, "machines", "Machines");
	sec[G_TAG] = index_group(idx, "tags", "Tags");
	sec[G_TOOL] = index_group(idx, "tools", "Tools");
	rc = lists(s, sec);
	if (rc == 0) {
		int any_tag = 0;

		for (i = 0; i < s->nmem; i++)
			any_tag |= s->mem[i].kind == G_TAG;
		if (!any_tag)
			bs_tdict_set(bs_tdict_add(sec[G_TAG], "EMPTY"),
			             "EMPTY_TEXT",
			             "No run has a tag yet: bstore tag, or "
			             "ingest --tag, adds them.");
		if (s->nruns == 0)
			bs_tdict_set(bs_tdict_add(sec[G_MACHINE], "EMPTY"),
			             "EMPTY_TEXT", "No runs.");
		qsort(runs, s->nruns, sizeof(*runs), cmp_id_desc);
		runs_table(s, runs, s->nruns, NEWEST_RUNS, "Newest runs", "",
		           "Every run is on the page of its machine, its "
		           "tool and each of its tags.");
		rc = emit(s, "index.html");
	}
	free(runs);
	bs_buf_release(&t);
	return rc;
}

int bs_site_build(struct bs_store *st, const struct bs_ids *ids,
                  const struct bs_site_opts *opts, bs_site_put_fn put,
                  void *ctx, struct bs_err *err)
{
	static const char *const names[] = {"site.html"};
	struct site s;
	size_t i;
	int m, rc;

	memset(&s, 0, sizeof(s));
	s.put = put;
	s.ctx = ctx;
	s.err = err;
	for (m = 0; m < BS_M_MAX; m++)
		s.mainidx[m] = -1;
	for (m = 0; m < bs_nmetrics; m++) {
		if (!(bs_metrics[m].flags & BS_MF_MAIN))
			continue;
		if (s.nmain == MAIN_MAX)
			BS_BUG("more main metrics than MAIN_MAX");
		s.mainidx[m] = s.nmain;
		s.main[s.nmain++] = m;
	}
	rc = bs_tmpl_set_load(&s.ts, bs_tmpl_site_html, names, 1, NULL, err);
	if (rc == 0)
		rc = bs_tdict_new(&s.d, err);
	if (rc == 0)
		rc = put(ctx, "site.css", bs_tmpl_site_css[0].text,
		         bs_tmpl_site_css[0].len, err);
	if (rc == 0)
		rc = bs_store_each(st, ids, BS_LOAD_ALL, on_run, &s, err);
	if (rc == 0)
		rc = index_page(&s, opts);
	for (i = 0; i < s.nruns; i++) {
		free(s.runs[i].machine);
		free(s.runs[i].tool);
		free(s.runs[i].version);
	}
	for (i = 0; i < s.nstrs; i++)
		free(s.strs[i]);
	free(s.strs);
	free(s.runs);
	free(s.mem);
	bs_tdict_free(s.d);
	bs_tmpl_set_free(s.ts);
	bs_buf_release(&s.page);
	bs_buf_release(&s.path);
	bs_buf_release(&s.text);
	return rc;
}
