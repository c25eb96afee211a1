/*
 * core/param.c - the parameter table (core/param.h): every parameter of
 * every tool, one row each, and the rules on which of them make results
 * incomparable. The keys are the contract of docs/formats.md (a test
 * checks that it names each); the bonnie family's rows name their column
 * of runs.
 */
#include "core/param.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/json.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

#define P(f) offsetof(struct bs_params, f)
#define BON BS_FAM_BONNIE
#define SB BS_FAM_SYSBENCH
#define FIO BS_FAM_FIO
#define DD BS_FAM_DD

/*
 * Limits (bs_param_info.max): what no run could exceed, generously. A
 * size is at most 1 EiB (2^40 MiB, 2^60 bytes), more than any array
 * holds; one chunk at most 1 GiB (bonnie++ takes up to 1 MiB), one
 * request or dd buffer 1 TiB; what a machine runs at once (threads,
 * processes, jobs, queue depth, -c) at most 2^20; counts of seeks, files,
 * directories and passes 2^40 (bonnie++'s -n counts in 1024s: 2^30); a
 * run lasts at most 1e9 s (core/metric.c). A size in MiB times 2^20 and
 * a file count times 1024 thus stay far inside an int64.
 * docs/formats.md "Limits" lists them; test_schema holds it to this.
 */
#define EIB_MIB (INT64_C(1) << 40)
#define EIB (INT64_C(1) << 60)
#define CHUNK (INT64_C(1) << 30)
#define BUF (INT64_C(1) << 40)
#define PAR (INT64_C(1) << 20)
#define MANY (INT64_C(1) << 40)
#define MANY_K (MANY / 1024)
#define TIME_S INT64_C(1000000000)
#define TEXT BS_NONE

