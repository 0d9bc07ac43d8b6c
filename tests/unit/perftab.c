/* SPDX-License-Identifier: ISC */
/* Unit tests for the perf-model table (lib/torch/perfmodel.c): the op registry's model
 * classes have rows, the backward rules and categories agree with the registry's
 * families, and perf_apply says PERF_NONE where TraceLens has no figures. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "torch/opclass.h"
#include "torch/perfmodel.h"
#include "tap.h"

int
main(void)
{
	/* ops of every family the table has, each with its backward rule */
	static const struct { const char *op; bool bwd; } ops[] = {
		{ "aten::mm", false }, { "aten::addmm", false }, { "aten::bmm", false },
		{ "vllm::gemm_with_dynamic_quant", false }, { "tex_ts::te_gemm_ts", false },
		{ "primus_turbo::hipblaslt_gemm_fp8", false }, { "aiter::gemm_a16w16", false },
		{ "primus_turbo::grouped_gemm", false },
		{ "aten::convolution", true }, { "aten::convolution_backward", false },
		{ "DaoAILab::_causal_conv1d_fwd_cpp", false },
		{ "FlashAttnFunc", true }, { "flash_attn::_flash_attn_backward", false },
		{ "aten::_scaled_dot_product_flash_attention", true },
		{ "aiter::mha_bwd", false }, { "EvoformerAttention", false },
		{ "vllm::unified_attention_with_output", false },
		{ "aiter::mha_batch_prefill", false }, { "aiter::pa_decode_gluon", false },
		{ "sglang::store_cache", false },
		{ "aten::copy_", false }, { "aten::mul", false }, { "LigerSiLUMulFunction", false },
		{ "aiter::silu_and_mul", false },
		{ "aten::layer_norm", false }, { "aten::native_layer_norm_backward", false },
		{ "aiter::rmsnorm2d_fwd_with_add_ck", false },
		{ "FusedRoPEFunc", false }, { "sgl_kernel::rotary_embedding", false },
		{ "MoEDispatch", true }, { "MoECombine", true }, { "CrossEntropyFunction", false },
	};
	const struct perfmodel *m;
	struct tperf p;
	struct targs none = { 0, NULL, false, NULL };
	char want[64];
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		const struct opclass *oc = opclass_find(ops[i].op);

		if (!ok(oc != NULL && oc->model != NULL, "%s: registered with a model", ops[i].op))
			continue;
		m = perf_model(oc->model);
		if (!ok(m != NULL && m->apply != NULL, "%s: %s has a row and a function",
		    ops[i].op, oc->model))
			continue;
		ok(m->bwd == ops[i].bwd, "%s: backward formulas %s", ops[i].op,
		    ops[i].bwd ? "applied" : "not applied");
		if (m->bwd_category != NULL) {
			/* the backward rows' category is the family's */
			snprintf(want, sizeof(want), "%s_bwd", oc->family);
			is_str(m->bwd_category, want, "bwd category of the family");
		}
	}
	m = perf_model("aten_reduce");
	ok(m != NULL && m->bwd && m->bwd_category == NULL,
	    "aten_reduce: backward formulas, its rows keep their category");
	ok(perf_model(NULL) == NULL, "no model: no row");
	ok(perf_model("mamba_ssd_fwd") == NULL, "a class ttp lacks: no row");
	m = perf_model("InstanceNormBwd");
	ok(m != NULL && m->apply == NULL, "InstanceNormBwd: a row, TraceLens's NotImplemented");
	ok(perf_apply("InstanceNormBwd", "aten::instance_norm_backward", &none, NULL, 0, false,
	    &p) == PERF_NONE, "InstanceNormBwd: PERF_NONE");
	ok(perf_apply("mamba_ssd_fwd", "x", &none, NULL, 0, false, &p) == PERF_NONE,
	    "unknown class: PERF_NONE");
	ok(perf_apply("aten_mm", "aten::mm", &none, NULL, 0, true, &p) == PERF_NONE,
	    "backward pass of a model without backward formulas: PERF_NONE");
	ok(perf_apply("aten_mm", "aten::mm", &none, NULL, 0, false, &p) == PERF_ERROR,
	    "aten_mm without arguments: PERF_ERROR");
	return tap_done();
}
