/*
 * core/bench_opts.c - bonnie++ 2.00a's option syntax, defaults and limits
 * (docs/input-formats.md sections 1.7, 8.1 and 8.5), for `bstore run`.
 */
#include "core/bench_opts.h"

#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* Bytes of an argument quoted in a message. */
#define QUOTE_MAX 64

void bs_bench_defaults(struct bs_bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->dir = ".";
	o->machine = "";
	o->tool_version = "";
	bs_params_init(&o->p);
	bs_params_defaults(&o->p, BS_FAM_BONNIE);
	/* No I/O tests until -s says (or the RAM rule sizes them). */
	o->p.file_size_mib = 0;
}

/* Fills err with "WHAT 'ARG'", the argument made safe to print. */
static int bad(struct bs_err *err, const char *what, const char *arg)
{
	char q[QUOTE_MAX + 8];

	return bs_error(err, BS_EINVAL, "%s '%s'", what,
			bs_err_quote(q, sizeof(q), arg, strlen(arg),
				     QUOTE_MAX));
}

/* Splits s at ':' into at most max parts (borrowed pointers into s). */
static int split_colon(char *s, char **part, int max)
{
	int n = 0;

	part[n++] = s;
	while (*s) {
		if (*s == ':') {
			if (n == max)
				return -1;
			*s = '\0';
			part[n++] = s + 1;
		}
		s++;
	}
	return n;
}

/*
 * A size in MiB: a plain number is MiB ("300"), a suffixed one bytes that
 * must make whole MiB ("2g", "1536m", "4194304k").
 */
static int parse_mib(const char *s, uint64_t *out)
{
	size_t len = strlen(s);
	uint64_t v;

	if (len == 0)
		return -1;
	if (s[len - 1] >= '0' && s[len - 1] <= '9')
		return bs_parse_u64(s, len, out) < 0 ? -1 : 0;
	if (bs_parse_size(s, len, &v) < 0 || v % (1u << 20) != 0)
		return -1;
	*out = v >> 20;
	return 0;
}

/* A byte count: "8192", "4k", "1m". */
static int parse_bytes(const char *s, uint64_t *out)
{
	return bs_parse_size(s, strlen(s), out) < 0 ? -1 : 0;
}

/* A count, "8192" or "8k" (x1024). */
static int parse_count(const char *s, uint64_t *out)
{
	size_t len = strlen(s);

	if (len > 1 && (s[len - 1] == 'k' || s[len - 1] == 'K'))
		return bs_parse_size(s, len, out) < 0 ? -1 : 0;
	return bs_parse_u64(s, len, out) < 0 ? -1 : 0;
}

int bs_bench_opts_parse_s(struct bs_bench_opts *o, const char *arg,
			  struct bs_err *err)
{
	struct bs_bench_opts t = *o;
	char *copy = xstrdup(arg), *part[4];
	uint64_t v;
	int n, rc = 0;

	n = split_colon(copy, part, 4);
	if (n < 0 || parse_mib(part[0], &v) < 0) {
		rc = bad(err, "-s: bad size", arg);
		goto out;
	}
	/* The bits of v, over INT64_MAX too (core/bench.h). */
	t.p.file_size_mib = (int64_t)v;
	if (n > 1 && part[1][0]) {
		if (parse_bytes(part[1], &v) < 0 || v > UINT32_MAX) {
			rc = bad(err, "-s: bad chunk size", part[1]);
			goto out;
		}
		t.p.io_chunk_bytes = (int64_t)v;
	}
	if (n > 2 && part[2][0]) {
		if (parse_count(part[2], &v) < 0) {
			rc = bad(err, "-s: bad number of seeks", part[2]);
			goto out;
		}
		t.p.seeks = (int64_t)v;
	}
	if (n > 3 && part[3][0]) {
		if (parse_count(part[3], &v) < 0 || v > UINT32_MAX) {
			rc = bad(err, "-s: bad number of seek threads",
				 part[3]);
			goto out;
		}
		t.p.seek_procs = (int64_t)v;
	}
	*o = t;
out:
	free(copy);
	return rc;
}

