/*
 * cli/cli.h - what every cmd_<name>.c shares. Only cli/ prints to the
 * terminal or picks exit codes: 0 success, 1 failure (including "some
 * input was rejected"), 2 usage error.
 *
 * A command is called with argv[0] set to its name; it parses its own
 * options from its table (cli/opt.h: bs_opt_parse, optind already reset),
 * owns its usage text and prints --help to stdout with status 0.
 *
 * The rooms of cli/ (tests/cli/rooms.sh checks that every file is named
 * here). The helpers, declared here unless they have a header:
 *
 *   main.c       the command table, global flags and exit status
 *   msg.c        the one form of errors, warnings and usage errors
 *   opt.h, opt.c the option tables of the commands and their walker
 *   help.c       the lists --help and the man page take from the tables
 *   man.h, man.c the bstore(1) man page (bstore --man)
 *   archive.c    opening the archive for a command: --db, upgrade notice
 *   select.c     selectors into run ids, "did you mean" when none match
 *   input.c      the loop over inputs stored one transaction each
 *   measure.c    the one measuring driver of run, zcav and fileio, and
 *                what they share: --tag, the progress line, the archive,
 *                the run just measured, the "stopped by" epilogue
 *   report_io.c  what report, compare and trend share: --format, --units
 *   out.c        an -o output file, renamed into place when complete
 *   guard.h, guard.c
 *                the one rule for every path bstore writes over
 *   cleanup.h, cleanup.c
 *                the -o temporary file removed when a signal ends bstore
 *                (every signal handler is util/stop.c's)
 *
 * The commands, one file each:
 *
 *   cmd_ingest.c   ingest     cmd_run.c      run       cmd_fileio.c  fileio
 *   cmd_zcav.c     zcav       cmd_exec.c     exec      cmd_list.c    list
 *   cmd_show.c     show       cmd_export.c   export    cmd_report.c  report
 *   cmd_compare.c  compare    cmd_trend.c    trend     cmd_changes.c changes
 *   cmd_check.c    check      cmd_site.c     site      cmd_tag.c     tag
 *   cmd_set.c      set        cmd_rm.c       rm        cmd_merge.c   merge
 */
#ifndef BS_CLI_CLI_H
#define BS_CLI_CLI_H

#include <signal.h>
#include <stdio.h>

#include "report/changes.h"
#include "report/report.h"
#include "store/store.h"
#include "util/err.h"
#include "util/stop.h"

enum { BS_EXIT_OK = 0, BS_EXIT_FAIL = 1, BS_EXIT_USAGE = 2 };

struct bs_cli {
	const char *db_path; /* --db, or NULL for the default */
	const char *cmd;     /* the command's name, for messages */
	int quiet;           /* --quiet: no progress or summaries */
};

typedef int (*bs_cmd_fn)(struct bs_cli *cli, int argc, char **argv);

int cmd_compare(struct bs_cli *cli, int argc, char **argv);
int cmd_exec(struct bs_cli *cli, int argc, char **argv);
int cmd_export(struct bs_cli *cli, int argc, char **argv);
int cmd_fileio(struct bs_cli *cli, int argc, char **argv);
int cmd_ingest(struct bs_cli *cli, int argc, char **argv);
int cmd_list(struct bs_cli *cli, int argc, char **argv);
int cmd_merge(struct bs_cli *cli, int argc, char **argv);
int cmd_report(struct bs_cli *cli, int argc, char **argv);
int cmd_rm(struct bs_cli *cli, int argc, char **argv);
int cmd_run(struct bs_cli *cli, int argc, char **argv);
int cmd_set(struct bs_cli *cli, int argc, char **argv);
int cmd_changes(struct bs_cli *cli, int argc, char **argv);
int cmd_check(struct bs_cli *cli, int argc, char **argv);
int cmd_show(struct bs_cli *cli, int argc, char **argv);
int cmd_site(struct bs_cli *cli, int argc, char **argv);
int cmd_tag(struct bs_cli *cli, int argc, char **argv);
int cmd_trend(struct bs_cli *cli, int argc, char **argv);
int cmd_zcav(struct bs_cli *cli, int argc, char **argv);

/*
 * Each command's table of options and texts (cli/opt.h), defined in its
 * cmd_<name>.c; main.c's command table lists them, the man page walks
 * them.
 */
