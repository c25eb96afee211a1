/*
 * core/bench_io.c - the five sequential I/O tests: per-char write, block
 * write, rewrite, per-char read, block read (bonnie++'s order).
 *
 * Each test opens the scratch I/O file before its clock starts; the
 * closing fsync(2) and close(2) are inside the timing, as in bonnie++
 * 1.9x and later. One "operation" for the latency histogram is one chunk:
 * one write/read of chunk_bytes, or chunk_bytes one-byte calls for the
 * per-char tests (which is how bonnie++ times them).
 */
/* syncfs(2) and O_DIRECT are Linux extensions. */
#define _GNU_SOURCE
#include "core/bench_int.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/banned.h"

static int direct_flag(const struct bench *b)
{
	return b->o->direct ? O_DIRECT : 0;
}

/* fsync and close inside the timing; both can report a write error. */
static int sync_close(struct bench *b, enum bs_metric m, int fd, int sync)
{
	int e;

	if (sync && bench_fsync(b, fd) != 0) {
		e = errno;
		close(fd);
		return bench_fail(b, m, "fsync", BENCH_DATA_NAME, e);
	}
	if (close(fd) != 0)
		return bench_fail(b, m, "close", BENCH_DATA_NAME, errno);
	return 0;
}

/* The I/O file's size. */
static uint64_t file_bytes(const struct bench *b)
{
	return (uint64_t)b->o->p.file_size_mib << 20;
}

static uint64_t per_char_bytes(const struct bench *b)
{
	const uint64_t per_char = (uint64_t)b->o->p.per_char_mib;
	const uint64_t file = (uint64_t)b->o->p.file_size_mib;

	return (per_char < file ? per_char : file) << 20;
}

/*
 * The timed part every test shares. Runs op on chunks 0 .. bytes /
 * chunk_bytes - 1 of the open file fd, one latency sample per chunk, then
 * fsyncs (when sync) and closes fd inside the timing and records test m.
 * op returns 0, or a negative BS_E* code with b->err filled. fd is closed
 * on every path.
 */
