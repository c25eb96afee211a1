/*
 * core/result.h - the run record every module shares.
 *
 * A run is one measurement: one bonnie++ CSV line or text table, one
 * `bstore run` iteration, one sysbench or `bstore fileio` summary, one
 * zcav pass, one fio job, one dd copy. The benchmark core and the parsers
 * fill a struct bs_run; the store writes it with one function
 * (bs_store_put) and reads it back into the same struct. What its format
 * says (tool, era, table style) is the dialect table's (core/dialect.h).
 *
 * Results are indexed by the metric catalogue (core/metric.h): res[m] is
 * metric m of the run's family; the others stay not run. Parameters are
 * described by the parameter table (core/param.h).
 *
 * Absent numbers: doubles are NAN (test with isnan()), integer parameters
 * are BS_NONE. Strings are owned by the run (bs_run_release frees them) and
 * may be NULL when unknown.
 */
#ifndef BS_CORE_RESULT_H
#define BS_CORE_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "core/dialect.h"
#include "core/metric.h"
#include "core/param.h"

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
	double value; /* in the metric's unit; NAN unless OK */
	/* Metrics with BS_MF_CPU_LAT only; NAN otherwise or if unknown. */
	double cpu_pct; /* user+sys CPU over wall time */
	double lat_us;  /* maximum single-operation latency */
	/* Only from the benchmark core; NAN otherwise. */
	double lat_mean_us;
	double lat_p50_us;
	double lat_p99_us;
};

/* One point of a curve: zcav's position (GiB) and rate (MiB/s). */
struct bs_point {
	double x;       /* position or time, in the series' axis unit */
	double y;       /* the metric's value; NAN for a "++++" block */
	double seconds; /* time the point took; NAN if unknown */
};

/* A curve of one metric, e.g. zcav's throughput by position. */
struct bs_series {
	int metric; /* catalogue row */
	char *axis; /* what x is: "offset_gib", "time_s" */
	struct bs_point *pt;
	size_t n, cap;
};

struct bs_tag {
	char *key;
	char *value;
};

/*
 * One change bstore set made to a run (a row of the store's run_history):
 * the field or parameter key, its old and new value as text (a date field's
 * as ISO 8601 UTC; NULL: unknown), and when, in unix seconds.
 */
struct bs_history {
	char *field;
	char *old_value, *new_value;
	int64_t changed_at;
};

struct bs_run {
	int64_t id;            /* 0 until stored */
	enum bs_family family; /* which metrics and parameters apply */
	char *tool;            /* "bonnie++", "bstore", "fio", ... */
	char *tool_version;    /* "1.03", "2.00a"; "1.0x" when unknown */
	char *format;          /* BS_FMT_* (core/dialect.h) */
	char *machine;         /* may be "" (bonnie++ allows an empty -m) */
	int64_t measured_at;   /* unix seconds, BS_NONE when unknown */
	int64_t stored_at;     /* unix seconds, set by the store */
	struct bs_params params;
	/* Bit k: parameter row k was supplied by the user (ingest --param,
	 * bstore set), not read from the tool's output (core/supply.h). */
	uint64_t supplied;
	struct bs_value res[BS_M_MAX]; /* by catalogue row */
	struct bs_series *series;
	size_t nseries, series_cap;
	/* Provenance. */
	char *raw;           /* the original text, without "\r\n" */
	char sha256[65];     /* of raw; "" until computed */
	char *source;        /* file name, "<stdin>", or "bstore run" */
	int64_t source_line; /* 1-based, BS_NONE if none */
	char *parser_version;
	char *warning; /* e.g. a beta layout stored best-effort */
	struct bs_tag *tags;
	size_t ntags, tags_cap;
	/* What bstore set changed, oldest first: filled where a run is
	 * carried whole (bstore's JSON export and its ingest), empty for
	 * runs read from a tool's output and for the store's reads. */
	struct bs_history *history;
	size_t nhistory, history_cap;
};

/* Status as stored and printed: "ok", "too_fast", "not_run". */
const char *bs_status_name(enum bs_status st);
/*
 * What people read for metric m of r when it has no value and is not too
 * fast (status NOT_RUN): "not run" where the output has a place for the
 * test and left it empty (bonnie++'s skipped tests), "not reported" for
 * a metric the tool did not print (sysbench, fio, zcav), "unknown
 * (...)" for dd's direction without its command line, "not stored (the
 * table misprints it)" for the file tests of bonnie++ 1.98-2.00a's table,
 * "unreadable (...)" for a metric a reader marked (bs_run_unread()).
 */
