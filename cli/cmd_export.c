/* cli/cmd_export.c - `bstore export`: runs as bonnie++ CSV, JSON or CSV. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/msg.h"
#include "cli/out.h"
#include "cli/report_io.h"
#include "cli/select.h"
#include "cli/opt.h"
#include "core/supply.h"
#include "core/bonnie_text.h"
#include "core/run_json.h"
#include "util/buf.h"
#include "util/csv.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/timefmt.h"
#include "util/banned.h"

enum fmt { FMT_BONNIE, FMT_JSON, FMT_CSV };

/* The CSV layout: the families the selected runs have, their tag keys. */
struct csv_cols {
	unsigned families;           /* bit per enum bs_family */
	unsigned char dup[BS_M_MAX]; /* key shared with another family */
	int wide;                    /* --wide: a column per tag key */
	int long_rows;               /* --long: a row per run and metric */
	char **tag_keys;             /* --wide: every key, sorted, owned */
	size_t ntag_keys, tag_keys_cap;
};

struct export_ctx {
	enum fmt fmt;
	FILE *out;
	struct bs_buf b;
	struct csv_cols cols;
	int convert;             /* --csv-format given */
	enum bs_csv_format csv;  /* its layout */
	unsigned lossy;          /* runs the layout could not hold whole */
	unsigned lossy_mask;     /* what they lost, bs_bonnie_csv_drops() */
	struct bs_buf lossy_ids; /* the first few, "12, 14" */
	int write_errno;         /* why the output failed, when it did */
	unsigned left_out[BS_FAM_MAX]; /* --format bonnie: runs of others */
	unsigned era[2];   /* --format bonnie: lines in 1.0x's layout, others */
	const char *path;  /* -o */
	const char *given; /* -f's word, or NULL */
	struct bs_store *st; /* --format json: each run's history */
	struct bs_err *err;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* First pass over the runs: their families, and for --wide their tag keys. */
static int scan_run(const struct bs_run *r, void *vctx)
{
	struct csv_cols *cols = vctx;
	size_t i, k;

	cols->families |= 1u << r->family;
	for (i = 0; cols->wide && i < r->ntags; i++) {
		for (k = 0; k < cols->ntag_keys; k++)
			if (strcmp(cols->tag_keys[k], r->tags[i].key) == 0)
				break;
		if (k < cols->ntag_keys)
			continue;
		xgrow((void **)&cols->tag_keys, &cols->tag_keys_cap,
		      cols->ntag_keys + 1, sizeof(char *));
		cols->tag_keys[cols->ntag_keys++] = xstrdup(r->tags[i].key);
	}
	return 0;
}

static void csv_cols_release(struct csv_cols *c)
{
	size_t k;

	for (k = 0; k < c->ntag_keys; k++)
		free(c->tag_keys[k]);
	free(c->tag_keys);
	c->tag_keys = NULL;
	c->ntag_keys = c->tag_keys_cap = 0;
}

static int has_family(const struct csv_cols *c, enum bs_family f)
{
	return (c->families >> f) & 1;
}

/*
 * A metric key that two families present share is written FAMILY.KEY,
 * except bonnie++'s: its columns keep their names whatever else is
 * exported ("putc", and getc_putc's "getc_putc.putc").
 */
static void mark_dups(struct csv_cols *c)
{
	int m, k;

	for (m = 0; m < bs_nmetrics; m++)
		for (k = 0; k < bs_nmetrics; k++)
			if (k != m && bs_metrics[m].family != BS_FAM_BONNIE &&
			    has_family(c, bs_metrics[m].family) &&
			    has_family(c, bs_metrics[k].family) &&
			    strcmp(bs_metrics[m].key, bs_metrics[k].key) == 0)
				c->dup[m] = 1;
}

static void cell_text(struct bs_buf *b, const char *s)
{
	bs_buf_addc(b, ',');
	if (s)
		bs_csv_cell(b, s, strlen(s));
}

static void cell_num(struct bs_buf *b, double v)
{
	char tmp[40];

	bs_buf_addc(b, ',');
	if (!isnan(v))
		bs_buf_adds(b, bs_fmt_g(tmp, sizeof(tmp), v));
}

/* A parameter's column is its runs column where it has one (the seek
 * count is seek_count: "seeks" is the seek test's rate), else its key. */
static const char *param_col(int k)
{
	return bs_param_table[k].column ? bs_param_table[k].column
					: bs_param_table[k].key;
}

/* Whether row k is a column: the first row of its key among the
 * families the export holds (families share "direct": one column). */
static int param_column(const struct csv_cols *c, int k)
{
	int j;

	if (!has_family(c, bs_param_table[k].family))
		return 0;
	for (j = 0; j < k; j++)
		if (has_family(c, bs_param_table[j].family) &&
		    strcmp(bs_param_table[j].key, bs_param_table[k].key) == 0)
			return 0;
	return 1;
}

static void metric_col(struct bs_buf *b, const struct csv_cols *c, int m,
		       const char *sfx)
{
	bs_buf_adds(b, ",");
	if (c->dup[m])
		bs_buf_addf(b, "%s.", bs_family_name(bs_metrics[m].family));
	bs_buf_addf(b, "%s%s", bs_metrics[m].key, sfx);
}

/* The run's identity: the first columns of every CSV layout. */
static void id_header(struct bs_buf *b)
{
	bs_buf_adds(b, "id,machine,tool,tool_version,format,"
		       "measured_at,source,source_line,sha256");
}

static void id_cells(struct bs_buf *b, const struct bs_run *r)
{
	char iso[40];

	bs_buf_addf(b, "%lld", (long long)r->id);
	cell_text(b, r->machine);
	cell_text(b, r->tool);
	cell_text(b, r->tool_version);
	cell_text(b, r->format);
	cell_text(b, r->measured_at == BS_NONE
			     ? NULL
			     : bs_time_iso(iso, sizeof(iso), r->measured_at));
	cell_text(b, r->source);
	bs_buf_addc(b, ',');
	if (r->source_line != BS_NONE)
		bs_buf_addf(b, "%lld", (long long)r->source_line);
	cell_text(b, r->sha256);
}

/*
 * The tags, then the family: the last columns of every CSV layout. The
 * tags are one column (k=v;k=v) or, with --wide, a column per key,
 * "tag.KEY": no other column starts with "tag." (the others are fixed
 * words, and FAMILY.KEY for no family named "tag"), and the prefix also
 * keeps a key that starts with '-' or '@' from reading as a formula.
 */
static void tail_header(struct bs_buf *b, const struct csv_cols *c)
{
	struct bs_buf t = BS_BUF_INIT;
	size_t k;

	if (!c->wide)
		bs_buf_adds(b, ",tags");
	for (k = 0; c->wide && k < c->ntag_keys; k++) {
		bs_buf_reset(&t);
		bs_buf_addf(&t, "tag.%s", c->tag_keys[k]);
		cell_text(b, bs_buf_str(&t));
	}
	bs_buf_adds(b, ",supplied,family\n");
	bs_buf_release(&t);
}

static const char *tag_value(const struct bs_run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->ntags; i++)
		if (strcmp(r->tags[i].key, key) == 0)
			return r->tags[i].value;
	return NULL;
}

