/*
 * cli/opt.c - the walker of the option tables (cli/opt.h): getopt_long's
 * inputs made from a command's rows, its errors said in bstore's form,
 * the --help text and the synopsis.
 */
#include <assert.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "cli/msg.h"
#include "cli/opt.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

/* Every command's -h/--help: the walker answers it. */
static const struct bs_opt help_row = {'h',         "help", NULL, 0, NULL, 0,
				       "this help", NULL,   0,    0, 0};

/* Every command's -q/--quiet, as bstore -q before it, where the command
 * has no -q of its own (bstore run's is bonnie++'s -q): people put it
 * after the command too. The walker sets cli->quiet. */
/* clang-format off */
static const struct bs_opt quiet_row = {
	'q', "quiet", NULL, 0, NULL, 0,
	"no progress or summaries (as 'bstore -q COMMAND')", NULL, 0, 0, 0};
/* clang-format on */

/* Help lines are wrapped to this width. */
#define HELP_WIDTH 78
/* Long options' getopt values: 256 + the row's index. */
#define LONG_VAL 256

static int is_end(const struct bs_opt *o)
{
	return o->set == NULL && o->help == NULL;
}

static int is_heading(const struct bs_opt *o)
{
	return o->set == NULL && o->help != NULL && o != &help_row &&
	       o != &quiet_row;
}

/* The rows of cmd, more()'s and --help's included, in order. */
struct rows {
	const struct bs_opt **row;
	size_t n, cap;
};

static void add_rows(struct rows *r, const struct bs_opt *t)
{
	for (; t && !is_end(t); t++) {
		xgrow((void **)&r->row, &r->cap, r->n + 1, sizeof(*r->row));
		r->row[r->n++] = t;
	}
}

static void get_rows(const struct bs_opt_cmd *cmd, struct rows *r)
{
	size_t i, k;

	memset(r, 0, sizeof(*r));
	add_rows(r, cmd->opts);
	if (cmd->more)
		add_rows(r, cmd->more());
	for (i = 0, k = 0; i < r->n; i++)
		if (r->row[i]->short_name == 'q' ||
		    (r->row[i]->long_name &&
		     strcmp(r->row[i]->long_name, "quiet") == 0))
			k = 1;
	/* bstore's own table (main.c) has it as a row: commands' only. */
	if (!k && !(cmd->flags & BS_OPT_CMD_FIRST)) {
		xgrow((void **)&r->row, &r->cap, r->n + 1, sizeof(*r->row));
		r->row[r->n++] = &quiet_row;
	}
	xgrow((void **)&r->row, &r->cap, r->n + 1, sizeof(*r->row));
	r->row[r->n++] = &help_row;
	/* Two rows of one name would make one of them dead. */
	for (i = 0; i < r->n; i++)
		for (k = i + 1; k < r->n; k++) {
			assert(!r->row[i]->short_name ||
			       r->row[i]->short_name != r->row[k]->short_name);
			assert(!r->row[i]->long_name || !r->row[k]->long_name ||
			       strcmp(r->row[i]->long_name,
				      r->row[k]->long_name) != 0);
		}
}

void bs_opt_each(const struct bs_opt_cmd *cmd,
		 void (*fn)(const struct bs_opt *o, void *ctx), void *ctx)
{
	struct rows r;
	size_t i;

	get_rows(cmd, &r);
	for (i = 0; i < r.n; i++)
		fn(r.row[i], ctx);
	free(r.row);
}

/* The long option that arg ("--name" or "--name=value") names, if any. */
static const struct option *long_option(const struct option *opts,
					const char *arg, size_t n)
{
	const struct option *o, *found = NULL;

	for (o = opts; o->name; o++) {
		if (strncmp(o->name, arg + 2, n - 2) != 0)
			continue;
		if (strlen(o->name) == n - 2)
			return o;
		found = found ? NULL : o; /* an abbreviation, if unique */
	}
	return found;
}

