/* SPDX-License-Identifier: ISC */
/*
 * perfargs: what every perf model reads and writes (TraceLens 171dd747, PerfModel/
 * perf_model.py's helpers): dtype widths and precisions, an op's arguments as
 * TraceLens indexes them (a missing one is PERF_ERROR with the reason), the params
 * written in TraceLens's order and value types, and Concrete Inputs parsed as Python's
 * int(), float() and ast.literal_eval would.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/json.h"
#include "torch/perfmodel.h"

#include "perfpriv.h"

/* --- Python numbers ------------------------------------------------------------------ */

double
pynum_double(struct pynum v)
{
	return v.isint ? (double)v.i : v.d;
}

/* --- dtypes ---------------------------------------------------------------------------- */

int
perf_bpe(const char *dtype)
{
	static const struct { const char *name; int bpe; } t[] = {
		{ "double", 8 }, { "long int", 8 },
		{ "float", 4 }, { "scalar", 4 }, { "int", 4 },
		{ "c10::half", 2 }, { "c10::bfloat16", 2 },
		{ "c10::float8_e4m3fnuz", 1 }, { "c10::float8_e4m3fn", 1 },
		{ "c10::float8_e5m2", 1 }, { "c10::float8_e8m0fnu", 1 },
		{ "unsigned char", 1 }, { "signed char", 1 }, { "fp8", 1 },
		{ "c10::float4_e2m1fn_x2", 1 }, { "fp4", 1 },
	};
	size_t i;

	if (dtype == NULL)
		return 0;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcasecmp(dtype, t[i].name) == 0)
			return t[i].bpe;
	return 0;
}

const char *
perf_precision(const char *dtype)
{
	static const struct { const char *name, *prec; } t[] = {
		{ "float", "fp32" }, { "double", "fp64" }, { "c10::half", "fp16" },
		{ "c10::bfloat16", "bf16" }, { "c10::float8_e4m3fnuz", "fp8" },
		{ "unsigned char", "fp8" }, { "fp8", "fp8" }, { "fp4", "fp4" },
		{ "mxfp4", "fp4" }, { "c10::float4_e2m1fn_x2", "fp4" },
		{ "c10::float8_e4m3fn", "fp8" },
	};
	size_t i;

	if (dtype == NULL || *dtype == '\0')
		return NULL;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcasecmp(dtype, t[i].name) == 0)
			return t[i].prec;
	return NULL;
}

/* --- arguments --------------------------------------------------------------------------- */

void
pm_fail(struct pmctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->failed)
		return;
	c->failed = true;
	va_start(ap, fmt);
	vsnprintf(c->o->err, sizeof(c->o->err), fmt, ap);
	va_end(ap);
}

const struct targ *
pm_arg(struct pmctx *c, size_t i)
{
	static const struct targ none = { TSHAPE_NONE, 0, { 0 }, "", false, 0, { 0 }, "",
	    NULL };

	if (i >= c->a->n) {
		pm_fail(c, "argument %zu missing (the op has %zu)", i, c->a->n);
		return &none;
	}
	return &c->a->a[i];
}

/* The shape of argument i as a flat list (Python: tuple(Input Dims[i])). */
const struct targ *
pm_shape(struct pmctx *c, size_t i)
{
	const struct targ *t = pm_arg(c, i);

	if (!c->failed && t->shape != TSHAPE_FLAT)
		pm_fail(c, "argument %zu: %s", i, t->shape == TSHAPE_LIST ?
		    "a tensor list, not one shape" : "no shape");
	return t;
}

/* Python: Input Dims[i] is not None (a missing tensor is [] in Kineto traces). */
bool
pm_present(struct pmctx *c, size_t i)
{
	(void)pm_arg(c, i);
	return !c->failed;
}

/* Python: `Input Dims[i]` is non-empty (truthy). */
bool
pm_nonempty(struct pmctx *c, size_t i)
{
	if (i >= c->a->n)
		return false;
	return c->a->a[i].shape == TSHAPE_LIST ||
	    (c->a->a[i].shape == TSHAPE_FLAT && c->a->a[i].rank > 0);
}

