/*
 * store/open.c - opening the archive through its engine's row (store/db.h):
 * checking its schema, waiting for another process's lock, transactions,
 * and the default archive path.
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

const char *bs_store_db_reason(struct bs_store *st)
{
	return bs_db_errmsg(st->db);
}

int bs_store_db_error(struct bs_store *st, struct bs_err *err, const char *what)
{
	int code = bs_db_kind_code(bs_db_errkind(st->db));

	if (what == NULL)
		return bs_error(err, code, "%s: %s", st->path,
				bs_store_db_reason(st));
	return bs_error(err, code, "%s: %s: %s", st->path, what,
			bs_store_db_reason(st));
}

int bs_store_db_fail(struct bs_store *st, struct bs_err *err, const char *what,
		     const struct bs_err *why)
{
	if (what == NULL)
		return bs_error(err, why->code, "%s: %s", st->path, why->msg);
	return bs_error(err, why->code, "%s: %s: %s", st->path, what, why->msg);
}

int bs_store_exec(struct bs_store *st, const char *sql, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;

	if (bs_db_exec(st->db, sql, &dbe) < 0)
		return bs_store_db_fail(st, err, NULL, &dbe);
	return 0;
}

int bs_store_exec_wait(struct bs_store *st, const char *sql, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	int count = 0;

	while (bs_db_exec(st->db, sql, &dbe) < 0) {
		if (bs_db_errkind(st->db) != BS_DB_EBUSY ||
		    !bs_store_on_busy(st, count++))
			return bs_store_db_fail(st, err, NULL, &dbe);
		bs_err_reset(&dbe);
	}
	return 0;
}

int bs_store_step_done(struct bs_store *st, struct bs_db_stmt *s,
		       const char *what, struct bs_err *err)
{
	int rc = bs_db_step(s);

	bs_db_reset(s);
	if (rc != BS_DB_DONE)
		return bs_store_db_error(st, err, what);
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

int bs_store_prepare(struct bs_store *st, const char *sql,
		     struct bs_db_stmt **out, struct bs_err *err)
{
	return bs_store_prepare_as(st, sql, BS_DB_KEEP, out,
				   "cannot prepare statement", err);
}

int bs_store_prepare_as(struct bs_store *st, const char *sql, int flags,
			struct bs_db_stmt **out, const char *what,
			struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;

	if (bs_db_prepare(st->db, sql, flags, out, &dbe) < 0)
		return bs_store_db_fail(st, err, what, &dbe);
	return 0;
}

/* "cannot open archive 'PATH': <reason>", for failures while opening. */
int bs_store_open_error(struct bs_store *st, struct bs_err *err,
			const struct bs_err *why)
{
	return bs_error(err, why->code, "cannot open archive '%s': %s",
			st->path, why->msg);
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for another process's lock, in short sleeps so that a cancel flag
 * set by a signal handler ends the wait at once (the engine's busy
 * handler calls it). */
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
	if (st->db)
		bs_db_set_cancel(st->db, cancel);
}

int bs_store_engaged(void)
{
	return bs_db_engaged != 0;
}

const char *bs_store_path(const struct bs_store *st)
{
	return st->path;
}

int bs_store_upgraded_from(const struct bs_store *st)
{
	return st->upgraded_from;
}

/* ---- opening ---------------------------------------------------------- */

