/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for the PyTorch perf models and roofline (torch/opclass, torch/perfmodel,
 * torch/roofline): every model family on shapes whose FLOPs and bytes are worked out
 * by hand here, categories, GPUs, the roofline and backward links.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/hwspec.h"
#include "core/numfmt.h"
#include "core/rec.h"
#include "torch/opclass.h"
#include "torch/roofline.h"
#include "tap.h"

static struct troof *tr;

/* One op record: name, its "in" entries as JSON, subtree busy time in ns, more members
 * (",\"k\":v..."). */
static struct rec *
op_more(const char *name, const char *in, long long ns, const char *more)
{
	static char line[8192];
	static int id = 100;
	struct rec *r;

	snprintf(line, sizeof(line), "{\"kind\":\"op\",\"trace\":\"kineto\",\"id\":%d,"
	    "\"op\":\"%s\",\"subtree_ns\":%lld,\"in\":[%s]%s}", id++, name, ns, in, more);
	r = tap_rec(line, strlen(line), "t:1");
	troof_record(tr, r);
	return r;
}

static struct rec *
op(const char *name, const char *in, long long ns)
{
	return op_more(name, in, ns, "");
}

static void
num_is(struct rec *r, const char *key, double want, const char *what)
{
	double got = NAN;

	if (!ok(rec_num(r, key, &got) && fabs(got - want) <= 1e-9 * fabs(want), "%s: %s",
	    what, key))
		printf("#   got %.17g, want %.17g\n", got, want);
}

static void
raw_is(struct rec *r, const char *key, const char *want, const char *what)
{
	char name[128];

	snprintf(name, sizeof(name), "%s: %s", what, key);
	is_str(rec_raw(r, key, NULL), want, name);
}

#define T(shape, dtype, strides, value) \
	"{\"shape\":" shape ",\"dtype\":\"" dtype "\",\"strides\":" strides \
	",\"value\":\"" value "\"}"
#define S(value) T("[]", "Scalar", "[]", value)
#define BF "c10::BFloat16"

static void
test_gemm(void)
{
	struct rec *r;

	/* 2 * 4096^3 = 137438953472 FLOPs (137.4 GFLOPs); 3 * 4096^2 * 2 bytes */
	r = op("aten::mm", T("[4096,4096]", BF, "[4096,1]", "") ","
	    T("[4096,4096]", BF, "[4096,1]", ""), 1000000);
	raw_is(r, "flops", "137438953472", "mm 4096^3 bf16");
	raw_is(r, "bytes", "100663296", "mm 4096^3 bf16");
	raw_is(r, "category", "\"GEMM\"", "mm");
	raw_is(r, "compute_spec", "\"matrix_bf16\"", "mm");
	raw_is(r, "params", "{\"M\":4096,\"N\":4096,\"K\":4096,\"bias\":false,"
	    "\"stride_A\":[4096,1],\"stride_B\":[4096,1],\"dtype_A_B\":[\"c10::BFloat16\","
	    "\"c10::BFloat16\"],\"B\":1}", "mm");
	num_is(r, "tflops", 137.438953472, "mm in 1 ms");
	rec_free(r);

	/* addmm: bias [4] + A [2,3] x B [3,4]: 2*2*4*3 + 2*4 = 56; (6+12+8+4)*2 = 60 */
	r = op("aten::addmm", T("[4]", BF, "[1]", "") "," T("[2,3]", BF, "[3,1]", "") ","
	    T("[3,4]", BF, "[4,1]", "") "," S("1") "," S("1"), 0);
	raw_is(r, "flops", "56", "addmm");
	raw_is(r, "bytes", "60", "addmm");
	ok(!rec_has(r, "tflops"), "addmm: no time, no tflops");
	rec_free(r);

	/* bmm fp32 [2,3,4] x [2,4,5]: 2 * (2*3*5*4) = 240; 2 * (12+20+15) * 4 = 376 */
	r = op("aten::bmm", T("[2,3,4]", "float", "[12,4,1]", "") ","
	    T("[2,4,5]", "float", "[20,5,1]", ""), 0);
	raw_is(r, "flops", "240", "bmm");
	raw_is(r, "bytes", "376", "bmm");
	raw_is(r, "compute_spec", "\"matrix_fp32\"", "bmm");
	rec_free(r);

	/* _scaled_mm fp8 16x32x8: 8192 FLOPs; output at 2 bytes: 512+256+256 */
	r = op("aten::_scaled_mm", T("[16,32]", "c10::Float8_e4m3fn", "[32,1]", "") ","
	    T("[32,8]", "c10::Float8_e4m3fn", "[1,32]", ""), 0);
	raw_is(r, "flops", "8192", "scaled_mm fp8");
	raw_is(r, "bytes", "1024", "scaled_mm fp8");
	raw_is(r, "compute_spec", "\"matrix_fp8\"", "scaled_mm fp8");
	rec_free(r);

	/* an unknown dtype: bytes unknown (null), no intensity */
	r = op("aten::mm", T("[2,2]", "bool", "[2,1]", "") "," T("[2,2]", "bool", "[2,1]", ""),
	    0);
	raw_is(r, "bytes", "null", "mm bool");
	ok(!rec_has(r, "intensity"), "mm bool: no intensity");
	raw_is(r, "compute_spec", "\"\"", "mm bool");
	rec_free(r);
}

