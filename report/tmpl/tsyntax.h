/*
 * report/tmpl/tsyntax.h - what ctemplate will make of a template's text, found
 * out before ctemplate sees it (report/tmpl/tmpl.cc is the only caller).
 *
 * ctemplate's blank-line stripping loops forever once a template sets
 * both marker delimiters to nothing ({{= =}}), so the stripping is done
 * here instead: bs_tsyntax_strip() is ctemplate 2.4's STRIP_BLANK_LINES,
 * ported, but for that loop. tmpl.cc hands ctemplate the stripped text to
 * parse with DO_NOT_STRIP, so whatever is checked here is checked on the
 * very bytes ctemplate parses: bs_tsyntax_scan() finds how deep sections
 * nest before ctemplate's parser recurses that deep.
 */
#ifndef BS_REPORT_TSYNTAX_H
#define BS_REPORT_TSYNTAX_H

#include <stddef.h>

#include "util/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Appends text (len bytes, may hold NULs) to out as ctemplate's
 * STRIP_BLANK_LINES leaves it: a line of white space only is dropped, and
 * a line holding nothing but one section, include, comment, pragma or
 * set-delimiter marker loses its surrounding white space and its newline.
 * Like ctemplate, it follows {{=X Y=}} delimiter changes line by line.
 */
void bs_tsyntax_strip(const char *text, size_t len, struct bs_buf *out);

/* Include markers bs_tsyntax_scan() keeps the names of. */
#define BS_TSYNTAX_MAX_INC 16

/* What bs_tsyntax_scan() finds. */
struct bs_tsyntax {
	/*
	 * How deep sections ({{#NAME}} in the delimiters of the moment)
	 * nest. ctemplate's parser recurses once per level, so a deep
	 * template overflows its stack.
	 */
	size_t depth;
	/*
	 * The text ends inside a set-delimiter marker, right where the
	 * '=' would be followed by the end marker: ctemplate compares the
	 * end marker there and reads a byte past the text.
	 */
	int ends_in_delims;
	/*
	 * Pragma markers ({{%AUTOESCAPE ...}}). ctemplate takes one, at
	 * the top; at a second it sets up its HTML parser again before it
	 * fails, and leaks the first.
	 */
	size_t pragmas;
	/*
	 * The first extension modifier (x-...) of a variable or include
	 * that is not one of the caller's, as written ("x-cvs", "x-csv=1"),
	 * len bytes into the text; NULL when there is none. ctemplate
	 * takes an x- modifier it does not know for no modifier at all,
	 * and keeps its name for good.
	 */
	const char *unknown_mod;
	size_t unknown_mod_len;
	/*
	 * Include markers ({{>NAME}}): how many, and the names of the
	 * first BS_TSYNTAX_MAX_INC, each len bytes into the text.
	 */
	size_t nincludes;
	struct {
		const char *name;
		size_t len;
	} inc[BS_TSYNTAX_MAX_INC];
};

/*
 * Reads stripped text as ctemplate's parser reads it with DO_NOT_STRIP
 * (SectionTemplateNode::GetNextToken()), markers, delimiter changes and
 * all. Where ctemplate would stop at an error the scan may go on, so
 * what it finds is never less than what ctemplate would meet. mods[0..n)
 * are the extension modifiers registered (taking no value).
 */
void bs_tsyntax_scan(const char *text, size_t len, const char *const *mods,
		     size_t nmods, struct bs_tsyntax *out);

#ifdef __cplusplus
}
#endif

#endif
