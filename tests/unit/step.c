/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/torch/step.c: every annotation form of docs/tracelens.md §9.1, the
 * examples TraceLens documents and the annotations of the shared traces. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "torch/step.h"
#include "tap.h"

/* want: "kind phase ctx_req gen_req ctx_tok gen_tok batch number" */
static void
t(const char *ann, const char *want)
{
	struct step st;
	char got[256];
	bool r = step_parse(ann, strlen(ann), &st);

	snprintf(got, sizeof(got), "%s %s %lld %lld %lld %lld %lld %lld",
	    step_kind_name(st.kind), r ? step_phase_name(st.phase) : "-",
	    st.context_requests, st.generation_requests, st.context_tokens,
	    st.generation_tokens, st.batch, st.number);
	is_str(got, want, ann);
}

/* want: "sqsk c_sq c_sk c_sqsq c_sqsk g_sq g_sk g_sqsq g_sqsk" (chunk_stats) */
static void
c(const char *ann, const char *want)
{
	struct step st;
	char got[256];

	(void)step_parse(ann, strlen(ann), &st);
	snprintf(got, sizeof(got), "%d %lld %lld %lld %lld %lld %lld %lld %lld", st.sqsk,
	    st.c_sq, st.c_sk, st.c_sqsq, st.c_sqsk, st.g_sq, st.g_sk, st.g_sqsq, st.g_sqsk);
	is_str(got, want, ann);
}

