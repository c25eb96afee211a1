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

	if (sync && fsync(fd) != 0) {
		e = errno;
		close(fd);
		return bench_fail(b, m, "fsync", BENCH_DATA_NAME, e);
	}
	if (close(fd) != 0)
		return bench_fail(b, m, "close", BENCH_DATA_NAME, errno);
	return 0;
}

static uint64_t per_char_bytes(const struct bench *b)
{
	uint64_t mib = b->o->per_char_mib < b->o->file_size_mib
			       ? b->o->per_char_mib
			       : b->o->file_size_mib;

	return mib << 20;
}

static int per_char_write(struct bench *b)
{
	const uint32_t chunk = b->o->chunk_bytes;
	uint64_t bytes = per_char_bytes(b), nchunks = bytes / chunk, k;
	uint64_t prev, now;
	struct bs_hist h;
	struct bs_span sp;
	uint32_t j;
	int fd, rc;

	fd = bs_scratch_create(&b->scratch, BENCH_DATA_NAME, O_WRONLY, b->err);
	if (fd < 0)
		return fd;
	b->data_exists = 1;
	bs_hist_init(&h);
	bench_begin(b, BS_M_PUTC, bytes);
	bs_span_start(&sp);
	prev = sp.t0_ns;
	for (k = 0; k < nchunks; k++) {
		for (j = 0; j < chunk; j++) {
			ssize_t n = write(fd, b->buf + j, 1);

			if (n == 1)
				continue;
			if (n < 0 && errno == EINTR && !bs_signal_pending()) {
				j--;
				continue;
			}
			rc = bench_fail(b, BS_M_PUTC, "write",
					BENCH_DATA_NAME,
					n == 0 ? ENOSPC : errno);
			close(fd);
			return rc;
		}
		if (b->o->fsync_each && fsync(fd) != 0) {
			rc = bench_fail(b, BS_M_PUTC, "fsync", BENCH_DATA_NAME,
					errno);
			close(fd);
			return rc;
		}
		now = bs_now_ns();
		bs_hist_add(&h, now - prev);
		prev = now;
		bench_tick(b, (k + 1) * chunk, now);
		rc = bench_stopped(b);
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	rc = sync_close(b, BS_M_PUTC, fd, 1);
	if (rc < 0)
		return rc;
	bs_span_stop(&sp);
	bench_finish(b, BS_M_PUTC, &sp, &h, (double)bytes / 1024.0);
	/* bonnie++ starts the block write on a new file. */
	b->data_exists = 0;
	return bs_scratch_remove(&b->scratch, BENCH_DATA_NAME, 0, b->err);
}

static int block_write(struct bench *b)
{
	const uint32_t chunk = b->o->chunk_bytes;
	uint64_t bytes = b->o->file_size_mib << 20, nchunks = bytes / chunk;
	uint64_t k, prev, now;
	struct bs_hist h;
	struct bs_span sp;
	int fd, rc;

	fd = bs_scratch_create(&b->scratch, BENCH_DATA_NAME,
			       O_WRONLY | direct_flag(b), b->err);
	if (fd < 0)
		return fd;
	b->data_exists = 1;
	bs_hist_init(&h);
	bench_begin(b, BS_M_PUT_BLOCK, bytes);
	bs_span_start(&sp);
	prev = sp.t0_ns;
	for (k = 0; k < nchunks; k++) {
		/* A different first word in every chunk defeats dedup. */
		memcpy(b->buf, &k, sizeof(k));
		if (bench_write_all(b, fd, b->buf, chunk) < 0 ||
		    (b->o->fsync_each && fsync(fd) != 0)) {
			rc = bench_fail(b, BS_M_PUT_BLOCK, "write",
					BENCH_DATA_NAME, errno);
			close(fd);
			return rc;
		}
		now = bs_now_ns();
		bs_hist_add(&h, now - prev);
		prev = now;
		bench_tick(b, (k + 1) * chunk, now);
		rc = bench_stopped(b);
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	rc = sync_close(b, BS_M_PUT_BLOCK, fd, 1);
	if (rc < 0)
		return rc;
	bs_span_stop(&sp);
	bench_finish(b, BS_M_PUT_BLOCK, &sp, &h, (double)bytes / 1024.0);
	return 0;
}

static int rewrite(struct bench *b)
{
	const uint32_t chunk = b->o->chunk_bytes;
	uint64_t bytes = b->o->file_size_mib << 20, nchunks = bytes / chunk;
	uint64_t k, prev, now;
	struct bs_hist h;
	struct bs_span sp;
	size_t got;
	int fd, rc;

	fd = bs_scratch_reopen(&b->scratch, BENCH_DATA_NAME,
			       O_RDWR | direct_flag(b), b->err);
	if (fd < 0)
		return fd;
	bs_hist_init(&h);
	bench_begin(b, BS_M_REWRITE, bytes);
	bs_span_start(&sp);
	prev = sp.t0_ns;
	for (k = 0; k < nchunks; k++) {
		if (bench_read_all(b, fd, b->buf, chunk, &got) < 0) {
			rc = bench_fail(b, BS_M_REWRITE, "read",
					BENCH_DATA_NAME, errno);
			close(fd);
			return rc;
		}
		if (got < chunk) {
			close(fd);
			return bs_error(b->err, BS_EIO,
					"rewrite: '%s/%s' is shorter than "
					"written",
					b->scratch.path, BENCH_DATA_NAME);
		}
		b->buf[chunk / 2]++;
		if (lseek(fd, -(off_t)chunk, SEEK_CUR) < 0 ||
		    bench_write_all(b, fd, b->buf, chunk) < 0 ||
		    (b->o->fsync_each && fsync(fd) != 0)) {
			rc = bench_fail(b, BS_M_REWRITE, "write",
					BENCH_DATA_NAME, errno);
			close(fd);
			return rc;
		}
		now = bs_now_ns();
		bs_hist_add(&h, now - prev);
		prev = now;
		bench_tick(b, (k + 1) * chunk, now);
		rc = bench_stopped(b);
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	rc = sync_close(b, BS_M_REWRITE, fd, 1);
	if (rc < 0)
		return rc;
	bs_span_stop(&sp);
	bench_finish(b, BS_M_REWRITE, &sp, &h, (double)bytes / 1024.0);
	return 0;
}

static int per_char_read(struct bench *b)
{
	const uint32_t chunk = b->o->chunk_bytes;
	uint64_t bytes = per_char_bytes(b), nchunks = bytes / chunk, k;
	uint64_t prev, now;
	struct bs_hist h;
	struct bs_span sp;
	unsigned char c;
	uint32_t j;
	int fd, rc;

	fd = bs_scratch_reopen(&b->scratch, BENCH_DATA_NAME, O_RDONLY, b->err);
	if (fd < 0)
		return fd;
	bs_hist_init(&h);
	bench_begin(b, BS_M_GETC, bytes);
	bs_span_start(&sp);
	prev = sp.t0_ns;
	for (k = 0; k < nchunks; k++) {
		for (j = 0; j < chunk; j++) {
			ssize_t n = read(fd, &c, 1);

			if (n == 1)
				continue;
			if (n < 0 && errno == EINTR && !bs_signal_pending()) {
				j--;
				continue;
			}
			close(fd);
			if (n == 0)
				return bs_error(b->err, BS_EIO,
						"per-char read: '%s/%s' is "
						"shorter than written",
						b->scratch.path,
						BENCH_DATA_NAME);
			return bench_fail(b, BS_M_GETC, "read",
					  BENCH_DATA_NAME, errno);
		}
		now = bs_now_ns();
		bs_hist_add(&h, now - prev);
		prev = now;
		bench_tick(b, (k + 1) * chunk, now);
		rc = bench_stopped(b);
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	rc = sync_close(b, BS_M_GETC, fd, 0);
	if (rc < 0)
		return rc;
	bs_span_stop(&sp);
	bench_finish(b, BS_M_GETC, &sp, &h, (double)bytes / 1024.0);
	return 0;
}

static int block_read(struct bench *b)
{
	const uint32_t chunk = b->o->chunk_bytes;
	uint64_t bytes = b->o->file_size_mib << 20, nchunks = bytes / chunk;
	uint64_t k, prev, now;
	struct bs_hist h;
	struct bs_span sp;
	size_t got;
	int fd, rc;

	fd = bs_scratch_reopen(&b->scratch, BENCH_DATA_NAME,
			       O_RDONLY | direct_flag(b), b->err);
	if (fd < 0)
		return fd;
	bs_hist_init(&h);
	bench_begin(b, BS_M_GET_BLOCK, bytes);
	bs_span_start(&sp);
	prev = sp.t0_ns;
	for (k = 0; k < nchunks; k++) {
		if (bench_read_all(b, fd, b->buf, chunk, &got) < 0) {
			rc = bench_fail(b, BS_M_GET_BLOCK, "read",
					BENCH_DATA_NAME, errno);
			close(fd);
			return rc;
		}
		if (got < chunk) {
			close(fd);
			return bs_error(b->err, BS_EIO,
					"block read: '%s/%s' is shorter than "
					"written",
					b->scratch.path, BENCH_DATA_NAME);
		}
		now = bs_now_ns();
		bs_hist_add(&h, now - prev);
		prev = now;
		bench_tick(b, (k + 1) * chunk, now);
		rc = bench_stopped(b);
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	rc = sync_close(b, BS_M_GET_BLOCK, fd, 0);
	if (rc < 0)
		return rc;
	bs_span_stop(&sp);
	bench_finish(b, BS_M_GET_BLOCK, &sp, &h, (double)bytes / 1024.0);
	return 0;
}

int bench_io_tests(struct bench *b)
{
	int rc = 0, per_char = per_char_bytes(b) >= b->o->chunk_bytes;

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