struct pynum
pm_prod(struct pmctx *c, const long long *d, int n)
{
	struct pynum p = I(1);
	int i;

	(void)c;
	for (i = 0; i < n; i++)
		p = py_mul(p, I(d[i]));
	return p;
}

struct pynum
pm_dim(struct pmctx *c, const struct targ *t, int i)
{
	if (c->failed)
		return I(0);
	if (i < 0)
		i += t->rank;
	if (i < 0 || i >= t->rank) {
		pm_fail(c, "a shape of rank %d has no dimension %d", t->rank, i);
		return I(0);
	}
	return I(t->dims[i]);
}

/* --- params ------------------------------------------------------------------------------ */

const struct tup pm_tup_none = { NULL, -1 };

struct tup
pm_jtuple(const long long *d, int n)
{
	struct tup t = { d, n };

	return t;
}

struct tup
pm_jshape(const struct targ *t)
{
	return pm_jtuple(t->dims, t->shape == TSHAPE_FLAT ? t->rank : 0);
}

/* Python: tuple(Input Strides[i]), None when the trace has no strides at all. */
struct tup
pm_jstrides(struct pmctx *c, size_t i, bool none_ok)
{
	const struct targ *t;

	if (!c->a->strides_known && none_ok)
		return pm_tup_none;
	t = pm_arg(c, i);
	if (c->failed)
		return pm_tup_none;
	if (!t->has_strides) {
		if (none_ok)
			return pm_tup_none;
		pm_fail(c, "argument %zu: no strides", i);
		return pm_tup_none;
	}
	return pm_jtuple(t->strides, t->nstrides);
}

/* The writer, after the member's key: the value comes next. */
struct js_writer *
pm_pkey(struct pmctx *c, const char *key)
{
	js_w_key(&c->w, key);
	return &c->w;
}

static void
w_tup(struct js_writer *w, struct tup t)
{
	int i;

	if (t.n < 0) {
		js_w_null(w);
		return;
	}
	js_w_array(w);
	for (i = 0; i < t.n; i++)
		js_w_int(w, t.d[i]);
	js_w_end_array(w);
}

/* A string, or null for NULL. */
static void
w_str(struct js_writer *w, const char *s)
{
	if (s != NULL)
		js_w_strz(w, s);
	else
		js_w_null(w);
}

void
pm_tup(struct pmctx *c, const char *key, struct tup t)
{
	w_tup(pm_pkey(c, key), t);
}

/* The param key (a static string) is a Python list, not a tuple. */
void
pm_is_list(struct pmctx *c, const char *key)
{
	if (c->o->nlists < sizeof(c->o->lists) / sizeof(c->o->lists[0]))
		c->o->lists[c->o->nlists++] = key;
}

void
pm_str(struct pmctx *c, const char *key, const char *s)
{
	w_str(pm_pkey(c, key), s);
}

void
pm_int(struct pmctx *c, const char *key, long long v)
{
	js_w_int(pm_pkey(c, key), v);
}

/* A double as TraceLens's float: shortest round-trip text, null when not finite. */
void
pm_real(struct pmctx *c, const char *key, double v)
{
	js_w_real(pm_pkey(c, key), v);
}

void
pm_num(struct pmctx *c, const char *key, struct pynum v)
{
	if (v.isint)
		pm_int(c, key, v.i);
	else
		pm_real(c, key, v.d);
}

void
pm_bool(struct pmctx *c, const char *key, bool v)
{
	js_w_bool(pm_pkey(c, key), v);
}

void
pm_null(struct pmctx *c, const char *key)
{
	js_w_null(pm_pkey(c, key));
}

/* A list of n strings (dtypes), NULL ones as null. */
void
pm_strs(struct pmctx *c, const char *key, const char *const *s, int n)
{
	struct js_writer *w = pm_pkey(c, key);
	int i;

	js_w_array(w);
	for (i = 0; i < n; i++)
		w_str(w, s[i]);
	js_w_end_array(w);
}

/* --- Concrete Inputs --------------------------------------------------------------------- */

/* Python's int() (integer) or float() of a string: the number and surrounding blanks,
 * nothing else. */