static void tail_cells(struct bs_buf *b, const struct csv_cols *c,
		       const struct bs_run *r)
{
	struct bs_buf t = BS_BUF_INIT;
	size_t i;

	if (c->wide) {
		for (i = 0; i < c->ntag_keys; i++)
			cell_text(b, tag_value(r, c->tag_keys[i]));
	} else {
		for (i = 0; i < r->ntags; i++)
			bs_buf_addf(&t, "%s%s=%s", i ? ";" : "", r->tags[i].key,
				    r->tags[i].value);
		cell_text(b, bs_buf_str(&t));
	}
	/* The parameters the user supplied (core/supply.h), by key. */
	bs_buf_reset(&t);
	bs_supplied_keys(r, &t);
	cell_text(b, t.len ? bs_buf_str(&t) : NULL);
	cell_text(b, bs_family_name(r->family));
	bs_buf_addc(b, '\n');
	bs_buf_release(&t);
}

static void csv_header(struct bs_buf *b, const struct csv_cols *c)
{
	int k, m;

	id_header(b);
	if (c->long_rows) {
		bs_buf_adds(b, ",metric,value,unit,status,cpu_pct,latency_us");
		tail_header(b, c);
		return;
	}
	/* family comes last, so that the columns of a bonnie++-only
	 * export are where schema 1's export put them. */
	for (k = 0; k < bs_nparams; k++)
		if (param_column(c, k))
			bs_buf_addf(b, ",%s", param_col(k));
	for (m = 0; m < bs_nmetrics; m++) {
		if (!has_family(c, bs_metrics[m].family))
			continue;
		metric_col(b, c, m, "");
		metric_col(b, c, m, "_status");
		if (bs_metrics[m].flags & BS_MF_CPU_LAT) {
			metric_col(b, c, m, "_cpu");
			metric_col(b, c, m, "_latency_us");
		}
	}
	tail_header(b, c);
}

