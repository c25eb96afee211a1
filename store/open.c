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

extern const struct bs_embedded bs_schema_files[];

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

static int on_busy(void *ctx, int count);

/*
 * exec() for statements that SQLite may refuse with SQLITE_BUSY without
 * calling the busy handler: switching to WAL while another process is
 * creating the same new archive (a read lock cannot wait to become a
 * write lock). Waits and retries as the busy handler would.
 */
static int exec_wait(struct bs_store *st, const char *sql, struct bs_err *err)
{
	int count = 0;

	while (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		if ((sqlite3_errcode(st->db) & 0xff) != SQLITE_BUSY ||
		    !on_busy(st, count++))
			return bs_error(err, BS_EDB, "%s: %s", st->path,
			                sqlite3_errmsg(st->db));
	}
	return 0;
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
static int open_error(struct bs_store *st, struct bs_err *err)
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
	else if ((code & 0xff) == SQLITE_CANTOPEN && sys != 0)
		why = strerror(sys);
	else
		why = sqlite3_errmsg(st->db);
	return bs_error(err, BS_EDB, "cannot open archive '%s': %s", st->path,
	                why);
}

static int user_version(struct bs_store *st, int *out, struct bs_err *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	/* The first read of the file: fails with "file is not a database"
	 * on a file that is not SQLite. */
	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) !=
	    SQLITE_OK)
		return open_error(st, err);
	rc = sqlite3_step(s);
	*out = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return open_error(st, err);
	return 0;
}

/* How many tables, indexes and views the file holds; -1 on error. */
static int count_schema(struct bs_store *st)
{
	sqlite3_stmt *s = NULL;
	int n = -1;

	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sqlite_schema", -1,
	                       &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* Refuses an archive of another schema version; v is not ours. */
static int wrong_version(struct bs_store *st, int v, struct bs_err *err)
{
	if (v > BS_SCHEMA_VERSION)
		return bs_error(err, BS_EDB,
		                "cannot open archive '%s': it was made by a "
		                "newer bstore (schema version %d, this one "
		                "knows %d); upgrade bstore",
		                st->path, v, BS_SCHEMA_VERSION);
	if (v == 0) {
		int n = count_schema(st);

		if (n > 0)
			return bs_error(
			    err, BS_EDB,
			    "cannot open archive '%s': not a bstore "
			    "archive (it has other tables); use "
			    "another --db",
			    st->path);
		if (n == 0)
			return bs_error(
			    err, BS_EDB,
			    "cannot open archive '%s': not a bstore "
			    "archive (an empty database)",
			    st->path);
	}
	return bs_error(err, BS_EDB,
	                "cannot open archive '%s': not a bstore archive "
	                "(schema version %d)",
	                st->path, v);
}

/* Creates the schema in a new archive, or checks an existing one. */
static int migrate(struct bs_store *st, int readonly, struct bs_err *err)
{
	const struct bs_embedded *schema;
	struct bs_buf sql = BS_BUF_INIT;
	int v, n, rc;

	rc = user_version(st, &v, err);
	if (rc < 0)
		return rc;
	if (v == BS_SCHEMA_VERSION)
		return 0;
	if (v != 0 || readonly)
		return wrong_version(st, v, err);
	/* Runs are rows of ~600 bytes: bigger pages mean fewer of them to
	 * write and checkpoint. Only takes effect on a new file. Two
	 * processes may open a new archive at once: the first to get the
	 * write lock creates the schema, the other then finds it there. */
	rc = exec_wait(st, "PRAGMA page_size = 8192; BEGIN IMMEDIATE", err);
	if (rc < 0)
		return rc;
	rc = user_version(st, &v, err);
	if (rc < 0)
		goto out;
	if (v == BS_SCHEMA_VERSION)
		goto out;
	if (v != 0) {
		rc = wrong_version(st, v, err);
		goto out;
	}
	/* Version 0 with tables in it is somebody else's database. */
	n = count_schema(st);
	if (n != 0) {
		rc = n < 0 ? open_error(st, err) : wrong_version(st, v, err);
		goto out;
	}
	schema = bs_embed_find(bs_schema_files, "schema.sql");
	if (schema == NULL)
		BS_BUG("schema.sql not embedded");
	bs_buf_add(&sql, schema->text, schema->len);
	bs_buf_addf(&sql, "\nPRAGMA user_version = %d;\n", BS_SCHEMA_VERSION);
	rc = bs_store_exec(st, bs_buf_str(&sql), err);
	if (rc == 0)
		rc = bs_store_exec(st, "COMMIT", err);
out:
	if (rc < 0 || v == BS_SCHEMA_VERSION)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	bs_buf_release(&sql);
	return rc;
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
static int on_busy(void *ctx, int count)
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
		rc = open_error(st, err);
		goto fail;
	}
	sqlite3_extended_result_codes(st->db, 1);
	st->wait_ms = BS_STORE_WAIT_MS;
	sqlite3_busy_handler(st->db, on_busy, st);
	rc = bs_store_exec(st, "PRAGMA foreign_keys = ON", err);
	if (rc < 0)
		goto fail;
	/* Fails with "file is not a database" on a non-SQLite file. */
	rc = migrate(st, readonly, err);
	if (rc < 0)
		goto fail;
	/* A bigger page cache keeps a whole file's transaction (and the
	 * sha256 index it probes) in memory instead of spilling to the WAL
	 * and reading it back; 16 MiB keeps ingest well under 32 MiB. */
	rc =
	    exec_wait(st,
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
