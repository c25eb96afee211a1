/*
 * util/readfile.c - opening and reading the files a user names, with the
 * checks of readfile.h: the kind of file before and after opening, a
 * bounded wait on a FIFO, a size limit on what is read whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/readfile.h"
#include "util/banned.h"

/* "template 'x'" or "'x'" in a message. */
#define NAME_FMT "%s%s'%s'"
#define NAME_ARGS(what, path) (what) ? (what) : "", (what) ? " " : "", (path)

static const struct {
	unsigned kind;
	const char *name;
} kinds[] = {
	{BS_FILE_REGULAR, "a regular file"},  {BS_FILE_FIFO, "a FIFO"},
	{BS_FILE_CHAR, "a character device"}, {BS_FILE_BLOCK, "a block device"},
	{BS_FILE_SOCKET, "a socket"},
};

/* The BS_FILE_* kind of a mode; 0 for a directory. */
static unsigned kind_of(mode_t mode)
{
	if (S_ISREG(mode))
		return BS_FILE_REGULAR;
	if (S_ISFIFO(mode))
		return BS_FILE_FIFO;
	if (S_ISCHR(mode))
		return BS_FILE_CHAR;
	if (S_ISBLK(mode))
		return BS_FILE_BLOCK;
	if (S_ISSOCK(mode))
		return BS_FILE_SOCKET;
	return 0;
}

static const char *kind_name(unsigned kind)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == kind)
			return kinds[i].name;
	return "not a file";
}

/* 0 when a file of this mode may be read, else the error. */
static int check_kind(mode_t mode, unsigned want, const char *what,
		      const char *path, struct bs_err *err)
{
	unsigned kind = kind_of(mode);

	if (kind == 0)
		return bs_error(err, BS_EINVAL, "cannot read " NAME_FMT ": %s",
				NAME_ARGS(what, path), strerror(EISDIR));
	if ((kind & want) == 0)
		return bs_error(err, BS_EINVAL,
				"cannot read " NAME_FMT ": it is %s%s",
				NAME_ARGS(what, path), kind_name(kind),
				want == BS_FILE_REGULAR ? ", not a regular file"
							: "");
	return 0;
}

static int open_error(int e, const char *what, const char *path,
		      struct bs_err *err)
{
	return bs_error(err, e == ENOENT ? BS_ENOTFOUND : BS_EIO,
			"cannot open " NAME_FMT ": %s", NAME_ARGS(what, path),
			strerror(e));
}

/* "1 MiB", "64 KiB", "100 bytes"; "2 s", "250 ms". */
static const char *size_text(char *buf, size_t size, size_t bytes)
{
	if (bytes >= 1 << 20 && bytes % (1 << 20) == 0)
		snprintf(buf, size, "%zu MiB", bytes >> 20);
	else if (bytes >= 1 << 10 && bytes % (1 << 10) == 0)
		snprintf(buf, size, "%zu KiB", bytes >> 10);
	else
		snprintf(buf, size, "%zu byte%s", bytes, bytes == 1 ? "" : "s");
	return buf;
}

static const char *ms_text(char *buf, size_t size, int ms)
{
	if (ms >= 1000 && ms % 1000 == 0)
		snprintf(buf, size, "%d s", ms / 1000);
	else
		snprintf(buf, size, "%d ms", ms);
	return buf;
}

/*
 * Waits until a writer has written to the FIFO or closed it. A FIFO
 * opened without waiting reads as empty while no writer has come, so
 * reading before then would take "no writer yet" for "nothing".
 */
static int wait_fifo(int fd, int wait_ms, const char *what, const char *path,
		     struct bs_err *err)
{
	struct pollfd p;
	char t[32];
	int n;

	p.fd = fd;
	p.events = POLLIN;
	p.revents = 0;
	n = poll(&p, 1, wait_ms < 0 ? -1 : wait_ms);
	if (n < 0 && errno == EINTR)
		return bs_error(err, BS_EINTR,
				"cannot read " NAME_FMT ": interrupted while "
				"waiting for a writer",
				NAME_ARGS(what, path));
	if (n < 0)
		return bs_error(err, BS_EIO, "cannot read " NAME_FMT ": %s",
				NAME_ARGS(what, path), strerror(errno));
	if (n == 0)
		return bs_error(err, BS_EIO,
				"cannot read " NAME_FMT ": nothing written to "
				"the FIFO in %s",
				NAME_ARGS(what, path),
				ms_text(t, sizeof(t), wait_ms));
	return 0;
}

int bs_readfile_open(const char *path, const char *what, unsigned want,
		     int fifo_wait_ms, int *fd, struct bs_err *err)
{
	struct stat st;
	int f, flags, rc;

	*fd = -1;
	/* Looked at first, so that a device of a refused kind is never
	 * opened. */
	if (stat(path, &st) < 0)
		return open_error(errno, what, path, err);
	rc = check_kind(st.st_mode, want, what, path, err);
	if (rc < 0)
		return rc;
	/* O_NONBLOCK: a FIFO put in the file's place meanwhile must not
	 * hang the open. */
	f = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (f < 0)
		return open_error(errno, what, path, err);
	if (fstat(f, &st) < 0)
		rc = bs_error(err, BS_EIO, "cannot read " NAME_FMT ": %s",
			      NAME_ARGS(what, path), strerror(errno));
	if (rc == 0)
		rc = check_kind(st.st_mode, want, what, path, err);
	if (rc == 0 && S_ISFIFO(st.st_mode))
		rc = wait_fifo(f, fifo_wait_ms, what, path, err);
	if (rc == 0 && ((flags = fcntl(f, F_GETFL)) < 0 ||
			fcntl(f, F_SETFL, flags & ~O_NONBLOCK) < 0))
		rc = bs_error(err, BS_EIO, "cannot read " NAME_FMT ": %s",
			      NAME_ARGS(what, path), strerror(errno));
	if (rc < 0) {
		close(f);
		return rc;
	}
	*fd = f;
	return 0;
}

static int too_big(const char *what, const char *path, size_t max,
		   struct bs_err *err)
{
	char t[32];

	return bs_error(err, BS_ETOOBIG,
			"cannot read " NAME_FMT ": larger than %s",
			NAME_ARGS(what, path), size_text(t, sizeof(t), max));
}

int bs_readfile(const char *path, const char *what, size_t max,
		struct bs_buf *out, struct bs_err *err)
{
	size_t start = out->len;
	struct stat st;
	char chunk[65536];
	ssize_t n;
	int fd, rc;

	rc = bs_readfile_open(path, what, BS_FILE_REGULAR, 0, &fd, err);
	if (rc < 0)
		return rc;
	if (fstat(fd, &st) == 0 && (uintmax_t)st.st_size > max) {
		rc = too_big(what, path, max, err);
		goto out;
	}
	/* The size said is not trusted: the file may grow, and files of
	 * /proc say 0. */
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = bs_error(err, BS_EIO,
				      "cannot read " NAME_FMT ": %s",
				      NAME_ARGS(what, path), strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		if ((size_t)n > max - (out->len - start) ||
		    bs_buf_add(out, chunk, (size_t)n) < 0) {
			rc = too_big(what, path, max, err);
			goto out;
		}
	}
out:
	if (rc < 0)
		bs_buf_trim(out, out->len - start);
	close(fd);
	return rc;
}
