/*
 * core/fileio_aio.c - Linux native AIO through the system calls, for
 * `bstore fileio --file-io-mode=async` (core/fileio_aio.h).
 */
#define _GNU_SOURCE /* syscall */
#include "core/fileio_aio.h"

#include <errno.h>
#include <linux/aio_abi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/mem.h"
#include "util/banned.h"

struct bs_aio_slot {
	struct iocb cb;
	struct bs_aio_op op;
};

static int sys_err(long rc)
{
	return rc < 0 ? -errno : 0;
}

int bs_aio_open(struct bs_aio *a, unsigned backlog)
{
	aio_context_t ctx = 0;
	unsigned i;

	memset(a, 0, sizeof(*a));
	if (syscall(SYS_io_setup, backlog, &ctx) < 0)
		return -errno;
	a->ctx = (unsigned long)ctx;
	a->backlog = backlog;
	a->slots = xcalloc(backlog, sizeof(*a->slots));
	a->free = xcalloc(backlog, sizeof(*a->free));
	a->events = xcalloc(backlog, sizeof(struct io_event));
	for (i = 0; i < backlog; i++)
		a->free[i] = &a->slots[backlog - 1 - i];
	a->nfree = backlog;
	return 0;
}

/* Takes at least min completions (and what else is done). */
static int reap(struct bs_aio *a, unsigned min, bs_aio_done_fn done, void *ctx)
{
	struct io_event *ev = a->events;
	long n, i;
	int rc = 0;

	do
		n = syscall(SYS_io_getevents, (aio_context_t)a->ctx, (long)min,
			    (long)a->backlog, ev, NULL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		struct bs_aio_slot *s =
			(struct bs_aio_slot *)(uintptr_t)ev[i].data;

		a->free[a->nfree++] = s;
		a->inflight--;
		if (rc == 0)
			rc = done(&s->op, ev[i].res, ctx);
	}
	return rc;
}

int bs_aio_submit(struct bs_aio *a, int fd, void *buf,
		  const struct bs_aio_op *op, bs_aio_done_fn done, void *ctx)
{
	struct bs_aio_slot *s;
	struct iocb *cbp;
	long n;

	if (a->nfree == 0)
		return -EAGAIN; /* never: a full context waits below */
	s = a->free[--a->nfree];
	memset(&s->cb, 0, sizeof(s->cb));
	s->op = *op;
	s->cb.aio_data = (uint64_t)(uintptr_t)s;
	s->cb.aio_lio_opcode = op->write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
	s->cb.aio_fildes = (uint32_t)fd;
	s->cb.aio_buf = (uint64_t)(uintptr_t)buf;
	s->cb.aio_nbytes = op->len;
	s->cb.aio_offset = (int64_t)op->pos;
	cbp = &s->cb;
	do
		n = syscall(SYS_io_submit, (aio_context_t)a->ctx, 1L, &cbp);
	while (n < 0 && errno == EINTR);
	if (n != 1) {
		a->free[a->nfree++] = s;
		return n < 0 ? sys_err(n) : -EAGAIN;
	}
	a->inflight++;
	if (a->inflight < a->backlog)
		return 0;
	return reap(a, 1, done, ctx);
}

int bs_aio_drain(struct bs_aio *a, unsigned keep, bs_aio_done_fn done,
		 void *ctx)
{
	int rc;

	while (a->inflight > keep) {
		rc = reap(a, a->inflight - keep, done, ctx);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void bs_aio_close(struct bs_aio *a)
{
	if (a->ctx)
		syscall(SYS_io_destroy, (aio_context_t)a->ctx);
	free(a->slots);
	free(a->free);
	free(a->events);
	memset(a, 0, sizeof(*a));
}
