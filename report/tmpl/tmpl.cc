/*
 * report/tmpl/tmpl.cc - the C binding over Google ctemplate (see tmpl.h):
 * loading template sets, the modifiers, expanding, and turning
 * ctemplate's errors and exceptions into BS_E* codes with a message.
 *
 * ctemplate parses the templates, applies auto-escaping and modifiers and
 * walks the sections; the values come from bstore's own dictionaries
 * (tdict.cc). Nothing here lets an exception cross into C.
 */
#include <ctemplate/template.h>
#include <ctemplate/template_cache.h>
#include <ctemplate/template_emitter.h>
#include <ctemplate/template_modifiers.h>

#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <mutex>
#include <set>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

extern "C" {
#include "util/buf.h"
#include "util/csv.h"
#include "util/embed.h"
#include "util/err.h"
#include "util/json.h"
#include "util/readfile.h"
#include "util/text.h"
}
#include "report/tmpl/tdict.hh"
#include "report/tmpl/tmpl.h"
#include "report/tmpl/tsyntax.h"

using ctemplate::ExpandEmitter;
using ctemplate::PerExpandData;
using ctemplate::TemplateCache;

/* ---- errors (see tdict.hh) ------------------------------------------ */

void bs_tmpl_out_of_memory()
{
	fputs("bstore: out of memory\n", stderr);
	abort();
}

int bs_tmpl_caught(struct bs_err *err, const char *where)
{
	try {
		throw;
	} catch (const std::bad_alloc &) {
		bs_tmpl_out_of_memory();
	} catch (const std::exception &e) {
		return bs_error(err, BS_ETMPL, "%s: %s", where, e.what());
	} catch (...) {
		return bs_error(err, BS_ETMPL, "%s: unknown error", where);
	}
}

namespace
{

/* ---- modifiers ------------------------------------------------------ */

/* The modifiers use util's one CSV cell writer, JSON escaper and text
 * cleaner, so templates and exports write text the same way. */
void emit_buf(ExpandEmitter *out, struct bs_buf *b)
{
	out->Emit(bs_buf_str(b), b->len);
	bs_buf_release(b);
}

class CsvModifier : public ctemplate::TemplateModifier
{
	void Modify(const char *in, size_t inlen, const PerExpandData *,
		    ExpandEmitter *out, const std::string &) const override
	{
		struct bs_buf b = BS_BUF_INIT;
		bs_csv_cell(&b, in, inlen);
		emit_buf(out, &b);
	}
};

class JsonModifier : public ctemplate::TemplateModifier
{
	void Modify(const char *in, size_t inlen, const PerExpandData *,
		    ExpandEmitter *out, const std::string &) const override
	{
		struct bs_buf b = BS_BUF_INIT;
		bs_json_escape(&b, in, inlen);
		emit_buf(out, &b);
	}
};

class TextModifier : public ctemplate::TemplateModifier
{
	void Modify(const char *in, size_t inlen, const PerExpandData *,
		    ExpandEmitter *out, const std::string &) const override
	{
		struct bs_buf b = BS_BUF_INIT;
		bs_text_clean(&b, in, inlen, BS_TEXT_TAB);
		emit_buf(out, &b);
	}
};

std::once_flag modifiers_once;
bool modifiers_ok;

/* bstore's modifiers, in register_modifiers()'s order: a template may
 * use no other x- modifier (see parse()). */
const char *const kModifierNames[] = {"x-csv", "x-json", "x-text"};
const size_t kNModifiers = sizeof(kModifierNames) / sizeof(kModifierNames[0]);

void register_modifiers()
{
	static CsvModifier csv;
	static JsonModifier json;
	static TextModifier text;
	const ctemplate::TemplateModifier *const mods[] = {&csv, &json, &text};
	size_t i;

	static_assert(sizeof(mods) / sizeof(mods[0]) == kNModifiers,
		      "a name for each modifier");
	modifiers_ok = true;
	for (i = 0; i < kNModifiers && modifiers_ok; i++)
		modifiers_ok =
			ctemplate::AddModifier(kModifierNames[i], mods[i]);
}

/* ---- emitters ------------------------------------------------------- */

/* Collects output in 64 KiB pieces: ctemplate emits many tiny ones. */
class FileEmitter : public ExpandEmitter
{
      public:
	explicit FileEmitter(FILE *f) : f_(f)
	{
		buf_.reserve(kChunk);
	}
	~FileEmitter() override
	{
		flush();
	}
	void Emit(char c) override
	{
		/* ctemplate's escapes write byte by byte: no append() here. */
		if (!BsExpandBudget::take(1))
			return;
		buf_.push_back(c);
		if (buf_.size() >= kChunk)
			flush();
	}
	void Emit(const std::string &s) override
	{
		Emit(s.data(), s.size());
	}
	void Emit(const char *s) override
	{
		Emit(s, strlen(s));
	}
	void Emit(const char *s, size_t n) override
	{
		if (!BsExpandBudget::take(n))
			return;
		buf_.append(s, n);
		if (buf_.size() >= kChunk)
			flush();
	}
	/* Writes what is buffered; returns the errno of a failed write. */
	int flush()
	{
		if (!buf_.empty() && !failed_ &&
		    fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) {
			failed_ = errno ? errno : EIO;
			BsExpandBudget::stop(); /* nothing more can be kept */
		}
		buf_.clear();
		return failed_;
	}

