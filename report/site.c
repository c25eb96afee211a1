/*
 * report/site.c - the static site of stored runs (report/site.h): reads
 * the runs once, writing each run's page as it goes and keeping what the
 * lists need of it; then the pages of each machine, tag value and tool,
 * and the index, through templates/site.html.
 */
#include "report/site.h"
#include "core/supply.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bonnie_text.h"
#include "core/identity.h"
#include "core/metric.h"
#include "core/param.h"
#include "core/result.h"
#include "report/changes.h"
#include "report/chart.h"
#include "report/internal.h"
#include "report/tmpl/tmpl.h"
#include "report/trend.h"
#include "util/embed.h"
#include "util/hash.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/timefmt.h"
#include "util/banned.h"

/* Generated from templates/ by report/CMakeLists.txt. */
extern const struct bs_embedded bs_tmpl_site_html[];
extern const struct bs_embedded bs_tmpl_site_css[];

const char *const bs_site_dirs[] = {"run", "machine", "tag", "tool", "compare",
                                    "change"};
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
	if (strcmp(dir, "change") == 0) {
		/* bs_site_change_path: RUN-METRIC.html. */
		n = span_of(name, DIGITS);
		return n > 0 && name[n] == '-' &&
		       span_of(name + n + 1, "abcdefghijklmnopqrstuvwxyz"
		                             DIGITS "_") > 0 &&
		       strcmp(name + n + 1 +
		                  span_of(name + n + 1,
		                          "abcdefghijklmnopqrstuvwxyz" DIGITS
		                          "_"),
		              ".html") == 0;
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
/*
 * A run's tags bound what it adds to the site, whatever it holds: its
 * first PAGED_TAGS tags of at most PAGED_TAG_BYTES (key and value) each
 * have a page of their own and show in its rows of the lists; the run's
 * page lists its first RUN_PAGE_TAGS tags (values cut at PAGED_TAG_BYTES)
 * and counts the rest. docs/report.md says so.
 */
#define PAGED_TAGS 64
#define PAGED_TAG_BYTES 256
#define RUN_PAGE_TAGS 1000
/* Machines in each test's section of the index (its newest runs of the
 * test): the index stays small whatever the number of tests. */
#define TEST_MACHINES 12
/* Tests with a section on the index: those of the most machines. */
#define TEST_SECTIONS 20
/* A list's own page links its first and last pages this many each. */
#define PAGER_ENDS 5
/* A trend chart marks each run with a point up to this many runs. */
#define CHART_POINTS_MAX 300
/* A list page draws this many trend charts at most (a test, metric and
 * machine each: a tool's page of 200 machines would have thousands);
 * the rest are on the machines' own pages. */
#define CHARTS_MAX 48
/* The "more" column of the index names at most this many values. */
#define MORE_MAX 4
/* Room for the catalogue's main metrics (BS_MF_MAIN) and tail latencies
 * drawn over time (BS_MF_TREND: trend charts, no list column), and for
 * those of one family, which is all a run keeps. */
#define MAIN_MAX 24
#define MAIN_FAMILY_MAX 4

/* What the list pages need of one run. */
struct srun {
	int64_t id, measured_at;
	char sha8[9];
	enum bs_family family;
	const char *machine, *tool, *version; /* interned */
	size_t test; /* its test identity: site.tests[test] */
	size_t str0, ntags; /* its tags: site.strs[str0 + 2i], [.. + 1] */
	size_t nunpaged;    /* its other tags (tag_paged()) */
	/* Its family's main results, by site.slot[k] of main metric k. */
	unsigned char status[MAIN_FAMILY_MAX]; /* enum bs_status */
	unsigned char absent[MAIN_FAMILY_MAX]; /* enum bs_absent: its word */
	double val[MAIN_FAMILY_MAX];
};

/* Whether the tag (the run's next, *npaged of its tags paged so far)
 * has a page and a place in the lists; counts it when it has. */
static int tag_paged(const struct bs_tag *t, size_t *npaged)
{
	if (*npaged >= PAGED_TAGS ||
	    strlen(t->key) + strlen(t->value ? t->value : "") >
		    PAGED_TAG_BYTES)
		return 0;
	(*npaged)++;
	return 1;
}

/* Kinds of list page; their order is the index's. */
enum gkind { G_MACHINE, G_TAG, G_TOOL };

/* A run's membership of a list: its machine, one of its tags, its tool. */
struct member {
	enum gkind kind;
	const char *a, *b; /* name; a tag's key and value */
	size_t run;        /* index into site.runs */
};

/* A test identity among the runs (core/identity.h). */
struct stest {
	const char *key; /* interned bs_ident_key */
	struct bs_ident id;
};

struct site {
	struct bs_tmpl_set *ts;
	struct bs_tdict *d;
	/* The words of the page's cells without a number (bit per enum
	 * bs_absent), for its footer: set by runs_table, said by emit. */
	unsigned absent;
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
	struct stest *tests;
	size_t ntests, captests;
	size_t *thash, capth; /* key -> index + 1 in tests (test_of) */
	const struct bs_changes *changes; /* NULL: none */
	size_t *byid; /* run indices by id (run_of) */
};

/* ---- change points ---------------------------------------------------- */

void bs_site_change_path(const struct bs_changes_item *it, struct bs_buf *b)
{
	bs_buf_addf(b, "change/%lld-%s.html", (long long)it->run_id,
	            bs_metrics[it->metric].key);
}

static const struct site *byid_site; /* qsort has no context argument */

static int cmp_byid(const void *pa, const void *pb)
{
	int64_t a = byid_site->runs[*(const size_t *)pa].id;
	int64_t b = byid_site->runs[*(const size_t *)pb].id;

	return (a > b) - (a < b);
}

/* The site's run of id, or NULL. */
static const struct srun *run_of(struct site *s, int64_t id)
{
	size_t lo = 0, hi = s->nruns;

	if (s->byid == NULL) {
		s->byid = xcalloc(s->nruns + 1, sizeof(*s->byid));
		for (lo = 0; lo < s->nruns; lo++)
			s->byid[lo] = lo;
		byid_site = s;
		qsort(s->byid, s->nruns, sizeof(*s->byid), cmp_byid);
		lo = 0;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t x = s->runs[s->byid[mid]].id;

		if (x == id)
			return &s->runs[s->byid[mid]];
		if (x < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

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
static void legend(struct bs_tdict *d, int bonnie)
{
	bs_tdict_show(d, "LEGEND");
	/* bonnie++'s 0.5 s rule for +++++ on pages of its runs only. */
	if (bonnie)
		bs_tdict_show(d, "BONNIE_TF");
}

static void lede(struct bs_tdict *d, const char *text)
{
	bs_tdict_set(bs_tdict_add(d, "LEDE"), "TEXT", text);
}

/* Expands the page in s->d and hands it to put(). */
static int emit(struct site *s, const char *path)
{
	int rc;

	/* The footer says what the words of its runs tables mean. */
	bs_rabsent_legend(s->d, s->absent);
	s->absent = 0;
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
	/* Its results without a number, by the word show prints for them
	 * (bs_absent_word): "Not reported: Latency p99." */
	struct bs_buf none[BS_AB_COUNT];
	char word[64];
	int k;

	memset(none, 0, sizeof(none)); /* BS_BUF_INIT each */
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
			struct bs_buf *b = &none[bs_absent_of(r, m)];

			bs_buf_adds(b, b->len ? ", " : "");
			bs_buf_adds(b, bs_metrics[m].label);
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
			legend(s->d, r->family == BS_FAM_BONNIE);
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
	for (k = 0; k < BS_AB_COUNT; k++) {
		struct bs_tdict *x;

		if (none[k].len) {
			x = bs_tdict_add(s->d, "NOT_MEASURED");
			snprintf(word, sizeof(word), "%s", bs_absent_words[k]);
			word[0] = (char)toupper((unsigned char)word[0]);
			bs_tdict_set(x, "WORD", word);
			bs_tdict_set(x, "NAMES", bs_buf_str(&none[k]));
		}
		bs_buf_release(&none[k]);
	}
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
	{
		size_t npaged = 0;

		for (i = 0; i < r->ntags && i < RUN_PAGE_TAGS; i++) {
			struct bs_tdict *x = bs_tdict_add(d, "TAG");
			const char *v = r->tags[i].value ? r->tags[i].value
							 : "";

			bs_tdict_set(x, "KEY", r->tags[i].key);
			/* bstore's own bookkeeping has no tag page to
			 * link, nor counts among the paged tags. */
			if (bs_tag_bookkeeping(r->tags[i].key) ||
			    !tag_paged(&r->tags[i], &npaged)) {
				bs_buf_reset(&t);
				bs_buf_add(&t, v, strnlen(v, PAGED_TAG_BYTES));
				if (strlen(v) > PAGED_TAG_BYTES)
					bs_buf_adds(&t, "...");
				bs_tdict_set(bs_tdict_add(x, "PLAIN"), "VALUE",
					     bs_buf_str(&t));
				continue;
			}
			x = bs_tdict_add(x, "LINK");
			bs_tdict_set(x, "VALUE", v);
			set_group_href(s, x, "HREF", "../", G_TAG,
				       r->tags[i].key, v);
		}
		if (r->ntags > RUN_PAGE_TAGS)
			bs_tdict_setf(bs_tdict_add(d, "TAGS_MORE"), "TEXT",
				      "and %zu more tags (bstore show %lld "
				      "lists them all)",
				      r->ntags - RUN_PAGE_TAGS,
				      (long long)r->id);
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
		/* As bstore show marks it: not the tool's output. */
		if (bs_supplied(r, k))
			bs_buf_adds(&t, " (supplied)");
		bs_tdict_set(x, "LABEL", bs_param_table[k].label);
		bs_tdict_set(x, "VALUE", bs_buf_str(&t));
	}
	if (href.len)
		bs_tdict_set(bs_tdict_add(d, "UNKNOWN_PARAMS"), "NAMES",
		             bs_buf_str(&href));
	run_results(s, r);
	if (r->nseries && bs_rcurves_run_html(r, d) > 0)
		bs_tdict_show(d, "HAS_CURVES");
	if (r->nseries) {
		bs_rdist_run_html(r, d);
		bs_rdist_run_logs_html(r, d);
	}
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
	return (size_t)bs_hash_fnv64_str(BS_FNV64_BASIS, v);
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

/* The index of r's test in s->tests, added when it is the first: a
 * table of the interned keys' pointers, open addressing, at most half
 * full. */
static size_t test_of(struct site *s, const struct bs_run *r)
{
	struct bs_ident id;
	const char *key;
	size_t i, k, mask;

	bs_ident_of(r, &id);
	bs_buf_reset(&s->text);
	bs_ident_key(&id, &s->text);
	key = intern(s, bs_buf_str(&s->text));
	if (2 * (s->ntests + 1) > s->capth) {
		size_t cap = s->capth ? 2 * s->capth : 256;
		size_t *t = xcalloc(cap, sizeof(*t));

		for (k = 0; k < s->ntests; k++) {
			for (i = str_hash(s->tests[k].key) & (cap - 1); t[i];
			     i = (i + 1) & (cap - 1))
				;
			t[i] = k + 1;
		}
		free(s->thash);
		s->thash = t;
		s->capth = cap;
	}
	mask = s->capth - 1;
	for (i = str_hash(key) & mask; s->thash[i]; i = (i + 1) & mask)
		if (s->tests[s->thash[i] - 1].key == key)
			return s->thash[i] - 1;
	xgrow((void **)&s->tests, &s->captests, s->ntests + 1,
	      sizeof(*s->tests));
	s->tests[s->ntests].key = key;
	s->tests[s->ntests].id = id;
	s->thash[i] = s->ntests + 1;
	return s->ntests++;
}

/* The names of tests t[0..n) (indices into s->tests) among themselves,
 * into names[] (the caller frees each): a page's tests. */
static void name_tests(const struct site *s, const size_t *t, size_t n,
                       char **names)
{
	struct bs_ident *ids = xcalloc(n ? n : 1, sizeof(*ids));
	size_t i;

	for (i = 0; i < n; i++)
		ids[i] = s->tests[t[i]].id;
	bs_ident_names(ids, n, names);
	free(ids);
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
	x->test = test_of(s, r);
	for (k = 0; k < s->nmain; k++) {
		if (bs_metrics[s->main[k]].family != r->family)
			continue;
		x->status[s->slot[k]] =
		    (unsigned char)r->res[s->main[k]].status;
		x->absent[s->slot[k]] =
		    (unsigned char)bs_absent_of(r, s->main[k]);
		x->val[s->slot[k]] = r->res[s->main[k]].value;
	}
	add_member(s, G_MACHINE, x->machine, NULL, s->nruns);
	add_member(s, G_TOOL, x->tool, NULL, s->nruns);
	x->str0 = s->nstrs;
	for (i = 0; i < r->ntags; i++) {
		const char *key;

		/* bstore's own bookkeeping (how a date was read, bstore
		 * zcav's target) is no fact to index runs by: its run's page
		 * shows it, no tag page, list row or index does. */
		if (bs_tag_bookkeeping(r->tags[i].key))
			continue;
		if (!tag_paged(&r->tags[i], &x->ntags)) {
			x->nunpaged++;
			continue;
		}
		key = keep_str(s, r->tags[i].key);
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
		want[k] = (fams >> bs_metrics[s->main[k]].family) & 1 &&
		          (bs_metrics[s->main[k]].flags & BS_MF_MAIN);
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
	for (i = 0; i < n && s->runs[runs[i]].family != BS_FAM_BONNIE; i++)
		;
	legend(dd, i < n);
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
			    bs_tag_bookkeeping(key) ||
			    (own && strcmp(key, own->a) == 0 &&
			     strcmp(val, own->b) == 0))
				continue;
			/* A comma apart: values may hold spaces. */
			x = bs_tdict_add(row, "TAG");
			bs_tdict_setf(x, "TEXT", "%s%s=%s", ntag++ ? ", " : "",
			              key, val);
		}
		if (r->nunpaged)
			bs_tdict_setf(bs_tdict_add(row, "TAG"), "TEXT",
				      "%sand %zu more on its page",
				      ntag ? ", " : "", r->nunpaged);
		for (k = 0; k < s->nmain; k++) {
			int m = s->main[k];

			if (!want[k])
				continue;
			x = bs_tdict_add(row, "CELL");
			if (bs_metrics[m].family != r->family)
				continue;
			/* sysbench seqwr's "read 0.00": absent, not 0. */
			if (!bs_ident_measures(&s->tests[r->test].id, m)) {
				bs_tdict_set(x, "TEXT", "not measured");
				bs_tdict_set(x, "CLASS", "nr");
				bs_tdict_show(x, "CLS");
				continue;
			}
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
				/* The word show prints (bs_absent_word). */
				bs_tdict_set(x, "TEXT",
				             bs_absent_words[r->absent[s->slot[k]]]);
				s->absent |= 1u << r->absent[s->slot[k]];
				bs_tdict_set(x, "CLASS", "nr");
				bs_tdict_show(x, "CLS");
				break;
			}
		}
	}
	return d;
}

/* ---- trend charts ----------------------------------------------------- */

/* The number of run id among the chart's points, or NAN. */
static double point_value(const struct bs_trend_sample *pt, size_t n,
                          int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pt[i].id == id)
			return pt[i].v;
	return NAN;
}

/*
 * The change points of the chart's series (machine, test, catalogue
 * metric m) whose runs before and after are both among its points (a
 * tag's page may chart a part of a series only): each a CP of the chart
 * (bs_changes_mark's names, X, Y and the plot's Y_TOP, Y_BOT) and a
 * CP_TEXT for the text below it.
 */
static void chart_changes(struct site *s, struct bs_tdict *c,
                          const struct bs_spark *sp, int m,
                          const struct bs_trend_sample *pt, size_t n,
                          const char *machine, const char *test)
{
	const struct bs_changes *ch = s->changes;
	size_t i;

	if (ch == NULL)
		return;
	for (i = bs_changes_next(ch, 0, machine, test, m); i < ch->n;
	     i = bs_changes_next(ch, i + 1, machine, test, m)) {
		const struct bs_changes_item *it = &ch->item[i];
		double v = point_value(pt, n, it->run_id);
		struct bs_tdict *x;

		if (isnan(v) || isnan(point_value(pt, n, it->prev_id)))
			continue;
		x = bs_tdict_add(c, "CP");
		bs_changes_mark(it, x);
		bs_tdict_setf(x, "X", "%.1f", bs_spark_x(sp, it->measured_at));
		bs_tdict_setf(x, "Y", "%.1f", bs_spark_y(sp, v));
		bs_tdict_set_i64(x, "Y_TOP", sp->f.top);
		bs_tdict_set_i64(x, "Y_BOT", sp->f.h - sp->f.bottom);
		bs_changes_mark(it, bs_tdict_add(c, "CP_TEXT"));
		bs_tdict_show(c, "HAS_CP");
	}
}

/* A small chart of a main metric's numbers by date (report/chart.h),
 * titled title. */
static void chart(struct site *s, struct bs_tdict *trend, int k,
                  const char *title, struct bs_trend_sample *pt, size_t n,
                  const char *machine, const char *test)
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
	bs_tdict_set(c, "LABEL", title);
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
	chart_changes(s, c, &sp, m, pt, n, machine, test);
}

