/* core/run_json.c - a run as one JSON object (core/run_json.h). */
#include "core/run_json.h"
#include "core/supply.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "util/json.h"
#include "util/timefmt.h"
#include "util/banned.h"

static void json_time(struct bs_buf *out, int64_t t)
{
	char iso[40];

	if (t == BS_NONE)
		bs_buf_adds(out, "null");
	else
		bs_json_str(out, bs_time_iso(iso, sizeof(iso), t));
}

void bs_run_json_unit_key(char *out, size_t size, const char *unit)
{
	size_t i;

	for (i = 0; unit[i] && i + 1 < size; i++)
		out[i] = unit[i] == '/' ? '_'
					: (char)tolower((unsigned char)unit[i]);
	out[i] = '\0';
}

static void json_params(const struct bs_run *r, struct bs_buf *out)
{
	int i, first = 1;

	bs_buf_addc(out, '{');
	for (i = 0; i < bs_nparams; i++) {
		if (bs_param_table[i].family != r->family)
			continue;
		bs_json_key(out, bs_param_table[i].key, first);
		bs_param_json(&r->params, i, out);
		first = 0;
	}
	bs_buf_addc(out, '}');
}

static void json_supplied(const struct bs_run *r, struct bs_buf *out)
{
	int i, n = 0;

	bs_buf_addc(out, '[');
	for (i = 0; i < bs_nparams; i++) {
		if (bs_param_table[i].family != r->family || !bs_supplied(r, i))
			continue;
		if (n++)
			bs_buf_addc(out, ',');
		bs_json_str(out, bs_param_table[i].key);
	}
	bs_buf_addc(out, ']');
}

static void json_results(const struct bs_run *r, struct bs_buf *out)
{
	int m, first = 1;

	bs_buf_addc(out, '{');
	for (m = 0; m < bs_nmetrics; m++) {
		const struct bs_value *v = &r->res[m];
		if (bs_metrics[m].family != r->family ||
		    (bs_metrics[m].flags & BS_MF_NOVALUE))
			continue;
		bs_json_key(out, bs_metrics[m].key, first);
		first = 0;
		bs_buf_addc(out, '{');
		bs_json_key(out, "value", 1);
		bs_json_num(out, v->status == BS_ST_OK ? v->value : NAN);
		bs_json_key(out, "unit", 0);
		bs_json_str(out, bs_metrics[m].unit);
		bs_json_key(out, "cpu_pct", 0);
		bs_json_num(out, v->cpu_pct);
		bs_json_key(out, "latency_us", 0);
		bs_json_num(out, v->lat_us);
		bs_json_key(out, "status", 0);
		bs_json_str(out, bs_status_name(v->status));
		if (!isnan(v->lat_mean_us) || !isnan(v->lat_p50_us) ||
		    !isnan(v->lat_p99_us)) {
			bs_json_key(out, "latency_mean_us", 0);
			bs_json_num(out, v->lat_mean_us);
			bs_json_key(out, "latency_p50_us", 0);
			bs_json_num(out, v->lat_p50_us);
			bs_json_key(out, "latency_p99_us", 0);
			bs_json_num(out, v->lat_p99_us);
		}
		bs_buf_addc(out, '}');
	}
	bs_buf_addc(out, '}');
}

static void json_series(const struct bs_run *r, struct bs_buf *out)
{
	char ykey[32];
	size_t i, k;

	bs_buf_addc(out, '{');
	for (i = 0; i < r->nseries; i++) {
		const struct bs_series *s = &r->series[i];
		bs_run_json_unit_key(ykey, sizeof(ykey),
				     bs_metrics[s->metric].unit);
		bs_json_key(out, bs_metrics[s->metric].key, i == 0);
		bs_buf_addc(out, '[');
		for (k = 0; k < s->n; k++) {
			if (k)
				bs_buf_addc(out, ',');
			bs_buf_addc(out, '{');
			bs_json_key(out, s->axis, 1);
			bs_json_num(out, s->pt[k].x);
			bs_json_key(out, ykey, 0);
			bs_json_num(out, s->pt[k].y);
			bs_json_key(out, "seconds", 0);
			bs_json_num(out, s->pt[k].seconds);
			bs_buf_addc(out, '}');
		}
		bs_buf_addc(out, ']');
	}
	bs_buf_addc(out, '}');
}

