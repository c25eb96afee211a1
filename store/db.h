/*
 * store/db.h - the store's database engines, one table of operations
 * (struct bs_db_ops) with a row for each engine: SQLite (store/db_sqlite.c)
 * and PostgreSQL through libpq (store/db_pg.c). Only store/ includes this
 * header; the store's files speak to a database only through it, never through
 * sqlite3.h or libpq-fe.h directly (those are included by their row's
 * file alone).
 *
 * The engine is chosen by the archive's name (bs_db_engine): a name that
 * starts with "postgresql://" or "postgres://" is PostgreSQL, any other
 * name is a SQLite file.
 *
 * SQL given to bs_db_prepare is written once, in the dialect both engines
 * share: '?' placeholders, numbered in order ($1, $2 ... for PostgreSQL
 * by its row), or '?N' for the N-th parameter where one value is used
 * twice ($N); INSERT ... ON CONFLICT DO NOTHING or DO UPDATE, never
 * INSERT OR IGNORE/REPLACE; INSERT ... RETURNING id, never the last rowid
 * (" RETURNING id" ends the statement: SQLite's row runs the INSERT alone
 * and returns its rowid, which costs nothing);
 * COALESCE, never IFNULL; TRUE and FALSE for booleans; IS NOT DISTINCT
 * FROM, never IS between two values; no PRAGMA and no function one engine
 * lacks (printf, glob, julianday, strftime, datetime, hex...): such work
 * is done in C or is an operation of the table. What differs (schema
 * version, settings, catalogue queries, the text match of selectors) is
 * an operation of the table, not an if in the callers.
 *
 * Statements work as SQLite's do: bind, step until BS_DB_DONE, reset,
 * bind again. Columns and parameters are numbered from 0 (columns) and 1
 * (parameters), as in SQLite. A column's text stays valid until the next
 * step, reset or finalize of its statement. Bound text and blobs are
 * borrowed: they must stay valid until the statement's next step.
 * Column names (column_count, column_name) are known once prepared,
 * before any step.
 *
 * Errors (util/err.h). The connection's operations (open, exec, prepare,
 * the catalogue's, begin_write, ...) take a struct bs_err * and return 0
 * (or a count, or fn's return, as each says) or a negative -BS_E* code
 * with err filled: its message is the engine's reason alone ("no such
 * table: runs"), which the store puts after "PATH: what: "
 * (bs_store_db_fail); its code is the failure's kind as a code
 * (bs_db_kind_code: BS_EINTR interrupted, BS_ENOTFOUND no such archive,
 * else BS_EDB). err may be NULL. The statements' hot operations (bind_*,
 * step, reset, defer) take none: they are on every row of an ingest and
 * return a negative -BS_E* code alone, which the store words through one
 * helper (bs_store_db_error, store/internal.h) from the connection's
 * errmsg. Every failure leaves errmsg and errkind (the finer kind: busy,
 * constraint, read-only ...) on the connection until its next failure.
 * No operation returns -1.
 */
#ifndef BS_STORE_DB_H
#define BS_STORE_DB_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/err.h"

struct bs_db;      /* one connection; its first member is its ops row */
struct bs_db_stmt; /* one prepared statement */

enum bs_db_step {
	BS_DB_ROW = 1,  /* a row is ready to read */
	BS_DB_DONE = 0, /* no more rows; for a write, it was done */
			/* < 0: an error, -BS_E*; bs_db_errmsg() says which */
};

/* What went wrong, in the engines' common terms (bs_db_errkind). */
enum bs_db_errkind {
	BS_DB_EOTHER = 0,
	BS_DB_EBUSY,       /* locked by another writer; worth waiting for */
	BS_DB_ECONSTRAINT, /* the schema refused a row: a unique, check or
			      foreign key, a type, a size */
	BS_DB_EREADONLY,   /* this connection may not write */
	BS_DB_EINTERRUPT,  /* stopped by the cancel flag */
	BS_DB_EGONE,       /* the server went away, or the file was lost */
	BS_DB_ECORRUPT,    /* not a bstore archive, or damaged */
	BS_DB_ENOTFOUND,   /* open: no such archive */
};