/* A list's dated runs by test (key order), machine, then date. */
static int cmp_series(const void *pa, const void *pb)
{
	const struct srun *a = sort_site->runs + *(const size_t *)pa;
	const struct srun *b = sort_site->runs + *(const size_t *)pb;
	int c = a->test == b->test ? 0
	                           : strcmp(sort_site->tests[a->test].key,
	                                    sort_site->tests[b->test].key);

	if (c == 0)
		c = strcmp(a->machine, b->machine);
	if (c == 0 && a->measured_at != b->measured_at)
		c = a->measured_at < b->measured_at ? -1 : 1;
	return c ? c : (a->id > b->id) - (a->id < b->id);
}

/* A chart to draw: main metric k of the runs d[first..end). */
struct schart {
	size_t first, end, test; /* test: index into the charted tests */
	int k;
};

/*
 * The trend charts of a list, when its runs were measured on several
 * days: one per test (identity), main metric the test measures and
 * machine that has two numbers or more, titled "sysbench rndrw, 4
 * threads: read", and ", on jump" when the list has several machines.
 * No line joins runs of two tests or two machines. The dated runs are
 * sorted once by test, machine and date, so a page costs n log n.
 */
static void trend(struct site *s, struct bs_tdict *list, const size_t *runs,
                  size_t n)
{
	struct bs_trend_sample *pt = xcalloc(n ? n : 1, sizeof(*pt));
	size_t *d = xcalloc(n ? n : 1, sizeof(*d));
	size_t *tests = xcalloc(n ? n : 1, sizeof(*tests));
	struct schart *ch = NULL;
	size_t nch = 0, capch = 0, nd = 0, nt = 0;
	struct bs_tdict *t = NULL;
	struct bs_buf title = BS_BUF_INIT;
	char **names = NULL;
	const char *machine0 = NULL;
	int64_t day = BS_NONE;
	size_t i, j, e, c, np;
	int k, days = 0, machines = 1;

	for (i = 0; i < n; i++) {
		const struct srun *r = &s->runs[runs[i]];

		if (r->measured_at == BS_NONE)
			continue;
		if (day == BS_NONE || r->measured_at / 86400 != day)
			days += days < 2;
		day = r->measured_at / 86400;
		if (machine0 == NULL)
			machine0 = r->machine;
		machines += machines == 1 && r->machine != machine0;
		d[nd++] = runs[i];
	}
	if (days < 2)
		nd = 0;
	sort_site = s;
	qsort(d, nd, sizeof(*d), cmp_series);
	/* The charts: per test, each main metric, each machine. */
	for (i = 0; i < nd; i = j) {
		const struct stest *x = &s->tests[s->runs[d[i]].test];
		size_t before = nch;

		for (j = i; j < nd && s->runs[d[j]].test == s->runs[d[i]].test;
		     j++)
			;
		for (k = 0; k < s->nmain; k++) {
			if (bs_metrics[s->main[k]].family != x->id.family ||
			    !bs_ident_measures(&x->id, s->main[k]))
				continue;
			for (c = i; c < j; c = e) {
				for (e = c, np = 0;
				     e < j && s->runs[d[e]].machine ==
				                  s->runs[d[c]].machine;
				     e++)
					np += s->runs[d[e]].status[s->slot[k]] ==
					          BS_ST_OK &&
					      !isnan(s->runs[d[e]].val[s->slot[k]]);
				if (np < 2)
					continue;
				xgrow((void **)&ch, &capch, nch + 1,
				      sizeof(*ch));
				ch[nch].first = c;
				ch[nch].end = e;
				ch[nch].test = nt;
				ch[nch++].k = k;
			}
		}
		if (nch > before)
			tests[nt++] = s->runs[d[i]].test;
	}
	names = xcalloc(nt ? nt : 1, sizeof(*names));
	name_tests(s, tests, nt, names);
	for (c = 0; c < nch && c < CHARTS_MAX; c++) {
		int m = s->main[ch[c].k];
		const char *label = bs_metrics[m].label;

		for (i = ch[c].first, np = 0; i < ch[c].end; i++) {
			const struct srun *r = &s->runs[d[i]];

			if (r->status[s->slot[ch[c].k]] != BS_ST_OK ||
			    isnan(r->val[s->slot[ch[c].k]]))
				continue;
			pt[np].t = r->measured_at;
			pt[np].id = r->id;
			pt[np].v = r->val[s->slot[ch[c].k]];
			np++;
		}
		if (t == NULL)
			t = bs_tdict_add(list, "TREND");
		bs_buf_reset(&title);
		bs_buf_addf(&title, "%s: ", names[ch[c].test]);
		/* "Block write" reads "block write" after the test. */
		if (label[0] >= 'A' && label[0] <= 'Z' && label[1] >= 'a' &&
		    label[1] <= 'z')
			bs_buf_addf(&title, "%c%s", label[0] - 'A' + 'a',
			            label + 1);
		else
			bs_buf_adds(&title, label);
		if (machines > 1)
			bs_buf_addf(&title, ", on %s",
			            bs_store_machine_name(
			                s->runs[d[ch[c].first]].machine));
		chart(s, t, ch[c].k, bs_buf_str(&title), pt, np,
		      s->runs[d[ch[c].first]].machine,
		      s->tests[s->runs[d[ch[c].first]].test].key);
	}
	if (nch > CHARTS_MAX)
		bs_tdict_setf(bs_tdict_add(t, "TREND_MORE"), "TEXT",
		              "The first %d of %zu charts; the others are on "
		              "the pages of their machines.",
		              CHARTS_MAX, nch);
	bs_buf_release(&title);
	for (i = 0; i < nt; i++)
		free(names[i]);
	free(names);
	free(ch);
	free(tests);
	free(d);
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
	                "Machines, each by its newest run", "", 0, NULL);
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