/* clang-format off */
const struct bs_param_info bs_param_table[] = {
	/* key, family, field, kind, runs column, label, unit, flags, the
	 * tool's default (bonnie++ 2.00a's, sysbench 1.0.20's, zcav
	 * 2.00a's, fio 3.33's; docs/input-formats.md sections 5.2, 8.1,
	 * 8.5), and the limit */
	{ "file_size_mib",    BON, P(file_size_mib),    BS_PK_INT,   "file_size_mib",    "file size",          "MiB", BS_PF_DECIDES, BS_NONE, EIB_MIB },
	{ "io_chunk_bytes",   BON, P(io_chunk_bytes),   BS_PK_INT,   "io_chunk_bytes",   "I/O chunk",          "bytes", 0, 8192, CHUNK },
	/* "seeks" is also a result column: the count is seek_count. */
	{ "seeks",            BON, P(seeks),            BS_PK_INT,   "seek_count",       "seeks",              "", 0, 8192, MANY },
	{ "seek_procs",       BON, P(seek_procs),       BS_PK_INT,   "seek_procs",       "seek processes",     "", 0, 5, PAR },
	{ "per_char_mib",     BON, P(per_char_mib),     BS_PK_INT,   "per_char_mib",     "per-char size",      "MiB", 0, 3, EIB_MIB },
	{ "num_files",        BON, P(num_files),        BS_PK_INT,   "num_files",        "files (x1024)",      "", BS_PF_DECIDES, 16, MANY_K },
	{ "max_size",         BON, P(max_size),         BS_PK_FSIZE, "max_size",         "max file size",      "bytes", 0, 0, EIB },
	{ "min_size",         BON, P(min_size),         BS_PK_FSIZE, "min_size",         "min file size",      "bytes", 0, 0, EIB },
	{ "num_dirs",         BON, P(num_dirs),         BS_PK_INT,   "num_dirs",         "directories",        "", 0, 1, MANY },
	{ "file_chunk_bytes", BON, P(file_chunk_bytes), BS_PK_INT,   "file_chunk_bytes", "file chunk",         "bytes", 0, 8192, CHUNK },
	{ "concurrency",      BON, P(concurrency),      BS_PK_INT,   "concurrency",      "concurrency (-c)",   "", 0, 1, PAR },
	{ "seed",             BON, P(seed),             BS_PK_TEXT,  "seed",             "seed",               "", BS_PF_NOCOMPARE, BS_NONE, TEXT },

	{ "mode",             SB,  P(mode),             BS_PK_TEXT,  NULL, "test mode",          "", BS_PF_DECIDES, BS_NONE, TEXT },
	{ "threads",          SB,  P(threads),          BS_PK_INT,   NULL, "threads",            "", BS_PF_DECIDES, 1, PAR },
	{ "block_size_bytes", SB,  P(block_size_bytes), BS_PK_INT,   NULL, "block size",         "bytes", BS_PF_DECIDES, 16384, BUF },
	{ "file_num",         SB,  P(file_num),         BS_PK_INT,   NULL, "files",              "", 0, 128, MANY },
	{ "file_total_bytes", SB,  P(file_total_bytes), BS_PK_INT,   NULL, "total file size",    "bytes", BS_PF_DECIDES, 2147483648, EIB },
	{ "rw_ratio",         SB,  P(rw_ratio),         BS_PK_REAL,  NULL, "read/write ratio",   "", 0, BS_NONE, MANY },
	{ "fsync_freq",       SB,  P(fsync_freq),       BS_PK_INT,   NULL, "fsync every",        "requests", BS_PF_DECIDES, 100, MANY },
	{ "fsync_all",        SB,  P(fsync_all),        BS_PK_BOOL,  NULL, "fsync after writes", "", 0, 0, 1 },
	{ "fsync_end",        SB,  P(fsync_end),        BS_PK_BOOL,  NULL, "fsync at the end",   "", 0, 1, 1 },
	{ "fsync_mode",       SB,  P(fsync_mode),       BS_PK_TEXT,  NULL, "fsync mode",         "", 0, BS_NONE, TEXT },
	{ "io_mode",          SB,  P(io_mode),          BS_PK_TEXT,  NULL, "I/O mode",           "", BS_PF_DECIDES, BS_NONE, TEXT },
	{ "extra_flags",      SB,  P(extra_flags),      BS_PK_TEXT,  NULL, "extra open flags",   "", BS_PF_DECIDES, BS_NONE, TEXT },

	{ "block_mib",        BS_FAM_ZCAV, P(block_mib), BS_PK_INT,  NULL, "block size",         "MiB", BS_PF_DECIDES, 512, EIB_MIB },
	{ "passes",           BS_FAM_ZCAV, P(passes),    BS_PK_INT,  NULL, "passes",             "", 0, 1, MANY },
	{ "skip",             BS_FAM_ZCAV, P(skip),      BS_PK_INT,  NULL, "every Nth block",    "", 0, 1, MANY },
	{ "target",           BS_FAM_ZCAV, P(target),    BS_PK_TEXT, NULL, "target",             "", BS_PF_DECIDES, BS_NONE, TEXT },

	{ "jobname",          FIO, P(jobname),          BS_PK_TEXT,  NULL, "job",                "", 0, BS_NONE, TEXT },
	{ "rw",               FIO, P(rw),               BS_PK_TEXT,  NULL, "rw",                 "", BS_PF_DECIDES, BS_NONE, TEXT },
	{ "bs",               FIO, P(bs),               BS_PK_TEXT,  NULL, "block size",         "", BS_PF_DECIDES, BS_NONE, TEXT },
	{ "ioengine",         FIO, P(ioengine),         BS_PK_TEXT,  NULL, "I/O engine",         "", BS_PF_DECIDES, BS_NONE, TEXT },
	{ "iodepth",          FIO, P(iodepth),          BS_PK_INT,   NULL, "I/O depth",          "", BS_PF_DECIDES, 1, PAR },
	{ "numjobs",          FIO, P(numjobs),          BS_PK_INT,   NULL, "jobs",               "", BS_PF_DECIDES, 1, PAR },
	{ "size",             FIO, P(size),             BS_PK_TEXT,  NULL, "size",               "", BS_PF_DECIDES, BS_NONE, TEXT },
	{ "direct",           FIO, P(direct),           BS_PK_BOOL,  NULL, "O_DIRECT",           "", BS_PF_DECIDES, 0, 1 },

	{ "bytes",            DD,  P(bytes),            BS_PK_INT,   NULL, "bytes copied",       "bytes", BS_PF_DECIDES, BS_NONE, EIB },
	{ "seconds",          DD,  P(seconds),          BS_PK_REAL,  NULL, "time",               "s", 0, BS_NONE, TIME_S },
	{ "bs_bytes",         DD,  P(bs_bytes),         BS_PK_INT,   NULL, "block size",         "bytes", BS_PF_DECIDES, BS_NONE, BUF },
	{ "count",            DD,  P(count),            BS_PK_INT,   NULL, "blocks",             "", BS_PF_DECIDES, BS_NONE, EIB },
	{ "flags",            DD,  P(flags),            BS_PK_TEXT,  NULL, "flags",              "", BS_PF_DECIDES, BS_NONE, TEXT },
};
/* clang-format on */

