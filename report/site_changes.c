/*
 * report/site_changes.c - the Changes page, its Atom feed
 * (changes.xml) and the index's newest changes.
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
	bs_site_name_tests(s, &t, 1, &name);
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
		bs_site_run_path(&s->path, id, r->sha8);
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
	bs_site_set_group_href(s, x, "MHREF", "", G_MACHINE, it->machine, NULL);
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
void bs_site_latest_changes(struct site *s, struct bs_tdict *idx)
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

int bs_site_changes_page(struct site *s)
{
	const struct bs_changes *ch = s->changes;
	struct bs_tdict *cs;
	struct bs_buf t = BS_BUF_INIT;
	size_t i;

	bs_site_page_head(s->d, 0, "Changes", "changes");
	bs_buf_addf(&t,
		    "%zu change point%s in %lld series of %lld runs with "
		    "a date, newest first; a change below %.3g%% is not "
		    "reported",
		    ch->n, ch->n == 1 ? "" : "s", (long long)ch->series,
		    (long long)(ch->runs - ch->undated), ch->noise_pct);
	if (ch->undated)
		bs_buf_addf(&t, "; %lld runs without a date take no part",
			    (long long)ch->undated);
	bs_buf_adds(&t, ".");
	bs_site_lede(s->d, bs_buf_str(&t));
	cs = bs_tdict_add(s->d, "CHANGES");
	if (ch->n == 0)
		bs_tdict_show(cs, "NO_CHANGES");
	for (i = 0; i < ch->n; i++)
		change_entry(s, bs_tdict_add(cs, "CHANGE_ITEM"), &ch->item[i]);
	bs_buf_release(&t);
	return bs_site_emit(s, "changes.html");
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
int bs_site_changes_feed(struct site *s)
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
		bs_buf_addf(&e,
			    "p = %.2g; what changed at run %lld: ", it->cp.p,
			    (long long)it->run_id);
		bs_changes_why_text(it, &e);
		xml_text(b, bs_buf_str(&e));
		bs_buf_adds(b, "</summary>\n</entry>\n");
	}
	bs_buf_adds(b, "</feed>\n");
	rc = s->put(s->ctx, "changes.xml", bs_buf_str(b), b->len, s->err);
	bs_buf_release(&e);
	return rc;
}
