/*
 * core/dialect.h - the dialect table: what a run's format (runs.format)
 * says about the run, one row per value, in core/dialect.c. A row names
 * the tool that prints the dialect, the tool's generation (bonnie++ 1.0x,
 * 1.9x or 1.98-2.00a; sysbench 0.4 or 1.0), the CSV layout of its line,
 * the text-table style `bstore show` prints it in, whether it prints
 * values rounded beside an exact print of the same tool, its reader (a
 * row of ingest's format registry) and its writer.
 *
 * Every "which dialect, which style is this run" question reads this
 * table (bs_dialect_of()): show's table, the report's generation note, the
 * "one measurement" rule, export's CSV eras, ingest's readers. Adding a
 * dialect is adding a BS_FMT_* name here and its row in its family's
 * file (core/families/, core/family.h).
 */
#ifndef BS_CORE_DIALECT_H
#define BS_CORE_DIALECT_H

#include "core/family.h"
#include "core/metric.h"

struct bs_run;

/*
 * The values of runs.format: the table's keys, one row each. Only
 * runs.format values are named here; a reader of several dialects (the
 * registry's "bonnie++-text" and "bstore-json" rows) is named by its
 * registry row alone.
 */
#define BS_FMT_CSV_1_0X "bonnie++-csv-1.0x"
#define BS_FMT_CSV_BETA "bonnie++-csv-beta"
#define BS_FMT_CSV_1_96 "bonnie++-csv-1.96"
#define BS_FMT_CSV_1_96S "bonnie++-csv-1.96-s0"
#define BS_FMT_CSV_1_97 "bonnie++-csv-1.97"
#define BS_FMT_CSV_1_98 "bonnie++-csv-1.98"
#define BS_FMT_TEXT_1_0X "bonnie++-text-1.0x"
#define BS_FMT_TEXT_1_9X "bonnie++-text-1.9x"
#define BS_FMT_TEXT_1_98 "bonnie++-text-1.98"
#define BS_FMT_BSTORE_RUN "bstore-run"
#define BS_FMT_BONNIE_TEXT "bonnie-text"
#define BS_FMT_BONNIE_HTML "bonnie-html"
#define BS_FMT_BONNIE64_TEXT "bonnie64-text"
#define BS_FMT_BONNIE14_TEXT "bonnie-1.4-text"
#define BS_FMT_SYSBENCH_04 "sysbench-0.4"
#define BS_FMT_SYSBENCH_10 "sysbench-1.0"
#define BS_FMT_BSTORE_FILEIO "bstore-fileio"
#define BS_FMT_FIO_JSON "fio-json"
#define BS_FMT_FIO_TERSE "fio-terse"
#define BS_FMT_FIO_TEXT "fio-text"
#define BS_FMT_ZCAV "zcav"
#define BS_FMT_BSTORE_ZCAV "bstore-zcav"
#define BS_FMT_GETC_PUTC "getc_putc"
#define BS_FMT_DD "dd"

/* A tool's generation, where the dialect tells it. */
enum bs_era {
	BS_ERA_NONE,        /* the dialect spans the tool's versions */
	BS_ERA_BONNIE,      /* Tim Bray's Bonnie and its ports */
	BS_ERA_1_0X,        /* bonnie++ 1.00-1.04: stdio per-char, 3 seekers */
	BS_ERA_1_9X,        /* bonnie++ 1.90-1.97: syscall per-char, latency */
	BS_ERA_1_98,        /* bonnie++ 1.98-2.00a, and bstore run */
	BS_ERA_SYSBENCH_04, /* sysbench 0.4.x and 0.5 */
	BS_ERA_SYSBENCH_10, /* sysbench 1.0.x, and bstore fileio */
};

/* The layout of a dialect's bonnie++ CSV line (docs/formats.md). */
enum bs_csv_layout {
	BS_LAYOUT_NONE,    /* its text is no bonnie++ CSV line */
	BS_LAYOUT_1_0X,    /* 1.00-1.04: 27 fields, no version */
	BS_LAYOUT_BETA,    /* 1.90-1.92a: 45-47 fields */
	BS_LAYOUT_1_96,    /* 1.92b-1.96: 48 fields */
	BS_LAYOUT_1_96_S0, /* 1.92b-1.96 with -s 0: 47 fields, shifted */
	BS_LAYOUT_1_97,    /* 48 fields */
	BS_LAYOUT_1_98,    /* 1.98-2.00a: 50 fields */
};

