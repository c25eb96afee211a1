/*
 * core/families/fio.c - the fio family's row (core/family.h): one run per
 * fio job, its rates and completion latencies per direction.
 */
#include "core/families/rows.h"

#include "util/banned.h"

/* clang-format off */
static const struct bs_metric_info metrics[] = {
	/* fio: one run per job, per direction. */
	{ "read_bw_kib_s", "Read bandwidth",         "bw",       "Read",  "KiB/s", HI, IO,  BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "read_iops", "Read IOPS",              "IOPS",     "Read",  "IO/s",  HI, IO,  0, PER_S, S_IOPS },
	{ "read_lat_mean_us", "Read latency mean",      "lat mean", "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p50_us", "Read clat p50",          "p50",      "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p90_us", "Read clat p90",          "p90",      "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p95_us", "Read clat p95",          "p95",      "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p99_us", "Read clat p99",          "p99",      "Read",  "us",    LO, LAT, BS_MF_TREND, LAT_US, S_US },
	{ "read_clat_p99_9_us", "Read clat p99.9",        "p99.9",    "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "read_clat_p99_99_us", "Read clat p99.99",       "p99.99",   "Read",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_bw_kib_s", "Write bandwidth",       "bw",       "Write", "KiB/s", HI, IO,  BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "write_iops", "Write IOPS",            "IOPS",     "Write", "IO/s",  HI, IO,  0, PER_S, S_IOPS },
	{ "write_lat_mean_us", "Write latency mean",    "lat mean", "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p50_us", "Write clat p50",        "p50",      "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p90_us", "Write clat p90",        "p90",      "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p95_us", "Write clat p95",        "p95",      "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p99_us", "Write clat p99",        "p99",      "Write", "us",    LO, LAT, BS_MF_TREND, LAT_US, S_US },
	{ "write_clat_p99_9_us", "Write clat p99.9",      "p99.9",    "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "write_clat_p99_99_us", "Write clat p99.99",     "p99.99",   "Write", "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_bw_kib_s", "Trim bandwidth",         "bw",       "Trim",  "KiB/s", HI, IO,  BS_MF_KIB, KIB_S, S_KIB_MIB },
	{ "trim_iops", "Trim IOPS",              "IOPS",     "Trim",  "IO/s",  HI, IO,  0, PER_S, S_IOPS },
	{ "trim_lat_mean_us", "Trim latency mean",      "lat mean", "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p50_us", "Trim clat p50",          "p50",      "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p90_us", "Trim clat p90",          "p90",      "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p95_us", "Trim clat p95",          "p95",      "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p99_us", "Trim clat p99",          "p99",      "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p99_9_us", "Trim clat p99.9",        "p99.9",    "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	{ "trim_clat_p99_99_us", "Trim clat p99.99",       "p99.99",   "Trim",  "us",    LO, LAT, 0, LAT_US, S_US },
	/* No value: distributions and logs, kept as the run's series
	 * (docs/formats.md, "fio distributions"). The histograms of json+
	 * (axis ns: x a bin's value as fio printed it, y its I/Os)... */
	{ "read_clat_hist", "Read clat histogram", "clat bins", "Read", "ios", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, EVENTS, S_IOS },
	{ "read_slat_hist", "Read slat histogram", "slat bins", "Read", "ios", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, EVENTS, S_IOS },
	{ "read_lat_hist", "Read lat histogram", "lat bins", "Read", "ios", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, EVENTS, S_IOS },
	{ "write_clat_hist", "Write clat histogram", "clat bins", "Write", "ios", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, EVENTS, S_IOS },
	{ "write_slat_hist", "Write slat histogram", "slat bins", "Write", "ios", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, EVENTS, S_IOS },
	{ "write_lat_hist", "Write lat histogram", "lat bins", "Write", "ios", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, EVENTS, S_IOS },
	{ "trim_clat_hist", "Trim clat histogram", "clat bins", "Trim", "ios", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, EVENTS, S_IOS },
	{ "trim_slat_hist", "Trim slat histogram", "slat bins", "Trim", "ios", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, EVENTS, S_IOS },
	{ "trim_lat_hist", "Trim lat histogram", "lat bins", "Trim", "ios", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, EVENTS, S_IOS },
	/* ... and fio's --write_*_log files over time (axis time_s): the
	 * latency of each I/O or window in us, the bandwidth in KiB/s, the
	 * IOPS. */
	{ "read_lat_log", "Read lat log", "lat log", "Read", "us", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, LAT_US, S_US },
	{ "read_clat_log", "Read clat log", "clat log", "Read", "us", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, LAT_US, S_US },
	{ "read_slat_log", "Read slat log", "slat log", "Read", "us", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, LAT_US, S_US },
	{ "read_bw_log", "Read bandwidth log", "bw log", "Read", "KiB/s", HI, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, KIB_S, S_KIB_MIB },
	{ "read_iops_log", "Read IOPS log", "iops log", "Read", "IO/s", HI, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, PER_S, S_IOPS },
	{ "write_lat_log", "Write lat log", "lat log", "Write", "us", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, LAT_US, S_US },
	{ "write_clat_log", "Write clat log", "clat log", "Write", "us", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, LAT_US, S_US },
	{ "write_slat_log", "Write slat log", "slat log", "Write", "us", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, LAT_US, S_US },
	{ "write_bw_log", "Write bandwidth log", "bw log", "Write", "KiB/s", HI, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, KIB_S, S_KIB_MIB },
	{ "write_iops_log", "Write IOPS log", "iops log", "Write", "IO/s", HI, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, PER_S, S_IOPS },
	{ "trim_lat_log", "Trim lat log", "lat log", "Trim", "us", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, LAT_US, S_US },
	{ "trim_clat_log", "Trim clat log", "clat log", "Trim", "us", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, LAT_US, S_US },
	{ "trim_slat_log", "Trim slat log", "slat log", "Trim", "us", NO, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, LAT_US, S_US },
	{ "trim_bw_log", "Trim bandwidth log", "bw log", "Trim", "KiB/s", HI, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, KIB_S, S_KIB_MIB },
	{ "trim_iops_log", "Trim IOPS log", "iops log", "Trim", "IO/s", HI, OTHER, BS_MF_SERIES | BS_MF_NOVALUE, PER_S, S_IOPS },
};

static const struct bs_param_info params[] = {
	{ "jobname", P(jobname),          BS_PK_TEXT,  NULL, "job",                "", 0, BS_NONE, TEXT },
	{ "rw", P(rw),               BS_PK_TEXT,  NULL, "rw",                 "", BS_PF_DECIDES, BS_NONE, TEXT, BS_PN_FIO_RW },
	{ "bs", P(bs),               BS_PK_TEXT,  NULL, "block size",         "", BS_PF_DECIDES | BS_PF_SWEEP, BS_NONE, TEXT, BS_PN_SIZE },
	{ "ioengine", P(ioengine),         BS_PK_TEXT,  NULL, "I/O engine",         "", BS_PF_DECIDES, BS_NONE, TEXT },
	{ "iodepth", P(iodepth),          BS_PK_INT,   NULL, "I/O depth",          "", BS_PF_DECIDES | BS_PF_SWEEP, 1, PAR },
	{ "numjobs", P(numjobs),          BS_PK_INT,   NULL, "jobs",               "", BS_PF_DECIDES | BS_PF_SWEEP, 1, PAR },
	{ "size", P(size),             BS_PK_TEXT,  NULL, "size",               "", BS_PF_DECIDES, BS_NONE, TEXT, BS_PN_SIZE },
	DIRECT_ROW("O_DIRECT"),
};

static const struct bs_dialect dialects[] = {
	/* fio: every dialect spans 2.x and 3.x. */
	{ BS_FMT_FIO_JSON, "fio", BS_ERA_NONE, "2.x-3.x json(+)",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_FIO_JSON, NULL, "fio" },
	{ BS_FMT_FIO_TERSE, "fio", BS_ERA_NONE, "terse v3-v5",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_FIO_TERSE, NULL, "fio" },
	{ BS_FMT_FIO_TEXT, "fio", BS_ERA_NONE, "2.0-3.x normal",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 1, BS_FMT_FIO_TEXT, NULL, "fio" },
};

#define ALL "*"
static const struct bs_param_rule rules[] = {
	/* keys, metrics, what, why, decides, filespec, RAM tag */
	{ "rw", ALL, "I/O pattern (rw)", "fio runs one test per pattern", 1, 0,
	  NULL },
	{ "bs", ALL, "Block size (bs)", "a rate per request depends on its size",
	  1, 0, NULL },
	{ "iodepth", ALL, "I/O depth",
	  "rates and latencies depend on the requests in flight", 1, 0, NULL },
	{ "numjobs", ALL, "Jobs",
	  "rates and latencies depend on the requests in flight", 1, 0, NULL },
	{ "ioengine", ALL, "I/O engine",
	  "engines issue and complete I/O differently", 1, 0, NULL },
	{ "direct", ALL, "O_DIRECT", "direct I/O bypasses the page cache", 1, 0,
	  NULL },
	{ "size", ALL, "Size",
	  "rates depend on how much of the file the page cache holds", 0, 0,
	  NULL },
};

static const struct bs_impl impls[] = {
	{ "fio", "fio", NULL },
};
static const struct bs_title_word title[] = {
	{ "rw", "%s" },
	{ "bs", "%s blocks" },
	{ "iodepth", "iodepth %s" },
	{ "numjobs", "%s jobs" },
	{ "direct", "O_DIRECT" },
};
/* clang-format on */

/* bstore exec: what fio's arguments say (a job file may say more). */
static const struct bs_exec_arg fio_args[] = {
	{"--filename", BS_XA_ARG | BS_XA_PATH, NULL, NULL, NULL},
	{"--directory", BS_XA_ARG | BS_XA_PATH, NULL, NULL, NULL},
	{"--direct", BS_XA_ARG, "direct", NULL, NULL},
	{"--rw", BS_XA_ARG, "rw", NULL, NULL},
	{"--readwrite", BS_XA_ARG, "rw", NULL, NULL},
	{"--bs", BS_XA_ARG, "bs", NULL, NULL},
	{"--blocksize", BS_XA_ARG, "bs", NULL, NULL},
	{"--ioengine", BS_XA_ARG, "ioengine", NULL, NULL},
	{"--iodepth", BS_XA_ARG, "iodepth", NULL, NULL},
	{"--numjobs", BS_XA_ARG, "numjobs", NULL, NULL},
	{"--size", BS_XA_ARG, "size", NULL, NULL},
};
static const struct bs_exec_prog progs[] = {
	{"fio", fio_args, ROWS(fio_args), NULL, 0},
};

const struct bs_family_info bs_family_fio = {
	.name = "fio",
	.label = "fio",
	.metrics = metrics,
	.nmetrics = ROWS(metrics),
	.params = params,
	.nparams = ROWS(params),
	.rules = rules,
	.nrules = ROWS(rules),
	.dialects = dialects,
	.ndialects = ROWS(dialects),
	.impls = impls,
	.nimpls = ROWS(impls),
	.list_write = "write_bw_kib_s",
	.list_read = "read_bw_kib_s",
	.progs = progs,
	.nprogs = ROWS(progs),
	.title = title,
	.ntitle = ROWS(title),
};
