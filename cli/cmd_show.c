/* cli/cmd_show.c - `bstore show`: one run in bonnie++'s table layout. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/msg.h"
#include "cli/select.h"
#include "core/supply.h"
#include "cli/opt.h"
#include "core/bonnie_text.h"
#include "core/zcav.h"
#include "util/buf.h"
#include "util/text.h"
#include "util/num.h"
#include "util/timefmt.h"
#include "util/banned.h"

static const struct bs_opt opts[] = {
	BS_OPT_END,
};

const struct bs_opt_cmd bs_cmd_show = {
	"show",
	cmd_show,
	"show one run in bonnie++'s table layout",
	"SELECTOR...",
	"Shows each selected run: where it came from, every parameter of its\n"
	"tool, for Bonnie and bonnie++ runs the result table in the layout of\n"
	"their era (Bonnie's, 1.03's K/sec columns for bonnie++ 1.0x, 1.97's\n"
	"with its Latency rows for 1.9x, 2.00a's otherwise, with the file\n"
	"tests' real numbers), each result with its status spelled out (in\n"
	"the unit every command shows it in, with the stored number when that\n"
	"unit differs), the lines where dd, fio or zcav printed a rate in\n"
	"their own units, a zcav run's curve as a table, the tags and the\n"
	"original line. Selectors as in 'bstore list --help'. A SELECTOR that\n"
	"matches nothing is named on stderr; when no run at all is selected,\n"
	"the exit status is 1.\n",
	opts,
	NULL,
	NULL,
	NULL,
	0,
	0,
};

/*
 * Text from the archive, for the terminal: every control character, tabs
 * and newlines too, as '?' (docs/formats.md, "Text: exact in exports,
 * cleaned on the terminal"), so that show's own newlines are the only
 * ones.
 */
static void add_text(struct bs_buf *b, const char *s)
{
	bs_text_clean(b, s, strlen(s), 0);
}

/* One parameter line: label, value and unit, from the parameter table. */
static void param_line(struct bs_buf *b, const struct bs_run *r, int k)
{
	size_t start;

	bs_buf_addf(b, "  %-22s ", bs_param_table[k].label);
	start = b->len;
	bs_param_describe(&r->params, k, b);
	bs_text_clean_inplace(b->data + start, 0);
	/* Not the tool's output: ingest --param or bstore set said it. */
	if (bs_supplied(r, k))
		bs_buf_adds(b, " (supplied)");
	bs_buf_addc(b, '\n');
}

/* The widest metric key of a family, for the list of tests. */
static int key_width(enum bs_family fam)
{
	int m, w = 11;

	for (m = 0; m < bs_nmetrics; m++)
		if (bs_metrics[m].family == fam &&
		    (int)strlen(bs_metrics[m].key) >= w)
			w = (int)strlen(bs_metrics[m].key) + 1;
	return w;
}

/* A stored number to two decimals, without trailing zeros: "84734",
 * "1002806.32". */
static const char *stored_num(char *out, size_t outsz, double v)
{
	size_t n;

	bs_fmt_double(out, outsz, v, 2);
	n = strlen(out);
	while (n > 0 && out[n - 1] == '0')
		out[--n] = '\0';
	if (n > 0 && out[n - 1] == '.')
		out[--n] = '\0';
	return out;
}

/* What a rounded print said, where show's whole units say more. */
static void printed_note(struct bs_buf *b, const struct bs_run *r, int m,
			 double v, double step, int comma)
{
	char cell[64], num[64];

	if (comma)
		bs_buf_adds(b, ", ");
	if (bs_dialect_print(r, m, v, cell, sizeof(cell)))
		bs_buf_addf(b, "printed %s", cell);
	else
		bs_buf_addf(b, "printed in steps of %s %s",
			    bs_metric_fmt(num, sizeof(num), m, step, 0),
			    bs_metric_unit(m, 0));
}