/* How `bstore show` prints a run's results as its tool's table
 * (core/bonnie_text.h, bs_bonnie_table()). */
enum bs_table_style {
	/* bonnie++ 1.98-2.00a: rates as 545k / 291m / 1.8g, Latency rows,
	 * but the file tests show their real numbers (2.00a prints
	 * garbage there) and the seek thread count is kept in the label. */
	BS_TABLE_2,
	/* bonnie++ 1.03: plain K/sec columns, no latency rows. */
	BS_TABLE_1,
	/* bonnie++ 1.9x: K/sec columns, a Concurrency line, Latency rows. */
	BS_TABLE_19,
	/* Tim Bray's Bonnie 1.x: MB, K/sec and %CPU with one decimal, the
	 * I/O tests only. Bonnie-64 and Linux Bonnie 1.4 print these
	 * columns too (in their own units and heads). */
	BS_TABLE_BONNIE,
	/* No table of the tool's: show lists the results only. */
	BS_TABLE_NONE,
};

struct bs_dialect {
	const char *format; /* runs.format: the key */
	const char *tool;   /* the tool that prints it */
	enum bs_era era;
	const char *versions;      /* which versions print it: "1.00-1.04" */
	enum bs_csv_layout csv;    /* its text is a CSV line of this layout */
	enum bs_table_style table; /* show prints it in this style */
	/* 1: it prints values rounded beside an exact print of the same
	 * tool (a bonnie++ table beside its CSV line, fio's normal text
	 * beside its terse line): of two prints of one measurement, the
	 * exact one is kept (core/same.h). */
	int rounded;
	/* The registry row that reads it (ingest/formats.c), or NULL when
	 * only bstore writes it (its runs come back through bstore-json). */
	const char *reader;
	/* The code that writes it, or NULL when bstore only reads it. */
	const char *writer;
	/* The implementation whose runs it prints (a row of the family's
	 * implementations, core/family.h: "bonnie++", "bstore run"). */
	const char *impl;
	/* Filled in by the catalogue from the family row that holds it. */
	enum bs_family family;
};

/* Every family's dialects, family by family. */
extern const struct bs_dialect *const bs_dialects;
#define bs_ndialects (bs_cat->ndialects)

/* The row of format, or NULL when runs.format holds another value. */
const struct bs_dialect *bs_dialect_find(const char *format);
/*
 * The row of r's format. A format the table does not know (an archive
 * of a newer bstore, a test's own) gets a row of r's family that claims
 * nothing: no era, no CSV layout, not rounded, and for the bonnie family
 * the 2.00a table.
 */
const struct bs_dialect *bs_dialect_of(const struct bs_run *r);

/*
 * The step in which r's output printed value v of metric m (in the
 * metric's stored unit): how far apart two values it prints can be and
 * still print alike. A rounded dialect's, as it rounds (bonnie++'s
 * tables: 291m is a step of 1 MiB/s, 1.8g of 0.1 GiB/s; fio's normal
 * text: three significant figures); other outputs' from the digits the
 * number has ("0.06" was printed in steps of 0.01). A report takes a
 * difference within the steps of its two sides as no change.
 */
double bs_dialect_step(const struct bs_run *r, int m, double v);
/* The same with r's dialect (bs_dialect_of(r)) looked up once by the
 * caller, for a loop over a run's metrics. */
double bs_dialect_step_in(const struct bs_dialect *d, const struct bs_run *r,
			  int m, double v);

/*
 * The cell in which r's rounded output printed value v of metric m
 * ("1.8g" for 1887436.8 KiB/s in a bonnie++ 2.00a table), or NULL when
 * its dialect prints no cell of its own to quote (not rounded, or not
 * bonnie++'s table). buf holds the text.
 */
const char *bs_dialect_print(const struct bs_run *r, int m, double v, char *buf,
			     size_t size);

/*
 * The era of a bonnie++ version as bonnie++ prints it: "1.03d" is
 * BS_ERA_1_0X, "1.93c" and "1.97" BS_ERA_1_9X, "1.98", "2.00a" and later
 * ones BS_ERA_1_98; anything else (NULL, "", "1.0x" aside) BS_ERA_NONE.
 * A reader of text that names its version (a table's "Version" line)
 * picks its dialect with it.
 */
enum bs_era bs_bonnie_era(const char *version);

#endif
