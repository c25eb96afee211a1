/*
 * core/family.h - the family table: one row per tool family (bonnie++ and
 * its kin, sysbench fileio, zcav, fio, dd, getc_putc), the home of
 * everything bstore knows about the family. A row is written field by
 * field in core/families/NAME.c and links, by pointer, its metrics
 * (core/metric.h), its parameters and the rules on which of them decide
 * its numbers (core/param.h), its dialects (core/dialect.h: the formats
 * runs.format names), the implementations that produce its runs (a tool,
 * or bstore's own engine), which metrics two implementations measure
 * alike, and which metrics of another family measure alike too (dd's
 * write rate and bonnie++'s block write).
 *
 * The catalogues the rest of the code indexes (bs_metrics[],
 * bs_param_table[], bs_param_rules[], bs_dialects[]) are read from the
 * rows when the program starts (core/family.c): the family's rows in
 * order, each row's family filled in. Adding a family is adding its row
 * (a file in core/families/ and an entry of bs_family_rows[]) and its
 * parser (ingest/formats.c); a run's test identity (core/identity.h)
 * comes from the row alone.
 */
#ifndef BS_CORE_FAMILY_H
#define BS_CORE_FAMILY_H

#include <stddef.h>

/*
 * Tool families: which metrics and parameters a run can have. Stored by
 * name (runs.family); a bstore that meets a name it does not know refuses
 * the run ("unknown tool family"). Adding a family therefore bumps the
 * schema version (store/store.h's BS_SCHEMA_VERSION), so that an older
 * bstore refuses the whole archive as newer instead of failing on its
 * runs one by one. Adding a metric or a parameter to a family does not:
 * an older bstore ignores the rows it does not know.
 */
enum bs_family {
	BS_FAM_BONNIE,    /* Bonnie, bonnie++ and bstore run */
	BS_FAM_SYSBENCH,  /* sysbench fileio and bstore fileio */
	BS_FAM_ZCAV,      /* zcav and bstore zcav */
	BS_FAM_FIO,       /* fio, one run per job */
	BS_FAM_DD,        /* dd's summary line */
	BS_FAM_GETC_PUTC, /* bonnie++'s getc_putc */
	BS_FAM_BUILTIN    /* the families above; a program may add one more
			   * (bs_family_extra below) */
};

/* Room for families in arrays indexed by one; BS_FAM_COUNT are used. */
#define BS_FAM_MAX 8
#define BS_FAM_COUNT (bs_cat->nfamilies)
/* Whether f is a family of this program. */
#define bs_family_ok(f) ((unsigned)(f) < (unsigned)bs_cat->nfamilies)

/*
 * A program's own family, after the built-in ones: a weak symbol that a
 * program (tests/family's bstore_toy, a made-up tool) defines to add its
 * row, as bs_format_extra (ingest/format.h) adds its parser. bstore
 * itself defines neither.
 */
extern const struct bs_family_info bs_family_extra __attribute__((weak));

struct bs_metric_info;
struct bs_param_info;
struct bs_param_rule;
struct bs_dialect;

/*
 * An implementation: what produced a run of the family, as people name
 * it ("bonnie++", "bstore run"). Two implementations of one family
 * measure their tests their own ways; a report compares them only on
 * the metrics a row of the family's equivalences declares alike.
 */
struct bs_impl {
	const char *name; /* "bstore run": selectors' impl=, labels */
	const char *tool; /* runs.tool of the runs it writes: "bstore" */
	/* Method parameters it always has, "KEY=VALUE" joined by ',', or
	 * NULL: Tim Bray's Bonnie and zcav read through the page cache
	 * ("direct=0"), whatever their output says. */
	const char *fixed;
};

/*
 * Metrics two implementations of the family measure alike (compared with
 * verdicts), when both runs' method parameters are as when says; their
 * other metrics are related only (shown side by side, no verdict).
 */
struct bs_equiv {
	const char *a, *b;   /* implementation names, either order */
	const char *when;    /* "direct=1", or NULL: whatever the methods */
	const char *metrics; /* catalogue keys joined by ',', or "*": all */
	const char *why;     /* how they differ elsewhere, for the note */
};

/*
 * A metric of another family that measures what one of this family's
 * does, in the same unit: dd's write rate and bonnie++'s block write. A
 * report that holds runs of both shows a group that lacks this family's
 * number with the other's in its row, as related (never a verdict).
 */
struct bs_related {
	const char *key;      /* this family's metric: "put_block" */
	enum bs_family from;  /* the other family */
	const char *from_key; /* its metric: "write_kib_s" */
	const char *why;      /* how the two tests differ */
};

/*
 * A program `bstore exec` runs (cli/cmd_exec.c), and what its arguments
 * say that its output may not: the file, directory or device it works
 * on (whose host facts are probed) and parameters (fio's --direct=1,
 * bonnie++'s -D). One row an argument; the first that matches wins.
 */
