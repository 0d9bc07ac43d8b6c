/* SPDX-License-Identifier: ISC */
/* jaxtl: TraceLens's view of a JAX kernel record, and its perf models (jax/jaxtl.h);
 * sections (§): docs/jax.md. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/rec.h"
#include "core/trace.h"
#include "jax/jaxtl.h"

/* §1.8, HEAD's keyword lists, in TraceLens's order. */
static const struct {
	const char	*cat;
	const char	*kw[5];
} cats[] = {
	{ "GEMM", { "Cijk", "gemm", "nvjet", "cublasLt", NULL } },
	{ "FA BWD", { "FmhaBwd", "flash_bprop", "ck_fused_attn::dk_dv_reduce_thd", "fmha_bwd",
	    NULL } },
	{ "FA FWD", { "FmhaFwd", "flash_fprop", "fmha_fwd", NULL } },
	{ "FA V3", { "kernel_func", NULL } },
	{ "Conv", { "conv_", "conv.", "conv-", NULL } },
	{ "TE", { "transformer_engine", "te_fused_attn", NULL } },
	{ "Communication rccl/nccl", { "rccl", "nccl", NULL } },
};
#define NCATS (sizeof(cats) / sizeof(cats[0]))

const char *const jax_categories[] = { "GEMM", "FA BWD", "FA FWD", "FA V3", "Conv", "TE",
	"Communication rccl/nccl", NULL };

static const char *
cat_of(const char *s)
{
	size_t i, j;

	for (i = 0; i < NCATS; i++)
		for (j = 0; cats[i].kw[j] != NULL; j++)
			if (strstr(s, cats[i].kw[j]) != NULL)
				return cats[i].cat;
	return NULL;
}

const char *
jax_category(const char *name, const char *hlo_op)
{
	const char *c = cat_of(name), *h;

	/* an HLO op's category, when it has one, replaces the name's, except FA ones */
	if (hlo_op != NULL && *hlo_op != '\0' &&
	    (c == NULL || strncmp(c, "FA ", 3) != 0) && (h = cat_of(hlo_op)) != NULL)
		c = h;
	return c != NULL ? c : "Uncategorized Events/XLA";
}

/* The line's rewrites before TraceLens cuts it (§1.7): "),"->")", ", "->",", " %"->"%",
 * each over the whole text in turn. */
static void
rewrite(struct buf *b, const char *s)
{
	static const char *const from[3] = { "),", ", ", " %" };
	static const char *const to[3] = { ")", ",", "%" };
	struct buf t = BUF_INIT;
	size_t k;

	buf_reset(b);
	buf_adds(b, s);
	for (k = 0; k < 3; k++) {
		const char *p = b->p, *q;
		size_t fl = strlen(from[k]);

		buf_reset(&t);
		while ((q = strstr(p, from[k])) != NULL) {
			buf_add(&t, p, (size_t)(q - p));
			buf_adds(&t, to[k]);
			p = q + fl;
		}
		buf_adds(&t, p);
		buf_reset(b);
		buf_add(b, t.p, t.len);
	}
	buf_free(&t);
}

/* text's longest prefix of head followed by characters of class; NULL without head. */
static char *
cut(const char *text, const char *head, const char *class)
{
	size_t n = strlen(head);

	if (strncmp(text, head, n) != 0)
		return NULL;
	while (text[n] != '\0' && strchr(class, text[n]) != NULL)
		n++;
	return xstrndup(text, n);
}

#define ALNUM "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/* A rewritten fragment cut by TraceLens's regex. */
static char *
fragment(struct buf *b, const char *prefix, const char *val, const char *suffix,
    const char *head, const char *class)
{
	struct buf s = BUF_INIT;
	char *r;

	buf_adds(&s, prefix);
	buf_adds(&s, val);
	buf_adds(&s, suffix);
	rewrite(b, s.p);
	buf_free(&s);
	r = cut(b->p, head, class);
	return r;
}

static bool
shape_find(const char *t, struct jax_shape *s, size_t *end)
{
	size_t i;

	for (i = 0; t[i] != '\0'; i++) {
		size_t j = i, l, d0, d1, b0;

		if (!isalpha((unsigned char)t[i]) || (i > 0 && isalpha((unsigned char)t[i - 1])))
			continue;
		while (isalpha((unsigned char)t[j]))
			j++;
		l = j;
		while (isdigit((unsigned char)t[j]))
			j++;
		if (j == l || t[j] != '[')
			continue;
		d0 = ++j;
		while (isdigit((unsigned char)t[j]) || t[j] == ',')
			j++;
		d1 = j;
		if (d1 == d0 || t[j] != ']' || t[j + 1] != '{')
			continue;
		j += 2;
		b0 = j;
		while (isdigit((unsigned char)t[j]) || t[j] == ',')
			j++;
		if (j == b0 || t[j] != '}')
			continue;
		if (l - i + (size_t)0 >= sizeof(s->dtype) - 4)
			continue;
		/* dtype: letters and digits up to '[' */
		memcpy(s->dtype, t + i, d0 - 1 - i);
		s->dtype[d0 - 1 - i] = '\0';
		s->nd = 0;
		for (j = d0; j < d1;) {
			if (t[j] == ',') {
				j++;
				continue;
			}
			if (s->nd < JAX_MAXDIMS)
				s->d[s->nd] = strtoll(t + j, NULL, 10);
			s->nd++;
			while (j < d1 && t[j] != ',')
				j++;
		}
		if (s->nd > JAX_MAXDIMS)
			continue;
		*end = j + 1;
		return true;
	}
	return false;
}

