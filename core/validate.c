/* core/validate.c - the one rule for a run read from outside (validate.h). */
#include "core/validate.h"

#include <math.h>
#include <string.h>

#include "util/num.h"
#include "util/text.h"
#include "util/banned.h"

#define QUOTE_MAX 40 /* bytes of user data quoted in a message */

/* 9999-12-31T23:59:59Z: the last second ISO 8601's four digits write. */
#define DATE_MAX INT64_C(253402300799)

int bs_format_name_ok(const char *s)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz0123456789.+_-";
	size_t n = strlen(s);

	return n > 0 && n <= BS_FORMAT_NAME_MAX && strspn(s, ok) == n;
}

/* The run's text fields, each with whether it must be set. */
static const struct text_field {
	const char *name;
	size_t offset;
	int needed;
} text_fields[] = {
	{"tool", offsetof(struct bs_run, tool), 1},
	{"tool version", offsetof(struct bs_run, tool_version), 0},
	{"machine", offsetof(struct bs_run, machine), 0},
	{"source", offsetof(struct bs_run, source), 0},
	{"parser version", offsetof(struct bs_run, parser_version), 0},
	{"warning", offsetof(struct bs_run, warning), 0},
};

static const char *text_at(const struct bs_run *r, size_t offset)
{
	return *(char *const *)(const void *)((const char *)r + offset);
}

static const char *quote(char *out, size_t outsz, const char *s)
{
	return bs_err_quote(out, outsz, s, strlen(s), QUOTE_MAX);
}

int bs_name_check(const char *what, const char *s, struct bs_err *err)
{
	char q[QUOTE_MAX + 8];

	if (strnlen(s, BS_NAME_MAX + 1) > BS_NAME_MAX)
		return bs_error(err, BS_EPARSE,
				"%s '%s' is longer than %d bytes", what,
				quote(q, sizeof(q), s), BS_NAME_MAX);
	return 0;
}

static int check_texts(const struct bs_run *r, struct bs_err *err)
{
	char q[QUOTE_MAX + 8];
	const char *s;
	size_t i;

	for (i = 0; i < sizeof(text_fields) / sizeof(text_fields[0]); i++) {
		s = text_at(r, text_fields[i].offset);
		if (s == NULL || s[0] == '\0') {
			if (text_fields[i].needed)
				return bs_error(err, BS_EPARSE, "no %s",
						text_fields[i].name);
			continue;
		}
		if (bs_name_check(text_fields[i].name, s, err) < 0)
			return -BS_EPARSE;
	}
	if (r->format == NULL || !bs_format_name_ok(r->format))
		return bs_error(err, BS_EPARSE,
				"format '%s' is not a format name",
				r->format ? quote(q, sizeof(q), r->format)
					  : "");
	return 0;
}

static int check_date(const char *what, int64_t t, struct bs_err *err)
{
	if (t == BS_NONE || (t >= 0 && t <= DATE_MAX))
		return 0;
	return bs_error(err, BS_EPARSE,
			"%s %lld is not a date between 1970 and 9999", what,
			(long long)t);
}

/* One part of a result: NAN (none) or within the limit. */
static int check_part(int m, enum bs_part part, const char *what, double v,
		      struct bs_err *err)
{
	char got[40], max[40];
	const char *unit;

	if (isnan(v) || bs_metric_fits(m, part, v))
		return 0;
	bs_fmt_g(got, sizeof(got), v);
	bs_fmt_g(max, sizeof(max), bs_metric_limit(m, part, &unit));
	return bs_error(err, BS_EPARSE,
			"metric '%s': %s %s is out of range (0 to %s %s)",
			bs_metrics[m].key, what, got, max, unit);
}

static int check_result(const struct bs_run *r, int m, struct bs_err *err)
{
	const struct bs_value *v = &r->res[m];
	const char *key = bs_metrics[m].key;

	if (v->status != BS_ST_OK && v->status != BS_ST_TOO_FAST &&
	    v->status != BS_ST_NOT_RUN)
		return bs_error(err, BS_EPARSE, "metric '%s': bad status", key);
	if (bs_metrics[m].family != r->family) {
		if (v->status != BS_ST_NOT_RUN || !isnan(v->value))
			return bs_error(err, BS_EPARSE,
					"metric '%s' is not of family %s", key,
					bs_family_name(r->family));
		return 0;
	}
	/* A value only when ok: too_fast is never 0, not_run never a
	 * number; neither has a CPU figure. */
	if ((v->status == BS_ST_OK) == isnan(v->value))
		return bs_error(err, BS_EPARSE,
				"metric '%s': status %s with %s value", key,
				bs_status_name(v->status),
				isnan(v->value) ? "no" : "a");
	if (v->status != BS_ST_OK && !isnan(v->cpu_pct))
		return bs_error(err, BS_EPARSE,
				"metric '%s': status %s with a CPU figure", key,
				bs_status_name(v->status));
	if (check_part(m, BS_PART_VALUE, "value", v->value, err) < 0 ||
	    check_part(m, BS_PART_CPU, "cpu_pct", v->cpu_pct, err) < 0 ||
	    check_part(m, BS_PART_LATENCY, "latency", v->lat_us, err) < 0 ||
	    check_part(m, BS_PART_LATENCY, "mean latency", v->lat_mean_us,
		       err) < 0 ||
	    check_part(m, BS_PART_LATENCY, "p50 latency", v->lat_p50_us, err) <
		    0 ||
	    check_part(m, BS_PART_LATENCY, "p99 latency", v->lat_p99_us, err) <
		    0)
		return -BS_EPARSE;
	return 0;
}

