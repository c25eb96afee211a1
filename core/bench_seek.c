/*
 * core/bench_seek.c - the random seek test.
 *
 * As in bonnie++ 2.00a: seek_procs threads (default 5) take `seeks`
 * tickets from a pipe that the main thread fills, 4 bytes each, then one
 * end marker per thread. Ticket i seeks to the chunk at a random position
 * (a stateless hash of the seed and i, uniform over the file's chunks)
 * and reads it; every tenth ticket (i % 10 == 0) also changes a byte,
 * seeks back and writes the chunk. Each thread has its own descriptor and
 * fsyncs it when its tickets run out, inside the timing, as bonnie++'s
 * close does.
 *
 * The pipe is kept on purpose: reading a ticket costs a system call and
 * contention between the threads, which bonnie++'s rates include on fast
 * storage; the archive's old results should compare with new ones.
 *
 * Elapsed time runs from the first ticket written to the last thread
 * finishing, and includes deleting the I/O file, as in bonnie++ (which
 * first sleeps 3 s outside the timing; bstore does not). CPU is the
 * process's user+system time over that span, counted
 * once: bonnie++ adds each thread's view of the whole process, so its
 * %CP grows with the thread count.
 */
/* syncfs(2) and O_DIRECT are Linux extensions. */
#define _GNU_SOURCE
#include "core/bench_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/mem.h"
#include "util/banned.h"

#define END_TICKET UINT32_MAX
#define BATCH 1024 /* tickets per write(2) to the pipe */

struct seek_shared {
	struct bench *b;
	uint64_t nchunks;
	uint64_t seeks;
	uint32_t chunk;
	int pipe_rd;
	atomic_uint_fast64_t done; /* tickets finished, for progress */
	atomic_int failed;         /* a worker failed: the rest drain */
	pthread_mutex_t lock;      /* the first error */
	int err_no;                /* errno of the first failure */
	const char *err_what;      /* "read", "write", "fsync" */
};

struct seek_worker {
	struct seek_shared *sh;
	pthread_t th;
	int started;
	int fd;
	unsigned char *buf;
	struct bs_hist hist;
};

static void worker_fail(struct seek_shared *sh, const char *what, int e)
{
	pthread_mutex_lock(&sh->lock);
	if (!atomic_load(&sh->failed)) {
		sh->err_no = e;
		sh->err_what = what;
		atomic_store(&sh->failed, 1);
	}
	pthread_mutex_unlock(&sh->lock);
}

