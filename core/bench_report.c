/*
 * core/bench_report.c - a run as bonnie++ prints it: the CSV line (1.98
 * or 1.03 layout, FORMATS.md sections 1.2 and 1.6) and the 2.00a text
 * table (section 2.3). Formatting only; nothing is printed here.
 */
#include "core/bench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/banned.h"

static int ran(const struct bs_value *v)
{
	return v->status != BS_ST_NOT_RUN;
}

static int any_ran(const struct bs_run *r, int from, int to)
{
	int i;

	for (i = from; i < to; i++)
		if (ran(&r->res[i]))
			return 1;
	return 0;
}

/* Did the run have the I/O part (-s > 0) / the file part (-n > 0)? */
static int io_part(const struct bs_run *r)
{
	if (r->params.file_size_mib != BS_NONE)
		return r->params.file_size_mib > 0;
	return any_ran(r, 0, BS_M_FIRST_FILE);
}

static int file_part(const struct bs_run *r)
{
	if (r->params.num_files != BS_NONE)
		return r->params.num_files > 0;
	return any_ran(r, BS_M_FIRST_FILE, BS_M_COUNT);
}

/* "64M", "2G" (bonnie++'s size field). */
static void add_size(struct bs_buf *out, int64_t mib)
{
	if (mib == BS_NONE)
		return;
	if (mib > 0 && mib % 1024 == 0)
		bs_buf_addf(out, "%lldG", (long long)(mib / 1024));
	else
		bs_buf_addf(out, "%lldM", (long long)mib);
}

/* A byte count as bonnie++ writes chunk sizes: "4k", "512", "1m". */
static void add_bytes(struct bs_buf *out, int64_t v)
{
	if (v >= (1 << 20) && v % (1 << 20) == 0)
		bs_buf_addf(out, "%lldm", (long long)(v >> 20));
	else if (v >= 1024 && v % 1024 == 0)
		bs_buf_addf(out, "%lldk", (long long)(v >> 10));
	else
		bs_buf_addf(out, "%lld", (long long)v);
}

static int chunk_is_default(const struct bs_run *r)
{
	return r->params.io_chunk_bytes == BS_NONE ||
	       r->params.io_chunk_bytes == BS_BENCH_CHUNK;
}

/* The seek rate: "%.0f" from 1000 up, else "%.1f" (bonnie++ 1.9x+). */
static void add_seeks(struct bs_buf *out, double v, int always_one)
{
	if (!always_one && v >= 1000)
		bs_buf_addf(out, "%.0f", v);
	else
		bs_buf_addf(out, "%.1f", v);
}

/* Rate and CPU cells: "712,99", "+++++,+++" or ",". */
static void add_pair(struct bs_buf *out, const struct bs_run *r, int m,
		     int seeks_one)
{
	const struct bs_value *v = &r->res[m];

	switch (v->status) {
	case BS_ST_OK:
		bs_buf_addc(out, ',');
		if (isnan(v->value))
			;
		else if (m == BS_M_SEEKS)
			add_seeks(out, v->value, seeks_one);
		else
			bs_buf_addf(out, "%lld", (long long)floor(v->value));
		bs_buf_addc(out, ',');
		if (!isnan(v->cpu_pct))
			bs_buf_addf(out, "%lld",
				    (long long)floor(v->cpu_pct));
		break;
	case BS_ST_TOO_FAST:
		bs_buf_adds(out, ",+++++,+++");
		break;
	case BS_ST_NOT_RUN:
		bs_buf_adds(out, ",,");
		break;
	}
}

const char *bs_bench_fmt_latency(char *buf, size_t size, double us)
{
	/* bonnie++: over 99.999999 s in s, over 0.099999 s in ms. */
	if (isnan(us) || us <= 0)
		snprintf(buf, size, "%s", "");
	else if (us > 99999999)
		snprintf(buf, size, "%llds", (long long)(us / 1e6));
	else if (us > 99999)
		snprintf(buf, size, "%lldms", (long long)(us / 1000));
	else
		snprintf(buf, size, "%lldus", (long long)us);
	return buf;
}

