/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/torch/kcat.c: TraceLens's kernel categories by name (checked
 * against the reference's function on every kernel name of the shared traces). */
#include <string.h>

#include "torch/kcat.h"
#include "tap.h"

static void
t(const char *name, const char *want)
{
	is_str(kcat_name(name, strlen(name)), want, name);
}

int
main(void)
{
	/* stage 1: the first token */
	t("Cijk_Alik_Bljk_HHS_BH_MT128x128x32", "GEMM-CK");
	t("Cijk_Alik_Bljk_F8_MT64", "GEMM-FP8");
	t("gemm_splitk_kernel", "GEMM-SplitK");
	t("Memset (Device)", "Memory-Set");
	t("Memcpy DtoD (Device -> Device)", "Memory-Copy");
	t("flash_fwd_kernel", "Attention-Forward");
	t("paged_bwd", "PagedAttention-Backward");
	t("triton_poi_fused_add_0", "Triton-Custom");
	/* stage 2, in the reference's order */
	t("paged_attention_v2_kernel", "PagedAttention-Generic");	/* stage 1: "paged" */
	t("vllm_paged_attention_kernel", "PagedAttention-Compute");
	t("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm>", "GEMM-CUTLASS");
	t("nvjet_tst_128x64_64x4_1x2_h_bz_coopA_NTN", "GEMM-NVJET");
	t("ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_tn", "GEMM-Generic");
	t("void pytorch_flash::flash_fwd_kernel<>", "Attention-Forward");
	t("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add>",
	    "Elementwise");
	t("void at::native::unrolled_elementwise_kernel<direct_copy_kernel_cuda>", "Elementwise");
	t("void at::native::reduce_kernel<512, 1, MeanOps>", "Reduce");
	t("convert_fp32_to_bf16", "Conv-Generic");	/* "conv" in "convert" */
	t("fused_add_rms_norm_kernel", "Fused-AddNorm");
	t("rms_norm_kernel", "Norm-RMS");
	t("act_and_mul_kernel", "Activation-Gated");
	t("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "Reduce");	/* "reduce" first */
	t("rotary_embedding_cached", "RoPE-Generic");	/* stage 1: "rotary" */
	t("apply_rope_cached", "RoPE-Cached");
	t("sglang::store_cache", "KVCache-SGLang");
	t("vllm::custom_op", "vLLM-Custom");
	t("ds::kernel", "DeepSpeed-Custom");
	t("_fwd_kernel_stage1", "Kernel-Forward");
	t("index_select_large_index", "Indexing-Generic");
	t("something_else", "Uncategorized");
	return tap_done();
}