static void status_line(struct bs_buf *b, const struct bs_run *r, int m,
			int width)
{
	const struct bs_value *v = &r->res[m];
	char num[64], l1[32], l2[32], l3[32];
	/* A rounded print's step caps the digits (docs/report.md, "How a
	 * number is shown"); an exact print's digits are its own. */
	double step =
		bs_dialect_of(r)->rounded ? bs_dialect_step(r, m, v->value) : 0;

	bs_buf_addf(b, "  %-*s ", width, bs_metrics[m].key);
	switch (v->status) {
	case BS_ST_OK:
		bs_buf_addf(b, "ok        %10s %-8s",
			    bs_metric_fmt_step(num, sizeof(num), m, v->value, 0,
					       step),
			    bs_metric_unit(m, 0));
		break;
	case BS_ST_TOO_FAST:
		/* zcav's rule is its own: every block "++++", under 1 s. */
		if (r->family == BS_FAM_ZCAV)
			bs_buf_adds(b, "too fast  (every block ++++: timed "
				       "under the limit, no rate; use a bigger "
				       "-b, or bstore zcav --min-time)");
		else
			bs_buf_adds(b, "too fast  (+++++: under 0.5 s, no "
				       "rate; increase -s/-n)");
		break;
	case BS_ST_NOT_RUN:
		bs_buf_adds(b, bs_absent_word(r, m));
		break;
	}
	if (!isnan(v->cpu_pct))
		bs_buf_addf(b, "  CPU %3s%%",
			    bs_bonnie_fmt_cpu(num, sizeof(num), v->cpu_pct));
	if (!isnan(v->lat_us))
		bs_buf_addf(b, "  max latency %s",
			    bs_bonnie_fmt_latency(num, sizeof(num), v->lat_us));
	if (!isnan(v->lat_p99_us))
		bs_buf_addf(b, " (mean %s, p50 %s, p99 %s)",
			    bs_bonnie_fmt_latency(l1, sizeof(l1),
						  v->lat_mean_us),
			    bs_bonnie_fmt_latency(l2, sizeof(l2),
						  v->lat_p50_us),
			    bs_bonnie_fmt_latency(l3, sizeof(l3),
						  v->lat_p99_us));
	/* Last, so that the CPU column stays a column: the stored number,
	 * as exports give it, when people see another unit. */
	if (v->status == BS_ST_OK &&
	    strcmp(bs_metric_unit(m, 0), bs_metrics[m].unit) != 0)
		bs_buf_addf(b, "  (stored %s %s",
			    stored_num(num, sizeof(num), v->value),
			    bs_metrics[m].unit);
	else
		bs_buf_adds(b, "  (");
	/* Whole units still claim more than a step past one unit: quote
	 * the cell (1.8g is 1843 MiB/s give or take 51). */
	if (v->status == BS_ST_OK && bs_metric_scale(m, 0, step) > 1 + 1e-9)
		printed_note(b, r, m, v->value, step,
			     b->data[b->len - 1] != '(');
	if (b->data[b->len - 1] == '(')
		bs_buf_trim(b, 3);
	else
		bs_buf_addc(b, ')');
	bs_buf_addc(b, '\n');
}

/* One of the tool's own lines, indented and cleaned. */
static void tool_line(const char *line, size_t len, void *ctx)
{
	struct bs_buf *b = ctx;

	bs_buf_adds(b, "  ");
	bs_text_clean(b, line, len, BS_TEXT_TAB);
	bs_buf_addc(b, '\n');
}

/* Where the tool printed a rate in units of its own: its lines, under
 * what its units are (bs_run_tool_lines). */
static void tool_line_text(struct bs_buf *b, const struct bs_run *r)
{
	const char *what = bs_run_tool_units(r);
	size_t at = b->len;

	if (what == NULL)
		return;
	bs_buf_addf(b, "As %s printed it (%s):\n", r->tool, what);
	if (bs_run_tool_lines(r, tool_line, b) == 0)
		bs_buf_trim(b, b->len - at);
}

/* The widest bar of a curve's table. */
#define CURVE_BAR 40
/* At most this many rows: a longer curve is shown in equal slices,
 * each its mean. */
#define CURVE_ROWS 24

/*
 * A zcav curve as a compact table: position, rate and a bar scaled to
 * the fastest row, the rows "++++" where every block was too fast.
 */
