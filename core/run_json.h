/*
 * core/run_json.h - a run as one JSON object: the `bstore export --format
 * json` contract of docs/formats.md, also `bstore list --json`.
 *
 * Keys: id, machine, family, tool, tool_version, format, measured_at,
 * stored_at (ISO 8601 UTC or null), source, source_line, sha256,
 * parser_version, warning, params (every parameter of the run's family,
 * null when unknown), tags, results (every metric of the run's family:
 * {"value", "unit", "cpu_pct", "latency_us", "status"}, plus
 * latency_mean_us, latency_p50_us and latency_p99_us where the benchmark
 * core measured them) and, when the run has curves, series (per metric a
 * list of points: the axis key, the value under its unit's name, e.g.
 * {"offset_gib", "mib_s", "seconds"}) and, when the run's text was
 * loaded (r->raw not NULL: the export, not `bstore list --json`),
 * history (what bstore set changed, oldest first: {"field", "old",
 * "new", "changed_at"}, values text or null, a date field's ISO 8601)
 * and, last, raw. Written by walking the metric catalogue and the parameter table.
 */
#ifndef BS_CORE_RUN_JSON_H
#define BS_CORE_RUN_JSON_H

#include "core/result.h"
#include "util/buf.h"

/* Appends r as one JSON object, without a newline. */
void bs_run_json(const struct bs_run *r, struct bs_buf *out);

/* A unit as the key of a series point's value: "MiB/s" -> "mib_s" (cut
 * to size - 1 bytes). The ingest of this JSON reads points by it. */
void bs_run_json_unit_key(char *out, size_t size, const char *unit);

#endif
