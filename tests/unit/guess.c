/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/phase/guess.c: TraceLens's prefill/decode heuristics, rule by
 * rule, with the quirks docs/tracelens.md §9.2 lists. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "phase/guess.h"
#include "tap.h"

static const char *
lab(enum guess_label l)
{
	return l == GL_PREFILL ? "Prefill" : l == GL_DECODE ? "Decode" : "Mixed";
}

/* A row from an op name, kernel names separated by '|' and M. */
static const char *
row(enum guess_method m, const char *name, const char *kernels, long long M, long long thr)
{
	const char *names[8];
	size_t lens[8], n = 1;
	char text[1024];
	struct guess_row r;
	const char *k = kernels;

	names[0] = name;
	lens[0] = strlen(name);
	while (k != NULL && *k != '\0' && n < 8) {
		const char *bar = strchr(k, '|');

		names[n] = k;
		lens[n] = bar ? (size_t)(bar - k) : strlen(k);
		n++;
		k = bar ? bar + 1 : NULL;
	}
	r.name = name;
	r.namelen = strlen(name);
	r.textlen = guess_text(text, names, lens, n);
	r.text = text;
	r.m = M;
	return lab(guess_row(m, &r, thr));
}

static void
test_text(void)
{
	const char *names[] = { "aten::MM", "Cijk_Ailk" };
	size_t lens[] = { 8, 9 };
	char buf[32];
	size_t n = guess_text(buf, names, lens, 2);

	buf[n] = '\0';
	is_str(buf, "aten::mm cijk_ailk", "text: lower-cased, joined with spaces");
}

static void
test_gemm_params(void)
{
	is_str(row(GM_GEMM_PARAMS, "aten::mm", "nvjet_tst", 128, 10), "Prefill", "gemm: M 128");
	is_str(row(GM_GEMM_PARAMS, "aten::mm", "nvjet_tst", 10, 10), "Decode", "gemm: M = threshold");
	is_str(row(GM_GEMM_PARAMS, "aten::mm", "nvjet_tst", 11, 10), "Prefill", "gemm: M above");
	is_str(row(GM_GEMM_PARAMS, "aten::add", "elementwise", 4, 10), "Decode",
	    "gemm: any op with an M qualifies");
	is_str(row(GM_GEMM_PARAMS, "aten::mm", "k", -1, 10), "Mixed", "gemm: no M");
	is_str(row(GM_GEMM_PARAMS, "x", "flash_fwd_prefill", 1, 10), "Prefill",
	    "gemm: keyword before M");
	is_str(row(GM_GEMM_PARAMS, "x", "prefill|decode_k", 1, 10), "Mixed", "gemm: both keywords");
	is_str(row(GM_GEMM_PARAMS, "x", "paged_attention_v1_decode", 100, 10), "Decode",
	    "gemm: decode keyword");
	is_str(row(GM_GEMM_PARAMS, "x", "paged_attention_xdecoy", 100, 10), "Prefill",
	    "gemm: 'paged_attention.*decode' is a substring test");
	is_str(row(GM_GEMM_PARAMS, "aten::mm", "", 40, 64), "Decode", "gemm: --threshold");
}

static void
test_kernel_names(void)
{
	is_str(row(GM_KERNEL_NAMES, "op", "attn_sl1_x|attn_seq1", -1, 10), "Decode",
	    "names: sl1 and seq1 average 1");
	is_str(row(GM_KERNEL_NAMES, "op", "attn_seqlen_512", -1, 10), "Prefill",
	    "names: seqlen_512");
	is_str(row(GM_KERNEL_NAMES, "op", "k_sl0_decode", -1, 10), "Decode",
	    "names: sl0 is skipped, then keywords");
	is_str(row(GM_KERNEL_NAMES, "op", "k_sl4", -1, 10), "Mixed", "names: mean 4: no rule");
	is_str(row(GM_KERNEL_NAMES, "op", "k_sl4_context|decode", -1, 10), "Prefill",
	    "names: prefill keywords win");
	is_str(row(GM_KERNEL_NAMES, "op", "reshape_and_cache", -1, 10), "Decode", "names: kv");
	is_str(row(GM_KERNEL_NAMES, "aten::mm", "nvjet_tst_128x64", 128, 10), "Mixed",
	    "names: a GEMM without keywords");
}

