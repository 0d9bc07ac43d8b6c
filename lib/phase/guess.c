/* SPDX-License-Identifier: ISC */
/*
 * guess: TraceLens's prefill/decode heuristics (see guess.h). The keyword lists,
 * weights and quantiles are those of tree_perf.py at the branch commit the spec names
 * (d8acb562); the comments name the function each rule comes from.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "phase/guess.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static bool
has(const char *s, size_t n, const char *pat)
{
	return memmem(s, n, pat, strlen(pat)) != NULL;
}

static bool
any(const char *s, size_t n, const char *const *pats, size_t npats)
{
	size_t i;

	for (i = 0; i < npats; i++)
		if (has(s, n, pats[i]))
			return true;
	return false;
}

/* The regular expression a.*b on one line: some a, then some b after it. */
static bool
then(const char *s, size_t n, const char *a, const char *b)
{
	const char *p = memmem(s, n, a, strlen(a));

	if (p == NULL)
		return false;
	p += strlen(a);
	return memmem(p, n - (size_t)(p - s), b, strlen(b)) != NULL;
}

static char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

size_t
guess_text(char *dst, const char *const *names, const size_t *lens, size_t n)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		if (i > 0)
			dst[k++] = ' ';
		for (j = 0; j < lens[i]; j++)
			dst[k++] = lower(names[i][j]);
	}
	return k;
}

static bool
isdig(char c)
{
	return c >= '0' && c <= '9';
}

/* re.findall(r'sl(\d+)|seqlen[_\s]?(\d+)|seq(\d+)') over the text; zeros are skipped
 * (TraceLens keeps a match only if its number is truthy). GL_DECODE when the mean of
 * the numbers is 1, GL_PREFILL when it is above 10, else GL_MIXED. */
static enum guess_label
seqlen(const char *s, size_t n)
{
	double sum = 0;
	size_t i = 0, count = 0;

	while (i < n) {
		size_t d = 0, e;

		if (n - i >= 3 && memcmp(s + i, "sl", 2) == 0 && isdig(s[i + 2]))
			d = i + 2;
		else if (n - i >= 7 && memcmp(s + i, "seqlen", 6) == 0 &&
		    (isdig(s[i + 6]) || ((s[i + 6] == '_' || s[i + 6] == ' ' ||
		    s[i + 6] == '\t' || s[i + 6] == '\n' || s[i + 6] == '\r' ||
		    s[i + 6] == '\f' || s[i + 6] == '\v') && n - i >= 8 && isdig(s[i + 7]))))
			d = isdig(s[i + 6]) ? i + 6 : i + 7;
		else if (n - i >= 4 && memcmp(s + i, "seq", 3) == 0 && isdig(s[i + 3]))
			d = i + 3;
		if (d == 0) {
			i++;
			continue;
		}
		for (e = d; e < n && isdig(s[e]); e++)
			;
		{
			double v = 0;
			size_t k;

			for (k = d; k < e; k++)
				v = v * 10 + (s[k] - '0');
			if (v != 0) {
				sum += v;
				count++;
			}
		}
		i = e;
	}
	if (count == 0)
		return GL_MIXED;
	if (sum / (double)count == 1)
		return GL_DECODE;
	if (sum / (double)count > 10)
		return GL_PREFILL;
	return GL_MIXED;
}

/* detect_inference_phase ("gemm_params"). 'paged_attention.*decode' is a substring
 * test there, so it only matches that literal text. */
static enum guess_label
gemm_params(const struct guess_row *r, long long threshold)
{
	static const char *const pre[] = {
		"prefill", "chunked_prefill", "batch_prefill", "prefill_attention"
	};
	static const char *const dec[] = {
		"decode", "batch_decode", "continuous_batch", "decode_attention",
		"paged_attention.*decode", "decode_kernel"
	};
	bool p = any(r->text, r->textlen, pre, N(pre));
	bool d = any(r->text, r->textlen, dec, N(dec));

	if (p && d)
		return GL_MIXED;
	if (p)
		return GL_PREFILL;
	if (d)
		return GL_DECODE;
	if (r->m > 0)
		return r->m > threshold ? GL_PREFILL : GL_DECODE;
	return GL_MIXED;
}

/* _detect_by_kernel_names: prefill keywords win over decode ones. */
static enum guess_label
kernel_names(const struct guess_row *r)
{
	static const char *const pre[] = {
		"prefill", "context", "prompt", "chunked_prefill", "batch_prefill",
		"context_attention", "prompt_attention", "context_phase", "initialization",
		"first_token"
	};
	static const char *const dec[] = {
		"decode", "generation", "autoregressive", "batch_decode", "continuous_batch",
		"paged_attention", "kv_cache", "reshape_and_cache", "generation_phase",
		"incremental", "single_token", "_decode_", "decode_kernel"
	};
	enum guess_label l = seqlen(r->text, r->textlen);

	if (l != GL_MIXED)
		return l;
	if (any(r->text, r->textlen, pre, N(pre)))
		return GL_PREFILL;
	if (any(r->text, r->textlen, dec, N(dec)))
		return GL_DECODE;
	return GL_MIXED;
}

