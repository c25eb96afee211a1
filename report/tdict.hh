/*
 * report/tdict.hh - what the ctemplate binding (tmpl.cc) and bstore's
 * dictionaries (tdict.cc) share. C++ only; C code sees report/tmpl.h.
 */
#ifndef BS_REPORT_TDICT_HH
#define BS_REPORT_TDICT_HH

#include <ctemplate/template_dictionary_interface.h>

extern "C" {
#include "util/buf.h"
#include "util/embed.h"
#include "util/err.h"
}
#include "report/tmpl.h"

/* As util/mem.c: out of memory prints one line and aborts. */
[[noreturn]] void bs_tmpl_out_of_memory();

/*
 * Called only inside a catch block: turns the exception being handled
 * into a BS_ETMPL error, "where: what()", and returns -BS_ETMPL; a
 * std::bad_alloc is out of memory and aborts.
 */
int bs_tmpl_caught(struct bs_err *err, const char *where);

/* d as ctemplate expands it; valid as long as d is. */
const ctemplate::TemplateDictionaryInterface *
bs_tdict_iface(const struct bs_tdict *d);

/*
 * The first error kept while d's root was filled (the first bs_tdict_*
 * call that failed), or NULL when there was none. Valid until the root
 * is cleared or freed.
 */
const char *bs_tdict_error(const struct bs_tdict *d);

#endif
