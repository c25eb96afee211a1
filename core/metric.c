/*
 * core/metric.c - the metric catalogue (core/metric.h): every metric of
 * every tool, one row each. The keys are the contract of docs/formats.md
 * (a test checks that it names each); units are as the tool reports them.
 */
#include "core/metric.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/num.h"
#include "util/banned.h"

#define HI BS_BETTER_HIGHER
#define LO BS_BETTER_LOWER
#define NO BS_BETTER_NONE
#define SEQ BS_CAT_SEQUENTIAL
#define RND BS_CAT_RANDOM
#define META BS_CAT_METADATA
#define LAT BS_CAT_LATENCY
#define IO BS_CAT_IO
#define OTHER BS_CAT_OTHER
#define BON BS_FAM_BONNIE
#define SB BS_FAM_SYSBENCH
#define FIO BS_FAM_FIO
/* Limits (bs_metric_info.max): what no disk could exceed, generously.
 * A rate of 1e9 KiB/s is about 1 TiB/s; 1e9 seeks, files or requests a
 * second are a thousand times a fast NVMe drive's; one operation may take
 * up to 1e12 us (11.6 days); a run may last 1e9 s and count 1e15 events.
 * docs/formats.md "Limits" lists them; test_schema holds it to this. */
#define KIB_S 1e9
#define MIB_S 1e6
#define PER_S 1e9
#define LAT_US BS_LAT_US_MAX
#define LAT_MS (LAT_US / 1000)
#define TIME_S 1e9
#define EVENTS 1e15
/* How a value is shown (bs_metric_info.show_*: unit, divisor from the
 * stored unit, decimals, digits of the whole part past which no decimal
 * is shown). KiB/s rates are MiB/s with one decimal, as bonnie++ 2.00a
 * prints "50.6m"; getc_putc's byte-at-a-time rates are small and keep
 * two. Tools that print their own unit keep it at their precision
 * (sysbench's "%.2f"). Seeks keep the one decimal of bonnie++'s CSV
 * line ("7510.9"); fio's IOPS and latencies one below 1000, none from
 * there on. */
#define S_KIB_MIB "MiB/s", 1024.0, 1, 0
#define S_BYTE_MIB "MiB/s", 1024.0, 2, 0
#define S_SEEKS "seeks/s", 1.0, 1, 0
#define S_FILES "files/s", 1.0, 0, 0
#define S_OPS "ops/s", 1.0, 2, 0
#define S_MIB "MiB/s", 1.0, 2, 0
#define S_WHOLE "MiB/s", 1.0, 0, 0
#define S_MS "ms", 1.0, 2, 0
#define S_COUNT "", 1.0, 0, 0
#define S_SEC "s", 1.0, 2, 0
#define S_EVENTS "events", 1.0, 0, 0
#define S_IOPS "IO/s", 1.0, 1, 4
#define S_US "us", 1.0, 1, 4
/* bonnie++'s tests: CPU and latency, in the runs table's columns. */
#define BT (BS_MF_CPU_LAT | BS_MF_COLUMN)