#define NPARAMS ((int)(sizeof(bs_param_table) / sizeof(bs_param_table[0])))
_Static_assert(sizeof(bs_param_table) / sizeof(bs_param_table[0]) <= BS_P_MAX,
	       "the parameter table outgrew BS_P_MAX (core/param.h)");

const int bs_nparams = NPARAMS;

/* clang-format off */
const struct bs_param_rule bs_param_rules[] = {
	/* keys, metrics first and last, what, why, assume the default,
	 * filespec, apart, RAM tag */
	{ "file_size_mib", "putc", "seeks", "File size",
	  "I/O rates depend on how much of the file the page cache holds",
	  0, 0, 0, NULL },
	/* bonnie++ 2.00a never prints the chunk: take its default. */
	{ "io_chunk_bytes", "put_block", "seeks", "I/O chunk size (bytes)",
	  "block and seek rates depend on it", 1, 0, 0, NULL },
	{ "per_char_mib", "putc", "getc", "Per-char size (-f)",
	  "per-char rates depend on it", 0, 0, 0, NULL },
	{ "seeks,seek_procs", "seeks", "seeks", "Seek count/processes",
	  "seek rates depend on them", 0, 0, 0, NULL },
	{ "num_files,max_size,min_size,num_dirs", "seq_create", "ran_del",
	  "File-test spec (-n)",
	  "file rates depend on the number, size and spread of the files",
	  0, 1, 0, NULL },
	/* The chunk of the file tests is not part of the spec text. */
	{ "file_chunk_bytes", "seq_create", "ran_del",
	  "File-test chunk size (bytes)", "file rates depend on it", 0, 0, 0,
	  NULL },

	/* sysbench fileio: what it prints under "Extra file open flags",
	 * "Block size", "Number of threads", ... (sysbench 1.0.20's
	 * defaults when a 0.4 run does not say). */
	{ "mode", "reads_per_s", "latency_histogram", "Test mode",
	  "sysbench runs one test per mode", 0, 0, 1, NULL },
	{ "block_size_bytes", "reads_per_s", "latency_histogram",
	  "Block size (bytes)", "a rate per request depends on its size", 1,
	  0, 1, NULL },
	{ "threads", "reads_per_s", "latency_histogram", "Threads",
	  "rates and latencies depend on the requests in flight", 1, 0, 1,
	  NULL },
	{ "io_mode", "reads_per_s", "latency_histogram", "I/O mode",
	  "sync, async and mmap I/O wait differently", 0, 0, 1, NULL },
	{ "extra_flags", "reads_per_s", "latency_histogram",
	  "Extra open flags", "direct and synchronous I/O bypass or wait on "
	  "the page cache", 0, 0, 1, NULL },
	{ "fsync_freq,fsync_all,fsync_end,fsync_mode", "reads_per_s",
	  "latency_histogram", "Fsync settings",
	  "writes wait on the fsyncs", 1, 0, 1, NULL },
	{ "file_total_bytes", "reads_per_s", "latency_histogram",
	  "Total file size (bytes)",
	  "rates depend on how much of the files the page cache holds", 1, 0,
	  0, "host.ram_mib" },

	/* fio, per job */
	{ "rw", "read_bw_kib_s", "trim_clat_p99_99_us", "I/O pattern (rw)",
	  "fio runs one test per pattern", 0, 0, 1, NULL },
	{ "bs", "read_bw_kib_s", "trim_clat_p99_99_us", "Block size (bs)",
	  "a rate per request depends on its size", 0, 0, 1, NULL },
	{ "iodepth", "read_bw_kib_s", "trim_clat_p99_99_us", "I/O depth",
	  "rates and latencies depend on the requests in flight", 1, 0, 1,
	  NULL },
	{ "numjobs", "read_bw_kib_s", "trim_clat_p99_99_us", "Jobs",
	  "rates and latencies depend on the requests in flight", 1, 0, 1,
	  NULL },
	{ "ioengine", "read_bw_kib_s", "trim_clat_p99_99_us", "I/O engine",
	  "engines issue and complete I/O differently", 0, 0, 1, NULL },
	{ "direct", "read_bw_kib_s", "trim_clat_p99_99_us", "O_DIRECT",
	  "direct I/O bypasses the page cache", 1, 0, 1, NULL },
	{ "size", "read_bw_kib_s", "trim_clat_p99_99_us", "Size",
	  "rates depend on how much of the file the page cache holds", 0, 0,
	  0, NULL },

	/* dd */
	{ "bs_bytes", "write_kib_s", "read_kib_s", "Block size (bs)",
	  "a rate per request depends on its size", 0, 0, 1, NULL },
	{ "flags", "write_kib_s", "read_kib_s", "Flags",
	  "direct, dsync and fdatasync change what is timed", 0, 0, 1,
	  NULL },
	{ "bytes,count", "write_kib_s", "read_kib_s", "Bytes/blocks copied",
	  "rates depend on how much the page cache holds", 0, 0, 0,
	  NULL },

	/* zcav */
	{ "block_mib", "read_mib_s", "total_mib_s", "Block size (MiB)",
	  "a block's rate depends on its size", 1, 0, 1, NULL },
	{ "target", "read_mib_s", "total_mib_s", "File or device",
	  "a file goes through the file system and the page cache, a device "
	  "does not", 0, 0, 1, NULL },
};
/* clang-format on */