/* Closes the connection and its statements, keeping the rest of st. */
static void disconnect(struct bs_store *st)
{
	struct bs_db_stmt **const stmts[] = {
		&st->put,       &st->dup,     &st->same_table,
		&st->same_line, &st->put_tag, &st->put_tag_new,
		&st->put_lat,   &st->put_res, &st->put_par,
		&st->put_ser,   &st->reject,  &st->put_hist,
		&st->put_dist,  &st->max_id,
	};
	size_t i;

	bs_store_getter_free(st);
	bs_store_seen_forget(st);
	for (i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++) {
		bs_db_finalize(*stmts[i]);
		*stmts[i] = NULL;
	}
	bs_db_close(st->db);
	st->db = NULL;
	st->in_tx = 0;
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
	const struct bs_db_ops *ops = bs_db_engine(path);
	int readonly = (flags & BS_STORE_READONLY) != 0, dbflags = 0, rc;
	struct bs_err dbe = BS_ERR_INIT;
	struct bs_store *st;

	*out = NULL;
	st = xcalloc(1, sizeof(*st));
	st->writer = bs_store_writer_direct();
	/* A URL is shown without its secrets (and a path libpq would read
	 * as a connection string too), as the engine's display is. */
	st->path = bs_db_shown(path);
	st->cancel = cancel;
	st->wait_ms = BS_STORE_WAIT_MS;
	st->no_upgrade = (flags & BS_STORE_NO_UPGRADE) != 0;
	bs_store_columns(st);
	if (flags & BS_STORE_READONLY)
		dbflags |= BS_DB_OPEN_READONLY;
	if (flags & BS_STORE_EXISTING)
		dbflags |= BS_DB_OPEN_EXISTING;
	if (flags & BS_STORE_SCRATCH)
		dbflags |= BS_DB_OPEN_MEMORY;
	if (flags & BS_STORE_NO_UPGRADE)
		dbflags |= BS_DB_OPEN_UNTRUSTED;
	rc = bs_db_open(ops, &st->db, path, dbflags, bs_store_on_busy, st,
			&dbe);
	if (rc < 0) {
		rc = bs_store_open_error(st, err, &dbe);
		goto fail;
	}
	bs_store_set_wait(st, BS_STORE_WAIT_MS, cancel);
	rc = bs_store_schema(st, readonly, err);
	if (rc == 0 && bs_db_settle(st->db, &dbe) < 0)
		rc = bs_store_db_fail(st, err, NULL, &dbe);
	if (rc == 0 && !readonly)
		rc = bs_store_prepare_writes(st, err);
	if (rc < 0)
		goto fail;
	*out = st;
	return 0;
fail:
	/* A signal stopped it (the progress handler, the busy handler):
	 * say so, whatever the engine's message was, unless it says so
	 * already (the copy kept before an upgrade, migrate.c). */
	if (cancel && *cancel && err &&
	    !(err->code == BS_EINTR && strstr(err->msg, "nothing changed"))) {
		bs_err_reset(err);
		rc = bs_error(err, BS_EINTR,
			      "cannot open archive '%s': interrupted; "
			      "nothing changed",
			      st->path);
	}
	bs_store_close(st);
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
	bs_buf_release(&st->put_supplied);
	free(st->path);
	free(st);
}

/* A writer that waits for another's lock says whose. */
static void lock_waiting(const char *who, void *ctx)
{
	struct bs_store *st = ctx;
	char msg[512];

	if (st->warn == NULL)
		return;
	snprintf(msg, sizeof(msg),
		 "%s: waiting for the archive's write lock, held by %s",
		 st->path, who);
	st->warn(msg, st->warn_ctx);
}

int bs_store_begin(struct bs_store *st, struct bs_err *err)
{
	struct bs_err dbe = BS_ERR_INIT;
	int rc;

	if (bs_db_begin_write(st->db, lock_waiting, st, &dbe) < 0)
		rc = bs_store_db_fail(st, err, NULL, &dbe);
	else
		rc = 0;

	bs_store_seen_forget(st);
	if (rc == 0) {
		st->in_tx = 1;
		bs_store_writer_choose(st);
	}
	return rc;
}

int bs_store_commit(struct bs_store *st, struct bs_err *err)
{
	/* The runs stored without waiting (seen.c) are waited for. */
	int rc = bs_store_seen_end(st, err);

	if (rc == 0)
		rc = bs_store_exec(st, "COMMIT", err);
	if (rc == 0) {
		st->in_tx = 0;
		st->writer = bs_store_writer_direct();
	}
	return rc;
}

void bs_store_rollback(struct bs_store *st)
{
	bs_db_exec(st->db, "ROLLBACK", NULL);
	bs_store_seen_forget(st);
	st->in_tx = 0;
	st->writer = bs_store_writer_direct();
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

int bs_store_is_url(const char *name)
{
	return bs_db_is_url(name);
}

char *bs_store_shown(const char *name)
{
	return bs_db_shown(name);
}

int bs_store_same(struct bs_store *a, struct bs_store *b)
{
	return bs_db_same(a->db, b->db);
}

int bs_store_mkparents(const char *path, struct bs_err *err)
{
	char *dir;
	char *p;
	int rc = 0;

	/* A PostgreSQL archive's name is a URL: nothing to make. */
	if (bs_db_is_url(path))
		return 0;
	dir = xstrdup(path);
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