static bool
pyparse(const char *s, bool integer, long long *iv, double *dv)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0')
		return false;
	errno = 0;
	if (integer)
		*iv = strtoll(s, &end, 10);
	else
		*dv = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	return *end == '\0' && (!integer || errno == 0);
}

bool
pm_pyfloat(const char *s, double *v)
{
	return pyparse(s, false, NULL, v);
}

bool
pm_pyint(const char *s, long long *v)
{
	return pyparse(s, true, v, NULL);
}

/* TraceLens's optional_float: "", "None" or junk give the default 0.0. */
double
pm_optional_float(const char *s)
{
	double v;

	if (strcmp(s, "") == 0 || strcmp(s, "None") == 0 || !pm_pyfloat(s, &v))
		return 0.0;
	return v;
}

/* The "causal" strings of the SDPA models: "" and "None" are False, else "true". */
bool
pm_causal_str(const char *s)
{
	if (strcmp(s, "") == 0 || strcmp(s, "None") == 0)
		return false;
	return strcasecmp(s, "true") == 0;
}

/* Python's eval() of a Concrete Input that must be a bool ("True", "False"). */
bool
pm_eval_bool(struct pmctx *c, const char *s)
{
	if (strcmp(s, "True") == 0)
		return true;
	if (strcmp(s, "False") == 0)
		return false;
	pm_fail(c, "cannot evaluate \"%s\" as a bool", s);
	return false;
}

/* A list literal of integers or bools: "[16, 16]", "(1,)", "[True, False]". */
int
pm_parse_list(struct pmctx *c, const char *s, long long *out, int max)
{
	const char *p = s;
	char close;
	int n = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p != '[' && *p != '(') {
		pm_fail(c, "cannot read \"%s\" as a list", s);
		return 0;
	}
	close = *p == '[' ? ']' : ')';
	p++;
	for (;;) {
		char *end;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == close)
			break;
		if (n == max) {
			pm_fail(c, "list \"%s\" too long", s);
			return 0;
		}
		if (strncmp(p, "True", 4) == 0) {
			out[n++] = 1;
			p += 4;
		} else if (strncmp(p, "False", 5) == 0) {
			out[n++] = 0;
			p += 5;
		} else {
			errno = 0;
			out[n++] = strtoll(p, &end, 10);
			if (end == p || errno != 0) {
				pm_fail(c, "cannot read \"%s\" as a list of integers", s);
				return 0;
			}
			p = end;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ',')
			p++;
		else if (*p != close) {
			pm_fail(c, "cannot read \"%s\" as a list", s);
			return 0;
		}
	}
	p++;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '\0')
		pm_fail(c, "cannot read \"%s\" as a list", s);
	return n;
}

/* TraceLens's aten_conv.str_to_tuple: int() of each comma-separated piece of s[1:-1]. */
int
pm_str_to_tuple(struct pmctx *c, const char *s, long long *out, int max)
{
	char buf[256], *p, *q;
	size_t len = strlen(s);
	int n = 0;

	if (len < 2 || len - 2 >= sizeof(buf)) {
		pm_fail(c, "cannot read \"%s\" as a tuple", s);
		return 0;
	}
	memcpy(buf, s + 1, len - 2);
	buf[len - 2] = '\0';
	for (p = buf;; p = q + 1) {
		if ((q = strchr(p, ',')) != NULL)
			*q = '\0';
		if (n == max || !pm_pyint(p, &out[n])) {
			pm_fail(c, "cannot read \"%s\" as a tuple of integers", s);
			return 0;
		}
		n++;
		if (q == NULL)
			break;
	}
	return n;
}

const char *
pm_concrete(struct pmctx *c, size_t i)
{
	return pm_arg(c, i)->value;
}

const char *
pm_dtype(struct pmctx *c, size_t i)
{
	return pm_arg(c, i)->dtype;
}

/* TraceLens's `name2bpe(dtype) or 2`: the width, 2 when unknown. */
int
pm_bpe_or2(const char *dtype)
{
	int b = perf_bpe(dtype);

	return b != 0 ? b : 2;
}