/* The op name alone, lower-cased, for the rules that read only the name. */
struct lname {
	char	buf[512];
	size_t	len;
	bool	cut;	/* longer than buf: falls back to a heap copy */
	char	*p;
};

static void
lname_init(struct lname *l, const char *s, size_t n)
{
	size_t i;

	l->cut = n > sizeof(l->buf);
	l->p = l->cut ? xmalloc(n) : l->buf;
	for (i = 0; i < n; i++)
		l->p[i] = lower(s[i]);
	l->len = n;
}

static void
lname_free(struct lname *l)
{
	if (l->cut)
		free(l->p);
}

/* _detect_by_attention_patterns. Its sequence-length rule reads Input Dims entries,
 * which are shapes, as numbers, and so never fires. */
static enum guess_label
attention(const struct guess_row *r)
{
	static const char *const dec[] = {
		"paged_attention", "kv_cache", "reshape_and_cache", "batch_decode",
		"decode_attention"
	};
	static const char *const pre[] = {
		"prefill_attention", "chunked_prefill", "batch_prefill"
	};
	static const char *const att[] = { "attention", "attn", "sdpa" };
	struct lname l;
	enum guess_label g = GL_MIXED;

	lname_init(&l, r->name, r->namelen);
	if (any(l.p, l.len, att, N(att))) {
		if (any(l.p, l.len, dec, N(dec)))
			g = GL_DECODE;
		else if (any(l.p, l.len, pre, N(pre)))
			g = GL_PREFILL;
	}
	lname_free(&l);
	return g;
}

/* _detect_by_framework_apis: vLLM, SGLang, TGI, TensorRT-LLM name patterns. */
static enum guess_label
framework(const struct guess_row *r)
{
	static const char *const vllm[] = {
		"paged_attention", "reshape_and_cache", "batch_decode"
	};
	static const char *const sgl[] = { "radix_attention", "prefix_cache", "tree_attention" };
	static const char *const tgi[] = { "continuous_batch", "decode_kernel", "token_generation" };
	static const char *const trt[] = { "context_phase", "generation_phase", "mha_", "mlp_" };
	struct lname l;
	const char *s;
	size_t n;
	enum guess_label g = GL_MIXED;

	lname_init(&l, r->name, r->namelen);
	s = l.p;
	n = l.len;
	if (has(r->name, r->namelen, "vllm::") || any(s, n, vllm, N(vllm))) {
		if (has(s, n, "decode") || has(s, n, "cache"))
			g = GL_DECODE;
		else if (has(s, n, "prefill"))
			g = GL_PREFILL;
	} else if (has(r->name, r->namelen, "sglang::") || any(s, n, sgl, N(sgl))) {
		if (has(s, n, "decode") || has(s, n, "cache"))
			g = GL_DECODE;
		else if (has(s, n, "prefill"))
			g = GL_PREFILL;
	} else if (has(r->name, r->namelen, "tgi::") || any(s, n, tgi, N(tgi))) {
		if (has(s, n, "decode") || has(s, n, "generation"))
			g = GL_DECODE;
		else if (has(s, n, "prefill") || has(s, n, "encode"))
			g = GL_PREFILL;
	} else if (any(s, n, trt, N(trt))) {
		if (has(s, n, "generation") || has(s, n, "decode"))
			g = GL_DECODE;
		else if (has(s, n, "context") || has(s, n, "prefill"))
			g = GL_PREFILL;
	}
	lname_free(&l);
	return g;
}

