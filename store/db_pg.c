/*
 * store/db_pg.c - the PostgreSQL row of the engines' table (store/db.h),
 * through libpq. The only file that includes libpq-fe.h.
 *
 * The archive's name is a libpq connection URL (postgresql://... or
 * postgres://...), handed to libpq unchanged: its own settings
 * (PGPASSFILE, ~/.pgpass, PGHOST and the other PG* variables, sslmode=)
 * work as with psql. Messages show the URL without its secrets
 * (bs_db_shown: libpq's own parser, every option it marks secret dropped).
 *
 * Statements: the store's '?' and '?N' placeholders become $N outside
 * quoted strings, identifiers and comments; each statement is prepared
 * under a name of its own (PQprepare) and run on its first step
 * (PQexecPrepared) with its parameters as text (int64 as decimal, doubles
 * in the shortest form that reads back to the same double, NaN as NULL
 * as SQLite stores it) or, for blobs, as binary bytea. The result is read
 * row by row; a bytea column reads back as its bytes. A query run once
 * reads through a cursor (declare), a batch at a time, the next batch's
 * FETCH sent while bstore reads the one before, and in binary after the
 * first when its columns' types allow (numbers are then neither printed
 * by the server nor parsed back; asked for as text, they are formatted
 * as the server would have). A statement runs asynchronously so that the
 * cancel flag, checked while waiting and between rows, can stop it
 * (PQcancel).
 *
 * Settings made on every connection: extra_float_digits = 3 (every
 * double read back exactly), and default_transaction_read_only for an
 * archive opened to read. Notices (CREATE ... IF NOT EXISTS) are not
 * printed.
 *
 * The schema version is the 'schema_version' row of the table meta (so
 * that PostgreSQL has the same tables as SQLite, docs/schema.md).
 */
#include "store/db.h"

#include <errno.h>
#include <inttypes.h>
#include <libpq-fe.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/err.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* PostgreSQL's type oids (catalog/pg_type.h, stable since 7.x). */
enum {
	OID_BOOL = 16,
	OID_BYTEA = 17,
	OID_INT8 = 20,
	OID_INT2 = 21,
	OID_INT4 = 23,
	OID_TEXT = 25,
	OID_OID = 26,
	OID_FLOAT4 = 700,
	OID_FLOAT8 = 701,
	OID_VARCHAR = 1043,
	OID_NUMERIC = 1700,
};

enum { NCOPY = 4 }; /* tables whose rows wait for COPY at once */

struct pg_db {
	struct bs_db base;
	PGconn *conn;
	char *display;           /* the URL without its secrets (bs_db_shown) */
	char *msg;               /* the last error's message */
	enum bs_db_errkind kind; /* and its kind */
	int64_t changes;
	unsigned long nstmt;   /* statements prepared: their names */
	unsigned long ncursor; /* cursors declared: their names */
	const volatile sig_atomic_t *cancel;
	int flags; /* BS_DB_OPEN_* */
	/* How long a statement's answer is waited for before the server,
	 * or the path to it, counts as gone: the server's statement_timeout
	 * and a grace (0: no bound). */
	int64_t answer_ms;
	/* Why the connection was given up (abandon), or NULL. */
	char *lost;
	enum bs_db_errkind lost_kind;
	/* Deferred statements (pg_defer) sent in pipeline mode and not yet
	 * waited for; failed: their failure is still to be reported. */
	int piped, pending, failed;
	/* Deferred rows of plain INSERTs, kept for COPY (pg_defer), in the
	 * order their statements were prepared (rank). */
	struct pg_copy {
		char *sql; /* COPY t (cols) FROM STDIN */
		unsigned long rank;
		struct bs_buf rows; /* COPY's text format */
	} copy[NCOPY];
	int ncopy;
	/* A COPY sent whole whose result is not read yet (pg_defer's full
	 * buffer: the server loads it while bstore reads on): read before
	 * anything else is sent (collect), its failure reported as a
	 * deferred one's. */
	int copy_wait;
	unsigned long nbatch; /* BS_DB_BATCH statements prepared */
	size_t copied;        /* bytes in copy[].rows */
	/* The cursor whose next FETCH was sent ahead, its result not yet
	 * read (collect): the server fills the batch while bstore reads
	 * the one before. */
	struct pg_stmt *ahead;
	/* Cursors open in the transaction declare began for them (a
	 * reader's), which ends when the last of them closes; own_txn: it
	 * is still open (not ended by the caller's COMMIT or ROLLBACK), the
	 * owngen-th begun. */
	int nown, own_txn;
	unsigned long owngen;
};

enum { NVAR = 4 };

/* Bytes of a binary number's text: "-9223372036854775808", or a double's
 * 17 digits, sign, point and exponent ("-2.2250738585072014e-308"). */
enum { NUM_TEXT = 32 };

struct pg_stmt {
	struct bs_db_stmt base;
	struct pg_db *db;
	/* Prepared on the server for up to NVAR lists of parameter types
	 * (run_params' value is an integer, a real or a text by turns). */
	struct pg_variant {
		char name[24]; /* "" when the slot is free */
		Oid *types;
	} var[NVAR];
	int cur;   /* the variant last run, or -1 */
	int evict; /* the slot to reuse next */
	char *sql; /* with $N placeholders */
	/* A plain INSERT of one row of parameters: COPY t (cols) FROM
	 * STDIN, which a deferred run sends its row to; else NULL. */
	char *copy_sql;
	unsigned long rank; /* its place among them (pg_db.nbatch) */
	int nparams;
	char **values; /* per parameter: owned text or bytes, NULL: NULL */
	int *lengths;
	int *formats;    /* 0 text, 1 binary (blobs) */
	Oid *bound;      /* the type of each value bound (0: text, NULL) */
	Oid *types;      /* to run with (see pg_prepare) */
	int keep;        /* BS_DB_KEEP, or run twice: prepared on the server */
	char cursor[24]; /* the open cursor it reads through, or "" */
	/* Declared in the owngen-th transaction declare began, or 0. */
	unsigned long own;
	int more;       /* the cursor may hold rows past this batch */
	PGresult *desc; /* its columns, asked for before its first step */
	PGresult *res;  /* of the current execution, NULL before the first
			 * step */
	int row, nrows;
	/* The current row's bytea columns, unescaped on demand. */
	char **blob;
	size_t *blen;
	int ncols;
	Oid *coid;  /* each column's type */
	int resbin; /* the current result is in binary */
	/* The cursor's FETCHes after its first ask for binary results: every
	 * column's type is one binary_type reads (see take_result). */
	int binary;
	/* The next batch, its FETCH sent ahead and read (collect); a NULL
	 * next with has_next is a lost connection. */
	PGresult *next;
	int has_next;
	/* The text of the current row's binary numbers, formatted on demand
	 * (valid where numgen[col] == gen), 32 bytes a column. */
	char *num;
	unsigned *numgen;
	unsigned gen;
};

/* ---- errors ---------------------------------------------------------- */

static void set_error(struct pg_db *db, enum bs_db_errkind kind,
		      const char *msg)
{
	size_t n;

	static const char *const severity[] = {"FATAL:  ", "ERROR:  "};
	size_t i;
	char *p;

	free(db->msg);
	db->msg = xstrdup(msg && msg[0] ? msg : "unknown error");
	/* libpq's messages end with a newline (and may hold several lines:
	 * the first says what went wrong); a connection's failure quotes
	 * the server's with its severity ("failed: FATAL:  database ..."),
	 * which bstore's messages do not show. */
	n = strcspn(db->msg, "\n");
	db->msg[n] = '\0';
	for (i = 0; i < sizeof(severity) / sizeof(severity[0]); i++)
		while ((p = strstr(db->msg, severity[i])) != NULL)
			memmove(p, p + strlen(severity[i]),
				strlen(p + strlen(severity[i])) + 1);
	db->kind = kind;
}

/* The failure recorded on db as a -BS_E* code (the statements' hot
 * operations report so; the others through bs_db_fail). */
static int failed(const struct pg_db *db)
{
	return -bs_db_kind_code(db->kind);
}

/* What a SQLSTATE means in the engines' terms. */
static enum bs_db_errkind sqlstate_kind(const char *state)
{
	/* clang-format off */
	static const struct { const char *state; enum bs_db_errkind kind; }
	map[] = {
		{"40001", BS_DB_EBUSY},	      /* serialization_failure */
		{"40P01", BS_DB_EBUSY},	      /* deadlock_detected */
		{"55P03", BS_DB_EBUSY},	      /* lock_not_available */
		{"25006", BS_DB_EREADONLY},   /* read_only_sql_transaction */
		{"42501", BS_DB_EREADONLY},   /* insufficient_privilege */
		{"57014", BS_DB_EINTERRUPT},  /* query_canceled */
		{"57P01", BS_DB_EGONE},	      /* admin_shutdown */
		{"57P02", BS_DB_EGONE},	      /* crash_shutdown */
		{"57P03", BS_DB_EGONE},	      /* cannot_connect_now */
		{"23", BS_DB_ECONSTRAINT},    /* integrity_constraint_violation */
		/* Bytes the database's encoding refuses (a Latin-1 name
		 * into a UTF8 database): that row refused, like a CHECK. */
		{"22021", BS_DB_ECONSTRAINT}, /* character_not_in_repertoire */
		{"22P05", BS_DB_ECONSTRAINT}, /* untranslatable_character */
		{"08", BS_DB_EGONE},	      /* connection_exception */
	};
	/* clang-format on */
	size_t i;

	if (state == NULL)
		return BS_DB_EOTHER;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strncmp(state, map[i].state, strlen(map[i].state)) == 0)
			return map[i].kind;
	return BS_DB_EOTHER;
}

/* Socket waits are ticks of this long, so that the cancel flag is seen;
 * a cancel request (its own connection) is given this long, and so is
 * the answer to it before the connection is closed instead; a server
 * that has not answered its statement_timeout and this long after is
 * gone. */
enum { TICK_MS = 100, CANCEL_MS = 2000, GRACE_MS = 5000 };

/*
 * The one message for a bound of docs/team.md's that ran out: what
 * happened (why), which setting bounds it (name, at ms) and how to
 * change that, for the server's own cancel at statement_timeout and for
 * a server silent past it alike.
 */
static void bound_ran_out(char *buf, size_t n, const char *why,
			  const char *name, int64_t ms)
{
	char at[32];

	if (ms > 0 && ms % 1000 == 0)
		snprintf(at, sizeof(at), "%lld s", (long long)(ms / 1000));
	else if (ms > 0)
		snprintf(at, sizeof(at), "%lld ms", (long long)ms);
	else
		snprintf(at, sizeof(at), "the server's");
	snprintf(buf, n,
		 "%s: its %s (%s) ran out; to give it longer, set %s in the "
		 "URL (?options=-c%%20%s%%3D30min), in PGOPTIONS, or for the "
		 "role (ALTER ROLE ... SET %s = '30min'; docs/team.md)",
		 why, name, at, name, name, name);
}

/* Records why res (or, res NULL, the connection) failed. */
static void result_error(struct pg_db *db, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE)
				: NULL;
	const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY)
			      : NULL;
	enum bs_db_errkind kind = sqlstate_kind(state);

	if (db->lost) {
		set_error(db, db->lost_kind, db->lost);
		return;
	}
	if (msg == NULL)
		msg = res ? PQresultErrorMessage(res) : NULL;
	if (msg == NULL || msg[0] == '\0')
		msg = PQerrorMessage(db->conn);
	if (PQstatus(db->conn) == CONNECTION_BAD)
		kind = BS_DB_EGONE;
	if (db->cancel && *db->cancel) {
		set_error(db, BS_DB_EINTERRUPT, "interrupted");
		return;
	}
	/* Cancelled by the server, not by bstore's signal: say which. */
	if (kind == BS_DB_EINTERRUPT && msg &&
	    strstr(msg, "statement timeout")) {
		char why[400];

		bound_ran_out(why, sizeof(why),
			      "the server cancelled the statement",
			      "statement_timeout",
			      db->answer_ms > 0 ? db->answer_ms - GRACE_MS : 0);
		set_error(db, BS_DB_EOTHER, why);
		return;
	}
	if (kind == BS_DB_EINTERRUPT) {
		char why[300];

		snprintf(why, sizeof(why),
			 "the server cancelled the statement (%s)", msg);
		set_error(db, BS_DB_EOTHER, why);
		return;
	}
	set_error(db, kind, msg);
}

/* ---- running a statement --------------------------------------------- */

static int cancelled(const struct pg_db *db)
{
	return db->cancel && *db->cancel;
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};

	nanosleep(&ts, NULL);
}

