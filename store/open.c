/*
 * store/open.c - opening the archive: creating or checking its schema
 * (PRAGMA user_version), connection settings, waiting for another
 * process's lock, transactions, and the default archive path.
 */
#include "store/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/embed.h"
#include "util/mem.h"
#include "util/banned.h"


int bs_store_db_error(struct bs_store *st, struct bs_err *err, const char *what)
{
	return bs_error(err, BS_EDB, "%s: %s: %s", st->path, what,
	                sqlite3_errmsg(st->db));
}

int bs_store_exec(struct bs_store *st, const char *sql, struct bs_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		bs_error(err, BS_EDB, "%s: %s", st->path,
		         msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -BS_EDB;
	}
	return 0;
}


/*
 * exec() for statements that SQLite may refuse with SQLITE_BUSY without
 * calling the busy handler: switching to WAL while another process is
 * creating the same new archive (a read lock cannot wait to become a
 * write lock). Waits and retries as the busy handler would.
 */
int bs_store_exec_wait(struct bs_store *st, const char *sql, struct bs_err *err)
{
	int count = 0;

	while (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		if ((sqlite3_errcode(st->db) & 0xff) != SQLITE_BUSY ||
		    !bs_store_on_busy(st, count++))
			return bs_error(err, BS_EDB, "%s: %s", st->path,
			                sqlite3_errmsg(st->db));
	}
	return 0;
}

void bs_store_columns(struct bs_store *st)
{
	int k;

	st->npcol = st->nmcol = 0;
	for (k = 0; k < bs_nparams; k++)
		if (bs_param_table[k].column)
			st->pcol[st->npcol++] = k;
	for (k = 0; k < bs_nmetrics; k++)
		if (bs_metrics[k].flags & BS_MF_COLUMN)
			st->mcol[st->nmcol++] = k;
}

int bs_store_prepare(struct bs_store *st, const char *sql, sqlite3_stmt **out,
                     struct bs_err *err)
{
	if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, out,
	                       NULL) != SQLITE_OK)
		return bs_store_db_error(st, err, "cannot prepare statement");
	return 0;
}

/* Why a file that does not exist could not be created: ENOENT, or the
 * directory's EACCES, EROFS, ... */
static int create_errno(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int e = ENOENT;

	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	if (access(slash ? dir : ".", W_OK | X_OK) != 0 && errno != ENOENT)
		e = errno;
	free(dir);
	return e;
}

/* "cannot open archive 'PATH': <reason>", for failures while opening. */
int bs_store_open_error(struct bs_store *st, struct bs_err *err)
{
	int code = st->db ? sqlite3_errcode(st->db) : SQLITE_NOMEM;
	int sys = st->db ? sqlite3_system_errno(st->db) : 0;
	const char *why;

	/* SQLite says "unable to open database file" for every failed
	 * open(); the system's reason says which (ENOENT, EISDIR, ...).
	 * After a failed create SQLite tries read-only, and that ENOENT
	 * hides the directory's EACCES. */
	if ((code & 0xff) == SQLITE_CANTOPEN && sys == ENOENT)
		sys = create_errno(st->path);
	if (code == SQLITE_NOMEM)
		why = "out of memory";
	else if ((code & 0xff) == SQLITE_READONLY)
		/* An archive is a SQLite WAL database: reading it makes or
		 * opens PATH-shm and PATH-wal beside it. */
		return bs_error(err, BS_EDB,
				"cannot open archive '%s': reading it needs "
				"write access to its directory, where SQLite "
				"keeps '%s-wal' and '%s-shm'; ask its owner, "
				"or read a copy",
				st->path, st->path, st->path);
	else if ((code & 0xff) == SQLITE_CANTOPEN && sys != 0)
		why = strerror(sys);
	else
		why = sqlite3_errmsg(st->db);
	return bs_error(err, BS_EDB, "cannot open archive '%s': %s", st->path,
	                why);
}

/* Once per process, before SQLite initialises itself: memory statistics
 * cost a global mutex on every allocation and bstore never reads them. */
