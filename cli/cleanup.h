/*
 * cli/cleanup.h - removes the temporary file of an -o output
 * (bs_cli_out_open's PATH.tmp.PID) when a signal ends bstore while it is
 * being written, so that an interrupted report leaves nothing behind.
 *
 * bs_cleanup_arm() catches SIGINT, SIGTERM, SIGHUP and SIGQUIT, but not
 * one that was ignored when it is called (nohup's SIGHUP stays ignored).
 * The handler removes the file, writes "bstore: CMD: stopped by SIGNAL;
 * 'PATH' not written" on stderr and ends the process with status 128 +
 * the signal, as ingest and run exit after a signal; it makes only
 * async-signal-safe calls. The writers need not poll for the signal: it
 * works in the middle of any fwrite(). The handler and the mask are
 * util/stop.c's (bs_stop_unlink_arm); this file makes the message.
 *
 * Create the file and arm, or rename or remove it and disarm, between
 * bs_cleanup_block() and bs_cleanup_unblock(): a signal in between waits,
 * so the handler never removes a file that is not (or no longer) the
 * temporary one. After bs_cleanup_disarm(), a waiting signal acts as it
 * would have without bstore.
 */
#ifndef BS_CLI_CLEANUP_H
#define BS_CLI_CLEANUP_H

#include "cli/cli.h"

void bs_cleanup_block(void);
void bs_cleanup_unblock(void);

/* tmp is the file to remove, path the name the message gives. */
void bs_cleanup_arm(const struct bs_cli *cli, const char *tmp,
		    const char *path);
/* Puts back the handlers bs_cleanup_arm() replaced; nothing when unarmed. */
void bs_cleanup_disarm(void);

#endif
