/* SPDX-License-Identifier: ISC */
/* tlpseudo: --enable_pseudo_ops's names and the gates of TraceLens's pseudo-op
 * extensions (docs/tracelens.md §3.2). */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "report/pyrepr.h"
#include "report/tlsheets.h"
#include "report/tltree.h"
#include "tlcommon.h"

/* s contains needle, ASCII case ignored when fold. */
static int
contains(const char *s, const char *needle, int fold)
{
	size_t n = strlen(needle), i;

	for (; *s; s++) {
		for (i = 0; i < n && s[i]; i++)
			if (fold ? tolower((unsigned char)s[i]) != tolower((unsigned char)needle[i])
			    : s[i] != needle[i])
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

/* At s: "py(" <digits> "):"; returns the end of the match or NULL. */
static const char *
py_line(const char *s)
{
	const char *d;

	if (strncmp(s, "py(", 3) != 0)
		return NULL;
	for (d = s + 3; isdigit((unsigned char)*d); d++)
		;
	if (d == s + 3 || strncmp(d, "):", 2) != 0)
		return NULL;
	return d + 2;
}

/* The python-function names that gate TraceLens's MLA and V4 extensions:
 * MLA decode  "mla.py" and "mla_decode_fwd" in it and aiter/mla.py\(\d+\): mla_decode_fwd,
 * MLA prefill ":\s*mla_fp8_prefill_attn(\b|$)",
 * V4 decode   paged_decode\.py\(\d+\):\s*sparse_attn_v4_paged_decode. */
enum { PY_MLA_DECODE = 1, PY_MLA_PREFILL = 2, PY_V4_DECODE = 4 };

static int
py_gates(const char *n)
{
	const char *p, *e;
	int g = 0;

	if (strstr(n, "mla.py") && strstr(n, "mla_decode_fwd"))
		for (p = n; (p = strstr(p, "aiter/mla")) != NULL; p++)
			if (p[9] && (e = py_line(p + 10)) && strncmp(e, " mla_decode_fwd", 15) == 0)
				g |= PY_MLA_DECODE;
	for (p = n; (p = strchr(p, ':')) != NULL; p++) {
		for (e = p + 1; isspace((unsigned char)*e); e++)
			;
		if (strncmp(e, "mla_fp8_prefill_attn", 20) == 0 &&
		    !isalnum((unsigned char)e[20]) && e[20] != '_')
			g |= PY_MLA_PREFILL;
	}
	for (p = n; (p = strstr(p, "paged_decode.")) != NULL; p++)
		if ((e = py_line(p + 13)) != NULL) {
			while (isspace((unsigned char)*e))
				e++;
			if (strncmp(e, "sparse_attn_v4_paged_decode", 27) == 0)
				g |= PY_V4_DECODE;
		}
	return g;
}

/* --enable_pseudo_ops (§3.2; TraceLens's apply_pseudo_op_extensions): sglang_profiler::
 * CPU op names without their trailing "_<digits>". TraceLens then runs an extension only
 * when its gate holds; ttp builds none of them yet, so a trace that opens a gate stops the
 * report, and any other trace (vllm::moe_forward without vllm::rocm_aiter_fused_moe or a
 * matmul_ogs kernel, say) gets exactly TraceLens's report. Gates:
 *   MoE_Fused          vllm::moe_forward and vllm::rocm_aiter_fused_moe
 *   MoE_Unfused_Triton vllm::moe_forward and a kernel name containing matmul_ogs (any case)
 *   MoE_GPTQ_AWQ       vllm::outplace_fused_experts and a kernel name containing
 *                      fused_moe_kernel_gptq_awq
 *   MoE_Flydsl         aiter::fused_moe_
 *   MLA_Decode         aiter::mla_decode_stage1_asm_fwd and the python function (py_gates)
 *   MLA_Prefill        aiter::mla_prefill_ps_asm_fwd and the python function
 *   V4_Paged_Decode    the python function alone
 *   paged-attention KV-cache dtypes: _rocm_C::paged_attention, aiter::paged_attention_v1 */
enum { MOE_FWD = 1, AITER_MOE = 2, OUTPLACE = 4, FLYDSL = 8, MLA_D = 16, MLA_P = 32,
    ROCM_PA = 64, AITER_PA = 128 };
static const struct { const char *name; int bit; } gate[] = {
	{ "vllm::moe_forward", MOE_FWD }, { "vllm::rocm_aiter_fused_moe", AITER_MOE },
	{ "vllm::outplace_fused_experts", OUTPLACE }, { "aiter::fused_moe_", FLYDSL },
	{ "aiter::mla_decode_stage1_asm_fwd", MLA_D },
	{ "aiter::mla_prefill_ps_asm_fwd", MLA_P },
	{ "_rocm_C::paged_attention", ROCM_PA }, { "aiter::paged_attention_v1", AITER_PA },
	{ NULL, 0 } };

bool
tl_pseudo_name(const char *n)
{
	size_t j;

	for (j = 0; gate[j].name; j++)
		if (strcmp(n, gate[j].name) == 0)
			return true;
	return py_gates(n) != 0 || strncmp(n, "sglang_profiler::", 17) == 0;
}

const char *
tl_pseudo_ops(struct tl *tl)
{
	const char *why = NULL;
	size_t i, j, len, k;
	int has = 0, py = 0, ogs = 0, awq = 0;

	for (i = 0; i < tl->nop; i++) {
		struct top *o = &tl->op[i];
		const char *n = tl_str(tl, o->name);

		for (j = 0; gate[j].name; j++)
			if (strcmp(n, gate[j].name) == 0)
				has |= gate[j].bit;
		py |= py_gates(n);
		if (o->runtime || strncmp(n, "sglang_profiler::", 17) != 0)
			continue;
		len = strlen(n);
		for (k = len; k > 17 && isdigit((unsigned char)n[k - 1]); k--)
			;
		/* ^(sglang_profiler::.+?)_\d+$: at least one character kept before "_" */
		if (k < len && k > 18 && n[k - 1] == '_') {
			struct buf b = BUF_INIT;

			buf_add(&b, n, k - 1);
			o->name = tl_intern_buf(tl, &b);
			buf_free(&b);
		}
	}
	if (has & (MOE_FWD | OUTPLACE))
		for (i = 0; i < tl->nk; i++) {
			const char *n = tl_str(tl, tl->k[i].name);

			if (tl->k[i].gpu != TL_GPU_KERNEL)
				continue;
			ogs |= contains(n, "matmul_ogs", 1);
			awq |= contains(n, "fused_moe_kernel_gptq_awq", 0);
		}
	if ((has & MOE_FWD) && (has & AITER_MOE))
		why = "vllm::moe_forward with vllm::rocm_aiter_fused_moe (MoE_Fused)";
	else if ((has & MOE_FWD) && ogs)
		why = "vllm::moe_forward with matmul_ogs kernels (MoE_Unfused_Triton)";
	else if ((has & OUTPLACE) && awq)
		why = "vllm::outplace_fused_experts with fused_moe_kernel_gptq_awq kernels "
		    "(MoE_GPTQ_AWQ)";
	else if (has & FLYDSL)
		why = "aiter::fused_moe_ (MoE_Flydsl)";
	else if ((has & MLA_D) && (py & PY_MLA_DECODE))
		why = "aiter::mla_decode_stage1_asm_fwd under aiter/mla.py mla_decode_fwd (MLA_Decode)";
	else if ((has & MLA_P) && (py & PY_MLA_PREFILL))
		why = "aiter::mla_prefill_ps_asm_fwd under mla_fp8_prefill_attn (MLA_Prefill)";
	else if (py & PY_V4_DECODE)
		why = "paged_decode.py sparse_attn_v4_paged_decode (V4_Paged_Decode)";
	else if (has & ROCM_PA)
		why = "_rocm_C::paged_attention (KV-cache dtype)";
	else if (has & AITER_PA)
		why = "aiter::paged_attention_v1 (KV-cache dtype)";
	return why;
}
