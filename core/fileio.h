/*
 * core/fileio.h - `bstore fileio`: sysbench 1.0.20's fileio test, measured
 * the way sysbench measures it, and its output in sysbench 1.0's layout.
 *
 * Options (core/fileio_opts.c holds their one table: name, kind, default,
 * help) are sysbench's, with its spellings and defaults. The three steps
 * are sysbench's:
 *
 *   prepare   test_file.0 .. test_file.N-1 of total/N bytes each, written
 *             in whole blocks and fsync'ed (seqwr: the files are removed,
 *             as its run creates them)
 *   run       N threads take requests from one generator until --time or
 *             --events: sequential modes walk the files block by block,
 *             the random ones pick a block of all the files (--rand-type),
 *             rndrw reads while reads/writes of the thread are under
 *             --file-rw-ratio; every --file-fsync-freq requests after a
 *             write the next requests are fsyncs, one file each; with
 *             --file-fsync-end every thread fsyncs every file at the end
 *             (counted in fsyncs/s, not in events); a request's latency
 *             is its own system call(s), not the wait for the generator
 *             (with --file-io-mode=async: its submission, and the wait
 *             for a completion when the backlog is full)
 *   cleanup   the files are removed
 *
 * The files live in a directory given by descriptor, or in a private
 * scratch directory (core/scratch.h), whose files are created through it
 * and so removed by bs_scratch_close(). The core prints nothing: the text
 * is made by bs_fileio_text_*() into a buffer, progress and the
 * --report-interval rows go through struct bs_fileio_cb. A stop signal
 * (bs_signals_install) ends a step with BS_EINTR.
 */
#ifndef BS_CORE_FILEIO_H
#define BS_CORE_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "core/scratch.h"
#include "core/timer.h"
#include "util/buf.h"
#include "util/err.h"

/* What the stored text and the first line say it is compatible with. */
#define BS_FILEIO_SYSBENCH "1.0.20"

/* --file-test-mode, in sysbench's order. */
enum bs_fileio_mode {
	BS_FILEIO_SEQWR,
	BS_FILEIO_SEQREWR,
	BS_FILEIO_SEQRD,
	BS_FILEIO_RNDRD,
	BS_FILEIO_RNDWR,
	BS_FILEIO_RNDRW,
	BS_FILEIO_NMODES,
	BS_FILEIO_NOMODE = BS_FILEIO_NMODES /* not given */
};

enum bs_fileio_io { BS_FILEIO_IO_SYNC, BS_FILEIO_IO_ASYNC, BS_FILEIO_IO_MMAP };
enum bs_fileio_fsync { BS_FILEIO_FSYNC, BS_FILEIO_FDATASYNC };
enum bs_fileio_rand {
	BS_FILEIO_RAND_UNIFORM,
	BS_FILEIO_RAND_GAUSSIAN,
	BS_FILEIO_RAND_SPECIAL,
	BS_FILEIO_RAND_PARETO,
};

/* --file-extra-flags bits. */
enum {
	BS_FILEIO_F_SYNC = 1,
	BS_FILEIO_F_DSYNC = 2,
	BS_FILEIO_F_DIRECT = 4,
};

/* Every option, as the table in core/fileio_opts.c fills it. */
struct bs_fileio_opts {
	uint64_t file_num;
	uint64_t block_size;
	uint64_t total_size;
	unsigned mode;        /* enum bs_fileio_mode */
	unsigned io_mode;     /* enum bs_fileio_io */
	unsigned extra_flags; /* BS_FILEIO_F_* */
	uint64_t fsync_freq;
	unsigned fsync_all;
	unsigned fsync_end;
	unsigned fsync_mode;      /* enum bs_fileio_fsync */
	uint64_t merged_requests; /* seq modes: requests of up to N blocks */
	uint64_t async_backlog;   /* async: requests in flight per thread */
	double rw_ratio;
	uint64_t threads;
	uint64_t time_s; /* 0: no limit */
	uint64_t events; /* 0: no limit */
	uint64_t report_interval_s;
	uint64_t percentile; /* 0: off */
	unsigned rand_type;  /* enum bs_fileio_rand */
	uint64_t rand_spec_pct;
	uint64_t rand_spec_res;
	double rand_pareto_h;
	uint64_t rand_seed; /* 0: from the clock (the run says which) */
	unsigned validate;
	unsigned histogram; /* print the latency histogram */
};

