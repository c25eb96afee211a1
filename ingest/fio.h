/*
 * ingest/fio.h - private to ingest/: fio's output formats (JSON and
 * JSON+, terse v3-v5, the normal text) as rows of the registry
 * (ingest/formats.c), and what they share: one run per job, its metrics
 * per direction (read, write, trim) under the catalogue's fio keys, and
 * its parameters from fio's job options (docs/formats.md, "Ingest: fio").
 */
#ifndef BS_INGEST_FIO_H
#define BS_INGEST_FIO_H

#include <stddef.h>

#include "core/result.h"
#include "ingest/block.h"
#include "ingest/format.h"

/* The directions fio reports, in its order. */
enum bs_fio_dir { BS_FIO_READ, BS_FIO_WRITE, BS_FIO_TRIM, BS_FIO_NDIR };

/* What a direction has, in the catalogue's order of a direction's rows. */
enum bs_fio_stat {
	BS_FIO_BW, /* KiB/s */
	BS_FIO_IOPS,
	BS_FIO_LAT_MEAN, /* us, total latency (lat, not clat) */
	BS_FIO_P50,      /* clat percentiles, us */
	BS_FIO_P90,
	BS_FIO_P95,
	BS_FIO_P99,
	BS_FIO_P99_9,
	BS_FIO_P99_99,
	BS_FIO_NSTAT
};

/* The latency histograms of json+ ("bins") a direction may have. */
enum bs_fio_hist {
	BS_FIO_HIST_CLAT,
	BS_FIO_HIST_SLAT,
	BS_FIO_HIST_LAT,
	BS_FIO_NHIST
};

/* The catalogue row of stat of direction dir. */
int bs_fio_metric(int dir, int stat);
/* The percentile stat is (50, 99.9, ...), or 0 for one that is none. */
double bs_fio_stat_pct(int stat);
/* The catalogue row of histogram h of direction dir: "read_clat_hist". */
int bs_fio_hist_metric(int dir, int h);

/* The registry's ops and line format for these rows. */
extern const struct bs_block_ops bs_fio_json_ops;
extern const struct bs_block_ops bs_fio_text_ops;
int bs_fio_terse_probe(const struct bs_format *f, const struct bs_fline *l);
int bs_fio_terse_parse(const struct bs_format *f, const struct bs_fline *l,
		       struct bs_run *r, struct bs_err *err);

/* "read", "write", "trim" (any case, len bytes) as a direction, or -1. */
int bs_fio_dir_find(const char *s, size_t len);
/* The stat of clat percentile p (50, 90, 95, 99, 99.9, 99.99), or -1
 * for one bstore does not keep. */
int bs_fio_pct_stat(double p);

/*
 * Makes r (bs_run_init()ed) a fio run of format: family, tool, format,
 * and the version from what fio printed ("fio-3.33" gives "3.33"; NULL
 * or "" gives none).
 */
void bs_fio_run_start(const char *format, const char *version,
		      size_t version_len, struct bs_run *r /* OUT */);

/*
 * Stores v (in the catalogue's unit) as stat of direction dir. Returns
 * 0, or -1 with a reason when v is out of the metric's range.
 */
int bs_fio_set(struct bs_run *r, int dir, int stat, double v, char *reason,
	       size_t reasonsz);

/*
 * Applies the job option name=value (fio's spelling) to r's parameters
 * when it is one bstore keeps (rw, bs, ioengine, iodepth, numjobs, size,
 * direct); others are ignored. Returns 0, or -1 with a reason for a
 * value the parameter cannot hold ("iodepth=-3").
 */
/*
 * Sets the deciding options a job did not list to fio's defaults (rw
 * read, bs 4k, ioengine psync from fio 3, iodepth, numjobs 1, direct 0):
 * the JSON's job options list only the options given, so an option it
 * leaves out is fio's default (docs/formats.md, "fio"). Not for the
 * normal text or the terse line, which print only some of them.
 */
void bs_fio_defaults(struct bs_run *r);
int bs_fio_option(struct bs_run *r, const char *name, const char *value,
		  size_t value_len, char *reason, size_t reasonsz);

/*
 * A job that ended with error err (err_len bytes: "5", "25"): when r
 * holds a result above 0 the job did I/O and is kept, tagged
 * fio.error=ERR, with a warning; returns 0. Else -1 with a reason.
 */
int bs_fio_error(struct bs_run *r, const char *name, const char *err,
		 size_t err_len, char *reason, size_t reasonsz);

/* msg added to r's warning (after "; " when it has one). */
void bs_fio_warn(struct bs_run *r, const char *msg);

/* Bytes of user data quoted in a reason (bs_err_quote()). */
#define BS_FIO_QUOTE_MAX 40

/* Replaces the control bytes of a reason (a job name, jansson's quote of
 * the input) by '?'. */
void bs_fio_clean(char *reason);

#endif
