/*
 * core/bench_opts.h - bonnie++ 2.00a's options for the benchmark, spelled
 * as bonnie++ spells them (docs/input-formats.md sections 1.7, 8.1 and 8.5): its
 * defaults, the syntax of -s, -n, -f, -c and -r, and its limits.
 *
 *   -s SIZE[:CHUNK[:SEEKS[:PROCS]]]      -n NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]
 *
 * Sizes take k, m, g and t suffixes, powers of 1024: a file size is MiB
 * ("300", "2g", "1536m"), a chunk or file size is bytes ("4k", "1m"), a
 * count of seeks, seek threads or directories may end in k (x1024), and
 * NUM (in 1024s of files) in m (x1024). An empty part keeps what o holds
 * ("-s 8::100"), so a later -s or -n changes only the parts it gives.
 *
 * A parser reads one option's argument into o, or fails with BS_EINVAL
 * and a message that names the option ("-s: bad chunk size '3k5'"),
 * leaving o as it was. Nothing here prints: cli/cmd_run.c does, and picks
 * the exit status. Syntax is checked here; ranges (a chunk must be a power
 * of 2 between 256 and 1m...) by bs_bench_check(), once all options are
 * in.
 */
#ifndef BS_CORE_BENCH_OPTS_H
#define BS_CORE_BENCH_OPTS_H

#include <stdint.h>

#include "core/bench.h"
#include "util/err.h"

/* bonnie++'s file size when -s is not given and the RAM is unknown. */
#define BS_BENCH_DEFAULT_FILE_MIB 300

/*
 * Fills o with bonnie++'s defaults (file size 0 until set); o->p starts
 * from bs_params_init(), so the other tools' parameters are unknown.
 */
void bs_bench_defaults(struct bs_bench_opts *o);

/* -s SIZE[:CHUNK[:SEEKS[:PROCS]]]: sets file_size_mib, and the others given. */
int bs_bench_opts_parse_s(struct bs_bench_opts *o, const char *arg,
			  struct bs_err *err);

/*
 * -n NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]: sets num_files, and the others given.
 * MAX may be -1 or "link" (hard links), -2 or "symlink".
 */
int bs_bench_opts_parse_n(struct bs_bench_opts *o, const char *arg,
			  struct bs_err *err);

/*
 * -f[SIZE]: arg NULL (a bare -f) skips the per-char tests; else their size
 * in MiB. As in bonnie++ the value must be attached ("-f4"): getopt's
 * "f::" leaves a detached one as an operand.
 */
int bs_bench_opts_parse_f(struct bs_bench_opts *o, const char *arg,
			  struct bs_err *err);

/* -c N: concurrency 1 to 200, recorded only (bonnie++ 2.00a runs nothing
 * concurrently). */
int bs_bench_opts_parse_c(struct bs_bench_opts *o, const char *arg,
			  struct bs_err *err);

/* -r RAM: MiB, with suffixes; 0 turns the RAM rule off. */
int bs_bench_opts_parse_ram(const char *arg, int64_t *ram_mib /* OUT */,
			    struct bs_err *err);

/*
 * bonnie++'s RAM rule: the I/O file must be twice the RAM, or the read
 * tests measure the page cache. Without -s (size_given 0) it sets the file
 * size: twice the RAM, at least 300 MiB, rounded up to a whole GiB when
 * over half of one. With -s it refuses a file smaller than that, naming
 * -s and -r 0 as ways out. ram_mib <= 0 (-r 0, or unknown) turns the rule
 * off.
 */
int bs_bench_opts_ram_rule(struct bs_bench_opts *o, int size_given,
			   int64_t ram_mib, struct bs_err *err);

/*
 * Checks the options without touching the disk: bonnie++'s ranges, and
 * that the file tests' bookkeeping fits in memory. Fails with BS_EINVAL.
 */
int bs_bench_check(const struct bs_bench_opts *o, struct bs_err *err);

#endif
