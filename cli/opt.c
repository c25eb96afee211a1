/*
 * cli/opt.c - command-line options: what getopt_long's errors mean, said
 * in bstore's form.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/mem.h"
#include "util/banned.h"

/* The long option that arg ("--name" or "--name=value") names, if any. */
static const struct option *long_option(const struct option *opts,
					const char *arg, size_t n)
{
	const struct option *o, *found = NULL;

	for (o = opts; o->name; o++) {
		if (strncmp(o->name, arg + 2, n - 2) != 0)
			continue;
		if (strlen(o->name) == n - 2)
			return o;
		found = found ? NULL : o; /* an abbreviation, if unique */
	}
	return found;
}

int bs_cli_bad_option(const struct bs_cli *cli, char **argv,
		      const char *shortopts, const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const char *o = optopt ? strchr(shortopts, optopt) : NULL;
	const struct option *lo = NULL;
	int n = (int)strcspn(arg, "="); /* name the option, not its value */

	if (strncmp(arg, "--", 2) == 0 && n > 2)
		lo = long_option(longopts, arg, (size_t)n);
	/* glibc: optopt is 0 for an unknown long option; otherwise it is the
	 * short option, or the long option's val, whose argument is wrong.
	 * In "-jx", argv[optind - 1] is still the element before. */
	if (optopt == 0) {
		char q[BS_CLI_QUOTE_SIZE], *name = xstrndup(arg, (size_t)n);

		bs_cli_quote(q, name);
		free(name);
		return bs_cli_usage_error(cli, "unknown option '%s'", q);
	}
	if (lo && lo->val == optopt) {
		if (arg[n] == '=')
			return bs_cli_usage_error(
				cli, "option '%.*s' takes no argument", n,
				arg);
		return bs_cli_usage_error(cli, "option '%s' needs an argument",
					  arg);
	}
	if (o && o[1] == ':')
		return bs_cli_usage_error(cli, "option '-%c' needs an argument",
					  optopt);
	return bs_cli_usage_error(cli, "unknown option '-%c'", optopt);
}
