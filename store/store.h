/*
 * store/store.h - the archive: a SQLite file, or (a postgresql:// name) a
 * PostgreSQL database. The only module that speaks SQL, through its
 * engines' table (store/db.h). The schema is embedded at build time;
 * opening an archive creates it, or upgrades an older one in one
 * transaction (the version kept by the engine; store/migrate.c), and
 * sets the engine up (SQLite: WAL, a busy timeout and foreign keys).
 * Runs of every tool family are written and read with the same
 * functions, walking the metric catalogue and the parameter table.
 *
 * Selectors (README.md, docs/formats.md): a selector is one to 64 terms
 * (BS_SEL_MAX_TERMS) joined by ',' that must all match:
 *   12        the run with id 12
 *   12-15     ids 12 to 15
 *   last      the newest run (highest id); last:N the N newest
 *   all       every run
 *   key=value machine= (or name=), family= (bonnie, sysbench, ...),
 *             tool=, version=, format=, source=, id= (an id or a
 *             range), date= (measured_at: 2004, 2004-03, 2004-03-15,
 *             ...), impl= (the implementation: bonnie++, bstore run,
 *             sysbench, ...), a parameter (mode=rndrw, bs=4k, direct=1,
 *             normalised as the test identity reads it), or any tag key
 *             (raid=5, host.kernel=6.1.0); a ',' inside the value is
 *             written '\,' (host.mount=rw\,relatime), a '|' '\|', a
 *             '\' before a ',', '|' or '\' as '\\'. Text values are
 *             globs (array=EMC*); the operator may also be != (the
 *             complement), ~ and !~ (ignoring ASCII case), and for id,
 *             date and parameters <, <=, >, >= (iodepth>=16). A '|'
 *             in a value separates alternatives (id=21|25|26,
 *             machine=a|b).
 * With last or last:N, the newest among the runs the other terms match;
 * when several are given, the last one written counts. store/selector.h
 * has the grammar, and the parser.
 */
#ifndef BS_STORE_STORE_H
#define BS_STORE_STORE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "util/err.h"

#define BS_SCHEMA_VERSION 7

/*
 * How long a connection waits for another process's write transaction to
 * end before failing with "database is locked". An ingest holds the
 * archive for its whole input file, which can take minutes.
 */
#define BS_STORE_WAIT_MS (10 * 60 * 1000)

struct bs_store;

enum {
	BS_STORE_READONLY = 1, /* fail if missing; write no run */
	BS_STORE_EXISTING = 2, /* fail if missing */
	/* With READONLY: an archive of an older schema is refused (BS_EDB)
	 * instead of upgraded, so that the file is never written (merge's
	 * sources). */
	BS_STORE_NO_UPGRADE = 4,
	/* A scratch archive in memory that keeps nothing, on purpose: path
	 * must be ":memory:" (ingest --dry-run where no archive exists
	 * yet). Any other use of ":memory:" is refused. */
	BS_STORE_SCRATCH = 8,
};

/*
 * Opens the archive at path, creating it if needed unless READONLY or
 * EXISTING is given; then a missing archive is a BS_ENOTFOUND error.
 * An archive made by an older bstore is upgraded first, whatever the
 * flags but NO_UPGRADE, after a copy of it was kept as PATH.vN.bak
 * (docs/schema.md).
 */
int bs_store_open(struct bs_store **out, const char *path, int flags,
		  struct bs_err *err);
/*
 * The same, stopped (BS_EINTR, nothing changed) when *cancel becomes
 * non-zero (a signal handler's flag): an upgrade, and the copy kept
 * before it, can take minutes. The flag then stays set for the archive,
 * as bs_store_set_wait() sets it.
 */
int bs_store_open_cancel(struct bs_store **out, const char *path, int flags,
			 const volatile sig_atomic_t *cancel,
			 struct bs_err *err);
/* The schema version this open upgraded the archive from, or 0. */
int bs_store_upgraded_from(const struct bs_store *st);
/* bs_store_close(NULL) does nothing. Rolls back an open transaction. */
void bs_store_close(struct bs_store *st);
/* The path the archive was opened with. */
const char *bs_store_path(const struct bs_store *st);
/*
 * Sets how long a lock wait lasts (BS_STORE_WAIT_MS after open), and a flag
 * (a signal handler's, say; may be NULL) that ends a wait early when it
 * becomes non-zero: the call that waited then fails. The flag also ends
 * a long statement (SQLite's progress handler checks it): the call that
 * ran it fails too.
 */
