/*
 * core/metric.h - the metric catalogue: one row for every metric of every
 * tool bstore stores, the single source of truth for its key, label,
 * unit, which way is better and category. The store's `metrics` table,
 * the JSON and CSV exports, the report and the --help texts all walk it;
 * adding a metric is adding a row to its family's table (core/families/,
 * core/family.h).
 *
 * A metric belongs to a tool family; its key is unique within the family
 * (sysbench's read_mib_s and zcav's read_mib_s are two metrics). The keys
 * are the contract of docs/formats.md: users' scripts rely on them.
 */
#ifndef BS_CORE_METRIC_H
#define BS_CORE_METRIC_H

#include <stddef.h>

#include "core/family.h"

/*
 * bonnie++'s twelve tests are the catalogue's first rows, in bonnie++'s
 * column (and execution) order, so that code that handles them by name
 * indexes the catalogue directly.
 */
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
	BS_M_BONNIE /* the number of bonnie++ tests */
};

#define BS_M_FIRST_FILE BS_M_SEQ_CREATE /* file tests start here */

/* Room for the catalogue in a run record (core/result.h). */
#define BS_M_MAX 128

enum bs_better {
	BS_BETTER_NONE = 0,   /* informational: a count, a duration */
	BS_BETTER_HIGHER = 1, /* rates */
	BS_BETTER_LOWER = -1, /* latencies, CPU */
};

enum bs_category {
	BS_CAT_SEQUENTIAL, /* streaming I/O */
	BS_CAT_RANDOM,     /* seeks, random I/O */
	BS_CAT_METADATA,   /* file creation, stat, deletion */
	BS_CAT_LATENCY,    /* time per operation */
	BS_CAT_IO,         /* I/O whose pattern is the run's parameter */
	BS_CAT_OTHER,      /* counts and durations */
	BS_CAT_COUNT
};

/* Flags of a metric. */
enum {
	/* The result carries the CPU percentage of its test (lower is
	 * better) and the maximum latency of one operation in microseconds
	 * (lower is better), as bonnie++'s tests do. */
	BS_MF_CPU_LAT = 1,
	/* Stored in the runs table's own columns (the bonnie family's fast
	 * path); other metrics are rows of run_results. */
	BS_MF_COLUMN = 2,
	/* A KiB/s I/O rate, which bonnie++ 2.00a prints as k/m/g. */
	BS_MF_KIB = 4,
	/* May carry a curve (store/ series), e.g. zcav's throughput by
	 * position. */
	BS_MF_SERIES = 8,
	/* One of the few numbers that sum a run up: the columns of a list
	 * of runs and the lines of a trend chart (bstore site). */
	BS_MF_MAIN = 16,
	/* Has no value of its own, only its series (fio's histograms and
	 * log files): show's tests and the JSON export's results leave it
	 * out; its series is the data. */
	BS_MF_NOVALUE = 32,
	/* A line of bstore trend's charts by default beside the main
	 * metrics: the tail latency (fio's clat p99) over the nightly
	 * runs, which a mean rate hides. */
	BS_MF_TREND = 64,
};

struct bs_metric_info {
	const char *key;     /* "put_block" */
	const char *label;   /* "Block write" */
	const char *title;   /* its column in bonnie++'s table: "Block" */
	const char *section; /* "Sequential Output" */
	const char *unit;    /* as stored: "KiB/s" */
	enum bs_better better;
	enum bs_category category;
	unsigned flags; /* BS_MF_* */
	/* The largest value in unit that any disk could produce (core/
	 * metric.c says how each was chosen): a parser rejects a line with
	 * more (docs/formats.md, "Limits"). */
	double max;
	/* How people see a value (docs/report.md, "How a number is
	 * shown"): in show_unit, the stored value / show_div, with
	 * show_dec decimals, none once the whole part has show_sig digits
	 * or more (0: always show_dec). bs_metric_fmt() applies it. */
	const char *show_unit;
	double show_div;
	int show_dec;
	int show_sig;
	/* Filled in by the catalogue from the family row that holds it. */
	enum bs_family family;
};

/*
 * The limits of the CPU percentage and latency of a BS_MF_CPU_LAT result.
 * bonnie++'s %CPU is CPU time over elapsed time and exceeds 100: its seek
 * test counts the whole process's CPU once per seek thread, and values
 * past 2000 are real output (docs/input-formats.md section 8.3); a
 * million percent is 10,000 CPUs busy, and 400 times the worst seen.
 */