bool
jax_shape_match(const char *t, struct jax_shape *s)
{
	size_t end;

	return shape_find(t, s, &end);
}

static bool
has_kw(const char *s, const char *const *kw)
{
	for (; *kw != NULL; kw++)
		if (s != NULL && strstr(s, *kw) != NULL)
			return true;
	return false;
}

static const char *
model_of(const struct jax_tl *v)
{
	static const char *const gemm[] = { "matmul", "cublas", NULL };
	static const char *const tef[] = { "te_fused_attn_forward_ffi", NULL };
	static const char *const teb[] = { "te_fused_attn_backward_ffi", NULL };
	static const char *const conv[] = { "cudnn$convForward", "cudnn$convBiasActivationForward",
	    NULL };
	static const char *const convb[] = { "cudnn$convBackward", NULL };
	const char *t = v->target;

	if (!v->meta || v->nops == 0 || t == NULL)
		return "rest";
	if (has_kw(t, gemm) && strcasecmp(v->category, "GEMM") == 0)
		return "jax_gemm";
	if (has_kw(t, tef))
		return "jax_te_fused_attn";
	if (has_kw(t, teb))
		return "jax_te_fused_attn_bwd";
	if (has_kw(t, conv) && strcasecmp(v->category, "Conv") == 0)
		return "jax_conv";
	if (has_kw(t, convb) && strcasecmp(v->category, "Conv") == 0)
		return "jax_conv_bwd";
	return "rest";
}

void
jax_tl_read(struct rec *r, struct jax_tl *v)
{
	const char *name = rec_str(r, "name", NULL), *s;
	bool listed = false;
	struct buf b = BUF_INIT, t = BUF_INIT;
	struct rec_elems e;
	size_t i;

	memset(v, 0, sizeof(*v));
	v->category = jax_category(name ? name : "", rec_str(r, "hlo_op", NULL));
	/* metadata only through the launch link, for an instruction whose line is read */
	(void)rec_bool(r, "listed", &listed);
	v->meta = listed && rec_has(r, "launch_start_ns") && rec_has(r, "hlo_op");
	if (v->meta) {
		if ((s = rec_str(r, "custom_call_target", NULL)) != NULL)
			v->target = fragment(&b, "custom_call_target=\"", s, "\",",
			    "custom_call_target=\"", ALNUM "_=\"()/ @.$-");
		if ((s = rec_str(r, "hlo_metadata", NULL)) != NULL)
			v->metadata = fragment(&b, "", s, "", "metadata={", ALNUM "_=\"()/ @.-");
		if ((s = rec_str(r, "backend_config", NULL)) != NULL && *s == '{')
			v->config = fragment(&b, "backend_config=", s, "", "backend_config={",
			    ALNUM "_=\"()/ @.,:[]{}-");
		if ((s = rec_str(r, "out_text", NULL)) != NULL) {
			rewrite(&b, s);
			v->output = xstrndup(b.p, strcspn(b.p, " "));
		}
		if (rec_elems(r, "in", &e))
			for (i = 0; rec_elem_next(&e); i++) {
				const char *nm = rec_elem_str(&e, "name", NULL);
				const char *tx = rec_elem_str(&e, "text", NULL);
				bool lst = false;

				(void)rec_elem_bool(&e, "listed", &lst);
				buf_reset(&t);
				if (i > 0 && i % 5 == 0)
					buf_printf(&t, "/*index=%zu*/", i);
				if (t.len == 0 && lst && tx != NULL) {
					/* the operand's line was read: its output token */
					rewrite(&b, tx);
					buf_add(&t, b.p, strcspn(b.p, " "));
				} else
					buf_printf(&t, "%%%s", nm ? nm : "");
				v->ops = xreallocarray(v->ops, v->nops + 1, sizeof(*v->ops));
				v->ops[v->nops++] = xstrdup(t.p);
			}
		if (v->nops == 0) {
			/* "op()" splits into one empty string */
			v->ops = xreallocarray(NULL, 1, sizeof(*v->ops));
			v->ops[v->nops++] = xstrdup("");
		}
		v->in = xreallocarray(NULL, v->nops, sizeof(*v->in));
		for (i = 0; i < v->nops; i++)
			if (v->ops[i][0] != '\0' && jax_shape_match(v->ops[i], &v->in[v->nin]))
				v->nin++;
	}
	v->model = model_of(v);
	buf_free(&b);
	buf_free(&t);
}