const int bs_nparam_rules =
	(int)(sizeof(bs_param_rules) / sizeof(bs_param_rules[0]));

int bs_param_find(const char *key)
{
	int i;

	for (i = 0; i < NPARAMS; i++)
		if (strcmp(bs_param_table[i].key, key) == 0)
			return i;
	return -1;
}

int bs_param_rule_keys(const struct bs_param_rule *r, int *k, int max)
{
	const char *p = r->keys;
	char key[64];
	int n = 0;

	while (*p && n < max) {
		size_t len = strcspn(p, ",");
		snprintf(key, sizeof(key), "%.*s", (int)len, p);
		k[n] = bs_param_find(key);
		if (k[n] < 0)
			BS_BUG("a parameter rule names an unknown key");
		n++;
		p += len + (p[len] == ',');
	}
	return n;
}

int bs_param_fits(int i, int64_t v)
{
	assert(i >= 0 && i < NPARAMS && bs_param_table[i].max != BS_NONE);
	if (bs_param_table[i].kind == BS_PK_FSIZE &&
	    (v == BS_SIZE_LINK || v == BS_SIZE_SYMLINK))
		return 1;
	return v >= 0 && v <= bs_param_table[i].max;
}

int bs_param_fits_real(int i, double v)
{
	assert(i >= 0 && i < NPARAMS && bs_param_table[i].max != BS_NONE);
	/* NaN compares false both ways: it does not fit. */
	return v >= 0 && v <= (double)bs_param_table[i].max;
}

