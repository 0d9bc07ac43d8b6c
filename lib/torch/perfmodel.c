/* SPDX-License-Identifier: ISC */
/*
 * perfmodel: TraceLens's FLOP and byte models (TraceLens 171dd747, PerfModel/
 * perf_model.py), with its arithmetic: integers stay exact integers and divisions
 * give doubles where Python's do (struct pynum), so GFLOPS and Data Moved come out as
 * the same doubles. An argument TraceLens would index past, or a string it could not
 * parse, is PERF_ERROR with the reason (TraceLens drops such rows with a warning);
 * TraceLens's NotImplementedError is PERF_NONE.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/json.h"
#include "core/rec.h"
#include "torch/opclass.h"
#include "torch/perfmodel.h"

/* --- Python numbers ------------------------------------------------------------------ */

static struct pynum
I(long long v)
{
	struct pynum n = { true, v, (double)v };

	return n;
}

static struct pynum
F(double d)
{
	struct pynum n = { false, 0, d };

	return n;
}

double
pynum_double(struct pynum v)
{
	return v.isint ? (double)v.i : v.d;
}

static struct pynum
py_add(struct pynum a, struct pynum b)
{
	long long r;

	if (a.isint && b.isint && !__builtin_add_overflow(a.i, b.i, &r))
		return I(r);
	return F(pynum_double(a) + pynum_double(b));
}

static struct pynum
py_sub(struct pynum a, struct pynum b)
{
	long long r;

	if (a.isint && b.isint && !__builtin_sub_overflow(a.i, b.i, &r))
		return I(r);
	return F(pynum_double(a) - pynum_double(b));
}

static struct pynum
py_mul(struct pynum a, struct pynum b)
{
	long long r;

	if (a.isint && b.isint && !__builtin_mul_overflow(a.i, b.i, &r))
		return I(r);
	return F(pynum_double(a) * pynum_double(b));
}

/* Python's a / b: a double, correctly rounded for integers below 2^53. */
static struct pynum
py_tdiv(struct pynum a, struct pynum b)
{
	return F(pynum_double(a) / pynum_double(b));
}

/* Python's a // b on integers (floor); on doubles, floor of the quotient. */
static struct pynum
py_fdiv(struct pynum a, struct pynum b)
{
	if (a.isint && b.isint && b.i != 0) {
		long long q = a.i / b.i;

		if ((a.i % b.i != 0) && ((a.i < 0) != (b.i < 0)))
			q--;
		return I(q);
	}
	return F(floor(pynum_double(a) / pynum_double(b)));
}

static struct pynum
py_muli(struct pynum a, long long k)
{
	return py_mul(a, I(k));
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

struct pmctx {
	const char		*name;
	const struct targs	*a;
	const char *const	*kernels;
	size_t			 nkernels;
	struct tperf		*o;
	struct js_writer	 w;		/* into o->params */
	bool			 failed;
	bool			 none;		/* TraceLens's NotImplementedError */
};

static void
fail(struct pmctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->failed)
		return;
	c->failed = true;
	va_start(ap, fmt);
	vsnprintf(c->o->err, sizeof(c->o->err), fmt, ap);
	va_end(ap);
}

static const struct targ *
arg(struct pmctx *c, size_t i)
{
	static const struct targ none = { TSHAPE_NONE, 0, { 0 }, "", false, 0, { 0 }, "",
	    NULL };

	if (i >= c->a->n) {
		fail(c, "argument %zu missing (the op has %zu)", i, c->a->n);
		return &none;
	}
	return &c->a->a[i];
}

/* The shape of argument i as a flat list (Python: tuple(Input Dims[i])). */
static const struct targ *
shape(struct pmctx *c, size_t i)
{
	const struct targ *t = arg(c, i);

	if (!c->failed && t->shape != TSHAPE_FLAT)
		fail(c, "argument %zu: %s", i, t->shape == TSHAPE_LIST ?
		    "a tensor list, not one shape" : "no shape");
	return t;
}

/* Python: Input Dims[i] is not None (a missing tensor is [] in Kineto traces). */
static bool
present(struct pmctx *c, size_t i)
{
	(void)arg(c, i);
	return !c->failed;
}

/* Python: `Input Dims[i]` is non-empty (truthy). */
static bool
nonempty(struct pmctx *c, size_t i)
{
	if (i >= c->a->n)
		return false;
	return c->a->a[i].shape == TSHAPE_LIST ||
	    (c->a->a[i].shape == TSHAPE_FLAT && c->a->a[i].rank > 0);
}

static struct pynum
prod(struct pmctx *c, const long long *d, int n)
{
	struct pynum p = I(1);
	int i;

	(void)c;
	for (i = 0; i < n; i++)
		p = py_mul(p, I(d[i]));
	return p;
}

static struct pynum
dim(struct pmctx *c, const struct targ *t, int i)
{
	if (c->failed)
		return I(0);
	if (i < 0)
		i += t->rank;
	if (i < 0 || i >= t->rank) {
		fail(c, "a shape of rank %d has no dimension %d", t->rank, i);
		return I(0);
	}
	return I(t->dims[i]);
}

/* --- params ------------------------------------------------------------------------------ */

/*
 * The params are the JSON text of an object (out->params), written member by member in
 * TraceLens's order: a key (pkey), then one value. A tuple (shapes, strides) is kept as a
 * struct tup until it is written, so that a model can compute one before its place.
 */
struct tup {
	const long long	*d;
	int		 n;		/* -1: Python's None */
};

static const struct tup tup_none = { NULL, -1 };

static struct tup
jtuple(const long long *d, int n)
{
	struct tup t = { d, n };

	return t;
}

static struct tup
jshape(const struct targ *t)
{
	return jtuple(t->dims, t->shape == TSHAPE_FLAT ? t->rank : 0);
}

/* Python: tuple(Input Strides[i]), None when the trace has no strides at all. */
static struct tup
jstrides(struct pmctx *c, size_t i, bool none_ok)
{
	const struct targ *t;

	if (!c->a->strides_known && none_ok)
		return tup_none;
	t = arg(c, i);
	if (c->failed)
		return tup_none;
	if (!t->has_strides) {
		if (none_ok)
			return tup_none;
		fail(c, "argument %zu: no strides", i);
		return tup_none;
	}
	return jtuple(t->strides, t->nstrides);
}

/* The writer, after the member's key: the value comes next. */
static struct js_writer *
pkey(struct pmctx *c, const char *key)
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

static void
p_tup(struct pmctx *c, const char *key, struct tup t)
{
	w_tup(pkey(c, key), t);
}

/* The param key (a static string) is a Python list, not a tuple. */
static void
p_is_list(struct pmctx *c, const char *key)
{
	if (c->o->nlists < sizeof(c->o->lists) / sizeof(c->o->lists[0]))
		c->o->lists[c->o->nlists++] = key;
}

static void
p_str(struct pmctx *c, const char *key, const char *s)
{
	w_str(pkey(c, key), s);
}

static void
p_int(struct pmctx *c, const char *key, long long v)
{
	js_w_int(pkey(c, key), v);
}

/* A double as TraceLens's float: shortest round-trip text, null when not finite. */
static void
p_real(struct pmctx *c, const char *key, double v)
{
	js_w_real(pkey(c, key), v);
}

static void
p_num(struct pmctx *c, const char *key, struct pynum v)
{
	if (v.isint)
		p_int(c, key, v.i);
	else
		p_real(c, key, v.d);
}

static void
p_bool(struct pmctx *c, const char *key, bool v)
{
	js_w_bool(pkey(c, key), v);
}

static void
p_null(struct pmctx *c, const char *key)
{
	js_w_null(pkey(c, key));
}

/* A list of n strings (dtypes), NULL ones as null. */
static void
p_strs(struct pmctx *c, const char *key, const char *const *s, int n)
{
	struct js_writer *w = pkey(c, key);
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

static bool
pyfloat(const char *s, double *v)
{
	return pyparse(s, false, NULL, v);
}

static bool
pyint(const char *s, long long *v)
{
	return pyparse(s, true, v, NULL);
}

/* TraceLens's optional_float: "", "None" or junk give the default 0.0. */
static double
optional_float(const char *s)
{
	double v;

	if (strcmp(s, "") == 0 || strcmp(s, "None") == 0 || !pyfloat(s, &v))
		return 0.0;
	return v;
}

/* The "causal" strings of the SDPA models: "" and "None" are False, else "true". */
static bool
causal_str(const char *s)
{
	if (strcmp(s, "") == 0 || strcmp(s, "None") == 0)
		return false;
	return strcasecmp(s, "true") == 0;
}

/* Python's eval() of a Concrete Input that must be a bool ("True", "False"). */
static bool
eval_bool(struct pmctx *c, const char *s)
{
	if (strcmp(s, "True") == 0)
		return true;
	if (strcmp(s, "False") == 0)
		return false;
	fail(c, "cannot evaluate \"%s\" as a bool", s);
	return false;
}

/* A list literal of integers or bools: "[16, 16]", "(1,)", "[True, False]". */
static int
parse_list(struct pmctx *c, const char *s, long long *out, int max)
{
	const char *p = s;
	char close;
	int n = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p != '[' && *p != '(') {
		fail(c, "cannot read \"%s\" as a list", s);
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
			fail(c, "list \"%s\" too long", s);
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
				fail(c, "cannot read \"%s\" as a list of integers", s);
				return 0;
			}
			p = end;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ',')
			p++;
		else if (*p != close) {
			fail(c, "cannot read \"%s\" as a list", s);
			return 0;
		}
	}
	p++;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '\0')
		fail(c, "cannot read \"%s\" as a list", s);
	return n;
}

/* TraceLens's aten_conv.str_to_tuple: int() of each comma-separated piece of s[1:-1]. */
static int
str_to_tuple(struct pmctx *c, const char *s, long long *out, int max)
{
	char buf[256], *p, *q;
	size_t len = strlen(s);
	int n = 0;

	if (len < 2 || len - 2 >= sizeof(buf)) {
		fail(c, "cannot read \"%s\" as a tuple", s);
		return 0;
	}
	memcpy(buf, s + 1, len - 2);
	buf[len - 2] = '\0';
	for (p = buf;; p = q + 1) {
		if ((q = strchr(p, ',')) != NULL)
			*q = '\0';
		if (n == max || !pyint(p, &out[n])) {
			fail(c, "cannot read \"%s\" as a tuple of integers", s);
			return 0;
		}
		n++;
		if (q == NULL)
			break;
	}
	return n;
}

static const char *
concrete(struct pmctx *c, size_t i)
{
	return arg(c, i)->value;
}

static const char *
dtype(struct pmctx *c, size_t i)
{
	return arg(c, i)->dtype;
}

/* --- GEMM ---------------------------------------------------------------------------------- */

struct gemm {
	struct pynum	 B, M, N, K;
	bool		 bias;
	int		 batched;	/* flops and bytes times B (bmm, baddbmm) */
	const char	*dt[4];		/* dtypes named in dtype_A_B */
	int		 ndt;
};

/* The transpose flags from the first kernel name that parses (kernel_name_parser). */
static void
gemm_transpose(struct pmctx *c)
{
	size_t i;

	for (i = 0; i < c->nkernels; i++) {
		const char *k = c->kernels[i], *p;
		struct js_writer *w;
		int ta = -1, tb = -1;

		for (p = k; (p = strchr(p, 'C')) != NULL; p++) {
			/* C[a-z]{3}_A[a-z]{3}_B[a-z]{3} anywhere in the name (ROCm Tensile) */
			int j, okp = 1;
			static const char pat[] = "CxxxxAxxxxBxxx";

			for (j = 0; j < 14 && okp; j++) {
				char ch = p[j];

				if (j == 0 || j == 5 || j == 10)
					okp = ch == pat[j];
				else if (j == 4 || j == 9)
					okp = ch == '_';
				else
					okp = ch >= 'a' && ch <= 'z';
			}
			if (okp)
				break;
		}
		if (p != NULL) {
			if (strstr(k, "_Ailk_") != NULL)
				ta = 0;
			else if (strstr(k, "_Alik_") != NULL)
				ta = 1;
			if (strstr(k, "_Bljk_") != NULL)
				tb = 0;
			else if (strstr(k, "_Bjlk_") != NULL)
				tb = 1;
		} else if (strncmp(k, "nvjet", 5) == 0) {
			const char *last = strrchr(k, '_');

			last = last != NULL ? last + 1 : k;
			if (strlen(last) < 2) {
				fail(c, "kernel \"%s\": no transpose flags", k);
				return;
			}
			ta = last[0] == 'T';
			tb = last[1] == 'T';
		} else
			continue;
		w = pkey(c, "transpose");
		js_w_array(w);
		if (ta < 0)
			js_w_null(w);
		else
			js_w_bool(w, ta);
		if (tb < 0)
			js_w_null(w);
		else
			js_w_bool(w, tb);
		js_w_end_array(w);
		return;
	}
}

