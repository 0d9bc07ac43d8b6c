/* SPDX-License-Identifier: ISC */
/* pyrepr: Python repr() of strings, numbers and JSON values. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/json.h"
#include "core/numfmt.h"
#include "report/pyrepr.h"

void
py_str(struct buf *b, const char *s, size_t n)
{
	char q = memchr(s, '\'', n) != NULL && memchr(s, '"', n) == NULL ? '"' : '\'';
	static const char hex[] = "0123456789abcdef";
	size_t i;

	buf_addc(b, q);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\' || c == (unsigned char)q) {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
		} else if (c == '\n')
			buf_adds(b, "\\n");
		else if (c == '\r')
			buf_adds(b, "\\r");
		else if (c == '\t')
			buf_adds(b, "\\t");
		else if (c < 0x20 || c == 0x7f) {
			buf_adds(b, "\\x");
			buf_addc(b, hex[c >> 4]);
			buf_addc(b, hex[c & 15]);
		} else
			buf_addc(b, (char)c);
	}
	buf_addc(b, q);
}

void
py_float(struct buf *b, double d)
{
	char nb[NUM_BUFSZ];

	buf_add(b, nb, num_shortest(nb, d));
}

void
py_int(struct buf *b, long long v)
{
	char nb[NUM_BUFSZ];

	buf_add(b, nb, num_int(nb, v, 0));
}

/* The value at token t, through its last token; false on an error in the text. */
static bool
py_value(struct buf *b, struct js_reader *rd, enum js_tok t, int flags, bool real)
{
	const char *x;
	size_t n, i;
	long long v;

	switch (t) {
	case JS_OBJECT:
		buf_addc(b, '{');
		for (i = 0; (t = js_next(rd)) == JS_KEY; i++) {
			if (i)
				buf_adds(b, ", ");
			x = js_str(rd, NULL);
			py_str(b, x, strlen(x));	/* a key ends at a NUL, as jansson's */
			buf_adds(b, ": ");
			if (!py_value(b, rd, js_next(rd), flags, real))
				return false;
		}
		buf_addc(b, '}');
		return t == JS_OBJECT_END;
	case JS_ARRAY:
		buf_addc(b, flags & PY_TUPLE ? '(' : '[');
		for (i = 0; (t = js_next(rd)) != JS_ARRAY_END; i++) {
			if (i)
				buf_adds(b, ", ");
			if (!py_value(b, rd, t, flags, real))
				return false;
		}
		if (i == 1 && (flags & PY_TUPLE))
			buf_addc(b, ',');
		buf_addc(b, flags & PY_TUPLE ? ')' : ']');
		return true;
	case JS_STRING:
		x = js_str(rd, &n);
		py_str(b, x, n);
		return true;
	case JS_NUMBER:
		x = js_text(rd, &n);
		if (!real && js_number_int(x, n, &v))
			py_int(b, v);
		else {
			char *z = xstrndup(x, n);	/* the token's text ends at n */

			py_float(b, strtod(z, NULL));
			free(z);
		}
		return true;
	case JS_TRUE:
		buf_adds(b, "True");
		return true;
	case JS_FALSE:
		buf_adds(b, "False");
		return true;
	case JS_NULL:
		buf_adds(b, "None");
		return true;
	default:
		return false;
	}
}

void
py_tuple_list(struct buf *b, const char *s, size_t n)
{
	size_t i;
	char q = 0;		/* the quote of the string we are in, or 0 */

	for (i = 0; i < n; i++) {
		char c = s[i];

		if (q != 0) {		/* py_str: a backslash escapes the next byte */
			buf_addc(b, c);
			if (c == '\\' && i + 1 < n)
				buf_addc(b, s[++i]);
			else if (c == q)
				q = 0;
		} else if (c == '\'' || c == '"') {
			q = c;
			buf_addc(b, c);
		} else if (c == '(')
			buf_addc(b, '[');
		else if (c == ')')
			buf_addc(b, ']');
		else if (c == ',' && i + 1 < n && s[i + 1] == ')')
			;		/* a one-element tuple's comma */
		else
			buf_addc(b, c);
	}
}

bool
py_json_bigint(const char *json, size_t n)
{
	struct js_reader *rd = js_open_mem(json, n);
	enum js_tok t;
	const char *x;
	size_t k;
	long long v;
	bool big = false;

	while (!big && (t = js_next(rd)) != JS_END && t != JS_ERROR)
		if (t == JS_NUMBER) {
			x = js_text(rd, &k);
			big = memchr(x, '.', k) == NULL && memchr(x, 'e', k) == NULL &&
			    memchr(x, 'E', k) == NULL && !js_number_int(x, k, &v);
		}
	js_close(rd);
	return big;
}

bool
py_json(struct buf *b, const char *json, size_t n, int flags)
{
	struct js_reader *rd = js_open_mem(json, n);
	bool ok = py_value(b, rd, js_next(rd), flags,
	    (flags & PY_REAL) || py_json_bigint(json, n));

	ok = ok && js_next(rd) == JS_END;
	js_close(rd);
	return ok;
}
