/*
 * report/site.h - a static web site of stored runs (bstore site).
 *
 * The pages, each a file under the site's root:
 *   index.html            each machine's newest run with its main
 *                         results (100 machines a page, index-pN.html);
 *                         the newest runs; the saved comparisons; one
 *                         table of tag keys (host.* facts are on the
 *                         machine pages); the tools
 *   run/ID-DIGEST.html    one run: identity, tags, parameters, every
 *                         result, a zcav curve, the original text.
 *                         DIGEST is the first 8 hex digits of its SHA-256,
 *                         so the URL of a run never names another one
 *   machine/SLUG.html     the runs of one machine, tag/SLUG.html of one
 *   tag/SLUG.html         tag value, tool/SLUG.html of one tool, with a
 *   tool/SLUG.html        trend chart (inline SVG) of the main metrics
 *                         when the runs were measured on several days;
 *                         lists of over 500 runs go on in SLUG-pN.html,
 *                         500 runs a page in id order, and a tag key of
 *                         many values has tag/KEY-HASH.html
 *                         SLUG is the name in [a-z0-9-] plus 8 hex digits
 *                         of the SHA-256 of the exact name (stable, and
 *                         apart for names that differ only in case)
 *   site.css              the one style sheet
 *   compare/NAME.html     saved comparisons: written by the caller (the
 *                         report renderer), linked from the index here
 *   changes.html          the change points of every series (opts.changes,
 *                         newest first), each linking the runs before and
 *                         after and change/RUN-METRIC.html; the index
 *                         leads with the newest of them
 *   changes.xml           the same as an Atom 1.0 feed
 *   change/RUN-METRIC.html the comparison of a change's two levels as two
 *                         groups: written by the caller
 *                         (bs_site_change_path)
 *
 * Every link is relative, no page has a script or fetches anything, and
 * every stored string goes through the template's HTML autoescaping
 * (templates/site.html). The same runs give the same bytes: no page
 * carries the time it was made, so a rebuild can skip unchanged files.
 */
#ifndef BS_REPORT_SITE_H
#define BS_REPORT_SITE_H

#include <stddef.h>
#include <stdint.h>

#include "report/report.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/err.h"

/* The directories of the site's pages, which it owns: a page in one of
 * them that a build did not make is a page of a run that is gone. */
extern const char *const bs_site_dirs[];
extern const size_t bs_site_ndirs;

/*
 * Whether name is one the build makes in the site's directory dir (one
 * of bs_site_dirs, or "" for the root): "17-3fa9c2d1.html" in run/,
 * "jump-1a2b3c4d.html" and its pages "jump-1a2b3c4d-p2.html" in
 * machine/, tag/ and tool/, "NAME.html" (a saved comparison's name) in
 * compare/, "index-p2.html" in the root. A rebuild removes only files of
 * these names: whatever else is in the directory is not the site's.
 */
int bs_site_own_name(const char *dir, const char *name);

/*
 * Called for each page: path relative to the root ("run/17-3fa9c2d1.html"),
 * the page's bytes. Returns 0, or <0 with err filled to stop the build.
 */
typedef int (*bs_site_put_fn)(void *ctx, const char *path, const char *data,
			      size_t len, struct bs_err *err);

struct bs_changes;
struct bs_changes_item;

struct bs_site_opts {
	/* Saved comparisons the caller wrote as compare/NAME.html. */
	const char *const *compares;
	size_t ncompares;
	/* The change points of the site's runs (bs_changes_build), NULL
	 * for none: marked on the charts of their series, listed on
	 * changes.html and in changes.xml; the caller wrote each one's
	 * comparison at bs_site_change_path. */
	const struct bs_changes *changes;
};

/* The path of a change's comparison page: "change/21-writes_per_s.html"
 * (its first run and its metric's key: one change a page). */
void bs_site_change_path(const struct bs_changes_item *it, struct bs_buf *b);

/*
 * Builds the site of the runs of group 0 of src (report/report.h: the
 * one source of runs of every page; each run with everything loaded,
 * BS_LOAD_ALL), reading each run once, and hands every page but the
 * comparisons to put(). Memory: about 400 bytes a run and its tags
 * (names kept once), plus one page at a time.
 */
int bs_site_build(const struct bs_report_source *src,
		  const struct bs_site_opts *opts, bs_site_put_fn put,
		  void *ctx, struct bs_err *err);

#endif