static void
gemm_params(struct pmctx *c, struct gemm *g, size_t ia, size_t ib)
{
	if (g->batched)
		p_num(c, "B", g->B);
	p_num(c, "M", g->M);
	p_num(c, "N", g->N);
	p_num(c, "K", g->K);
	p_bool(c, "bias", g->bias);
	p_tup(c, "stride_A", jstrides(c, ia, true));
	p_tup(c, "stride_B", jstrides(c, ib, true));
	p_strs(c, "dtype_A_B", g->dt, g->ndt);
	if (!g->batched)
		p_int(c, "B", 1);
	gemm_transpose(c);
}

static void
gemm_figures(struct pmctx *c, struct gemm *g, int bpe_a, int bpe_b, int bpe_bias, int bpe_out)
{
	struct tperf *o = c->o;
	struct pynum f, by;

	f = py_muli(py_mul(py_mul(g->M, g->N), g->K), 2);
	if (g->bias)
		f = py_add(f, py_mul(g->M, g->N));
	if (g->batched)
		f = py_mul(g->B, f);
	o->flops = f;
	o->maf = "matrix";
	o->prec = perf_precision(g->dt[0]);
	if (bpe_a == 0 || bpe_b == 0 || bpe_bias == 0 || bpe_out == 0)
		return;
	by = py_add(py_add(py_muli(py_mul(g->M, g->K), bpe_a), py_muli(py_mul(g->K, g->N), bpe_b)),
	    py_muli(py_mul(g->M, g->N), bpe_out));
	by = py_add(by, py_muli(g->bias ? g->N : I(0), bpe_bias));
	if (g->batched)
		by = py_mul(g->B, by);
	o->has_bytes = true;
	o->bytes = by;
}

/* aten::mm, addmm, bmm, baddbmm, _scaled_mm and the TEv2 pseudo GEMMs. */
static void
m_gemm(struct pmctx *c, const char *model)
{
	struct gemm g = { I(1), I(0), I(0), I(0), false, 0, { 0 }, 0 };
	const struct targ *A, *Bm;
	size_t ia = 0, ib = 1;
	int bpe, out;

	if (strcmp(model, "aten_addmm") == 0 || strcmp(model, "aten_baddbmm") == 0) {
		ia = 1;
		ib = 2;
		g.bias = true;
	}
	A = shape(c, ia);
	Bm = shape(c, ib);
	if (strcmp(model, "aten_bmm") == 0 || strcmp(model, "aten_baddbmm") == 0) {
		if (!c->failed && (A->rank != 3 || Bm->rank != 3))
			fail(c, "batched GEMM operands must have rank 3");
		g.batched = 1;
		g.B = dim(c, A, 0);
		g.M = dim(c, A, 1);
		g.K = dim(c, A, 2);
		g.N = dim(c, Bm, 2);
	} else {
		g.M = dim(c, A, 0);
		g.K = dim(c, A, 1);
		g.N = dim(c, Bm, 1);
	}
	if (strcmp(model, "aten_scaled_mm") == 0)
		g.bias = c->a->n == 3;
	g.dt[0] = dtype(c, ia);
	g.dt[1] = dtype(c, ib);
	g.ndt = 2;
	if (c->failed)
		return;
	gemm_params(c, &g, ia, ib);
	bpe = perf_bpe(g.dt[0]);
	out = bpe;
	if (strcmp(model, "aten_scaled_mm") == 0) {
		if (bpe == 0 || perf_bpe(g.dt[1]) == 0) {
			fail(c, "data types of A and B not supported: %s, %s", g.dt[0],
			    g.dt[1]);
			return;
		}
		out = bpe == 1 ? 2 : (bpe == 2 || bpe == 4) ? bpe : 0;
	} else if (strcmp(model, "tev2_pseudo_gemm") == 0) {
		if (strcmp(g.dt[0], g.dt[1]) != 0) {
			fail(c, "data types of A and B are different: %s, %s", g.dt[0],
			    g.dt[1]);
			return;
		}
		out = 2;
	}
	gemm_figures(c, &g, bpe, bpe, bpe, out);
}

/* vllm::gemm_with_dynamic_quant: the first two 2-D shapes are A[M, K] and W[N, K]. */
static void
m_gemm_dq(struct pmctx *c)
{
	struct gemm g = { I(1), I(0), I(0), I(0), false, 0, { 0 }, 0 };
	const struct targ *A = NULL, *W = NULL;
	size_t i;
	int bpe;

	for (i = 0; i < c->a->n && W == NULL; i++) {
		const struct targ *t = &c->a->a[i];

		if (t->shape != TSHAPE_FLAT || t->rank != 2)
			continue;
		if (A == NULL)
			A = t;
		else
			W = t;
	}
	if (A == NULL || W == NULL) {
		fail(c, "missing 2D A, B shapes in Input Dims");
		return;
	}
	if (c->a->n < 2) {
		fail(c, "missing A, B dtypes in Input type");
		return;
	}
	g.M = I(A->dims[0]);
	g.K = I(A->dims[1]);
	g.N = I(W->dims[0]);
	g.dt[0] = dtype(c, 0);
	g.dt[1] = dtype(c, 1);
	g.ndt = 2;
	gemm_params(c, &g, 0, 1);
	bpe = perf_bpe(g.dt[0]);
	gemm_figures(c, &g, bpe, bpe, bpe, bpe);
}

/* tex_ts::te_gemm_ts: A = dims[0], B = dims[5], transa/transb from Concrete 4 and 9. */
static void
m_te_gemm(struct pmctx *c)
{
	struct gemm g = { I(1), I(0), I(0), I(0), false, 0, { 0 }, 0 };
	const struct targ *A, *Bm;
	bool ta, tb;

	(void)arg(c, 10);
	A = shape(c, 0);
	Bm = shape(c, 5);
	ta = strcmp(concrete(c, 4), "1") == 0;
	tb = strcmp(concrete(c, 9), "1") == 0;
	g.M = dim(c, A, ta ? 0 : 1);
	g.K = dim(c, A, ta ? 1 : 0);
	g.N = dim(c, Bm, tb ? 1 : 0);
	g.bias = strcmp(concrete(c, 14), "") != 0;
	g.dt[0] = dtype(c, 0);
	g.dt[1] = dtype(c, 5);
	g.dt[2] = dtype(c, 10);
	g.dt[3] = dtype(c, 18);
	g.ndt = 4;
	if (c->failed)
		return;
	gemm_params(c, &g, 0, 5);
	gemm_figures(c, &g, perf_bpe(g.dt[0]), perf_bpe(g.dt[1]), perf_bpe(g.dt[3]),
	    perf_bpe(g.dt[2]));
}

/* TraceLens's parse_bool of a Concrete Input: "true"/"1" and "false"/"0"/"" (any
 * case, blanks trimmed); any other non-empty string is True. */
static bool
parse_bool(const char *s)
{
	char buf[16];
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= sizeof(buf))
		return true;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (strcasecmp(buf, "false") == 0 || strcmp(buf, "0") == 0 || n == 0)
		return false;
	return true;
}

/* Primus Turbo's hipblaslt_gemm_fp8(A, scaleA_inv, B, scaleB_inv, out_dtype, transA,
 * transB, transC, granularity): transC swaps the operands. */
static void
m_hipblaslt_fp8(struct pmctx *c)
{
	struct gemm g = { I(1), I(0), I(0), I(0), false, 0, { 0 }, 0 };
	const struct targ *A = shape(c, 0), *Bm = shape(c, 2), *t;
	bool ta, tb, tc;
	struct tup sa, sb;
	int bpe, bpeb;

	if (c->failed)
		return;
	ta = c->a->n > 5 && parse_bool(c->a->a[5].value);
	tb = c->a->n > 6 && parse_bool(c->a->a[6].value);
	tc = c->a->n > 7 && parse_bool(c->a->a[7].value);
	if (tc) {
		bool x = ta;

		t = A;
		A = Bm;
		Bm = t;
		ta = !tb;
		tb = !x;
	}
	g.M = dim(c, A, ta ? 1 : 0);
	g.K = dim(c, A, ta ? 0 : 1);
	g.N = dim(c, Bm, tb ? 0 : 1);
	g.dt[0] = dtype(c, 0);
	g.dt[1] = dtype(c, 2);
	if (c->failed)
		return;
	p_num(c, "M", g.M);
	p_num(c, "N", g.N);
	p_num(c, "K", g.K);
	p_bool(c, "bias", false);
	sa = jstrides(c, 0, true);
	sb = jstrides(c, 2, true);
	if (sa.n < 0 || sb.n < 0)
		sa = sb = tup_none;
	p_tup(c, "stride_A", sa);
	p_tup(c, "stride_B", sb);
	p_strs(c, "dtype_A_B", g.dt, 2);
	p_str(c, "dtype_scaleA", c->a->n > 1 ? c->a->a[1].dtype : NULL);
	p_str(c, "dtype_scaleB", c->a->n > 3 ? c->a->a[3].dtype : NULL);
	p_int(c, "B", 1);
	gemm_transpose(c);
	bpe = perf_bpe(g.dt[0]);
	bpeb = perf_bpe(g.dt[1]);
	if (bpe == 0 || bpeb == 0) {
		fail(c, "data types of A and B are not supported: %s, %s", g.dt[0], g.dt[1]);
		return;
	}
	gemm_figures(c, &g, bpe, bpeb, bpe, bpe == 1 ? 2 : bpe);
}

/* --- convolution ------------------------------------------------------------------------- */

#define CONV_MAXD 8

struct conv {
	long long	 x[TARG_MAXRANK], w[TARG_MAXRANK], out[TARG_MAXRANK];
	int		 xr, wr, nd;
	bool		 bias, transposed;
	const char	*dt;
};

static struct pynum
conv_flops(struct pmctx *c, const long long *x, int xr, const long long *w, int wr,
    const long long *out, int outr, bool bias, bool transposed)
{
	struct pynum per = py_muli(prod(c, w + 1, wr - 1), 2), f;

	f = py_mul(transposed ? prod(c, x, xr) : prod(c, out, outr), per);
	if (bias)
		f = py_add(f, prod(c, out, outr));
	return f;
}

static struct pynum
conv_elems(struct pmctx *c, const long long *x, int xr, const long long *w, int wr,
    const long long *out, int outr, bool bias)
{
	struct pynum e = py_add(prod(c, x, xr), prod(c, w, wr));

	if (bias)
		e = py_add(e, I(out[1]));
	return py_add(e, prod(c, out, outr));
}

/* (shape[1], shape[0]) + shape[2:] */
static void
conv_t(const long long *s, int r, long long *t)
{
	memcpy(t, s, (size_t)r * sizeof(*s));
	if (r >= 2) {
		t[0] = s[1];
		t[1] = s[0];
	}
}

/* Parameters and output shape of aten::convolution (x at 0) and
 * aten::convolution_backward (x at 1): Concrete Inputs from index k0 = 3 or 4. */