void
jax_tl_free(struct jax_tl *v)
{
	size_t i;

	free(v->target);
	free(v->metadata);
	free(v->config);
	free(v->output);
	for (i = 0; i < v->nops; i++)
		free(v->ops[i]);
	free(v->ops);
	free(v->in);
	memset(v, 0, sizeof(*v));
}

/* --- perf models (§6) ------------------------------------------------------------ */

static int
bpe_of(const char *dt)
{
	if (strcmp(dt, "f32") == 0)
		return 4;
	if (strcmp(dt, "f16") == 0 || strcmp(dt, "bf16") == 0)
		return 2;
	if (strcmp(dt, "f8") == 0 || strcmp(dt, "fp8") == 0)
		return 1;
	return 0;
}

static double
prod(const long long *d, int n)
{
	double p = 1;
	int i;

	for (i = 0; i < n; i++)
		p *= (double)d[i];
	return p;
}

static void
dims_json(struct buf *b, const long long *d, int n)
{
	int i;

	buf_addc(b, '[');
	for (i = 0; i < n; i++)
		buf_printf(b, "%s%lld", i ? "," : "", d[i]);
	buf_addc(b, ']');
}

static int
conv_model(const struct jax_tl *v, struct jax_perf *p, struct buf *err)
{
	struct jax_shape out;
	const struct jax_shape *x, *w;
	long long f[JAX_MAXDIMS];
	int nf, bpe, bias, i;
	double po;

	if (v->nin < 2 || v->output == NULL || !jax_shape_match(v->output, &out)) {
		buf_adds(err, "jax_conv: fewer than two operand shapes or no output shape");
		return -1;
	}
	x = &v->in[0];
	w = &v->in[1];
	if (x->nd < 3 || x->nd > 5) {
		buf_printf(err, "jax_conv: input of rank %d (3 to 5 expected)", x->nd);
		return -1;
	}
	/* QUIRK: the filter shape is the kernel operand without its first two dims */
	nf = w->nd > 2 ? w->nd - 2 : 0;
	for (i = 0; i < nf; i++)
		f[i] = w->d[i + 2];
	bias = v->nin == 3;
	bpe = bpe_of(x->dtype);
	po = prod(out.d, out.nd);
	p->flops = 2 * (nf > 1 ? prod(f + 1, nf - 1) : 1) * po + (bias ? po : 0);
	p->bytes = bpe ? (prod(x->d, x->nd) + prod(f, nf) + (bias && out.nd > 1 ?
	    (double)out.d[1] : 0) + po) * bpe : NAN;
	buf_printf(&p->params, "{\"convNd\":\"conv%dd\",\"input_shape\":", x->nd - 2);
	dims_json(&p->params, x->d, x->nd);
	buf_adds(&p->params, ",\"filter_shape\":");
	dims_json(&p->params, f, nf);
	buf_adds(&p->params, ",\"output_shape\":");
	dims_json(&p->params, out.d, out.nd);
	buf_printf(&p->params, ",\"bias\":%s,\"bytes_per_element\":", bias ? "true" : "false");
	if (bpe)
		buf_printf(&p->params, "%d", bpe);
	else
		buf_adds(&p->params, "null");
	buf_adds(&p->params, ",\"transposed_conv\":false}");
	return 0;
}

/* The first digit of [0-2] after key and an optional '"' (TraceLens's regexes). */
static int
digit_after(const char *s, const char *key, const char *ok)
{
	const char *q = s ? strstr(s, key) : NULL;

	if (q == NULL)
		return -1;
	q += strlen(key);
	if (*q == '"')
		q++;
	return *q != '\0' && strchr(ok, *q) != NULL ? *q - '0' : -1;
}

static bool
drop_first(long long *d, int *n, long long val)
{
	int i;

	for (i = 0; i < *n; i++)
		if (d[i] == val) {
			memmove(d + i, d + i + 1, (size_t)(*n - i - 1) * sizeof(*d));
			(*n)--;
			return true;
		}
	return false;
}

static const char *
gemm_dtype(const char *t)
{
	if (strncmp(t, "bf16", 4) == 0)
		return "bf16";
	if (strncmp(t, "f16", 3) == 0)
		return "f16";
	if (strncmp(t, "f32", 3) == 0)
		return "f32";
	if (strncmp(t, "f8", 2) == 0)
		return "f8";
	if (strncmp(t, "fp8", 3) == 0)
		return "fp8";
	return NULL;
}

/*
 * TraceLens's gemm_name_parser on the kernel's name (T4.2): a ROCm Tensile name (C, A and
 * B each followed by three axis letters, anywhere) gives A's and B's transposition by
 * _Ailk_/_Alik_ and _Bljk_/_Bjlk_ (null when neither); a CUDA nvjet name the first two
 * letters of its last '_' token. 1 with ta, tb set (-1 for null); 0 when the name does
 * not parse; -1 when an nvjet name's last token is shorter than two (TraceLens raises).
 */
