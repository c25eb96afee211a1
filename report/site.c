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
#include "report/chart.h"
#include "report/internal.h"
#include "report/tmpl/tmpl.h"
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
			if (name[n] == '-' &&
			    span_of(name + n + 1, HEX8) >= 8 &&
			    page_tail(name + n + 9))
				return 1;
	}
	return 0;
}

/* The index lists this many of the newest runs. */
#define NEWEST_RUNS 25
/* Rows of a page of a list (runs of a machine, tag value or tool; values
 * of a tag key): with the run pages' 4 KB or less a row, no page of the
 * site passes 1 MiB whatever the archive's size. */
#define PAGE_ROWS 500
/* Machines on the index (and on each of its later pages), tag keys and
 * tools on the index, values of a tag key named there. */
#define INDEX_ROWS 100
#define KEY_VALUES 12
/* A list's own page links its first and last pages this many each. */
#define PAGER_ENDS 5
/* A trend chart marks each run with a point up to this many runs. */
#define CHART_POINTS_MAX 300
/* The "more" column of the index names at most this many values. */
#define MORE_MAX 4
/* Room for the catalogue's main metrics (BS_MF_MAIN), and for those of
 * one family, which is all a run keeps. */
#define MAIN_MAX 16
#define MAIN_FAMILY_MAX 4

