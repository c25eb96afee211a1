/* core/scratch.c - the private scratch directory. */
#define _GNU_SOURCE /* O_DIRECT */
#include "core/scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "util/mem.h"
#include "util/banned.h"

static uint32_t random_u32(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	return (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16) ^
	       (uint32_t)clock();
}

int bs_scratch_open(struct bs_scratch *s, const char *dir, struct bs_err *err)
{
	char name[64];
	int tries, fd;

	s->parent_fd = -1;
	s->fd = -1;
	s->path = NULL;
	s->name = NULL;
	s->items = NULL;
	s->nitems = s->cap = 0;

	/*
	 * O_PATH: mkdirat, openat and unlinkat need only write and search
	 * permission on dir, as bonnie++ does, so a drop directory without
	 * read permission (mode 1733) works. The descriptor is used for
	 * nothing else; the free-space check and the host probe take dir.
	 */
	s->parent_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->parent_fd < 0)
		return bs_error(err, BS_EIO, "cannot use directory '%s': %s",
				dir, strerror(errno));
	for (tries = 0; tries < 100; tries++) {
		snprintf(name, sizeof(name), "bstore-run.%ld.%08x",
			 (long)getpid(), (unsigned)random_u32());
		if (mkdirat(s->parent_fd, name, 0700) == 0)
			break;
		if (errno != EEXIST) {
			int e = errno;

			close(s->parent_fd);
			s->parent_fd = -1;
			return bs_error(err, BS_EIO,
					"cannot create a scratch directory in "
					"'%s': %s",
					dir, strerror(e));
		}
	}
	if (tries == 100) {
		close(s->parent_fd);
		s->parent_fd = -1;
		return bs_error(err, BS_EIO,
				"cannot create a scratch directory in '%s': "
				"every name tried exists",
				dir);
	}
	s->name = xstrdup(name);
	s->path = xmalloc(strlen(dir) + strlen(name) + 2);
	memcpy(s->path, dir, strlen(dir));
	s->path[strlen(dir)] = '/';
	memcpy(s->path + strlen(dir) + 1, name, strlen(name) + 1);
	/* Ours, mode 0700: a plain descriptor, so syncfs(2) can use it. */
	fd = openat(s->parent_fd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int rc = bs_error(err, BS_EIO, "cannot open '%s': %s", s->path,
				  strerror(errno));

		bs_scratch_close(s, NULL); /* removes the directory */
		return rc;
	}
	s->fd = fd;
	return 0;
}

static void remember(struct bs_scratch *s, const char *name, int is_dir)
{
	xgrow((void **)&s->items, &s->cap, s->nitems + 1, sizeof(*s->items));
	s->items[s->nitems].name = xstrdup(name);
	s->items[s->nitems].is_dir = is_dir;
	s->nitems++;
}

static void forget(struct bs_scratch *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nitems; i++) {
		if (strcmp(s->items[i].name, name) == 0) {
			free(s->items[i].name);
			s->items[i] = s->items[s->nitems - 1];
			s->nitems--;
			return;
		}
	}
}

int bs_scratch_create(struct bs_scratch *s, const char *name, int flags,
		      struct bs_err *err)
{
	int fd;

	fd = openat(s->fd, name,
		    flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EINVAL && (flags & O_DIRECT))
		return bs_error(err, BS_EIO,
				"cannot create '%s/%s' with O_DIRECT (-D): "
				"this file system does not support it",
				s->path, name);
	if (fd < 0)
		return bs_error(err, BS_EIO, "cannot create '%s/%s': %s",
				s->path, name, strerror(errno));
	remember(s, name, 0);
	return fd;
}

int bs_scratch_reopen(struct bs_scratch *s, const char *name, int flags,
		      struct bs_err *err)
{
	int fd;

	fd = openat(s->fd, name, flags | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return bs_error(err, BS_EIO, "cannot open '%s/%s': %s", s->path,
				name, strerror(errno));
	return fd;
}

int bs_scratch_mkdir(struct bs_scratch *s, const char *name, struct bs_err *err)
{
	if (mkdirat(s->fd, name, 0700) != 0)
		return bs_error(err, BS_EIO, "cannot create '%s/%s': %s",
				s->path, name, strerror(errno));
	remember(s, name, 1);
	return 0;
}

int bs_scratch_remove(struct bs_scratch *s, const char *name, int is_dir,
		      struct bs_err *err)
{
	if (unlinkat(s->fd, name, is_dir ? AT_REMOVEDIR : 0) != 0 &&
	    errno != ENOENT)
		return bs_error(err, BS_EIO, "cannot remove '%s/%s': %s",
				s->path, name, strerror(errno));
	forget(s, name);
	return 0;
}

int bs_scratch_close(struct bs_scratch *s, struct bs_err *err)
{
	int rc = 0;
	size_t i;

	/* Files first, then directories, newest first. */
	if (s->fd >= 0) {
		for (i = s->nitems; i-- > 0;)
			if (!s->items[i].is_dir &&
			    bs_scratch_remove(s, s->items[i].name, 0, err) < 0)
				rc = -BS_EIO;
		for (i = s->nitems; i-- > 0;)
			if (s->items[i].is_dir &&
			    bs_scratch_remove(s, s->items[i].name, 1, err) < 0)
				rc = -BS_EIO;
		close(s->fd);
		s->fd = -1;
	}
	if (s->parent_fd >= 0 && s->name) {
		if (unlinkat(s->parent_fd, s->name, AT_REMOVEDIR) != 0 &&
		    errno != ENOENT)
			rc = bs_error(err, BS_EIO,
				      "cannot remove the scratch directory "
				      "'%s': %s",
				      s->path, strerror(errno));
	}
	if (s->parent_fd >= 0) {
		close(s->parent_fd);
		s->parent_fd = -1;
	}
	for (i = 0; i < s->nitems; i++)
		free(s->items[i].name);
	free(s->items);
	free(s->path);
	free(s->name);
	s->items = NULL;
	s->nitems = s->cap = 0;
	s->path = NULL;
	s->name = NULL;
	return rc;
}

int bs_scratch_space(const char *dir, unsigned long long *bytes_free,
		     unsigned long long *inodes_free, struct bs_err *err)
{
	struct statvfs sv;

	if (statvfs(dir, &sv) != 0)
		return bs_error(err, BS_EIO, "cannot use directory '%s': %s",
				dir, strerror(errno));
	*bytes_free = (unsigned long long)sv.f_bavail * sv.f_frsize;
	/* Some file systems (btrfs) report no inode limit: f_files == 0. */
	*inodes_free = sv.f_files ? (unsigned long long)sv.f_favail : ~0ULL;
	return 0;
}