static void
conv_read(struct pmctx *c, struct conv *v, size_t ix, size_t k0, bool bwd)
{
	const struct targ *x, *w;
	long long st[CONV_MAXD], pad[CONV_MAXD], dil[CONV_MAXD], op[CONV_MAXD], groups;
	long long *lists[4] = { st, pad, dil, op };
	static const long long dflt[4] = { 1, 0, 1, 0 };
	static const char *names[4] = { "stride", "padding", "dilation", "output_padding" };
	int n[4], i, j;

	x = shape(c, ix);
	w = shape(c, ix + 1);
	if (c->failed)
		return;
	v->xr = x->rank;
	v->wr = w->rank;
	memcpy(v->x, x->dims, sizeof(v->x));
	memcpy(v->w, w->dims, sizeof(v->w));
	v->nd = x->rank - 2;
	if (v->nd < 1 || v->nd > 3 || w->rank != x->rank) {
		fail(c, "unknown convolution dimension: input rank %d, weight rank %d",
		    x->rank, w->rank);
		return;
	}
	if (bwd)
		v->bias = c->a->n > 3 && nonempty(c, 3);
	else
		v->bias = c->a->n == 3;
	for (i = 0; i < 4; i++) {
		const char *s = concrete(c, k0 + (size_t)(i < 3 ? i : i + 1));

		if (c->failed)
			return;
		if (*s == '\0') {
			n[i] = v->nd;
			for (j = 0; j < v->nd; j++)
				lists[i][j] = dflt[i];
		} else
			n[i] = str_to_tuple(c, s, lists[i], CONV_MAXD);
		if (c->failed)
			return;
		if (n[i] == 1)
			for (j = n[i] = v->nd; j-- > 1;)
				lists[i][j] = lists[i][0];
	}
	v->transposed = eval_bool(c, concrete(c, k0 + 3));
	if (!pyint(concrete(c, k0 + 5), &groups))
		fail(c, "groups \"%s\" is not an integer", concrete(c, k0 + 5));
	v->dt = dtype(c, ix);
	if (!c->failed && strcmp(v->dt, dtype(c, ix + 1)) != 0)
		fail(c, "data types of input and weight are different: %s, %s", v->dt,
		    dtype(c, ix + 1));
	for (i = 0; i < 4 && !c->failed; i++)
		if (n[i] < v->nd)
			fail(c, "%s has %d values for %d spatial dimensions", names[i], n[i],
			    v->nd);
	if (c->failed)
		return;

	/* output shape */
	v->out[0] = v->x[0];
	v->out[1] = v->transposed ? v->w[1] : v->w[0];
	for (j = 0; j < v->nd; j++) {
		long long in = v->x[2 + j], k = v->w[2 + j];

		if (v->transposed)
			v->out[2 + j] = (in - 1) * st[j] - 2 * pad[j] + dil[j] * (k - 1) +
			    op[j] + 1;
		else if (st[j] == 0) {
			fail(c, "stride 0");
			return;
		} else	/* Python: int(float quotient + 1), truncated toward zero */
			v->out[2 + j] = (long long)(((double)(in + 2 * pad[j] -
			    dil[j] * (k - 1) - 1) / (double)st[j]) + 1);
	}

	p_str(c, "convNd", v->nd == 1 ? "conv1d" : v->nd == 2 ? "conv2d" :
	    "conv3d");
	p_tup(c, "input_shape", jshape(x));
	p_tup(c, "filter_shape", jshape(w));
	p_strs(c, "dtype_input_weight", (const char *const[]){ v->dt, dtype(c, ix + 1) },
	    2);
	p_tup(c, "input_stride", jstrides(c, ix, true));
	p_tup(c, "weight_stride", jstrides(c, ix + 1, true));
	if (bwd && c->a->n > 3 && !nonempty(c, 3)) {
		/* Python: `... and Input Dims[3]` is [], a list */
		p_tup(c, "bias", jtuple(NULL, 0));
		p_is_list(c, "bias");
	} else
		p_bool(c, "bias", v->bias);
	p_tup(c, "stride", jtuple(st, n[0]));
	p_tup(c, "padding", jtuple(pad, n[1]));
	p_tup(c, "dilation", jtuple(dil, n[2]));
	p_bool(c, "transposed_conv", v->transposed);
	p_tup(c, "output_padding", jtuple(op, n[3]));
	p_int(c, "groups", groups);
}

static void
conv_fwd_figures(struct pmctx *c, struct conv *v)
{
	int bpe = perf_bpe(v->dt), outr = v->xr;

	c->o->flops = conv_flops(c, v->x, v->xr, v->w, v->wr, v->out, outr, v->bias,
	    v->transposed);
	if (bpe != 0) {
		c->o->has_bytes = true;
		c->o->bytes = py_muli(conv_elems(c, v->x, v->xr, v->w, v->wr, v->out, outr,
		    v->bias), bpe);
	}
}

static void
conv_bwd_figures(struct pmctx *c, struct conv *v)
{
	long long tx[TARG_MAXRANK], tout[TARG_MAXRANK], tw[TARG_MAXRANK];
	int r = v->xr, bpe = perf_bpe(v->dt);
	struct pynum f, by;

	conv_t(v->x, r, tx);
	conv_t(v->out, r, tout);
	conv_t(v->w, r, tw);
	f = conv_flops(c, v->out, r, v->w, r, v->x, r, false, !v->transposed);
	if (!v->transposed)
		f = py_add(f, conv_flops(c, tx, r, tout, r, tw, r, false, false));
	else
		f = py_add(f, conv_flops(c, tout, r, tx, r, tw, r, false, false));
	if (v->bias)
		f = py_add(f, prod(c, v->out, r));
	c->o->flops = f;
	if (bpe == 0)
		return;
	by = py_add(py_muli(conv_elems(c, v->out, r, v->w, r, v->x, r, false), bpe),
	    py_muli(conv_elems(c, v->out, r, v->x, r, v->w, r, false), bpe));
	if (v->bias)	/* QUIRK: not times bytes per element */
		by = py_add(by, py_add(prod(c, v->out, r), I(v->out[1])));
	c->o->has_bytes = true;
	c->o->bytes = by;
}

static void
m_conv(struct pmctx *c, bool bwd_model, bool bwd_pass)
{
	struct conv v;

	memset(&v, 0, sizeof(v));
	conv_read(c, &v, bwd_model ? 1 : 0, bwd_model ? 4 : 3, bwd_model);
	if (c->failed)
		return;
	c->o->maf = "matrix";
	c->o->prec = perf_precision(v.dt);
	if (!bwd_model)
		c->o->quirk = "conv bias is never counted (Kineto lists all 9 arguments)";
	if (bwd_model || bwd_pass)
		conv_bwd_figures(c, &v);
	else
		conv_fwd_figures(c, &v);
}

/* --- SDPA ---------------------------------------------------------------------------------- */

struct sdpa {
	struct pynum	 B, NQ, HQ, NKV, HKV, dqk, dv;
	bool		 causal, flash;
};

/* B, H, N, d of q, k, v at argument indices iq.., in layout bhnd (positions of B, H,
 * N, d in the shapes), with TraceLens's consistency checks. */
static void
sdpa_cfg(struct pmctx *c, struct sdpa *s, size_t iq, const int bhnd[4], bool varlen)
{
	const struct targ *q = shape(c, iq), *k = shape(c, iq + 1), *v = shape(c, iq + 2);
	struct pynum qb, kb, vb, kh, vh, kn, vn, kd;

	if (c->failed)
		return;
	if (varlen) {
		s->B = I(1);
		qb = kb = vb = I(1);
	} else {
		s->B = qb = dim(c, q, bhnd[0]);
		kb = dim(c, k, bhnd[0]);
		vb = dim(c, v, bhnd[0]);
	}
	s->HQ = dim(c, q, bhnd[1]);
	s->NQ = dim(c, q, bhnd[2]);
	s->dqk = dim(c, q, bhnd[3]);
	kh = dim(c, k, bhnd[1]);
	kn = dim(c, k, bhnd[2]);
	kd = dim(c, k, bhnd[3]);
	vh = dim(c, v, bhnd[1]);
	vn = dim(c, v, bhnd[2]);
	s->dv = dim(c, v, bhnd[3]);
	s->HKV = kh;
	s->NKV = kn;
	if (c->failed)
		return;
	if (qb.i != kb.i || qb.i != vb.i)
		fail(c, "batch sizes do not match: %lld, %lld, %lld", qb.i, kb.i, vb.i);
	else if (kh.i != vh.i)
		fail(c, "head sizes do not match for K and V: %lld, %lld", kh.i, vh.i);
	else if (kn.i != vn.i)
		fail(c, "length sizes do not match for K and V: %lld, %lld", kn.i, vn.i);
	else if (s->dqk.i != kd.i)
		fail(c, "head dimensions do not match for Q and K: %lld, %lld", s->dqk.i,
		    kd.i);
}

static void
sdpa_params(struct pmctx *c, struct sdpa *s)
{
	p_num(c, "B", s->B);
	p_num(c, "N_Q", s->NQ);
	p_num(c, "H_Q", s->HQ);
	p_num(c, "N_KV", s->NKV);
	p_num(c, "H_KV", s->HKV);
	p_num(c, "d_h_qk", s->dqk);
	p_num(c, "d_h_v", s->dv);
}

static struct pynum
sdpa_flops(struct pmctx *c, const struct sdpa *s, struct pynum nq, struct pynum nkv)
{
	struct pynum bh = py_mul(s->B, s->HQ), f;

	f = py_add(py_mul(bh, py_mul(py_muli(nq, 2), py_mul(nkv, s->dqk))),
	    py_mul(bh, py_mul(py_mul(py_muli(nq, 2), s->dv), nkv)));
	if (s->causal) {
		if (nq.isint && nkv.isint ? nq.i != nkv.i : pynum_double(nq) !=
		    pynum_double(nkv)) {
			fail(c, "causal=True but N_Q != N_K: %g != %g", pynum_double(nq),
			    pynum_double(nkv));
			return I(0);
		}
		f = py_tdiv(f, I(2));
	}
	return f;
}

static struct pynum
sdpa_flops_bwd(struct pmctx *c, const struct sdpa *s, struct pynum nq, struct pynum nkv)
{
	struct pynum bh = py_mul(s->B, s->HQ), f = I(0), gqa;

	gqa = py_sub(py_fdiv(s->HQ, s->HKV), I(1));
	if (s->flash)
		f = py_mul(bh, py_mul(py_muli(nq, 2), py_mul(nkv, s->dqk)));
	f = py_add(f, py_add(py_mul(bh, py_mul(py_muli(nkv, 2), py_mul(nq, s->dv))),
	    py_mul(py_mul(py_mul(s->B, nkv), s->dv), gqa)));
	f = py_add(f, py_mul(bh, py_mul(py_muli(nq, 2), py_mul(nkv, s->dv))));
	f = py_add(f, py_mul(bh, py_mul(py_muli(nq, 2), py_mul(nkv, s->dqk))));
	f = py_add(f, py_add(py_mul(bh, py_mul(py_muli(nkv, 2), py_mul(nq, s->dqk))),
	    py_mul(py_mul(py_mul(s->B, nkv), s->dqk), gqa)));
	if (s->causal) {
		if (pynum_double(nq) != pynum_double(nkv)) {
			fail(c, "causal=True but N_Q != N_K");
			return I(0);
		}
		f = py_tdiv(f, I(2));
	}
	return f;
}

static struct pynum
sdpa_bytes(const struct sdpa *s, int bpe, bool bwd)
{
	struct pynum q = py_mul(py_mul(s->B, s->NQ), py_mul(s->HQ, s->dqk));
	struct pynum k = py_mul(py_mul(s->B, s->NKV), py_mul(s->HKV, s->dqk));
	struct pynum v = py_mul(py_mul(s->B, s->NKV), py_mul(s->HKV, s->dv));
	struct pynum o = py_mul(py_mul(s->B, s->NQ), py_mul(s->HQ, s->dv));
	struct pynum e = py_add(py_add(q, k), py_add(v, o));

	if (bwd)
		e = py_add(e, py_add(py_add(q, k), v));
	return py_muli(e, bpe);
}

/* The SDPA classes: where q, k, v are, their layout, and where dropout and causal are
 * in Concrete Inputs. */
struct sdpa_kind {
	const char	*model;
	size_t		 iq;
	int		 layout;	/* 0: [B, H, N, d]; 1: [B, N, H, d]; 2: varlen [T, H, d] */
	int		 idrop, icausal;
	int		 how;		/* 0: optional_float + "true"; 1: float + eval;
					 * 2: flash bwd (defaults); 3: fa3 (dropout 0) */
	bool		 flash, dtype, strides, bwd_model, varlen;
};

static const struct sdpa_kind sdpa_kinds[] = {
	{ "flash_attention", 0, 1, 3, 5, 1, true, true, true, false, false },
	{ "flash_attention_backward", 1, 1, 8, 10, 2, true, true, true, true, false },
	{ "flash_attention_varlen_forward", 0, 2, 7, 9, 1, true, true, true, false, true },
	{ "flash_attention_varlen_backward", 1, 2, 13, 15, 1, true, true, true, true,
	    true },
	{ "aten__scaled_dot_product_cudnn_attention", 0, 0, 5, 6, 0, false, true, false,
	    false, false },
	{ "aten__scaled_dot_product_efficient_attention", 0, 0, 5, 6, 0, false, true,
	    false, false, false },
	{ "aten__scaled_dot_product_flash_attention", 0, 0, 3, 4, 0, true, true, false,
	    false, false },
	{ "aiter__flash_attn_forward", 0, 1, 3, 5, 0, true, false, false, false, false },
	{ "aiter__flash_attn_backward", 0, 1, 10, 12, 0, true, false, false, true, false },
	{ "flash_attn_v3_forward", 0, 1, -1, 24, 3, true, false, false, false, false },
	{ "aiter__fmha_v3_forward", 1, 1, 4, 6, 0, true, false, false, false, false },
	{ "aiter__fmha_v3_backward", 1, 1, 7, 9, 0, true, false, false, true, false },
	{ "aiter__mha_fwd", 0, 1, 3, 5, 0, true, false, false, false, false },
	{ "aiter__fmha_v3_fwd", 0, 1, 3, 5, 0, true, false, false, false, false },
	{ "aiter__mha_bwd", 1, 1, 6, 8, 0, true, false, false, true, false },
};

