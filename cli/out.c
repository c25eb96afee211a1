/*
 * cli/out.c - an -o output file: written as a temporary file renamed over
 * the path when complete, never over the archive (cli/guard.h), removed
 * on a signal (cli/cleanup.h).
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/msg.h"
#include "cli/out.h"
#include "cli/cleanup.h"
#include "cli/guard.h"
#include "util/buf.h"
#include "util/banned.h"

int bs_cli_out_open(const struct bs_cli *cli, const char *path,
		    struct bs_cli_out *o)
{
	struct bs_buf tmp = BS_BUF_INIT;
	struct stat sb;
	int fd, e;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (bs_cli_guard(cli, path, NULL) != 0)
		return BS_EXIT_FAIL;
	/* lstat: a symbolic link (/dev/stdout) is written through, never
	 * renamed over; so are devices and FIFOs. */
	if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		o->f = fopen(path, "w");
		if (o->f == NULL) {
			bs_cli_error(cli, "cannot write '%s': %s", path,
				     strerror(errno));
			return BS_EXIT_FAIL;
		}
		return 0;
	}
	bs_buf_addf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	/* A signal from here on removes the file (cli/cleanup.h). */
	bs_cleanup_block();
	fd = open(bs_buf_str(&tmp), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		  0666);
	e = errno;
	if (fd >= 0) {
		o->f = fdopen(fd, "w");
		e = errno;
		if (o->f == NULL) {
			close(fd);
			unlink(bs_buf_str(&tmp));
		} else {
			bs_cleanup_arm(cli, bs_buf_str(&tmp), path);
		}
	}
	bs_cleanup_unblock();
	if (o->f == NULL) {
		bs_cli_error(cli, "cannot write '%s': %s", path, strerror(e));
		bs_buf_release(&tmp);
		return BS_EXIT_FAIL;
	}
	o->tmp = bs_buf_detach(&tmp, NULL);
	return 0;
}

int bs_cli_out_close(const struct bs_cli *cli, struct bs_cli_out *o, int ok)
{
	int failed;
	int e;
	int rc = 0;

	assert(o->f != NULL); /* opened by bs_cli_out_open, closed once */
	failed = ferror(o->f) != 0;
	e = o->write_errno ? o->write_errno : errno;

	if (fclose(o->f) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	o->f = NULL;
	/* Renamed or removed, the file is no longer the handler's to
	 * remove: a signal waits until it is disarmed. */
	if (o->tmp)
		bs_cleanup_block();
	if (ok && !failed && o->tmp && rename(o->tmp, o->path) != 0) {
		failed = 1;
		e = errno;
	}
	if (o->tmp && (!ok || failed))
		unlink(o->tmp);
	if (o->tmp) {
		bs_cleanup_disarm();
		bs_cleanup_unblock();
	}
	if (ok && failed) {
		bs_cli_error(cli, "cannot write '%s': %s", o->path,
			     strerror(e ? e : EIO));
		rc = BS_EXIT_FAIL;
	}
	free(o->tmp);
	o->tmp = NULL;
	return ok ? rc : BS_EXIT_FAIL;
}
