/*
 * cli/cmd_ingest.h - bstore ingest's reading of one input, which
 * bstore exec shares (cli/cmd_ingest.c).
 */
#ifndef BS_CLI_CMD_INGEST_H
#define BS_CLI_CMD_INGEST_H

#include <stddef.h>
#include <stdint.h>
#include "cli/cli.h"
#include "store/store.h"

/*
 * What bstore exec hands to ingest: the machine (or NULL), the date of
 * every run (or BS_NONE), tags, and a last word on each run before it is
 * stored (or NULL).
 */
struct bs_cli_ingest_args {
	const char *machine;
	int64_t measured_at;
	const struct bs_tag *tags;
	size_t ntags;
	void (*adjust)(struct bs_run *r, void *ctx);
	void *ctx;
};
/*
 * Ingests what fd holds as bstore ingest ingests a file called name (one
 * transaction, the same messages and summary): BS_EXIT_OK, or
 * BS_EXIT_FAIL when a line was rejected or nothing could be stored.
 */
int bs_cli_ingest_fd(const struct bs_cli *cli, struct bs_store *st, int fd,
		     const char *name, const struct bs_cli_ingest_args *a);

#endif