/*
 * Asks the server to cancel the running statement, within CANCEL_MS:
 * PQcancel connects anew and waits for the server to close that
 * connection, which on a frozen path never happens, so it runs in a
 * child process that is killed when its time is up.
 */
static void cancel_bounded(struct pg_db *db)
{
	PGcancel *c = PQgetCancel(db->conn);
	int64_t end = mono_ms() + CANCEL_MS;
	pid_t pid, r;

	if (c == NULL)
		return;
	pid = fork();
	if (pid == 0) {
		char buf[256];
		PQcancel(c, buf, sizeof(buf));
		_exit(0);
	}
	while (pid > 0) {
		r = waitpid(pid, NULL, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			break;
		if (mono_ms() >= end) {
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			break;
		}
		sleep_ms(10);
	}
	PQfreeCancel(c);
}

/*
 * Gives the connection up: its socket is shut, so that libpq reads its
 * end at once and every later call fails without waiting; why (kind)
 * is the error reported from now on.
 */
static void abandon(struct pg_db *db, enum bs_db_errkind kind, const char *why)
{
	int fd = PQsocket(db->conn);

	if (db->lost == NULL) {
		db->lost = xstrdup(why);
		db->lost_kind = kind;
	}
	if (fd >= 0)
		shutdown(fd, SHUT_RDWR);
	PQconsumeInput(db->conn);
}

enum { WAIT_RESULT, WAIT_SENT };

/*
 * Waits, in ticks of poll(), until libpq has sent all it holds and, for
 * WAIT_RESULT, a result can be read without blocking (PQgetResult). Once
 * the cancel flag is set the statement is cancelled (cancel_bounded) and
 * its answer waited for CANCEL_MS more; a wait longer than answer_ms
 * means the server is gone. Either gives the connection up (abandon).
 * 0, or -1 when the connection is lost or given up.
 */
static int wait_ready_ticks(struct pg_db *db, int what)
{
	int64_t start = mono_ms(), stop_at = 0;
	char silent[96], why[400];

	for (;;) {
		int fl = PQflush(db->conn);
		struct pollfd p = {PQsocket(db->conn), POLLIN, 0};
		int64_t now = mono_ms();

		if (fl < 0 || p.fd < 0)
			break;
		if (fl == 0 && (what == WAIT_SENT || !PQisBusy(db->conn)))
			return 0;
		if (cancelled(db) && stop_at == 0) {
			cancel_bounded(db);
			stop_at = mono_ms() + CANCEL_MS;
		}
		if (stop_at && now >= stop_at) {
			abandon(db, BS_DB_EINTERRUPT, "interrupted");
			return -1;
		}
		if (db->answer_ms > 0 && now - start >= db->answer_ms) {
			snprintf(silent, sizeof(silent),
				 "no answer from the server in %lld s, %d s "
				 "past the statement's bound",
				 (long long)(db->answer_ms / 1000),
				 GRACE_MS / 1000);
			bound_ran_out(why, sizeof(why), silent,
				      "statement_timeout",
				      db->answer_ms - GRACE_MS);
			abandon(db, BS_DB_EGONE, why);
			return -1;
		}
		if (fl > 0)
			p.events |= POLLOUT;
		if (poll(&p, 1, TICK_MS) < 0 && errno != EINTR)
			break;
		if ((p.revents & (POLLIN | POLLERR | POLLHUP)) &&
		    !PQconsumeInput(db->conn))
			break;
	}
	abandon(db, BS_DB_EGONE, PQerrorMessage(db->conn));
	return -1;
}

/* Connections whose FETCH was sent ahead and not read (collect), and
 * whether wait_ready is waiting: a statement of bstore's runs on a
 * server (bs_db_engaged). */
static int pg_aheads, pg_waiting;

static void engaged(void)
{
	bs_db_engaged = pg_waiting || pg_aheads > 0;
}

static void set_ahead(struct pg_db *db, struct pg_stmt *s)
{
	pg_aheads += (s != NULL) - (db->ahead != NULL);
	db->ahead = s;
	engaged();
}

/* wait_ready_ticks, which a stop signal's handler knows is going on
 * (bs_store_engaged): the signal then only sets the cancel flag, and the
 * wait cancels the statement. */
static int wait_ready(struct pg_db *db, int what)
{
	int rc;

	pg_waiting = 1;
	engaged();
	rc = wait_ready_ticks(db, what);
	pg_waiting = 0;
	engaged();
	return rc;
}

/*
 * Waits for the statement sent on db->conn to finish (wait_ready);
 * returns its last result (an error result if any statement failed), or
 * NULL when the connection was lost.
 */
static PGresult *wait_result(struct pg_db *db)
{
	PGresult *res, *last = NULL;

	for (;;) {
		wait_ready(db, WAIT_RESULT);
		res = PQgetResult(db->conn);
		if (res == NULL)
			break;
		/* The first failure is the one to report; the results after
		 * it are read and dropped. */
		if (last && PQresultStatus(last) == PGRES_FATAL_ERROR)
			PQclear(res);
		else {
			PQclear(last);
			last = res;
		}
		if (PQstatus(db->conn) == CONNECTION_BAD)
			break;
	}
	return last;
}

/* Runs sql, its result dropped (as PQexec, without blocking). */
static void collect(struct pg_db *db);

static void run_quiet(struct pg_db *db, const char *sql)
{
	collect(db);
	if (PQsendQuery(db->conn, sql))
		PQclear(wait_result(db));
}

/* Waits for the results of a statement sent, then the next one. */
static PGresult *next_result(struct pg_db *db)
{
	wait_ready(db, WAIT_RESULT);
	return PQgetResult(db->conn);
}

/* PQputCopyData and PQputCopyEnd, which queue nothing while libpq's
 * buffer is full (the connection does not block): 1 or -1. */
static int put_copy(struct pg_db *db, const char *data, int len,
		    const char *end_error, int end)
{
	int r;

	for (;;) {
		r = end ? PQputCopyEnd(db->conn, end_error)
			: PQputCopyData(db->conn, data, len);
		if (r != 0)
			return r;
		if (wait_ready(db, WAIT_SENT) < 0)
			return -1;
	}
}

/* Whether res succeeded; records the error when not. */
static int result_ok(struct pg_db *db, PGresult *res)
{
	ExecStatusType s = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;

	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK) {
		const char *n = PQcmdTuples(res);
		if (n && n[0])
			db->changes = strtoll(n, NULL, 10);
		return 1;
	}
	result_error(db, res);
	return 0;
}

/* ---- deferred statements --------------------------------------------- */

/* Deferred statements sent before the server's results are read. */
enum { PIPE_MAX = 256 };

/*
 * Waits for the deferred statements sent (pg_defer) and leaves pipeline
 * mode: 0, or -1 with the first one's failure. Every statement that waits
 * for the server drains first, so it reports a deferred failure as its
 * own. A failure found where it cannot be reported (closing a cursor) is
 * reported by the next drain.
 */
static int drain_pipe(struct pg_db *db)
{
	PGresult *res;
	int failed = 0;

	if (db->failed) {
		db->failed = 0;
		return -1;
	}
	if (!db->piped)
		return 0;
	if (!PQpipelineSync(db->conn)) {
		result_error(db, NULL);
		PQexitPipelineMode(db->conn);
		db->piped = 0;
		db->pending = 0;
		return -1;
	}
	/* Each statement's results end with a NULL; the sync's ends all. */
	for (;;) {
		res = next_result(db);
		if (res == NULL) { /* between two statements' results */
			if (PQstatus(db->conn) != CONNECTION_OK)
				break;
			continue;
		}
		if (PQresultStatus(res) == PGRES_PIPELINE_SYNC) {
			PQclear(res);
			break;
		}
		if (PQresultStatus(res) == PGRES_FATAL_ERROR && !failed) {
			result_error(db, res);
			failed = 1;
		}
		PQclear(res);
	}
	if (PQstatus(db->conn) != CONNECTION_OK && !failed) {
		result_error(db, NULL);
		failed = 1;
	}
	PQexitPipelineMode(db->conn);
	db->piped = 0;
	db->pending = 0;
	return failed ? -1 : 0;
}

/* Bytes of rows kept for COPY before they are sent. */
enum { COPY_MAX = 1 << 20 };

/* Sends the rows kept for COPY, table by table: 0, or -1 (error set).
 * leave: the last table's result is left to be read (copy_wait). */
static int send_copies(struct pg_db *db, int leave)
{
	PGresult *res;
	int i, ok = 1;

	for (i = 0; i < db->ncopy; i++) {
		struct pg_copy *c = &db->copy[i];
		if (ok) {
			ok = PQsendQuery(db->conn, c->sql);
			res = ok ? next_result(db) : NULL;
			ok = res && PQresultStatus(res) == PGRES_COPY_IN;
			if (!ok)
				result_error(db, res);
			PQclear(res);
			if (ok) {
				int sent = put_copy(db, c->rows.data,
						    (int)c->rows.len, NULL,
						    0) == 1;
				if (put_copy(db, NULL, 0,
					     sent ? NULL : "not sent",
					     1) == 1 &&
				    sent && leave && i == db->ncopy - 1) {
					db->copy_wait = 1;
					free(c->sql);
					bs_buf_release(&c->rows);
					continue;
				}
				res = wait_result(db);
				ok = result_ok(db, res);
				PQclear(res);
			}
		}
		free(c->sql);
		bs_buf_release(&c->rows);
	}
	db->ncopy = 0;
	db->copied = 0;
	return ok ? 0 : -1;
}

/* Forgets the rows kept for COPY. */
static void drop_copies(struct pg_db *db)
{
	int i;

	for (i = 0; i < db->ncopy; i++) {
		free(db->copy[i].sql);
		bs_buf_release(&db->copy[i].rows);
	}
	db->ncopy = 0;
	db->copied = 0;
}

/*
 * Reads the result of the FETCH sent ahead, if any, into its statement
 * (which takes it as its next batch): before anything else is sent on
 * the connection, which has one statement running at a time.
 */
static void collect(struct pg_db *db)
{
	struct pg_stmt *s = db->ahead;

	if (db->copy_wait) {
		PGresult *res = wait_result(db);

		db->copy_wait = 0;
		if (!result_ok(db, res))
			db->failed = 1;
		PQclear(res);
	}
	if (s == NULL)
		return;
	set_ahead(db, NULL);
	s->next = wait_result(db);
	s->has_next = 1;
}

/* Waits for the pipeline, then COPYs the rows kept: the order they were
 * deferred in (pg_defer keeps every piped statement before every row).
 * leave: the last COPY's result is read later (send_copies). */
static int drain_to(struct pg_db *db, int leave)
{
	int rc;

	collect(db);
	rc = drain_pipe(db);

	if (db->ncopy == 0)
		return rc;
	if (rc < 0) { /* dropped: the transaction has failed */
		drop_copies(db);
		return rc;
	}
	return send_copies(db, leave);
}

static int drain(struct pg_db *db)
{
	return drain_to(db, 0);
}

/* drain, for callers that cannot report: the next drain will. */
static void drain_later(struct pg_db *db)
{
	collect(db);
	if ((db->piped || db->ncopy) && drain(db) < 0)
		db->failed = 1;
}

/* ---- '?' into $N ----------------------------------------------------- */

/*
 * SQLite's placeholders into PostgreSQL's: '?N' is $N, and '?' is one more
 * than the largest number so far (as SQLite numbers them). Quoted strings
 * ('...'), identifiers ("...") and comments are copied as they are.
 * Returns the number of parameters.
 */
static int translate(const char *sql, struct bs_buf *out)
{
	const char *p = sql;
	int max = 0;

	while (*p) {
		if (*p == '\'' || *p == '"') {
			char q = *p;
			const char *s = p++;
			/* A doubled quote is one quote inside. */
			while (*p && !(*p == q && p[1] != q))
				p += *p == q ? 2 : 1;
			if (*p)
				p++;
			bs_buf_add(out, s, (size_t)(p - s));
		} else if (p[0] == '-' && p[1] == '-') {
			size_t n = strcspn(p, "\n");
			bs_buf_add(out, p, n);
			p += n;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			size_t n = e ? (size_t)(e + 2 - p) : strlen(p);
			bs_buf_add(out, p, n);
			p += n;
		} else if (*p == '?') {
			int n = 0;
			p++;
			if (*p >= '0' && *p <= '9') {
				while (*p >= '0' && *p <= '9' && n < 100000)
					n = n * 10 + (*p++ - '0');
			} else {
				n = max + 1;
			}
			if (n > max)
				max = n;
			bs_buf_addf(out, "$%d", n);
		} else {
			bs_buf_addc(out, *p++);
		}
	}
	return max;
}

