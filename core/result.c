/* core/result.c - the shared run record. */
#include "core/result.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/mem.h"
#include "util/text.h"
#include "util/banned.h"

const char *bs_status_name(enum bs_status st)
{
	switch (st) {
	case BS_ST_OK:
		return "ok";
	case BS_ST_TOO_FAST:
		return "too_fast";
	case BS_ST_NOT_RUN:
		break;
	}
	return "not_run";
}

/* The tag that lists the metrics a reader found printed but could not
 * read as a figure (bs_run_unread()). */
#define UNREAD_TAG "ingest.unread"

void bs_run_unread(struct bs_run *r, int m)
{
	const char *old = bs_run_tag_get(r, UNREAD_TAG);
	const char *key = bs_metrics[m].key;
	char *v;
	size_t n;

	if (bs_run_is_unread(r, m))
		return;
	if (old == NULL || old[0] == '\0') {
		bs_run_tag(r, UNREAD_TAG, key);
		return;
	}
	n = strlen(old) + strlen(key) + 2;
	v = xmalloc(n);
	memcpy(v, old, strlen(old));
	v[strlen(old)] = ',';
	memcpy(v + strlen(old) + 1, key, strlen(key) + 1);
	bs_run_tag(r, UNREAD_TAG, v);
	free(v);
}

int bs_run_is_unread(const struct bs_run *r, int m)
{
	const char *s = bs_run_tag_get(r, UNREAD_TAG);
	size_t k = strlen(bs_metrics[m].key);

	while (s && *s) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n == k && memcmp(s, bs_metrics[m].key, k) == 0)
			return 1;
		s = e ? e + 1 : NULL;
	}
	return 0;
}

/* clang-format off */
const char *const bs_absent_words[BS_AB_COUNT] = {
	[BS_AB_NOT_RUN] = "not run",
	[BS_AB_NOT_REPORTED] = "not reported",
	[BS_AB_MISPRINTED] = "not stored (the table misprints it)",
	[BS_AB_DIRECTION] =
		"unknown (dd's summary does not say which way it copied)",
	[BS_AB_UNREADABLE] =
		"unreadable (printed, but not a figure: see the warning)",
};
/* clang-format on */

enum bs_absent bs_absent_of(const struct bs_run *r, int m)
{
	const char *v = r->tool_version ? r->tool_version : "";
	int copy;

	/* Printed, but no figure a reader may store (its warning says
	 * why): neither "not run" nor "not reported". */
	if (bs_run_is_unread(r, m))
		return BS_AB_UNREADABLE;
	switch (r->family) {
	case BS_FAM_BONNIE:
		/* The layout whose file-test cells bstore leaves out
		 * (ingest/bonnie_table.c), when the run made files. */
		if (m >= BS_M_FIRST_FILE && m < BS_M_BONNIE && r->format &&
		    strncmp(r->format, "bonnie++-text", 13) == 0 &&
		    (strcmp(v, "1.98") == 0 || strncmp(v, "2.00", 4) == 0) &&
		    r->params.num_files != BS_NONE && r->params.num_files > 0)
			return BS_AB_MISPRINTED;
		return BS_AB_NOT_RUN;
	case BS_FAM_GETC_PUTC:
		return BS_AB_NOT_RUN;
	case BS_FAM_DD:
		copy = bs_metric_find(BS_FAM_DD, "copy_kib_s");
		if (copy >= 0 && m != copy &&
		    r->res[copy].status != BS_ST_NOT_RUN)
			return BS_AB_DIRECTION;
		return BS_AB_NOT_REPORTED;
	default:
		return BS_AB_NOT_REPORTED;
	}
}

const char *bs_absent_word(const struct bs_run *r, int m)
{
	return bs_absent_words[bs_absent_of(r, m)];
}

int bs_status_parse(const char *s, enum bs_status *out)
{
	if (strcmp(s, "ok") == 0)
		*out = BS_ST_OK;
	else if (strcmp(s, "too_fast") == 0)
		*out = BS_ST_TOO_FAST;
	else if (strcmp(s, "not_run") == 0)
		*out = BS_ST_NOT_RUN;
	else
		return -BS_EINVAL;
	return 0;
}

/* A value not run, for copying: this runs for every ingested line. */
static const struct bs_value not_run = {BS_ST_NOT_RUN, NAN, NAN, NAN,
					NAN,           NAN, NAN};