static const struct sdpa_kind *
sdpa_kind(const char *model)
{
	size_t i;

	for (i = 0; i < sizeof(sdpa_kinds) / sizeof(sdpa_kinds[0]); i++)
		if (strcmp(sdpa_kinds[i].model, model) == 0)
			return &sdpa_kinds[i];
	return NULL;
}

static void
m_sdpa(struct pmctx *c, const struct sdpa_kind *k, bool bwd_pass)
{
	static const int bhnd[3][4] = { { 0, 1, 2, 3 }, { 0, 2, 1, 3 }, { 0, 1, 0, 2 } };
	struct sdpa s;
	double dropout = 0, d;
	long long nsq = 0, nskv = 0;
	double maxq = 0, maxkv = 0;
	bool bwd = k->bwd_model || bwd_pass;
	struct pynum f;
	const char *dt[2];

	memset(&s, 0, sizeof(s));
	/* varlen: shapes [T, H, d]: H at 1, N (T) at 0, d at 2 */
	sdpa_cfg(c, &s, k->iq, bhnd[k->layout], k->varlen);
	if (c->failed)
		return;
	s.flash = k->flash;
	switch (k->how) {
	case 0:
		dropout = optional_float(concrete(c, (size_t)k->idrop));
		s.causal = causal_str(concrete(c, (size_t)k->icausal));
		break;
	case 1:
		if (!pyfloat(concrete(c, (size_t)k->idrop), &dropout))
			fail(c, "dropout \"%s\" is not a number",
			    concrete(c, (size_t)k->idrop));
		s.causal = eval_bool(c, concrete(c, (size_t)k->icausal));
		break;
	case 2:	/* flash_attn::_flash_attn_backward: defaults when missing or empty */
		dropout = 0.0;
		s.causal = true;
		if (c->a->n > 8 && *c->a->a[8].value != '\0') {
			if (!pyfloat(c->a->a[8].value, &dropout))
				fail(c, "dropout \"%s\" is not a number", c->a->a[8].value);
		}
		if (c->a->n > 10 && *c->a->a[10].value != '\0')
			s.causal = eval_bool(c, c->a->a[10].value);
		break;
	case 3:
		dropout = 0.0;
		s.causal = causal_str(concrete(c, (size_t)k->icausal));
		break;
	}
	if (k->varlen) {
		size_t icu = k->bwd_model ? 9 : 3, imax = k->bwd_model ? 11 : 5;
		const struct targ *cq = shape(c, icu), *ck = shape(c, icu + 1);

		nsq = dim(c, cq, 0).i - 1;
		nskv = dim(c, ck, 0).i - 1;
		if (!c->failed && !pyfloat(concrete(c, imax), &maxq))
			fail(c, "max_seqlen_q \"%s\" is not a number", concrete(c, imax));
		if (!c->failed && !pyfloat(concrete(c, imax + 1), &maxkv))
			fail(c, "max_seqlen_k \"%s\" is not a number", concrete(c, imax + 1));
	}
	if (c->failed)
		return;
	sdpa_params(c, &s);
	if (k->strides) {
		p_tup(c, "q_stride", jstrides(c, k->iq, false));
		p_tup(c, "k_stride", jstrides(c, k->iq + 1, false));
		p_tup(c, "v_stride", jstrides(c, k->iq + 2, false));
	}
	p_real(c, "dropout", dropout);
	p_bool(c, "causal", s.causal);
	p_bool(c, "flash_impl", s.flash);
	if (k->dtype) {
		dt[0] = dtype(c, 0);
		dt[1] = dtype(c, 1);
		p_strs(c, "dtype_A_B", dt, 2);
		c->o->prec = perf_precision(dtype(c, 0));
	}
	if (k->varlen) {
		p_int(c, "num_seqs_q", nsq);
		p_int(c, "num_seqs_kv", nskv);
		p_real(c, "max_seqlen_q", maxq);
		p_real(c, "max_seqlen_kv", maxkv);
	}
	c->o->maf = "matrix";

	if (k->varlen && !(bwd_pass && !k->bwd_model)) {
		struct pynum (*fn)(struct pmctx *, const struct sdpa *, struct pynum,
		    struct pynum) = bwd ? sdpa_flops_bwd : sdpa_flops;

		f = fn(c, &s, F(maxq), F(maxkv));
		if (nsq > 1) {
			struct pynum rq, rkv;

			if (nskv == 1) {
				fail(c, "float division by zero (num_seqs_kv = 1)");
				return;
			}
			rq = py_fdiv(py_sub(s.NQ, F(maxq)), I(nsq - 1));
			rkv = py_fdiv(py_sub(s.NKV, F(maxkv)), I(nskv - 1));
			f = py_add(f, py_muli(fn(c, &s, rq, rkv), nsq - 1));
		}
	} else
		f = bwd ? sdpa_flops_bwd(c, &s, s.NQ, s.NKV) : sdpa_flops(c, &s, s.NQ, s.NKV);
	if (c->failed)
		return;
	c->o->flops = f;
	/* Forward bytes at a fixed 2 bytes per element (QUIRK); flash_attn backward reads
	 * the dtype's. */
	d = 2;
	if (strcmp(k->model, "flash_attention_backward") == 0 && !bwd_pass) {
		d = perf_bpe(dtype(c, 0));
		if (d == 0) {
			fail(c, "unsupported dtype %s", dtype(c, 0));
			return;
		}
	}
	c->o->has_bytes = true;
	c->o->bytes = sdpa_bytes(&s, (int)d, bwd);
	if (perf_bpe(dtype(c, k->iq)) != 2)
		c->o->quirk = "SDPA bytes assume 2 bytes per element";
}

/* EvoformerAttention: Q [Batch, N_seq, N_res, Head, Dim]. */
static void
m_evoformer(struct pmctx *c)
{
	const struct targ *q = shape(c, 0);
	struct sdpa s;

	if (!c->failed && q->rank != 5)
		fail(c, "Q must have rank 5");
	if (c->failed)
		return;
	memset(&s, 0, sizeof(s));
	s.B = py_mul(I(q->dims[0]), I(q->dims[1]));
	s.NQ = s.NKV = I(q->dims[2]);
	s.HQ = s.HKV = I(q->dims[3]);
	s.dqk = s.dv = I(q->dims[4]);
	sdpa_params(c, &s);
	p_bool(c, "causal", false);
	p_bool(c, "flash_impl", false);
	p_strs(c, "dtype_A_B", (const char *const[]){ c->a->n > 0 ? dtype(c, 0) : NULL },
	    1);
	c->o->maf = "matrix";
	c->o->prec = perf_precision(dtype(c, 0));
	c->o->flops = sdpa_flops(c, &s, s.NQ, s.NKV);
	c->o->has_bytes = true;
	c->o->bytes = sdpa_bytes(&s, 2, false);
	c->o->quirk = "SDPA bytes assume 2 bytes per element";
}

/* --- element-wise -------------------------------------------------------------------------- */

static void
unary_figures(struct pmctx *c, struct pynum nin, struct pynum nout, const char *din,
    const char *dout)
{
	int bi = perf_bpe(din), bo = dout != NULL ? perf_bpe(dout) : bi;

	c->o->flops = nout;
	c->o->maf = "vector";
	c->o->prec = perf_precision(din);
	if (bi != 0 && bo != 0) {
		c->o->has_bytes = true;
		c->o->bytes = py_add(py_muli(nin, bi), py_muli(nout, bo));
	}
}

static void
m_unary(struct pmctx *c)
{
	const struct targ *x = shape(c, 0);
	const char *dt[2] = { NULL, NULL };
	struct tup so = tup_none;

	if (c->failed)
		return;
	dt[0] = dtype(c, 0);
	p_tup(c, "op_shape", jshape(x));
	if (c->a->n > 1 && nonempty(c, 1)) {
		dt[1] = dtype(c, 1);
		so = jstrides(c, 1, false);
	}
	p_strs(c, "dtype_in_out", dt, 2);
	p_tup(c, "stride_input", jstrides(c, 0, false));
	p_tup(c, "stride_output", so);
	unary_figures(c, prod(c, x->dims, x->rank), prod(c, x->dims, x->rank), dt[0], dt[1]);
}

/* replication_pad: padding pairs from Concrete[1], innermost dimension first. */
static void
m_pad(struct pmctx *c, bool upsample)
{
	const struct targ *x = shape(c, 0);
	long long out[TARG_MAXRANK], pad[2 * TARG_MAXRANK];
	const char *dt[2];
	int n = 0, i, outr;

	if (c->failed)
		return;
	memcpy(out, x->dims, sizeof(out));
	outr = x->rank;
	if (upsample) {
		long long sp[TARG_MAXRANK];

		n = parse_list(c, concrete(c, 1), sp, TARG_MAXRANK - 2);
		if (c->failed)
			return;
		if (x->rank < 2) {
			fail(c, "input rank %d below 2", x->rank);
			return;
		}
		outr = 2 + n;
		for (i = 0; i < n; i++)
			out[2 + i] = sp[i];
	} else {
		n = parse_list(c, concrete(c, 1), pad, 2 * TARG_MAXRANK);
		if (c->failed)
			return;
		for (i = 0; i < n / 2; i++) {
			int d = x->rank - 1 - i;

			if (d < 0) {
				fail(c, "more padding than dimensions");
				return;
			}
			out[d] += pad[2 * i] + pad[2 * i + 1];
		}
	}
	dt[0] = dt[1] = dtype(c, 0);
	p_tup(c, "input_shape", jshape(x));
	p_tup(c, "output_shape", jtuple(out, outr));
	if (!upsample) {
		p_tup(c, "padding", jtuple(pad, n));
	}
	p_tup(c, "op_shape", jtuple(out, outr));
	p_strs(c, "dtype_in_out", dt, 2);
	p_tup(c, "stride_input", jstrides(c, 0, false));
	p_null(c, "stride_output");
	unary_figures(c, prod(c, x->dims, x->rank), prod(c, out, outr), dt[0], dt[1]);
}

static void
m_binary(struct pmctx *c, bool liger)
{
	const struct targ *a = shape(c, 0), *b = shape(c, 1);
	const char *dt[3] = { NULL, NULL, NULL };
	long long out[TARG_MAXRANK];
	int nd, i, b1, b2, bo;
	struct tup so = tup_none;

	if (c->failed)
		return;
	dt[0] = dtype(c, 0);
	dt[1] = dtype(c, 1);
	if (!liger && c->a->n > 2 && nonempty(c, 2)) {
		dt[2] = dtype(c, 2);
		so = jstrides(c, 2, false);
	}
	p_tup(c, "shape_in1", jshape(a));
	p_tup(c, "shape_in2", jshape(b));
	p_strs(c, "dtype_in1_in2_out", dt, 3);
	p_tup(c, "stride_input1", jstrides(c, 0, false));
	p_tup(c, "stride_input2", jstrides(c, 1, false));
	p_tup(c, "stride_output", so);
	if (c->failed)
		return;
	/* numpy broadcasting, right-aligned */
	nd = a->rank > b->rank ? a->rank : b->rank;
	for (i = 0; i < nd; i++) {
		long long d1 = i - (nd - a->rank) >= 0 ? a->dims[i - (nd - a->rank)] : 1;
		long long d2 = i - (nd - b->rank) >= 0 ? b->dims[i - (nd - b->rank)] : 1;

		if (d1 != d2 && d1 != 1 && d2 != 1) {
			fail(c, "shapes not broadcastable");
			return;
		}
		out[i] = d1 > d2 ? d1 : d2;
	}
	b1 = perf_bpe(dt[0]);
	b2 = perf_bpe(dt[1]);
	if (dt[2] != NULL)
		bo = perf_bpe(dt[2]);
	else if (b1 != 0 && b2 != 0)
		bo = a->rank > 0 && b->rank > 0 ? (b1 > b2 ? b1 : b2) : b1;
	else
		bo = 0;
	c->o->flops = prod(c, out, nd);
	c->o->maf = "vector";
	c->o->prec = perf_precision(dt[0]);
	if (b1 != 0 && b2 != 0 && bo != 0) {
		c->o->has_bytes = true;
		c->o->bytes = py_add(py_add(py_muli(prod(c, a->dims, a->rank), b1),
		    py_muli(prod(c, b->dims, b->rank), b2)), py_muli(c->o->flops, bo));
	}
}

