/*
 * store/db_sqlite.c - the SQLite row of the engines' table (store/db.h):
 * an archive is one SQLite file in WAL mode. The only file of bstore that
 * includes sqlite3.h. What is SQLite's alone lives here: which files a
 * name may be, how a reader opens another user's archive without making
 * files beside it, the busy and progress handlers, PRAGMAs, the copy
 * kept before an upgrade, and the catalogue (sqlite_schema).
 */
#include "store/db.h"
#include "store/store.h"

#include <errno.h>
#include <limits.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/err.h"
#include "util/mem.h"
#include "util/banned.h"

enum open_mode {
	OPEN_WRITE,    /* writers: create if missing */
	OPEN_READ,     /* readers that may write: WAL recovery can run */
	OPEN_SNAPSHOT, /* readers that may not: no lock, no files made */
	OPEN_SOURCE,   /* a merge source with a WAL: read, never written */
};

struct sq_db {
	struct bs_db base;
	sqlite3 *h;
	char *path;
	int flags; /* BS_DB_OPEN_* */
	enum open_mode mode;
	int created;   /* this open made the file */
	int settled;   /* the schema was checked: keep the file */
	int legacy;    /* legacy_alter_table is on (an upgrade from 1) */
	int code;      /* SQLite's extended code of the last failure */
	int kind;      /* an errkind set here, or -1: from code */
	char msg[640]; /* a reason composed here, or "": SQLite's */
	int (*busy)(void *ctx, int count);
	void *busy_ctx;
	const volatile sig_atomic_t *cancel;
};

struct sq_stmt {
	struct bs_db_stmt base;
	sqlite3_stmt *s;
	struct sq_db *d;
	/* An INSERT ... RETURNING id run as the INSERT alone: id is the
	 * row's rowid, returned as the one column of one row (1: that row
	 * is current, 2: it was returned). */
	int returning;
	int64_t id;
	/* What each parameter (1..nlast) was last bound to: SQLite keeps a
	 * binding through reset, so the same value is not bound again (an
	 * ingest binds some 80 a run, a third of them as the run before). */
	struct sq_bound *last;
	int nlast;
};

/* A parameter's binding, as sq_same compares it (calloc'd: NULL, as a new
 * statement's parameters are; n SQ_UNKNOWN: not known). */
struct sq_bound {
	enum bs_db_type type;
	size_t n; /* text and blobs: their bytes, at that address */
	union {
		int64_t i;
		double d;
		const void *p;
	} v;
};

/*
 * SQLite runs RETURNING through a temporary table made for every
 * statement, which took a quarter of an ingest's instructions (a page
 * cache allocated and cleared for each run); its rowid is free.
 */
static const char returning_id[] = " RETURNING id";

#define DB(x) ((struct sq_db *)(void *)(x))
#define ST(x) ((struct sq_stmt *)(void *)(x))

/* ---- failures --------------------------------------------------------- */

static enum bs_db_errkind sq_errkind(struct bs_db *db);

/* The failure recorded on d as a -BS_E* code. */
static int failed(struct sq_db *d)
{
	return -bs_db_kind_code(sq_errkind(&d->base));
}

/* Records SQLite's failure: errmsg is then SQLite's message. */
static int fail(struct sq_db *d)
{
	d->code = d->h ? sqlite3_extended_errcode(d->h) : SQLITE_NOMEM;
	d->kind = -1;
	d->msg[0] = '\0';
	return failed(d);
}

/* A failure described here, of kind k. */
static int fail_msg(struct sq_db *d, int kind, const char *fmt, ...)
	BS_PRINTF(3, 4);
