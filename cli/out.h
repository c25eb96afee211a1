/*
 * cli/out.h - an -o output file, renamed into place when complete
 * (cli/out.c).
 */
#ifndef BS_CLI_OUT_H
#define BS_CLI_OUT_H

#include <stdio.h>
#include "cli/cli.h"

/*
 * An output file given with -o. A regular file (or a new one) is written
 * as PATH.tmp.PID and renamed over PATH only when complete, so a failed
 * run never replaces a good file; anything else (a symbolic link such as
 * /dev/stdout, a FIFO, a device) is written directly. A path that
 * cli/guard.h refuses (the archive or its -wal, -shm or -journal file
 * under any name, a volume in use) is refused. While the temporary file
 * is open, SIGINT, SIGTERM, SIGHUP or SIGQUIT removes it and ends bstore
 * with status 128 + the signal (cli/cleanup.h).
 */
struct bs_cli_out {
	FILE *f;
	const char *path;
	char *tmp;       /* NULL when writing directly */
	int write_errno; /* set by the caller when a write fails, or 0 */
};

/* Opens o for path; prints the error and returns BS_EXIT_FAIL, or 0. */
int bs_cli_out_open(const struct bs_cli *cli, const char *path,
		    struct bs_cli_out *o);
/*
 * Closes o; with ok, keeps the output (renames the temporary file),
 * else removes the temporary file. Prints a write error and returns
 * BS_EXIT_FAIL, or 0.
 */
int bs_cli_out_close(const struct bs_cli *cli, struct bs_cli_out *o, int ok);

#endif