/* ---- connections ----------------------------------------------------- */

/* Drops server notices (CREATE ... IF NOT EXISTS says it skipped). */
static void no_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* ---- what may be shown of a connection string ------------------------ */

/* Appends s, each byte outside the unreserved ones and keep as %XX (bytes
 * of UTF-8 as they are: a name reads as typed). */
static void url_encode(struct bs_buf *b, const char *s, const char *keep)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c >= 0x80 || strchr("-._~", c) ||
		    (keep && strchr(keep, c)))
			bs_buf_addc(b, (char)c);
		else
			bs_buf_addf(b, "%%%02X", c);
	}
}

/* The value of keyword among libpq's parsed options, or NULL. */
static const char *opt_val(const PQconninfoOption *o, const char *keyword)
{
	for (; o->keyword; o++)
		if (strcmp(o->keyword, keyword) == 0)
			return o->val && o->val[0] ? o->val : NULL;
	return NULL;
}

/* The parsed options as a URL: user, host and port, database, then the
 * rest as its query; a secret option is never written. A host list or
 * a socket directory goes in the query, where any text may. */
static void shown_url(struct bs_buf *b, const char *scheme,
		      const PQconninfoOption *opts)
{
	const char *user = opt_val(opts, "user"), *host = opt_val(opts, "host");
	const char *port = opt_val(opts, "port"), *db = opt_val(opts, "dbname");
	int inhost = host && !strpbrk(host, "/,:[]@") &&
		     (!port || !strchr(port, ','));
	const PQconninfoOption *o;
	const char *sep = "?";

	bs_buf_adds(b, scheme);
	if (user) {
		url_encode(b, user, NULL);
		bs_buf_addc(b, '@');
	}
	if (inhost) {
		url_encode(b, host, NULL);
		if (port) {
			bs_buf_addc(b, ':');
			url_encode(b, port, NULL);
		}
	}
	bs_buf_addc(b, '/');
	if (db)
		url_encode(b, db, NULL);
	for (o = opts; o->keyword; o++) {
		if (!o->val || !o->val[0] || strchr(o->dispchar, '*') ||
		    strcmp(o->keyword, "user") == 0 ||
		    strcmp(o->keyword, "dbname") == 0 ||
		    (inhost && (strcmp(o->keyword, "host") == 0 ||
				strcmp(o->keyword, "port") == 0)))
			continue;
		bs_buf_adds(b, sep);
		bs_buf_adds(b, o->keyword);
		bs_buf_addc(b, '=');
		url_encode(b, o->val, "/:@,");
		sep = "&";
	}
}

/* The parsed options in libpq's key=value form, quoted where needed,
 * without the secret ones. */
static void shown_keywords(struct bs_buf *b, const PQconninfoOption *opts)
{
	const PQconninfoOption *o;
	const char *sep = "", *v;

	for (o = opts; o->keyword; o++) {
		if (!o->val || !o->val[0] || strchr(o->dispchar, '*'))
			continue;
		bs_buf_addf(b, "%s%s='", sep, o->keyword);
		for (v = o->val; *v; v++) {
			if (*v == '\'' || *v == '\\')
				bs_buf_addc(b, '\\');
			bs_buf_addc(b, *v);
		}
		bs_buf_addc(b, '\'');
		sep = " ";
	}
}

/* Whether libpq marks one of the parsed options secret and it is set. */
static int has_secret(const PQconninfoOption *opts)
{
	for (; opts->keyword; opts++)
		if (opts->val && opts->val[0] && strchr(opts->dispchar, '*'))
			return 1;
	return 0;
}

char *bs_db_shown(const char *name)
{
	struct bs_buf b = BS_BUF_INIT;
	PQconninfoOption *opts;
	char *why = NULL;
	int url = bs_db_is_url(name);

	opts = PQconninfoParse(name, &why);
	PQfreemem(why);
	if (opts == NULL) {
		/* What libpq cannot read may hold a secret anywhere: only the
		 * scheme is shown. A path is a path. */
		if (!url)
			return xstrdup(name);
		bs_buf_add(&b, name, (size_t)(strstr(name, "://") + 3 - name));
		bs_buf_adds(&b, "(a URL libpq cannot read)");
		return bs_buf_detach(&b, NULL);
	}
	if (url)
		shown_url(&b,
			  strncmp(name, "postgres://", 11) == 0
				  ? "postgres://"
				  : "postgresql://",
			  opts);
	else if (has_secret(opts))
		shown_keywords(&b, opts);
	else
		bs_buf_adds(&b, name);
	PQconninfoFree(opts);
	return bs_buf_detach(&b, NULL);
}

/*
 * libpq's reason for refusing a connection string, as may be shown: it
 * quotes what it could not read ("invalid percent-encoded token:
 * \"s%zzcret\""), which may be a password; a quoted word is kept only when
 * it is one of libpq's option names or a single character.
 */
static char *shown_parse_error(const char *why)
{
	struct bs_buf b = BS_BUF_INIT;
	PQconninfoOption *known = PQconndefaults(), *o;
	const char *p = why, *q, *e;

	while ((q = strchr(p, '"')) != NULL && (e = strchr(q + 1, '"'))) {
		size_t n = (size_t)(e - q - 1);
		int keep = n == 1;
		for (o = known; !keep && o && o->keyword; o++)
			keep = strlen(o->keyword) == n &&
			       strncmp(o->keyword, q + 1, n) == 0;
		bs_buf_add(&b, p, (size_t)(q - p));
		if (keep)
			bs_buf_add(&b, q, n + 2);
		else
			bs_buf_adds(&b, "\"...\"");
		p = e + 1;
	}
	bs_buf_adds(&b, p);
	PQconninfoFree(known);
	return bs_buf_detach(&b, NULL);
}

/* Whether libpq can read name; if not, the error says why (without what
 * it could not read). */
static int readable_conninfo(struct pg_db *db, const char *name)
{
	char *why = NULL, *msg;
	PQconninfoOption *opts = PQconninfoParse(name, &why);

	if (opts) {
		PQconninfoFree(opts);
		return 1;
	}
	msg = shown_parse_error(why ? why : "out of memory");
	PQfreemem(why);
	set_error(db, BS_DB_EOTHER, msg);
	free(msg);
	return 0;
}

/*
 * What makes an archive one, as the server knows it: the cluster (its
 * port and the time its postmaster started, which no two servers share),
 * the database and the schema, whatever host name, address, socket or
 * spelling of the URL reached it. NULL when it cannot be read.
 */
static char *identity(struct pg_db *db)
{
	PGresult *res;
	char *id = NULL;

	if (db->conn == NULL || db->piped || db->ahead || db->copy_wait)
		return NULL;
	/* Waited for as every statement is (bounded, a signal ends it). */
	if (!PQsendQuery(db->conn,
			 "SELECT pg_catalog.current_setting('port') || ' ' || "
			 "pg_catalog.pg_postmaster_start_time()::pg_catalog."
			 "text || ' ' || pg_catalog.current_database() || ' ' "
			 "|| pg_catalog.current_schema()"))
		return NULL;
	res = wait_result(db);
	if (result_ok(db, res) && PQntuples(res) == 1 &&
	    !PQgetisnull(res, 0, 0))
		id = xstrdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	return id;
}

static int pg_same(struct bs_db *a, struct bs_db *b)
{
	char *ia = identity((struct pg_db *)a),
	     *ib = identity((struct pg_db *)b);
	int same = ia && ib && strcmp(ia, ib) == 0;

	free(ia);
	free(ib);
	return same;
}

static int pg_exec(struct bs_db *d, const char *sql, struct bs_err *err);

/*
 * The bounds every session sets, in ms, for a writer and for a reader
 * (docs/team.md): a lock waited for (another writer's turn: one batch),
 * a statement, and a transaction left idle (a client that vanished with
 * the lock). A value the connection sets itself (the URL's
 * options=-c NAME=VALUE, PGOPTIONS) or its role was given (ALTER ROLE
 * ... SET) is kept. The server checks that the client is still there
 * this often while a statement runs (PostgreSQL 14 on).
 */
static const struct pg_bound {
	const char *name;
	long writer_ms, reader_ms;
	int since; /* the first server version that has it */
} pg_bounds[] = {
	{"lock_timeout", 5 * 60000L, 5 * 60000L, 0},
	{"statement_timeout", 10 * 60000L, 10 * 60000L, 0},
	{"idle_in_transaction_session_timeout", 60000L, 30 * 60000L, 0},
	{"client_connection_check_interval", 10000L, 10000L, 140000},
};

/* Connection parameters before the URL's, which win over them: a bound
 * on the connect (unless PGCONNECT_TIMEOUT sets one) and TCP keepalives,
 * so that a path that died is found. */
static const char *const pg_dflt_keys[] = {
	"connect_timeout",     "keepalives",       "keepalives_idle",
	"keepalives_interval", "keepalives_count",
};
static const char *const pg_dflt_vals[] = {"10", "1", "10", "5", "3"};
enum { NDFLT = sizeof(pg_dflt_keys) / sizeof(pg_dflt_keys[0]) };

/* Whether a setting's value was chosen by this connection or for its
 * role, rather than by the server's defaults or for every role of the
 * database (which its owner sets). */
static int own_source(const char *source)
{
	return source &&
	       (strcmp(source, "client") == 0 || strcmp(source, "user") == 0 ||
		strcmp(source, "database user") == 0);
}

/* The connect_timeout in effect, in seconds (0: none). */
static long connect_timeout_s(PGconn *conn)
{
	PQconninfoOption *o = PQconninfo(conn), *i;
	long t = 0;

	for (i = o; i && i->keyword; i++)
		if (strcmp(i->keyword, "connect_timeout") == 0 && i->val)
			t = strtol(i->val, NULL, 10);
	PQconninfoFree(o);
	return t <= 0 ? 0 : t < 2 ? 2 : t; /* libpq's own minimum */
}

/*
 * Waits for the connection PQconnectStartParams began, in ticks: busy
 * (with 0) is asked after each whether to go on (a stop signal says
 * no), and connect_timeout bounds the whole. 0 or -1 (error set).
 */
static int connect_wait(struct pg_db *db, int (*busy)(void *ctx, int count),
			void *ctx)
{
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;
	long limit_s = connect_timeout_s(db->conn);
	int64_t end = mono_ms() + (int64_t)limit_s * 1000;
	char why[96];

	for (;;) {
		struct pollfd p = {PQsocket(db->conn), 0, 0};
		int n;

		if (st == PGRES_POLLING_OK)
			return 0;
		if (st == PGRES_POLLING_FAILED || p.fd < 0) {
			set_error(db, BS_DB_EGONE, PQerrorMessage(db->conn));
			return -1;
		}
		if (busy && !busy(ctx, 0)) {
			set_error(db, BS_DB_EINTERRUPT, "interrupted");
			return -1;
		}
		if (limit_s > 0 && mono_ms() >= end) {
			snprintf(why, sizeof(why),
				 "no answer from the server in %ld s "
				 "(connect_timeout)",
				 limit_s);
			set_error(db, BS_DB_EGONE, why);
			return -1;
		}
		p.events = st == PGRES_POLLING_READING ? POLLIN : POLLOUT;
		n = poll(&p, 1, TICK_MS);
		if (n < 0 && errno != EINTR) {
			set_error(db, BS_DB_EGONE, strerror(errno));
			return -1;
		}
		if (n > 0)
			st = PQconnectPoll(db->conn);
	}
}

/*
 * The session's settings: the bounds (pg_bounds), and a search_path of
 * the archive's schema alone, so that pg_catalog is searched first and
 * no function or operator of another role's shadows a built-in: the
 * schema is the first of the path the connection chose itself, else
 * public (a path set for the whole database, by its owner, is not
 * followed). Read before anything runs unqualified.
 */
