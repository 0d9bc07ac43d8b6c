/* SPDX-License-Identifier: ISC */
/*
 * perftriton: TraceLens's TritonCompiledPerfModel of TorchInductor's Triton kernels,
 * from the fused op names in the kernel name (perf_triton).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/json.h"
#include "torch/opclass.h"
#include "torch/perfmodel.h"

#include "perfpriv.h"

/* --- TorchInductor's Triton kernels (TraceLens's TritonCompiledPerfModel) ---------------- */

/* FLOPs per element TraceLens counts for an op of a fused kernel (0 for the rest). */
static int
triton_flops_per_elem(const char *op)
{
	static const struct { const char *op; int n; } t[] = {
		{ "add", 1 }, { "sub", 1 }, { "mul", 1 }, { "div", 1 }, { "pow", 2 },
		{ "sqrt", 2 }, { "rsqrt", 2 }, { "exp", 4 }, { "log", 4 }, { "sigmoid", 4 },
		{ "tanh", 4 }, { "relu", 1 }, { "silu", 4 }, { "gelu", 8 }, { "mean", 1 },
		{ "sum", 1 }, { "var", 2 }, { "abs", 1 }, { "neg", 1 }, { "reciprocal", 2 },
		{ "ne", 1 }, { "eq", 1 }, { "lt", 1 }, { "gt", 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(op, t[i].op) == 0)
			return t[i].n;
	return 0;
}

/*
 * The fused ops of kernel name "triton_{poi,red,per}_fused_<ops>_<n>": the split of
 * <ops> at underscores into known op names, found by dynamic programming over the
 * tokens and taken back from the end, the longest name first at each step. Appends
 * "aten.<op>" strings (joined by ", ") to ops and their FLOPs per element to *fpe;
 * nothing when no split exists.
 */
static void
triton_fused_ops(const char *name, struct buf *ops, long long *fpe)
{
	const char *p = strstr(name, "_fused_"), *end = name + strlen(name), *d;
	size_t ntok = 1, i, j, *tok, *from;
	long long *len;
	char **seg;

	*fpe = 0;
	if (p == NULL || p - name != 10)
		return;
	p += 7;
	/* <ops> ends before the last "_<digits>" (the regex's greedy .+) */
	for (d = end; d > p && isdigit((unsigned char)d[-1]); d--)
		;
	if (d == end || d - p < 2 || d[-1] != '_')
		return;
	end = d - 1;
	for (d = p; d < end; d++)
		ntok += *d == '_';
	tok = xreallocarray(NULL, ntok + 1, sizeof(*tok));	/* token starts */
	from = xreallocarray(NULL, ntok + 1, sizeof(*from));
	len = xreallocarray(NULL, ntok + 1, sizeof(*len));
	seg = xreallocarray(NULL, ntok + 1, sizeof(*seg));
	tok[0] = 0;
	for (i = 1, d = p; d < end; d++)
		if (*d == '_')
			tok[i++] = (size_t)(d - p) + 1;
	tok[ntok] = (size_t)(end - p) + 1;
	/* len[i]: the longest known name ending at token i reachable from 0 (-1: none) */
	len[0] = 0;
	for (i = 1; i <= ntok; i++) {
		len[i] = -1;
		for (j = 0; j < i; j++) {
			size_t n = tok[i] - tok[j] - 1;

			if (len[j] < 0 || (long long)n <= len[i])
				continue;
			if (opclass_aten_op(p + tok[j], n)) {
				len[i] = (long long)n;
				from[i] = j;
			}
		}
	}
	if (len[ntok] >= 0) {
		size_t nseg = 0, k;

		for (i = ntok; i > 0; i = from[i])
			seg[nseg++] = xstrndup(p + tok[from[i]], tok[i] - tok[from[i]] - 1);
		for (k = nseg; k-- > 0;) {
			if (k + 1 < nseg)
				buf_adds(ops, ", ");
			buf_printf(ops, "aten.%s", seg[k]);
			*fpe += triton_flops_per_elem(seg[k]);
			free(seg[k]);
		}
	}
	free(tok);
	free(from);
	free(len);
	free(seg);
}

/* Python's int() of a Concrete Inputs string: optional blanks and sign, digits. */
static bool
py_int_str(const char *s, long long *v)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)s[*s == '+' || *s == '-']))
		return false;
	errno = 0;
	*v = strtoll(s, &e, 10);
	while (*e == ' ' || *e == '\t')
		e++;
	return *e == '\0' && errno == 0;
}

