/*
 * cli/select.c - selectors into run ids for a command, and what it says
 * when one matches nothing ("did you mean 'raid=10'?").
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/archive.h"
#include "cli/msg.h"
#include "cli/select.h"
#include "core/param.h"
#include "store/selector.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/similar.h"
#include "util/banned.h"

/* The closest word to word among those fn is fed (util/similar.h). */
struct closest {
	const char *word;
	char *best; /* owned */
	size_t dist;
	int exact; /* word itself was among them */
};

static int closest_word(const char *w, void *vctx)
{
	struct closest *c = vctx;
	const char *best = NULL;

	if (strcmp(c->word, w) == 0)
		c->exact = 1;
	bs_similar_best(c->word, w, &best, &c->dist);
	if (best) {
		free(c->best);
		c->best = xstrdup(best);
	}
	return 0;
}

char *bs_cli_closest_tag(struct bs_store *st, const char *key, int fields)
{
	struct bs_err err = BS_ERR_INIT;
	struct closest c = {key, NULL, (size_t)-1, 0};
	size_t i;

	if (bs_store_words(st, NULL, closest_word, &c, &err) < 0)
		c.exact = 1;
	for (i = 0; fields && i < bs_sel_nfields; i++)
		closest_word(bs_sel_fields[i].key, &c);
	/* mdoe=rndrw: the parameter keys of the family rows too. */
	for (i = 0; fields && i < (size_t)bs_nparams; i++)
		closest_word(bs_param_table[i].key, &c);
	/* A key some run has is no typo. */
	if (c.exact) {
		free(c.best);
		c.best = NULL;
	}
	return c.best;
}

/*
 * A selector like sel whose keys and values are the known ones closest
 * to those of sel that match nothing (riad=10 -> raid=10), or NULL when
 * none is close. A key is compared with every tag key and run field; a
 * value (not a pattern) with the values its key has.
 */
static char *did_you_mean(struct bs_store *st, const char *text)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_sel sel = BS_SEL_INIT;
	struct bs_buf out = BS_BUF_INIT;
	char **owned;
	size_t i, nowned = 0;
	char *res = NULL;

	if (bs_sel_parse(&sel, text, &err) < 0)
		return NULL;
	owned = xcalloc(2 * sel.n, sizeof(char *));
	for (i = 0; i < sel.n; i++) {
		struct bs_sel_term *t = &sel.term[i];
		struct closest c = {t->value, NULL, (size_t)-1, 0};
		char *key;

		if ((t->kind != BS_SEL_TAG && t->kind != BS_SEL_FIELD) ||
		    (t->op != BS_OP_EQ && t->op != BS_OP_IEQ) ||
		    (t->field && t->field->type != BS_SEL_TEXT))
			continue;
		/* A tag key that no run has: the closest key. */
		if (t->kind == BS_SEL_TAG) {
			key = bs_cli_closest_tag(st, t->key, 1);
			if (key) {
				t->key = owned[nowned++] = key;
				continue;
			}
		}
		/* A value its key does not have: the closest value. */
		if (strpbrk(t->value, "*?[") != NULL)
			continue;
		if (bs_store_words(st, t->key, closest_word, &c, &err) == 0 &&
		    c.best && !c.exact)
			t->value = owned[nowned++] = c.best;
		else
			free(c.best);
	}
	if (nowned > 0 && bs_sel_print(&sel, &out) == 0)
		res = bs_buf_detach(&out, NULL);
	for (i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	bs_buf_release(&out);
	bs_sel_release(&sel);
	return res;
}

