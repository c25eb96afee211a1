/* cli/cleanup.c - an -o output's temporary file, removed on a signal. */
#include "cli/cleanup.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/mem.h"
#include "util/text.h"
#include "util/banned.h"

static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSIGNALS (sizeof(signals) / sizeof(signals[0]))

/* Set while armed, read by the handler only. */
static char *tmp_path; /* the file to remove */
static char *msg_head; /* "bstore: report: stopped by " */
static char *msg_tail; /* "; 'r.html' not written\n" */
static struct sigaction saved[NSIGNALS];
static int caught[NSIGNALS]; /* saved[i] holds a handler to put back */

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

static void on_signal(int sig)
{
	unlink(tmp_path);
	put(msg_head);
	put(bs_cli_signal_name(sig));
	put(msg_tail);
	_exit(128 + sig);
}

static void sigset_of_ours(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < NSIGNALS; i++)
		sigaddset(set, signals[i]);
}

void bs_cleanup_block(void)
{
	sigset_t set;

	sigset_of_ours(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

void bs_cleanup_unblock(void)
{
	sigset_t set;

	sigset_of_ours(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

void bs_cleanup_arm(const struct bs_cli *cli, const char *tmp,
		    const char *path)
{
	struct bs_buf b = BS_BUF_INIT;
	struct sigaction sa;
	size_t i;

	bs_cleanup_disarm();
	tmp_path = xstrdup(tmp);
	/* The message as bs_cli_error() would print it, made now: the
	 * handler cannot format. */
	if (cli && cli->cmd)
		bs_buf_addf(&b, "bstore: %s: stopped by ", cli->cmd);
	else
		bs_buf_adds(&b, "bstore: stopped by ");
	msg_head = bs_buf_detach(&b, NULL);
	bs_buf_adds(&b, "; '");
	bs_text_clean(&b, path, strlen(path), 0);
	bs_buf_adds(&b, "' not written\n");
	msg_tail = bs_buf_detach(&b, NULL);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigset_of_ours(&sa.sa_mask); /* one signal's handler at a time */
	for (i = 0; i < NSIGNALS; i++) {
		caught[i] = 0;
		if (sigaction(signals[i], NULL, &saved[i]) != 0 ||
		    saved[i].sa_handler == SIG_IGN)
			continue;
		if (sigaction(signals[i], &sa, NULL) == 0)
			caught[i] = 1;
	}
}

void bs_cleanup_disarm(void)
{
	size_t i;

	for (i = 0; i < NSIGNALS; i++) {
		if (caught[i])
			sigaction(signals[i], &saved[i], NULL);
		caught[i] = 0;
	}
	free(tmp_path);
	free(msg_head);
	free(msg_tail);
	tmp_path = msg_head = msg_tail = NULL;
}