/* bs_db_ops.writer. */
enum bs_db_writer {
	/* Each statement waits for its result (SQLite: a lookup costs
	 * less than keeping the runs in memory). */
	BS_DB_WRITE_DIRECT = 0,
	/* Every statement is a round trip to a server (PostgreSQL): a write
	 * transaction keeps the runs it knows in memory (seen.c) and sends
	 * a new run's rows without waiting (defer; COPY for BS_DB_BATCH). */
	BS_DB_WRITE_PIPELINED,
};

enum bs_db_type {
	BS_DB_NULL = 0,
	BS_DB_INT,
	BS_DB_FLOAT,
	BS_DB_TEXT,
	BS_DB_BLOB,
};

/* bs_db_ops.open's flags. */
enum {
	BS_DB_OPEN_READONLY = 1,  /* a reader: no writes */
	BS_DB_OPEN_EXISTING = 2,  /* refuse a missing or empty archive */
	BS_DB_OPEN_MEMORY = 4,    /* SQLite's ":memory:" is allowed (scratch) */
	BS_DB_OPEN_UNTRUSTED = 8, /* merge's source: another user's archive,
				     read and never changed */
};

/* bs_db_ops.prepare's flags. */
enum {
	BS_DB_KEEP = 1, /* kept for the connection's life: worth planning */
	/* A plain INSERT of one row ("INSERT INTO t (cols) VALUES (?, ...)",
	 * maybe "RETURNING id"), whose values read as their columns' types
	 * from text: its deferred rows (bs_db_defer) may be sent together,
	 * table by table in the order their statements were prepared (a
	 * row may refer only to rows of statements prepared before;
	 * PostgreSQL: COPY FROM STDIN, before the next statement that
	 * waits). */
	BS_DB_BATCH = 2,
};

/* One rewrite of schema.sql for an engine (store/db_schema.c). */
struct bs_db_rewrite {
	const char *from, *to;
};