static int session(struct pg_db *db)
{
	struct bs_buf sql = BS_BUF_INIT;
	const char *schema = "public";
	char *quoted = NULL;
	long stmt_ms = 0;
	PGresult *res;
	int i, k, rc = -1,
		  reader = db->flags &
			   (BS_DB_OPEN_READONLY | BS_DB_OPEN_UNTRUSTED);

	if (!PQsendQuery(db->conn, "SELECT name, source, setting, "
				   "pg_catalog.current_schema() FROM "
				   "pg_catalog.pg_settings")) {
		result_error(db, NULL);
		return -1;
	}
	res = wait_result(db);
	if (!result_ok(db, res))
		goto out;
	bs_buf_adds(&sql, "SET extra_float_digits = 3");
	for (k = 0; k < (int)(sizeof(pg_bounds) / sizeof(pg_bounds[0])); k++) {
		const struct pg_bound *b = &pg_bounds[k];
		long ms = reader ? b->reader_ms : b->writer_ms;
		if (PQserverVersion(db->conn) < b->since)
			continue;
		for (i = 0; i < PQntuples(res); i++)
			if (strcmp(PQgetvalue(res, i, 0), b->name) == 0 &&
			    own_source(PQgetvalue(res, i, 1)))
				ms = strtol(PQgetvalue(res, i, 2), NULL, 10);
		if (strcmp(b->name, "statement_timeout") == 0)
			stmt_ms = ms;
		bs_buf_addf(&sql, "; SET %s = %ld", b->name, ms);
	}
	for (i = 0; i < PQntuples(res); i++)
		if (strcmp(PQgetvalue(res, i, 0), "search_path") == 0 &&
		    own_source(PQgetvalue(res, i, 1)) &&
		    !PQgetisnull(res, i, 3))
			schema = PQgetvalue(res, i, 3);
	quoted = PQescapeIdentifier(db->conn, schema, strlen(schema));
	if (quoted == NULL) {
		result_error(db, NULL);
		goto out;
	}
	bs_buf_addf(&sql, "; SET search_path = %s", quoted);
	/* A reader, and merge's source (never changed), cannot write. */
	if (reader)
		bs_buf_adds(&sql, "; SET default_transaction_read_only = on");
	rc = pg_exec(&db->base, bs_buf_str(&sql), NULL);
	db->answer_ms = stmt_ms > 0 ? stmt_ms + GRACE_MS : 0;
out:
	PQclear(res);
	PQfreemem(quoted);
	bs_buf_release(&sql);
	return rc;
}

/*
 * The client's encoding is the server's text as it is: UTF-8 in a UTF8
 * database whatever PGCLIENTENCODING or the URL says (a Latin-1 client
 * would have names converted on their way in and out), and SQL_ASCII's
 * bytes as given in the databases docs/team.md makes (no conversion
 * there either way). So names read and written are SQLite's bytes.
 */
static int utf8_session(struct pg_db *db)
{
	const char *enc = PQparameterStatus(db->conn, "server_encoding");
	const char *client = PQparameterStatus(db->conn, "client_encoding");

	if (!enc || strcmp(enc, "UTF8") != 0)
		return 1;
	if (client && strcmp(client, "UTF8") != 0) {
		run_quiet(db, "SET client_encoding = 'UTF8'");
		client = PQparameterStatus(db->conn, "client_encoding");
		if (!client || strcmp(client, "UTF8") != 0) {
			set_error(db, BS_DB_EGONE,
				  "cannot set its client encoding to UTF8");
			return 0;
		}
	}
	return 1;
}

/* The server waits for locks itself (bstore's writers take turns on an
 * advisory lock, bounded by lock_timeout): busy is only asked, while
 * the connection is made, whether to go on. */
static void pg_close(struct bs_db *d);

static int pg_open(struct bs_db **out, const char *name, int flags,
		   int (*busy)(void *ctx, int count), void *ctx,
		   struct bs_err *err)
{
	/* The defaults, the URL as given (expand_dbname), and a name the
	 * server shows in pg_stat_activity unless the URL names another:
	 * bstore@HOST, so that a writer that waits can say for whom. */
	const char *keys[NDFLT + 3], *vals[NDFLT + 3];
	char app[64] = "bstore@", host[64] = "";
	struct pg_db *db = xcalloc(1, sizeof(*db));
	int i, n = 0, rc;

	db->base.ops = &bs_db_pg;
	db->flags = flags;
	db->display = bs_db_shown(name);
	*out = &db->base;
	if (flags & BS_DB_OPEN_MEMORY) {
		set_error(db, BS_DB_EOTHER,
			  "PostgreSQL has no in-memory database");
		goto fail;
	}
	if (!readable_conninfo(db, name))
		goto fail;
	for (i = 0; i < NDFLT; i++) {
		if (i == 0 && getenv("PGCONNECT_TIMEOUT"))
			continue;
		keys[n] = pg_dflt_keys[i];
		vals[n++] = pg_dflt_vals[i];
	}
	if (gethostname(host, sizeof(host) - 1) == 0)
		snprintf(app, sizeof(app), "bstore@%s", host);
	keys[n] = "dbname";
	vals[n++] = name;
	keys[n] = "fallback_application_name";
	vals[n++] = app;
	keys[n] = NULL;
	vals[n] = NULL;
	db->conn = PQconnectStartParams(keys, vals, 1);
	if (db->conn == NULL) {
		set_error(db, BS_DB_EOTHER, "out of memory");
		goto fail;
	}
	if (PQstatus(db->conn) == CONNECTION_BAD) {
		set_error(db, BS_DB_EGONE, PQerrorMessage(db->conn));
		goto fail;
	}
	if (connect_wait(db, busy, ctx) < 0)
		goto fail;
	/* Every wait on the socket is bstore's (wait_ready), in ticks. */
	if (PQsetnonblocking(db->conn, 1) != 0) {
		set_error(db, BS_DB_EGONE, PQerrorMessage(db->conn));
		goto fail;
	}
	/* A database that does not exist is the server's to create (an
	 * administrator's CREATE DATABASE, docs/team.md), never bstore's. */
	PQsetNoticeProcessor(db->conn, no_notice, NULL);
	if (!utf8_session(db) || session(db) < 0)
		goto fail;
	return 0;
fail:
	rc = bs_db_fail(&db->base, err);
	pg_close(&db->base);
	*out = NULL;
	return rc;
}

static void pg_close(struct bs_db *d)
{
	struct pg_db *db = (struct pg_db *)d;

	if (db == NULL)
		return;
	/* What was deferred and not committed is dropped, as the server
	 * drops the transaction. */
	drop_copies(db);
	set_ahead(db, NULL);
	if (db->conn)
		PQfinish(db->conn);
	free(db->display);
	free(db->msg);
	free(db->lost);
	free(db);
}

static const char *pg_display(const struct bs_db *d)
{
	return ((const struct pg_db *)d)->display;
}

static int pg_exec(struct bs_db *d, const char *sql, struct bs_err *err)
{
	struct pg_db *db = (struct pg_db *)d;
	PGresult *res;
	int ok;

	if (cancelled(db)) {
		set_error(db, BS_DB_EINTERRUPT, "interrupted");
		return bs_db_fail(d, err);
	}
	/* A ROLLBACK drops what was deferred, failed or not, and is sent
	 * all the same; anything else reports a deferred failure. */
	if (strcmp(sql, "ROLLBACK") == 0) {
		db->failed = 0;
		collect(db);
		drain_pipe(db);
		drop_copies(db);
		db->failed = 0;
	} else if (drain(db) < 0)
		return bs_db_fail(d, err);
	if (!PQsendQuery(db->conn, sql)) {
		result_error(db, NULL);
		return bs_db_fail(d, err);
	}
	res = wait_result(db);
	ok = result_ok(db, res);
	PQclear(res);
	/* The caller's COMMIT or ROLLBACK ended declare's transaction too
	 * (its cursors are held past it). */
	if (PQtransactionStatus(db->conn) == PQTRANS_IDLE)
		db->own_txn = 0;
	return ok ? 0 : bs_db_fail(d, err);
}

static int64_t pg_changes(struct bs_db *d)
{
	return ((struct pg_db *)d)->changes;
}

static const char *pg_errmsg(struct bs_db *d)
{
	struct pg_db *db = (struct pg_db *)d;

	return db->msg ? db->msg : "not an error";
}

static enum bs_db_errkind pg_errkind(struct bs_db *d)
{
	return ((struct pg_db *)d)->kind;
}

static void pg_set_cancel(struct bs_db *d, const volatile sig_atomic_t *flag)
{
	((struct pg_db *)d)->cancel = flag;
}

/* ---- statements ------------------------------------------------------ */

static void forget_row(struct pg_stmt *s)
{
	int i;

	for (i = 0; s->blob && i < s->ncols; i++) {
		free(s->blob[i]);
		s->blob[i] = NULL;
	}
	s->gen++;
}

/* The last cursor of declare's transaction ends it (unless the caller's
 * COMMIT or ROLLBACK already has). */
static void end_own(struct pg_stmt *s)
{
	PGconn *c = s->db->conn;

	if (s->own != s->db->owngen || !s->db->own_txn) {
		s->own = 0; /* held past the caller's COMMIT, or none */
		return;
	}
	s->own = 0;
	if (--s->db->nown > 0)
		return;
	s->db->own_txn = 0;
	if (PQstatus(c) == CONNECTION_OK &&
	    PQtransactionStatus(c) != PQTRANS_IDLE)
		run_quiet(s->db, PQtransactionStatus(c) == PQTRANS_INTRANS
					 ? "COMMIT"
					 : "ROLLBACK");
}

/* Closes s's cursor (in a failed transaction the server has dropped it,
 * or will at its rollback). */
static void close_cursor(struct pg_stmt *s)
{
	char sql[48];

	if (s->cursor[0] == '\0')
		return;
	drain_later(s->db);
	PQclear(s->next);
	s->next = NULL;
	s->has_next = 0;
	if (PQstatus(s->db->conn) == CONNECTION_OK &&
	    PQtransactionStatus(s->db->conn) != PQTRANS_INERROR) {
		snprintf(sql, sizeof(sql), "CLOSE %s", s->cursor);
		run_quiet(s->db, sql);
	}
	s->cursor[0] = '\0';
	s->more = 0;
	end_own(s);
}

static int pg_reset(struct bs_db_stmt *st)
{
	struct pg_stmt *s = (struct pg_stmt *)st;

	close_cursor(s);
	forget_row(s);
	free(s->blob);
	free(s->blen);
	free(s->num);
	free(s->numgen);
	free(s->coid);
	s->coid = NULL;
	s->blob = NULL;
	s->blen = NULL;
	s->num = NULL;
	s->numgen = NULL;
	s->ncols = 0;
	s->binary = 0;
	PQclear(s->res);
	s->res = NULL;
	s->row = s->nrows = 0;
	return 0;
}

/*
 * The COPY that takes the rows of sql, when sql is a plain INSERT of one
 * row of parameters, "INSERT INTO t (a, b) VALUES (?, ?)", maybe with
 * " RETURNING id" (not read when deferred); else NULL.
 */
