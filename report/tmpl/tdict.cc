/*
 * report/tmpl/tdict.cc - bstore's template dictionaries (the bs_tdict_*
 * functions of tmpl.h): ctemplate's TemplateDictionaryInterface over flat
 * arrays. A report of 100,000 runs fills millions of cells, and
 * ctemplate's own dictionary spends a microsecond on each; here a value
 * is an entry in one array and its bytes are in one arena. Nothing here
 * lets an exception cross into C.
 */
#include <ctemplate/template_dictionary_interface.h>

#include <cassert>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "report/tmpl/tdict.hh"

using ctemplate::TemplateDictionaryInterface;
using ctemplate::TemplateString;

namespace
{
class Dict;
}

/*
 * One dictionary node. Values and sections are singly linked lists of
 * indexes into the root's arrays; strings live in the root's arena.
 */
struct bs_tdict : public TemplateDictionaryInterface {
	Dict *root;
	struct bs_tdict *parent;
	struct bs_tdict *next; /* next sibling in the same section */
	uint32_t first_var = UINT32_MAX, last_var = UINT32_MAX;
	uint32_t first_sec = UINT32_MAX, last_sec = UINT32_MAX;

	bs_tdict(Dict *r, struct bs_tdict *p) : root(r), parent(p), next(NULL)
	{
	}

	/* Finds a value in this node only. */
	bool find_var(const char *name, size_t len, TemplateString *out) const;
	/* Finds a section in this node only; UINT32_MAX if none. */
	uint32_t find_sec(const char *name, size_t len) const;
	/* Walks a section's children. */
	class ListIterator : public Iterator
	{
	      public:
		explicit ListIterator(const struct bs_tdict *first)
		    : cur_(first)
		{
		}
		bool HasNext() const override
		{
			/* Asked before each Next() and once at the end. */
			return cur_ != NULL && BsExpandBudget::take(1);
		}
		const TemplateDictionaryInterface &Next() override
		{
			const struct bs_tdict *d = cur_;
			cur_ = cur_->next;
			return *d;
		}

	      private:
		const struct bs_tdict *cur_;
	};

	/* The nearest node (this or an ancestor) with the section. */
	const struct bs_tdict *sec_owner(const TemplateString &name,
					 uint32_t *sec) const;

      protected:
	TemplateString GetValue(const TemplateString &variable) const override;
	bool IsHiddenSection(const TemplateString &name) const override;
	bool IsUnhiddenSection(const TemplateString &name) const override
	{
		return !IsHiddenSection(name);
	}
	/* Every include is shown once, with this dictionary (the loader
	 * checked that it names a template of the set). */
	bool IsHiddenTemplate(const TemplateString &) const override
	{
		return !BsExpandBudget::take(1);
	}
	const char *GetIncludeTemplateName(const TemplateString &name,
					   int) const override
	{
		return bs_tmpl_include_name(name.data(), name.size());
	}
	Iterator *CreateTemplateIterator(const TemplateString &) const override;
	Iterator *CreateSectionIterator(const TemplateString &) const override;
	void DumpToString(std::string *out, int level) const override;
};

namespace
{

struct Var {
	uint32_t name_off, name_len;
	size_t val_off, val_len;
	uint32_t next;
};

struct Sec {
	uint32_t name_off, name_len;
	struct bs_tdict *first, *last; /* NULL: shown without children */
	uint32_t next;
};

class Dict
{
      public:
	Dict() : top(this, NULL)
	{
		arena.reserve(1 << 16);
	}

	struct bs_tdict top;
	/* A deque: adding a node never moves the others, which sections
	 * and callers point to. */
	std::deque<struct bs_tdict> nodes;
	std::vector<Var> vars;
	std::vector<Sec> secs;
	std::vector<char> arena;
	std::string error; /* the first error, kept for expand */

	size_t store(const char *s, size_t len)
	{
		size_t off = arena.size();
		arena.insert(arena.end(), s, s + len);
		return off;
	}
	const char *at(size_t off) const
	{
		return arena.data() + off;
	}
	void clear()
	{
		nodes.clear();
		vars.clear();
		secs.clear();
		arena.clear();
		error.clear();
		top.first_var = top.last_var = UINT32_MAX;
		top.first_sec = top.last_sec = UINT32_MAX;
	}
	void fail(const char *what)
	{
		if (error.empty())
			error = what;
	}
};

} /* namespace */

bool bs_tdict::find_var(const char *name, size_t len, TemplateString *out) const
{
	const Dict *r = root;
	uint32_t i;

	for (i = first_var; i != UINT32_MAX; i = r->vars[i].next) {
		const Var &v = r->vars[i];
		if (v.name_len == len &&
		    memcmp(r->at(v.name_off), name, len) == 0) {
			*out = TemplateString(r->at(v.val_off), v.val_len);
			return true;
		}
	}
	return false;
}

