/*
 * cli/cmd_set.c - `bstore set`: changes what stored runs say about
 * themselves (machine, measured_at), keeping every old value in the
 * archive's run_history (shown by bstore show).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/msg.h"
#include "cli/select.h"
#include "core/validate.h"
#include "cli/opt.h"
#include "util/mem.h"
#include "util/similar.h"
#include "util/text.h"
#include "util/timefmt.h"
#include "util/banned.h"

static const struct bs_opt opts[] = {
	BS_OPT_END,
};

const struct bs_opt_cmd bs_cmd_set = {
	"set",
	cmd_set,
	"change a stored run's machine, date or parameters",
	"SELECTOR FIELD=VALUE...",
	"Changes the selected runs' own fields, for runs stored with no\n"
	"machine name or date, or a wrong one, and supplies parameters their\n"
	"output leaves out:\n"
	"  machine=NAME      the machine's name (machine= for unknown)\n"
	"  measured_at=DATE  when it was measured: YYYY-MM-DD,\n"
	"                    'YYYY-MM-DD HH:MM[:SS]' (UTC) or @UNIXTIME, as\n"
	"                    ingest --measured-at takes it (measured_at= for\n"
	"                    unknown)\n"
	"  KEY=VALUE         a parameter of the run's tool that its output\n"
	"                    does not print (direct=1, bs=4k, iodepth=16; KEY=\n"
	"                    for unknown again), as ingest --param takes it;\n"
	"                    bstore show marks it (supplied). A value the\n"
	"                    output printed is never replaced (exit status 1)\n"
	"Every change is kept with the old value, the new one and when it was\n"
	"made; bstore show lists them under History. A run that has the value\n"
	"already is left as it is. Labels of your own are tags: bstore tag.\n"
	"SELECTOR is one selector as in 'bstore list --help'; one that\n"
	"matches nothing is an error (exit status 1).\n",
	opts,
	NULL,
	"bstore set 4-6 machine=db1 'measured_at=2024-03-15 10:00' direct=1",
	NULL,
	0,
	0,
};

/* FIELD=VALUE into set; 0, or the usage error's exit status. */
static int parse_set(const struct bs_cli *cli, const char *arg,
		     struct bs_set *set, char **owned)
{
	struct bs_err err = BS_ERR_INIT;
	char q[BS_CLI_QUOTE_SIZE];
	const char *eq = strchr(arg, '=');
	size_t i;

	*owned = xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
	set->field = eq ? bs_set_field(*owned) : NULL;
	/* A parameter: its value is read by each run's family's row. */
	set->param = eq && set->field == NULL && bs_param_find(*owned) >= 0
			     ? *owned
			     : NULL;
	set->text = eq ? eq + 1 : NULL;
	set->when = BS_NONE;
	if (set->param)
		return 0;
	if (set->field == NULL) {
		struct bs_buf names = BS_BUF_INIT;
		const char *best = NULL;
		size_t dist = (size_t)-1;
		int k, rc;

		for (i = 0; i < bs_set_nfields; i++) {
			bs_buf_addf(&names, "%s=, ", bs_set_fields[i].key);
			bs_similar_best(*owned, bs_set_fields[i].key, &best,
					&dist);
		}
		for (k = 0; k < bs_nparams; k++)
			bs_similar_best(*owned, bs_param_table[k].key, &best,
					&dist);
		if (eq && best)
			rc = bs_cli_usage_error(
				cli,
				"'%s' is not FIELD=VALUE with FIELD one "
				"of %sor a parameter; did you mean '%s'?",
				bs_cli_quote(q, arg), bs_buf_str(&names), best);
		else
			rc = bs_cli_usage_error(
				cli,
				"'%s' is not FIELD=VALUE with FIELD one "
				"of %sor a parameter (bstore show lists "
				"a run's)%s",
				bs_cli_quote(q, arg), bs_buf_str(&names),
				eq ? "; tags are set with bstore tag" : "");
		bs_buf_release(&names);
		return rc;
	}
	if (!set->field->is_date) {
		if (bs_name_check(set->field->key, set->text, &err) < 0)
			return bs_cli_usage_error(cli, "%s", err.msg);
		return 0;
	}
	if (set->text[0] && bs_time_parse(set->text, &set->when, &err) < 0)
		return bs_cli_usage_error(cli, "%s: %s", set->field->key,
					  err.msg);
	return 0;
}

int cmd_set(struct bs_cli *cli, int argc, char **argv)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids ids = BS_IDS_INIT;
	struct bs_store *st = NULL;
	struct bs_set *set = xcalloc((size_t)argc, sizeof(*set));
	char **keys = xcalloc((size_t)argc, sizeof(char *));
	int64_t changed, total = 0;
	int nset = 0, i, rc;

	if (bs_opt_parse(cli, &bs_cmd_set, argc, argv, NULL, NULL, &rc) ==
	    BS_OPT_EXIT)
		goto out;
	if (optind >= argc) {
		rc = bs_cli_usage_error(cli, "which runs? give a SELECTOR");
		goto out;
	}
	if (optind + 1 >= argc) {
		rc = bs_cli_usage_error(cli, "give FIELD=VALUE: machine=NAME, "
					     "measured_at=DATE or a parameter "
					     "KEY=VALUE");
		goto out;
	}
	/* Every change is parsed and checked before the archive is opened. */
	for (i = optind + 1; i < argc; i++, nset++) {
		rc = parse_set(cli, argv[i], &set[nset], &keys[nset]);
		if (rc != 0)
			goto out;
	}
	rc = bs_cli_open_select(cli, BS_STORE_EXISTING, argv + optind, 1,
				BS_SEL_NEED_MATCH | BS_SEL_WRITE, &st, &ids);
	if (rc != 0)
		goto out;
	assert(ids.n > 0 && nset > 0); /* BS_SEL_NEED_MATCH, and checked */
	for (i = 0; i < nset; i++) {
		if (bs_store_set(st, &ids, &set[i], &changed, &err) < 0) {
			bs_cli_perr(cli, &err);
			rc = BS_EXIT_FAIL;
			goto out;
		}
		total += changed;
	}
	if (bs_store_commit(st, &err) < 0) {
		bs_cli_perr(cli, &err);
		rc = BS_EXIT_FAIL;
		goto out;
	}
	if (!cli->quiet)
		printf("changed %lld field%s of %zu run%s\n", (long long)total,
		       total == 1 ? "" : "s", ids.n, ids.n == 1 ? "" : "s");
	rc = BS_EXIT_OK;
out:
	/* keys[nset] too: the one that failed to parse. */
	for (i = 0; i < argc; i++)
		free(keys[i]);
	free(keys);
	free(set);
	bs_ids_release(&ids);
	bs_store_close(st);
	return rc;
}
