/*
 * core/fileio_opts.c - the option table of `bstore fileio`: sysbench
 * 1.0.20's fileio options and the general ones a fileio run uses, with
 * sysbench's spellings and defaults (`sysbench fileio help`, `sysbench
 * --help`). The table parses and sets defaults; `bstore fileio` makes
 * its command-line rows, --help and man page of it (cli/cmd_fileio.c).
 */
#include "core/fileio.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/num.h"
#include "util/banned.h"

#define O(f) offsetof(struct bs_fileio_opts, f)

/* clang-format off */
static const char *const test_modes[] = {
	"seqwr", "seqrewr", "seqrd", "rndrd", "rndwr", "rndrw", NULL,
};
/* sysbench's "Doing %s test" (get_test_mode_str), by mode. */
static const char *const test_mode_texts[] = {
	"sequential write (creation)", "sequential rewrite", "sequential read",
	"random read", "random write", "random r/w",
};
static const char *const io_modes[] = { "sync", "async", "mmap", NULL };
static const char *const fsync_modes[] = { "fsync", "fdatasync", NULL };
static const char *const rand_types[] = {
	"uniform", "gaussian", "special", "pareto", NULL,
};
/* Bit i is choice i: BS_FILEIO_F_SYNC, _DSYNC, _DIRECT. */
static const char *const extra_flags[] = { "sync", "dsync", "direct", NULL };
static const char *const bool_words[] = {
	"off", "on", "no", "yes", "false", "true", "0", "1", NULL,
};

#define BIG (UINT64_C(1) << 62)

const struct bs_fileio_option bs_fileio_options[] = {
	{ "file-num", BS_FK_COUNT, O(file_num), "128", NULL, 1, 1000000, "N",
	  "number of files to create" },
	{ "file-block-size", BS_FK_SIZE, O(block_size), "16384", NULL, 1, 1 << 30, "SIZE",
	  "block size to use in all IO operations" },
	{ "file-total-size", BS_FK_SIZE, O(total_size), "2G", NULL, 1, BIG, "SIZE",
	  "total size of files to create" },
	{ "file-test-mode", BS_FK_CHOICE, O(mode), NULL, test_modes, 0, 0, "MODE",
	  "test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw}" },
	{ "file-io-mode", BS_FK_CHOICE, O(io_mode), "sync", io_modes, 0, 0, "MODE",
	  "file operations mode {sync,async,mmap}" },
	{ "file-async-backlog", BS_FK_COUNT, O(async_backlog), "128", NULL, 1, 1 << 24, "N",
	  "number of asynchronous operations to queue per thread" },
	{ "file-extra-flags", BS_FK_FLAGS, O(extra_flags), "", extra_flags, 0, 0, "LIST",
	  "additional flags to open files with {sync,dsync,direct}" },
	{ "file-fsync-freq", BS_FK_COUNT, O(fsync_freq), "100", NULL, 0, BIG, "N",
	  "do fsync() after this number of requests (0 - don't use fsync())" },
	{ "file-fsync-all", BS_FK_BOOL, O(fsync_all), "off", bool_words, 0, 0, "on|off",
	  "do fsync() after each write operation" },
	{ "file-fsync-end", BS_FK_BOOL, O(fsync_end), "on", bool_words, 0, 0, "on|off",
	  "do fsync() at the end of test" },
	{ "file-fsync-mode", BS_FK_CHOICE, O(fsync_mode), "fsync", fsync_modes, 0, 0, "MODE",
	  "which method to use for synchronization {fsync, fdatasync}" },
	{ "file-merged-requests", BS_FK_COUNT, O(merged_requests), "0", NULL, 0, BIG, "N",
	  "merge at most this number of IO requests if possible (0 - don't merge)" },
	{ "file-rw-ratio", BS_FK_REAL, O(rw_ratio), "1.5", NULL, 0, 0, "N",
	  "reads/writes ratio for combined test" },
	{ "threads", BS_FK_COUNT, O(threads), "1", NULL, 1, 1024, "N",
	  "number of threads to use" },
	{ "time", BS_FK_COUNT, O(time_s), "10", NULL, 0, 100000000, "N",
	  "limit for total execution time in seconds (0: none)" },
	{ "events", BS_FK_COUNT, O(events), "0", NULL, 0, BIG, "N",
	  "limit for total number of events (0: none)" },
	{ "report-interval", BS_FK_COUNT, O(report_interval_s), "0", NULL, 0, 100000000, "N",
	  "report intermediate statistics every N seconds (0: off)" },
	{ "percentile", BS_FK_COUNT, O(percentile), "95", NULL, 0, 100, "N",
	  "percentile to calculate in latency statistics (1-100; 0: off)" },
	{ "histogram", BS_FK_BOOL, O(histogram), "off", bool_words, 0, 0, "on|off",
	  "print latency histogram in report" },
	{ "rand-type", BS_FK_CHOICE, O(rand_type), "uniform", rand_types, 0, 0, "TYPE",
	  "distribution of random offsets {uniform,gaussian,special,pareto}" },
	{ "rand-spec-pct", BS_FK_COUNT, O(rand_spec_pct), "1", NULL, 1, 100, "N",
	  "percentage of blocks treated as 'special' (special distribution)" },
	{ "rand-spec-res", BS_FK_COUNT, O(rand_spec_res), "75", NULL, 0, 100, "N",
	  "percentage of requests that hit the 'special' blocks" },
	{ "rand-pareto-h", BS_FK_REAL, O(rand_pareto_h), "0.2", NULL, 0, 0, "N",
	  "parameter h for pareto distribution" },
	{ "rand-seed", BS_FK_COUNT, O(rand_seed), "0", NULL, 0, UINT32_MAX, "N",
	  "seed for random number generator (0: the current time)" },
	{ "validate", BS_FK_BOOL, O(validate), "off", bool_words, 0, 0, "on|off",
	  "write checksums and check every block read" },
};

