/*
 * store/internal.h - what the store's files share; not part of its public
 * face (store/store.h). The store is the only module that includes
 * sqlite3.h.
 */
#ifndef BS_STORE_INTERNAL_H
#define BS_STORE_INTERNAL_H

#include <signal.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* Parameter columns of `runs`, in the order of struct bs_params. */
#define NPARAMS 11
extern const char *const bs_store_param_cols[NPARAMS];

struct bs_store {
	sqlite3 *db;
	char *path;
	int in_tx;
	int wait_ms; /* see bs_store_set_wait() */
	const volatile sig_atomic_t *cancel;
	int64_t busy_since_ms;
	sqlite3_stmt *put; /* INSERT INTO runs ... */
	sqlite3_stmt *dup; /* SELECT id FROM runs WHERE sha256 = ? */
	sqlite3_stmt *put_tag;
	sqlite3_stmt *put_lat;
	sqlite3_stmt *reject;
};

/* The field of p behind bs_store_param_cols[i]. */
int64_t *bs_store_param_ptr(struct bs_params *p, size_t i);

/* "PATH: what: SQLite's message", as BS_EDB; returns -BS_EDB. */
int bs_store_db_error(struct bs_store *st, struct bs_err *err,
                      const char *what);
/* Runs SQL without results. */
int bs_store_exec(struct bs_store *st, const char *sql, struct bs_err *err);
/* Prepares a statement kept for the connection's life. */
int bs_store_prepare(struct bs_store *st, const char *sql, sqlite3_stmt **out,
                     struct bs_err *err);
/* Prepares the statements of store/write.c (archives opened to write). */
int bs_store_prepare_writes(struct bs_store *st, struct bs_err *err);
/* The column of runs that a selector's key=value term names, or NULL
 * when key is a tag key. */
const char *bs_store_run_column(const char *key, size_t len);

#endif