static void add_latency(struct bs_buf *out, const struct bs_value *v)
{
	char b[32];

	bs_buf_addc(out, ',');
	if (ran(v))
		bs_buf_adds(out, bs_bench_fmt_latency(b, sizeof(b), v->lat_us));
}

/* Field 1: the version, "bstore-0.1.0" for a tool other than bonnie++. */
static void add_version(struct bs_buf *out, const struct bs_run *r)
{
	const char *v = r->tool_version ? r->tool_version : "";

	if (r->tool && strcmp(r->tool, "bonnie++") != 0)
		bs_buf_addf(out, "%s-%s", r->tool, v);
	else
		bs_buf_adds(out, v);
}

static void csv_198(const struct bs_run *r, struct bs_buf *out)
{
	const struct bs_params *p = &r->params;
	int i;

	bs_buf_adds(out, "1.98,");
	add_version(out, r);
	bs_buf_addf(out, ",%s,%lld,%s", r->machine ? r->machine : "",
		    (long long)(p->concurrency == BS_NONE ? 1
							   : p->concurrency),
		    p->seed ? p->seed : "");
	if (io_part(r)) {
		bs_buf_addc(out, ',');
		add_size(out, p->file_size_mib);
		bs_buf_addc(out, ',');
		if (!chunk_is_default(r))
			add_bytes(out, p->io_chunk_bytes);
		bs_buf_addc(out, ',');
		if (p->seeks != BS_NONE)
			bs_buf_addf(out, "%lld", (long long)p->seeks);
		bs_buf_addc(out, ',');
		if (p->seek_procs != BS_NONE)
			bs_buf_addf(out, "%lld", (long long)p->seek_procs);
		for (i = 0; i < BS_M_FIRST_FILE; i++)
			add_pair(out, r, i, 0);
	} else {
		bs_buf_adds(out, ",,,,,,,,,,,,,,,,");
	}
	if (file_part(r)) {
		bs_buf_addc(out, ',');
		if (p->num_files != BS_NONE)
			bs_buf_addf(out, "%lld", (long long)p->num_files);
		bs_buf_addc(out, ',');
		if (p->max_size == BS_SIZE_LINK)
			bs_buf_adds(out, "link");
		else if (p->max_size == BS_SIZE_SYMLINK)
			bs_buf_adds(out, "symlink");
		else if (p->max_size != BS_NONE && p->max_size != 0)
			bs_buf_addf(out, "%lld", (long long)p->max_size);
		bs_buf_addc(out, ',');
		if (p->min_size != BS_NONE && p->min_size != 0)
			bs_buf_addf(out, "%lld", (long long)p->min_size);
		/* Field 24 stays empty and 25 holds the directories, as in
		 * 2.00a, so that Debian's tools and old parsers agree. */
		bs_buf_adds(out, ",,");
		if (p->num_dirs != BS_NONE && p->num_dirs > 1)
			bs_buf_addf(out, "%lld", (long long)p->num_dirs);
		for (i = BS_M_FIRST_FILE; i < BS_M_COUNT; i++)
			add_pair(out, r, i, 0);
	} else {
		bs_buf_adds(out, ",,,,,,,,,,,,,,,,,");
	}
	for (i = 0; i < BS_M_FIRST_FILE; i++)
		add_latency(out, &r->res[i]);
	for (i = BS_M_FIRST_FILE; i < BS_M_COUNT; i++)
		add_latency(out, &r->res[i]);
}

/* The 1.0x files field: "16", "16:100000:16", "16:link", "16/64". */
static void add_files_spec(struct bs_buf *out, const struct bs_params *p,
			   const char *dirs_sep)
{
	if (p->num_files != BS_NONE)
		bs_buf_addf(out, "%lld", (long long)p->num_files);
	if (p->max_size == BS_SIZE_LINK)
		bs_buf_adds(out, ":link");
	else if (p->max_size == BS_SIZE_SYMLINK)
		bs_buf_adds(out, ":symlink");
	else if (p->max_size != BS_NONE && p->max_size != 0)
		bs_buf_addf(out, ":%lld:%lld", (long long)p->max_size,
			    (long long)(p->min_size == BS_NONE ? 0
							       : p->min_size));
	if (p->num_dirs != BS_NONE && p->num_dirs > 1)
		bs_buf_addf(out, "%s%lld", dirs_sep, (long long)p->num_dirs);
}

