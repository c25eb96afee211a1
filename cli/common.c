/* cli/common.c - messages, opening the archive, resolving selectors. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/mem.h"
#include "util/banned.h"

static void vmsg(const struct bs_cli *cli, const char *pfx, const char *fmt,
		 va_list ap)
{
	fflush(stdout);
	if (cli && cli->cmd)
		fprintf(stderr, "bstore: %s: %s", cli->cmd, pfx);
	else
		fprintf(stderr, "bstore: %s", pfx);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void bs_cli_error(const struct bs_cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "", fmt, ap);
	va_end(ap);
}

void bs_cli_warn(const struct bs_cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "warning: ", fmt, ap);
	va_end(ap);
}

void bs_cli_perr(const struct bs_cli *cli, const struct bs_err *err)
{
	bs_cli_error(cli, "%s", err->msg[0] ? err->msg : "unknown error");
}

int bs_cli_usage_error(const struct bs_cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, "", fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'bstore %s --help'.\n",
		cli && cli->cmd ? cli->cmd : "");
	return BS_EXIT_USAGE;
}

int bs_cli_open_store(const struct bs_cli *cli, int flags,
		      struct bs_store **out)
{
	struct bs_err err = BS_ERR_INIT;
	char *path = NULL;
	int rc;

	if (cli->db_path) {
		path = xstrdup(cli->db_path);
	} else {
		path = bs_store_default_path(&err);
		if (path == NULL) {
			bs_cli_perr(cli, &err);
			return BS_EXIT_FAIL;
		}
		if (!(flags & BS_STORE_READONLY) &&
		    bs_store_mkparents(path, &err) < 0) {
			bs_cli_perr(cli, &err);
			free(path);
			return BS_EXIT_FAIL;
		}
	}
	rc = bs_store_open(out, path, flags, &err);
	free(path);
	if (rc < 0) {
		bs_cli_perr(cli, &err);
		return BS_EXIT_FAIL;
	}
	return 0;
}

int bs_cli_select(const struct bs_cli *cli, struct bs_store *st, char **sel,
		  int nsel, int all_if_none, struct bs_ids *out)
{
	struct bs_err err = BS_ERR_INIT;
	int i;

	if (nsel == 0 && all_if_none)
		return bs_store_select(st, "all", out, &err) < 0
			       ? (bs_cli_perr(cli, &err), BS_EXIT_FAIL)
			       : 0;
	for (i = 0; i < nsel; i++) {
		if (bs_store_select(st, sel[i], out, &err) < 0) {
			if (err.code == BS_EINVAL)
				return bs_cli_usage_error(cli, "%s", err.msg);
			bs_cli_perr(cli, &err);
			return BS_EXIT_FAIL;
		}
	}
	return 0;
}

int bs_cli_open_select(const struct bs_cli *cli, int store_flags, char **sel,
		       int nsel, int sel_flags, struct bs_store **st,
		       struct bs_ids *ids)
{
	int rc = bs_cli_open_store(cli, store_flags, st);

	if (rc != 0)
		return rc;
	rc = bs_cli_select(cli, *st, sel, nsel,
			   (sel_flags & BS_SEL_ALL_IF_NONE) != 0, ids);
	if (rc == 0 && ids->n == 0 && (sel_flags & BS_SEL_NEED_MATCH)) {
		bs_cli_error(cli, "no run matches");
		rc = BS_EXIT_FAIL;
	}
	if (rc != 0) {
		bs_store_close(*st);
		*st = NULL;
	}
	return rc;
}

void bs_cli_puts_clean(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		fputc((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f ? '?'
									  : c,
		      f);
	}
}
