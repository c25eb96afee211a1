/*
 * report/tdict.hh - what the ctemplate binding (tmpl.cc) and bstore's
 * dictionaries (tdict.cc) share. C++ only; C code sees report/tmpl.h.
 */
#ifndef BS_REPORT_TDICT_HH
#define BS_REPORT_TDICT_HH

#include <ctemplate/template_dictionary_interface.h>

#include <cstdint>

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
 * While one lives, this thread's expansion walks at most limit() section
 * children of d's root. ctemplate looks a section up in the dictionary
 * and its ancestors, so a section inside itself walks its parent's list
 * again at every level: {{#METRIC}} 8 deep over 24 metrics is 24^8
 * walks. Past the limit every section has no more children (ctemplate
 * expands it once, with the values at hand) and exhausted() is true.
 * Limits made in turn stack: the latest counts, the one before resumes.
 */
class BsWalkLimit {
public:
	/* Walks every dictionary may take, and per node of the root. */
	static const uint64_t kMin = 1000000, kPerNode = 64;

	explicit BsWalkLimit(const struct bs_tdict *d);
	~BsWalkLimit();
	BsWalkLimit(const BsWalkLimit &) = delete;
	BsWalkLimit &operator=(const BsWalkLimit &) = delete;

	uint64_t limit() const
	{
		return limit_;
	}
	bool exhausted() const
	{
		return exhausted_;
	}
	/* Counts one walk of the current limit; false when none is left. */
	static bool take();

private:
	uint64_t limit_, left_;
	bool exhausted_ = false;
	BsWalkLimit *prev_;
};

/*
 * The first error kept while d's root was filled (the first bs_tdict_*
 * call that failed), or NULL when there was none. Valid until the root
 * is cleared or freed.
 */
const char *bs_tdict_error(const struct bs_tdict *d);

#endif
