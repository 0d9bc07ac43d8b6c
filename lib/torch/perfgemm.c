/* SPDX-License-Identifier: ISC */
/*
 * perfgemm: TraceLens's GEMM models (aten::mm and its kin, the quantized and
 * Transformer Engine GEMMs, hipBLASLt FP8, aiter's gemm_a16w16, Primus Turbo's grouped
 * GEMM).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "core/json.h"
#include "core/rec.h"
#include "torch/perfmodel.h"

#include "perfpriv.h"

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
				pm_fail(c, "kernel \"%s\": no transpose flags", k);
				return;
			}
			ta = last[0] == 'T';
			tb = last[1] == 'T';
		} else
			continue;
		w = pm_pkey(c, "transpose");
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
		pm_num(c, "B", g->B);
	pm_num(c, "M", g->M);
	pm_num(c, "N", g->N);
	pm_num(c, "K", g->K);
	pm_bool(c, "bias", g->bias);
	pm_tup(c, "stride_A", pm_jstrides(c, ia, true));
	pm_tup(c, "stride_B", pm_jstrides(c, ib, true));
	pm_strs(c, "dtype_A_B", g->dt, g->ndt);
	if (!g->batched)
		pm_int(c, "B", 1);
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
	A = pm_shape(c, ia);
	Bm = pm_shape(c, ib);
	if (strcmp(model, "aten_bmm") == 0 || strcmp(model, "aten_baddbmm") == 0) {
		if (!c->failed && (A->rank != 3 || Bm->rank != 3))
			pm_fail(c, "batched GEMM operands must have rank 3");
		g.batched = 1;
		g.B = pm_dim(c, A, 0);
		g.M = pm_dim(c, A, 1);
		g.K = pm_dim(c, A, 2);
		g.N = pm_dim(c, Bm, 2);
	} else {
		g.M = pm_dim(c, A, 0);
		g.K = pm_dim(c, A, 1);
		g.N = pm_dim(c, Bm, 1);
	}
	if (strcmp(model, "aten_scaled_mm") == 0)
		g.bias = c->a->n == 3;
	g.dt[0] = pm_dtype(c, ia);
	g.dt[1] = pm_dtype(c, ib);
	g.ndt = 2;
	if (c->failed)
		return;
	gemm_params(c, &g, ia, ib);
	bpe = perf_bpe(g.dt[0]);
	out = bpe;
	if (strcmp(model, "aten_scaled_mm") == 0) {
		if (bpe == 0 || perf_bpe(g.dt[1]) == 0) {
			pm_fail(c, "data types of A and B not supported: %s, %s", g.dt[0],
			    g.dt[1]);
			return;
		}
		out = bpe == 1 ? 2 : (bpe == 2 || bpe == 4) ? bpe : 0;
	} else if (strcmp(model, "tev2_pseudo_gemm") == 0) {
		if (strcmp(g.dt[0], g.dt[1]) != 0) {
			pm_fail(c, "data types of A and B are different: %s, %s", g.dt[0],
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
		pm_fail(c, "missing 2D A, B shapes in Input Dims");
		return;
	}
	if (c->a->n < 2) {
		pm_fail(c, "missing A, B dtypes in Input type");
		return;
	}
	g.M = I(A->dims[0]);
	g.K = I(A->dims[1]);
	g.N = I(W->dims[0]);
	g.dt[0] = pm_dtype(c, 0);
	g.dt[1] = pm_dtype(c, 1);
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

	(void)pm_arg(c, 10);
	A = pm_shape(c, 0);
	Bm = pm_shape(c, 5);
	ta = strcmp(pm_concrete(c, 4), "1") == 0;
	tb = strcmp(pm_concrete(c, 9), "1") == 0;
	g.M = pm_dim(c, A, ta ? 0 : 1);
	g.K = pm_dim(c, A, ta ? 1 : 0);
	g.N = pm_dim(c, Bm, tb ? 1 : 0);
	g.bias = strcmp(pm_concrete(c, 14), "") != 0;
	g.dt[0] = pm_dtype(c, 0);
	g.dt[1] = pm_dtype(c, 5);
	g.dt[2] = pm_dtype(c, 10);
	g.dt[3] = pm_dtype(c, 18);
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
	const struct targ *A = pm_shape(c, 0), *Bm = pm_shape(c, 2), *t;
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
	g.M = pm_dim(c, A, ta ? 1 : 0);
	g.K = pm_dim(c, A, ta ? 0 : 1);
	g.N = pm_dim(c, Bm, tb ? 0 : 1);
	g.dt[0] = pm_dtype(c, 0);
	g.dt[1] = pm_dtype(c, 2);
	if (c->failed)
		return;
	pm_num(c, "M", g.M);
	pm_num(c, "N", g.N);
	pm_num(c, "K", g.K);
	pm_bool(c, "bias", false);
	sa = pm_jstrides(c, 0, true);
	sb = pm_jstrides(c, 2, true);
	if (sa.n < 0 || sb.n < 0)
		sa = sb = pm_tup_none;
	pm_tup(c, "stride_A", sa);
	pm_tup(c, "stride_B", sb);
	pm_strs(c, "dtype_A_B", g.dt, 2);
	pm_str(c, "dtype_scaleA", c->a->n > 1 ? c->a->a[1].dtype : NULL);
	pm_str(c, "dtype_scaleB", c->a->n > 3 ? c->a->a[3].dtype : NULL);
	pm_int(c, "B", 1);
	gemm_transpose(c);
	bpe = perf_bpe(g.dt[0]);
	bpeb = perf_bpe(g.dt[1]);
	if (bpe == 0 || bpeb == 0) {
		pm_fail(c, "data types of A and B are not supported: %s, %s", g.dt[0], g.dt[1]);
		return;
	}
	gemm_figures(c, &g, bpe, bpeb, bpe, bpe == 1 ? 2 : bpe);
}

/* aiter::gemm_a16w16: X [M, K] and W [N, K]; a bias when Input Dims[2] is non-empty. */
static void
m_gemm_a16w16(struct pmctx *c)
{
	struct gemm g = { I(1), I(0), I(0), I(0), false, 0, { 0 }, 0 };
	const struct targ *X = pm_shape(c, 0), *W = pm_shape(c, 1);

	g.M = pm_dim(c, X, 0);
	g.N = pm_dim(c, W, 0);
	g.K = pm_dim(c, X, 1);
	g.bias = c->a->n > 2 && pm_nonempty(c, 2);
	g.dt[0] = pm_dtype(c, 0);
	g.dt[1] = pm_dtype(c, 1);
	g.dt[2] = g.dt[0];
	g.ndt = 3;
	if (c->failed)
		return;
	pm_int(c, "B", 1);
	pm_num(c, "M", g.M);
	pm_num(c, "N", g.N);
	pm_num(c, "K", g.K);
	pm_bool(c, "bias", g.bias);
	pm_strs(c, "dtype_A_B", g.dt, 3);
	gemm_transpose(c);
	gemm_figures(c, &g, perf_bpe(g.dt[0]), perf_bpe(g.dt[1]), perf_bpe(g.dt[2]),
	    perf_bpe(g.dt[2]));
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
		pm_fail(c, "could not read Input Dims");
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
		pm_fail(c, "could not parse Input Dims as a grouped GEMM");
		return;
	}
	din = a->dtype;
	dout = c->a->n > 1 ? b->dtype : din;
	bi = perf_bpe(din);
	bo = perf_bpe(dout);
	pm_int(c, "M", M);
	pm_int(c, "K", K);
	pm_int(c, "N", N);
	pm_int(c, "G", G);
	if (bi != 0)
		pm_int(c, "bpe_in", bi);
	else
		pm_null(c, "bpe_in");
	if (bo != 0)
		pm_int(c, "bpe_out", bo);
	else
		pm_null(c, "bpe_out");
	if (bi == 0 || bo == 0) {
		pm_fail(c, "no bytes per element for dtype \"%s\"", bi == 0 ? din : dout);
		return;
	}
	c->o->flops = py_muli(py_mul(py_mul(I(M), I(K)), I(N)), 2);
	c->o->maf = "matrix";
	c->o->prec = perf_precision(din);
	c->o->has_bytes = true;
	c->o->bytes = py_add(py_muli(py_add(py_mul(I(M), I(K)), py_mul(py_mul(I(G), I(K)),
	    I(N))), bi), py_muli(py_mul(I(M), I(N)), bo));
}

/* Each row's model function: the family's model with the row's variant. */
void
pm_gemm(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_gemm(c, m->model);
}

void
pm_gemm_dq(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_gemm_dq(c);
}

void
pm_te_gemm(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_te_gemm(c);
}

void
pm_hipblaslt_fp8(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_hipblaslt_fp8(c);
}

void
pm_gemm_a16w16(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_gemm_a16w16(c);
}

void
pm_grouped_gemm(struct pmctx *c, const struct perfmodel *m, bool bwd)
{
	m_grouped_gemm(c);
}
