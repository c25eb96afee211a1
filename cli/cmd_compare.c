/*
 * cli/cmd_compare.c - `bstore compare A B`: `bstore report` with exactly
 * two groups. cmd_report() reads the command's name for its help text and
 * the two-selector rule.
 */
#include "cli/cli.h"
#include "util/banned.h"

int cmd_compare(struct bs_cli *cli, int argc, char **argv)
{
	return cmd_report(cli, argc, argv);
}
