/* cli/cmd_list.c - `bstore list`: one line per stored run. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/archive.h"
#include "cli/msg.h"
#include "cli/select.h"
#include "cli/opt.h"
#include "core/bonnie_text.h"
#include "core/run_json.h"
#include "util/buf.h"
#include "util/text.h"
#include "util/timefmt.h"
#include "util/banned.h"

struct list_ctx {
	int json;
	int long_tags; /* --long: host.* tags too */
	int rejects;   /* --rejects */
	int count;     /* --count */
	struct bs_buf line;
};

static const struct bs_opt opts[] = {
	{'l', "long", NULL, 0, bs_opt_flag,
	 offsetof(struct list_ctx, long_tags),
	 "with the host's facts (host.* tags) and bstore's bookkeeping tags "
	 "(measured_at.tz, zcav.target, ...)",
	 NULL, 0, 0, 0},
	{0, "json", NULL, 0, bs_opt_flag, offsetof(struct list_ctx, json),
	 "one JSON object per run per line (as export --format json; every "
	 "tag)",
	 NULL, 0, 0, 0},
	{0, "rejects", NULL, 0, bs_opt_flag, offsetof(struct list_ctx, rejects),
	 "the input lines ingest could not parse, kept verbatim: SOURCE:LINE: "
	 "reason, then the line",
	 NULL, 0, 0, 0},
	{'c', "count", NULL, 0, bs_opt_flag, offsetof(struct list_ctx, count),
	 "print only how many runs the selectors select", NULL, 0, 0, 0},
	BS_OPT_END,
};

const struct bs_opt_cmd bs_cmd_list = {
	"list",
	cmd_list,
	"list stored runs, one line each",
	"[OPTIONS] [SELECTOR...]\n--rejects",
	"Lists stored runs (all when no SELECTOR is given), oldest first:\n"
	"id, the day it was measured ('-': unknown; '*' after it: the day\n"
	"bstore read it from a pipe, the output having no date), machine,\n"
	"tool and version, file size, the write and read rates (bonnie++'s\n"
	"block tests; sysbench's, fio's, zcav's, dd's and getc_putc's own)\n"
	"and bonnie++'s random seeks (in MiB/s and seeks/s, as every\n"
	"command shows them), and tags\n"
	"(a value with a space, a comma or a quote in \"...\", where \\\" is a\n"
	"quote and \\\\ a backslash); the host's facts (host.* tags) only with\n"
	"--long. '+++++' marks a test that ran too fast to time, '-' one that\n"
	"did not run.\n"
	"\n"
	"@SELECTORS@\n"
	"\n"
	"A SELECTOR that matches nothing is named on stderr; the list is then\n"
	"what the others match, and the exit status stays 0.\n",
	opts,
	NULL,
	NULL,
	NULL,
	0,
	0,
};

/* A key or value as list shows it: in "..." when it would not read as
 * one word of a key=value list (empty, or with a blank, a comma or a
 * quote), '"' and '\\' then escaped with a '\\'. */
static void add_word(struct bs_buf *b, const char *s)
{
	if (s[0] != '\0' && strpbrk(s, " \t,\"'\\") == NULL) {
		bs_buf_adds(b, s);
		return;
	}
	bs_buf_addc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			bs_buf_addc(b, '\\');
		bs_buf_addc(b, *s);
	}
	bs_buf_addc(b, '"');
}

/* A test's cell, as every command shows it (bs_metric_fmt: the WRITE
 * and READ rates in MiB/s, seeks/s); m < 0: blank. */
static void rate_cell(const struct bs_run *r, int m, char *out, size_t outsz)
{
	const struct bs_value *v;

	if (m < 0 || bs_metrics[m].family != r->family) {
		snprintf(out, outsz, " ");
		return;
	}
	v = &r->res[m];
	if (v->status == BS_ST_TOO_FAST)
		snprintf(out, outsz, "+++++");
	else if (v->status != BS_ST_OK)
		snprintf(out, outsz, "-");
	else
		bs_metric_fmt(out, outsz, m, v->value, 0);
}

/* The catalogue row of the run's WRITE (which 0) or READ (1) column: its
 * family row's sequential write and read rates. */
static int rw_metric(const struct bs_run *r, int which)
{
	const struct bs_family_info *row;

	if (!bs_family_ok(r->family))
		return -1;
	row = bs_family(r->family);
	if ((which ? row->list_read : row->list_write) == NULL)
		return -1;
	return bs_metric_find(r->family,
			      which ? row->list_read : row->list_write);
}

