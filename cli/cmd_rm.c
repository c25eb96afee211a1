/* cli/cmd_rm.c - `bstore rm`: delete runs. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/msg.h"
#include "cli/select.h"
#include "cli/opt.h"
#include "util/buf.h"
#include "util/text.h"
#include "util/timefmt.h"
#include "util/banned.h"

struct rm_args {
	int dry; /* --dry-run */
};

static const struct bs_opt opts[] = {
	{'n', "dry-run", NULL, 0, bs_opt_flag, offsetof(struct rm_args, dry),
	 "delete nothing: list the runs that would be deleted (id, day "
	 "measured, machine)",
	 NULL, 0, 0, 0},
	BS_OPT_END,
};

const struct bs_opt_cmd bs_cmd_rm = {
	"rm",
	cmd_rm,
	"delete runs from the archive",
	"[--dry-run] SELECTOR...",
	"Deletes the selected runs with their tags (e.g. 'bstore rm 12-15',\n"
	"'bstore rm machine=old-box', 'bstore rm \"date<2010\"'). 'all' must be\n"
	"given explicitly. Selectors as in 'bstore list --help'. A SELECTOR\n"
	"that matches nothing is named on stderr; when no run at all is\n"
	"selected, nothing is deleted and the exit status is 1.\n",
	opts,
	NULL,
	NULL,
	NULL,
	0,
	0,
};

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
	struct bs_err err = BS_ERR_INIT;
	struct bs_buf line = BS_BUF_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	struct rm_args a = {0};
	int rc, dry, n = 0;

	if (bs_opt_parse(cli, &bs_cmd_rm, argc, argv, &a, NULL, &rc) ==
	    BS_OPT_EXIT)
		return rc;
	dry = a.dry;
	if (optind >= argc)
		return bs_cli_usage_error(cli, "which runs? give a SELECTOR");
	rc = bs_cli_open_select(cli, BS_STORE_EXISTING, argv + optind,
				argc - optind,
				BS_SEL_NEED_MATCH | (dry ? 0 : BS_SEL_WRITE),
				&st, &ids);
	if (rc != 0)
		goto out;
	/* BS_SEL_NEED_MATCH: selecting nothing failed above. */
	assert(ids.n > 0);
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