static void
test_conv(void)
{
	struct rec *r;
	const char *args = T("[1,1,4,4]", "float", "[16,16,4,1]", "") ","
	    T("[1,1,3,3]", "float", "[9,9,3,1]", "") "," T("[]", "", "[]", "") ","
	    S("[1, 1]") "," S("[0, 0]") "," S("[1, 1]") "," S("False") "," S("[0, 0]") ","
	    S("1");

	/* out [1,1,2,2]: 2 * 9 * 4 = 72 FLOPs; (16 + 9 + 4) * 4 = 116 bytes */
	r = op("aten::convolution", args, 0);
	raw_is(r, "flops", "72", "conv 3x3 on 4x4");
	raw_is(r, "bytes", "116", "conv 3x3 on 4x4");
	raw_is(r, "category", "\"CONV_fwd\"", "conv");
	rec_free(r);

	/* stride given once is broadcast; padding 1 keeps 4x4: 2*9*16 = 288 */
	r = op("aten::convolution", T("[1,1,4,4]", "float", "[16,16,4,1]", "") ","
	    T("[1,1,3,3]", "float", "[9,9,3,1]", "") "," T("[]", "", "[]", "") ","
	    S("[1]") "," S("[1]") "," S("[1]") "," S("False") "," S("[0]") "," S("1"), 0);
	raw_is(r, "flops", "288", "conv padded");
	rec_free(r);

	/* convolution_backward, x at 1: input grad 72 + weight grad 2*9*1*4 = 144;
	 * bytes 2 * (4 + 9 + 16) * 4 = 232 */
	r = op("aten::convolution_backward", T("[1,1,2,2]", "float", "[4,4,2,1]", "") ","
	    T("[1,1,4,4]", "float", "[16,16,4,1]", "") ","
	    T("[1,1,3,3]", "float", "[9,9,3,1]", "") "," T("[]", "", "[]", "") ","
	    S("[1, 1]") "," S("[0, 0]") "," S("[1, 1]") "," S("False") "," S("[0, 0]") ","
	    S("1") "," S("[True, True, False]"), 0);
	raw_is(r, "flops", "144", "conv bwd");
	raw_is(r, "bytes", "232", "conv bwd");
	raw_is(r, "category", "\"CONV_bwd\"", "conv bwd");
	rec_free(r);

	/* mixed input and weight dtypes: TraceLens drops the row; ttp says why */
	r = op("aten::convolution", T("[1,1,4,4]", "float", "[16,16,4,1]", "") ","
	    T("[1,1,3,3]", BF, "[9,9,3,1]", "") "," T("[]", "", "[]", "") ","
	    S("[1, 1]") "," S("[0, 0]") "," S("[1, 1]") "," S("False") "," S("[0, 0]") ","
	    S("1"), 0);
	ok(rec_has(r, "model_error") && !rec_has(r, "flops"), "conv mixed dtypes: error");
	rec_free(r);
}

static void
test_sdpa(void)
{
	struct rec *r;
	const char *q8 = T("[1,1,8,4]", BF, "[32,32,4,1]", "");

	/* Falcon: B=4, N=197, H=12, d=64: 0.476884992 GFLOPs, 4.6171875 MB */
	r = op("aten::_scaled_dot_product_flash_attention",
	    T("[4,12,197,64]", BF, "[151296,64,768,1]", "") ","
	    T("[4,12,197,64]", BF, "[151296,64,768,1]", "") ","
	    T("[4,12,197,64]", BF, "[151296,64,768,1]", "") "," S("0.") "," S("False") ","
	    S("False") "," S("0.125"), 0);
	raw_is(r, "flops", "476884992", "sdpa flash");
	raw_is(r, "bytes", "4841472", "sdpa flash");
	raw_is(r, "category", "\"SDPA_fwd\"", "sdpa flash");
	rec_free(r);

	/* causal B=H=1, N=8, d=4: 2 * (2*8*8*4) / 2 = 512 (a float in Python) */
	r = op("aten::_scaled_dot_product_flash_attention", "" T("[1,1,8,4]", BF,
	    "[32,32,4,1]", "") "," T("[1,1,8,4]", BF, "[32,32,4,1]", "") ","
	    T("[1,1,8,4]", BF, "[32,32,4,1]", "") "," S("0.") "," S("True"), 0);
	raw_is(r, "flops", "512.0", "sdpa causal");
	rec_free(r);

	/* flash_attn [B, N, H, d] with fp32 inputs: bytes still at 2 bytes (QUIRK) */
	r = op("flash_attn::_flash_attn_forward", T("[1,8,1,4]", "float", "[32,4,4,1]", "")
	    "," T("[1,8,1,4]", "float", "[32,4,4,1]", "") ","
	    T("[1,8,1,4]", "float", "[32,4,4,1]", "") "," S("0.0") "," S("0.5") ","
	    S("False"), 0);
	raw_is(r, "flops", "1024", "flash_attn");
	raw_is(r, "bytes", "256", "flash_attn: 4 tensors * 32 elements * 2");
	rec_free(r);

	/* K and V disagree: dropped with a reason */
	r = op("aten::_scaled_dot_product_efficient_attention", "" T("[1,1,8,4]", BF,
	    "[32,32,4,1]", "") "," T("[1,1,8,4]", BF, "[32,32,4,1]", "") ","
	    T("[1,2,8,4]", BF, "[64,32,4,1]", "") "," S("") "," S("False") "," S("0.0") ","
	    S("False"), 0);
	ok(rec_has(r, "model_error"), "sdpa heads of K and V differ: error");
	rec_free(r);
	(void)q8;
}