struct bs_db_ops {
	const char *name; /* "sqlite", "postgresql" */
	/* The embedded schema file this engine creates (util/embed.h). */
	const char *schema_file;
	/* How the engine's SQL differs from the schema file's: rules
	 * bs_db_schema walks, ended by {NULL, NULL}; NULL: none. */
	const struct bs_db_rewrite *schema_rewrites;
	/*
	 * Opens name (a path or URL). Another writer's lock is waited for
	 * from the first statement on: busy (the store's policy) is called
	 * with ctx and the number of tries so far, and returns 0 to give
	 * up. On failure *out is NULL and err says why ("cannot open
	 * archive 'NAME': " goes before it; BS_ENOTFOUND for a missing
	 * archive with BS_DB_OPEN_EXISTING). 0 or -BS_E*.
	 */
	int (*open)(struct bs_db **out, const char *name, int flags,
		    int (*busy)(void *ctx, int count), void *ctx,
		    struct bs_err *err);
	/* Closes; a new SQLite file never settled is removed. */
	void (*close)(struct bs_db *db);
	/* The archive's name as messages show it: a URL without password. */
	const char *(*display)(const struct bs_db *db);
	/* Several statements without parameters or results. 0 or -BS_E*. */
	int (*exec)(struct bs_db *db, const char *sql, struct bs_err *err);
	/* 0 and *out, or -BS_E* and *out NULL. */
	int (*prepare)(struct bs_db *db, const char *sql, int flags,
		       struct bs_db_stmt **out, struct bs_err *err);
	void (*finalize)(struct bs_db_stmt *s);
	/* The hot operations: 0 (step: BS_DB_ROW, BS_DB_DONE) or -BS_E*,
	 * no bs_err (see above). */
	int (*reset)(struct bs_db_stmt *s);
	int (*bind_null)(struct bs_db_stmt *s, int i);
	int (*bind_int64)(struct bs_db_stmt *s, int i, int64_t v);
	int (*bind_double)(struct bs_db_stmt *s, int i, double v);
	/* Borrows the text (n bytes, or strlen when n < 0). */
	int (*bind_text)(struct bs_db_stmt *s, int i, const char *v,
			 ptrdiff_t n);
	int (*bind_blob)(struct bs_db_stmt *s, int i, const void *v, size_t n);
	int (*step)(struct bs_db_stmt *s);
	int (*column_count)(struct bs_db_stmt *s);
	const char *(*column_name)(struct bs_db_stmt *s, int col);
	enum bs_db_type (*column_type)(struct bs_db_stmt *s, int col);
	int64_t (*column_int64)(struct bs_db_stmt *s, int col);
	double (*column_double)(struct bs_db_stmt *s, int col);
	/* NULL for SQL NULL. */
	const char *(*column_text)(struct bs_db_stmt *s, int col);
	const void *(*column_blob)(struct bs_db_stmt *s, int col);
	/* The bytes of column_text or column_blob, whichever was read. */
	size_t (*column_bytes)(struct bs_db_stmt *s, int col);
	/* Rows the last write statement changed. */
	int64_t (*changes)(struct bs_db *db);
	const char *(*errmsg)(struct bs_db *db);
	enum bs_db_errkind (*errkind)(struct bs_db *db);
	/* The schema version the archive records, 0 for an empty database;
	 * the first read of an archive: its failure's errmsg is a reason
	 * for "cannot open archive". And setting it (inside the caller's
	 * transaction). 0 or -BS_E*. */
	int (*get_version)(struct bs_db *db, int *version, struct bs_err *err);
	int (*set_version)(struct bs_db *db, int version, struct bs_err *err);
	/* Whether a table, index or view of that name exists (*has: 1 or
	 * 0). 0 or -BS_E*. */
	int (*has_object)(struct bs_db *db, const char *name, int *has,
			  struct bs_err *err);
	/* How many tables, indexes and views the archive holds (a count),
	 * or -BS_E*. */
	int (*count_objects)(struct bs_db *db, struct bs_err *err);
	/*
	 * Calls fn with each table that has a foreign key to table, and its
	 * column that refers to it, ordered by table name. 0, fn's negative
	 * return (err untouched: fn's caller words it), or -BS_E*.
	 */
	int (*referrers)(struct bs_db *db, const char *table,
			 int (*fn)(const char *table, const char *col,
				   void *ctx),
			 void *ctx, struct bs_err *err);
	/*
	 * Of an untrusted archive (merge's source): whether the tables
	 * named (runs first) are plain tables as bstore makes them, so
	 * that reading them runs nothing but the reads, and the archive has
	 * no trigger. 0, or -BS_EDB with err saying what is wrong ("its
	 * 'runs' is a view, ...", to follow "NAME: "; errkind
	 * BS_DB_ECORRUPT).
	 */
	int (*check_untrusted)(struct bs_db *db, const char *const *tables,
			       size_t n, struct bs_err *err);
	/* Stops long statements when *flag becomes non-zero (NULL: off). */
	void (*set_cancel)(struct bs_db *db, const volatile sig_atomic_t *flag);
	/*
	 * Before an archive of schema version v (older) is upgraded, in the
	 * caller's read: whether it may be, keeping what the engine keeps
	 * of the old one (SQLite: a copy, PATH.vV.bak). 0, or -BS_E* with
	 * err a reason for "cannot open archive".
	 */
	int (*before_upgrade)(struct bs_db *db, int v, struct bs_err *err);
	/* The archive's schema is checked: settings that need a bstore
	 * archive (SQLite's WAL). A new archive is kept from now on.
	 * 0 or -BS_E*. */
	int (*settle)(struct bs_db *db, struct bs_err *err);
	/* Many savepoints follow (merge): on, and off again. */
	void (*bulk)(struct bs_db *db, int on);
	/*
	 * Appends to sql the condition "col matches the glob pattern" (the
	 * selector's text: * any text, ? one character, [...] a class as
	 * SQLite's GLOB reads it; case as is). With value non-NULL the
	 * condition has one '?' and value gets the text to bind; with value
	 * NULL the pattern (trusted, without quotes) is written into the
	 * SQL as a literal, as a partial index's WHERE has it.
	 */
	void (*glob)(struct bs_buf *sql, const char *col, const char *pattern,
		     struct bs_buf *value);
	/* What follows a column inside lower() so that it folds as
	 * SQLite's lower() does, ASCII letters only, whatever the
	 * database's collation (a selector's ~, store/select.c). */
	const char *lower_ascii;
	/* BEGIN that takes the write lock at once (SQLite's BEGIN
	 * IMMEDIATE; PostgreSQL's BEGIN, writes lock rows as they go). */
	const char *begin_write_sql;
	/*
	 * That BEGIN, saying before it waits who holds the lock, as the
	 * engine can tell (PostgreSQL: "bstore@HOST (10.0.0.5, pid 4242,
	 * for 3 s)"): waiting is called with it. NULL: begin_write_sql,
	 * waited for silently. 0 or -BS_E*.
	 */
	int (*begin_write)(struct bs_db *db,
			   void (*waiting)(const char *who, void *ctx),
			   void *ctx, struct bs_err *err);
	/* How a write transaction's rows go (store/writer.c chooses its
	 * writer by it when the transaction begins). */
	enum bs_db_writer writer;
	/*
	 * Runs a write whose result is not read (not a query), as step and
	 * reset would: 0 or -BS_E* (a hot operation: no bs_err). The
	 * engine may send it and go on without waiting (PostgreSQL's
	 * pipeline mode): its failure is then
	 * reported by the connection's next statement that waits for the
	 * server (its errmsg is the deferred one's), at the latest COMMIT.
	 * NULL: step and reset (bs_db_defer).
	 */
	int (*defer)(struct bs_db_stmt *s);
	/* Whether a and b (open, of this engine) are the same archive, as
	 * the server knows them; NULL: the engine's archives are files,
	 * compared as files by their callers. */
	int (*same)(struct bs_db *a, struct bs_db *b);
};

