/*
 * cli/man.c - the bstore(1) man page in roff, made from bstore's and the
 * commands' option tables and texts (cli/man.h): `bstore --man`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "cli/man.h"
#include "cli/opt.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/banned.h"

/*
 * n bytes of text as roff: '\' is \e, '-' is \- (an option is typed as
 * printed), an item of a synopsis keeps its blanks (\ ), and a line that
 * would start with a control character ('.' or '\'') starts with \&.
 */
static void esc(struct bs_buf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i == 0 && (s[0] == '.' || s[0] == '\''))
			bs_buf_adds(out, "\\&");
		if (s[i] == '\\')
			bs_buf_adds(out, "\\e");
		else if (s[i] == '-')
			bs_buf_adds(out, "\\-");
		else if (s[i] == BS_OPT_NBSP)
			bs_buf_adds(out, "\\ ");
		else
			bs_buf_addc(out, s[i]);
	}
}

static void esc_line(struct bs_buf *out, const char *s)
{
	esc(out, s, strlen(s));
	bs_buf_addc(out, '\n');
}

/*
 * A --help text as roff, bstore's lists filled in: a blank line starts a
 * paragraph, plain lines are filled, indented ones (a table, a list) are
 * kept as they are.
 */
static void text(struct bs_buf *out, const char *t)
{
	struct bs_buf b = BS_BUF_INIT, u = BS_BUF_INIT;
	const char *p, *at;
	int nf = 0, para = 1;

	/* The selector language is the page's SELECTORS section, once. */
	while ((at = strstr(t, "@SELECTORS@\n")) != NULL) {
		bs_buf_add(&u, t, (size_t)(at - t));
		bs_buf_adds(&u, "Selectors: see SELECTORS below.\n");
		t = at + strlen("@SELECTORS@\n");
	}
	bs_buf_adds(&u, t);
	bs_cli_help_buf(bs_buf_str(&u), &b);
	bs_buf_release(&u);
	for (p = bs_buf_str(&b); *p;) {
		size_t n = strcspn(p, "\n");

		if (n == 0) {
			para = 1;
		} else {
			if (para && nf)
				bs_buf_adds(out, ".fi\n");
			if (para) {
				bs_buf_adds(out, ".PP\n");
				nf = 0;
			}
			para = 0;
			if (p[0] == ' ' && !nf)
				bs_buf_adds(out, ".nf\n");
			else if (p[0] != ' ' && nf)
				bs_buf_adds(out, ".fi\n");
			nf = p[0] == ' ';
			esc(out, p, n);
			bs_buf_addc(out, '\n');
		}
		p += n + (p[n] == '\n');
	}
	if (nf)
		bs_buf_adds(out, ".fi\n");
	bs_buf_release(&b);
}

/* A row's names as roff: \fB\-f\fR, \fB\-\-format\fR \fIFMT\fR. */
static void names(struct bs_buf *out, const struct bs_opt *o)
{
	const char *sep = o->flags & BS_OPT_EQ ? "=" : " ";
	int opt = (o->flags & BS_OPT_OPTARG) != 0;

	if (o->short_name) {
		bs_buf_addf(out, "\\fB\\-%c\\fR", o->short_name);
		if (o->long_name)
			bs_buf_adds(out, ", ");
		else if (o->arg) {
			bs_buf_adds(out, opt ? "[\\fI" : " \\fI");
			esc(out, o->arg, strlen(o->arg));
			bs_buf_adds(out, opt ? "\\fR]" : "\\fR");
		}
	}
	if (o->long_name) {
		bs_buf_adds(out, "\\fB\\-\\-");
		esc(out, o->long_name, strlen(o->long_name));
		bs_buf_adds(out, "\\fR");
		if (o->arg) {
			opt = opt && !(o->flags & BS_OPT_EQ);
			bs_buf_addf(out, "%s\\fI", opt ? "[=" : sep);
			esc(out, o->arg, strlen(o->arg));
			bs_buf_adds(out, opt ? "\\fR]" : "\\fR");
		}
	}
	bs_buf_addc(out, '\n');
}