static void configure_sqlite(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* SQLite's busy handler: waits for another process's lock, in short sleeps
 * so that a cancel flag set by a signal handler ends the wait at once. */
int bs_store_on_busy(void *ctx, int count)
{
	struct bs_store *st = ctx;
	int64_t now = mono_ms();
	struct timespec ts;
	long ms;

	if (st->cancel && *st->cancel)
		return 0;
	if (count == 0)
		st->busy_since_ms = now;
	else if (now - st->busy_since_ms >= st->wait_ms)
		return 0;
	ms = count < 5 ? 1L << count : 50;
	ts.tv_sec = 0;
	ts.tv_nsec = ms * 1000000L;
	nanosleep(&ts, NULL); /* a signal ends it early: fine */
	return !(st->cancel && *st->cancel);
}

void bs_store_set_wait(struct bs_store *st, int wait_ms,
                       const volatile sig_atomic_t *cancel)
{
	st->wait_ms = wait_ms < 0 ? 0 : wait_ms;
	st->cancel = cancel;
}

const char *bs_store_path(const struct bs_store *st)
{
	return st->path;
}

int bs_store_upgraded_from(const struct bs_store *st)
{
	return st->upgraded_from;
}

int bs_store_open(struct bs_store **out, const char *path, int flags,
                  struct bs_err *err)
{
	struct bs_store *st;
	int readonly = flags & BS_STORE_READONLY;
	int oflags = readonly ? SQLITE_OPEN_READWRITE
	                      : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	int rc;

	*out = NULL;
	configure_sqlite();
	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	bs_store_columns(st);
	if (flags & (BS_STORE_READONLY | BS_STORE_EXISTING)) {
		struct stat sb;
		if (stat(path, &sb) < 0) {
			rc = bs_error(err, BS_ENOTFOUND,
			              "cannot open archive '%s': %s", path,
			              strerror(errno));
			goto fail;
		}
	}
	/* Readers open read-write too so that WAL recovery can run; they
	 * never write. */
	if (sqlite3_open_v2(path, &st->db, oflags | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK) {
		rc = bs_store_open_error(st, err);
		goto fail;
	}
	sqlite3_extended_result_codes(st->db, 1);
	st->wait_ms = BS_STORE_WAIT_MS;
	sqlite3_busy_handler(st->db, bs_store_on_busy, st);
	rc = bs_store_exec(st, "PRAGMA foreign_keys = ON", err);
	if (rc < 0)
		goto fail;
	/* Fails with "file is not a database" on a non-SQLite file. */
	rc = bs_store_schema(st, readonly, err);
	if (rc < 0)
		goto fail;
	/* A bigger page cache keeps a whole file's transaction (and the
	 * sha256 index it probes) in memory instead of spilling to the WAL
	 * and reading it back; 16 MiB keeps ingest well under 32 MiB. */
	rc =
	    bs_store_exec_wait(st,
	              "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
	              "PRAGMA cache_size = -16384;",
	              err);
	if (rc < 0)
		goto fail;
	if (!readonly) {
		rc = bs_store_prepare_writes(st, err);
		if (rc < 0)
			goto fail;
	}
	*out = st;
	return 0;
fail:
	bs_store_close(st);
	return rc;
}

void bs_store_close(struct bs_store *st)
{
	if (st == NULL)
		return;
	if (st->in_tx)
		bs_store_rollback(st);
	sqlite3_finalize(st->put);
	sqlite3_finalize(st->dup);
	sqlite3_finalize(st->put_tag);
	sqlite3_finalize(st->put_lat);
	sqlite3_finalize(st->put_res);
	sqlite3_finalize(st->put_par);
	sqlite3_finalize(st->put_ser);
	sqlite3_finalize(st->reject);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

int bs_store_begin(struct bs_store *st, struct bs_err *err)
{
	int rc = bs_store_exec(st, "BEGIN IMMEDIATE", err);

	if (rc == 0)
		st->in_tx = 1;
	return rc;
}

int bs_store_commit(struct bs_store *st, struct bs_err *err)
{
	int rc = bs_store_exec(st, "COMMIT", err);

	if (rc == 0)
		st->in_tx = 0;
	return rc;
}

void bs_store_rollback(struct bs_store *st)
{
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	st->in_tx = 0;
}

/* ---- paths -------------------------------------------------------- */

char *bs_store_default_path(struct bs_err *err)
{
	const char *db = getenv("BSTORE_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	struct bs_buf p = BS_BUF_INIT;

	if (db && db[0])
		return xstrdup(db);
	/* XDG: a relative XDG_DATA_HOME is invalid and must be ignored. */
	if (xdg && xdg[0] == '/')
		bs_buf_addf(&p, "%s/bstore/bstore.db", xdg);
	else if (home && home[0])
		bs_buf_addf(&p, "%s/.local/share/bstore/bstore.db", home);
	else {
		bs_error(err, BS_EINVAL,
		         "no archive: set --db, $BSTORE_DB or $HOME");
		return NULL;
	}
	return bs_buf_detach(&p, NULL);
}

int bs_store_mkparents(const char *path, struct bs_err *err)
{
	char *dir = xstrdup(path);
	char *p;
	int rc = 0;

	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
			rc = bs_error(err, BS_EIO, "cannot create '%s': %s",
			              dir, strerror(errno));
			break;
		}
		*p = '/';
	}
	free(dir);
	return rc;
}