/* Every connection starts with its row, so the wrappers below find it. */
struct bs_db {
	const struct bs_db_ops *ops;
};
struct bs_db_stmt {
	const struct bs_db_ops *ops;
};

extern const struct bs_db_ops bs_db_sqlite;
extern const struct bs_db_ops bs_db_pg; /* without libpq: open fails */

/* The code (BS_E*, positive) of a failure of kind k: BS_EINTR for
 * BS_DB_EINTERRUPT, BS_ENOTFOUND for BS_DB_ENOTFOUND, else BS_EDB. */
int bs_db_kind_code(enum bs_db_errkind k);
/*
 * For the engines' rows: fills err with db's last failure (errmsg, and
 * errkind's code) and returns that code, negative. err may be NULL (an
 * engine's own use of its operations: the failure stays on db).
 */
int bs_db_fail(struct bs_db *db, struct bs_err *err);

/* The row for an archive name: PostgreSQL for a postgres[ql]:// URL. */
/*
 * Non-zero while a statement sent to a server is running for bstore or is
 * waited for (an engine that has one: PostgreSQL); a stop signal's handler
 * reads it (bs_store_engaged).
 */
extern volatile sig_atomic_t bs_db_engaged;
const struct bs_db_ops *bs_db_engine(const char *name);
/* Whether name is a PostgreSQL URL. */
int bs_db_is_url(const char *name);
/*
 * What may be shown of an archive's name (malloc'd): a path as it is; a
 * connection string (a URL, or libpq's key=value form) as libpq reads it
 * (PQconninfoParse), rebuilt without every option libpq marks secret
 * (dispchar "*": password, sslpassword, ...), however it was spelled.
 * One libpq cannot read is shown as its scheme only. Every message,
 * summary, page and file that names an archive uses it (store/db_pg.c;
 * without libpq store/db_pg_stub.c keeps only the host and database).
 */
char *bs_db_shown(const char *name);

/*
 * The glob pattern as a POSIX regular expression (PostgreSQL's ~) that
 * matches the same text as SQLite's GLOB: anchored, every other
 * character literal. A pattern with an unclosed '[' matches nothing, as
 * in SQLite.
 */