static int fail_msg(struct sq_db *d, int kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	d->kind = kind;
	return failed(d);
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

/* A failure while opening: the reason for "cannot open archive 'PATH'". */
static int fail_open(struct sq_db *d)
{
	int code, sys;

	fail(d);
	code = d->code;
	sys = d->h ? sqlite3_system_errno(d->h) : 0;
	/* SQLite says "unable to open database file" for every failed
	 * open(); the system's reason says which (ENOENT, EISDIR, ...).
	 * After a failed create SQLite tries read-only, and that ENOENT
	 * hides the directory's EACCES. */
	if ((code & 0xff) == SQLITE_CANTOPEN && sys == ENOENT)
		sys = create_errno(d->path);
	if (code == SQLITE_NOMEM)
		return fail_msg(d, BS_DB_EOTHER, "out of memory");
	if ((code & 0xff) == SQLITE_READONLY)
		/* An archive is a SQLite WAL database: reading it makes or
		 * opens PATH-shm and PATH-wal beside it. */
		return fail_msg(d, BS_DB_EREADONLY,
				"%s it needs write access to its "
				"directory, where SQLite keeps '%s-wal' and "
				"'%s-shm'; ask its owner%s",
				d->flags & BS_DB_OPEN_READONLY ? "reading"
							       : "writing",
				d->path, d->path,
				d->flags & BS_DB_OPEN_READONLY
					? ", or read a copy"
					: "");
	if ((code & 0xff) == SQLITE_CANTOPEN && sys != 0)
		return fail_msg(d, BS_DB_EOTHER, "%s", strerror(sys));
	return failed(d);
}

static const char *sq_errmsg(struct bs_db *db)
{
	struct sq_db *d = DB(db);

	if (d->msg[0])
		return d->msg;
	return d->h ? sqlite3_errmsg(d->h) : "out of memory";
}

static enum bs_db_errkind sq_errkind(struct bs_db *db)
{
	struct sq_db *d = DB(db);

	if (d->kind >= 0)
		return (enum bs_db_errkind)d->kind;
	switch (d->code & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return BS_DB_EBUSY;
	/* A row the schema refuses: a CHECK, a type, a size. */
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_TOOBIG:
		return BS_DB_ECONSTRAINT;
	case SQLITE_READONLY:
		return BS_DB_EREADONLY;
	case SQLITE_INTERRUPT:
		return BS_DB_EINTERRUPT;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return BS_DB_ECORRUPT;
	case SQLITE_IOERR:
	case SQLITE_FULL:
	case SQLITE_CANTOPEN:
		return BS_DB_EGONE;
	default:
		return BS_DB_EOTHER;
	}
}

/* ---- statements ------------------------------------------------------- */

static int sq_exec(struct bs_db *db, const char *sql, struct bs_err *err)
{
	struct sq_db *d = DB(db);
	char *msg = NULL;

	if (sqlite3_exec(d->h, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	fail(d);
	if (msg)
		fail_msg(d, -1, "%s", msg);
	sqlite3_free(msg);
	return bs_db_fail(db, err);
}

/*
 * exec() for statements that SQLite may refuse with SQLITE_BUSY without
 * calling the busy handler: switching to WAL while another process is
 * creating the same new archive (a read lock cannot wait to become a
 * write lock). Waits and retries as the busy handler would.
 */
static int exec_wait(struct sq_db *d, const char *sql)
{
	int count = 0;

	while (sqlite3_exec(d->h, sql, NULL, NULL, NULL) != SQLITE_OK) {
		fail(d);
		if ((d->code & 0xff) != SQLITE_BUSY || d->busy == NULL ||
		    !d->busy(d->busy_ctx, count++))
			return failed(d);
	}
	return 0;
}

static int sq_prepare(struct bs_db *db, const char *sql, int flags,
		      struct bs_db_stmt **out, struct bs_err *err)
{
	struct sq_db *d = DB(db);
	size_t n = strlen(sql), rn = sizeof(returning_id) - 1;
	int returning = n > rn && strcmp(sql + n - rn, returning_id) == 0;
	sqlite3_stmt *s = NULL;
	struct sq_stmt *w;

	*out = NULL;
	if (n > INT_MAX) {
		fail_msg(d, BS_DB_EOTHER, "statement too long");
		return bs_db_fail(db, err);
	}
	if (sqlite3_prepare_v3(d->h, sql, (int)(returning ? n - rn : n),
			       (flags & BS_DB_KEEP) ? SQLITE_PREPARE_PERSISTENT
						    : 0,
			       &s, NULL) != SQLITE_OK ||
	    s == NULL) {
		sqlite3_finalize(s);
		fail(d);
		return bs_db_fail(db, err);
	}
	w = xmalloc(sizeof(*w));
	w->base.ops = &bs_db_sqlite;
	w->s = s;
	w->d = d;
	w->returning = returning;
	w->id = 0;
	w->nlast = sqlite3_bind_parameter_count(s);
	w->last = xcalloc((size_t)w->nlast + 1, sizeof(*w->last));
	*out = &w->base;
	return 0;
}

static void sq_finalize(struct bs_db_stmt *s)
{
	sqlite3_finalize(ST(s)->s);
	free(ST(s)->last);
	free(s);
}

static int sq_reset(struct bs_db_stmt *s)
{
	if (ST(s)->returning)
		ST(s)->returning = 1;
	sqlite3_reset(ST(s)->s);
	return 0;
}

static int bound(struct sq_stmt *w, int rc)
{
	return rc == SQLITE_OK ? 0 : fail(w->d);
}

#define SQ_UNKNOWN SIZE_MAX

/*
 * Whether parameter i holds b already (then it is not bound again), else
 * records it as the parameter's. Text and blobs are borrowed
 * (SQLITE_STATIC): the same address and size is the same binding, read at
 * the next step whatever it holds then. A failed bind forgets it.
 */
static int sq_same(struct sq_stmt *w, int i, const struct sq_bound *b)
{
	struct sq_bound *l;

	if (i < 1 || i > w->nlast)
		return 0;
	l = &w->last[i];
	if (l->type == b->type && l->n == b->n &&
	    memcmp(&l->v, &b->v, sizeof(l->v)) == 0)
		return 1;
	*l = *b;
	return 0;
}

static int sq_bound(struct sq_stmt *w, int i, int rc)
{
	if (rc != SQLITE_OK && i >= 1 && i <= w->nlast)
		w->last[i].n = SQ_UNKNOWN;
	return bound(w, rc);
}

static int sq_bind_null(struct bs_db_stmt *s, int i)
{
	struct sq_bound b = {BS_DB_NULL, 0, {0}};

	if (sq_same(ST(s), i, &b))
		return 0;
	return sq_bound(ST(s), i, sqlite3_bind_null(ST(s)->s, i));
}

static int sq_bind_int64(struct bs_db_stmt *s, int i, int64_t v)
{
	struct sq_bound b = {BS_DB_INT, 0, {0}};

	b.v.i = v;
	if (sq_same(ST(s), i, &b))
		return 0;
	return sq_bound(ST(s), i, sqlite3_bind_int64(ST(s)->s, i, v));
}

static int sq_bind_double(struct bs_db_stmt *s, int i, double v)
{
	struct sq_bound b = {BS_DB_FLOAT, 0, {0}};

	b.v.d = v;
	if (sq_same(ST(s), i, &b))
		return 0;
	return sq_bound(ST(s), i, sqlite3_bind_double(ST(s)->s, i, v));
}

static int sq_bind_text(struct bs_db_stmt *s, int i, const char *v, ptrdiff_t n)
{
	struct sq_bound b = {BS_DB_TEXT, 0, {0}};

	if (n < 0)
		n = (ptrdiff_t)strlen(v);
	if (n > INT_MAX)
		n = INT_MAX;
	b.n = (size_t)n;
	b.v.p = v;
	if (sq_same(ST(s), i, &b))
		return 0;
	return sq_bound(ST(s), i,
			sqlite3_bind_text(ST(s)->s, i, v, (int)n,
					  SQLITE_STATIC));
}

static int sq_bind_blob(struct bs_db_stmt *s, int i, const void *v, size_t n)
{
	struct sq_bound b = {BS_DB_BLOB, n, {0}};

	b.v.p = v;
	if (sq_same(ST(s), i, &b))
		return 0;
	return sq_bound(ST(s), i,
			sqlite3_bind_blob64(ST(s)->s, i, v, n, SQLITE_STATIC));
}

/* The INSERT of an INSERT ... RETURNING id: its row, then done. */
static int step_returning(struct sq_stmt *w)
{
	int rc;

	if (w->returning > 1)
		return BS_DB_DONE;
	rc = sqlite3_step(w->s);
	if (rc != SQLITE_DONE)
		return rc == SQLITE_ROW ? BS_DB_DONE : fail(w->d);
	if (sqlite3_changes64(w->d->h) == 0)
		return BS_DB_DONE; /* a conflict clause kept the row out */
	w->id = sqlite3_last_insert_rowid(w->d->h);
	w->returning = 2;
	return BS_DB_ROW;
}

static int sq_step(struct bs_db_stmt *s)
{
	int rc;

	if (ST(s)->returning)
		return step_returning(ST(s));
	rc = sqlite3_step(ST(s)->s);

	if (rc == SQLITE_ROW)
		return BS_DB_ROW;
	if (rc == SQLITE_DONE)
		return BS_DB_DONE;
	return fail(ST(s)->d);
}

static int sq_column_count(struct bs_db_stmt *s)
{
	return ST(s)->returning ? 1 : sqlite3_column_count(ST(s)->s);
}

static const char *sq_column_name(struct bs_db_stmt *s, int col)
{
	return ST(s)->returning ? (col == 0 ? "id" : NULL)
				: sqlite3_column_name(ST(s)->s, col);
}

static enum bs_db_type sq_column_type(struct bs_db_stmt *s, int col)
{
	if (ST(s)->returning)
		return col == 0 && ST(s)->returning > 1 ? BS_DB_INT
							: BS_DB_NULL;
	switch (sqlite3_column_type(ST(s)->s, col)) {
	case SQLITE_INTEGER:
		return BS_DB_INT;
	case SQLITE_FLOAT:
		return BS_DB_FLOAT;
	case SQLITE_TEXT:
		return BS_DB_TEXT;
	case SQLITE_BLOB:
		return BS_DB_BLOB;
	default:
		return BS_DB_NULL;
	}
}

static int64_t sq_column_int64(struct bs_db_stmt *s, int col)
{
	if (ST(s)->returning)
		return col == 0 && ST(s)->returning > 1 ? ST(s)->id : 0;
	return sqlite3_column_int64(ST(s)->s, col);
}

static double sq_column_double(struct bs_db_stmt *s, int col)
{
	return sqlite3_column_double(ST(s)->s, col);
}

static const char *sq_column_text(struct bs_db_stmt *s, int col)
{
	return (const char *)sqlite3_column_text(ST(s)->s, col);
}

static const void *sq_column_blob(struct bs_db_stmt *s, int col)
{
	return sqlite3_column_blob(ST(s)->s, col);
}

static size_t sq_column_bytes(struct bs_db_stmt *s, int col)
{
	return (size_t)sqlite3_column_bytes(ST(s)->s, col);
}

static int64_t sq_changes(struct bs_db *db)
{
	return sqlite3_changes64(DB(db)->h);
}

/* The one integer a query without parameters returns, or -1. */
static int query_int(struct sq_db *d, const char *sql, int *out)
{
	sqlite3_stmt *s = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(d->h, sql, -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW) {
		*out = sqlite3_column_int(s, 0);
		rc = 0;
	}
	if (rc < 0)
		fail(d);
	sqlite3_finalize(s);
	return rc;
}

/* ---- the catalogue ---------------------------------------------------- */

static int sq_get_version(struct bs_db *db, int *version, struct bs_err *err)
{
	struct sq_db *d = DB(db);

	*version = 0;
	/* The first read of the file: fails with "file is not a database"
	 * on a file that is not SQLite. */
	if (query_int(d, "PRAGMA user_version", version) < 0) {
		fail_open(d);
		return bs_db_fail(db, err);
	}
	return 0;
}

static int sq_set_version(struct bs_db *db, int version, struct bs_err *err)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	return sq_exec(db, sql, err);
}

static int sq_has_object(struct bs_db *db, const char *name, int *has,
			 struct bs_err *err)
{
	struct sq_db *d = DB(db);
	sqlite3_stmt *s = NULL;
	int rc;

	*has = 0;
	if (sqlite3_prepare_v2(d->h,
			       "SELECT 1 FROM sqlite_schema WHERE name = ?", -1,
			       &s, NULL) != SQLITE_OK) {
		fail(d);
		return bs_db_fail(db, err);
	}
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
		*has = rc == SQLITE_ROW;
		rc = 0;
	} else {
		fail(d);
		rc = bs_db_fail(db, err);
	}
	sqlite3_finalize(s);
	return rc;
}

static int sq_count_objects(struct bs_db *db, struct bs_err *err)
{
	struct sq_db *d = DB(db);
	int n;

	if (query_int(d, "SELECT count(*) FROM sqlite_schema", &n) < 0) {
		fail_open(d);
		return bs_db_fail(db, err);
	}
	return n;
}

static int sq_referrers(struct bs_db *db, const char *table,
			int (*fn)(const char *table, const char *col,
				  void *ctx),
			void *ctx, struct bs_err *err)
{
	struct sq_db *d = DB(db);
	sqlite3_stmt *s = NULL;
	int rc;

	if (sqlite3_prepare_v2(d->h,
			       "SELECT t.name, f.\"from\" FROM sqlite_schema "
			       "AS t, pragma_foreign_key_list(t.name) AS f "
			       "WHERE t.type = 'table' AND f.\"table\" = ? "
			       "ORDER BY t.name",
			       -1, &s, NULL) != SQLITE_OK) {
		fail(d);
		return bs_db_fail(db, err);
	}
	sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		const char *col = (const char *)sqlite3_column_text(s, 1);
		rc = fn(t ? t : "", col ? col : "", ctx);
		if (rc < 0)
			break;
	}
	if (rc == SQLITE_DONE) {
		rc = 0;
	} else if (rc > 0) {
		fail(d);
		rc = bs_db_fail(db, err);
	}
	sqlite3_finalize(s);
	return rc;
}

