/*
 * report/notes.c - the notes above a report's tables: why numbers of its
 * groups may not compare (bonnie++ generations, parameters that differ,
 * files the page cache may hold, groups of unlike runs).
 */
#include <stdio.h>
#include <string.h>

#include "report/internal.h"
#include "util/buf.h"
#include "util/mem.h"
#include "util/num.h"
#include "util/banned.h"

void bs_rnote_add(struct bs_report *rep, struct bs_buf *b)
{
	rep->notes = xrealloc(rep->notes,
			      (rep->nnotes + 1) * sizeof(*rep->notes));
	rep->notes[rep->nnotes++] = bs_buf_detach(b, NULL);
}

/*
 * A note for one of bs_param_rules when the groups that ran its metrics
 * disagree on its parameters (or one of them mixes values).
 */
static void param_note(struct bs_report *rep, const struct bs_param_rule *pr)
{
	struct bs_buf b = BS_BUF_INIT;
	char first[512], cur[512];
	int k[8], np = bs_param_rule_keys(pr, k, 8), j, differ = 0, known = 0;
	int t0, t1;
	size_t i;

	bs_rrule_rows(pr, k[0], &t0, &t1);
	first[0] = '\0';
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		if (!bs_rhas_tests(g, t0, t1))
			continue;
		if (pr->filespec) {
			bs_rfmt_files(g, cur, sizeof(cur));
		} else {
			cur[0] = '\0';
			for (j = 0; j < np; j++) {
				char v[64];
				size_t n = strlen(cur);
				bs_rfmt_param(g, k[j], v, sizeof(v));
				/* Text has no range: its values, counted. */
				if (g->param[k[j]].mixed &&
				    bs_param_table[k[j]].kind == BS_PK_TEXT) {
					struct bs_buf vb = BS_BUF_INIT;
					bs_rparam_values(g, k[j], &vb);
					snprintf(v, sizeof(v), "%s",
						 bs_buf_str(&vb));
					bs_buf_release(&vb);
				}
				snprintf(cur + n, sizeof(cur) - n, "%s%s",
					 j ? "/" : "", v[0] ? v : "?");
			}
		}
		for (j = 0; j < np; j++)
			if (g->param[k[j]].mixed)
				differ = 1;
		if (strcmp(cur, "") == 0 || strspn(cur, "?/") == strlen(cur))
			continue;
		if (known++ == 0)
			snprintf(first, sizeof(first), "%s", cur);
		else if (strcmp(first, cur) != 0)
			differ = 1;
		bs_buf_addf(&b, "%s[%zu] %s", known > 1 ? ", " : "", i + 1,
			    cur);
	}
	if (differ) {
		struct bs_buf n = BS_BUF_INIT;
		bs_buf_addf(&n, "%s differs: %s; %s", pr->what,
			    bs_buf_str(&b), pr->why);
		if (pr->apart)
			bs_buf_addf(&n, ": %s, given no verdict and no ratio "
					"in the summary",
				    bs_verdicts[BS_V_APART].words);
		bs_rnote_add(rep, &n);
	}
	bs_buf_release(&b);
}

static void gen_note(struct bs_report *rep)
{
	struct bs_buf b = BS_BUF_INIT;
	unsigned all = 0;
	size_t i, k;
	int n = 0;

	for (i = 0; i < rep->ngroups; i++)
		if (bs_rhas_tests(&rep->groups[i], BS_M_PUTC, BS_M_SEEKS))
			all |= rep->groups[i].gens;
	if (all != (BS_GEN_1_0X | BS_GEN_1_9X))
		return;
	bs_buf_adds(&b, "bonnie++ 1.0x and 1.9x or later measure per-char "
			"I/O and seeks differently (stdio putc/getc over the "
			"whole file against 1-byte system calls over the -f "
			"size; 3 seek processes against 5 threads), so putc, "
			"getc and seeks do not compare:");
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		if (!bs_rhas_tests(g, BS_M_PUTC, BS_M_SEEKS))
			continue;
		bs_buf_addf(&b, "%s [%zu] ", n++ ? "," : "", i + 1);
		for (k = 0; k < g->nversions; k++)
			bs_buf_addf(&b, "%s%s", k ? ", " : "", g->versions[k]);
		if (g->more_versions)
			bs_buf_adds(&b, ", ...");
	}
	bs_rnote_add(rep, &b);
}

static const char *runs_word(int64_t n)
{
	return n == 1 ? "run" : "runs";
}

/*
 * A note per group whose runs are unlike: they differ in a tag (host
 * facts are tags host.*), the tool's version, or a parameter of
 * bs_param_rules.
 */
