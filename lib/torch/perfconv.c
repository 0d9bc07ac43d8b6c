/* SPDX-License-Identifier: ISC */
/*
 * perfconv: TraceLens's convolution models (aten::convolution forward and backward,
 * DaoAILab's causal conv1d).
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "torch/perfmodel.h"

#include "perfpriv.h"

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
	struct pynum per = py_muli(pm_prod(c, w + 1, wr - 1), 2), f;

	f = py_mul(transposed ? pm_prod(c, x, xr) : pm_prod(c, out, outr), per);
	if (bias)
		f = py_add(f, pm_prod(c, out, outr));
	return f;
}

static struct pynum
conv_elems(struct pmctx *c, const long long *x, int xr, const long long *w, int wr,
    const long long *out, int outr, bool bias)
{
	struct pynum e = py_add(pm_prod(c, x, xr), pm_prod(c, w, wr));

	if (bias)
		e = py_add(e, I(out[1]));
	return py_add(e, pm_prod(c, out, outr));
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

	x = pm_shape(c, ix);
	w = pm_shape(c, ix + 1);
	if (c->failed)
		return;
	v->xr = x->rank;
	v->wr = w->rank;
	memcpy(v->x, x->dims, sizeof(v->x));
	memcpy(v->w, w->dims, sizeof(v->w));
	v->nd = x->rank - 2;
	if (v->nd < 1 || v->nd > 3 || w->rank != x->rank) {
		pm_fail(c, "unknown convolution dimension: input rank %d, weight rank %d",
		    x->rank, w->rank);
		return;
	}
	if (bwd)
		v->bias = c->a->n > 3 && pm_nonempty(c, 3);
	else
		v->bias = c->a->n == 3;
	for (i = 0; i < 4; i++) {
		const char *s = pm_concrete(c, k0 + (size_t)(i < 3 ? i : i + 1));

		if (c->failed)
			return;
		if (*s == '\0') {
			n[i] = v->nd;
			for (j = 0; j < v->nd; j++)
				lists[i][j] = dflt[i];
		} else
			n[i] = pm_str_to_tuple(c, s, lists[i], CONV_MAXD);
		if (c->failed)
			return;
		if (n[i] == 1)
			for (j = n[i] = v->nd; j-- > 1;)
				lists[i][j] = lists[i][0];
	}
	v->transposed = pm_eval_bool(c, pm_concrete(c, k0 + 3));
	if (!pm_pyint(pm_concrete(c, k0 + 5), &groups))
		pm_fail(c, "groups \"%s\" is not an integer", pm_concrete(c, k0 + 5));
	v->dt = pm_dtype(c, ix);
	if (!c->failed && strcmp(v->dt, pm_dtype(c, ix + 1)) != 0)
		pm_fail(c, "data types of input and weight are different: %s, %s", v->dt,
		    pm_dtype(c, ix + 1));
	for (i = 0; i < 4 && !c->failed; i++)
		if (n[i] < v->nd)
			pm_fail(c, "%s has %d values for %d spatial dimensions", names[i], n[i],
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
			pm_fail(c, "stride 0");
			return;
		} else	/* Python: int(float quotient + 1), truncated toward zero */
			v->out[2 + j] = (long long)(((double)(in + 2 * pad[j] -
			    dil[j] * (k - 1) - 1) / (double)st[j]) + 1);
	}

	pm_str(c, "convNd", v->nd == 1 ? "conv1d" : v->nd == 2 ? "conv2d" :
	    "conv3d");
	pm_tup(c, "input_shape", pm_jshape(x));
	pm_tup(c, "filter_shape", pm_jshape(w));
	pm_strs(c, "dtype_input_weight", (const char *const[]){ v->dt, pm_dtype(c, ix + 1) },
	    2);
	pm_tup(c, "input_stride", pm_jstrides(c, ix, true));
	pm_tup(c, "weight_stride", pm_jstrides(c, ix + 1, true));
	if (bwd && c->a->n > 3 && !pm_nonempty(c, 3)) {
		/* Python: `... and Input Dims[3]` is [], a list */
		pm_tup(c, "bias", pm_jtuple(NULL, 0));
		pm_is_list(c, "bias");
	} else
		pm_bool(c, "bias", v->bias);
	pm_tup(c, "stride", pm_jtuple(st, n[0]));
	pm_tup(c, "padding", pm_jtuple(pad, n[1]));
	pm_tup(c, "dilation", pm_jtuple(dil, n[2]));
	pm_bool(c, "transposed_conv", v->transposed);
	pm_tup(c, "output_padding", pm_jtuple(op, n[3]));
	pm_int(c, "groups", groups);
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
		f = py_add(f, pm_prod(c, v->out, r));
	c->o->flops = f;
	if (bpe == 0)
		return;
	by = py_add(py_muli(conv_elems(c, v->out, r, v->w, r, v->x, r, false), bpe),
	    py_muli(conv_elems(c, v->out, r, v->x, r, v->w, r, false), bpe));
	if (v->bias)	/* QUIRK: not times bytes per element */
		by = py_add(by, py_add(pm_prod(c, v->out, r), I(v->out[1])));
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

/* DaoAILab causal conv1d: x [batch, channels, seq], w [channels, k]. */
static void
m_causal_conv1d(struct pmctx *c)
{
	const struct targ *x = pm_shape(c, 0), *w = pm_shape(c, 1);
	struct pynum b, ch, l, k, io;
	bool bias;
	int bpe;

	b = pm_dim(c, x, 0);
	ch = pm_dim(c, x, 1);
	l = pm_dim(c, x, 2);
	k = pm_dim(c, w, 1);
	if (c->failed)
		return;
	bias = c->a->n > 2 && pm_nonempty(c, 2);
	pm_num(c, "batch", b);
	pm_num(c, "channels", ch);
	pm_num(c, "seq_len", l);
	pm_num(c, "kernel_size", k);
	pm_bool(c, "has_bias", bias);
	bpe = pm_bpe_or2(pm_dtype(c, 0));
	io = py_muli(py_mul(py_mul(b, ch), l), bpe);
	c->o->flops = py_muli(py_mul(py_mul(py_mul(b, ch), l), k), 2);
	c->o->maf = "matrix";
	c->o->prec = perf_precision(pm_dtype(c, 0));
	c->o->has_bytes = true;
	c->o->bytes = py_add(py_add(io, py_muli(py_mul(ch, k), bpe)), io);
	if (bias)
		c->o->bytes = py_add(c->o->bytes, py_muli(ch, bpe));
}

/* variant 1: aten_conv_bwd, a backward op with a model of its own */
void
pm_conv(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_conv(c, m->variant == 1, bwd);
}

void
pm_causal_conv1d(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_causal_conv1d(c);
}