int bs_cli_bad_option(const struct bs_cli *cli, char **argv,
		      const char *shortopts, const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	/* A long option's val is no character of shortopts. */
	const char *o = optopt > 0 && optopt < LONG_VAL
				? strchr(shortopts, optopt)
				: NULL;
	const struct option *lo = NULL;
	int n = (int)strcspn(arg, "="); /* name the option, not its value */

	if (strncmp(arg, "--", 2) == 0 && n > 2)
		lo = long_option(longopts, arg, (size_t)n);
	/* glibc: optopt is 0 for an unknown long option; otherwise it is the
	 * short option, or the long option's val, whose argument is wrong.
	 * In "-jx", argv[optind - 1] is still the element before. */
	if (optopt == 0) {
		char q[BS_CLI_QUOTE_SIZE], *name = xstrndup(arg, (size_t)n);

		bs_cli_quote(q, name);
		free(name);
		return bs_cli_usage_error(cli, "unknown option '%s'", q);
	}
	if (lo && lo->val == optopt) {
		if (arg[n] == '=')
			return bs_cli_usage_error(
				cli, "option '%.*s' takes no argument", n, arg);
		return bs_cli_usage_error(cli, "option '%s' needs an argument",
					  arg);
	}
	if (o && o[1] == ':')
		return bs_cli_usage_error(cli, "option '-%c' needs an argument",
					  optopt);
	return bs_cli_usage_error(cli, "unknown option '-%c'", optopt);
}

enum bs_opt_next bs_opt_parse(struct bs_cli *cli, const struct bs_opt_cmd *cmd,
			      int argc, char **argv, void *args,
			      bs_opt_seen_fn seen, int *status)
{
	struct rows r;
	struct bs_buf shortopts = BS_BUF_INIT;
	struct option *longopts;
	const struct bs_opt *o;
	size_t i, n = 0;
	int c, rc = -1;

	get_rows(cmd, &r);
	longopts = xcalloc(r.n + 1, sizeof(*longopts));
	/* ':' first: a missing argument is told from an unknown option. */
	bs_buf_adds(&shortopts, cmd->flags & BS_OPT_CMD_FIRST ? "+:" : ":");
	for (i = 0; i < r.n; i++) {
		o = r.row[i];
		if (o->short_name) {
			bs_buf_addc(&shortopts, (char)o->short_name);
			if (o->arg)
				bs_buf_adds(&shortopts, o->flags & BS_OPT_OPTARG
								? "::"
								: ":");
		}
		if (o->long_name)
			longopts[n++] =
				(struct option){o->long_name,
						!o->arg ? no_argument
						: o->flags & BS_OPT_OPTARG
							? optional_argument
							: required_argument,
						NULL,
						o->short_name
							? o->short_name
							: LONG_VAL + (int)i};
	}
	opterr = 0; /* bs_cli_bad_option() says what is wrong */
	while (rc < 0 && (c = getopt_long(argc, argv, bs_buf_str(&shortopts),
					  longopts, NULL)) != -1) {
		o = NULL;
		if (c >= LONG_VAL && (size_t)(c - LONG_VAL) < r.n)
			o = r.row[c - LONG_VAL];
		for (i = 0; o == NULL && c != '?' && c != ':' && i < r.n; i++)
			if (r.row[i]->short_name == c)
				o = r.row[i];
		if (o == NULL) {
			rc = bs_cli_bad_option(cli, argv,
					       bs_buf_str(&shortopts),
					       longopts);
		} else if (o == &help_row) {
			bs_opt_help(stdout, cmd);
			rc = BS_EXIT_OK;
		} else if (o == &quiet_row) {
			cli->quiet = 1;
		} else {
			assert(o->set != NULL);
			rc = o->set(cli, o, optarg, (char *)args + o->offset);
			if (rc == 0) {
				if (seen)
					seen(args, o, optarg);
				rc = -1;
			}
		}
	}
	free(longopts);
	free(r.row);
	bs_buf_release(&shortopts);
	*status = rc < 0 ? BS_EXIT_OK : rc;
	return rc < 0 ? BS_OPT_GO_ON : BS_OPT_EXIT;
}

/* ---- the setters of plain rows ------------------------------------ */

/* The option as the user would type it: "--noise", or "-c". */
static const char *opt_name(const struct bs_opt *o, char *buf, size_t size)
{
	if (o->long_name)
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
	return buf;
}

int bs_opt_flag(const struct bs_cli *cli, const struct bs_opt *o,
		const char *arg, void *field)
{
	(void)cli;
	(void)o;
	(void)arg;
	*(int *)field = 1;
	return 0;
}

int bs_opt_str(const struct bs_cli *cli, const struct bs_opt *o,
	       const char *arg, void *field)
{
	(void)cli;
	(void)o;
	*(const char **)field = arg;
	return 0;
}

/* "expected a whole number from 1 to 20, got 'x'": the one message of a
 * number out of its row's range. */