void bs_db_glob_regex(const char *glob, struct bs_buf *out);
/*
 * The same for a database whose regular expressions see bytes
 * (PostgreSQL's SQL_ASCII): '?', '*' and classes take whole UTF-8
 * characters as SQLite reads them; the expression is ASCII (other bytes
 * as \u00XX). bs_db_glob_by_char: whether the two differ for glob (it
 * has a '?' or a class).
 */
void bs_db_glob_regex_bytes(const char *glob, struct bs_buf *out);
int bs_db_glob_by_char(const char *glob);

/*
 * Appends to out the schema file's text sql (len bytes) as the engine
 * runs it: rewritten by ops->schema_rewrites outside comments and quotes.
 */
void bs_db_schema(const struct bs_db_ops *ops, const char *sql, size_t len,
		  struct bs_buf *out);
/* PostgreSQL's rewrites of schema.sql (docs/schema.md). */
extern const struct bs_db_rewrite bs_db_pg_schema[];

/* The wrappers every caller uses (they call through s->ops); no file but
 * this one and the engines' rows reads ->ops (tests/cli/rooms.sh). */
static inline int bs_db_open(const struct bs_db_ops *ops, struct bs_db **out,
			     const char *name, int flags,
			     int (*busy)(void *ctx, int count), void *ctx,
			     struct bs_err *err)
{
	return ops->open(out, name, flags, busy, ctx, err);
}
static inline void bs_db_close(struct bs_db *db)
{
	if (db)
		db->ops->close(db);
}
static inline const struct bs_db_ops *bs_db_ops_of(const struct bs_db *db)
{
	return db->ops;
}
static inline const char *bs_db_display(const struct bs_db *db)
{
	return db->ops->display(db);
}
static inline const char *bs_db_schema_file(const struct bs_db *db)
{
	return db->ops->schema_file;
}
static inline int bs_db_get_version(struct bs_db *db, int *version,
				    struct bs_err *err)
{
	return db->ops->get_version(db, version, err);
}
static inline int bs_db_set_version(struct bs_db *db, int version,
				    struct bs_err *err)
{
	return db->ops->set_version(db, version, err);
}
static inline int bs_db_has_object(struct bs_db *db, const char *name, int *has,
				   struct bs_err *err)
{
	return db->ops->has_object(db, name, has, err);
}
static inline int bs_db_count_objects(struct bs_db *db, struct bs_err *err)
{
	return db->ops->count_objects(db, err);
}
static inline int bs_db_referrers(struct bs_db *db, const char *table,
				  int (*fn)(const char *table, const char *col,
					    void *ctx),
				  void *ctx, struct bs_err *err)
{
	return db->ops->referrers(db, table, fn, ctx, err);
}
static inline int bs_db_check_untrusted(struct bs_db *db,
					const char *const *tables, size_t n,
					struct bs_err *err)
{
	return db->ops->check_untrusted(db, tables, n, err);
}
static inline void bs_db_set_cancel(struct bs_db *db,
				    const volatile sig_atomic_t *flag)
{
	db->ops->set_cancel(db, flag);
}
static inline int bs_db_before_upgrade(struct bs_db *db, int v,
				       struct bs_err *err)
{
	return db->ops->before_upgrade(db, v, err);
}
static inline int bs_db_settle(struct bs_db *db, struct bs_err *err)
{
	return db->ops->settle(db, err);
}
static inline void bs_db_bulk(struct bs_db *db, int on)
{
	db->ops->bulk(db, on);
}
static inline void bs_db_glob(struct bs_db *db, struct bs_buf *sql,
			      const char *col, const char *pattern,
			      struct bs_buf *value)
{
	db->ops->glob(sql, col, pattern, value);
}
static inline const char *bs_db_lower_ascii(const struct bs_db *db)
{
	return db->ops->lower_ascii;
}
static inline const char *bs_db_begin_write_sql(const struct bs_db *db)
{
	return db->ops->begin_write_sql;
}
/* begin_write, or begin_write_sql run by exec when the row has none. */
static inline int bs_db_begin_write(struct bs_db *db,
				    void (*waiting)(const char *who, void *ctx),
				    void *ctx, struct bs_err *err)
{
	if (db->ops->begin_write == NULL)
		return db->ops->exec(db, db->ops->begin_write_sql, err);
	return db->ops->begin_write(db, waiting, ctx, err);
}
static inline enum bs_db_writer bs_db_writer(const struct bs_db *db)
{
	return db->ops->writer;
}
/* Whether a and b are the same archive as the server knows them: 1, or 0
 * (also for an engine whose archives are files: compared as files). */
