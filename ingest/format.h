/*
 * ingest/format.h - the format registry: every input format bstore reads,
 * one row each (name, family, probe, parse), as fio's ioengine ops are.
 * The ingest driver (ingest/ingest.c) offers each input line to the
 * formats in table order: the first whose probe claims the line parses
 * it, into a run or into a reject with a reason. Formats whose runs span
 * several lines are rows with block ops instead (ingest/block.h). A line
 * nobody claims is text around the results and is skipped. Adding a
 * format is adding a row to the table in ingest/formats.c with its
 * probe and parse, or its block ops.
 *
 * The rooms of ingest/ (tests/cli/rooms.sh checks that every file is
 * named here):
 *
 *   ingest.h     the public face: bytes in, run records out
 *   ingest.c     the driver: chunks -> lines -> the registry -> callbacks
 *   lines.h, lines.c
 *                the line splitter behind bs_ingest_feed
 *   format.h     this header: a line format's row, the cleaned line
 *   block.h      a block format's row: runs that span several lines
 *   formats.c    the registry's table, in the order lines are offered
 *   bonnie_csv.h, bonnie_csv.c
 *                bonnie++'s CSV line of any version
 *   bonnie_table.h, bonnie_table.c
 *                bonnie++'s text tables (1.0x, 1.9x, 1.98-2.00a)
 *   bonnie_classic.c
 *                Tim Bray's Bonnie and its relatives' tables
 *   getc_putc.h, getc_putc.c
 *                bonnie++'s getc_putc: its table, its CSV line
 *   zcav_text.h, zcav_text.c
 *                bonnie++'s zcav output: one run a pass, with its curve
 *   sysbench.h, sysbench.c
 *                sysbench fileio's output (0.4.x and 1.0.x)
 *   fio.h, fio.c what fio's formats share: a job's run, its metrics
 *   fio_json.c   fio's JSON and JSON+ output
 *   fio_terse.c  fio's terse lines (v3 to v5)
 *   fio_text.c   fio's normal output
 *   json_lenient.h, json_lenient.c
 *                a hand-shortened JSON document (a trailing comma,
 *                '...' for what was cut) made whole for fio's reader
 *   fio_log.c    fio's log files (lat, clat, slat, bw, iops) as time
 *                series of their run
 *   dd.h, dd.c   dd's summary (GNU and BSD)
 *   bstore_json.h, bstore_json.c
 *                bstore's own JSON export read back
 */
#ifndef BS_INGEST_FORMAT_H
#define BS_INGEST_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "ingest/block.h"
#include "util/err.h"

/* Fields kept of a comma-separated line; more are counted, not kept. */
#define BS_FLINE_FIELDS 64
/* Longest version string kept as a hint ("1.03e"). */
#define BS_INGEST_VERSION_MAX 16

struct bs_field {
	const char *s;
	size_t len;
};

/* One input line as the formats see it. */
struct bs_fline {
	/* The line without its newline, a UTF-8 byte order mark, a list
	 * number ("9. ") and blanks around it. */
	const char *text;
	size_t len;
	/* text split at every ',' (bonnie++ never quotes). */
	struct bs_field f[BS_FLINE_FIELDS];
	size_t nf; /* fields in the line; only the first 64 are kept */
	/* A 1.0x version seen in a text table above ("1.03d"), or NULL. */
	const char *hint_version;
};

struct bs_format {
	/* The row's name, for --format and ingest's summary. A row that
	 * reads one dialect is named by it (its runs' runs.format,
	 * core/dialect.h: "bonnie++-csv-1.98"); a row of several is not
	 * ("bonnie++-text" stores bonnie++-text-1.0x, -1.9x, -1.98 and CSV
	 * lines; "bonnie-text" also Bonnie-64's and 1.4's; "bstore-json"
	 * runs keep the format they had). */
	const char *name;
	enum bs_family family;
	const char *about; /* one line for `bstore ingest --formats` */
	/* Line formats: 1 when the line is this format's (parse then
	 * stores it or says why not), 0 when it is not. NULL for a block
	 * format. */
	int (*probe)(const struct bs_format *f, const struct bs_fline *l);
	/*
	 * Parses a line into r (bs_run_init()ed by the caller). Returns 1
	 * (one run, format and family set), or -BS_EPARSE with err saying
	 * why ("expected 50 fields for bonnie++ 1.98 CSV, found 31"), r then
	 * released.
	 */
	int (*parse)(const struct bs_format *f, const struct bs_fline *l,
		     struct bs_run *r, struct bs_err *err);
	const void *arg; /* the format's own data (a CSV layout) */
	/* Block formats (runs of several lines): NULL for a line format. */
	const struct bs_block_ops *block;
};

/* The registry: bstore's rows, then a program's own (bs_format_extra). */
struct bs_format_registry {
	int n;
};
extern const struct bs_format *const bs_formats;
extern const struct bs_format_registry *const bs_format_registry;
#define bs_nformats (bs_format_registry->n)

/*
 * A program's own format, after bstore's: a weak symbol that a program
 * (tests/family's bstore_toy) defines to add the parser of its own tool
 * family (core/family.h, bs_family_extra). bstore itself defines none.
 */
extern const struct bs_format bs_format_extra __attribute__((weak));

/* The format with this name, or NULL. */
const struct bs_format *bs_format_find(const char *name);
/*
 * A row's parse failing with the reason it wrote into its own buffer:
 * fills err (BS_EPARSE, or -rc when rc is another -BS_E* code) and
 * returns its -code.
 */
int bs_format_fail(struct bs_err *err, int rc, const char *reason);
/* Whether f's runs come back from bstore's own JSON export whole: their
 * warnings were said when they were first read, not again (ingest.c). */
int bs_format_restores(const struct bs_format *f);

/*
 * Fills l from a raw line (no newline): cleans it (see struct bs_fline)
 * and splits it. Returns 0 when nothing is left, else 1.
 */
int bs_fline_make(const char *line, size_t len, const char *hint_version,
		  struct bs_fline *l /* OUT */);

/*
 * Markdown's strong emphasis a forum or wiki puts around words of pasted
 * output ("**88826**", "__ako__"): line without its markers into out
 * (len bytes at most), its length returned; 0 when it has none (then out
 * is not written).
 */
size_t bs_line_plain(const char *line, size_t len, char *out);

#endif
