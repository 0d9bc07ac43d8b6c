/* SPDX-License-Identifier: ISC */
/*
 * tensor: the tensor arrays of op records (see tensor.h). The value's JSON text (rec_raw:
 * already validated by rec, NUL-terminated) is walked with json.c's scanner (js_span),
 * so this module only checks the types it reads; strings are decoded into the record's
 * memory (rec_decode).
 */
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "core/json.h"
#include "core/rec.h"
#include "core/tensor.h"

struct tread {
	struct rec	*r;
	const char	*key;	/* "in", "out" */
	size_t		 i;	/* the element being read */
	struct js_span	 s;	/* over the array's text */
};

/* A value of the wrong type: the record is bad (rec_reject); false. */
static bool
bad(const struct tread *tr, const char *member, const char *what)
{
	if (member == NULL)
		rec_reject(tr->r, "%s[%zu]: expected %s", tr->key, tr->i, what);
	else
		rec_reject(tr->r, "%s[%zu].%s: expected %s", tr->key, tr->i, member, what);
	return false;
}

/* At null: skip it. */
static bool
null(struct tread *tr)
{
	if (tr->s.p[tr->s.i] != 'n')
		return false;
	tr->s.i += 4;
	return true;
}

/* An array of up to TENSOR_MAXRANK non-negative integers, or null (*has = false);
 * false when it is neither. */
static bool
dims(struct tread *tr, const char *member, struct dims *d, bool *has)
{
	static const char what[] = "an array of at most 8 non-negative integers";
	struct js_span *s = &tr->s;
	long long e = 1;

	*has = false;
	if (null(tr))
		return true;
	if (s->p[s->i] != '[')
		return bad(tr, member, what);
	s->i++;
	d->rank = 0;
	for (js_span_ws(s); s->p[s->i] != ']'; js_span_ws(s)) {
		const char *num;
		long long v;

		if (d->rank > 0 && s->p[s->i++] == ',')
			js_span_ws(s);
		num = s->p + s->i;
		if (d->rank == TENSOR_MAXRANK || *num < '0' || *num > '9' ||
		    js_span_number(s) != JS_NUMBER || s->real)
			return bad(tr, member, what);
		/* digits only: their value, if it fits */
		for (v = 0; num < s->p + s->i; num++) {
			if (v > (LLONG_MAX - (*num - '0')) / 10)
				return bad(tr, member, what);
			v = v * 10 + (*num - '0');
		}
		d->d[d->rank++] = v;
		/* At most 2^53 elements: element counts and the products the metrics take
		 * of them stay exact and never overflow. */
		if (__builtin_mul_overflow(e, v, &e) || e > (1LL << 53))
			return bad(tr, member, "a tensor of at most 2^53 elements");
	}
	s->i++;
	*has = true;
	return true;
}

/* A string or null (*out = NULL); false when it is neither. */
static bool
string(struct tread *tr, const char *member, const char **out)
{
	struct js_span *s = &tr->s;
	size_t start = s->i;

	*out = NULL;
	if (null(tr))
		return true;
	if (s->p[s->i] != '"')
		return bad(tr, member, "a string");
	js_span_string(s);
	*out = rec_decode(tr->r, s->p + start, s->i - start, NULL);
	return true;
}

/* One element: a tensor object or null; false when it is neither, or a member has the
 * wrong type. */
static bool
tensor(struct tread *tr, struct tensor *t)
{
	struct js_span *s = &tr->s;
	bool ok = true;

	memset(t, 0, sizeof(*t));
	if (null(tr))
		return true;
	if (s->p[s->i] != '{')
		return bad(tr, NULL, "a tensor object or null");
	t->present = true;
	s->i++;
	for (js_span_ws(s); s->p[s->i] != '}'; js_span_ws(s)) {
		size_t ks, kl;
		const char *k;

		if (s->p[s->i] == ',') {
			s->i++;
			js_span_ws(s);
		}
		ks = s->i;
		js_span_string(s);
		k = s->p + ks + 1;
		kl = s->i - ks - 2;
		if (s->esc) {	/* a key written with escapes: compare it decoded */
			k = rec_decode(tr->r, s->p + ks, s->i - ks, &kl);
			if (strlen(k) != kl)
				kl = 0;
		}
		js_span_ws(s);
		s->i++;		/* the ':' */
		js_span_ws(s);
#define IS(lit)	(kl == sizeof(lit) - 1 && memcmp(k, lit, kl) == 0)
		if (IS("shape"))
			ok = dims(tr, "shape", &t->shape, &t->has_shape);
		else if (IS("logical"))
			ok = dims(tr, "logical", &t->logical, &t->has_logical);
		else if (IS("layout"))
			ok = string(tr, "layout", &t->layout);
		else if (IS("dtype"))
			ok = string(tr, "dtype", &t->dtype);
		else if (IS("mem"))
			ok = string(tr, "mem", &t->mem);
		else
			js_span_value(s, 0);
#undef IS
		if (!ok)
			return false;
	}
	if (t->has_shape && !t->has_logical) {	/* unpadded: written once */
		t->logical = t->shape;
		t->has_logical = true;
	}
	s->i++;
	return true;
}

size_t
tensor_read(struct rec *r, const char *key, struct tensor *t, size_t max)
{
	struct tread tr;
	struct js_span *s = &tr.s;
	const char *p;
	size_t len, n = 0;

	if ((p = rec_raw(r, key, &len)) == NULL)
		return 0;
	tr.r = r;
	tr.key = key;
	js_span_init(s, p, len);
	s->max_depth = JS_SPAN_MAXDEPTH;
	js_span_ws(s);
	if (null(&tr))
		return 0;
	if (p[s->i] != '[') {
		rec_reject(r, "%s: expected an array of tensors", key);
		return 0;
	}
	s->i++;
	for (js_span_ws(s); n < max && p[s->i] != ']'; js_span_ws(s)) {
		if (n > 0 && p[s->i] == ',') {
			s->i++;
			js_span_ws(s);
		}
		tr.i = n;
		if (!tensor(&tr, &t[n++]))	/* elements past max are not looked at */
			return 0;
	}
	return n;
}

bool
dims_wzyx(const struct dims *d, long long wzyx[4])
{
	int pad, k;

	if (d->rank > 4)
		return false;
	pad = 4 - d->rank;
	for (k = 0; k < 4; k++)
		wzyx[k] = k < pad ? 1 : d->d[k - pad];
	return true;
}
