/*
 * core/runtext.c - bonnie++'s text table and CSV line for one run.
 * Layouts follow FORMATS.md sections 1.2, 1.6, 2.1 and 2.3.
 */
#include "core/runtext.h"

#include "core/bench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/json.h"
#include "util/banned.h"

enum bs_table_style bs_table_style_for(const struct bs_run *r)
{
	if (r->format && strcmp(r->format, BS_FMT_CSV_1_0X) == 0)
		return BS_TABLE_1;
	return BS_TABLE_2;
}

static void size_suffix(char *out, size_t outsz, int64_t bytes)
{
	if (bytes % (1024 * 1024) == 0)
		snprintf(out, outsz, "%lldm", (long long)(bytes / 1048576));
	else if (bytes % 1024 == 0)
		snprintf(out, outsz, "%lldk", (long long)(bytes / 1024));
	else
		snprintf(out, outsz, "%lld", (long long)bytes);
}

const char *bs_table_size(char *out, size_t outsz, const struct bs_params *p,
			  int with_chunk)
{
	int64_t m = p->file_size_mib;
	size_t n;

	out[0] = '\0';
	if (m == BS_NONE || m <= 0)
		return out;
	if (m % 1024 == 0)
		snprintf(out, outsz, "%lldG", (long long)(m / 1024));
	else
		snprintf(out, outsz, "%lldM", (long long)m);
	if (with_chunk && p->io_chunk_bytes != BS_NONE &&
	    p->io_chunk_bytes != 8192) {
		n = strlen(out);
		if (n + 1 < outsz) {
			out[n] = ':';
			size_suffix(out + n + 1, outsz - n - 1,
				    p->io_chunk_bytes);
		}
	}
	return out;
}

const char *bs_table_files_spec(char *out, size_t outsz,
				const struct bs_params *p)
{
	size_t n;

	out[0] = '\0';
	if (p->num_files == BS_NONE)
		return out;
	snprintf(out, outsz, "%lld", (long long)p->num_files);
	n = strlen(out);
	if (p->max_size == BS_SIZE_LINK)
		snprintf(out + n, outsz - n, ":link");
	else if (p->max_size == BS_SIZE_SYMLINK)
		snprintf(out + n, outsz - n, ":symlink");
	else if (p->max_size != BS_NONE && p->max_size > 0)
		snprintf(out + n, outsz - n, ":%lld:%lld",
			 (long long)p->max_size,
			 (long long)(p->min_size == BS_NONE ? 0
							    : p->min_size));
	n = strlen(out);
	if (p->num_dirs != BS_NONE && p->num_dirs > 1)
		snprintf(out + n, outsz - n, "/%lld", (long long)p->num_dirs);
	return out;
}

static int any_status(const struct bs_run *r, int from, int to)
{
	int i;

	for (i = from; i < to; i++)
		if (r->res[i].status != BS_ST_NOT_RUN)
			return 1;
	return 0;
}

/* One test's two columns in bonnie++ 1.03's layout: " %5d %3d". */
static void cell(const struct bs_run *r, int m, struct bs_buf *out)
{
	const struct bs_value *v = &r->res[m];
	char num[32], cpu[16];

	if (v->status == BS_ST_NOT_RUN) {
		bs_buf_adds(out, "          ");
		return;
	}
	if (v->status == BS_ST_TOO_FAST) {
		bs_buf_adds(out, " +++++ +++");
		return;
	}
	if (m == BS_M_SEEKS && v->value < 1000)
		snprintf(num, sizeof(num), "%.1f", v->value);
	else
		snprintf(num, sizeof(num), "%.0f",
			 m == BS_M_SEEKS ? v->value : floor(v->value));
	if (isnan(v->cpu_pct))
		snprintf(cpu, sizeof(cpu), "%s", "");
	else
		snprintf(cpu, sizeof(cpu), "%d", (int)v->cpu_pct);
	bs_buf_addf(out, " %5s %3s", num, cpu);
}

