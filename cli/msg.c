/*
 * cli/msg.c - how cli/ speaks to the user: the one form of an error, a
 * warning and a usage error ("bstore: CMD: ..."), what the user typed
 * quoted for a message, and a signal's name.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/msg.h"
#include "util/mem.h"
#include "util/text.h"
#include "util/banned.h"

/* A message is one line: names in it (a file called "a\nb.csv", a tag
 * value) may hold anything, so control characters are shown as '?'. */
static void vmsg(const struct bs_cli *cli, const char *pfx, const char *fmt,
		 va_list ap)
{
	char small[512], *msg = small;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n < 0) {
		small[0] = '\0';
	} else if ((size_t)n >= sizeof(small)) {
		msg = xmalloc((size_t)n + 1);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
	}
	bs_text_clean_inplace(msg, 0);
	fflush(stdout);
	if (cli && cli->cmd)
		fprintf(stderr, "bstore: %s: %s%s\n", cli->cmd, pfx, msg);
	else
		fprintf(stderr, "bstore: %s%s\n", pfx, msg);
	if (msg != small)
		free(msg);
}

void bs_cli_error(const struct bs_cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "", fmt, ap);
	va_end(ap);
}

void bs_cli_warn(const struct bs_cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "warning: ", fmt, ap);
	va_end(ap);
}

void bs_cli_perr(const struct bs_cli *cli, const struct bs_err *err)
{
	bs_cli_error(cli, "%s", err->msg[0] ? err->msg : "unknown error");
}

int bs_cli_usage_error(const struct bs_cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "", fmt, ap);
	va_end(ap);
	if (cli && cli->cmd)
		fprintf(stderr, "Try 'bstore %s --help'.\n", cli->cmd);
	else
		fputs("Try 'bstore --help'.\n", stderr);
	return BS_EXIT_USAGE;
}

const char *bs_cli_signal_name(int sig)
{
	return bs_stop_name(sig);
}

const char *bs_cli_quote(char out[BS_CLI_QUOTE_SIZE], const char *s)
{
	return bs_err_quote(out, BS_CLI_QUOTE_SIZE, s, strlen(s), 40);
}