/* A machine's newest run of a test: the index's sections. */
struct newest {
	size_t test, run;
};

/* Spans of the index's tests: most machines first, else the first. */
static int cmp_span_first(const void *pa, const void *pb)
{
	const struct vrange *a = pa, *b = pb;

	return (a->first > b->first) - (a->first < b->first);
}

static int cmp_span_size(const void *pa, const void *pb)
{
	const struct vrange *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return cmp_span_first(pa, pb);
}

static int cmp_run_newer(const void *pa, const void *pb)
{
	return newer(&sort_site->runs[*(const size_t *)pa],
	             &sort_site->runs[*(const size_t *)pb]);
}

static int cmp_newest(const void *pa, const void *pb)
{
	const struct newest *a = pa, *b = pb;
	int c = strcmp(sort_site->tests[a->test].key,
	               sort_site->tests[b->test].key);

	if (c == 0)
		c = strcmp(sort_site->runs[a->run].machine,
		           sort_site->runs[b->run].machine);
	return c;
}

/*
 * The index's lead: a section per test (identity, in key order: the
 * tool families together), "Latest results: sysbench rndrw, 1 thread",
 * with each machine's newest run of that test (TEST_MACHINES machines at
 * most, the newest runs first). s->mem is sorted: each machine's runs newest first.
 */