static void csv_103(const struct bs_run *r, struct bs_buf *out)
{
	const struct bs_params *p = &r->params;
	int i;

	bs_buf_adds(out, r->machine ? r->machine : "");
	if (io_part(r)) {
		bs_buf_addc(out, ',');
		add_size(out, p->file_size_mib);
		if (!chunk_is_default(r)) {
			bs_buf_addc(out, ':');
			add_bytes(out, p->io_chunk_bytes);
		}
		for (i = 0; i < BS_M_FIRST_FILE; i++)
			add_pair(out, r, i, 1);
	} else {
		bs_buf_adds(out, ",,,,,,,,,,,,,");
	}
	if (file_part(r)) {
		bs_buf_addc(out, ',');
		add_files_spec(out, p, "/");
		for (i = BS_M_FIRST_FILE; i < BS_M_COUNT; i++)
			add_pair(out, r, i, 1);
	} else {
		bs_buf_adds(out, ",,,,,,,,,,,,,");
	}
}

void bs_bench_csv(const struct bs_run *r, enum bs_csv_format fmt,
		  struct bs_buf *out)
{
	if (fmt == BS_CSV_1_03)
		csv_103(r, out);
	else
		csv_198(r, out);
}

const char *bs_bench_fmt_rate(char *buf, size_t size, double kib_s)
{
	double mib = kib_s / 1024, gib = mib / 1024;

	if (kib_s < 9999.5)
		snprintf(buf, size, "%lldk", (long long)kib_s);
	else if (mib < 99.95)
		snprintf(buf, size, "%.1fm", mib);
	else if (mib < 999.5)
		snprintf(buf, size, "%.0fm", mib);
	else if (gib < 99.95)
		snprintf(buf, size, "%.1fg", gib);
	else
		snprintf(buf, size, "%.0fg", gib);
	return buf;
}

/* Pads the buffer with spaces up to column col of the current line. */
static void pad_to(struct bs_buf *out, size_t line_start, size_t col)
{
	while (out->len - line_start < col)
		bs_buf_addc(out, ' ');
}

static void version_label(struct bs_buf *out, const struct bs_run *r)
{
	size_t start = out->len;
	const char *v = r->tool_version ? r->tool_version : "";

	if (r->tool == NULL || strcmp(r->tool, "bonnie++") == 0)
		bs_buf_addf(out, "Version %s", v);
	else
		bs_buf_addf(out, "%s %s", r->tool, v);
	pad_to(out, start, 19);
	bs_buf_addc(out, ' ');
}

/* One " %5s %3s" cell pair, or ten blanks for a test that did not run. */
static void table_cell(struct bs_buf *out, const struct bs_run *r, int m)
{
	const struct bs_value *v = &r->res[m];
	char rate[32] = "", cpu[16] = "";

	switch (v->status) {
	case BS_ST_NOT_RUN:
		bs_buf_adds(out, "          ");
		return;
	case BS_ST_TOO_FAST:
		bs_buf_adds(out, " +++++ +++");
		return;
	case BS_ST_OK:
		break;
	}
	if (isnan(v->value))
		;
	else if (bs_metrics[m].is_io)
		bs_bench_fmt_rate(rate, sizeof(rate), v->value);
	else if (m == BS_M_SEEKS && v->value >= 1000)
		snprintf(rate, sizeof(rate), "%.0f", v->value);
	else if (m == BS_M_SEEKS)
		snprintf(rate, sizeof(rate), "%.1f", v->value);
	else
		snprintf(rate, sizeof(rate), "%lld", (long long)v->value);
	if (!isnan(v->cpu_pct))
		snprintf(cpu, sizeof(cpu), "%lld", (long long)v->cpu_pct);
	bs_buf_addf(out, " %5s %3s", rate, cpu);
}

static void latency_row(struct bs_buf *out, const struct bs_run *r, int from,
			int to)
{
	char b[32];
	int i;

	bs_buf_adds(out, "Latency          ");
	for (i = from; i < to; i++) {
		if (ran(&r->res[i]))
			bs_bench_fmt_latency(b, sizeof(b), r->res[i].lat_us);
		else
			b[0] = '\0';
		bs_buf_addf(out, " %9s", b);
	}
	bs_buf_addc(out, '\n');
}

