/* cli/cmd_rm.c - `bstore rm`: delete runs. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/buf.h"
#include "util/text.h"
#include "util/timefmt.h"
#include "util/banned.h"

static const char usage_text[] =
	"Usage: bstore rm [--dry-run] SELECTOR...\n"
	"\n"
	"Deletes the selected runs with their tags (e.g. 'bstore rm 12-15',\n"
	"'bstore rm machine=old-box', 'bstore rm \"date<2010\"'). 'all' must be\n"
	"given explicitly. Selectors as in 'bstore list --help'. A SELECTOR\n"
	"that matches nothing is named on stderr; when no run at all is\n"
	"selected, nothing is deleted and the exit status is 1.\n"
	"\n"
	"Options:\n"
	"  -n, --dry-run  delete nothing: list the runs that would be deleted\n"
	"                 (id, day measured, machine)\n"
	"  -h, --help     this help\n";

/* One line a run that --dry-run would delete: as list starts its own. */
static int print_run(const struct bs_run *r, void *vctx)
{
	struct bs_buf *line = vctx;
	char day[32];

	if (r->measured_at == BS_NONE)
		snprintf(day, sizeof(day), "-");
	else
		bs_time_iso(day, sizeof(day), r->measured_at);
	day[10] = '\0';
	bs_buf_reset(line);
	bs_buf_addf(line, "%5lld  %-10s  %s", (long long)r->id, day,
		    r->machine && r->machine[0] ? r->machine : "(none)");
	bs_text_put(stdout, bs_buf_str(line), 0);
	fputc('\n', stdout);
	return ferror(stdout) ? -BS_EIO : 0;
}

int cmd_rm(struct bs_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"dry-run", no_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf line = BS_BUF_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	int c, rc, dry = 0, n = 0;

	opterr = 0; /* bs_cli_bad_option() says what is wrong */
	while ((c = getopt_long(argc, argv, "nh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			dry = 1;
			break;
		case 'h':
			bs_cli_help(stdout, usage_text);
			return BS_EXIT_OK;
		default:
			return bs_cli_bad_option(cli, argv, "nh", opts);
		}
	}
	if (optind >= argc)
		return bs_cli_usage_error(cli, "which runs? give a SELECTOR");
	rc = bs_cli_open_select(cli, BS_STORE_EXISTING, argv + optind, argc - optind,
				BS_SEL_NEED_MATCH | (dry ? 0 : BS_SEL_WRITE),
				&st, &ids);
	if (rc != 0)
		goto out;
	if (!dry) {
		if ((n = bs_store_rm(st, &ids, &err)) < 0 ||
		    bs_store_commit(st, &err) < 0) {
			bs_cli_perr(cli, &err);
			rc = BS_EXIT_FAIL;
			goto out;
		}
	} else {
		n = (int)ids.n;
	}
	if (!cli->quiet)
		printf("%s %d run%s%s\n", dry ? "would remove" : "removed", n,
		       n == 1 ? "" : "s", dry ? ":" : "");
	/* The list is what --dry-run is for: -q keeps it. */
	if (dry && bs_store_each(st, &ids, 0, print_run, &line, &err) < 0) {
		if (err.code)
			bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
	}
out:
	bs_buf_release(&line);
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