/* `sysbench --help`: "deprecated alias for --threads". --tx-rate (for
 * --rate) is not here: bstore fileio has no --rate. */
const struct bs_fileio_alias bs_fileio_aliases[] = {
	{ "num-threads", "threads" },
	{ "max-time", "time" },
	{ "max-requests", "events" },
};
/* clang-format on */

const int bs_fileio_noptions =
	(int)(sizeof(bs_fileio_options) / sizeof(bs_fileio_options[0]));
const int bs_fileio_naliases =
	(int)(sizeof(bs_fileio_aliases) / sizeof(bs_fileio_aliases[0]));

int bs_fileio_option_find(const char *name)
{
	int i;

	for (i = 0; i < bs_fileio_noptions; i++)
		if (strcmp(bs_fileio_options[i].name, name) == 0)
			return i;
	return -1;
}

static int word_index(const char *const *words, const char *s, size_t len)
{
	int i;

	for (i = 0; words[i]; i++)
		if (strlen(words[i]) == len && memcmp(words[i], s, len) == 0)
			return i;
	return -1;
}

static void choices_text(const char *const *words, char *buf, size_t size)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; words[i] && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
				      words[i]);
}

int bs_fileio_option_set(struct bs_fileio_opts *o, int i, const char *value,
			 struct bs_err *err)
{
	const struct bs_fileio_option *opt = &bs_fileio_options[i];
	unsigned char *field = (unsigned char *)o + opt->offset;
	char list[128], q[64];
	uint64_t u;
	double d;
	unsigned bits = 0;
	int w;

	if (value == NULL && opt->kind != BS_FK_BOOL)
		return bs_error(err, BS_EINVAL, "--%s needs a value",
				opt->name);
	/* User data in messages: cut, control characters shown as '?'. */
	if (value)
		bs_err_quote(q, sizeof(q), value, strlen(value), 40);
	switch (opt->kind) {
	case BS_FK_COUNT:
	case BS_FK_SIZE:
		if ((opt->kind == BS_FK_COUNT
			     ? bs_parse_u64(value, strlen(value), &u)
			     : bs_parse_size(value, strlen(value), &u)) < 0)
			return bs_error(err, BS_EINVAL, "--%s: '%s' is not %s",
					opt->name, q,
					opt->kind == BS_FK_COUNT
						? "a whole number"
						: "a size (bytes, or with "
						  "k, m, g or t)");
		if (u < opt->min || u > opt->max)
			return bs_error(err, BS_EINVAL,
					"--%s: %llu is out of range (%llu to "
					"%llu)",
					opt->name, (unsigned long long)u,
					(unsigned long long)opt->min,
					(unsigned long long)opt->max);
		memcpy(field, &u, sizeof(u));
		return 0;
	case BS_FK_REAL:
		if (bs_parse_double(value, strlen(value), &d) < 0 || d < 0 ||
		    d > 1e9)
			return bs_error(err, BS_EINVAL,
					"--%s: '%s' is not a number from 0 "
					"to 1e9",
					opt->name, q);
		memcpy(field, &d, sizeof(d));
		return 0;
	case BS_FK_BOOL:
		w = value ? word_index(opt->choices, value, strlen(value)) : 1;
		if (w < 0)
			return bs_error(err, BS_EINVAL,
					"--%s: '%s' is not on or off",
					opt->name, q);
		bits = (unsigned)(w % 2);
		memcpy(field, &bits, sizeof(bits));
		return 0;
	case BS_FK_CHOICE:
		w = word_index(opt->choices, value, strlen(value));
		if (w < 0) {
			choices_text(opt->choices, list, sizeof(list));
			return bs_error(err, BS_EINVAL,
					"--%s: '%s' is not one of %s",
					opt->name, q, list);
		}
		bits = (unsigned)w;
		memcpy(field, &bits, sizeof(bits));
		return 0;
	case BS_FK_FLAGS:
		while (*value) {
			size_t n = strcspn(value, ",");

			w = n ? word_index(opt->choices, value, n) : -1;
			if (w < 0) {
				bs_err_quote(q, sizeof(q), value, n, 40);
				choices_text(opt->choices, list, sizeof(list));
				return bs_error(err, BS_EINVAL,
						"--%s: '%s' is not one of %s",
						opt->name, q, list);
			}
			bits |= 1u << w;
			value += n + (value[n] == ',');
		}
		memcpy(field, &bits, sizeof(bits));
		return 0;
	}
	return 0;
}

