/*
 * store/internal.h - what the store's files share; not part of its public
 * face (store/store.h). The store is the only module that speaks SQL, to
 * its engine through store/db.h. Its rooms (tests/cli/rooms.sh checks
 * that every file of store/ is named here):
 *
 *   store.h    the public face: the archive, its runs, selectors
 *   internal.h this header: struct bs_store and the files' shared helpers
 *   db.h       the engines' table (struct bs_db_ops), one row an engine
 *   db.c       what the engines' rows share: choosing a row by the
 *              archive's name, a failure as a bs_err, copying a column
 *              between statements
 *   db_sqlite.c
 *              the SQLite row; the only file that includes <sqlite3.h>
 *   db_pg.c    the PostgreSQL row, through libpq
 *   db_pg_stub.c
 *              the PostgreSQL row of a build without libpq: a clear error
 *   db_schema.c
 *              schema.sql as an engine runs it (as is, or rewritten for
 *              PostgreSQL)
 *   open.c     connections: open, close, locks and waiting, transactions,
 *              the default archive path
 *   migrate.c  the schema: a new archive, upgrades from older versions,
 *              the catalogue tables (metrics, params) and their fingerprint
 *   write.c    runs with their tags, parameters, results, curves and
 *              latencies; rejected lines; tags on stored runs; deletion
 *   dedup.c    one measurement, one run across inputs: the measure key
 *   seen.c     the runs a write transaction knows (server engines)
 *   absent.c   the runs a write transaction knows are not stored (a
 *              Bloom filter of digests, for the direct writer)
 *   writer.c   how a write transaction's rows reach the engine: one
 *              writer a transaction (direct, pipelined), chosen at BEGIN
 *   history.c  bstore set: changing a stored run's machine or date, with
 *              a row of run_history
 *   cache.c    what bstore check keeps between runs (meta's cache.* rows),
 *              dropped whole by every change to a stored run
 *   merge.c    bstore merge: the runs of another archive copied in
 *   saved.c    saved comparisons (bstore report --save NAME)
 *   tag.c      the one rule for tags: keys, values, KEY=VALUE
 *   selector.h the selector language, parsed into terms (no SQL)
 *   selector.c its parser
 *   select.c   selectors into run ids: the terms as one SELECT
 *   read.c     runs back into struct bs_run; rejects; counts
 */
#ifndef BS_STORE_INTERNAL_H
#define BS_STORE_INTERNAL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "store/db.h"
#include "util/buf.h"
#include "store/selector.h"
#include "store/store.h"

struct bs_store {
	struct bs_db *db;
	char *path; /* as messages show it (bs_db_ops.display) */
	int in_tx;
	int wait_ms; /* see bs_store_set_wait() */
	const volatile sig_atomic_t *cancel;
	int64_t busy_since_ms;
	int upgraded_from; /* the schema version this open upgraded, or 0 */
	int no_upgrade;    /* BS_STORE_NO_UPGRADE: refuse an older schema */
	/* Statements of write.c, prepared when opened to write. */
	struct bs_db_stmt *put; /* INSERT INTO runs ... */
	/* The bound runs.supplied of the run put last (bound static). */
	struct bs_buf put_supplied;
	struct bs_db_stmt *dup; /* SELECT id FROM runs WHERE sha256 = ? */
	struct bs_db_stmt *same_table; /* tables of a measure_key (dedup.c) */
	struct bs_db_stmt *same_line;  /* the other runs of that key */
	struct bs_db_stmt *max_id;     /* bs_store_max_id's (seen.c) */
	struct bs_db_stmt *put_tag;
	struct bs_db_stmt *put_tag_new; /* a new run's: no conflict */
	struct bs_db_stmt *put_lat;
	struct bs_db_stmt *put_res;  /* INSERT INTO run_results */
	struct bs_db_stmt *put_par;  /* INSERT INTO run_params */
	struct bs_db_stmt *put_ser;  /* INSERT INTO series */
	struct bs_db_stmt *put_dist; /* INSERT INTO distributions */
	/* INSERT INTO run_history: prepared by the first run that carries
	 * history (bstore's JSON export), not for every ingest. */
	struct bs_db_stmt *put_hist;
	struct bs_db_stmt *reject;
	/* The parameter and metric rows that runs has columns for, in table
	 * order (bs_store_columns): writing and reading walk these. */
	int pcol[BS_P_MAX], npcol;
	int mcol[BS_M_MAX], nmcol;
	/* bs_store_get's statements (read.c), opened on first use. */
	struct bs_store_getter *getter;
	/* Where warnings go (bs_store_set_warn), and the runs read.c
	 * skipped and named already. */
	bs_store_warn_fn warn;
	void *warn_ctx;
	struct bs_ids skipped;
	/* The runs this write transaction knows (seen.c), or NULL. */
	struct bs_store_seen *seen;
	/* The digests it knows are in no run (absent.c), or NULL. */
	struct bs_store_absent *absent;
	/* This transaction's writer (writer.c), direct outside one. */
	const struct bs_store_writer *writer;
	int deferring; /* the pipelined writer's: the run's rows go without
			  waiting */
	/* Whether the archive holds a bonnie++ table with a measure key, as
	 * this write transaction knows it (store/dedup.c): forgotten where
	 * seen.c's set is. */
	enum { BS_TABLES_UNKNOWN, BS_TABLES_NONE, BS_TABLES_SOME } tables;
};