uint32_t bs_tdict::find_sec(const char *name, size_t len) const
{
	const Dict *r = root;
	uint32_t i;

	for (i = first_sec; i != UINT32_MAX; i = r->secs[i].next) {
		const Sec &s = r->secs[i];
		if (s.name_len == len &&
		    memcmp(r->at(s.name_off), name, len) == 0)
			return i;
	}
	return UINT32_MAX;
}

const struct bs_tdict *bs_tdict::sec_owner(const TemplateString &name,
					   uint32_t *sec) const
{
	const struct bs_tdict *d;

	for (d = this; d; d = d->parent) {
		*sec = d->find_sec(name.data(), name.size());
		if (*sec != UINT32_MAX)
			return d;
	}
	return NULL;
}

TemplateString bs_tdict::GetValue(const TemplateString &variable) const
{
	const struct bs_tdict *d;
	TemplateString v("", 0);

	if (!BsExpandBudget::take(1))
		return v;
	for (d = this; d; d = d->parent)
		if (d->find_var(variable.data(), variable.size(), &v))
			return v;
	/* ctemplate's built-in values. */
	if (variable.size() == 10 &&
	    memcmp(variable.data(), "BI_NEWLINE", 10) == 0)
		return TemplateString("\n", 1);
	if (variable.size() == 8 && memcmp(variable.data(), "BI_SPACE", 8) == 0)
		return TemplateString(" ", 1);
	return TemplateString("", 0);
}

bool bs_tdict::IsHiddenSection(const TemplateString &name) const
{
	uint32_t sec;

	/* Out of steps, every section is hidden. */
	return !BsExpandBudget::take(1) || sec_owner(name, &sec) == NULL;
}

TemplateDictionaryInterface::Iterator *
bs_tdict::CreateSectionIterator(const TemplateString &name) const
{
	uint32_t sec;
	const struct bs_tdict *d = sec_owner(name, &sec);

	assert(d == NULL || sec < root->secs.size());
	return new ListIterator(d ? root->secs[sec].first : NULL);
}

TemplateDictionaryInterface::Iterator *
bs_tdict::CreateTemplateIterator(const TemplateString &) const
{
	return new ListIterator(NULL);
}

void bs_tdict::DumpToString(std::string *out, int level) const
{
	const Dict *r = root;
	uint32_t i;

	for (i = first_var; i != UINT32_MAX; i = r->vars[i].next) {
		const Var &v = r->vars[i];
		out->append((size_t)level * ctemplate::kIndent, ' ');
		out->append(r->at(v.name_off), v.name_len);
		out->append(": >");
		out->append(r->at(v.val_off), v.val_len);
		out->append("<\n");
	}
	for (i = first_sec; i != UINT32_MAX; i = r->secs[i].next) {
		const Sec &s = r->secs[i];
		const struct bs_tdict *c;
		out->append((size_t)level * ctemplate::kIndent, ' ');
		out->append("section ");
		out->append(r->at(s.name_off), s.name_len);
		out->append(" {\n");
		for (c = s.first; c; c = c->next)
			c->DumpToString(out, level + 1);
		out->append((size_t)level * ctemplate::kIndent, ' ');
		out->append("}\n");
	}
}

/* ---- what the binding needs ----------------------------------------- */

thread_local BsExpandBudget *BsExpandBudget::current_ = NULL;

BsExpandBudget::BsExpandBudget(const struct bs_tdict *d, size_t template_bytes)
    : prev_(current_)
{
	assert(d != NULL && d->root != NULL);
	limit_ = kMin +
		 kPerByte * ((uint64_t)template_bytes + d->root->arena.size()) +
		 kPerNode * (uint64_t)(d->root->nodes.size() + 1);
	left_ = limit_;
	current_ = this;
}

BsExpandBudget::~BsExpandBudget()
{
	current_ = prev_;
}

/* The slow side of take(): out of steps, or stopped. */
bool BsExpandBudget::spent()
{
	if (!stopped_) {
		left_ = 0;
		exhausted_ = true;
	}
	return false;
}

void BsExpandBudget::stop()
{
	if (current_ != NULL)
		current_->stopped_ = true;
}

const TemplateDictionaryInterface *bs_tdict_iface(const struct bs_tdict *d)
{
	assert(d != NULL && d->root != NULL);
	return d;
}

const char *bs_tdict_error(const struct bs_tdict *d)
{
	assert(d != NULL && d->root != NULL);
	return d->root->error.empty() ? NULL : d->root->error.c_str();
}

/* ---- the C API ------------------------------------------------------ */

