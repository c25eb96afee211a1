/*
 * cli/msg.h - the one form of errors, warnings and usage errors
 * (cli/msg.c), and how a message shows what the user typed or a signal.
 */
#ifndef BS_CLI_MSG_H
#define BS_CLI_MSG_H

#include "cli/cli.h"
#include "util/err.h"

/*
 * "bstore: <cmd>: <message>\n" on stderr; control characters in the
 * message (from file names, user data) are shown as '?'.
 */
void bs_cli_error(const struct bs_cli *cli, const char *fmt, ...)
	BS_PRINTF(2, 3);
/* Same, with "warning: " before the message. */
void bs_cli_warn(const struct bs_cli *cli, const char *fmt, ...)
	BS_PRINTF(2, 3);
/* Prints err's message as bs_cli_error does. */
void bs_cli_perr(const struct bs_cli *cli, const struct bs_err *err);
/*
 * Prints the message, then "Try 'bstore <cmd> --help'." and returns
 * BS_EXIT_USAGE.
 */
int bs_cli_usage_error(const struct bs_cli *cli, const char *fmt, ...)
	BS_PRINTF(2, 3);

/*
 * "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGPIPE" or "a signal".
 * Async-signal-safe: a signal handler may call it.
 */
const char *bs_cli_signal_name(int sig);

/*
 * What the user typed, for a message: cut after 40 bytes ("..." marks the
 * cut), control characters as '?'. out is a buffer of BS_CLI_QUOTE_SIZE.
 */
#define BS_CLI_QUOTE_SIZE 64
const char *bs_cli_quote(char out[BS_CLI_QUOTE_SIZE], const char *s);

#endif
