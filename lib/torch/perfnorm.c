/* SPDX-License-Identifier: ISC */
/*
 * perfnorm: TraceLens's normalization models (batch, layer, group, instance and RMS
 * norm, forward and backward; the inference extensions' RMSNorm variants).
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/json.h"
#include "torch/perfmodel.h"

#include "perfpriv.h"

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

	pm_tup(c, "op_shape", pm_jshape(x));
	pm_strs(c, "dtype_in_out", (const char *const[]){ n->din, NULL }, 2);
	pm_tup(c, "stride_input", pm_jstrides(c, ix, false));
	pm_null(c, "stride_output");
	pm_num(c, "num_channels", n->C);
	pm_bool(c, "has_bias", n->bias);
	pm_bool(c, "is_affine", n->affine);
	pm_bool(c, "is_training", n->training);
	if (mask) {
		struct js_writer *w = pm_pkey(c, "output_mask");

		js_w_array(w);
		for (i = 0; i < n->nmask; i++)
			js_w_bool(w, n->mask[i]);
		js_w_end_array(w);
		pm_is_list(c, "output_mask");	/* TraceLens's parse_list */
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
	int n = pm_parse_list(c, s, v, TARG_MAXRANK);

	return c->failed ? I(1) : pm_prod(c, v, n);
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
		x = pm_shape(c, 0);
		n.affine = pm_present(c, 2);
		n.training = pybool_str(pm_concrete(c, 5));
		n.C = pm_dim(c, x, 1);
	} else if (strcmp(model, "LayerNorm") == 0) {
		x = pm_shape(c, 0);
		n.C = list_prod(c, pm_concrete(c, 1));
		n.bias = pm_present(c, 3);
		n.affine = pm_present(c, 2);
		c->o->quirk = "norm weight and bias are always counted (Kineto writes [])";
	} else if (strcmp(model, "GroupNorm") == 0) {
		x = pm_shape(c, 0);
		n.affine = pm_present(c, 2);
		n.C = pm_dim(c, x, 1);
	} else if (strcmp(model, "InstanceNorm") == 0) {
		x = pm_shape(c, 0);
		n.affine = pm_present(c, 2);
		n.training = pybool_str(pm_concrete(c, 5));
		n.C = pm_dim(c, x, 1);
	} else if (strcmp(model, "RMSNorm") == 0) {
		x = pm_shape(c, 0);
		n.affine = pm_present(c, 2);
		n.C = list_prod(c, pm_concrete(c, 1));
		n.bias = false;
		n.training = false;
		rms = true;
	} else if (strcmp(model, "BatchNormBwd") == 0) {
		bool plain = strcmp(c->name, "aten::cudnn_batch_norm_backward") != 0 &&
		    strcmp(c->name, "aten::miopen_batch_norm_backward") != 0;

		bwd = true;
		ix = plain ? 1 : 0;
		n.mask[0] = plain ? pm_present(c, 0) : true;
		n.nmask = 1;
		n.training = plain ? pybool_str(pm_concrete(c, 7)) : false;
		x = pm_shape(c, ix);
		n.C = pm_dim(c, x, 1);
		n.affine = pm_present(c, 2);
	} else if (strcmp(model, "LayerNormBwd") == 0) {
		long long m[8];

		bwd = true;
		ix = 1;
		x = pm_shape(c, 1);
		n.C = list_prod(c, pm_concrete(c, 2));
		n.nmask = pm_parse_list(c, pm_concrete(c, 7), m, 8);
		if (!c->failed && n.nmask < 3)
			pm_fail(c, "output_mask \"%s\" has fewer than 3 values", pm_concrete(c, 7));
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
		x = pm_shape(c, 1);
		n.affine = pm_present(c, 5);
		n.nmask = pm_parse_list(c, pm_concrete(c, 9), m, 8);
		if (!c->failed && !pm_pyint(pm_concrete(c, 8), &g))
			pm_fail(c, "groups \"%s\" is not an integer", pm_concrete(c, 8));
		if (!c->failed && (n.nmask < 1 || g == 0))
			pm_fail(c, "bad output_mask or groups");
		if (c->failed)
			return;
		n.mask[0] = m[0];
		if (n.nmask > 1)
			n.mask[1] = m[1];
		if (n.nmask > 2)
			n.mask[2] = m[2];
		n.C = py_tdiv(pm_dim(c, x, 1), I(g));
	} else if (strcmp(model, "RMSNormBwd") == 0) {
		long long m[8];

		bwd = true;
		ix = 1;
		x = pm_shape(c, 1);
		n.affine = pm_present(c, 4);
		n.C = list_prod(c, pm_concrete(c, 2));
		n.nmask = pm_parse_list(c, pm_concrete(c, 5), m, 8);
		if (!c->failed && n.nmask < 2)
			pm_fail(c, "output_mask \"%s\" has fewer than 2 values", pm_concrete(c, 5));
		if (c->failed)
			return;
		n.mask[0] = m[0];
		n.mask[1] = m[1];
		n.bias = false;
		n.training = false;
		rms = true;
	} else
		return;
	n.din = pm_dtype(c, ix);
	if (c->failed)
		return;
	n.E = pm_prod(c, x->dims, x->rank);
	norm_params(c, &n, x, ix, bwd);
	if (!c->failed && perf_bpe(n.din) == 0)	/* Python: int * None */
		pm_fail(c, "no bytes per element for dtype \"%s\"", n.din);
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

/* RMSNorm variants of the inference extensions (category RMSNorm): x at ix, the
 * weight's length at Input Dims[iw][0]; with_add: the fused residual add. */
static void
m_rms_ext(struct pmctx *c, size_t ix, size_t iw, bool with_add)
{
	const struct targ *x = pm_shape(c, ix), *w = pm_shape(c, iw);
	struct norm n;
	int bpe = 0;

	memset(&n, 0, sizeof(n));
	n.C = pm_dim(c, w, 0);
	n.affine = true;
	n.din = pm_dtype(c, ix);
	if (c->failed)
		return;
	n.E = pm_prod(c, x->dims, x->rank);
	norm_params(c, &n, x, ix, false);
	if (!c->failed && (bpe = perf_bpe(n.din)) == 0)
		pm_fail(c, "no bytes per element for dtype \"%s\"", n.din);
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

void
pm_norm(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_norm(c, m->model);
}

/* variant: where x and the weight are, and whether a residual is added */
void
pm_rms_ext(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	static const struct { size_t ix, iw; bool add; } v[] = {
		{ 0, 1, false }, { 1, 2, false }, { 1, 4, true } };

	m_rms_ext(c, v[m->variant].ix, v[m->variant].iw, v[m->variant].add);
}
