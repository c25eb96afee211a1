/*
 * report/notes.c - the notes above a report's tables: why numbers of its
 * groups may not compare, ranked by what they change. First what takes
 * verdicts away (report/ident.c: different tests, can't tell, related,
 * mixed groups), then other tools' numbers in a row, parameters that
 * differ without deciding (files the page cache may hold), and groups
 * whose runs differ in tags or versions.
 */
#include <stdio.h>
#include <string.h>

#include "report/internal.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

void bs_rnote_add(struct bs_report *rep, enum bs_rnote_rank rank,
		  struct bs_buf *b)
{
	size_t at = rep->nnotes;

	rep->notes =
		xrealloc(rep->notes, (rep->nnotes + 1) * sizeof(*rep->notes));
	rep->note_rank = xrealloc(rep->note_rank, rep->nnotes + 1);
	/* After the notes of this rank and the ranks before it. */
	while (at > 0 && rep->note_rank[at - 1] > rank) {
		rep->notes[at] = rep->notes[at - 1];
		rep->note_rank[at] = rep->note_rank[at - 1];
		at--;
	}
	rep->notes[at] = bs_buf_detach(b, NULL);
	rep->note_rank[at] = (unsigned char)rank;
	rep->nnotes++;
}

/*
 * A note for a rule that does not decide the test (report/ident.c says
 * what the deciding ones change) when the groups that ran its metrics
 * disagree on its parameters (or one of them mixes values).
 */
static void param_note(struct bs_report *rep, const struct bs_param_rule *pr)
{
	struct bs_buf b = BS_BUF_INIT, first = BS_BUF_INIT, cur = BS_BUF_INIT;
	int k[8], np = bs_param_rule_keys(pr, k, 8), j, differ = 0, known = 0;
	size_t i;

	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		const char *c;

		if (!bs_rhas_rule(g, pr))
			continue;
		bs_buf_trim(&cur, cur.len);
		if (pr->filespec) {
			char v[512];

			bs_buf_adds(&cur, bs_rfmt_files(g, v, sizeof(v)));
		} else {
			for (j = 0; j < np; j++) {
				char v[64];
				size_t at;

				bs_buf_adds(&cur, j ? "/" : "");
				at = cur.len;
				/* Text has no range: its values, counted,
				 * each clause whole however long. */
				if (g->param[k[j]].mixed &&
				    bs_param_table[k[j]].kind == BS_PK_TEXT)
					bs_rparam_values(g, k[j], &cur);
				else
					bs_buf_adds(&cur,
						    bs_rfmt_param(g, k[j], v,
								  sizeof(v)));
				if (cur.len == at)
					bs_buf_addc(&cur, '?');
			}
		}
		for (j = 0; j < np; j++)
			if (g->param[k[j]].mixed)
				differ = 1;
		c = bs_buf_str(&cur);
		if (strcmp(c, "") == 0 || strspn(c, "?/") == strlen(c))
			continue;
		if (known++ == 0)
			bs_buf_adds(&first, c);
		else if (strcmp(bs_buf_str(&first), c) != 0)
			differ = 1;
		bs_buf_addf(&b, "%s[%zu] %s", known > 1 ? ", " : "", i + 1, c);
	}
	if (differ) {
		struct bs_buf n = BS_BUF_INIT;
		bs_buf_addf(&n, "%s differs: %s; %s", pr->what, bs_buf_str(&b),
			    pr->why);
		bs_rnote_add(rep, BS_NOTE_PARAM, &n);
	}
	bs_buf_release(&b);
	bs_buf_release(&first);
	bs_buf_release(&cur);
}

static const char *runs_word(int64_t n)
{
	return n == 1 ? "run" : "runs";
}

/* Appends one of a list's items: ", " between them, " and " before the
 * last (the caller knows which it is). */
static void item(struct bs_buf *b, size_t i, int last)
{
	if (i > 0)
		bs_buf_adds(b, last ? " and " : ", ");
}

/* A tag key's values over a group: "cache=on (2 runs) and cache=off (1
 * run)", with the runs of further values and those without it. */
static void tag_values(const struct bs_report_group *g,
		       const struct bs_report_tagmix *x, struct bs_buf *b)
{
	size_t v, n = x->nval + (x->other > 0) + (x->seen < g->nruns);

	for (v = 0; v < x->nval; v++) {
		item(b, v, v + 1 == n);
		bs_buf_addf(b, "%s=%s (%lld %s)", x->key, x->val[v],
			    (long long)x->cnt[v], runs_word(x->cnt[v]));
	}
	if (x->other) {
		item(b, v, v + 1 == n);
		bs_buf_addf(b, "%lld more %s with other values",
			    (long long)x->other, runs_word(x->other));
		v++;
	}
	if (x->seen < g->nruns) {
		item(b, v, 1);
		bs_buf_addf(b, "%lld without %s",
			    (long long)(g->nruns - x->seen), x->key);
	}
}

