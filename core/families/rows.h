/*
 * core/families/rows.h - the shorthands the family rows (core/families/
 * <name>.c, core/family.h) are written in: which way is better, the
 * categories, the limits of values and parameters, and how a value is
 * shown. Included by the family files only. The rows, one file a family
 * (tests/cli/rooms.sh checks that each file is named here):
 *
 *   bonnie.c     bonnie++ of every version, Tim Bray's Bonnie and its
 *                ports, bstore run
 *   getc_putc.c  bonnie++'s getc_putc: byte-at-a-time I/O per C call
 *   zcav.c       bonnie++'s zcav and bstore zcav: throughput by position
 *   sysbench.c   sysbench fileio 0.4 to 1.0, and bstore fileio
 *   fio.c        one run per fio job: rates and latencies per direction
 *   dd.c         dd's summary line and its command line (GNU and BSD)
 */
#ifndef BS_CORE_FAMILIES_ROWS_H
#define BS_CORE_FAMILIES_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "core/dialect.h"
#include "core/family.h"
#include "core/metric.h"
#include "core/param.h"

/* A row leaves out its trailing fields that keep their default: the
 * family a row belongs to is filled in by the catalogue (core/family.c),
 * a parameter's identity reading is BS_PN_AS_IS unless it says. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define HI BS_BETTER_HIGHER
#define LO BS_BETTER_LOWER
#define NO BS_BETTER_NONE
#define SEQ BS_CAT_SEQUENTIAL
#define RND BS_CAT_RANDOM
#define META BS_CAT_METADATA
#define LAT BS_CAT_LATENCY
#define IO BS_CAT_IO
#define OTHER BS_CAT_OTHER

/* Limits of values (bs_metric_info.max): what no disk could exceed,
 * generously. A rate of 1e9 KiB/s is about 1 TiB/s; 1e9 seeks, files or
 * requests a second are a thousand times a fast NVMe drive's; one
 * operation may take up to 1e12 us (11.6 days); a run may last 1e9 s and
 * count 1e15 events. docs/formats.md "Limits" lists them; test_schema
 * holds it to this. */
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
#define S_IOS "I/Os", 1.0, 0, 0
#define S_IOPS "IO/s", 1.0, 1, 4
#define S_US "us", 1.0, 1, 4

/* A parameter's field. */
#define P(f) offsetof(struct bs_params, f)

/*
 * Limits of parameters (bs_param_info.max): what no run could exceed,
 * generously. A size is at most 1 EiB (2^40 MiB, 2^60 bytes), more than
 * any array holds; one chunk at most 1 GiB (bonnie++ takes up to 1 MiB),
 * one request or dd buffer 1 TiB; what a machine runs at once (threads,
 * processes, jobs, queue depth, -c) at most 2^20; counts of seeks, files,
 * directories and passes 2^40 (bonnie++'s -n counts in 1024s: 2^30); a
 * run lasts at most 1e9 s. A size in MiB times 2^20 and a file count
 * times 1024 thus stay far inside an int64. docs/formats.md "Limits"
 * lists them; test_schema holds it to this.
 */
#define EIB_MIB (INT64_C(1) << 40)
#define EIB (INT64_C(1) << 60)
#define CHUNK (INT64_C(1) << 30)
#define BUF (INT64_C(1) << 40)
#define PAR (INT64_C(1) << 20)
#define MANY (INT64_C(1) << 40)
#define MANY_K (MANY / 1024)
#define SECONDS INT64_C(1000000000)
#define TEXT BS_NONE

/* O_DIRECT, the parameter "direct" (0 or 1) of every family that opens
 * files so, as fio names it: one field of struct bs_params, a row in
 * each family. LABEL says how the family's tool asks for it. */
/* clang-format off */
#define DIRECT_ROW(label)                                                    \
	{ "direct", P(direct), BS_PK_BOOL, NULL, label, "", BS_PF_DECIDES,   \
	  0, 1, BS_PN_AS_IS, 0 }
/* clang-format on */

#endif
