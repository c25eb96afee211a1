/*
 * core/families/bonnie.c - the bonnie family's row (core/family.h):
 * bonnie++ of every version, Tim Bray's Bonnie and its ports, and
 * bstore run, which measure bonnie++'s twelve tests. Its parameters and
 * the twelve results live in the runs table's own columns.
 */
#include "core/families/rows.h"

#include "util/banned.h"

/* bonnie++'s tests: CPU and latency, in the runs table's columns. */
#define BT (BS_MF_CPU_LAT | BS_MF_COLUMN)
#define TABLES "core/bonnie_text.c"

/* clang-format off */
static const struct bs_metric_info metrics[] = {
	/* bonnie++ (and Bonnie, bstore run): the first twelve rows are
	 * enum bs_metric, in bonnie++'s column order. */
	{ "putc", "Per-char write", "Per Chr", "Sequential Output", "KiB/s",   HI, SEQ,  BT | BS_MF_KIB, KIB_S, S_KIB_MIB },
	{ "put_block", "Block write",    "Block",   "Sequential Output", "KiB/s",   HI, SEQ,  BT | BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "rewrite", "Rewrite",        "Rewrite", "Sequential Output", "KiB/s",   HI, SEQ,  BT | BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "getc", "Per-char read",  "Per Chr", "Sequential Input",  "KiB/s",   HI, SEQ,  BT | BS_MF_KIB, KIB_S, S_KIB_MIB },
	{ "get_block", "Block read",     "Block",   "Sequential Input",  "KiB/s",   HI, SEQ,  BT | BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "seeks", "Random seeks",   "Seeks",   "Random",            "seeks/s", HI, RND,  BT | BS_MF_MAIN, PER_S, S_SEEKS },
	{ "seq_create", "Seq. create",    "Create",  "Sequential Create", "files/s", HI, META, BT, PER_S, S_FILES },
	{ "seq_stat", "Seq. read",      "Read",    "Sequential Create", "files/s", HI, META, BT, PER_S, S_FILES },
	{ "seq_del", "Seq. delete",    "Delete",  "Sequential Create", "files/s", HI, META, BT, PER_S, S_FILES },
	{ "ran_create", "Random create",  "Create",  "Random Create",     "files/s", HI, META, BT, PER_S, S_FILES },
	{ "ran_stat", "Random read",    "Read",    "Random Create",     "files/s", HI, META, BT, PER_S, S_FILES },
	{ "ran_del", "Random delete",  "Delete",  "Random Create",     "files/s", HI, META, BT, PER_S, S_FILES },
};

static const struct bs_param_info params[] = {
	/* key, field, kind, runs column, label, unit, flags, the tool's
	 * default (bonnie++ 2.00a's; docs/input-formats.md sections 8.1,
	 * 8.5), the limit, and how identity reads it */
	{ "file_size_mib", P(file_size_mib),    BS_PK_INT,   "file_size_mib",    "file size",          "MiB", BS_PF_DECIDES | BS_PF_SWEEP, BS_NONE, EIB_MIB },
	{ "io_chunk_bytes", P(io_chunk_bytes),   BS_PK_INT,   "io_chunk_bytes",   "I/O chunk",          "bytes", 0, 8192, CHUNK },
	/* "seeks" is also a result column: the count is seek_count. */
	{ "seeks", P(seeks),            BS_PK_INT,   "seek_count",       "seeks",              "", 0, 8192, MANY },
	{ "seek_procs", P(seek_procs),       BS_PK_INT,   "seek_procs",       "seek processes",     "", 0, 5, PAR },
	{ "per_char_mib", P(per_char_mib),     BS_PK_INT,   "per_char_mib",     "per-char size",      "MiB", 0, 3, EIB_MIB },
	{ "num_files", P(num_files),        BS_PK_INT,   "num_files",        "files (x1024)",      "", BS_PF_DECIDES, 16, MANY_K },
	{ "max_size", P(max_size),         BS_PK_FSIZE, "max_size",         "max file size",      "bytes", 0, 0, EIB },
	{ "min_size", P(min_size),         BS_PK_FSIZE, "min_size",         "min file size",      "bytes", 0, 0, EIB },
	{ "num_dirs", P(num_dirs),         BS_PK_INT,   "num_dirs",         "directories",        "", 0, 1, MANY },
	{ "file_chunk_bytes", P(file_chunk_bytes), BS_PK_INT,   "file_chunk_bytes", "file chunk",         "bytes", 0, 8192, CHUNK },
	{ "concurrency", P(concurrency),      BS_PK_INT,   "concurrency",      "concurrency (-c)",   "", 0, 1, PAR },
	{ "seed", P(seed),             BS_PK_TEXT,  "seed",             "seed",               "", BS_PF_NOCOMPARE, BS_NONE, TEXT },
	/* How it was measured: bonnie++'s -D and -b, which its CSV line and
	 * table never record (bstore run records both). */
	{ "direct", P(direct), BS_PK_BOOL, "direct", "O_DIRECT", "", BS_PF_DECIDES, 0, 1 },
	{ "fsync", P(fsync), BS_PK_BOOL, "fsync", "fsync (-b)", "", BS_PF_DECIDES, 0, 1 },
};

