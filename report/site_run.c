/*
 * report/site_run.c - the page of one run (run/ID-DIGEST.html).
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
			bs_tdict_set(x, "VALUE",
				     bs_metric_fmt(num, sizeof(num), m,
						   v->value, BS_SHOW_GROUP));
			break;
		case BS_ST_TOO_FAST:
			bs_site_legend(s->d, r->family == BS_FAM_BONNIE);
			bs_tdict_set(x, "VALUE", "too fast");
			bs_tdict_set(x, "CLASS", "tf");
			bs_tdict_show(x, "CLS");
			break;
		case BS_ST_NOT_RUN:
			break;
		}
		if (!isnan(v->cpu_pct)) {
			bs_tdict_setf(x, "CPU", "%s%%",
				      bs_bonnie_fmt_cpu(num, sizeof(num),
							v->cpu_pct));
		}
		if (!isnan(v->lat_us))
			bs_tdict_set(x, "LAT",
				     bs_bonnie_fmt_latency(num, sizeof(num),
							   v->lat_us));
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
int bs_site_run_page(struct site *s, const struct bs_run *r)
{
	struct bs_tdict *d = s->d;
	struct bs_buf href = BS_BUF_INIT, t = BS_BUF_INIT;
	char date[48], path[96];
	size_t i;
	int k, rc;

	bs_buf_addf(&t, "Run %lld: %s", (long long)r->id,
		    bs_store_machine_name(r->machine));
	bs_site_page_head(d, 1, bs_buf_str(&t), "run");
	bs_buf_reset(&t);
	bs_buf_addf(&t, "%s %s, measured %s", r->tool,
		    r->tool_version ? r->tool_version : "?",
		    bs_site_date_text(r->measured_at, date, sizeof(date)));
	bs_site_lede(d, bs_buf_str(&t));
	bs_tdict_show(d, "RUN");

	/* The id is in the title; the family follows from the tool. */
	bs_buf_adds(&href, "../");
	bs_site_group_path(&href, G_MACHINE, r->machine ? r->machine : "",
			   NULL);
	field(d, "machine", bs_store_machine_name(r->machine),
	      bs_buf_str(&href));
	bs_buf_reset(&href);
	bs_buf_adds(&href, "../");
	bs_site_group_path(&href, G_TOOL, r->tool, NULL);
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
	field(d, "measured at",
	      bs_site_date_text(r->measured_at, date, sizeof(date)), NULL);
	field(d, "stored at",
	      bs_site_date_text(r->stored_at, date, sizeof(date)), NULL);
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
			    !bs_site_tag_paged(&r->tags[i], &npaged)) {
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
			bs_site_set_group_href(s, x, "HREF", "../", G_TAG,
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
	bs_site_run_path(&t, r->id, r->sha256);
	snprintf(path, sizeof(path), "%s", bs_buf_str(&t));
	rc = bs_site_emit(s, path);
	bs_buf_release(&href);
	bs_buf_release(&t);
	return rc;
}
