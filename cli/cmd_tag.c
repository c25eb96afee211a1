/* cli/cmd_tag.c - `bstore tag`: add, change or remove labels on runs. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/msg.h"
#include "cli/select.h"
#include "cli/opt.h"
#include "store/selector.h"
#include "util/mem.h"
#include "util/banned.h"

/* What the options say: the keys of --remove, in order. */
struct tag_args {
	char **remove;
	int nremove;
};

static int add_remove(const struct bs_cli *cli, const struct bs_opt *o,
		      const char *arg, void *field)
{
	struct tag_args *a = field;

	(void)o;
	if (arg[0] == '\0')
		return bs_cli_usage_error(cli, "--remove needs a key");
	a->remove[a->nremove++] = (char *)arg;
	return 0;
}

static const struct bs_opt opts[] = {
	{'r', "remove", "K", BS_OPT_MULTI, add_remove, 0,
	 "remove the tag K (repeatable)", NULL, 0, 0, 0},
	BS_OPT_END,
};

const struct bs_opt_cmd bs_cmd_tag = {
	"tag",
	cmd_tag,
	"add or remove key=value tags on runs",
	"SELECTOR K=V...\nSELECTOR --remove K [--remove K]...",
	"Sets free key=value labels on the selected runs (raid=10,\n"
	"'array=EMC CX500', cache=on), replacing a key's old value, or\n"
	"removes keys. Tags can then select runs: bstore report raid=10 "
	"raid=5.\n"
	"A key has no ',', '=', '!', '~', '<', '>' or control character and is\n"
	"not one of the run's own fields (bstore set changes a run's machine\n"
	"and date): @FIELDS@.\n"
	"A value is any text on one line, empty included. SELECTOR is one\n"
	"selector as in 'bstore list --help'; one that matches nothing is an\n"
	"error (exit status 1).\n",
	opts,
	NULL,
	NULL,
	NULL,
	0,
	0,
};

int cmd_tag(struct bs_cli *cli, int argc, char **argv)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	struct tag_args a = {NULL, 0};
	struct bs_tag *set = xcalloc((size_t)argc, sizeof(*set));
	int nset = 0, i, rc;

	/* A --remove an argument: argc of them at most. */
	a.remove = xcalloc((size_t)argc, sizeof(char *));
	if (bs_opt_parse(cli, &bs_cmd_tag, argc, argv, &a, NULL, &rc) ==
	    BS_OPT_EXIT)
		goto out;
	if (optind >= argc) {
		rc = bs_cli_usage_error(cli, "which runs? give a SELECTOR");
		goto out;
	}
	if (optind + 1 >= argc && a.nremove == 0) {
		rc = bs_cli_usage_error(cli, "give K=V tags or --remove K");
		goto out;
	}
	/* Every tag is parsed and checked before the archive is opened. */
	for (i = optind + 1; i < argc; i++, nset++) {
		if (bs_store_parse_tag(argv[i], 0, &set[nset].key,
				       &set[nset].value, &err) < 0) {
			/* machine=, date=: what bstore set changes. */
			const char *col =
				bs_store_run_column(argv[i],
						    strcspn(argv[i], "="));
			int own = col && (strcmp(col, "machine") == 0 ||
					  strcmp(col, "measured_at") == 0);

			rc = bs_cli_usage_error(
				cli, "%s%s", err.msg,
				own ? "; bstore set changes a run's machine= "
				      "and measured_at="
				    : "");
			goto out;
		}
	}
	rc = bs_cli_open_select(cli, BS_STORE_EXISTING, argv + optind, 1,
				BS_SEL_NEED_MATCH | BS_SEL_WRITE, &st, &ids);
	if (rc != 0)
		goto out;
	assert(ids.n > 0); /* BS_SEL_NEED_MATCH */
	for (i = 0; i < nset; i++)
		if (bs_store_tag(st, &ids, set[i].key, set[i].value, &err) < 0)
			goto dberr;
	for (i = 0; i < a.nremove; i++)
		if (bs_store_tag(st, &ids, a.remove[i], NULL, &err) < 0)
			goto dberr;
	if (bs_store_commit(st, &err) < 0)
		goto dberr;
	if (!cli->quiet)
		printf("tagged %zu run%s\n", ids.n, ids.n == 1 ? "" : "s");
	rc = BS_EXIT_OK;
	goto out;
dberr:
	bs_cli_perr(cli, &err);
	rc = BS_EXIT_FAIL;
out:
	for (i = 0; i < nset; i++) {
		free(set[i].key);
		free(set[i].value);
	}
	free(set);
	free(a.remove);
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
