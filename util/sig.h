/*
 * util/sig.h - the one rule for catching the signals that stop bstore
 * (SIGINT, SIGTERM, SIGHUP, ...): a signal that was ignored when bstore
 * started stays ignored, as for any Unix program. So `nohup bstore ingest`
 * survives the hang-up, and a job a script started in the background
 * (SIGINT and SIGQUIT ignored) is stopped by SIGTERM, not by Ctrl-C.
 */
#ifndef BS_UTIL_SIG_H
#define BS_UTIL_SIG_H

#include <signal.h>
#include <stddef.h>

#define BS_SIG_MAX 8

struct bs_sig_saved {
	const int *sigs;
	size_t n;
	struct sigaction old[BS_SIG_MAX];
	unsigned char caught[BS_SIG_MAX]; /* old[i] is to be put back */
};

/*
 * Sends each of the n signals sigs (at most BS_SIG_MAX; sigs must outlive
 * s) that is not ignored now to handler, with mask blocked while it runs
 * (NULL: none) and without SA_RESTART, so that slow calls return EINTR.
 */
void bs_sig_catch(struct bs_sig_saved *s, const int *sigs, size_t n,
		  void (*handler)(int), const sigset_t *mask);
/* Puts back what bs_sig_catch() replaced; nothing the second time. */
void bs_sig_restore(struct bs_sig_saved *s);

#endif