static void
test_elementwise(void)
{
	struct rec *r;

	/* Falcon add_ (4,768,14,14) + (1,768,1,1) bf16: 602112 FLOPs, 2.29833984375 MB */
	r = op("aten::add_", T("[4,768,14,14]", BF, "[150528,196,14,1]", "") ","
	    T("[1,768,1,1]", BF, "[768,1,1,1]", "") "," S("1"), 0);
	raw_is(r, "flops", "602112", "add_ broadcast");
	num_is(r, "bytes", 2.29833984375 * 1048576, "add_ broadcast");
	raw_is(r, "compute_spec", "\"vector_bf16\"", "add_");
	raw_is(r, "category", "\"elementwise\"", "add_");
	rec_free(r);

	/* a tensor times a scalar (shape ()): out at the tensor's bytes: 6*4 + 1*4 + 6*4 */
	r = op("aten::mul", T("[2,3]", "float", "[3,1]", "") "," T("[]", "Scalar", "[]", "2"),
	    0);
	raw_is(r, "flops", "6", "mul scalar");
	raw_is(r, "bytes", "52", "mul scalar");
	rec_free(r);

	/* shapes that do not broadcast */
	r = op("aten::add", T("[2,3]", "float", "[3,1]", "") "," T("[4]", "float", "[1]", ""),
	    0);
	ok(rec_has(r, "model_error"), "add (2,3)+(4): error");
	rec_free(r);

	/* unary copy_ long -> int: 32 elements, 32*8 + 32*4 */
	r = op("aten::copy_", T("[32]", "long int", "[1]", "") "," T("[32]", "int", "[1]", "")
	    "," S("False"), 0);
	raw_is(r, "flops", "32", "copy_");
	raw_is(r, "bytes", "384", "copy_");
	raw_is(r, "compute_spec", "\"\"", "copy_ of integers");
	rec_free(r);

	/* replication_pad2d (1,1,4,4) by [1,1,2,2]: out (1,1,8,6): 48 FLOPs, (16+48)*2 */
	r = op("aten::replication_pad2d", T("[1,1,4,4]", BF, "[16,16,4,1]", "") ","
	    S("[1, 1, 2, 2]"), 0);
	raw_is(r, "flops", "48", "replication_pad2d");
	raw_is(r, "bytes", "128", "replication_pad2d");
	rec_free(r);
}

static void
test_reduce_norm(void)
{
	struct rec *r;

	/* Qwen aten::mean (16,559,1024) fp32: one output element (QUIRK): 34.9375038 MB */
	r = op("aten::mean", T("[16,559,1024]", "float", "[572416,1024,1]", "") ","
	    S("[-1]") "," S("True") "," S(""), 0);
	raw_is(r, "flops", "9158656", "mean");
	raw_is(r, "bytes", "36634628", "mean");
	rec_free(r);

	r = op("aten::cumsum", T("[32]", "int", "[1]", "") "," S("0") "," T("[]", "", "[]", ""),
	    0);
	raw_is(r, "bytes", "256", "cumsum: out = in");
	rec_free(r);

	/* Falcon layer_norm (4,197,768), C=768: 0.003030528 GFLOPs, 2.3173828125 MB */
	r = op("aten::layer_norm", T("[4,197,768]", BF, "[151296,768,1]", "") ","
	    T("[]", "ScalarList", "[]", "[768]") "," T("[768]", BF, "[1]", "") ","
	    T("[768]", BF, "[1]", "") "," S("1e-12") "," S("True"), 0);
	raw_is(r, "flops", "3030528", "layer_norm");
	num_is(r, "bytes", 2.3173828125 * 1048576, "layer_norm");
	raw_is(r, "category", "\"NORM_fwd\"", "layer_norm");
	raw_is(r, "family", "\"Normalization\"", "layer_norm");
	raw_is(r, "sheet", "\"Normalization\"", "layer_norm: one sheet");
	rec_free(r);

	/* _fused_rms_norm (2,8), C=8, affine: (16/8)*(2*8+2) + 16*2 = 68.0; 32+32+16 */
	r = op("aten::_fused_rms_norm", T("[2,8]", BF, "[8,1]", "") ","
	    T("[]", "ScalarList", "[]", "[8]") "," T("[8]", BF, "[1]", "") "," S("1e-6"), 0);
	raw_is(r, "flops", "68.0", "rms_norm");
	raw_is(r, "bytes", "80", "rms_norm");
	rec_free(r);

	/* native_layer_norm_backward (2,8), C=8, mask all True, bf16:
	 * 8 * (4*2 + 5*2) = 144.0 FLOPs; 32 + 64 + 16 + 16 + 32 = 160 bytes */
	r = op("aten::native_layer_norm_backward", T("[2,8]", BF, "[8,1]", "") ","
	    T("[2,8]", BF, "[8,1]", "") "," T("[]", "ScalarList", "[]", "[8]") ","
	    T("[2,1]", "float", "[1,1]", "") "," T("[2,1]", "float", "[1,1]", "") ","
	    T("[8]", BF, "[1]", "") "," T("[8]", BF, "[1]", "") ","
	    T("[]", "ScalarList", "[]", "[True, True, True]"), 0);
	raw_is(r, "flops", "144.0", "layer_norm_backward");
	raw_is(r, "bytes", "160", "layer_norm_backward");
	raw_is(r, "category", "\"NORM_bwd\"", "layer_norm_backward");
	rec_free(r);
}

