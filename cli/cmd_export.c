/* cli/cmd_export.c - `bstore export`: runs as bonnie++ CSV, JSON or CSV. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/bonnie_text.h"
#include "core/run_json.h"
#include "util/buf.h"
#include "util/csv.h"
#include "util/num.h"
#include "util/timefmt.h"
#include "util/banned.h"

static const char usage_text[] =
	"Usage: bstore export [--format bonnie|json|csv] [-o FILE] "
	"[SELECTOR...]\n"
	"\n"
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
	"          text that a spreadsheet would run as a formula gets a\n"
	"          leading '\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT  bonnie (default), json or csv\n"
	"  -o, --output FILE write to FILE (replaced only when complete)\n"
	"  -h, --help        this help\n";

enum fmt { FMT_BONNIE, FMT_JSON, FMT_CSV };

/* The CSV layout: the families the selected runs have. */
struct csv_cols {
	unsigned families;      /* bit per enum bs_family */
	unsigned char dup[BS_M_MAX]; /* key shared with another family */
};

struct export_ctx {
	enum fmt fmt;
	FILE *out;
	struct bs_buf b;
	struct csv_cols cols;
	int write_errno; /* why the output failed, when it did */
	unsigned left_out[BS_FAM_COUNT]; /* --format bonnie: runs of others */
};


static int family_of(const struct bs_run *r, void *vctx)
{
	struct csv_cols *cols = vctx;

	cols->families |= 1u << r->family;
	return 0;
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

static void metric_col(struct bs_buf *b, const struct csv_cols *c, int m,
		       const char *sfx)
{
	bs_buf_adds(b, ",");
	if (c->dup[m])
		bs_buf_addf(b, "%s.", bs_family_name(bs_metrics[m].family));
	bs_buf_addf(b, "%s%s", bs_metrics[m].key, sfx);
}

static void csv_header(struct bs_buf *b, const struct csv_cols *c)
{
	int k, m;

	/* family comes last, so that the columns of a bonnie++-only
	 * export are where schema 1's export put them. */
	bs_buf_adds(b, "id,machine,tool,tool_version,format,"
		       "measured_at,source,source_line,sha256");
	for (k = 0; k < bs_nparams; k++)
		if (has_family(c, bs_param_table[k].family))
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
	bs_buf_adds(b, ",tags,family\n");
}

static void csv_row(struct bs_buf *b, const struct csv_cols *c,
		    const struct bs_run *r)
{
	struct bs_buf t = BS_BUF_INIT;
	char iso[40];
	size_t i;
	int k, m;

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
	for (k = 0; k < bs_nparams; k++) {
		if (!has_family(c, bs_param_table[k].family))
			continue;
		bs_buf_reset(&t);
		if (bs_param_table[k].family == r->family)
			bs_param_format(&r->params, k, &t);
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
	bs_buf_reset(&t);
	for (i = 0; i < r->ntags; i++)
		bs_buf_addf(&t, "%s%s=%s", i ? ";" : "", r->tags[i].key,
			    r->tags[i].value);
	cell_text(b, bs_buf_str(&t));
	cell_text(b, bs_family_name(r->family));
	bs_buf_addc(b, '\n');
	bs_buf_release(&t);
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
		if (r->raw && r->raw[0]) {
			fputs(r->raw, c->out);
		} else {
			bs_buf_reset(&c->b);
			bs_bonnie_csv(r, BS_CSV_1_98, &c->b);
			fputs(bs_buf_str(&c->b), c->out);
		}
		fputc('\n', c->out);
		break;
	case FMT_JSON:
		bs_buf_reset(&c->b);
		bs_run_json(r, &c->b);
		fputs(bs_buf_str(&c->b), c->out);
		fputc('\n', c->out);
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

int cmd_export(struct bs_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct export_ctx ctx = {FMT_BONNIE, NULL, BS_BUF_INIT, {0, {0}}, 0,
				 {0}};
	struct bs_cli_out o = {NULL, NULL, NULL, 0};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	const char *path = NULL;
	int c, rc;

	opterr = 0; /* bs_cli_bad_option() says what is wrong */
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "bonnie") == 0)
				ctx.fmt = FMT_BONNIE;
			else if (strcmp(optarg, "json") == 0)
				ctx.fmt = FMT_JSON;
			else if (strcmp(optarg, "csv") == 0)
				ctx.fmt = FMT_CSV;
			else
				return bs_cli_usage_error(
					cli,
					"unknown format '%s' (bonnie, json or "
					"csv)",
					optarg);
			break;
		case 'o':
			path = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return BS_EXIT_OK;
		default:
			return bs_cli_bad_option(cli, argv, "f:o:h", opts);
		}
	}
	rc = bs_cli_open_select(cli, BS_STORE_READONLY, argv + optind, argc - optind,
				BS_SEL_ALL_IF_NONE, &st, &ids);
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
		/* The columns are those of the families the runs have. */
		if (bs_store_each(st, &ids, 0, family_of, &ctx.cols, &err) <
		    0) {
			bs_cli_perr(cli, &err);
			rc = BS_EXIT_FAIL;
			goto out;
		}
		mark_dups(&ctx.cols);
		bs_buf_reset(&ctx.b);
		csv_header(&ctx.b, &ctx.cols);
		fputs(bs_buf_str(&ctx.b), ctx.out);
	}
	if (bs_store_each(st, &ids, BS_LOAD_ALL, export_run, &ctx, &err) < 0) {
		/* Without err, the output failed: said below for -o FILE, by
		 * main() for standard output. */
		if (err.code)
			bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
	}
	if (rc == 0)
		warn_left_out(cli, &ctx);
	if (o.f) {
		int crc;

		o.write_errno = ctx.write_errno;
		crc = bs_cli_out_close(cli, &o, rc == 0);
		if (crc != 0)
			rc = crc;
	}
out:
	bs_buf_release(&ctx.b);
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