int
main(void)
{
	/* The shared SGLang traces (data/pytorch/inference). */
	t("execute_15360_context_15(sq15360sk15360sqsq15728640sqsk15728640)"
	    "_generation_0(sq0sk0sqsq0sqsk0)",
	    "vllm-detailed prefill 15 0 15360 0 15360 -1");
	t("execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk32785sqsq32sqsk32785)",
	    "vllm-detailed decode 0 32 0 32 32 -1");
	t("step[EXTEND bs=15 toks=15360]", "sglang-native prefill 15 0 15360 0 15360 -1");
	t("step[DECODE bs=32]", "sglang-native decode 0 32 0 32 32 -1");
	/* The B200 trace: vLLM native with a token count written as two numbers. */
	t("execute_context_1(888_788544)_generation_0(0)",
	    "vllm-native prefill 1 0 888 0 888 -1");
	/* Profiler steps and captures (h100 traces, capture_traces). */
	t("ProfilerStep#6", "profiler step 0 0 0 0 0 6");
	t("ProfilerStep#134", "profiler step 0 0 0 0 0 134");
	t("capture_32_DECODE", "capture capture 0 0 0 0 32 -1");
	t("capture_256_mixed_prefill", "capture capture 0 0 0 0 256 -1");
	/* vLLM, TraceLens's examples. */
	t("execute_14721_context_2(sq14721sk14721sqsq108745533sqsk108745533)"
	    "_generation_0(sq0sk0sqsq0sqsk0)", "vllm-detailed prefill 2 0 14721 0 14721 -1");
	t("execute_6147_context_2(sq6144sk7144sqsq20971520sqsk23019520)"
	    "_generation_3(sq3sk6144sqsq3sqsk6144)", "vllm-detailed mixed 2 3 6144 3 6147 -1");
	t("execute_context_2(14721)_generation_0(0)", "vllm-native prefill 2 0 14721 0 14721 -1");
	t("execute_context_0(0)_generation_64(64)", "vllm-native decode 0 64 0 64 64 -1");
	t("execute_context_2(6144)_generation_3(3)", "vllm-native mixed 2 3 6144 3 6147 -1");
	t("execute_context_0(0)_generation_0(0)", "vllm-native idle 0 0 0 0 0 -1");
	/* SGLang. */
	t("step[EXTEND bs=2 toks=14721 c_sq=14721 c_sqsq=108745533 c_sqsk=108745533 c_sk=14721]",
	    "sglang-detailed prefill 2 0 14721 0 14721 -1");
	t("step[DECODE bs=64 g_sq=128 g_sqsq=256 g_sqsk=262144 g_sk=131072]",
	    "sglang-detailed decode 0 64 0 128 128 -1");
	t("step[MIXED bs=2 c=1 g=1 c_sq=5 c_sk=8 c_sqsq=25 c_sqsk=40 g_sq=1 g_sk=12 "
	    "g_sqsq=1 g_sqsk=12]", "sglang-detailed mixed 1 1 5 1 6 -1");
	t("step[EXTEND bs=2 toks=14721]", "sglang-native prefill 2 0 14721 0 14721 -1");
	t("step[DECODE bs=64]", "sglang-native decode 0 64 0 64 64 -1");
	t("step[MIXED bs=2]", "sglang-native mixed 2 0 0 0 2 -1");
	t("step[DECODE  bs=3 toks=9]", "sglang-native decode 0 3 0 3 3 -1");
	t("step[DECODE bs=3 extra=1]", "none - 0 0 0 0 0 -1");
	t("step[DECODEX bs=3]", "none - 0 0 0 0 0 -1");
	t("step[IDLE bs=3]", "none - 0 0 0 0 0 -1");
	t("step[EXTEND bs=0 toks=0 c_sq=0 c_sqsq=0]", "sglang-detailed idle 0 0 0 0 0 -1");
	/* ATOM. */
	t("prefill[bs=2 tok=14721 ctx=[7803, 6918]]", "atom-native prefill 2 0 14721 0 14721 -1");
	t("prefill[bs=6 tok=17408 ctx=[4096, 4096, 4096]...+3]",
	    "atom-native prefill 6 0 17408 0 17408 -1");
	t("decode[bs=64 tok=64 d=64]", "atom-native decode 0 64 0 64 64 -1");
	t("decode[bs=117/128 tok=117 d=117]", "atom-native decode 0 117 0 117 117 -1");
	t("prefill[bs=2 tok=14721 ctx=[7803, 6918] sqsq=108745533 sqsk=108745533 sk=14721]",
	    "atom-detailed prefill 2 0 14721 0 14721 -1");
	t("decode[bs=32 tok=128 d=32 spec=3 sqsq=512 sqsk=262144 sk=65536]",
	    "atom-detailed decode 0 32 0 128 128 -1");
	t("decode[bs=128 tok=384 p=2 d=126 sqsq=132612 sqsk=1114112 sk=258048 tbo=1]",
	    "atom-detailed decode 0 128 0 384 384 -1");
	t("decode[bs=4 tok=x4]", "atom-native decode 0 4 0 0 0 -1");
	t("decode[tok=5]", "atom-native idle 0 0 0 5 5 -1");
	/* Diffusion. */
	t("execute_diffusion_1_1024x1024", "diffusion diffusion 0 0 0 0 1 -1");
	/* Not steps. */
	t("", "none - 0 0 0 0 0 -1");
	t("execute_32_context_0(sq0sk0sqsq0sqsk0)", "none - 0 0 0 0 0 -1");
	t("execute_context_1(888_)_generation_0(0)", "none - 0 0 0 0 0 -1");
	/* token counts whose sum overflows are no step (fuzz_steps: signed overflow) */
	t("execute_context_1(9223372036854775807)_generation_1(8)", "none - 0 0 0 0 0 -1");
	t("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "none - 0 0 0 0 0 -1");
	t("nccl:_all_gather_base", "none - 0 0 0 0 0 -1");
	t("ProfilerStep#", "none - 0 0 0 0 0 -1");
	t("prefill[bs=1", "none - 0 0 0 0 0 -1");
	t("Prefill[bs=1]", "none - 0 0 0 0 0 -1");
	/* Prefix matches, as TraceLens's re.match: trailing text is allowed. */
	t("step[DECODE bs=8] (rank 0)", "sglang-native decode 0 8 0 8 8 -1");
	/* Saturation. */
	t("ProfilerStep#99999999999999999999999", "profiler step 0 0 0 0 0 9223372036854775807");

	/* The attention counts of the detailed formats; none in the native ones. */
	c("execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk32785sqsq32sqsk32785)",
	    "1 0 0 0 0 32 32785 32 32785");
	c("execute_15360_context_15(sq15360sk15360sqsq15728640sqsk15728640)"
	    "_generation_0(sq0sk0sqsq0sqsk0)", "1 15360 15360 15728640 15728640 0 0 0 0");
	c("step[MIXED bs=2 c=1 g=1 c_sq=5 c_sk=8 c_sqsq=25 c_sqsk=40 g_sq=1 g_sk=12 "
	    "g_sqsq=1 g_sqsk=12]", "1 5 8 25 40 1 12 1 12");
	c("prefill[bs=2 tok=14721 ctx=[7803, 6918] sqsq=108745533 sqsk=108745533 sk=14721]",
	    "1 14721 14721 108745533 108745533 0 0 0 0");
	c("decode[bs=32 tok=128 d=32 spec=3 sqsq=512 sqsk=262144 sk=65536]",
	    "1 0 0 0 0 128 65536 512 262144");
	c("decode[bs=32 tok=128 sk=65536]", "0 0 0 0 0 128 65536 0 0");
	c("step[DECODE bs=32]", "0 0 0 0 0 0 0 0 0");
	c("execute_context_2(14721)_generation_0(0)", "0 0 0 0 0 0 0 0 0");

	ok(step_tier(STEP_VLLM_DETAILED) < step_tier(STEP_SGLANG_NATIVE), "detailed first");
	ok(step_tier(STEP_ATOM_NATIVE) < step_tier(STEP_PROFILER), "profiler steps last");
	ok(step_tier(STEP_NONE) == 0, "none has no tier");
	is_str(step_phase_name(SP_IDLE), "idle", "phase name");
	return tap_done();
}