void bs_table_text(const struct bs_run *r, enum bs_table_style style,
		   struct bs_buf *out)
{
	const char *name = r->machine ? r->machine : "";
	const char *version = r->tool_version ? r->tool_version : "";
	const struct bs_params *p = &r->params;
	char size[48], files[96], label[64];
	int io = any_status(r, 0, BS_M_FIRST_FILE) ||
		 p->file_size_mib != BS_NONE;
	int fs = any_status(r, BS_M_FIRST_FILE, BS_M_COUNT) ||
		 p->num_files != BS_NONE;
	int i, nl;

	if (style == BS_TABLE_2) {
		bs_bench_table(r, out);
		return;
	}
	/* bonnie++ 1.03: K/sec columns, no latency rows (FORMATS.md 2.1). */
	if (io) {
		bs_table_size(size, sizeof(size), p, 1);
		bs_buf_addf(out,
			    "Version %5s       ------Sequential Output------ "
			    "--Sequential Input- --Random-\n",
			    version);
		bs_buf_adds(out, "                    -Per Chr- --Block-- "
				 "-Rewrite- -Per Chr- --Block-- --Seeks--\n");
		bs_buf_addf(out, "Machine   %s K/sec %%CP K/sec %%CP K/sec "
				 "%%CP K/sec %%CP K/sec %%CP  /sec %%CP\n",
			    strchr(size, ':') ? "Size:chnk" : "     Size");
		/* Name and size share 19 columns; a long name is cut. */
		nl = 19 - (int)strlen(size) - 1;
		if (nl < 1)
			nl = 1;
		snprintf(label, sizeof(label), "%-*.*s %s", nl, nl, name, size);
		bs_buf_addf(out, "%19s", label);
		for (i = 0; i < BS_M_FIRST_FILE; i++)
			cell(r, i, out);
		bs_buf_adds(out, "\n");
	}
	if (fs) {
		bs_table_files_spec(files, sizeof(files), p);
		if (!io) {
			bs_buf_addf(out,
				    "Version %5s       ------Sequential Create"
				    "------ --------Random Create--------\n",
				    version);
			bs_buf_addf(out,
				    "%-19.19s -Create-- --Read--- -Delete-- "
				    "-Create-- --Read--- -Delete--\n",
				    name);
		} else {
			bs_buf_adds(out, "                    ------Sequential "
					 "Create------ --------Random "
					 "Create--------\n");
			bs_buf_adds(out, "                    -Create-- --Read--- "
					 "-Delete-- -Create-- --Read--- "
					 "-Delete--\n");
		}
		if (p->max_size != BS_NONE && p->max_size > 0)
			bs_buf_adds(out, "files:max:min      ");
		else if (p->max_size == BS_SIZE_LINK ||
			 p->max_size == BS_SIZE_SYMLINK)
			bs_buf_adds(out, "files:max          ");
		else
			bs_buf_adds(out, "              files");
		bs_buf_adds(out, "  /sec %CP  /sec %CP  /sec %CP  /sec %CP  "
				 "/sec %CP  /sec %CP\n");
		bs_buf_addf(out, "%19s", files);
		for (i = BS_M_FIRST_FILE; i < BS_M_COUNT; i++)
			cell(r, i, out);
		bs_buf_adds(out, "\n");
	}
}

/* ---- JSON --------------------------------------------------------- */

const char *bs_time_iso(char *out, size_t outsz, int64_t t)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (gmtime_r(&tt, &tm) == NULL)
		snprintf(out, outsz, "%lld", (long long)t);
	else
		strftime(out, outsz, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return out;
}

static void json_time(struct bs_buf *out, int64_t t)
{
	char iso[40];

	if (t == BS_NONE)
		bs_buf_adds(out, "null");
	else
		bs_json_str(out, bs_time_iso(iso, sizeof(iso), t));
}

static void json_size(struct bs_buf *out, int64_t v)
{
	if (v == BS_SIZE_LINK)
		bs_json_str(out, "link");
	else if (v == BS_SIZE_SYMLINK)
		bs_json_str(out, "symlink");
	else
		bs_json_i64(out, v);
}