struct bs_opt_cmd;
extern const struct bs_opt_cmd bs_cmd_changes, bs_cmd_check,
	bs_cmd_compare, bs_cmd_exec, bs_cmd_export, bs_cmd_fileio,
	bs_cmd_ingest, bs_cmd_list, bs_cmd_merge, bs_cmd_report, bs_cmd_rm,
	bs_cmd_run, bs_cmd_set, bs_cmd_show, bs_cmd_site, bs_cmd_tag,
	bs_cmd_trend, bs_cmd_zcav;

/*
 * "bstore: <cmd>: <message>\n" on stderr; control characters in the
 * message (from file names, user data) are shown as '?'.
 */
void bs_cli_error(const struct bs_cli *cli, const char *fmt, ...)
	BS_PRINTF(2, 3);
/* Same, with "warning: " before the message. */
void bs_cli_warn(const struct bs_cli *cli, const char *fmt, ...)
	BS_PRINTF(2, 3);
/* Prints err's message as bs_cli_error does. */
void bs_cli_perr(const struct bs_cli *cli, const struct bs_err *err);
/*
 * Prints the message, then "Try 'bstore <cmd> --help'." and returns
 * BS_EXIT_USAGE.
 */
int bs_cli_usage_error(const struct bs_cli *cli, const char *fmt, ...)
	BS_PRINTF(2, 3);

/*
 * "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGPIPE" or "a signal".
 * Async-signal-safe: a signal handler may call it.
 */
const char *bs_cli_signal_name(int sig);

/*
 * After a command returns with rc: a stop signal that came while a
 * PostgreSQL archive opened by bs_cli_open_store ran a statement (which
 * the store then cancelled on the server) ends bstore as that signal
 * does (its exit status 128 + the signal); otherwise rc.
 */
int bs_cli_guard_end(int rc);

/*
 * The inputs of a command that stores each in a transaction of its own
 * (ingest's files, merge's archives), and the one rule for a signal
 * among them: SIGINT, SIGTERM and SIGHUP are caught (util/stop.h), end a
 * wait for st's lock, and set bs_stop_sig (util/stop.h), which one()
 * looks at to stop its input early (and roll it back). one(cli, st,
 * input, ctx) is called for each input in turn until a signal comes;
 * then the inputs left are named ("interrupted; 2 more files not read, from 'X' on", where noun is
 * "file" and undone "not read"). Returns BS_EXIT_OK, BS_EXIT_FAIL when
 * one() failed for some input, or 128 + the signal.
 */
int bs_cli_each_input(const struct bs_cli *cli, struct bs_store *st,
		      char **inputs, int n, const char *noun,
		      const char *undone,
		      int (*one)(const struct bs_cli *cli, struct bs_store *st,
				 const char *input, void *ctx),
		      void *ctx);

/*
 * What the user typed, for a message: cut after 40 bytes ("..." marks the
 * cut), control characters as '?'. out is a buffer of BS_CLI_QUOTE_SIZE.
 */
#define BS_CLI_QUOTE_SIZE 64
const char *bs_cli_quote(char out[BS_CLI_QUOTE_SIZE], const char *s);

/*
 * For getopt_long's '?' and ':' (bs_opt_parse, cli/opt.h, sets opterr =
 * 0 and calls it):
 * prints "unknown option '--x'", "option '--x' needs an argument" or
 * "option '--x' takes no argument" as a usage error and returns
 * BS_EXIT_USAGE. shortopts and longopts are what getopt_long was given.
 */
struct option;
int bs_cli_bad_option(const struct bs_cli *cli, char **argv,
		      const char *shortopts, const struct option *longopts);

/*
 * Prints a command's --help text, with the lists that come from bstore's
 * tables filled in, so that the help (and the man page made from it)
 * never lags behind them:
 *   @FIELDS@   inline: the run fields selectors read (store/selector.h)
 *   @FAMILIES@ inline: the tool families (core/metric.h)
 *   a line holding only @METRICS@, @MAIN_METRICS@ or @FORMATS@: every
 *   metric key, by family (core/metric.c), those of the main metrics
 *   (BS_MF_MAIN), or every input format (ingest/formats.c), wrapped at
 *   that line's indentation
 */
void bs_cli_help(FILE *f, const char *text);
/* The same text appended to out (the man page's, cli/man.c). */
struct bs_buf;
void bs_cli_help_buf(const char *text, struct bs_buf *out);

/*
 * Opens the archive (--db, $BSTORE_DB, or the XDG default, created on
 * first use unless flags has BS_STORE_READONLY). Prints the error and
 * returns BS_EXIT_FAIL, or 0.
 */
/* Sends st's warnings (store/store.h, bs_store_set_warn) to stderr as
 * bs_cli_warn's. bs_cli_open_store does it for the archive. */