/* --long: a row per metric of the run's family, its status and all. */
static void csv_long_rows(struct bs_buf *b, const struct csv_cols *c,
			  const struct bs_run *r)
{
	struct bs_buf id = BS_BUF_INIT, tail = BS_BUF_INIT;
	int m, first, end;

	id_cells(&id, r);
	tail_cells(&tail, c, r);
	bs_metric_rows(r->family, &first, &end);
	for (m = first; m < end; m++) {
		const struct bs_value *v = &r->res[m];
		int cl = (bs_metrics[m].flags & BS_MF_CPU_LAT) != 0;

		bs_buf_adds(b, bs_buf_str(&id));
		cell_text(b, bs_metrics[m].key);
		cell_num(b, v->status == BS_ST_OK ? v->value : NAN);
		cell_text(b, bs_metrics[m].unit);
		cell_text(b, bs_status_name(v->status));
		cell_num(b, cl ? v->cpu_pct : NAN);
		cell_num(b, cl ? v->lat_us : NAN);
		bs_buf_adds(b, bs_buf_str(&tail));
	}
	bs_buf_release(&id);
	bs_buf_release(&tail);
}

static void csv_row(struct bs_buf *b, const struct csv_cols *c,
		    const struct bs_run *r)
{
	struct bs_buf t = BS_BUF_INIT;
	int k, m;

	if (c->long_rows) {
		csv_long_rows(b, c, r);
		return;
	}
	id_cells(b, r);
	for (k = 0; k < bs_nparams; k++) {
		int own;

		if (!param_column(c, k))
			continue;
		own = bs_param_find_in(r->family, bs_param_table[k].key);
		bs_buf_reset(&t);
		if (own >= 0)
			bs_param_format(&r->params, own, &t);
		/* Numbers are written as they are; text is a guarded cell. */
		if (bs_param_table[k].kind == BS_PK_TEXT ||
		    bs_param_table[k].kind == BS_PK_FSIZE)
			cell_text(b, t.len ? bs_buf_str(&t) : NULL);
		else
			bs_buf_addf(b, ",%s", bs_buf_str(&t));
	}
	for (m = 0; m < bs_nmetrics; m++) {
		const struct bs_value *v = &r->res[m];
		int mine = bs_metrics[m].family == r->family;
		if (!has_family(c, bs_metrics[m].family))
			continue;
		cell_num(b, mine && v->status == BS_ST_OK ? v->value : NAN);
		cell_text(b, mine ? bs_status_name(v->status) : NULL);
		if (bs_metrics[m].flags & BS_MF_CPU_LAT) {
			cell_num(b, mine ? v->cpu_pct : NAN);
			cell_num(b, mine ? v->lat_us : NAN);
		}
	}
	tail_cells(b, c, r);
	bs_buf_release(&t);
}

