/* SPDX-License-Identifier: ISC */
/* pyrepr: Python repr() of strings, numbers and JSON values. */
#include <string.h>

#include "core/buf.h"
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

void
py_json(struct buf *b, const json_t *v, int flags)
{
	size_t i, n;
	const char *k;
	json_t *x;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		buf_addc(b, '{');
		i = 0;
		json_object_foreach((json_t *)v, k, x) {
			if (i++)
				buf_adds(b, ", ");
			py_str(b, k, strlen(k));
			buf_adds(b, ": ");
			py_json(b, x, flags);
		}
		buf_addc(b, '}');
		break;
	case JSON_ARRAY:
		n = json_array_size(v);
		buf_addc(b, flags & PY_TUPLE ? '(' : '[');
		for (i = 0; i < n; i++) {
			if (i)
				buf_adds(b, ", ");
			py_json(b, json_array_get(v, i), flags);
		}
		if (n == 1 && (flags & PY_TUPLE))
			buf_addc(b, ',');
		buf_addc(b, flags & PY_TUPLE ? ')' : ']');
		break;
	case JSON_STRING:
		py_str(b, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		py_int(b, (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		py_float(b, json_real_value(v));
		break;
	case JSON_TRUE:
		buf_adds(b, "True");
		break;
	case JSON_FALSE:
		buf_adds(b, "False");
		break;
	default:
		buf_adds(b, "None");
		break;
	}
}