static void json_text_or_null(struct bs_buf *out, const char *s)
{
	if (s == NULL)
		bs_buf_adds(out, "null");
	else
		bs_json_str(out, s);
}

/* What bstore set changed: [{"field", "old", "new", "changed_at"}]. */
static void json_history(const struct bs_run *r, struct bs_buf *out)
{
	size_t i;

	bs_buf_addc(out, '[');
	for (i = 0; i < r->nhistory; i++) {
		const struct bs_history *h = &r->history[i];

		if (i)
			bs_buf_addc(out, ',');
		bs_buf_addc(out, '{');
		bs_json_key(out, "field", 1);
		bs_json_str(out, h->field);
		bs_json_key(out, "old", 0);
		json_text_or_null(out, h->old_value);
		bs_json_key(out, "new", 0);
		json_text_or_null(out, h->new_value);
		bs_json_key(out, "changed_at", 0);
		json_time(out, h->changed_at);
		bs_buf_addc(out, '}');
	}
	bs_buf_addc(out, ']');
}

void bs_run_json(const struct bs_run *r, struct bs_buf *out)
{
	size_t t;

	bs_buf_addc(out, '{');
	bs_json_key(out, "id", 1);
	bs_json_i64(out, r->id);
	bs_json_key(out, "machine", 0);
	bs_json_str(out, r->machine ? r->machine : "");
	bs_json_key(out, "family", 0);
	bs_json_str(out, bs_family_name(r->family));
	bs_json_key(out, "tool", 0);
	bs_json_str(out, r->tool);
	bs_json_key(out, "tool_version", 0);
	bs_json_str(out, r->tool_version);
	bs_json_key(out, "format", 0);
	bs_json_str(out, r->format);
	bs_json_key(out, "measured_at", 0);
	json_time(out, r->measured_at);
	bs_json_key(out, "stored_at", 0);
	json_time(out, r->stored_at);
	bs_json_key(out, "source", 0);
	bs_json_str(out, r->source);
	bs_json_key(out, "source_line", 0);
	bs_json_i64(out, r->source_line);
	bs_json_key(out, "sha256", 0);
	bs_json_str(out, r->sha256);
	bs_json_key(out, "parser_version", 0);
	bs_json_str(out, r->parser_version);
	bs_json_key(out, "warning", 0);
	bs_json_str(out, r->warning);
	bs_json_key(out, "params", 0);
	json_params(r, out);
	/* Which of them the user supplied (core/supply.h), by key. */
	bs_json_key(out, "supplied", 0);
	json_supplied(r, out);
	bs_json_key(out, "tags", 0);
	bs_buf_addc(out, '{');
	for (t = 0; t < r->ntags; t++) {
		bs_json_key(out, r->tags[t].key, t == 0);
		bs_json_str(out, r->tags[t].value);
	}
	bs_buf_addc(out, '}');
	bs_json_key(out, "results", 0);
	json_results(r, out);
	if (r->nseries) {
		bs_json_key(out, "series", 0);
		json_series(r, out);
	}
	/* The export's runs carry what bstore set changed (filled by
	 * cmd_export), so that an ingest of it restores that too. */
	if (r->raw || r->nhistory) {
		bs_json_key(out, "history", 0);
		json_history(r, out);
	}
	/* The run's own text, so that an export ingested into another
	 * archive (ingest/bstore_json.c) keeps it and its digest. Only when
	 * the reader loaded it: `bstore list --json` does not. */
	if (r->raw) {
		bs_json_key(out, "raw", 0);
		bs_json_str(out, r->raw);
	}
	bs_buf_addc(out, '}');
}
