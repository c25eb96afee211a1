/*
 * core/metric.h - the metric catalogue: one row for every metric of every
 * tool bstore stores, the single source of truth for its key, label,
 * unit, which way is better and category. The store's `metrics` table,
 * the JSON and CSV exports, the report and the --help texts all walk it;
 * adding a metric is adding a row to bs_metrics[] (core/metric.c).
 *
 * A metric belongs to a tool family; its key is unique within the family
 * (sysbench's read_mib_s and zcav's read_mib_s are two metrics). The keys
 * are the contract of docs/formats.md: users' scripts rely on them.
 */
#ifndef BS_CORE_METRIC_H
#define BS_CORE_METRIC_H

#include <stddef.h>

/*
 * Tool families: which metrics and parameters a run can have. Stored by
 * name (runs.family); a bstore that meets a name it does not know refuses
 * the run ("unknown tool family"). Adding a family therefore bumps the
 * schema version (store/store.h's BS_SCHEMA_VERSION), so that an older
 * bstore refuses the whole archive as newer instead of failing on its
 * runs one by one. Adding a metric or a parameter to a family does not:
 * an older bstore ignores the rows it does not know.
 */
enum bs_family {
	BS_FAM_BONNIE,    /* Bonnie, bonnie++ and bstore run */
	BS_FAM_SYSBENCH,  /* sysbench fileio */
	BS_FAM_ZCAV,      /* zcav */
	BS_FAM_FIO,       /* fio, one run per job */
	BS_FAM_DD,        /* dd's summary line */
	BS_FAM_GETC_PUTC, /* bonnie++'s getc_putc */
	BS_FAM_COUNT
};

/* "bonnie", "sysbench", ...: as stored in runs.family. */
const char *bs_family_name(enum bs_family f);
/* Parses a family name; returns 0, or -1 when unknown. */
int bs_family_parse(const char *s, enum bs_family *out);

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
	BS_BETTER_NONE = 0,    /* informational: a count, a duration */
	BS_BETTER_HIGHER = 1,  /* rates */
	BS_BETTER_LOWER = -1,  /* latencies, CPU */
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
};

struct bs_metric_info {
	const char *key;        /* "put_block" */
	enum bs_family family;
	const char *label;      /* "Block write" */
	const char *title;      /* its column in bonnie++'s table: "Block" */
	const char *section;    /* "Sequential Output" */
	const char *unit;       /* as stored: "KiB/s" */
	enum bs_better better;
	enum bs_category category;
	unsigned flags;         /* BS_MF_* */
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

/* The catalogue, bs_nmetrics rows; row i is metric i. */
extern const struct bs_metric_info bs_metrics[];
extern const int bs_nmetrics;

/* The catalogue rows [*first, *end) of family fam: a family's metrics are
 * consecutive rows. */
void bs_metric_rows(enum bs_family fam, int *first, int *end);
/* The metric of family fam with this key, or -1. */
int bs_metric_find(enum bs_family fam, const char *key);

/*
 * Tests two tools measure alike, in the same unit: dd's write rate and
 * bonnie++'s block write. A report that holds runs of both tools shows a
 * group that lacks the second's number with the first's in its row, and
 * says so (report/report.c). One row per pair.
 */
struct bs_metric_same {
	enum bs_family from;
	const char *from_key; /* "write_kib_s" */
	enum bs_family to;
	const char *to_key;   /* "put_block" */
	const char *why;      /* how the two tests differ, for the note */
};

extern const struct bs_metric_same bs_metric_same[];
extern const int bs_nmetric_same;

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
 * one decimal. Differences keep their sign; "" for NAN or infinity.
 * Machine outputs (JSON, CSV contracts) keep the stored unit and do not
 * come here.
 */
enum {
	BS_SHOW_GROUP = 1,
	BS_SHOW_KIB = 2,
	BS_SHOW_MIB = 4,
};
const char *bs_metric_fmt(char *buf, size_t size, int m, double v,
			  unsigned flags);
/* The unit bs_metric_fmt() shows m in: "MiB/s", "seeks/s", ... */
const char *bs_metric_unit(int m, unsigned flags);
/* A stored value of m in the unit shown (for charts' axes). */
double bs_metric_scale(int m, unsigned flags, double v);

/* "higher", "lower" or NULL (BS_BETTER_NONE). */
const char *bs_better_name(enum bs_better b);
/* "sequential", "random", "metadata", "latency", "io", "other". */
const char *bs_category_name(enum bs_category c);

#endif