static void mix_note(struct bs_report *rep, size_t i)
{
	const struct bs_report_group *g = &rep->groups[i];
	struct bs_buf b = BS_BUF_INIT;
	size_t j, v, parts = 0;
	int r, k[8], n, kk, seen[BS_P_MAX] = {0}, split = -1;

	for (j = 0; j < g->nmix; j++) {
		const struct bs_report_tagmix *x = &g->mix[j];

		if (x->nval < 2 && x->seen == g->nruns)
			continue;
		bs_buf_adds(&b, parts++ ? "; " : "");
		for (v = 0; v < x->nval; v++)
			bs_buf_addf(&b, "%s%s=%s (%lld %s)",
				    v == 0			     ? ""
				    : v + 1 == x->nval && !x->other &&
						  x->seen == g->nruns
					    ? " and "
					    : ", ",
				    x->key, x->val[v], (long long)x->cnt[v],
				    runs_word(x->cnt[v]));
		if (x->other)
			bs_buf_addf(&b, "%s%lld more %s with other values",
				    x->seen == g->nruns ? " and " : ", ",
				    (long long)x->other, runs_word(x->other));
		if (x->seen < g->nruns)
			bs_buf_addf(&b, " and %lld without %s",
				    (long long)(g->nruns - x->seen), x->key);
	}
	if (g->nversions > 1) {
		bs_buf_adds(&b, parts++ ? "; " : "");
		for (v = 0; v < g->nversions; v++)
			bs_buf_addf(&b, "%s%s",
				    v == 0 ? ""
				    : v + 1 == g->nversions && !g->more_versions
					    ? " and "
					    : ", ",
				    g->versions[v]);
		if (g->more_versions)
			bs_buf_adds(&b, " and more");
	}
	for (r = 0; r < bs_nparam_rules; r++) {
		n = bs_param_rule_keys(&bs_param_rules[r], k, 8);
		for (kk = 0; kk < n; kk++) {
			if (seen[k[kk]] || !g->param[k[kk]].mixed)
				continue;
			seen[k[kk]] = 1;
			bs_buf_addf(&b, "%s%s ", parts++ ? "; " : "",
				    bs_param_table[k[kk]].label);
			bs_rparam_values(g, k[kk], &b);
			/* Different tests in one group: say how to split
			 * them (report/factor.h takes parameters). */
			if (bs_param_rules[r].apart && split < 0)
				split = k[kk];
		}
	}
	if (parts) {
		struct bs_buf t = BS_BUF_INIT;

		bs_buf_addf(&t, "[%zu] mixes %s; its means average unlike "
				"runs",
			    i + 1, bs_buf_str(&b));
		if (split >= 0)
			bs_buf_addf(&t, " (--by %s splits them)",
				    bs_param_table[split].key);
		bs_rnote_add(rep, &t);
	}
	bs_buf_release(&b);
}

/*
 * A note per group whose size parameter of a rule with ram_tag is under
 * twice the RAM its runs' common tag says: the page cache may hold the
 * files, so rates may be the memory's.
 */
static void ram_note(struct bs_report *rep, const struct bs_param_rule *pr)
{
	size_t i, j;
	int k[8], t0, t1;
	int64_t ram_mib;
	char v[96];

	bs_param_rule_keys(pr, k, 8);
	bs_rrule_rows(pr, k[0], &t0, &t1);
	for (i = 0; i < rep->ngroups; i++) {
		const struct bs_report_group *g = &rep->groups[i];
		const struct bs_report_param *p = &g->param[k[0]];
		struct bs_buf b = BS_BUF_INIT;
		const char *ram = NULL;

		if (!bs_rhas_tests(g, t0, t1) || p->nvals != 1)
			continue;
		for (j = 0; j < g->ntags && ram == NULL; j++)
			if (strcmp(g->tags[j].key, pr->ram_tag) == 0)
				ram = g->tags[j].value;
		if (ram == NULL ||
		    bs_parse_i64(ram, strlen(ram), &ram_mib) < 0 ||
		    ram_mib <= 0 || p->vals[0].i >= ram_mib * 2 * 1048576)
			continue;
		bs_buf_addf(&b, "[%zu] %s %s is under twice the host's RAM "
				"(%s=%s): the page cache may hold the files, "
				"so its rates may be the memory's",
			    i + 1, bs_param_table[k[0]].label,
			    bs_rpval_text(k[0], &p->vals[0], v, sizeof(v)),
			    pr->ram_tag, ram);
		bs_rnote_add(rep, &b);
	}
}

void bs_rnotes(struct bs_report *rep)
{
	size_t i;

	gen_note(rep);
	for (i = 0; i < (size_t)bs_nparam_rules; i++)
		param_note(rep, &bs_param_rules[i]);
	for (i = 0; i < (size_t)bs_nparam_rules; i++)
		if (bs_param_rules[i].ram_tag)
			ram_note(rep, &bs_param_rules[i]);
	for (i = 0; i < rep->ngroups; i++)
		mix_note(rep, i);
}
