/* SPDX-License-Identifier: ISC */
/* jaxtl: TraceLens's view of a JAX kernel record, and its perf models (jax/jaxtl.h). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/rec.h"
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

static int
gemm_model(const struct jax_tl *v, struct jax_perf *p, struct buf *err)
{
	const char *cfg = v->config, *type, *q, *o;
	struct jax_shape out;
	long long a[JAX_MAXDIMS], b[JAX_MAXDIMS], c[JAX_MAXDIMS], B = 1, M, N, K;
	int na, nb, nc, beta, ld, rd, bias, bpe, i, nops = 0;
	const struct jax_shape *op[4];
	bool found = false;
	size_t e;

	bias = cfg != NULL && strstr(cfg, "\"epilogue\":\"BIAS\"") != NULL;
	q = cfg ? strstr(cfg, "\"beta\":") : NULL;
	if (q == NULL || (q[7] != '0' && q[7] != '1') || q[8] != ',') {
		buf_adds(err, "jax_gemm: no beta of 0 or 1 in the backend config");
		return -1;
	}
	beta = q[7] - '0';
	ld = digit_after(cfg, "\"lhs_contracting_dimensions\":[", "012");
	rd = digit_after(cfg, "\"rhs_contracting_dimensions\":[", "012");
	if (ld < 0 || rd < 0) {
		buf_adds(err, "jax_gemm: no contracting dimensions in the backend config");
		return -1;
	}
	/* the output: the first non-scalar float tensor of the result tuple */
	o = v->output;
	if (o == NULL || *o != '(') {
		buf_adds(err, "jax_gemm: the result is not a tuple");
		return -1;
	}
	for (q = o; !found && shape_find(q, &out, &e); q += e)
		found = gemm_dtype(out.dtype) != NULL && out.nd > 0;
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
	na = op[0]->nd;
	nb = op[1]->nd;
	nc = out.nd;
	if (na > 3 || nb > 3 || nc > 3) {
		buf_adds(err, "jax_gemm: tensor size is more than 3");
		return -1;
	}
	memcpy(a, op[0]->d, sizeof(a));
	memcpy(b, op[1]->d, sizeof(b));
	memcpy(c, out.d, sizeof(c));
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
	/* QUIRK: unless the layout says "0,1", M and N swap against HLO's meaning */
	if (strstr(o, "0,1") != NULL) {
		N = nb > 0 ? b[0] : 1;
		M = na > 0 ? a[0] : 1;
	} else {
		N = na > 0 ? a[0] : 1;
		M = nb > 0 ? b[0] : 1;
	}
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
	buf_printf(&p->params, "{\"B\":%lld,\"M\":%lld,\"N\":%lld,\"K\":%lld,\"bias\":%s,"
	    "\"dtype_A_B\":[\"%s\",\"%s\"],\"simulation_dtype\":\"%s\"}", B, M, N, K,
	    beta ? "true" : "false", type, type,
	    strcmp(type, "f32") == 0 ? "fp32" : strcmp(type, "f16") == 0 ? "fp16" :
	    strcmp(type, "bf16") == 0 ? "bf16" : "fp8");
	return 0;
}

int
jax_perf_run(const struct jax_tl *v, const char *kname, struct jax_perf *p, struct buf *err)
{
	(void)kname;
	p->flops = p->bytes = NAN;
	buf_reset(&p->params);
	if (strcmp(v->model, "jax_conv") == 0)
		return conv_model(v, p, err);
	if (strcmp(v->model, "jax_gemm") == 0)
		return gemm_model(v, p, err);
	if (strncmp(v->model, "jax_te_fused_attn", 17) == 0) {
		int i;

		/* q, k, v in BSHD; TE's packed BS3HD qkv leaves k and v empty */
		for (i = 0; i < 3; i++)
			if ((size_t)i >= v->nin || v->in[i].nd != 4) {
				buf_printf(err, "%s: operand %d is not a BSHD tensor (TE's packed "
				    "qkv layout)", v->model, i);
				return -1;
			}
		buf_printf(err, "%s: not built in ttp yet", v->model);
		return -1;
	}
	if (strcmp(v->model, "jax_conv_bwd") == 0) {
		buf_adds(err, "jax_conv_bwd: not built in ttp yet");
		return -1;
	}
	return 1;
}
