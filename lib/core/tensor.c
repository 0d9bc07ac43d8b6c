/* SPDX-License-Identifier: ISC */
/*
 * tensor: the tensor arrays of op records (see tensor.h). One scanner walks the value's
 * JSON text (rec_raw: already validated by rec, NUL-terminated), so it only has to find
 * its way and check the types it reads; strings are decoded into the record's memory
 * (rec_decode).
 */
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "core/diag.h"
#include "core/rec.h"
#include "core/tensor.h"

struct tread {
	struct rec	*r;
	const char	*key;	/* "in", "out" */
	size_t		 i;	/* the element being read */
	const char	*e;	/* end of the text */
};

static void __attribute__((noreturn))
bad(const struct tread *tr, const char *member, const char *what)
{
	if (member == NULL)
		die_where(rec_where(tr->r), "%s[%zu]: expected %s", tr->key, tr->i, what);
	die_where(rec_where(tr->r), "%s[%zu].%s: expected %s", tr->key, tr->i, member,
	    what);
}

static const char *
ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Bytes that matter when skipping: quotes, backslashes, brackets. */
static const unsigned char cls[256] = {
	['"'] = 1, ['\\'] = 2, ['['] = 3, ['{'] = 3, [']'] = 4, ['}'] = 4,
};

/* p just past an opening quote; returns just past the closing one. */
static const char *
skip_string(const char *p, const char *e, bool *esc)
{
	while (p < e) {
		switch (cls[(unsigned char)*p]) {
		case 1:
			return p + 1;
		case 2:
			*esc = true;
			p += 2;
			break;
		default:
			p++;
		}
	}
	return e;
}

/* p at a value; returns its end. */
static const char *
skip_value(const char *p, const char *e)
{
	int depth = 0;
	bool esc;

	if (*p == '"')
		return skip_string(p + 1, e, &esc);
	if (*p != '[' && *p != '{') {
		while (p < e && *p != ',' && *p != ']' && *p != '}' && *p != ' ' &&
		    *p != '\t' && *p != '\n' && *p != '\r')
			p++;
		return p;
	}
	for (; p < e; p++) {
		switch (cls[(unsigned char)*p]) {
		case 1:
			p = skip_string(p + 1, e, &esc) - 1;
			break;
		case 3:
			depth++;
			break;
		case 4:
			if (--depth == 0)
				return p + 1;
			break;
		default:
			break;
		}
	}
	return e;
}

static bool
is_null(const char *p)
{
	return p[0] == 'n' && p[1] == 'u' && p[2] == 'l' && p[3] == 'l';
}

/* [W, Z, Y, X] of non-negative integers, or null (*has = false). */
static const char *
dims(const struct tread *tr, const char *p, const char *member, long long *d, bool *has)
{
	static const char what[] = "an array of 4 non-negative integers";
	int k;

	if (is_null(p)) {
		*has = false;
		return p + 4;
	}
	if (*p != '[')
		bad(tr, member, what);
	p++;
	for (k = 0; k < 4; k++) {
		long long v = 0;

		p = ws(p);
		if (k > 0) {
			if (*p != ',')
				bad(tr, member, what);
			p = ws(p + 1);
		}
		if (*p < '0' || *p > '9')
			bad(tr, member, what);
		for (; *p >= '0' && *p <= '9'; p++) {
			if (v > (LLONG_MAX - (*p - '0')) / 10)
				bad(tr, member, what);
			v = v * 10 + (*p - '0');
		}
		if (*p == '.' || *p == 'e' || *p == 'E')
			bad(tr, member, what);
		d[k] = v;
	}
	p = ws(p);
	if (*p != ']')
		bad(tr, member, what);
	/* At most 2^53 elements: element counts and the products the metrics take of
	 * them stay exact and never overflow. */
	{
		long long e = 1;

		for (k = 0; k < 4; k++)
			if (__builtin_mul_overflow(e, d[k], &e) || e > (1LL << 53))
				bad(tr, member, "a tensor of at most 2^53 elements");
	}
	*has = true;
	return p + 1;
}

/* A string or null (*s = NULL). */
static const char *
string(const struct tread *tr, const char *p, const char *member, const char **s)
{
	const char *q;
	bool esc = false;

	if (is_null(p)) {
		*s = NULL;
		return p + 4;
	}
	if (*p != '"')
		bad(tr, member, "a string");
	q = skip_string(p + 1, tr->e, &esc);
	*s = rec_decode(tr->r, p, (size_t)(q - p), NULL);
	return q;
}

enum member { M_OTHER, M_SHAPE, M_LOGICAL, M_LAYOUT, M_DTYPE, M_MEM };

static enum member
member(const char *k, size_t n)
{
	switch (n) {
	case 3:
		return memcmp(k, "mem", 3) == 0 ? M_MEM : M_OTHER;
	case 5:
		return memcmp(k, "shape", 5) == 0 ? M_SHAPE :
		    memcmp(k, "dtype", 5) == 0 ? M_DTYPE : M_OTHER;
	case 6:
		return memcmp(k, "layout", 6) == 0 ? M_LAYOUT : M_OTHER;
	case 7:
		return memcmp(k, "logical", 7) == 0 ? M_LOGICAL : M_OTHER;
	default:
		return M_OTHER;
	}
}

/* One element: a tensor object or null. */
static const char *
tensor(const struct tread *tr, const char *p, struct tensor *t)
{
	memset(t, 0, sizeof(*t));
	if (is_null(p))
		return p + 4;
	if (*p != '{')
		bad(tr, NULL, "a tensor object or null");
	t->present = true;
	p = ws(p + 1);
	while (*p == '"') {
		const char *k = p + 1, *kd;
		bool esc = false;
		size_t kl;
		enum member m;

		p = skip_string(k, tr->e, &esc);
		kl = (size_t)(p - 1 - k);
		if (esc) {	/* a key written with escapes: compare it decoded */
			kd = rec_decode(tr->r, k - 1, kl + 2, &kl);
			m = strlen(kd) == kl ? member(kd, kl) : M_OTHER;
		} else
			m = member(k, kl);
		p = ws(ws(p) + 1);	/* past the ':' */
		switch (m) {
		case M_SHAPE:
			p = dims(tr, p, "shape", t->shape, &t->has_shape);
			break;
		case M_LOGICAL:
			p = dims(tr, p, "logical", t->logical, &t->has_logical);
			break;
		case M_LAYOUT:
			p = string(tr, p, "layout", &t->layout);
			break;
		case M_DTYPE:
			p = string(tr, p, "dtype", &t->dtype);
			break;
		case M_MEM:
			p = string(tr, p, "mem", &t->mem);
			break;
		default:
			p = skip_value(p, tr->e);
		}
		p = ws(p);
		if (*p == ',')
			p = ws(p + 1);
	}
	return p + 1;	/* past the '}' */
}

size_t
tensor_read(struct rec *r, const char *key, struct tensor *t, size_t max)
{
	struct tread tr;
	const char *p;
	size_t len, n = 0;

	if ((p = rec_raw(r, key, &len)) == NULL)
		return 0;
	tr.r = r;
	tr.key = key;
	tr.e = p + len;
	p = ws(p);
	if (is_null(p))
		return 0;
	if (*p != '[')
		die_where(rec_where(r), "%s: expected an array of tensors", key);
	p = ws(p + 1);
	while (n < max && *p != ']' && p < tr.e) {	/* the rest is not looked at */
		tr.i = n;
		p = tensor(&tr, p, &t[n++]);
		p = ws(p);
		if (*p == ',')
			p = ws(p + 1);
	}
	return n;
}
