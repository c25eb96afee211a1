/*
 * core/bench_files.c - the six file tests: create, stat ("Read") and
 * delete, first in sequential order, then in random order.
 *
 * As in bonnie++ 2.00a: num x 1024 files, named with 10 hex digits of
 * their index and 0-12 random letters and digits (index first for the
 * sequential tests, last for the random ones), spread over num_dirs
 * subdirectories "00000", "00001", ... (in blocks for the sequential
 * tests, at random for the random ones). With max_size > 0 a file gets
 * min + rand % (max - min + 1) bytes (max when min == max), written in
 * file-chunk pieces; -1 makes hard links to the first file, -2 symbolic
 * links to it. The sequential stat and delete walk each directory with
 * readdir(3); the random ones take the files in a shuffled order. The
 * stat test reads a file's contents when it has any. Create and delete
 * end with syncfs(2) inside the timing (bonnie++ calls sync(2), which
 * also waits for every other file system); delete includes removing the
 * directories.
 *
 * Only names this test made are touched: a readdir entry that is not one
 * of ours is skipped (and then keeps its directory from being removed,
 * which is reported).
 */
/* syncfs(2) and O_DIRECT are Linux extensions. */
#define _GNU_SOURCE
#include "core/bench_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/mem.h"
#include "util/banned.h"

#define HEX_DIGITS 10

struct ftest {
	struct bench *b;
	uint64_t n;
	uint32_t dirs;
	int random; /* names and placement of the random phase */
	int top;    /* fd of "files", -1 when absent */
	int *sub;   /* fds of the subdirectories (dirs > 1) */
	char (*names)[BS_BENCH_NAME_MAX + 1];
	uint32_t *dir_of;
	unsigned char *exists;
	uint64_t *order;
};

