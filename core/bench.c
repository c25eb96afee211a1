/*
 * core/bench.c - one iteration of the bonnie++-compatible suite: the
 * space check, the scratch directory, the order of the tests, and the
 * helpers the tests share (timing, progress, errors, syncing).
 */
/* syncfs(2) is a Linux extension. */
#define _GNU_SOURCE
#include "core/bench_int.h"
#include "core/bench_opts.h"
#include "core/bonnie_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/mem.h"
#include "util/banned.h"

uint64_t bench_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t bench_hash(uint64_t seed, uint64_t n)
{
	uint64_t s = seed ^ (n * 0xd1b54a32d192ed03ull);

	return bench_rand(&s);
}

/* Files the file tests make, or 0 when that does not fit in 64 bits. */
static uint64_t file_count(const struct bs_bench_opts *o)
{
	const uint64_t n = (uint64_t)o->p.num_files;

	if (n > UINT64_MAX / 1024)
		return 0;
	return n * 1024;
}

/*
 * Whether the path quoted in a cleanup message is named in the test's
 * message already (the directory the test could not remove either):
 * then the cleanup adds nothing.
 */
static int same_path(const char *msg, const char *cleanup)
{
	/* From the first quote to the last: the path may hold quotes. */
	const char *q = strchr(cleanup, '\''), *e = strrchr(cleanup, '\'');
	char path[BS_ERR_MSG_MAX];

	if (q == NULL || e == q)
		return 0;
	snprintf(path, sizeof(path), "%.*s", (int)(e - q + 1), q);
	return strstr(msg, path) != NULL;
}

void bs_bench_needs(const struct bs_bench_opts *o, uint64_t *bytes,
		    uint64_t *inodes)
{
	uint64_t io = (uint64_t)o->p.file_size_mib << 20, files = file_count(o);
	uint64_t dirs = (uint64_t)o->p.num_dirs, per_file = 0, fb;

	if (o->p.max_size > 0)
		per_file = ((uint64_t)o->p.max_size + 4095) & ~(uint64_t)4095;
	fb = files * (per_file + 256) + dirs * 4096;
	/* The I/O file is gone before the file tests start. */
	*bytes = (io > fb ? io : fb);
	*bytes += *bytes / 50 + (16u << 20);
	*inodes = (o->p.num_files ? files + dirs + 2 : 0) + 4;
}

void bench_begin(struct bench *b, enum bs_metric m, uint64_t total)
{
	b->cur = m;
	b->total = total;
	if (b->cb && b->cb->start)
		b->cb->start(m, total, b->cb->ctx);
	b->t0_ns = bs_now_ns();
	atomic_store_explicit(&b->last_tick_ns, b->t0_ns, memory_order_relaxed);
}

static uint64_t last_tick(struct bench *b)
{
	return atomic_load_explicit(&b->last_tick_ns, memory_order_relaxed);
}

void bench_tick(struct bench *b, uint64_t done, uint64_t now_ns)
{
	/* Workers race here: a stale read only delays a report. */
	if (now_ns - last_tick(b) < BENCH_TICK_NS)
		return;
	if (pthread_mutex_trylock(&b->tick_lock) != 0)
		return;
	if (now_ns >= last_tick(b) + BENCH_TICK_NS) {
		atomic_store_explicit(&b->last_tick_ns, now_ns,
				      memory_order_relaxed);
		if (b->cb && b->cb->progress)
			b->cb->progress(b->cur, done, b->total,
					(double)(now_ns - b->t0_ns) / 1e9,
					b->cb->ctx);
	}
	pthread_mutex_unlock(&b->tick_lock);
}

void bench_op(struct bench *b, struct bs_hist *h, uint64_t *prev, uint64_t done)
{
	uint64_t now = bs_now_ns();

	bs_hist_add(h, now - *prev);
	*prev = now;
	bench_tick(b, done, now);
}

