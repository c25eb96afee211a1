/*
 * report/tmpl/tsyntax.c - ctemplate's template syntax, as far as bstore must
 * know it before ctemplate parses a template (see tsyntax.h). The code
 * follows ctemplate 2.4's src/template.cc (Template::StripBuffer and its
 * helpers) step by step, so that both read a template the same way;
 * where they differ, a comment says why.
 */
#include <stdbool.h>
#include <string.h>

#include "report/tmpl/tsyntax.h"
#include "util/banned.h"

/* The marker delimiters, "{{" and "}}" until a {{=X Y=}} marker. */
struct delims {
	const char *start, *end;
	size_t slen, elen;
};

/* clang-format off */
#define DELIMS_INIT {"{{", "}}", 2, 2}
/* clang-format on */

/* ctemplate's memmatch(): an empty needle matches at once. */
static const char *memmatch(const char *hay, size_t haylen, const char *needle,
			    size_t nlen)
{
	const char *p, *last;

	if (nlen == 0)
		return hay;
	if (nlen > haylen)
		return NULL;
	last = hay + (haylen - nlen);
	for (p = hay; p <= last; p++) {
		p = memchr(p, needle[0], (size_t)(last - p) + 1);
		if (p == NULL)
			return NULL;
		if (memcmp(p, needle, nlen) == 0)
			return p;
	}
	return NULL;
}

/* isspace() in the C locale, on 7-bit characters, as ctemplate asks. */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

/*
 * Template::ParseDelimiters(): "=X Y=" (the inside of a set-delimiter
 * marker, '=' at both ends, exactly one space, no other '=') makes X and
 * Y the delimiters; anything else changes nothing and returns false.
 */
static bool parse_delims(const char *text, size_t len, struct delims *d)
{
	const char *space = memchr(text, ' ', len);

	if (len < 3 || text[0] != '=' || text[len - 1] != '=' ||
	    memchr(text + 1, '=', len - 2) || space == NULL ||
	    memchr(space + 1, ' ', (size_t)(text + len - (space + 1))))
		return false;
	d->start = text + 1;
	d->slen = (size_t)(space - d->start);
	d->end = space + 1;
	d->elen = (size_t)(text + len - 1 - d->end);
	return true;
}

/* StripTemplateWhiteSpace(). */
static void trim(const char **s, size_t *len)
{
	while (*len > 0 && is_space((*s)[*len - 1]))
		(*len)--;
	while (*len > 0 && is_space((*s)[0])) {
		(*len)--;
		(*s)++;
	}
}

/*
 * Template::IsBlankOrOnlyHasOneRemovableMarker(): whether the line (its
 * newline taken off) is white space only, or one marker of a kind that
 * drops out of the output ({{#, {{/, {{>, {{!, {{%, {{=) and nothing but
 * white space around it; then *line and *len are narrowed to that marker.
 */
static bool removable_line(const char **line, size_t *len,
			   const struct delims *d)
{
	const char *s = *line, *found;
	size_t n = *len;
	char kind;

	trim(&s, &n);
	if (n == 0) {
		*line = s;
		*len = 0;
		return true;
	}
	if (n < d->slen + d->elen + 1)
		return false;
	kind = s[d->slen];
	/* ctemplate tests the kind with strchr(), which also finds the
	 * string's terminating NUL. */
	if (memcmp(s, d->start, d->slen) != 0 ||
	    (kind != '\0' && memchr("#/>!%=", kind, 6) == NULL))
		return false;
	found = memmatch(s + d->slen, n - d->slen, d->end, d->elen);
	if (found == NULL || found + d->elen != s + n)
		return false;
	*line = s;
	*len = n;
	return true;
}

/*
 * Follows the set-delimiter markers of one line as ctemplate's stripping
 * does (it tracks them only to know which lines hold a lone marker):
 * every marker in the current delimiters is tried as "=X Y=", in turn.
 */
static void track_delims(const char *line, const char *eol, struct delims *d)
{
	const char *m = line, *e, *inside;

	for (;;) {
		/* With both delimiters empty, ctemplate finds an empty marker
		 * at the same place forever (and no marker can change the
		 * delimiters again, as it would need an inside of "=X Y=").
		 * This is where the two part ways: here the line ends. */
		if (d->slen == 0 && d->elen == 0)
			return;
		m = memmatch(m, (size_t)(eol - m), d->start, d->slen);
		if (m == NULL)
			return;
		e = memmatch(m + d->slen, (size_t)(eol - (m + d->slen)), d->end,
			     d->elen);
		if (e == NULL)
			return;
		/* The next marker is looked for after this one's end, as
		 * the delimiters were when it was found. */
		inside = m + d->slen;
		m = e + d->elen;
		parse_delims(inside, (size_t)(e - inside), d);
	}
}

void bs_tsyntax_strip(const char *text, size_t len, struct bs_buf *out)
{
	struct delims d = DELIMS_INIT;
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl + 1 : end;
		const char *line = p;
		size_t n = (size_t)(eol - p);
		bool newline = n > 0 && line[n - 1] == '\n';

		/* Template::InsertLine() */
		if (newline)
			n--;
		if (removable_line(&line, &n, &d))
			newline = false;
		bs_buf_add(out, line, n);
		if (newline)
			bs_buf_addc(out, '\n');
		track_delims(p, eol, &d);
		p = eol;
	}
}