static const struct bs_dialect dialects[] = {
	/* bonnie++'s CSV lines: the exact print of a run. */
	{ BS_FMT_CSV_1_0X, "bonnie++", BS_ERA_1_0X, "1.00-1.04",
	  BS_LAYOUT_1_0X, BS_TABLE_1, 0, BS_FMT_CSV_1_0X,
	  TABLES " (export --csv-format 1.03)", "bonnie++ 1.0x" },
	{ BS_FMT_CSV_BETA, "bonnie++", BS_ERA_1_9X, "1.90-1.92a",
	  BS_LAYOUT_BETA, BS_TABLE_19, 0, BS_FMT_CSV_BETA, NULL, "bonnie++" },
	{ BS_FMT_CSV_1_96, "bonnie++", BS_ERA_1_9X, "1.92b-1.96",
	  BS_LAYOUT_1_96, BS_TABLE_19, 0, BS_FMT_CSV_1_96, NULL, "bonnie++" },
	{ BS_FMT_CSV_1_96S, "bonnie++", BS_ERA_1_9X, "1.92b-1.96 (-s 0)",
	  BS_LAYOUT_1_96_S0, BS_TABLE_19, 0, BS_FMT_CSV_1_96S, NULL, "bonnie++" },
	{ BS_FMT_CSV_1_97, "bonnie++", BS_ERA_1_9X, "1.97",
	  BS_LAYOUT_1_97, BS_TABLE_19, 0, BS_FMT_CSV_1_97, NULL, "bonnie++" },
	{ BS_FMT_CSV_1_98, "bonnie++", BS_ERA_1_98, "1.98-2.00a",
	  BS_LAYOUT_1_98, BS_TABLE_2, 0, BS_FMT_CSV_1_98,
	  TABLES " (export --csv-format 1.98)", "bonnie++" },
	/* bonnie++'s text tables: rounded (2.00a's "291m"), and without
	 * what only the line has (the seed, -c). */
	{ BS_FMT_TEXT_1_0X, "bonnie++", BS_ERA_1_0X, "1.00-1.04",
	  BS_LAYOUT_NONE, BS_TABLE_1, 1, "bonnie++-text", TABLES,
	  "bonnie++ 1.0x" },
	{ BS_FMT_TEXT_1_9X, "bonnie++", BS_ERA_1_9X, "1.90-1.97",
	  BS_LAYOUT_NONE, BS_TABLE_19, 1, "bonnie++-text", TABLES, "bonnie++" },
	{ BS_FMT_TEXT_1_98, "bonnie++", BS_ERA_1_98, "1.98-2.00a",
	  BS_LAYOUT_NONE, BS_TABLE_2, 1, "bonnie++-text", TABLES, "bonnie++" },
	/* bstore run: a 1.98 line (with its own version and chunk) and
	 * 2.00a's table. */
	{ BS_FMT_BSTORE_RUN, "bstore", BS_ERA_1_98, "bstore run",
	  BS_LAYOUT_1_98, BS_TABLE_2, 0, NULL, "core/bench.c", "bstore run" },
	/* Tim Bray's Bonnie and its relatives. */
	{ BS_FMT_BONNIE_TEXT, "bonnie", BS_ERA_BONNIE, "Bonnie 1.x",
	  BS_LAYOUT_NONE, BS_TABLE_BONNIE, 0, BS_FMT_BONNIE_TEXT, NULL, "Bonnie" },
	{ BS_FMT_BONNIE_HTML, "bonnie", BS_ERA_BONNIE, "Bonnie 1.x -html",
	  BS_LAYOUT_NONE, BS_TABLE_BONNIE, 0, BS_FMT_BONNIE_HTML, NULL, "Bonnie" },
	{ BS_FMT_BONNIE64_TEXT, "bonnie", BS_ERA_BONNIE, "Bonnie-64 2.0.x",
	  BS_LAYOUT_NONE, BS_TABLE_BONNIE, 0, BS_FMT_BONNIE_TEXT, NULL, "Bonnie" },
	{ BS_FMT_BONNIE14_TEXT, "bonnie", BS_ERA_BONNIE,
	  "Linux Bonnie 1.2-1.4", BS_LAYOUT_NONE, BS_TABLE_BONNIE, 0,
	  BS_FMT_BONNIE_TEXT, NULL, "Bonnie" },
};

/* Which parameters decide which tests (core/param.h). bonnie++ 2.00a
 * never prints the chunk, its CSV line never -D or -b: such a run's
 * value is unknown, never bonnie++'s default (core/identity.h). */