void bench_finish(struct bench *b, enum bs_metric m, const struct bs_span *span,
		  const struct bs_hist *h, double amount)
{
	struct bs_value *v = &b->r->res[m];

	if (span->elapsed_s <= 0) {
		v->status = BS_ST_NOT_RUN;
	} else if (span->elapsed_s < BS_BENCH_MIN_TIME) {
		v->status = BS_ST_TOO_FAST;
		v->value = NAN;
		v->cpu_pct = NAN;
	} else {
		v->status = BS_ST_OK;
		v->value = amount / span->elapsed_s;
		v->cpu_pct = span->cpu_s / span->elapsed_s * 100.0;
	}
	v->lat_us = bs_hist_max_us(h);
	v->lat_mean_us = bs_hist_mean_us(h);
	v->lat_p50_us = bs_hist_quantile_us(h, 0.5);
	v->lat_p99_us = bs_hist_quantile_us(h, 0.99);
	if (b->cb && b->cb->done)
		b->cb->done(m, v, span->elapsed_s, b->cb->ctx);
}

static const char *test_name(enum bs_metric m)
{
	static const char *const names[BS_M_BONNIE] = {
		"per-char write",    "block write",     "rewrite",
		"per-char read",     "block read",      "random seeks",
		"sequential create", "sequential stat", "sequential delete",
		"random create",     "random stat",     "random delete",
	};

	return m < BS_M_BONNIE ? names[m] : "setup";
}

int bench_stopped(struct bench *b)
{
	int sig = bs_signal_pending();

	if (sig == 0)
		return 0;
	return bs_error(b->err, BS_EINTR, "%s: interrupted by signal %d",
			test_name(b->cur), sig);
}

int bench_fail(struct bench *b, enum bs_metric m, const char *what,
	       const char *name, int e)
{
	if (e == EINTR && bs_signal_pending())
		return bench_stopped(b);
	if (e == EINVAL && b->o->direct)
		return bs_error(b->err, BS_EIO,
				"%s: cannot %s '%s/%s': %s (with -D the chunk "
				"size must suit O_DIRECT, and the file system "
				"must support it)",
				test_name(m), what, b->scratch.path, name,
				strerror(e));
	return bs_error(b->err, BS_EIO, "%s: cannot %s '%s/%s': %s",
			test_name(m), what, b->scratch.path, name, strerror(e));
}

int bench_fsync(const struct bench *b, int fd)
{
	return b->o->no_sync ? 0 : fsync(fd);
}

int bench_syncfs(const struct bench *b)
{
	return b->o->no_sync ? 0 : syncfs(b->scratch.fd);
}

int bench_write_all(struct bench *b, int fd, const void *p, size_t len)
{
	const unsigned char *c = p;
	ssize_t n;

	while (len > 0) {
		n = write(fd, c, len);
		if (n < 0) {
			if (errno == EINTR && !bs_signal_pending())
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		c += n;
		len -= (size_t)n;
	}
	(void)b;
	return 0;
}

int bench_read_all(struct bench *b, int fd, void *p, size_t len, size_t *got)
{
	unsigned char *c = p;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = read(fd, c + done, len - done);
		if (n < 0) {
			if (errno == EINTR && !bs_signal_pending())
				continue;
			return -1;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	*got = done;
	(void)b;
	return 0;
}

/*
 * The record's parameters are the options' (core/bench.h), but for two:
 * the per-char tests never run past the file, so their size is capped at
 * the file size; and the seed, a number here, is text in the record.
 */
static void fill_params(const struct bs_bench_opts *o, struct bs_run *r)
{
	const uint64_t per_char = (uint64_t)o->p.per_char_mib;
	const uint64_t file = (uint64_t)o->p.file_size_mib;
	char seed[32];

	bs_params_copy(&r->params, &o->p);
	r->params.per_char_mib = (int64_t)(per_char < file ? per_char : file);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)o->seed);
	bs_run_set(&r->params.seed, seed);
}

int bs_bench_run(const struct bs_bench_opts *o, const struct bs_bench_cb *cb,
		 struct bs_run *r, struct bs_err *err)
{
	struct bench b;
	struct bs_err cerr = BS_ERR_INIT;
	struct bs_buf csv = BS_BUF_INIT;
	unsigned long long bfree, ifree;
	uint64_t need_b, need_i;
	size_t i;
	int rc;