static int
gemm_transpose(const char *k, int *ta, int *tb)
{
	const char *p, *last;
	int j, ok;

	*ta = *tb = -1;
	for (p = k; (p = strchr(p, 'C')) != NULL; p++) {
		for (j = 0, ok = 1; j < 14 && ok; j++) {
			if (j == 0 || j == 5 || j == 10)
				ok = p[j] == "C____A____B"[j];
			else if (j == 4 || j == 9)
				ok = p[j] == '_';
			else
				ok = p[j] >= 'a' && p[j] <= 'z';
		}
		if (ok)
			break;
	}
	if (p != NULL) {
		if (strstr(k, "_Ailk_") != NULL)
			*ta = 0;
		else if (strstr(k, "_Alik_") != NULL)
			*ta = 1;
		if (strstr(k, "_Bljk_") != NULL)
			*tb = 0;
		else if (strstr(k, "_Bjlk_") != NULL)
			*tb = 1;
		return 1;
	}
	if (strncmp(k, "nvjet", 5) != 0)
		return 0;
	last = strrchr(k, '_');
	last = last != NULL ? last + 1 : k;
	if (strlen(last) < 2)
		return -1;
	*ta = last[0] == 'T';
	*tb = last[1] == 'T';
	return 1;
}

/* The backend config's beta (0 or 1), its contracting dimensions and whether its
 * epilogue adds a bias; -1 with a message in err when one is missing. */
static int
gemm_config(const char *cfg, int *beta, int *ld, int *rd, int *bias, struct buf *err)
{
	const char *q;

	*bias = cfg != NULL && strstr(cfg, "\"epilogue\":\"BIAS\"") != NULL;
	q = cfg ? strstr(cfg, "\"beta\":") : NULL;
	if (q == NULL || (q[7] != '0' && q[7] != '1') || q[8] != ',') {
		buf_adds(err, "jax_gemm: no beta of 0 or 1 in the backend config");
		return -1;
	}
	*beta = q[7] - '0';
	*ld = digit_after(cfg, "\"lhs_contracting_dimensions\":[", "012");
	*rd = digit_after(cfg, "\"rhs_contracting_dimensions\":[", "012");
	if (*ld < 0 || *rd < 0) {
		buf_adds(err, "jax_gemm: no contracting dimensions in the backend config");
		return -1;
	}
	return 0;
}

/* The result, the first non-scalar float tensor of the result tuple, and the operands
 * with a shape (op[0], op[1]: A and B; two to four, four only with a bias); -1 with a
 * message in err when they are not so. */
static int
gemm_shapes(const struct jax_tl *v, int bias, struct jax_shape *out,
    const struct jax_shape **op, struct buf *err)
{
	const char *o = v->output, *q;
	bool found = false;
	int i, nops = 0;
	size_t e;

	if (o == NULL || *o != '(') {
		buf_adds(err, "jax_gemm: the result is not a tuple");
		return -1;
	}
	for (q = o; !found && shape_find(q, out, &e); q += e)
		found = gemm_dtype(out->dtype) != NULL && out->nd > 0;
	if (!found) {
		buf_adds(err, "jax_gemm: no float tensor in the result");
		return -1;
	}
	for (i = 0; i < (int)v->nin; i++)
		if (v->in[i].nd > 0) {
			if (nops == 4) {
				nops++;
				break;
			}
			op[nops++] = &v->in[i];
		}
	if (nops == 0 || nops > 4 || (nops == 4 && !bias) || nops < 2) {
		buf_printf(err, "jax_gemm: %d operand shapes", nops);
		return -1;
	}
	return 0;
}

/* B, M, N, K (m[0..3]) of A and B contracted over their dimensions ld and rd into out,
 * whose text is o; -1 with a message in err when the dimensions disagree. */
static int
gemm_sizes(const struct jax_shape *opa, const struct jax_shape *opb,
    const struct jax_shape *out, int ld, int rd, const char *o, long long m[4],
    struct buf *err)
{
	long long a[JAX_MAXDIMS], b[JAX_MAXDIMS], c[JAX_MAXDIMS], B = 1, K;
	int na = opa->nd, nb = opb->nd, nc = out->nd;