static void test_sections(struct site *s)
{
	struct newest *nw = xcalloc(s->nruns ? s->nruns : 1, sizeof(*nw));
	size_t *runs = xcalloc(s->nruns ? s->nruns : 1, sizeof(*runs));
	unsigned char *seen = xcalloc(s->ntests ? s->ntests : 1, 1);
	struct vrange *sec = xcalloc(s->nruns ? s->nruns : 1, sizeof(*sec));
	struct bs_buf t = BS_BUF_INIT;
	size_t i, j, n = 0, k, nsec, q, nshown;
	size_t shown[TEST_SECTIONS];
	char *names[TEST_SECTIONS];
	struct bs_tdict *rt = NULL;

	for (i = 0; i < s->nmem && s->mem[i].kind == G_MACHINE; i = j) {
		memset(seen, 0, s->ntests);
		for (j = i; j < s->nmem && same_group(&s->mem[i], &s->mem[j]);
		     j++) {
			size_t r = s->mem[j].run;

			if (seen[s->runs[r].test])
				continue;
			seen[s->runs[r].test] = 1;
			nw[n].test = s->runs[r].test;
			nw[n++].run = r;
		}
	}
	sort_site = s;
	qsort(nw, n, sizeof(*nw), cmp_newest);
	/* Each test's span of nw; the TEST_SECTIONS of most machines keep
	 * their sections (ties: key order), shown in key order. */
	for (i = 0, nsec = 0; i < n; i = j, nsec++) {
		for (j = i; j < n && nw[j].test == nw[i].test; j++)
			;
		sec[nsec].first = i;
		sec[nsec].n = j - i;
	}
	if (nsec > TEST_SECTIONS) {
		qsort(sec, nsec, sizeof(*sec), cmp_span_size);
		qsort(sec, TEST_SECTIONS, sizeof(*sec), cmp_span_first);
	}
	nshown = nsec < TEST_SECTIONS ? nsec : TEST_SECTIONS;
	for (q = 0; q < nshown; q++)
		shown[q] = nw[sec[q].first].test;
	name_tests(s, shown, nshown, names);
	for (q = 0; q < nshown; q++) {

		i = sec[q].first;
		j = i + sec[q].n;
		for (k = 0; k < j - i; k++)
			runs[k] = nw[i + k].run;
		/* The machines whose runs of the test are newest. */
		qsort(runs, k, sizeof(*runs), cmp_run_newer);
		if (k > TEST_MACHINES)
			k = TEST_MACHINES;
		bs_buf_reset(&t);
		bs_buf_addf(&t, "Latest results: %s", names[q]);
		rt = runs_table(s, s->d, runs, k, bs_buf_str(&t), "", 0, NULL);
		if (j - i > k) {
			bs_buf_reset(&t);
			bs_buf_addf(&t, "The %zu machines with the newest runs "
			                "of %zu; the others are under Machines.",
			            k, j - i);
			bs_tdict_set(bs_tdict_add(rt, "RUNS_MORE"),
			             "RUNS_MORE_TEXT", bs_buf_str(&t));
		}
	}
	if (nsec > TEST_SECTIONS) {
		bs_buf_reset(&t);
		bs_buf_addf(&t, "%zu more tests are on the pages of their tools "
		                "and machines.", nsec - TEST_SECTIONS);
		bs_tdict_set(bs_tdict_add(rt, "RUNS_MORE"), "RUNS_MORE_TEXT",
		             bs_buf_str(&t));
	}
	for (q = 0; q < nshown; q++)
		free(names[q]);
	bs_buf_release(&t);
	free(sec);
	free(seen);
	free(runs);
	free(nw);
}