extern "C" {

int bs_tdict_new(struct bs_tdict **out, struct bs_err *err)
{
	*out = NULL;
	try {
		Dict *d = new Dict();
		*out = &d->top;
	} catch (...) {
		return bs_tmpl_caught(err, "cannot make a dictionary");
	}
	return 0;
}

void bs_tdict_free(struct bs_tdict *d)
{
	if (d == NULL)
		return;
	try {
		delete d->root;
	} catch (...) {
	}
}

void bs_tdict_clear(struct bs_tdict *d)
{
	if (d == NULL)
		return;
	try {
		d->root->clear();
	} catch (...) {
		d->root->fail("cannot clear the dictionary");
	}
}

void bs_tdict_setn(struct bs_tdict *d, const char *key, const char *value,
		   size_t len)
{
	if (d == NULL)
		return;
	assert(key != NULL && (value != NULL || len == 0));
	try {
		Dict *r = d->root;
		Var v;
		size_t klen = strlen(key);
		uint32_t i;

		/* Setting a value again replaces it. */
		for (i = d->first_var; i != UINT32_MAX; i = r->vars[i].next) {
			Var &o = r->vars[i];
			if (o.name_len == klen &&
			    memcmp(r->at(o.name_off), key, klen) == 0) {
				o.val_off = r->store(value, len);
				o.val_len = len;
				return;
			}
		}
		v.name_off = (uint32_t)r->store(key, klen);
		v.name_len = (uint32_t)klen;
		v.val_off = r->store(value, len);
		v.val_len = len;
		v.next = UINT32_MAX;
		if (r->vars.size() >= UINT32_MAX - 1 ||
		    r->arena.size() >= UINT32_MAX) {
			r->fail("dictionary too large");
			return;
		}
		uint32_t idx = (uint32_t)r->vars.size();
		r->vars.push_back(v);
		if (d->last_var == UINT32_MAX)
			d->first_var = idx;
		else
			r->vars[d->last_var].next = idx;
		d->last_var = idx;
	} catch (const std::bad_alloc &) {
		bs_tmpl_out_of_memory();
	} catch (...) {
		d->root->fail("cannot set a value");
	}
}

void bs_tdict_set(struct bs_tdict *d, const char *key, const char *value)
{
	bs_tdict_setn(d, key, value ? value : "", value ? strlen(value) : 0);
}

void bs_tdict_set_i64(struct bs_tdict *d, const char *key, int64_t v)
{
	char b[32];
	size_t n = sizeof(b);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	/* Without snprintf: a list of runs sets millions of these. */
	do {
		b[--n] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		b[--n] = '-';
	bs_tdict_setn(d, key, b + n, sizeof(b) - n);
}

void bs_tdict_setf(struct bs_tdict *d, const char *key, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		if (d)
			d->root->fail("cannot format a value");
		return;
	}
	if ((size_t)n < sizeof(small)) {
		bs_tdict_setn(d, key, small, (size_t)n);
		return;
	}
	try {
		std::vector<char> big((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(big.data(), big.size(), fmt, ap);
		va_end(ap);
		bs_tdict_setn(d, key, big.data(), (size_t)n);
	} catch (...) {
		bs_tmpl_out_of_memory();
	}
}

/* Finds or makes the section called name in d. */
static uint32_t section(struct bs_tdict *d, const char *name)
{
	Dict *r = d->root;
	size_t len = strlen(name);
	uint32_t i = d->find_sec(name, len);
	Sec s;

	if (i != UINT32_MAX)
		return i;
	s.name_off = (uint32_t)r->store(name, len);
	s.name_len = (uint32_t)len;
	s.first = s.last = NULL;
	s.next = UINT32_MAX;
	i = (uint32_t)r->secs.size();
	r->secs.push_back(s);
	if (d->last_sec == UINT32_MAX)
		d->first_sec = i;
	else
		r->secs[d->last_sec].next = i;
	d->last_sec = i;
	return i;
}

void bs_tdict_show(struct bs_tdict *d, const char *name)
{
	if (d == NULL)
		return;
	try {
		section(d, name);
	} catch (const std::bad_alloc &) {
		bs_tmpl_out_of_memory();
	} catch (...) {
		d->root->fail("cannot show a section");
	}
}

struct bs_tdict *bs_tdict_add(struct bs_tdict *d, const char *name)
{
	if (d == NULL)
		return NULL;
	try {
		Dict *r = d->root;
		uint32_t i = section(d, name);
		assert(i < r->secs.size());
		r->nodes.emplace_back(r, d);
		struct bs_tdict *c = &r->nodes.back();
		Sec &s = r->secs[i];
		if (s.last)
			s.last->next = c;
		else
			s.first = c;
		s.last = c;
		return c;
	} catch (const std::bad_alloc &) {
		bs_tmpl_out_of_memory();
	} catch (...) {
		d->root->fail("cannot add a section");
		return NULL;
	}
}

} /* extern "C" */