/*
 * Whether the source's table is what a bstore archive has there: a plain
 * table (a view could run any query, a recursive one forever), with no
 * generated column (computed when read). runs' id must be its rowid.
 */
static int check_table(struct sq_db *d, const char *table)
{
	sqlite3_stmt *s = NULL;
	const char *type, *sql;
	int rc;

	if (sqlite3_prepare_v2(d->h,
			       "SELECT type, sql, (SELECT count(*) FROM "
			       "pragma_table_xinfo(?1) WHERE hidden <> 0), "
			       "(SELECT count(*) FROM pragma_table_info(?1) "
			       "WHERE name = 'id' AND pk = 1 AND upper(type) = "
			       "'INTEGER') FROM main.sqlite_schema WHERE name "
			       "= ?1 COLLATE NOCASE AND type IN ('table', "
			       "'view')",
			       -1, &s, NULL) != SQLITE_OK)
		return fail(d);
	sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		rc = fail_msg(d, BS_DB_ECORRUPT, "it has no table '%s'", table);
		goto out;
	}
	if (rc != SQLITE_ROW) {
		rc = fail(d);
		goto out;
	}
	type = (const char *)sqlite3_column_text(s, 0);
	sql = (const char *)sqlite3_column_text(s, 1);
	if (type == NULL || strcmp(type, "table") != 0)
		rc = fail_msg(d, BS_DB_ECORRUPT,
			      "its '%s' is a view, not the table a bstore "
			      "archive has",
			      table);
	else if (sql == NULL || sqlite3_strnicmp(sql, "CREATE TABLE", 12) != 0)
		rc = fail_msg(d, BS_DB_ECORRUPT,
			      "its '%s' is a virtual table, not the table a "
			      "bstore archive has",
			      table);
	else if (sqlite3_column_int(s, 2) != 0)
		rc = fail_msg(d, BS_DB_ECORRUPT,
			      "its table '%s' has generated columns, which a "
			      "bstore archive has not",
			      table);
	else if (strcmp(table, "runs") == 0 && sqlite3_column_int(s, 3) != 1)
		rc = fail_msg(d, BS_DB_ECORRUPT,
			      "its table 'runs' has no INTEGER PRIMARY KEY "
			      "'id'");
	else
		rc = 0;
