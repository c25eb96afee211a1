/*
 * core/result.h - the run record every module shares.
 *
 * A run is one measurement: one bonnie++ CSV line, one `bstore run`
 * iteration. The benchmark core and the parsers fill a struct bs_run; the
 * store writes it with one function (bs_store_put) and reads it back into
 * the same struct. Metric keys follow bonnie++'s CSV header names.
 *
 * Absent numbers: doubles are NAN (test with isnan()), integer parameters
 * are BS_NONE. Strings are owned by the run (bs_run_release frees them) and
 * may be NULL when unknown.
 */
#ifndef BS_CORE_RESULT_H
#define BS_CORE_RESULT_H

#include <stddef.h>
#include <stdint.h>

/* The twelve bonnie++ tests, in bonnie++'s column (and execution) order. */
enum bs_metric {
	BS_M_PUTC,
	BS_M_PUT_BLOCK,
	BS_M_REWRITE,
	BS_M_GETC,
	BS_M_GET_BLOCK,
	BS_M_SEEKS,
	BS_M_SEQ_CREATE,
	BS_M_SEQ_STAT,
	BS_M_SEQ_DEL,
	BS_M_RAN_CREATE,
	BS_M_RAN_STAT,
	BS_M_RAN_DEL,
	BS_M_COUNT
};

#define BS_M_FIRST_FILE BS_M_SEQ_CREATE /* file tests start here */

/*
 * What a test's cell says. NOT_RUN is an empty field (test skipped);
 * TOO_FAST is bonnie's "+++++": the test ran in under 0.5 s and has no
 * rate. TOO_FAST is never 0 and never NOT_RUN.
 */
enum bs_status {
	BS_ST_NOT_RUN = 0,
	BS_ST_OK,
	BS_ST_TOO_FAST,
};

struct bs_value {
	enum bs_status status;
	double value;      /* rate in the metric's unit; NAN unless OK */
	double cpu_pct;    /* user+sys CPU over wall time, NAN if unknown */
	double lat_us;     /* maximum single-operation latency, NAN if unknown */
	/* Only from the benchmark core; NAN otherwise. */
	double lat_mean_us;
	double lat_p50_us;
	double lat_p99_us;
};

/* max_size / min_size special values, as bonnie++'s -n spells them. */
#define BS_SIZE_LINK (-1)
#define BS_SIZE_SYMLINK (-2)
#define BS_NONE INT64_MIN /* unknown integer parameter */

struct bs_params {
	int64_t file_size_mib;    /* -s size */
	int64_t io_chunk_bytes;   /* -s :chunk */
	int64_t seeks;            /* -s ::seeks */
	int64_t seek_procs;       /* -s :::procs */
	int64_t per_char_mib;     /* -f size */
	int64_t num_files;        /* -n num, in units of 1024 files */
	int64_t max_size;         /* bytes, or BS_SIZE_LINK/BS_SIZE_SYMLINK */
	int64_t min_size;         /* bytes */
	int64_t num_dirs;
	int64_t file_chunk_bytes;
	int64_t concurrency;      /* -c, recorded only */
	char *seed;               /* -z number or -Z file name, verbatim */
};

struct bs_tag {
	char *key;
	char *value;
};

struct bs_run {
	int64_t id;               /* 0 until stored */
	char *tool;               /* "bonnie++", "bstore" */
	char *tool_version;       /* "1.03", "2.00a"; "1.0x" when unknown */
	char *format;             /* see BS_FMT_* */
	char *machine;            /* may be "" (bonnie++ allows an empty -m) */
	int64_t measured_at;      /* unix seconds, BS_NONE when unknown */
	int64_t stored_at;        /* unix seconds, set by the store */
	struct bs_params params;
	struct bs_value res[BS_M_COUNT];
	/* Provenance. */
	char *raw;                /* the original line, without "\r\n" */
	char sha256[65];          /* of raw; "" until computed */
	char *source;             /* file name, "<stdin>", or "bstore run" */
	int64_t source_line;      /* 1-based, BS_NONE if none */
	char *parser_version;
	char *warning;            /* e.g. a beta layout stored best-effort */
	struct bs_tag *tags;
	size_t ntags, tags_cap;
};

/* Input formats (runs.format). */
#define BS_FMT_CSV_1_0X "bonnie++-csv-1.0x"   /* 27 fields, 1.00-1.04 */
#define BS_FMT_CSV_BETA "bonnie++-csv-beta"   /* 1.90-1.92a */
#define BS_FMT_CSV_1_96 "bonnie++-csv-1.96"   /* 1.92b-1.96, 48 fields */
#define BS_FMT_CSV_1_96S "bonnie++-csv-1.96-s0" /* 47-field -s 0 bug */
#define BS_FMT_CSV_1_97 "bonnie++-csv-1.97"   /* 48 fields */
#define BS_FMT_CSV_1_98 "bonnie++-csv-1.98"   /* 50 fields, 1.98-2.00a */
#define BS_FMT_BSTORE_RUN "bstore-run"

struct bs_metric_info {
	const char *key;       /* bonnie++ CSV header name: "put_block" */
	const char *label;     /* "Block write" */
	const char *unit;      /* as bonnie++ reports it: "KiB/s" */
	int is_io;             /* one of the five KiB/s I/O tests */
};

extern const struct bs_metric_info bs_metrics[BS_M_COUNT];

/* Status as stored and printed: "ok", "too_fast", "not_run". */
const char *bs_status_name(enum bs_status st);
/* Parses a status name; returns 0 or -1. */
int bs_status_parse(const char *s, enum bs_status *out);
/* Index of a metric key, or -1. */
int bs_metric_find(const char *key);

/* Initialises every field to unknown/not run. */
void bs_run_init(struct bs_run *r);
/* Frees what the run owns and leaves it initialised. */
void bs_run_release(struct bs_run *r);
/* Sets a string field: frees the old value, copies s (may be NULL). */
void bs_run_set(char **field, const char *s);
/* Adds or replaces a tag. */
void bs_run_tag(struct bs_run *r, const char *key, const char *value);
/* Returns the tag's value or NULL. */
const char *bs_run_tag_get(const struct bs_run *r, const char *key);

#endif
