/*
 * cli/cli.h - what every cmd_<name>.c shares. Only cli/ prints to the
 * terminal or picks exit codes: 0 success, 1 failure (including "some
 * input was rejected"), 2 usage error.
 *
 * A command is called with argv[0] set to its name; it parses its own
 * options from its table (cli/opt.h: bs_opt_parse, optind already reset),
 * owns its usage text and prints --help to stdout with status 0.
 *
 * The rooms of cli/ (tests/cli/rooms.sh checks that every file is named
 * here). This header is what every command shares (exit codes, struct
 * bs_cli, the commands and their tables); each helper has its header:
 *
 *   main.c       the command table, global flags and exit status
 *   msg.h, msg.c the one form of errors, warnings and usage errors
 *   opt.h, opt.c the option tables of the commands and their walker
 *   help.h, help.c
 *                the lists --help and the man page take from the tables
 *   man.h, man.c the bstore(1) man page (bstore --man)
 *   archive.h, archive.c
 *                opening the archive for a command: --db, upgrade notice
 *   select.h, select.c
 *                selectors into run ids, "did you mean" when none match
 *   input.h, input.c
 *                the loop over inputs stored one transaction each
 *   measure.h, measure.c
 *                the one measuring driver of run, zcav and fileio, and
 *                what they share: --tag, the progress line, the archive,
 *                the run just measured, the "stopped by" epilogue
 *   report_io.h, report_io.c
 *                what report, compare and trend share: --format, --units
 *   out.h, out.c an -o output file, renamed into place when complete
 *   guard.h, guard.c
 *                the one rule for every path bstore writes over
 *   cleanup.h, cleanup.c
 *                the -o temporary file removed when a signal ends bstore
 *                (every signal handler is util/stop.c's)
 *   cmd_ingest.h what bstore exec takes of ingest (cli/cmd_ingest.c)
 *   cmd_changes.h
 *                what changes and check share (cli/cmd_changes.c)
 *   cmd_report.h a saved comparison, for bstore site (cli/cmd_report.c)
 *
 * The commands, one file each:
 *
 *   cmd_ingest.c   ingest     cmd_run.c      run       cmd_fileio.c  fileio
 *   cmd_zcav.c     zcav       cmd_exec.c     exec      cmd_list.c    list
 *   cmd_show.c     show       cmd_export.c   export    cmd_report.c  report
 *   cmd_compare.c  compare    cmd_trend.c    trend     cmd_changes.c changes
 *   cmd_check.c    check      cmd_site.c     site      cmd_tag.c     tag
 *   cmd_set.c      set        cmd_rm.c       rm        cmd_merge.c   merge
 */
#ifndef BS_CLI_CLI_H
#define BS_CLI_CLI_H

#include <signal.h>
#include <stdio.h>

#include "report/changes.h"
#include "report/report.h"
#include "store/store.h"
#include "util/err.h"
#include "util/stop.h"

enum { BS_EXIT_OK = 0, BS_EXIT_FAIL = 1, BS_EXIT_USAGE = 2 };

struct bs_cli {
	const char *db_path; /* --db, or NULL for the default */
	const char *cmd;     /* the command's name, for messages */
	int quiet;           /* --quiet: no progress or summaries */
};

typedef int (*bs_cmd_fn)(struct bs_cli *cli, int argc, char **argv);

int cmd_compare(struct bs_cli *cli, int argc, char **argv);
int cmd_exec(struct bs_cli *cli, int argc, char **argv);
int cmd_export(struct bs_cli *cli, int argc, char **argv);
int cmd_fileio(struct bs_cli *cli, int argc, char **argv);
int cmd_ingest(struct bs_cli *cli, int argc, char **argv);
int cmd_list(struct bs_cli *cli, int argc, char **argv);
int cmd_merge(struct bs_cli *cli, int argc, char **argv);
int cmd_report(struct bs_cli *cli, int argc, char **argv);
int cmd_rm(struct bs_cli *cli, int argc, char **argv);
int cmd_run(struct bs_cli *cli, int argc, char **argv);
int cmd_set(struct bs_cli *cli, int argc, char **argv);
int cmd_changes(struct bs_cli *cli, int argc, char **argv);
int cmd_check(struct bs_cli *cli, int argc, char **argv);
int cmd_show(struct bs_cli *cli, int argc, char **argv);
int cmd_site(struct bs_cli *cli, int argc, char **argv);
int cmd_tag(struct bs_cli *cli, int argc, char **argv);
int cmd_trend(struct bs_cli *cli, int argc, char **argv);
int cmd_zcav(struct bs_cli *cli, int argc, char **argv);

/*
 * Each command's table of options and texts (cli/opt.h), defined in its
 * cmd_<name>.c; main.c's command table lists them, the man page walks
 * them.
 */
struct bs_opt_cmd;
extern const struct bs_opt_cmd bs_cmd_changes, bs_cmd_check, bs_cmd_compare,
	bs_cmd_exec, bs_cmd_export, bs_cmd_fileio, bs_cmd_ingest, bs_cmd_list,
	bs_cmd_merge, bs_cmd_report, bs_cmd_rm, bs_cmd_run, bs_cmd_set,
	bs_cmd_show, bs_cmd_site, bs_cmd_tag, bs_cmd_trend, bs_cmd_zcav;

#endif