	if (na > 3 || nb > 3 || nc > 3) {
		buf_adds(err, "jax_gemm: tensor size is more than 3");
		return -1;
	}
	memcpy(a, opa->d, sizeof(a));
	memcpy(b, opb->d, sizeof(b));
	memcpy(c, out->d, sizeof(c));
	if (ld >= na || rd >= nb || a[ld] != b[rd]) {
		buf_adds(err, "jax_gemm: contracting dimensions disagree");
		return -1;
	}
	K = a[ld];
	drop_first(a, &na, K);
	drop_first(b, &nb, K);
	if (nc > 2) {
		B = c[0];
		drop_first(a, &na, B);
		drop_first(b, &nb, B);
	}
	m[0] = B;
	m[3] = K;
	/* QUIRK: unless the layout says "0,1", M and N swap against HLO's meaning */
	if (strstr(o, "0,1") != NULL) {
		m[2] = nb > 0 ? b[0] : 1;
		m[1] = na > 0 ? a[0] : 1;
	} else {
		m[2] = na > 0 ? a[0] : 1;
		m[1] = nb > 0 ? b[0] : 1;
	}
	return 0;
}

/* The model's params: sizes, bias, dtypes and the transposition the kernel's name
 * gives; -1 with a message in err when an nvjet name has no flags. */
static int
gemm_params(struct jax_perf *p, const char *kname, const long long m[4], int beta,
    const char *type, struct buf *err)
{
	int ta, tb, tr;

	if ((tr = gemm_transpose(kname != NULL ? kname : "", &ta, &tb)) < 0) {
		buf_printf(err, "jax_gemm: kernel %s: no transpose flags", kname);
		return -1;
	}
	buf_printf(&p->params, "{\"B\":%lld,\"M\":%lld,\"N\":%lld,\"K\":%lld,\"bias\":%s,"
	    "\"dtype_A_B\":[\"%s\",\"%s\"],\"simulation_dtype\":\"%s\"", m[0], m[1], m[2],
	    m[3], beta ? "true" : "false", type, type,
	    strcmp(type, "f32") == 0 ? "fp32" : strcmp(type, "f16") == 0 ? "fp16" :
	    strcmp(type, "bf16") == 0 ? "bf16" : "fp8");
	if (tr > 0)
		/* the kernel's own name: TraceLens's kernel_details hold it alone */
		buf_printf(&p->params, ",\"transpose\":[%s,%s]", ta < 0 ? "null" : ta ?
		    "true" : "false", tb < 0 ? "null" : tb ? "true" : "false");
	buf_addc(&p->params, '}');
	return 0;
}

static int
gemm_model(const struct jax_tl *v, const char *kname, struct jax_perf *p, struct buf *err)
{
	const char *type;
	struct jax_shape out;
	const struct jax_shape *op[4];
	long long m[4], B, M, N, K;
	int beta, ld, rd, bias, bpe;

	if (gemm_config(v->config, &beta, &ld, &rd, &bias, err) != 0 ||
	    gemm_shapes(v, bias, &out, op, err) != 0 ||
	    gemm_sizes(op[0], op[1], &out, ld, rd, v->output, m, err) != 0)
		return -1;
	B = m[0];
	M = m[1];
	N = m[2];
	K = m[3];
	type = v->target != NULL && strstr(v->target, "f8") != NULL ? "fp8" :
	    gemm_dtype(op[0]->dtype);
	if (type == NULL) {
		buf_printf(err, "jax_gemm: operand type %s", op[0]->dtype);
		return -1;
	}
	bpe = bpe_of(type);
	p->flops = (double)B * (2.0 * M * N * K + (beta ? (double)M * N : 0));
	p->bytes = bpe ? (double)B * ((double)M * K + (double)K * N + (double)M * N +
	    (beta ? (double)N : 0)) * bpe : NAN;
	return gemm_params(p, kname, m, beta, type, err);
}

/* TraceLens's torch name of a JAX dtype (dtype_jax2torch), or NULL. */
static const char *
torch_dtype(const char *t)
{
	static const char *const map[][2] = { { "f32", "float" }, { "f64", "double" },
	    { "f16", "c10::half" }, { "bf16", "c10::bfloat16" },
	    { "f8", "c10::float8_e4m3fnuz" }, { "fp8", "fp8" } };
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcasecmp(t, map[i][0]) == 0)
			return map[i][1];
	return NULL;
}

/*
 * jax_te_fused_attn (docs/jax.md §6.4): q, k, v the first three operand shapes in BSHD,
 * TraceLens's SDPA figures (T4.4) with causal False and flash_impl True; a backward
 * custom call (te_fused_attn_backward_ffi) takes the backward figures with the same
 * class. TE's packed BS3HD qkv (one [B,S,3,H,D] operand, then empty ones) fails as in
 * TraceLens.
 */
