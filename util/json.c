/* util/json.c - JSON value writers. */
#include "util/json.h"

#include <math.h>
#include <string.h>

#include "util/num.h"
#include "util/banned.h"

/* Length of the valid UTF-8 sequence at p (max n bytes), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF. */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void bs_json_escape(struct bs_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;

	while (n > 0) {
		unsigned char c = *p;
		k = 1;
		switch (c) {
		case '"':
		case '\\':
			bs_buf_addc(b, '\\');
			bs_buf_addc(b, (char)c);
			break;
		case '\n':
			bs_buf_adds(b, "\\n");
			break;
		case '\t':
			bs_buf_adds(b, "\\t");
			break;
		case '\r':
			bs_buf_adds(b, "\\r");
			break;
		case '<':
		case '>':
		case '&':
			/* So that the JSON may sit inside HTML as it is. */
			bs_buf_addf(b, "\\u%04x", c);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				bs_buf_addf(b, "\\u%04x", c);
				break;
			}
			k = utf8_len(p, n);
			if (k == 0) {
				bs_buf_adds(b, "\\ufffd");
				k = 1;
			} else {
				bs_buf_add(b, p, k);
			}
			break;
		}
		p += k;
		n -= k;
	}
}

void bs_json_str(struct bs_buf *b, const char *s)
{
	if (s == NULL) {
		bs_buf_adds(b, "null");
		return;
	}
	bs_buf_addc(b, '"');
	bs_json_escape(b, s, strlen(s));
	bs_buf_addc(b, '"');
}

void bs_json_num(struct bs_buf *b, double v)
{
	char tmp[40];

	if (!isfinite(v)) {
		bs_buf_adds(b, "null");
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15)
		bs_buf_addf(b, "%.0f", v);
	else
		bs_buf_adds(b, bs_fmt_g(tmp, sizeof(tmp), v));
}

void bs_json_i64(struct bs_buf *b, int64_t v)
{
	if (v == INT64_MIN)
		bs_buf_adds(b, "null");
	else
		bs_buf_addf(b, "%lld", (long long)v);
}

void bs_json_key(struct bs_buf *b, const char *key, int first)
{
	if (!first)
		bs_buf_addc(b, ',');
	bs_json_str(b, key);
	bs_buf_addc(b, ':');
}