/* --- reduce -------------------------------------------------------------------------------- */

static void
m_reduce(struct pmctx *c, bool bwd_pass)
{
	const char *din = NULL, *rt = "sum";
	struct pynum nin = I(0), nout = I(0);
	bool typed = false;
	int bi, bo;

	if (c->a->n == 0) {
		p_int(c, "num_input_elems", 0);
		p_int(c, "num_output_elems", 0);
		p_strs(c, "dtype_in_out", (const char *const[]){ NULL, NULL }, 2);
	} else {
		const struct targ *x = shape(c, 0);

		if (c->failed)
			return;
		nin = prod(c, x->dims, x->rank);
		din = c->a->a[0].dtype;
		/* QUIRK: the dim parser takes only Python ints and lists, and Concrete
		 * Inputs are strings, so the output is one element (cumsum, cumprod:
		 * all of them). */
		if (strstr(c->name, "cumsum") != NULL || strstr(c->name, "cumprod") != NULL)
			nout = nin;
		else
			nout = I(1);
		if (strstr(c->name, "mean") != NULL)
			rt = "mean";
		else if (strstr(c->name, "max") != NULL)
			rt = "max";
		else if (strstr(c->name, "min") != NULL)
			rt = "min";
		else if (strstr(c->name, "norm") != NULL)
			rt = "norm";
		p_num(c, "num_input_elems", nin);
		p_num(c, "num_output_elems", nout);
		p_strs(c, "dtype_in_out", (const char *const[]){ din, NULL }, 2);
		p_str(c, "reduce_type", rt);
		typed = true;
		c->o->quirk = "reduce output is always one element (TraceLens's dim parser)";
	}
	bi = typed && din != NULL && *din != '\0' ? perf_bpe(din) : 0;
	bo = bi;
	c->o->flops = nin;
	c->o->maf = "vector";
	c->o->prec = perf_precision(din);
	if (bi != 0 && bo != 0) {
		c->o->has_bytes = true;
		c->o->bytes = bwd_pass ? py_add(py_muli(nout, bo), py_muli(nin, bi)) :
		    py_add(py_muli(nin, bi), py_muli(nout, bo));
	}
}

/* --- normalization ------------------------------------------------------------------------- */

struct norm {
	struct pynum	 E, C;		/* elements, channels */
	bool		 bias, affine, training;
	bool		 mask[3];
	int		 nmask;
	const char	*din;
};

static void
norm_params(struct pmctx *c, struct norm *n, const struct targ *x, size_t ix, bool mask)
{
	int i;

	p_tup(c, "op_shape", jshape(x));
	p_strs(c, "dtype_in_out", (const char *const[]){ n->din, NULL }, 2);
	p_tup(c, "stride_input", jstrides(c, ix, false));
	p_null(c, "stride_output");
	p_num(c, "num_channels", n->C);
	p_bool(c, "has_bias", n->bias);
	p_bool(c, "is_affine", n->affine);
	p_bool(c, "is_training", n->training);
	if (mask) {
		struct js_writer *w = pkey(c, "output_mask");

		js_w_array(w);
		for (i = 0; i < n->nmask; i++)
			js_w_bool(w, n->mask[i]);
		js_w_end_array(w);
		p_is_list(c, "output_mask");	/* TraceLens's parse_list */
	}
	c->o->maf = "vector";
	c->o->prec = perf_precision(n->din);
}

static void
norm_fwd_figures(struct pmctx *c, struct norm *n)
{
	struct pynum f, w;
	int bpe = perf_bpe(n->din), nw = 2;

	f = py_muli(n->C, 3);
	if (n->training)
		f = py_add(f, py_muli(n->E, 3));
	f = py_add(f, py_muli(n->C, 3));
	c->o->flops = py_add(f, py_muli(n->E, 2));
	if (bpe == 0)
		return;
	if (n->affine)
		nw += n->bias ? 2 : 1;
	if (n->training)
		nw += 2;
	w = py_muli(py_mul(I(nw), n->C), bpe);
	c->o->has_bytes = true;
	c->o->bytes = py_add(py_add(py_muli(n->E, bpe), py_muli(n->E, bpe)), w);
}

static void
norm_bwd_figures(struct pmctx *c, struct norm *n)
{
	struct pynum epc = py_tdiv(n->E, n->C), f, by;
	int bpe = perf_bpe(n->din);

	f = I(n->training ? 0 : 3);
	f = py_add(f, py_muli(epc, 4));
	if (n->mask[0]) {
		if (n->training)
			f = py_add(f, py_muli(epc, 5));
	} else
		f = py_add(f, py_muli(epc, 2));
	c->o->flops = py_mul(n->C, f);
	if (bpe == 0)
		return;
	by = py_add(py_muli(n->E, bpe), py_muli(py_muli(n->E, bpe), n->mask[0] && n->training ? 2 : 1));
	if (n->training)
		by = py_add(by, py_muli(n->C, bpe));
	if (n->affine) {
		by = py_add(by, py_muli(n->C, bpe));
		if (n->training)
			by = py_add(by, py_muli(py_muli(n->C, bpe), n->bias ? 2 : 1));
	}
	c->o->has_bytes = true;
	c->o->bytes = by;
}

static struct pynum
list_prod(struct pmctx *c, const char *s)
{
	long long v[TARG_MAXRANK];
	int n = parse_list(c, s, v, TARG_MAXRANK);

	return c->failed ? I(1) : prod(c, v, n);
}

/* Python's bool() of a Concrete Input string: any non-empty string is True. */
static bool
pybool_str(const char *s)
{
	return *s != '\0';
}

static void
m_norm(struct pmctx *c, const char *model)
{
	struct norm n;
	const struct targ *x;
	size_t ix = 0;
	bool bwd = false, rms = false;

	memset(&n, 0, sizeof(n));
	n.bias = true;
	n.training = true;
	if (strcmp(model, "BatchNorm") == 0) {
		x = shape(c, 0);
		n.affine = present(c, 2);
		n.training = pybool_str(concrete(c, 5));
		n.C = dim(c, x, 1);
	} else if (strcmp(model, "LayerNorm") == 0) {
		x = shape(c, 0);
		n.C = list_prod(c, concrete(c, 1));
		n.bias = present(c, 3);
		n.affine = present(c, 2);
		c->o->quirk = "norm weight and bias are always counted (Kineto writes [])";
	} else if (strcmp(model, "GroupNorm") == 0) {
		x = shape(c, 0);
		n.affine = present(c, 2);
		n.C = dim(c, x, 1);
	} else if (strcmp(model, "InstanceNorm") == 0) {
		x = shape(c, 0);
		n.affine = present(c, 2);
		n.training = pybool_str(concrete(c, 5));
		n.C = dim(c, x, 1);
	} else if (strcmp(model, "RMSNorm") == 0) {
		x = shape(c, 0);
		n.affine = present(c, 2);
		n.C = list_prod(c, concrete(c, 1));
		n.bias = false;
		n.training = false;
		rms = true;
	} else if (strcmp(model, "BatchNormBwd") == 0) {
		bool plain = strcmp(c->name, "aten::cudnn_batch_norm_backward") != 0 &&
		    strcmp(c->name, "aten::miopen_batch_norm_backward") != 0;

		bwd = true;
		ix = plain ? 1 : 0;
		n.mask[0] = plain ? present(c, 0) : true;
		n.nmask = 1;
		n.training = plain ? pybool_str(concrete(c, 7)) : false;
		x = shape(c, ix);
		n.C = dim(c, x, 1);
		n.affine = present(c, 2);
	} else if (strcmp(model, "LayerNormBwd") == 0) {
		long long m[8];

		bwd = true;
		ix = 1;
		x = shape(c, 1);
		n.C = list_prod(c, concrete(c, 2));
		n.nmask = parse_list(c, concrete(c, 7), m, 8);
		if (!c->failed && n.nmask < 3)
			fail(c, "output_mask \"%s\" has fewer than 3 values", concrete(c, 7));
		if (c->failed)
			return;
		n.mask[0] = m[0];
		n.mask[1] = m[1];
		n.mask[2] = m[2];
		n.affine = m[1];
		n.bias = m[2];
	} else if (strcmp(model, "GroupNormBwd") == 0) {
		long long m[8], g;

		bwd = true;
		ix = 1;
		x = shape(c, 1);
		n.affine = present(c, 5);
		n.nmask = parse_list(c, concrete(c, 9), m, 8);
		if (!c->failed && !pyint(concrete(c, 8), &g))
			fail(c, "groups \"%s\" is not an integer", concrete(c, 8));
		if (!c->failed && (n.nmask < 1 || g == 0))
			fail(c, "bad output_mask or groups");
		if (c->failed)
			return;
		n.mask[0] = m[0];
		if (n.nmask > 1)
			n.mask[1] = m[1];
		if (n.nmask > 2)
			n.mask[2] = m[2];
		n.C = py_tdiv(dim(c, x, 1), I(g));
	} else if (strcmp(model, "RMSNormBwd") == 0) {
		long long m[8];

		bwd = true;
		ix = 1;
		x = shape(c, 1);
		n.affine = present(c, 4);
		n.C = list_prod(c, concrete(c, 2));
		n.nmask = parse_list(c, concrete(c, 5), m, 8);
		if (!c->failed && n.nmask < 2)
			fail(c, "output_mask \"%s\" has fewer than 2 values", concrete(c, 5));
		if (c->failed)
			return;
		n.mask[0] = m[0];
		n.mask[1] = m[1];
		n.bias = false;
		n.training = false;
		rms = true;
	} else
		return;
	n.din = dtype(c, ix);
	if (c->failed)
		return;
	n.E = prod(c, x->dims, x->rank);
	norm_params(c, &n, x, ix, bwd);
	if (!c->failed && perf_bpe(n.din) == 0)	/* Python: int * None */
		fail(c, "no bytes per element for dtype \"%s\"", n.din);
	if (c->failed)
		return;
	if (rms && !bwd) {
		struct pynum nn = py_tdiv(n.E, n.C);
		int bpe = perf_bpe(n.din);

		c->o->flops = py_add(py_mul(nn, py_add(py_muli(n.C, 2), I(2))),
		    py_muli(n.E, n.affine ? 2 : 1));
		if (bpe != 0) {
			c->o->has_bytes = true;
			c->o->bytes = py_add(py_add(py_muli(n.E, bpe), py_muli(n.E, bpe)),
			    n.affine ? py_muli(n.C, bpe) : I(0));
		}
	} else if (rms) {
		struct pynum f = n.affine ? n.E : I(0);
		int bpe = perf_bpe(n.din);

		f = py_add(f, n.E);
		if (n.mask[0])
			f = py_add(py_add(f, py_muli(n.E, 2)), py_muli(n.E, 4));
		if (n.mask[1] && n.affine) {
			f = py_add(f, n.E);
			if (pynum_double(py_tdiv(n.E, n.C)) > 1)
				f = py_add(f, n.E);
		}
		c->o->flops = f;
		if (bpe != 0) {
			c->o->has_bytes = true;
			c->o->bytes = py_add(py_add(py_muli(n.E, bpe), py_muli(py_muli(n.E, bpe), 2)),
			    n.affine ? py_muli(py_muli(n.C, bpe), 2) : I(0));
		}
	} else if (bwd)
		norm_bwd_figures(c, &n);
	else
		norm_fwd_figures(c, &n);
}

/* --- the other families and the inference extensions ------------------------------------- */

/* TraceLens's `name2bpe(dtype) or 2`: the width, 2 when unknown. */
static int
bpe_or2(const char *dtype)
{
	int b = perf_bpe(dtype);

	return b != 0 ? b : 2;
}

/* RMSNorm variants of the inference extensions (category RMSNorm): x at ix, the
 * weight's length at Input Dims[iw][0]; with_add: the fused residual add. */