/* ---- the Changes page and feed ---------------------------------------- */

/* The index lists this many of the newest changes. */
#define INDEX_CHANGES 8

/* The name of test identity key among the site's tests ("sysbench
 * rndrw"), appended to b. */
static void test_name(const struct site *s, const char *key, struct bs_buf *b)
{
	size_t t;
	char *name = NULL;

	for (t = 0; t < s->ntests && strcmp(s->tests[t].key, key) != 0; t++)
		;
	if (t == s->ntests) {
		bs_buf_adds(b, key);
		return;
	}
	name_tests(s, &t, 1, &name);
	bs_buf_adds(b, name);
	free(name);
}

/* Sets key to the page of run id from the root, "" when the site has
 * no such run. */
static void set_run_href(struct site *s, struct bs_tdict *d, const char *key,
                         int64_t id)
{
	const struct srun *r = run_of(s, id);

	bs_buf_reset(&s->path);
	if (r)
		run_path(&s->path, id, r->sha8);
	bs_tdict_set(d, key, bs_buf_str(&s->path));
}

/*
 * A change on the Changes page and the index (links from the root):
 * bs_changes_mark's names, MACHINE, MHREF, TEST, METRIC, BEFORE, AFTER
 * (medians with the unit), N_BEFORE, N_AFTER, RATIO, P, PREV_HREF,
 * RUN_HREF, CMP_HREF (its comparison) and CMD (the same as a command).
 */