      private:
	static const size_t kChunk = 65536;
	FILE *f_;
	std::string buf_;
	int failed_ = 0;
};

class BufEmitter : public ExpandEmitter
{
      public:
	explicit BufEmitter(struct bs_buf *b) : b_(b)
	{
	}
	void Emit(char c) override
	{
		Emit(&c, 1);
	}
	void Emit(const std::string &s) override
	{
		Emit(s.data(), s.size());
	}
	void Emit(const char *s) override
	{
		Emit(s, strlen(s));
	}
	void Emit(const char *s, size_t n) override
	{
		if (BsExpandBudget::take(n) && bs_buf_add(b_, s, n) < 0) {
			failed_ = 1;
			BsExpandBudget::stop(); /* nothing more can be kept */
		}
	}
	int failed() const
	{
		return failed_;
	}

      private:
	struct bs_buf *b_;
	int failed_ = 0;
};

/*
 * ctemplate writes parse errors to std::cerr; while a template is parsed,
 * they are caught here to become the error message instead.
 */
class CerrCapture
{
      public:
	CerrCapture() : old_(std::cerr.rdbuf(ss_.rdbuf()))
	{
	}
	~CerrCapture()
	{
		std::cerr.rdbuf(old_);
	}
	std::string text() const
	{
		std::string s = ss_.str();
		while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
			s.pop_back();
		return s;
	}

      private:
	std::stringstream ss_;
	std::streambuf *old_;
};

} /* namespace */

/* ---- template sets -------------------------------------------------- */

struct bs_tmpl_set {
	TemplateCache cache;
	std::vector<std::string> names;
	std::vector<size_t> sizes; /* of each one's text, as parsed */
	/* The templates each one includes, as bs_tmpl_include_name() names
	 * them. */
	std::vector<std::vector<std::string>> includes;
};

const char *bs_tmpl_include_name(const char *name, size_t len)
{
	/* Interned: ctemplate keeps the pointer while it expands. */
	static thread_local std::set<std::string> names;
	std::string s(name, len);

	for (char &c : s)
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
	s += ".html";
	return names.insert(s).first->c_str();
}

namespace
{

/*
 * Templates are stripped as STRIP_BLANK_LINES would (tsyntax.h) before
 * ctemplate sees them, and ctemplate parses the result as it is: its own
 * stripping can loop forever, and the checks of tsyntax.h hold only for
 * the bytes they saw.
 */
const ctemplate::Strip kStrip = ctemplate::DO_NOT_STRIP;

/* Reads a template file whole; *missing says there is none at path. */
int read_file(const std::string &path, std::string *out, int *missing,
	      struct bs_err *err)
{
	struct bs_buf b = BS_BUF_INIT;
	struct bs_err e = BS_ERR_INIT;
	int rc;

	rc = bs_readfile(path.c_str(), "template", BS_TMPL_MAX_BYTES, &b, &e);
	*missing = rc == -BS_ENOTFOUND;
	if (rc == 0)
		out->assign(bs_buf_str(&b), b.len);
	bs_buf_release(&b);
	if (rc < 0 && !*missing)
		return bs_error(err, e.code, "%s", e.msg);
	return 0;
}

/*
 * Strips the text, checks what ctemplate cannot take (tsyntax.h), then
 * has ctemplate parse it into the set's cache as name. shown names the
 * template in messages: its path, or its name when built in.
 */
int parse(struct bs_tmpl_set *ts, const char *name, std::string &text,
	  const std::string &shown, std::vector<std::string> *includes,
	  struct bs_err *err)
{
	struct bs_buf stripped = BS_BUF_INIT;
	struct bs_tsyntax syn;
	bool ok;
	std::string msg;

