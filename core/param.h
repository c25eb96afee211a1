/*
 * core/param.h - a run's parameters and the table that describes them,
 * in the style of fio's option table: one row per parameter (key, tool
 * family, where it lives in struct bs_params, its kind). The store, the
 * exports, `bstore show`, the report and the benchmark core walk
 * bs_param_table[] instead of naming fields; adding a parameter is a
 * field here and a row in core/param.c.
 *
 * Unknown values: integers (and sizes, booleans) are BS_NONE, reals NAN,
 * text NULL. Text is owned by the struct (bs_params_release frees it).
 */
#ifndef BS_CORE_PARAM_H
#define BS_CORE_PARAM_H

#include <stddef.h>
#include <stdint.h>

#include "core/metric.h"
#include "util/buf.h"

#define BS_NONE INT64_MIN /* unknown integer parameter */

/* max_size / min_size special values, as bonnie++'s -n spells them. */
#define BS_SIZE_LINK (-1)
#define BS_SIZE_SYMLINK (-2)

struct bs_params {
	/* bonnie family (bonnie++'s -s, -f, -n, -c, -z) */
	int64_t file_size_mib;  /* -s size */
	int64_t io_chunk_bytes; /* -s :chunk */
	int64_t seeks;          /* -s ::seeks */
	int64_t seek_procs;     /* -s :::procs */
	int64_t per_char_mib;   /* -f size */
	int64_t num_files;      /* -n num, in units of 1024 files */
	int64_t max_size;       /* bytes, or BS_SIZE_LINK/BS_SIZE_SYMLINK */
	int64_t min_size;       /* bytes */
	int64_t num_dirs;
	int64_t file_chunk_bytes;
	int64_t concurrency; /* -c, recorded only */
	char *seed;          /* -z number or -Z file name, verbatim */
	int64_t fsync;       /* -b: fsync after every write (boolean) */
	/* sysbench fileio */
	char *mode; /* seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw */
	int64_t threads;
	int64_t block_size_bytes;
	int64_t file_num;
	int64_t file_total_bytes;
	double rw_ratio;
	int64_t fsync_freq;
	int64_t fsync_all; /* boolean */
	int64_t fsync_end; /* boolean */
	char *fsync_mode;  /* fsync, fdatasync */
	char *io_mode;     /* sync, async, mmap */
	char *extra_flags; /* direct, sync, dsync; "" for none */
	/* zcav */
	int64_t block_mib;
	int64_t passes;
	int64_t skip; /* -s: every Nth block read */
	char *target; /* "device" (/dev/...) or "file" */
	/* fio, as its job options spell them */
	char *jobname;
	char *rw;
	char *bs;
	char *ioengine;
	int64_t iodepth;
	int64_t numjobs;
	char *size;
	/* O_DIRECT (boolean): fio's --direct=1, bonnie++'s -D, sysbench's
	 * --file-extra-flags=direct, dd's iflag/oflag=direct, bstore
	 * zcav's default; a parameter of every family that opens files so
	 * (its row in each, one field). */
	int64_t direct;
	/* dd */
	int64_t bytes;
	double seconds;
	int64_t bs_bytes;
	int64_t count;
	char *flags; /* iflag=, oflag=, conv= as given */
};

/* How a parameter is stored and printed. */
enum bs_pkind {
	BS_PK_INT,   /* int64_t */
	BS_PK_FSIZE, /* int64_t bytes, or BS_SIZE_LINK / BS_SIZE_SYMLINK */
	BS_PK_BOOL,  /* int64_t 0 or 1 */
	BS_PK_REAL,  /* double */
	BS_PK_TEXT,  /* char *, owned */
};

/* Room for the parameter table in per-parameter arrays. */
#define BS_P_MAX 64

/* Flags of a parameter. */
enum {
	/* Differs from run to run by design (a random seed): reports do not
	 * compare it. */
	BS_PF_NOCOMPARE = 1,
	/* Decides its family's numbers (a rule of bs_param_rules names
	 * it): a report's table of groups shows it. */
	BS_PF_DECIDES = 2,
	/* A number people sweep (threads, I/O depth, block size): a
	 * comparison --by it is a scaling view of its levels
	 * (docs/report.md, "Sweeps"). */
	BS_PF_SWEEP = 4,
};

/*
 * How a test identity (core/identity.h) reads a parameter's value, so that
 * what one output prints as "4k" and another as "4096B" is one value.
 */
enum bs_pnorm {
	BS_PN_AS_IS,  /* the value as stored */
	BS_PN_SIZE,   /* text sizes ("4k", "4096B", "4KiB", "1m": powers of
		       * 1024), lists ("4k,8k") and ranges ("4k-64k") of them,
		       * as bytes */
	BS_PN_WORDS,  /* words (open flags "sync,direct", dd's "oflag=direct
		       * conv=fdatasync"), sorted, without O_DIRECT's: direct
		       * is a parameter of its own */
	BS_PN_FIO_RW, /* fio's rw, its aliases as one ("readwrite" is "rw") */
};