static void change_entry(struct site *s, struct bs_tdict *x,
                         const struct bs_changes_item *it)
{
	struct bs_buf b = BS_BUF_INIT;
	char v[64];
	int m = it->metric, k;

	bs_changes_mark(it, x);
	bs_tdict_set(x, "MACHINE", bs_store_machine_name(it->machine));
	set_group_href(s, x, "MHREF", "", G_MACHINE, it->machine, NULL);
	test_name(s, it->identity, &b);
	bs_tdict_set(x, "TEST", bs_buf_str(&b));
	bs_tdict_set(x, "METRIC", bs_metrics[m].label);
	bs_tdict_setf(x, "BEFORE", "%s %s",
	              bs_metric_fmt(v, sizeof(v), m, it->cp.before,
	                            BS_SHOW_GROUP),
	              bs_metric_unit(m, 0));
	bs_tdict_setf(x, "AFTER", "%s %s",
	              bs_metric_fmt(v, sizeof(v), m, it->cp.after,
	                            BS_SHOW_GROUP),
	              bs_metric_unit(m, 0));
	bs_tdict_set_i64(x, "N_BEFORE", (int64_t)it->cp.n_before);
	bs_tdict_set_i64(x, "N_AFTER", (int64_t)it->cp.n_after);
	bs_tdict_setf(x, "RATIO", "%.3g", it->cp.ratio);
	bs_tdict_setf(x, "P", "%.2g", it->cp.p);
	set_run_href(s, x, "PREV_HREF", it->prev_id);
	set_run_href(s, x, "RUN_HREF", it->run_id);
	bs_buf_reset(&s->path);
	bs_site_change_path(it, &s->path);
	bs_tdict_set(x, "CMP_HREF", bs_buf_str(&s->path));
	bs_buf_reset(&b);
	bs_buf_adds(&b, "bstore report");
	for (k = 0; k < 2; k++) {
		bs_buf_adds(&b, " '");
		bs_changes_level_selector(it, k, &b);
		bs_buf_adds(&b, "'");
	}
	bs_tdict_set(x, "CMD", bs_buf_str(&b));
	bs_buf_release(&b);
}

