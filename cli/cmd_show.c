/* cli/cmd_show.c - `bstore show`: one run in bonnie++'s table layout. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/runtext.h"
#include "util/buf.h"
#include "util/banned.h"

static const char usage_text[] =
	"Usage: bstore show SELECTOR...\n"
	"\n"
	"Shows each selected run: where it came from, every parameter, the\n"
	"result table in bonnie++'s layout (bonnie++ 1.03's K/sec columns for\n"
	"1.0x runs, 2.00a's otherwise, with the file tests' real numbers),\n"
	"each test's status spelled out, the tags and the original line.\n"
	"\n"
	"Options:\n"
	"  -h, --help  this help\n";

static void param(struct bs_buf *b, const char *label, int64_t v,
		  const char *unit)
{
	bs_buf_addf(b, "  %-22s ", label);
	if (v == BS_NONE)
		bs_buf_adds(b, "unknown\n");
	else
		bs_buf_addf(b, "%lld%s%s\n", (long long)v, unit[0] ? " " : "",
			    unit);
}

static void size_param(struct bs_buf *b, const char *label, int64_t v)
{
	if (v == BS_SIZE_LINK)
		bs_buf_addf(b, "  %-22s link (hard links)\n", label);
	else if (v == BS_SIZE_SYMLINK)
		bs_buf_addf(b, "  %-22s symlink (symbolic links)\n", label);
	else
		param(b, label, v, "bytes");
}

static void status_line(struct bs_buf *b, const struct bs_run *r, int m)
{
	const struct bs_value *v = &r->res[m];
	char num[64];

	bs_buf_addf(b, "  %-11s ", bs_metrics[m].key);
	switch (v->status) {
	case BS_ST_OK:
		snprintf(num, sizeof(num),
			 m == BS_M_SEEKS && v->value < 1000 ? "%.1f" : "%.0f",
			 v->value);
		bs_buf_addf(b, "ok        %10s %-8s", num, bs_metrics[m].unit);
		break;
	case BS_ST_TOO_FAST:
		bs_buf_adds(b, "too fast  (+++++: under 0.5 s, no rate; "
			       "increase -s/-n)");
		break;
	case BS_ST_NOT_RUN:
		bs_buf_adds(b, "not run");
		break;
	}
	if (!isnan(v->cpu_pct))
		bs_buf_addf(b, "  CPU %3.0f%%", v->cpu_pct);
	if (!isnan(v->lat_us))
		bs_buf_addf(b, "  max latency %.0f us", v->lat_us);
	if (!isnan(v->lat_p99_us))
		bs_buf_addf(b, " (mean %.0f, p50 %.0f, p99 %.0f)",
			    v->lat_mean_us, v->lat_p50_us, v->lat_p99_us);
	bs_buf_addc(b, '\n');
}

static int show_run(const struct bs_run *r, void *vctx)
{
	struct bs_buf *b = vctx;
	const struct bs_params *p = &r->params;
	char t[48];
	size_t i;
	int m;

	bs_buf_reset(b);
	bs_buf_addf(b, "Run %lld: %s, %s %s (%s)\n", (long long)r->id,
		    r->machine && r->machine[0] ? r->machine : "(no name)",
		    r->tool, r->tool_version ? r->tool_version : "?",
		    r->format);
	bs_buf_addf(b, "  %-22s %s", "source", r->source);
	if (r->source_line != BS_NONE)
		bs_buf_addf(b, ":%lld", (long long)r->source_line);
	bs_buf_addf(b, "\n  %-22s %s\n", "measured at",
		    r->measured_at == BS_NONE
			    ? "unknown"
			    : bs_time_iso(t, sizeof(t), r->measured_at));
	bs_buf_addf(b, "  %-22s %s\n", "stored at",
		    bs_time_iso(t, sizeof(t), r->stored_at));
	bs_buf_addf(b, "  %-22s %s\n", "sha256", r->sha256);
	bs_buf_addf(b, "  %-22s %s\n", "parser", r->parser_version);
	if (r->warning)
		bs_buf_addf(b, "  %-22s %s\n", "warning", r->warning);
	bs_buf_adds(b, "Parameters:\n");
	param(b, "file size", p->file_size_mib, "MiB");
	param(b, "I/O chunk", p->io_chunk_bytes, "bytes");
	param(b, "seeks", p->seeks, "");
	param(b, "seek processes", p->seek_procs, "");
	param(b, "per-char size", p->per_char_mib, "MiB");
	param(b, "files (x1024)", p->num_files, "");
	size_param(b, "max file size", p->max_size);
	size_param(b, "min file size", p->min_size);
	param(b, "directories", p->num_dirs, "");
	param(b, "file chunk", p->file_chunk_bytes, "bytes");
	param(b, "concurrency (-c)", p->concurrency, "");
	bs_buf_addf(b, "  %-22s %s\n", "seed", p->seed ? p->seed : "unknown");
	bs_buf_addc(b, '\n');
	bs_table_text(r, bs_table_style_for(r), b);
	bs_buf_adds(b, "\nTests:\n");
	for (m = 0; m < BS_M_COUNT; m++)
		status_line(b, r, m);
	if (r->ntags) {
		bs_buf_adds(b, "Tags:\n");
		for (i = 0; i < r->ntags; i++)
			bs_buf_addf(b, "  %s=%s\n", r->tags[i].key,
				    r->tags[i].value);
	}
	bs_buf_addf(b, "Original line:\n  %s\n", r->raw ? r->raw : "");
	bs_cli_puts_clean(stdout, bs_buf_str(b));
	/* A closed or full output: stop; main() says why. */
	return ferror(stdout) ? -BS_EIO : 0;
}

int cmd_show(struct bs_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	struct bs_buf b = BS_BUF_INIT;
	int c, rc;

	opterr = 0; /* bs_cli_bad_option() says what is wrong */
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			return BS_EXIT_OK;
		default:
			return bs_cli_bad_option(cli, argv, "h", opts);
		}
	}
	if (optind >= argc)
		return bs_cli_usage_error(cli, "which run? give an id or "
					       "SELECTOR");
	rc = bs_cli_open_select(cli, BS_STORE_READONLY, argv + optind, argc - optind,
				BS_SEL_NEED_MATCH, &st, &ids);
	if (rc != 0)
		goto out;
	if (bs_store_each(st, &ids, BS_LOAD_ALL, show_run, &b, &err) < 0) {
		if (err.code)
			bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
	}
out:
	bs_buf_release(&b);
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
