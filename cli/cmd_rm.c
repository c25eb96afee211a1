/* cli/cmd_rm.c - `bstore rm`: delete runs. */
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"
#include "util/banned.h"

static const char usage_text[] =
	"Usage: bstore rm SELECTOR...\n"
	"\n"
	"Deletes the selected runs with their tags (e.g. 'bstore rm 12-15',\n"
	"'bstore rm machine=old-box'). 'all' must be given explicitly.\n"
	"\n"
	"Options:\n"
	"  -n, --dry-run  say what would be deleted\n"
	"  -h, --help     this help\n";

int cmd_rm(struct bs_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{"dry-run", no_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct bs_err err = BS_ERR_INIT;
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
			fputs(usage_text, stdout);
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
		printf("%s %d run%s\n", dry ? "would remove" : "removed", n,
		       n == 1 ? "" : "s");
out:
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