static int
te_model(const struct jax_tl *v, bool bwd, struct jax_perf *p, struct buf *err)
{
	const struct jax_shape *q, *k, *w;
	double B, NQ, HQ, NKV, HKV, dqk, dv, f, e;
	const char *t0, *t1;
	int i, bpe;

	for (i = 0; i < 3; i++)
		if ((size_t)i >= v->nin || v->in[i].nd < 4) {
			buf_printf(err, "%s: operand %d is not a BSHD tensor (TE's packed qkv "
			    "layout)", v->model, i);
			return -1;
		}
	q = &v->in[0];
	k = &v->in[1];
	w = &v->in[2];
	if (q->d[0] != k->d[0] || q->d[0] != w->d[0] || k->d[2] != w->d[2] ||
	    k->d[1] != w->d[1] || q->d[3] != k->d[3]) {
		buf_printf(err, "%s: q, k and v do not agree on batch, heads, length or head "
		    "size", v->model);
		return -1;
	}
	if ((bpe = bpe_of(q->dtype)) == 0) {
		buf_printf(err, "%s: no bytes per element for %s", v->model, q->dtype);
		return -1;
	}
	B = (double)q->d[0];
	NQ = (double)q->d[1];
	HQ = (double)q->d[2];
	dqk = (double)q->d[3];
	NKV = (double)k->d[1];
	HKV = (double)k->d[2];
	dv = (double)w->d[3];
	if (!bwd) {
		f = B * HQ * (2 * NQ * NKV * dqk) + B * HQ * (2 * NQ * dv * NKV);
		e = B * NQ * HQ * dqk + B * NKV * HKV * dqk + B * NKV * HKV * dv +
		    B * NQ * HQ * dv;
	} else {
		/* H_Q // H_KV as Python's floor division of positive ints */
		double g = HKV > 0 ? (double)(q->d[2] / k->d[2]) : 0;

		f = B * HQ * (2 * NQ * NKV * dqk) +
		    B * HQ * (2 * NKV * NQ * dv) + B * NKV * dv * (g - 1) +
		    B * HQ * (2 * NQ * NKV * dv) +
		    B * HQ * (2 * NQ * NKV * dqk) +
		    B * HQ * (2 * NKV * NQ * dqk) + B * NKV * dqk * (g - 1);
		e = B * NQ * HQ * dqk + B * NKV * HKV * dqk + B * NKV * HKV * dv +
		    B * NQ * HQ * dv + B * NQ * HQ * dqk + B * NKV * HKV * dqk +
		    B * NKV * HKV * dv;
	}
	p->flops = f;
	p->bytes = e * bpe;
	t0 = torch_dtype(q->dtype);
	t1 = torch_dtype(k->dtype);
	buf_printf(&p->params, "{\"B\":%lld,\"N_Q\":%lld,\"H_Q\":%lld,\"N_KV\":%lld,"
	    "\"H_KV\":%lld,\"d_h_qk\":%lld,\"d_h_v\":%lld,\"bias\":[", q->d[0], q->d[1],
	    q->d[2], k->d[1], k->d[2], q->d[3], w->d[3]);
	if (v->nin > 3)
		dims_json(&p->params, v->in[3].d, v->in[3].nd);
	buf_adds(&p->params, "],\"dtype_A_B\":[");
	buf_printf(&p->params, t0 ? "\"%s\"," : "null,", t0);
	buf_printf(&p->params, t1 ? "\"%s\"" : "null", t1);
	buf_printf(&p->params, "],\"causal\":false,\"flash_impl\":true,\"fused\":true,"
	    "\"bytes_per_element\":%d}", bpe);
	return 0;
}

int
jax_perf_run(const struct jax_tl *v, const char *kname, struct jax_perf *p, struct buf *err)
{
	p->flops = p->bytes = NAN;
	buf_reset(&p->params);
	if (strcmp(v->model, "jax_conv") == 0)
		return conv_model(v, p, err);
	if (strcmp(v->model, "jax_gemm") == 0)
		return gemm_model(v, kname, p, err);
	if (strncmp(v->model, "jax_te_fused_attn", 17) == 0)
		return te_model(v, strcmp(v->model, "jax_te_fused_attn_bwd") == 0, p, err);
	if (strcmp(v->model, "jax_conv_bwd") == 0) {
		buf_adds(err, "jax_conv_bwd: not built in ttp yet");
		return -1;
	}
	return 1;
}

/* --- beyond TraceLens: HLO figures and the device's roofline ----------------------- */

/* Dense matrix FLOPs per clock per compute unit (CU, SM), by vendor and compute
 * capability: f32, f16, bf16, fp8 (0: none). The vendors' peak figures divided by their
 * clock and unit count (MI300X 1307.4 TFLOP/s bf16 = 2100 MHz x 304 CUs x 2048). */
static const struct {
	bool	amd;
	int	major, minor;
	double	per[4];
} rates[] = {
	{ true, 9, 0, { 256, 1024, 1024, 0 } },		/* MI200 (gfx90a) */
	{ true, 9, 4, { 256, 2048, 2048, 4096 } },	/* MI300X, MI325X (gfx942) */
	{ true, 9, 5, { 256, 4096, 4096, 8192 } },	/* MI350X, MI355X (gfx950) */
	{ false, 7, 0, { 128, 1024, 0, 0 } },		/* V100 */
	{ false, 8, 0, { 128, 2048, 2048, 0 } },	/* A100 */
	{ false, 9, 0, { 256, 4096, 4096, 8192 } },	/* H100, H200 */
};