void bs_run_init(struct bs_run *r)
{
	int i;

	/* Only the catalogue's rows of res[]. */
	memset(r, 0, offsetof(struct bs_run, res));
	memset(&r->series, 0, sizeof(*r) - offsetof(struct bs_run, series));
	r->family = BS_FAM_BONNIE;
	r->measured_at = BS_NONE;
	r->stored_at = BS_NONE;
	r->source_line = BS_NONE;
	bs_params_init(&r->params);
	for (i = 0; i < bs_nmetrics; i++)
		r->res[i] = not_run;
}

void bs_run_release(struct bs_run *r)
{
	size_t i;

	free(r->tool);
	free(r->tool_version);
	free(r->format);
	free(r->machine);
	bs_params_release(&r->params);
	for (i = 0; i < r->nseries; i++) {
		free(r->series[i].axis);
		free(r->series[i].pt);
	}
	free(r->series);
	free(r->raw);
	free(r->source);
	free(r->parser_version);
	free(r->warning);
	for (i = 0; i < r->ntags; i++) {
		free(r->tags[i].key);
		free(r->tags[i].value);
	}
	free(r->tags);
	bs_run_history_release(r);
	bs_run_init(r);
}

void bs_run_set(char **field, const char *s)
{
	char *copy = xstrdup(s);

	free(*field);
	*field = copy;
}

void bs_run_tag(struct bs_run *r, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < r->ntags; i++) {
		if (strcmp(r->tags[i].key, key) == 0) {
			bs_run_set(&r->tags[i].value, value);
			return;
		}
	}
	bs_run_tag_add(r, key, value);
}

void bs_run_tag_add(struct bs_run *r, const char *key, const char *value)
{
	xgrow((void **)&r->tags, &r->tags_cap, r->ntags + 1, sizeof(*r->tags));
	r->tags[r->ntags].key = xstrdup(key);
	r->tags[r->ntags].value = xstrdup(value);
	r->ntags++;
}

void bs_run_history_release(struct bs_run *r)
{
	size_t i;

	for (i = 0; i < r->nhistory; i++) {
		free(r->history[i].field);
		free(r->history[i].old_value);
		free(r->history[i].new_value);
	}
	free(r->history);
	r->history = NULL;
	r->nhistory = r->history_cap = 0;
}

void bs_run_history_add(struct bs_run *r, const char *field,
			const char *old_value, const char *new_value,
			int64_t changed_at)
{
	struct bs_history *h;

	xgrow((void **)&r->history, &r->history_cap, r->nhistory + 1,
	      sizeof(*r->history));
	h = &r->history[r->nhistory++];
	h->field = xstrdup(field);
	h->old_value = old_value ? xstrdup(old_value) : NULL;
	h->new_value = new_value ? xstrdup(new_value) : NULL;
	h->changed_at = changed_at;
}

const char *bs_run_tag_get(const struct bs_run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->ntags; i++)
		if (strcmp(r->tags[i].key, key) == 0)
			return r->tags[i].value;
	return NULL;
}

int bs_run_date_guessed(const struct bs_run *r)
{
	const char *s = bs_run_tag_get(r, BS_DATE_SOURCE_TAG);

	return r->measured_at != BS_NONE && s != NULL &&
	       strcmp(s, BS_DATE_INGESTED) == 0;
}

int64_t bs_run_date_known(const struct bs_run *r)
{
	return bs_run_date_guessed(r) ? BS_NONE : r->measured_at;
}

void bs_run_untag(struct bs_run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->ntags; i++) {
		if (strcmp(r->tags[i].key, key) != 0)
			continue;
		free(r->tags[i].key);
		free(r->tags[i].value);
		memmove(&r->tags[i], &r->tags[i + 1],
			(r->ntags - i - 1) * sizeof(r->tags[0]));
		r->ntags--;
		return;
	}
}

const struct bs_series *bs_run_series_find(const struct bs_run *r, int m)
{
	size_t i;

	for (i = 0; i < r->nseries; i++)
		if (r->series[i].metric == m)
			return &r->series[i];
	return NULL;
}

struct bs_series *bs_run_series_add(struct bs_run *r, int m, const char *axis)
{
	struct bs_series *s;
	size_t i;