/* Next ticket from the pipe; END_TICKET at the end (or on error). */
static uint32_t take_ticket(struct seek_shared *sh)
{
	uint32_t t;
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(t)) {
		n = read(sh->pipe_rd, (char *)&t + got, sizeof(t) - got);
		if (n > 0) {
			got += (size_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else {
			worker_fail(sh, "read a ticket from",
				    n < 0 ? errno : EPIPE);
			return END_TICKET;
		}
	}
	return t;
}

/* One seek: read the chunk; every tenth ticket writes it back. */
static int seek_one(struct seek_worker *w, uint32_t i)
{
	struct seek_shared *sh = w->sh;
	struct bench *b = sh->b;
	off_t off;
	size_t got;

	off = (off_t)(bench_hash(b->o->seed, i) % sh->nchunks) *
	      (off_t)sh->chunk;
	if (lseek(w->fd, off, SEEK_SET) < 0 ||
	    bench_read_all(b, w->fd, w->buf, sh->chunk, &got) < 0) {
		worker_fail(sh, "read", errno);
		return -1;
	}
	if (got < sh->chunk) {
		worker_fail(sh, "read", EIO);
		return -1;
	}
	if (i % 10 == 0) {
		w->buf[sh->chunk / 3]++;
		if (lseek(w->fd, off, SEEK_SET) < 0 ||
		    bench_write_all(b, w->fd, w->buf, sh->chunk) < 0 ||
		    (b->o->fsync_each && bench_fsync(b, w->fd) != 0)) {
			worker_fail(sh, "write", errno);
			return -1;
		}
	}
	return 0;
}

static void *seek_worker_main(void *arg)
{
	struct seek_worker *w = arg;
	struct seek_shared *sh = w->sh;
	struct bench *b = sh->b;
	uint64_t prev = bs_now_ns(), done;
	uint32_t i;
	int idle = 0;

	/*
	 * After a failure or a signal the thread keeps reading (and
	 * dropping) tickets until its end marker, so that the main thread
	 * never blocks on a full pipe.
	 */
	while ((i = take_ticket(sh)) != END_TICKET) {
		if (idle || atomic_load(&sh->failed) || bs_signal_pending()) {
			idle = 1;
			continue;
		}
		if (seek_one(w, i) < 0) {
			idle = 1;
			continue;
		}
		done = atomic_fetch_add(&sh->done, 1) + 1;
		bench_op(b, &w->hist, &prev, done);
	}
	if (!idle && !atomic_load(&sh->failed) && bench_fsync(b, w->fd) != 0)
		worker_fail(sh, "fsync", errno);
	return NULL;
}

/* Writes all of buf to the pipe. Returns 0 or an errno. */
static int pipe_write(int fd, const uint32_t *t, size_t n)
{
	const char *p = (const char *)t;
	size_t left = n * sizeof(*t);
	ssize_t k;

	while (left > 0) {
		k = write(fd, p, left);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return errno;
		p += k;
		left -= (size_t)k;
	}
	return 0;
}

/* The main thread's part: the tickets, then one end marker per thread. */
static int feed(struct seek_shared *sh, int fd, uint32_t procs)
{
	uint32_t batch[BATCH];
	uint64_t i = 0;
	size_t n;
	int e;

	while (i < sh->seeks) {
		if (atomic_load(&sh->failed) || bs_signal_pending())
			break;
		for (n = 0; n < BATCH && i < sh->seeks; n++)
			batch[n] = (uint32_t)i++;
		e = pipe_write(fd, batch, n);
		if (e != 0)
			return e;
	}
	for (n = 0; n < procs; n++)
		batch[n] = END_TICKET;
	return pipe_write(fd, batch, procs);
}

int bench_seek_test(struct bench *b)
{
	const struct bs_bench_opts *o = b->o;
	struct seek_shared sh;
	struct seek_worker *w;
	struct bs_hist all;
	struct bs_span sp;
	uint32_t n = (uint32_t)o->p.seek_procs, i;
	int rc = 0, e, fds[2] = {-1, -1};

	memset(&sh, 0, sizeof(sh));
	sh.b = b;
	sh.chunk = (uint32_t)o->p.io_chunk_bytes;
	sh.nchunks = ((uint64_t)o->p.file_size_mib << 20) / sh.chunk;
	sh.seeks = (uint64_t)o->p.seeks;
	atomic_init(&sh.done, 0);
	atomic_init(&sh.failed, 0);
	pthread_mutex_init(&sh.lock, NULL);
	w = xcalloc(n, sizeof(*w));
	for (i = 0; i < n; i++)
		w[i].fd = -1;
	if (pipe2(fds, O_CLOEXEC) != 0)
		rc = bs_error(b->err, BS_EIO,
			      "random seeks: cannot make a "
			      "pipe: %s",
			      strerror(errno));
	sh.pipe_rd = fds[0];
	for (i = 0; i < n && rc == 0; i++) {
		w[i].sh = &sh;
		bs_hist_init(&w[i].hist);
		if (posix_memalign((void **)&w[i].buf, 4096,
				   sh.chunk < 4096 ? 4096 : sh.chunk)) {
			rc = bs_error(b->err, BS_EIO, "out of memory");
			break;
		}
		memcpy(w[i].buf, b->buf, sh.chunk);
		w[i].fd = bs_scratch_reopen(&b->scratch, BENCH_DATA_NAME,
					    O_RDWR | (o->direct ? O_DIRECT : 0),
					    b->err);
		if (w[i].fd < 0)
			rc = w[i].fd;
	}
	for (i = 0; i < n && rc == 0; i++) {
		e = pthread_create(&w[i].th, NULL, seek_worker_main, &w[i]);
		if (e != 0) {
			rc = bs_error(b->err, BS_EIO,
				      "random seeks: cannot start a thread: %s",
				      strerror(e));
			break;
		}
		w[i].started = 1;
	}
	if (rc == 0) {
		bench_begin(b, BS_M_SEEKS, sh.seeks);
		bs_span_start(&sp);
		e = feed(&sh, fds[1], n);
		if (e != 0)
			worker_fail(&sh, "write a ticket to", e);
	}
	if (fds[1] >= 0)
		close(fds[1]); /* threads not yet at their marker see EOF */
	for (i = 0; i < n; i++)
		if (w[i].started)
			pthread_join(w[i].th, NULL);

	bs_hist_init(&all);
	for (i = 0; i < n; i++) {
		bs_hist_merge(&all, &w[i].hist);
		if (w[i].fd >= 0 && close(w[i].fd) != 0 && rc == 0 &&
		    !atomic_load(&sh.failed))
			rc = bench_fail(b, BS_M_SEEKS, "close", BENCH_DATA_NAME,
					errno);
		free(w[i].buf);
	}
	free(w);
	/*
	 * bonnie++'s first seek thread deletes the I/O file before it
	 * reports, so its seek time includes freeing the file's blocks
	 * (0.4 s for 2 GiB on ext4 with discard; more on big files).
	 * Done the same way here so that seek rates compare; the latency
	 * figures do not include it.
	 */
	if (rc == 0 && !atomic_load(&sh.failed)) {
		rc = bs_scratch_remove(&b->scratch, BENCH_DATA_NAME, 0, b->err);
		b->data_exists = 0;
	}
	if (rc == 0)
		bs_span_stop(&sp);
	if (fds[0] >= 0)
		close(fds[0]);
	if (rc == 0 && atomic_load(&sh.failed))
		rc = bench_fail(b, BS_M_SEEKS, sh.err_what, BENCH_DATA_NAME,
				sh.err_no);
	if (rc == 0)
		rc = bench_stopped(b);
	if (rc == 0)
		bench_finish(b, BS_M_SEEKS, &sp, &all, (double)sh.seeks);
	pthread_mutex_destroy(&sh.lock);
	return rc;
}
