/*
 * cli/cmd_report.h - a saved comparison rendered as bstore report
 * renders it (cli/cmd_report.c), for bstore site.
 */
#ifndef BS_CLI_CMD_REPORT_H
#define BS_CLI_CMD_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "cli/cli.h"
#include "store/store.h"

/*
 * A saved comparison (bstore report --save; store/store.h): renders the
 * report that args (its options and selectors, as bstore report takes
 * them) ask for as HTML onto out, from the runs of st (cli/cmd_report.c).
 * Prints its errors, but those of writing out (check ferror(out)), and
 * returns the exit status. Its list of runs names at most
 * BS_CLI_SAVED_LIST_MAX runs a group, then how many more: a page of the
 * site (bstore site) stays small whatever the archive's size.
 */
#define BS_CLI_SAVED_LIST_MAX 250
int bs_cli_report_saved(const struct bs_cli *cli, struct bs_store *st,
			const char *const *args, size_t nargs, FILE *out);

#endif
