/*
 * cli/help.h - the lists --help and the man page take from the tables
 * (cli/help.c).
 */
#ifndef BS_CLI_HELP_H
#define BS_CLI_HELP_H

#include <stdio.h>

/*
 * Prints a command's --help text, with the lists that come from bstore's
 * tables filled in, so that the help (and the man page made from it)
 * never lags behind them:
 *   @FIELDS@   inline: the run fields selectors read (store/selector.h)
 *   @FAMILIES@ inline: the tool families (core/metric.h)
 *   a line holding only @METRICS@, @MAIN_METRICS@ or @FORMATS@: every
 *   metric key, by family (core/metric.c), those of the main metrics
 *   (BS_MF_MAIN), or every input format (ingest/formats.c), wrapped at
 *   that line's indentation
 */
void bs_cli_help(FILE *f, const char *text);
/* The same text appended to out (the man page's, cli/man.c). */
struct bs_buf;
void bs_cli_help_buf(const char *text, struct bs_buf *out);

#endif