	bs_tsyntax_strip(text.data(), text.size(), &stripped);
	text.assign(bs_buf_str(&stripped), stripped.len);
	bs_buf_release(&stripped);
	bs_tsyntax_scan(text.data(), text.size(), kModifierNames, kNModifiers,
			&syn);
	if (syn.depth > BS_TMPL_MAX_DEPTH)
		return bs_error(err, BS_ETMPL,
				"template '%s' nests sections %zu deep (at "
				"most %d)",
				shown.c_str(), syn.depth, BS_TMPL_MAX_DEPTH);
	if (syn.ends_in_delims)
		return bs_error(err, BS_ETMPL,
				"template '%s' does not parse: it ends inside "
				"a set-delimiter marker",
				shown.c_str());
	if (syn.unknown_mod) {
		std::string known;
		char q[64];

		for (size_t i = 0; i < kNModifiers; i++) {
			if (i > 0)
				known += i + 1 < kNModifiers ? ", " : " and ";
			known += kModifierNames[i];
		}
		return bs_error(err, BS_ETMPL,
				"template '%s' does not parse: unknown "
				"modifier '%s' (bstore's are %s)",
				shown.c_str(),
				bs_err_quote(q, sizeof(q), syn.unknown_mod,
					     syn.unknown_mod_len, 40),
				known.c_str());
	}
	if (syn.nincludes > BS_TSYNTAX_MAX_INC)
		return bs_error(err, BS_ETMPL,
				"template '%s' includes %zu templates (at "
				"most %d)",
				shown.c_str(), syn.nincludes,
				BS_TSYNTAX_MAX_INC);
	for (size_t i = 0; i < syn.nincludes; i++)
		includes->push_back(
			bs_tmpl_include_name(syn.inc[i].name, syn.inc[i].len));
	if (syn.pragmas > 1)
		return bs_error(err, BS_ETMPL,
				"template '%s' does not parse: it has %zu "
				"pragma markers ({{%%...}}), and only one is "
				"allowed, at the top",
				shown.c_str(), syn.pragmas);
	{
		CerrCapture cap;
		ok = ts->cache.StringToTemplateCache(name, text, kStrip);
		msg = cap.text();
	}
	if (!ok)
		return bs_error(err, BS_ETMPL,
				"template '%s' does not parse%s%s",
				shown.c_str(), msg.empty() ? "" : ": ",
				msg.c_str());
	return 0;
}

/*
 * Each include names a template of the set that includes none itself, so
 * an expansion never recurses; an expansion's budget counts the text of
 * what it includes too.
 */
int check_includes(struct bs_tmpl_set *ts, struct bs_err *err)
{
	size_t i, j, k;

	for (i = 0; i < ts->names.size(); i++) {
		for (const std::string &inc : ts->includes[i]) {
			for (j = 0; j < ts->names.size(); j++)
				if (ts->names[j] == inc)
					break;
			if (j == ts->names.size())
				return bs_error(err, BS_ETMPL,
						"template '%s' includes '%s', "
						"which is not loaded",
						ts->names[i].c_str(),
						inc.c_str());
			if (!ts->includes[j].empty())
				return bs_error(err, BS_ETMPL,
						"template '%s' includes '%s', "
						"which includes others (an "
						"include includes nothing)",
						ts->names[i].c_str(),
						inc.c_str());
		}
	}
	for (i = 0; i < ts->names.size(); i++)
		for (const std::string &inc : ts->includes[i])
			for (k = 0; k < ts->names.size(); k++)
				if (ts->names[k] == inc)
					ts->sizes[i] += ts->sizes[k];
	return 0;
}

int set_load(struct bs_tmpl_set *ts, const struct bs_embedded *defaults,
	     const char *const *names, size_t n, const char *dir,
	     struct bs_err *err)
{
	struct stat st;
	size_t i;
	int rc;