/* What the list pages need of one run. */
struct srun {
	int64_t id, measured_at;
	char sha8[9];
	enum bs_family family;
	const char *machine, *tool, *version; /* interned */
	size_t str0, ntags; /* its tags: site.strs[str0 + 2i], [.. + 1] */
	/* Its family's main results, by site.slot[k] of main metric k. */
	unsigned char status[MAIN_FAMILY_MAX]; /* enum bs_status */
	double val[MAIN_FAMILY_MAX];
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
	const char **strs; /* tag keys and values of each run, interned */
	size_t nstrs, capstrs;
	char **itab; /* every string kept, once (intern()) */
	size_t nint, capint;
	int main[MAIN_MAX]; /* catalogue rows of the main metrics */
	int slot[MAIN_MAX]; /* of main[k] among its family's main metrics */
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
	if (kind == G_TAG && bv) {
		/* A key never holds '=': key=value names one tag value, key
		 * alone (bv NULL) the page of the key's values. */
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

/* The footer's words on units and on "too fast" and "not run": on every
 * list page; on a run's page when a result of it is one of those. */
static void legend(struct bs_tdict *d)
{
	bs_tdict_show(d, "LEGEND");
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

/* Counts the lines only. */
static void no_line(const char *line, size_t len, void *ctx)
{
	(void)line;
	(void)len;
	(void)ctx;
}

/* One line the tool printed in units of its own, a TOOL_LINE row. */
static void tool_line(const char *line, size_t len, void *ctx)
{
	bs_tdict_setn(bs_tdict_add(ctx, "TOOL_LINE"), "TEXT", line, len);
}

static void run_results(struct site *s, const struct bs_run *r)
{
	char num[64];
	int m, first, end, cpu = 0, lat = 0;
	const char *units = bs_run_tool_units(r);
	struct bs_buf none = BS_BUF_INIT;

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
		struct bs_tdict *x;

		/* A series-only metric (fio's histograms and logs) is no
		 * result: its series has a section of its own. */
		if (bs_metrics[m].flags & BS_MF_NOVALUE)
			continue;
		/* What the run did not measure (fio's trim of a read-write
		 * job, bonnie++'s per-char tests under -f) is named in one
		 * line under the table, as unrecorded parameters are. */
		if (v->status == BS_ST_NOT_RUN) {
			bs_buf_adds(&none, none.len ? ", " : "");
			bs_buf_adds(&none, bs_metrics[m].label);
			continue;
		}
		x = bs_tdict_add(s->d, "RESULT");
		bs_tdict_set(x, "LABEL", bs_metrics[m].label);
		bs_tdict_set(x, "KEY", bs_metrics[m].key);
		bs_tdict_set(x, "UNIT", bs_metric_unit(m, 0));
		switch (v->status) {
		case BS_ST_OK:
			bs_tdict_set(
			    x, "VALUE",
			    bs_metric_fmt(num, sizeof(num), m, v->value, BS_SHOW_GROUP));
			break;
		case BS_ST_TOO_FAST:
			legend(s->d);
			bs_tdict_set(x, "VALUE", "too fast");
			bs_tdict_set(x, "CLASS", "tf");
			bs_tdict_show(x, "CLS");
			break;
		case BS_ST_NOT_RUN:
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
	if (none.len)
		bs_tdict_set(bs_tdict_add(s->d, "NOT_MEASURED"), "NAMES",
			     bs_buf_str(&none));
	bs_buf_release(&none);
	/* Beside the stored values, the tool's own words for them (dd's
	 * MB/s), as bstore show prints them. */
	if (units && bs_run_tool_lines(r, no_line, NULL) > 0) {
		struct bs_tdict *t = bs_tdict_add(s->d, "TOOL_LINES");

		bs_tdict_set(t, "TOOL", r->tool);
		bs_tdict_set(t, "UNITS", units);
		bs_run_tool_lines(r, tool_line, t);
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
	            bs_store_machine_name(r->machine));
	page_head(d, 1, bs_buf_str(&t), "run");
	bs_buf_reset(&t);
	bs_buf_addf(&t, "%s %s, measured %s", r->tool,
	            r->tool_version ? r->tool_version : "?",
	            date_text(r->measured_at, date, sizeof(date)));
	lede(d, bs_buf_str(&t));
	bs_tdict_show(d, "RUN");

	/* The id is in the title; the family follows from the tool. */
	bs_buf_adds(&href, "../");
	group_path(&href, G_MACHINE, r->machine ? r->machine : "", NULL);
	field(d, "machine", bs_store_machine_name(r->machine), bs_buf_str(&href));
	bs_buf_reset(&href);
	bs_buf_adds(&href, "../");
	group_path(&href, G_TOOL, r->tool, NULL);
	bs_buf_reset(&t);
	bs_buf_addf(&t, "%s %s", r->tool,
	            r->tool_version ? r->tool_version : "(version unknown)");
	field(d, "tool", bs_buf_str(&t), bs_buf_str(&href));
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
	/* The parameters the run records, then in one line those it does
	 * not (a row each would double their bytes). */
	bs_buf_reset(&href);
	for (k = 0; k < bs_nparams; k++) {
		struct bs_tdict *x;

		if (bs_param_table[k].family != r->family)
			continue;
		if (!bs_param_known(&r->params, k)) {
			bs_buf_addf(&href, "%s%s", href.len ? ", " : "",
			            bs_param_table[k].label);
			continue;
		}
		x = bs_tdict_add(d, "PARAM");
		bs_buf_reset(&t);
		bs_param_describe(&r->params, k, &t);
		bs_tdict_set(x, "LABEL", bs_param_table[k].label);
		bs_tdict_set(x, "VALUE", bs_buf_str(&t));
	}
	if (href.len)
		bs_tdict_set(bs_tdict_add(d, "UNKNOWN_PARAMS"), "NAMES",
		             bs_buf_str(&href));
	run_results(s, r);
	if (r->nseries && bs_rcurves_run_html(r, d) > 0)
		bs_tdict_show(d, "HAS_CURVES");
	if (r->nseries)
		bs_rdist_run_html(r, d);
	/* No second copy of the results in bonnie++'s layout (bstore show
	 * prints it): a run's page stays near 3 KB, so that the site grows
	 * by 4 KB a run or less with the rows of its lists. */
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

static size_t str_hash(const char *v)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */

	for (; *v; v++)
		h = (h ^ (unsigned char)*v) * 1099511628211u;
	return (size_t)h;
}

/*
 * The one copy of v the site keeps: the runs share their machines, tools,
 * versions, tag keys and values, so that a million runs of 200 machines
 * hold 200 names, not a million (open addressing, a power-of-two table
 * at most half full).
 */
static const char *intern(struct site *s, const char *v)
{
	size_t i, mask;

	if (v == NULL)
		v = "";
	if (2 * (s->nint + 1) > s->capint) {
		size_t cap = s->capint ? 2 * s->capint : 1024, k;
		char **t = xcalloc(cap, sizeof(*t));

		for (k = 0; k < s->capint; k++) {
			if (s->itab[k] == NULL)
				continue;
			for (i = str_hash(s->itab[k]) & (cap - 1); t[i];
			     i = (i + 1) & (cap - 1))
				;
			t[i] = s->itab[k];
		}
		free(s->itab);
		s->itab = t;
		s->capint = cap;
	}
	mask = s->capint - 1;
	for (i = str_hash(v) & mask; s->itab[i]; i = (i + 1) & mask)
		if (strcmp(s->itab[i], v) == 0)
			return s->itab[i];
	s->itab[i] = xstrdup(v);
	s->nint++;
	return s->itab[i];
}

static const char *keep_str(struct site *s, const char *v)
{
	xgrow((void **)&s->strs, &s->capstrs, s->nstrs + 1, sizeof(*s->strs));
	s->strs[s->nstrs] = intern(s, v);
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
	x->machine = intern(s, r->machine);
	x->tool = intern(s, r->tool);
	x->version = intern(s, r->tool_version ? r->tool_version : "?");
	for (k = 0; k < s->nmain; k++) {
		if (bs_metrics[s->main[k]].family != r->family)
			continue;
		x->status[s->slot[k]] =
		    (unsigned char)r->res[s->main[k]].status;
		x->val[s->slot[k]] = r->res[s->main[k]].value;
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

/* Of one kind, and for tags of one key. */
static int same_kind_key(const struct member *a, const struct member *b)
{
	return a->kind == b->kind && strcmp(a->a, b->a) == 0;
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

/* A RUNS table of runs[0..n-1] (indices into s->runs), in d; returns it
 * for its pager. */
static struct bs_tdict *runs_table(struct site *s, struct bs_tdict *dd,
                                   const size_t *runs, size_t n,
                                   const char *title, const char *prefix,
                                   int fold, const struct member *own)
{
	unsigned char want[MAIN_MAX];
	struct bs_tdict *d = bs_tdict_add(dd, "RUNS"), *row, *x;
	char num[64], date[48];
	size_t i, t, ntag;
	int k, mcol = !fold || n == 0, tcol = mcol;

	bs_tdict_set(d, "RUNS_TITLE", title);
	legend(dd);
	/* With fold, a machine or tool that every row has (a machine's
	 * page, a tool's) is said once above the table, not in each row. */
	for (i = 1; i < n && !(mcol && tcol); i++) {
		const struct srun *a = &s->runs[runs[0]],
		                  *b = &s->runs[runs[i]];

		mcol |= strcmp(a->machine, b->machine) != 0;
		tcol |= strcmp(a->tool, b->tool) != 0 ||
		        strcmp(a->version, b->version) != 0;
	}
	if (mcol)
		bs_tdict_show(d, "MCOL");
	if (tcol)
		bs_tdict_show(d, "TCOL");
	if (!mcol || !tcol) {
		const struct srun *a = &s->runs[runs[0]];

		bs_buf_reset(&s->text);
		if (!mcol)
			bs_buf_addf(&s->text, "machine %s",
			            bs_store_machine_name(a->machine));
		if (!tcol)
			bs_buf_addf(&s->text, "%s%s %s", mcol ? "" : ", ",
			            a->tool, a->version);
		bs_tdict_setf(bs_tdict_add(d, "SAME"), "TEXT",
		              "Every run here: %s.", bs_buf_str(&s->text));
	}
	main_columns(s, runs, n, want);
	for (k = 0; k < s->nmain; k++) {
		if (!want[k])
			continue;
		x = bs_tdict_add(d, "COL");
		bs_tdict_set(x, "LABEL", bs_metrics[s->main[k]].label);
		bs_tdict_set(x, "UNIT", bs_metric_unit(s->main[k], 0));
	}
	for (i = 0; i < n; i++) {
		const struct srun *r = &s->runs[runs[i]];

		row = bs_tdict_add(d, "ROW");
		bs_buf_reset(&s->path);
		bs_buf_adds(&s->path, prefix);
		run_path(&s->path, r->id, r->sha8);
		bs_tdict_set(row, "HREF", bs_buf_str(&s->path));
		bs_tdict_set_i64(row, "ID", r->id);
		/* A list: the day, not the minute (the run's page has it). */
		bs_tdict_setf(row, "DATE", "%.10s",
		              date_text(r->measured_at, date, sizeof(date)));
		if (mcol) {
			bs_tdict_show(row, "MCOL");
			bs_tdict_set(row, "MACHINE", bs_store_machine_name(r->machine));
			set_group_href(s, row, "MHREF", prefix, G_MACHINE,
			               r->machine, NULL);
		}
		if (tcol) {
			bs_tdict_show(row, "TCOL");
			bs_tdict_setf(row, "TOOL", "%s %s", r->tool,
			              r->version);
		}
		/* The run's tags but the host facts of bstore run, which
		 * the machine's page lists, and the page's own tag; as
		 * text, which a page of 500 rows can afford (the run's
		 * page links them). */
		ntag = 0;
		for (t = 0; t < r->ntags; t++) {
			const char *key = s->strs[r->str0 + 2 * t];
			const char *val = s->strs[r->str0 + 2 * t + 1];

			if (strncmp(key, "host.", 5) == 0 ||
			    (own && strcmp(key, own->a) == 0 &&
			     strcmp(val, own->b) == 0))
				continue;
			/* A comma apart: values may hold spaces. */
			x = bs_tdict_add(row, "TAG");
			bs_tdict_setf(x, "TEXT", "%s%s=%s", ntag++ ? ", " : "",
			              key, val);
		}
		for (k = 0; k < s->nmain; k++) {
			int m = s->main[k];

			if (!want[k])
				continue;
			x = bs_tdict_add(row, "CELL");
			if (bs_metrics[m].family != r->family)
				continue;
			switch ((enum bs_status)r->status[s->slot[k]]) {
			case BS_ST_OK:
				bs_tdict_set(x, "TEXT",
				             bs_metric_fmt(num, sizeof(num), m,
				                          r->val[s->slot[k]],
				                          BS_SHOW_GROUP));
				break;
			case BS_ST_TOO_FAST:
				bs_tdict_set(x, "TEXT", "too fast");
				bs_tdict_set(x, "CLASS", "tf");
				bs_tdict_show(x, "CLS");
				break;
			case BS_ST_NOT_RUN:
				bs_tdict_set(x, "TEXT", "not run");
				bs_tdict_set(x, "CLASS", "nr");
				bs_tdict_show(x, "CLS");
				break;
			}
		}
	}
	return d;
}

/* ---- trend charts ----------------------------------------------------- */

/* A small chart of a main metric's numbers by date (report/chart.h). */
static void chart(struct site *s, struct bs_tdict *trend, int k,
                  struct bs_trend_sample *pt, size_t n)
{
	struct bs_spark sp;
	struct bs_tdict *c, *p;
	struct bs_buf pts = BS_BUF_INIT;
	char num[64], date[48];
	double vmax = 0;
	size_t i;
	int m = s->main[k];

	qsort(pt, n, sizeof(*pt), bs_trend_sample_cmp);
	for (i = 0; i < n; i++)
		if (pt[i].v > vmax)
			vmax = pt[i].v;
	bs_spark_init(&sp, pt[0].t, pt[n - 1].t, vmax);
	c = bs_tdict_add(trend, "CHART");
	bs_tdict_set(c, "LABEL", bs_metrics[m].label);
	bs_tdict_set(c, "UNIT", bs_metric_unit(m, 0));
	bs_spark_fill(&sp, c);
	bs_tdict_set(c, "VMAX", bs_metric_fmt(num, sizeof(num), m, vmax, BS_SHOW_GROUP));
	bs_tdict_set(c, "VMIN", "0");
	bs_tdict_setf(c, "DFIRST", "%.10s",
	              date_text(pt[0].t, date, sizeof(date)));
	bs_tdict_setf(c, "DLAST", "%.10s",
	              date_text(pt[n - 1].t, date, sizeof(date)));
	for (i = 0; i < n && n <= CHART_POINTS_MAX; i++) {
		p = bs_tdict_add(c, "PT");
		bs_tdict_setf(p, "X", "%.1f", bs_spark_x(&sp, pt[i].t));
		bs_tdict_setf(p, "Y", "%.1f", bs_spark_y(&sp, pt[i].v));
		bs_tdict_set_i64(p, "ID", pt[i].id);
		bs_tdict_set(p, "DATE", date_text(pt[i].t, date, sizeof(date)));
		bs_tdict_set(p, "VALUE",
		             bs_metric_fmt(num, sizeof(num), m, pt[i].v, BS_SHOW_GROUP));
	}
	bs_spark_line(&sp, pt, n, &pts);
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
			    r->status[s->slot[k]] != BS_ST_OK ||
			    isnan(r->val[s->slot[k]]))
				continue;
			pt[np].t = r->measured_at;
			pt[np].id = r->id;
			pt[np].v = r->val[s->slot[k]];
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

static int cmp_id_asc(const void *pa, const void *pb)
{
	const struct srun *a = sort_site->runs + *(const size_t *)pa;
	const struct srun *b = sort_site->runs + *(const size_t *)pb;

	return (a->id > b->id) - (a->id < b->id);
}

static int cmp_id_desc(const void *pa, const void *pb)
{
	return cmp_id_asc(pb, pa);
}

/* Page k of a list from prefix: the list's own page (k 0), else its k-th
 * page, SLUG-HASH-pK.html; kind G_TAG with bv NULL: a key's values. */
static void list_path(struct bs_buf *b, const char *prefix, enum gkind kind,
                      const char *a, const char *bv, size_t k)
{
	bs_buf_adds(b, prefix);
	group_path(b, kind, a, bv);
	if (k) {
		bs_buf_trim(b, 5); /* ".html" */
		bs_buf_addf(b, "-p%zu.html", k);
	}
}

/*
 * The pager of a list in npages pages, in d: on page k (1-based) its
 * neighbours and the list's own page (up, when named); on the own page
 * (k 0) its first and last pages. Links are from the page itself.
 */
struct pager {
	struct site *s;
	enum gkind kind;
	const char *a, *b;
	int root_index; /* the index's pages: index.html, index-pK.html */
};

static void pager_href(const struct pager *p, struct bs_tdict *d,
                       const char *key, size_t k)
{
	struct bs_buf *b = &p->s->path;

	bs_buf_reset(b);
	if (p->root_index) {
		/* Page 1 of the index is index.html. */
		if (k > 1)
			bs_buf_addf(b, "index-p%zu.html", k);
		else
			bs_buf_adds(b, "index.html");
		bs_tdict_set(d, key, bs_buf_str(b));
		return;
	}
	/* From a page of the same directory: the file's name. */
	list_path(b, "", p->kind, p->a, p->b, k);
	bs_tdict_set(d, key, strchr(bs_buf_str(b), '/') + 1);
}

static void pager(const struct pager *p, struct bs_tdict *d, size_t k,
                  size_t npages, const char *text, const char *up)
{
	struct bs_tdict *g = bs_tdict_add(d, "PAGER"), *x;
	size_t i;

	bs_tdict_set(g, "TEXT", text);
	if (k == 0) {
		for (i = 1; i <= npages; i++) {
			if (i > PAGER_ENDS && i + PAGER_ENDS <= npages)
				continue;
			x = bs_tdict_add(g, "PAGE");
			bs_tdict_set_i64(x, "N", (int64_t)i);
			pager_href(p, x, "HREF", i);
			if (i > 1 && i == npages - PAGER_ENDS + 1 &&
			    npages > 2 * PAGER_ENDS)
				bs_tdict_show(x, "GAP");
		}
		return;
	}
	if (up) {
		x = bs_tdict_add(g, "UP");
		bs_tdict_set(x, "LABEL", up);
		pager_href(p, x, "HREF", 0);
	}
	if (k > 1)
		pager_href(p, bs_tdict_add(g, "PREV"), "HREF", k - 1);
	if (k < npages)
		pager_href(p, bs_tdict_add(g, "NEXT"), "HREF", k + 1);
}

/* The host facts (host.* tags) of the newest of runs that has them: a
 * machine's page shows them once, not in a column of every run. */
static void host_facts(struct site *s, struct bs_tdict *list,
                       const size_t *runs, size_t n)
{
	struct bs_tdict *h = NULL, *x;
	size_t i, t;

	for (i = 0; i < n && h == NULL; i++) {
		const struct srun *r = &s->runs[runs[i]];

		for (t = 0; t < r->ntags; t++) {
			const char *key = s->strs[r->str0 + 2 * t];
			const char *val = s->strs[r->str0 + 2 * t + 1];

			if (strncmp(key, "host.", 5) != 0)
				continue;
			if (h == NULL) {
				h = bs_tdict_add(list, "HOST");
				bs_tdict_set_i64(h, "RID", r->id);
				bs_buf_reset(&s->path);
				run_path(&s->path, r->id, r->sha8);
				bs_tdict_setf(h, "RHREF", "../%s",
				              bs_buf_str(&s->path));
			}
			x = bs_tdict_add(h, "FACT");
			bs_tdict_set(x, "KEY", key + 5);
			bs_tdict_set(x, "VALUE", val);
			set_group_href(s, x, "HREF", "../", G_TAG, key, val);
		}
	}
}

static int list_page(struct site *s, const struct member *g, size_t *runs,
                     size_t n)
{
	struct bs_buf t = BS_BUF_INIT, title = BS_BUF_INIT;
	struct pager pg = {s, g->kind, g->a, g->b, 0};
	size_t npages = n > PAGE_ROWS ? (n + PAGE_ROWS - 1) / PAGE_ROWS : 0;
	struct bs_tdict *list, *rt;
	size_t k;
	int rc;

	if (g->kind == G_TAG)
		bs_buf_addf(&title, "Tag %s=%s", g->a, g->b);
	else
		bs_buf_addf(&title, "%s %s",
		            g->kind == G_MACHINE ? "Machine" : "Tool",
		            g->kind == G_MACHINE ? bs_store_machine_name(g->a) : g->a);
	page_head(s->d, 1, bs_buf_str(&title), kind_word[g->kind]);
	span_text(s, runs, n, &t);
	lede(s->d, bs_buf_str(&t));
	list = bs_tdict_add(s->d, "LIST");
	trend(s, list, runs, n);
	if (g->kind == G_MACHINE)
		host_facts(s, list, runs, n);
	rt = runs_table(s, s->d, runs, npages ? PAGE_ROWS : n,
	                npages ? "Newest runs" : "Runs", "../", 1,
	                g->kind == G_TAG ? g : NULL);
	if (npages) {
		bs_buf_reset(&t);
		bs_buf_addf(
		    &t,
		    "The newest %d of %zu runs. Every run, oldest first, "
		    "%d a page:",
		    PAGE_ROWS, n, PAGE_ROWS);
		pager(&pg, rt, 0, npages, bs_buf_str(&t), NULL);
	}
	bs_buf_reset(&s->text);
	list_path(&s->text, "", g->kind, g->a, g->b, 0);
	rc = emit(s, bs_buf_str(&s->text));
	/* Later pages hold the runs in the order they were stored, so a
	 * new run changes the last page only. */
	if (npages) {
		sort_site = s;
		qsort(runs, n, sizeof(*runs), cmp_id_asc);
	}
	for (k = 1; k <= npages && rc == 0; k++) {
		size_t first = (k - 1) * PAGE_ROWS;
		size_t cnt = n - first < PAGE_ROWS ? n - first : PAGE_ROWS;

		bs_buf_reset(&t);
		bs_buf_addf(&t, "%s, page %zu", bs_buf_str(&title), k);
		page_head(s->d, 1, bs_buf_str(&t), kind_word[g->kind]);
		bs_buf_reset(&t);
		bs_buf_addf(&t,
		            "Runs %zu to %zu, oldest first (%zu on this page).",
		            first + 1, first + cnt, cnt);
		lede(s->d, bs_buf_str(&t));
		rt = runs_table(s, s->d, runs + first, cnt, "Runs", "../", 1,
		                g->kind == G_TAG ? g : NULL);
		pager(&pg, rt, k, npages, bs_buf_str(&t), "newest runs");
		bs_buf_reset(&s->text);
		list_path(&s->text, "", g->kind, g->a, g->b, k);
		rc = emit(s, bs_buf_str(&s->text));
	}
	bs_buf_release(&t);
	bs_buf_release(&title);
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
		       : kind == G_TAG   ? bs_store_machine_name(r->machine)
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

/* A row of a VALUES table (a tool on the index, a value on its key's
 * page): name, link, runs, newest date, "more". */
static void value_entry(struct site *s, struct bs_tdict *block,
                        const struct member *g, const size_t *runs, size_t n,
                        const char *prefix)
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
	bs_tdict_set(e, "NAME", g->kind == G_TAG ? g->b : g->a);
	set_group_href(s, e, "HREF", prefix, g->kind, g->a, g->b);
	bs_tdict_set_i64(e, "NRUNS", (int64_t)n);
	/* The overview: the day, not the minute. */
	bs_tdict_setf(e, "NEWEST", "%.10s",
	              date_text(newest, date, sizeof(date)));
	bs_buf_reset(&s->text);
	more_text(s, g->kind, runs, n, &s->text);
	bs_tdict_set(e, "MORE", bs_buf_str(&s->text));
}

static struct bs_tdict *values_table(struct bs_tdict *d, const char *title,
                                     const char *col, const char *more)
{
	struct bs_tdict *v = bs_tdict_add(d, "VALUES");

	bs_tdict_set(v, "VALUES_TITLE", title);
	bs_tdict_set(v, "COL", col);
	bs_tdict_set(v, "MORE", more);
	return v;
}

/* The members of one tag value: s->mem[first..first + n - 1]. */
struct vrange {
	size_t first, n;
};

static size_t range_runs(const struct site *s, const struct vrange *v,
                         size_t *runs)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		runs[i] = s->mem[v->first + i].run;
	return v->n;
}

/* The pages of a tag key's values (written when the index names only
 * some of them): PAGE_ROWS values a page, in byte order. */
static int key_pages(struct site *s, const char *key, const struct vrange *v,
                     size_t nv, size_t *runs)
{
	struct pager pg = {s, G_TAG, key, NULL, 0};
	size_t npages = (nv + PAGE_ROWS - 1) / PAGE_ROWS, k, i;
	struct bs_tdict *keep = s->d, *page = NULL, *vt;
	struct bs_buf t = BS_BUF_INIT;
	int rc;

	rc = bs_tdict_new(&page, s->err);
	s->d = page;
	for (k = 0; k < npages && rc == 0; k++) {
		size_t first = k * PAGE_ROWS;
		size_t cnt = nv - first < PAGE_ROWS ? nv - first : PAGE_ROWS;

		bs_buf_reset(&t);
		bs_buf_addf(&t, "Tag %s", key);
		if (k)
			bs_buf_addf(&t, ", page %zu", k + 1);
		page_head(s->d, 1, bs_buf_str(&t), "tag");
		bs_buf_reset(&t);
		bs_buf_addf(&t, "Values %zu to %zu of %zu (%zu on this page).",
		            first + 1, first + cnt, nv, cnt);
		lede(s->d, bs_buf_str(&t));
		vt = values_table(s->d, "Values", "Value", "Machines");
		for (i = first; i < first + cnt; i++) {
			size_t n = range_runs(s, &v[i], runs);

			value_entry(s, vt, &s->mem[v[i].first], runs, n, "../");
		}
		if (npages > 1) {
			/* Page k + 1 of the key is list page k of its path. */
			struct bs_tdict *g = bs_tdict_add(vt, "PAGER");

			bs_tdict_set(g, "TEXT", bs_buf_str(&t));
			if (k)
				pager_href(&pg, bs_tdict_add(g, "PREV"), "HREF",
				           k - 1);
			if (k + 1 < npages)
				pager_href(&pg, bs_tdict_add(g, "NEXT"), "HREF",
				           k + 1);
		}
		bs_buf_reset(&s->text);
		list_path(&s->text, "", G_TAG, key, NULL, k);
		rc = emit(s, bs_buf_str(&s->text));
	}
	s->d = keep;
	bs_tdict_free(page);
	bs_buf_release(&t);
	return rc;
}

/* The index's row of a tag key, once its values are known. */
static int key_row(struct site *s, struct bs_tdict *tags, const char *key,
                   const struct vrange *v, size_t nv, size_t *runs)
{
	struct bs_tdict *row = bs_tdict_add(tags, "KEY"), *x;
	size_t i, nruns = 0;

	for (i = 0; i < nv; i++)
		nruns += v[i].n;
	bs_tdict_set_i64(row, "NRUNS", (int64_t)nruns);
	bs_tdict_set_i64(row, "NVALUES", (int64_t)nv);
	bs_tdict_set(row, "NAME", key);
	for (i = 0; i < nv && i < KEY_VALUES; i++) {
		const struct member *g = &s->mem[v[i].first];

		x = bs_tdict_add(row, "VAL");
		bs_tdict_set(x, "NAME", g->b);
		bs_tdict_set_i64(x, "N", (int64_t)v[i].n);
		set_group_href(s, x, "HREF", "", G_TAG, g->a, g->b);
	}
	if (nv <= KEY_VALUES)
		return 0;
	x = bs_tdict_add(row, "VMORE");
	bs_tdict_set_i64(x, "N", (int64_t)(nv - KEY_VALUES));
	bs_buf_reset(&s->path);
	list_path(&s->path, "", G_TAG, key, NULL, 0);
	bs_tdict_set(x, "HREF", bs_buf_str(&s->path));
	return key_pages(s, key, v, nv, runs);
}

/*
 * Every list page, and what the index shows of them (the members sorted
 * by cmp_member): latest[] gets each machine's newest run (in machine
 * order, *nlatest of them), tags a row per tag key but the host facts,
 * tools a row per tool.
 */
static int lists(struct site *s, struct bs_tdict *tags, struct bs_tdict *tools,
                 size_t *latest, size_t *nlatest)
{
	size_t *runs = xcalloc(s->nruns ? s->nruns : 1, sizeof(*runs));
	struct vrange *v = NULL;
	size_t nv = 0, capv = 0, nkeys = 0, ntools = 0, nhost = 0, more = 0;
	size_t i = 0, j, n;
	int rc = 0;

	*nlatest = 0;
	while (i < s->nmem && rc == 0) {
		const struct member *g = &s->mem[i];
		struct bs_tdict *keep = s->d, *page = NULL;

		for (j = i, n = 0; j < s->nmem && same_group(g, &s->mem[j]);
		     j++)
			runs[n++] = s->mem[j].run;
		if (g->kind == G_MACHINE) {
			latest[(*nlatest)++] = runs[0]; /* newest first */
		} else if (g->kind == G_TOOL) {
			if (ntools++ < INDEX_ROWS)
				value_entry(s, tools, g, runs, n, "");
		} else if (strncmp(g->a, "host.", 5) != 0) {
			xgrow((void **)&v, &capv, nv + 1, sizeof(*v));
			v[nv].first = i;
			v[nv].n = n;
			nv++;
		} else if (i == 0 || s->mem[i - 1].kind != G_TAG ||
		           strcmp(s->mem[i - 1].a, g->a) != 0) {
			nhost++;
		}
		/* A list page is a dictionary of its own: the index's is
		 * being filled. */
		rc = bs_tdict_new(&page, s->err);
		if (rc == 0) {
			s->d = page;
			rc = list_page(s, g, runs, n);
			s->d = keep;
			bs_tdict_free(page);
		}
		/* The end of a tag key: its row on the index. */
		if (rc == 0 && nv &&
		    (j == s->nmem || !same_kind_key(g, &s->mem[j]))) {
			if (nkeys++ < INDEX_ROWS)
				rc = key_row(s, tags, s->mem[v[0].first].a, v,
				             nv, runs);
			else
				more++;
			nv = 0;
		}
		i = j;
	}
	if (nkeys == 0 && nhost == 0)
		bs_tdict_set(
		    bs_tdict_add(tags, "TAGS_NOTE"), "TEXT",
		    "No run has a tag yet: bstore tag, or ingest --tag, "
		    "adds them.");
	if (more || nhost) {
		struct bs_buf t = BS_BUF_INIT;

		if (more)
			bs_buf_addf(&t, "%zu more keys are on the pages of "
			                "their runs. ", more);
		if (nhost)
			bs_buf_addf(&t, "The host facts bstore run records "
			                "(%zu host.* keys) are on each "
			                "machine's page.", nhost);
		bs_tdict_set(bs_tdict_add(tags, "TAGS_NOTE"), "TEXT",
		             bs_buf_str(&t));
		bs_buf_release(&t);
	}
	if (ntools > INDEX_ROWS)
		bs_tdict_set(bs_tdict_add(tools, "VALUES_NOTE"), "TEXT",
		             "More tools are on the pages of their runs.");
	free(v);
	free(runs);
	return rc;
}

/* The index's table of each machine's newest run, page k (0: the index
 * itself) of npages, in s->d. */
static void latest_table(struct site *s, const size_t *latest, size_t n,
                         size_t k, size_t npages)
{
	struct pager pg = {s, G_MACHINE, NULL, NULL, 1};
	struct bs_tdict *rt;
	struct bs_buf t = BS_BUF_INIT;
	size_t first = k * INDEX_ROWS;
	size_t cnt = n - first < INDEX_ROWS ? n - first : INDEX_ROWS;

	rt = runs_table(s, s->d, latest + first, cnt,
	                "Latest results by machine", "", 0, NULL);
	bs_tdict_show(rt, "LATEST");
	if (npages > 1) {
		bs_buf_addf(&t, "Machines %zu to %zu of %zu.", first + 1,
		            first + cnt, n);
		if (k == 0) {
			struct bs_tdict *g = bs_tdict_add(rt, "PAGER");

			bs_tdict_set(g, "TEXT", bs_buf_str(&t));
			pager_href(&pg, bs_tdict_add(g, "NEXT"), "HREF", 2);
		} else {
			pager(&pg, rt, k + 1, npages, bs_buf_str(&t), NULL);
		}
	}
	bs_buf_release(&t);
}

static int index_page(struct site *s, const struct bs_site_opts *o)
{
	struct bs_tdict *d = s->d, *idx, *tags, *tools, *c;
	struct bs_buf t = BS_BUF_INIT;
	size_t *runs = xcalloc(s->nruns ? s->nruns : 1, sizeof(*runs));
	size_t *latest = xcalloc(s->nruns ? s->nruns : 1, sizeof(*latest));
	size_t i, nlatest = 0, npages, k;
	int rc;

	sort_site = s;
	if (s->nmem > 0)
		qsort(s->mem, s->nmem, sizeof(*s->mem), cmp_member);
	idx = bs_tdict_add(d, "INDEX");
	tags = bs_tdict_add(idx, "TAGS");
	tools = values_table(d, "Tools", "Tool", "Versions");
	rc = lists(s, tags, tools, latest, &nlatest);
	npages = (nlatest + INDEX_ROWS - 1) / INDEX_ROWS;
	/* The index's later pages: each a dictionary of its own, the
	 * index's being filled. */
	for (k = 1; k < npages && rc == 0; k++) {
		struct bs_tdict *page = NULL;

		rc = bs_tdict_new(&page, s->err);
		if (rc != 0)
			break;
		s->d = page;
		bs_buf_reset(&t);
		bs_buf_addf(&t, "Benchmark archive: machines, page %zu", k + 1);
		page_head(page, 0, bs_buf_str(&t), "machines");
		latest_table(s, latest, nlatest, k, npages);
		bs_buf_reset(&t);
		bs_buf_addf(&t, "index-p%zu.html", k + 1);
		rc = emit(s, bs_buf_str(&t));
		s->d = d;
		bs_tdict_free(page);
	}
	if (rc == 0) {
		page_head(d, 0, "Benchmark archive", NULL);
		for (i = 0; i < s->nruns; i++)
			runs[i] = i;
		bs_buf_addf(&t, "%zu machine%s, ", nlatest,
		            nlatest == 1 ? "" : "s");
		span_text(s, runs, s->nruns, &t);
		lede(d, bs_buf_str(&t));
		if (s->nruns == 0)
			bs_tdict_set(bs_tdict_add(idx, "EMPTY"), "EMPTY_TEXT",
			             "No runs.");
		else
			latest_table(s, latest, nlatest, 0, npages);
		qsort(runs, s->nruns, sizeof(*runs), cmp_id_desc);
		if (s->nruns)
			c = runs_table(s, d, runs,
			               s->nruns < NEWEST_RUNS ? s->nruns
			                                      : NEWEST_RUNS,
			               "Newest runs", "", 0, NULL);
		if (s->nruns > NEWEST_RUNS)
			bs_tdict_set(
			    bs_tdict_add(c, "RUNS_MORE"), "RUNS_MORE_TEXT",
			    "Every run is on the pages of its machine, "
			    "its tool and each of its tags.");
		if (o && o->ncompares) {
			struct bs_tdict *cs = bs_tdict_add(idx, "COMPARES");

			for (i = 0; i < o->ncompares; i++) {
				struct bs_tdict *x =
				    bs_tdict_add(cs, "COMPARE");

				bs_tdict_set(x, "NAME", o->compares[i]);
				bs_tdict_setf(x, "HREF", "compare/%s.html",
				              o->compares[i]);
			}
		}
		rc = emit(s, "index.html");
	}
	free(latest);
	free(runs);
	bs_buf_release(&t);
	return rc;
}

/* site.css: templates/site.css, which includes the pages' palette. */
static int style_sheet(void *ctx, bs_site_put_fn put, struct bs_tdict *d,
                       struct bs_err *err)
{
	struct bs_tmpl_set *ts = NULL;
	struct bs_buf b = BS_BUF_INIT;
	int rc;

	bs_tdict_set(d, "CHART_SVG", "curve"); /* templates/chart_style.html */
	rc = bs_rtemplates_load(&ts, bs_tmpl_site_css, NULL, err);
	if (rc == 0)
		rc = bs_tmpl_expand_buf(ts, "site.css", d, &b, err);
	if (rc == 0)
		rc = put(ctx, "site.css", bs_buf_str(&b), b.len, err);
	bs_buf_release(&b);
	bs_tmpl_set_free(ts);
	return rc;
}

int bs_site_build(const struct bs_report_source *src,
                  const struct bs_site_opts *opts, bs_site_put_fn put,
                  void *ctx, struct bs_err *err)
{
	struct site s;
	size_t i;
	int m, k, rc;

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
		s.slot[s.nmain] = 0;
		for (k = 0; k < s.nmain; k++)
			s.slot[s.nmain] += bs_metrics[s.main[k]].family ==
			                   bs_metrics[m].family;
		if (s.slot[s.nmain] == MAIN_FAMILY_MAX)
			BS_BUG("more main metrics of a family than "
			       "MAIN_FAMILY_MAX");
		s.main[s.nmain++] = m;
	}
	rc = bs_rtemplates_load(&s.ts, bs_tmpl_site_html, NULL, err);
	if (rc == 0)
		rc = bs_tdict_new(&s.d, err);
	if (rc == 0)
		rc = style_sheet(ctx, put, s.d, err);
	if (rc == 0)
		rc = src->each(src->ctx, 0, on_run, &s, err);
	if (rc == 0)
		rc = index_page(&s, opts);
	for (i = 0; i < s.capint; i++)
		free(s.itab[i]);
	free(s.itab);
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