	bs_run_init(r);
	rc = bs_bench_check(o, err);
	if (rc < 0)
		return rc;
	memset(&b, 0, sizeof(b));
	b.o = o;
	b.cb = cb;
	b.r = r;
	b.err = err;
	b.scratch = (struct bs_scratch)BS_SCRATCH_INIT;
	b.rng = o->seed ^ 0x6a09e667f3bcc909ull;
	b.cur = BS_M_BONNIE;
	pthread_mutex_init(&b.tick_lock, NULL);

	rc = bs_scratch_space(o->dir, &bfree, &ifree, err);
	if (rc < 0)
		goto out;
	bs_bench_needs(o, &need_b, &need_i);
	if (need_b > bfree) {
		rc = bs_error(err, BS_EIO,
			      "not enough free space in '%s': the tests need "
			      "%llu MiB, %llu MiB are free",
			      o->dir, (unsigned long long)(need_b >> 20),
			      bfree >> 20);
		goto out;
	}
	if (need_i > ifree) {
		rc = bs_error(err, BS_EIO,
			      "not enough free inodes in '%s': the tests need "
			      "%llu, %llu are free",
			      o->dir, (unsigned long long)need_i, ifree);
		goto out;
	}
	rc = bs_scratch_open(&b.scratch, o->dir, err);
	if (rc < 0)
		goto out;

	b.buf_size = (size_t)o->p.io_chunk_bytes;
	if ((size_t)o->p.file_chunk_bytes > b.buf_size)
		b.buf_size = (size_t)o->p.file_chunk_bytes;
	if (b.buf_size < 4096)
		b.buf_size = 4096;
	if (posix_memalign((void **)&b.buf, 4096, b.buf_size) != 0) {
		rc = bs_error(err, BS_EIO, "out of memory");
		goto out;
	}
	/* Data that neither compresses nor deduplicates. */
	for (i = 0; i + 8 <= b.buf_size; i += 8) {
		uint64_t x = bench_rand(&b.rng);

		memcpy(b.buf + i, &x, 8);
	}

	bs_run_set(&r->tool, "bstore");
	bs_run_set(&r->tool_version, o->tool_version);
	bs_run_set(&r->format, BS_FMT_BSTORE_RUN);
	bs_run_set(&r->machine, o->machine);
	bs_run_set(&r->source, "bstore run");
	r->measured_at = (int64_t)time(NULL);
	fill_params(o, r);

	rc = bench_stopped(&b);
	if (rc == 0 && o->p.file_size_mib > 0)
		rc = bench_io_tests(&b);
	if (rc == 0 && o->p.file_size_mib > 0 && o->p.seeks > 0)
		rc = bench_seek_test(&b);
	if (rc == 0 && b.data_exists) {
		rc = bs_scratch_remove(&b.scratch, BENCH_DATA_NAME, 0, err);
		b.data_exists = 0;
	}
	if (rc == 0 && o->p.num_files > 0)
		rc = bench_file_tests(&b);
	if (rc == 0)
		rc = bench_stopped(&b);
out:
	/* Clean up whatever happened; report the first error only. */
	if (bs_scratch_close(&b.scratch, &cerr) < 0) {
		if (rc == 0)
			rc = bs_error(err, cerr.code, "%s", cerr.msg);
		else if (!same_path(err->msg, cerr.msg)) {
			size_t n = strlen(err->msg);

			snprintf(err->msg + n, sizeof(err->msg) - n, "; and %s",
				 cerr.msg);
		}
	}
	free(b.buf);
	pthread_mutex_destroy(&b.tick_lock);
	if (rc == 0) {
		bs_bonnie_round_run(r);
		bs_bonnie_csv(r, BS_CSV_1_98, &csv);
		r->raw = bs_buf_detach(&csv, NULL);
	}
	bs_buf_release(&csv);
	return rc;
}