/* One row: .TP, its names, its help (a line of its own on each '\n'). */
static void row(const struct bs_opt *o, void *ctx)
{
	struct bs_buf *out = ctx;
	struct bs_buf h = BS_BUF_INIT, x = BS_BUF_INIT;
	const char *p;

	if (o->set == NULL && o->short_name == 0 && o->long_name == NULL) {
		/* A heading: its rows follow under it. */
		bs_buf_adds(out, ".PP\n");
		esc_line(out, o->help);
		return;
	}
	bs_buf_adds(out, ".TP\n");
	names(out, o);
	bs_opt_help_text(o, &h);
	/* A line of the help is a roff line (filled), its lists filled in;
	 * '\n' in the help is a break. */
	for (p = bs_buf_str(&h); *p;) {
		size_t n = strcspn(p, "\n"), k;
		char *seg = xstrndup(p, n);

		bs_buf_reset(&x);
		bs_cli_help_buf(seg, &x);
		free(seg);
		for (k = 0; k < x.len; k++)
			if (x.data[k] == '\n')
				x.data[k] = ' ';
		seg = x.data + strspn(x.data, " ");
		esc(out, seg, strlen(seg));
		bs_buf_addc(out, '\n');
		p += n + (p[n] == '\n');
		if (*p)
			bs_buf_adds(out, ".br\n");
	}
	bs_buf_release(&h);
	bs_buf_release(&x);
}

/* Each synopsis line of cmd after "bstore NAME". */
static void synopsis(struct bs_buf *out, const struct bs_opt_cmd *cmd)
{
	struct bs_buf u = BS_BUF_INIT;
	const char *p;

	bs_opt_usage(cmd, &u);
	for (p = bs_buf_str(&u); *p;) {
		size_t n = strcspn(p, "\n");

		bs_buf_adds(out, "\\fBbstore\\fR");
		if (cmd->name[0])
			bs_buf_addf(out, " \\fB%s\\fR", cmd->name);
		bs_buf_addc(out, ' ');
		esc(out, p, n);
		bs_buf_addc(out, '\n');
		p += n + (p[n] == '\n');
		if (*p)
			bs_buf_adds(out, ".br\n");
	}
	bs_buf_release(&u);
}

static void command(struct bs_buf *out, const struct bs_opt_cmd *cmd)
{
	bs_buf_addf(out, ".SS %s\n", cmd->name);
	esc_line(out, cmd->summary);
	bs_buf_adds(out, ".PP\n");
	synopsis(out, cmd);
	if (cmd->about)
		text(out, cmd->about);
	if (!cmd->opts || cmd->opts[0].set != NULL || cmd->opts[0].short_name ||
	    cmd->opts[0].long_name || cmd->opts[0].help == NULL)
		bs_buf_adds(out, ".PP\nOptions:\n");
	bs_opt_each(cmd, row, out);
	if (cmd->after)
		text(out, cmd->after);
}

/* clang-format off */
static const char description[] =
"bstore keeps every disk and file-system benchmark result in one archive,\n"
"a SQLite file (--db), and compares them. It reads what the tools\n"
"print (bstore ingest): bonnie++ CSV lines of every version and its text\n"
"tables, Tim Bray's Bonnie, sysbench fileio, zcav, fio, dd and getc_putc,\n"
"alone or inside captured output, mails and pasted text; it stores each\n"
"run once, with its original text, and keeps what it could not read.\n"
"It measures too (bstore run, bstore fileio, bstore zcav), storing each\n"
"run with the host's facts as host.* tags.\n"
"\n"
"Runs are chosen by selectors (an id, a range, last, KEY=VALUE on the\n"
"machine, tool, date or a tag: SELECTORS below) and\n"
"compared side by side (bstore report, bstore compare) or over time\n"
"(bstore trend): diffs, ratios and a verdict that says better or worse\n"
"only for a significant change past the noise threshold, as text, HTML,\n"
"CSV or JSON. The same archive and command give the same bytes.\n";