static void
test_attention_framework(void)
{
	is_str(row(GM_ATTENTION, "vllm::paged_attention", "", -1, 10), "Decode", "attn: paged");
	is_str(row(GM_ATTENTION, "my_attn_batch_prefill", "", -1, 10), "Prefill", "attn: prefill");
	is_str(row(GM_ATTENTION, "aten::_scaled_dot_product_flash_attention", "k", 4096, 10),
	    "Mixed", "attn: the sequence-length rule never fires");
	is_str(row(GM_ATTENTION, "reshape_and_cache", "", -1, 10), "Mixed",
	    "attn: only attention ops");
	is_str(row(GM_FRAMEWORK, "vllm::unified_attention", "", -1, 10), "Mixed", "fw: vllm, no word");
	is_str(row(GM_FRAMEWORK, "vllm::reshape_and_cache_flash", "", -1, 10), "Decode",
	    "fw: vllm cache");
	is_str(row(GM_FRAMEWORK, "VLLM::prefill", "", -1, 10), "Mixed",
	    "fw: 'vllm::' is case-sensitive");
	is_str(row(GM_FRAMEWORK, "sglang::prefill_x", "", -1, 10), "Prefill", "fw: sglang prefill");
	is_str(row(GM_FRAMEWORK, "tgi::encode", "", -1, 10), "Prefill", "fw: tgi encode");
	is_str(row(GM_FRAMEWORK, "mlp_context", "", -1, 10), "Prefill", "fw: TensorRT-LLM");
}

static void
test_union(void)
{
	is_str(row(GM_UNION, "aten::mm", "nvjet", 128, 10), "Prefill", "union: GEMM 3 votes");
	is_str(row(GM_UNION, "aten::mm", "nvjet", 1, 10), "Decode", "union: small M");
	is_str(row(GM_UNION, "aten::mm", "decode_k", 128, 10), "Decode", "union: names 4 beat M 3");
	is_str(row(GM_UNION, "x", "prefill_decode", -1, 10), "Mixed",
	    "union: both keywords: no name vote");
	is_str(row(GM_UNION, "x", "flash_attn_fwd_varlen_x_prefill", -1, 10), "Prefill",
	    "union: regex flash_attn.*prefill (and the keyword)");
	is_str(row(GM_UNION, "x", "k", -1, 10), "Mixed", "union: no votes");
	is_str(row(GM_UNION, "continuous_batch_x", "", -1, 10), "Decode",
	    "union: explicit 4 + batch 1");
	is_str(row(GM_UNION, "request_batch", "", -1, 10), "Mixed", "union: 1 vote is too few");
}

static void
test_quantile(void)
{
	double v[] = { 4, 1, 3, 2 }, one[] = { 7 };

	ok(fabs(guess_quantile(v, 4, 0.5) - 2.5) < 1e-12, "quantile: median of 4");
	ok(fabs(guess_quantile(v, 4, 0.15) - 1.45) < 1e-12, "quantile: linear 0.15");
	ok(guess_quantile(v, 4, 1.0) == 4, "quantile: 1.0");
	ok(guess_quantile(one, 1, 0.3) == 7, "quantile: one value");
}

static void
test_finish(void)
{
	/* names a x6, b x3, c x1, d x1: counts 6,3,1,1: q0.5 = 2, q0.15 = 1 */
	uint32_t sym[] = { 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 3 };
	uint8_t l[11];
	char got[12];
	size_t i;

	memset(l, GL_MIXED, sizeof(l));
	guess_finish(GM_FREQUENCY, sym, 11, 4, l);
	for (i = 0; i < 11; i++)
		got[i] = "MPD"[l[i]];
	got[11] = '\0';
	is_str(got, "DDDDDDDDDDD", "frequency: never Prefill when lo is the minimum");
	/* union: q0.7 = 3.9 (6,3,1,1 -> sorted 1,1,3,6: h=2.1 -> 3.3), q0.3 = 1 */
	memset(l, GL_MIXED, sizeof(l));
	l[9] = GL_PREFILL;
	guess_finish(GM_UNION, sym, 11, 4, l);
	for (i = 0; i < 11; i++)
		got[i] = "MPD"[l[i]];
	is_str(got, "DDDDDDMMMPM", "union: Mixed rows refined by frequency");
	memset(l, GL_PREFILL, sizeof(l));
	guess_finish(GM_GEMM_PARAMS, sym, 11, 4, l);
	ok(l[0] == GL_PREFILL, "gemm-params: no frequency rule");
}

int
main(void)
{
	test_text();
	test_gemm_params();
	test_kernel_names();
	test_attention_framework();
	test_union();
	test_quantile();
	test_finish();
	return tap_done();
}