static char *copy_of(const char *sql)
{
	static const char word[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
	struct bs_buf q = BS_BUF_INIT;
	const char *p = sql, *t, *c;
	size_t tn, cn;
	int ncol = 1, nval = 0;

	if (strncmp(p, "INSERT INTO ", 12) != 0)
		return NULL;
	t = p += 12;
	tn = strspn(p, word);
	p += tn;
	if (tn == 0 || strncmp(p, " (", 2) != 0)
		return NULL;
	c = p += 2;
	cn = strspn(p, word);
	while (cn > 0 && strncmp(c + cn, ", ", 2) == 0) {
		cn += 2;
		if (strspn(c + cn, word) == 0)
			return NULL;
		cn += strspn(c + cn, word);
		ncol++;
	}
	p = c + cn;
	if (cn == 0 || strncmp(p, ") VALUES (", 10) != 0)
		return NULL;
	for (p += 10; *p == '?'; p++) {
		nval++;
		if (p[1] == ')')
			break;
		if (strncmp(p + 1, ", ", 2) != 0)
			return NULL;
		p += 2;
	}
	if (*p != '?' || nval != ncol ||
	    (strcmp(p + 1, ")") != 0 && strcmp(p + 1, ") RETURNING id") != 0))
		return NULL;
	bs_buf_adds(&q, "COPY ");
	bs_buf_add(&q, t, tn);
	bs_buf_adds(&q, " (");
	bs_buf_add(&q, c, cn);
	bs_buf_adds(&q, ") FROM STDIN");
	return bs_buf_detach(&q, NULL);
}

/* Appends the values bound to s as a row of COPY's text format. */
static void copy_row(const struct pg_stmt *s, struct bs_buf *out)
{
	static const char hex[] = "0123456789abcdef";
	int i;
	size_t k;

	for (i = 0; i < s->nparams; i++) {
		const unsigned char *v = (const unsigned char *)s->values[i];
		size_t n = (size_t)s->lengths[i];
		if (i > 0)
			bs_buf_addc(out, '\t');
		if (v == NULL) {
			bs_buf_adds(out, "\\N");
			continue;
		}
		if (s->formats[i]) { /* bytea's hex input, its \ escaped */
			bs_buf_adds(out, "\\\\x");
			for (k = 0; k < n; k++) {
				bs_buf_addc(out, hex[v[k] >> 4]);
				bs_buf_addc(out, hex[v[k] & 15]);
			}
			continue;
		}
		for (k = 0; k < n; k++) {
			size_t run = k;
			/* The bytes that need no escape, at once. */
			while (run < n && v[run] != '\\' && v[run] != '\n' &&
			       v[run] != '\r' && v[run] != '\t')
				run++;
			if (run > k) {
				bs_buf_add(out, v + k, run - k);
				k = run - 1;
				continue;
			}
			switch (v[k]) {
			case '\\':
				bs_buf_adds(out, "\\\\");
				break;
			case '\n':
				bs_buf_adds(out, "\\n");
				break;
			case '\r':
				bs_buf_adds(out, "\\r");
				break;
			case '\t':
				bs_buf_adds(out, "\\t");
				break;
			default:
				bs_buf_addc(out, (char)v[k]);
			}
		}
	}
	bs_buf_addc(out, '\n');
}

/*
 * The statement goes to the server on its first step, once its
 * parameters are bound, with their types as bound: a blob is bytea (the
 * server would take an untyped one in substr(?, 1, 8) for text), an
 * int64 bigint and a double double precision (so that "col IS DISTINCT
 * FROM ?3" and "SELECT ?3" agree on a type), text and NULL are left for
 * the server to infer from where they stand (a NULL keeps the type the
 * parameter had). A statement kept
 * (BS_DB_KEEP) or run a second time is prepared there under a name of
 * its own, and prepared again when its blob parameters change; one run
 * once is sent with its parameters (PQsendQueryParams), which costs one
 * round trip instead of three.
 */
static int pg_prepare(struct bs_db *d, const char *sql, int flags,
		      struct bs_db_stmt **out, struct bs_err *err)
{
	struct pg_db *db = (struct pg_db *)d;
	struct bs_buf q = BS_BUF_INIT;
	struct pg_stmt *s;

	(void)err; /* prepared on the server by its first step */
	s = xcalloc(1, sizeof(*s));
	s->base.ops = &bs_db_pg;
	s->db = db;
	s->nparams = translate(sql, &q);
	s->sql = bs_buf_detach(&q, NULL);
	s->keep = (flags & BS_DB_KEEP) != 0;
	s->cur = -1;
	if (flags & BS_DB_BATCH) {
		s->copy_sql = copy_of(sql);
		s->rank = ++db->nbatch;
	}
	if (s->nparams > 0) {
		size_t n = (size_t)s->nparams;
		s->values = xcalloc(n, sizeof(*s->values));
		s->lengths = xcalloc(n, sizeof(*s->lengths));
		s->formats = xcalloc(n, sizeof(*s->formats));
		s->types = xcalloc(n, sizeof(*s->types));
		s->bound = xcalloc(n, sizeof(*s->bound));
	}
	*out = &s->base;
	return 0;
}

/* Frees a variant's server side. In a failed transaction this fails,
 * and the name is never used again. */
static void deallocate(struct pg_stmt *s, struct pg_variant *v)
{
	char sql[48];

	if (v->name[0] == '\0')
		return;
	drain_later(s->db);
	if (PQstatus(s->db->conn) == CONNECTION_OK &&
	    PQtransactionStatus(s->db->conn) != PQTRANS_INERROR) {
		snprintf(sql, sizeof(sql), "DEALLOCATE %s", v->name);
		run_quiet(s->db, sql);
	}
	v->name[0] = '\0';
}

/* The parameters' types as bound; a NULL keeps the type its parameter
 * had in the variant last run. */
static void set_types(struct pg_stmt *s)
{
	int i;

	for (i = 0; i < s->nparams; i++)
		s->types[i] = s->values[i]  ? s->bound[i]
			      : s->cur >= 0 ? s->var[s->cur].types[i]
					    : 0;
}

/* Prepares s on the server for the types bound, unless a variant is. */
static int server_prepare(struct pg_stmt *s)
{
	struct pg_db *db = s->db;
	size_t tsz = (size_t)s->nparams * sizeof(Oid);
	struct pg_variant *v;
	PGresult *res;
	int k, ok;

	set_types(s);
	for (k = 0; k < NVAR; k++)
		if (s->var[k].name[0] &&
		    (tsz == 0 || memcmp(s->var[k].types, s->types, tsz) == 0)) {
			s->cur = k;
			return 0;
		}
	if (drain(db) < 0)
		return -1;
	for (k = 0; k < NVAR && s->var[k].name[0]; k++)
		;
	if (k == NVAR) {
		k = s->evict;
		s->evict = (s->evict + 1) % NVAR;
	}
	v = &s->var[k];
	deallocate(s, v);
	if (v->types == NULL && tsz > 0)
		v->types = xmalloc(tsz);
	if (tsz > 0)
		memcpy(v->types, s->types, tsz);
	snprintf(v->name, sizeof(v->name), "bs%lu", ++db->nstmt);
	if (!PQsendPrepare(db->conn, v->name, s->sql, s->nparams, s->types)) {
		result_error(db, NULL);
		ok = 0;
	} else {
		res = wait_result(db);
		ok = result_ok(db, res);
		PQclear(res);
	}
	if (!ok) {
		v->name[0] = '\0';
		return -1;
	}
	s->cur = k;
	return 0;
}

static void pg_finalize(struct bs_db_stmt *st)
{
	struct pg_stmt *s = (struct pg_stmt *)st;
	int i;

	if (s == NULL)
		return;
	pg_reset(st);
	/* The server keeps a prepared statement until the session ends:
	 * a connection that prepares many (read.c's per query) frees them. */
	for (i = 0; i < NVAR; i++) {
		deallocate(s, &s->var[i]);
		free(s->var[i].types);
	}
	PQclear(s->desc);
	for (i = 0; i < s->nparams; i++)
		free(s->values[i]);
	free(s->values);
	free(s->lengths);
	free(s->formats);
	free(s->types);
	free(s->bound);
	free(s->sql);
	free(s->copy_sql);
	free(s);
}

/* Parameter i (from 1) takes the n bytes v of type t (v NULL: NULL). */
static int set_param(struct bs_db_stmt *st, int i, const void *v, size_t n,
		     Oid t)
{
	struct pg_stmt *s = (struct pg_stmt *)st;

	if (i < 1 || i > s->nparams) {
		set_error(s->db, BS_DB_EOTHER, "parameter number out of range");
		return failed(s->db);
	}
	free(s->values[i - 1]);
	s->values[i - 1] = NULL;
	if (v) {
		s->values[i - 1] = xmalloc(n + 1);
		memcpy(s->values[i - 1], v, n);
		s->values[i - 1][n] = '\0';
	}
	s->lengths[i - 1] = (int)n;
	s->formats[i - 1] = t == OID_BYTEA; /* binary */
	s->bound[i - 1] = t;
	return 0;
}

static int pg_bind_null(struct bs_db_stmt *s, int i)
{
	return set_param(s, i, NULL, 0, 0);
}

static int pg_bind_int64(struct bs_db_stmt *s, int i, int64_t v)
{
	char t[32];
	int n = snprintf(t, sizeof(t), "%" PRId64, v);

	return set_param(s, i, t, (size_t)n, OID_INT8);
}

/* As SQLite stores it: NaN is NULL. Otherwise the shortest decimal that
 * reads back as the same double, so that text columns (run_params'
 * values) read as SQLite's do. */
static int pg_bind_double(struct bs_db_stmt *s, int i, double v)
{
	char t[40];
	int prec, n = 0;

	if (isnan(v))
		return set_param(s, i, NULL, 0, 0);
	if (isinf(v))
		return set_param(s, i, v > 0 ? "Infinity" : "-Infinity",
				 v > 0 ? 8 : 9, OID_FLOAT8);
	/* A whole number, as %.15g writes it, without printf's cost (most
	 * of bonnie++'s values are; this runs for every one ingested). */
	if (v == trunc(v) && fabs(v) < 1e15 && !(v == 0 && signbit(v))) {
		n = snprintf(t, sizeof(t), "%lld", (long long)v);
		return set_param(s, i, t, (size_t)n, OID_FLOAT8);
	}
	for (prec = 15; prec <= 17; prec++) {
		n = snprintf(t, sizeof(t), "%.*g", prec, v);
		if (strtod(t, NULL) == v)
			break;
	}
	return set_param(s, i, t, (size_t)n, OID_FLOAT8);
}

static int pg_bind_text(struct bs_db_stmt *s, int i, const char *v, ptrdiff_t n)
{
	return set_param(s, i, v, n < 0 ? strlen(v) : (size_t)n, 0);
}

static int pg_bind_blob(struct bs_db_stmt *s, int i, const void *v, size_t n)
{
	return set_param(s, i, v ? v : "", n, OID_BYTEA);
}

/* Rows a cursor's FETCH brings at once. */
enum { FETCH_ROWS = 2000 };

/* Whether sql is a query (SELECT ...) that may return many rows. */
static int is_select(const char *sql)
{
	sql += strspn(sql, " \t\n(");
	return strncasecmp(sql, "SELECT", 6) == 0;
}

/*
 * A query run once (not kept) reads its rows through a cursor, FETCH_ROWS
 * at a time: libpq holds a result whole, and a query of every run (a
 * report, a site, an export of a big archive) would be held whole in
 * memory. WITH HOLD keeps it open past the transaction it was declared
 * in (the server keeps its rows, not bstore); other statements may run
 * between two batches, as SQLite lets them.
 *
 * Declared outside a transaction, a cursor would be a transaction of its
 * own, and WITH HOLD would have the server run the whole query at its
 * end, before the first FETCH, while bstore waits. A reader's connection
 * (read only: nothing it runs can be rolled back) declares it in a
 * transaction begun for it instead, ended when its last such cursor
 * closes: the query runs batch by batch, as bstore reads. A COMMIT or
 * ROLLBACK of the caller's before then ends that transaction early, and
 * WITH HOLD keeps the cursor as before.
 */
static int declare(struct pg_stmt *s)
{
	struct pg_db *db = s->db;
	struct bs_buf q = BS_BUF_INIT;
	PGresult *res;
	int ok;

	set_types(s);
	s->keep = 1; /* the next run prepares it */
	if ((db->flags & (BS_DB_OPEN_READONLY | BS_DB_OPEN_UNTRUSTED)) &&
	    PQtransactionStatus(db->conn) == PQTRANS_IDLE) {
		res = PQsendQuery(db->conn, "BEGIN") ? wait_result(db) : NULL;
		ok = result_ok(db, res);
		PQclear(res);
		if (!ok)
			return -1;
		db->own_txn = 1;
		db->nown = 0;
		db->owngen++;
	}
	if (db->own_txn) {
		s->own = db->owngen;
		db->nown++;
	}
	snprintf(s->cursor, sizeof(s->cursor), "bsc%lu", ++db->ncursor);
	bs_buf_addf(&q, "DECLARE %s NO SCROLL CURSOR WITH HOLD FOR %s",
		    s->cursor, s->sql);
	ok = PQsendQueryParams(db->conn, bs_buf_str(&q), s->nparams, s->types,
			       (const char *const *)s->values, s->lengths,
			       s->formats, 0);
	bs_buf_release(&q);
	if (!ok)
		result_error(db, NULL);
	else {
		res = wait_result(db);
		ok = result_ok(db, res);
		PQclear(res);
	}
	if (!ok) {
		s->cursor[0] = '\0';
		/* Its transaction, if it began one, ends with it. */
		end_own(s);
		return -1;
	}
	return 0;
}

/* Sends the FETCH of s's cursor's next batch, its rows in binary once
 * s->binary says they may be; 0 when it could not. */
static int fetch(struct pg_stmt *s)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "FETCH %d FROM %s", FETCH_ROWS, s->cursor);
	return PQsendQueryParams(s->db->conn, sql, 0, NULL, NULL, NULL, NULL,
				 s->binary);
}

/*
 * The types whose binary form the columns' functions read, each as its
 * text would read: a number's text is formatted as the server's output
 * function writes it (float8out with extra_float_digits = 3, the
 * shortest text that reads back exactly). Any other type (numeric, real,
 * a date) keeps the cursor's results in text.
 */
static int binary_type(Oid t)
{
	switch (t) {
	case OID_BOOL:
	case OID_BYTEA:
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
	case OID_FLOAT8:
	case OID_TEXT:
	case OID_VARCHAR:
		return 1;
	default:
		return 0;
	}
}

