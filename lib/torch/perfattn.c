/* SPDX-License-Identifier: ISC */
/*
 * perfattn: TraceLens's attention models: the SDPA classes (flash attention, cuDNN,
 * efficient, aiter, FA3) forward and backward, Evoformer, and the InferenceAttention
 * family of the inference extensions (vLLM, aiter, SGLang: prefill, decode, paged,
 * store_cache), which read the enclosing step's counts.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "torch/perfmodel.h"

#include "perfpriv.h"

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
	const struct targ *q = pm_shape(c, iq), *k = pm_shape(c, iq + 1), *v = pm_shape(c, iq + 2);
	struct pynum qb, kb, vb, kh, vh, kn, vn, kd;

	if (c->failed)
		return;
	if (varlen) {
		s->B = I(1);
		qb = kb = vb = I(1);
	} else {
		s->B = qb = pm_dim(c, q, bhnd[0]);
		kb = pm_dim(c, k, bhnd[0]);
		vb = pm_dim(c, v, bhnd[0]);
	}
	s->HQ = pm_dim(c, q, bhnd[1]);
	s->NQ = pm_dim(c, q, bhnd[2]);
	s->dqk = pm_dim(c, q, bhnd[3]);
	kh = pm_dim(c, k, bhnd[1]);
	kn = pm_dim(c, k, bhnd[2]);
	kd = pm_dim(c, k, bhnd[3]);
	vh = pm_dim(c, v, bhnd[1]);
	vn = pm_dim(c, v, bhnd[2]);
	s->dv = pm_dim(c, v, bhnd[3]);
	s->HKV = kh;
	s->NKV = kn;
	if (c->failed)
		return;
	if (qb.i != kb.i || qb.i != vb.i)
		pm_fail(c, "batch sizes do not match: %lld, %lld, %lld", qb.i, kb.i, vb.i);
	else if (kh.i != vh.i)
		pm_fail(c, "head sizes do not match for K and V: %lld, %lld", kh.i, vh.i);
	else if (kn.i != vn.i)
		pm_fail(c, "length sizes do not match for K and V: %lld, %lld", kn.i, vn.i);
	else if (s->dqk.i != kd.i)
		pm_fail(c, "head dimensions do not match for Q and K: %lld, %lld", s->dqk.i,
		    kd.i);
}

static void
sdpa_params(struct pmctx *c, struct sdpa *s)
{
	pm_num(c, "B", s->B);
	pm_num(c, "N_Q", s->NQ);
	pm_num(c, "H_Q", s->HQ);
	pm_num(c, "N_KV", s->NKV);
	pm_num(c, "H_KV", s->HKV);
	pm_num(c, "d_h_qk", s->dqk);
	pm_num(c, "d_h_v", s->dv);
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
			pm_fail(c, "causal=True but N_Q != N_K: %g != %g", pynum_double(nq),
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
			pm_fail(c, "causal=True but N_Q != N_K");
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
		dropout = pm_optional_float(pm_concrete(c, (size_t)k->idrop));
		s.causal = pm_causal_str(pm_concrete(c, (size_t)k->icausal));
		break;
	case 1:
		if (!pm_pyfloat(pm_concrete(c, (size_t)k->idrop), &dropout))
			pm_fail(c, "dropout \"%s\" is not a number",
			    pm_concrete(c, (size_t)k->idrop));
		s.causal = pm_eval_bool(c, pm_concrete(c, (size_t)k->icausal));
		break;
	case 2:	/* flash_attn::_flash_attn_backward: defaults when missing or empty */
		dropout = 0.0;
		s.causal = true;
		if (c->a->n > 8 && *c->a->a[8].value != '\0') {
			if (!pm_pyfloat(c->a->a[8].value, &dropout))
				pm_fail(c, "dropout \"%s\" is not a number", c->a->a[8].value);
		}
		if (c->a->n > 10 && *c->a->a[10].value != '\0')
			s.causal = pm_eval_bool(c, c->a->a[10].value);
		break;
	case 3:
		dropout = 0.0;
		s.causal = pm_causal_str(pm_concrete(c, (size_t)k->icausal));
		break;
	}
	if (k->varlen) {
		size_t icu = k->bwd_model ? 9 : 3, imax = k->bwd_model ? 11 : 5;
		const struct targ *cq = pm_shape(c, icu), *ck = pm_shape(c, icu + 1);

		nsq = pm_dim(c, cq, 0).i - 1;
		nskv = pm_dim(c, ck, 0).i - 1;
		if (!c->failed && !pm_pyfloat(pm_concrete(c, imax), &maxq))
			pm_fail(c, "max_seqlen_q \"%s\" is not a number", pm_concrete(c, imax));
		if (!c->failed && !pm_pyfloat(pm_concrete(c, imax + 1), &maxkv))
			pm_fail(c, "max_seqlen_k \"%s\" is not a number", pm_concrete(c, imax + 1));
	}
	if (c->failed)
		return;
	sdpa_params(c, &s);
	if (k->strides) {
		pm_tup(c, "q_stride", pm_jstrides(c, k->iq, false));
		pm_tup(c, "k_stride", pm_jstrides(c, k->iq + 1, false));
		pm_tup(c, "v_stride", pm_jstrides(c, k->iq + 2, false));
	}
	pm_real(c, "dropout", dropout);
	pm_bool(c, "causal", s.causal);
	pm_bool(c, "flash_impl", s.flash);
	if (k->dtype) {
		dt[0] = pm_dtype(c, 0);
		dt[1] = pm_dtype(c, 1);
		pm_strs(c, "dtype_A_B", dt, 2);
		c->o->prec = perf_precision(pm_dtype(c, 0));
	}
	if (k->varlen) {
		pm_int(c, "num_seqs_q", nsq);
		pm_int(c, "num_seqs_kv", nskv);
		pm_real(c, "max_seqlen_q", maxq);
		pm_real(c, "max_seqlen_kv", maxkv);
	}
	c->o->maf = "matrix";

	if (k->varlen && !(bwd_pass && !k->bwd_model)) {
		struct pynum (*fn)(struct pmctx *, const struct sdpa *, struct pynum,
		    struct pynum) = bwd ? sdpa_flops_bwd : sdpa_flops;

		f = fn(c, &s, F(maxq), F(maxkv));
		if (nsq > 1) {
			struct pynum rq, rkv;

			if (nskv == 1) {
				pm_fail(c, "float division by zero (num_seqs_kv = 1)");
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
		d = perf_bpe(pm_dtype(c, 0));
		if (d == 0) {
			pm_fail(c, "unsupported dtype %s", pm_dtype(c, 0));
			return;
		}
	}
	c->o->has_bytes = true;
	c->o->bytes = sdpa_bytes(&s, (int)d, bwd);
	if (perf_bpe(pm_dtype(c, k->iq)) != 2)
		c->o->quirk = "SDPA bytes assume 2 bytes per element";
}

/* EvoformerAttention: Q [Batch, N_seq, N_res, Head, Dim]. */
static void
m_evoformer(struct pmctx *c)
{
	const struct targ *q = pm_shape(c, 0);
	struct sdpa s;

	if (!c->failed && q->rank != 5)
		pm_fail(c, "Q must have rank 5");
	if (c->failed)
		return;
	memset(&s, 0, sizeof(s));
	s.B = py_mul(I(q->dims[0]), I(q->dims[1]));
	s.NQ = s.NKV = I(q->dims[2]);
	s.HQ = s.HKV = I(q->dims[3]);
	s.dqk = s.dv = I(q->dims[4]);
	sdpa_params(c, &s);
	pm_bool(c, "causal", false);
	pm_bool(c, "flash_impl", false);
	pm_strs(c, "dtype_A_B", (const char *const[]){ c->a->n > 0 ? pm_dtype(c, 0) : NULL },
	    1);
	c->o->maf = "matrix";
	c->o->prec = perf_precision(pm_dtype(c, 0));
	c->o->flops = sdpa_flops(c, &s, s.NQ, s.NKV);
	c->o->has_bytes = true;
	c->o->bytes = sdpa_bytes(&s, 2, false);
	c->o->quirk = "SDPA bytes assume 2 bytes per element";
}

/* sglang::store_cache: k and v rows written into the paged cache; no FLOPs. */
static void
m_store_cache(struct pmctx *c)
{
	const struct targ *k = pm_shape(c, 0);
	struct pynum n;

	if (c->failed)
		return;
	n = pm_prod(c, k->dims, k->rank);
	pm_tup(c, "op_shape", pm_jshape(k));
	pm_num(c, "nelems", n);
	pm_str(c, "dtype", pm_dtype(c, 0));
	c->o->flops = I(0);
	c->o->maf = "vector";
	c->o->prec = perf_precision(pm_dtype(c, 0));
	c->o->has_bytes = true;
	c->o->bytes = py_muli(n, 4 * pm_bpe_or2(pm_dtype(c, 0)));
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
		pm_fail(c, "no step annotation with sq/sk counts encloses it (TraceLens: "
		    "\"attention without sq/sk annotation is not supported\")");
		return;
	}
	if (variant == 3) {
		q = pm_shape(c, 0);
		k = pm_shape(c, 2);
		if (c->failed)
			return;
		if (q->rank < 3 || k->rank < 2) {
			pm_fail(c, "q and k cache of ranks %d and %d", q->rank, k->rank);
			return;
		}
		st.c_sq = st.c_sk = st.c_sqsq = st.c_sqsk = 0;
		hkv = k->dims[1];
		dv = q->dims[2];
		nkv = st.g_sk;
		dtq = c->a->a[0].dtype;
		dtkv = c->a->a[2].dtype;
		if (c->a->n <= 19 || !pm_pyint(c->a->a[19].value, &win))
			win = 0;
	} else if (variant == 2) {
		q = pm_shape(c, 2);
		k = pm_shape(c, 3);
		v = pm_shape(c, 4);
		if (c->failed)
			return;
		if (q->rank != 3 || k->rank < 2 || v->rank < 1) {	/* unpacking q */
			pm_fail(c, "q, k and v caches of ranks %d, %d, %d", q->rank, k->rank,
			    v->rank);
			return;
		}
		hkv = k->dims[k->rank - 2];
		dv = v->dims[v->rank - 1];
		nkv = an->c_sk + an->g_sk;
		dtq = c->a->a[2].dtype;
	} else {
		q = pm_shape(c, 0);
		k = pm_shape(c, 1);
		if (c->failed)
			return;
		if (q->rank != 3 || k->rank < 3) {
			pm_fail(c, "q and k of ranks %d and %d (want 3)", q->rank, k->rank);
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
	pm_int(c, "B", 1);
	pm_int(c, "N_Q", nq);
	pm_int(c, "H_Q", hq);
	pm_int(c, "H_V", hkv);
	pm_int(c, "H_K", hkv);
	pm_int(c, "N_KV", nkv);
	pm_int(c, "H_KV", hkv);
	pm_int(c, "d_h_qk", dqk);
	pm_int(c, "d_h_v", dv);
	pm_real(c, "dropout", 0.0);
	pm_bool(c, "causal", false);
	pm_bool(c, "flash_impl", true);
	pm_int(c, "c_sq", an->c_sq);
	pm_int(c, "c_sk", an->c_sk);
	pm_int(c, "c_sqsq", an->c_sqsq);
	pm_int(c, "c_sqsk", an->c_sqsk);
	pm_int(c, "g_sq", an->g_sq);
	pm_int(c, "g_sk", an->g_sk);
	pm_int(c, "g_sqsq", an->g_sqsq);
	pm_int(c, "g_sqsk", an->g_sqsk);
	pm_str(c, "dtype_Q", dtq);
	if (variant != 2)
		pm_str(c, "dtype_KV", dtkv);
	if (variant == 3)
		pm_int(c, "sliding_window", win);
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

void
pm_sdpa(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_sdpa(c, sdpa_kind(m->model), bwd);
}

void
pm_evoformer(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_evoformer(c);
}

void
pm_store_cache(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_store_cache(c);
}

/* variant: 0 the InferenceAttention family's base, 1 prefill (varlen), 2 paged
 * attention (ragged), 3 paged decode (gluon) */
void
pm_inf_attn(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_inf_attn(c, m->variant);
}