void
jax_devs_read(struct jax_devs *d, struct rec *r)
{
	struct trace_info ti;
	struct rec_elems e;
	long long pid, major, minor;
	double clock, cores, bw, v;
	const char *vendor, *type;
	size_t i;
	int k;

	/* the devices: trace_read has them as text, rec_elems one by one */
	if (!trace_read(r, &ti) || ti.devices == NULL || !rec_elems(r, "devices", &e))
		return;
	while (rec_elem_next(&e)) {
		struct jax_dev dv;

		memset(&dv, 0, sizeof(dv));
		if (!rec_elem_int(&e, "pid", &pid))
			continue;
		dv.pid = pid;
		type = rec_elem_str(&e, "type", NULL);
		dv.tpu = type != NULL && strcmp(type, "TPU") == 0;
		if (dv.tpu) {
			/* its own peaks, whatever the dtype */
			if (rec_elem_num(&e, "peak_tflops", &v) && v > 0)
				for (k = 0; k < 4; k++)
					dv.tflops[k] = v;
			if (rec_elem_num(&e, "peak_hbm_gbps", &v) && v > 0)
				dv.tbps = v / 1e3;
		} else {
			vendor = rec_elem_str(&e, "vendor", NULL);
			if (rec_elem_num(&e, "bandwidth", &bw) && bw > 0)
				dv.tbps = bw / 1e12;
			if (rec_elem_num(&e, "clock_khz", &clock) && rec_elem_num(&e, "cores",
			    &cores) && rec_elem_int(&e, "compute_cap_major", &major) &&
			    rec_elem_int(&e, "compute_cap_minor", &minor))
				for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
					if (rates[i].amd == (vendor != NULL &&
					    strcasecmp(vendor, "AMD") == 0) &&
					    rates[i].major == major && rates[i].minor == minor)
						for (k = 0; k < 4; k++)
							dv.tflops[k] = clock * 1e3 * cores *
							    rates[i].per[k] / 1e12;
		}
		d->d = xreallocarray(d->d, d->n + 1, sizeof(*d->d));
		d->d[d->n++] = dv;
	}
}

void
jax_devs_free(struct jax_devs *d)
{
	free(d->d);
	d->d = NULL;
	d->n = 0;
}

/* The rate index of an HLO dtype (f32 0, f16 1, bf16 2, fp8 3), -1 for others. */
static int
rate_of(const char *dt)
{
	if (dt == NULL)
		return -1;
	if (strcmp(dt, "f32") == 0)
		return 0;
	if (strcmp(dt, "f16") == 0)
		return 1;
	if (strcmp(dt, "bf16") == 0)
		return 2;
	if (strncmp(dt, "f8", 2) == 0)
		return 3;
	return -1;
}

static int
hlo_bpe(const char *dt)
{
	static const struct { const char *t; int n; } w[] = {
		{ "pred", 1 }, { "s8", 1 }, { "u8", 1 }, { "s16", 2 }, { "u16", 2 },
		{ "f16", 2 }, { "bf16", 2 }, { "s32", 4 }, { "u32", 4 }, { "f32", 4 },
		{ "s64", 8 }, { "u64", 8 }, { "f64", 8 }
	};
	size_t i;

	if (dt == NULL)
		return 0;
	if (strncmp(dt, "f8", 2) == 0)
		return 1;
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (strcmp(dt, w[i].t) == 0)
			return w[i].n;
	return 0;
}

static const char *const spec_names[4] = { "matrix_fp32", "matrix_fp16", "matrix_bf16",
	"matrix_fp8" };

/* The roofline of flops and bytes over ps picoseconds on device dv, rate index ri. */
static void
roof_keys(struct rec *r, const struct jax_dev *dv, int ri, double flops, double bytes,
    double ps)
{
	double peak = dv != NULL && ri >= 0 ? dv->tflops[ri] : 0, bw = dv ? dv->tbps : 0;
	double ai, roof;

	if (ri >= 0 && (dv == NULL || !dv->tpu))	/* no device: a GPU kernel record */
		rec_set_str(r, "compute_spec", spec_names[ri]);
	if (peak > 0)
		rec_set_num(r, "peak_tflops", peak);
	if (bw > 0)
		rec_set_num(r, "peak_tbps", bw);
	if (ps > 0) {
		if (flops > 0)
			rec_set_num(r, "hlo_tflops", flops / ps);
		if (bytes > 0)
			rec_set_num(r, "hlo_tbps", bytes / ps);
	}
	if (peak <= 0 || bw <= 0 || !(bytes > 0) || !(flops > 0))
		return;
	ai = flops / bytes;
	roof = ai * bw < peak ? ai * bw : peak;
	rec_set_str(r, "roof", ai * bw < peak ? "memory" : "compute");
	rec_set_num(r, "roof_tflops", roof);
	if (ps > 0) {
		rec_set_num(r, "roof_pct", flops / ps / roof * 100);
		if (flops / ps > roof)
			rec_set_str(r, "model_unsure", "above the roofline: an instruction run as "
			    "several kernels gives each of them its whole cost");
	}
}