static int run_chunks(struct bench *b, enum bs_metric m, int fd, uint64_t bytes,
		      int sync, int (*op)(struct bench *, int, uint64_t))
{
	const uint32_t chunk = (uint32_t)b->o->p.io_chunk_bytes;
	uint64_t nchunks = bytes / chunk, k, prev;
	struct bs_hist h;
	struct bs_span sp;
	int rc;

	bs_hist_init(&h);
	bench_begin(b, m, bytes);
	bs_span_start(&sp);
	prev = sp.t0_ns;
	for (k = 0; k < nchunks; k++) {
		rc = op(b, fd, k);
		if (rc == 0) {
			bench_op(b, &h, &prev, (k + 1) * chunk);
			rc = bench_stopped(b);
		}
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	rc = sync_close(b, m, fd, sync);
	if (rc < 0)
		return rc;
	bs_span_stop(&sp);
	bench_finish(b, m, &sp, &h, (double)bytes / 1024.0);
	return 0;
}

/* Reads chunk_bytes into b->buf; a short file is an error of test. */
static int read_chunk(struct bench *b, enum bs_metric m, int fd,
		      const char *test)
{
	const size_t chunk = (size_t)b->o->p.io_chunk_bytes;
	size_t got;

	if (bench_read_all(b, fd, b->buf, chunk, &got) < 0)
		return bench_fail(b, m, "read", BENCH_DATA_NAME, errno);
	if (got < chunk)
		return bs_error(b->err, BS_EIO,
				"%s: '%s/%s' is shorter than written", test,
				b->scratch.path, BENCH_DATA_NAME);
	return 0;
}

static int putc_chunk(struct bench *b, int fd, uint64_t k)
{
	const uint32_t chunk = (uint32_t)b->o->p.io_chunk_bytes;
	uint32_t j;

	(void)k;
	for (j = 0; j < chunk; j++) {
		ssize_t n = write(fd, b->buf + j, 1);

		if (n == 1)
			continue;
		if (n < 0 && errno == EINTR && !bs_signal_pending()) {
			j--;
			continue;
		}
		return bench_fail(b, BS_M_PUTC, "write", BENCH_DATA_NAME,
				  n == 0 ? ENOSPC : errno);
	}
	if (b->o->fsync_each && bench_fsync(b, fd) != 0)
		return bench_fail(b, BS_M_PUTC, "fsync", BENCH_DATA_NAME,
				  errno);
	return 0;
}

static int put_block_chunk(struct bench *b, int fd, uint64_t k)
{
	const size_t chunk = (size_t)b->o->p.io_chunk_bytes;

	/* A different first word in every chunk defeats dedup. */
	memcpy(b->buf, &k, sizeof(k));
	if (bench_write_all(b, fd, b->buf, chunk) < 0 ||
	    (b->o->fsync_each && bench_fsync(b, fd) != 0))
		return bench_fail(b, BS_M_PUT_BLOCK, "write", BENCH_DATA_NAME,
				  errno);
	return 0;
}

static int rewrite_chunk(struct bench *b, int fd, uint64_t k)
{
	const uint32_t chunk = (uint32_t)b->o->p.io_chunk_bytes;
	int rc;

	(void)k;
	rc = read_chunk(b, BS_M_REWRITE, fd, "rewrite");
	if (rc < 0)
		return rc;
	b->buf[chunk / 2]++;
	if (lseek(fd, -(off_t)chunk, SEEK_CUR) < 0 ||
	    bench_write_all(b, fd, b->buf, chunk) < 0 ||
	    (b->o->fsync_each && bench_fsync(b, fd) != 0))
		return bench_fail(b, BS_M_REWRITE, "write", BENCH_DATA_NAME,
				  errno);
	return 0;
}

static int getc_chunk(struct bench *b, int fd, uint64_t k)
{
	const uint32_t chunk = (uint32_t)b->o->p.io_chunk_bytes;
	unsigned char c;
	uint32_t j;

	(void)k;
	for (j = 0; j < chunk; j++) {
		ssize_t n = read(fd, &c, 1);

		if (n == 1)
			continue;
		if (n < 0 && errno == EINTR && !bs_signal_pending()) {
			j--;
			continue;
		}
		if (n == 0)
			return bs_error(b->err, BS_EIO,
					"per-char read: '%s/%s' is shorter "
					"than written",
					b->scratch.path, BENCH_DATA_NAME);
		return bench_fail(b, BS_M_GETC, "read", BENCH_DATA_NAME, errno);
	}
	return 0;
}

static int get_block_chunk(struct bench *b, int fd, uint64_t k)
{
	(void)k;
	return read_chunk(b, BS_M_GET_BLOCK, fd, "block read");
}

static int per_char_write(struct bench *b)
{
	int fd, rc;

	fd = bs_scratch_create(&b->scratch, BENCH_DATA_NAME, O_WRONLY, b->err);
	if (fd < 0)
		return fd;
	b->data_exists = 1;
	rc = run_chunks(b, BS_M_PUTC, fd, per_char_bytes(b), 1, putc_chunk);
	if (rc < 0)
		return rc;
	/* bonnie++ starts the block write on a new file. */
	b->data_exists = 0;
	return bs_scratch_remove(&b->scratch, BENCH_DATA_NAME, 0, b->err);
}

static int block_write(struct bench *b)
{
	int fd;

	fd = bs_scratch_create(&b->scratch, BENCH_DATA_NAME,
			       O_WRONLY | direct_flag(b), b->err);
	if (fd < 0)
		return fd;
	b->data_exists = 1;
	return run_chunks(b, BS_M_PUT_BLOCK, fd, file_bytes(b), 1,
			  put_block_chunk);
}

static int rewrite(struct bench *b)
{
	int fd;

	fd = bs_scratch_reopen(&b->scratch, BENCH_DATA_NAME,
			       O_RDWR | direct_flag(b), b->err);
	if (fd < 0)
		return fd;
	return run_chunks(b, BS_M_REWRITE, fd, file_bytes(b), 1, rewrite_chunk);
}

static int per_char_read(struct bench *b)
{
	int fd;

	fd = bs_scratch_reopen(&b->scratch, BENCH_DATA_NAME, O_RDONLY, b->err);
	if (fd < 0)
		return fd;
	return run_chunks(b, BS_M_GETC, fd, per_char_bytes(b), 0, getc_chunk);
}

static int block_read(struct bench *b)
{
	int fd;

	fd = bs_scratch_reopen(&b->scratch, BENCH_DATA_NAME,
			       O_RDONLY | direct_flag(b), b->err);
	if (fd < 0)
		return fd;
	return run_chunks(b, BS_M_GET_BLOCK, fd, file_bytes(b), 0,
			  get_block_chunk);
}

int bench_io_tests(struct bench *b)
{
	int rc = 0, per_char;

	per_char = per_char_bytes(b) >= (uint64_t)b->o->p.io_chunk_bytes;

	if (per_char)
		rc = per_char_write(b);
	if (rc == 0)
		rc = block_write(b);
	if (rc == 0)
		rc = rewrite(b);
	if (rc == 0 && per_char)
		rc = per_char_read(b);
	if (rc == 0)
		rc = block_read(b);
	return rc;
}
