/*
 * cli/select.h - selectors into run ids, "did you mean" when none
 * match (cli/select.c).
 */
#ifndef BS_CLI_SELECT_H
#define BS_CLI_SELECT_H

#include "cli/cli.h"
#include "store/store.h"

enum {
	BS_SEL_ALL_IF_NONE = 1, /* no selector selects every run */
	BS_SEL_NEED_MATCH = 2,  /* selecting nothing is an error (below) */
	/* Begin a write transaction first (the caller commits), so that the
	 * runs selected are the runs changed, whatever other processes do. */
	BS_SEL_WRITE = 4,
};

/*
 * Resolves selectors into ids (union of all). With nsel == 0, selects
 * every run with BS_SEL_ALL_IF_NONE, else nothing. Each selector that
 * matches nothing is named on stderr (bs_cli_no_match), as a warning,
 * or as an error that fails the command (BS_EXIT_FAIL) when flags has
 * BS_SEL_NEED_MATCH and no run at all is selected. Prints errors;
 * returns 0, BS_EXIT_USAGE for a bad selector, BS_EXIT_FAIL otherwise.
 */
int bs_cli_select(const struct bs_cli *cli, struct bs_store *st, char **sel,
		  int nsel, int flags, struct bs_ids *out);

/*
 * Says that a selection is empty, as an error when fatal, else as a
 * warning: "the archive 'PATH' has no runs yet (...)" when it has none
 * at all (and returns 1, so that it is said once), else "selector 'SEL'
 * matches no runs", with "; did you mean 'SEL2'?" when known keys or
 * values are close to those of SEL, or "no run matches" when sel is NULL
 * (returns 0).
 */
int bs_cli_no_match(const struct bs_cli *cli, struct bs_store *st,
		    const char *sel, int fatal);

/*
 * Did you mean: the tag key closest to key (util/similar.h) among those
 * of the archive's runs, and with fields also the run fields selectors
 * read; NULL when none is close. The caller frees it. A selector that
 * matches nothing gets its suggestion in bs_cli_no_match.
 */
char *bs_cli_closest_tag(struct bs_store *st, const char *key, int fields);

/*
 * bs_cli_open_store, then bs_cli_select. On failure prints the error,
 * leaves *st NULL and returns the exit status; else returns 0.
 */
int bs_cli_open_select(const struct bs_cli *cli, int store_flags, char **sel,
		       int nsel, int sel_flags, struct bs_store **st,
		       struct bs_ids *ids);

#endif