/* --csv-format: counts a run the layout cannot hold whole, naming the
 * first few for the warning. */
static void note_lossy(struct export_ctx *c, const struct bs_run *r)
{
	unsigned mask = bs_bonnie_csv_drops(r, c->csv);

	if (mask == 0)
		return;
	c->lossy_mask |= mask;
	if (c->lossy < 5)
		bs_buf_addf(&c->lossy_ids, "%s%lld", c->lossy ? ", " : "",
			    (long long)r->id);
	else if (c->lossy == 5)
		bs_buf_adds(&c->lossy_ids, ", ...");
	c->lossy++;
}

/* --csv-format: says which runs lost what. */
static void warn_lossy(const struct bs_cli *cli, const struct export_ctx *c)
{
	struct bs_buf what = BS_BUF_INIT;

	if (c->lossy == 0)
		return;
	bs_bonnie_csv_drops_names(c->lossy_mask, &what);
	bs_cli_warn(cli,
		    "%u run%s (%s) lost what the %s layout has no field for "
		    "(%s): --csv-format 1.98 keeps it",
		    c->lossy, c->lossy == 1 ? "" : "s",
		    bs_buf_str(&c->lossy_ids), bs_csv_format_name(c->csv),
		    bs_buf_str(&what));
	bs_buf_release(&what);
}

/* A change as the JSON export carries it (core/run_json.h): text, a
 * date field's ISO 8601, NULL for an unknown date. */
static int history_row(const struct bs_change *c, void *vrun)
{
	struct bs_run *w = vrun;
	char was[40], now[40];
	int date = c->field && c->field->is_date;

	bs_run_history_add(w, c->field ? c->field->key : c->param,
			   !date ? c->old_text
			   : c->old_when == BS_NONE
				   ? NULL
				   : bs_time_iso(was, sizeof(was), c->old_when),
			   !date ? c->new_text
			   : c->new_when == BS_NONE
				   ? NULL
				   : bs_time_iso(now, sizeof(now), c->new_when),
			   c->changed_at);
	return 0;
}

/* --format json: r with what bstore set changed in it, so that an ingest
 * of the export restores the run whole. */
static int json_run(struct export_ctx *c, const struct bs_run *r)
{
	struct bs_run w = *r;
	int rc;

	w.history = NULL;
	w.nhistory = w.history_cap = 0;
	rc = bs_store_each_change(c->st, r->id, history_row, &w, c->err);
	if (rc == 0) {
		bs_buf_reset(&c->b);
		bs_run_json(&w, &c->b);
		fputs(bs_buf_str(&c->b), c->out);
		fputc('\n', c->out);
	}
	bs_run_history_release(&w);
	return rc;
}