static const char sections[] =
".SH \"EXIT STATUS\"\n"
".TP\n0\nsuccess\n"
".TP\n1\nfailure, including input that was rejected (the rest is stored)\n"
".TP\n2\nbad usage: an unknown option, a missing or bad argument\n"
".TP\n128 + \\fIN\\fR\n"
"stopped by signal \\fIN\\fR (130 for SIGINT, 143 for SIGTERM): what was "
"being stored is rolled back, scratch files are removed\n"
".SH ENVIRONMENT\n"
".TP\n.B BSTORE_DB\nthe archive, unless \\fB\\-\\-db\\fR is given\n"
".TP\n.B XDG_DATA_HOME\n"
"the default archive is \\fI$XDG_DATA_HOME/bstore/bstore.db\\fR when it "
"is an absolute path\n"
".TP\n.B HOME\n"
"else the default archive is \\fI~/.local/share/bstore/bstore.db\\fR\n"
".TP\n.B SOURCE_DATE_EPOCH\n"
"used as the time runs are stored, for reproducible archives and output\n"
".SH FILES\n"
".TP\n.I ~/.local/share/bstore/bstore.db\n"
"the default archive (\\fI$XDG_DATA_HOME/bstore/bstore.db\\fR), a SQLite "
"database created on first use by ingest, run or merge; see schema.sql "
"and docs/schema.md in share/doc/bstore (/usr/share/doc/bstore for the "
"Debian package)\n"
".TP\n.IR ARCHIVE .v N .bak\n"
"the copy of an archive of schema version \\fIN\\fR that a newer bstore "
"keeps before it upgrades the archive in place\n"
".TP\n.IR FILE .tmp. PID\n"
"an \\fB\\-o\\fR output being written; renamed over \\fIFILE\\fR when "
"complete, removed on failure or a signal\n"
".TP\n.IR DIR /.bstore\\-site\n"
"marks a directory as a site bstore wrote, so that \\fBbstore site\\fR "
"may remove its stale pages\n";

static const char see_also[] =
".SH \"SEE ALSO\"\n"
".BR bonnie++ (8),\n.BR zcav (8),\n.BR sysbench (1),\n.BR fio (1),\n"
".BR dd (1),\n.BR sqlite3 (1)\n"
".PP\n"
"README.md and docs/ in share/doc/bstore: the input formats, the JSON "
"and CSV contracts, the report's statistics.\n";
/* clang-format on */

void bs_cli_man(FILE *f, const char *version, const struct bs_opt_cmd *bstore,
		const struct bs_opt_cmd *const *cmds, size_t ncmds)
{
	struct bs_buf out = BS_BUF_INIT, sel = BS_BUF_INIT;
	const char *p;
	size_t i;

	bs_buf_addf(&out,
		    ".\\\" generated by 'bstore --man' from its option "
		    "tables; do not edit\n"
		    ".TH BSTORE 1 \"\" \"bstore %s\" \"User Commands\"\n"
		    /* Left-aligned, unhyphenated: options and keys are
		     * typed as printed. */
		    ".ad l\n"
		    ".nh\n"
		    ".SH NAME\n"
		    "bstore \\- %s\n"
		    ".SH SYNOPSIS\n",
		    version, bstore->summary);
	synopsis(&out, bstore);
	for (i = 0; i < ncmds; i++) {
		bs_buf_adds(&out, ".br\n");
		synopsis(&out, cmds[i]);
	}
	bs_buf_adds(&out, ".SH DESCRIPTION\n");
	text(&out, description);
	bs_buf_adds(&out, ".PP\nCommands (each has a section below):\n.PD 0\n");
	for (i = 0; i < ncmds; i++) {
		bs_buf_addf(&out, ".TP 10\n.B %s\n", cmds[i]->name);
		esc_line(&out, cmds[i]->summary);
	}
	bs_buf_adds(&out, ".PD\n");
	bs_buf_adds(&out, ".SH OPTIONS\n");
	bs_opt_each(bstore, row, &out);
	bs_buf_adds(&out, ".SH COMMANDS\n");
	for (i = 0; i < ncmds; i++)
		command(&out, cmds[i]);
	/* Written out here only: text() points the commands here. */
	bs_buf_adds(&out, ".SH SELECTORS\n");
	bs_cli_help_buf("@SELECTORS@\n", &sel);
	text(&out, bs_buf_str(&sel));
	bs_buf_adds(&out, sections);
	bs_buf_adds(&out, ".SH EXAMPLES\n.nf\n");
	for (i = 0; i < ncmds; i++)
		for (p = cmds[i]->examples; p && *p;) {
			size_t n = strcspn(p, "\n");

			esc(&out, p, n);
			bs_buf_addc(&out, '\n');
			p += n + (p[n] == '\n');
		}
	bs_buf_adds(&out, ".fi\n");
	bs_buf_adds(&out, see_also);
	fputs(bs_buf_str(&out), f);
	bs_buf_release(&out);
	bs_buf_release(&sel);
}