/* -n max: bytes, or -1/"link" (hard links), -2/"symlink". */
static int parse_max(const char *s, int64_t *out)
{
	uint64_t v;

	if (strcmp(s, "-1") == 0 || strcmp(s, "link") == 0) {
		*out = BS_SIZE_LINK;
		return 0;
	}
	if (strcmp(s, "-2") == 0 || strcmp(s, "symlink") == 0) {
		*out = BS_SIZE_SYMLINK;
		return 0;
	}
	if (parse_bytes(s, &v) < 0 || v > INT64_MAX)
		return -1;
	*out = (int64_t)v;
	return 0;
}

/* The parts of -n into t; -1 when one does not parse. */
static int parse_n_parts(struct bs_bench_opts *t, char **part, int n)
{
	size_t len;
	uint64_t v;

	/* NUM counts 1024s of files; an "m" suffix multiplies by 1024. */
	len = strlen(part[0]);
	if (len > 1 && (part[0][len - 1] == 'm' || part[0][len - 1] == 'M')) {
		if (bs_parse_u64(part[0], len - 1, &v) < 0 || v > (1u << 20))
			return -1;
		v *= 1024;
	} else if (bs_parse_u64(part[0], len, &v) < 0) {
		return -1;
	}
	/* The bits of v, over INT64_MAX too (core/bench.h). */
	t->p.num_files = (int64_t)v;
	if (n > 1 && part[1][0] && parse_max(part[1], &t->p.max_size) < 0)
		return -1;
	if (n > 2 && part[2][0]) {
		if (parse_bytes(part[2], &v) < 0 || v > INT64_MAX)
			return -1;
		t->p.min_size = (int64_t)v;
	}
	if (n > 3 && part[3][0]) {
		if (parse_count(part[3], &v) < 0 || v > UINT32_MAX)
			return -1;
		t->p.num_dirs = (int64_t)v;
	}
	if (n > 4 && part[4][0]) {
		if (parse_bytes(part[4], &v) < 0 || v > UINT32_MAX)
			return -1;
		t->p.file_chunk_bytes = (int64_t)v;
	}
	return 0;
}

int bs_bench_opts_parse_n(struct bs_bench_opts *o, const char *arg,
			  struct bs_err *err)
{
	struct bs_bench_opts t = *o;
	char *copy = xstrdup(arg), *part[5];
	int n, rc = 0;

	n = split_colon(copy, part, 5);
	if (n < 0 || parse_n_parts(&t, part, n) < 0)
		rc = bad(err, "-n: bad file test spec", arg);
	else
		*o = t;
	free(copy);
	return rc;
}

int bs_bench_opts_parse_f(struct bs_bench_opts *o, const char *arg,
			  struct bs_err *err)
{
	uint64_t v;

	if (arg == NULL) {
		o->p.per_char_mib = 0;
		return 0;
	}
	if (parse_mib(arg, &v) < 0)
		return bad(err, "-f: bad per-char size", arg);
	/* The bits of v, over INT64_MAX too (core/bench.h). */
	o->p.per_char_mib = (int64_t)v;
	return 0;
}

int bs_bench_opts_parse_c(struct bs_bench_opts *o, const char *arg,
			  struct bs_err *err)
{
	uint64_t v;

	if (bs_parse_u64(arg, strlen(arg), &v) < 0 || v < 1 || v > 200)
		return bs_error(err, BS_EINVAL,
				"-c: concurrency must be 1 to 200");
	o->p.concurrency = (int64_t)v;
	return 0;
}

int bs_bench_opts_parse_ram(const char *arg, int64_t *ram_mib,
			    struct bs_err *err)
{
	uint64_t v;

	if (parse_mib(arg, &v) < 0 || v > INT64_MAX)
		return bad(err, "-r: bad RAM size", arg);
	*ram_mib = (int64_t)v;
	return 0;
}