	assert(names != NULL || n == 0);
	std::call_once(modifiers_once, register_modifiers);
	if (!modifiers_ok)
		return bs_error(err, BS_ETMPL,
				"cannot register the template modifiers");
	if (dir) {
		if (stat(dir, &st) < 0)
			return bs_error(err, BS_EIO,
					"cannot open template directory "
					"'%s': %s",
					dir, strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return bs_error(err, BS_EIO,
					"template directory '%s' is not a "
					"directory",
					dir);
	}
	for (i = 0; i < n; i++) {
		std::string text, shown = names[i];
		int missing = 1;

		if (dir) {
			std::string path = std::string(dir) + "/" + names[i];
			rc = read_file(path, &text, &missing, err);
			if (rc < 0)
				return rc;
			if (!missing)
				shown = path;
		}
		if (missing) {
			const struct bs_embedded *e =
				bs_embed_find(defaults, names[i]);
			if (e == NULL)
				return bs_error(err, BS_ENOTFOUND,
						"no template '%s'", names[i]);
			text.assign(e->text, e->len);
		}
		std::vector<std::string> inc;
		rc = parse(ts, names[i], text, shown, &inc, err);
		if (rc < 0)
			return rc;
		ts->names.push_back(names[i]);
		ts->sizes.push_back(text.size());
		ts->includes.push_back(inc);
	}
	rc = check_includes(ts, err);
	if (rc < 0)
		return rc;
	ts->cache.Freeze();
	return 0;
}

/* The size of template name's text, or NULL when it was not loaded. */
const size_t *set_find(const struct bs_tmpl_set *ts, const char *name)
{
	for (size_t i = 0; i < ts->names.size(); i++)
		if (ts->names[i] == name)
			return &ts->sizes[i];
	return NULL;
}

int expand(const struct bs_tmpl_set *ts, const char *name,
	   const struct bs_tdict *d, ExpandEmitter *em, struct bs_err *err)
{
	assert(ts != NULL && name != NULL && d != NULL);
	const size_t *size = set_find(ts, name);
	if (size == NULL)
		return bs_error(err, BS_ENOTFOUND, "no template '%s' loaded",
				name);
	const char *kept = bs_tdict_error(d);
	if (kept)
		return bs_error(err, BS_ETMPL, "template '%s': %s", name, kept);
	bool ok, exhausted;
	uint64_t limit;
	std::string msg;
	{
		CerrCapture cap;
		BsExpandBudget steps(d, *size);
		ok = ts->cache.ExpandNoLoad(name, kStrip, bs_tdict_iface(d),
					    NULL, em);
		exhausted = steps.exhausted();
		limit = steps.limit();
		msg = cap.text();
	}
	if (exhausted)
		return bs_error(err, BS_ETMPL,
				"cannot expand template '%s': more than %llu "
				"steps for this report's data (a section "
				"inside itself repeats its parent's list)",
				name, (unsigned long long)limit);
	if (!ok)
		return bs_error(err, BS_ETMPL,
				"cannot expand template '%s'%s%s", name,
				msg.empty() ? "" : ": ", msg.c_str());
	return 0;
}

} /* namespace */

/* ---- the C API ------------------------------------------------------ */

extern "C" {

int bs_tmpl_set_load(struct bs_tmpl_set **out,
		     const struct bs_embedded *defaults,
		     const char *const *names, size_t n, const char *dir,
		     struct bs_err *err)
{
	struct bs_tmpl_set *ts = NULL;
	int rc;

	*out = NULL;
	try {
		ts = new bs_tmpl_set();
		rc = set_load(ts, defaults, names, n, dir, err);
	} catch (...) {
		rc = bs_tmpl_caught(err, "cannot load templates");
	}
	if (rc < 0) {
		bs_tmpl_set_free(ts);
		return rc;
	}
	*out = ts;
	return 0;
}

void bs_tmpl_set_free(struct bs_tmpl_set *ts)
{
	try {
		delete ts;
	} catch (...) {
		/* Destructors do not throw; nothing to report. */
	}
}

int bs_tmpl_expand_file(const struct bs_tmpl_set *ts, const char *name,
			const struct bs_tdict *d, FILE *out, struct bs_err *err)
{
	int rc;

	try {
		FileEmitter em(out);
		errno = 0;
		rc = expand(ts, name, d, &em, err);
		if (rc == 0 && em.flush())
			rc = bs_error(err, BS_EIO, "cannot write output: %s",
				      strerror(em.flush()));
	} catch (...) {
		rc = bs_tmpl_caught(err, "cannot expand a template");
	}
	return rc;
}

int bs_tmpl_expand_buf(const struct bs_tmpl_set *ts, const char *name,
		       const struct bs_tdict *d, struct bs_buf *out,
		       struct bs_err *err)
{
	int rc;

	try {
		BufEmitter em(out);
		rc = expand(ts, name, d, &em, err);
		if (rc == 0 && em.failed())
			rc = bs_error(err, BS_ETOOBIG, "output too large");
	} catch (...) {
		rc = bs_tmpl_caught(err, "cannot expand a template");
	}
	return rc;
}

} /* extern "C" */
