/*
 * core/fileio.c - the three steps of `bstore fileio` (prepare, run,
 * cleanup) as sysbench 1.0.20's fileio test does them (core/fileio.h).
 */
#define _GNU_SOURCE /* O_DIRECT */
#include "core/fileio.h"
#include "core/fileio_aio.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/hash.h"
#include "util/mem.h"
#include "util/banned.h"

#define TICK_NS 250000000ull /* progress at most this often */
#define POLL_NS 20000000ull  /* the main thread looks this often */
#define NAME_MAX_LEN 32
#define TRAILER 16 /* --validate: offset and hash per block */

static void file_name(char *buf, size_t size, uint64_t i)
{
	snprintf(buf, size, "test_file.%llu", (unsigned long long)i);
}

void bs_fileio_file_name(char *buf, size_t size, uint64_t i)
{
	file_name(buf, size, i);
}

static int open_flags(const struct bs_fileio_opts *o)
{
	int f = 0;

	if (o->extra_flags & BS_FILEIO_F_SYNC)
		f |= O_SYNC;
	if (o->extra_flags & BS_FILEIO_F_DSYNC)
		f |= O_DSYNC;
	if (o->extra_flags & BS_FILEIO_F_DIRECT)
		f |= O_DIRECT;
	return f;
}

/* splitmix64 */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double rnd_unit(uint64_t *s)
{
	return (double)(rnd(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* A block's checksum (FNV-1a, 64 bits): enough to catch a wrong block. */
static uint64_t hash(const unsigned char *p, size_t n)
{
	return bs_hash_fnv64(BS_FNV64_BASIS, p, n);
}

/* --validate: new contents, then the offset and the hash at the end. */
static void fill_block(unsigned char *b, size_t n, uint64_t pos, uint64_t *s)
{
	size_t i;
	uint64_t h;

	for (i = 0; i + 8 <= n - TRAILER; i += 8) {
		uint64_t x = rnd(s);

		memcpy(b + i, &x, 8);
	}
	for (; i < n - TRAILER; i++)
		b[i] = (unsigned char)rnd(s);
	memcpy(b + n - TRAILER, &pos, 8);
	h = hash(b, n - TRAILER);
	memcpy(b + n - 8, &h, 8);
}

static int check_block(const unsigned char *b, size_t n, uint64_t pos)
{
	uint64_t p, h;

	memcpy(&p, b + n - TRAILER, 8);
	memcpy(&h, b + n - 8, 8);
	return p == pos && h == hash(b, n - TRAILER);
}

/* --validate on a request of whole blocks (merged ones are several):
 * the offset of the first bad block, or UINT64_MAX. */
static uint64_t check_req(const unsigned char *b, uint64_t size, uint64_t pos,
			  uint64_t bs)
{
	uint64_t k;

	for (k = 0; k < size; k += bs)
		if (!check_block(b + k, (size_t)bs, pos + k))
			return pos + k;
	return UINT64_MAX;
}

static void fill_req(unsigned char *b, uint64_t size, uint64_t pos, uint64_t bs,
		     uint64_t *s)
{
	uint64_t k;

	for (k = 0; k < size; k += bs)
		fill_block(b + k, (size_t)bs, pos + k, s);
}

static void *alloc_buf(size_t n, uint64_t *seed)
{
	unsigned char *b;
	size_t i;

	if (posix_memalign((void **)&b, 4096, n < 4096 ? 4096 : n) != 0)
		BS_BUG("out of memory");
	/* Data that neither compresses nor deduplicates. */
	for (i = 0; i < n; i++)
		b[i] = (unsigned char)rnd(seed);
	return b;
}

/* Opens (creating with create) file i of d. */
static int dir_open(const struct bs_fileio_dir *d, const char *name, int flags,
		    int create, struct bs_err *err)
{
	int fd;

	if (d->scratch) {
		if (create)
			return bs_scratch_create(d->scratch, name, flags, err);
		return bs_scratch_reopen(d->scratch, name, flags, err);
	}
	fd = openat(d->fd, name,
		    flags | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0),
		    0600);
	if (fd < 0)
		return bs_error(err, BS_EIO, "cannot open '%s/%s': %s%s",
				d->path, name, strerror(errno),
				errno == ENOENT
					? " (run 'bstore fileio prepare' "
					  "first, with the same --file-num "
					  "and --file-total-size)"
					: "");
	return fd;
}

static int dir_remove(const struct bs_fileio_dir *d, const char *name,
		      struct bs_err *err)
{
	if (d->scratch)
		return bs_scratch_remove(d->scratch, name, 0, err);
	if (unlinkat(d->fd, name, 0) != 0 && errno != ENOENT)
		return bs_error(err, BS_EIO, "cannot remove '%s/%s': %s",
				d->path, name, strerror(errno));
	return 0;
}

static int stopped(struct bs_err *err)
{
	int sig = bs_signal_pending();

	if (!sig)
		return 0;
	return bs_error(err, BS_EINTR, "interrupted by signal %d", sig);
}

static void mib_text(char *buf, size_t size, uint64_t bytes)
{
	snprintf(buf, size, "%.1f MiB", (double)bytes / 1048576.0);
}

static int write_fail(const struct bs_fileio_dir *d, const char *name,
		      uint64_t pos, int e, uint64_t file_done,
		      uint64_t all_done, struct bs_err *err)
{
	char a[48], b[32];

	if (e == EINTR && bs_signal_pending())
		return stopped(err);
	mib_text(a, sizeof(a), file_done);
	mib_text(b, sizeof(b), all_done);
	if (file_done == UINT64_MAX)
		snprintf(a, sizeof(a), "this run wrote");
	else
		snprintf(a + strlen(a), sizeof(a) - strlen(a),
			 " of it written,");
	return bs_error(err, BS_EIO,
			"cannot write '%s/%s' at offset %llu: %s (%s %s in "
			"all)%s",
			d->path, name, (unsigned long long)pos, strerror(e), a,
			b,
			e == EINVAL ? "; with --file-extra-flags=direct the "
				      "block size must suit O_DIRECT"
				    : "");
}

/* ---- prepare and cleanup ---- */

int bs_fileio_prepare(const struct bs_fileio_opts *o,
		      const struct bs_fileio_dir *d,
		      const struct bs_fileio_cb *cb, struct bs_err *err)
{
	const uint64_t fsize = bs_fileio_file_size(o);
	const uint64_t bs = o->block_size;
	const uint64_t per_file = (fsize + bs - 1) / bs * bs;
	uint64_t seed = 0x243f6a8885a308d3ull ^ o->rand_seed;
	unsigned long long bfree = 0, ifree;
	uint64_t need = 0, total = 0, written = 0, i, last_tick;
	unsigned char *buf = NULL;
	char name[NAME_MAX_LEN], line[96];
	struct stat sb;
	int fd = -1, rc = 0;
	uint64_t t0;

	if (o->mode == BS_FILEIO_SEQWR)
		return bs_fileio_cleanup(o, d, err);
	/* What is missing, to say so before writing any of it. */
	for (i = 0; i < o->file_num; i++) {
		int dfd = d->scratch ? d->scratch->fd : d->fd;

		file_name(name, sizeof(name), i);
		if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(sb.st_mode))
			sb.st_size = 0;
		if ((uint64_t)sb.st_size < fsize)
			need += per_file - (uint64_t)sb.st_size / bs * bs;
	}
	total = need;
	if (bs_scratch_space(d->scratch ? d->scratch->path : d->path, &bfree,
			     &ifree, err) < 0)
		return -BS_EIO;
	if (need > bfree)
		return bs_error(err, BS_EIO,
				"not enough free space in '%s': the files need "
				"%llu MiB more, %llu MiB are free",
				d->path, (unsigned long long)(need >> 20),
				bfree >> 20);
	buf = alloc_buf((size_t)bs, &seed);
	t0 = last_tick = bs_now_ns();
	for (i = 0; i < o->file_num && rc == 0; i++) {
		uint64_t off, mine = 0;

		file_name(name, sizeof(name), i);
		fd = dir_open(d, name, O_WRONLY | open_flags(o), 1, err);
		if (fd < 0) {
			rc = fd;
			break;
		}
		off = (uint64_t)lseek(fd, 0, SEEK_END);
		snprintf(line, sizeof(line), "%s file %s",
			 off >= fsize ? "Reusing existing"
			 : off > 0    ? "Extending existing"
				      : "Creating",
			 name);
		if (cb && cb->line)
			cb->line(line, cb->ctx);
		for (; off < fsize; off += bs) {
			ssize_t n;

			if (o->validate)
				fill_block(buf, (size_t)bs, off, &seed);
			n = write(fd, buf, (size_t)bs);
			if (n != (ssize_t)bs) {
				rc = write_fail(d, name, off,
						n < 0 ? errno : ENOSPC, mine,
						written, err);
				break;
			}
			mine += bs;
			written += bs;
			if ((rc = stopped(err)) < 0)
				break;
			if (cb && cb->progress &&
			    bs_now_ns() - last_tick >= TICK_NS) {
				last_tick = bs_now_ns();
				cb->progress((double)(last_tick - t0) / 1e9,
					     written, total, cb->ctx);
			}
		}
		/* As sysbench: so that the run does not pay for it. */
		if (rc == 0 && fsync(fd) != 0)
			rc = bs_error(err, BS_EIO, "cannot fsync '%s/%s': %s",
				      d->path, name, strerror(errno));
		close(fd);
	}
	if (rc == 0 && cb && cb->line) {
		double s = (double)(bs_now_ns() - t0) / 1e9;

		if (written > 0)
			snprintf(line, sizeof(line),
				 "%llu bytes written in %.2f seconds (%.2f "
				 "MiB/sec).",
				 (unsigned long long)written, s,
				 s > 0 ? (double)written / 1048576.0 / s : 0);
		else
			snprintf(line, sizeof(line), "No bytes written.");
		cb->line(line, cb->ctx);
	}
	free(buf);
	return rc;
}

int bs_fileio_cleanup(const struct bs_fileio_opts *o,
		      const struct bs_fileio_dir *d, struct bs_err *err)
{
	char name[NAME_MAX_LEN];
	uint64_t i;
	int rc = 0;

	for (i = 0; i < o->file_num; i++) {
		file_name(name, sizeof(name), i);
		if (dir_remove(d, name, err) < 0 && rc == 0)
			rc = -BS_EIO;
	}
	return rc;
}

/* ---- run ---- */

enum op { OP_READ, OP_WRITE, OP_FSYNC };

struct req {
	enum op op;
	uint64_t file, pos, size;
};

struct fio;

struct worker {
	struct fio *f;
	pthread_t tid;
	unsigned id;
	int started;
	unsigned char *buf;
	uint64_t rng;
	uint64_t cur; /* --validate: offset in all files + 1 */
	uint64_t reads, writes, fsyncs, events;
	double exec_s;
	struct bs_hist hist;
	struct bs_fileio_hist sbhist;
	struct bs_aio aio; /* --file-io-mode=async */
	pthread_mutex_t iv_lock;
	struct bs_hist iv_hist;
};

struct fio {
	const struct bs_fileio_opts *o;
	const struct bs_fileio_dir *d;
	uint64_t fsize;
	uint64_t span;     /* fsize * file_num */
	uint64_t req_size; /* the block, or merged blocks (seq) */
	int async;
	struct worker *w; /* all of them, n */
	unsigned n;
	int *fds;
	unsigned char **maps;
	/* The request generator's state, as sysbench keeps it. */
	pthread_mutex_t lock;
	uint64_t position, current_file, fsynced_file, req_performed;
	int is_dirty;
	/* Shared. */
	atomic_int stop;
	atomic_uint running;
	atomic_uint_fast64_t issued;
	atomic_uint_fast64_t bytes_read, bytes_written, fsyncs, events;
	atomic_uint_fast64_t reads, writes; /* done, for rndrw */
	uint64_t deadline_ns;               /* 0: none */
	pthread_mutex_t err_lock;
	struct bs_err *err;
	int failed;
};

static void fail(struct fio *f, int e, const char *what, uint64_t file,
		 uint64_t pos)
{
	char name[NAME_MAX_LEN];

	file_name(name, sizeof(name), file);
	pthread_mutex_lock(&f->err_lock);
	if (!f->failed) {
		f->failed = 1;
		if (e == ENOSPC || e == EDQUOT || !strcmp(what, "write"))
			write_fail(f->d, name, pos, e, UINT64_MAX,
				   (uint64_t)atomic_load(&f->bytes_written),
				   f->err);
		else
			bs_error(f->err, BS_EIO,
				 "cannot %s '%s/%s' at offset %llu: %s", what,
				 f->d->path, name, (unsigned long long)pos,
				 strerror(e));
	}
	pthread_mutex_unlock(&f->err_lock);
	atomic_store(&f->stop, 1);
}

/* A position in [0, 1) by --rand-type. */
static double rand_pos(const struct bs_fileio_opts *o, uint64_t *s)
{
	double u, x, hot;
	int k;

	switch (o->rand_type) {
	case BS_FILEIO_RAND_GAUSSIAN:
		/* sysbench's: the mean of 12 uniform numbers. */
		for (x = 0, k = 0; k < 12; k++)
			x += rnd_unit(s);
		return x / 12;
	case BS_FILEIO_RAND_SPECIAL:
		/* rand-spec-res % of the requests go to the first
		 * rand-spec-pct % of the blocks. */
		hot = (double)o->rand_spec_pct / 100.0;
		u = rnd_unit(s);
		if (rnd(s) % 100 < o->rand_spec_res)
			return u * hot;
		return hot + u * (1 - hot);
	case BS_FILEIO_RAND_PARETO:
		return pow(rnd_unit(s),
			   log(o->rand_pareto_h) / log(1 - o->rand_pareto_h)) *
		       0.999999999;
	default:
		return rnd_unit(s);
	}
}

/* The next request of worker w, as sysbench's generators make it. */
static void next_req(struct worker *w, struct req *q)
{
	struct fio *f = w->f;
	const struct bs_fileio_opts *o = f->o;
	int seq = o->mode <= BS_FILEIO_SEQRD;
	enum op op;

	pthread_mutex_lock(&f->lock);
	/* sysbench 1.0.20 weighs all threads' reads and writes done (its
	 * global read_ops and write_ops, under its lock; 1.1 weighs the
	 * thread's own): in async mode, those completed. */
	if (seq)
		op = o->mode == BS_FILEIO_SEQRD ? OP_READ : OP_WRITE;
	else if (o->mode == BS_FILEIO_RNDRW)
		op = ((double)atomic_load(&f->reads) +
		      1.0) / ((double)atomic_load(&f->writes) + 1.0) <
				     o->rw_ratio
			     ? OP_READ
			     : OP_WRITE;
	else
		op = o->mode == BS_FILEIO_RNDRD ? OP_READ : OP_WRITE;
	if (o->fsync_freq != 0 && f->is_dirty && (!seq || op == OP_WRITE) &&
	    f->req_performed % o->fsync_freq == 0) {
		q->op = OP_FSYNC;
		q->file = f->fsynced_file++;
		q->pos = q->size = 0;
		if (f->fsynced_file == o->file_num) {
			f->fsynced_file = 0;
			f->is_dirty = 0;
		}
		pthread_mutex_unlock(&f->lock);
		return;
	}
	f->req_performed++;
	if (op == OP_WRITE)
		f->is_dirty = 1;
	q->op = op;
	if (seq) {
		if (f->current_file == o->file_num) {
			f->position = 0;
			f->current_file = 0;
		}
		q->file = f->current_file;
		q->pos = f->position;
		q->size = f->fsize - f->position < f->req_size
				  ? f->fsize - f->position
				  : f->req_size;
		f->position += q->size;
		if (f->position == f->fsize) {
			f->current_file++;
			f->position = 0;
		}
		pthread_mutex_unlock(&f->lock);
		return;
	}
	/* --validate: as sysbench, never a block another thread is using
	 * (its read would see a write half done); chosen under the lock. */
	if (!o->validate)
		pthread_mutex_unlock(&f->lock);
	{
		uint64_t p;
		unsigned j, tries = 0;

	again:
		p = (uint64_t)(rand_pos(o, &w->rng) * (double)f->span);
		if (p >= f->span)
			p = f->span - 1;
		p -= p % o->block_size;
		if (o->validate) {
			for (j = 0; j < f->n; j++)
				if (j != w->id && f->w[j].cur == p + 1 &&
				    ++tries < 1000)
					goto again;
			w->cur = p + 1;
			pthread_mutex_unlock(&f->lock);
		}
		q->file = p / f->fsize;
		q->pos = p % f->fsize;
		q->size = f->fsize - q->pos < o->block_size ? f->fsize - q->pos
							    : o->block_size;
	}
}

static int do_fsync(struct fio *f, struct worker *w, uint64_t file)
{
	int rc;

	if (f->maps)
		rc = msync(f->maps[file], (size_t)f->fsize, MS_SYNC);
	else if (f->o->fsync_mode == BS_FILEIO_FDATASYNC)
		rc = fdatasync(f->fds[file]);
	else
		rc = fsync(f->fds[file]);
	if (rc != 0) {
		fail(f, errno, "fsync", file, 0);
		return -1;
	}
	w->fsyncs++;
	atomic_fetch_add_explicit(&f->fsyncs, 1, memory_order_relaxed);
	return 0;
}

/* A read or write done: the thread's count and the run's. */
static void counted(struct worker *w, int write, uint64_t len)
{
	struct fio *f = w->f;

	if (write) {
		w->writes++;
		atomic_fetch_add_explicit(&f->writes, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&f->bytes_written, len,
					  memory_order_relaxed);
	} else {
		w->reads++;
		atomic_fetch_add_explicit(&f->reads, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&f->bytes_read, len,
					  memory_order_relaxed);
	}
}

/* An async request's completion: counted then, as sysbench counts it. */
static int aio_done(const struct bs_aio_op *op, int64_t res, void *ctx)
{
	struct worker *w = ctx;
	struct fio *f = w->f;

	if (res != (int64_t)op->len) {
		fail(f,
		     res < 0     ? (int)-res
		     : op->write ? ENOSPC
				 : EIO,
		     op->write ? "write" : "read", op->file, op->pos);
		return -EIO;
	}
	counted(w, op->write, op->len);
	return 0;
}

/* Submits q (and maybe takes completions): its latency is this call's,
 * as sysbench's (file_submit_or_wait in its event). */
static int submit(struct fio *f, struct worker *w, const struct req *q)
{
	struct bs_aio_op op;
	int rc;

	op.write = q->op == OP_WRITE;
	op.file = q->file;
	op.pos = q->pos;
	op.len = q->size;
	rc = bs_aio_submit(&w->aio, f->fds[q->file], w->buf, &op, aio_done, w);
	if (rc < 0 && !f->failed)
		fail(f, -rc,
		     op.write ? "submit an asynchronous write to"
			      : "submit an asynchronous read of",
		     q->file, q->pos);
	return rc < 0 ? -1 : 0;
}

static int do_read(struct fio *f, struct worker *w, const struct req *q)
{
	uint64_t done = 0, bad;
	ssize_t n;

	if (f->async)
		return submit(f, w, q);
	if (f->maps) {
		memcpy(w->buf, f->maps[q->file] + q->pos, (size_t)q->size);
	} else {
		while (done < q->size) {
			n = pread(f->fds[q->file], w->buf + done,
				  (size_t)(q->size - done),
				  (off_t)(q->pos + done));
			if (n < 0 && errno == EINTR && !bs_signal_pending())
				continue;
			if (n <= 0) {
				fail(f, n < 0 ? errno : EIO, "read", q->file,
				     q->pos);
				return -1;
			}
			done += (uint64_t)n;
		}
	}
	if (f->o->validate &&
	    (bad = check_req(w->buf, q->size, q->pos, f->o->block_size)) !=
		    UINT64_MAX) {
		char name[NAME_MAX_LEN];

		file_name(name, sizeof(name), q->file);
		pthread_mutex_lock(&f->err_lock);
		if (!f->failed) {
			f->failed = 1;
			bs_error(f->err, BS_EIO,
				 "validation failed on '%s/%s', block at "
				 "offset %llu",
				 f->d->path, name, (unsigned long long)bad);
		}
		pthread_mutex_unlock(&f->err_lock);
		atomic_store(&f->stop, 1);
		return -1;
	}
	counted(w, 0, q->size);
	return 0;
}

static int do_write(struct fio *f, struct worker *w, const struct req *q)
{
	uint64_t done = 0;
	ssize_t n;

	if (f->o->validate)
		fill_req(w->buf, q->size, q->pos, f->o->block_size, &w->rng);
	if (f->async) {
		if (submit(f, w, q) < 0)
			return -1;
		return f->o->fsync_all ? do_fsync(f, w, q->file) : 0;
	}
	if (f->maps) {
		memcpy(f->maps[q->file] + q->pos, w->buf, (size_t)q->size);
	} else {
		while (done < q->size) {
			n = pwrite(f->fds[q->file], w->buf + done,
				   (size_t)(q->size - done),
				   (off_t)(q->pos + done));
			if (n < 0 && errno == EINTR && !bs_signal_pending())
				continue;
			if (n <= 0) {
				fail(f, n < 0 ? errno : ENOSPC, "write",
				     q->file, q->pos + done);
				return -1;
			}
			done += (uint64_t)n;
		}
	}
	counted(w, 1, q->size);
	if (f->o->fsync_all)
		return do_fsync(f, w, q->file);
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fio *f = w->f;
	const struct bs_fileio_opts *o = f->o;
	struct req q;
	uint64_t t0, t1, i;
	int rc;

	while (!atomic_load_explicit(&f->stop, memory_order_relaxed)) {
		if (o->events && atomic_fetch_add(&f->issued, 1) >= o->events)
			break;
		if (f->deadline_ns && bs_now_ns() >= f->deadline_ns)
			break;
		next_req(w, &q);
		/* As sysbench: an event's time is its execution, not the
		 * wait for the generator's lock. */
		t0 = bs_now_ns();
		switch (q.op) {
		case OP_READ:
			rc = do_read(f, w, &q);
			break;
		case OP_WRITE:
			rc = do_write(f, w, &q);
			break;
		default:
			rc = do_fsync(f, w, q.file);
			break;
		}
		if (rc < 0)
			break;
		t1 = bs_now_ns();
		bs_hist_add(&w->hist, t1 - t0);
		bs_fileio_hist_add(&w->sbhist, t1 - t0);
		pthread_mutex_lock(&w->iv_lock);
		bs_hist_add(&w->iv_hist, t1 - t0);
		pthread_mutex_unlock(&w->iv_lock);
		w->exec_s += (double)(t1 - t0) / 1e9;
		w->events++;
		atomic_fetch_add_explicit(&f->events, 1, memory_order_relaxed);
	}
	/* sysbench's file_thread_done: every thread syncs every file. */
	if (!atomic_load(&f->stop) && o->fsync_end &&
	    o->mode != BS_FILEIO_SEQRD && o->mode != BS_FILEIO_RNDRD)
		for (i = 0; i < o->file_num && !atomic_load(&f->stop); i++)
			do_fsync(f, w, i);
	/* Then, as sysbench, what is still in flight completes. */
	if (f->async && !atomic_load(&f->stop))
		bs_aio_drain(&w->aio, 0, aio_done, w);
	atomic_fetch_sub(&f->running, 1);
	return NULL;
}

static int open_files(struct fio *f, struct bs_err *err)
{
	const struct bs_fileio_opts *o = f->o;
	char name[NAME_MAX_LEN], a[24], b[24];
	struct stat sb;
	uint64_t i;
	int fd;

	f->fds = xmalloc((size_t)o->file_num * sizeof(*f->fds));
	for (i = 0; i < o->file_num; i++)
		f->fds[i] = -1;
	for (i = 0; i < o->file_num; i++) {
		file_name(name, sizeof(name), i);
		if (o->mode == BS_FILEIO_SEQWR) {
			/* sysbench's run makes the files afresh. */
			if (dir_remove(f->d, name, err) < 0)
				return -BS_EIO;
			fd = dir_open(f->d, name, O_RDWR | open_flags(o), 1,
				      err);
		} else {
			fd = dir_open(f->d, name, O_RDWR | open_flags(o), 0,
				      err);
		}
		if (fd < 0)
			return fd;
		f->fds[i] = fd;
		if (o->mode == BS_FILEIO_SEQWR)
			continue;
		if (fstat(fd, &sb) != 0)
			return bs_error(err, BS_EIO, "cannot stat '%s/%s': %s",
					f->d->path, name, strerror(errno));
		if ((uint64_t)sb.st_size < f->fsize) {
			snprintf(a, sizeof(a), "%llu",
				 (unsigned long long)sb.st_size);
			snprintf(b, sizeof(b), "%llu",
				 (unsigned long long)f->fsize);
			return bs_error(err, BS_EIO,
					"file '%s/%s' has %s bytes, but at "
					"least %s are expected: run 'bstore "
					"fileio prepare' with the same "
					"--file-total-size and --file-num",
					f->d->path, name, a, b);
		}
	}
	if (o->io_mode != BS_FILEIO_IO_MMAP)
		return 0;
	f->maps = xcalloc((size_t)o->file_num, sizeof(*f->maps));
	for (i = 0; i < o->file_num; i++) {
		void *m;

		file_name(name, sizeof(name), i);
		/* A new seqwr file has no pages to map yet. */
		if (o->mode == BS_FILEIO_SEQWR &&
		    ftruncate(f->fds[i], (off_t)f->fsize) != 0)
			return bs_error(err, BS_EIO,
					"cannot extend '%s/%s': %s", f->d->path,
					name, strerror(errno));
		m = mmap(NULL, (size_t)f->fsize, PROT_READ | PROT_WRITE,
			 MAP_SHARED, f->fds[i], 0);
		if (m == MAP_FAILED)
			return bs_error(err, BS_EIO, "cannot mmap '%s/%s': %s",
					f->d->path, name, strerror(errno));
		f->maps[i] = m;
	}
	return 0;
}

static void close_files(struct fio *f)
{
	uint64_t i;

	for (i = 0; f->maps && i < f->o->file_num; i++)
		if (f->maps[i])
			munmap(f->maps[i], (size_t)f->fsize);
	for (i = 0; f->fds && i < f->o->file_num; i++)
		if (f->fds[i] >= 0)
			close(f->fds[i]);
	free(f->maps);
	free(f->fds);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / 1000000000ull);
	ts.tv_nsec = (long)(ns % 1000000000ull);
	nanosleep(&ts, NULL);
}

