/*
 * ingest/bstore_json.c - bstore's own JSON export read back: one line of
 * `bstore export --format json` (the contract of docs/formats.md, written
 * by core/run_json.c) into the struct bs_run it was written from, so that
 * an export moves runs from one archive into another without loss.
 *
 * The line carries the run's original text ("raw") and its digest; the
 * digest is checked, and kept, so that a run ingested again from its
 * export, or from its original file, is a duplicate. Anything the line
 * says that this bstore does not know (a family, a metric, a parameter, a
 * key) is a reject naming it, never dropped: an export read back is
 * either the run whole or no run.
 */
#include "ingest/bstore_json.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run_json.h"
#include "core/validate.h"
#include "util/mem.h"
#include "util/sha256.h"
#include "util/text.h"
#include "util/timefmt.h"
#include "util/banned.h"

#define QUOTE_MAX 40 /* bytes of user data quoted in a reason */
#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

/* What a parse is working on, and where its reason goes. */
struct jctx {
	enum bs_family family;
	char *reason;
	size_t rsz;
};

static int fail(struct jctx *c, const char *fmt, ...) BS_PRINTF(2, 3);
static int fail(struct jctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->rsz > 0) {
		va_start(ap, fmt);
		vsnprintf(c->reason, c->rsz, fmt, ap);
		va_end(ap);
	}
	return -BS_EPARSE;
}

/* s quoted for a reason: cut, control characters as '?'. */
static const char *quote(char *out, size_t outsz, const char *s)
{
	return bs_err_quote(out, outsz, s, strlen(s), QUOTE_MAX);
}

/* ---- probe ---- */

static int has(const struct bs_fline *l, const char *s)
{
	size_t n = strlen(s), i;

	for (i = 0; i + n <= l->len; i++)
		if (l->text[i] == s[0] && memcmp(l->text + i, s, n) == 0)
			return 1;
	return 0;
}

int bs_bstore_json_probe(const struct bs_format *f, const struct bs_fline *l)
{
	(void)f;
	/* An object on one line with the keys no other tool's JSON has
	 * together; the parse checks the rest. */
	return l->len >= 2 && l->text[0] == '{' && l->text[l->len - 1] == '}' &&
	       has(l, "\"family\"") && has(l, "\"sha256\"") &&
	       has(l, "\"results\"");
}

/* ---- values ---- */

/* The keys of the export contract (core/run_json.h), and "raw". */
static const char *const top_keys[] = {
	"id",     "machine",        "family",    "tool",    "tool_version",
	"format", "measured_at",    "stored_at", "source",  "source_line",
	"sha256", "parser_version", "warning",   "params",  "supplied",
	"tags",   "results",        "series",    "history", "raw",
};

/* The keys of one change in "history". */
static const char *const history_keys[] = {
	"field",
	"old",
	"new",
	"changed_at",
};

/* The keys of one result. */
static const char *const result_keys[] = {
	"value",          "unit",           "cpu_pct",
	"latency_us",     "status",         "latency_mean_us",
	"latency_p50_us", "latency_p99_us",
};

static int known(const char *key, const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(key, keys[i]) == 0)
			return 1;
	return 0;
}

/*
 * A string member: *out is NULL when the member is null and null_ok.
 * Missing members are rejects: the contract writes every key.
 */
static int get_str(struct jctx *c, json_t *o, const char *key, int null_ok,
		   const char **out)
{
	json_t *v = json_object_get(o, key);

	if (v == NULL)
		return fail(c, "bstore JSON without '%s'", key);
	if (json_is_null(v) && null_ok) {
		*out = NULL;
		return 0;
	}
	if (!json_is_string(v))
		return fail(c, "bstore JSON '%s' is not a string%s", key,
			    null_ok ? " or null" : "");
	*out = json_string_value(v);
	return 0;
}

/* A date member: ISO 8601 UTC, or null (BS_NONE). */
static int get_time(struct jctx *c, json_t *o, const char *key, int64_t *out)
{
	struct bs_err err = BS_ERR_INIT;
	const char *s = NULL;
	char q[QUOTE_MAX + 8];

	if (get_str(c, o, key, 1, &s) < 0)
		return -BS_EPARSE;
	if (s == NULL) {
		*out = BS_NONE;
		return 0;
	}
	if (bs_time_parse(s, out, &err) < 0)
		return fail(c, "bstore JSON '%s': '%s' is not a date", key,
			    quote(q, sizeof(q), s));
	return 0;
}