static int check_params(const struct bs_run *r, struct bs_err *err)
{
	const struct bs_param_info *pi;
	const char *s;
	int k, ok;

	for (k = 0; k < bs_nparams; k++) {
		pi = &bs_param_table[k];
		if (!bs_param_known(&r->params, k))
			continue;
		switch (pi->kind) {
		case BS_PK_TEXT:
			s = bs_param_get_text(&r->params, k);
			if (bs_name_check(pi->key, s, err) < 0)
				return -BS_EPARSE;
			ok = 1;
			break;
		case BS_PK_REAL:
			ok = bs_param_fits_real(k, bs_param_get_real(&r->params,
								     k));
			break;
		default:
			ok = bs_param_fits(k, bs_param_get_i64(&r->params, k));
			break;
		}
		if (!ok)
			return bs_error(err, BS_EPARSE,
					"parameter '%s' is out of range",
					pi->key);
	}
	return 0;
}

static int check_series(const struct bs_run *r, struct bs_err *err)
{
	const struct bs_series *s;
	const struct bs_point *p;
	size_t i, j;

	for (i = 0; i < r->nseries; i++) {
		s = &r->series[i];
		if (s->metric < 0 || s->metric >= bs_nmetrics ||
		    bs_metrics[s->metric].family != r->family ||
		    !(bs_metrics[s->metric].flags & BS_MF_SERIES))
			return bs_error(err, BS_EPARSE,
					"a curve of a metric without curves");
		if (s->axis == NULL || s->axis[0] == '\0' ||
		    bs_text_has_control(s->axis))
			return bs_error(err, BS_EPARSE,
					"curve '%s': a bad axis",
					bs_metrics[s->metric].key);
		for (j = 0; j < s->n; j++) {
			p = &s->pt[j];
			if (!isfinite(p->x) || p->x < 0 ||
			    (!isnan(p->y) &&
			     !bs_metric_fits(s->metric, BS_PART_VALUE, p->y)) ||
			    (!isnan(p->seconds) &&
			     !(p->seconds >= 0 && isfinite(p->seconds))))
				return bs_error(err, BS_EPARSE,
						"curve '%s': point %zu is "
						"out of range",
						bs_metrics[s->metric].key,
						j + 1);
		}
	}
	return 0;
}

static int check_tags(const struct bs_run *r, struct bs_err *err)
{
	char q[QUOTE_MAX + 8];
	size_t i;

	for (i = 0; i < r->ntags; i++) {
		const struct bs_tag *t = &r->tags[i];
		if (t->key == NULL || t->key[0] == '\0')
			return bs_error(err, BS_EPARSE, "a tag without a key");
		if (bs_text_has_control(t->key) ||
		    (t->value && bs_text_has_control(t->value)))
			return bs_error(err, BS_EPARSE,
					"tag '%s' has a control character",
					quote(q, sizeof(q), t->key));
	}
	return 0;
}

static int is_hex64(const char *s)
{
	return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

int bs_run_check(const struct bs_run *r, struct bs_err *err)
{
	int m;

	if (!bs_family_ok(r->family))
		return bs_error(err, BS_EPARSE, "unknown tool family");
	if (check_texts(r, err) < 0 ||
	    check_date("measured_at", r->measured_at, err) < 0 ||
	    check_date("stored_at", r->stored_at, err) < 0)
		return -BS_EPARSE;
	for (m = 0; m < bs_nmetrics; m++)
		if (check_result(r, m, err) < 0)
			return -BS_EPARSE;
	if (check_params(r, err) < 0 || check_series(r, err) < 0 ||
	    check_tags(r, err) < 0)
		return -BS_EPARSE;
	if (r->raw == NULL)
		return bs_error(err, BS_EPARSE, "no text (raw)");
	if (!is_hex64(r->sha256))
		return bs_error(err, BS_EPARSE,
				"sha256 is not 64 lowercase hex digits");
	return 0;
}
