/* SPDX-License-Identifier: ISC */
/*
 * perfelem: TraceLens's element-wise and reduce models (unary, binary, padding and
 * upsampling, Liger's and the inference extensions' SiLU-and-mul, aten reductions).
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "torch/perfmodel.h"

#include "perfpriv.h"

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
	const struct targ *x = pm_shape(c, 0);
	const char *dt[2] = { NULL, NULL };
	struct tup so = pm_tup_none;

	if (c->failed)
		return;
	dt[0] = pm_dtype(c, 0);
	pm_tup(c, "op_shape", pm_jshape(x));
	if (c->a->n > 1 && pm_nonempty(c, 1)) {
		dt[1] = pm_dtype(c, 1);
		so = pm_jstrides(c, 1, false);
	}
	pm_strs(c, "dtype_in_out", dt, 2);
	pm_tup(c, "stride_input", pm_jstrides(c, 0, false));
	pm_tup(c, "stride_output", so);
	unary_figures(c, pm_prod(c, x->dims, x->rank), pm_prod(c, x->dims, x->rank), dt[0], dt[1]);
}

/* replication_pad: padding pairs from Concrete[1], innermost dimension first. */
static void
m_pad(struct pmctx *c, bool upsample)
{
	const struct targ *x = pm_shape(c, 0);
	long long out[TARG_MAXRANK], pad[2 * TARG_MAXRANK];
	const char *dt[2];
	int n = 0, i, outr;

	if (c->failed)
		return;
	memcpy(out, x->dims, sizeof(out));
	outr = x->rank;
	if (upsample) {
		long long sp[TARG_MAXRANK];

		n = pm_parse_list(c, pm_concrete(c, 1), sp, TARG_MAXRANK - 2);
		if (c->failed)
			return;
		if (x->rank < 2) {
			pm_fail(c, "input rank %d below 2", x->rank);
			return;
		}
		outr = 2 + n;
		for (i = 0; i < n; i++)
			out[2 + i] = sp[i];
	} else {
		n = pm_parse_list(c, pm_concrete(c, 1), pad, 2 * TARG_MAXRANK);
		if (c->failed)
			return;
		for (i = 0; i < n / 2; i++) {
			int d = x->rank - 1 - i;

			if (d < 0) {
				pm_fail(c, "more padding than dimensions");
				return;
			}
			out[d] += pad[2 * i] + pad[2 * i + 1];
		}
	}
	dt[0] = dt[1] = pm_dtype(c, 0);
	pm_tup(c, "input_shape", pm_jshape(x));
	pm_tup(c, "output_shape", pm_jtuple(out, outr));
	if (!upsample) {
		pm_tup(c, "padding", pm_jtuple(pad, n));
	}
	pm_tup(c, "op_shape", pm_jtuple(out, outr));
	pm_strs(c, "dtype_in_out", dt, 2);
	pm_tup(c, "stride_input", pm_jstrides(c, 0, false));
	pm_null(c, "stride_output");
	unary_figures(c, pm_prod(c, x->dims, x->rank), pm_prod(c, out, outr), dt[0], dt[1]);
}

static void
m_binary(struct pmctx *c, bool liger)
{
	const struct targ *a = pm_shape(c, 0), *b = pm_shape(c, 1);
	const char *dt[3] = { NULL, NULL, NULL };
	long long out[TARG_MAXRANK];
	int nd, i, b1, b2, bo;
	struct tup so = pm_tup_none;

	if (c->failed)
		return;
	dt[0] = pm_dtype(c, 0);
	dt[1] = pm_dtype(c, 1);
	if (!liger && c->a->n > 2 && pm_nonempty(c, 2)) {
		dt[2] = pm_dtype(c, 2);
		so = pm_jstrides(c, 2, false);
	}
	pm_tup(c, "shape_in1", pm_jshape(a));
	pm_tup(c, "shape_in2", pm_jshape(b));
	pm_strs(c, "dtype_in1_in2_out", dt, 3);
	pm_tup(c, "stride_input1", pm_jstrides(c, 0, false));
	pm_tup(c, "stride_input2", pm_jstrides(c, 1, false));
	pm_tup(c, "stride_output", so);
	if (c->failed)
		return;
	/* numpy broadcasting, right-aligned */
	nd = a->rank > b->rank ? a->rank : b->rank;
	for (i = 0; i < nd; i++) {
		long long d1 = i - (nd - a->rank) >= 0 ? a->dims[i - (nd - a->rank)] : 1;
		long long d2 = i - (nd - b->rank) >= 0 ? b->dims[i - (nd - b->rank)] : 1;

		if (d1 != d2 && d1 != 1 && d2 != 1) {
			pm_fail(c, "shapes not broadcastable");
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
	c->o->flops = pm_prod(c, out, nd);
	c->o->maf = "vector";
	c->o->prec = perf_precision(dt[0]);
	if (b1 != 0 && b2 != 0 && bo != 0) {
		c->o->has_bytes = true;
		c->o->bytes = py_add(py_add(py_muli(pm_prod(c, a->dims, a->rank), b1),
		    py_muli(pm_prod(c, b->dims, b->rank), b2)), py_muli(c->o->flops, bo));
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
		pm_int(c, "num_input_elems", 0);
		pm_int(c, "num_output_elems", 0);
		pm_strs(c, "dtype_in_out", (const char *const[]){ NULL, NULL }, 2);
	} else {
		const struct targ *x = pm_shape(c, 0);

		if (c->failed)
			return;
		nin = pm_prod(c, x->dims, x->rank);
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
		pm_num(c, "num_input_elems", nin);
		pm_num(c, "num_output_elems", nout);
		pm_strs(c, "dtype_in_out", (const char *const[]){ din, NULL }, 2);
		pm_str(c, "reduce_type", rt);
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

/* silu_and_mul(out, input): out [..., d], input [..., 2d]; 5 FLOPs per output. */
static void
m_silu_and_mul(struct pmctx *c)
{
	const struct targ *o = pm_shape(c, 0);
	const char *dt[2];
	struct pynum n;
	int bi, bo;

	if (c->failed)
		return;
	dt[0] = pm_dtype(c, 1);
	dt[1] = pm_dtype(c, 0);
	pm_tup(c, "op_shape", pm_jshape(o));
	pm_strs(c, "dtype_in_out", dt, 2);
	pm_tup(c, "stride_input", pm_jstrides(c, 1, false));
	pm_tup(c, "stride_output", pm_jstrides(c, 0, false));
	bi = perf_bpe(dt[0]);
	bo = perf_bpe(dt[1]);
	if (!c->failed && (bi == 0 || bo == 0))
		pm_fail(c, "no bytes per element for dtype \"%s\"", bi == 0 ? dt[0] : dt[1]);
	if (c->failed)
		return;
	n = pm_prod(c, o->dims, o->rank);
	c->o->flops = py_muli(n, 5);
	c->o->maf = "vector";
	c->o->prec = perf_precision(dt[0]);
	c->o->has_bytes = true;
	c->o->bytes = py_add(py_muli(n, 2 * bi), py_muli(n, bo));
}

void
pm_unary(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_unary(c);
}

/* variant 1: upsample_nearest */
void
pm_pad(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_pad(c, m->variant == 1);
}

/* variant 1: Liger's SiLU-mul */
void
pm_binary(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_binary(c, m->variant == 1);
}

void
pm_silu_and_mul(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_silu_and_mul(c);
}

void
pm_reduce(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_reduce(c, bwd);
}
