/*
 * core/zcav_target.c - what a stored zcav run read, a disk or a file, and
 * how its curve's axis says so (core/zcav.h). Kept apart from the
 * benchmark in core/zcav.c: the report, the site and ingest ask it of
 * runs they read, with no clock or signal of the benchmark's.
 */
#include "core/zcav.h"

#include <string.h>

#include "core/result.h"
#include "util/banned.h"

/* The path of a zcav printout line, or NULL: the last word of its command
 * line, or what "# Finished loop N, on device " names. */
static const char *line_path(const char *p, size_t n, size_t *len)
{
	static const char fin[] = "on device ";
	const char *q, *end = p + n;
	size_t k;

	for (k = 0; k + sizeof(fin) - 1 <= n; k++)
		if (memcmp(p + k, fin, sizeof(fin) - 1) == 0) {
			q = p + k + sizeof(fin) - 1;
			for (*len = 0; q + *len < end && q[*len] != ' ';
			     (*len)++)
				;
			return q;
		}
	for (k = 0; k + 5 <= n; k++)
		if (memcmp(p + k, "zcav ", 5) == 0) {
			while (end > p && end[-1] == ' ')
				end--;
			q = end;
			while (q > p && q[-1] != ' ')
				q--;
			*len = (size_t)(end - q);
			return *len ? q : NULL;
		}
	return NULL;
}

const char *bs_zcav_axis(int devices, int files)
{
	if (devices && files)
		return "position (offset in the file or on the disk)";
	if (devices)
		return "position on the disk";
	if (files)
		return "offset in the file";
	return "position";
}

enum bs_zcav_medium bs_zcav_on_device(const struct bs_run *r)
{
	const char *p, *nl, *path;
	size_t n;

	if (r->params.target)
		return strcmp(r->params.target, "device") == 0 ? BS_ZCAV_DEVICE
							       : BS_ZCAV_FILE;
	/* bstore zcav's runs name their path in a tag: its printout on
	 * standard output names it only in a header ingest does not keep, so
	 * it records no target (an ingested printout must equal the run). */
	path = bs_run_tag_get(r, "zcav.target");
	if (path && path[0] == '/')
		return strncmp(path, "/dev/", 5) == 0 ? BS_ZCAV_DEVICE
						      : BS_ZCAV_FILE;
	for (p = r->raw ? r->raw : ""; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p) - 1;
		path = line_path(p, (size_t)(nl - p + (*nl != '\n')), &n);
		if (path && n > 0 && path[0] == '/')
			return n > 5 && memcmp(path, "/dev/", 5) == 0
				       ? BS_ZCAV_DEVICE
				       : BS_ZCAV_FILE;
	}
	return BS_ZCAV_UNKNOWN;
}