int bs_cli_no_match(const struct bs_cli *cli, struct bs_store *st,
		    const char *sel, int fatal)
{
	struct bs_err err = BS_ERR_INIT;
	int64_t nruns = -1;
	char q[BS_CLI_QUOTE_SIZE];
	void (*say)(const struct bs_cli *, const char *, ...) =
		fatal ? bs_cli_error : bs_cli_warn;

	/* A count that fails only loses the better words. */
	if (bs_store_count(st, &nruns, NULL, &err) == 0 && nruns == 0) {
		say(cli,
		    "the archive '%s' has no runs yet (bstore ingest or "
		    "bstore run adds them)",
		    bs_store_path(st));
		return 1;
	}
	if (sel) {
		char *dym = did_you_mean(st, sel);
		char q2[BS_CLI_QUOTE_SIZE];

		if (dym)
			say(cli,
			    "selector '%s' matches no runs; did you mean "
			    "'%s'?",
			    bs_cli_quote(q, sel), bs_cli_quote(q2, dym));
		else
			say(cli, "selector '%s' matches no runs",
			    bs_cli_quote(q, sel));
		free(dym);
	} else
		say(cli, "no run matches");
	return 0;
}

int bs_cli_select(const struct bs_cli *cli, struct bs_store *st, char **sel,
		  int nsel, int flags, struct bs_ids *out)
{
	struct bs_err err = BS_ERR_INIT;
	struct bs_ids one = BS_IDS_INIT;
	char *empty = NULL;
	int i, fatal, nempty = 0, rc = 0;

	assert(nsel >= 0 && (nsel == 0 || sel != NULL));
	if (nsel == 0 && (flags & BS_SEL_ALL_IF_NONE))
		return bs_store_select(st, "all", out, &err) < 0
			       ? (bs_cli_perr(cli, &err), BS_EXIT_FAIL)
			       : 0;
	empty = xcalloc((size_t)nsel + 1, 1);
	for (i = 0; i < nsel; i++) {
		one.n = 0;
		if (bs_store_select(st, sel[i], &one, &err) < 0) {
			if (err.code == BS_EINVAL)
				rc = bs_cli_usage_error(cli, "%s", err.msg);
			else
				rc = (bs_cli_perr(cli, &err), BS_EXIT_FAIL);
			goto out;
		}
		if (one.n == 0) {
			empty[i] = 1;
			nempty++;
		} else {
			bs_ids_merge(out, one.id, one.n);
		}
	}
	/* Every selector that matches nothing is named: a typo in one of
	 * several is no less a typo. It fails the command only when
	 * nothing at all is selected and the command needs runs. */
	fatal = (flags & BS_SEL_NEED_MATCH) && out->n == 0;
	for (i = 0; i < nsel && nempty > 0; i++) {
		/* 'list all' of an empty archive is 'list': an answer, not
		 * a selector that went wrong. */
		if (!empty[i] || (!fatal && strcmp(sel[i], "all") == 0))
			continue;
		if (bs_cli_no_match(cli, st, sel[i], fatal))
			break; /* an empty archive is said once */
	}
	if (fatal)
		rc = BS_EXIT_FAIL;
out:
	free(empty);
	bs_ids_release(&one);
	return rc;
}

int bs_cli_open_select(const struct bs_cli *cli, int store_flags, char **sel,
		       int nsel, int sel_flags, struct bs_store **st,
		       struct bs_ids *ids)
{
	struct bs_err err = BS_ERR_INIT;
	int rc;

	/* A command that changes runs (rm, tag, set) never falls back to
	 * every run when given no selector. */
	assert(!((sel_flags & BS_SEL_WRITE) &&
		 (sel_flags & BS_SEL_ALL_IF_NONE)));
	rc = bs_cli_open_store(cli, store_flags, st);
	if (rc != 0)
		return rc;
	if ((sel_flags & BS_SEL_WRITE) && bs_store_begin(*st, &err) < 0) {
		bs_cli_perr(cli, &err);
		bs_store_close(*st);
		*st = NULL;
		return BS_EXIT_FAIL;
	}
	rc = bs_cli_select(cli, *st, sel, nsel, sel_flags, ids);
	if (rc != 0) {
		bs_store_close(*st);
		*st = NULL;
	}
	return rc;
}