void bs_store_set_wait(struct bs_store *st, int wait_ms,
		       const volatile sig_atomic_t *cancel);

/*
 * Whether a statement of an open archive is running on its server, or is
 * waited for, now (PostgreSQL; SQLite: never). Async-signal-safe: a stop
 * signal's handler asks it, to leave ending the statement to the wait
 * that sees the flag of bs_store_set_wait (it cancels the statement on
 * the server) rather than end bstore while the server runs on.
 */
int bs_store_engaged(void);

/*
 * Where the store's warnings go: fn gets one message ("PATH: run 5:
 * unknown tool family 'nosuch' (a newer bstore wrote it?); skipped") and
 * ctx. Without one they are dropped. A run that bs_store_each cannot
 * read (a family this bstore does not know, which an older bstore's
 * merge let in) is skipped with a warning, once per open archive, instead
 * of failing every command; bs_store_get fails on it (BS_EPARSE).
 */
typedef void (*bs_store_warn_fn)(const char *msg, void *ctx);
void bs_store_set_warn(struct bs_store *st, bs_store_warn_fn fn, void *ctx);

/*
 * A cache (store/cache.c): text values under keys, kept in the archive
 * for a command that would otherwise read every run again (bstore check,
 * report/changes.c). Every change to a stored run other than adding one
 * (bs_store_rm, bs_store_set, a run replaced by its CSV line) drops all
 * of it (bs_store_cache_drop), so what a cache holds was computed from
 * runs that are still as they were, plus the runs added since (ids are
 * never reused: a cache notes the newest id it saw). bs_store_cache_get
 * sets *found to 1 with the value in out, to 0 when there is none; _each
 * calls fn
 * with every key that starts with prefix (the prefix cut) and its value.
 */
struct bs_buf;
typedef int (*bs_cache_fn)(const char *key, const char *value, void *ctx);
int bs_store_cache_get(struct bs_store *st, const char *key, struct bs_buf *out,
		       int *found, struct bs_err *err);
int bs_store_cache_each(struct bs_store *st, const char *prefix, bs_cache_fn fn,
			void *ctx, struct bs_err *err);
int bs_store_cache_put(struct bs_store *st, const char *key, const char *value,
		       struct bs_err *err);
int bs_store_cache_drop(struct bs_store *st, struct bs_err *err);

int bs_store_begin(struct bs_store *st, struct bs_err *err);
int bs_store_commit(struct bs_store *st, struct bs_err *err);
void bs_store_rollback(struct bs_store *st);

/*
 * Writes one run with its results and tags. Computes r->sha256 from r->raw
 * when empty, sets r->stored_at (now, or $SOURCE_DATE_EPOCH) and r->id.
 * Returns 0 with *how (NULL: not wanted) saying what became of r, or
 * -BS_E* on error.
 */
enum bs_store_outcome {
	BS_STORE_STORED,    /* a new run */
	BS_STORE_DUPLICATE, /* a run with the same SHA-256 exists already */
	/* A stored run read from other text is the same measurement
	 * (bs_run_same, core/same.h; r->id is then that run's id, as for
	 * BS_STORE_DUPLICATE). */
	BS_STORE_SAME_RUN,
	/* r, a CSV line, took the place of that run read from its rounded
	 * text table (same id, stored_at, tags and history: docs/ingest.md). */
	BS_STORE_REPLACED,
};
int bs_store_put(struct bs_store *st, struct bs_run *r,
		 enum bs_store_outcome *how, struct bs_err *err);
/*
 * The same for a run measured just now (bstore run): always stored
 * (BS_STORE_STORED), even when an earlier run printed the same line
 * (iterations with the 1.03 layout, which has no seed or latencies, often
 * do). Ingesting that line later finds the first of them. 0 or -BS_E*.
 */
int bs_store_put_new(struct bs_store *st, struct bs_run *r, struct bs_err *err);

/* Keeps a malformed input line: 0 with *how (NULL: not wanted)
 * BS_STORE_STORED, or BS_STORE_DUPLICATE when that line of that source
 * is kept already; or -BS_E*. */