/*
 * A note per group whose runs are unlike in what does not decide the
 * test (report/ident.c has what does): they differ in a tag, the tool's
 * version, or a parameter of a rule that only earns a note. Host facts
 * (tags host.*) that some of its runs have and others lack are one
 * clause: bstore run records them, other tools' outputs do not. The
 * tags bstore keeps for its own bookkeeping (bs_tag_bookkeeping) are
 * not differences.
 */
static void mix_note(struct bs_report *rep, size_t i)
{
	const struct bs_report_group *g = &rep->groups[i];
	struct bs_buf b = BS_BUF_INIT, hosts = BS_BUF_INIT;
	size_t j, v, parts = 0, nhost = 0;
	int r, k[8], n, kk, seen[BS_P_MAX] = {0};
	int64_t host_runs = 0;

	for (j = 0; j < g->nmix; j++) {
		const struct bs_report_tagmix *x = &g->mix[j];

		if ((x->nval < 2 && x->seen == g->nruns) ||
		    bs_tag_bookkeeping(x->key))
			continue;
		/* A host fact only some runs have: one clause for all. */
		if (strncmp(x->key, "host.", 5) == 0 && x->nval == 1 &&
		    !x->other) {
			bs_buf_addf(&hosts, "%s%s", nhost++ ? ", " : "",
				    x->key);
			if (x->seen > host_runs)
				host_runs = x->seen;
			continue;
		}
		bs_buf_adds(&b, parts++ ? "; " : "");
		tag_values(g, x, &b);
	}
	if (nhost) {
		bs_buf_addf(&b,
			    "%shost facts (%s) for %lld of its %lld runs "
			    "only",
			    parts++ ? "; " : "", bs_buf_str(&hosts),
			    (long long)host_runs, (long long)g->nruns);
	}
	if (g->nversions > 1) {
		bs_buf_adds(&b, parts++ ? "; " : "");
		for (v = 0; v < g->nversions; v++) {
			item(&b, v, v + 1 == g->nversions && !g->more_versions);
			bs_buf_adds(&b, g->versions[v]);
		}
		if (g->more_versions)
			bs_buf_adds(&b, " and more");
	}
	for (r = 0; r < bs_nparam_rules; r++) {
		if (bs_param_rules[r].decides)
			continue;
		n = bs_param_rule_keys(&bs_param_rules[r], k, 8);
		for (kk = 0; kk < n; kk++) {
			if (seen[k[kk]] || !g->param[k[kk]].mixed)
				continue;
			seen[k[kk]] = 1;
			bs_buf_addf(&b, "%s%s ", parts++ ? "; " : "",
				    bs_param_table[k[kk]].label);
			bs_rparam_values(g, k[kk], &b);
		}
	}
	if (parts) {
		struct bs_buf t = BS_BUF_INIT;

		bs_buf_addf(&t,
			    "[%zu] mixes %s; its means average unlike "
			    "runs",
			    i + 1, bs_buf_str(&b));
		bs_rnote_add(rep, BS_NOTE_MIX, &t);
	}
	bs_buf_release(&b);
	bs_buf_release(&hosts);
}

/*
 * A note per group whose size parameter of a rule with ram_tag is under
 * twice the RAM its runs' common tag says: the page cache may hold the
 * files, so rates may be the memory's.
 */
static void ram_note(struct bs_report *rep, const struct bs_param_rule *pr)
{
	size_t i, j;
	int k[8];
	int64_t ram_mib;
	char v[96];

	bs_param_rule_keys(pr, k, 8);
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		const struct bs_report_param *p = &g->param[k[0]];
		struct bs_buf b = BS_BUF_INIT;
		const char *ram = NULL;

		if (!bs_rhas_rule(g, pr) || p->nvals != 1)
			continue;
		for (j = 0; j < g->ntags && ram == NULL; j++)
			if (strcmp(g->tags[j].key, pr->ram_tag) == 0)
				ram = g->tags[j].value;
		if (ram == NULL ||
		    bs_parse_i64(ram, strlen(ram), &ram_mib) < 0 ||
		    ram_mib <= 0 || p->vals[0].i >= ram_mib * 2 * 1048576)
			continue;
		bs_buf_addf(&b,
			    "[%zu] %s %s is under twice the host's RAM "
			    "(%s=%s): the page cache may hold the files, "
			    "so its rates may be the memory's",
			    i + 1, bs_param_table[k[0]].label,
			    bs_rpval_text(k[0], &p->vals[0], v, sizeof(v)),
			    pr->ram_tag, ram);
		bs_rnote_add(rep, BS_NOTE_PARAM, &b);
	}
}

void bs_rnotes(struct bs_report *rep)
{
	size_t i;

	bs_rident_notes(rep);
	for (i = 0; i < (size_t)bs_nparam_rules; i++)
		if (!bs_param_rules[i].decides)
			param_note(rep, &bs_param_rules[i]);
	for (i = 0; i < (size_t)bs_nparam_rules; i++)
		if (bs_param_rules[i].ram_tag)
			ram_note(rep, &bs_param_rules[i]);
	for (i = 0; i < rep->ngroups; i++)
		mix_note(rep, i);
}
