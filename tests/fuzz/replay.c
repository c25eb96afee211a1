/*
 * tests/fuzz/replay.c - runs the fuzz target's checks over files and
 * directories without libFuzzer: a cheap replay of the seed corpus under
 * ctest, and a way to reproduce a crash file with any compiler.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"
#include "util/buf.h"
#include "util/banned.h"

static int run_file(const char *path)
{
	struct bs_buf b = BS_BUF_INIT;
	char tmp[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (f == NULL) {
		perror(path);
		return -1;
	}
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		bs_buf_add(&b, tmp, n);
	fclose(f);
	LLVMFuzzerTestOneInput((const uint8_t *)bs_buf_str(&b), b.len);
	bs_buf_release(&b);
	return 0;
}

static int run_path(const char *path, long *count)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	d = opendir(path);
	if (d == NULL) {
		perror(path);
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char sub[4096];

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		rc = run_path(sub, count);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	long count = 0;
	int i;

	for (i = 1; i < argc; i++)
		if (run_path(argv[i], &count) < 0)
			return 1;
	printf("replayed %ld inputs\n", count);
	return count > 0 ? 0 : 1;
}