#define BS_CPU_PCT_MAX 1e6
#define BS_LAT_US_MAX 1e12

/* The parts of a result that have a limit. */
enum bs_part {
	BS_PART_VALUE,   /* the rate (or count, time) in the metric's unit */
	BS_PART_CPU,     /* cpu_pct */
	BS_PART_LATENCY, /* lat_us */
};

/* The catalogue, bs_nmetrics rows; row i is metric i: the family rows'
 * metrics (core/family.h), family by family. */
extern const struct bs_metric_info *const bs_metrics;
#define bs_nmetrics (bs_cat->nmetrics)

/* The catalogue rows [*first, *end) of family fam: a family's metrics are
 * consecutive rows. */
void bs_metric_rows(enum bs_family fam, int *first, int *end);
/* The metric of family fam with this key, or -1. */
int bs_metric_find(enum bs_family fam, const char *key);

/*
 * The largest value part of a result of metric m may hold, and its unit
 * (*unit: the metric's, "%" or "us"); see bs_metric_info.max. Inline:
 * ingest asks for every cell of every line.
 */
static inline double bs_metric_limit(int m, enum bs_part part,
				     const char **unit)
{
	switch (part) {
	case BS_PART_CPU:
		*unit = "%";
		return BS_CPU_PCT_MAX;
	case BS_PART_LATENCY:
		*unit = "us";
		return BS_LAT_US_MAX;
	case BS_PART_VALUE:
		break;
	}
	*unit = bs_metrics[m].unit;
	return bs_metrics[m].max;
}

/* Whether v is a value part of metric m may hold: 0 to its limit (NaN
 * compares false both ways: it does not fit). */
static inline int bs_metric_fits(int m, enum bs_part part, double v)
{
	const char *unit;

	return v >= 0 && v <= bs_metric_limit(m, part, &unit);
}

/*
 * The one rule for showing a value of metric m to people (docs/report.md,
 * "How a number is shown"): list, show, report, trend and the site all
 * print it through bs_metric_fmt(), in the unit bs_metric_unit() names.
 * Flags: BS_SHOW_GROUP groups thousands with ',' (HTML pages); the
 * report's and trend's --units override the unit of the KiB/s rates
 * (BS_MF_KIB): BS_SHOW_KIB as stored, whole, BS_SHOW_MIB in MiB/s with
 * one decimal; BS_SHOW_MB shows those and the MiB/s rates in decimal
 * MB/s, as fio and dd print them. Differences keep their sign; "" for NAN or infinity.
 * Machine outputs (JSON, CSV contracts) keep the stored unit and do not
 * come here.
 */
enum {
	BS_SHOW_GROUP = 1,
	BS_SHOW_KIB = 2,
	BS_SHOW_MIB = 4,
	BS_SHOW_MB = 8, /* decimal MB/s (10^6 bytes) for every byte rate */
};
const char *bs_metric_fmt(char *buf, size_t size, int m, double v,
			  unsigned flags);
/*
 * The same, with no digit finer than step (in m's stored unit: the step
 * its source printed it in, core/dialect.h bs_dialect_step): 1.8g, a
 * step of 0.1 GiB/s, shows as "1843" MiB/s, not "1843.2". A step of 0
 * (or NAN) caps nothing: bs_metric_fmt().
 */
const char *bs_metric_fmt_step(char *buf, size_t size, int m, double v,
			       unsigned flags, double step);
/* The most decimals a value of m printed in steps of step shows in the
 * unit of flags (0 when the step is a whole unit or more; -1 for no
 * step). */
int bs_metric_step_decimals(int m, unsigned flags, double step);
/* The unit bs_metric_fmt() shows m in: "MiB/s", "seeks/s", ... */
const char *bs_metric_unit(int m, unsigned flags);
/* A stored value of m in the unit shown (for charts' axes). */
double bs_metric_scale(int m, unsigned flags, double v);

/* "higher", "lower" or NULL (BS_BETTER_NONE). */
const char *bs_better_name(enum bs_better b);
/* "sequential", "random", "metadata", "latency", "io", "other". */
const char *bs_category_name(enum bs_category c);

#endif