/* One row of the option table. */
enum bs_fileio_kind {
	BS_FK_COUNT, /* a whole number */
	BS_FK_SIZE,  /* bytes, k/m/g/t suffixes (1024-based) */
	BS_FK_REAL,
	BS_FK_BOOL,   /* on/off, yes/no, true/false, 1/0; alone: on */
	BS_FK_CHOICE, /* one word of choices */
	BS_FK_FLAGS,  /* words of choices joined by ',': bits */
};

struct bs_fileio_option {
	const char *name; /* "file-num", as sysbench spells it */
	enum bs_fileio_kind kind;
	size_t offset;    /* in struct bs_fileio_opts */
	const char *dflt; /* sysbench's default, as text; NULL: none */
	const char *const *choices; /* CHOICE and FLAGS, NULL-terminated */
	uint64_t min, max;          /* COUNT and SIZE */
	const char *arg;            /* "N", "SIZE", "MODE" for the help */
	const char *help;
};

extern const struct bs_fileio_option bs_fileio_options[];
extern const int bs_fileio_noptions;

/* sysbench 0.4's spellings that 1.0.20 still takes, with a warning
 * ("--num-threads is deprecated, use --threads instead"). */
struct bs_fileio_alias {
	const char *name;   /* "num-threads" */
	const char *option; /* "threads": a row of bs_fileio_options */
};

extern const struct bs_fileio_alias bs_fileio_aliases[];
extern const int bs_fileio_naliases;

/* The option called name (without "--"), or -1. */
int bs_fileio_option_find(const char *name);
/* Sets every option to its default. */
void bs_fileio_defaults(struct bs_fileio_opts *o);
/* What sysbench 1.0.20 makes of the options once given: --file-fsync-all
 * turns --file-fsync-end and --file-fsync-freq off (it prints neither). */
void bs_fileio_settle(struct bs_fileio_opts *o);
/* Sets option i from its text (NULL: a BOOL given alone). */
int bs_fileio_option_set(struct bs_fileio_opts *o, int i, const char *value,
			 struct bs_err *err);
/* A choice's word: bs_fileio_word("file-test-mode", BS_FILEIO_RNDRW). */
const char *bs_fileio_word(const char *name, unsigned v);
/* What sysbench prints for a mode: "random r/w" ("Doing random r/w test"). */
const char *bs_fileio_mode_text(unsigned mode);
/* "direct", "sync,dsync", "" for none: as --file-extra-flags spells them. */
void bs_fileio_flags_text(unsigned flags, struct bs_buf *out);
/*
 * Whether the options make a run: a mode (for run: need_mode), block and
 * file sizes that fit, a percentile of 0-100, no --validate with async.
 */
int bs_fileio_check(const struct bs_fileio_opts *o, int need_mode,
		    struct bs_err *err);
/* total / file_num: the size of one file, as sysbench computes it. */
uint64_t bs_fileio_file_size(const struct bs_fileio_opts *o);
/* The largest request: the block, times --file-merged-requests in the
 * sequential modes (sysbench's file_request_size). */
uint64_t bs_fileio_request_size(const struct bs_fileio_opts *o);

/*
 * sysbench 1.0.20's latency histogram (sb_histogram.c, as sysbench.c
 * sets it up): 1024 buckets on a log scale from 0.001 to 100000 ms, a
 * latency in the nearest, the ends taking what is beyond them. bstore
 * keeps it beside its own (struct bs_hist, for the percentiles) so that
 * the rows it prints and stores are sysbench's.
 */
#define BS_FILEIO_HIST_SIZE 1024
struct bs_fileio_hist {
	uint64_t n[BS_FILEIO_HIST_SIZE];
};

void bs_fileio_hist_add(struct bs_fileio_hist *h, uint64_t ns);
void bs_fileio_hist_merge(struct bs_fileio_hist *dst,
			  const struct bs_fileio_hist *src);
/* The value of bucket i, in ms, as sysbench prints it (unrounded). */
double bs_fileio_hist_ms(unsigned i);

/* Where the files are: a scratch (its files removed with it) or a
 * directory descriptor; path names them in messages. */