/*
 * One writer a write transaction (store/writer.c), chosen when it begins
 * (bs_store_writer_choose, by the engine's bs_db_ops.writer); store/write.c
 * stores a run and its rows only through it. run: the run bound to s
 * (INSERT ... RETURNING id), *id its id; known: seen.c's set answers for
 * this transaction, so its id may be foretold. row: one of the run's rows
 * (tags, results, ...). tags: the statement for the run's tags. done: the
 * run and its rows are written. run and row: 0 or -BS_EDB.
 */
struct bs_store_writer {
	const char *name;
	int knows_runs; /* the transaction keeps the runs it knows (seen.c) */
	int (*run)(struct bs_store *st, struct bs_db_stmt *s, int known,
		   int64_t *id, struct bs_err *err);
	int (*row)(struct bs_store *st, struct bs_db_stmt *s, const char *what,
		   struct bs_err *err);
	struct bs_db_stmt *(*tags)(struct bs_store *st);
	void (*done)(struct bs_store *st);
};
const struct bs_store_writer *bs_store_writer_direct(void);
void bs_store_writer_choose(struct bs_store *st);

/*
 * bs_store_get without the archive and run in the message: a run this
 * bstore cannot read (an unknown family) is BS_EPARSE with the reason
 * alone. Its statements are kept for the connection's life.
 */
int bs_store_read(struct bs_store *st, int64_t id, int load, struct bs_run *r,
		  struct bs_err *err);
/* Finalizes bs_store_get's statements (before the connection closes). */
void bs_store_getter_free(struct bs_store *st);

/*
 * The statements' hot operations (bind_*, step, reset, defer: store/db.h)
 * return a -BS_E* code alone: this words their failure, "PATH: what: the
 * engine's message" (the connection's; what NULL: "PATH: message"), with
 * the code of its kind
 * (BS_EDB; BS_EINTR stopped by the cancel flag); returns it, negative.
 */
int bs_store_db_error(struct bs_store *st, struct bs_err *err,
		      const char *what);
/* That message alone, for a caller that quotes it in a sentence of its
 * own (a merge's "this archive refuses it: ..."). */
const char *bs_store_db_reason(struct bs_store *st);
/*
 * The others take a struct bs_err (why): this words it as the store's,
 * "PATH: what: reason" (what NULL: "PATH: reason"), with why's code;
 * returns it, negative.
 */
int bs_store_db_fail(struct bs_store *st, struct bs_err *err, const char *what,
		     const struct bs_err *why);
/* "cannot open archive 'PATH': <reason>" (why's), for failures while
 * opening. */
int bs_store_open_error(struct bs_store *st, struct bs_err *err,
			const struct bs_err *why);
/* The formats of bonnie++'s text tables, as the index runs_measure_key
 * has them (a glob). */
#define BS_STORE_TABLE_FORMATS "bonnie++-text*"

/*
 * The runs a write transaction knows (seen.c), on engines whose lookups
 * are round trips. bs_store_seen_ready: whether the set answers for the
 * next run (it may read the archive's runs now), 0, or -BS_EDB. Then
 * bs_store_seen_dup (1: stored as *id) and bs_store_seen_same (the first
 * max runs of the measure key, by id, that are or are not tables)
 * answer; bs_store_seen_stored counts (and adds) each run stored;
 * bs_store_seen_forget drops it, when the transaction ends or runs change
 * otherwise. bs_store_seen_next: 1 and the id the next run stored gets,
 * to be stored without waiting (bs_db_defer), 0 when it is not known, or
 * -BS_EDB; bs_store_seen_check waits for those and checks their ids
 * (before COMMIT: 0 or -BS_EDB); bs_store_seen_end checks and forgets.
 */
/*
 * The digests a write transaction of the direct writer knows are in no
 * run (absent.c). bs_store_absent: 1 when sha (32 bytes) is surely in no
 * stored run, 0 when the archive must be asked, or -BS_EDB (it may read
 * the archive's digests now); bs_store_absent_stored adds a run stored (0
 * or -BS_EDB); bs_store_absent_forget drops the filter (with seen.c's
 * set: bs_store_seen_forget).
 */
/* The largest id stored (*top, 0 when none; seen.c): 0, or -BS_E*
 * ("PATH: what: ..."). Its statement is kept for the connection. */
int bs_store_max_id(struct bs_store *st, int64_t *top, const char *what,
		    struct bs_err *err);
