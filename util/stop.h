/*
 * util/stop.h - the stop module: every signal handler, flag and mask of
 * bstore (tests/cli/rooms.sh fails when sigaction() or signal() is called
 * in any other file of the tree's code).
 *
 * The one rule for catching the signals that stop bstore (SIGINT,
 * SIGTERM, SIGHUP, ...): a signal that was ignored when bstore started
 * stays ignored, as for any Unix program. So `nohup bstore ingest`
 * survives the hang-up, and a job a script started in the background
 * (SIGINT and SIGQUIT ignored) is stopped by SIGTERM, not by Ctrl-C.
 * Handlers are installed without SA_RESTART, so that slow calls return
 * EINTR.
 *
 * Four ways to catch them, one per kind of work:
 * - measuring (run, zcav, fileio): bs_signals_install() keeps the first
 *   stop signal in a flag the measuring loops poll; the scratch files are
 *   removed by the code that polls it (core/scratch.h).
 * - a command's inputs or an archive's open: bs_stop_catch() sets
 *   bs_stop_sig, which the loops and the store's wait look at.
 * - a PostgreSQL archive's guard: bs_stop_guard_arm().
 * - an -o output's temporary file: bs_stop_unlink_arm().
 */
#ifndef BS_UTIL_STOP_H
#define BS_UTIL_STOP_H

#include <signal.h>
#include <stddef.h>

/* "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGPIPE" or "a signal".
 * Async-signal-safe. */
const char *bs_stop_name(int sig);

/*
 * Measuring: installs the handlers of SIGINT, SIGTERM, SIGHUP, SIGQUIT and
 * SIGPIPE (a run piped into `head` must still clean up), forgetting any
 * signal caught before; bs_signals_restore() puts the old ones back.
 */
void bs_signals_install(void);
void bs_signals_restore(void);
/* The first signal caught since install (0 after restore), or 0. */
int bs_signal_pending(void);
/*
 * The flag bs_signal_pending() reads, for code that takes a cancel flag
 * (bs_store_set_wait() in store/store.h): non-zero once a signal was
 * caught. Valid for the whole program.
 */
const volatile sig_atomic_t *bs_signal_flag(void);

/* The last signal bs_stop_catch()'s or the guard's handler caught. */
extern volatile sig_atomic_t bs_stop_sig;

/* What bs_stop_catch() replaced, for bs_stop_release(). */
#define BS_STOP_MAX 8
struct bs_stop_saved {
	const int *sigs;
	size_t n;
	struct sigaction old[BS_STOP_MAX];
	unsigned char caught[BS_STOP_MAX]; /* old[i] is to be put back */
};

/*
 * Sets bs_stop_sig to 0 and catches SIGINT, SIGTERM and SIGHUP (with_quit:
 * SIGQUIT too), each setting bs_stop_sig. bs_stop_release() puts back
 * what it replaced; nothing the second time.
 */
void bs_stop_catch(struct bs_stop_saved *s, int with_quit);
void bs_stop_release(struct bs_stop_saved *s);

/*
 * The guard of a PostgreSQL archive's statements: SIGINT, SIGTERM and
 * SIGHUP set bs_stop_sig and the guard's own signal; when engaged() says
 * no statement runs on the server, the signal does at once what it would
 * have done without bstore. Arming twice is arming once.
 * bs_stop_guard_end() puts the handlers back and returns the signal the
 * guard caught (0: none; -1: it was not armed).
 */
void bs_stop_guard_arm(int (*engaged)(void));
int bs_stop_guard_end(void);

/*
 * An output's temporary file: SIGINT, SIGTERM, SIGHUP and SIGQUIT (one
 * handler at a time) remove tmp, write head, the signal's name and tail
 * on stderr, and _exit(128 + the signal). The three strings are kept (and
 * freed by bs_stop_unlink_disarm()). Arm and disarm between
 * bs_stop_block() and bs_stop_unblock(), which hold those four signals.
 */
void bs_stop_block(void);
void bs_stop_unblock(void);
void bs_stop_unlink_arm(char *tmp, char *head, char *tail);
void bs_stop_unlink_disarm(void);

/* A child about to exec: the stop signals and SIGPIPE back to default. */
void bs_stop_defaults(void);
/* The start of main(): a closed pipe ends output quietly. */
void bs_stop_pipe_default(void);

#endif
