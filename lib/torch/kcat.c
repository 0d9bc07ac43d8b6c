/* SPDX-License-Identifier: ISC */
/*
 * kcat: TraceLens's kernel categories by name (see kcat.h). Stage 1 looks the name's
 * first token up in a table; stage 2 tries the substring rules in order. The comments
 * name the reference's groups.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "torch/kcat.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct str {
	const char	*p;
	size_t		 n;
};

static bool
has(struct str s, const char *pat)
{
	size_t m = strlen(pat);

	return m <= s.n && memmem(s.p, s.n, pat, m) != NULL;
}

static bool
any(struct str s, const char *const *pats, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (has(s, pats[i]))
			return true;
	return false;
}

static bool
prefixed(struct str s, const char *pat)
{
	size_t m = strlen(pat);

	return s.n >= m && memcmp(s.p, pat, m) == 0;
}

/* Stage 1: the first token (before the first '_', else the first ' ', else the first
 * 20 characters), lower-cased. */
static const struct {
	const char	*prefix, *cat;
} prefixes[] = {
	{ "cijk", "GEMM-CK" }, { "sgemm", "GEMM-Generic" }, { "dgemm", "GEMM-Generic" },
	{ "hgemm", "GEMM-Generic" }, { "gemm", "GEMM-Generic" },
	{ "cutlass", "GEMM-CUTLASS" }, { "cublas", "GEMM-cuBLAS" },
	{ "rocblas", "GEMM-ROCm" }, { "hipblas", "GEMM-ROCm" },
	{ "fmha", "Attention-Generic" }, { "flash", "Attention-Generic" },
	{ "paged", "PagedAttention-Generic" },
	{ "pagedattention", "PagedAttention-Generic" },
	{ "rmsnorm", "Norm-RMS" }, { "layernorm", "Norm-Layer" },
	{ "batchnorm", "Norm-Batch" }, { "softmax", "Activation-Softmax" },
	{ "gelu", "Activation-GELU" }, { "silu", "Activation-SiLU" },
	{ "rope", "RoPE-Generic" }, { "rotary", "RoPE-Generic" },
	{ "transpose", "Memory-Transpose" }, { "memcpy", "Memory-Copy" },
	{ "memset", "Memory-Set" }, { "triton", "Triton-Custom" },
};

static const char *
stage1(struct str name, struct str low)
{
	static const char *const fp4[] = { "fp4", "int4", "f4" };
	static const char *const fp8[] = { "fp8", "int8", "f8" };
	const char *us = memchr(name.p, '_', name.n), *sp = memchr(name.p, ' ', name.n);
	size_t plen, i;

	plen = us ? (size_t)(us - name.p) : sp ? (size_t)(sp - name.p) :
	    low.n < 20 ? low.n : 20;
	for (i = 0; i < N(prefixes); i++) {
		const char *cat = prefixes[i].cat;

		if (strlen(prefixes[i].prefix) != plen ||
		    memcmp(prefixes[i].prefix, low.p, plen) != 0)
			continue;
		if (strncmp(cat, "GEMM", 4) == 0) {
			if (has(low, "splitk"))
				return "GEMM-SplitK";
			if (any(low, fp4, N(fp4)))
				return "GEMM-FP4";
			if (any(low, fp8, N(fp8)))
				return "GEMM-FP8";
		}
		if (strncmp(cat, "Attention", 9) == 0) {
			if (has(low, "fwd") || has(low, "forward"))
				return "Attention-Forward";
			if (has(low, "bwd") || has(low, "backward"))
				return "Attention-Backward";
		}
		if (strncmp(cat, "PagedAttention", 14) == 0) {
			if (has(low, "fwd") || has(low, "forward"))
				return "PagedAttention-Forward";
			if (has(low, "bwd") || has(low, "backward"))
				return "PagedAttention-Backward";
		}
		return cat;
	}
	return NULL;
}