static int bad_number(const struct bs_cli *cli, const struct bs_opt *o,
		      const char *arg, int whole)
{
	char name[64], q[BS_CLI_QUOTE_SIZE], range[96];

	if (o->max >= 18446744073709551615.0)
		snprintf(range, sizeof(range), "%s%.15g",
			 o->min > 0 ? " from " : "", o->min);
	else
		snprintf(range, sizeof(range), " from %.15g to %.15g", o->min,
			 o->max);
	if (o->max >= 18446744073709551615.0 && o->min <= 0)
		range[0] = '\0';
	return bs_cli_usage_error(cli, "%s: expected a %snumber%s, got '%s'",
				  opt_name(o, name, sizeof(name)),
				  whole ? "whole " : "", range,
				  bs_cli_quote(q, arg));
}

int bs_opt_u64(const struct bs_cli *cli, const struct bs_opt *o,
	       const char *arg, void *field)
{
	uint64_t v;

	if (bs_parse_u64(arg, strlen(arg), &v) < 0 || (double)v < o->min ||
	    (double)v > o->max)
		return bad_number(cli, o, arg, 1);
	*(uint64_t *)field = v;
	return 0;
}

int bs_opt_i64(const struct bs_cli *cli, const struct bs_opt *o,
	       const char *arg, void *field)
{
	uint64_t v;

	assert(o->min >= 0 && o->max <= 9223372036854775807.0);
	if (bs_parse_u64(arg, strlen(arg), &v) < 0 || (double)v < o->min ||
	    (double)v > o->max)
		return bad_number(cli, o, arg, 1);
	*(int64_t *)field = (int64_t)v;
	return 0;
}

int bs_opt_real(const struct bs_cli *cli, const struct bs_opt *o,
		const char *arg, void *field)
{
	double v;

	if (bs_parse_double(arg, strlen(arg), &v) < 0 ||
	    !(v >= o->min && v <= o->max))
		return bad_number(cli, o, arg, 0);
	*(double *)field = v;
	return 0;
}

/* ---- --help -------------------------------------------------------- */

void bs_opt_names(const struct bs_opt *o, struct bs_buf *out)
{
	const char *sep = o->flags & BS_OPT_EQ ? "=" : " ";

	if (o->short_name) {
		bs_buf_addf(out, "-%c", o->short_name);
		if (o->long_name)
			bs_buf_adds(out, ", ");
		else if (o->arg && (o->flags & BS_OPT_OPTARG))
			bs_buf_addf(out, "[%s]", o->arg);
		else if (o->arg)
			bs_buf_addf(out, " %s", o->arg);
	}
	if (o->long_name) {
		bs_buf_addf(out, "--%s", o->long_name);
		if (o->arg && (o->flags & BS_OPT_OPTARG) &&
		    !(o->flags & BS_OPT_EQ))
			bs_buf_addf(out, "[=%s]", o->arg);
		else if (o->arg)
			bs_buf_addf(out, "%s%s", sep, o->arg);
	}
}

void bs_opt_help_text(const struct bs_opt *o, struct bs_buf *out)
{
	bs_buf_adds(out, o->help ? o->help : "");
	if (o->dflt)
		bs_buf_addf(out, " (default: %s)",
			    o->dflt[0] ? o->dflt : "none");
}

/*
 * text wrapped into out, its first line going on from column col (the
 * caller wrote that far), every other one indented to indent; '\n'
 * breaks a line.
 */
static void wrap(struct bs_buf *out, const char *text, size_t col,
		 size_t indent)
{
	const char *p = text;
	int first = 1;

	while (*p) {
		size_t n;

		if (*p == '\n') {
			bs_buf_addf(out, "\n%*s", (int)indent, "");
			col = indent;
			first = 1;
			p++;
			continue;
		}
		if (*p == ' ') {
			p++;
			continue;
		}
		n = strcspn(p, " \n");
		if (!first && col + 1 + n > HELP_WIDTH) {
			bs_buf_addf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			bs_buf_addc(out, ' ');
			col++;
		}
		bs_buf_add(out, p, n);
		col += n;
		first = 0;
		p += n;
	}
	bs_buf_addc(out, '\n');
}

/* Whether long-only rows of the group from row i are indented to line
 * up with "-x, --long" ones. */
static int group_indent(const struct rows *r, size_t i)
{
	for (; i < r->n && !is_heading(r->row[i]); i++)
		if (r->row[i] != &help_row && r->row[i]->short_name &&
		    r->row[i]->long_name)
			return 1;
	return 0;
}

/* The help column of the group from row i: past the widest left side
 * of at most col_max columns. */
static size_t group_col(const struct rows *r, size_t i, size_t col_max,
			int indent)
{
	struct bs_buf b = BS_BUF_INIT;
	size_t w = 0, len;

	for (; i < r->n && !is_heading(r->row[i]); i++) {
		bs_buf_reset(&b);
		bs_opt_names(r->row[i], &b);
		len = b.len + (indent && !r->row[i]->short_name ? 4 : 0);
		if (len <= col_max && len > w)
			w = len;
	}
	bs_buf_release(&b);
	return 2 + w + 2;
}