static void
m_rms_ext(struct pmctx *c, size_t ix, size_t iw, bool with_add)
{
	const struct targ *x = shape(c, ix), *w = shape(c, iw);
	struct norm n;
	int bpe = 0;

	memset(&n, 0, sizeof(n));
	n.C = dim(c, w, 0);
	n.affine = true;
	n.din = dtype(c, ix);
	if (c->failed)
		return;
	n.E = prod(c, x->dims, x->rank);
	norm_params(c, &n, x, ix, false);
	if (!c->failed && (bpe = perf_bpe(n.din)) == 0)
		fail(c, "no bytes per element for dtype \"%s\"", n.din);
	if (c->failed)
		return;
	c->o->flops = py_add(py_mul(py_tdiv(n.E, n.C), py_add(py_muli(n.C, 2), I(2))),
	    py_muli(n.E, 2));
	c->o->has_bytes = true;
	if (with_add) {
		c->o->flops = py_add(n.E, c->o->flops);
		c->o->bytes = py_add(py_add(py_muli(n.E, 2 * bpe), py_muli(n.C, bpe)),
		    py_muli(n.E, 2 * bpe));
	} else
		c->o->bytes = py_add(py_add(py_muli(n.E, bpe), py_muli(n.E, bpe)),
		    py_muli(n.C, bpe));
}

/* silu_and_mul(out, input): out [..., d], input [..., 2d]; 5 FLOPs per output. */
static void
m_silu_and_mul(struct pmctx *c)
{
	const struct targ *o = shape(c, 0);
	const char *dt[2];
	struct pynum n;
	int bi, bo;

	if (c->failed)
		return;
	dt[0] = dtype(c, 1);
	dt[1] = dtype(c, 0);
	p_tup(c, "op_shape", jshape(o));
	p_strs(c, "dtype_in_out", dt, 2);
	p_tup(c, "stride_input", jstrides(c, 1, false));
	p_tup(c, "stride_output", jstrides(c, 0, false));
	bi = perf_bpe(dt[0]);
	bo = perf_bpe(dt[1]);
	if (!c->failed && (bi == 0 || bo == 0))
		fail(c, "no bytes per element for dtype \"%s\"", bi == 0 ? dt[0] : dt[1]);
	if (c->failed)
		return;
	n = prod(c, o->dims, o->rank);
	c->o->flops = py_muli(n, 5);
	c->o->maf = "vector";
	c->o->prec = perf_precision(dt[0]);
	c->o->has_bytes = true;
	c->o->bytes = py_add(py_muli(n, 2 * bi), py_muli(n, bo));
}

/* aiter::gemm_a16w16: X [M, K] and W [N, K]; a bias when Input Dims[2] is non-empty. */
static void
m_gemm_a16w16(struct pmctx *c)
{
	struct gemm g = { I(1), I(0), I(0), I(0), false, 0, { 0 }, 0 };
	const struct targ *X = shape(c, 0), *W = shape(c, 1);

	g.M = dim(c, X, 0);
	g.N = dim(c, W, 0);
	g.K = dim(c, X, 1);
	g.bias = c->a->n > 2 && nonempty(c, 2);
	g.dt[0] = dtype(c, 0);
	g.dt[1] = dtype(c, 1);
	g.dt[2] = g.dt[0];
	g.ndt = 3;
	if (c->failed)
		return;
	p_int(c, "B", 1);
	p_num(c, "M", g.M);
	p_num(c, "N", g.N);
	p_num(c, "K", g.K);
	p_bool(c, "bias", g.bias);
	p_strs(c, "dtype_A_B", g.dt, 3);
	gemm_transpose(c);
	gemm_figures(c, &g, perf_bpe(g.dt[0]), perf_bpe(g.dt[1]), perf_bpe(g.dt[2]),
	    perf_bpe(g.dt[2]));
}

/* RoPE: FusedRoPEFunc (t [s, b, h, d]) and sgl_kernel::rotary_embedding (positions,
 * query [T, Hq*hd], key [T, Hk*hd], ..., cos_sin_cache [., rot_dim]): 3 FLOPs and 2
 * accesses per rotated element. */
static void
m_rope(struct pmctx *c, bool sgl)
{
	struct pynum n;
	const char *dt;

	if (!sgl) {
		const struct targ *t = shape(c, 0);

		if (!c->failed && t->rank < 4)
			fail(c, "RoPE input of rank %d, want 4", t->rank);
		if (c->failed)
			return;
		n = prod(c, t->dims, t->rank);
		p_int(c, "seq_len", t->dims[0]);
		p_int(c, "batch", t->dims[1]);
		p_int(c, "heads", t->dims[2]);
		p_int(c, "head_dim", t->dims[3]);
		dt = c->a->n > 0 ? dtype(c, 0) : "";
	} else {
		const struct targ *q = shape(c, 1), *k = shape(c, 2);
		struct pynum hs, rot;
		long long h;

		hs = dim(c, q, -1);
		if (c->a->n > 3 && *c->a->a[3].value != '\0') {
			if (!pyint(c->a->a[3].value, &h))
				fail(c, "head_size \"%s\" is not an integer", c->a->a[3].value);
			hs = I(h);
		}
		rot = hs;
		if (c->a->n > 4 && c->a->a[4].shape == TSHAPE_FLAT && c->a->a[4].rank > 1)
			rot = I(c->a->a[4].dims[1]);
		if (!c->failed && hs.i == 0)
			fail(c, "head size 0");
		if (c->failed)
			return;
		n = py_mul(py_mul(dim(c, q, 0), py_add(py_fdiv(dim(c, q, 1), hs),
		    py_fdiv(dim(c, k, 1), hs))), rot);
		dt = dtype(c, 1);
	}
	p_num(c, "num_elements", n);
	c->o->flops = py_muli(n, 3);
	c->o->maf = "vector";
	c->o->prec = perf_precision(dt);
	c->o->has_bytes = true;
	c->o->bytes = py_muli(n, 2 * bpe_or2(dt));
}

/* sglang::store_cache: k and v rows written into the paged cache; no FLOPs. */
static void
m_store_cache(struct pmctx *c)
{
	const struct targ *k = shape(c, 0);
	struct pynum n;

	if (c->failed)
		return;
	n = prod(c, k->dims, k->rank);
	p_tup(c, "op_shape", jshape(k));
	p_num(c, "nelems", n);
	p_str(c, "dtype", dtype(c, 0));
	c->o->flops = I(0);
	c->o->maf = "vector";
	c->o->prec = perf_precision(dtype(c, 0));
	c->o->has_bytes = true;
	c->o->bytes = py_muli(n, 4 * bpe_or2(dtype(c, 0)));
}

/*
 * The InferenceAttention models (TraceLens's attention_perf_model_extensions): one
 * attention over a step's packed requests, its work from the step annotation's counts
 * (args->anno): context requests attend to their own chunk causally and to their cached
 * keys, generation requests to their whole context. Variants: 0 the base class (q
 * [N_Q, H_Q, d] = Input Dims[0], k [.., N_KV, H_KV, d_v] = Input Dims[1]), 1
 * aiter::mha_batch_prefill and the like (d_v from v = Input Dims[2]), 2 aiter's paged
 * attention ragged (q, k cache, v cache = Input Dims[2..4], N_KV = c_sk + g_sk, no
 * dtype_KV), 3 aiter::pa_decode_gluon (decode only: the context counts are 0; H_KV =
 * Input Dims[2][1], d_v = d_qk, dtype_KV of the k cache, and the generation keys capped
 * at g_sq times the sliding window, Concrete Inputs[19], when it is positive).
 */
static void
m_inf_attn(struct pmctx *c, int variant)
{
	struct tanno st;
	const struct tanno *an = &st;
	const struct targ *q, *k, *v = NULL;
	long long nq, hq, dqk, nkv, hkv, dv, ctx_q, ctx_kv, gen_q, gen_kv, win = 0;
	long long g_sk, g_sqsk;
	const char *dtq, *dtkv = NULL;
	int bpe, bpekv;

	if (c->a->anno != NULL)
		st = *c->a->anno;
	if (c->a->anno == NULL || !st.sqsk) {
		fail(c, "no step annotation with sq/sk counts encloses it (TraceLens: "
		    "\"attention without sq/sk annotation is not supported\")");
		return;
	}
	if (variant == 3) {
		q = shape(c, 0);
		k = shape(c, 2);
		if (c->failed)
			return;
		if (q->rank < 3 || k->rank < 2) {
			fail(c, "q and k cache of ranks %d and %d", q->rank, k->rank);
			return;
		}
		st.c_sq = st.c_sk = st.c_sqsq = st.c_sqsk = 0;
		hkv = k->dims[1];
		dv = q->dims[2];
		nkv = st.g_sk;
		dtq = c->a->a[0].dtype;
		dtkv = c->a->a[2].dtype;
		if (c->a->n <= 19 || !pyint(c->a->a[19].value, &win))
			win = 0;
	} else if (variant == 2) {
		q = shape(c, 2);
		k = shape(c, 3);
		v = shape(c, 4);
		if (c->failed)
			return;
		if (q->rank != 3 || k->rank < 2 || v->rank < 1) {	/* unpacking q */
			fail(c, "q, k and v caches of ranks %d, %d, %d", q->rank, k->rank,
			    v->rank);
			return;
		}
		hkv = k->dims[k->rank - 2];
		dv = v->dims[v->rank - 1];
		nkv = an->c_sk + an->g_sk;
		dtq = c->a->a[2].dtype;
	} else {
		q = shape(c, 0);
		k = shape(c, 1);
		if (c->failed)
			return;
		if (q->rank != 3 || k->rank < 3) {
			fail(c, "q and k of ranks %d and %d (want 3)", q->rank, k->rank);
			return;
		}
		nkv = k->dims[k->rank - 3];
		hkv = k->dims[k->rank - 2];
		dv = k->dims[k->rank - 1];
		dtq = c->a->a[0].dtype;
		dtkv = c->a->n > 1 ? c->a->a[1].dtype : dtq;
		if (variant == 1 && c->a->n > 2 && c->a->a[2].shape == TSHAPE_FLAT &&
		    c->a->a[2].rank >= 1)
			dv = c->a->a[2].dims[c->a->a[2].rank - 1];
	}
	nq = q->dims[0];
	hq = q->dims[1];
	dqk = q->dims[2];
	p_int(c, "B", 1);
	p_int(c, "N_Q", nq);
	p_int(c, "H_Q", hq);
	p_int(c, "H_V", hkv);
	p_int(c, "H_K", hkv);
	p_int(c, "N_KV", nkv);
	p_int(c, "H_KV", hkv);
	p_int(c, "d_h_qk", dqk);
	p_int(c, "d_h_v", dv);
	p_real(c, "dropout", 0.0);
	p_bool(c, "causal", false);
	p_bool(c, "flash_impl", true);
	p_int(c, "c_sq", an->c_sq);
	p_int(c, "c_sk", an->c_sk);
	p_int(c, "c_sqsq", an->c_sqsq);
	p_int(c, "c_sqsk", an->c_sqsk);
	p_int(c, "g_sq", an->g_sq);
	p_int(c, "g_sk", an->g_sk);
	p_int(c, "g_sqsq", an->g_sqsq);
	p_int(c, "g_sqsk", an->g_sqsk);
	p_str(c, "dtype_Q", dtq);
	if (variant != 2)
		p_str(c, "dtype_KV", dtkv);
	if (variant == 3)
		p_int(c, "sliding_window", win);
	if (an->c_sq == 0 && an->g_sq == 0) {
		/* TraceLens: NotImplementedError, the op gets no row */
		c->none = true;
		return;
	}
	/* flops_func: QK and PV over every (query, key) pair, the causal half of the
	 * chunk's own pairs taken off for context requests */
	/* _cap_gen_kv: a sliding window W caps each decode token's keys at W */
	g_sk = an->g_sk;
	g_sqsk = an->g_sqsk;
	if (win > 0 && an->g_sq != 0) {
		if (g_sk > an->g_sq * win)
			g_sk = an->g_sq * win;
		if (g_sqsk > an->g_sq * win)
			g_sqsk = an->g_sq * win;
	}
	c->o->flops = I(hq * (2 * an->c_sqsk * dqk) - hq * an->c_sqsq * dqk +
	    hq * (2 * an->c_sqsk * dv) - hq * an->c_sqsq * dv +
	    hq * (2 * g_sqsk * dqk) + hq * (2 * g_sqsk * dv));
	/* bytes_func: Q read and output written, the current chunk's K and V in Q's
	 * dtype, the cached K and V in the cache's dtype */
	bpe = *dtq != '\0' ? perf_bpe(dtq) : 0;
	if (bpe == 0)
		bpe = 2;
	bpekv = dtkv != NULL && *dtkv != '\0' ? perf_bpe(dtkv) : 0;
	if (bpekv == 0)
		bpekv = bpe;
	ctx_q = an->c_sq * hq * dqk + an->c_sq * hq * dv + an->c_sq * hkv * dqk +
	    an->c_sq * hkv * dv;
	ctx_kv = (an->c_sk - an->c_sq) * hkv * dqk + (an->c_sk - an->c_sq) * hkv * dv;
	gen_q = an->g_sq * hq * dqk + an->g_sq * hq * dv + an->g_sq * hkv * dqk +
	    an->g_sq * hkv * dv;
	gen_kv = (g_sk - an->g_sq) * hkv * dqk + (g_sk - an->g_sq) * hkv * dv;
	c->o->has_bytes = true;
	c->o->bytes = I((ctx_q + gen_q) * bpe + (ctx_kv + gen_kv) * bpekv);
	c->o->maf = "matrix";
	c->o->prec = *dtq != '\0' ? perf_precision(dtq) : NULL;
}