/* The index's first section: the newest changes, linking the page. */
static void latest_changes(struct site *s, struct bs_tdict *idx)
{
	const struct bs_changes *ch = s->changes;
	struct bs_tdict *lc;
	size_t i;

	if (ch == NULL)
		return;
	/* The index leads with the changes; without any, it says so
	 * after its runs. */
	if (ch->n == 0) {
		bs_tdict_show(idx, "NO_CHANGES");
		return;
	}
	lc = bs_tdict_add(s->d, "LATEST_CHANGES");
	for (i = 0; i < ch->n && i < INDEX_CHANGES; i++)
		change_entry(s, bs_tdict_add(lc, "CHANGE_ITEM"), &ch->item[i]);
	bs_tdict_setf(lc, "TEXT", "%zu change point%s in all", ch->n,
	              ch->n == 1 ? "" : "s");
}

static int changes_page(struct site *s)
{
	const struct bs_changes *ch = s->changes;
	struct bs_tdict *cs;
	struct bs_buf t = BS_BUF_INIT;
	size_t i;

	page_head(s->d, 0, "Changes", "changes");
	bs_buf_addf(&t, "%zu change point%s in %lld series of %lld runs with "
	                "a date, newest first; a change below %.3g%% is not "
	                "reported",
	            ch->n, ch->n == 1 ? "" : "s", (long long)ch->series,
	            (long long)(ch->runs - ch->undated), ch->noise_pct);
	if (ch->undated)
		bs_buf_addf(&t, "; %lld runs without a date take no part",
		            (long long)ch->undated);
	bs_buf_adds(&t, ".");
	lede(s->d, bs_buf_str(&t));
	cs = bs_tdict_add(s->d, "CHANGES");
	if (ch->n == 0)
		bs_tdict_show(cs, "NO_CHANGES");
	for (i = 0; i < ch->n; i++)
		change_entry(s, bs_tdict_add(cs, "CHANGE_ITEM"), &ch->item[i]);
	bs_buf_release(&t);
	return emit(s, "changes.html");
}