void bs_cli_store_warnings(const struct bs_cli *cli, struct bs_store *st);
int bs_cli_open_store(const struct bs_cli *cli, int flags,
		      struct bs_store **out);

/*
 * A measuring command's --tag K=V (run, zcav, fileio): checks it (no
 * host.* or run.* key: those are bstore's own) and appends it to the
 * command's tags, which then own key and value. Returns 0, or the usage
 * error's exit status after saying it.
 */
int bs_cli_tag_arg(const struct bs_cli *cli, const char *arg,
		   struct bs_tag **tags, size_t *ntags, size_t *cap);

/*
 * The machine name a measuring command (run, zcav, fileio) stores unless
 * -m says: the host's (uname's nodename, "" when unknown), written into
 * buf. Returns buf.
 */
const char *bs_cli_host_name(char *buf, size_t size);

struct bs_host;

/*
 * What a measuring command (run, zcav, fileio) does before it measures:
 * opens the archive when store is set (*st stays NULL otherwise), so that
 * a bad --db costs no run, then probes the host that holds dir. Another
 * writer (an ingest) may hold the archive for minutes: a stop signal ends
 * that wait too. Returns 0, or BS_EXIT_FAIL after saying why.
 */
int bs_cli_measure_open(const struct bs_cli *cli, int store, const char *dir,
                        struct bs_store **st, struct bs_host *host);

/*
 * The progress line of a measuring command on stderr: live (tty) on a
 * terminal, nothing when quiet. A command that starts a line sets
 * open_line; bs_cli_progress_end() ends it: with its newline (run's and
 * zcav's lines are kept), or erased when erase is set (fileio's).
 */
struct bs_cli_progress {
	int tty;
	int quiet;
	int erase;
	int open_line;
};
void bs_cli_progress_init(struct bs_cli_progress *p, const struct bs_cli *cli,
			  int erase);
void bs_cli_progress_end(struct bs_cli_progress *p);

/*
 * The one measuring driver of run, zcav and fileio. bs_cli_measure():
 * 1. opens the archive when store is set and probes the host of dir
 *    (bs_cli_measure_open), then calls prepare (NULL: none), which may
 *    fail with an exit status after saying why;
 * 2. catches the stop signals (bs_signals_install), and count times
 *    ("Iteration I of N" on stderr when count > 1, unless quiet): calls
 *    measure, which measures into r (released and made new each time) or
 *    returns -BS_E* with err; ends progress's line; when a stop signal
 *    came, says the one epilogue "stopped by SIGNAL; " ["scratch files
 *    removed, "] LOST (and err, unless it is BS_EINTR) and returns 128 +
 *    the signal; on an error says err and returns BS_EXIT_FAIL;
 * 3. calls to_run, which prints the run and tags it (with the host),
 *    BS_EXIT_OK or an exit status; stores it (bs_cli_store_new), then
 *    calls stored (NULL: none) with that status, which returns the
 *    status to go on with (an output that failed, say); any but
 *    BS_EXIT_OK ends the loop.
 * LOST is "iteration I not stored" when noun is "iteration", else
 * "nothing stored". Returns BS_EXIT_OK or the status that ended it; the
 * signals and the archive are put back and closed before it returns.
 */
struct bs_cli_measuring {
	const char *dir;   /* whose host is probed */
	int store;         /* open the archive and store the runs */
	uint64_t count;    /* runs to measure, one after another */
	int scratch;       /* the epilogue says the scratch files went */
	const char *noun;  /* "iteration", or NULL */
	struct bs_cli_progress *progress;
	void *ctx;
	int (*prepare)(const struct bs_cli *cli, void *ctx);
	int (*measure)(const struct bs_cli *cli, void *ctx, uint64_t it,
		       struct bs_run *r, struct bs_err *err);
	int (*to_run)(const struct bs_cli *cli, void *ctx,
		      const struct bs_host *host, struct bs_run *r);
	int (*stored)(const struct bs_cli *cli, void *ctx,
		      const struct bs_store *st, int rc);
};
int bs_cli_measure(const struct bs_cli *cli, const struct bs_cli_measuring *m);

/*
 * Stores a run just measured (run, zcav, fileio) in a transaction
 * of its own, always as a new run (bs_store_put_new), and says "Stored as
 * run N" unless quiet; with no archive (st NULL) does nothing. Prints the
 * error and returns BS_EXIT_FAIL, or, when a stop signal ended the wait
 * for the archive's lock, says "stopped by SIGNAL while waiting for the
 * archive; " and lost (e.g. "nothing stored") and returns 128 + the
 * signal. Returns 0 when stored.
 */