/* One --report-interval row from the counters since the last one. */
static void interval(struct fio *f, struct worker *w, unsigned n,
		     uint64_t *last, double t_s, double dt_s,
		     const struct bs_fileio_cb *cb,
		     struct bs_fileio_result *res)
{
	struct bs_fileio_interval iv;
	struct bs_hist h;
	uint64_t now[3];
	unsigned i;

	now[0] = atomic_load(&f->bytes_read);
	now[1] = atomic_load(&f->bytes_written);
	now[2] = atomic_load(&f->fsyncs);
	bs_hist_init(&h);
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&w[i].iv_lock);
		bs_hist_merge(&h, &w[i].iv_hist);
		bs_hist_init(&w[i].iv_hist);
		pthread_mutex_unlock(&w[i].iv_lock);
	}
	iv.t_s = t_s;
	iv.read_mib_s = (double)(now[0] - last[0]) / 1048576.0 / dt_s;
	iv.written_mib_s = (double)(now[1] - last[1]) / 1048576.0 / dt_s;
	iv.fsyncs_per_s = (double)(now[2] - last[2]) / dt_s;
	iv.lat_pct_ms =
		f->o->percentile && h.count
			? bs_hist_quantile_us(&h,
					      (double)f->o->percentile / 100) /
				  1000
			: NAN;
	memcpy(last, now, sizeof(now));
	xgrow((void **)&res->iv, &res->iv_cap, res->niv + 1, sizeof(*res->iv));
	res->iv[res->niv++] = iv;
	if (cb && cb->interval)
		cb->interval(&iv, cb->ctx);
}

