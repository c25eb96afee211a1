/*
 * store/db.h - the store's database engines, one table of operations
 * (struct bs_db_ops) with a row for each engine: SQLite (store/db_sqlite.c)
 * and PostgreSQL through libpq (store/db_pg.c). Only store/ includes this
 * header; store/*.c speak to a database only through it, never through
 * sqlite3.h or libpq-fe.h directly (those are included by their row's
 * file alone).
 *
 * The engine is chosen by the archive's name (bs_db_engine): a name that
 * starts with "postgresql://" or "postgres://" is PostgreSQL, any other
 * name is a SQLite file.
 *
 * SQL given to bs_db_prepare is written once, in the dialect both engines
 * share: '?' placeholders (numbered $1, $2 ... for PostgreSQL by its row),
 * INSERT ... ON CONFLICT DO NOTHING, INSERT ... RETURNING id. What differs
 * (schema version, settings, catalogue queries) is an operation of the
 * table, not an if in the callers.
 *
 * Statements work as SQLite's do: bind, step until BS_DB_DONE, reset,
 * bind again. Columns and parameters are numbered from 0 (columns) and 1
 * (parameters), as in SQLite. A column's text stays valid until the next
 * step, reset or finalize of its statement.
 */
#ifndef BS_STORE_DB_H
#define BS_STORE_DB_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct bs_db;      /* one connection; its first member is its ops row */
struct bs_db_stmt; /* one prepared statement */

enum bs_db_step {
	BS_DB_ROW = 1,  /* a row is ready to read */
	BS_DB_DONE = 0, /* no more rows; for a write, it was done */
	/* < 0: an error; bs_db_errmsg() says which */
};

/* What went wrong, in the engines' common terms (bs_db_errkind). */
enum bs_db_errkind {
	BS_DB_EOTHER = 0,
	BS_DB_EBUSY,       /* locked by another writer; worth waiting for */
	BS_DB_ECONSTRAINT, /* a unique, check or foreign key refused a row */
	BS_DB_EREADONLY,   /* this connection may not write */
	BS_DB_EINTERRUPT,  /* stopped by the cancel flag */
	BS_DB_EGONE,       /* the server went away, or the file was lost */
	BS_DB_ECORRUPT,    /* not a bstore archive, or damaged */
};

enum bs_db_type {
	BS_DB_NULL = 0,
	BS_DB_INT,
	BS_DB_FLOAT,
	BS_DB_TEXT,
	BS_DB_BLOB,
};

enum {
	BS_DB_OPEN_READONLY = 1, /* no writes (SQLite: SQLITE_OPEN_READONLY) */
	BS_DB_OPEN_CREATE = 2,   /* a missing SQLite file is created */
	BS_DB_OPEN_MEMORY = 4,   /* SQLite's ":memory:" (scratch) */
};

struct bs_db_ops {
	const char *name; /* "sqlite", "postgresql" */
	/* Opens name (a path or URL); on failure *out may still be set, so
	 * that errmsg can say why, and must be closed. 0 or -1. */
	int (*open)(struct bs_db **out, const char *name, int flags);
	void (*close)(struct bs_db *db);
	/* The archive's name as messages show it: a URL without password. */
	const char *(*display)(const struct bs_db *db);
	/* Several statements without parameters or results. 0 or -1. */
	int (*exec)(struct bs_db *db, const char *sql);
	int (*prepare)(struct bs_db *db, const char *sql,
		       struct bs_db_stmt **out);
	void (*finalize)(struct bs_db_stmt *s);
	int (*reset)(struct bs_db_stmt *s);
	int (*bind_null)(struct bs_db_stmt *s, int i);
	int (*bind_int64)(struct bs_db_stmt *s, int i, int64_t v);
	int (*bind_double)(struct bs_db_stmt *s, int i, double v);
	/* Copies the text (n bytes, or strlen when n < 0). */
	int (*bind_text)(struct bs_db_stmt *s, int i, const char *v,
			 ptrdiff_t n);
	int (*bind_blob)(struct bs_db_stmt *s, int i, const void *v,
			 size_t n);
	int (*step)(struct bs_db_stmt *s);
	int (*column_count)(struct bs_db_stmt *s);
	const char *(*column_name)(struct bs_db_stmt *s, int col);
	enum bs_db_type (*column_type)(struct bs_db_stmt *s, int col);
	int64_t (*column_int64)(struct bs_db_stmt *s, int col);
	double (*column_double)(struct bs_db_stmt *s, int col);
	/* NULL for SQL NULL. */
	const char *(*column_text)(struct bs_db_stmt *s, int col);
	size_t (*column_bytes)(struct bs_db_stmt *s, int col);
	/* Rows the last write statement changed. */
	int64_t (*changes)(struct bs_db *db);
	const char *(*errmsg)(struct bs_db *db);
	enum bs_db_errkind (*errkind)(struct bs_db *db);
	/* The schema version the archive records, 0 for an empty database,
	 * -1 on error; and setting it (inside the caller's transaction). */
	int (*get_version)(struct bs_db *db, int *version);
	int (*set_version)(struct bs_db *db, int version);
	/* Whether a table of that name exists: 1, 0, or -1 on error. */
	int (*has_table)(struct bs_db *db, const char *table);
	/* Stops long statements when *flag becomes non-zero (NULL: off). */
	void (*set_cancel)(struct bs_db *db,
			   const volatile sig_atomic_t *flag);
	/* BEGIN that takes the write lock at once (SQLite's BEGIN
	 * IMMEDIATE; PostgreSQL's BEGIN, writes lock rows as they go). */
	const char *begin_write_sql;
};

/* Every connection starts with its row, so the wrappers below find it. */
struct bs_db {
	const struct bs_db_ops *ops;
};
struct bs_db_stmt {
	const struct bs_db_ops *ops;
};

extern const struct bs_db_ops bs_db_sqlite;
extern const struct bs_db_ops bs_db_pg; /* NULL-like stub when built
					   without libpq: open fails */

/* The row for an archive name: PostgreSQL for a postgres[ql]:// URL. */
const struct bs_db_ops *bs_db_engine(const char *name);
/* Whether name is a PostgreSQL URL. */
int bs_db_is_url(const char *name);

/* The wrappers every caller uses (they call through s->ops). */
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
static inline int bs_db_bind_text(struct bs_db_stmt *s, int i, const char *v,
				  ptrdiff_t n)
{
	return v ? s->ops->bind_text(s, i, v, n) : s->ops->bind_null(s, i);
}
static inline int bs_db_column_count(struct bs_db_stmt *s)
{
	return s->ops->column_count(s);
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
/*
 * Binds parameter i of dst to column col of src's current row, keeping
 * its type (merge copies rows this way, across engines too).
 */
int bs_db_bind_column(struct bs_db_stmt *dst, int i, struct bs_db_stmt *src,
		      int col);

#endif