static void *field(const struct bs_params *p, int i)
{
	assert(i >= 0 && i < NPARAMS);
	return (char *)p + bs_param_table[i].offset;
}

/* The accessors check that the caller reads a field as its kind. */
#define is_i64(i)                                                            \
	(bs_param_table[i].kind != BS_PK_REAL &&                             \
	 bs_param_table[i].kind != BS_PK_TEXT)

int64_t *bs_param_i64(struct bs_params *p, int i)
{
	assert(is_i64(i));
	return field(p, i);
}

double *bs_param_real(struct bs_params *p, int i)
{
	assert(bs_param_table[i].kind == BS_PK_REAL);
	return field(p, i);
}

char **bs_param_text(struct bs_params *p, int i)
{
	assert(bs_param_table[i].kind == BS_PK_TEXT);
	return field(p, i);
}

int64_t bs_param_get_i64(const struct bs_params *p, int i)
{
	assert(is_i64(i));
	return *(const int64_t *)field(p, i);
}

double bs_param_get_real(const struct bs_params *p, int i)
{
	assert(bs_param_table[i].kind == BS_PK_REAL);
	return *(const double *)field(p, i);
}

const char *bs_param_get_text(const struct bs_params *p, int i)
{
	assert(bs_param_table[i].kind == BS_PK_TEXT);
	return *(char *const *)field(p, i);
}

int bs_param_known(const struct bs_params *p, int i)
{
	switch (bs_param_table[i].kind) {
	case BS_PK_REAL:
		return !isnan(bs_param_get_real(p, i));
	case BS_PK_TEXT:
		return bs_param_get_text(p, i) != NULL;
	default:
		return bs_param_get_i64(p, i) != BS_NONE;
	}
}

/*
 * What the table says, worked out once: a struct with every parameter
 * unknown, the rows that hold text, and the row of each field's offset
 * (plus one; 0 for none). Initialising, checking and releasing
 * parameters runs for every ingested line.
 */
static struct {
	pthread_once_t once;
	struct bs_params blank;
	int text[BS_P_MAX];
	int ntext;
	unsigned char row_at[sizeof(struct bs_params)];
} derived = {PTHREAD_ONCE_INIT};

_Static_assert(BS_P_MAX < 255, "row_at holds a row plus one in a byte");

static void derive(void)
{
	struct bs_params *p = &derived.blank;
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < NPARAMS; i++) {
		derived.row_at[bs_param_table[i].offset] =
			(unsigned char)(i + 1);
		switch (bs_param_table[i].kind) {
		case BS_PK_REAL:
			*bs_param_real(p, i) = NAN;
			break;
		case BS_PK_TEXT:
			derived.text[derived.ntext++] = i;
			break; /* NULL from memset */
		default:
			*bs_param_i64(p, i) = BS_NONE;
			break;
		}
	}
}

int bs_param_at(size_t offset)
{
	pthread_once(&derived.once, derive);
	if (offset >= sizeof(derived.row_at))
		return -1;
	return derived.row_at[offset] - 1;
}

void bs_params_init(struct bs_params *p)
{
	pthread_once(&derived.once, derive);
	*p = derived.blank;
}

void bs_params_defaults(struct bs_params *p, enum bs_family f)
{
	int i;

	for (i = 0; i < NPARAMS; i++)
		if (bs_param_table[i].family == f &&
		    bs_param_table[i].dflt != BS_NONE)
			*bs_param_i64(p, i) = bs_param_table[i].dflt;
}