static int export_run(const struct bs_run *r, void *vctx)
{
	struct export_ctx *c = vctx;

	switch (c->fmt) {
	case FMT_BONNIE:
		/* Another tool's output is no bonnie++ line. */
		if (r->family != BS_FAM_BONNIE) {
			c->left_out[r->family]++;
			return 0;
		}
		/* The original line, unless --csv-format asks for another
		 * layout than its own; a run read from a table (bonnie++'s
		 * text, Bonnie's) has no line: one is written. */
		if (r->raw && r->raw[0] && bs_format_is_csv_line(r->format) &&
		    (!c->convert ||
		     bs_csv_format_is_input(c->csv, r->format))) {
			c->era[bs_dialect_of(r)->csv != BS_LAYOUT_1_0X]++;
			fputs(r->raw, c->out);
		} else {
			/* Written from the stored values: a conversion, or a
			 * run with no line of its own. */
			if (c->convert)
				note_lossy(c, r);
			bs_buf_reset(&c->b);
			bs_bonnie_csv(r, c->convert ? c->csv : BS_CSV_1_98,
				      &c->b);
			c->era[!c->convert || c->csv != BS_CSV_1_03]++;
			fputs(bs_buf_str(&c->b), c->out);
		}
		fputc('\n', c->out);
		break;
	case FMT_JSON:
		if (json_run(c, r) < 0)
			return -1;
		break;
	case FMT_CSV:
		bs_buf_reset(&c->b);
		csv_row(&c->b, &c->cols, r);
		fputs(bs_buf_str(&c->b), c->out);
		break;
	}
	if (ferror(c->out)) {
		c->write_errno = errno;
		return -BS_EIO;
	}
	return 0;
}

/* --format bonnie: says which runs were left out, "sysbench: 2, fio: 1". */
static void warn_left_out(const struct bs_cli *cli, const struct export_ctx *c)
{
	struct bs_buf b = BS_BUF_INIT;
	unsigned n = 0;
	int f;

	for (f = 0; f < BS_FAM_COUNT; f++) {
		if (c->left_out[f] == 0)
			continue;
		bs_buf_addf(&b, "%s%s: %u", n ? ", " : "", bs_family_name(f),
			    c->left_out[f]);
		n += c->left_out[f];
	}
	if (n)
		bs_cli_warn(cli,
			    "%u run%s of other tools than bonnie++ left out "
			    "(%s): --format json or csv exports them",
			    n, n == 1 ? "" : "s", bs_buf_str(&b));
	bs_buf_release(&b);
}

/*
 * --format bonnie: bonnie++ 1.0x's lines (27 fields) and the later ones
 * (1.9x to 2.00a) are read by different bon_csv2html: 2.00a's says
 * "Can't process" to every 1.0x line, 1.03's cannot read the others. A
 * file that mixes them is read whole by neither: say so, and how to
 * write one layout.
 */
static void warn_eras(const struct bs_cli *cli, const struct export_ctx *c)
{
	if (c->era[0] == 0 || c->era[1] == 0)
		return;
	bs_cli_warn(cli,
		    "%u line%s in bonnie++ 1.0x's layout and %u in that of "
		    "1.9x and later: "
		    "no bon_csv2html reads both (2.00a's says \"Can't "
		    "process\" to 1.0x lines); --csv-format 1.98 writes "
		    "every run in the layout 2.00a's reads",
		    c->era[0], c->era[0] == 1 ? " is" : "s are", c->era[1]);
}

/* Options that belong to one format: refused with another. */
static int check_combination(const struct bs_cli *cli,
			     const struct export_ctx *c, const char *fmt_name)
{
	if (c->convert && c->fmt != FMT_BONNIE)
		return bs_cli_usage_error(
			cli, "--csv-format goes with --format bonnie, not %s",
			fmt_name);
	if (c->cols.wide && c->fmt != FMT_CSV)
		return bs_cli_usage_error(
			cli, "--wide goes with --format csv, not %s", fmt_name);
	if (c->cols.long_rows && c->fmt != FMT_CSV)
		return bs_cli_usage_error(
			cli, "--long goes with --format csv, not %s", fmt_name);
	return 0;
}

static int set_format(const struct bs_cli *cli, const struct bs_opt *o,
		      const char *arg, void *field)
{
	struct export_ctx *c = field;
	char q[BS_CLI_QUOTE_SIZE];

	(void)o;
	if (strcmp(arg, "bonnie") == 0)
		c->fmt = FMT_BONNIE;
	else if (strcmp(arg, "json") == 0)
		c->fmt = FMT_JSON;
	else if (strcmp(arg, "csv") == 0)
		c->fmt = FMT_CSV;
	else
		return bs_cli_usage_error(
			cli, "unknown format '%s' (bonnie, json or csv)",
			bs_cli_quote(q, arg));
	c->given = arg;
	return 0;
}