/* Text for XML: the five characters escaped, control characters left
 * out (XML 1.0 allows none but tab and newlines). */
static void xml_text(struct bs_buf *b, const char *v)
{
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;

		if (c == '<')
			bs_buf_adds(b, "&lt;");
		else if (c == '>')
			bs_buf_adds(b, "&gt;");
		else if (c == '&')
			bs_buf_adds(b, "&amp;");
		else if (c == '"')
			bs_buf_adds(b, "&quot;");
		else if (c == '\'')
			bs_buf_adds(b, "&apos;");
		else if (c >= 0x20 || c == '\t' || c == '\n')
			bs_buf_addc(b, (char)c);
	}
}

/* changes.xml: an Atom 1.0 feed (RFC 4287) of the changes, newest first.
 * Its dates are the changes' own (the newest's for the feed), so the
 * same runs give the same bytes; ids are URNs of the change's series,
 * metric and first run. */
static int changes_feed(struct site *s)
{
	const struct bs_changes *ch = s->changes;
	struct bs_buf *b = &s->page, e = BS_BUF_INIT;
	char d[48], hex[BS_SHA256_HEX];
	size_t i;
	int rc;

	bs_buf_reset(b);
	bs_buf_adds(b, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
	               "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
	               "<title>Benchmark archive: changes</title>\n"
	               "<subtitle>Where a series of runs shifted, and what "
	               "changed there (bstore changes)</subtitle>\n"
	               "<id>urn:bstore:changes</id>\n");
	bs_time_iso(d, sizeof(d), ch->n ? ch->item[0].measured_at : 0);
	bs_buf_addf(b, "<updated>%s</updated>\n", d);
	bs_buf_adds(b, "<link rel=\"self\" href=\"changes.xml\"/>\n"
	               "<link rel=\"alternate\" type=\"text/html\" "
	               "href=\"changes.html\"/>\n"
	               "<author><name>bstore</name></author>\n"
	               "<generator>bstore</generator>\n");
	for (i = 0; i < ch->n; i++) {
		const struct bs_changes_item *it = &ch->item[i];

		bs_buf_reset(&e);
		bs_buf_addf(&e, "%s\x1f%s\x1f%s\x1f%lld", it->machine,
		            it->identity, bs_metrics[it->metric].key,
		            (long long)it->run_id);
		bs_sha256_hex(bs_buf_str(&e), e.len, hex);
		bs_time_iso(d, sizeof(d), it->measured_at);
		bs_buf_addf(b, "<entry>\n<id>urn:bstore:change:%.32s</id>\n",
		            hex);
		bs_buf_reset(&e);
		bs_buf_addf(&e, "%s, ", bs_store_machine_name(it->machine));
		test_name(s, it->identity, &e);
		bs_buf_adds(&e, ": ");
		bs_changes_headline(it, &e);
		bs_buf_adds(b, "<title>");
		xml_text(b, bs_buf_str(&e));
		bs_buf_addf(b, "</title>\n<updated>%s</updated>\n", d);
		bs_buf_reset(&e);
		bs_site_change_path(it, &e);
		bs_buf_adds(b, "<link href=\"");
		xml_text(b, bs_buf_str(&e));
		bs_buf_adds(b, "\"/>\n<summary>");
		bs_buf_reset(&e);
		bs_buf_addf(&e, "p = %.2g; what changed at run %lld: ",
		            it->cp.p, (long long)it->run_id);
		bs_changes_why_text(it, &e);
		xml_text(b, bs_buf_str(&e));
		bs_buf_adds(b, "</summary>\n</entry>\n");
	}
	bs_buf_adds(b, "</feed>\n");
	rc = s->put(s->ctx, "changes.xml", bs_buf_str(b), b->len, s->err);
	bs_buf_release(&e);
	return rc;
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
		latest_changes(s, idx);
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
			test_sections(s);
		if (s->nruns)
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
	s.changes = opts ? opts->changes : NULL;
	s.err = err;
	for (m = 0; m < BS_M_MAX; m++)
		s.mainidx[m] = -1;
	for (m = 0; m < bs_nmetrics; m++) {
		if (!(bs_metrics[m].flags & (BS_MF_MAIN | BS_MF_TREND)))
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
	if (rc == 0 && s.changes)
		rc = changes_page(&s);
	if (rc == 0 && s.changes)
		rc = changes_feed(&s);
	if (rc == 0)
		rc = index_page(&s, opts);
	free(s.tests);
	free(s.thash);
	free(s.byid);
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
