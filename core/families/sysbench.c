/*
 * core/families/sysbench.c - the sysbench family's row (core/family.h):
 * sysbench's fileio test, 0.4 to 1.0, and bstore fileio, which runs
 * sysbench 1.0.20's fileio test built in.
 */
#include "core/families/rows.h"

#include "util/banned.h"

/* clang-format off */
static const struct bs_metric_info metrics[] = {
	/* sysbench fileio, 0.4 and 1.0 alike. */
	{ "reads_per_s", "Reads",          "reads/s",   "File operations",    "ops/s", HI, IO,    0, PER_S, S_OPS },
	{ "writes_per_s", "Writes",         "writes/s",  "File operations",    "ops/s", HI, IO,    0, PER_S, S_OPS },
	{ "fsyncs_per_s", "Fsyncs",         "fsyncs/s",  "File operations",    "ops/s", HI, IO,    BS_MF_SERIES, PER_S, S_OPS },
	{ "requests_per_s", "Requests",       "requests/s", "File operations",   "ops/s", HI, IO,    0, PER_S, S_OPS },
	{ "read_mib_s", "Read",           "read",      "Throughput",         "MiB/s", HI, IO,    BS_MF_MAIN | BS_MF_SERIES, MIB_S, S_MIB },
	{ "written_mib_s", "Written",        "written",   "Throughput",         "MiB/s", HI, IO,    BS_MF_MAIN | BS_MF_SERIES, MIB_S, S_MIB },
	{ "latency_min_ms", "Latency min",    "min",       "Latency",            "ms",    LO, LAT,   0, LAT_MS, S_MS },
	{ "latency_avg_ms", "Latency avg",    "avg",       "Latency",            "ms",    LO, LAT,   0, LAT_MS, S_MS },
	{ "latency_max_ms", "Latency max",    "max",       "Latency",            "ms",    LO, LAT,   0, LAT_MS, S_MS },
	{ "latency_p50_ms", "Latency p50",    "p50",       "Latency",            "ms",    LO, LAT,   BS_MF_SERIES, LAT_MS, S_MS },
	{ "latency_p90_ms", "Latency p90",    "p90",       "Latency",            "ms",    LO, LAT,   BS_MF_SERIES, LAT_MS, S_MS },
	{ "latency_p95_ms", "Latency p95",    "p95",       "Latency",            "ms",    LO, LAT,   BS_MF_SERIES, LAT_MS, S_MS },
	{ "latency_p99_ms", "Latency p99",    "p99",       "Latency",            "ms",    LO, LAT,   BS_MF_SERIES, LAT_MS, S_MS },
	{ "events", "Events",         "events",    "General statistics", "",      NO, OTHER, 0, EVENTS, S_COUNT },
	{ "total_time_s", "Total time",     "time",      "General statistics", "s",     NO, OTHER, 0, TIME_S, S_SEC },
	/* No value: the run's latency histogram is its series (axis
	 * latency_ms, y the events of the bucket), as sysbench's
	 * --histogram prints it. */
	{ "latency_histogram", "Latency histogram", "histogram", "Latency", "events", NO, OTHER, BS_MF_SERIES, EVENTS, S_EVENTS },
};

static const struct bs_param_info params[] = {
	{ "mode",  P(mode),             BS_PK_TEXT,  NULL, "test mode",          "", BS_PF_DECIDES, BS_NONE, TEXT },
	{ "threads",  P(threads),          BS_PK_INT,   NULL, "threads",            "", BS_PF_DECIDES | BS_PF_SWEEP, 1, PAR },
	{ "block_size_bytes",  P(block_size_bytes), BS_PK_INT,   NULL, "block size",         "bytes", BS_PF_DECIDES | BS_PF_SWEEP, 16384, BUF },
	{ "file_num",  P(file_num),         BS_PK_INT,   NULL, "files",              "", 0, 128, MANY },
	{ "file_total_bytes",  P(file_total_bytes), BS_PK_INT,   NULL, "total file size",    "bytes", BS_PF_DECIDES, 2147483648, EIB },
	{ "rw_ratio",  P(rw_ratio),         BS_PK_REAL,  NULL, "read/write ratio",   "", 0, BS_NONE, MANY },
	{ "fsync_freq",  P(fsync_freq),       BS_PK_INT,   NULL, "fsync every",        "requests", BS_PF_DECIDES, 100, MANY },
	{ "fsync_all",  P(fsync_all),        BS_PK_BOOL,  NULL, "fsync after writes", "", 0, 0, 1 },
	{ "fsync_end",  P(fsync_end),        BS_PK_BOOL,  NULL, "fsync at the end",   "", 0, 1, 1 },
	{ "fsync_mode",  P(fsync_mode),       BS_PK_TEXT,  NULL, "fsync mode",         "", 0, BS_NONE, TEXT },
	{ "io_mode",  P(io_mode),          BS_PK_TEXT,  NULL, "I/O mode",           "", BS_PF_DECIDES, BS_NONE, TEXT },
	{ "extra_flags",  P(extra_flags),      BS_PK_TEXT,  NULL, "extra open flags",   "", BS_PF_DECIDES, BS_NONE, TEXT, BS_PN_WORDS },
	/* --file-extra-flags=direct, as its output prints it. */
	DIRECT_ROW("O_DIRECT"),
};