/*
 * Takes res, the result of the statement sent for s, as its rows. A
 * cursor with more rows sends its next FETCH at once, read when this
 * batch is done (or before anything else is sent: collect).
 */
static int take_result(struct pg_stmt *s, PGresult *res)
{
	int i;

	if (!result_ok(s->db, res)) {
		PQclear(res);
		close_cursor(s);
		return -1;
	}
	forget_row(s);
	PQclear(s->res);
	s->res = res;
	s->nrows = PQntuples(res);
	s->row = -1;
	if (s->blob == NULL && PQnfields(res) > 0) {
		s->ncols = PQnfields(res);
		s->blob = xcalloc((size_t)s->ncols, sizeof(*s->blob));
		s->blen = xcalloc((size_t)s->ncols, sizeof(*s->blen));
		s->coid = xmalloc((size_t)s->ncols * sizeof(*s->coid));
		for (i = 0; i < s->ncols; i++)
			s->coid[i] = PQftype(res, i);
	}
	s->resbin = s->ncols > 0 && PQfformat(res, 0) == 1;
	if (s->cursor[0]) {
		s->more = s->nrows == FETCH_ROWS;
		if (!s->more)
			close_cursor(s);
	}
	/* A cursor's first batch (text) says its columns' types: the
	 * batches after it come in binary when every one is read so,
	 * which spares the server printing the numbers and bstore
	 * parsing them back. */
	if (s->more && !s->binary && s->ncols > 0 && s->num == NULL) {
		int ok = 1;
		for (i = 0; i < s->ncols && ok; i++)
			ok = binary_type(s->coid[i]);
		if (ok) {
			s->binary = 1;
			s->num = xmalloc((size_t)s->ncols * NUM_TEXT);
			s->numgen =
				xmalloc((size_t)s->ncols * sizeof(*s->numgen));
			for (i = 0; i < s->ncols; i++)
				s->numgen[i] = s->gen - 1;
		}
	}
	/* Not sent: the next step sends it again, and says why not. */
	if (s->more && fetch(s))
		set_ahead(s->db, s);
	return 0;
}

static int pg_step(struct bs_db_stmt *st)
{
	struct pg_stmt *s = (struct pg_stmt *)st;
	struct pg_db *db = s->db;

	if (cancelled(db)) {
		set_error(db, BS_DB_EINTERRUPT, "interrupted");
		return failed(db);
	}
	/* Its own FETCH sent ahead stays out while it reads this batch
	 * (collected when the batch ends), so that the server fills the
	 * next one meanwhile; anything else is collected first. */
	if (!(db->ahead == s && !db->piped && db->ncopy == 0 &&
	      !db->copy_wait && !db->failed) &&
	    drain(db) < 0)
		return failed(db);
	if (s->res == NULL) {
		int sent;
		if (s->keep) {
			if (server_prepare(s) < 0)
				return failed(db);
			sent = PQsendQueryPrepared(db->conn,
						   s->var[s->cur].name,
						   s->nparams,
						   (const char *const *)
							   s->values,
						   s->lengths, s->formats, 0);
		} else if (is_select(s->sql)) {
			if (declare(s) < 0)
				return failed(db);
			sent = fetch(s);
		} else {
			set_types(s);
			s->keep = 1; /* the next run prepares it */
			sent = PQsendQueryParams(db->conn, s->sql, s->nparams,
						 s->types,
						 (const char *const *)s->values,
						 s->lengths, s->formats, 0);
		}
		if (!sent) {
			result_error(db, NULL);
			return failed(db);
		}
		if (take_result(s, wait_result(db)) < 0)
			return failed(db);
	}
	forget_row(s);
	if (s->row < s->nrows)
		s->row++;
	/* A batch is larger than the socket's buffer: the FETCH sent ahead
	 * stalls the server once that is full, unless what it sent is read
	 * into libpq's buffer while bstore works through this one (it does
	 * not block: a failure is found when the batch is collected). */
	if (db->ahead && s->row % 128 == 0)
		PQconsumeInput(db->conn);
	/* The cursor's next batch: read ahead (drain collected it), or
	 * asked for now. */
	if (s->row == s->nrows && s->more) {
		PGresult *res;
		if (db->ahead == s)
			collect(db);
		res = s->next;
		if (!s->has_next) {
			if (!fetch(s)) {
				result_error(db, NULL);
				return failed(db);
			}
			res = wait_result(db);
		}
		s->next = NULL;
		s->has_next = 0;
		if (take_result(s, res) < 0)
			return failed(db);
		s->row = 0;
	}
	return s->row < s->nrows ? BS_DB_ROW : BS_DB_DONE;
}

/*
 * A write whose result is not read, sent without waiting: libpq's
 * pipeline mode, prepared on the server as pg_step does (a statement
 * prepared anew waits for the deferred ones first). Up to PIPE_MAX are
 * sent before their results are read (drain): the server's results for
 * them wait in its socket buffer meanwhile, which they must not fill.
 */
static int pg_defer(struct bs_db_stmt *st)
{
	struct pg_stmt *s = (struct pg_stmt *)st;
	struct pg_db *db = s->db;
	size_t n0;

	if (cancelled(db)) {
		set_error(db, BS_DB_EINTERRUPT, "interrupted");
		return failed(db);
	}
	if (s->res || is_select(s->sql))
		BS_BUG("deferred statement that reads");
	if (s->copy_sql) {
		int i;
		/* Tables in the order their statements were prepared: a
		 * row may refer to rows of one prepared before (a run's
		 * rows to the run), which COPY sends first. */
		for (i = 0; i < db->ncopy && db->copy[i].rank < s->rank; i++)
			;
		if (i == db->ncopy || db->copy[i].rank != s->rank) {
			if (db->ncopy == NCOPY) {
				if (drain(db) < 0)
					return failed(db);
				i = 0;
			}
			memmove(&db->copy[i + 1], &db->copy[i],
				(size_t)(db->ncopy - i) * sizeof(db->copy[0]));
			db->copy[i].sql = xstrdup(s->copy_sql);
			db->copy[i].rank = s->rank;
			bs_buf_init_max(&db->copy[i].rows, 0);
			db->ncopy++;
		}
		n0 = db->copy[i].rows.len;
		copy_row(s, &db->copy[i].rows);
		db->copied += db->copy[i].rows.len - n0;
		return db->copied >= COPY_MAX && drain_to(db, 1) < 0
			       ? failed(db)
			       : 0;
	}
	/* Every statement piped goes before every row kept for COPY. */
	if (db->ncopy > 0 && drain(db) < 0)
		return failed(db);
	collect(db);
	s->keep = 1;
	if (server_prepare(s) < 0)
		return failed(db);
	if (!db->piped) {
		if (!PQenterPipelineMode(db->conn)) {
			result_error(db, NULL);
			return failed(db);
		}
		db->piped = 1;
	}
	if (!PQsendQueryPrepared(db->conn, s->var[s->cur].name, s->nparams,
				 (const char *const *)s->values, s->lengths,
				 s->formats, 0)) {
		result_error(db, NULL);
		drain_later(db);
		return failed(db);
	}
	if (++db->pending >= PIPE_MAX && drain(db) < 0)
		return failed(db);
	return 0;
}

/* ---- columns --------------------------------------------------------- */

static int has_cell(const struct pg_stmt *s, int col)
{
	return s->res && s->row >= 0 && s->row < s->nrows && col >= 0 &&
	       col < s->ncols;
}

/*
 * The statement's columns: of its result once it ran, else as the server
 * describes it (prepared for that, as bound so far).
 */
static const PGresult *columns(struct pg_stmt *s)
{
	PGresult *res;

	if (s->res)
		return s->res;
	if (s->desc == NULL && drain(s->db) == 0 && server_prepare(s) == 0) {
		if (!PQsendDescribePrepared(s->db->conn, s->var[s->cur].name)) {
			result_error(s->db, NULL);
			return NULL;
		}
		res = wait_result(s->db);
		if (result_ok(s->db, res))
			s->desc = res;
		else
			PQclear(res);
	}
	return s->desc;
}

static int pg_column_count(struct bs_db_stmt *st)
{
	const PGresult *res = columns((struct pg_stmt *)st);

	return res ? PQnfields(res) : 0;
}

static const char *pg_column_name(struct bs_db_stmt *st, int col)
{
	const PGresult *res = columns((struct pg_stmt *)st);

	return res && col >= 0 && col < PQnfields(res) ? PQfname(res, col)
						       : NULL;
}

static enum bs_db_type pg_column_type(struct bs_db_stmt *st, int col)
{
	struct pg_stmt *s = (struct pg_stmt *)st;

	if (!has_cell(s, col) || PQgetisnull(s->res, s->row, col))
		return BS_DB_NULL;
	switch (s->coid[col]) {
	case OID_BOOL:
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
	case OID_OID:
		return BS_DB_INT;
	case OID_FLOAT4:
	case OID_FLOAT8:
	case OID_NUMERIC:
		return BS_DB_FLOAT;
	case OID_BYTEA:
		return BS_DB_BLOB;
	default:
		return BS_DB_TEXT;
	}
}

/* The cell as libpq holds it (text or binary), NULL for SQL NULL. */
static const char *cell(struct pg_stmt *s, int col)
{
	if (!has_cell(s, col) || PQgetisnull(s->res, s->row, col))
		return NULL;
	return PQgetvalue(s->res, s->row, col);
}

/* Whether the current result holds column col in binary. */
static int is_binary(const struct pg_stmt *s, int col)
{
	(void)col; /* libpq asks for every column in one format */
	return s->resbin;
}

/* A binary cell's big-endian integer of n bytes (2, 4 or 8). */
static uint64_t be(const char *p, int n)
{
	const unsigned char *u = (const unsigned char *)p;
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 8 | u[i];
	return v;
}

/* A binary integer cell (int2, int4, int8, bool) of type t. */
static int64_t bin_int(const char *p, Oid t)
{
	switch (t) {
	case OID_BOOL:
		return p[0] != 0;
	case OID_INT2:
		return (int16_t)(uint16_t)be(p, 2);
	case OID_INT4:
		return (int32_t)(uint32_t)be(p, 4);
	default:
		return (int64_t)be(p, 8);
	}
}

