/*
 * core/runtext.h - bonnie++'s text table for one run, and the CSV line.
 * Used by `bstore run` for its output and `bstore show` to display stored
 * runs. Writes into a struct bs_buf; nothing here prints.
 */
#ifndef BS_CORE_RUNTEXT_H
#define BS_CORE_RUNTEXT_H

#include "core/result.h"
#include "util/buf.h"

enum bs_table_style {
	/* bonnie++ 1.98-2.00a: rates as 545k / 291m / 1.8g, Latency rows,
	 * but the file tests show their real numbers (2.00a prints garbage). */
	BS_TABLE_2,
	/* bonnie++ 1.03: plain K/sec columns, no latency rows. */
	BS_TABLE_1,
};

/* The style that suits a run: BS_TABLE_1 for 1.0x CSV lines. */
enum bs_table_style bs_table_style_for(const struct bs_run *r);

/*
 * Appends the table: the I/O part when any I/O test ran or the file
 * size is known, the file part when any file test ran or the file count
 * is known; the "Version" header shows r->tool_version. BS_TABLE_2 is
 * bs_bench_table() (core/bench.h).
 */
void bs_table_text(const struct bs_run *r, enum bs_table_style style,
		   struct bs_buf *out);

/* The -n spec as bonnie++'s text shows it: "16", "16:100000:16/64". */
const char *bs_table_files_spec(char *out, size_t outsz,
				const struct bs_params *p);
/* The size: "2G", "7400M", "" when unknown; with ":64k" chunk if set. */
const char *bs_table_size(char *out, size_t outsz, const struct bs_params *p,
			  int with_chunk);




/*
 * Appends the run as one JSON object (no newline), the `bstore export
 * --format json` contract in docs/formats.md: id, machine, tool,
 * tool_version, format, measured_at, stored_at (ISO 8601 UTC or null),
 * source, source_line, sha256, parser_version, warning, params, tags,
 * results.
 */
void bs_run_json(const struct bs_run *r, struct bs_buf *out);

/* ISO 8601 UTC ("2024-01-31T12:00:00Z") of unix seconds into out. */
const char *bs_time_iso(char *out, size_t outsz, int64_t t);
#endif