int bs_bench_opts_ram_rule(struct bs_bench_opts *o, int size_given,
			   int64_t ram_mib, struct bs_err *err)
{
	const uint64_t file_mib = (uint64_t)o->p.file_size_mib;

	if (!size_given) {
		uint64_t mib = BS_BENCH_DEFAULT_FILE_MIB;

		if (ram_mib > 0 && (uint64_t)ram_mib * 2 > mib)
			mib = (uint64_t)ram_mib * 2;
		/* Rounded up to a whole GiB when over half of one; a size
		 * with no room for that (-r near 2^63) stays as it is, far
		 * over what bs_bench_check() takes, rather than wrap to 0,
		 * which would skip the I/O tests. */
		if (mib % 1024 > 512 && mib <= UINT64_MAX - 1024)
			mib = (mib / 1024 + 1) * 1024;
		o->p.file_size_mib = (int64_t)mib;
		return 0;
	}
	if (ram_mib > 0 && file_mib > 0 && file_mib < (uint64_t)ram_mib * 2)
		return bs_error(
			err, BS_EINVAL,
			"file size %lluM is less than twice the RAM (%lldM): "
			"the read tests would measure the page cache, not "
			"the disk. Use -s %lldM or more, or -r 0 to run "
			"anyway (bonnie++ refuses this too)",
			(unsigned long long)file_mib, (long long)ram_mib,
			(long long)ram_mib * 2);
	return 0;
}

static int pow2_in(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

int bs_bench_check(const struct bs_bench_opts *o, struct bs_err *err)
{
	/* As the parsers read them (core/bench.h). */
	const uint64_t file_mib = (uint64_t)o->p.file_size_mib;
	const uint64_t seeks = (uint64_t)o->p.seeks;
	const uint64_t num_files = (uint64_t)o->p.num_files;

	if (file_mib == 0 && num_files == 0)
		return bs_error(err, BS_EINVAL,
				"nothing to run: -s 0 skips the I/O tests "
				"and -n 0 the file tests");
	if (file_mib > (UINT64_MAX >> 21))
		return bs_error(err, BS_EINVAL, "file size %lluM is too big",
				(unsigned long long)file_mib);
	if (!pow2_in((uint64_t)o->p.io_chunk_bytes, 256, 1u << 20))
		return bs_error(err, BS_EINVAL,
				"chunk size %u is not a power of 2 between "
				"256 and 1m",
				(unsigned)o->p.io_chunk_bytes);
	if (seeks >= UINT32_MAX)
		return bs_error(err, BS_EINVAL, "%llu seeks are too many",
				(unsigned long long)seeks);
	if (o->p.seek_procs < 1 || o->p.seek_procs > BS_BENCH_MAX_SEEK_PROCS)
		return bs_error(err, BS_EINVAL,
				"seek processes must be 1 to %d, not %u",
				BS_BENCH_MAX_SEEK_PROCS,
				(unsigned)o->p.seek_procs);
	if (file_mib > 0 &&
	    (file_mib << 20) / (uint64_t)o->p.io_chunk_bytes < 1)
		return bs_error(err, BS_EINVAL,
				"the file size is smaller than one chunk");
	if (!pow2_in((uint64_t)o->p.file_chunk_bytes, 256, 1u << 20))
		return bs_error(err, BS_EINVAL,
				"file chunk size %u is not a power of 2 "
				"between 256 and 1m",
				(unsigned)o->p.file_chunk_bytes);
	if (o->p.num_dirs < 1 || o->p.num_dirs > BS_BENCH_MAX_DIRS)
		return bs_error(err, BS_EINVAL,
				"directories must be 1 to %d, not %u",
				BS_BENCH_MAX_DIRS, (unsigned)o->p.num_dirs);
	if (o->p.max_size < BS_SIZE_SYMLINK ||
	    (o->p.max_size >= 0 && o->p.min_size > o->p.max_size) ||
	    o->p.min_size < 0)
		return bs_error(err, BS_EINVAL,
				"file sizes must satisfy 0 <= min <= max");
	if (o->p.max_size > (int64_t)1 << 30)
		return bs_error(err, BS_EINVAL,
				"file test maximum size is over 1g");
	if (o->fsync_each && o->no_sync)
		return bs_error(err, BS_EINVAL,
				"-b (fsync after every write) and --no-sync "
				"(no syncs at all) exclude each other");
	if (num_files > 16384)
		return bs_error(err, BS_EINVAL,
				"-n %llu asks for too many files (at most "
				"16384, i.e. 16m files)",
				(unsigned long long)num_files);
	/* Under the limit above, the count of files fits easily. */
	if (num_files > 0 && num_files * 1024 < (uint64_t)o->p.num_dirs)
		return bs_error(err, BS_EINVAL,
				"more directories (%u) than files (%llu)",
				(unsigned)o->p.num_dirs,
				(unsigned long long)(num_files * 1024));
	return 0;
}
