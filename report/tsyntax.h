/*
 * report/tsyntax.h - what ctemplate will make of a template's text, found
 * out before ctemplate sees it (report/tmpl.cc is the only caller).
 *
 * ctemplate's blank-line stripping loops forever once a template sets
 * both marker delimiters to nothing ({{= =}}), so the stripping is done
 * here instead: bs_tsyntax_strip() is ctemplate 2.4's STRIP_BLANK_LINES,
 * ported, but for that loop. tmpl.cc hands ctemplate the stripped text to
 * parse with DO_NOT_STRIP, so whatever is checked here is checked on the
 * very bytes ctemplate parses.
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

#ifdef __cplusplus
}
#endif

#endif