static const struct bs_param_rule rules[] = {
	/* keys, metrics, what, why, decides, filespec, RAM tag */
	{ "file_size_mib", "putc-seeks", "File size",
	  "I/O rates depend on how much of the file the page cache holds",
	  1, 0, NULL },
	{ "io_chunk_bytes", "put_block-seeks", "I/O chunk size (bytes)",
	  "block and seek rates depend on it", 1, 0, NULL },
	{ "per_char_mib", "putc,getc", "Per-char size (-f)",
	  "per-char rates depend on it", 1, 0, NULL },
	{ "seeks,seek_procs", "seeks", "Seek count/processes",
	  "seek rates depend on them", 1, 0, NULL },
	{ "num_files,max_size,min_size,num_dirs", "seq_create-ran_del",
	  "File-test spec (-n)",
	  "file rates depend on the number, size and spread of the files",
	  1, 1, NULL },
	/* The chunk of the file tests is not part of the spec text. */
	{ "file_chunk_bytes", "seq_create-ran_del",
	  "File-test chunk size (bytes)", "file rates depend on it", 1, 0,
	  NULL },
	{ "direct", "*", "O_DIRECT (-D)", "direct I/O bypasses the page cache",
	  1, 0, NULL },
	{ "fsync", "*", "Fsync after every write (-b)",
	  "each write then waits for the disk", 1, 0, NULL },
};

static const struct bs_impl impls[] = {
	{ "bonnie++", "bonnie++", NULL },
	/* 1.00-1.04: per-char tests through stdio, 3 seek processes. */
	{ "bonnie++ 1.0x", "bonnie++", NULL },
	/* Tim Bray's: stdio per-char tests, 16 KiB chunks, no O_DIRECT. */
	{ "Bonnie", "bonnie", "direct=0,fsync=0" },
	{ "bstore run", "bstore", NULL },
};

#define BLOCK_AND_FILES                                                      \
	"put_block,rewrite,get_block,seq_create,seq_stat,seq_del,"           \
	"ran_create,ran_stat,ran_del"

static const struct bs_equiv equiv[] = {
	/* docs/run.md, "Where bstore differs from bonnie++ 2.00a". */
	{ "bonnie++", "bstore run", "direct=0", "*",
	  "bstore run measures as bonnie++ 2.00a does (docs/run.md)" },
	{ "bonnie++", "bstore run", "direct=1", "put_block",
	  "with -D bonnie++ 2.00a writes blocks O_DIRECT but rewrites, reads "
	  "and seeks through the page cache, bstore run uses O_DIRECT for all "
	  "four" },
	{ "bonnie++ 1.0x", "bonnie++", NULL, BLOCK_AND_FILES,
	  "bonnie++ 1.0x writes and reads a byte at a time through stdio and "
	  "seeks with 3 processes, 1.9x and later with a system call a byte "
	  "and 5 threads" },
	{ "bonnie++ 1.0x", "bstore run", "direct=0", BLOCK_AND_FILES,
	  "bonnie++ 1.0x writes and reads a byte at a time through stdio and "
	  "seeks with 3 processes, bstore run as bonnie++ 2.00a" },
};

static const struct bs_related related[] = {
	{ "put_block", BS_FAM_DD, "write_kib_s",
	  "dd writes one stream of its bs= blocks, bonnie++ a file of 8 KiB "
	  "chunks" },
	{ "get_block", BS_FAM_DD, "read_kib_s",
	  "dd reads one stream of its bs= blocks, bonnie++ a file of 8 KiB "
	  "chunks" },
};
static const struct bs_title_word title[] = {
	/* bonnie++'s own flags: what people type to run the test. */
	{ "direct", "-D" },
	{ "fsync", "-b" },
};
/* clang-format on */

/* bstore exec: bonnie++'s output never says -D or -b, its arguments do;
 * without them it ran buffered and without fsync (the "absent" rows are
 * the value when the flag is not given). Tim Bray's Bonnie: -d. */
static const struct bs_exec_arg bonnie_args[] = {
	{"-d", BS_XA_ARG | BS_XA_PATH, NULL, NULL, NULL},
	{"-D", 0, "direct", "1", NULL},
	{"-b", 0, "fsync", "1", NULL},
};
static const struct bs_exec_arg bonnie_absent[] = {
	{"-D", 0, "direct", "0", NULL},
	{"-b", 0, "fsync", "0", NULL},
};
static const struct bs_exec_arg bray_args[] = {
	{"-d", BS_XA_ARG | BS_XA_PATH, NULL, NULL, NULL},
};
static const struct bs_exec_prog progs[] = {
	{"bonnie++", bonnie_args, ROWS(bonnie_args), bonnie_absent,
	 ROWS(bonnie_absent)},
	{"Bonnie", bray_args, ROWS(bray_args), NULL, 0},
	{"bonnie", bray_args, ROWS(bray_args), NULL, 0},
};

const struct bs_family_info bs_family_bonnie = {
	.name = "bonnie",
	.label = "bonnie++, Bonnie and bstore run",
	.flags = BS_FAMF_COLUMNS,
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
	.related = related,
	.nrelated = ROWS(related),
	.list_write = "put_block",
	.list_read = "get_block",
	.progs = progs,
	.nprogs = ROWS(progs),
	.title = title,
	.ntitle = ROWS(title),
};