static void curve_table(struct bs_buf *b, const struct bs_run *r,
			const struct bs_series *s)
{
	double top = 0;
	size_t rows = s->n < CURVE_ROWS ? s->n : CURVE_ROWS, i, k;
	char num[64];
	enum bs_zcav_medium on = bs_zcav_on_device(r);

	for (i = 0; i < s->n; i++)
		if (!isnan(s->pt[i].y) && s->pt[i].y > top)
			top = s->pt[i].y;
	bs_buf_addf(b, "Curve of %s, %s by %s (GiB)%s:\n",
		    bs_metrics[s->metric].key, bs_metric_unit(s->metric, 0),
		    bs_zcav_axis(on == BS_ZCAV_DEVICE, on == BS_ZCAV_FILE),
		    rows < s->n ? ", each row the mean of its blocks" : "");
	for (k = 0; k < rows; k++) {
		size_t lo = k * s->n / rows, hi = (k + 1) * s->n / rows, ok = 0;
		double sum = 0, v;
		int w;

		for (i = lo; i < hi; i++)
			if (!isnan(s->pt[i].y)) {
				sum += s->pt[i].y;
				ok++;
			}
		bs_buf_addf(b, "  %8.2f ", s->pt[lo].x);
		if (ok == 0) {
			bs_buf_addf(b, "%10s\n", "++++");
			continue;
		}
		v = sum / (double)ok;
		bs_buf_addf(b, "%10s ",
			    bs_metric_fmt(num, sizeof(num), s->metric, v, 0));
		w = top > 0 ? (int)floor(v / top * CURVE_BAR + 0.5) : 0;
		while (w-- > 0)
			bs_buf_addc(b, '#');
		bs_buf_addc(b, '\n');
	}
}

static void series_lines(struct bs_buf *b, const struct bs_run *r)
{
	char x0[64], x1[64];
	size_t i;

	if (r->nseries == 0)
		return;
	bs_buf_adds(b, "Series:\n");
	for (i = 0; i < r->nseries; i++) {
		const struct bs_series *s = &r->series[i];
		bs_buf_addf(b, "  %s: %zu point%s", bs_metrics[s->metric].key,
			    s->n, s->n == 1 ? "" : "s");
		if (s->n > 0) {
			bs_buf_adds(b, ", ");
			add_text(b, s->axis);
			bs_buf_addf(b, " %s to %s",
				    bs_fmt_g(x0, sizeof(x0), s->pt[0].x),
				    bs_fmt_g(x1, sizeof(x1),
					     s->pt[s->n - 1].x));
		}
		bs_buf_addc(b, '\n');
	}
	for (i = 0; i < r->nseries; i++)
		if (r->family == BS_FAM_ZCAV && r->series[i].n > 0)
			curve_table(b, r, &r->series[i]);
}

struct show_ctx {
	struct bs_buf b;
	struct bs_store *st;
	struct bs_err *err;
	int nchanges;
};

/* A history value: the name, or the date, or "unknown". */
static void change_value(struct bs_buf *b, const struct bs_change *c,
			 const char *text, int64_t when)
{
	char t[48];

	if (c->field && c->field->is_date)
		bs_buf_adds(b, when == BS_NONE
				       ? "unknown"
				       : bs_time_iso(t, sizeof(t), when));
	else if (c->field == NULL)
		add_text(b, text[0] ? text : "unknown");
	else if (text[0] == '\0')
		bs_buf_adds(b, BS_STORE_NO_MACHINE);
	else {
		bs_buf_addc(b, '\'');
		add_text(b, text);
		bs_buf_addc(b, '\'');
	}
}

/* "  2026-12-01T14:00:00Z  machine: unknown machine -> 'db1'" */
static int change_line(const struct bs_change *c, void *vctx)
{
	struct show_ctx *x = vctx;
	char t[48];

	if (x->nchanges++ == 0)
		bs_buf_adds(&x->b, "History (bstore set):\n");
	bs_buf_addf(&x->b,
		    "  %s  %s: ", bs_time_iso(t, sizeof(t), c->changed_at),
		    c->field ? c->field->key : c->param);
	change_value(&x->b, c, c->old_text, c->old_when);
	bs_buf_adds(&x->b, " -> ");
	change_value(&x->b, c, c->new_text, c->new_when);
	bs_buf_addc(&x->b, '\n');
	return 0;
}