static int set_csv_format(const struct bs_cli *cli, const struct bs_opt *o,
			  const char *arg, void *field)
{
	struct export_ctx *c = field;
	struct bs_err err = BS_ERR_INIT;

	(void)o;
	if (bs_csv_format_parse(arg, &c->csv, &err) < 0)
		return bs_cli_usage_error(cli, "--csv-format: %s", err.msg);
	c->convert = 1;
	return 0;
}

static const struct bs_opt opts[] = {
	{'f', "format", "FMT", 0, set_format, 0,
	 "bonnie, json or csv; without it, -o FILE's extension says: .json, "
	 ".jsonl and .ndjson json, .csv csv (the spreadsheet layout: "
	 "bonnie++'s own lines need -f bonnie); another extension is refused, "
	 "none is bonnie. Given, -f wins over the extension (with a warning "
	 "when they disagree)",
	 "bonnie", 0, 0, 0},
	{0, "csv-format", "1.98|1.03", 0, set_csv_format, 0,
	 "with --format bonnie: every run in that layout, 1.0x runs included, "
	 "written from its stored values (a line in that layout already is "
	 "given as it is); 1.98 is what bonnie++ 2.00a's bon_csv2html and "
	 "bon_csv2txt read; 1.03 (bonnie++ 1.0x) has no field for latencies, "
	 "seed, concurrency or the seek count, and a warning says which runs "
	 "lose them. Without it, a warning says when the lines mix 1.0x's "
	 "layout with later ones, which no bon_csv2html reads together",
	 NULL, 0, 0, 0},
	{0, "wide", NULL, 0, bs_opt_flag,
	 offsetof(struct export_ctx, cols.wide),
	 "with --format csv: a column per tag key, tag.KEY (tag.raid, "
	 "tag.host.kernel; empty for a run without it), instead of the one "
	 "tags column (k=v;k=v)",
	 NULL, 0, 0, 0},
	{0, "long", NULL, 0, bs_opt_flag,
	 offsetof(struct export_ctx, cols.long_rows),
	 "with --format csv: one row per run and metric of its tool: the "
	 "run's identity, then metric, value, unit, status, cpu_pct, "
	 "latency_us, then its tags (a column per key with --wide) and "
	 "family; no parameters (the other layouts have them)",
	 NULL, 0, 0, 0},
	{'o', "output", "FILE", 0, bs_opt_str,
	 offsetof(struct export_ctx, path),
	 "write to FILE (replaced only when complete)", NULL, 0, 0, 0},
	BS_OPT_END,
};

const struct bs_opt_cmd bs_cmd_export = {
	"export",
	cmd_export,
	"write runs as bonnie++ CSV, JSON or CSV",
	"[--format bonnie|json|csv] [-o FILE] [SELECTOR...]\n"
	"-f bonnie --csv-format 1.98|1.03 [-o FILE] [SELECTOR...]\n"
	"-f csv [--wide] [--long] [-o FILE] [SELECTOR...]",
	"Writes the selected runs (all when no SELECTOR is given), oldest\n"
	"first:\n"
	"  bonnie  each bonnie++ run as a bonnie++ CSV line: the original\n"
	"          line, byte for byte, for ingested runs (so bon_csv2html\n"
	"          and other tools read it as before); other tools' runs are\n"
	"          left out, with a warning\n"
	"  json    one JSON object per run per line (docs/formats.md)\n"
	"  csv     a header and one row per run: its identity, the parameters\n"
	"          and results of the tools the selected runs come from (each\n"
	"          result's value and status, and for bonnie++'s tests CPU %\n"
	"          and latency in microseconds), its tags and its family;\n"
	"          every column name is unique: parameters are named as in\n"
	"          JSON, results by their metric key, and the seek count,\n"
	"          whose key is also the seek test's, is seek_count;\n"
	"          text that a spreadsheet would run as a formula gets a\n"
	"          leading '\n",
	opts,
	NULL,
	"bstore export --format bonnie --csv-format 1.98 | bon_csv2html > "
	"all.html\n"
	"bstore export --format csv --wide > runs.csv",
	NULL,
	0,
	0,
};