void bs_fileio_defaults(struct bs_fileio_opts *o)
{
	struct bs_err err = BS_ERR_INIT;
	int i;

	memset(o, 0, sizeof(*o));
	o->mode = BS_FILEIO_NOMODE;
	for (i = 0; i < bs_fileio_noptions; i++)
		if (bs_fileio_options[i].dflt &&
		    bs_fileio_option_set(o, i, bs_fileio_options[i].dflt,
					 &err) < 0)
			BS_BUG("a default the fileio option table refuses");
}

void bs_fileio_settle(struct bs_fileio_opts *o)
{
	if (o->fsync_all) {
		o->fsync_end = 0;
		o->fsync_freq = 0;
	}
}

const char *bs_fileio_word(const char *name, unsigned v)
{
	int i = bs_fileio_option_find(name);
	const char *const *w;
	unsigned k;

	if (i < 0 || !bs_fileio_options[i].choices)
		BS_BUG("bs_fileio_word of an option without words");
	w = bs_fileio_options[i].choices;
	for (k = 0; w[k]; k++)
		if (k == v)
			return w[k];
	return "";
}

void bs_fileio_flags_text(unsigned flags, struct bs_buf *out)
{
	unsigned k;
	int first = 1;

	for (k = 0; extra_flags[k]; k++) {
		if (!(flags & (1u << k)))
			continue;
		if (!first)
			bs_buf_addc(out, ',');
		bs_buf_adds(out, extra_flags[k]);
		first = 0;
	}
}

const char *bs_fileio_mode_text(unsigned mode)
{
	return mode < BS_FILEIO_NMODES ? test_mode_texts[mode] : "";
}

uint64_t bs_fileio_file_size(const struct bs_fileio_opts *o)
{
	return o->file_num ? o->total_size / o->file_num : 0;
}

uint64_t bs_fileio_request_size(const struct bs_fileio_opts *o)
{
	if (o->merged_requests > 0 && o->mode <= BS_FILEIO_SEQRD)
		return o->block_size * o->merged_requests;
	return o->block_size;
}

int bs_fileio_check(const struct bs_fileio_opts *o, int need_mode,
		    struct bs_err *err)
{
	uint64_t fsize = bs_fileio_file_size(o);

	if (need_mode && o->mode >= BS_FILEIO_NMODES)
		return bs_error(err, BS_EINVAL,
				"missing --file-test-mode (seqwr, seqrewr, "
				"seqrd, rndrd, rndwr or rndrw)");
	/* Requests in flight at once may be a read and a write of one
	 * block: a read would see a write half done. */
	if (o->io_mode == BS_FILEIO_IO_ASYNC && o->validate)
		return bs_error(err, BS_EINVAL,
				"--validate cannot be used with "
				"--file-io-mode=async: requests in flight may "
				"read a block while it is written");
	if (o->merged_requests > (1u << 30) / o->block_size)
		return bs_error(err, BS_EINVAL,
				"--file-merged-requests %llu of %llu-byte "
				"blocks make requests over 1 GiB",
				(unsigned long long)o->merged_requests,
				(unsigned long long)o->block_size);
	if (fsize == 0)
		return bs_error(err, BS_EINVAL,
				"--file-total-size %llu is less than one byte "
				"per file (--file-num %llu)",
				(unsigned long long)o->total_size,
				(unsigned long long)o->file_num);
	if (o->block_size > fsize)
		return bs_error(err, BS_EINVAL,
				"--file-block-size %llu is larger than a file "
				"(%llu bytes: --file-total-size / "
				"--file-num)",
				(unsigned long long)o->block_size,
				(unsigned long long)fsize);
	if (o->validate && (o->block_size < 16 || fsize % o->block_size))
		return bs_error(err, BS_EINVAL,
				"--validate needs blocks of 16 bytes or more "
				"that divide a file (block %llu, file %llu)",
				(unsigned long long)o->block_size,
				(unsigned long long)fsize);
	if ((o->extra_flags & BS_FILEIO_F_DIRECT) &&
	    (o->block_size % 512 != 0 || fsize % 512 != 0))
		return bs_error(err, BS_EINVAL,
				"--file-extra-flags=direct needs a block size "
				"and a file size that are multiples of 512 "
				"bytes (block %llu, file %llu)",
				(unsigned long long)o->block_size,
				(unsigned long long)fsize);
	if (o->time_s == 0 && o->events == 0)
		return bs_error(err, BS_EINVAL,
				"--time=0 and --events=0: the run would never "
				"end");
	if (o->rand_type == BS_FILEIO_RAND_PARETO &&
	    !(o->rand_pareto_h > 0 && o->rand_pareto_h < 1))
		return bs_error(err, BS_EINVAL,
				"--rand-pareto-h must be between 0 and 1");
	if (isnan(o->rw_ratio))
		return bs_error(err, BS_EINVAL,
				"--file-rw-ratio is not a "
				"number");
	return 0;
}
