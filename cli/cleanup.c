/* cli/cleanup.c - an -o output's temporary file, removed on a signal. */
#include "cli/cleanup.h"
#include "cli/msg.h"

#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/mem.h"
#include "util/stop.h"
#include "util/text.h"
#include "util/banned.h"

void bs_cleanup_block(void)
{
	bs_stop_block();
}

void bs_cleanup_unblock(void)
{
	bs_stop_unblock();
}

void bs_cleanup_arm(const struct bs_cli *cli, const char *tmp, const char *path)
{
	struct bs_buf b = BS_BUF_INIT;
	char *head;

	bs_cleanup_disarm();
	/* The message as bs_cli_error() would print it, made now: the
	 * handler cannot format. */
	if (cli && cli->cmd)
		bs_buf_addf(&b, "bstore: %s: stopped by ", cli->cmd);
	else
		bs_buf_adds(&b, "bstore: stopped by ");
	head = bs_buf_detach(&b, NULL);
	bs_buf_adds(&b, "; '");
	bs_text_clean(&b, path, strlen(path), 0);
	bs_buf_adds(&b, "' not written\n");
	/* The handler (util/stop.c) removes the file and says so. */
	bs_stop_unlink_arm(xstrdup(tmp), head, bs_buf_detach(&b, NULL));
}

void bs_cleanup_disarm(void)
{
	bs_stop_unlink_disarm();
}