static int print_run(const struct bs_run *r, void *vctx)
{
	struct list_ctx *c = vctx;
	char tool[48], size[48], wr[24], rd[24], sk[24], day[32];
	size_t i;
	int ntags = 0;

	bs_buf_reset(&c->line);
	if (c->json) {
		bs_run_json(r, &c->line);
		puts(bs_buf_str(&c->line));
		return ferror(stdout) ? -BS_EIO : 0;
	}
	snprintf(tool, sizeof(tool), "%s %s", r->tool,
		 r->tool_version ? r->tool_version : "?");
	bs_bonnie_fmt_size(size, sizeof(size), r->params.file_size_mib);
	rate_cell(r, rw_metric(r, 0), wr, sizeof(wr));
	rate_cell(r, rw_metric(r, 1), rd, sizeof(rd));
	rate_cell(r, r->family == BS_FAM_BONNIE ? BS_M_SEEKS : -1, sk,
		  sizeof(sk));
	/* The day of YYYY-MM-DDTHH:MM:SSZ, in UTC as everywhere. */
	if (r->measured_at == BS_NONE)
		snprintf(day, sizeof(day), "-");
	else
		bs_time_iso(day, sizeof(day), r->measured_at);
	day[10] = '\0';
	/* The names as columns of the terminal: cut between characters,
	 * padded by what they show, not by their bytes. */
	/* '*': a day bstore gave, the input having none (read from a
	 * pipe: docs/ingest.md); in the column's gap, so that it stays. */
	bs_buf_addf(&c->line, "%5lld  %-10s%s", (long long)r->id, day,
		    bs_run_date_guessed(r) ? "* " : "  ");
	bs_text_cell(&c->line, bs_store_machine_name(r->machine), 16);
	bs_buf_addc(&c->line, ' ');
	bs_text_cell(&c->line, tool, 18);
	bs_buf_addf(&c->line, " %6s %11s %11s %8s", size[0] ? size : "-", wr,
		    rd, sk);
	for (i = 0; i < r->ntags; i++) {
		/* Host facts and bstore's bookkeeping: with --long. */
		if (!c->long_tags &&
		    (strncmp(r->tags[i].key, "host.", 5) == 0 ||
		     bs_tag_bookkeeping(r->tags[i].key)))
			continue;
		bs_buf_adds(&c->line, ntags++ ? " " : "  ");
		add_word(&c->line, r->tags[i].key);
		bs_buf_addc(&c->line, '=');
		add_word(&c->line, r->tags[i].value);
	}
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
		    r->reason,
		    r->truncated ? " (line kept cut to 64 KiB)" : "");
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
	struct list_ctx ctx = {.line = BS_BUF_INIT};
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	int rc;

	if (bs_opt_parse(cli, &bs_cmd_list, argc, argv, &ctx, NULL, &rc) ==
	    BS_OPT_EXIT)
		return rc;
	if (ctx.rejects &&
	    (ctx.json || ctx.long_tags || ctx.count || optind < argc))
		return bs_cli_usage_error(cli, "--rejects takes no SELECTOR, "
					       "no --json, --long or --count");
	rc = bs_cli_open_store(cli, BS_STORE_READONLY, &st);
	if (rc != 0)
		return rc;
	if (ctx.rejects) {
		if (bs_store_each_reject(st, print_reject, &ctx, &err) < 0) {
			/* err is empty when the output failed: main() says
			 * so. */
			if (err.code)
				bs_cli_perr(cli, &err);
			rc = BS_EXIT_FAIL;
		}
		goto out;
	}
	/* An empty list is an answer: a selector that matches nothing is
	 * named on stderr, and the status stays 0 (docs/formats.md). */
	rc = bs_cli_select(cli, st, argv + optind, argc - optind,
			   BS_SEL_ALL_IF_NONE, &ids);
	if (rc != 0)
		goto out;
	if (ctx.count) {
		printf("%zu\n", ids.n);
		goto out;
	}
	if (!ctx.json && ids.n > 0)
		printf("%5s  %-10s  %-16s %-18s %6s %11s %11s %8s  %s\n", "ID",
		       "DATE", "MACHINE", "TOOL", "SIZE", "WRITE MiB/s",
		       "READ MiB/s", "SEEKS", "TAGS");
	if (bs_store_each(st, &ids, BS_LOAD_TAGS, print_run, &ctx, &err) < 0) {
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