static void
test_others(void)
{
	struct rec *r;
	const char *x28 = T("[2,8]", BF, "[8,1]", "");

	/* FusedRoPEFunc [4,2,8,16]: 1024 elements, 3 FLOPs and 2 accesses each */
	r = op("FusedRoPEFunc", T("[4,2,8,16]", BF, "[256,128,16,1]", "") ","
	    T("[4,1,1,16]", "float", "[16,16,16,1]", ""), 0);
	raw_is(r, "flops", "3072", "FusedRoPE");
	raw_is(r, "bytes", "4096", "FusedRoPE");
	raw_is(r, "category", "\"RoPE_fwd\"", "FusedRoPE");
	rec_free(r);

	/* CrossEntropyFunction logits [8,1,100] bf16: 5*8*100; 1600 + 8*8 + 8*4 */
	r = op("CrossEntropyFunction", T("[8,1,100]", BF, "[100,100,1]", "") ","
	    T("[8,1]", "long int", "[1,1]", ""), 0);
	raw_is(r, "flops", "4000", "CrossEntropy");
	raw_is(r, "bytes", "1696", "CrossEntropy");
	rec_free(r);

	/* MoEDispatch [16,64] bf16: no FLOPs, 2048 bytes, no compute spec */
	r = op("MoEDispatch", T("[16,64]", BF, "[64,1]", ""), 1000);
	raw_is(r, "flops", "0", "MoEDispatch");
	raw_is(r, "bytes", "2048", "MoEDispatch");
	raw_is(r, "compute_spec", "\"\"", "MoEDispatch");
	raw_is(r, "params", "{\"num_tokens\":16,\"hidden_dim\":64,\"bpe\":2}", "MoEDispatch");
	rec_free(r);

	/* causal conv1d x [2,4,10], w [4,3], bias [4]: 2*2*4*10*3; 160 + 24 + 160 + 8 */
	r = op("DaoAILab::_causal_conv1d_fwd_cpp", T("[2,4,10]", BF, "[40,10,1]", "") ","
	    T("[4,3]", BF, "[3,1]", "") "," T("[4]", BF, "[1]", ""), 0);
	raw_is(r, "flops", "480", "causal conv1d");
	raw_is(r, "bytes", "352", "causal conv1d");
	rec_free(r);

	/* silu_and_mul(out [4,8], input [4,16]): 5*32; 2*32*2 + 32*2 */
	r = op("sgl_kernel::silu_and_mul", T("[4,8]", BF, "[8,1]", "") ","
	    T("[4,16]", BF, "[16,1]", ""), 0);
	raw_is(r, "flops", "160", "silu_and_mul");
	raw_is(r, "bytes", "192", "silu_and_mul");
	rec_free(r);

	/* aiter::rms_norm x [2,8], w [8]: 2*18 + 32 = 68.0; 32 + 32 + 16 */
	r = op("aiter::rms_norm", T("[2,8]", BF, "[8,1]", "") "," T("[8]", BF, "[1]", "") ","
	    S("1e-6"), 0);
	raw_is(r, "flops", "68.0", "aiter::rms_norm");
	raw_is(r, "bytes", "80", "aiter::rms_norm");
	raw_is(r, "sheet", "\"RMSNorm_fwd\"", "aiter::rms_norm");
	rec_free(r);

	/* aiter::add_rmsnorm: + 16 for the residual add; 64 + 16 + 64 bytes */
	r = op("aiter::add_rmsnorm", "" T("[2,8]", BF, "[8,1]", "") "," T("[2,8]", BF,
	    "[8,1]", "") "," T("[2,8]", BF, "[8,1]", "") "," T("[2,8]", BF, "[8,1]", "") ","
	    T("[8]", BF, "[1]", "") "," S("1e-6"), 0);
	raw_is(r, "flops", "84.0", "aiter::add_rmsnorm");
	raw_is(r, "bytes", "144", "aiter::add_rmsnorm");
	rec_free(r);
	/* grouped GEMM X [64,32], W [4,32,16]: 2*64*32*16; (2048 + 2048)*2 + 1024*2 */
	r = op("primus_turbo::grouped_gemm_impl", T("[64,32]", BF, "[32,1]", "") ","
	    T("[4,32,16]", BF, "[512,16,1]", ""), 0);
	raw_is(r, "flops", "65536", "grouped GEMM");
	raw_is(r, "bytes", "10240", "grouped GEMM");
	raw_is(r, "params", "{\"M\":64,\"K\":32,\"N\":16,\"G\":4,\"bpe_in\":2,"
	    "\"bpe_out\":2}", "grouped GEMM");
	rec_free(r);
	/* zipped: [[10,32],[20,32]] and [[32,16],[32,16]]: M 30, G 2 */
	r = op("primus_turbo::grouped_gemm", T("[[10,32],[20,32]]", "TensorList", "[]", "")
	    "," T("[[32,16],[32,16]]", "TensorList", "[]", ""), 0);
	raw_is(r, "category", "\"GroupedGEMM_fwd\"", "grouped GEMM zipped");
	ok(rec_has(r, "model_error"), "zipped grouped GEMM of TensorLists: no width");
	rec_free(r);
	r = op("primus_turbo::grouped_gemm", T("[[10,32],[20,32]]", BF, "[]", "") ","
	    T("[[32,16],[32,16]]", BF, "[]", ""), 0);
	raw_is(r, "flops", "30720", "grouped GEMM zipped");
	raw_is(r, "bytes", "4928", "grouped GEMM zipped");
	raw_is(r, "sheet", "\"GroupedGEMM_fwd\"", "grouped GEMM zipped");
	rec_free(r);
	/* hipblaslt_gemm_fp8 A [32,16] x B [16,64]: 2*32*64*16; 512 + 1024 + 32*64*2 */
	r = op("primus_turbo::hipblaslt_gemm_fp8", T("[32,16]", "c10::Float8_e4m3fnuz",
	    "[16,1]", "") "," T("[]", "float", "[]", "") "," T("[16,64]",
	    "c10::Float8_e4m3fnuz", "[64,1]", "") "," T("[]", "float", "[]", "") "," S("5")
	    "," S("0") "," S("0") "," S("False") "," S(""), 0);
	raw_is(r, "flops", "65536", "hipblaslt fp8");
	raw_is(r, "bytes", "5632", "hipblaslt fp8");
	raw_is(r, "compute_spec", "\"matrix_fp8\"", "hipblaslt fp8");
	rec_free(r);
	/* transC swaps A and B and flips both transposes: A' = [16,64] transposed,
	 * B' = [32,16] transposed: M 64, K 16, N 32 */
	r = op("primus_turbo::hipblaslt_gemm_fp8", T("[32,16]", "c10::Float8_e4m3fnuz",
	    "[16,1]", "") "," T("[]", "float", "[]", "") "," T("[16,64]",
	    "c10::Float8_e4m3fnuz", "[64,1]", "") "," T("[]", "float", "[]", "") "," S("5")
	    "," S("0") "," S("0") "," S("True") "," S(""), 0);
	raw_is(r, "flops", "65536", "hipblaslt fp8, transC");
	ok(strstr(rec_raw(r, "params", NULL), "\"M\":64,\"N\":32,\"K\":16") != NULL,
	    "hipblaslt fp8, transC: M 64, N 32, K 16");
	rec_free(r);
	(void)x28;
}