/* "64M", or "8M:4k:2:100:3": size[:chunk][:concurrency][:seeks][:procs]. */
static void size_label(struct bs_buf *out, const struct bs_run *r)
{
	const struct bs_params *p = &r->params;
	size_t keep;

	add_size(out, p->file_size_mib);
	bs_buf_addc(out, ':');
	if (!chunk_is_default(r))
		add_bytes(out, p->io_chunk_bytes);
	bs_buf_addc(out, ':');
	if (p->concurrency != BS_NONE && p->concurrency != 1)
		bs_buf_addf(out, "%lld", (long long)p->concurrency);
	bs_buf_addc(out, ':');
	if (p->seeks != BS_NONE && p->seeks != BS_BENCH_SEEKS)
		bs_buf_addf(out, "%lld", (long long)p->seeks);
	bs_buf_addc(out, ':');
	if (p->seek_procs != BS_NONE && p->seek_procs != BS_BENCH_SEEK_PROCS)
		bs_buf_addf(out, "%lld", (long long)p->seek_procs);
	keep = out->len;
	while (keep > 0 && out->data[keep - 1] == ':')
		keep--;
	bs_buf_trim(out, out->len - keep);
}

static void io_table(const struct bs_run *r, struct bs_buf *out)
{
	struct bs_buf label = BS_BUF_INIT;
	const char *name = r->machine ? r->machine : "";
	size_t start, room, nlen = strlen(name);
	int i;

	version_label(out, r);
	bs_buf_adds(out, "------Sequential Output------ --Sequential Input- "
			 "--Random-\n"
			 "                    -Per Chr- --Block-- -Rewrite- "
			 "-Per Chr- --Block-- --Seeks--\n"
			 "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  "
			 "/sec %CP  /sec %CP  /sec %CP\n");
	/* The name is cut so that name, a space and the label fit 19. */
	size_label(&label, r);
	room = label.len < 18 ? 18 - label.len : 0;
	if (nlen > room)
		nlen = room;
	start = out->len;
	bs_buf_add(out, name, nlen);
	pad_to(out, start, label.len < 19 ? 19 - label.len : nlen + !!nlen);
	bs_buf_adds(out, bs_buf_str(&label));
	for (i = 0; i < BS_M_FIRST_FILE; i++)
		table_cell(out, r, i);
	bs_buf_addc(out, '\n');
	latency_row(out, r, 0, BS_M_FIRST_FILE);
	bs_buf_release(&label);
}

static void file_table(const struct bs_run *r, struct bs_buf *out)
{
	const struct bs_params *p = &r->params;
	struct bs_buf spec = BS_BUF_INIT;
	size_t start;
	int i;

	version_label(out, r);
	bs_buf_adds(out, "------Sequential Create------ --------Random "
			 "Create--------\n");
	start = out->len;
	bs_buf_addf(out, "%.19s", r->machine ? r->machine : "");
	pad_to(out, start, 19);
	bs_buf_adds(out, " -Create-- --Read--- -Delete-- -Create-- --Read--- "
			 "-Delete--\n");
	if (p->max_size > 0)
		bs_buf_adds(out, "files:max:min      ");
	else if (p->max_size == BS_SIZE_LINK || p->max_size == BS_SIZE_SYMLINK)
		bs_buf_adds(out, "files:max          ");
	else
		bs_buf_adds(out, "              files");
	bs_buf_adds(out, "  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  "
			 "/sec %CP\n");
	add_files_spec(&spec, p, "/");
	bs_buf_addf(out, "%19s", bs_buf_str(&spec));
	for (i = BS_M_FIRST_FILE; i < BS_M_COUNT; i++)
		table_cell(out, r, i);
	bs_buf_addc(out, '\n');
	latency_row(out, r, BS_M_FIRST_FILE, BS_M_COUNT);
	bs_buf_release(&spec);
}

void bs_bench_table(const struct bs_run *r, struct bs_buf *out)
{
	if (io_part(r))
		io_table(r, out);
	if (file_part(r))
		file_table(r, out);
}