const char *bs_absent_word(const struct bs_run *r, int m);
/*
 * The same rule as an index into bs_absent_words (what bs_absent_word
 * returns is bs_absent_words[bs_absent_of(r, m)]), small enough for a
 * report's kept rows to carry one a result (unsigned char).
 */
enum bs_absent {
	BS_AB_NOT_RUN,
	BS_AB_NOT_REPORTED,
	BS_AB_MISPRINTED,
	BS_AB_DIRECTION,
	BS_AB_UNREADABLE,
	BS_AB_COUNT
};
extern const char *const bs_absent_words[BS_AB_COUNT];
enum bs_absent bs_absent_of(const struct bs_run *r, int m);
/*
 * Metric m of r was printed but is no figure a reader may store
 * (sysbench's latencies of a run without events: its initial values):
 * status stays NOT_RUN, the tag ingest.unread lists it, and
 * bs_absent_word() says "unreadable". The reader warns why.
 */
void bs_run_unread(struct bs_run *r, int m);
int bs_run_is_unread(const struct bs_run *r, int m);
/* Parses a status name; returns 0, or -BS_EINVAL for another (the
 * caller words it). */
int bs_status_parse(const char *s, enum bs_status *out);

/* Initialises every field to unknown/not run; family bonnie. */
void bs_run_init(struct bs_run *r);
/* Frees what the run owns and leaves it initialised. */
void bs_run_release(struct bs_run *r);
/* Sets a string field: frees the old value, copies s (may be NULL). */
void bs_run_set(char **field, const char *s);
/* Adds or replaces a tag. */
void bs_run_tag(struct bs_run *r, const char *key, const char *value);
/* Adds a tag whose key r does not have (the store's rows, one a key)
 * without looking for it: a run of 100,000 tags reads in linear time. */
void bs_run_tag_add(struct bs_run *r, const char *key, const char *value);
/* Adds a change to r's history (values may be NULL: unknown). */
void bs_run_history_add(struct bs_run *r, const char *field,
			const char *old_value, const char *new_value,
			int64_t changed_at);
/* Frees r's history and leaves it empty. */
void bs_run_history_release(struct bs_run *r);
/* Returns the tag's value or NULL. */
const char *bs_run_tag_get(const struct bs_run *r, const char *key);
/* Removes a tag, if r has it. */
void bs_run_untag(struct bs_run *r, const char *key);
/*
 * A date bstore gave a run whose input had none (ingest from a pipe: the
 * time it was read, docs/ingest.md "Dates"): measured_at is set, and the
 * tag measured_at.source=ingested says so. Such a date orders the run in
 * a series (trend, changes, check) but takes no part in finding
 * duplicates: the same text ingested on two days is one run.
 */
#define BS_DATE_SOURCE_TAG "measured_at.source"
#define BS_DATE_INGESTED "ingested"
/* Whether r's measured_at is such a date. */
int bs_run_date_guessed(const struct bs_run *r);
/* r's measured_at where the input gave it, else BS_NONE. */
int64_t bs_run_date_known(const struct bs_run *r);
/*
 * Whether a tag is bstore's own bookkeeping rather than a fact about the
 * test: how a date was read (measured_at.tz), bstore zcav's target path
 * and timing floor, bstore fileio's random generator. Shown with the
 * run (show, its page), never as a difference between runs (a report's
 * notes) or in a site's index of tags. One table in core/result.c.
 */
int bs_tag_bookkeeping(const char *key);

/*
 * Where r's tool printed a rate in units of its own (dd's "606 MB/s",
 * fio's "BW=196MiB/s (206MB/s)", zcav's "# Read N megs ... megabytes per
 * second"): bs_run_tool_lines() calls fn for each such line of r's raw
 * text (line not NUL-terminated, without its newline) and returns how
 * many; bs_run_tool_units() says how those units relate to the stored
 * ones ("dd's line: kB, MB, GB are 10^3, ..."), or NULL when r's family
 * has no such line. show prints them beside the stored value; a run's
 * page may too. One table in core/result.c, a row per tool.
 */
typedef void (*bs_line_fn)(const char *line, size_t len, void *ctx);
size_t bs_run_tool_lines(const struct bs_run *r, bs_line_fn fn, void *ctx);
const char *bs_run_tool_units(const struct bs_run *r);
/* Adds an empty curve of metric m; the run owns it. m is a metric of r's
 * family that has curves (BS_MF_SERIES), and r has no curve of it yet. */
struct bs_series *bs_run_series_add(struct bs_run *r, int m, const char *axis);
/* r's curve of metric m, or NULL. */
const struct bs_series *bs_run_series_find(const struct bs_run *r, int m);
/* Appends a point to a curve. */
void bs_series_point(struct bs_series *s, double x, double y, double seconds);

#endif