enum {
	BS_XA_ARG = 1,  /* takes a value: "-d DIR", "-dDIR", "--x=V",
			 * "--x V"; a name ending in '=' is an operand's key
			 * (dd's "of=") whose value follows it */
	BS_XA_PATH = 2, /* the value names what the program works on */
	BS_XA_WORD = 4, /* param is set to value when the argument's
			 * comma-separated words hold word (dd's
			 * oflag=direct) */
};
struct bs_exec_arg {
	const char *name;  /* "-d", "--directory", "of="; NULL: the last
			    * operand (zcav's device) */
	unsigned flags;    /* BS_XA_* */
	const char *param; /* the parameter it gives, or NULL */
	const char *value; /* a flag's value ("1"); NULL: the argument's;
			    * with BS_XA_WORD, the value set */
	const char *word;  /* BS_XA_WORD: the word looked for */
};
struct bs_exec_prog {
	const char *program; /* the name TOOL is called by: "bonnie++" */
	const struct bs_exec_arg *args;
	int nargs;
	/* The parameters of the flags among args not given: bonnie++ with
	 * no -D ran buffered. Their name is the flag's, their value the
	 * value without it. */
	const struct bs_exec_arg *absent;
	int nabsent;
};

/*
 * A word of a test's name (bs_ident_names, core/identity.h): the value of
 * deciding parameter key in fmt's words, "%s" the value as
 * bs_ident_val_text says it ("%s threads": "4 threads"); a boolean's fmt
 * has no "%s" and is said when the value is on ("-D"). The words follow
 * the implementation's name in the order of the rows: "sysbench rndrw,
 * 4 threads", "bonnie++ -D".
 */
struct bs_title_word {
	const char *key;
	const char *fmt;
};

/*
 * Metrics a test does not measure though its tool prints them: a run
 * whose parameter key is one of values (joined by ',', as identity reads
 * them) prints 0 for each of metrics (catalogue keys joined by ','),
 * which is absent, not 0 (sysbench's seqwr prints "read, MiB/s: 0.00").
 * Trends and the site draw no point of them (bs_ident_measures).
 */
struct bs_unmeasured {
	const char *key;
	const char *values;
	const char *metrics;
};

/* Flags of a family row. */
enum {
	/* Its parameters and bonnie++'s twelve tests live in the runs
	 * table's own columns (schema.sql; the metric and parameter rows
	 * that have a column say so), not in run_params and run_results. */
	BS_FAMF_COLUMNS = 1,
};

struct bs_family_info {
	const char *name;  /* runs.family: "bonnie" */
	const char *label; /* for people: "bonnie++, Bonnie, bstore run" */
	unsigned flags;    /* BS_FAMF_* */
	const struct bs_metric_info *metrics;
	int nmetrics;
	const struct bs_param_info *params;
	int nparams;
	/* Which parameters decide which metrics (identity: core/identity.h),
	 * and which only earn a note. */
	const struct bs_param_rule *rules;
	int nrules;
	const struct bs_dialect *dialects;
	int ndialects;
	const struct bs_impl *impls;
	int nimpls;
	const struct bs_equiv *equiv;
	int nequiv;
	const struct bs_related *related;
	int nrelated;
	/* The WRITE and READ columns of `bstore list`: the family's
	 * sequential write and read rates (catalogue keys). */
	const char *list_write, *list_read;
	/* The programs bstore exec runs for the family. */
	const struct bs_exec_prog *progs;
	int nprogs;
	/* The words of its tests' names, and what its tests do not
	 * measure. */
	const struct bs_title_word *title;
	int ntitle;
	const struct bs_unmeasured *unmeasured;
	int nunmeasured;
};

/* The row of family f (bs_family_ok(f)). */
const struct bs_family_info *bs_family(enum bs_family f);

/*
 * The program row bstore exec knows as program (a basename: "fio"), its
 * family in *f; NULL when no family runs it.
 */
const struct bs_exec_prog *bs_exec_prog_find(const char *program,
					     enum bs_family *f /* OUT */);

/* "bonnie", "sysbench", ...: as stored in runs.family; "?" for no
 * family. */
const char *bs_family_name(enum bs_family f);
/* Parses a family name; returns 0, or -BS_EINVAL when unknown (the
 * caller, which knows where the name came from, words it). */
int bs_family_parse(const char *s, enum bs_family *out);

/*
 * The implementation of family f with this name, or with this tool
 * (runs.tool) when name is NULL; NULL when none.
 */
const struct bs_impl *bs_family_impl(enum bs_family f, const char *name,
				     const char *tool);

/* The counts of the catalogues read from the rows (core/family.c). */
struct bs_catalogue {
	int nfamilies, nmetrics, nparams, nrules, ndialects;
	/* Each family's first row in bs_metrics[], bs_param_table[],
	 * bs_param_rules[] and bs_dialects[]; its rows follow. */
	int metric0[BS_FAM_MAX], param0[BS_FAM_MAX];
	int rule0[BS_FAM_MAX], dialect0[BS_FAM_MAX];
};
extern const struct bs_catalogue *const bs_cat;

#endif
