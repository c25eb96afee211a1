/*
 * cli/archive.h - opening the archive for a command (cli/archive.c):
 * --db, the upgrade notice, its warnings, a signal during a statement.
 */
#ifndef BS_CLI_ARCHIVE_H
#define BS_CLI_ARCHIVE_H

#include "cli/cli.h"
#include "store/store.h"

/*
 * After a command returns with rc: a stop signal that came while a
 * PostgreSQL archive opened by bs_cli_open_store ran a statement (which
 * the store then cancelled on the server) ends bstore as that signal
 * does (its exit status 128 + the signal); otherwise rc.
 */
int bs_cli_guard_end(int rc);

/*
 * Opens the archive (--db, $BSTORE_DB, or the XDG default, created on
 * first use unless flags has BS_STORE_READONLY). Prints the error and
 * returns BS_EXIT_FAIL, or 0.
 */
/* Sends st's warnings (store/store.h, bs_store_set_warn) to stderr as
 * bs_cli_warn's. bs_cli_open_store does it for the archive. */
void bs_cli_store_warnings(const struct bs_cli *cli, struct bs_store *st);
int bs_cli_open_store(const struct bs_cli *cli, int flags,
		      struct bs_store **out);

#endif
