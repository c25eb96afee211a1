/*
 * report/tmpl/tdict.hh - what the ctemplate binding (tmpl.cc) and bstore's
 * dictionaries (tdict.cc) share. C++ only; C code sees report/tmpl/tmpl.h.
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
#include "report/tmpl/tmpl.h"

/* As util/mem.c: out of memory prints one line and aborts. */
[[noreturn]] void bs_tmpl_out_of_memory();

/*
 * Called only inside a catch block: turns the exception being handled
 * into a BS_ETMPL error, "where: what()", and returns -BS_ETMPL; a
 * std::bad_alloc is out of memory and aborts.
 */
int bs_tmpl_caught(struct bs_err *err, const char *where);

/*
 * The template an include marker {{>NAME}} expands: NAME in lower case,
 * then ".html" ({{>PAGE_HEAD}}: "page_head.html"). The string lives as
 * long as the thread.
 */
const char *bs_tmpl_include_name(const char *name, size_t len);

/* d as ctemplate expands it; valid as long as d is. */
const ctemplate::TemplateDictionaryInterface *
bs_tdict_iface(const struct bs_tdict *d);

/*
 * While one lives, this thread's expansion of d may take at most limit()
 * steps: one per section child walked, section or value looked up, and
 * byte written. ctemplate looks a section up in the dictionary and its
 * ancestors, so a section inside itself walks its parent's list again at
 * every level ({{#METRIC}} 8 deep over 24 metrics is 24^8 walks), and
 * each walk expands the section's whole text. Past the limit sections
 * are hidden, values empty and text dropped, so ctemplate ends at once,
 * and exhausted() is true. The limit grows with what the expansion has
 * to show: kMin, plus kPerByte per byte of the template's text and of
 * d's names and values, plus kPerNode per dictionary in d's sections.
 * Budgets made in turn stack: the latest counts, the one before resumes.
 */
class BsExpandBudget {
public:
	static const uint64_t kMin = (uint64_t)4 << 20, kPerByte = 64,
			      kPerNode = 64;

	BsExpandBudget(const struct bs_tdict *d, size_t template_bytes);
	~BsExpandBudget();
	BsExpandBudget(const BsExpandBudget &) = delete;
	BsExpandBudget &operator=(const BsExpandBudget &) = delete;

	uint64_t limit() const
	{
		return limit_;
	}
	bool exhausted() const
	{
		return exhausted_;
	}
	/* Takes n steps from this thread's budget, if there is one; false
	 * when they are not there (and none are left from then on). Inline:
	 * it is asked for every piece ctemplate writes. */
	static bool take(uint64_t n)
	{
		BsExpandBudget *b = current_;

		if (b == NULL)
			return true;
		if (b->stopped_ || b->left_ < n)
			return b->spent();
		b->left_ -= n;
		return true;
	}
	/* Ends this thread's expansion as a spent budget would, but not as
	 * exhausted(): its caller has its own reason (the output failed). */
	static void stop();

private:
	/* The budget of this thread's expansion, if any. */
	static thread_local BsExpandBudget *current_;
	bool spent();

	uint64_t limit_, left_;
	bool exhausted_ = false, stopped_ = false;
	BsExpandBudget *prev_;
};

/*
 * The first error kept while d's root was filled (the first bs_tdict_*
 * call that failed), or NULL when there was none. Valid until the root
 * is cleared or freed.
 */
const char *bs_tdict_error(const struct bs_tdict *d);

#endif
