/*
 * cli/input.c - the one loop over the inputs of a command that stores
 * each in a transaction of its own (ingest's files, merge's archives),
 * and how a stop signal ends it (cli/cli.h, bs_cli_each_input).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/input.h"
#include "cli/msg.h"
#include "util/stop.h"
#include "util/banned.h"

int bs_cli_each_input(const struct bs_cli *cli, struct bs_store *st,
		      char **inputs, int n, const char *noun,
		      const char *undone,
		      int (*one)(const struct bs_cli *cli, struct bs_store *st,
				 const char *input, void *ctx),
		      void *ctx)
{
	struct bs_stop_saved saved;
	int i, rc = BS_EXIT_OK;

	bs_stop_sig = 0;
	/* Waiting for another writer's lock can take minutes: a signal ends
	 * the wait as it ends an input. */
	bs_store_set_wait(st, BS_STORE_WAIT_MS, &bs_stop_sig);
	bs_stop_catch(&saved, 0);
	for (i = 0; i < n && !bs_stop_sig; i++)
		if (one(cli, st, inputs[i], ctx) != BS_EXIT_OK)
			rc = BS_EXIT_FAIL;
	bs_stop_release(&saved);
	if (!bs_stop_sig)
		return rc;
	if (i < n) {
		char *shown = bs_store_shown(inputs[i]);
		bs_cli_error(cli, "interrupted; %d more %s%s %s, from '%s' on",
			     n - i, noun, n - i == 1 ? "" : "s", undone, shown);
		free(shown);
	}
	return 128 + (int)bs_stop_sig;
}