void bs_opt_usage(const struct bs_opt_cmd *cmd, struct bs_buf *out)
{
	struct rows r;
	struct bs_buf opts = BS_BUF_INIT, one = BS_BUF_INIT;
	const char *p = cmd->usage, *at;
	size_t i, k;

	get_rows(cmd, &r);
	for (i = 0; i < r.n; i++) {
		const struct bs_opt *o = r.row[i];

		if (is_heading(o) || o == &help_row)
			continue;
		bs_buf_reset(&one);
		if (o->short_name) {
			struct bs_opt s = *o;

			s.long_name = NULL;
			bs_opt_names(&s, &one);
		} else {
			bs_opt_names(o, &one);
		}
		/* One item is never broken across lines: its blanks are
		 * NBSP until wrapped (bs_opt_help, cli/man.c). */
		for (k = 0; k < one.len; k++)
			if (one.data[k] == ' ')
				one.data[k] = BS_OPT_NBSP;
		bs_buf_addf(&opts, "%s[%s]%s", opts.len ? " " : "",
			    bs_buf_str(&one),
			    o->flags & BS_OPT_MULTI ? "..." : "");
	}
	while ((at = strstr(p, "@OPTS@")) != NULL) {
		bs_buf_add(out, p, (size_t)(at - p));
		bs_buf_adds(out, bs_buf_str(&opts));
		p = at + strlen("@OPTS@");
	}
	bs_buf_adds(out, p);
	free(r.row);
	bs_buf_release(&opts);
	bs_buf_release(&one);
}

void bs_opt_help(FILE *f, const struct bs_opt_cmd *cmd)
{
	struct bs_buf out = BS_BUF_INIT, usage = BS_BUF_INIT,
		      left = BS_BUF_INIT;
	struct rows r;
	const char *p;
	size_t i, k, col = 0, lead;
	int indent = 0, nex = 0;

	/* Usage: each synopsis line, wrapped under its first word. */
	bs_opt_usage(cmd, &usage);
	for (p = bs_buf_str(&usage), i = 0; *p; i++) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);

		bs_buf_addf(&out, "%s bstore %s%s",
			    i ? "      " : "Usage:", cmd->name,
			    cmd->name[0] ? " " : "");
		lead = strlen("Usage: bstore ") + strlen(cmd->name) +
		       (cmd->name[0] ? 1 : 0);
		wrap(&out, line, lead, lead);
		free(line);
		for (k = 0; k < out.len; k++)
			if (out.data[k] == BS_OPT_NBSP)
				out.data[k] = ' ';
		p += n + (p[n] == '\n');
	}
	if (cmd->about)
		bs_buf_addf(&out, "\n%s", cmd->about);
	get_rows(cmd, &r);
	for (i = 0; i < r.n; i++) {
		const struct bs_opt *o = r.row[i];

		if (i == 0 || is_heading(o)) {
			bs_buf_addf(&out, "\n%s\n",
				    is_heading(o) ? o->help : "Options:");
			indent = group_indent(&r, is_heading(o) ? i + 1 : i);
			col = group_col(&r, is_heading(o) ? i + 1 : i,
					cmd->col_max ? cmd->col_max : 20,
					indent);
			if (is_heading(o))
				continue;
		}
		bs_buf_reset(&left);
		bs_buf_addf(&left, "  %s",
			    indent && !o->short_name ? "    " : "");
		bs_opt_names(o, &left);
		bs_buf_adds(&out, bs_buf_str(&left));
		if (left.len + 2 > col) {
			bs_buf_addf(&out, "\n%*s", (int)col, "");
		} else {
			bs_buf_addf(&out, "%*s", (int)(col - left.len), "");
		}
		bs_buf_reset(&left);
		bs_opt_help_text(o, &left);
		wrap(&out, bs_buf_str(&left), col, col);
	}
	if (cmd->after)
		bs_buf_addf(&out, "\n%s", cmd->after);
	for (p = cmd->examples; p && *p; p += strcspn(p, "\n"), p += *p == '\n')
		nex++;
	if (nex)
		bs_buf_addf(&out, "\n%s:\n", nex > 1 ? "Examples" : "Example");
	for (p = cmd->examples; p && *p;) {
		size_t n = strcspn(p, "\n");

		bs_buf_addf(&out, "  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	bs_cli_help(f, bs_buf_str(&out));
	free(r.row);
	bs_buf_release(&out);
	bs_buf_release(&usage);
	bs_buf_release(&left);
}