int bs_cli_store_new(const struct bs_cli *cli, struct bs_store *st,
                     struct bs_run *r, const char *lost);

/*
 * What bstore exec hands to ingest: the machine (or NULL), the date of
 * every run (or BS_NONE), tags, and a last word on each run before it is
 * stored (or NULL).
 */
struct bs_cli_ingest_args {
	const char *machine;
	int64_t measured_at;
	const struct bs_tag *tags;
	size_t ntags;
	void (*adjust)(struct bs_run *r, void *ctx);
	void *ctx;
};
/*
 * Ingests what fd holds as bstore ingest ingests a file called name (one
 * transaction, the same messages and summary): BS_EXIT_OK, or
 * BS_EXIT_FAIL when a line was rejected or nothing could be stored.
 */
int bs_cli_ingest_fd(const struct bs_cli *cli, struct bs_store *st, int fd,
		     const char *name, const struct bs_cli_ingest_args *a);

enum {
	BS_SEL_ALL_IF_NONE = 1, /* no selector selects every run */
	BS_SEL_NEED_MATCH = 2,  /* selecting nothing is an error (below) */
	/* Begin a write transaction first (the caller commits), so that the
	 * runs selected are the runs changed, whatever other processes do. */
	BS_SEL_WRITE = 4,
};

/*
 * Resolves selectors into ids (union of all). With nsel == 0, selects
 * every run with BS_SEL_ALL_IF_NONE, else nothing. Each selector that
 * matches nothing is named on stderr (bs_cli_no_match), as a warning,
 * or as an error that fails the command (BS_EXIT_FAIL) when flags has
 * BS_SEL_NEED_MATCH and no run at all is selected. Prints errors;
 * returns 0, BS_EXIT_USAGE for a bad selector, BS_EXIT_FAIL otherwise.
 */
int bs_cli_select(const struct bs_cli *cli, struct bs_store *st,
		  char **sel, int nsel, int flags, struct bs_ids *out);

/*
 * Says that a selection is empty, as an error when fatal, else as a
 * warning: "the archive 'PATH' has no runs yet (...)" when it has none
 * at all (and returns 1, so that it is said once), else "selector 'SEL'
 * matches no runs", with "; did you mean 'SEL2'?" when known keys or
 * values are close to those of SEL, or "no run matches" when sel is NULL
 * (returns 0).
 */
int bs_cli_no_match(const struct bs_cli *cli, struct bs_store *st,
		    const char *sel, int fatal);

/*
 * Did you mean: the tag key closest to key (util/similar.h) among those
 * of the archive's runs, and with fields also the run fields selectors
 * read; NULL when none is close. The caller frees it. A selector that
 * matches nothing gets its suggestion in bs_cli_no_match.
 */
char *bs_cli_closest_tag(struct bs_store *st, const char *key, int fields);

/*
 * bs_cli_open_store, then bs_cli_select. On failure prints the error,
 * leaves *st NULL and returns the exit status; else returns 0.
 */
int bs_cli_open_select(const struct bs_cli *cli, int store_flags, char **sel,
		       int nsel, int sel_flags, struct bs_store **st,
		       struct bs_ids *ids);

/*
 * An output file given with -o. A regular file (or a new one) is written
 * as PATH.tmp.PID and renamed over PATH only when complete, so a failed
 * run never replaces a good file; anything else (a symbolic link such as
 * /dev/stdout, a FIFO, a device) is written directly. A path that
 * cli/guard.h refuses (the archive or its -wal, -shm or -journal file
 * under any name, a volume in use) is refused. While the temporary file
 * is open, SIGINT, SIGTERM, SIGHUP or SIGQUIT removes it and ends bstore
 * with status 128 + the signal (cli/cleanup.h).
 */
struct bs_cli_out {
	FILE *f;
	const char *path;
	char *tmp;      /* NULL when writing directly */
	int write_errno; /* set by the caller when a write fails, or 0 */
};

/* Opens o for path; prints the error and returns BS_EXIT_FAIL, or 0. */
int bs_cli_out_open(const struct bs_cli *cli, const char *path,
		    struct bs_cli_out *o);
/*
 * Closes o; with ok, keeps the output (renames the temporary file),
 * else removes the temporary file. Prints a write error and returns
 * BS_EXIT_FAIL, or 0.
 */
int bs_cli_out_close(const struct bs_cli *cli, struct bs_cli_out *o, int ok);