static const char alnum[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

static int dir_fd(const struct ftest *t, uint64_t i)
{
	return t->dirs > 1 ? t->sub[t->dir_of[i]] : t->top;
}

static void make_names(struct ftest *t)
{
	static const char hexd[] = "0123456789abcdef";
	struct bench *b = t->b;
	char hex[HEX_DIGITS], rnd[12];
	uint64_t i, v;
	unsigned k, len;
	char *name;

	for (i = 0; i < t->n; i++) {
		len = (unsigned)(bench_rand(&b->rng) % 13);
		for (k = 0; k < len; k++)
			rnd[k] =
				alnum[bench_rand(&b->rng) % (sizeof(alnum) - 1)];
		for (k = HEX_DIGITS, v = i; k-- > 0; v >>= 4)
			hex[k] = hexd[v & 15];
		name = t->names[i];
		if (t->random) {
			memcpy(name, rnd, len);
			memcpy(name + len, hex, HEX_DIGITS);
			t->dir_of[i] =
				(uint32_t)(bench_rand(&b->rng) % t->dirs);
		} else {
			memcpy(name, hex, HEX_DIGITS);
			memcpy(name + HEX_DIGITS, rnd, len);
			t->dir_of[i] = (uint32_t)(i * t->dirs / t->n);
		}
		name[HEX_DIGITS + len] = '\0';
	}
}

/* The index a name of ours encodes, or UINT64_MAX when it is not ours. */
static uint64_t name_index(const struct ftest *t, const char *name)
{
	size_t len = strlen(name), k;
	const char *h;
	uint64_t v = 0;

	if (len < HEX_DIGITS || len > BS_BENCH_NAME_MAX)
		return UINT64_MAX;
	h = t->random ? name + len - HEX_DIGITS : name;
	for (k = 0; k < HEX_DIGITS; k++) {
		char c = h[k];

		if (c >= '0' && c <= '9')
			v = v * 16 + (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uint64_t)(c - 'a' + 10);
		else
			return UINT64_MAX;
	}
	if (v >= t->n || strcmp(t->names[v], name) != 0)
		return UINT64_MAX;
	return v;
}

static void shuffle(struct ftest *t)
{
	uint64_t i, j, tmp;

	for (i = 0; i < t->n; i++)
		t->order[i] = i;
	for (i = t->n; i > 1; i--) {
		j = bench_rand(&t->b->rng) % i;
		tmp = t->order[i - 1];
		t->order[i - 1] = t->order[j];
		t->order[j] = tmp;
	}
}

static int64_t file_size(struct ftest *t)
{
	const struct bs_bench_opts *o = t->b->o;
	uint64_t span;

	if (o->p.max_size <= 0)
		return 0;
	if (o->p.max_size == o->p.min_size)
		return o->p.max_size;
	span = (uint64_t)(o->p.max_size - o->p.min_size) + 1;
	return o->p.min_size + (int64_t)(bench_rand(&t->b->rng) % span);
}

/* "00000/name" or "name", for messages. */
static const char *rel(const struct ftest *t, uint64_t i, char *buf,
		       size_t size)
{
	if (t->dirs > 1)
		snprintf(buf, size, "%s/%05u/%s", BENCH_FILES_NAME,
			 (unsigned)t->dir_of[i], t->names[i]);
	else
		snprintf(buf, size, "%s/%s", BENCH_FILES_NAME, t->names[i]);
	return buf;
}

static int fail_file(struct ftest *t, enum bs_metric m, const char *what,
		     uint64_t i, int e)
{
	char p[128];

	return bench_fail(t->b, m, what, rel(t, i, p, sizeof(p)), e);
}

/*
 * "files/00000" for subdirectory d, or "files" when there are none, for
 * messages: bench_fail() wants the path inside the scratch directory,
 * not the name relative to "files".
 */
static const char *rel_dir(const struct ftest *t, uint32_t d, char *buf,
			   size_t size)
{
	if (t->dirs > 1)
		snprintf(buf, size, "%s/%05u", BENCH_FILES_NAME, (unsigned)d);
	else
		snprintf(buf, size, "%s", BENCH_FILES_NAME);
	return buf;
}

/* Makes "files" and its subdirectories (outside the timing). */
static int make_dirs(struct ftest *t)
{
	struct bench *b = t->b;
	char name[16], p[32];
	uint32_t d;
	int rc;

	rc = bs_scratch_mkdir(&b->scratch, BENCH_FILES_NAME, b->err);
	if (rc < 0)
		return rc;
	t->top = openat(b->scratch.fd, BENCH_FILES_NAME,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (t->top < 0)
		return bench_fail(b, b->cur, "open", BENCH_FILES_NAME, errno);
	if (t->dirs <= 1)
		return 0;
	for (d = 0; d < t->dirs; d++) {
		snprintf(name, sizeof(name), "%05u", (unsigned)d);
		if (mkdirat(t->top, name, 0700) != 0)
			return bench_fail(b, b->cur, "create directory",
					  rel_dir(t, d, p, sizeof(p)), errno);
		t->sub[d] =
			openat(t->top, name,
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (t->sub[d] < 0)
			return bench_fail(b, b->cur, "open",
					  rel_dir(t, d, p, sizeof(p)), errno);
	}
	return 0;
}

/*
 * Removes the subdirectories and "files" (inside the delete timing, and
 * on cleanup). Directories not made yet are skipped.
 */
static int remove_dirs(struct ftest *t, enum bs_metric m)
{
	struct bench *b = t->b;
	char name[16], p[32];
	uint32_t d;
	int rc = 0;

	if (t->top < 0)
		return 0;
	for (d = 0; t->dirs > 1 && d < t->dirs; d++) {
		if (t->sub[d] < 0)
			continue;
		close(t->sub[d]);
		t->sub[d] = -1;
		snprintf(name, sizeof(name), "%05u", (unsigned)d);
		if (unlinkat(t->top, name, AT_REMOVEDIR) != 0 &&
		    errno != ENOENT && rc == 0)
			rc = bench_fail(b, m, "remove directory",
					rel_dir(t, d, p, sizeof(p)), errno);
	}
	close(t->top);
	t->top = -1;
	/* Named like the subdirectories, with the test that failed. */
	if (rc == 0 &&
	    bs_scratch_remove(&b->scratch, BENCH_FILES_NAME, 1, NULL) < 0)
		rc = bench_fail(b, m, "remove directory", BENCH_FILES_NAME,
				errno);
	return rc;
}

/* Removes every file still there and the directories (error paths). */
static void cleanup(struct ftest *t)
{
	struct bs_err ignore = BS_ERR_INIT;
	struct bs_err *keep = t->b->err;
	uint64_t i;

	for (i = 0; i < t->n; i++) {
		if (t->exists[i] && t->top >= 0) {
			unlinkat(dir_fd(t, i), t->names[i], 0);
			t->exists[i] = 0;
		}
	}
	/* The test's own error is already in err; keep it. */
	t->b->err = &ignore;
	remove_dirs(t, t->b->cur);
	t->b->err = keep;
}

/*
 * syncfs(2) of the file system holding the scratch directory. The message
 * names that directory itself, which bench_fail() cannot (it names a
 * path inside it), so it is made here; syncfs never fails with EINTR.
 */
static int sync_fs(struct ftest *t, enum bs_metric m)
{
	int del = m == BS_M_SEQ_DEL || m == BS_M_RAN_DEL;

	if (bench_syncfs(t->b) == 0)
		return 0;
	return bs_error(t->b->err, BS_EIO, "%s %s: cannot sync '%s': %s",
			t->random ? "random" : "sequential",
			del ? "delete" : "create", t->b->scratch.path,
			strerror(errno));
}

static int create_one(struct ftest *t, uint64_t i)
{
	const struct bs_bench_opts *o = t->b->o;
	int dfd = dir_fd(t, i), fd, e;
	int64_t size;
	char target[BS_BENCH_NAME_MAX + 16];

	if (o->p.max_size == BS_SIZE_LINK && i > 0) {
		if (linkat(dir_fd(t, 0), t->names[0], dfd, t->names[i], 0))
			return fail_file(t, t->b->cur, "link", i, errno);
		t->exists[i] = 1;
		return 0;
	}
	if (o->p.max_size == BS_SIZE_SYMLINK && i > 0) {
		if (t->dirs > 1)
			snprintf(target, sizeof(target), "../%05u/%s",
				 (unsigned)t->dir_of[0], t->names[0]);
		else
			snprintf(target, sizeof(target), "%s", t->names[0]);
		if (symlinkat(target, dfd, t->names[i]))
			return fail_file(t, t->b->cur, "symlink", i, errno);
		t->exists[i] = 1;
		return 0;
	}
	fd = openat(dfd, t->names[i],
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail_file(t, t->b->cur, "create", i, errno);
	t->exists[i] = 1;
	size = file_size(t);
	while (size > 0) {
		size_t n = size < o->p.file_chunk_bytes
				   ? (size_t)size
				   : (size_t)o->p.file_chunk_bytes;

		if (bench_write_all(t->b, fd, t->b->buf, n) < 0) {
			e = errno;
			close(fd);
			return fail_file(t, t->b->cur, "write", i, e);
		}
		size -= (int64_t)n;
	}
	if (o->fsync_each &&
	    (bench_fsync(t->b, fd) != 0 || bench_fsync(t->b, dfd) != 0)) {
		e = errno;
		close(fd);
		return fail_file(t, t->b->cur, "fsync", i, e);
	}
	if (close(fd) != 0)
		return fail_file(t, t->b->cur, "close", i, errno);
	return 0;
}

static int create_test(struct ftest *t, enum bs_metric m)
{
	struct bs_hist h;
	struct bs_span sp;
	uint64_t i, prev;
	int rc;

	bs_hist_init(&h);
	bench_begin(t->b, m, t->n);
	bs_span_start(&sp);
	prev = sp.t0_ns;
	for (i = 0; i < t->n; i++) {
		rc = create_one(t, i);
		if (rc < 0)
			return rc;
		bench_op(t->b, &h, &prev, i + 1);
		rc = bench_stopped(t->b);
		if (rc < 0)
			return rc;
	}
	rc = sync_fs(t, m);
	if (rc < 0)
		return rc;
	bs_span_stop(&sp);
	bench_finish(t->b, m, &sp, &h, (double)t->n);
	return 0;
}

/*
 * The end of a stat (unlink == 0) or delete pass, inside its timing: a
 * delete also removes the directories and syncs the file system. Then
 * stops the clock and records test m.
 */
static int end_pass(struct ftest *t, enum bs_metric m, int unlink,
		    struct bs_span *sp, const struct bs_hist *h)
{
	int rc;

	if (unlink) {
		rc = remove_dirs(t, m);
		if (rc == 0)
			rc = sync_fs(t, m);
		if (rc < 0)
			return rc;
	}
	bs_span_stop(sp);
	bench_finish(t->b, m, sp, h, (double)t->n);
	return 0;
}

/* stat, and read the contents of a regular file that has any. */
static int stat_one(struct ftest *t, enum bs_metric m, int dfd, uint64_t i)
{
	const size_t chunk = (size_t)t->b->o->p.file_chunk_bytes;
	struct stat st;
	size_t got;
	int fd, e;

	if (fstatat(dfd, t->names[i], &st, AT_SYMLINK_NOFOLLOW) != 0)
		return fail_file(t, m, "stat", i, errno);
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	fd = openat(dfd, t->names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail_file(t, m, "open", i, errno);
	do {
		if (bench_read_all(t->b, fd, t->b->buf, chunk, &got) < 0) {
			e = errno;
			close(fd);
			return fail_file(t, m, "read", i, e);
		}
	} while (got == chunk);
	close(fd);
	return 0;
}

/*
 * Sequential stat (unlink == 0) or delete (unlink == 1): each directory
 * in turn, its entries in readdir order.
 */
static int walk_test(struct ftest *t, enum bs_metric m, int unlink)
{
	struct bs_hist h;
	struct bs_span sp;
	uint64_t seen = 0, prev, i;
	uint32_t d;
	int rc = 0;

	bs_hist_init(&h);
	bench_begin(t->b, m, t->n);
	bs_span_start(&sp);
	prev = sp.t0_ns;
	for (d = 0; d < t->dirs && rc == 0; d++) {
		int dfd = t->dirs > 1 ? t->sub[d] : t->top, copy;
		struct dirent *de;
		char p[32];
		DIR *dir;

		copy = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		dir = copy >= 0 ? fdopendir(copy) : NULL;
		if (dir == NULL) {
			int e = errno;

			if (copy >= 0)
				close(copy);
			return bench_fail(t->b, m, "read directory",
					  rel_dir(t, d, p, sizeof(p)), e);
		}
		while (rc == 0) {
			errno = 0;
			de = readdir(dir);
			if (de == NULL) {
				if (errno != 0)
					rc = bench_fail(t->b, m,
							"read directory",
							rel_dir(t, d, p,
								sizeof(p)),
							errno);
				break;
			}
			i = name_index(t, de->d_name);
			if (i == UINT64_MAX || !t->exists[i])
				continue;
			if (unlink) {
				if (unlinkat(dfd, t->names[i], 0) != 0) {
					rc = fail_file(t, m, "remove", i,
						       errno);
					break;
				}
				t->exists[i] = 0;
				if (t->b->o->fsync_each &&
				    bench_fsync(t->b, dfd) != 0) {
					rc = fail_file(t, m, "fsync", i, errno);
					break;
				}
			} else {
				rc = stat_one(t, m, dfd, i);
				if (rc < 0)
					break;
			}
			seen++;
			bench_op(t->b, &h, &prev, seen);
			rc = bench_stopped(t->b);
		}
		closedir(dir);
	}
	if (rc < 0)
		return rc;
	if (seen != t->n)
		return bs_error(t->b->err, BS_EIO,
				"%s: found %llu of the %llu files in '%s/%s'",
				unlink ? "sequential delete"
				       : "sequential stat",
				(unsigned long long)seen,
				(unsigned long long)t->n, t->b->scratch.path,
				BENCH_FILES_NAME);
	return end_pass(t, m, unlink, &sp, &h);
}

/* Random stat (unlink == 0) or delete: the files in a shuffled order. */
static int shuffled_test(struct ftest *t, enum bs_metric m, int unlink)
{
	struct bs_hist h;
	struct bs_span sp;
	uint64_t k, i, prev;
	int rc;

	shuffle(t);
	bs_hist_init(&h);
	bench_begin(t->b, m, t->n);
	bs_span_start(&sp);
	prev = sp.t0_ns;
	for (k = 0; k < t->n; k++) {
		int dfd;

		i = t->order[k];
		dfd = dir_fd(t, i);
		if (unlink) {
			if (unlinkat(dfd, t->names[i], 0) != 0)
				return fail_file(t, m, "remove", i, errno);
			t->exists[i] = 0;
			if (t->b->o->fsync_each && bench_fsync(t->b, dfd) != 0)
				return fail_file(t, m, "fsync", i, errno);
		} else {
			rc = stat_one(t, m, dfd, i);
			if (rc < 0)
				return rc;
		}
		bench_op(t->b, &h, &prev, k + 1);
		rc = bench_stopped(t->b);
		if (rc < 0)
			return rc;
	}
	return end_pass(t, m, unlink, &sp, &h);
}

static int phase(struct ftest *t, int random)
{
	enum bs_metric mc = random ? BS_M_RAN_CREATE : BS_M_SEQ_CREATE;
	enum bs_metric ms = random ? BS_M_RAN_STAT : BS_M_SEQ_STAT;
	enum bs_metric md = random ? BS_M_RAN_DEL : BS_M_SEQ_DEL;
	uint32_t d;
	int rc;

	t->random = random;
	for (d = 0; t->dirs > 1 && d < t->dirs; d++)
		t->sub[d] = -1;
	t->b->cur = mc;
	make_names(t);
	rc = make_dirs(t);
	if (rc == 0)
		rc = create_test(t, mc);
	if (rc == 0)
		rc = random ? shuffled_test(t, ms, 0) : walk_test(t, ms, 0);
	if (rc == 0)
		rc = random ? shuffled_test(t, md, 1) : walk_test(t, md, 1);
	if (rc < 0)
		cleanup(t);
	return rc;
}

int bench_file_tests(struct bench *b)
{
	struct ftest t;
	int rc;

	memset(&t, 0, sizeof(t));
	t.b = b;
	t.n = (uint64_t)b->o->p.num_files * 1024;
	t.dirs = (uint32_t)b->o->p.num_dirs;
	t.top = -1;
	t.sub = t.dirs > 1 ? xcalloc(t.dirs, sizeof(*t.sub)) : NULL;
	t.names = xcalloc(t.n, sizeof(*t.names));
	t.dir_of = xcalloc(t.n, sizeof(*t.dir_of));
	t.exists = xcalloc(t.n, sizeof(*t.exists));
	t.order = xcalloc(t.n, sizeof(*t.order));

	rc = phase(&t, 0);
	if (rc == 0)
		rc = phase(&t, 1);

	free(t.sub);
	free(t.names);
	free(t.dir_of);
	free(t.exists);
	free(t.order);
	return rc;
}
