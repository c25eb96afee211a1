/*
 * core/scratch.h - the benchmark's private scratch directory, and how
 * the signals that stop a run reach it.
 *
 * bs_scratch_open() makes a new directory "bstore-run.<pid>.<random>"
 * (mode 0700) inside the directory the user named, and every file the
 * benchmark writes is created inside it with O_CREAT|O_EXCL|O_NOFOLLOW
 * through a directory descriptor, so bstore never follows a symlink it
 * did not make and never opens a file it did not create. As with
 * bonnie++, the user's directory needs write and search permission but
 * not read: a drop directory of mode 1733 will do. The scratch
 * keeps the names it created at its top level and bs_scratch_close()
 * removes exactly those, then the directory itself; anything else found
 * there is left alone and reported.
 *
 * Signals (util/stop.h, which holds the handler): bs_signals_install()
 * catches SIGINT, SIGTERM, SIGHUP, SIGQUIT
 * and SIGPIPE (a run piped into head) with a handler that only records
 * the signal number (no SA_RESTART, so a slow
 * system call returns EINTR). The benchmark polls bs_signal_pending() and
 * unwinds, cleaning up; the caller decides the exit status.
 */
#ifndef BS_CORE_SCRATCH_H
#define BS_CORE_SCRATCH_H

#include <signal.h>
#include <stddef.h>

#include "util/err.h"
#include "util/stop.h" /* bs_signals_install, bs_signal_pending */

struct bs_scratch_item {
	char *name;
	int is_dir;
};

struct bs_scratch {
	int parent_fd; /* the user's directory, O_PATH */
	int fd;        /* the private directory; -1 when closed */
	char *path;    /* "<dir>/bstore-run.<pid>.<random>" */
	char *name;    /* its last component */
	struct bs_scratch_item *items; /* created at the top level */
	size_t nitems, cap;
};

/* clang-format off */
#define BS_SCRATCH_INIT {-1, -1, NULL, NULL, NULL, 0, 0}
/* clang-format on */

/*
 * Creates the private directory inside dir. Fails with a message naming
 * dir and the system's reason (missing, not a directory, read-only).
 * Afterwards s->path is dir + "/" + the new directory's name, and s->fd
 * an ordinary read-only descriptor of it.
 */
int bs_scratch_open(struct bs_scratch *s, const char *dir, struct bs_err *err);

/*
 * Creates a new file at the top level (O_CREAT|O_EXCL|O_NOFOLLOW plus
 * flags, mode 0600) and remembers it. Returns the descriptor, or <0.
 */
int bs_scratch_create(struct bs_scratch *s, const char *name, int flags,
		      struct bs_err *err);
/* Opens a file this scratch created (O_NOFOLLOW plus flags). */
int bs_scratch_reopen(struct bs_scratch *s, const char *name, int flags,
		      struct bs_err *err);
/* Creates a directory at the top level and remembers it. */
int bs_scratch_mkdir(struct bs_scratch *s, const char *name,
		     struct bs_err *err);
/*
 * Removes a top-level file (or directory, with is_dir) this scratch
 * created and forgets it. A missing entry is not an error.
 */
int bs_scratch_remove(struct bs_scratch *s, const char *name, int is_dir,
		      struct bs_err *err);

/*
 * Removes every remembered entry, then the private directory, and closes
 * the descriptors. Safe to call twice and on a zeroed/INIT scratch.
 * Returns 0, or <0 when something could not be removed (err says what).
 */
int bs_scratch_close(struct bs_scratch *s, struct bs_err *err);

/* Free space and free inodes of the file system holding the scratch. */
int bs_scratch_space(const char *dir, unsigned long long *bytes_free,
		     unsigned long long *inodes_free, struct bs_err *err);

#endif
