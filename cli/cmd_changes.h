/*
 * cli/cmd_changes.h - what bstore changes and bstore check share
 * (cli/cmd_changes.c runs both).
 */
#ifndef BS_CLI_CMD_CHANGES_H
#define BS_CLI_CMD_CHANGES_H

#include "cli/cli.h"
#include "cli/report_io.h"
#include "report/changes.h"

/* What changes and check take (cli/cmd_changes.c runs both). */
struct bs_cli_changes_args {
	struct bs_cli_dest dest;
	struct bs_changes_opts co;
	int no_cache; /* check: --no-cache */
};
struct bs_opt_cmd;
int bs_cli_changes(struct bs_cli *cli, const struct bs_opt_cmd *cmd, int argc,
		   char **argv);

#endif
