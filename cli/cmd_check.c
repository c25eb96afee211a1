/*
 * cli/cmd_check.c - `bstore check`: the newest runs of each series against
 * the level they follow, for cron and CI: exit status 1 when one is worse
 * (report/changes.h; the work is cli/cmd_changes.c's).
 */
#include <stddef.h>

#include "cli/cli.h"
#include "cli/cmd_changes.h"
#include "cli/report_io.h"
#include "cli/opt.h"
#include "util/banned.h"

static int set_since(const struct bs_cli *cli, const struct bs_opt *o,
		     const char *arg, void *field)
{
	(void)o;
	return bs_cli_date_arg(cli, "--since", arg, 0, field);
}

#define O(f) offsetof(struct bs_cli_changes_args, f)
static const struct bs_opt opts[] = {
	BS_OPT_DEST(struct bs_cli_changes_args, dest),
	{'n', "noise", "PCT", 0, bs_opt_real, O(co.cp.noise_pct),
	 "a change whose medians differ by less than PCT percent is not a "
	 "regression",
	 "5", 0, 1000, 0},
	{0, "since", "DATE", 0, set_since, O(co.since),
	 "check the runs stored or measured from DATE on (DATE: 2004, "
	 "2004-03, 2004-03-15, '2004-03-15 10:30[:05]' or @UNIXTIME, UTC)",
	 "each series' newest run", 0, 0, 0},
	{0, "no-cache", NULL, 0, bs_opt_flag, O(no_cache),
	 "read every run again rather than what the last check kept of the "
	 "series no new run joined (the cache needs write access)",
	 NULL, 0, 0, 0},
	BS_OPT_END,
};
#undef O

const struct bs_opt_cmd bs_cmd_check = {
	"check",
	cmd_check,
	"exit 1 when the newest runs are worse than their series' level",
	"[OPTIONS] [SELECTOR...]",
	"Checks the newest run of each series of the selected runs (default:\n"
	"all), or with --since every run stored or measured since then,\n"
	"against the series' current level: the runs since its last change\n"
	"point (bstore changes). A metric that is worse, past the noise\n"
	"threshold and significant (p < 0.01, the trimmed t-test of\n"
	"docs/changes.md), is a regression: one line each, with what\n"
	"changed at that run (tool, version, parameters, tags, host.*).\n"
	"Exit status: 0 when there is none, 1 when there is one (or on an\n"
	"error), 2 on a usage error. A series is one machine and one test;\n"
	"runs without a date take no part. A check of every run (no\n"
	"selector, no --since) keeps what it found in each series in the\n"
	"archive, so that the next one reads only the runs stored since and\n"
	"their series; removing a run or setting a machine, date or\n"
	"parameter throws that away (docs/changes.md).\n"
	"\n"
	"@SELECTORS@\n",
	opts,
	NULL,
	"bstore check --since 2026-03-04 machine=db1 || echo regression",
	NULL,
	0,
	0,
};

int cmd_check(struct bs_cli *cli, int argc, char **argv)
{
	return bs_cli_changes(cli, &bs_cmd_check, argc, argv);
}
