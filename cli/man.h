/*
 * cli/man.h - the bstore(1) man page, made from the option tables and
 * texts of bstore and of every command (cli/opt.h), so that the page and
 * --help never disagree. `bstore --man` prints it; the build installs it.
 */
#ifndef BS_CLI_MAN_H
#define BS_CLI_MAN_H

#include <stddef.h>
#include <stdio.h>

struct bs_opt_cmd;

/*
 * Writes the page onto f: NAME, SYNOPSIS, DESCRIPTION (bstore's own text
 * and global options), COMMANDS (a section per command: synopsis, text,
 * options), EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES (the commands'),
 * SEE ALSO.
 */
void bs_cli_man(FILE *f, const char *version, const struct bs_opt_cmd *bstore,
		const struct bs_opt_cmd *const *cmds, size_t ncmds);

#endif
