/*
 * cli/archive.c - opening the archive for a command: --db, $BSTORE_DB or
 * the default path, the upgrade notice, the store's warnings, a signal
 * that ends a long open, and one that stops a PostgreSQL statement
 * (cli/cli.h, bs_cli_open_store, bs_cli_guard_end).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/archive.h"
#include "cli/input.h"
#include "cli/msg.h"
#include "util/mem.h"
#include "util/stop.h"
#include "util/banned.h"

/*
 * The guard of a PostgreSQL archive's statements: from its open until
 * the command returns (bs_cli_guard_end), SIGINT, SIGTERM and SIGHUP
 * that come while a statement runs on the server (bs_store_engaged) set
 * bs_stop_sig, which the store's wait sees: it cancels the statement
 * (within its bound), and the command fails; any other time, the signal
 * does at once what it would have done without bstore. Either way the
 * exit status is the signal's (bs_cli_guard_end raises it again). The
 * handler is util/stop.c's (bs_stop_guard_arm).
 */
static void guard_arm(struct bs_store *st)
{
	bs_store_set_wait(st, BS_STORE_WAIT_MS, &bs_stop_sig);
	bs_stop_guard_arm(bs_store_engaged);
}

int bs_cli_guard_end(int rc)
{
	int sig = bs_stop_guard_end();

	if (sig > 0) {
		fflush(stdout);
		raise(sig);
		return 128 + sig; /* handled elsewhere after all */
	}
	return rc;
}

/* Whether the directory that would hold path exists. */
static int parent_exists(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct stat sb;
	char *dir;
	int ok;

	if (slash == NULL)
		return 1;
	dir = xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
	ok = stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
	free(dir);
	return ok;
}

/* The store's warnings (a run it cannot read and skips), as ours. */
static void store_warn(const char *msg, void *ctx)
{
	bs_cli_warn(ctx, "%s", msg);
}

void bs_cli_store_warnings(const struct bs_cli *cli, struct bs_store *st)
{
	bs_store_set_warn(st, store_warn, (void *)cli);
}

/* Says that opening the archive upgraded it, if it did (named as it may
 * be shown). */
static void say_upgraded(const struct bs_cli *cli, const struct bs_store *st)
{
	const char *path = bs_store_path(st);

	if (bs_store_upgraded_from(st) && !cli->quiet)
		fprintf(stderr,
			"bstore: upgraded archive '%s' from schema version %d "
			"to %d; the old file is kept as '%s.v%d.bak'\n",
			path, bs_store_upgraded_from(st), BS_SCHEMA_VERSION,
			path, bs_store_upgraded_from(st));
}

/*
 * bs_store_open, stopped by a signal: opening upgrades an archive of an
 * older bstore, after keeping a copy of it, which takes minutes on a big
 * one. A signal then ends the copy or the upgrade (the store removes the
 * partial copy and rolls the upgrade back), and once the archive is
 * closed again, the signal does what it would have done without bstore.
 */
static int open_store(const struct bs_cli *cli, const char *path, int flags,
		      struct bs_store **out, struct bs_err *err)
{
	struct bs_stop_saved saved;
	int rc, sig;

	bs_stop_catch(&saved, 1);
	rc = bs_store_open_cancel(out, path, flags, &bs_stop_sig, err);
	sig = (int)bs_stop_sig;
	if (rc == 0) {
		bs_store_set_wait(*out, BS_STORE_WAIT_MS, NULL);
		say_upgraded(cli, *out);
	}
	bs_stop_release(&saved);
	bs_stop_sig = 0;
	if (sig != 0) {
		if (rc < 0)
			bs_cli_perr(cli, err);
		bs_store_close(*out);
		*out = NULL;
		raise(sig);
		/* Ignored or handled elsewhere: the open failed anyway. */
		return rc < 0 ? rc : bs_error(err, BS_EINTR, "interrupted");
	}
	if (rc == 0)
		bs_cli_store_warnings(cli, *out);
	if (rc == 0 && bs_store_is_url(path))
		guard_arm(*out);
	return rc;
}

int bs_cli_open_store(const struct bs_cli *cli, int flags,
		      struct bs_store **out)
{
	struct bs_err err = BS_ERR_INIT;
	char *path = NULL;
	int rc;

	if (cli->db_path) {
		path = xstrdup(cli->db_path);
	} else {
		path = bs_store_default_path(&err);
		if (path == NULL) {
			bs_cli_perr(cli, &err);
			return BS_EXIT_FAIL;
		}
		if (!(flags & (BS_STORE_READONLY | BS_STORE_EXISTING)) &&
		    bs_store_mkparents(path, &err) < 0) {
			bs_cli_perr(cli, &err);
			free(path);
			return BS_EXIT_FAIL;
		}
	}
	rc = open_store(cli, path, flags, out, &err);
	if (rc < 0) {
		struct stat sb;

		/* Only ingest, merge and the measuring commands (run, zcav,
		 * fileio) create an archive: a mistyped --db must not leave an
		 * empty one behind. They make the default one's directories,
		 * not those of --db. */
		if (err.code == BS_ENOTFOUND && stat(path, &sb) < 0 &&
		    errno == ENOENT && (!cli->db_path || parent_exists(path)))
			bs_cli_error(cli,
				     "%s (there is no archive there yet: "
				     "bstore ingest or bstore run creates it)",
				     err.msg);
		else
			bs_cli_perr(cli, &err);
		free(path);
		return BS_EXIT_FAIL;
	}
	free(path);
	return 0;
}
