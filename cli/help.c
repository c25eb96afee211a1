/*
 * cli/help.c - the lists a --help text (and the man page) takes from
 * bstore's tables: metrics, formats, families, run fields and the
 * selector language, filled in where the text names them (bs_cli_help).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "core/metric.h"
#include "ingest/format.h"
#include "store/selector.h"
#include "util/buf.h"
#include "util/banned.h"

/* Appends word to a line wrapped at 76 columns with indent spaces. */
static void wrap_word(struct bs_buf *out, size_t *col, size_t indent,
		      const char *word, int first)
{
	size_t n = strlen(word);

	if (!first && *col + 1 + n > 76) {
		bs_buf_addf(out, "\n%*s", (int)indent, "");
		*col = indent;
	} else if (!first) {
		bs_buf_addc(out, ' ');
		(*col)++;
	}
	bs_buf_adds(out, word);
	*col += n;
}

/* "bonnie: putc, put_block, ...; sysbench: ...", wrapped: the metrics
 * whose flags have every bit of need (BS_MF_*), by family. */
/* The metrics with any of the flags need (every one when need is 0). */
static void help_metrics(struct bs_buf *out, size_t indent, unsigned need)
{
	char word[96];
	size_t col = indent;
	int m, k, first = 1;

	bs_buf_addf(out, "%*s", (int)indent, "");
	for (m = 0; m < bs_nmetrics; m++) {
		int same = 0, more = 0, any = 0;
		if (need && !(bs_metrics[m].flags & need))
			continue;
		/* Is a later metric shown, of this family or another? */
		for (k = m + 1; k < bs_nmetrics && !more; k++) {
			if (need && !(bs_metrics[k].flags & need))
				continue;
			more = 1;
			same = bs_metrics[k].family == bs_metrics[m].family;
		}
		for (k = m - 1; k >= 0 && !any; k--)
			any = (!need || (bs_metrics[k].flags & need)) &&
			      bs_metrics[k].family == bs_metrics[m].family;
		snprintf(word, sizeof(word), "%s%s%s%s",
			 any ? "" : bs_family_name(bs_metrics[m].family),
			 any ? "" : ": ", bs_metrics[m].key,
			 same   ? ","
			 : more ? ";"
				: "");
		wrap_word(out, &col, indent, word, first);
		first = 0;
	}
	bs_buf_addc(out, '\n');
}

/*
 * line (no '\n') onto out, wrapped at 76 columns under its own
 * indentation when longer: a line a table's words made long (@FIELDS@,
 * a format's about) stays within the terminal.
 */
static void add_wrapped(struct bs_buf *out, const char *line)
{
	struct bs_buf word = BS_BUF_INIT;
	size_t indent = strspn(line, " "), col = indent;
	const char *p = line + indent;
	int first = 1;

	if (strlen(line) <= 78) {
		bs_buf_adds(out, line);
		return;
	}
	bs_buf_addf(out, "%*s", (int)indent, "");
	while (*p) {
		size_t n = strcspn(p, " ");

		bs_buf_reset(&word);
		bs_buf_add(&word, p, n);
		wrap_word(out, &col, indent, bs_buf_str(&word), first);
		first = 0;
		p += n;
		p += strspn(p, " ");
	}
	bs_buf_release(&word);
}

static void help_formats(struct bs_buf *out, size_t indent)
{
	struct bs_buf line = BS_BUF_INIT;
	int i;

	for (i = 0; i < bs_nformats; i++) {
		bs_buf_addf(out, "%*s%s (%s)\n", (int)indent, "",
			    bs_formats[i].name,
			    bs_family_name(bs_formats[i].family));
		bs_buf_reset(&line);
		bs_buf_addf(&line, "%*s%s", (int)indent + 4, "",
			    bs_formats[i].about);
		add_wrapped(out, bs_buf_str(&line));
		bs_buf_addc(out, '\n');
	}
	bs_buf_release(&line);
}

/* Words for the bs_sel_type bits of an operator: "id and date". */
static void help_types(struct bs_buf *out, unsigned types)
{
	static const struct {
		unsigned type;
		const char *word;
	} names[] = {
		{BS_SEL_TEXT, "text"},
		{BS_SEL_IDS, "id"},
		{BS_SEL_DATE, "date"},
	};
	size_t i, k = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (types & names[i].type)
			bs_buf_addf(out, "%s%s", k++ ? " and " : "",
				    names[i].word);
}