/* The params text of each kind of value: tuples, null strides, reals, booleans, lists of
 * dtypes with nulls, [] for a missing bias, transpose flags from the first kernel that
 * has them, strings with escapes; grouped GEMM pairs read from nested lists. */
static void
test_params(void)
{
	struct rec *r;

	r = op("aten::convolution_backward", T("[1,1,2,2]", "float", "[4,4,2,1]", "") ","
	    T("[1,1,4,4]", "float", "[16,16,4,1]", "") ","
	    T("[1,1,3,3]", "float", "[9,9,3,1]", "") "," T("[]", "", "[]", "") ","
	    S("[1, 1]") "," S("[0, 0]") "," S("[1, 1]") "," S("False") "," S("[0, 0]") ","
	    S("1") "," S("[True, True, False]"), 0);
	raw_is(r, "params", "{\"convNd\":\"conv2d\",\"input_shape\":[1,1,4,4],"
	    "\"filter_shape\":[1,1,3,3],\"dtype_input_weight\":[\"float\",\"float\"],"
	    "\"input_stride\":[16,16,4,1],\"weight_stride\":[9,9,3,1],\"bias\":[],"
	    "\"stride\":[1,1],\"padding\":[0,0],\"dilation\":[1,1],"
	    "\"transposed_conv\":false,\"output_padding\":[0,0],\"groups\":1}", "conv bwd");
	raw_is(r, "params_lists", "[\"bias\"]", "conv bwd: bias [] is a Python list");
	rec_free(r);

	r = op("aten::_scaled_dot_product_flash_attention", T("[1,1,8,4]", BF,
	    "[32,32,4,1]", "") "," T("[1,1,8,4]", BF, "[32,32,4,1]", "") ","
	    T("[1,1,8,4]", BF, "[32,32,4,1]", "") "," S("0.25") "," S("True"), 0);
	raw_is(r, "params", "{\"B\":1,\"N_Q\":8,\"H_Q\":1,\"N_KV\":8,\"H_KV\":1,"
	    "\"d_h_qk\":4,\"d_h_v\":4,\"dropout\":0.25,\"causal\":true,\"flash_impl\":true,"
	    "\"dtype_A_B\":[\"c10::BFloat16\",\"c10::BFloat16\"]}", "sdpa");
	rec_free(r);

	r = op("aten::native_layer_norm_backward", T("[2,8]", BF, "[8,1]", "") ","
	    T("[2,8]", BF, "[8,1]", "") "," T("[]", "ScalarList", "[]", "[8]") ","
	    T("[2,1]", "float", "[1,1]", "") "," T("[2,1]", "float", "[1,1]", "") ","
	    T("[8]", BF, "[1]", "") "," T("[8]", BF, "[1]", "") ","
	    T("[]", "ScalarList", "[]", "[True, False, True]"), 0);
	raw_is(r, "params", "{\"op_shape\":[2,8],\"dtype_in_out\":[\"c10::BFloat16\",null],"
	    "\"stride_input\":[8,1],\"stride_output\":null,\"num_channels\":8,"
	    "\"has_bias\":true,\"is_affine\":false,\"is_training\":true,"
	    "\"output_mask\":[true,false,true]}", "layer_norm_backward");
	raw_is(r, "params_lists", "[\"output_mask\"]", "output_mask is a Python list");
	rec_free(r);

	/* B's strides are null: both strides None */
	r = op("primus_turbo::hipblaslt_gemm_fp8", T("[32,16]", "c10::Float8_e4m3fnuz",
	    "[16,1]", "") "," T("[]", "float", "[]", "") "," T("[16,64]",
	    "c10::Float8_e4m3fnuz", "null", "") "," T("[]", "float", "[]", "") "," S("5")
	    "," S("0") "," S("0") "," S("False") "," S(""), 0);
	raw_is(r, "params", "{\"M\":32,\"N\":64,\"K\":16,\"bias\":false,\"stride_A\":null,"
	    "\"stride_B\":null,\"dtype_A_B\":[\"c10::Float8_e4m3fnuz\","
	    "\"c10::Float8_e4m3fnuz\"],\"dtype_scaleA\":\"float\","
	    "\"dtype_scaleB\":\"float\",\"B\":1}", "hipblaslt fp8");
	rec_free(r);

	/* no strides in the trace; kernels by start: zzz has no flags, nvjet's TN does; a
	 * dtype with escapes */
	r = op_more("aten::mm", "{\"shape\":[4,8],\"dtype\":\"a\\u00e9\\\"q\"},"
	    "{\"shape\":[8,2],\"dtype\":\"" BF "\"}", 0, ",\"kernels\":[{\"name\":"
	    "\"nvjet_tst_64x8_64x16_4x1_v_bz_TN\",\"start_ns\":5},{\"start_ns\":0},"
	    "{\"name\":\"zzz\",\"start_ns\":1}]");
	raw_is(r, "params", "{\"M\":4,\"N\":2,\"K\":8,\"bias\":false,\"stride_A\":null,"
	    "\"stride_B\":null,\"dtype_A_B\":[\"a\u00e9\\\"q\",\"c10::BFloat16\"],\"B\":1,"
	    "\"transpose\":[true,false]}", "mm");
	rec_free(r);

	r = op("MoEDispatch", T("[16]", BF, "[1]", ""), 0);
	raw_is(r, "params", "{\"num_tokens\":16,\"hidden_dim\":null,\"bpe\":2}",
	    "MoEDispatch of a flat shape");
	rec_free(r);

	/* pairs at any depth; [0,5] is not one, nor [1,2,3] */
	r = op("primus_turbo::grouped_gemm", "{\"shape\":[[10,32],[[20,32]],[0,5],[1,2,3]],"
	    "\"dtype\":\"" BF "\"},{\"shape\":[[32,16],[[[32,16]]]],\"dtype\":\"" BF "\"}",
	    0);
	raw_is(r, "params", "{\"M\":30,\"K\":32,\"N\":16,\"G\":2,\"bpe_in\":2,"
	    "\"bpe_out\":2}", "grouped GEMM, nested lists");
	rec_free(r);
	/* two flat shapes are one pair each */
	r = op("primus_turbo::grouped_gemm", T("[64,32]", BF, "[32,1]", "") ","
	    T("[32,16]", BF, "[16,1]", ""), 0);
	raw_is(r, "params", "{\"M\":64,\"K\":32,\"N\":16,\"G\":1,\"bpe_in\":2,"
	    "\"bpe_out\":2}", "grouped GEMM, two flat shapes");
	rec_free(r);

	r = op("triton_poi_fused_add_mul_0", T("[4,8]", BF, "[8,1]", "") ","
	    T("[4,8]", BF, "[8,1]", "") "," S("32"), 0);
	raw_is(r, "params", "{\"fused_ops\":\"aten.add, aten.mul\",\"xnumel\":32,"
	    "\"rnumel\":1}", "triton");
	rec_free(r);
	/* TraceLens's whole op list: hardswish_backward and mish (not among the names ttp
	 * knew before); softmax is not in it, so that name has no split */
	r = op("triton_poi_fused_add_hardswish_backward_mish_0", T("[4,8]", BF, "[8,1]", "")
	    "," S("32"), 0);
	raw_is(r, "params", "{\"fused_ops\":\"aten.add, aten.hardswish_backward, "
	    "aten.mish\",\"xnumel\":32,\"rnumel\":1}", "triton: TraceLens's op list");
	rec_free(r);
	r = op("triton_per_fused_softmax_0", T("[4,8]", BF, "[8,1]", "") "," S("4") ","
	    S("8"), 0);
	raw_is(r, "params", "{\"fused_ops\":\"\",\"xnumel\":4,\"rnumel\":8}",
	    "triton: no split without a known name");
	rec_free(r);
	{
		const char *const *l;
		size_t n = opclass_aten_ops(&l), i;
		int sorted = 1;

		for (i = 1; i < n; i++)
			sorted &= strcmp(l[i - 1], l[i]) < 0;
		ok(n == 960 && sorted, "TraceLens's 960 ATen op names, in byte order");
		ok(opclass_aten_op("_unsafe_view", 12) && opclass_aten_op("zeta", 4) &&
		    opclass_aten_op("_adaptive_avg_pool2d", 20) &&
		    opclass_aten_op("all_to_all_single_x", 17) &&
		    !opclass_aten_op("softmax", 7) && !opclass_aten_op("add", 2) &&
		    !opclass_aten_op("", 0), "ATen op lookup within the n bytes");
	}
}

