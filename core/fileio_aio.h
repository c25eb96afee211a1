/*
 * core/fileio_aio.h - Linux native AIO for `bstore fileio
 * --file-io-mode=async`, through the system calls (io_setup, io_submit,
 * io_getevents, io_destroy of <linux/aio_abi.h>), used as sysbench
 * 1.0.20 uses libaio: each thread has a context of up to backlog
 * requests in flight; a submission that fills it waits for at least one
 * to complete, and takes every completion there is (up to backlog).
 *
 * Internal to core/fileio.c. Knows nothing of files or counters: a
 * request carries a struct bs_aio_op, and each completion comes back
 * through a callback with it and the kernel's result (bytes, or
 * -errno). Functions return 0 or -errno; a callback's negative return
 * stops a wait and is returned.
 */
#ifndef BS_CORE_FILEIO_AIO_H
#define BS_CORE_FILEIO_AIO_H

#include <stddef.h>
#include <stdint.h>

/* What a request was, for the caller. */
struct bs_aio_op {
	int write;     /* 1 a write, 0 a read */
	uint64_t file; /* the caller's */
	uint64_t pos, len;
};

typedef int (*bs_aio_done_fn)(const struct bs_aio_op *op, int64_t res,
			      void *ctx);

struct bs_aio_slot;

struct bs_aio {
	unsigned long ctx; /* aio_context_t; 0: not set up */
	unsigned backlog;
	unsigned inflight;
	struct bs_aio_slot *slots; /* backlog of them */
	struct bs_aio_slot **free; /* the slots not in flight */
	unsigned nfree;
	void *events; /* struct io_event[backlog] */
};

/* clang-format off */
#define BS_AIO_INIT {0, 0, 0, NULL, NULL, 0, NULL}
/* clang-format on */

/* Sets up a context for backlog requests (io_setup). */
int bs_aio_open(struct bs_aio *a, unsigned backlog);
/*
 * Submits one request on fd (io_submit); when backlog are then in
 * flight, waits for at least one to complete (each through done).
 * buf must stay valid until the request completes.
 */
int bs_aio_submit(struct bs_aio *a, int fd, void *buf,
		  const struct bs_aio_op *op, bs_aio_done_fn done, void *ctx);
/* Waits until no more than keep requests are in flight. */
int bs_aio_drain(struct bs_aio *a, unsigned keep, bs_aio_done_fn done,
		 void *ctx);
/* Waits for what is in flight (io_destroy does) and frees the context;
 * on a zeroed struct it does nothing. */
void bs_aio_close(struct bs_aio *a);

#endif