/* detect_inference_phase_union's votes; a tie or fewer than 2 votes is GL_MIXED. */
static enum guess_label
union_votes(const struct guess_row *r, long long threshold)
{
	static const char *const pre_x[] = {
		"prefill", "chunked_prefill", "batch_prefill", "prefill_attention",
		"context_attention", "prompt_attention", "context_phase", "first_token",
		"initialization", "prompt_processing"
	};
	static const char *const dec_x[] = {
		"decode", "generation", "batch_decode", "continuous_batch", "paged_attention",
		"decode_attention", "generation_phase", "autoregressive", "incremental",
		"single_token", "next_token"
	};
	static const char *const dec_b[] = {
		"continuous_batch", "dynamic_batch", "batch_decode", "multi_request",
		"request_batch"
	};
	static const char *const pre_b[] = { "single_request", "request_init", "batch_prefill" };
	const char *t = r->text;
	size_t tn = r->textlen;
	int pv = 0, dv = 0;
	enum guess_label l;
	struct lname nm;

	/* _analyze_gemm_dimensions: 3 votes */
	if (r->m > 0) {
		if (r->m > threshold)
			pv += 3;
		else
			dv += 3;
	}
	/* _analyze_explicit_names: 4 votes; both kinds of keyword: no vote */
	if ((l = seqlen(t, tn)) == GL_MIXED) {
		bool p = any(t, tn, pre_x, N(pre_x)), d = any(t, tn, dec_x, N(dec_x));

		l = p && !d ? GL_PREFILL : d && !p ? GL_DECODE : GL_MIXED;
	}
	if (l == GL_PREFILL)
		pv += 4;
	else if (l == GL_DECODE)
		dv += 4;
	/* _analyze_paged_attention: 2 votes, real regular-expression searches */
	if (then(t, tn, "paged_attention", "decode") || has(t, tn, "paged_attn_v2") ||
	    has(t, tn, "kv_cache") || has(t, tn, "reshape_and_cache") ||
	    has(t, tn, "block_sparse_attention") || has(t, tn, "page_attention") ||
	    then(t, tn, "flash_attn", "decode") || has(t, tn, "flash_decode") ||
	    then(t, tn, "varlen", "decode"))
		dv += 2;
	else if (then(t, tn, "paged_attention", "prefill") || has(t, tn, "chunked_prefill") ||
	    has(t, tn, "block_prefill") || then(t, tn, "flash_attn", "prefill") ||
	    has(t, tn, "flash_prefill") || then(t, tn, "varlen", "prefill"))
		pv += 2;
	/* _analyze_framework_apis (lower-cased name) and _analyze_batch_patterns */
	lname_init(&nm, r->name, r->namelen);
	l = GL_MIXED;
	if (has(nm.p, nm.len, "vllm::")) {
		if (has(nm.p, nm.len, "decode") || has(nm.p, nm.len, "cache") ||
		    has(nm.p, nm.len, "paged"))
			l = GL_DECODE;
		else if (has(nm.p, nm.len, "prefill"))
			l = GL_PREFILL;
	}
	if (l == GL_MIXED && has(nm.p, nm.len, "sglang::")) {
		if (has(nm.p, nm.len, "decode") || has(nm.p, nm.len, "cache") ||
		    has(nm.p, nm.len, "radix"))
			l = GL_DECODE;
		else if (has(nm.p, nm.len, "prefill"))
			l = GL_PREFILL;
	}
	if (l == GL_MIXED && has(nm.p, nm.len, "tgi::")) {
		if (has(nm.p, nm.len, "decode") || has(nm.p, nm.len, "generation") ||
		    has(nm.p, nm.len, "continuous"))
			l = GL_DECODE;
		else if (has(nm.p, nm.len, "prefill") || has(nm.p, nm.len, "encode"))
			l = GL_PREFILL;
	}
	if (l == GL_PREFILL)
		pv += 2;
	else if (l == GL_DECODE)
		dv += 2;
	if (any(nm.p, nm.len, dec_b, N(dec_b)))
		dv += 1;
	else if (any(nm.p, nm.len, pre_b, N(pre_b)))
		pv += 1;
	lname_free(&nm);
	if (pv + dv >= 2 && pv > dv)
		return GL_PREFILL;
	if (pv + dv >= 2 && dv > pv)
		return GL_DECODE;
	return GL_MIXED;
}

enum guess_label
guess_row(enum guess_method m, const struct guess_row *r, long long threshold)
{
	enum guess_label l;

	switch (m) {
	case GM_GEMM_PARAMS:
		return gemm_params(r, threshold);
	case GM_KERNEL_NAMES:
		return kernel_names(r);
	case GM_ATTENTION:
		return attention(r);
	case GM_FRAMEWORK:
		return framework(r);
	case GM_HYBRID:
		if ((l = kernel_names(r)) != GL_MIXED || (l = framework(r)) != GL_MIXED)
			return l;
		return attention(r);
	case GM_UNION:
		return union_votes(r, threshold);
	default:
		return GL_MIXED;
	}
}

static int
cmpdbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
guess_quantile(double *v, size_t n, double q)
{
	double h;
	size_t lo;

	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmpdbl);
	h = (double)(n - 1) * q;
	lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

void
guess_finish(enum guess_method m, const uint32_t *sym, size_t n, size_t nsym,
    uint8_t *label)
{
	size_t *count, i, k;
	double *v, hi, lo;

	if (m != GM_FREQUENCY && m != GM_HYBRID && m != GM_UNION)
		return;
	count = xcalloc(nsym ? nsym : 1, sizeof(*count));
	for (i = 0; i < n; i++)
		count[sym[i]]++;
	v = xreallocarray(NULL, nsym ? nsym : 1, sizeof(*v));
	for (i = k = 0; i < nsym; i++)
		if (count[i] > 0)
			v[k++] = (double)count[i];
	/* _detect_by_operation_frequency: above q0.5 Decode, below q0.15 Prefill, else
	 * Decode. The union's refinement: Mixed above q0.7 Decode, below q0.3 Prefill. */
	hi = guess_quantile(v, k, m == GM_UNION ? 0.7 : 0.5);
	lo = guess_quantile(v, k, m == GM_UNION ? 0.3 : 0.15);
	for (i = 0; i < n; i++) {
		double c = (double)count[sym[i]];

		if (m != GM_FREQUENCY && label[i] != GL_MIXED)
			continue;
		if (c > hi)
			label[i] = GL_DECODE;
		else if (c < lo)
			label[i] = GL_PREFILL;
		else if (m != GM_UNION)
			label[i] = GL_DECODE;
	}
	free(count);
	free(v);
}
