/* SPDX-License-Identifier: ISC */
/*
 * perfmisc: TraceLens's models of the small families: RoPE, MoE dispatch and combine,
 * cross entropy.
 */
#include <stdbool.h>
#include <stddef.h>

#include "torch/perfmodel.h"

#include "perfpriv.h"

/* RoPE: FusedRoPEFunc (t [s, b, h, d]) and sgl_kernel::rotary_embedding (positions,
 * query [T, Hq*hd], key [T, Hk*hd], ..., cos_sin_cache [., rot_dim]): 3 FLOPs and 2
 * accesses per rotated element. */
static void
m_rope(struct pmctx *c, bool sgl)
{
	struct pynum n;
	const char *dt;

	if (!sgl) {
		const struct targ *t = pm_shape(c, 0);

		if (!c->failed && t->rank < 4)
			pm_fail(c, "RoPE input of rank %d, want 4", t->rank);
		if (c->failed)
			return;
		n = pm_prod(c, t->dims, t->rank);
		pm_int(c, "seq_len", t->dims[0]);
		pm_int(c, "batch", t->dims[1]);
		pm_int(c, "heads", t->dims[2]);
		pm_int(c, "head_dim", t->dims[3]);
		dt = c->a->n > 0 ? pm_dtype(c, 0) : "";
	} else {
		const struct targ *q = pm_shape(c, 1), *k = pm_shape(c, 2);
		struct pynum hs, rot;
		long long h;

		hs = pm_dim(c, q, -1);
		if (c->a->n > 3 && *c->a->a[3].value != '\0') {
			if (!pm_pyint(c->a->a[3].value, &h))
				pm_fail(c, "head_size \"%s\" is not an integer", c->a->a[3].value);
			hs = I(h);
		}
		rot = hs;
		if (c->a->n > 4 && c->a->a[4].shape == TSHAPE_FLAT && c->a->a[4].rank > 1)
			rot = I(c->a->a[4].dims[1]);
		if (!c->failed && hs.i == 0)
			pm_fail(c, "head size 0");
		if (c->failed)
			return;
		n = py_mul(py_mul(pm_dim(c, q, 0), py_add(py_fdiv(pm_dim(c, q, 1), hs),
		    py_fdiv(pm_dim(c, k, 1), hs))), rot);
		dt = pm_dtype(c, 1);
	}
	pm_num(c, "num_elements", n);
	c->o->flops = py_muli(n, 3);
	c->o->maf = "vector";
	c->o->prec = perf_precision(dt);
	c->o->has_bytes = true;
	c->o->bytes = py_muli(n, 2 * pm_bpe_or2(dt));
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
		pm_int(c, "num_tokens", t->dims[0]);
	else
		pm_null(c, "num_tokens");
	if (hid)
		pm_int(c, "hidden_dim", t->dims[1]);
	else
		pm_null(c, "hidden_dim");
	if (bpe != 0)
		pm_int(c, "bpe", bpe);
	else
		pm_null(c, "bpe");
	c->o->flops = I(0);
	if (tok && hid && bpe != 0) {
		c->o->has_bytes = true;
		c->o->bytes = py_muli(py_mul(I(t->dims[0]), I(t->dims[1])), bpe);
	}
}

/* CrossEntropyFunction: logits [batch, ..., vocab]; int64 targets, fp32 loss. */
static void
m_cross_entropy(struct pmctx *c)
{
	const struct targ *t = pm_shape(c, 0);
	struct pynum b, v;
	int bpe;

	b = pm_dim(c, t, 0);
	v = pm_dim(c, t, -1);
	if (c->failed)
		return;
	pm_num(c, "batch", b);
	pm_num(c, "vocab_size", v);
	pm_tup(c, "logits_shape", pm_jshape(t));
	bpe = pm_bpe_or2(pm_dtype(c, 0));
	c->o->flops = py_muli(py_mul(b, v), 5);
	c->o->maf = "vector";
	c->o->prec = perf_precision(pm_dtype(c, 0));
	c->o->has_bytes = true;
	c->o->bytes = py_add(py_add(py_muli(pm_prod(c, t->dims, t->rank), bpe), py_muli(b, 8)),
	    py_muli(b, 4));
}

/* variant 1: sgl_kernel's rotary_embedding */
void
pm_rope(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_rope(c, m->variant == 1);
}

void
pm_moe_comm(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_moe_comm(c);
}

void
pm_cross_entropy(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_cross_entropy(c);
}
