/*
 * cli/measure.h - what run, zcav and fileio share (cli/measure.c):
 * --tag, the archive, the progress line, the run just measured.
 */
#ifndef BS_CLI_MEASURE_H
#define BS_CLI_MEASURE_H

#include <stddef.h>
#include <stdint.h>
#include "cli/cli.h"
#include "store/store.h"

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
	const char *dir;  /* whose host is probed */
	int store;        /* open the archive and store the runs */
	uint64_t count;   /* runs to measure, one after another */
	int scratch;      /* the epilogue says the scratch files went */
	const char *noun; /* "iteration", or NULL */
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

#endif