static double bin_double(const char *p)
{
	uint64_t u = be(p, 8);
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

/*
 * Whether the m significant digits of d (%.*e's mantissa, its point
 * removed) read back as d, with the exponent e.
 */
static int reads_back(const char *digits, int m, int e, double d)
{
	char t[48];

	if (m > 1)
		snprintf(t, sizeof(t), "%c.%.*se%d", digits[0], m - 1,
			 digits + 1, e);
	else
		snprintf(t, sizeof(t), "%ce%d", digits[0], e);
	return strtod(t, NULL) == d;
}

/*
 * The text float8out writes for d with extra_float_digits > 0 (the
 * server's shortest form, its ryu d2s): the fewest significant digits
 * that read back as d (of those, the nearest to d), in fixed notation
 * when the exponent is from -4 to 14, else as 1.5e+20 or 1e-05.
 */
static void float8_text(double d, char out[NUM_TEXT])
{
	char t[40], digits[24], *o = out;
	int m, e = 0, k;

	if (isnan(d)) {
		snprintf(out, NUM_TEXT, "NaN");
		return;
	}
	if (isinf(d)) {
		snprintf(out, NUM_TEXT, "%s", d > 0 ? "Infinity" : "-Infinity");
		return;
	}
	if (signbit(d))
		*o++ = '-';
	d = fabs(d);
	if (d == 0) {
		snprintf(o, NUM_TEXT - 1, "0");
		return;
	}
	for (m = 1; m <= 17; m++) {
		/* "d.ddde[+-]x": the nearest m digits. */
		snprintf(t, sizeof(t), "%.*e", m - 1, d);
		digits[0] = t[0];
		memcpy(digits + 1, t + 2, (size_t)(m - 1));
		e = (int)strtol(strchr(t, 'e') + 1, NULL, 10);
		if (reads_back(digits, m, e, d))
			break;
		/* The nearest may miss where its neighbour in the last digit
		 * reads back (the interval around d is uneven at a power of
		 * two): ryu finds that one. */
		for (k = -1; k <= 1; k += 2) {
			char n[24];
			int c = m - 1;
			memcpy(n, digits, (size_t)m);
			while (c >= 0) {
				n[c] = (char)(n[c] + k);
				if (n[c] >= '0' && n[c] <= '9')
					break;
				n[c] = k > 0 ? '0' : '9';
				c--;
			}
			if (c < 0 || n[0] == '0')
				continue; /* changes the length: not this one */
			if (reads_back(n, m, e, d)) {
				memcpy(digits, n, (size_t)m);
				goto found;
			}
		}
	}
found:
	/* Trailing zeros are not significant. */
	while (m > 1 && digits[m - 1] == '0')
		m--;
	if (e >= -4 && e < 15) {
		if (e < 0) {
			*o++ = '0';
			*o++ = '.';
			for (k = -1; k > e; k--)
				*o++ = '0';
			memcpy(o, digits, (size_t)m);
			o += m;
		} else if (m <= e + 1) {
			memcpy(o, digits, (size_t)m);
			o += m;
			for (k = m; k <= e; k++)
				*o++ = '0';
		} else {
			memcpy(o, digits, (size_t)e + 1);
			o += e + 1;
			*o++ = '.';
			memcpy(o, digits + e + 1, (size_t)(m - e - 1));
			o += m - e - 1;
		}
		*o = '\0';
		return;
	}
	*o++ = digits[0];
	if (m > 1) {
		*o++ = '.';
		memcpy(o, digits + 1, (size_t)(m - 1));
		o += m - 1;
	}
	snprintf(o, (size_t)(out + NUM_TEXT - o), "e%c%02d", e < 0 ? '-' : '+',
		 e < 0 ? -e : e);
}

/*
 * A binary cell as the text the server would have sent: numbers and
 * booleans formatted once per row; text and bytea are their bytes.
 */
static const char *bin_text(struct pg_stmt *s, int col, const char *p)
{
	Oid t = s->coid[col];
	char *out = s->num + (size_t)col * NUM_TEXT;

	switch (t) {
	case OID_BOOL:
		return p[0] ? "t" : "f";
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
	case OID_FLOAT8:
		break;
	default:
		return p;
	}
	if (s->numgen[col] != s->gen) {
		if (t == OID_FLOAT8)
			float8_text(bin_double(p), out);
		else
			snprintf(out, NUM_TEXT, "%" PRId64, bin_int(p, t));
		s->numgen[col] = s->gen;
	}
	return out;
}

static double pg_column_double(struct bs_db_stmt *st, int col)
{
	struct pg_stmt *s = (struct pg_stmt *)st;
	const char *t = cell(s, col);

	if (t == NULL)
		return 0.0;
	if (is_binary(s, col)) {
		Oid type = s->coid[col];
		if (type == OID_FLOAT8)
			return bin_double(t);
		if (type != OID_TEXT && type != OID_VARCHAR &&
		    type != OID_BYTEA)
			return (double)bin_int(t, type);
	}
	if (t[0] == 't' && t[1] == '\0')
		return 1.0;
	return strtod(t, NULL);
}

static int64_t pg_column_int64(struct bs_db_stmt *st, int col)
{
	struct pg_stmt *s = (struct pg_stmt *)st;
	const char *t = cell(s, col);

	if (t == NULL)
		return 0;
	if (is_binary(s, col)) {
		Oid type = s->coid[col];
		if (type == OID_FLOAT8)
			return (int64_t)bin_double(t);
		if (type != OID_TEXT && type != OID_VARCHAR &&
		    type != OID_BYTEA)
			return bin_int(t, type);
	}
	if (t[0] == 't' && t[1] == '\0')
		return 1;
	/* A real reads as SQLite converts it: truncated. */
	if (pg_column_type(st, col) == BS_DB_FLOAT || strpbrk(t, ".eE"))
		return (int64_t)strtod(t, NULL);
	return strtoll(t, NULL, 10);
}

/* A bytea cell's bytes, unescaped once per row (with a NUL after them,
 * as SQLite's text of a blob has; libpq ends a binary cell with one). */
static const char *blob_cell(struct pg_stmt *s, int col)
{
	const char *t = cell(s, col);
	unsigned char *b;
	size_t n;

	if (t == NULL || is_binary(s, col))
		return t;
	if (s->blob[col] == NULL) {
		b = PQunescapeBytea((const unsigned char *)t, &n);
		if (b == NULL) {
			fputs("bstore: out of memory\n", stderr);
			abort();
		}
		s->blob[col] = xmalloc(n + 1);
		memcpy(s->blob[col], b, n);
		s->blob[col][n] = '\0';
		s->blen[col] = n;
		PQfreemem(b);
	}
	return s->blob[col];
}

static const char *pg_column_text(struct bs_db_stmt *st, int col)
{
	struct pg_stmt *s = (struct pg_stmt *)st;
	const char *t;

	if (has_cell(s, col) && s->coid[col] == OID_BYTEA)
		return blob_cell(s, col);
	t = cell(s, col);
	return t && is_binary(s, col) ? bin_text(s, col, t) : t;
}

static const void *pg_column_blob(struct bs_db_stmt *st, int col)
{
	return pg_column_text(st, col);
}

static size_t pg_column_bytes(struct bs_db_stmt *st, int col)
{
	struct pg_stmt *s = (struct pg_stmt *)st;
	Oid t;

	if (!has_cell(s, col) || PQgetisnull(s->res, s->row, col))
		return 0;
	t = s->coid[col];
	if (t == OID_BYTEA && !is_binary(s, col))
		return blob_cell(s, col) ? s->blen[col] : 0;
	if (is_binary(s, col) && t != OID_BYTEA && t != OID_TEXT &&
	    t != OID_VARCHAR)
		return strlen(pg_column_text(st, col));
	return (size_t)PQgetlength(s->res, s->row, col);
}

/* ---- the write lock ------------------------------------------------- */

static PGresult *query(struct pg_db *db, const char *sql, int n,
		       const char *const *params);

/* How long a writer waits for its turn before it says for whom. */
enum { LOCK_QUIET_MS = 1000 };

/* The advisory lock writers take turns on: "bstore" in ASCII. */
#define PG_LOCK "108248014221925"

/*
 * Who holds the write lock, for a writer that waits: the holder's
 * application_name (bstore@HOST), its address, pid and how long its
 * transaction has run. pg_locks shows a bigint key as its two halves.
 * 1, or 0 when no one holds it now (or the look failed).
 */
static int lock_holder(struct pg_db *db, char *out, size_t n)
{
	PGresult *res;
	int found = 0;

	/* pg_stat_activity is read once a transaction (a snapshot) while
	 * pg_locks is live: a second look would join today's holder with
	 * its row of the first look, idle then (no xact_start) or gone. */
	res = query(db, "SELECT pg_catalog.pg_stat_clear_snapshot()", 0, NULL);
	if (res == NULL)
		return 0;
	PQclear(res);
	if (!PQsendQuery(db->conn,
			 "SELECT a.application_name, "
			 "COALESCE(pg_catalog.host(a.client_addr), 'local'), "
			 "a.pid, pg_catalog.floor(EXTRACT(EPOCH FROM "
			 "pg_catalog.clock_timestamp() - a.xact_start)) "
			 "FROM pg_catalog.pg_locks l JOIN "
			 "pg_catalog.pg_stat_activity a ON a.pid = l.pid "
			 "WHERE l.locktype = 'advisory' AND l.granted AND "
			 "a.xact_start IS NOT NULL AND "
			 "l.objsubid = 1 AND l.database = (SELECT oid FROM "
			 "pg_catalog.pg_database WHERE datname = "
			 "pg_catalog.current_database()) AND "
			 "(l.classid::int8 << 32 | l.objid::int8) = " PG_LOCK))
		return 0;
	res = wait_result(db);
	found = res && PQresultStatus(res) == PGRES_TUPLES_OK &&
		PQntuples(res) > 0;
	if (found)
		snprintf(out, n, "%.64s (%.64s, pid %s, for %s s)",
			 PQgetisnull(res, 0, 0) || !PQgetvalue(res, 0, 0)[0]
				 ? "a client"
				 : PQgetvalue(res, 0, 0),
			 PQgetvalue(res, 0, 1), PQgetvalue(res, 0, 2),
			 PQgetisnull(res, 0, 3) ? "?" : PQgetvalue(res, 0, 3));
	PQclear(res);
	return found;
}

/*
 * BEGIN and the write lock: tried first, so that a writer that must
 * wait says for whom; then waited for, as long as lock_timeout.
 */
static int pg_begin_write(struct bs_db *d,
			  void (*waiting)(const char *who, void *ctx),
			  void *ctx, struct bs_err *err)
{
	struct pg_db *db = (struct pg_db *)d;
	char who[256];
	PGresult *res;
	int got;

	int64_t start = mono_ms();
	long nap = 10;

	if (pg_exec(d, "BEGIN", NULL) < 0)
		return bs_db_fail(d, err);
	/* A turn that comes within a second is taken silently. */
	for (;;) {
		res = query(db,
			    "SELECT pg_catalog.pg_try_advisory_xact_lock(" PG_LOCK
			    ")",
			    0, NULL);
		if (res == NULL)
			return bs_db_fail(d, err);
		got = PQntuples(res) == 1 &&
		      strcmp(PQgetvalue(res, 0, 0), "t") == 0;
		PQclear(res);
		if (got)
			return 0;
		if (cancelled(db)) {
			set_error(db, BS_DB_EINTERRUPT, "interrupted");
			return bs_db_fail(d, err);
		}
		/* A holder gone between the try and the look is no one to
		 * wait for: try again. */
		if (mono_ms() - start >= LOCK_QUIET_MS &&
		    lock_holder(db, who, sizeof(who)))
			break;
		sleep_ms(nap);
		nap = nap < 80 ? nap * 2 : nap;
	}
	if (waiting)
		waiting(who, ctx);
	if (pg_exec(d, "SELECT pg_catalog.pg_advisory_xact_lock(" PG_LOCK ")",
		    NULL) == 0)
		return 0;
	if (db->kind == BS_DB_EBUSY) {
		char msg[400];
		snprintf(msg, sizeof(msg),
			 "the archive's write lock was not granted within "
			 "lock_timeout (held by %s)",
			 who);
		set_error(db, BS_DB_EBUSY, msg);
	}
	return bs_db_fail(d, err);
}

/* ---- the schema's version and tables ----------------------------------- */

/* Runs one query with text parameters; its result, or NULL (error set). */
static PGresult *query(struct pg_db *db, const char *sql, int n,
		       const char *const *params)
{
	PGresult *res;

	if (drain(db) < 0)
		return NULL;
	if (!PQsendQueryParams(db->conn, sql, n, NULL, params, NULL, NULL, 0)) {
		result_error(db, NULL);
		return NULL;
	}
	res = wait_result(db);
	if (!result_ok(db, res)) {
		PQclear(res);
		return NULL;
	}
	return res;
}

static int pg_has_object(struct bs_db *d, const char *name, int *has,
			 struct bs_err *err)
{
	struct pg_db *db = (struct pg_db *)d;
	const char *p[] = {name};
	PGresult *res = query(db,
			      "SELECT 1 FROM pg_catalog.pg_class c JOIN "
			      "pg_catalog.pg_namespace n ON n.oid = "
			      "c.relnamespace WHERE n.nspname = "
			      "current_schema() AND c.relname = $1 AND "
			      "c.relkind IN ('r', 'p', 'v', 'm', 'i')",
			      1, p);

	*has = 0;
	if (res == NULL)
		return bs_db_fail(d, err);
	*has = PQntuples(res) > 0;
	PQclear(res);
	return 0;
}

/* The one integer a query returns, or -1. */
static int query_int(struct pg_db *db, const char *sql, int n,
		     const char *const *params)
{
	PGresult *res = query(db, sql, n, params);
	int64_t v = -1;

	if (res && PQntuples(res) == 1 &&
	    bs_parse_i64(PQgetvalue(res, 0, 0), (size_t)PQgetlength(res, 0, 0),
			 &v) < 0)
		v = -1;
	PQclear(res);
	return v > INT32_MAX ? INT32_MAX : (int)v;
}

static int pg_count_objects(struct bs_db *d, struct bs_err *err)
{
	int n = query_int((struct pg_db *)d,
			  "SELECT count(*) FROM pg_catalog.pg_class c JOIN "
			  "pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
			  "WHERE n.nspname = current_schema() AND c.relkind IN "
			  "('r', 'p', 'v', 'm', 'i')",
			  0, NULL);

	return n < 0 ? bs_db_fail(d, err) : n;
}

static int pg_referrers(struct bs_db *d, const char *table,
			int (*fn)(const char *table, const char *col,
				  void *ctx),
			void *ctx, struct bs_err *err)
{
	struct pg_db *db = (struct pg_db *)d;
	const char *p[] = {table};
	PGresult *res;
	int i, rc = 0;

	/* Foreign keys of one column (bstore's are) to table, in the
	 * current schema. */
	res = query(db,
		    "SELECT c.relname, a.attname FROM pg_catalog.pg_constraint "
		    "f JOIN pg_catalog.pg_class c ON c.oid = f.conrelid JOIN "
		    "pg_catalog.pg_class t ON t.oid = f.confrelid JOIN "
		    "pg_catalog.pg_namespace n ON n.oid = t.relnamespace JOIN "
		    "pg_catalog.pg_attribute a ON a.attrelid = f.conrelid AND "
		    "a.attnum = f.conkey[1] WHERE f.contype = 'f' AND "
		    "n.nspname = current_schema() AND t.relname = $1 "
		    "ORDER BY c.relname",
		    1, p);
	if (res == NULL)
		return bs_db_fail(d, err);
	for (i = 0; i < PQntuples(res) && rc >= 0; i++)
		rc = fn(PQgetvalue(res, i, 0), PQgetvalue(res, i, 1), ctx);
	PQclear(res);
	return rc < 0 ? rc : 0;
}

/*
 * Of merge's source: each table named is a plain table (not a view, a
 * foreign or partitioned table), with no generated column, no trigger and
 * no row security policy (whose expressions would run as it is read);
 * runs has its id.
 */
static int pg_check_untrusted(struct bs_db *d, const char *const *tables,
			      size_t n, struct bs_err *err)
{
	struct pg_db *db = (struct pg_db *)d;
	char msg[200];
	size_t i;

	for (i = 0; i < n; i++) {
		const char *p[] = {tables[i]};
		PGresult *res = query(
			db,
			"SELECT c.relkind, c.relrowsecurity, (SELECT count(*) "
			"FROM pg_catalog.pg_attribute a WHERE a.attrelid = "
			"c.oid AND a.attgenerated <> ''), (SELECT count(*) FROM "
			"pg_catalog.pg_trigger g WHERE g.tgrelid = c.oid AND NOT "
			"g.tgisinternal), (SELECT count(*) FROM "
			"pg_catalog.pg_attribute a WHERE a.attrelid = c.oid AND "
			"a.attname = 'id' AND a.attnum > 0) FROM "
			"pg_catalog.pg_class c JOIN pg_catalog.pg_namespace s ON "
			"s.oid = c.relnamespace WHERE s.nspname = "
			"current_schema() AND c.relname = $1",
			1, p);
		/* What is wrong, around the table's name. */
		const char *pre = NULL, *post = "";

		if (res == NULL)
			return bs_db_fail(d, err);
		if (PQntuples(res) == 0)
			pre = "it has no table ";
		else if (strcmp(PQgetvalue(res, 0, 0), "r") != 0)
			pre = "its ", post = " is not a plain table, as a "
					     "bstore archive has";
		else if (strcmp(PQgetvalue(res, 0, 1), "t") == 0)
			pre = "its table ", post = " has row security, which a "
						   "bstore archive has not";
		else if (strcmp(PQgetvalue(res, 0, 2), "0") != 0)
			pre = "its table ", post = " has generated columns, "
						   "which a bstore archive "
						   "has not";
		else if (strcmp(PQgetvalue(res, 0, 3), "0") != 0)
			pre = "its table ", post = " has a trigger, which a "
						   "bstore archive has not";
		else if (strcmp(tables[i], "runs") == 0 &&
			 strcmp(PQgetvalue(res, 0, 4), "1") != 0)
			pre = "its table ", post = " has no column 'id'";
		PQclear(res);
		if (pre) {
			snprintf(msg, sizeof(msg), "%s'%s'%s", pre, tables[i],
				 post);
			set_error(db, BS_DB_ECORRUPT, msg);
			return bs_db_fail(d, err);
		}
	}
	return 0;
}

/* The first schema version a PostgreSQL archive had (issue 23). */
#define PG_FIRST_VERSION 4

/*
 * An upgrade is one transaction: PostgreSQL rolls schema changes back
 * too, so nothing needs keeping. But no PostgreSQL archive was ever of a
 * version before PG_FIRST_VERSION (its meta was changed, or the tables
 * are not bstore's), and a reader's session is read-only: it cannot
 * upgrade, and says who can.
 */
static int pg_before_upgrade(struct bs_db *d, int v, struct bs_err *err)
{
	struct pg_db *db = (struct pg_db *)d;
	char why[400];

	if (v < PG_FIRST_VERSION) {
		snprintf(why, sizeof(why),
			 "meta's schema_version is %d, a version no "
			 "PostgreSQL archive ever had (they begin at %d): "
			 "its meta table was changed, or the tables are not "
			 "bstore's",
			 v, PG_FIRST_VERSION);
		set_error(db, BS_DB_ECORRUPT, why);
		return bs_db_fail(d, err);
	}
	if (db->flags & (BS_DB_OPEN_READONLY | BS_DB_OPEN_UNTRUSTED)) {
		snprintf(why, sizeof(why),
			 "it was made by an older bstore (schema version %d) "
			 "and a reader cannot upgrade it; a command that "
			 "writes (ingest, tag, set, rm), run once as the "
			 "archive's owner, does",
			 v);
		set_error(db, BS_DB_EREADONLY, why);
		return bs_db_fail(d, err);
	}
	return 0;
}

/*
 * Opened to write: the role may write the archive. A role granted SELECT
 * only is told so here, whatever the command would write (an ingest of
 * runs stored already writes nothing, and would otherwise succeed).
 */
static int pg_settle(struct bs_db *d, struct bs_err *err)
{
	struct pg_db *db = (struct pg_db *)d;
	PGresult *res;
	char msg[200];
	int ok;

	if (db->flags & (BS_DB_OPEN_READONLY | BS_DB_OPEN_UNTRUSTED))
		return 0;
	res = query(db,
		    "SELECT has_table_privilege('runs', 'INSERT, UPDATE, "
		    "DELETE') AND has_table_privilege('tags', 'INSERT, "
		    "UPDATE, DELETE') AND has_table_privilege('rejects', "
		    "'INSERT')",
		    0, NULL);
	if (res == NULL)
		return bs_db_fail(d, err);
	ok = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);
	if (ok)
		return 0;
	snprintf(msg, sizeof(msg),
		 "permission denied: role '%s' may read this archive, not "
		 "write to it",
		 PQuser(db->conn));
	set_error(db, BS_DB_EREADONLY, msg);
	return bs_db_fail(d, err);
}