int cmd_export(struct bs_cli *cli, int argc, char **argv)
{
	struct export_ctx ctx;
	struct bs_cli_out o = {NULL, NULL, NULL, 0};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	static const char *const words[] = {"bonnie", "json", "csv", NULL};
	const char *path = NULL, *fmt_name = "bonnie (the default)";
	const char *given = NULL, *w;
	int rc;

	memset(&ctx, 0, sizeof(ctx));
	ctx.fmt = FMT_BONNIE;
	ctx.b = (struct bs_buf)BS_BUF_INIT;
	ctx.lossy_ids = (struct bs_buf)BS_BUF_INIT;
	if (bs_opt_parse(cli, &bs_cmd_export, argc, argv, &ctx, NULL, &rc) ==
	    BS_OPT_EXIT)
		goto out;
	path = ctx.path;
	given = ctx.given;
	if (given)
		fmt_name = given;
	/* -o all.json writes JSON: the name's format unless -f says. */
	rc = bs_cli_out_format(cli, path, words, given, &w);
	if (rc != 0)
		return rc;
	if (w && !given) {
		ctx.fmt = strcmp(w, "json") == 0 ? FMT_JSON : FMT_CSV;
		fmt_name = w;
	}
	rc = check_combination(cli, &ctx, fmt_name);
	if (rc != 0)
		return rc;
	rc = bs_cli_open_select(cli, BS_STORE_READONLY, argv + optind,
				argc - optind, BS_SEL_ALL_IF_NONE, &st, &ids);
	if (rc != 0)
		goto out;
	ctx.out = stdout;
	if (path && strcmp(path, "-") != 0) {
		rc = bs_cli_out_open(cli, path, &o);
		if (rc != 0)
			goto out;
		ctx.out = o.f;
	}
	if (ctx.fmt == FMT_CSV) {
		/* The columns are those of the families the runs have (and
		 * with --wide, of their tag keys, sorted). */
		if (bs_store_each(st, &ids, ctx.cols.wide ? BS_LOAD_TAGS : 0,
				  scan_run, &ctx.cols, &err) < 0) {
			bs_cli_perr(cli, &err);
			rc = BS_EXIT_FAIL;
			goto out;
		}
		if (ctx.cols.ntag_keys > 1)
			qsort(ctx.cols.tag_keys, ctx.cols.ntag_keys,
			      sizeof(char *), cmp_str);
		mark_dups(&ctx.cols);
		bs_buf_reset(&ctx.b);
		csv_header(&ctx.b, &ctx.cols);
		fputs(bs_buf_str(&ctx.b), ctx.out);
	}
	ctx.st = st;
	ctx.err = &err;
	if (bs_store_each(st, &ids, BS_LOAD_ALL, export_run, &ctx, &err) < 0) {
		/* Without err, the output failed: said below for -o FILE, by
		 * main() for standard output. */
		if (err.code)
			bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
	}
	if (o.f) {
		int crc;

		o.write_errno = ctx.write_errno;
		crc = bs_cli_out_close(cli, &o, rc == 0);
		if (crc != 0)
			rc = crc;
	}
	/* What the output lacks, once it is written. */
	if (rc == 0) {
		warn_left_out(cli, &ctx);
		warn_lossy(cli, &ctx);
		warn_eras(cli, &ctx);
	}
out:
	bs_buf_release(&ctx.b);
	bs_buf_release(&ctx.lossy_ids);
	csv_cols_release(&ctx.cols);
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
