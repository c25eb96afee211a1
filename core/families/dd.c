/*
 * core/families/dd.c - the dd family's row (core/family.h): dd's summary
 * line and the command line above it (GNU coreutils and BSD).
 */
#include "core/families/rows.h"

#include "util/banned.h"

/* clang-format off */
static const struct bs_metric_info metrics[] = {
	/* dd: bytes / 1024 / seconds, in the direction it copied. */
	{ "write_kib_s", "Write", "write", "dd", "KiB/s", HI, SEQ, BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	{ "read_kib_s", "Read",  "read",  "dd", "KiB/s", HI, SEQ, BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
	/* A summary pasted without its command line: which way is unknown. */
	{ "copy_kib_s", "Copy, direction unknown", "copy", "dd", "KiB/s", HI, SEQ, BS_MF_KIB | BS_MF_MAIN, KIB_S, S_KIB_MIB },
};

static const struct bs_param_info params[] = {
	{ "bytes",  P(bytes),            BS_PK_INT,   NULL, "bytes copied",       "bytes", BS_PF_DECIDES, BS_NONE, EIB },
	{ "seconds",  P(seconds),          BS_PK_REAL,  NULL, "time",               "s", 0, BS_NONE, SECONDS },
	{ "bs_bytes",  P(bs_bytes),         BS_PK_INT,   NULL, "block size",         "bytes", BS_PF_DECIDES | BS_PF_SWEEP, BS_NONE, BUF },
	{ "count",  P(count),            BS_PK_INT,   NULL, "blocks",             "", BS_PF_DECIDES, BS_NONE, EIB },
	{ "flags",  P(flags),            BS_PK_TEXT,  NULL, "flags",              "", BS_PF_DECIDES, BS_NONE, TEXT, BS_PN_WORDS },
	/* iflag=direct or oflag=direct, as its command line says. */
	DIRECT_ROW("O_DIRECT"),
};

static const struct bs_dialect dialects[] = {
	{ BS_FMT_DD, "dd", BS_ERA_NONE, "GNU coreutils, BSD",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_DD, NULL, "dd" },
};

static const struct bs_param_rule rules[] = {
	/* keys, metrics, what, why, decides, filespec, RAM tag */
	{ "bs_bytes", "*", "Block size (bs)",
	  "a rate per request depends on its size", 1, 0, NULL },
	{ "direct", "*", "O_DIRECT", "direct I/O bypasses the page cache", 1, 0,
	  NULL },
	{ "flags", "*", "Flags", "dsync and fdatasync change what is timed", 1,
	  0, NULL },
	{ "bytes,count", "*", "Bytes/blocks copied",
	  "rates depend on how much the page cache holds", 0, 0, NULL },
};

static const struct bs_impl impls[] = {
	{ "dd", "dd", NULL },
};
static const struct bs_title_word title[] = {
	{ "bs_bytes", "bs=%s" },
	{ "flags", "%s" },
	{ "direct", "O_DIRECT" },
};
/* clang-format on */

/* bstore exec: dd's operands; the file written, else the one read, is
 * what it measured. */
static const struct bs_exec_arg dd_args[] = {
	{"of=", BS_XA_ARG | BS_XA_PATH, NULL, NULL, NULL},
	{"if=", BS_XA_ARG | BS_XA_PATH, NULL, NULL, NULL},
	{"bs=", BS_XA_ARG, "bs_bytes", NULL, NULL},
	{"oflag=", BS_XA_ARG | BS_XA_WORD, "direct", "1", "direct"},
	{"iflag=", BS_XA_ARG | BS_XA_WORD, "direct", "1", "direct"},
};
static const struct bs_exec_prog progs[] = {
	{"dd", dd_args, ROWS(dd_args), NULL, 0},
};

const struct bs_family_info bs_family_dd = {
	.name = "dd",
	.label = "dd",
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
	.list_write = "write_kib_s",
	.list_read = "read_kib_s",
	.progs = progs,
	.nprogs = ROWS(progs),
	.title = title,
	.ntitle = ROWS(title),
};
