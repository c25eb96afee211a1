/*
 * report/tmpl/tmpl.h - a C API over Google ctemplate, the one header of
 * the template binding (report/tmpl/: tmpl.cc, the binding, and tdict.cc,
 * the dictionaries, are bstore's only C++; no other file sees ctemplate).
 * Its rooms (tests/cli/rooms.sh checks that each file is named here):
 *
 *   tmpl.h     this header, the C face
 *   tmpl.cc    the binding: template sets, modifiers, expanding, errors
 *   tdict.hh   what tmpl.cc and tdict.cc share (C++ only)
 *   tdict.cc   bstore's dictionaries, over ctemplate's interface
 *   tsyntax.h, tsyntax.c
 *              ctemplate's syntax as bstore checks it before ctemplate parses
 *
 * Every function catches C++ exceptions and turns them into a negative
 * BS_E* code with a message.
 *
 * A template set is loaded once: each template comes from a directory
 * when the caller names one and the file is there, else from the copy
 * compiled into the binary. Loading parses every template (a syntax error
 * fails here, with ctemplate's message), then freezes the set: expanding
 * never changes it, so a loaded set may be shared by any number of
 * expansions.
 *
 * Templates are stripped as ctemplate's STRIP_BLANK_LINES strips them
 * (report/tmpl/tsyntax.h): blank lines and lines holding only section
 * markers vanish, so a template can put each {{#SECTION}} on its own line;
 * {{BI_NEWLINE}} writes a wanted blank line.
 * HTML templates start with {{%AUTOESCAPE context="HTML"}}. Three
 * modifiers are registered for the others, each the one rule of util/
 * that the exports use too:
 *   x-csv   one CSV cell with the formula guard (util/csv.h)
 *   x-json  the inside of a JSON string (util/json.h)
 *   x-text  plain text: control characters (but tab) become '?'
 *           (util/text.h)
 *
 * An include marker {{>NAME}} expands the set's template name.html (NAME
 * in lower case: {{>PAGE_HEAD}} is page_head.html) once, with the
 * including dictionary. Loading fails when that template is not in the
 * set, or includes others itself (so an expansion never recurses).
 *
 * A dictionary holds the values of one expansion: named values and
 * sections, each section a list of child dictionaries, in the order added.
 * A child sees its ancestors' values, as in ctemplate. Dictionaries are
 * bstore's own (cheaper than ctemplate's for reports of many runs); a
 * section shown without children expands once with its parent's values.
 * Errors while filling a dictionary are kept in it and returned by the
 * next bs_tmpl_expand(), so callers need not check every call.
 */
#ifndef BS_REPORT_TMPL_H
#define BS_REPORT_TMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/buf.h"
#include "util/embed.h"
#include "util/err.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bs_tmpl_set;
struct bs_tdict;

/*
 * Sections may nest this deep: ctemplate's parser recurses once per
 * level, and a template nested thousands deep would overflow the stack.
 */
#define BS_TMPL_MAX_DEPTH 100

/* A template file may be this large. */
#define BS_TMPL_MAX_BYTES ((size_t)1 << 20)

/*
 * Loads the templates called names[0..n-1]: from dir/<name> when dir is
 * not NULL and that file exists, else from defaults. A name found in
 * neither fails with BS_ENOTFOUND; a directory that cannot be read, with
 * BS_EIO; a dir/<name> that is not a regular file (a directory, a FIFO, a
 * device), or is larger than BS_TMPL_MAX_BYTES, as util/readfile.h says;
 * a template that does not parse, or nests sections deeper than
 * BS_TMPL_MAX_DEPTH, with BS_ETMPL.
 */
int bs_tmpl_set_load(struct bs_tmpl_set **out,
		     const struct bs_embedded *defaults,
		     const char *const *names, size_t n, const char *dir,
		     struct bs_err *err);
/* bs_tmpl_set_free(NULL) does nothing. */
void bs_tmpl_set_free(struct bs_tmpl_set *ts);

/* A new, empty dictionary. */
int bs_tdict_new(struct bs_tdict **out, struct bs_err *err);
/* Frees a dictionary made by bs_tdict_new and all its sections. */
void bs_tdict_free(struct bs_tdict *d);
/* Empties the dictionary for reuse, keeping its memory. */
void bs_tdict_clear(struct bs_tdict *d);

/*
 * Sets a value (copied). d may be NULL (a section that failed to be
 * added): the call then does nothing. A failure is kept in the
 * dictionary, for the next bs_tmpl_expand() to return with its message.
 */
void bs_tdict_set(struct bs_tdict *d, const char *key, const char *value);
void bs_tdict_setn(struct bs_tdict *d, const char *key, const char *value,
		   size_t len);
void bs_tdict_set_i64(struct bs_tdict *d, const char *key, int64_t v);
void bs_tdict_setf(struct bs_tdict *d, const char *key, const char *fmt, ...)
	BS_PRINTF(3, 4);

/* Shows a section once, with d's own values (kept failures as above). */
void bs_tdict_show(struct bs_tdict *d, const char *section);
/*
 * Adds a child dictionary to a section and returns it (owned by d's root;
 * valid until the root is freed or cleared), or NULL on error.
 */
struct bs_tdict *bs_tdict_add(struct bs_tdict *d, const char *section);

/*
 * Expands template name with dictionary d, appending to out. Returns 0,
 * or <0: BS_ENOTFOUND for a name that was not loaded, BS_ETMPL for an
 * error kept in d or raised while expanding, BS_EIO when writing fails.
 */
int bs_tmpl_expand_file(const struct bs_tmpl_set *ts, const char *name,
			const struct bs_tdict *d, FILE *out,
			struct bs_err *err);
int bs_tmpl_expand_buf(const struct bs_tmpl_set *ts, const char *name,
		       const struct bs_tdict *d, struct bs_buf *out,
		       struct bs_err *err);

#ifdef __cplusplus
}
#endif

#endif