out:
	sqlite3_finalize(s);
	return rc;
}

static int check_untrusted(struct sq_db *d, const char *const *tables, size_t n)
{
	sqlite3_stmt *s = NULL;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < n; i++)
		rc = check_table(d, tables[i]);
	if (rc < 0)
		return rc;
	if (sqlite3_prepare_v2(d->h,
			       "SELECT name FROM main.sqlite_schema WHERE "
			       "type = 'trigger' ORDER BY name LIMIT 1",
			       -1, &s, NULL) != SQLITE_OK)
		return fail(d);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 0);
		char q[48];

		rc = fail_msg(d, BS_DB_ECORRUPT,
			      "it has a trigger '%s', which a bstore archive "
			      "has not",
			      bs_err_quote(q, sizeof(q), name ? name : "",
					   name ? strlen(name) : 0, 32));
	} else {
		rc = rc == SQLITE_DONE ? 0 : fail(d);
	}
	sqlite3_finalize(s);
	return rc;
}

static int sq_check_untrusted(struct bs_db *db, const char *const *tables,
			      size_t n, struct bs_err *err)
{
	return check_untrusted(DB(db), tables, n) < 0 ? bs_db_fail(db, err) : 0;
}

/* ---- waiting and stopping --------------------------------------------- */

static int on_busy(void *ctx, int count)
{
	struct sq_db *d = ctx;

	return d->busy ? d->busy(d->busy_ctx, count) : 0;
}