static void
test_categories(void)
{
	is_str(opclass_category("aten::gelu", "void at::native::vectorized_elementwise_kernel"
	    "<4, at::native::GeluCUDAKernelImpl>"), "elementwise", "gelu by its kernel");
	is_str(opclass_category("aten::sum_x", "void at::native::reduce_kernel<512>"), "reduce",
	    "reduce by kernel");
	is_str(opclass_category("aten::_softmax", "cunn_SoftMaxForward"), "other", "softmax");
	is_str(opclass_category("triton_poi_fused_add_0", NULL), "triton", "triton prefix");
	is_str(opclass_category("record_param_comms", NULL), "record_param_comms",
	    "record_param_comms");
	is_str(opclass_category("aten::cudnn_convolution", NULL), "CONV_fwd",
	    "category-only op");
	is_str(opclass_category("aiter::rms_norm", NULL), "RMSNorm", "extension op");
	is_str(opclass_category("vllm::unified_attention_with_output", NULL),
	    "InferenceAttention", "an extension that overrides a core model");
	ok(opclass_find("aten::linear") == NULL, "aten::linear is not registered");
}

static void
test_gpus(void)
{
	const struct hwspec *h;

	ok((h = hwspec_gpu_match("NVIDIA H100 80GB HBM3")) != NULL &&
	    strcmp(h->name, "h100") == 0, "H100 80GB HBM3 is the SXM part");
	ok((h = hwspec_gpu_match("NVIDIA H100 PCIe")) != NULL &&
	    strcmp(h->name, "h100-pcie") == 0, "H100 PCIe");
	ok((h = hwspec_gpu_match("AMD Instinct MI300X VF")) != NULL &&
	    strcmp(h->name, "mi300x") == 0, "MI300X VF");
	ok(hwspec_gpu_match("NVIDIA B200") == hwspec_gpu_find("B200"), "B200");
	ok(hwspec_gpu_match("NVIDIA GeForce RTX 4090") == NULL, "unknown GPU");
	ok(hwspec_gpu_find("wormhole") == NULL && hwspec_find("h100") == NULL,
	    "TT and GPU names apart");
	h = hwspec_gpu_find("h100");
	ok(hwspec_peak(h, "matrix_bf16") == 989.4 && hwspec_peak(h, "vector_fp32") == 66.9 &&
	    h->dram_gbps == 3350, "H100 datasheet peaks");
	ok(hwspec_peak(hwspec_gpu_find("a100"), "matrix_fp8") == 0, "no FP8 on A100");
	ok(hwspec_peak(h, "vector_bf16") == 0, "no vector bf16 peak in the datasheet table");
}