static const struct jax_dev *
dev_of(const struct jax_devs *d, struct rec *r)
{
	long long pid;
	size_t i;

	if (!rec_int(r, "pid", &pid))
		return NULL;
	for (i = 0; i < d->n; i++)
		if (d->d[i].pid == pid)
			return &d->d[i];
	return NULL;
}

static double
prodl(const long long *d, int n)
{
	double p = 1;
	int i;

	for (i = 0; i < n; i++)
		p *= (double)d[i];
	return p;
}

/* The duration in ps: ps when given, else ns * 1000. */
static double
dur_ps(struct rec *r)
{
	long long v;

	if (rec_int(r, "ps", &v))
		return (double)v;
	if (rec_int(r, "ns", &v) || rec_int(r, "device_ns", &v))
		return (double)v * 1000;
	return 0;
}

void
jax_hlo_add(const struct jax_devs *d, struct rec *r)
{
	const char *kind = rec_str(r, "kind", NULL), *op, *dt0 = NULL, *dt1 = NULL, *dto;
	const struct jax_dev *dv = dev_of(d, r);
	long long b, m, n, k, in[JAX_MAXDIMS], w[JAX_MAXDIMS], out[JAX_MAXDIMS];
	double flops, bytes;
	struct rec_elems e;
	int ni, nw, no, i;

	if (kind != NULL && strcmp(kind, "op") == 0) {
		/* a TPU op: XLA's cost model figures */
		if (rec_num(r, "flops", &flops) && rec_num(r, "bytes", &bytes) && dv != NULL)
			roof_keys(r, dv, 2, flops, bytes, dur_ps(r));
		return;
	}
	if (kind == NULL || strcmp(kind, "gpu") != 0 || (op = rec_str(r, "opcode", NULL)) == NULL)
		return;
	/* the operands' and the result's dtypes */
	if (rec_elems(r, "in", &e)) {
		for (i = 0; rec_elem_next(&e) && i < 2; i++) {
			if (i == 0)
				dt0 = rec_elem_str(&e, "dtype", NULL);
			else
				dt1 = rec_elem_str(&e, "dtype", NULL);
		}
	}
	dto = NULL;
	if (rec_elems(r, "out", &e) && rec_elem_next(&e))
		dto = rec_elem_str(&e, "dtype", NULL);
	if (rec_int(r, "B", &b) && rec_int(r, "M", &m) && rec_int(r, "N", &n) &&
	    rec_int(r, "K", &k)) {
		struct rec_strv gd;

		if (rec_strv(r, "gemm_dtypes", &gd) && gd.n == 2) {
			/* a fusion's dot: its own operands' dtypes */
			dt0 = gd.s[0];
			dt1 = gd.s[1];
		}
		flops = 2.0 * (double)b * (double)m * (double)n * (double)k;
		bytes = (double)b * ((double)m * (double)k * hlo_bpe(dt0) + (double)k *
		    (double)n * hlo_bpe(dt1) + (double)m * (double)n * hlo_bpe(dto));
		rec_set_str(r, "hlo_model", strcmp(op, "dot") == 0 ? "dot" :
		    strcmp(op, "fusion") == 0 ? "gemm_fusion" : "gemm");
	} else if (rec_has(r, "conv_kernel") && (ni = rec_dims(r, "in", 0, "shape", in,
	    JAX_MAXDIMS)) > 2 && (nw = rec_dims(r, "in", 1, "shape", w, JAX_MAXDIMS)) > 2 &&
	    (no = rec_dims(r, "out", 0, "shape", out, JAX_MAXDIMS)) > 2) {
		/* 2 x the output's elements x the kernel's input features and spatial
		 * extent (the kernel holds C_in / groups input features) */
		struct rec_elems c;
		long long v;
		int nk = 0;

		flops = 2.0 * prodl(out, no);
		if (!rec_elems(r, "conv_kernel", &c))
			return;
		while (rec_elem_next(&c)) {
			if (!rec_elem_int(&c, NULL, &v) || v <= 0)
				return;
			flops *= (double)v;
			nk++;
		}
		if (nk == 0)
			return;
		bytes = prodl(in, ni) * hlo_bpe(dt0) + prodl(w, nw) * hlo_bpe(dt1) +
		    prodl(out, no) * hlo_bpe(dto);
		rec_set_str(r, "hlo_model", "conv");
	} else
		return;
	rec_set_ifig(r, "hlo_flops", flops);
	if (bytes > 0) {
		rec_set_ifig(r, "hlo_bytes", bytes);
		rec_set_num(r, "hlo_intensity", flops / bytes);
	}
	roof_keys(r, dv, rate_of(dt0), flops, bytes, dur_ps(r));
}