/* SQLite's progress handler: a long statement (a merge source's query, an
 * upgrade's copy) ends with SQLITE_INTERRUPT once the cancel flag is set. */
static int on_progress(void *ctx)
{
	const struct sq_db *d = ctx;

	return d->cancel && *d->cancel;
}

/* Every this many virtual machine steps: well under a millisecond. */
#define PROGRESS_STEPS 10000

static void sq_set_cancel(struct bs_db *db, const volatile sig_atomic_t *flag)
{
	struct sq_db *d = DB(db);

	d->cancel = flag;
	if (d->h)
		sqlite3_progress_handler(d->h, flag ? PROGRESS_STEPS : 0,
					 flag ? on_progress : NULL, d);
}

static void sq_bulk(struct bs_db *db, int on)
{
	/* Each run merged in a savepoint keeps the pages it changes in a
	 * statement journal: in memory, not a temporary file each. */
	sqlite3_exec(DB(db)->h,
		     on ? "PRAGMA temp_store = MEMORY"
			: "PRAGMA temp_store = DEFAULT",
		     NULL, NULL, NULL);
}

static void sq_glob(struct bs_buf *sql, const char *col, const char *pattern,
		    struct bs_buf *value)
{
	const char *p;

	if (value) {
		bs_buf_addf(sql, "%s GLOB ?", col);
		bs_buf_adds(value, pattern);
		return;
	}
	bs_buf_addf(sql, "%s GLOB '", col);
	for (p = pattern; *p; p++)
		bs_buf_adds(sql, *p == '\'' ? "''" : (char[2]){*p, '\0'});
	bs_buf_addc(sql, '\'');
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
/*
 * A writer refuses an archive it may not write before SQLite opens it:
 * SQLite would open it read-only and make -wal and -shm files of the
 * archive's mode (0444) that trip every later write once the owner makes
 * the archive writable. And it names such a file, left by an older
 * bstore, instead of SQLite's "attempt to write a readonly database".
 */
static int writable(struct sq_db *d, const struct stat *sb)
{
	static const char *const sfx[] = {"-wal", "-shm"};
	struct bs_buf b = BS_BUF_INIT;
	size_t i;
	int rc = 0;

	if (access(d->path, W_OK) != 0)
		return fail_msg(d, BS_DB_EREADONLY,
				"writing it needs write access to it (its mode "
				"is %04o); ask its owner",
				(unsigned)(sb->st_mode & 07777));
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]) && rc == 0; i++) {
		bs_buf_reset(&b);
		bs_buf_addf(&b, "%s%s", d->path, sfx[i]);
		if (access(bs_buf_str(&b), F_OK) == 0 &&
		    access(bs_buf_str(&b), W_OK) != 0)
			rc = fail_msg(d, BS_DB_EREADONLY,
				      "'%s' beside it may not be written (an "
				      "older bstore left it when a write was "
				      "refused); remove it while no bstore "
				      "uses the archive",
				      bs_buf_str(&b));
	}
	bs_buf_release(&b);
	return rc;
}