/* MoEDispatch, MoECombine: tokens x hidden moved, no FLOPs, no compute spec. */
static void
m_moe_comm(struct pmctx *c)
{
	const struct targ *t = c->a->n > 0 ? &c->a->a[0] : NULL;
	bool tok = t != NULL && t->shape == TSHAPE_FLAT && t->rank >= 1;
	bool hid = t != NULL && t->shape == TSHAPE_FLAT && t->rank >= 2;
	const char *dt = c->a->n > 0 ? c->a->a[0].dtype : "";
	int bpe = *dt != '\0' ? perf_bpe(dt) : 0;

	if (tok)
		p_int(c, "num_tokens", t->dims[0]);
	else
		p_null(c, "num_tokens");
	if (hid)
		p_int(c, "hidden_dim", t->dims[1]);
	else
		p_null(c, "hidden_dim");
	if (bpe != 0)
		p_int(c, "bpe", bpe);
	else
		p_null(c, "bpe");
	c->o->flops = I(0);
	if (tok && hid && bpe != 0) {
		c->o->has_bytes = true;
		c->o->bytes = py_muli(py_mul(I(t->dims[0]), I(t->dims[1])), bpe);
	}
}

/* DaoAILab causal conv1d: x [batch, channels, seq], w [channels, k]. */
static void
m_causal_conv1d(struct pmctx *c)
{
	const struct targ *x = shape(c, 0), *w = shape(c, 1);
	struct pynum b, ch, l, k, io;
	bool bias;
	int bpe;

	b = dim(c, x, 0);
	ch = dim(c, x, 1);
	l = dim(c, x, 2);
	k = dim(c, w, 1);
	if (c->failed)
		return;
	bias = c->a->n > 2 && nonempty(c, 2);
	p_num(c, "batch", b);
	p_num(c, "channels", ch);
	p_num(c, "seq_len", l);
	p_num(c, "kernel_size", k);
	p_bool(c, "has_bias", bias);
	bpe = bpe_or2(dtype(c, 0));
	io = py_muli(py_mul(py_mul(b, ch), l), bpe);
	c->o->flops = py_muli(py_mul(py_mul(py_mul(b, ch), l), k), 2);
	c->o->maf = "matrix";
	c->o->prec = perf_precision(dtype(c, 0));
	c->o->has_bytes = true;
	c->o->bytes = py_add(py_add(io, py_muli(py_mul(ch, k), bpe)), io);
	if (bias)
		c->o->bytes = py_add(c->o->bytes, py_muli(ch, bpe));
}

/* CrossEntropyFunction: logits [batch, ..., vocab]; int64 targets, fp32 loss. */
static void
m_cross_entropy(struct pmctx *c)
{
	const struct targ *t = shape(c, 0);
	struct pynum b, v;
	int bpe;

	b = dim(c, t, 0);
	v = dim(c, t, -1);
	if (c->failed)
		return;
	p_num(c, "batch", b);
	p_num(c, "vocab_size", v);
	p_tup(c, "logits_shape", jshape(t));
	bpe = bpe_or2(dtype(c, 0));
	c->o->flops = py_muli(py_mul(b, v), 5);
	c->o->maf = "vector";
	c->o->prec = perf_precision(dtype(c, 0));
	c->o->has_bytes = true;
	c->o->bytes = py_add(py_add(py_muli(prod(c, t->dims, t->rank), bpe), py_muli(b, 8)),
	    py_muli(b, 4));
}

/* Every [rows, cols] pair of positive integers in a nested list (TraceLens's
 * _collect_2d_shapes); returns how many, up to max. */
static size_t
pairs2d(const struct rec_node *v, long long (*out)[2], size_t n, size_t max)
{
	const struct rec_node *e;
	size_t i;

	if (v->type != REC_ARRAY)
		return n;
	if (v->n == 2 && v[1].type == REC_INT && v[2].type == REC_INT && v[1].i > 0 &&
	    v[2].i > 0) {
		if (n < max) {
			out[n][0] = v[1].i;
			out[n][1] = v[2].i;
		}
		return n + 1;
	}
	for (i = 0, e = v + 1; i < v->n; i++, e += e->size)
		n = pairs2d(e, out, n, max);
	return n;
}

/* The pairs of an argument's shape: a flat one is a pair or none. */
static size_t
shape_pairs(const struct targ *t, long long (*out)[2], size_t max)
{
	if (t->shape == TSHAPE_LIST)
		return t->shape_tree != NULL ? pairs2d(t->shape_tree, out, 0, max) : 0;
	if (t->shape != TSHAPE_FLAT || t->rank != 2 || t->dims[0] <= 0 || t->dims[1] <= 0)
		return 0;
	if (max > 0) {
		out[0][0] = t->dims[0];
		out[0][1] = t->dims[1];
	}
	return 1;
}

#define MAXGROUPS 4096

/* Primus Turbo's fixed-K grouped GEMM: X [M, K] and W [G, K, N] (or [G, N, K]), or
 * the zipped form, lists of per-group [M_i, K] and [K, N]. */
static void
m_grouped_gemm(struct pmctx *c)
{
	static long long lhs[MAXGROUPS][2], rhs[MAXGROUPS][2];
	const struct targ *a = c->a->n > 0 ? &c->a->a[0] : NULL;
	const struct targ *b = c->a->n > 1 ? &c->a->a[1] : NULL;
	long long M = 0, K = 0, N = 0, G = 0;
	const char *din, *dout;
	int bi, bo;
	bool found = false;
	size_t nl, nr, i;

	if (a == NULL || b == NULL) {
		fail(c, "could not read Input Dims");
		return;
	}
	if (a->shape == TSHAPE_FLAT && b->shape == TSHAPE_FLAT && a->rank >= 2 &&
	    b->rank == 3 && a->dims[0] > 0 && a->dims[1] > 0 && b->dims[0] > 0 &&
	    b->dims[1] > 0 && b->dims[2] > 0) {
		M = a->dims[0];
		K = a->dims[1];
		G = b->dims[0];
		if (b->dims[1] == K)
			N = b->dims[2], found = true;
		else if (b->dims[2] == K)
			N = b->dims[1], found = true;
	}
	if (!found && a->shape != TSHAPE_NONE && b->shape != TSHAPE_NONE) {
		nl = shape_pairs(a, lhs, MAXGROUPS);
		nr = shape_pairs(b, rhs, MAXGROUPS);
		if (nl > 0 && nl == nr && nl <= MAXGROUPS) {
			K = lhs[0][1];
			N = rhs[0][1];
			found = true;
			for (i = 0, M = 0; i < nl; i++) {
				if (lhs[i][1] != K || rhs[i][0] != K || rhs[i][1] != N)
					found = false;
				M += lhs[i][0];
			}
			G = (long long)nl;
		}
	}
	if (!found) {
		fail(c, "could not parse Input Dims as a grouped GEMM");
		return;
	}
	din = a->dtype;
	dout = c->a->n > 1 ? b->dtype : din;
	bi = perf_bpe(din);
	bo = perf_bpe(dout);
	p_int(c, "M", M);
	p_int(c, "K", K);
	p_int(c, "N", N);
	p_int(c, "G", G);
	if (bi != 0)
		p_int(c, "bpe_in", bi);
	else
		p_null(c, "bpe_in");
	if (bo != 0)
		p_int(c, "bpe_out", bo);
	else
		p_null(c, "bpe_out");
	if (bi == 0 || bo == 0) {
		fail(c, "no bytes per element for dtype \"%s\"", bi == 0 ? din : dout);
		return;
	}
	c->o->flops = py_muli(py_mul(py_mul(I(M), I(K)), I(N)), 2);
	c->o->maf = "matrix";
	c->o->prec = perf_precision(din);
	c->o->has_bytes = true;
	c->o->bytes = py_add(py_muli(py_add(py_mul(I(M), I(K)), py_mul(py_mul(I(G), I(K)),
	    I(N))), bi), py_muli(py_mul(I(M), I(N)), bo));
}

/* --- TorchInductor's Triton kernels (TraceLens's TritonCompiledPerfModel) ---------------- */

/* FLOPs per element TraceLens counts for an op of a fused kernel (0 for the rest). */
static int
triton_flops_per_elem(const char *op)
{
	static const struct { const char *op; int n; } t[] = {
		{ "add", 1 }, { "sub", 1 }, { "mul", 1 }, { "div", 1 }, { "pow", 2 },
		{ "sqrt", 2 }, { "rsqrt", 2 }, { "exp", 4 }, { "log", 4 }, { "sigmoid", 4 },
		{ "tanh", 4 }, { "relu", 1 }, { "silu", 4 }, { "gelu", 8 }, { "mean", 1 },
		{ "sum", 1 }, { "var", 2 }, { "abs", 1 }, { "neg", 1 }, { "reciprocal", 2 },
		{ "ne", 1 }, { "eq", 1 }, { "lt", 1 }, { "gt", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(op, t[i].op) == 0)
			return t[i].n;
	return 0;
}

/*
 * The fused ops of kernel name "triton_{poi,red,per}_fused_<ops>_<n>": the split of
 * <ops> at underscores into known op names, found by dynamic programming over the
 * tokens and taken back from the end, the longest name first at each step. Appends
 * "aten.<op>" strings (joined by ", ") to ops and their FLOPs per element to *fpe;
 * nothing when no split exists.
 */
static void
triton_fused_ops(const char *name, struct buf *ops, long long *fpe)
{
	const char *p = strstr(name, "_fused_"), *end = name + strlen(name), *d;
	size_t ntok = 1, i, j, *tok, *from;
	long long *len;
	char **seg;

	*fpe = 0;
	if (p == NULL || p - name != 10)
		return;
	p += 7;
	/* <ops> ends before the last "_<digits>" (the regex's greedy .+) */
	for (d = end; d > p && isdigit((unsigned char)d[-1]); d--)
		;
	if (d == end || d - p < 2 || d[-1] != '_')
		return;
	end = d - 1;
	for (d = p; d < end; d++)
		ntok += *d == '_';
	tok = xreallocarray(NULL, ntok + 1, sizeof(*tok));	/* token starts */
	from = xreallocarray(NULL, ntok + 1, sizeof(*from));
	len = xreallocarray(NULL, ntok + 1, sizeof(*len));
	seg = xreallocarray(NULL, ntok + 1, sizeof(*seg));
	tok[0] = 0;
	for (i = 1, d = p; d < end; d++)
		if (*d == '_')
			tok[i++] = (size_t)(d - p) + 1;
	tok[ntok] = (size_t)(end - p) + 1;
	/* len[i]: the longest known name ending at token i reachable from 0 (-1: none) */
	len[0] = 0;
	for (i = 1; i <= ntok; i++) {
		len[i] = -1;
		for (j = 0; j < i; j++) {
			size_t n = tok[i] - tok[j] - 1;

			if (len[j] < 0 || (long long)n <= len[i])
				continue;
			if (opclass_aten_op(p + tok[j], n)) {
				len[i] = (long long)n;
				from[i] = j;
			}
		}
	}
	if (len[ntok] >= 0) {
		size_t nseg = 0, k;

		for (i = ntok; i > 0; i = from[i])
			seg[nseg++] = xstrndup(p + tok[from[i]], tok[i] - tok[from[i]] - 1);
		for (k = nseg; k-- > 0;) {
			if (k + 1 < nseg)
				buf_adds(ops, ", ");
			buf_printf(ops, "aten.%s", seg[k]);
			*fpe += triton_flops_per_elem(seg[k]);
			free(seg[k]);
		}
	}
	free(tok);
	free(from);
	free(len);
	free(seg);
}

/* Python's int() of a Concrete Inputs string: optional blanks and sign, digits. */
static bool
py_int_str(const char *s, long long *v)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)s[*s == '+' || *s == '-']))
		return false;
	errno = 0;
	*v = strtoll(s, &e, 10);
	while (*e == ' ' || *e == '\t')
		e++;
	return *e == '\0' && errno == 0;
}

