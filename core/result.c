/* core/result.c - the shared run record and the bonnie++ metric table. */
#include "core/result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/banned.h"

/* clang-format off */
const struct bs_metric_info bs_metrics[BS_M_COUNT] = {
	{ "putc",       "Per-char write", "KiB/s",   1 },
	{ "put_block",  "Block write",    "KiB/s",   1 },
	{ "rewrite",    "Rewrite",        "KiB/s",   1 },
	{ "getc",       "Per-char read",  "KiB/s",   1 },
	{ "get_block",  "Block read",     "KiB/s",   1 },
	{ "seeks",      "Random seeks",   "seeks/s", 0 },
	{ "seq_create", "Seq. create",    "files/s", 0 },
	{ "seq_stat",   "Seq. read",      "files/s", 0 },
	{ "seq_del",    "Seq. delete",    "files/s", 0 },
	{ "ran_create", "Random create",  "files/s", 0 },
	{ "ran_stat",   "Random read",    "files/s", 0 },
	{ "ran_del",    "Random delete",  "files/s", 0 },
};
/* clang-format on */

const char *bs_status_name(enum bs_status st)
{
	switch (st) {
	case BS_ST_OK:
		return "ok";
	case BS_ST_TOO_FAST:
		return "too_fast";
	case BS_ST_NOT_RUN:
		break;
	}
	return "not_run";
}

int bs_status_parse(const char *s, enum bs_status *out)
{
	if (strcmp(s, "ok") == 0)
		*out = BS_ST_OK;
	else if (strcmp(s, "too_fast") == 0)
		*out = BS_ST_TOO_FAST;
	else if (strcmp(s, "not_run") == 0)
		*out = BS_ST_NOT_RUN;
	else
		return -1;
	return 0;
}

int bs_metric_find(const char *key)
{
	int i;

	for (i = 0; i < BS_M_COUNT; i++)
		if (strcmp(bs_metrics[i].key, key) == 0)
			return i;
	return -1;
}

void bs_run_init(struct bs_run *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->measured_at = BS_NONE;
	r->stored_at = BS_NONE;
	r->source_line = BS_NONE;
	r->params.file_size_mib = BS_NONE;
	r->params.io_chunk_bytes = BS_NONE;
	r->params.seeks = BS_NONE;
	r->params.seek_procs = BS_NONE;
	r->params.per_char_mib = BS_NONE;
	r->params.num_files = BS_NONE;
	r->params.max_size = BS_NONE;
	r->params.min_size = BS_NONE;
	r->params.num_dirs = BS_NONE;
	r->params.file_chunk_bytes = BS_NONE;
	r->params.concurrency = BS_NONE;
	for (i = 0; i < BS_M_COUNT; i++) {
		struct bs_value *v = &r->res[i];
		v->status = BS_ST_NOT_RUN;
		v->value = NAN;
		v->cpu_pct = NAN;
		v->lat_us = NAN;
		v->lat_mean_us = NAN;
		v->lat_p50_us = NAN;
		v->lat_p99_us = NAN;
	}
}

void bs_run_release(struct bs_run *r)
{
	size_t i;

	free(r->tool);
	free(r->tool_version);
	free(r->format);
	free(r->machine);
	free(r->params.seed);
	free(r->raw);
	free(r->source);
	free(r->parser_version);
	free(r->warning);
	for (i = 0; i < r->ntags; i++) {
		free(r->tags[i].key);
		free(r->tags[i].value);
	}
	free(r->tags);
	bs_run_init(r);
}

void bs_run_set(char **field, const char *s)
{
	char *copy = xstrdup(s);

	free(*field);
	*field = copy;
}

void bs_run_tag(struct bs_run *r, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < r->ntags; i++) {
		if (strcmp(r->tags[i].key, key) == 0) {
			bs_run_set(&r->tags[i].value, value);
			return;
		}
	}
	xgrow((void **)&r->tags, &r->tags_cap, r->ntags + 1,
	      sizeof(*r->tags));
	r->tags[r->ntags].key = xstrdup(key);
	r->tags[r->ntags].value = xstrdup(value);
	r->ntags++;
}

const char *bs_run_tag_get(const struct bs_run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->ntags; i++)
		if (strcmp(r->tags[i].key, key) == 0)
			return r->tags[i].value;
	return NULL;
}