struct bs_param_info {
	const char *key; /* JSON and export key: "file_size_mib" */
	size_t offset;   /* offsetof(struct bs_params, field) */
	enum bs_pkind kind;
	/* The column of runs that holds it (the bonnie family's fast
	 * path), or NULL: a row of run_params. */
	const char *column;
	const char *label; /* for people: "file size" */
	const char *unit;  /* "MiB", "bytes", "" */
	unsigned flags;    /* BS_PF_* */
	/* What the tool uses when it is not told (bonnie++'s -s chunk is
	 * 8192), for the integer kinds; BS_NONE when it has no default. */
	int64_t dflt;
	/* The largest value any run could have (core/param.c says how
	 * each was chosen), for the integer kinds and reals; BS_NONE for
	 * text. A parser rejects a line with more (docs/formats.md,
	 * "Limits"). */
	int64_t max;
	enum bs_pnorm norm; /* BS_PN_AS_IS unless the row says */
	/* Filled in by the catalogue from the family row that holds it. A
	 * key may be a parameter of several families ("direct", O_DIRECT,
	 * in every family that can open files so): one row in each, the
	 * same field of struct bs_params. */
	enum bs_family family;
};

/* Every family's parameters (core/family.h), family by family. */
extern const struct bs_param_info *const bs_param_table;
#define bs_nparams (bs_cat->nparams)

/*
 * Which parameters decide which metrics: the rules of a family row. A
 * rule with decides is part of the family's test identity
 * (core/identity.h): runs that differ in one of its parameters ran
 * different tests of the metrics first..last (sysbench's rndrw and
 * seqrd), and a report gives them no verdict and no summary ratio. A
 * rule without decides only earns a note where groups differ ("Total
 * file size differs: ...; rates depend on how much of the files the page
 * cache holds"). The parameters of one rule are shown together.
 */
struct bs_param_rule {
	const char *keys; /* parameter keys, joined with ',' */
	/* The metrics they affect: catalogue keys of the rule's family
	 * joined by ',', a range of consecutive rows "putc-seeks", or "*"
	 * for all of them (bs_param_rule_covers). */
	const char *metrics;
	const char *what, *why;
	int decides;  /* part of the test identity */
	int filespec; /* shown as bonnie++ spells -n */
	/* A tag holding the host's RAM in MiB ("host.ram_mib"), or NULL:
	 * a size parameter (bytes) under twice it gets a note, as the page
	 * cache may hold the files. */
	const char *ram_tag;
	/* Filled in by the catalogue from the family row that holds it. */
	enum bs_family family;
};

/* Every family's rules, family by family. */
extern const struct bs_param_rule *const bs_param_rules;
#define bs_nparam_rules (bs_cat->nrules)

/* The parameter rows a rule names (of the rule's family), into k[] (at
 * most max); their count. */
int bs_param_rule_keys(const struct bs_param_rule *r, int *k, int max);
/* Whether the rule is about catalogue row m (a metric of its family). */
int bs_param_rule_covers(const struct bs_param_rule *r, int m);

/* The parameter of family f with this key, or -1. */
int bs_param_find_in(enum bs_family f, const char *key);
/* The first parameter of any family with this key, or -1: for keys of
 * one family only (a key several families share, "direct", needs
 * bs_param_find_in). */
int bs_param_find(const char *key);

/* The row of the field at offset (offsetof(struct bs_params, f)), or
 * -1. */
int bs_param_at(size_t offset);
/*
 * Whether v is a value parameter i may hold: 0 to its max (0 or 1 for a
 * boolean; a BS_SIZE_* too for a file size). bs_param_fits_real is the
 * same for the reals.
 */
int bs_param_fits(int i, int64_t v);
int bs_param_fits_real(int i, double v);

/* The field behind row i; the kind says which of these applies. */
int64_t *bs_param_i64(struct bs_params *p, int i);
double *bs_param_real(struct bs_params *p, int i);
char **bs_param_text(struct bs_params *p, int i);
int64_t bs_param_get_i64(const struct bs_params *p, int i);
double bs_param_get_real(const struct bs_params *p, int i);
const char *bs_param_get_text(const struct bs_params *p, int i);
/*
 * Sets parameter i of p from text as a person or a program's arguments
 * spell it: integers in decimal, those counted in bytes with a k, m, g
 * or t suffix too ("16K"), booleans as 0/1, on/off, yes/no or
 * true/false, text as it is. Returns 0, or -BS_EPARSE with err saying
 * why the text cannot be one of i's values (p unchanged).
 */
int bs_param_set_text(struct bs_params *p, int i, const char *text,
		      struct bs_err *err);
/* Whether parameter i has a value. */
int bs_param_known(const struct bs_params *p, int i);

/* Sets every parameter unknown. */
void bs_params_init(struct bs_params *p);
/* Sets the parameters of family f that have a default to it. */
void bs_params_defaults(struct bs_params *p, enum bs_family f);
/* The default of the parameter with this key (BS_NONE when none). */
int64_t bs_param_default(const char *key);
/* Frees the text and sets every parameter unknown. */
void bs_params_release(struct bs_params *p);
/*
 * Makes dst a copy of src, walking the table: numbers are copied, text is
 * duplicated (dst's old text is freed). dst must be initialised
 * (bs_params_init) or hold values already.
 */
void bs_params_copy(struct bs_params *dst, const struct bs_params *src);

/*
 * Appends parameter i's value for people: "4096", "link", "1.50", "on",
 * the text; nothing when unknown. Units are not added.
 */
void bs_param_format(const struct bs_params *p, int i, struct bs_buf *out);
/*
 * Appends parameter i as bstore show and bstore site print it: the value
 * with its unit ("4096 B"), a file size of links as "link (hard links)",
 * "unknown" when unknown.
 */
void bs_param_describe(const struct bs_params *p, int i, struct bs_buf *out);
/* Appends parameter i as a JSON value: number, string, true/false, null. */
void bs_param_json(const struct bs_params *p, int i, struct bs_buf *out);

#endif
