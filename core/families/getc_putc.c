/*
 * core/families/getc_putc.c - the getc_putc family's row (core/family.h):
 * bonnie++'s getc_putc, byte-at-a-time I/O through each C library call.
 */
#include "core/families/rows.h"

#include "util/banned.h"

/* clang-format off */
static const struct bs_metric_info metrics[] = {
	/* getc_putc: byte-at-a-time I/O; "++++++" is too_fast. */
	{ "write", "write(2) a byte",   "write",  "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB | BS_MF_MAIN, KIB_S, S_BYTE_MIB },
	{ "read", "read(2) a byte",    "read",   "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB | BS_MF_MAIN, KIB_S, S_BYTE_MIB },
	{ "putc_nt", "putc, no threads",  "putcNT", "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
	{ "getc_nt", "getc, no threads",  "getcNT", "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
	{ "putc", "putc",              "putc",   "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
	{ "getc", "getc",              "getc",   "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
	{ "putc_unlocked", "putc_unlocked",     "putcU",  "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
	{ "getc_unlocked", "getc_unlocked",     "getcU",  "Byte I/O", "KiB/s", HI, SEQ, BS_MF_KIB, KIB_S, S_BYTE_MIB },
};

static const struct bs_dialect dialects[] = {
	{ BS_FMT_GETC_PUTC, "getc_putc", BS_ERA_NONE,
	  "1.93-2.00a", BS_LAYOUT_NONE, BS_TABLE_NONE, 0, BS_FMT_GETC_PUTC,
	  NULL, "getc_putc" },
};

static const struct bs_impl impls[] = {
	{ "getc_putc", "getc_putc", NULL },
};
/* clang-format on */

/* bstore exec: getc_putc works in the working directory. */
static const struct bs_exec_prog progs[] = {
	{"getc_putc", NULL, 0, NULL, 0},
};

const struct bs_family_info bs_family_getc_putc = {
	.name = "getc_putc",
	.label = "getc_putc",
	.metrics = metrics,
	.nmetrics = ROWS(metrics),
	.dialects = dialects,
	.ndialects = ROWS(dialects),
	.impls = impls,
	.nimpls = ROWS(impls),
	.list_write = "write",
	.list_read = "read",
	.progs = progs,
	.nprogs = ROWS(progs),
};
