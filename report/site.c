/*
 * report/site.c - the static site of stored runs (report/site.h): the
 * entry point, which reads the runs once (report/site_read.c) and then
 * writes the lists, the Changes page and the index; the names of the
 * site's files and their paths; what every page has, and the writer
 * (emit, the style sheet).
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
#include "report/site_int.h"
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

const char *const bs_site_dirs[] = {"run",  "machine", "tag",
				    "tool", "compare", "change"};
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
		       span_of(name + n + 1,
			       "abcdefghijklmnopqrstuvwxyz" DIGITS "_") > 0 &&
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
		size_t slug =
			span_of(name, "abcdefghijklmnopqrstuvwxyz" DIGITS "-");

		for (n = 1; n < slug; n++)
			if (name[n] == '-' &&
			    span_of(name + n + 1, HEX8) >= 8 &&
			    page_tail(name + n + 9))
				return 1;
	}
	return 0;
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
void bs_site_group_path(struct bs_buf *b, enum gkind kind, const char *a,
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

void bs_site_run_path(struct bs_buf *b, int64_t id, const char *sha256)
{
	bs_buf_addf(b, "run/%lld-%.8s.html", (long long)id, sha256);
}

/* "2024-01-31 12:00", or "unknown". */
const char *bs_site_date_text(int64_t t, char *out, size_t outsz)
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
void bs_site_set_group_href(struct site *s, struct bs_tdict *d, const char *key,
			    const char *prefix, enum gkind kind, const char *a,
			    const char *b)
{
	bs_buf_reset(&s->path);
	bs_buf_adds(&s->path, prefix);
	bs_site_group_path(&s->path, kind, a, b);
	bs_tdict_set(d, key, bs_buf_str(&s->path));
}

/* ---- pages -------------------------------------------------------------- */

/* What every page has: title, style sheet and home links, the crumb. */
void bs_site_page_head(struct bs_tdict *d, int depth, const char *title,
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
void bs_site_legend(struct bs_tdict *d, int bonnie)
{
	bs_tdict_show(d, "LEGEND");
	/* bonnie++'s 0.5 s rule for +++++ on pages of its runs only. */
	if (bonnie)
		bs_tdict_show(d, "BONNIE_TF");
}

void bs_site_lede(struct bs_tdict *d, const char *text)
{
	bs_tdict_set(bs_tdict_add(d, "LEDE"), "TEXT", text);
}

/* Expands the page in s->d and hands it to put(). */
int bs_site_emit(struct site *s, const char *path)
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
		rc = src->each(src->ctx, 0, bs_site_on_run, &s, err);
	if (rc == 0 && s.changes)
		rc = bs_site_changes_page(&s);
	if (rc == 0 && s.changes)
		rc = bs_site_changes_feed(&s);
	if (rc == 0)
		rc = bs_site_index_page(&s, opts);
	free(s.tests);
	free(s.thash);
	free(s.byid);
	bs_intern_release(&s.pool);
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
