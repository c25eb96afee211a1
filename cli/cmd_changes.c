/*
 * cli/cmd_changes.c - `bstore changes`: the change points of every series
 * of the selected runs (report/changes.h), as text, HTML, CSV or JSON;
 * and what `bstore check` (cli/cmd_check.c) shares with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/archive.h"
#include "cli/cmd_changes.h"
#include "cli/msg.h"
#include "cli/report_io.h"
#include "cli/select.h"
#include "cli/opt.h"
#include "report/changes.h"
#include "store/store.h"
#include "util/mem.h"
#include "util/banned.h"

static int get_run(void *ctx, int64_t id, struct bs_run *r, struct bs_err *err)
{
	return bs_store_get(ctx, id, BS_LOAD_TAGS, r, err);
}

/* What produce() works with. */
struct job {
	struct bs_store *st;
	struct bs_ids *ids;
	const struct bs_cli_changes_args *a;
	int regressions;
};

static int produce(const struct bs_cli *cli, void *ctx, FILE *out,
		   int *write_failed)
{
	struct job *job = ctx;
	struct bs_err err = BS_ERR_INIT;
	struct bs_changes *c = NULL;
	struct bs_cli_src src = {job->st, job->ids, -1, 0};
	struct bs_changes_source cs = {{bs_cli_src_each, &src},
				       get_run,
				       job->st};
	int rc = 0;

	*write_failed = 0;
	if (bs_changes_build(&c, &job->a->co, &cs, &err) < 0) {
		bs_cli_perr(cli, &err);
		return BS_EXIT_FAIL;
	}
	if (c->runs == 0) {
		/* As the selection of every run says it (bs_cli_select). */
		bs_cli_no_match(cli, job->st, NULL, 1);
		bs_changes_free(c);
		return BS_EXIT_FAIL;
	}
	job->regressions = job->a->co.check && c->n > 0;
	if (bs_changes_render(c, job->a->dest.fmt, out, &err) < 0) {
		rc = BS_EXIT_FAIL;
		if (ferror(out))
			*write_failed = 1;
		else
			bs_cli_perr(cli, &err);
	}
	bs_changes_free(c);
	return rc;
}

int bs_cli_changes(struct bs_cli *cli, const struct bs_opt_cmd *cmd, int argc,
		   char **argv)
{
	struct bs_cli_changes_args a;
	struct bs_store *st = NULL;
	struct bs_ids ids = BS_IDS_INIT;
	struct job job;
	int rc;

	memset(&a, 0, sizeof(a));
	bs_changept_opts_init(&a.co.cp);
	a.co.check = cmd == &bs_cmd_check;
	a.co.since = BS_NONE;
	a.dest.fmt = BS_REPORT_TEXT;
	if (bs_opt_parse(cli, cmd, argc, argv, &a, NULL, &rc) == BS_OPT_EXIT)
		return rc;
	rc = bs_cli_dest_done(cli, &a.dest);
	if (rc != 0)
		return rc;
	if (a.co.check && a.co.since == BS_NONE && optind == argc &&
	    !a.no_cache) {
		/* Every run's newest: what the cache keeps (report/changes.h). */
		rc = bs_cli_open_store(cli, BS_STORE_EXISTING, &st);
		a.co.cache = st;
		a.co.cache_tag = "bstore " BSTORE_VERSION;
	} else {
		rc = bs_cli_open_select(cli, BS_STORE_READONLY, argv + optind,
					argc - optind,
					BS_SEL_ALL_IF_NONE | BS_SEL_NEED_MATCH,
					&st, &ids);
	}
	if (rc != 0)
		return rc;
	job.st = st;
	job.ids = a.co.cache ? NULL : &ids;
	job.a = &a;
	job.regressions = 0;
	rc = bs_cli_render_out(cli, a.dest.path, produce, &job);
	if (rc == 0 && job.regressions)
		rc = BS_EXIT_FAIL;
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}

#define O(f) offsetof(struct bs_cli_changes_args, f)
static const struct bs_opt opts[] = {
	BS_OPT_DEST(struct bs_cli_changes_args, dest),
	{'n', "noise", "PCT", 0, bs_opt_real, O(co.cp.noise_pct),
	 "a change whose medians differ by less than PCT percent is not "
	 "reported",
	 "5", 0, 1000, 0},
	BS_OPT_END,
};
#undef O

const struct bs_opt_cmd bs_cmd_changes = {
	"changes",
	cmd_changes,
	"find where each series of runs shifted, and what changed there",
	"[OPTIONS] [SELECTOR...]",
	"Finds the change points of the selected runs (default: all): the\n"
	"runs where the level of a metric shifted and stayed shifted. A\n"
	"series is one machine and one test (the tool and the parameters\n"
	"that decide its numbers), its runs ordered by the date they were\n"
	"measured; runs without a date take no part and are counted. Each\n"
	"metric with a direction (rates higher, latencies lower) is\n"
	"searched. For each change: its first run, the medians and counts\n"
	"of the levels before and after, the ratio, the p-value, better or\n"
	"worse, and what differs between the last run before and the first\n"
	"after: tool, version, any parameter, any tag or host.* fact.\n"
	"docs/changes.md gives the method (binary segmentation on a rank\n"
	"statistic, each split tested by it) and its references.\n"
	"\n"
	"@SELECTORS@\n",
	opts,
	"The same archive and command give the same bytes.\n",
	"bstore changes -f json machine=db1",
	NULL,
	0,
	0,
};

int cmd_changes(struct bs_cli *cli, int argc, char **argv)
{
	return bs_cli_changes(cli, &bs_cmd_changes, argc, argv);
}