static void pg_bulk(struct bs_db *d, int on)
{
	(void)d;
	(void)on;
}

/* A glob is the regular expression that matches the same text (store/
 * db.c); '~' is case-sensitive, as GLOB is. */
/* Appends s as an SQL string literal. */
static void add_quoted(struct bs_buf *sql, const char *s)
{
	bs_buf_addc(sql, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			bs_buf_addc(sql, '\'');
		bs_buf_addc(sql, *s);
	}
	bs_buf_addc(sql, '\'');
}

/* The server's choice between a regular expression over characters (a
 * UTF8 database) and one over bytes (SQL_ASCII: store/db.c) for a glob
 * that has a '?' or a class. */
#define BY_ENCODING                                                            \
	"CASE WHEN pg_catalog.current_setting('server_encoding') "             \
	"= 'UTF8' THEN 1 ELSE 2 END"

static void pg_glob(struct bs_buf *sql, const char *col, const char *pattern,
		    struct bs_buf *value)
{
	struct bs_buf re = BS_BUF_INIT, bytes = BS_BUF_INIT;
	int both = bs_db_glob_by_char(pattern);

	bs_db_glob_regex(pattern, &re);
	if (both)
		bs_db_glob_regex_bytes(pattern, &bytes);
	if (value && !both) {
		bs_buf_addf(sql, "%s ~ ?", col);
		bs_buf_adds(value, bs_buf_str(&re));
	} else if (value) {
		/* One parameter: both expressions, split by a character
		 * neither holds (a control is written \u0001). */
		bs_buf_addf(
			sql,
			"%s ~ pg_catalog.split_part(?, pg_catalog.chr(1), " BY_ENCODING
			")",
			col);
		bs_buf_adds(value, bs_buf_str(&re));
		bs_buf_addc(value, '\001');
		bs_buf_adds(value, bs_buf_str(&bytes));
	} else if (!both) {
		bs_buf_addf(sql, "%s ~ ", col);
		add_quoted(sql, bs_buf_str(&re));
	} else {
		bs_buf_addf(sql, "%s ~ (CASE " BY_ENCODING " WHEN 1 THEN ",
			    col);
		add_quoted(sql, bs_buf_str(&re));
		bs_buf_adds(sql, " ELSE ");
		add_quoted(sql, bs_buf_str(&bytes));
		bs_buf_adds(sql, " END)");
	}
	bs_buf_release(&re);
	bs_buf_release(&bytes);
}

static int pg_get_version(struct bs_db *d, int *version, struct bs_err *err)
{
	struct pg_db *db = (struct pg_db *)d;
	PGresult *res;
	int has, rc = pg_has_object(d, "meta", &has, err);

	*version = 0;
	if (rc < 0 || !has)
		return rc;
	res = query(db, "SELECT value FROM meta WHERE key = 'schema_version'",
		    0, NULL);
	if (res == NULL)
		return bs_db_fail(d, err);
	if (PQntuples(res) > 0) {
		const char *t = PQgetvalue(res, 0, 0);
		int64_t v;
		if (bs_parse_i64(t, strlen(t), &v) < 0 || v < 1 || v > 99999) {
			char why[200];

			snprintf(why, sizeof(why),
				 "meta's schema_version '%.40s' is %s", t,
				 bs_parse_i64(t, strlen(t), &v) < 0
					 ? "not a number"
					 : "no schema version (they count "
					   "from 1)");
			PQclear(res);
			set_error(db, BS_DB_ECORRUPT, why);
			return bs_db_fail(d, err);
		}
		*version = (int)v;
	}
	PQclear(res);
	return 0;
}

static int pg_set_version(struct bs_db *d, int version, struct bs_err *err)
{
	struct pg_db *db = (struct pg_db *)d;
	char v[16];
	const char *p[] = {v};
	PGresult *res;

	snprintf(v, sizeof(v), "%d", version);
	res = query(db,
		    "INSERT INTO meta (key, value) VALUES ('schema_version', "
		    "$1) ON CONFLICT (key) DO UPDATE SET value = "
		    "excluded.value",
		    1, p);
	if (res == NULL)
		return bs_db_fail(d, err);
	PQclear(res);
	return 0;
}

/* clang-format off */
const struct bs_db_ops bs_db_pg = {
	.name = "postgresql",
	.schema_file = "schema.sql",
	.schema_rewrites = bs_db_pg_schema,
	.open = pg_open,
	.close = pg_close,
	.display = pg_display,
	.exec = pg_exec,
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.reset = pg_reset,
	.bind_null = pg_bind_null,
	.bind_int64 = pg_bind_int64,
	.bind_double = pg_bind_double,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.step = pg_step,
	.column_count = pg_column_count,
	.column_name = pg_column_name,
	.column_type = pg_column_type,
	.column_int64 = pg_column_int64,
	.column_double = pg_column_double,
	.column_text = pg_column_text,
	.column_blob = pg_column_blob,
	.column_bytes = pg_column_bytes,
	.changes = pg_changes,
	.errmsg = pg_errmsg,
	.errkind = pg_errkind,
	.get_version = pg_get_version,
	.set_version = pg_set_version,
	.has_object = pg_has_object,
	.count_objects = pg_count_objects,
	.referrers = pg_referrers,
	.check_untrusted = pg_check_untrusted,
	.set_cancel = pg_set_cancel,
	.before_upgrade = pg_before_upgrade,
	.settle = pg_settle,
	.bulk = pg_bulk,
	.glob = pg_glob,
	.same = pg_same,
	/*
	 * Writers take turns, as SQLite's BEGIN IMMEDIATE makes them: a
	 * transaction-scoped advisory lock, held until COMMIT or ROLLBACK.
	 * A writer looks a run's SHA-256 and measure key up before storing
	 * it (store/write.c, store/dedup.c); taking turns makes that look-up
	 * see every run another writer committed, so fifty writers store
	 * each run once, and none fails: the lock is waited for, never
	 * refused. Readers never wait. The key is "bstore" in ASCII.
	 */
	/* lower() under the database's collation folds 'É' too (a UTF8
	 * database of another locale than C); under "C", ASCII alone. */
	.lower_ascii = " COLLATE \"C\"",
	.begin_write_sql = "BEGIN; SELECT pg_advisory_xact_lock(" PG_LOCK ")",
	.begin_write = pg_begin_write,
	.writer = BS_DB_WRITE_PIPELINED,
	.defer = pg_defer,
};
/* clang-format on */