/*
 * What report, compare and trend share (cli/report_io.c). --format's
 * words (text or txt, html, csv, json) and --units' (auto, kib, mib):
 * 0, or the usage error's exit status after saying it.
 */
int bs_cli_format_arg(const struct bs_cli *cli, const char *s,
		      enum bs_report_format *out);
int bs_cli_units_arg(const struct bs_cli *cli, const char *s,
		     enum bs_report_units *out);

/*
 * -o means what it says, for every command that takes it: the format the
 * extension of -o path names, from the one table of extensions
 * (cli/report_io.c: .txt .text text, .html .htm html, .csv csv, .json
 * .jsonl .ndjson json), among the command's format words (NULL-ended).
 * *out is that word, or NULL when path names none (no path, "-", no
 * extension: /dev/stdout, out): the command's default. given is -f's
 * word, or NULL: given, it wins (*out = given), with a warning when the
 * extension names another format. An extension the table lacks, or
 * whose format the command does not write, is a usage error naming the
 * extensions it knows (report -o x.pdf). Returns 0 or the exit status.
 */
int bs_cli_out_format(const struct bs_cli *cli, const char *path,
		      const char *const *words, const char *given,
		      const char **out);

/*
 * A --since or --until DATE (trend, check): the first (end 0) or last
 * (end 1) second of the span it names, as a selector's date does
 * (store/selector.h). 0, or the usage error's exit status, naming opt.
 */
int bs_cli_date_arg(const struct bs_cli *cli, const char *opt, const char *s,
		    int end, int64_t *out);

/* Where report and trend write: -f FMT and -o FILE. */
struct bs_cli_dest {
	enum bs_report_format fmt; /* text unless -f or -o's name says */
	int have_fmt;              /* -f was given */
	const char *path;          /* -o, or NULL: standard output */
};

/* What changes and check take (cli/cmd_changes.c runs both). */
struct bs_cli_changes_args {
	struct bs_cli_dest dest;
	struct bs_changes_opts co;
	int no_cache; /* check: --no-cache */
};
struct bs_opt_cmd;
int bs_cli_changes(struct bs_cli *cli, const struct bs_opt_cmd *cmd, int argc,
		   char **argv);
/* Takes option c, 'f' or 'o', with its argument into d: 0, or the usage
 * error's exit status after saying it. */
int bs_cli_dest_opt(const struct bs_cli *cli, int c, const char *arg,
		    struct bs_cli_dest *d);
/* After the options: the format -o's file name asks for, unless -f said
 * (bs_cli_out_format): 0, or the usage error's exit status. */
int bs_cli_dest_done(const struct bs_cli *cli, struct bs_cli_dest *d);

/*
 * The runs of each group, read from the archive: a report's source
 * (report/report.h) with bs_cli_src_each as each() and a struct
 * bs_cli_src as its ctx. ids[g] are group g's runs (ids NULL: one group
 * of every run); load is what bs_store_each loads besides the columns
 * (BS_LOAD_*); nruns is -1 until counted.
 */
struct bs_cli_src {
	struct bs_store *st;
	struct bs_ids *ids;
	int64_t nruns;
	int load;
};
int bs_cli_src_each(void *ctx, size_t group, bs_report_run_fn fn,
		    void *fn_ctx, struct bs_err *err);

/*
 * Calls fn to write onto -o path (bs_cli_out_open: replaced when
 * complete), or onto standard output when path is NULL or "-". fn prints
 * its errors but those of writing out, for which it sets *write_failed
 * (said once: here for a file, by main() for standard output), and
 * returns the exit status, which this returns unless closing the file
 * fails.
 */
typedef int (*bs_cli_render_fn)(const struct bs_cli *cli, void *ctx,
				FILE *out, int *write_failed);
int bs_cli_render_out(const struct bs_cli *cli, const char *path,
		      bs_cli_render_fn fn, void *ctx);

/*
 * A saved comparison (bstore report --save; store/store.h): renders the
 * report that args (its options and selectors, as bstore report takes
 * them) ask for as HTML onto out, from the runs of st (cli/cmd_report.c).
 * Prints its errors, but those of writing out (check ferror(out)), and
 * returns the exit status. Its list of runs names at most
 * BS_CLI_SAVED_LIST_MAX runs a group, then how many more: a page of the
 * site (bstore site) stays small whatever the archive's size.
 */
#define BS_CLI_SAVED_LIST_MAX 250
int bs_cli_report_saved(const struct bs_cli *cli, struct bs_store *st,
			const char *const *args, size_t nargs, FILE *out);

#endif