static void
test_roofline(void)
{
	struct troof *save = tr;
	struct rec *r;
	const char *trace = "{\"kind\":\"trace\",\"trace\":\"kineto\",\"devices\":"
	    "[{\"id\":0,\"name\":\"NVIDIA H100 80GB HBM3\"}]}";

	tr = troof_new(NULL, NULL);
	r = tap_rec(trace, strlen(trace), "t:1");
	troof_record(tr, r);
	rec_free(r);
	/* 4096^3 bf16 in 1 ms on H100: compute 137.4389/989.4 = 138.91 us; memory
	 * 100663296/3350e9 = 30.05 us; compute bound, 13.891 % */
	r = op("aten::mm", T("[4096,4096]", BF, "[4096,1]", "") ","
	    T("[4096,4096]", BF, "[4096,1]", ""), 1000000);
	raw_is(r, "hw", "\"h100\"", "mm on H100");
	raw_is(r, "roof", "\"compute\"", "mm on H100");
	num_is(r, "roof_us", 137.438953472e9 / 989.4e12 * 1e6, "mm on H100");
	num_is(r, "roof_pct", 137.438953472e9 / 989.4e12 * 1e6 / 1000 * 100, "mm on H100");
	num_is(r, "roof_tflops", 989.4, "mm on H100: attainable is the peak");
	ok(!rec_has(r, "model_unsure"), "mm on H100: below the roof");
	rec_free(r);

	/* the same GEMM in 100 ns: above the roof, flagged */
	r = op("aten::mm", T("[4096,4096]", BF, "[4096,1]", "") ","
	    T("[4096,4096]", BF, "[4096,1]", ""), 100);
	ok(rec_has(r, "model_unsure"), "over 100 %%: model_unsure");
	rec_free(r);

	/* bf16 element-wise: no vector_bf16 peak on H100's datasheet row: no roofline */
	r = op("aten::add", T("[8]", BF, "[1]", "") "," T("[8]", BF, "[1]", ""), 1000);
	ok(!rec_has(r, "roof_pct") && rec_has(r, "tbps"), "add bf16 on H100: no roof");
	rec_free(r);
	troof_free(tr);

	/* devices as names, the first known one counts; a nameless object is skipped */
	tr = troof_new(NULL, NULL);
	trace = "{\"kind\":\"trace\",\"trace\":\"kineto\",\"devices\":[7,{\"id\":1},"
	    "\"NVIDIA GeForce RTX 4090\",\"AMD Instinct MI300X\",\"NVIDIA H100 80GB HBM3\"]}";
	r = tap_rec(trace, strlen(trace), "t:1");
	troof_record(tr, r);
	rec_free(r);
	r = op("aten::mm", T("[64,64]", BF, "[64,1]", "") "," T("[64,64]", BF, "[64,1]", ""),
	    1000);
	raw_is(r, "hw", "\"mi300x\"", "devices as names");
	rec_free(r);
	troof_free(tr);

	/* --arch mi300x wins over the trace's devices */
	tr = troof_new(hwspec_gpu_find("mi300x"), NULL);
	r = tap_rec(trace, strlen(trace), "t:1");
	troof_record(tr, r);
	rec_free(r);
	r = op("aten::add", T("[8]", "float", "[1]", "") "," T("[8]", "float", "[1]", ""), 1000);
	raw_is(r, "hw", "\"mi300x\"", "--arch over devices");
	raw_is(r, "roof", "\"memory\"", "add fp32 on MI300X");
	num_is(r, "roof_us", 96 / 5300e9 * 1e6, "add fp32 on MI300X");
	rec_free(r);
	troof_free(tr);
	tr = save;
}