enum perf_status
perf_triton(const char *name, const struct targs *a, struct tperf *out)
{
	static const struct { const char *dt; int bpe; } c10[] = {
		{ "c10::BFloat16", 2 }, { "c10::Half", 2 }, { "c10::Float", 4 },
		{ "c10::Double", 8 }, { "c10::Byte", 1 }, { "c10::Char", 1 },
		{ "c10::Int", 4 }, { "c10::Long", 8 },
	};
	static char prec[32];
	bool red = strncmp(name, "triton_red_", 11) == 0 || strncmp(name, "triton_per_", 11) == 0;
	bool poi = strncmp(name, "triton_poi_", 11) == 0;
	long long sc[2] = { 0, 0 }, v, x, r = 1, fpe, first = -1;
	double bytes = 0;
	size_t i, nsc = 0, k;
	struct buf ops = BUF_INIT;
	struct js_writer w;

	memset(out, 0, sizeof(*out));
	if ((!red && !poi) || a->n == 0)
		return PERF_NONE;
	/* the integer scalars of Concrete Inputs: the last gives xnumel, a reduction's
	 * last two xnumel and rnumel */
	for (i = 0; i < a->n; i++)
		if (a->a[i].value[0] != '\0' && py_int_str(a->a[i].value, &v)) {
			sc[0] = sc[1];
			sc[1] = v;
			nsc++;
		}
	if (nsc == 0)
		return PERF_NONE;
	x = red && nsc >= 2 ? sc[0] : sc[1];
	r = red && nsc >= 2 ? sc[1] : 1;
	prec[0] = '\0';
	for (i = 0; i < a->n; i++) {
		const struct targ *t = &a->a[i];
		long long n = 1;
		int bpe = 0;
		int j;

		if (strcmp(t->dtype, "Scalar") == 0 || t->shape == TSHAPE_NONE ||
		    (t->shape == TSHAPE_FLAT && t->rank == 0))
			continue;
		if (t->shape == TSHAPE_LIST)
			return PERF_ERROR;
		for (k = 0; k < sizeof(c10) / sizeof(c10[0]); k++)
			if (strcmp(t->dtype, c10[k].dt) == 0)
				bpe = c10[k].bpe;
		for (j = 0; j < t->rank; j++)
			n *= t->dims[j];
		bytes += (double)(n * bpe);
		if (first < 0)
			first = bpe;
		if (prec[0] == '\0' && bpe > 0) {
			const char *c = strrchr(t->dtype, ':');

			c = c != NULL ? c + 1 : t->dtype;
			for (k = 0; c[k] != '\0' && k + 1 < sizeof(prec); k++)
				prec[k] = (char)tolower((unsigned char)c[k]);
			prec[k] = '\0';
		}
	}
	if (poi && first >= 0)
		bytes += (double)(first * x);
	triton_fused_ops(name, &ops, &fpe);
	out->flops = F((double)(fpe * x * r));
	out->has_bytes = true;
	out->bytes = F(bytes);
	out->maf = "vector";
	out->prec = prec[0] != '\0' ? prec : NULL;
	js_w_init(&w, &out->params);
	js_w_object(&w);
	js_w_key(&w, "fused_ops");
	js_w_strz(&w, ops.len > 0 ? ops.p : "");
	js_w_key(&w, "xnumel");
	js_w_int(&w, x);
	js_w_key(&w, "rnumel");
	js_w_int(&w, r);
	js_w_end_object(&w);
	buf_free(&ops);
	return PERF_OK;
}

/* --- the model table ------------------------------------------------------------------- */

/* Each row's model function: the family's model with the row's variant. */
static void
a_gemm(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_gemm(c, m->model);
}

static void
a_gemm_dq(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_gemm_dq(c);
}

static void
a_te_gemm(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_te_gemm(c);
}

static void
a_hipblaslt_fp8(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_hipblaslt_fp8(c);
}

static void
a_gemm_a16w16(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_gemm_a16w16(c);
}

static void
a_grouped_gemm(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_grouped_gemm(c);
}

/* variant 1: aten_conv_bwd, a backward op with a model of its own */
static void
a_conv(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_conv(c, m->variant == 1, bwd);
}

static void
a_causal_conv1d(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_causal_conv1d(c);
}

static void
a_sdpa(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_sdpa(c, sdpa_kind(m->model), bwd);
}

static void
a_evoformer(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_evoformer(c);
}

static void
a_store_cache(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_store_cache(c);
}

/* variant: 0 the InferenceAttention family's base, 1 prefill (varlen), 2 paged
 * attention (ragged), 3 paged decode (gluon) */
static void
a_inf_attn(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_inf_attn(c, m->variant);
}

static void
a_unary(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_unary(c);
}

/* variant 1: upsample_nearest */
static void
a_pad(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_pad(c, m->variant == 1);
}

/* variant 1: Liger's SiLU-mul */
static void
a_binary(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_binary(c, m->variant == 1);
}

static void
a_silu_and_mul(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_silu_and_mul(c);
}

static void
a_reduce(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_reduce(c, bwd);
}

static void
a_norm(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_norm(c, m->model);
}

/* variant: where x and the weight are, and whether a residual is added */
static void
a_rms_ext(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	static const struct { size_t ix, iw; bool add; } v[] = {
		{ 0, 1, false }, { 1, 2, false }, { 1, 4, true } };

	m_rms_ext(c, v[m->variant].ix, v[m->variant].iw, v[m->variant].add);
}

/* variant 1: sgl_kernel's rotary_embedding */
static void
a_rope(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_rope(c, m->variant == 1);
}

static void
a_moe_comm(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_moe_comm(c);
}

static void
a_cross_entropy(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_cross_entropy(c);
}

/*
 * The perf-model classes ttp implements (torch/opclass.c maps op names to them), with
 * TraceLens's backward rules: whether it applies the forward model's backward formulas
 * to the op's linked backward op, and the category of those rows. InstanceNormBwd has
 * no function: TraceLens's NotImplemented.
 */
#define R(model, fn, variant)		{ model, fn, variant, false, NULL }
#define B(model, fn, variant, cat)	{ model, fn, variant, true, cat }
static const struct perfmodel models[] = {
	/* GEMM */
	R("aten_mm", a_gemm, 0),
	R("aten_addmm", a_gemm, 0),
	R("aten_scaled_mm", a_gemm, 0),
	R("aten_bmm", a_gemm, 0),
	R("aten_baddbmm", a_gemm, 0),
	R("tev2_pseudo_gemm", a_gemm, 0),
	R("vllm_gemm_with_dynamic_quant", a_gemm_dq, 0),
	R("tex_ts_te_gemm_ts", a_te_gemm, 0),
	R("hipblaslt_gemm_fp8", a_hipblaslt_fp8, 0),
	R("gemm_a16w16", a_gemm_a16w16, 0),
	R("primus_turbo_grouped_gemm", a_grouped_gemm, 0),
	/* convolution */
	B("aten_conv", a_conv, 0, "CONV_bwd"),
	R("aten_conv_bwd", a_conv, 1),
	R("causal_conv1d_fwd", a_causal_conv1d, 0),
	/* attention: SDPA (the backward classes have models of their own) */
	B("flash_attention", a_sdpa, 0, "SDPA_bwd"),
	R("flash_attention_backward", a_sdpa, 0),
	B("flash_attention_varlen_forward", a_sdpa, 0, "SDPA_bwd"),
	R("flash_attention_varlen_backward", a_sdpa, 0),
	B("aten__scaled_dot_product_cudnn_attention", a_sdpa, 0, "SDPA_bwd"),
	B("aten__scaled_dot_product_efficient_attention", a_sdpa, 0, "SDPA_bwd"),
	B("aten__scaled_dot_product_flash_attention", a_sdpa, 0, "SDPA_bwd"),
	B("aiter__flash_attn_forward", a_sdpa, 0, "SDPA_bwd"),
	R("aiter__flash_attn_backward", a_sdpa, 0),
	B("flash_attn_v3_forward", a_sdpa, 0, "SDPA_bwd"),
	B("aiter__fmha_v3_forward", a_sdpa, 0, "SDPA_bwd"),
	R("aiter__fmha_v3_backward", a_sdpa, 0),
	B("aiter__mha_fwd", a_sdpa, 0, "SDPA_bwd"),
	B("aiter__fmha_v3_fwd", a_sdpa, 0, "SDPA_bwd"),
	R("aiter__mha_bwd", a_sdpa, 0),
	R("evoformer_attention", a_evoformer, 0),
	/* attention: inference */
	R("InferenceAttention", a_inf_attn, 0),
	R("vllm_unified_attention_with_output", a_inf_attn, 0),
	R("mha_varlen_fwd", a_inf_attn, 0),
	R("mla_decode_fwd", a_inf_attn, 0),
	R("vllm_unified_mla_attention_with_output", a_inf_attn, 0),
	R("aiter_mha_batch_prefill", a_inf_attn, 1),
	R("pseudo_mla_prefill_fwd", a_inf_attn, 1),
	R("aiter_fmha_v3_varlen_fwd", a_inf_attn, 1),
	R("aiter_paged_attention_ragged", a_inf_attn, 2),
	R("pa_decode_gluon", a_inf_attn, 3),
	R("sglang_store_cache", a_store_cache, 0),
	/* element-wise and reduce (Reduce has no bwd_category: its rows keep "reduce") */
	R("aten_unary_elementwise", a_unary, 0),
	R("aten_replication_pad", a_pad, 0),
	R("aten_upsample_nearest", a_pad, 1),
	R("aten_binary_elementwise", a_binary, 0),
	R("liger_silu_mul_function", a_binary, 1),
	R("aiter_silu_and_mul", a_silu_and_mul, 0),
	R("sgl_kernel_silu_and_mul", a_silu_and_mul, 0),
	B("aten_reduce", a_reduce, 0, NULL),
	/* normalization */
	R("BatchNorm", a_norm, 0),
	R("LayerNorm", a_norm, 0),
	R("GroupNorm", a_norm, 0),
	R("InstanceNorm", a_norm, 0),
	R("RMSNorm", a_norm, 0),
	R("BatchNormBwd", a_norm, 0),
	R("LayerNormBwd", a_norm, 0),
	R("GroupNormBwd", a_norm, 0),
	R("RMSNormBwd", a_norm, 0),
	R("InstanceNormBwd", NULL, 0),
	R("aiter_rms_norm", a_rms_ext, 0),
	R("aiter_rmsnorm", a_rms_ext, 1),
	R("aiter_rmsnorm2d_fwd_with_add_ck", a_rms_ext, 2),
	/* RoPE, MoE communication, cross entropy */
	R("fused_rope_fwd", a_rope, 0),
	R("sgl_kernel_rotary_embedding", a_rope, 1),
	B("moe_dispatch", a_moe_comm, 0, "MoE_comm_bwd"),
	B("moe_combine", a_moe_comm, 0, "MoE_comm_bwd"),
	R("cross_entropy_fwd", a_cross_entropy, 0),
};
#undef R
#undef B

const struct perfmodel *
perf_model(const char *model)
{
	size_t i;

	if (model == NULL)
		return NULL;
	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (strcmp(model, models[i].model) == 0)
			return &models[i];
	return NULL;
}

enum perf_status
perf_apply(const char *model, const char *name, const struct targs *a,
    const char *const *kernels, size_t nkernels, bool bwd, struct tperf *out)
{
	const struct perfmodel *m = perf_model(model);
	struct pmctx c;

	memset(out, 0, sizeof(*out));
	if (m == NULL || m->apply == NULL || (bwd && !m->bwd))
		return PERF_NONE;
	c.name = name != NULL ? name : "";
	c.a = a;
	c.kernels = kernels;
	c.nkernels = nkernels;
	c.o = out;
	c.failed = false;
	c.none = false;
	js_w_init(&c.w, &out->params);
	js_w_object(&c.w);
	out->flops = I(0);

	m->apply(&c, m, bwd);
	if (c.failed) {
		perf_free(out);
		return PERF_ERROR;
	}
	if (c.none) {
		perf_free(out);
		return PERF_NONE;
	}
	js_w_end_object(&c.w);
	return PERF_OK;
}

void
perf_free(struct tperf *p)
{
	buf_free(&p->params);
}
