/*
 * report/pages.c - loads a page's template with the templates every HTML
 * page includes (templates/page_head.html, palette.html, chart_axes.html,
 * chart_style.html: {{>PAGE_HEAD}}, {{>PALETTE}}, {{>CHART_AXES}},
 * {{>CHART_STYLE}}), so that report, trend and site pages (and the site's
 * site.css) write their head, colours, chart axes and their style once.
 */
#include <string.h>

#include "report/internal.h"
#include "report/tmpl/tmpl.h"
#include "util/embed.h"
#include "util/banned.h"

/* Generated from templates/ by report/CMakeLists.txt. */
extern const struct bs_embedded bs_tmpl_inc_page_head[];
extern const struct bs_embedded bs_tmpl_inc_palette[];
extern const struct bs_embedded bs_tmpl_inc_chart_axes[];
extern const struct bs_embedded bs_tmpl_inc_chart_style[];

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

int bs_rtemplates_load(struct bs_tmpl_set **out, const struct bs_embedded *page,
		       const char *dir, struct bs_err *err)
{
	static const struct bs_embedded *const includes[] = {
		bs_tmpl_inc_page_head,
		bs_tmpl_inc_palette,
		bs_tmpl_inc_chart_axes,
		bs_tmpl_inc_chart_style,
	};
	struct bs_embedded defaults[sizeof(includes) / sizeof(includes[0]) + 2];
	const char *names[sizeof(includes) / sizeof(includes[0]) + 1];
	size_t n = 0, i;
	int html;

	/* The pages and the site's style sheet include; text, CSV and JSON
	 * do not. */
	html = ends_with(page->name, ".html") || ends_with(page->name, ".css");
	defaults[n] = *page;
	names[n++] = page->name;
	for (i = 0; html && i < sizeof(includes) / sizeof(includes[0]); i++) {
		defaults[n] = includes[i][0];
		names[n++] = includes[i][0].name;
	}
	defaults[n].name = NULL;
	defaults[n].text = NULL;
	defaults[n].len = 0;
	return bs_tmpl_set_load(out, defaults, names, n, dir, err);
}