void bs_run_json(const struct bs_run *r, struct bs_buf *out)
{
	const struct bs_params *p = &r->params;
	size_t t;
	int i;

	bs_buf_addc(out, '{');
	bs_json_key(out, "id", 1);
	bs_json_i64(out, r->id);
	bs_json_key(out, "machine", 0);
	bs_json_str(out, r->machine ? r->machine : "");
	bs_json_key(out, "tool", 0);
	bs_json_str(out, r->tool);
	bs_json_key(out, "tool_version", 0);
	bs_json_str(out, r->tool_version);
	bs_json_key(out, "format", 0);
	bs_json_str(out, r->format);
	bs_json_key(out, "measured_at", 0);
	json_time(out, r->measured_at);
	bs_json_key(out, "stored_at", 0);
	json_time(out, r->stored_at);
	bs_json_key(out, "source", 0);
	bs_json_str(out, r->source);
	bs_json_key(out, "source_line", 0);
	bs_json_i64(out, r->source_line);
	bs_json_key(out, "sha256", 0);
	bs_json_str(out, r->sha256);
	bs_json_key(out, "parser_version", 0);
	bs_json_str(out, r->parser_version);
	bs_json_key(out, "warning", 0);
	bs_json_str(out, r->warning);

	bs_json_key(out, "params", 0);
	bs_buf_addc(out, '{');
	bs_json_key(out, "file_size_mib", 1);
	bs_json_i64(out, p->file_size_mib);
	bs_json_key(out, "io_chunk_bytes", 0);
	bs_json_i64(out, p->io_chunk_bytes);
	bs_json_key(out, "seeks", 0);
	bs_json_i64(out, p->seeks);
	bs_json_key(out, "seek_procs", 0);
	bs_json_i64(out, p->seek_procs);
	bs_json_key(out, "per_char_mib", 0);
	bs_json_i64(out, p->per_char_mib);
	bs_json_key(out, "num_files", 0);
	bs_json_i64(out, p->num_files);
	bs_json_key(out, "max_size", 0);
	json_size(out, p->max_size);
	bs_json_key(out, "min_size", 0);
	json_size(out, p->min_size);
	bs_json_key(out, "num_dirs", 0);
	bs_json_i64(out, p->num_dirs);
	bs_json_key(out, "file_chunk_bytes", 0);
	bs_json_i64(out, p->file_chunk_bytes);
	bs_json_key(out, "concurrency", 0);
	bs_json_i64(out, p->concurrency);
	bs_json_key(out, "seed", 0);
	bs_json_str(out, p->seed);
	bs_buf_addc(out, '}');

	bs_json_key(out, "tags", 0);
	bs_buf_addc(out, '{');
	for (t = 0; t < r->ntags; t++) {
		bs_json_key(out, r->tags[t].key, t == 0);
		bs_json_str(out, r->tags[t].value);
	}
	bs_buf_addc(out, '}');

	bs_json_key(out, "results", 0);
	bs_buf_addc(out, '{');
	for (i = 0; i < BS_M_COUNT; i++) {
		const struct bs_value *v = &r->res[i];
		bs_json_key(out, bs_metrics[i].key, i == 0);
		bs_buf_addc(out, '{');
		bs_json_key(out, "value", 1);
		bs_json_num(out, v->status == BS_ST_OK ? v->value : NAN);
		bs_json_key(out, "unit", 0);
		bs_json_str(out, bs_metrics[i].unit);
		bs_json_key(out, "cpu_pct", 0);
		bs_json_num(out, v->cpu_pct);
		bs_json_key(out, "latency_us", 0);
		bs_json_num(out, v->lat_us);
		bs_json_key(out, "status", 0);
		bs_json_str(out, bs_status_name(v->status));
		if (!isnan(v->lat_mean_us) || !isnan(v->lat_p50_us) ||
		    !isnan(v->lat_p99_us)) {
			bs_json_key(out, "latency_mean_us", 0);
			bs_json_num(out, v->lat_mean_us);
			bs_json_key(out, "latency_p50_us", 0);
			bs_json_num(out, v->lat_p50_us);
			bs_json_key(out, "latency_p99_us", 0);
			bs_json_num(out, v->lat_p99_us);
		}
		bs_buf_addc(out, '}');
	}
	bs_buf_adds(out, "}}");
}
