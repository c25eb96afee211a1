/* cli/cmd_list.c - `bstore list`: one line per stored run. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/bonnie_text.h"
#include "core/run_json.h"
#include "util/buf.h"
#include "util/text.h"
#include "util/banned.h"

static const char usage_text[] =
	"Usage: bstore list [--json] [SELECTOR...]\n"
	"       bstore list --rejects\n"
	"\n"
	"Lists stored runs (all when no SELECTOR is given), oldest first:\n"
	"id, machine, tool and version, file size, block write, block read\n"
	"and random seeks (bonnie++ 2.00a's units: k/m/g = KiB/MiB/GiB per\n"
	"second), and tags. '+++++' marks a test that ran too fast to time,\n"
	"'-' one that did not run.\n"
	"\n"
	"Selectors: 12, 12-15, last, last:N, all, or key=value on\n"
	"@FIELDS@ or a tag (raid=5);\n"
	"join terms with ',' to require all of them (machine=jump,raid=10);\n"
	"write a ',' in a value as '\\,' (host.mount=rw\\,relatime).\n"
	"\n"
	"Options:\n"
	"  --json      one JSON object per run per line (as export --format\n"
	"              json)\n"
	"  --rejects   the input lines ingest could not parse, kept verbatim:\n"
	"              SOURCE:LINE: reason, then the line\n"
	"  -h, --help  this help\n";

struct list_ctx {
	int json;
	struct bs_buf line;
};

/* A test's cell: block rates in bonnie++ 2.00a's k/m/g, seeks as show's
 * test list prints them ("575", "7510.9"). */
static void rate_cell(const struct bs_run *r, int m, char *out, size_t outsz)
{
	const struct bs_value *v = &r->res[m];

	if (r->family != BS_FAM_BONNIE)
		snprintf(out, outsz, " ");
	else if (v->status == BS_ST_TOO_FAST)
		snprintf(out, outsz, "+++++");
	else if (v->status != BS_ST_OK)
		snprintf(out, outsz, "-");
	else if (bs_metrics[m].flags & BS_MF_KIB)
		bs_bonnie_fmt_kib(out, outsz, v->value);
	else
		bs_value_fmt(out, outsz, m, v->value);
}

static int print_run(const struct bs_run *r, void *vctx)
{
	struct list_ctx *c = vctx;
	char tool[48], size[48], wr[24], rd[24], sk[24];
	size_t i;

	bs_buf_reset(&c->line);
	if (c->json) {
		bs_run_json(r, &c->line);
		puts(bs_buf_str(&c->line));
		return ferror(stdout) ? -BS_EIO : 0;
	}
	snprintf(tool, sizeof(tool), "%s %s", r->tool,
		 r->tool_version ? r->tool_version : "?");
	bs_bonnie_fmt_size(size, sizeof(size), r->params.file_size_mib);
	rate_cell(r, BS_M_PUT_BLOCK, wr, sizeof(wr));
	rate_cell(r, BS_M_GET_BLOCK, rd, sizeof(rd));
	rate_cell(r, BS_M_SEEKS, sk, sizeof(sk));
	bs_buf_addf(&c->line, "%5lld  %-16.16s %-18.18s %6s %8s %8s %8s",
		    (long long)r->id,
		    r->machine && r->machine[0] ? r->machine : "(none)", tool,
		    size[0] ? size : "-", wr, rd, sk);
	for (i = 0; i < r->ntags; i++)
		bs_buf_addf(&c->line, "%s%s=%s", i ? " " : "  ", r->tags[i].key,
			    r->tags[i].value);
	/* One line per run, whatever the archive holds: on the terminal
	 * every control character, tabs too, is '?' (docs/formats.md). */
	bs_text_put(stdout, bs_buf_str(&c->line), 0);
	fputc('\n', stdout);
	/* A closed or full output: stop reading runs; main() says why. */
	return ferror(stdout) ? -BS_EIO : 0;
}

static int print_reject(const struct bs_reject *r, void *vctx)
{
	struct list_ctx *c = vctx;

	bs_buf_reset(&c->line);
	bs_buf_addf(&c->line, "%s:%lld: %s%s", r->source, (long long)r->line,
		    r->reason, r->truncated ? " (line kept cut to 64 KiB)" : "");
	bs_text_put(stdout, bs_buf_str(&c->line), 0);
	fputs("\n    ", stdout);
	/* A rejected line may be megabytes of anything: show its start. */
	bs_buf_reset(&c->line);
	bs_buf_add(&c->line, r->raw, strnlen(r->raw, 200));
	if (strlen(r->raw) > 200)
		bs_buf_adds(&c->line, "...");
	bs_text_put(stdout, bs_buf_str(&c->line), 0);
	fputc('\n', stdout);
	return ferror(stdout) ? -BS_EIO : 0;
}

int cmd_list(struct bs_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"rejects", no_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct list_ctx ctx = {0, BS_BUF_INIT};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	int c, rc, rejects = 0;

	opterr = 0; /* bs_cli_bad_option() says what is wrong */
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			ctx.json = 1;
			break;
		case 'r':
			rejects = 1;
			break;
		case 'h':
			bs_cli_help(stdout, usage_text);
			return BS_EXIT_OK;
		default:
			return bs_cli_bad_option(cli, argv, "h", opts);
		}
	}
	if (rejects && (ctx.json || optind < argc))
		return bs_cli_usage_error(cli, "--rejects takes no SELECTOR "
					       "and no --json");
	rc = bs_cli_open_store(cli, BS_STORE_READONLY, &st);
	if (rc != 0)
		return rc;
	if (rejects) {
		if (bs_store_each_reject(st, print_reject, &ctx, &err) < 0) {
			/* err is empty when the output failed: main() says
			 * so. */
			if (err.code)
				bs_cli_perr(cli, &err);
			rc = BS_EXIT_FAIL;
		}
		goto out;
	}
	rc = bs_cli_select(cli, st, argv + optind, argc - optind, 1, &ids);
	if (rc != 0)
		goto out;
	if (!ctx.json && ids.n > 0)
		printf("%5s  %-16s %-18s %6s %8s %8s %8s  %s\n", "ID",
		       "MACHINE", "TOOL", "SIZE", "BLK-WR", "BLK-RD", "SEEKS",
		       "TAGS");
	if (bs_store_each(st, &ids, BS_LOAD_TAGS, print_run, &ctx, &err) <
	    0) {
		if (err.code)
			bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
	}
out:
	bs_buf_release(&ctx.line);
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
