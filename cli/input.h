/*
 * cli/input.h - the loop over inputs stored one transaction each
 * (cli/input.c), and its stop flag.
 */
#ifndef BS_CLI_INPUT_H
#define BS_CLI_INPUT_H

#include <signal.h>
#include "cli/cli.h"
#include "store/store.h"

/*
 * The inputs of a command that stores each in a transaction of its own
 * (ingest's files, merge's archives), and the one rule for a signal
 * among them: SIGINT, SIGTERM and SIGHUP are caught (util/stop.h), end a
 * wait for st's lock, and set bs_stop_sig (util/stop.h), which one()
 * looks at to stop its input early (and roll it back). one(cli, st,
 * input, ctx) is called for each input in turn until a signal comes;
 * then the inputs left are named ("interrupted; 2 more files not read, from 'X' on", where noun is
 * "file" and undone "not read"). Returns BS_EXIT_OK, BS_EXIT_FAIL when
 * one() failed for some input, or 128 + the signal.
 */
int bs_cli_each_input(const struct bs_cli *cli, struct bs_store *st,
		      char **inputs, int n, const char *noun,
		      const char *undone,
		      int (*one)(const struct bs_cli *cli, struct bs_store *st,
				 const char *input, void *ctx),
		      void *ctx);

#endif