static void stats(struct worker *w, unsigned n, struct bs_fileio_result *res)
{
	double se = 0, st = 0;
	unsigned i;

	bs_hist_init(&res->hist);
	memset(&res->sbhist, 0, sizeof(res->sbhist));
	for (i = 0; i < n; i++) {
		bs_hist_merge(&res->hist, &w[i].hist);
		bs_fileio_hist_merge(&res->sbhist, &w[i].sbhist);
		res->reads += w[i].reads;
		res->writes += w[i].writes;
		res->fsyncs += w[i].fsyncs;
		res->events += w[i].events;
		res->exec_avg_s += w[i].exec_s / n;
	}
	res->events_avg = (double)res->events / n;
	for (i = 0; i < n; i++) {
		se += pow((double)w[i].events - res->events_avg, 2);
		st += pow(w[i].exec_s - res->exec_avg_s, 2);
	}
	res->events_stddev = sqrt(se / n);
	res->exec_stddev_s = sqrt(st / n);
}

/* io_setup refused: why, in the user's words. */
static int aio_refused(const struct bs_fileio_opts *o, int e,
		       struct bs_err *err)
{
	const char *why = "";

	if (e == ENOSYS)
		why = " (this kernel has no Linux native AIO)";
	else if (e == EPERM)
		why = " (native AIO is turned off: sysctl fs.aio-max-nr, or "
		      "a seccomp filter)";
	else if (e == EAGAIN)
		why = " (more requests than the system allows: sysctl "
		      "fs.aio-max-nr; lower --file-async-backlog or "
		      "--threads)";
	return bs_error(err, BS_EIO,
			"--file-io-mode=async: cannot set up Linux native AIO "
			"for %llu requests a thread (io_setup): %s%s; use "
			"--file-io-mode=sync or mmap",
			(unsigned long long)o->async_backlog, strerror(e), why);
}

