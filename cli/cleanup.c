/* cli/cleanup.c - an -o output's temporary file, removed on a signal. */
#include "cli/cleanup.h"
#include "cli/msg.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/mem.h"
#include "util/sig.h"
#include "util/text.h"
#include "util/banned.h"

static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSIGNALS (sizeof(signals) / sizeof(signals[0]))

/* Set while armed, read by the handler only. */
static char *tmp_path; /* the file to remove */
static char *msg_head; /* "bstore: report: stopped by " */
static char *msg_tail; /* "; 'r.html' not written\n" */
static struct bs_sig_saved saved;

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
	sigset_t mask;

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

	sigset_of_ours(&mask); /* one signal's handler at a time */
	bs_sig_catch(&saved, signals, NSIGNALS, on_signal, &mask);
}

void bs_cleanup_disarm(void)
{
	bs_sig_restore(&saved);
	free(tmp_path);
	free(msg_head);
	free(msg_tail);
	tmp_path = msg_head = msg_tail = NULL;
}