/* The selector language, from its tables (store/selector.h). */
static void help_selectors(struct bs_buf *out, size_t indent)
{
	struct bs_buf text = BS_BUF_INIT, word = BS_BUF_INIT;
	size_t col, i, k;
	int op;

	bs_buf_addf(&text, "Selectors: 12, 12-15, last, last:N, all, or "
			   "KEY OP VALUE, KEY being ");
	for (i = 0; i < bs_sel_nfields; i++)
		bs_buf_addf(&text, "%s, ", bs_sel_fields[i].key);
	bs_buf_adds(&text,
		    "or a tag (raid=5); terms joined with ',' must all "
		    "match (machine=jump,raid!=10); a ',' in a value is "
		    "written '\\,' (host.mount=rw\\,relatime). A date is "
		    "YYYY, YYYY-MM, YYYY-MM-DD, 'YYYY-MM-DD HH:MM[:SS]' or "
		    "@UNIXTIME, in UTC. Quote selectors for the shell: it "
		    "reads < > ! * ? [ and blanks itself. OP is one of:");
	/* Wrapped word by word, as the metrics are. */
	bs_buf_addf(out, "%*s", (int)indent, "");
	col = indent;
	for (i = 0, k = 0;; i++) {
		const char *t = bs_buf_str(&text);

		if (t[i] == ' ' || t[i] == '\0') {
			bs_buf_reset(&word);
			bs_buf_add(&word, t + k, i - k);
			wrap_word(out, &col, indent, bs_buf_str(&word), k == 0);
			k = i + 1;
		}
		if (t[i] == '\0')
			break;
	}
	bs_buf_addc(out, '\n');
	for (op = BS_OP_EQ; op <= BS_OP_GE; op++) {
		const struct bs_sel_op_info *o = bs_sel_op((enum bs_sel_op)op);
		const char *p;

		bs_buf_reset(&text);
		bs_buf_adds(&text, o->help);
		if (o->types != (BS_SEL_TEXT | BS_SEL_IDS | BS_SEL_DATE)) {
			bs_buf_adds(&text, "; ");
			help_types(&text, o->types);
			bs_buf_adds(&text, " only");
		}
		bs_buf_addf(out, "%*s  %-3s", (int)indent, "", o->text);
		col = indent + 5;
		for (p = bs_buf_str(&text), k = 1; *p; k = 0) {
			size_t n = strcspn(p, " ");

			bs_buf_reset(&word);
			bs_buf_add(&word, p, n);
			wrap_word(out, &col, indent + 6, bs_buf_str(&word), 0);
			p += n + (p[n] == ' ');
		}
		bs_buf_addc(out, '\n');
	}
	bs_buf_release(&text);
	bs_buf_release(&word);
}

/* s with @NAME@ replaced by text. */
static void replace(struct bs_buf *line, const char *name, const char *text)
{
	struct bs_buf b = BS_BUF_INIT;
	const char *p = bs_buf_str(line), *at;
	size_t n = strlen(name);

	while ((at = strstr(p, name)) != NULL) {
		bs_buf_add(&b, p, (size_t)(at - p));
		bs_buf_adds(&b, text);
		p = at + n;
	}
	bs_buf_adds(&b, p);
	bs_buf_reset(line);
	bs_buf_adds(line, bs_buf_str(&b));
	bs_buf_release(&b);
}

void bs_cli_help(FILE *f, const char *text)
{
	struct bs_buf out = BS_BUF_INIT;

	bs_cli_help_buf(text, &out);
	fputs(bs_buf_str(&out), f);
	bs_buf_release(&out);
}

void bs_cli_help_buf(const char *text, struct bs_buf *out)
{
	struct bs_buf line = BS_BUF_INIT, fields = BS_BUF_INIT,
		      fams = BS_BUF_INIT;
	const char *p = text;
	size_t i;

	for (i = 0; i < bs_sel_nfields; i++)
		bs_buf_addf(&fields, "%s%s", i ? ", " : "",
			    bs_sel_fields[i].key);
	for (i = 0; i < (size_t)BS_FAM_COUNT; i++)
		bs_buf_addf(&fams, "%s%s", i ? ", " : "",
			    bs_family_name((enum bs_family)i));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		size_t indent = strspn(p, " ");

		bs_buf_reset(&line);
		bs_buf_add(&line, p, len);
		if (strcmp(bs_buf_str(&line) + indent, "@METRICS@") == 0) {
			help_metrics(out, indent, 0);
		} else if (strcmp(bs_buf_str(&line) + indent,
				  "@MAIN_METRICS@") == 0) {
			help_metrics(out, indent, BS_MF_MAIN | BS_MF_TREND);
		} else if (strcmp(bs_buf_str(&line) + indent, "@FORMATS@") ==
			   0) {
			help_formats(out, indent);
		} else if (strcmp(bs_buf_str(&line) + indent, "@SELECTORS@") ==
			   0) {
			help_selectors(out, indent);
		} else {
			replace(&line, "@FIELDS@", bs_buf_str(&fields));
			replace(&line, "@FAMILIES@", bs_buf_str(&fams));
			add_wrapped(out, bs_buf_str(&line));
			if (nl)
				bs_buf_addc(out, '\n');
		}
		p += len + (nl != NULL);
	}
	bs_buf_release(&line);
	bs_buf_release(&fields);
	bs_buf_release(&fams);
}
