/*
 * core/bonnie_text.h - a run as bonnie++ prints it, and the one home of
 * bonnie++'s rules for printing numbers. `bstore run` writes its output
 * with it; show, list, report and export print bonnie-family values
 * through it, so every command prints a value the same way.
 *
 * The rules are bonnie++'s own (docs/input-formats.md sections 1.1, 2.1,
 * 2.3 and 8.6):
 *
 *   KiB/s and files/s rates, CPU %   whole numbers
 *   seeks/s                          one decimal below 1000, none from
 *                                    1000 up ("%.1f" / "%.0f")
 *   latencies                        whole us below 0.1 s, whole ms below
 *                                    100 s, whole s above: "801ms"
 *   sizes                            "63G" when a multiple of 1024 MiB,
 *                                    else "7400M"; byte counts "4k", "1m"
 *
 * Two steps apply them. bs_bonnie_round*() quantize a measurement the way
 * bonnie++ does when it writes its line: cut toward zero, as its int()
 * casts do. A stored value is already at that resolution: ingested values
 * are what the line says, and `bstore run` quantizes its measurements with
 * bs_bonnie_round_run() so that its results are exactly what its CSV line
 * says. The bs_bonnie_fmt_*() functions print a value at that resolution,
 * rounding to nearest: a stored value prints as its exact text ("51776",
 * "1187.5", "801ms"), and a mean or a difference in a report (200812.93,
 * 99999.7 us) prints as its nearest ("200813", "100ms"), not cut.
 */
#ifndef BS_CORE_BONNIE_TEXT_H
#define BS_CORE_BONNIE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "util/buf.h"
#include "util/err.h"

/* The value of bonnie++ test m as its 1.98 CSV line prints it. */
double bs_bonnie_round(int m, double v);
/* A CPU percentage as bonnie++ writes it (cut to a whole number). */
double bs_bonnie_round_cpu(double pct);
/* A latency as bonnie++'s line denotes it (cut): 99999.7 us is "99ms",
 * 99000. */
double bs_bonnie_round_latency(double us);
/* Rounds every test of r (rate, CPU, maximum latency) as above. */
void bs_bonnie_round_run(struct bs_run *r);

/*
 * A value of bonnie++ test m in its stored unit, for people and tables
 * of numbers: "51776", "1187.5", "3144"; negative values (differences)
 * keep their sign. "" for NAN.
 */
const char *bs_bonnie_fmt_value(char *buf, size_t size, int m, double v);
/* A KiB/s rate in MiB/s with one decimal (rounded): "50.6". */
const char *bs_bonnie_fmt_mib(char *buf, size_t size, double kib_s);
/* bonnie++ 2.00a's text for a KiB/s rate: "712k", "50.6m", "1.1g". */
const char *bs_bonnie_fmt_kib(char *buf, size_t size, double kib_s);
/*
 * A rate of test m as bonnie++ 2.00a's table shows it: k/m/g for the I/O
 * tests, "%.0f" / "%.1f" for seeks, whole files/s. "" for NAN.
 */
const char *bs_bonnie_fmt_rate(char *buf, size_t size, int m, double v);
/* A CPU percentage, rounded: "99". "" for NAN. */
const char *bs_bonnie_fmt_cpu(char *buf, size_t size, double pct);
/* A latency, rounded in its unit: "13387us", "801ms", "101s"; "-5ms" for a
 * difference; "" for NAN. */
const char *bs_bonnie_fmt_latency(char *buf, size_t size, double us);
/* A file size in MiB: "63G", "7400M"; "" when unknown (BS_NONE) or 0
 * (bonnie++ prints no size for -s 0). */
const char *bs_bonnie_fmt_size(char *buf, size_t size, int64_t mib);
/* A byte count as bonnie++ writes chunk sizes: "4k", "512", "1m". */
const char *bs_bonnie_fmt_bytes(char *buf, size_t size, int64_t bytes);
/* The -n spec as bonnie++'s text shows it: "16", "16:100000:16/64",
 * "16:link"; "" when the file count is unknown. */
const char *bs_bonnie_fmt_files(char *buf, size_t size,
				const struct bs_params *p);

/* CSV layouts bs_bonnie_csv writes. */
enum bs_csv_format {
	BS_CSV_1_98, /* bonnie++ 1.98-2.00a, 50 fields */
	BS_CSV_1_03, /* bonnie++ 1.00-1.04, 27 fields */
};

/*
 * The layouts by the names --csv-format takes ("1.98", "1.03"), one row
 * each in core/bonnie_text.c. Returns 0, or -BS_EINVAL for another name
 * ("expected 1.98 or 1.03, got 'NAME'").
 */
int bs_csv_format_parse(const char *name, enum bs_csv_format *out,
			struct bs_err *err);
/* "1.98" or "1.03". */
const char *bs_csv_format_name(enum bs_csv_format fmt);
/* The names, for messages: "1.98 or 1.03". */
const char *bs_csv_format_names(void);
/* Whether lines of input format `format` (BS_FMT_*) are in layout fmt
 * already: bonnie++-csv-1.98 lines in 1.98, bonnie++-csv-1.0x in 1.03. */
int bs_csv_format_is_input(enum bs_csv_format fmt, const char *format);
/* Whether a run of input format `format` keeps a bonnie++ CSV line as its
 * raw text (bonnie++-csv-*, bstore-run), not a table or other output:
 * its dialect has a CSV layout. */
int bs_format_is_csv_line(const char *format);

/*
 * What of r the layout fmt has no field for: a mask of the facts r knows
 * that its line in fmt would leave out (latencies, seed, a concurrency
 * other than 1, the seek count, the number of seek processes). The 1.98
 * layout holds them all (0); the 1.03 layout (bonnie++ 1.0x) none.
 * Parameters that neither layout holds (per-char size, file chunk) are
 * not counted: no bonnie++ line has them.
 */
unsigned bs_bonnie_csv_drops(const struct bs_run *r, enum bs_csv_format fmt);
/* Appends the names of a mask's facts: "latencies, seed, seek count". */
void bs_bonnie_csv_drops_names(unsigned mask, struct bs_buf *out);

/*
 * Appends r as one bonnie++ CSV line (no newline). Field 1 of a 1.98 line
 * is the version, prefixed with the tool unless it is bonnie++
 * ("bstore-0.1.0"). Unlike 2.00a, a non-default I/O chunk size is written
 * (field 6, as 1.96 did).
 */
void bs_bonnie_csv(const struct bs_run *r, enum bs_csv_format fmt,
		   struct bs_buf *out);

/*
 * Appends r's text table in style (enum bs_table_style, core/dialect.h;
 * the style of r's dialect is bs_dialect_of(r)->table): the I/O part
 * when the run had one (a known file size, or any I/O test that ran),
 * the file part likewise; the "Version" header shows r->tool_version.
 * BS_TABLE_NONE appends nothing.
 */
void bs_bonnie_table(const struct bs_run *r, enum bs_table_style style,
		     struct bs_buf *out);

/*
 * A value of metric m (any family) for people: bs_metric_fmt(..., 0), in
 * the unit the catalogue shows it in (bs_metric_unit()). "" for NAN.
 */
const char *bs_value_fmt(char *buf, size_t size, int m, double v);

#endif