/* The framework named by the namespace before the first "::", or NULL. */
static const char *
framework(struct str name, struct str low)
{
	const char *c = memmem(name.p, name.n, "::", 2);
	struct str ns;

	if (c == NULL)
		return NULL;
	ns.p = low.p;
	ns.n = (size_t)(c - name.p);
	if (has(ns, "vllm"))
		return "vLLM";
	if (has(ns, "sglang") || has(ns, "sgl"))
		return "SGLang";
	if (has(ns, "tgi") || has(ns, "text_generation"))
		return "TGI";
	if (has(ns, "transformers") || has(ns, "hf") || has(ns, "huggingface"))
		return "HuggingFace";
	if (has(ns, "tensorrt") || has(ns, "trt"))
		return "TensorRT";
	if (has(ns, "onnx") || has(ns, "ort"))
		return "ONNX";
	return NULL;
}

/* The "-Custom" categories of the namespace before "::" when no framework matched. */
/* "KVCache-<framework>" (custom 0) or "<framework>-Custom" (custom 1). */
static const char *
fw_cat(const char *fw, int custom)
{
	static const char *const cats[][3] = {
		{ "vLLM", "KVCache-vLLM", "vLLM-Custom" },
		{ "SGLang", "KVCache-SGLang", "SGLang-Custom" },
		{ "TGI", "KVCache-TGI", "TGI-Custom" },
		{ "HuggingFace", "KVCache-HuggingFace", "HuggingFace-Custom" },
		{ "TensorRT", "KVCache-TensorRT", "TensorRT-Custom" },
		{ "ONNX", "KVCache-ONNX", "ONNX-Custom" },
	};
	size_t i;

	for (i = 0; i < N(cats); i++)
		if (strcmp(fw, cats[i][0]) == 0)
			return cats[i][1 + custom];
	return "Uncategorized";
}

static const char *
other_framework(struct str name, struct str low)
{
	const char *c = memmem(name.p, name.n, "::", 2);
	struct str ns;

	if (c == NULL)
		return NULL;
	ns.p = low.p;
	ns.n = (size_t)(c - name.p);
	if (has(ns, "hf") || has(ns, "huggingface") || has(ns, "transformers"))
		return "HuggingFace-Custom";
	if (has(ns, "tensorrt") || has(ns, "trt"))
		return "TensorRT-Custom";
	if (has(ns, "onnx") || has(ns, "ort"))
		return "ONNX-Custom";
	if (has(ns, "deepspeed") || has(ns, "ds"))
		return "DeepSpeed-Custom";
	if (has(ns, "megatron") || has(ns, "mcore"))
		return "Megatron-Custom";
	if (has(ns, "fairscale") || has(ns, "fair"))
		return "FairScale-Custom";
	return NULL;
}