/* A valid marker name: letters, digits and '_' (ASCII), or nothing. */
static bool valid_name(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!(c < 0x80 &&
		      (c == '_' || (c >= '0' && c <= '9') ||
		       (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))))
			return false;
	}
	return true;
}

/* MaybeEatNewline() below STRIP_WHITESPACE: of a backslash and a newline
 * right after a marker, the backslash is dropped. */
static const char *eat_newline(const char *p, const char *end)
{
	if (end - p >= 2 && p[0] == '\\' && p[1] == '\n')
		p++;
	return p;
}

/*
 * Notes the first x- modifier not in mods of a variable or include whose
 * modifiers are [mod, close), mod at the first ':' or NULL. As ctemplate's
 * GetNextToken() cuts them, each ':' starts one, '=' starts its value.
 */
static void check_mods(const char *mod, const char *close,
		       const char *const *mods, size_t nmods,
		       struct bs_tsyntax *out)
{
	const char *end, *value;
	size_t i;

	while (mod != NULL && mod < close && out->unknown_mod == NULL) {
		mod++;
		end = memchr(mod, ':', (size_t)(close - mod));
		if (end == NULL)
			end = close;
		value = memchr(mod, '=', (size_t)(end - mod));
		if (value == NULL)
			value = end;
		if (value - mod >= 2 && memcmp(mod, "x-", 2) == 0) {
			for (i = 0; i < nmods; i++)
				if (strlen(mods[i]) == (size_t)(end - mod) &&
				    memcmp(mods[i], mod, (size_t)(end - mod)) ==
					    0)
					break;
			if (i == nmods) {
				out->unknown_mod = mod;
				out->unknown_mod_len = (size_t)(end - mod);
			}
		}
		mod = end;
	}
}

void bs_tsyntax_scan(const char *text, size_t len, const char *const *mods,
		     size_t nmods, struct bs_tsyntax *out)
{
	struct delims d = DELIMS_INIT;
	const char *p = text, *end = text + len;
	size_t depth = 0;

	memset(out, 0, sizeof(*out));
	out->unknown_mod = NULL;
	while (p < end) {
		const char *m, *name, *close = NULL, *colon;
		char kind;

		/* Text up to the next start marker; of "{{{" the last "{{"
		 * starts the marker. */
		m = memmatch(p, (size_t)(end - p), d.start, d.slen);
		if (m == NULL)
			break;
		while ((size_t)(end - m) >= 1 + d.slen &&
		       memcmp(m + 1, d.start, d.slen) == 0)
			m++;
		p = m + d.slen;
		if (p >= end)
			break;

		/* The marker: its kind, then its end. */
		kind = *p;
		name = p;
		if (kind == '#' || kind == '/' || kind == '!' || kind == '>' ||
		    kind == '%')
			name++;
		if (kind == '=' && end - p > 1) {
			/* "=X Y=" then the end marker, found by its '='. */
			close = memchr(p + 1, '=', (size_t)(end - (p + 1)));
			if (close && d.elen > 0 && close + d.elen == end) {
				/* ctemplate tests close + elen > end, then
				 * compares elen bytes from close + 1. */
				out->ends_in_delims = 1;
				return;
			}
			if (close && (size_t)(end - close) >= 1 + d.elen &&
			    memcmp(close + 1, d.end, d.elen) == 0)
				close++;
			else
				close = NULL;
		}
		if (close == NULL)
			close = memmatch(name, (size_t)(end - name), d.end,
					 d.elen);
		if (close == NULL)
			break; /* "No ending '}}'": ctemplate stops here */
		p = close + d.elen;

		/* A name of letters, digits and '_' (or none), then any
		 * modifiers: a bad name stops ctemplate. */
		colon = memchr(name, ':', (size_t)(close - name));
		if (kind != '=' && kind != '%' && kind != '!' &&
		    !valid_name(name, (size_t)((colon ? colon : close) - name)))
			return;

		switch (kind) {
		case '=':
			/* ctemplate stops at a bad one: this scan goes on. */
			parse_delims(name, (size_t)(close - name), &d);
			break;
		case '%':
			out->pragmas++;
			break;
		case '!':
			break;
		case '>':
			check_mods(colon, close, mods, nmods, out);
			if (out->nincludes < BS_TSYNTAX_MAX_INC) {
				const char *e = colon ? colon : close;

				out->inc[out->nincludes].name = name;
				out->inc[out->nincludes].len =
					(size_t)(e - name);
			}
			out->nincludes++;
			break;
		case '#':
		case '/':
			/* Sections take no modifiers: one stops ctemplate. A
			 * closing marker of another section does too, but the
			 * scan goes on. */
			if (colon)
				return;
			if (kind == '#' && ++depth > out->depth)
				out->depth = depth;
			else if (kind == '/' && depth > 0)
				depth--;
			break;
		default:
			/* A variable: a backslash and newline after it stay. */
			check_mods(colon, close, mods, nmods, out);
			continue;
		}
		p = eat_newline(p, end);
	}
}