static inline int bs_db_same(struct bs_db *a, struct bs_db *b)
{
	return a->ops == b->ops && a->ops->same && a->ops->same(a, b);
}
static inline int bs_db_prepare(struct bs_db *db, const char *sql, int flags,
				struct bs_db_stmt **out, struct bs_err *err)
{
	return db->ops->prepare(db, sql, flags, out, err);
}
static inline int bs_db_exec(struct bs_db *db, const char *sql,
			     struct bs_err *err)
{
	return db->ops->exec(db, sql, err);
}
static inline const char *bs_db_errmsg(struct bs_db *db)
{
	return db->ops->errmsg(db);
}
static inline enum bs_db_errkind bs_db_errkind(struct bs_db *db)
{
	return db->ops->errkind(db);
}
static inline int64_t bs_db_changes(struct bs_db *db)
{
	return db->ops->changes(db);
}
static inline int bs_db_step(struct bs_db_stmt *s)
{
	return s->ops->step(s);
}
static inline int bs_db_reset(struct bs_db_stmt *s)
{
	return s->ops->reset(s);
}
static inline void bs_db_finalize(struct bs_db_stmt *s)
{
	if (s)
		s->ops->finalize(s);
}
static inline int bs_db_bind_null(struct bs_db_stmt *s, int i)
{
	return s->ops->bind_null(s, i);
}
static inline int bs_db_bind_int64(struct bs_db_stmt *s, int i, int64_t v)
{
	return s->ops->bind_int64(s, i, v);
}
static inline int bs_db_bind_double(struct bs_db_stmt *s, int i, double v)
{
	return s->ops->bind_double(s, i, v);
}
/* NULL binds SQL NULL. */
static inline int bs_db_bind_text(struct bs_db_stmt *s, int i, const char *v,
				  ptrdiff_t n)
{
	return v ? s->ops->bind_text(s, i, v, n) : s->ops->bind_null(s, i);
}
static inline int bs_db_bind_blob(struct bs_db_stmt *s, int i, const void *v,
				  size_t n)
{
	return s->ops->bind_blob(s, i, v, n);
}
static inline int bs_db_column_count(struct bs_db_stmt *s)
{
	return s->ops->column_count(s);
}
static inline const char *bs_db_column_name(struct bs_db_stmt *s, int c)
{
	return s->ops->column_name(s, c);
}
static inline enum bs_db_type bs_db_column_type(struct bs_db_stmt *s, int c)
{
	return s->ops->column_type(s, c);
}
static inline int64_t bs_db_column_int64(struct bs_db_stmt *s, int c)
{
	return s->ops->column_int64(s, c);
}
static inline double bs_db_column_double(struct bs_db_stmt *s, int c)
{
	return s->ops->column_double(s, c);
}
static inline const char *bs_db_column_text(struct bs_db_stmt *s, int c)
{
	return s->ops->column_text(s, c);
}
static inline const void *bs_db_column_blob(struct bs_db_stmt *s, int c)
{
	return s->ops->column_blob(s, c);
}
static inline size_t bs_db_column_bytes(struct bs_db_stmt *s, int c)
{
	return s->ops->column_bytes(s, c);
}
static inline int bs_db_defer(struct bs_db_stmt *s)
{
	int rc;

	if (s->ops->defer)
		return s->ops->defer(s);
	rc = s->ops->step(s);
	s->ops->reset(s);
	return rc < 0 ? rc : 0;
}
/*
 * Binds parameter i of dst to column col of src's current row, keeping
 * its type (merge copies rows this way, across engines too).
 */
int bs_db_bind_column(struct bs_db_stmt *dst, int i, struct bs_db_stmt *src,
		      int col);

#endif