int bs_store_reject(struct bs_store *st, const char *source, int64_t line,
		    const char *raw, size_t len, int truncated,
		    const char *reason, enum bs_store_outcome *how,
		    struct bs_err *err);

/* A set of run ids, ascending, without repeats. */
struct bs_ids {
	int64_t *id;
	size_t n, cap;
};
/* clang-format off */
#define BS_IDS_INIT {NULL, 0, 0}
/* clang-format on */
void bs_ids_release(struct bs_ids *ids);
/* Adds the n ids at add (sorted or not) to out, which stays sorted and
 * unique. */
void bs_ids_merge(struct bs_ids *out, const int64_t *add, size_t n);

/*
 * Adds to out the ids matching one selector (see above). A selector that
 * does not parse fails with BS_EINVAL; one that matches nothing is not an
 * error (out is unchanged).
 */
int bs_store_select(struct bs_store *st, const char *selector,
		    struct bs_ids *out, struct bs_err *err);

/* What bs_store_get / bs_store_each load besides the run's columns. */
enum {
	BS_LOAD_RAW = 1,    /* the original line */
	BS_LOAD_TAGS = 2,   /* tags, sorted by key */
	BS_LOAD_SERIES = 4, /* curves (zcav) */
	BS_LOAD_ALL = 7,
};

/* Now in unix seconds, or $SOURCE_DATE_EPOCH when set (tests pin it):
 * the clock of stored_at and of a date ingest gives a run. */
int64_t bs_store_now(void);

/* Loads one run into r (which it bs_run_init()s). BS_ENOTFOUND if none. */
int bs_store_get(struct bs_store *st, int64_t id, int load, struct bs_run *r,
		 struct bs_err *err);

/*
 * Calls fn for every run in ids (all runs when ids is NULL), ascending.
 * The run is valid only during the call. fn returns <0 to stop, which is
 * passed back.
 */
typedef int (*bs_run_fn)(const struct bs_run *r, void *ctx);
int bs_store_each(struct bs_store *st, const struct bs_ids *ids, int load,
		  bs_run_fn fn, void *ctx, struct bs_err *err);

/*
 * Tags (store/tag.c: the one rule for them). A key is not empty, has no
 * ',', control character or character that starts a selector's operator
 * (BS_SEL_OP_CHARS: = ! ~ < >) and is not a run field that selectors read
 * from the run itself (store/selector.h's bs_sel_fields); a value (may be
 * NULL) is one line, any text. bs_store_check_tag checks a key and value,
 * BS_EINVAL with a message if not.
 */
int bs_store_check_tag(const char *key, const char *value, struct bs_err *err);

/* Refuse keys that bstore run sets itself: host.* and run.*. */
#define BS_TAG_NOT_OWN 1

/*
 * Parses a tag given as KEY=VALUE (--tag of ingest and run, bstore tag):
 * split at the first '=', then checked as above (and with BS_TAG_NOT_OWN
 * against bstore run's own keys). Fills *key and *value with copies the
 * caller frees; BS_EINVAL with a message ("'x' is not KEY=VALUE") if not.
 */
int bs_store_parse_tag(const char *arg, unsigned flags, char **key,
		       char **value, struct bs_err *err);
/*
 * Sets (value != NULL, after bs_store_check_tag()) or removes (value ==
 * NULL; any non-empty key) a tag on each run.
 */
int bs_store_tag(struct bs_store *st, const struct bs_ids *ids, const char *key,
		 const char *value, struct bs_err *err);
/*
 * Adds curve c to stored run id (fio's log files, which come after their
 * run): 0 with *how (NULL: not wanted) BS_STORE_STORED, or
 * BS_STORE_DUPLICATE when the run has a curve of that metric already
 * (kept as it was); or -BS_E*. The run is of c's metric's family (the
 * caller's check). Inside the caller's transaction.
 */
int bs_store_add_series(struct bs_store *st, int64_t id,
			const struct bs_series *c, enum bs_store_outcome *how,
			struct bs_err *err);
/* Deletes the runs. Returns the number deleted. */
int bs_store_rm(struct bs_store *st, const struct bs_ids *ids,
		struct bs_err *err);

