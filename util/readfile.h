/*
 * util/readfile.h - opens and reads the files a user names, refusing what
 * must not be read: a directory always, a device, FIFO or socket unless
 * the caller takes that kind, and, for a file read whole, more bytes than
 * the caller's limit. A symlink counts as what it points to.
 *
 * Nothing here blocks where the caller did not ask for it: a device of a
 * kind the caller refuses is never opened (opening a tape rewinds it), a
 * FIFO is opened without waiting for a writer, and an open file is
 * checked again, in case the path changed after it was looked at.
 *
 * Messages name the file as the caller calls it ("template" gives
 * "cannot read template 'x': ..."; NULL gives "cannot read 'x': ...").
 */
#ifndef BS_UTIL_READFILE_H
#define BS_UTIL_READFILE_H

#include <stddef.h>

#include "util/buf.h"
#include "util/err.h"

/* Kinds of file, as a mask of those a caller takes. */
enum {
	BS_FILE_REGULAR = 1 << 0,
	BS_FILE_FIFO = 1 << 1,      /* named pipes, and pipes as /dev/fd/N */
	BS_FILE_CHAR = 1 << 2,      /* character devices: /dev/null, a tty */
	BS_FILE_BLOCK = 1 << 3,     /* block devices: disks */
	BS_FILE_SOCKET = 1 << 4,    /* as /dev/fd/N */
	BS_FILE_ANY = (1 << 5) - 1, /* anything but a directory */
};

/*
 * Opens path for reading and leaves a blocking descriptor in *fd (the
 * caller closes it). A path that does not exist fails with BS_ENOTFOUND;
 * a directory, or a kind not in kinds, with BS_EINVAL; other failures
 * with BS_EIO. A FIFO (when in kinds) is waited on until a writer has
 * written or gone, at most fifo_wait_ms milliseconds (-1: no limit, as
 * cat waits), else BS_EIO; a signal that ends the wait gives BS_EINTR.
 */
int bs_readfile_open(const char *path, const char *what, unsigned kinds,
		     int fifo_wait_ms, int *fd /* OUT */, struct bs_err *err);

/*
 * Appends the whole of the regular file at path to out. A file of more
 * than max bytes is refused with BS_ETOOBIG, unread; other failures are
 * those of bs_readfile_open(). On failure out is as it was.
 */
int bs_readfile(const char *path, const char *what, size_t max,
		struct bs_buf *out, struct bs_err *err);

#endif