static void
test_backward(void)
{
	struct rec *r;
	char line[2048];

	/* a conv forward op (id 5000) with a child (5001); a backward op linked to the
	 * child gets no figures (TraceLens: the linked op's own bwd_events only), nor
	 * one linked to the conv itself (TraceLens drops those rows) */
	snprintf(line, sizeof(line), "{\"kind\":\"op\",\"trace\":\"kineto\",\"id\":5000,"
	    "\"op\":\"aten::convolution\",\"in\":[%s]}", T("[1,1,4,4]", "float",
	    "[16,16,4,1]", "") "," T("[1,1,3,3]", "float", "[9,9,3,1]", "") ","
	    T("[]", "", "[]", "") "," S("[1, 1]") "," S("[0, 0]") "," S("[1, 1]") ","
	    S("False") "," S("[0, 0]") "," S("1"));
	r = tap_rec(line, strlen(line), "t:1");
	troof_record(tr, r);
	rec_free(r);
	snprintf(line, sizeof(line), "{\"kind\":\"op\",\"trace\":\"kineto\",\"id\":5001,"
	    "\"parent\":5000,\"op\":\"aten::_convolution\"}");
	r = tap_rec(line, strlen(line), "t:2");
	troof_record(tr, r);
	rec_free(r);
	snprintf(line, sizeof(line), "{\"kind\":\"op\",\"trace\":\"kineto\",\"id\":6000,"
	    "\"op\":\"autograd::engine::evaluate_function: ConvolutionBackward0\","
	    "\"fwd\":5001,\"subtree_ns\":2000}");
	r = tap_rec(line, strlen(line), "t:3");
	troof_record(tr, r);
	ok(rec_type(r, "bwd_of") == REC_ABSENT && rec_type(r, "flops") == REC_ABSENT,
	    "backward linked to a modelled op's child: no figures");
	rec_free(r);
	snprintf(line, sizeof(line), "{\"kind\":\"op\",\"trace\":\"kineto\",\"id\":6001,"
	    "\"op\":\"autograd::engine::evaluate_function: ConvolutionBackward0\","
	    "\"fwd\":5000,\"subtree_ns\":2000}");
	r = tap_rec(line, strlen(line), "t:4");
	troof_record(tr, r);
	ok(rec_type(r, "bwd_of") == REC_ABSENT && rec_type(r, "flops") == REC_ABSENT,
	    "backward of a convolution: no figures (TraceLens drops the row)");
	rec_free(r);
	/* a sum without recorded shapes and its backward op: all-zero figures */
	snprintf(line, sizeof(line), "{\"kind\":\"op\",\"trace\":\"kineto\",\"id\":5002,"
	    "\"op\":\"aten::sum\"}");
	r = tap_rec(line, strlen(line), "t:5");
	troof_record(tr, r);
	rec_free(r);
	snprintf(line, sizeof(line), "{\"kind\":\"op\",\"trace\":\"kineto\",\"id\":6002,"
	    "\"op\":\"autograd::engine::evaluate_function: SumBackward0\","
	    "\"fwd\":5002,\"subtree_ns\":2000}");
	r = tap_rec(line, strlen(line), "t:6");
	troof_record(tr, r);
	raw_is(r, "bwd_of", "5002", "sum backward");
	raw_is(r, "flops", "0", "sum backward");
	raw_is(r, "family", "\"Reduce\"", "sum backward");
	raw_is(r, "sheet", "\"Reduce_bwd\"", "sum backward");
	raw_is(r, "category", "\"other\"", "sum backward: its own category");
	rec_free(r);
}

int
main(void)
{
	tr = troof_new(NULL, NULL);
	test_gemm();
	test_conv();
	test_sdpa();
	test_elementwise();
	test_reduce_norm();
	test_others();
	test_params();
	test_categories();
	test_gpus();
	test_roofline();
	test_backward();
	troof_free(tr);
	return tap_done();
}