/*
 * What a person reads for a run with no machine name (bonnie++ -m '',
 * and every tool that prints none: sysbench, fio, dd, zcav): list, show,
 * report labels and the site say this, never an empty field.
 * bs_store_machine_name(m) is m, or these words when m is NULL or "".
 */
#define BS_STORE_NO_MACHINE "unknown machine"
static inline const char *bs_store_machine_name(const char *machine)
{
	return machine && machine[0] ? machine : BS_STORE_NO_MACHINE;
}

/*
 * Changing a stored run (bstore set; store/history.c). bs_set_fields is
 * what may be changed, one row a field: machine (text; "" is unknown)
 * and measured_at (unix seconds; BS_NONE is unknown). bs_store_set gives
 * each run of ids the value, and for each run whose value changes writes
 * a row of run_history with the old and the new value and the time
 * (bs_store_now), so that nothing is lost; *changed counts those runs.
 * The caller begins and commits the transaction.
 *
 * A set with param (a parameter key; field NULL) supplies that parameter
 * of each run by core/supply.h's rule (refused, BS_EINVAL naming the run,
 * where the run's output printed another value or its family has no such
 * parameter), marks it supplied (runs.supplied), and keeps the old and
 * new value as text in run_history under the parameter's key ("" for
 * unknown).
 */
struct bs_set_field {
	const char *key;    /* as written: "machine", "measured_at" */
	const char *column; /* of runs */
	int is_date;        /* 1: unix seconds, else text */
};
extern const struct bs_set_field bs_set_fields[];
extern const size_t bs_set_nfields;
/* The row of key, or NULL. */
const struct bs_set_field *bs_set_field(const char *key);
struct bs_set {
	const struct bs_set_field *field; /* NULL for a parameter */
	const char *param;                /* a parameter's key, or NULL */
	const char *text;                 /* a text field's value */
	int64_t when;                     /* a date field's value, or BS_NONE */
};
int bs_store_set(struct bs_store *st, const struct bs_ids *ids,
		 const struct bs_set *set, int64_t *changed,
		 struct bs_err *err);
/* One row of a run's history, oldest first; valid during the call. */
struct bs_change {
	int64_t run_id;
	const struct bs_set_field *field; /* NULL for a parameter */
	const char *param;                /* its key, or NULL */
	const char *old_text,
		*new_text; /* text fields and parameters ("" unknown) */
	int64_t old_when, new_when; /* date fields (BS_NONE unknown) */
	int64_t changed_at;         /* unix seconds */
};
typedef int (*bs_change_fn)(const struct bs_change *c, void *ctx);
int bs_store_each_change(struct bs_store *st, int64_t run_id, bs_change_fn fn,
			 void *ctx, struct bs_err *err);

/*
 * The words a selector key or value can be compared with (did you mean):
 * with key NULL every tag key; for a text run field (machine, tool, ...)
 * its distinct values; for a tag key the values it has; ids and dates
 * give none. In byte order; fn returns <0 to stop.
 */
typedef int (*bs_word_fn)(const char *word, void *ctx);
int bs_store_words(struct bs_store *st, const char *key, bs_word_fn fn,
		   void *ctx, struct bs_err *err);

/*
 * Merging another archive (bstore merge; store/merge.c). Every run of
 * from that is not here is copied with every row that belongs to it
 * (tags, parameters, results, latencies, series) and its columns as
 * stored: source, stored_at, measured_at, raw line. A run is here
 * already when this archive holds its line (the SHA-256 ingest dedups
 * by); for runs of `bstore run` also its measured_at, the k-th such run
 * of from pairing with the k-th here. Of a run both hold, tags only from
 * has are added; a tag both hold with different values, or a different
 * measured_at, keeps this archive's and is passed to fn. Rejected lines
 * and catalogue rows this archive lacks are copied. from is only read
 * (open it READONLY | NO_UPGRADE). The caller begins and commits the
 * transaction; a non-zero *cancel stops with BS_EINTR between runs.
 *
 * from is untrusted: a table merge reads that is not a plain table, or a
 * trigger, fails the merge up front (BS_EDB, naming it); a run that is
 * not what ingest would store (core/validate.h), has a tag the store's
 * rule refuses, or that this archive's constraints refuse, is not merged
 * and is named, with the reason, through from's warnings
 * (bs_store_set_warn: "OTHER: run 5: <reason>; not merged").
 */