static int show_run(const struct bs_run *r, void *vctx)
{
	struct show_ctx *x = vctx;
	struct bs_buf *b = &x->b;
	struct bs_buf name = BS_BUF_INIT;
	struct bs_run shown;
	char t[48];
	size_t i;
	int m, k, width = key_width(r->family);

	bs_buf_reset(b);
	add_text(&name, r->machine ? r->machine : "");
	bs_buf_addf(b, "Run %lld: ", (long long)r->id);
	add_text(b, bs_store_machine_name(bs_buf_str(&name)));
	bs_buf_adds(b, ", ");
	add_text(b, r->tool);
	bs_buf_addc(b, ' ');
	add_text(b, r->tool_version ? r->tool_version : "?");
	bs_buf_adds(b, " (");
	add_text(b, r->format);
	bs_buf_addf(b, ")\n  %-22s ", "source");
	add_text(b, r->source);
	if (r->source_line != BS_NONE)
		bs_buf_addf(b, ":%lld", (long long)r->source_line);
	bs_buf_addf(b, "\n  %-22s %s%s\n", "measured at",
		    r->measured_at == BS_NONE
			    ? "unknown"
			    : bs_time_iso(t, sizeof(t), r->measured_at),
		    bs_run_date_guessed(r) ? " (ingested: the input had no "
					     "date)"
					   : "");
	bs_buf_addf(b, "  %-22s %s\n", "stored at",
		    bs_time_iso(t, sizeof(t), r->stored_at));
	bs_buf_addf(b, "  %-22s ", "sha256");
	add_text(b, r->sha256);
	bs_buf_addf(b, "\n  %-22s ", "parser");
	add_text(b, r->parser_version);
	bs_buf_addc(b, '\n');
	if (r->warning) {
		bs_buf_addf(b, "  %-22s ", "warning");
		add_text(b, r->warning);
		bs_buf_addc(b, '\n');
	}
	bs_buf_adds(b, "Parameters:\n");
	for (k = 0; k < bs_nparams; k++)
		if (bs_param_table[k].family == r->family)
			param_line(b, r, k);
	if (bs_dialect_of(r)->table != BS_TABLE_NONE) {
		/* The table prints the machine name: the cleaned one. */
		shown = *r;
		shown.machine = name.data;
		bs_buf_addc(b, '\n');
		bs_bonnie_table(&shown, bs_dialect_of(r)->table, b);
	}
	bs_buf_adds(b, "\nTests:\n");
	for (m = 0; m < bs_nmetrics; m++)
		if (bs_metrics[m].family == r->family &&
		    !(bs_metrics[m].flags & BS_MF_NOVALUE))
			status_line(b, r, m, width);
	tool_line_text(b, r);
	series_lines(b, r);
	if (r->ntags) {
		bs_buf_adds(b, "Tags:\n");
		for (i = 0; i < r->ntags; i++) {
			bs_buf_adds(b, "  ");
			add_text(b, r->tags[i].key);
			bs_buf_addc(b, '=');
			add_text(b, r->tags[i].value);
			bs_buf_addc(b, '\n');
		}
	}
	x->nchanges = 0;
	if (bs_store_each_change(x->st, r->id, change_line, x, x->err) < 0) {
		bs_buf_release(&name);
		return -1;
	}
	/* The text it was read from: one line, or a block (a table, a
	 * sysbench summary, a fio document), each line indented. */
	{
		const char *raw = r->raw ? r->raw : "";
		const char *nl = strchr(raw, '\n');

		bs_buf_adds(b, nl ? "Original text:\n" : "Original line:\n");
		for (;;) {
			size_t n = nl ? (size_t)(nl - raw) : strlen(raw);

			bs_buf_adds(b, "  ");
			bs_text_clean(b, raw, n, BS_TEXT_TAB);
			bs_buf_addc(b, '\n');
			if (nl == NULL)
				break;
			raw = nl + 1;
			nl = strchr(raw, '\n');
		}
	}
	bs_buf_release(&name);
	/* Whatever a core writer printed: still no control character but
	 * the newlines of show's layout and the tabs of the original text
	 * (sysbench and dd lines pasted with tabs keep them). */
	bs_text_put(stdout, bs_buf_str(b), BS_TEXT_NEWLINE | BS_TEXT_TAB);
	/* A closed or full output: stop; main() says why. */
	return ferror(stdout) ? -BS_EIO : 0;
}

int cmd_show(struct bs_cli *cli, int argc, char **argv)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	struct show_ctx x = {BS_BUF_INIT, NULL, NULL, 0};
	int rc;

	if (bs_opt_parse(cli, &bs_cmd_show, argc, argv, NULL, NULL, &rc) ==
	    BS_OPT_EXIT)
		return rc;
	if (optind >= argc)
		return bs_cli_usage_error(cli, "which run? give an id or "
					       "SELECTOR");
	rc = bs_cli_open_select(cli, BS_STORE_READONLY, argv + optind,
				argc - optind, BS_SEL_NEED_MATCH, &st, &ids);
	if (rc != 0)
		goto out;
	x.st = st;
	x.err = &err;
	if (bs_store_each(st, &ids, BS_LOAD_ALL, show_run, &x, &err) < 0) {
		if (err.code)
			bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
	}
out:
	bs_buf_release(&x.b);
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
