/* SPDX-License-Identifier: ISC */
/*
 * perfmodel: TraceLens's FLOP and byte models (TraceLens 171dd747, PerfModel/
 * perf_model.py), with its arithmetic: integers stay exact integers and divisions
 * give doubles where Python's do (struct pynum), so GFLOPS and Data Moved come out as
 * the same doubles. An argument TraceLens would index past, or a string it could not
 * parse, is PERF_ERROR with the reason (TraceLens drops such rows with a warning);
 * TraceLens's NotImplementedError is PERF_NONE.
 *
 * This file is the model table and perf_apply; the models are in one file per family
 * (perfgemm.c, perfconv.c, perfattn.c, perfelem.c, perfnorm.c, perfmisc.c,
 * perftriton.c) over the helpers of perfargs.c, sharing the private perfpriv.h.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "torch/perfmodel.h"

#include "perfpriv.h"

/* --- the model table ------------------------------------------------------------------- */

/*
 * The perf-model classes ttp implements (torch/opclass.c maps op names to them), with
 * TraceLens's backward rules: whether it applies the forward model's backward formulas
 * to the op's linked backward op, and the category of those rows. InstanceNormBwd has
 * no function: TraceLens's NotImplemented.
 */
#define R(model, fn, variant)		{ model, fn, variant, false, NULL }
#define B(model, fn, variant, cat)	{ model, fn, variant, true, cat }
static const struct perfmodel models[] = {
	/* GEMM */
	R("aten_mm", pm_gemm, 0),
	R("aten_addmm", pm_gemm, 0),
	R("aten_scaled_mm", pm_gemm, 0),
	R("aten_bmm", pm_gemm, 0),
	R("aten_baddbmm", pm_gemm, 0),
	R("tev2_pseudo_gemm", pm_gemm, 0),
	R("vllm_gemm_with_dynamic_quant", pm_gemm_dq, 0),
	R("tex_ts_te_gemm_ts", pm_te_gemm, 0),
	R("hipblaslt_gemm_fp8", pm_hipblaslt_fp8, 0),
	R("gemm_a16w16", pm_gemm_a16w16, 0),
	R("primus_turbo_grouped_gemm", pm_grouped_gemm, 0),
	/* convolution */
	B("aten_conv", pm_conv, 0, "CONV_bwd"),
	R("aten_conv_bwd", pm_conv, 1),
	R("causal_conv1d_fwd", pm_causal_conv1d, 0),
	/* attention: SDPA (the backward classes have models of their own) */
	B("flash_attention", pm_sdpa, 0, "SDPA_bwd"),
	R("flash_attention_backward", pm_sdpa, 0),
	B("flash_attention_varlen_forward", pm_sdpa, 0, "SDPA_bwd"),
	R("flash_attention_varlen_backward", pm_sdpa, 0),
	B("aten__scaled_dot_product_cudnn_attention", pm_sdpa, 0, "SDPA_bwd"),
	B("aten__scaled_dot_product_efficient_attention", pm_sdpa, 0, "SDPA_bwd"),
	B("aten__scaled_dot_product_flash_attention", pm_sdpa, 0, "SDPA_bwd"),
	B("aiter__flash_attn_forward", pm_sdpa, 0, "SDPA_bwd"),
	R("aiter__flash_attn_backward", pm_sdpa, 0),
	B("flash_attn_v3_forward", pm_sdpa, 0, "SDPA_bwd"),
	B("aiter__fmha_v3_forward", pm_sdpa, 0, "SDPA_bwd"),
	R("aiter__fmha_v3_backward", pm_sdpa, 0),
	B("aiter__mha_fwd", pm_sdpa, 0, "SDPA_bwd"),
	B("aiter__fmha_v3_fwd", pm_sdpa, 0, "SDPA_bwd"),
	R("aiter__mha_bwd", pm_sdpa, 0),
	R("evoformer_attention", pm_evoformer, 0),
	/* attention: inference */
	R("InferenceAttention", pm_inf_attn, 0),
	R("vllm_unified_attention_with_output", pm_inf_attn, 0),
	R("mha_varlen_fwd", pm_inf_attn, 0),
	R("mla_decode_fwd", pm_inf_attn, 0),
	R("vllm_unified_mla_attention_with_output", pm_inf_attn, 0),
	R("aiter_mha_batch_prefill", pm_inf_attn, 1),
	R("pseudo_mla_prefill_fwd", pm_inf_attn, 1),
	R("aiter_fmha_v3_varlen_fwd", pm_inf_attn, 1),
	R("aiter_paged_attention_ragged", pm_inf_attn, 2),
	R("pa_decode_gluon", pm_inf_attn, 3),
	R("sglang_store_cache", pm_store_cache, 0),
	/* element-wise and reduce (Reduce has no bwd_category: its rows keep "reduce") */
	R("aten_unary_elementwise", pm_unary, 0),
	R("aten_replication_pad", pm_pad, 0),
	R("aten_upsample_nearest", pm_pad, 1),
	R("aten_binary_elementwise", pm_binary, 0),
	R("liger_silu_mul_function", pm_binary, 1),
	R("aiter_silu_and_mul", pm_silu_and_mul, 0),
	R("sgl_kernel_silu_and_mul", pm_silu_and_mul, 0),
	B("aten_reduce", pm_reduce, 0, NULL),
	/* normalization */
	R("BatchNorm", pm_norm, 0),
	R("LayerNorm", pm_norm, 0),
	R("GroupNorm", pm_norm, 0),
	R("InstanceNorm", pm_norm, 0),
	R("RMSNorm", pm_norm, 0),
	R("BatchNormBwd", pm_norm, 0),
	R("LayerNormBwd", pm_norm, 0),
	R("GroupNormBwd", pm_norm, 0),
	R("RMSNormBwd", pm_norm, 0),
	R("InstanceNormBwd", NULL, 0),
	R("aiter_rms_norm", pm_rms_ext, 0),
	R("aiter_rmsnorm", pm_rms_ext, 1),
	R("aiter_rmsnorm2d_fwd_with_add_ck", pm_rms_ext, 2),
	/* RoPE, MoE communication, cross entropy */
	R("fused_rope_fwd", pm_rope, 0),
	R("sgl_kernel_rotary_embedding", pm_rope, 1),
	B("moe_dispatch", pm_moe_comm, 0, "MoE_comm_bwd"),
	B("moe_combine", pm_moe_comm, 0, "MoE_comm_bwd"),
	R("cross_entropy_fwd", pm_cross_entropy, 0),
};
#undef R
#undef B

const struct perfmodel *
perf_model(const char *model)
{
	size_t i;

	if (model == NULL)
		return NULL;
	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (strcmp(model, models[i].model) == 0)
			return &models[i];
	return NULL;
}

enum perf_status
perf_apply(const char *model, const char *name, const struct targs *a,
    const char *const *kernels, size_t nkernels, bool bwd, struct tperf *out)
{
	const struct perfmodel *m = perf_model(model);
	struct pmctx c;

	memset(out, 0, sizeof(*out));
	if (m == NULL || m->apply == NULL || (bwd && !m->bwd))
		return PERF_NONE;
	c.name = name != NULL ? name : "";
	c.a = a;
	c.kernels = kernels;
	c.nkernels = nkernels;
	c.o = out;
	c.failed = false;
	c.none = false;
	js_w_init(&c.w, &out->params);
	js_w_object(&c.w);
	out->flops = I(0);

	m->apply(&c, m, bwd);
	if (c.failed) {
		perf_free(out);
		return PERF_ERROR;
	}
	if (c.none) {
		perf_free(out);
		return PERF_NONE;
	}
	js_w_end_object(&c.w);
	return PERF_OK;
}

void
perf_free(struct tperf *p)
{
	buf_free(&p->params);
}