int bs_store_absent(struct bs_store *st, const uint8_t *sha,
		    struct bs_err *err);
int bs_store_absent_stored(struct bs_store *st, const uint8_t *sha,
			   struct bs_err *err);
void bs_store_absent_forget(struct bs_store *st);

int bs_store_seen_ready(struct bs_store *st, struct bs_err *err);
int bs_store_seen_dup(struct bs_store *st, const uint8_t *sha, int64_t *id);
size_t bs_store_seen_same(struct bs_store *st, int64_t key, int table,
			  int64_t *cand, size_t max);
void bs_store_seen_stored(struct bs_store *st, const uint8_t *sha, int64_t id,
			  int64_t key, int table);
void bs_store_seen_forget(struct bs_store *st);
int bs_store_seen_next(struct bs_store *st, int64_t *id, struct bs_err *err);
int bs_store_seen_check(struct bs_store *st, struct bs_err *err);
int bs_store_seen_end(struct bs_store *st, struct bs_err *err);

/* Runs SQL without results. */
int bs_store_exec(struct bs_store *st, const char *sql, struct bs_err *err);
/*
 * The same for statements that the engine may refuse as busy without
 * waiting itself (SQLite: taking a write lock while holding a read
 * lock); waits and retries as bs_store_on_busy says.
 */
int bs_store_exec_wait(struct bs_store *st, const char *sql,
		       struct bs_err *err);
/* How long a lock is waited for (ctx is the store): 0 to give up. */
int bs_store_on_busy(void *ctx, int count);
/* Prepares a statement kept for the connection's life. */
int bs_store_prepare(struct bs_store *st, const char *sql,
		     struct bs_db_stmt **out, struct bs_err *err);
/* bs_db_prepare with flags, its failure worded "PATH: what: reason". */
int bs_store_prepare_as(struct bs_store *st, const char *sql, int flags,
			struct bs_db_stmt **out, const char *what,
			struct bs_err *err);
/* Writes distribution c of run id (core/dist.h) as its row of
 * distributions with s, an INSERT of (run_id, metric, direction, kind,
 * scheme, axis, nbins, bins) in that order (write.c). */
int bs_store_put_dist(struct bs_store *st, struct bs_db_stmt *s, int64_t id,
		      const struct bs_series *c, struct bs_err *err);
/* Steps s once, resets it: 0 when done, else "PATH: what: ...". */
int bs_store_step_done(struct bs_store *st, struct bs_db_stmt *s,
		       const char *what, struct bs_err *err);

/*
 * Creates the schema in a new archive, upgrades an older one (even when
 * opened to read: the upgrade is done once, by whoever opens it first),
 * refuses a newer one or somebody else's database, and (opened to write)
 * refreshes the catalogue tables when bstore's catalogue changed.
 */
int bs_store_schema(struct bs_store *st, int readonly, struct bs_err *err);

/* Fills st->pcol and st->mcol from the tables (once per connection). */
void bs_store_columns(struct bs_store *st);

/* Prepares the statements of store/write.c (archives opened to write). */
int bs_store_prepare_writes(struct bs_store *st, struct bs_err *err);

/*
 * The names of the runs columns of a metric stored there (BS_MF_COLUMN):
 * the value is the key itself; then "<key>_status", "<key>_cpu" and
 * "<key>_lat_us".
 */
/* clang-format off */
#define BS_STORE_METRIC_SUFFIXES {"", "_status", "_cpu", "_lat_us"}
/* clang-format on */
#define BS_STORE_METRIC_NCOLS 4

/*
 * Whether the table latency holds r's latency distributions: only
 * `bstore run` measures them. Writing and reading both ask this, so a
 * reader looks for rows only where a writer may have put them (one query
 * fewer per run for everything ingested).
 */
int bs_store_keeps_latency(const struct bs_run *r);

/*
 * One measurement, one run (store/dedup.c). bs_store_measure_key is a
 * hash of what every printed form of r shows alike (family, tool,
 * machine, each I/O test's status and its value at the coarsest
 * precision the tool prints it, each test's latency), or 0 for a run
 * with no number to match on; the
 * runs column measure_key holds it. bs_store_find_same looks among the
 * runs of that key for one that bs_run_same() (core/same.h) says is r:
 * 1 and *id set when found, 0 when not, <0 on error; seen: the runs are
 * the write transaction's set's (seen.c), not the server's.
 * bs_store_is_table: whether r is read from a bonnie++ text table.
 */
int64_t bs_store_measure_key(const struct bs_run *r);
int bs_store_find_same(struct bs_store *st, const struct bs_run *r, int64_t key,
		       int seen, int64_t *id, struct bs_err *err);
int bs_store_is_table(const struct bs_run *r);
/* r, of key key, is stored: a table tells bs_store_find_same that the
 * archive holds one. */
void bs_store_same_stored(struct bs_store *st, const struct bs_run *r,
			  int64_t key);

#endif
