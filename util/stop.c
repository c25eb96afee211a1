/* util/stop.c - every signal handler, flag and mask (util/stop.h). */
#include "util/stop.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/banned.h"

#define NOF(a) (sizeof(a) / sizeof((a)[0]))

const char *bs_stop_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	case SIGPIPE:
		return "SIGPIPE";
	default:
		return "a signal";
	}
}

/* The one rule: a signal ignored now stays ignored. */
static void catch_all(struct bs_stop_saved *s, const int *sigs, size_t n,
		      void (*handler)(int), const sigset_t *mask)
{
	struct sigaction sa;
	size_t i;

	assert(n <= BS_STOP_MAX);
	memset(s, 0, sizeof(*s));
	s->sigs = sigs;
	s->n = n;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	if (mask)
		sa.sa_mask = *mask;
	else
		sigemptyset(&sa.sa_mask);
	for (i = 0; i < n; i++) {
		if (sigaction(sigs[i], NULL, &s->old[i]) != 0 ||
		    s->old[i].sa_handler == SIG_IGN)
			continue;
		if (sigaction(sigs[i], &sa, NULL) == 0)
			s->caught[i] = 1;
	}
}

void bs_stop_release(struct bs_stop_saved *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->caught[i])
			sigaction(s->sigs[i], &s->old[i], NULL);
		s->caught[i] = 0;
	}
}

static void set_default(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* Measuring. */
static volatile sig_atomic_t pending_signal;
static const int measure_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
static struct bs_stop_saved measure_saved;
static int measure_installed;

static void on_measure(int sig)
{
	if (pending_signal == 0)
		pending_signal = sig;
}

void bs_signals_install(void)
{
	if (measure_installed)
		return;
	pending_signal = 0;
	catch_all(&measure_saved, measure_sigs, NOF(measure_sigs), on_measure,
		  NULL);
	measure_installed = 1;
}

void bs_signals_restore(void)
{
	if (!measure_installed)
		return;
	bs_stop_release(&measure_saved);
	measure_installed = 0;
	pending_signal = 0;
}

int bs_signal_pending(void)
{
	return pending_signal;
}

const volatile sig_atomic_t *bs_signal_flag(void)
{
	return &pending_signal;
}

/* Inputs and opens. */
volatile sig_atomic_t bs_stop_sig;
static const int stop3[] = {SIGINT, SIGTERM, SIGHUP};
static const int stop4[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void on_stop(int sig)
{
	bs_stop_sig = sig;
}

void bs_stop_catch(struct bs_stop_saved *s, int with_quit)
{
	bs_stop_sig = 0;
	if (with_quit)
		catch_all(s, stop4, NOF(stop4), on_stop, NULL);
	else
		catch_all(s, stop3, NOF(stop3), on_stop, NULL);
}

/* The guard. */
static struct bs_stop_saved guard_saved;
static int guard_armed;
static volatile sig_atomic_t guard_sig;
static int (*guard_engaged)(void);

static void on_guarded(int sig)
{
	bs_stop_sig = sig;
	guard_sig = sig;
	if (!guard_engaged()) {
		set_default(sig);
		raise(sig); /* delivered when this handler returns */
	}
}

void bs_stop_guard_arm(int (*engaged)(void))
{
	if (guard_armed)
		return;
	guard_armed = 1;
	guard_sig = 0;
	guard_engaged = engaged;
	catch_all(&guard_saved, stop3, NOF(stop3), on_guarded, NULL);
}

int bs_stop_guard_end(void)
{
	if (!guard_armed)
		return -1;
	guard_armed = 0;
	bs_stop_release(&guard_saved);
	return (int)guard_sig;
}

/* An output's temporary file; set while armed, read by the handler. */
static char *tmp_path;
static char *msg_head;
static char *msg_tail;
static struct bs_stop_saved unlink_saved;

static void put(const char *s)
{
	size_t n = strlen(s);
	ssize_t w;

	while (n > 0) {
		w = write(STDERR_FILENO, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void on_unlink(int sig)
{
	unlink(tmp_path);
	put(msg_head);
	put(bs_stop_name(sig));
	put(msg_tail);
	_exit(128 + sig);
}

static void set_of_stop4(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < NOF(stop4); i++)
		sigaddset(set, stop4[i]);
}

void bs_stop_block(void)
{
	sigset_t set;

	set_of_stop4(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

void bs_stop_unblock(void)
{
	sigset_t set;

	set_of_stop4(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

void bs_stop_unlink_arm(char *tmp, char *head, char *tail)
{
	sigset_t mask;

	bs_stop_unlink_disarm();
	tmp_path = tmp;
	msg_head = head;
	msg_tail = tail;
	set_of_stop4(&mask); /* one signal's handler at a time */
	catch_all(&unlink_saved, stop4, NOF(stop4), on_unlink, &mask);
}

void bs_stop_unlink_disarm(void)
{
	bs_stop_release(&unlink_saved);
	free(tmp_path);
	free(msg_head);
	free(msg_tail);
	tmp_path = msg_head = msg_tail = NULL;
}

void bs_stop_defaults(void)
{
	set_default(SIGINT);
	set_default(SIGTERM);
	set_default(SIGHUP);
	set_default(SIGQUIT);
	set_default(SIGPIPE);
}

void bs_stop_pipe_default(void)
{
	set_default(SIGPIPE);
}