/* A number that may be null (NAN), for part of metric m's result. */
static int get_part(struct jctx *c, json_t *res, const char *key, int m,
		    enum bs_part part, double *out)
{
	json_t *v = json_object_get(res, key);
	const char *unit;
	double d;

	if (v == NULL || json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return fail(c, "metric '%s': '%s' is not a number",
			    bs_metrics[m].key, key);
	d = json_number_value(v);
	if (!bs_metric_fits(m, part, d))
		return fail(c,
			    "metric '%s': '%s' %.17g is out of range (0 to "
			    "%.17g)",
			    bs_metrics[m].key, key, d,
			    bs_metric_limit(m, part, &unit));
	*out = d;
	return 0;
}

/* ---- params ---- */

static int set_param(struct jctx *c, struct bs_params *p, int i, json_t *v)
{
	const struct bs_param_info *pi = &bs_param_table[i];
	int64_t n;

	if (json_is_null(v))
		return 0;
	switch (pi->kind) {
	case BS_PK_TEXT:
		if (!json_is_string(v))
			break;
		free(*bs_param_text(p, i));
		*bs_param_text(p, i) = xstrdup(json_string_value(v));
		return 0;
	case BS_PK_REAL:
		if (!json_is_number(v))
			break;
		if (!bs_param_fits_real(i, json_number_value(v)))
			return fail(c, "parameter '%s' is out of range",
				    pi->key);
		*bs_param_real(p, i) = json_number_value(v);
		return 0;
	case BS_PK_BOOL:
		if (!json_is_boolean(v))
			break;
		*bs_param_i64(p, i) = json_is_true(v) ? 1 : 0;
		return 0;
	case BS_PK_FSIZE:
		/* bonnie++'s -n spells these, and so does the export. */
		if (json_is_string(v)) {
			if (strcmp(json_string_value(v), "link") == 0)
				n = BS_SIZE_LINK;
			else if (strcmp(json_string_value(v), "symlink") == 0)
				n = BS_SIZE_SYMLINK;
			else
				break;
			*bs_param_i64(p, i) = n;
			return 0;
		}
		/* fall through */
	case BS_PK_INT:
		if (!json_is_integer(v))
			break;
		n = (int64_t)json_integer_value(v);
		if (n < 0 || !bs_param_fits(i, n))
			return fail(c, "parameter '%s' is out of range",
				    pi->key);
		*bs_param_i64(p, i) = n;
		return 0;
	}
	return fail(c, "parameter '%s' is not %s", pi->key,
		    pi->kind == BS_PK_TEXT    ? "a string"
		    : pi->kind == BS_PK_REAL  ? "a number"
		    : pi->kind == BS_PK_BOOL  ? "true or false"
		    : pi->kind == BS_PK_FSIZE ? "a size or link/symlink"
					      : "an integer");
}

static int get_params(struct jctx *c, json_t *o, struct bs_params *p)
{
	json_t *ps = json_object_get(o, "params"), *v;
	const char *key;
	char q[QUOTE_MAX + 8];
	int i;

	if (ps == NULL)
		return fail(c, "bstore JSON without 'params'");
	if (!json_is_object(ps))
		return fail(c, "bstore JSON 'params' is not an object");
	json_object_foreach(ps, key, v) {
		i = bs_param_find_in(c->family, key);
		if (i < 0)
			return fail(c, "unknown parameter '%s' of family %s",
				    quote(q, sizeof(q), key),
				    bs_family_name(c->family));
		if (set_param(c, p, i, v) < 0)
			return -BS_EPARSE;
	}
	return 0;
}

/* "supplied": the keys of parameters the user gave (core/supply.h), each
 * a known parameter of the run; absent in exports before schema 6. */
static int get_supplied(struct jctx *c, json_t *o, struct bs_run *r)
{
	json_t *a = json_object_get(o, "supplied"), *v;
	char q[QUOTE_MAX + 8];
	size_t n;
	int i;

	if (a == NULL)
		return 0;
	if (!json_is_array(a))
		return fail(c, "bstore JSON 'supplied' is not a list");
	json_array_foreach(a, n, v) {
		const char *key = json_string_value(v);

		i = key ? bs_param_find_in(c->family, key) : -1;
		if (i < 0 || !bs_param_known(&r->params, i))
			return fail(c,
				    "bstore JSON 'supplied' names '%s', no "
				    "known parameter of the run",
				    key ? quote(q, sizeof(q), key) : "?");
		r->supplied |= (uint64_t)1 << i;
	}
	return 0;
}

/* ---- tags ---- */

/*
 * The store's rule for tags lives in store/ (bs_store_check_tag), which
 * ingest may not include; an exported tag passed it once, so only what
 * would break the archive's selectors and text output is checked here.
 */
static int get_tags(struct jctx *c, json_t *o, struct bs_run *r)
{
	json_t *ts = json_object_get(o, "tags"), *v;
	const char *key;
	char q[QUOTE_MAX + 8];

	if (ts == NULL)
		return fail(c, "bstore JSON without 'tags'");
	if (!json_is_object(ts))
		return fail(c, "bstore JSON 'tags' is not an object");
	json_object_foreach(ts, key, v) {
		if (!json_is_string(v))
			return fail(c, "tag '%s' is not a string",
				    quote(q, sizeof(q), key));
		if (key[0] == '\0' || bs_text_has_control(key) ||
		    strpbrk(key, ",=!~<>") ||
		    bs_text_has_control(json_string_value(v)))
			return fail(c, "tag '%s' is not a valid tag",
				    quote(q, sizeof(q), key));
		bs_run_tag(r, key, json_string_value(v));
	}
	return 0;
}

/* ---- history ---- */

/*
 * What bstore set changed (absent in exports before it was written): the
 * store turns a date field's values back into seconds. A field this
 * bstore does not know is kept, as the store keeps a newer bstore's rows.
 */
static int get_history(struct jctx *c, json_t *o, struct bs_run *r)
{
	json_t *a = json_object_get(o, "history"), *h, *v;
	const char *key, *field = "", *was = NULL, *now = NULL;
	char q[QUOTE_MAX + 8];
	int64_t when;
	size_t n;

	if (a == NULL)
		return 0;
	if (!json_is_array(a))
		return fail(c, "bstore JSON 'history' is not a list");
	json_array_foreach(a, n, h) {
		if (!json_is_object(h))
			return fail(c,
				    "bstore JSON 'history' change %zu is "
				    "not an object",
				    n + 1);
		json_object_foreach(h, key, v) {
			if (!known(key, history_keys, NKEYS(history_keys)))
				return fail(c,
					    "bstore JSON 'history' change "
					    "%zu with unknown key '%s'",
					    n + 1, quote(q, sizeof(q), key));
		}
		if (get_str(c, h, "field", 0, &field) < 0 ||
		    get_str(c, h, "old", 1, &was) < 0 ||
		    get_str(c, h, "new", 1, &now) < 0 ||
		    get_time(c, h, "changed_at", &when) < 0)
			return -BS_EPARSE;
		if (field[0] == '\0' || bs_text_has_control(field) ||
		    (was && bs_text_has_control(was)) ||
		    (now && bs_text_has_control(now)))
			return fail(c,
				    "bstore JSON 'history' change %zu is "
				    "not a valid change",
				    n + 1);
		if (when == BS_NONE)
			return fail(c,
				    "bstore JSON 'history' change %zu "
				    "without 'changed_at'",
				    n + 1);
		bs_run_history_add(r, field, was, now, when);
	}
	return 0;
}

/* ---- results ---- */

static int get_result(struct jctx *c, int m, json_t *res, struct bs_value *v)
{
	const char *key, *s;
	char q[QUOTE_MAX + 8];
	json_t *x;

	if (!json_is_object(res))
		return fail(c, "metric '%s' is not an object",
			    bs_metrics[m].key);
	json_object_foreach(res, key, x) {
		if (!known(key, result_keys, NKEYS(result_keys)))
			return fail(c, "metric '%s': unknown key '%s'",
				    bs_metrics[m].key,
				    quote(q, sizeof(q), key));
	}
	x = json_object_get(res, "status");
	s = json_is_string(x) ? json_string_value(x) : NULL;
	if (s == NULL || bs_status_parse(s, &v->status) < 0)
		return fail(c, "metric '%s': bad status '%s'",
			    bs_metrics[m].key,
			    s ? quote(q, sizeof(q), s) : "(not a string)");
	/* A unit that differs is another quantity, not this metric. */
	x = json_object_get(res, "unit");
	s = json_is_string(x) ? json_string_value(x) : NULL;
	if (s == NULL || strcmp(s, bs_metrics[m].unit) != 0)
		return fail(c, "metric '%s': unit '%s' is not %s",
			    bs_metrics[m].key,
			    s ? quote(q, sizeof(q), s) : "(not a string)",
			    bs_metrics[m].unit);
	if (get_part(c, res, "value", m, BS_PART_VALUE, &v->value) < 0 ||
	    get_part(c, res, "cpu_pct", m, BS_PART_CPU, &v->cpu_pct) < 0 ||
	    get_part(c, res, "latency_us", m, BS_PART_LATENCY, &v->lat_us) <
		    0 ||
	    get_part(c, res, "latency_mean_us", m, BS_PART_LATENCY,
		     &v->lat_mean_us) < 0 ||
	    get_part(c, res, "latency_p50_us", m, BS_PART_LATENCY,
		     &v->lat_p50_us) < 0 ||
	    get_part(c, res, "latency_p99_us", m, BS_PART_LATENCY,
		     &v->lat_p99_us) < 0)
		return -BS_EPARSE;
	/* A value only when ok: too_fast is never 0, not_run never a
	 * number; neither has a CPU figure. */
	if ((v->status == BS_ST_OK) == isnan(v->value))
		return fail(c, "metric '%s': status %s with %s value",
			    bs_metrics[m].key, bs_status_name(v->status),
			    isnan(v->value) ? "a null" : "a");
	if (v->status != BS_ST_OK && !isnan(v->cpu_pct))
		return fail(c, "metric '%s': status %s with a cpu_pct",
			    bs_metrics[m].key, bs_status_name(v->status));
	return 0;
}

static int get_results(struct jctx *c, json_t *o, struct bs_run *r)
{
	json_t *rs = json_object_get(o, "results"), *v;
	const char *key;
	char q[QUOTE_MAX + 8];
	int m;

	if (rs == NULL)
		return fail(c, "bstore JSON without 'results'");
	if (!json_is_object(rs))
		return fail(c, "bstore JSON 'results' is not an object");
	/* A metric the line leaves out stays not run: an export of an
	 * older bstore lacks the metrics added since. */
	json_object_foreach(rs, key, v) {
		m = bs_metric_find(c->family, key);
		if (m < 0)
			return fail(c, "unknown metric '%s' of family %s",
				    quote(q, sizeof(q), key),
				    bs_family_name(c->family));
		if (get_result(c, m, v, &r->res[m]) < 0)
			return -BS_EPARSE;
	}
	return 0;
}

/* ---- series ---- */

/* A point's number: x must be one, y and seconds may be null. */
static int point_num(json_t *v, int null_ok, double *out)
{
	if (null_ok && json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

/*
 * One curve: a list of {axis: x, unit key: y, "seconds": s}. The axis is
 * the key that is neither; an empty list has none, and is no curve (the
 * export cannot say its axis).
 */
static int get_curve(struct jctx *c, int m, json_t *pts, struct bs_run *r)
{
	const char *mk = bs_metrics[m].key, *key, *axis = NULL;
	struct bs_series *s = NULL;
	char ykey[32], q[QUOTE_MAX + 8];
	double x, y, sec;
	json_t *p, *v;
	size_t i;

	if (!json_is_array(pts))
		return fail(c, "series '%s' is not a list", mk);
	bs_run_json_unit_key(ykey, sizeof(ykey), bs_metrics[m].unit);
	json_array_foreach(pts, i, p) {
		if (!json_is_object(p) || json_object_size(p) != 3)
			return fail(c,
				    "series '%s' point %zu is not {axis, %s, "
				    "seconds}",
				    mk, i + 1, ykey);
		json_object_foreach(p, key, v) {
			if (strcmp(key, ykey) == 0 ||
			    strcmp(key, "seconds") == 0)
				continue;
			if (axis == NULL)
				axis = key;
			else if (strcmp(axis, key) != 0)
				return fail(c,
					    "series '%s' point %zu: axis '%s' "
					    "is not '%s'",
					    mk, i + 1, quote(q, sizeof(q), key),
					    axis);
		}
		if (axis == NULL || json_object_get(p, axis) == NULL ||
		    point_num(json_object_get(p, axis), 0, &x) < 0 ||
		    point_num(json_object_get(p, ykey), 1, &y) < 0 ||
		    point_num(json_object_get(p, "seconds"), 1, &sec) < 0)
			return fail(c,
				    "series '%s' point %zu is not {axis, %s, "
				    "seconds} of numbers",
				    mk, i + 1, ykey);
		if (s == NULL)
			s = bs_run_series_add(r, m, axis);
		bs_series_point(s, x, y, sec);
	}
	return 0;
}

static int get_series(struct jctx *c, json_t *o, struct bs_run *r)
{
	json_t *ss = json_object_get(o, "series"), *v;
	const char *key;
	char q[QUOTE_MAX + 8];
	int m;

	if (ss == NULL)
		return 0;
	if (!json_is_object(ss))
		return fail(c, "bstore JSON 'series' is not an object");
	json_object_foreach(ss, key, v) {
		m = bs_metric_find(c->family, key);
		if (m < 0 || !(bs_metrics[m].flags & BS_MF_SERIES))
			return fail(c, "unknown series '%s' of family %s",
				    quote(q, sizeof(q), key),
				    bs_family_name(c->family));
		if (get_curve(c, m, v, r) < 0)
			return -BS_EPARSE;
	}
	return 0;
}

/* ---- the run's text ---- */

static int is_hex64(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[64] == '\0';
}

/*
 * Whether sha is raw's digest as ingest gives it: sha256(raw), or for the
 * k-th run (k >= 2) that one block's text gave (fio's jobs),
 * sha256(raw "\n#run k") (ingest/ingest.c, blk_run). The common prefix
 * is hashed once.
 */
static int digest_matches(const char *raw, const char *sha)
{
	struct bs_sha256 base, h;
	char hex[BS_SHA256_HEX], tail[32];
	uint8_t d[32];
	int k, i, n;

	bs_sha256_hex(raw, strlen(raw), hex);
	if (strcmp(hex, sha) == 0)
		return 1;
	bs_sha256_init(&base);
	bs_sha256_update(&base, raw, strlen(raw));
	for (k = 2; k <= BS_BSTORE_JSON_RUN_MAX; k++) {
		h = base;
		n = snprintf(tail, sizeof(tail), "\n#run %d", k);
		bs_sha256_update(&h, tail, (size_t)n);
		bs_sha256_final(&h, d);
		for (i = 0; i < 32; i++)
			snprintf(hex + 2 * i, 3, "%02x", d[i]);
		if (strcmp(hex, sha) == 0)
			return 1;
	}
	return 0;
}

/* ---- the run ---- */

static int fill(struct jctx *c, json_t *o, struct bs_run *r)
{
	const char *family = NULL, *tool = NULL, *tool_version = NULL,
		   *format = NULL, *machine = NULL, *source = NULL, *sha = NULL,
		   *parser_version = NULL, *warning = NULL, *raw = NULL,
		   *key = NULL;
	struct bs_err err = BS_ERR_INIT;
	json_t *v;
	char q[QUOTE_MAX + 8];
	int64_t measured_at, stored_at, line = BS_NONE;

	json_object_foreach(o, key, v) {
		if (!known(key, top_keys, NKEYS(top_keys)))
			return fail(c, "bstore JSON with unknown key '%s'",
				    quote(q, sizeof(q), key));
	}
	if (get_str(c, o, "family", 0, &family) < 0)
		return -BS_EPARSE;
	if (bs_family_parse(family, &c->family) < 0)
		return fail(c, "unknown family '%s'",
			    quote(q, sizeof(q), family));
	if (get_str(c, o, "tool", 0, &tool) < 0 ||
	    get_str(c, o, "tool_version", 1, &tool_version) < 0 ||
	    get_str(c, o, "format", 0, &format) < 0 ||
	    get_str(c, o, "machine", 0, &machine) < 0 ||
	    get_time(c, o, "measured_at", &measured_at) < 0 ||
	    get_time(c, o, "stored_at", &stored_at) < 0 ||
	    get_str(c, o, "source", 1, &source) < 0 ||
	    get_str(c, o, "sha256", 0, &sha) < 0 ||
	    get_str(c, o, "parser_version", 1, &parser_version) < 0 ||
	    get_str(c, o, "warning", 1, &warning) < 0)
		return -BS_EPARSE;
	if (tool[0] == '\0' || format[0] == '\0')
		return fail(c, "bstore JSON with an empty '%s'",
			    tool[0] ? "format" : "tool");
	v = json_object_get(o, "id");
	if (v && !json_is_integer(v))
		return fail(c, "bstore JSON 'id' is not an integer");
	v = json_object_get(o, "source_line");
	if (v == NULL)
		return fail(c, "bstore JSON without 'source_line'");
	if (json_is_integer(v) && json_integer_value(v) >= 1)
		line = (int64_t)json_integer_value(v);
	else if (!json_is_null(v))
		return fail(c,
			    "bstore JSON 'source_line' is not a line number");
	/* The text is what makes the run the same run everywhere. */
	if (json_object_get(o, "raw") == NULL)
		return fail(c, "bstore JSON without 'raw' (export it with a "
			       "bstore that writes the run's text)");
	if (get_str(c, o, "raw", 0, &raw) < 0)
		return -BS_EPARSE;
	if (!is_hex64(sha))
		return fail(c, "bstore JSON 'sha256' is not 64 hex digits");
	if (!digest_matches(raw, sha))
		return fail(c, "bstore JSON 'sha256' is not the digest of "
			       "'raw' (the line was edited, or the run's text "
			       "was not UTF-8)");

	r->family = c->family;
	if (get_params(c, o, &r->params) < 0 || get_supplied(c, o, r) < 0 ||
	    get_tags(c, o, r) < 0 || get_results(c, o, r) < 0 ||
	    get_series(c, o, r) < 0 || get_history(c, o, r) < 0)
		return -BS_EPARSE;
	bs_run_set(&r->tool, tool);
	bs_run_set(&r->tool_version, tool_version);
	bs_run_set(&r->format, format);
	bs_run_set(&r->machine, machine);
	bs_run_set(&r->raw, raw);
	memcpy(r->sha256, sha, sizeof(r->sha256));
	r->measured_at = measured_at;
	r->stored_at = stored_at;
	bs_run_set(&r->source, source);
	r->source_line = line;
	bs_run_set(&r->parser_version, parser_version);
	/* The driver says a warning aloud; an empty one is none. */
	bs_run_set(&r->warning, warning && warning[0] ? warning : NULL);
	/* What any run from outside must be (core/validate.h), as merge
	 * checks it too: names without control characters, a format name. */
	if (bs_run_check(r, &err) < 0)
		return fail(c, "bstore JSON run: %s", err.msg);
	return 1;
}

int bs_bstore_json_parse(const struct bs_format *f, const struct bs_fline *l,
			 struct bs_run *r, struct bs_err *err)
{
	char reason[BS_ERR_MSG_MAX];
	struct jctx c = {BS_FAM_BONNIE, reason, sizeof(reason)};
	json_error_t je;
	json_t *o;
	int rc;

	(void)f;
	reason[0] = '\0';
	/* Duplicate keys would make one of two values win unseen. */
	o = json_loadb(l->text, l->len, JSON_REJECT_DUPLICATES, &je);
	if (o == NULL) {
		char q[sizeof(je.text) + 8];

		bs_err_quote(q, sizeof(q), je.text, strlen(je.text),
			     sizeof(q) - 8);
		rc = fail(&c,
			  "bstore JSON that does not parse: %s (column "
			  "%d)",
			  q, je.column);
		return bs_format_fail(err, rc, reason);
	}
	rc = json_is_object(o) ? fill(&c, o, r)
			       : fail(&c, "bstore JSON that is not an object");
	json_decref(o);
	if (rc < 0) {
		bs_run_release(r);
		return bs_format_fail(err, rc, reason);
	}
	return rc;
}
