/*
 * ingest/ingest.h - bytes in, run records out. No SQL here.
 *
 * A struct bs_ingest reads one input (a file or standard input) fed in
 * chunks of any size. It splits lines (LF or CRLF), cleans each (see
 * struct bs_fline in ingest/format.h) and offers it to the formats of the
 * registry (ingest/format.h) in order: the first that claims it parses it
 * into a struct bs_run for the run callback, or into a reason for the
 * reject callback (the rest of the input is still parsed). Lines no
 * format claims (headers, `#` comments, prose, progress lines, other
 * tools' output) are skipped.
 *
 * Captured bonnie++ output (progress lines, the text table, then the CSV
 * line) yields exactly one run per CSV line: the table followed by its
 * own CSV line is that line's run (the table gives a 1.0x line, which has
 * none, its version); a table without its line is a run of its own. One
 * measurement printed twice in an input (a table and its line, fio's
 * terse line and its normal report) is stored once (core/same.h).
 */
#ifndef BS_INGEST_INGEST_H
#define BS_INGEST_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "ingest/format.h"
#include "util/err.h"

#define BS_PARSER_VERSION "bstore-ingest 1"

/*
 * The tags a parser gives a run: its date is a local time the output
 * printed with no zone (fio's text report), stored as if UTC (value
 * "local"); a fio job's --write_*_log prefixes, the base names its log
 * files start with (space-separated), by which bstore ingest attaches
 * the logs to it. Every other tag comes from the user (or, fio.log.*,
 * from the logs attached).
 */
#define BS_INGEST_TZ_TAG "measured_at.tz"
#define BS_INGEST_FIO_LOG_TAG "fio.log.prefix"

/* Lines longer than this are rejected, and kept cut to BS_REJECT_KEEP. */
#define BS_LINE_MAX (1024 * 1024)
#define BS_REJECT_KEEP (64 * 1024)

struct bs_ingest_cb {
	/*
	 * One parsed run. r is filled (raw, sha256, source, source_line,
	 * parser_version set) and owned by the parser: valid only during
	 * the call; the callee may bs_run_tag() it. Return <0 to stop.
	 */
	int (*run)(struct bs_run *r, void *ctx);
	/*
	 * A malformed line. raw is the line as read (without "\r\n"), cut
	 * to BS_REJECT_KEEP bytes (truncated says so); reason names what is
	 * wrong without the file and line prefix, e.g. "expected 50 fields
	 * for bonnie++ 1.98 CSV, found 31". Return <0 to stop.
	 */
	int (*reject)(int64_t line, const char *raw, size_t len, int truncated,
		      const char *reason, void *ctx);
	/* A warning about a stored run (e.g. a beta layout). May be NULL. */
	void (*warn)(int64_t line, const char *msg, void *ctx);
	void *ctx;
};

struct bs_ingest;

/*
 * source is the name used in records ("results.csv", "<stdin>"). force,
 * when not NULL, is the one format to parse with (--format): every line
 * some format would claim is parsed as force.
 */
struct bs_ingest *bs_ingest_new(const char *source,
				const struct bs_ingest_cb *cb,
				const struct bs_format *force);
void bs_ingest_free(struct bs_ingest *p);

/*
 * Feeds the next chunk. Returns 0, or <0 if a callback stopped the parse
 * or the input is not text (a NUL byte: BS_EPARSE, "not a text file (NUL
 * byte at line N)"); err is filled then.
 */
int bs_ingest_feed(struct bs_ingest *p, const char *data, size_t len,
		   struct bs_err *err);
/* Parses a final line without a newline. Call once after the last feed. */
int bs_ingest_finish(struct bs_ingest *p, struct bs_err *err);

/* Rows of the registry the stats can count. */
#define BS_INGEST_FORMATS_MAX 32

/* Counters for the summary line. */
struct bs_ingest_stats {
	int64_t lines;   /* lines read */
	int64_t runs;    /* runs passed to cb->run */
	int64_t rejects; /* lines passed to cb->reject */
	int64_t skipped; /* headers, comments, other text */
	int64_t blocked; /* lines read into blocks (ingest/block.h), and
			   * the lines a wrapped line goes on in */
	int64_t twins;   /* runs not passed on: the same measurement as a
			   * run of this input that was (bs_run_same) */
	int64_t by_format[BS_INGEST_FORMATS_MAX]; /* runs per registry row */
};
void bs_ingest_stats(const struct bs_ingest *p, struct bs_ingest_stats *out);

/*
 * Parses one line (no newline) with the format registry into r (which the
 * caller has bs_run_init()ed and later releases). Returns:
 *   1   a run was parsed;
 *   0   no format claims the line (text, header, comment, blank): r
 *       untouched;
 *  <0   a format claims it but it is malformed: -BS_EPARSE, err saying
 *       why, and r released (back in its bs_run_init() state).
 * hint_version is a version seen in a preceding text table ("1.03d") used
 * for 27-field 1.0x lines, or NULL. Does not set provenance fields.
 */
int bs_ingest_parse_line(const char *line, size_t len, const char *hint_version,
			 struct bs_run *r, struct bs_err *err);

/*
 * fio's log files (--write_lat_log, --write_bw_log, --write_iops_log;
 * docs/ingest.md, "fio log files"): not results of their own but time
 * series of a fio run, which bstore ingest attaches to the run of the
 * same job. ingest/fio_log.c.
 */
enum bs_fio_log_kind {
	BS_FIO_LOG_LAT,
	BS_FIO_LOG_CLAT,
	BS_FIO_LOG_SLAT,
	BS_FIO_LOG_BW,
	BS_FIO_LOG_IOPS,
	BS_FIO_LOG_NKIND
};

/* What a log's file name says: fio names them PREFIX_KIND.N.log (N the
 * job's number, 1-based), or PREFIX_KIND.log with --per_job_logs=0. */
struct bs_fio_log_name {
	char prefix[256]; /* the base name's part before "_KIND" */
	enum bs_fio_log_kind kind;
	int job; /* N, or 0 when the name has none */
};

/* Whether path's base name is a fio log's: 1 and *out, or 0. */
int bs_fio_log_name(const char *path, struct bs_fio_log_name *out /* OUT */);
/* "lat", "clat", "slat", "bw", "iops". */
const char *bs_fio_log_kind_name(enum bs_fio_log_kind k);

/* At most this many points per direction are stored of a log; a longer
 * one is kept as windows of equal numbers of entries, each its mean. */
#define BS_FIO_LOG_POINTS 1000

/* The exact summary of one direction of a log, in the series' unit. */
struct bs_fio_log_sum {
	int64_t entries;
	double min, max, mean;
	int64_t per_point; /* entries per stored point: 1, or the window's */
};

/*
 * Parses a whole log (data, len bytes; name for messages) of kind: each
 * line "msec, value, ddir, bs[, offset][, prio]" as fio 2.x and 3.x
 * write them, with or without --log_avg_msec. Adds one curve per
 * direction it holds to r (a bs_run_init()ed run of family fio; axis
 * time_s, the metric <dir>_<kind>_log) and fills sum[dir]. Latencies
 * are in ns from fio 3 (lat_div 1000 gives us) and in us before
 * (lat_div 1). Returns the number of entries, or BS_EPARSE naming
 * name:line.
 */
int64_t bs_fio_log_parse(const char *name, const char *data, size_t len,
			 enum bs_fio_log_kind kind, double lat_div,
			 struct bs_run *r, struct bs_fio_log_sum sum[3],
			 struct bs_err *err);

#endif
