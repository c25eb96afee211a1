/*
 * core/bench.h - the bonnie++-compatible benchmark behind `bstore run`.
 *
 * One call to bs_bench_run() is one iteration of bonnie++ 2.00a's suite,
 * measured the way bonnie++ measures it (docs/input-formats.md section 8), in its
 * order:
 *
 *   putc        one-byte write(2)s over the per-char size (default 3 MiB),
 *               then fsync and close, all timed; latency per chunk of
 *               chunk-size calls, as bonnie++ reports it
 *   put_block   write(2) of chunk-size blocks over the file size, fsync
 *   rewrite     read a chunk, change a byte, write it back; fsync
 *   getc        one-byte read(2)s over the per-char size
 *   get_block   read(2) of chunk-size blocks over the file
 *   seeks       seek_procs threads take `seeks` tickets from a pipe and
 *               read a random chunk for each; every tenth also writes
 *               it back; each thread fsyncs at the end, and the I/O
 *               file is deleted inside the timing, as bonnie++ does
 *   seq_create, seq_stat, seq_del, ran_create, ran_stat, ran_del
 *               num x 1024 files in num_dirs directories, created in
 *               name order then in random order; "stat" is bonnie++'s
 *               Read column (stat, and read the contents when files have
 *               any); create and delete end with syncfs(2)
 *
 * Where bonnie++ 2.00a is wrong, this is not: %CP of the seek test counts
 * the process once (bonnie++ adds the whole process's CPU once per
 * thread), the seek test does not sleep 3 s first, files are synced with
 * syncfs(2) of the tested file system rather than sync(2) of all of them,
 * written data is not mostly zeros (compressing or deduplicating file
 * systems would otherwise flatter the result), and the per-test wall
 * clock is monotonic.
 *
 * A test that takes under 0.5 s is too_fast (bonnie++'s "+++++"): no
 * rate and no CPU, but its latencies are kept. Every test records the
 * maximum, mean, median and 99th percentile operation latency.
 *
 * no_sync (`bstore run --no-sync`) drops every fsync(2) and syncfs(2),
 * the closing ones included: a run then measures the page cache, not the
 * disk. It is for tests that check the output, which otherwise pay for
 * real syncs; a run made so is no measurement.
 *
 * The core prints nothing: progress goes through struct bs_bench_cb.
 * Scratch files live in a private directory (core/scratch.h) that is
 * removed on every return, success or not. A SIGINT/SIGTERM/SIGHUP caught
 * by bs_signals_install() stops the run with BS_EINTR.
 */
#ifndef BS_CORE_BENCH_H
#define BS_CORE_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "core/param.h"
#include "core/result.h"
#include "util/buf.h"
#include "util/err.h"

/* bonnie++'s defaults of -s, -f, -n and -c are the parameter table's
 * (core/param.c, bs_params_defaults). */
#define BS_BENCH_MIN_TIME 0.5 /* seconds; shorter is too_fast */
#define BS_BENCH_MAX_SEEK_PROCS 64
#define BS_BENCH_MAX_DIRS 99999
/* Longest name a file test makes: 10 hex digits + 12 random characters. */
#define BS_BENCH_NAME_MAX 23

/*
 * Filled from bonnie++'s options by core/bench_opts.h, which also has
 * bs_bench_defaults() and bs_bench_check().
 *
 * p holds the run's parameters: the bonnie family's rows of the parameter
 * table (core/param.h says what each means, core/bench_opts.h how it is
 * spelled and its range). The record gets p as it is, except that its
 * per-char size is capped at the file size and its seed is the text of
 * `seed` below. The other families' parameters stay unknown and p's text
 * NULL: nothing here owns memory.
 *
 * A zero file size skips the five I/O tests, zero seeks the seek test, a
 * zero per-char size putc and getc, and zero files the file tests.
 *
 * The parsers read sizes and counts as uint64_t and keep their bits in
 * p's int64_t fields, so that bs_bench_check() quotes a value over
 * INT64_MAX as it was given: until the check passes, read them back as
 * uint64_t. After it, all are in range but the per-char size, which has
 * no limit of its own (the I/O tests cap it at the file size).
 */
struct bs_bench_opts {
	const char *dir;          /* -d: where the scratch directory goes */
	const char *machine;      /* -m */
	const char *tool_version; /* "0.1.0" (BSTORE_VERSION) */
	struct bs_params p;       /* the run's parameters, as above */
	int fsync_each;           /* -b: fsync after every write */
	int no_sync;              /* --no-sync: no fsync or syncfs at all */
	int direct;               /* -D: O_DIRECT for the bulk tests */
	uint64_t seed;            /* -z; the record keeps it as text */
};

/*
 * Progress. total/done count bytes for the five I/O tests and operations
 * otherwise. Any callback may be NULL. Callbacks run in the benchmark's
 * thread (for seeks, one of the worker threads, one at a time).
 */
struct bs_bench_cb {
	void (*start)(enum bs_metric m, uint64_t total, void *ctx);
	/* About four times a second while a test runs. */
	void (*progress)(enum bs_metric m, uint64_t done, uint64_t total,
			 double elapsed_s, void *ctx);
	void (*done)(enum bs_metric m, const struct bs_value *v,
		     double elapsed_s, void *ctx);
	void *ctx;
};

/*
 * Bytes of disk the run needs at most (the I/O file, the file tests'
 * contents and a margin for metadata), and inodes.
 */
void bs_bench_needs(const struct bs_bench_opts *o, uint64_t *bytes,
		    uint64_t *inodes);

/*
 * Runs one iteration. r is initialised here and filled: tool "bstore",
 * tool_version, format BS_FMT_BSTORE_RUN, machine, measured_at (start),
 * params (what the run used, including what its line leaves out),
 * res[] rounded as bonnie++ prints them (bs_bonnie_round_run, so that
 * its results are exactly what its line says), source "bstore run",
 * and raw = the 1.98 CSV line (bs_bonnie_csv). Tags are left to the
 * caller (core/host.h).
 * On error or interruption (BS_EINTR) r holds nothing worth storing.
 */
int bs_bench_run(const struct bs_bench_opts *o, const struct bs_bench_cb *cb,
		 struct bs_run *r, struct bs_err *err);

#endif
