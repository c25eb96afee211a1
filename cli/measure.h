/*
 * cli/measure.h - what run, zcav and fileio share (cli/measure.c):
 * --tag, the archive, the progress line, the run just measured.
 */
#ifndef BS_CLI_MEASURE_H
#define BS_CLI_MEASURE_H

#include <stddef.h>
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
 * Ends the progress line a measuring command (run, zcav) left open on
 * stderr (*open_line set): writes its newline and clears *open_line.
 */
void bs_cli_end_line(int *open_line);

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