int64_t bs_param_default(const char *key)
{
	int k = bs_param_find(key);

	if (k < 0)
		BS_BUG("the default of an unknown parameter");
	return bs_param_table[k].dflt;
}

void bs_params_release(struct bs_params *p)
{
	int i;

	pthread_once(&derived.once, derive);
	for (i = 0; i < derived.ntext; i++)
		free(*bs_param_text(p, derived.text[i]));
	*p = derived.blank;
}

void bs_params_copy(struct bs_params *dst, const struct bs_params *src)
{
	char **text, *copy;
	int i;

	if (dst == src)
		return;
	for (i = 0; i < NPARAMS; i++) {
		switch (bs_param_table[i].kind) {
		case BS_PK_REAL:
			*bs_param_real(dst, i) = bs_param_get_real(src, i);
			break;
		case BS_PK_TEXT:
			copy = xstrdup(bs_param_get_text(src, i));
			text = bs_param_text(dst, i);
			free(*text);
			*text = copy;
			break;
		default:
			*bs_param_i64(dst, i) = bs_param_get_i64(src, i);
			break;
		}
	}
}

void bs_param_format(const struct bs_params *p, int i, struct bs_buf *out)
{
	char num[64];
	int64_t v;

	if (!bs_param_known(p, i))
		return;
	switch (bs_param_table[i].kind) {
	case BS_PK_TEXT:
		bs_buf_adds(out, bs_param_get_text(p, i));
		return;
	case BS_PK_REAL:
		bs_buf_adds(out, bs_fmt_g(num, sizeof(num),
					  bs_param_get_real(p, i)));
		return;
	case BS_PK_BOOL:
		bs_buf_adds(out, bs_param_get_i64(p, i) ? "on" : "off");
		return;
	case BS_PK_FSIZE:
		v = bs_param_get_i64(p, i);
		if (v == BS_SIZE_LINK) {
			bs_buf_adds(out, "link");
			return;
		}
		if (v == BS_SIZE_SYMLINK) {
			bs_buf_adds(out, "symlink");
			return;
		}
		break;
	case BS_PK_INT:
		break;
	}
	bs_buf_addf(out, "%lld", (long long)bs_param_get_i64(p, i));
}

void bs_param_describe(const struct bs_params *p, int i, struct bs_buf *out)
{
	const struct bs_param_info *pi = &bs_param_table[i];
	size_t start = out->len;

	if (!bs_param_known(p, i)) {
		bs_buf_adds(out, "unknown");
		return;
	}
	bs_param_format(p, i, out);
	if (pi->kind == BS_PK_FSIZE && bs_param_get_i64(p, i) < 0)
		bs_buf_adds(out, bs_param_get_i64(p, i) == BS_SIZE_LINK
					 ? " (hard links)"
					 : " (symbolic links)");
	else if (pi->unit[0] && out->len > start)
		bs_buf_addf(out, " %s", pi->unit);
}

void bs_param_json(const struct bs_params *p, int i, struct bs_buf *out)
{
	if (!bs_param_known(p, i)) {
		bs_buf_adds(out, "null");
		return;
	}
	switch (bs_param_table[i].kind) {
	case BS_PK_TEXT:
		bs_json_str(out, bs_param_get_text(p, i));
		return;
	case BS_PK_REAL:
		bs_json_num(out, bs_param_get_real(p, i));
		return;
	case BS_PK_BOOL:
		bs_buf_adds(out, bs_param_get_i64(p, i) ? "true" : "false");
		return;
	case BS_PK_FSIZE:
		if (bs_param_get_i64(p, i) < 0) {
			bs_buf_addc(out, '"');
			bs_param_format(p, i, out);
			bs_buf_addc(out, '"');
			return;
		}
		break;
	case BS_PK_INT:
		break;
	}
	bs_json_i64(out, bs_param_get_i64(p, i));
}