	if (m < 0 || m >= bs_nmetrics || !(bs_metrics[m].flags & BS_MF_SERIES))
		BS_BUG("a curve of a metric that has none");
	if (bs_metrics[m].family != r->family)
		BS_BUG("a curve of another family's metric");
	for (i = 0; i < r->nseries; i++)
		if (r->series[i].metric == m)
			BS_BUG("two curves of one metric");
	xgrow((void **)&r->series, &r->series_cap, r->nseries + 1,
	      sizeof(*r->series));
	s = &r->series[r->nseries++];
	memset(s, 0, sizeof(*s));
	s->metric = m;
	s->axis = xstrdup(axis);
	return s;
}

void bs_series_point(struct bs_series *s, double x, double y, double seconds)
{
	xgrow((void **)&s->pt, &s->cap, s->n + 1, sizeof(*s->pt));
	s->pt[s->n].x = x;
	s->pt[s->n].y = y;
	s->pt[s->n].seconds = seconds;
	s->n++;
}

/* Lines where a tool printed its rate in a unit of its own, found in the
 * raw text by a piece of the line; docs/report.md ("How a number is
 * shown") says how the units relate. */
static const struct {
	enum bs_family fam;
	const char *mark; /* the line holds it */
	const char *what; /* the first row of a family says it */
} tool_lines[] = {
	{BS_FAM_DD, " copied, ",
	 "dd's line: kB, MB, GB are 10^3, 10^6, 10^9 bytes; MiB/s = MB/s / "
	 "1.048576"},
	{BS_FAM_FIO, "bw=",
	 "fio's lines: KiB, MiB are 2^10, 2^20 bytes, kB, MB 10^3, 10^6 "
	 "(fio 2.x's KB/s and MB/s are KiB/s and MiB/s)"},
	{BS_FAM_FIO, "BW=", NULL}, /* fio 3's job line */
	{BS_FAM_ZCAV, "# Read ",
	 "zcav's totals: its megs and megabytes are MiB; total_mib_s is the "
	 "last one"},
};

#define NTOOL_LINES (sizeof(tool_lines) / sizeof(tool_lines[0]))

const char *bs_run_tool_units(const struct bs_run *r)
{
	size_t k;

	for (k = 0; k < NTOOL_LINES; k++)
		if (tool_lines[k].fam == r->family && tool_lines[k].what)
			return tool_lines[k].what;
	return NULL;
}

size_t bs_run_tool_lines(const struct bs_run *r, bs_line_fn fn, void *ctx)
{
	const char *p = r->raw ? r->raw : "", *nl;
	size_t k, n, found = 0;

	for (; *p; p = nl ? nl + 1 : p + n) {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		for (k = 0; k < NTOOL_LINES; k++)
			if (tool_lines[k].fam == r->family &&
			    bs_text_has(p, n, tool_lines[k].mark))
				break;
		if (k == NTOOL_LINES)
			continue;
		fn(p, n, ctx);
		found++;
	}
	return found;
}

int bs_tag_bookkeeping(const char *key)
{
	static const char *const keys[] = {
		"measured_at.tz",   /* ingest: a date read as local time */
		BS_DATE_SOURCE_TAG, /* ingest: a date bstore gave (ingested) */
		"exec.status",      /* bstore exec: the tool's exit status */
		"zcav.target",      /* bstore zcav: the path it read */
		"zcav.min_time_s",  /* bstore zcav: its --min-time */
		"zcav.direct",      /* bstore zcav before direct was a param */
		"run.direct",       /* bstore run before direct was a param */
		"run.fsync",        /* bstore run before fsync was a param */
		"fileio.rand_type", /* bstore fileio: its --file-rand-type */
		"fileio.validate",  /* bstore fileio: --validate */
		"exec.command",     /* bstore exec: the command line it ran */
		UNREAD_TAG,         /* ingest: metrics printed, not figures */
		/* ingest: a fio job's log file prefix (fio.log.prefix) and
		 * the exact summary of each log attached to it. A key
		 * ending in '*' is every key that starts so. */
		"fio.log.*",
	};
	size_t i, n;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		n = strlen(keys[i]);
		if (keys[i][n - 1] == '*' ? strncmp(key, keys[i], n - 1) == 0
					  : strcmp(key, keys[i]) == 0)
			return 1;
	}
	return 0;
}