enum perf_status
perf_triton(const char *name, const struct targs *a, struct tperf *out)
{
	static const struct { const char *dt; int bpe; } c10[] = {
		{ "c10::BFloat16", 2 }, { "c10::Half", 2 }, { "c10::Float", 4 },
		{ "c10::Double", 8 }, { "c10::Byte", 1 }, { "c10::Char", 1 },
		{ "c10::Int", 4 }, { "c10::Long", 8 },
	};
	static char prec[32];
	bool red = strncmp(name, "triton_red_", 11) == 0 || strncmp(name, "triton_per_", 11) == 0;
	bool poi = strncmp(name, "triton_poi_", 11) == 0;
	long long sc[2] = { 0, 0 }, v, x, r = 1, fpe, first = -1;
	double bytes = 0;
	size_t i, nsc = 0, k;
	struct buf ops = BUF_INIT;
	struct js_writer w;

	memset(out, 0, sizeof(*out));
	if ((!red && !poi) || a->n == 0)
		return PERF_NONE;
	/* the integer scalars of Concrete Inputs: the last gives xnumel, a reduction's
	 * last two xnumel and rnumel */
	for (i = 0; i < a->n; i++)
		if (a->a[i].value[0] != '\0' && py_int_str(a->a[i].value, &v)) {
			sc[0] = sc[1];
			sc[1] = v;
			nsc++;
		}
	if (nsc == 0)
		return PERF_NONE;
	x = red && nsc >= 2 ? sc[0] : sc[1];
	r = red && nsc >= 2 ? sc[1] : 1;
	prec[0] = '\0';
	for (i = 0; i < a->n; i++) {
		const struct targ *t = &a->a[i];
		long long n = 1;
		int bpe = 0;
		int j;

		if (strcmp(t->dtype, "Scalar") == 0 || t->shape == TSHAPE_NONE ||
		    (t->shape == TSHAPE_FLAT && t->rank == 0))
			continue;
		if (t->shape == TSHAPE_LIST)
			return PERF_ERROR;
		for (k = 0; k < sizeof(c10) / sizeof(c10[0]); k++)
			if (strcmp(t->dtype, c10[k].dt) == 0)
				bpe = c10[k].bpe;
		for (j = 0; j < t->rank; j++)
			n *= t->dims[j];
		bytes += (double)(n * bpe);
		if (first < 0)
			first = bpe;
		if (prec[0] == '\0' && bpe > 0) {
			const char *c = strrchr(t->dtype, ':');

			c = c != NULL ? c + 1 : t->dtype;
			for (k = 0; c[k] != '\0' && k + 1 < sizeof(prec); k++)
				prec[k] = (char)tolower((unsigned char)c[k]);
			prec[k] = '\0';
		}
	}
	if (poi && first >= 0)
		bytes += (double)(first * x);
	triton_fused_ops(name, &ops, &fpe);
	out->flops = F((double)(fpe * x * r));
	out->has_bytes = true;
	out->bytes = F(bytes);
	out->maf = "vector";
	out->prec = prec[0] != '\0' ? prec : NULL;
	js_w_init(&w, &out->params);
	js_w_object(&w);
	js_w_key(&w, "fused_ops");
	js_w_strz(&w, ops.len > 0 ? ops.p : "");
	js_w_key(&w, "xnumel");
	js_w_int(&w, x);
	js_w_key(&w, "rnumel");
	js_w_int(&w, r);
	js_w_end_object(&w);
	buf_free(&ops);
	return PERF_OK;
}
