/*
 * core/families/zcav.c - the zcav family's row (core/family.h): bonnie++'s
 * zcav, throughput by position on a disk or in a file, and bstore zcav.
 */
#include "core/families/rows.h"

#include "util/banned.h"

/* clang-format off */
static const struct bs_metric_info metrics[] = {
	/* zcav: read_mib_s / write_mib_s are the mean of the timed blocks'
	 * rates, the curve their series; total_mib_s is what zcav's last
	 * line says, "# Read N megs in S seconds, R megabytes per second":
	 * the MiB of the whole pass over its time, cut to a whole number
	 * (docs/formats.md, "zcav"). */
	{ "read_mib_s", "Read",  "read",  "Throughput by position", "MiB/s", HI, SEQ, BS_MF_SERIES | BS_MF_MAIN, MIB_S, S_MIB },
	{ "write_mib_s", "Write", "write", "Throughput by position", "MiB/s", HI, SEQ, BS_MF_SERIES | BS_MF_MAIN, MIB_S, S_MIB },
	{ "total_mib_s", "Whole pass (zcav's total)", "total", "Whole pass", "MiB/s", HI, SEQ, 0, MIB_S, S_WHOLE },
};

static const struct bs_param_info params[] = {
	{ "block_mib", P(block_mib), BS_PK_INT,  NULL, "block size",         "MiB", BS_PF_DECIDES | BS_PF_SWEEP, 512, EIB_MIB },
	{ "passes", P(passes),    BS_PK_INT,  NULL, "passes",             "", 0, 1, MANY },
	{ "skip", P(skip),      BS_PK_INT,  NULL, "every Nth block",    "", 0, 1, MANY },
	{ "target", P(target),    BS_PK_TEXT, NULL, "target",             "", BS_PF_DECIDES, BS_NONE, TEXT },
	DIRECT_ROW("O_DIRECT"),
};

static const struct bs_dialect dialects[] = {

	{ BS_FMT_ZCAV, "zcav", BS_ERA_NONE, "1.02-2.00a",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_ZCAV, NULL, "zcav" },
	{ BS_FMT_BSTORE_ZCAV, "bstore", BS_ERA_NONE, "bstore zcav",
	  BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_ZCAV, "core/zcav.c",
	  "bstore zcav" },
};

static const struct bs_param_rule rules[] = {
	/* keys, metrics, what, why, decides, filespec, RAM tag */
	{ "block_mib", "*", "Block size (MiB)",
	  "a block's rate depends on its size", 1, 0, NULL },
	{ "target", "*", "File or device",
	  "a file goes through the file system and the page cache, a device "
	  "does not", 1, 0, NULL },
	{ "direct", "*", "O_DIRECT",
	  "zcav reads through the page cache, O_DIRECT bypasses it", 1, 0,
	  NULL },
};

static const struct bs_impl impls[] = {
	/* zcav 2.00a opens its target without O_DIRECT. */
	{ "zcav", "zcav", "direct=0" },
	{ "bstore zcav", "bstore", NULL },
};

static const struct bs_equiv equiv[] = {
	{ "zcav", "bstore zcav", NULL, "read_mib_s,write_mib_s",
	  "bstore zcav times its blocks as zcav does (docs/zcav.md); its "
	  "whole-pass total is its own" },
};
static const struct bs_title_word title[] = {
	{ "block_mib", "%s blocks" },
	{ "target", "%s" },
	{ "direct", "O_DIRECT" },
};
/* clang-format on */

/* bstore exec: zcav reads (or with -w writes) its last operand. */
static const struct bs_exec_arg zcav_args[] = {
	{NULL, BS_XA_PATH, NULL, NULL, NULL},
};
static const struct bs_exec_prog progs[] = {
	{"zcav", zcav_args, ROWS(zcav_args), NULL, 0},
};

const struct bs_family_info bs_family_zcav = {
	.name = "zcav",
	.label = "zcav and bstore zcav",
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
	.list_write = "write_mib_s",
	.list_read = "read_mib_s",
	.progs = progs,
	.nprogs = ROWS(progs),
	.title = title,
	.ntitle = ROWS(title),
};