struct bs_fileio_dir {
	struct bs_scratch *scratch; /* or NULL */
	int fd;                     /* the directory when scratch is NULL */
	const char *path;
};

/* A --report-interval row. */
struct bs_fileio_interval {
	double t_s; /* end of the interval, from the start */
	double read_mib_s;
	double written_mib_s;
	double fsyncs_per_s;
	double lat_pct_ms; /* the --percentile of the interval; NAN */
};

struct bs_fileio_cb {
	/* About four times a second: seconds so far, bytes done so far
	 * (prepare) or events so far (run). */
	void (*progress)(double elapsed_s, uint64_t done, uint64_t total,
			 void *ctx);
	/* A --report-interval row, as it ends. */
	void (*interval)(const struct bs_fileio_interval *iv, void *ctx);
	/* prepare's lines ("Creating file test_file.0"), without '\n'. */
	void (*line)(const char *text, void *ctx);
	void *ctx;
};

struct bs_fileio_result {
	uint64_t reads, writes, fsyncs, events;
	uint64_t bytes_read, bytes_written;
	double time_s;                    /* start to the last thread's end */
	struct bs_hist hist;              /* every event's latency */
	struct bs_fileio_hist sbhist;     /* the same, in sysbench's buckets */
	double events_avg, events_stddev; /* per thread */
	double exec_avg_s, exec_stddev_s; /* per thread: time in events */
	uint64_t seed;                    /* the one used */
	struct bs_fileio_interval *iv;
	size_t niv, iv_cap;
};

void bs_fileio_result_release(struct bs_fileio_result *res);

/* prepare: creates (or reuses, or extends) the files. */
int bs_fileio_prepare(const struct bs_fileio_opts *o,
		      const struct bs_fileio_dir *d,
		      const struct bs_fileio_cb *cb, struct bs_err *err);
/* run: res is filled (bs_fileio_result_release frees it). */
int bs_fileio_run(const struct bs_fileio_opts *o, const struct bs_fileio_dir *d,
		  const struct bs_fileio_cb *cb, struct bs_fileio_result *res,
		  struct bs_err *err);
/* The name of test file i, "test_file.3", in a buffer of 32 bytes. */
void bs_fileio_file_name(char *buf, size_t size, uint64_t i);
/* cleanup: removes test_file.0 .. test_file.N-1; missing ones are fine. */
int bs_fileio_cleanup(const struct bs_fileio_opts *o,
		      const struct bs_fileio_dir *d, struct bs_err *err);

/*
 * The text, in sysbench 1.0.20's layout. head: the first line (from
 * tool_version), the options block and "Threads started!"; interval: one
 * "[ 1s ] reads: ..." line; summary: "File operations:" to the fairness
 * block, after the latency histogram (--histogram). Latencies print
 * with 4 decimals where sysbench prints 2 (the histogram's values too,
 * where sysbench prints 3).
 */
void bs_fileio_text_head(const struct bs_fileio_opts *o,
			 const char *tool_version, uint64_t seed,
			 struct bs_buf *out);
void bs_fileio_text_interval(const struct bs_fileio_opts *o,
			     const struct bs_fileio_interval *iv,
			     struct bs_buf *out);
void bs_fileio_text_summary(const struct bs_fileio_opts *o,
			    const struct bs_fileio_result *res,
			    struct bs_buf *out);
/* prepare's first line: "4 files, 1024Kb each, 4Mb total". */
void bs_fileio_text_prepare(const struct bs_fileio_opts *o, struct bs_buf *out);

/*
 * The run record of a finished run: family sysbench, tool "bstore",
 * format BS_FMT_BSTORE_FILEIO, source "bstore fileio", the parameters,
 * the results exactly as summary printed them (so that ingesting the
 * text gives the same values), p99 (and p50, p90) from the histogram
 * when not printed, the --report-interval rows as series (axis
 * "time_s"), the latency histogram as the series latency_histogram (axis
 * "latency_ms": each bucket that holds events, its value as the text
 * prints it, y its count; stored with or without --histogram), raw =
 * text.
 */
void bs_fileio_to_run(const struct bs_fileio_opts *o,
		      const struct bs_fileio_result *res,
		      const char *tool_version, const char *machine,
		      int64_t measured_at, const char *text, struct bs_run *r);

#endif
