/* cli/cmd_run.c - placeholder: this command is being written. */
#include "cli/cli.h"

int cmd_run(struct bs_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	bs_cli_error(cli, "not available in this build yet");
	return BS_EXIT_FAIL;
}