static const struct bs_dialect dialects[] = {

	{ BS_FMT_SYSBENCH_04, "sysbench", BS_ERA_SYSBENCH_04,
	  "0.4.x, 0.5", BS_LAYOUT_NONE, BS_TABLE_NONE, 0,
	  BS_FMT_SYSBENCH_04, NULL, "sysbench" },
	{ BS_FMT_SYSBENCH_10, "sysbench", BS_ERA_SYSBENCH_10,
	  "1.0.x", BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_SYSBENCH_10,
	  NULL, "sysbench" },
	{ BS_FMT_BSTORE_FILEIO, "bstore", BS_ERA_SYSBENCH_10,
	  "bstore fileio", BS_LAYOUT_NONE, BS_TABLE_NONE, 0, NULL,
	  "core/fileio_text.c", "bstore fileio" },
};

/* What sysbench prints under "Extra file open flags", "Block size",
 * "Number of threads", ...; every test of a run depends on each. */
static const struct bs_param_rule rules[] = {
	/* keys, metrics, what, why, decides, filespec, RAM tag */
	{ "mode", "*", "Test mode", "sysbench runs one test per mode", 1, 0,
	  NULL },
	{ "block_size_bytes", "*", "Block size (bytes)",
	  "a rate per request depends on its size", 1, 0, NULL },
	{ "threads", "*", "Threads",
	  "rates and latencies depend on the requests in flight", 1, 0, NULL },
	{ "io_mode", "*", "I/O mode", "sync, async and mmap I/O wait differently",
	  1, 0, NULL },
	{ "direct", "*", "O_DIRECT", "direct I/O bypasses the page cache", 1, 0,
	  NULL },
	{ "extra_flags", "*", "Open flags (sync, dsync)",
	  "synchronous writes wait on the disk", 1, 0, NULL },
	{ "rw_ratio", "*", "Read/write ratio",
	  "a mixed test's rates depend on its mix", 1, 0, NULL },
	{ "fsync_freq,fsync_all,fsync_end,fsync_mode", "*", "Fsync settings",
	  "writes wait on the fsyncs", 1, 0, NULL },
	{ "file_total_bytes", "*", "Total file size (bytes)",
	  "rates depend on how much of the files the page cache holds", 0, 0,
	  "host.ram_mib" },
};

static const struct bs_impl impls[] = {
	{ "sysbench", "sysbench", NULL },
	{ "bstore fileio", "bstore", NULL },
};

static const struct bs_equiv equiv[] = {
	{ "sysbench", "bstore fileio", NULL, "*",
	  "bstore fileio is sysbench 1.0.20's fileio test built in "
	  "(docs/fileio.md)" },
};
static const struct bs_title_word title[] = {
	{ "mode", "%s" },
	{ "threads", "%s threads" },
	{ "direct", "O_DIRECT" },
};

/* sysbench prints every rate whatever the mode: a write-only mode's
 * reads are 0.00, a read-only mode's writes and fsyncs too. */
static const struct bs_unmeasured unmeasured[] = {
	{ "mode", "seqwr,seqrewr,rndwr", "reads_per_s,read_mib_s" },
	{ "mode", "seqrd,rndrd", "writes_per_s,written_mib_s,fsyncs_per_s" },
};
/* clang-format on */

/* bstore exec: sysbench fileio's options (1.0, and 0.4's
 * --num-threads); its files are made in the working directory. */
static const struct bs_exec_arg sysbench_args[] = {
	{"--file-test-mode", BS_XA_ARG, "mode", NULL, NULL},
	{"--threads", BS_XA_ARG, "threads", NULL, NULL},
	{"--num-threads", BS_XA_ARG, "threads", NULL, NULL},
	{"--file-block-size", BS_XA_ARG, "block_size_bytes", NULL, NULL},
	{"--file-total-size", BS_XA_ARG, "file_total_bytes", NULL, NULL},
	{"--file-num", BS_XA_ARG, "file_num", NULL, NULL},
	{"--file-io-mode", BS_XA_ARG, "io_mode", NULL, NULL},
	{"--file-extra-flags", BS_XA_ARG, "extra_flags", NULL, NULL},
	{"--file-extra-flags", BS_XA_ARG | BS_XA_WORD, "direct", "1", "direct"},
	{"--file-fsync-freq", BS_XA_ARG, "fsync_freq", NULL, NULL},
	{"--file-fsync-all", BS_XA_ARG, "fsync_all", NULL, NULL},
	{"--file-fsync-end", BS_XA_ARG, "fsync_end", NULL, NULL},
	{"--file-fsync-mode", BS_XA_ARG, "fsync_mode", NULL, NULL},
	{"--file-rw-ratio", BS_XA_ARG, "rw_ratio", NULL, NULL},
};
static const struct bs_exec_prog progs[] = {
	{"sysbench", sysbench_args, ROWS(sysbench_args), NULL, 0},
};

const struct bs_family_info bs_family_sysbench = {
	.name = "sysbench",
	.label = "sysbench fileio and bstore fileio",
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
	.equiv = equiv,
	.nequiv = ROWS(equiv),
	.list_write = "written_mib_s",
	.list_read = "read_mib_s",
	.progs = progs,
	.nprogs = ROWS(progs),
	.title = title,
	.ntitle = ROWS(title),
	.unmeasured = unmeasured,
	.nunmeasured = ROWS(unmeasured),
};