static int check_path(struct sq_db *d)
{
	const char *path = d->path;
	int flags = d->flags;
	struct stat sb;

	if ((flags & BS_DB_OPEN_MEMORY) && strcmp(path, ":memory:") == 0)
		return 0;
	if (path[0] == '\0' || strcmp(path, ":memory:") == 0)
		return fail_msg(d, BS_DB_EOTHER,
				"an archive is a file (SQLite's in-memory "
				"database would keep nothing)");
	/* SQLite reads a name starting with "file:" as a URI: "file::memory:"
	 * and "file:x?mode=memory" keep nothing, and any other names a file
	 * that no check here would see under that name. */
	if (strncmp(path, "file:", 5) == 0)
		return fail_msg(d, BS_DB_EOTHER,
				"name the file, not a SQLite 'file:' URI "
				"('./%s' for a file of that name)",
				path);
	if (stat(path, &sb) < 0) {
		if (flags & (BS_DB_OPEN_READONLY | BS_DB_OPEN_EXISTING))
			return fail_msg(d, BS_DB_ENOTFOUND, "%s",
					strerror(errno));
		d->created = errno == ENOENT;
		return 0;
	}
	if (S_ISDIR(sb.st_mode))
		return fail_msg(d, BS_DB_EOTHER, "%s", strerror(EISDIR));
	if (!S_ISREG(sb.st_mode))
		return fail_msg(d, BS_DB_EOTHER, "not a regular file");
	if (sb.st_size == 0 &&
	    (flags & (BS_DB_OPEN_READONLY | BS_DB_OPEN_EXISTING)))
		return fail_msg(d, BS_DB_EOTHER,
				"an empty file, not yet an archive (bstore "
				"ingest or bstore run makes one)");
	if (!(flags & (BS_DB_OPEN_READONLY | BS_DB_OPEN_UNTRUSTED)))
		return writable(d, &sb);
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

/* SQLite's codes for "cannot make or write the WAL's files here". */
static int no_wal_here(int code)
{
	code &= 0xff;
	return code == SQLITE_READONLY || code == SQLITE_CANTOPEN ||
	       code == SQLITE_IOERR || code == SQLITE_FULL;
}

/* ---- opening ---------------------------------------------------------- */

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

/* Opens d->h as mode says, with the connection's settings. */
static int connect(struct sq_db *d, enum open_mode mode)
{
	int rc;

	d->mode = mode;
	if (mode == OPEN_SNAPSHOT) {
		struct bs_buf uri = BS_BUF_INIT;
		immutable_uri(d->path, &uri);
		rc = sqlite3_open_v2(bs_buf_str(&uri), &d->h,
				     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
					     SQLITE_OPEN_NOMUTEX,
				     NULL);
		bs_buf_release(&uri);
	} else {
		int how = mode == OPEN_SOURCE ? SQLITE_OPEN_READONLY
					      : SQLITE_OPEN_READWRITE;

		rc = sqlite3_open_v2(d->path, &d->h,
				     how | SQLITE_OPEN_NOMUTEX |
					     (mode == OPEN_WRITE
						      ? SQLITE_OPEN_CREATE
						      : 0),
				     NULL);
	}
	if (rc != SQLITE_OK)
		return fail_open(d);
	sqlite3_extended_result_codes(d->h, 1);
	sqlite3_busy_handler(d->h, on_busy, d);
	sq_set_cancel(&d->base, d->cancel);
	/* A merge source is another user's file, maybe a hostile one: its
	 * schema may not call functions with side effects, nor may anything
	 * change its own schema. */
	if (d->flags & BS_DB_OPEN_UNTRUSTED) {
		sqlite3_db_config(d->h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
		sqlite3_db_config(d->h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0,
				  NULL);
	}
	if (mode == OPEN_SOURCE)
		sqlite3_db_config(d->h, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
				  NULL);
	/* Runs are rows of ~600 bytes: bigger pages mean fewer of them to
	 * write and checkpoint, each a system call or two (a WAL frame is
	 * its header and its page). 32 KiB against 8 KiB: an ingest of
	 * 1,000,000 runs 5% faster, its archive 5% smaller (less room left
	 * on pages); 64 KiB moves more bytes in each index insert and is
	 * no faster (docs/benchmarks.md). Only takes effect on a new file.
	 * A bigger page cache keeps a whole file's transaction (and the
	 * sha256 index it probes) in memory instead of spilling to the WAL
	 * and reading it back; 16 MiB keeps ingest under 32 MiB. */
	if (sq_exec(&d->base, "PRAGMA foreign_keys = ON", NULL) < 0)
		return failed(d);
	if (mode == OPEN_WRITE &&
	    sq_exec(&d->base, "PRAGMA page_size = 32768", NULL) < 0)
		return failed(d);
	/* A reader's first read makes -wal and -shm when the archive is in
	 * WAL mode: where it cannot, it reads the file alone (below). Other
	 * failures are found again, and told, by the schema's check. */
	if (mode == OPEN_READ) {
		int v;
		if (query_int(d, "PRAGMA user_version", &v) < 0 &&
		    no_wal_here(d->code))
			return failed(d);
	}
	return 0;
}

static void disconnect(struct sq_db *d)
{
	sqlite3_close(d->h);
	d->h = NULL;
}

static void sq_close(struct bs_db *db);

static int sq_open(struct bs_db **out, const char *name, int flags,
		   int (*busy)(void *ctx, int count), void *ctx,
		   struct bs_err *err)
{
	int rc;

	struct sq_db *d;
	enum open_mode mode = OPEN_WRITE;

	configure_sqlite();
	d = xcalloc(1, sizeof(*d));
	d->base.ops = &bs_db_sqlite;
	d->path = xstrdup(name);
	d->flags = flags;
	d->kind = -1;
	d->busy = busy;
	d->busy_ctx = ctx;
	*out = &d->base;
	if (check_path(d) < 0)
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
	if (flags & BS_DB_OPEN_READONLY)
		mode = can_write(name) || wal_has_data(name) ? OPEN_READ
							     : OPEN_SNAPSHOT;
	/*
	 * A merge source whose WAL holds commits is read through a read-only
	 * connection: it reads the WAL (and may bring -shm up to date, as
	 * any reader does) but never checkpoints it, so the -wal file stays
	 * as it was, byte for byte. One without is read as above: a
	 * read-only connection would leave the empty -wal and -shm it made
	 * beside the file, which a read-write one removes when it closes.
	 */
	if ((flags & BS_DB_OPEN_UNTRUSTED) && mode == OPEN_READ &&
	    wal_has_data(name))
		mode = OPEN_SOURCE;
	if (connect(d, mode) == 0)
		return 0;
	if (mode == OPEN_READ && no_wal_here(d->code) && !wal_has_data(name)) {
		disconnect(d);
		if (connect(d, OPEN_SNAPSHOT) == 0)
			return 0;
	}
fail:
	rc = bs_db_fail(&d->base, err);
	sq_close(&d->base);
	*out = NULL;
	return rc;
}

static void sq_close(struct bs_db *db)
{
	struct sq_db *d = DB(db);

	if (d == NULL)
		return;
	disconnect(d);
	if (d->created && !d->settled)
		remove_new(d->path);
	free(d->path);
	free(d);
}

static const char *sq_display(const struct bs_db *db)
{
	return ((const struct sq_db *)(const void *)db)->path;
}

static int sq_settle(struct bs_db *db, struct bs_err *err)
{
	struct sq_db *d = DB(db);
	int rc = 0;

	if (d->legacy) {
		sqlite3_exec(d->h, "PRAGMA legacy_alter_table = OFF", NULL,
			     NULL, NULL);
		d->legacy = 0;
	}
	/* A snapshot stays in the journal mode it has, and so does an
	 * archive that must not be written (merge's sources), where turning
	 * on WAL would rewrite its header. */
	if (d->mode != OPEN_SNAPSHOT && !(d->flags & BS_DB_OPEN_UNTRUSTED))
		rc = exec_wait(d, "PRAGMA journal_mode = WAL; PRAGMA "
				  "synchronous = NORMAL");
	if (rc < 0 && d->mode == OPEN_READ && no_wal_here(d->code) &&
	    !wal_has_data(d->path)) {
		/* A reader that cannot make the WAL's files reads the file
		 * alone, as sq_open does. */
		disconnect(d);
		rc = connect(d, OPEN_SNAPSHOT);
	}
	if (rc == 0)
		rc = sq_exec(db, "PRAGMA cache_size = -16384", NULL);
	if (rc == 0)
		d->settled = 1;
	return rc < 0 ? bs_db_fail(db, err) : 0;
}

/* ---- before an upgrade ------------------------------------------------ */

/* Removes a backup's temporary copy and the journal SQLite keeps for
 * it. */
static void remove_tmp(const char *tmp)
{
	struct bs_buf j = BS_BUF_INIT;

	unlink(tmp);
	bs_buf_addf(&j, "%s-journal", tmp);
	unlink(bs_buf_str(&j));
	bs_buf_release(&j);
}

/*
 * Removes the temporary copies (PATH.vV.bak.tmpPID, and their -journal)
 * that a process killed while it kept a copy of this archive left, when
 * that process is gone: a live one is still writing its copy.
 */
static void remove_stale_tmps(const char *bak)
{
	struct bs_buf dir = BS_BUF_INIT, tmp = BS_BUF_INIT;
	const char *slash = strrchr(bak, '/'), *base = slash ? slash + 1 : bak;
	size_t blen = strlen(base);
	struct dirent *e;
	DIR *dh;

	if (slash == bak)
		bs_buf_adds(&dir, "/");
	else if (slash)
		bs_buf_add(&dir, bak, (size_t)(slash - bak));
	else
		bs_buf_adds(&dir, ".");
	dh = opendir(bs_buf_str(&dir));
	while (dh && (e = readdir(dh)) != NULL) {
		const char *p = e->d_name + blen;
		char *end;
		long pid;

		if (strncmp(e->d_name, base, blen) != 0 ||
		    strncmp(p, ".tmp", 4) != 0 || p[4] < '1' || p[4] > '9')
			continue;
		pid = strtol(p + 4, &end, 10);
		if ((*end != '\0' && strcmp(end, "-journal") != 0) ||
		    pid == (long)getpid() || kill((pid_t)pid, 0) == 0 ||
		    errno != ESRCH)
			continue;
		bs_buf_reset(&tmp);
		bs_buf_add(&tmp, bs_buf_str(&dir), dir.len);
		bs_buf_addf(&tmp, "/%s", e->d_name);
		unlink(bs_buf_str(&tmp));
	}
	if (dh)
		closedir(dh);
	bs_buf_release(&dir);
	bs_buf_release(&tmp);
}

/*
 * Before an archive of version v (older) is upgraded: it must be writable,
 * and a copy of it is kept as PATH.vV.bak, unless that file exists (an
 * earlier upgrade that failed made it). The copy is written under a
 * temporary name and then linked into place, so that PATH.vV.bak is
 * always a whole copy, and two processes upgrading at once keep one.
 */
static int sq_before_upgrade(struct bs_db *db, int v, struct bs_err *err)
{
	struct sq_db *d = DB(db);
	struct bs_buf bak = BS_BUF_INIT, tmp = BS_BUF_INIT;
	sqlite3_stmt *s = NULL;
	struct stat sb;
	int rc = 0;

	bs_buf_addf(&bak, "%s.v%d.bak", d->path, v);
	bs_buf_addf(&tmp, "%s.tmp%ld", bs_buf_str(&bak), (long)getpid());
	if (sqlite3_db_readonly(d->h, "main") == 1) {
		rc = fail_msg(d, BS_DB_EREADONLY,
			      "it was made by an older bstore (schema version "
			      "%d) and is upgraded to version %d when first "
			      "opened, which needs write access to it and its "
			      "directory; open it once as a user who can write "
			      "it (bstore then keeps a copy of the old file as "
			      "'%s')",
			      v, BS_SCHEMA_VERSION, bs_buf_str(&bak));
		goto out;
	}
	/* A copy a killed process was writing (kill -9: no handler ran). */
	remove_stale_tmps(bs_buf_str(&bak));
	if (stat(bs_buf_str(&bak), &sb) == 0)
		goto keep;
	remove_tmp(bs_buf_str(&tmp));
	if (sqlite3_prepare_v2(d->h, "VACUUM INTO ?", -1, &s, NULL) !=
		    SQLITE_OK ||
	    sqlite3_bind_text(s, 1, bs_buf_str(&tmp), -1, SQLITE_STATIC) !=
		    SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_DONE) {
		/* A signal (the cancel flag, through the progress handler)
		 * stops the copy; its partial file is removed below. */
		if (d->cancel && *d->cancel)
			rc = fail_msg(d, BS_DB_EINTERRUPT,
				      "interrupted while keeping a copy of it "
				      "before upgrading it; nothing changed");
		else
			rc = fail_msg(d, BS_DB_EOTHER,
				      "it was made by an older bstore (schema "
				      "version %d), and bstore keeps a copy "
				      "before upgrading it, but cannot write "
				      "'%s': %s",
				      v, bs_buf_str(&bak),
				      sqlite3_errmsg(d->h));
	} else if (link(bs_buf_str(&tmp), bs_buf_str(&bak)) < 0 &&
		   errno != EEXIST) {
		rc = fail_msg(d, BS_DB_EOTHER,
			      "cannot keep its copy as '%s': %s",
			      bs_buf_str(&bak), strerror(errno));
	}
	remove_tmp(bs_buf_str(&tmp));
keep:
	/* A user's own view over bonnie, results or latency stays as it
	 * is: the legacy mode neither rewrites nor checks views when a table
	 * is renamed (version 1's upgrade), and the objects it names are
	 * there again afterwards. Off again once settled. */
	if (rc == 0 && v == 1) {
		rc = sq_exec(db, "PRAGMA legacy_alter_table = ON", NULL);
		d->legacy = rc == 0;
	}
out:
	sqlite3_finalize(s);
	bs_buf_release(&bak);
	bs_buf_release(&tmp);
	return rc < 0 ? bs_db_fail(db, err) : 0;
}

const struct bs_db_ops bs_db_sqlite = {
	.name = "sqlite",
	.schema_file = "schema.sql",
	.open = sq_open,
	.close = sq_close,
	.display = sq_display,
	.exec = sq_exec,
	.prepare = sq_prepare,
	.finalize = sq_finalize,
	.reset = sq_reset,
	.bind_null = sq_bind_null,
	.bind_int64 = sq_bind_int64,
	.bind_double = sq_bind_double,
	.bind_text = sq_bind_text,
	.bind_blob = sq_bind_blob,
	.step = sq_step,
	.column_count = sq_column_count,
	.column_name = sq_column_name,
	.column_type = sq_column_type,
	.column_int64 = sq_column_int64,
	.column_double = sq_column_double,
	.column_text = sq_column_text,
	.column_blob = sq_column_blob,
	.column_bytes = sq_column_bytes,
	.changes = sq_changes,
	.errmsg = sq_errmsg,
	.errkind = sq_errkind,
	.get_version = sq_get_version,
	.set_version = sq_set_version,
	.has_object = sq_has_object,
	.count_objects = sq_count_objects,
	.referrers = sq_referrers,
	.check_untrusted = sq_check_untrusted,
	.set_cancel = sq_set_cancel,
	.before_upgrade = sq_before_upgrade,
	.settle = sq_settle,
	.bulk = sq_bulk,
	.glob = sq_glob,
	.lower_ascii = "",
	.begin_write_sql = "BEGIN IMMEDIATE",
	.writer = BS_DB_WRITE_DIRECT,
};