struct bs_merge_conflict {
	int64_t ours, theirs;                /* the run's id here and in from */
	const char *field;                   /* "tag" or "measured_at" */
	const char *key;                     /* the tag's key, or NULL */
	const char *our_value, *their_value; /* NULL: unknown */
};
typedef void (*bs_merge_conflict_fn)(const struct bs_merge_conflict *c,
				     void *ctx);
struct bs_merge_stats {
	int64_t merged;     /* runs copied */
	int64_t present;    /* runs here already */
	int64_t conflicts;  /* of those, runs that differed (fn called) */
	int64_t tags_added; /* to runs here already */
	int64_t rejects;    /* rejected lines copied */
	int64_t skipped;    /* runs not merged (named in warnings) */
};
int bs_store_merge(struct bs_store *st, struct bs_store *from,
		   const volatile sig_atomic_t *cancel, bs_merge_conflict_fn fn,
		   void *ctx, struct bs_merge_stats *stats, struct bs_err *err);

/*
 * Saved comparisons (bstore report --save; store/saved.c): a report's
 * arguments (options and selectors, as bstore report takes them) kept
 * under a name. A name is 1 to BS_REPORT_NAME_MAX bytes of letters,
 * digits, '.', '_' and '-', starting with a letter or digit, so that it
 * is a file name and a URL path as it is (compare/NAME.html);
 * bs_store_check_report_name says what is wrong with one (BS_EINVAL).
 * Saving a name again replaces its arguments; saving is a transaction of
 * its own. Forgetting sets *found to 1 when the name was there, else 0.
 * bs_store_each_saved calls fn for each name in byte order, with its
 * arguments valid during the call; fn returns <0 to stop.
 */
#define BS_REPORT_NAME_MAX 64
int bs_store_check_report_name(const char *name, struct bs_err *err);
int bs_store_save_report(struct bs_store *st, const char *name,
			 const char *const *args, size_t nargs,
			 struct bs_err *err);
int bs_store_forget_report(struct bs_store *st, const char *name, int *found,
			   struct bs_err *err);
typedef int (*bs_saved_report_fn)(const char *name, const char *const *args,
				  size_t nargs, void *ctx);
int bs_store_each_saved(struct bs_store *st, bs_saved_report_fn fn, void *ctx,
			struct bs_err *err);

/* A kept input line that could not be parsed. */
struct bs_reject {
	int64_t id;
	const char *source;
	int64_t line; /* BS_NONE if unknown */
	const char *reason;
	const char *raw; /* as read, cut to 64 KiB when truncated */
	int truncated;
	int64_t stored_at;
};
typedef int (*bs_reject_fn)(const struct bs_reject *r, void *ctx);
/* Calls fn for every kept reject, oldest first; valid during the call. */
int bs_store_each_reject(struct bs_store *st, bs_reject_fn fn, void *ctx,
			 struct bs_err *err);

/* Number of runs, rejects; either pointer may be NULL. */
int bs_store_count(struct bs_store *st, int64_t *runs, int64_t *rejects,
		   struct bs_err *err);

/*
 * The default archive path: $BSTORE_DB, else $XDG_DATA_HOME/bstore/bstore.db,
 * else $HOME/.local/share/bstore/bstore.db. Returns a malloc'd string, or
 * NULL with err filled. Does not create anything.
 */
char *bs_store_default_path(struct bs_err *err);
/* Creates the parent directories of path (mode 0700 for new ones); none
 * for a PostgreSQL URL. */
int bs_store_mkparents(const char *path, struct bs_err *err);
/* Whether name is a PostgreSQL archive's URL (postgresql://...,
 * postgres://...) rather than a file. */
int bs_store_is_url(const char *name);
/* What may be shown of an archive's name or an input's (malloc'd): a URL
 * without its secrets (store/db.h, bs_db_shown). */
char *bs_store_shown(const char *name);
/* Whether two open archives are one (a PostgreSQL archive reached by two
 * URLs); files are compared as files by the caller. */
int bs_store_same(struct bs_store *a, struct bs_store *b);

#endif
