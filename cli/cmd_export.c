/* cli/cmd_export.c - `bstore export`: runs as bonnie++ CSV, JSON or CSV. */
#include <csv.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/bench.h"
#include "core/runtext.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/banned.h"

static const char usage_text[] =
	"Usage: bstore export [--format bonnie|json|csv] [-o FILE] "
	"[SELECTOR...]\n"
	"\n"
	"Writes the selected runs (all when no SELECTOR is given), oldest\n"
	"first:\n"
	"  bonnie  each run as a bonnie++ CSV line: the original line, byte\n"
	"          for byte, for ingested runs (so bon_csv2html and other\n"
	"          tools read it as before)\n"
	"  json    one JSON object per run per line (docs/formats.md)\n"
	"  csv     a header and one row per run: parameters, and for each test\n"
	"          its value, status, CPU % and latency in microseconds; text\n"
	"          that a spreadsheet would run as a formula gets a leading '\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT  bonnie (default), json or csv\n"
	"  -o, --output FILE write to FILE (replaced only when complete)\n"
	"  -h, --help        this help\n";

enum fmt { FMT_BONNIE, FMT_JSON, FMT_CSV };

struct export_ctx {
	enum fmt fmt;
	FILE *out;
	struct bs_buf b;
	int write_errno; /* why the output failed, when it did */
};

/* Text cells: quoted by libcsv; a leading = + - @ is neutralised. */
static void csv_text(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	if (s == NULL)
		return;
	if (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' ||
	    s[0] == '\t' || s[0] == '\r') {
		struct bs_buf t = BS_BUF_INIT;
		bs_buf_addc(&t, '\'');
		bs_buf_adds(&t, s);
		csv_fwrite(f, t.data, t.len);
		bs_buf_release(&t);
		return;
	}
	csv_fwrite(f, s, strlen(s));
}

static void csv_i64(FILE *f, int64_t v)
{
	fputc(',', f);
	if (v != BS_NONE)
		fprintf(f, "%lld", (long long)v);
}

static void csv_num(FILE *f, double v)
{
	char tmp[40];

	fputc(',', f);
	if (!isnan(v))
		fputs(bs_fmt_g(tmp, sizeof(tmp), v), f);
}

static const char *const csv_params[] = {
	"file_size_mib", "io_chunk_bytes", "seeks",      "seek_procs",
	"per_char_mib",  "num_files",      "max_size",   "min_size",
	"num_dirs",      "file_chunk_bytes", "concurrency",
};

static void csv_header(FILE *f)
{
	size_t i;
	int m;

	fputs("id,machine,tool,tool_version,format,measured_at,source,"
	      "source_line,sha256",
	      f);
	for (i = 0; i < sizeof(csv_params) / sizeof(csv_params[0]); i++)
		fprintf(f, ",%s", csv_params[i]);
	fputs(",seed", f);
	for (m = 0; m < BS_M_COUNT; m++) {
		const char *k = bs_metrics[m].key;
		fprintf(f, ",%s,%s_status,%s_cpu,%s_latency_us", k, k, k, k);
	}
	fputs(",tags\n", f);
}

static void csv_row(FILE *f, const struct bs_run *r, struct bs_buf *b)
{
	const struct bs_params *p = &r->params;
	char iso[40];
	int64_t vals[11];
	size_t i;
	int m;

	fprintf(f, "%lld", (long long)r->id);
	csv_text(f, r->machine, 0);
	csv_text(f, r->tool, 0);
	csv_text(f, r->tool_version, 0);
	csv_text(f, r->format, 0);
	csv_text(f, r->measured_at == BS_NONE
			    ? NULL
			    : bs_time_iso(iso, sizeof(iso), r->measured_at),
		 0);
	csv_text(f, r->source, 0);
	csv_i64(f, r->source_line);
	csv_text(f, r->sha256, 0);
	vals[0] = p->file_size_mib;
	vals[1] = p->io_chunk_bytes;
	vals[2] = p->seeks;
	vals[3] = p->seek_procs;
	vals[4] = p->per_char_mib;
	vals[5] = p->num_files;
	vals[6] = p->max_size;
	vals[7] = p->min_size;
	vals[8] = p->num_dirs;
	vals[9] = p->file_chunk_bytes;
	vals[10] = p->concurrency;
	for (i = 0; i < 11; i++) {
		if ((i == 6 || i == 7) && vals[i] == BS_SIZE_LINK)
			csv_text(f, "link", 0);
		else if ((i == 6 || i == 7) && vals[i] == BS_SIZE_SYMLINK)
			csv_text(f, "symlink", 0);
		else
			csv_i64(f, vals[i]);
	}
	csv_text(f, p->seed, 0);
	for (m = 0; m < BS_M_COUNT; m++) {
		const struct bs_value *v = &r->res[m];
		csv_num(f, v->status == BS_ST_OK ? v->value : NAN);
		csv_text(f, bs_status_name(v->status), 0);
		csv_num(f, v->cpu_pct);
		csv_num(f, v->lat_us);
	}
	bs_buf_reset(b);
	for (i = 0; i < r->ntags; i++)
		bs_buf_addf(b, "%s%s=%s", i ? ";" : "", r->tags[i].key,
			    r->tags[i].value);
	csv_text(f, bs_buf_str(b), 0);
	fputc('\n', f);
}

static int export_run(const struct bs_run *r, void *vctx)
{
	struct export_ctx *c = vctx;

	switch (c->fmt) {
	case FMT_BONNIE:
		if (r->raw && r->raw[0]) {
			fputs(r->raw, c->out);
		} else {
			bs_buf_reset(&c->b);
			bs_bench_csv(r, BS_CSV_1_98, &c->b);
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
		csv_row(c->out, r, &c->b);
		break;
	}
	if (ferror(c->out)) {
		c->write_errno = errno;
		return -BS_EIO;
	}
	return 0;
}

/* Whether path names the archive itself (opening it "w" would empty it). */
static int is_archive(struct bs_store *st, const char *path)
{
	struct stat a, b;

	return stat(path, &a) == 0 && stat(bs_store_path(st), &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int cmd_export(struct bs_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct export_ctx ctx = {FMT_BONNIE, NULL, BS_BUF_INIT, 0};
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
		if (is_archive(st, path)) {
			bs_cli_error(cli,
				     "'%s' is the archive; not writing over it",
				     path);
			rc = BS_EXIT_FAIL;
			goto out;
		}
		rc = bs_cli_out_open(cli, path, &o);
		if (rc != 0)
			goto out;
		ctx.out = o.f;
	}
	if (ctx.fmt == FMT_CSV)
		csv_header(ctx.out);
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
out:
	bs_buf_release(&ctx.b);
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
