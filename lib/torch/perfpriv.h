/* SPDX-License-Identifier: ISC */
/*
 * perfpriv: what the perf-model files share and no one else sees (they include it as
 * "perfpriv.h"; every other module goes through torch/perfmodel.h): a model's context
 * (its arguments, its output and the params writer), Python's integer and float
 * arithmetic, the argument, params and Concrete Inputs helpers of perfargs.c, and each
 * family's model functions, which the model table of perfmodel.c names.
 */
#ifndef TTP_TORCH_PERFPRIV_H
#define TTP_TORCH_PERFPRIV_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/json.h"
#include "torch/perfmodel.h"

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

/* --- Python numbers ------------------------------------------------------------------ */

static inline struct pynum
I(long long v)
{
	struct pynum n = { true, v, (double)v };

	return n;
}

static inline struct pynum
F(double d)
{
	struct pynum n = { false, 0, d };

	return n;
}

static inline struct pynum
py_add(struct pynum a, struct pynum b)
{
	long long r;

	if (a.isint && b.isint && !__builtin_add_overflow(a.i, b.i, &r))
		return I(r);
	return F(pynum_double(a) + pynum_double(b));
}

static inline struct pynum
py_sub(struct pynum a, struct pynum b)
{
	long long r;

	if (a.isint && b.isint && !__builtin_sub_overflow(a.i, b.i, &r))
		return I(r);
	return F(pynum_double(a) - pynum_double(b));
}

static inline struct pynum
py_mul(struct pynum a, struct pynum b)
{
	long long r;

	if (a.isint && b.isint && !__builtin_mul_overflow(a.i, b.i, &r))
		return I(r);
	return F(pynum_double(a) * pynum_double(b));
}

/* Python's a / b: a double, correctly rounded for integers below 2^53. */
static inline struct pynum
py_tdiv(struct pynum a, struct pynum b)
{
	return F(pynum_double(a) / pynum_double(b));
}

/* Python's a // b on integers (floor); on doubles, floor of the quotient. */
static inline struct pynum
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

static inline struct pynum
py_muli(struct pynum a, long long k)
{
	return py_mul(a, I(k));
}

/* --- params ------------------------------------------------------------------------------ */

/*
 * The params are the JSON text of an object (out->params), written member by member in
 * TraceLens's order: a key (pm_pkey), then one value. A tuple (shapes, strides) is kept as a
 * struct tup until it is written, so that a model can compute one before its place.
 */
struct tup {
	const long long	*d;
	int		 n;		/* -1: Python's None */
};

/* perfargs.c */
void pm_fail(struct pmctx *c, const char *fmt, ...);
const struct targ *pm_arg(struct pmctx *c, size_t i);
const struct targ *pm_shape(struct pmctx *c, size_t i);
bool pm_present(struct pmctx *c, size_t i);
bool pm_nonempty(struct pmctx *c, size_t i);
struct pynum pm_prod(struct pmctx *c, const long long *d, int n);
struct pynum pm_dim(struct pmctx *c, const struct targ *t, int i);
struct tup pm_jtuple(const long long *d, int n);
struct tup pm_jshape(const struct targ *t);
struct tup pm_jstrides(struct pmctx *c, size_t i, bool none_ok);
struct js_writer *pm_pkey(struct pmctx *c, const char *key);
void pm_tup(struct pmctx *c, const char *key, struct tup t);
void pm_is_list(struct pmctx *c, const char *key);
void pm_str(struct pmctx *c, const char *key, const char *s);
void pm_int(struct pmctx *c, const char *key, long long v);
void pm_real(struct pmctx *c, const char *key, double v);
void pm_num(struct pmctx *c, const char *key, struct pynum v);
void pm_bool(struct pmctx *c, const char *key, bool v);
void pm_null(struct pmctx *c, const char *key);
void pm_strs(struct pmctx *c, const char *key, const char *const *s, int n);
bool pm_pyfloat(const char *s, double *v);
bool pm_pyint(const char *s, long long *v);
double pm_optional_float(const char *s);
bool pm_causal_str(const char *s);
bool pm_eval_bool(struct pmctx *c, const char *s);
int pm_parse_list(struct pmctx *c, const char *s, long long *out, int max);
int pm_str_to_tuple(struct pmctx *c, const char *s, long long *out, int max);
const char *pm_concrete(struct pmctx *c, size_t i);
const char *pm_dtype(struct pmctx *c, size_t i);
int pm_bpe_or2(const char *dtype);
extern const struct tup pm_tup_none;

/* perfgemm.c */
void pm_gemm(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_gemm_dq(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_te_gemm(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_hipblaslt_fp8(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_gemm_a16w16(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_grouped_gemm(struct pmctx *c, const struct perfmodel *m, bool bwd);

/* perfconv.c */
void pm_conv(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_causal_conv1d(struct pmctx *c, const struct perfmodel *m, bool bwd);

/* perfattn.c */
void pm_sdpa(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_evoformer(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_store_cache(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_inf_attn(struct pmctx *c, const struct perfmodel *m, bool bwd);

/* perfelem.c */
void pm_unary(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_pad(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_binary(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_silu_and_mul(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_reduce(struct pmctx *c, const struct perfmodel *m, bool bwd);

/* perfnorm.c */
void pm_norm(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_rms_ext(struct pmctx *c, const struct perfmodel *m, bool bwd);

/* perfmisc.c */
void pm_rope(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_moe_comm(struct pmctx *c, const struct perfmodel *m, bool bwd);
void pm_cross_entropy(struct pmctx *c, const struct perfmodel *m, bool bwd);

#endif