static const char *
stage2(struct str name, struct str l)
{
	static const char *const gemm[] = {
		"gemm", "cijk", "matmul", "cublas", "nvjet", "mfma", "wmma", "tensor_op",
		"sgemm", "dgemm", "hgemm", "bgemm", "i8gemm", "f4gemm", "f8gemm", "cutlass",
		"rocblas", "hipblas", "matrix_multiply"
	};
	static const char *const attn[] = {
		"attention", "fmha", "flash", "attn", "sdpa", "scaled_dot_product"
	};
	static const char *const norm[] = {
		"norm", "rmsnorm", "layernorm", "batchnorm", "instancenorm", "groupnorm"
	};
	static const char *const act[] = {
		"relu", "gelu", "silu", "swish", "sigmoid", "tanh", "softmax", "act_and_mul",
		"activation"
	};
	static const char *const elem[] = {
		"elementwise", "pointwise", "add", "mul", "div", "sub", "fused_add", "scalar"
	};
	static const char *const red[] = {
		"reduce", "sum", "mean", "max", "min", "argmax", "argmin", "all_reduce"
	};
	static const char *const mem[] = {
		"copy", "memcpy", "memset", "transpose", "permute", "reshape", "cast",
		"convert", "fill_buffer", "matrix_transpose", "data_transfer"
	};
	static const char *const comm[] = {
		"nccl", "rccl", "msccl", "allreduce", "allgather", "reducescatter", "broadcast",
		"send", "recv", "barrier", "alltoall"
	};
	static const char *const quant[] = {
		"quant", "dequant", "fp8", "int8", "int4", "fp4", "scale", "per_group",
		"per_channel", "quantize", "dequantize", "qkv_quant", "weight_quant"
	};
	static const char *const cache[] = {
		"cache", "reshape_and_cache", "kv_cache", "key_value_cache"
	};
	static const char *const emb[] = { "embedding", "lookup", "gather", "scatter", "index" };
	static const char *const samp[] = {
		"sample", "topk", "topp", "beam", "argmax", "argmin", "sampling", "select",
		"choice", "greedy", "nucleus"
	};
	static const char *const fw_kv[] = { "qk", "rope", "cache" };
	static const char *const fw_norm[] = { "add", "rmsnorm", "layernorm", "norm" };
	const char *fw = framework(name, l);

	/* PagedAttention */
	if (has(l, "paged_attention") || has(l, "pagedattention")) {
		if (has(l, "reduce"))
			return "PagedAttention-Reduce";
		if (has(l, "qkv") || has(l, "kernel") || has(l, "prefill") || has(l, "decode"))
			return "PagedAttention-Compute";
		return "PagedAttention-Generic";
	}
	if (has(l, "chunked_prefill") || has(l, "continuous_batch") || has(l, "batch_decode"))
		return "InferenceBatching";
	if (any(l, gemm, N(gemm))) {
		if (has(l, "f4gemm") || has(l, "fp4") || has(l, "int4"))
			return "GEMM-FP4";
		if (has(l, "f8gemm") || has(l, "fp8") || has(l, "int8"))
			return "GEMM-FP8";
		if (has(l, "cijk"))
			return "GEMM-CK";
		if (has(l, "cublas") || has(l, "cublaslt"))
			return "GEMM-cuBLAS";
		if (has(l, "cutlass"))
			return "GEMM-CUTLASS";
		if (has(l, "rocblas") || has(l, "hipblas"))
			return "GEMM-ROCm";
		if (has(l, "nvjet"))
			return "GEMM-NVJET";
		if (has(l, "mfma"))
			return "GEMM-MFMA";
		if (has(l, "wmma"))
			return "GEMM-WMMA";
		if (has(l, "splitk") || has(l, "wvsplitk"))
			return "GEMM-SplitK";
		if (has(l, "tensor_op"))
			return "GEMM-TensorOp";
		return "GEMM-Generic";
	}
	if (any(l, attn, N(attn))) {
		if (has(l, "fwd") || has(l, "forward") || has(l, "fprop"))
			return "Attention-Forward";
		if (has(l, "bwd") || has(l, "backward") || has(l, "bprop"))
			return "Attention-Backward";
		return "Attention-Generic";
	}
	if (has(l, "conv") || has(l, "winograd") || has(l, "im2col") || has(l, "fillbuffer")) {
		if (has(l, "fwd") || has(l, "forward"))
			return "Conv-Forward";
		if (has(l, "bwd") || has(l, "backward"))
			return "Conv-Backward";
		return "Conv-Generic";
	}
	if (has(l, "fused")) {
		if (any(l, fw_norm, N(fw_norm)))
			return "Fused-AddNorm";
		if (any(l, fw_kv, N(fw_kv)))
			return "Fused-QKRoPECache";
		if (has(l, "mlp") || has(l, "ffn"))
			return "Fused-MLP";
		return "Fused-Generic";
	}
	if (any(l, norm, N(norm))) {
		if (has(l, "rms"))
			return "Norm-RMS";
		if (has(l, "layer"))
			return "Norm-Layer";
		if (has(l, "batch"))
			return "Norm-Batch";
		return "Norm-Generic";
	}
	if (any(l, act, N(act))) {
		if (has(l, "act_and_mul"))
			return "Activation-Gated";
		if (has(l, "silu") || has(l, "swish"))
			return "Activation-SiLU";
		if (has(l, "gelu"))
			return "Activation-GELU";
		if (has(l, "softmax"))
			return "Activation-Softmax";
		return "Activation-Generic";
	}
	if (any(l, elem, N(elem)))
		return "Elementwise";
	if (any(l, red, N(red)))
		return "Reduce";
	if (any(l, mem, N(mem))) {
		if (has(l, "transpose") || has(l, "permute"))
			return "Memory-Transpose";
		if (has(l, "copy") || has(l, "memcpy") || has(l, "data_transfer"))
			return "Memory-Copy";
		if (has(l, "memset") || has(l, "fill_buffer"))
			return "Memory-Set";
		if (has(l, "reshape") || has(l, "cast") || has(l, "convert"))
			return "Memory-Reshape";
		return "Memory-Generic";
	}
	if (any(l, comm, N(comm))) {
		if (has(l, "allreduce"))
			return "Comm-AllReduce";
		if (has(l, "allgather"))
			return "Comm-AllGather";
		if (has(l, "reducescatter"))
			return "Comm-ReduceScatter";
		if (has(l, "alltoall"))
			return "Comm-AllToAll";
		if (has(l, "send"))
			return "Comm-Send";
		if (has(l, "recv"))
			return "Comm-Recv";
		if (has(l, "broadcast"))
			return "Comm-Broadcast";
		if (has(l, "barrier"))
			return "Comm-Barrier";
		return "Comm-Generic";
	}
	if (any(l, quant, N(quant))) {
		if (has(l, "per_group") || has(l, "per_channel"))
			return "Quant-PerGroup";
		if (has(l, "dynamic"))
			return "Quant-Dynamic";
		if (has(l, "dequant"))
			return "Dequant";
		if (has(l, "weight"))
			return "Quant-Weight";
		if (has(l, "activation") || has(l, "act"))
			return "Quant-Activation";
		return "Quant-Generic";
	}
	if (has(l, "rope") || has(l, "rotary")) {
		if (has(l, "cached"))
			return "RoPE-Cached";
		if (has(l, "gqa") || has(l, "grouped"))
			return "RoPE-GQA";
		return "RoPE-Generic";
	}
	if (any(l, cache, N(cache)) && !has(l, "paged")) {
		if (has(l, "reshape"))
			return "KVCache-Reshape";
		if (has(l, "append") || has(l, "update"))
			return "KVCache-Update";
		if (has(l, "compress") || has(l, "prune"))
			return "KVCache-Compression";
		return fw != NULL ? fw_cat(fw, 0) : "KVCache-Generic";
	}
	if (any(l, emb, N(emb))) {
		if (has(l, "gather"))
			return "Indexing-Gather";
		if (has(l, "scatter"))
			return "Indexing-Scatter";
		return "Indexing-Generic";
	}
	if (any(l, samp, N(samp))) {
		if (has(l, "topk") || has(l, "top_k"))
			return "Sampling-TopK";
		if (has(l, "topp") || has(l, "top_p") || has(l, "nucleus"))
			return "Sampling-TopP";
		if (has(l, "argmax") || has(l, "argmin") || has(l, "greedy"))
			return "Sampling-ArgMax";
		if (has(l, "beam"))
			return "Sampling-Beam";
		return "Sampling-Generic";
	}
	if (has(l, "speculative") || has(l, "draft") || has(l, "verify_tokens"))
		return "SpeculativeDecoding";
	if (has(l, "radix") || has(l, "prefix_cache") || has(l, "tree_attention"))
		return "PrefixCaching";
	if (has(l, "logits") || has(l, "token_gen") || has(l, "next_token"))
		return "TokenGeneration";
	if (has(l, "triton"))
		return "Triton-Custom";
	if (has(l, "flashinfer") || has(l, "flash_infer"))
		return "FlashInfer";
	if (prefixed(name, "_fwd_kernel"))
		return "Kernel-Forward";
	if (prefixed(name, "_bwd_kernel"))
		return "Kernel-Backward";
	if (fw != NULL)
		return fw_cat(fw, 1);
	{
		const char *o = other_framework(name, l);

		if (o != NULL)
			return o;
	}
	return "Uncategorized";
}

const char *
kcat_name(const char *s, size_t n)
{
	char small[256], *big = NULL, *lp;
	struct str name = { s, n }, low;
	const char *c;
	size_t i;

	lp = n <= sizeof(small) ? small : (big = malloc(n));
	if (lp == NULL)
		lp = small, n = name.n = sizeof(small);	/* out of memory: a prefix */
	for (i = 0; i < n; i++)
		lp[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
	low.p = lp;
	low.n = n;
	if ((c = stage1(name, low)) == NULL)
		c = stage2(name, low);
	free(big);
	return c;
}