/* clang-format off */
const struct bs_metric_info bs_metrics[] = {
	/* bonnie++ (and Bonnie, bstore run): the first twelve rows are
	 * enum bs_metric, in bonnie++'s column order. */
	{ "putc",       BON, "Per-char write", "Per Chr", "Sequential Output", "KiB/s",   HI, SEQ,  BT | BS_MF_KIB, KIB_S, S_KIB_MIB },
	{ "put_block",  BON, "Block write",    "Block",   "Sequential Output", "KiB/s",   HI, SEQ,  BT | BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "rewrite",    BON, "Rewrite",        "Rewrite", "Sequential Output", "KiB/s",   HI, SEQ,  BT | BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "getc",       BON, "Per-char read",  "Per Chr", "Sequential Input",  "KiB/s",   HI, SEQ,  BT | BS_MF_KIB, KIB_S, S_KIB_MIB },
	{ "get_block",  BON, "Block read",     "Block",   "Sequential Input",  "KiB/s",   HI, SEQ,  BT | BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "seeks",      BON, "Random seeks",   "Seeks",   "Random",            "seeks/s", HI, RND,  BT | BS_MF_MAIN, PER_S, S_SEEKS },
	{ "seq_create", BON, "Seq. create",    "Create",  "Sequential Create", "files/s", HI, META, BT, PER_S, S_FILES },
	{ "seq_stat",   BON, "Seq. read",      "Read",    "Sequential Create", "files/s", HI, META, BT, PER_S, S_FILES },
	{ "seq_del",    BON, "Seq. delete",    "Delete",  "Sequential Create", "files/s", HI, META, BT, PER_S, S_FILES },
	{ "ran_create", BON, "Random create",  "Create",  "Random Create",     "files/s", HI, META, BT, PER_S, S_FILES },
	{ "ran_stat",   BON, "Random read",    "Read",    "Random Create",     "files/s", HI, META, BT, PER_S, S_FILES },
	{ "ran_del",    BON, "Random delete",  "Delete",  "Random Create",     "files/s", HI, META, BT, PER_S, S_FILES },

	/* sysbench fileio, 0.4 and 1.0 alike. */
	{ "reads_per_s",    SB, "Reads",          "reads/s",   "File operations",    "ops/s", HI, IO,    0, PER_S, S_OPS },
	{ "writes_per_s",   SB, "Writes",         "writes/s",  "File operations",    "ops/s", HI, IO,    0, PER_S, S_OPS },
	{ "fsyncs_per_s",   SB, "Fsyncs",         "fsyncs/s",  "File operations",    "ops/s", HI, IO,    BS_MF_SERIES, PER_S, S_OPS },
	{ "requests_per_s", SB, "Requests",       "requests/s", "File operations",   "ops/s", HI, IO,    0, PER_S, S_OPS },
	{ "read_mib_s",     SB, "Read",           "read",      "Throughput",         "MiB/s", HI, IO,    BS_MF_MAIN | BS_MF_SERIES, MIB_S, S_MIB },
	{ "written_mib_s",  SB, "Written",        "written",   "Throughput",         "MiB/s", HI, IO,    BS_MF_MAIN | BS_MF_SERIES, MIB_S, S_MIB },
	{ "latency_min_ms", SB, "Latency min",    "min",       "Latency",            "ms",    LO, LAT,   0, LAT_MS, S_MS },
	{ "latency_avg_ms", SB, "Latency avg",    "avg",       "Latency",            "ms",    LO, LAT,   0, LAT_MS, S_MS },
	{ "latency_max_ms", SB, "Latency max",    "max",       "Latency",            "ms",    LO, LAT,   0, LAT_MS, S_MS },
	{ "latency_p50_ms", SB, "Latency p50",    "p50",       "Latency",            "ms",    LO, LAT,   BS_MF_SERIES, LAT_MS, S_MS },
	{ "latency_p90_ms", SB, "Latency p90",    "p90",       "Latency",            "ms",    LO, LAT,   BS_MF_SERIES, LAT_MS, S_MS },
	{ "latency_p95_ms", SB, "Latency p95",    "p95",       "Latency",            "ms",    LO, LAT,   BS_MF_SERIES, LAT_MS, S_MS },
	{ "latency_p99_ms", SB, "Latency p99",    "p99",       "Latency",            "ms",    LO, LAT,   BS_MF_SERIES, LAT_MS, S_MS },
	{ "events",         SB, "Events",         "events",    "General statistics", "",      NO, OTHER, 0, EVENTS, S_COUNT },
	{ "total_time_s",   SB, "Total time",     "time",      "General statistics", "s",     NO, OTHER, 0, TIME_S, S_SEC },
	/* No value: the run's latency histogram is its series (axis
	 * latency_ms, y the events of the bucket), as sysbench's
	 * --histogram prints it. */
	{ "latency_histogram", SB, "Latency histogram", "histogram", "Latency", "events", NO, OTHER, BS_MF_SERIES, EVENTS, S_EVENTS },

	/* zcav: read_mib_s / write_mib_s are the mean of the timed blocks'
	 * rates, the curve their series; total_mib_s is what zcav's last
	 * line says, "# Read N megs in S seconds, R megabytes per second":
	 * the MiB of the whole pass over its time, cut to a whole number
	 * (docs/formats.md, "zcav"). */
	{ "read_mib_s",  BS_FAM_ZCAV, "Read",  "read",  "Throughput by position", "MiB/s", HI, SEQ, BS_MF_SERIES | BS_MF_MAIN, MIB_S, S_MIB },
	{ "write_mib_s", BS_FAM_ZCAV, "Write", "write", "Throughput by position", "MiB/s", HI, SEQ, BS_MF_SERIES | BS_MF_MAIN, MIB_S, S_MIB },
	{ "total_mib_s", BS_FAM_ZCAV, "Whole pass (zcav's total)", "total", "Whole pass", "MiB/s", HI, SEQ, 0, MIB_S, S_WHOLE },

	/* fio: one run per job, per direction. */
	{ "read_bw_kib_s",       FIO, "Read bandwidth",         "bw",       "Read",  "KiB/s", HI, IO,  BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "read_iops",           FIO, "Read IOPS",              "IOPS",     "Read",  "IO/s",  HI, IO,  0, PER_S, S_IOPS },
	{ "read_lat_mean_us",    FIO, "Read latency mean",      "lat mean", "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p50_us",    FIO, "Read clat p50",          "p50",      "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p90_us",    FIO, "Read clat p90",          "p90",      "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p95_us",    FIO, "Read clat p95",          "p95",      "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p99_us",    FIO, "Read clat p99",          "p99",      "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p99_9_us",  FIO, "Read clat p99.9",        "p99.9",    "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p99_99_us", FIO, "Read clat p99.99",       "p99.99",   "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_bw_kib_s",       FIO, "Write bandwidth",       "bw",       "Write", "KiB/s", HI, IO,  BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "write_iops",           FIO, "Write IOPS",            "IOPS",     "Write", "IO/s",  HI, IO,  0, PER_S, S_IOPS },
	{ "write_lat_mean_us",    FIO, "Write latency mean",    "lat mean", "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p50_us",    FIO, "Write clat p50",        "p50",      "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p90_us",    FIO, "Write clat p90",        "p90",      "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p95_us",    FIO, "Write clat p95",        "p95",      "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p99_us",    FIO, "Write clat p99",        "p99",      "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p99_9_us",  FIO, "Write clat p99.9",      "p99.9",    "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p99_99_us", FIO, "Write clat p99.99",     "p99.99",   "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_bw_kib_s",       FIO, "Trim bandwidth",         "bw",       "Trim",  "KiB/s", HI, IO,  BS_MF_KIB, KIB_S, S_KIB_MIB },
	{ "trim_iops",           FIO, "Trim IOPS",              "IOPS",     "Trim",  "IO/s",  HI, IO,  0, PER_S, S_IOPS },
	{ "trim_lat_mean_us",    FIO, "Trim latency mean",      "lat mean", "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p50_us",    FIO, "Trim clat p50",          "p50",      "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p90_us",    FIO, "Trim clat p90",          "p90",      "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p95_us",    FIO, "Trim clat p95",          "p95",      "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p99_us",    FIO, "Trim clat p99",          "p99",      "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p99_9_us",  FIO, "Trim clat p99.9",        "p99.9",    "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p99_99_us", FIO, "Trim clat p99.99",       "p99.99",   "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },

	/* dd: bytes / 1024 / seconds, in the direction it copied. */
	{ "write_kib_s", BS_FAM_DD, "Write", "write", "dd", "KiB/s", HI, SEQ, BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "read_kib_s",  BS_FAM_DD, "Read",  "read",  "dd", "KiB/s", HI, SEQ, BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	/* A summary pasted without its command line: which way is unknown. */
	{ "copy_kib_s",  BS_FAM_DD, "Copy, direction unknown", "copy", "dd", "KiB/s", HI, SEQ, BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },

	/* getc_putc: byte-at-a-time I/O; "++++++" is too_fast. */
	{ "write",         BS_FAM_GETC_PUTC, "write(2) a byte",   "write",  "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB | BS_MF_MAIN, KIB_S, S_BYTE_MIB },
	{ "read",          BS_FAM_GETC_PUTC, "read(2) a byte",    "read",   "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB | BS_MF_MAIN, KIB_S, S_BYTE_MIB },
	{ "putc_nt",       BS_FAM_GETC_PUTC, "putc, no threads",  "putcNT", "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
	{ "getc_nt",       BS_FAM_GETC_PUTC, "getc, no threads",  "getcNT", "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
	{ "putc",          BS_FAM_GETC_PUTC, "putc",              "putc",   "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
	{ "getc",          BS_FAM_GETC_PUTC, "getc",              "getc",   "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
	{ "putc_unlocked", BS_FAM_GETC_PUTC, "putc_unlocked",     "putcU",  "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
	{ "getc_unlocked", BS_FAM_GETC_PUTC, "getc_unlocked",     "getcU",  "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
};
/* clang-format on */

#define NMETRICS ((int)(sizeof(bs_metrics) / sizeof(bs_metrics[0])))
_Static_assert(sizeof(bs_metrics) / sizeof(bs_metrics[0]) <= BS_M_MAX,
	       "the catalogue outgrew BS_M_MAX (core/metric.h)");

const int bs_nmetrics = NMETRICS;

/* clang-format off */
const struct bs_metric_same bs_metric_same[] = {
	{ BS_FAM_DD, "write_kib_s", BON, "put_block",
	  "dd writes one stream of its bs= blocks, bonnie++ a file of 8 KiB "
	  "chunks" },
	{ BS_FAM_DD, "read_kib_s",  BON, "get_block",
	  "dd reads one stream of its bs= blocks, bonnie++ a file of 8 KiB "
	  "chunks" },
};
/* clang-format on */

const int bs_nmetric_same =
	(int)(sizeof(bs_metric_same) / sizeof(bs_metric_same[0]));

static const char *const family_names[BS_FAM_COUNT] = {
	"bonnie", "sysbench", "zcav", "fio", "dd", "getc_putc",
};

static const char *const category_names[BS_CAT_COUNT] = {
	"sequential", "random", "metadata", "latency", "io", "other",
};

const char *bs_family_name(enum bs_family f)
{
	return (unsigned)f < BS_FAM_COUNT ? family_names[f] : "?";
}

int bs_family_parse(const char *s, enum bs_family *out)
{
	int f;

	for (f = 0; f < BS_FAM_COUNT; f++) {
		if (strcmp(s, family_names[f]) == 0) {
			*out = (enum bs_family)f;
			return 0;
		}
	}
	return -1;
}

void bs_metric_rows(enum bs_family fam, int *first, int *end)
{
	int t = 0;

	while (t < NMETRICS && bs_metrics[t].family != fam)
		t++;
	*first = t;
	while (t < NMETRICS && bs_metrics[t].family == fam)
		t++;
	*end = t;
}

int bs_metric_find(enum bs_family fam, const char *key)
{
	int i;

	for (i = 0; i < NMETRICS; i++)
		if (bs_metrics[i].family == fam &&
		    strcmp(bs_metrics[i].key, key) == 0)
			return i;
	return -1;
}

const char *bs_better_name(enum bs_better b)
{
	switch (b) {
	case BS_BETTER_HIGHER:
		return "higher";
	case BS_BETTER_LOWER:
		return "lower";
	case BS_BETTER_NONE:
		break;
	}
	return NULL;
}

const char *bs_category_name(enum bs_category c)
{
	return (unsigned)c < BS_CAT_COUNT ? category_names[c] : "?";
}

/* The show rule of m under flags: the catalogue's, or --units' for the
 * KiB/s rates. */
static void show_rule(int m, unsigned flags, const char **unit, double *div,
		      int *dec, int *sig)
{
	const struct bs_metric_info *mi = &bs_metrics[m];

	*unit = mi->show_unit;
	*div = mi->show_div;
	*dec = mi->show_dec;
	*sig = mi->show_sig;
	if (!(mi->flags & BS_MF_KIB))
		return;
	if (flags & BS_SHOW_KIB) {
		*unit = "KiB/s";
		*div = 1.0;
		*dec = 0;
		*sig = 0;
	} else if (flags & BS_SHOW_MIB) {
		*unit = "MiB/s";
		*div = 1024.0;
		*dec = 1;
		*sig = 0;
	}
}

const char *bs_metric_unit(int m, unsigned flags)
{
	const char *unit;
	double div;
	int dec, sig;

	show_rule(m, flags, &unit, &div, &dec, &sig);
	return unit;
}

double bs_metric_scale(int m, unsigned flags, double v)
{
	const char *unit;
	double div;
	int dec, sig;

	show_rule(m, flags, &unit, &div, &dec, &sig);
	return v / div;
}

const char *bs_metric_fmt(char *buf, size_t size, int m, double v,
			  unsigned flags)
{
	const char *unit;
	double div, a;
	int dec, sig, whole;
	char num[64];

	assert(m >= 0 && m < NMETRICS && size > 0);
	buf[0] = '\0';
	if (isnan(v) || isinf(v))
		return buf;
	show_rule(m, flags, &unit, &div, &dec, &sig);
	v /= div;
	a = fabs(v);
	/* A converted value under 1 keeps two significant digits: 545
	 * KiB/s is 0.53 MiB/s, not 0.5 beside 480 KiB/s's 0.5. Values in
	 * the unit the tool printed keep its precision. */
	if (div != 1.0 && a > 0 && a < 1 && dec > 0) {
		int need = 1 - (int)floor(log10(a));
		if (need > dec)
			dec = need > 6 ? 6 : need;
	}
	if (sig > 0 && dec > 0) {
		/* The digits of the whole part once rounded to dec
		 * decimals: 999.96 is "1000", not "1000.0". */
		whole = a + 0.5 * pow(10, -dec) >= 1 ? (int)floor(log10(
					a + 0.5 * pow(10, -dec))) + 1 : 1;
		if (whole >= sig)
			dec = 0;
	}
	/* A difference that rounds to nothing has no sign. */
	bs_fmt_double(num, sizeof(num), v, dec);
	if (flags & BS_SHOW_GROUP)
		bs_fmt_thousands(num, buf, size);
	else
		snprintf(buf, size, "%s", num);
	return buf;
}