void bs_fileio_result_release(struct bs_fileio_result *res)
{
	free(res->iv);
	memset(res, 0, sizeof(*res));
}

int bs_fileio_run(const struct bs_fileio_opts *o, const struct bs_fileio_dir *d,
		  const struct bs_fileio_cb *cb, struct bs_fileio_result *res,
		  struct bs_err *err)
{
	struct fio f;
	struct worker *w = NULL;
	uint64_t t0, now, next_tick, next_iv = 0, last[3] = {0, 0, 0};
	uint64_t iv_ns = o->report_interval_s * 1000000000ull, seed;
	double last_iv_s = 0;
	unsigned i, n = (unsigned)o->threads;
	int rc;

	memset(res, 0, sizeof(*res));
	rc = bs_fileio_check(o, 1, err);
	if (rc < 0)
		return rc;
	seed = o->rand_seed ? o->rand_seed
			    : (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20;
	res->seed = seed;
	memset(&f, 0, sizeof(f));
	f.o = o;
	f.d = d;
	f.err = err;
	f.fsize = bs_fileio_file_size(o);
	f.span = f.fsize * o->file_num;
	f.req_size = bs_fileio_request_size(o);
	f.async = o->io_mode == BS_FILEIO_IO_ASYNC;
	pthread_mutex_init(&f.lock, NULL);
	pthread_mutex_init(&f.err_lock, NULL);
	rc = open_files(&f, err);
	if (rc < 0)
		goto out;
	w = xcalloc(n, sizeof(*w));
	f.w = w;
	f.n = n;
	for (i = 0; i < n; i++) {
		w[i].f = &f;
		w[i].id = i;
		w[i].rng = seed * 0x9e3779b97f4a7c15ull + i + 1;
		w[i].buf = alloc_buf((size_t)f.req_size, &w[i].rng);
		bs_hist_init(&w[i].hist);
		bs_hist_init(&w[i].iv_hist);
		pthread_mutex_init(&w[i].iv_lock, NULL);
	}
	for (i = 0; f.async && i < n; i++) {
		rc = bs_aio_open(&w[i].aio, (unsigned)o->async_backlog);
		if (rc < 0) {
			rc = aio_refused(o, -rc, err);
			goto out;
		}
	}
	t0 = bs_now_ns();
	f.deadline_ns = o->time_s ? t0 + o->time_s * 1000000000ull : 0;
	next_tick = t0 + TICK_NS;
	if (iv_ns)
		next_iv = t0 + iv_ns;
	atomic_store(&f.running, n);
	for (i = 0; i < n; i++) {
		if (pthread_create(&w[i].tid, NULL, worker_main, &w[i]) != 0) {
			atomic_store(&f.stop, 1);
			atomic_fetch_sub(&f.running, n - i);
			rc = bs_error(err, BS_EIO, "cannot start thread %u",
				      i + 1);
			break;
		}
		w[i].started = 1;
	}
	while (atomic_load(&f.running) > 0) {
		now = bs_now_ns();
		if (bs_signal_pending())
			atomic_store(&f.stop, 1);
		if (next_iv && now >= next_iv && !atomic_load(&f.stop)) {
			double t = (double)(next_iv - t0) / 1e9;

			interval(&f, w, n, last, t, t - last_iv_s, cb, res);
			last_iv_s = t;
			next_iv += iv_ns;
		}
		if (now >= next_tick) {
			if (cb && cb->progress)
				cb->progress((double)(now - t0) / 1e9,
					     atomic_load(&f.events), o->events,
					     cb->ctx);
			next_tick = now + TICK_NS;
		}
		sleep_ns(POLL_NS);
	}
	for (i = 0; i < n; i++)
		if (w[i].started)
			pthread_join(w[i].tid, NULL);
	/* A failed thread leaves requests in flight: io_destroy waits for
	 * them, before their buffers go. */
	for (i = 0; f.async && i < n; i++)
		bs_aio_close(&w[i].aio);
	res->time_s = (double)(bs_now_ns() - t0) / 1e9;
	res->bytes_read = atomic_load(&f.bytes_read);
	res->bytes_written = atomic_load(&f.bytes_written);
	stats(w, n, res);
	if (rc == 0 && f.failed)
		rc = -BS_EIO;
	if (rc == 0)
		rc = stopped(err);
out:
	close_files(&f);
	for (i = 0; w && i < n; i++) {
		bs_aio_close(&w[i].aio);
		free(w[i].buf);
		pthread_mutex_destroy(&w[i].iv_lock);
	}
	free(w);
	pthread_mutex_destroy(&f.lock);
	pthread_mutex_destroy(&f.err_lock);
	return rc;
}
