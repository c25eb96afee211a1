/*
 * core/bench_int.h - what the benchmark's source files share; not part of
 * the public API (core/bench.h is).
 */
#ifndef BS_CORE_BENCH_INT_H
#define BS_CORE_BENCH_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "core/bench.h"
#include "core/scratch.h"
#include "core/timer.h"

/* The I/O test file, at the top of the scratch directory. */
#define BENCH_DATA_NAME "bstore.data"
/* The file tests' directory. */
#define BENCH_FILES_NAME "files"
/* Progress at most this often. */
#define BENCH_TICK_NS 250000000ull

struct bench {
	const struct bs_bench_opts *o;
	const struct bs_bench_cb *cb;
	struct bs_run *r;
	struct bs_err *err;
	struct bs_scratch scratch;
	unsigned char *buf; /* aligned, max(chunk, file chunk) bytes */
	size_t buf_size;
	uint64_t rng;    /* splitmix64 state, from the seed */
	int data_exists; /* BENCH_DATA_NAME holds the I/O file */

	/* The test in progress. */
	enum bs_metric cur;
	uint64_t total;
	uint64_t t0_ns;
	atomic_uint_fast64_t last_tick_ns; /* seek workers read it too */
	pthread_mutex_t tick_lock; /* seek workers report one at a time */
};

/* splitmix64: a fast, well-mixed generator; fine for choosing offsets. */
uint64_t bench_rand(uint64_t *state);
/* The n-th value of an independent stream keyed by seed (stateless). */
uint64_t bench_hash(uint64_t seed, uint64_t n);

/* Announces a test (start callback) and notes its start time. */
void bench_begin(struct bench *b, enum bs_metric m, uint64_t total);
/* Calls the progress callback when due. now_ns from bs_now_ns(). */
void bench_tick(struct bench *b, uint64_t done, uint64_t now_ns);
/*
 * Ends one timed operation: its latency (from *prev to now) into h, *prev
 * moved on to now, and progress with done units finished.
 */
void bench_op(struct bench *b, struct bs_hist *h, uint64_t *prev,
	      uint64_t done);
/*
 * Records a finished test: rate = amount / elapsed (KiB for the I/O tests,
 * seeks or files otherwise), too_fast under BS_BENCH_MIN_TIME, CPU% and
 * the latency summary; then calls the done callback.
 */
void bench_finish(struct bench *b, enum bs_metric m, const struct bs_span *span,
		  const struct bs_hist *h, double amount);
/* BS_EINTR (with a message) when a stop signal is pending, else 0. */
int bench_stopped(struct bench *b);
/*
 * Fills err for a failed system call in test m: "block write: cannot
 * write 'path': <reason>". e is the errno. Returns -BS_EIO (or -BS_EINTR
 * when a stop signal caused it).
 */
int bench_fail(struct bench *b, enum bs_metric m, const char *what,
	       const char *name, int e);

/*
 * The core's only ways to sync: fsync(2) of fd, and syncfs(2) of the file
 * system holding the scratch directory. Under o->no_sync both do nothing.
 * Return 0, or -1 with errno set.
 */
int bench_fsync(const struct bench *b, int fd);
int bench_syncfs(const struct bench *b);

/* Writes/reads exactly len bytes, retrying short transfers and EINTR. */
int bench_write_all(struct bench *b, int fd, const void *p, size_t len);
int bench_read_all(struct bench *b, int fd, void *p, size_t len, size_t *got);

int bench_io_tests(struct bench *b);
int bench_seek_test(struct bench *b);
int bench_file_tests(struct bench *b);

#endif
