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
	st->code = sqlite3_extended_errcode(st->db);
	return bs_error(err, BS_EDB, "%s: %s: %s", st->path, what,
	                sqlite3_errmsg(st->db));
}

int bs_store_exec(struct bs_store *st, const char *sql, struct bs_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		st->code = sqlite3_extended_errcode(st->db);
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
		st->code = sqlite3_extended_errcode(st->db);
		if ((st->code & 0xff) != SQLITE_BUSY ||
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
	int code = st->db ? sqlite3_extended_errcode(st->db) : SQLITE_NOMEM;
	int sys = st->db ? sqlite3_system_errno(st->db) : 0;
	const char *why;

	st->code = code;
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

/* SQLite's progress handler: a long statement (a merge source's query, an
 * upgrade's copy) ends with SQLITE_INTERRUPT once the cancel flag is set. */
static int on_progress(void *ctx)
{
	const struct bs_store *st = ctx;

	return st->cancel && *st->cancel;
}

/* Every this many virtual machine steps: well under a millisecond. */
#define PROGRESS_STEPS 10000

void bs_store_set_wait(struct bs_store *st, int wait_ms,
                       const volatile sig_atomic_t *cancel)
{
	st->wait_ms = wait_ms < 0 ? 0 : wait_ms;
	st->cancel = cancel;
	if (st->db)
		sqlite3_progress_handler(st->db, cancel ? PROGRESS_STEPS : 0,
					 cancel ? on_progress : NULL, st);
}

const char *bs_store_path(const struct bs_store *st)
{
	return st->path;
}

int bs_store_upgraded_from(const struct bs_store *st)
{
	return st->upgraded_from;
}

/* ---- where the archive is --------------------------------------------- */

/*
 * Whether the archive's WAL holds anything: then the file alone is not
 * the archive (a writer committed and has not checkpointed yet, or was
 * killed). Without it, the file is the whole archive until a writer
 * commits again.
 */
static int wal_has_data(const char *path)
{
	struct bs_buf b = BS_BUF_INIT;
	struct stat sb;
	int yes;

	bs_buf_addf(&b, "%s-wal", path);
	yes = stat(bs_buf_str(&b), &sb) == 0 && sb.st_size > 0;
	bs_buf_release(&b);
	return yes;
}

/* Whether this process may write the file and make files beside it. */
static int can_write(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int ok;

	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	ok = access(path, W_OK) == 0 && access(slash ? dir : ".", W_OK) == 0;
	free(dir);
	return ok;
}

/*
 * What the path must be before SQLite sees it. SQLite would open ":memory:",
 * "" and "file:" URIs such as "file::memory:" as databases that keep
 * nothing, and /dev/null as a file beside
 * which it makes /dev/null-journal. Commands that only use an archive
 * (READONLY, EXISTING) refuse a missing or empty file rather than make an
 * archive of it.
 */
static int check_path(const char *path, int flags, int *created,
		      struct bs_err *err)
{
	struct stat sb;

	*created = 0;
	if ((flags & BS_STORE_SCRATCH) && strcmp(path, ":memory:") == 0)
		return 0;
	if (path[0] == '\0' || strcmp(path, ":memory:") == 0)
		return bs_error(err, BS_EDB,
				"cannot open archive '%s': an archive is a "
				"file (SQLite's in-memory database would keep "
				"nothing)",
				path);
	/* SQLite reads a name starting with "file:" as a URI: "file::memory:"
	 * and "file:x?mode=memory" keep nothing, and any other names a file
	 * that no check here would see under that name. */
	if (strncmp(path, "file:", 5) == 0)
		return bs_error(err, BS_EDB,
				"cannot open archive '%s': name the file, not "
				"a SQLite 'file:' URI ('./%s' for a file of "
				"that name)",
				path, path);
	if (stat(path, &sb) < 0) {
		if (flags & (BS_STORE_READONLY | BS_STORE_EXISTING))
			return bs_error(err, BS_ENOTFOUND,
					"cannot open archive '%s': %s", path,
					strerror(errno));
		*created = errno == ENOENT;
		return 0;
	}
	if (S_ISDIR(sb.st_mode))
		return bs_error(err, BS_EDB, "cannot open archive '%s': %s",
				path, strerror(EISDIR));
	if (!S_ISREG(sb.st_mode))
		return bs_error(err, BS_EDB,
				"cannot open archive '%s': not a regular file",
				path);
	if (sb.st_size == 0 && (flags & (BS_STORE_READONLY | BS_STORE_EXISTING)))
		return bs_error(err, BS_EDB,
				"cannot open archive '%s': an empty file, not "
				"yet an archive (bstore ingest or bstore run "
				"makes one)",
				path);
	return 0;
}

/* "file:PATH?immutable=1", PATH percent-encoded where a URI needs it. */
static void immutable_uri(const char *path, struct bs_buf *out)
{
	static const char keep[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789/._-~";
	const unsigned char *p;

	bs_buf_adds(out, "file:");
	for (p = (const unsigned char *)path; *p; p++) {
		if (strchr(keep, *p))
			bs_buf_addc(out, (char)*p);
		else
			bs_buf_addf(out, "%%%02X", *p);
	}
	bs_buf_adds(out, "?immutable=1");
}

/* ---- opening ---------------------------------------------------------- */

enum open_mode {
	OPEN_WRITE,     /* writers: create if missing */
	OPEN_READ,      /* readers that may write: WAL recovery can run */
	OPEN_SNAPSHOT,  /* readers that may not: no lock, no files made */
	OPEN_SOURCE,    /* a merge source with a WAL: read, never written */
};

/* Opens st->db as mode says and brings the schema up to date. */
static int connect(struct bs_store *st, enum open_mode mode,
		   struct bs_err *err)
{
	int readonly = mode != OPEN_WRITE, rc;

	if (mode == OPEN_SNAPSHOT) {
		struct bs_buf uri = BS_BUF_INIT;
		immutable_uri(st->path, &uri);
		rc = sqlite3_open_v2(bs_buf_str(&uri), &st->db,
				     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
					     SQLITE_OPEN_NOMUTEX,
				     NULL);
		bs_buf_release(&uri);
	} else {
		int how = mode == OPEN_SOURCE ? SQLITE_OPEN_READONLY
					      : SQLITE_OPEN_READWRITE;

		rc = sqlite3_open_v2(st->path, &st->db,
				     how | SQLITE_OPEN_NOMUTEX |
					     (readonly ? 0 : SQLITE_OPEN_CREATE),
				     NULL);
	}
	if (rc != SQLITE_OK)
		return bs_store_open_error(st, err);
	sqlite3_extended_result_codes(st->db, 1);
	bs_store_set_wait(st, BS_STORE_WAIT_MS, st->cancel);
	sqlite3_busy_handler(st->db, bs_store_on_busy, st);
	/* A merge source is another user's file, maybe a hostile one: its
	 * schema may not call functions with side effects, nor may anything
	 * change its own schema. */
	if (st->no_upgrade) {
		sqlite3_db_config(st->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
		sqlite3_db_config(st->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0,
				  NULL);
	}
	if (mode == OPEN_SOURCE)
		sqlite3_db_config(st->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
				  NULL);
	rc = bs_store_exec(st, "PRAGMA foreign_keys = ON", err);
	/* Fails with "file is not a database" on a non-SQLite file. */
	if (rc == 0)
		rc = bs_store_schema(st, readonly, err);
	/* A bigger page cache keeps a whole file's transaction (and the
	 * sha256 index it probes) in memory instead of spilling to the WAL
	 * and reading it back; 16 MiB keeps ingest well under 32 MiB. A
	 * snapshot stays in the journal mode it has, and so does an archive
	 * that must not be written (NO_UPGRADE: merge's sources), where
	 * turning on WAL would rewrite its header. */
	if (rc == 0 && mode != OPEN_SNAPSHOT && !st->no_upgrade)
		rc = bs_store_exec_wait(st,
					"PRAGMA journal_mode = WAL; PRAGMA "
					"synchronous = NORMAL",
					err);
	if (rc == 0)
		rc = bs_store_exec(st, "PRAGMA cache_size = -16384", err);
	if (rc == 0 && !readonly)
		rc = bs_store_prepare_writes(st, err);
	return rc;
}

/* SQLite's codes for "cannot make or write the WAL's files here". */
static int no_wal_here(int code)
{
	code &= 0xff;
	return code == SQLITE_READONLY || code == SQLITE_CANTOPEN ||
	       code == SQLITE_IOERR || code == SQLITE_FULL;
}

/* Closes the connection and its statements, keeping the rest of st. */
static void disconnect(struct bs_store *st)
{
	sqlite3_stmt **const stmts[] = {
		&st->put,     &st->dup,	    &st->same_table, &st->same_line,	    &st->put_tag, &st->put_lat,
		&st->put_res, &st->put_par, &st->put_ser, &st->reject,
	};
	size_t i;

	bs_store_getter_free(st);
	for (i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++) {
		sqlite3_finalize(*stmts[i]);
		*stmts[i] = NULL;
	}
	sqlite3_close(st->db);
	st->db = NULL;
	st->in_tx = 0;
}

/* Removes the archive this open made and could not finish. */
static void remove_new(const char *path)
{
	static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
	struct bs_buf b = BS_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		bs_buf_reset(&b);
		bs_buf_addf(&b, "%s%s", path, sfx[i]);
		unlink(bs_buf_str(&b));
	}
	bs_buf_release(&b);
}

int bs_store_open(struct bs_store **out, const char *path, int flags,
		  struct bs_err *err)
{
	return bs_store_open_cancel(out, path, flags, NULL, err);
}

int bs_store_open_cancel(struct bs_store **out, const char *path, int flags,
			 const volatile sig_atomic_t *cancel,
			 struct bs_err *err)
{
	struct bs_store *st;
	enum open_mode mode = OPEN_WRITE;
	int created = 0, rc;

	*out = NULL;
	configure_sqlite();
	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	st->cancel = cancel;
	st->no_upgrade = (flags & BS_STORE_NO_UPGRADE) != 0;
	bs_store_columns(st);
	rc = check_path(path, flags, &created, err);
	if (rc < 0)
		goto fail;
	/*
	 * A reader that may write the archive opens it read-write, so that
	 * SQLite can recover a WAL a killed writer left. One that may not
	 * (another user's archive, a read-only mount) reads the file alone,
	 * without locks, when its WAL is empty: SQLite would otherwise make
	 * -wal and -shm files there, owned by the reader, which the
	 * archive's owner could not use. So does a reader whose read-write
	 * open fails for want of room or rights for those files (a full
	 * disk). docs/schema.md says what such a reader may miss.
	 */
	if (flags & BS_STORE_READONLY)
		mode = can_write(path) || wal_has_data(path)
			       ? OPEN_READ
			       : OPEN_SNAPSHOT;
	/*
	 * A merge source whose WAL holds commits is read through a read-only
	 * connection: it reads the WAL (and may bring -shm up to date, as
	 * any reader does) but never checkpoints it, so the -wal file stays
	 * as it was, byte for byte. One without is read as above: a
	 * read-only connection would leave the empty -wal and -shm it made
	 * beside the file, which a read-write one removes when it closes.
	 */
	if (st->no_upgrade && mode == OPEN_READ && wal_has_data(path))
		mode = OPEN_SOURCE;
	rc = connect(st, mode, err);
	if (rc < 0 && mode == OPEN_READ && no_wal_here(st->code) &&
	    !wal_has_data(path)) {
		struct bs_err again = BS_ERR_INIT;
		disconnect(st);
		if (connect(st, OPEN_SNAPSHOT, &again) == 0) {
			mode = OPEN_SNAPSHOT;
			rc = 0;
		}
	}
	if (rc < 0)
		goto fail;
	*out = st;
	return 0;
fail:
	/* A signal stopped it (the progress handler, the busy handler):
	 * say so, whatever SQLite's message was. */
	if (cancel && *cancel && err && err->code != BS_EINTR) {
		bs_err_reset(err);
		rc = bs_error(err, BS_EINTR,
			      "cannot open archive '%s': interrupted; "
			      "nothing changed",
			      path);
	}
	bs_store_close(st);
	if (created)
		remove_new(path);
	return rc;
}

void bs_store_close(struct bs_store *st)
{
	if (st == NULL)
		return;
	if (st->in_tx)
		bs_store_rollback(st);
	disconnect(st);
	bs_ids_release(&st->skipped);
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
