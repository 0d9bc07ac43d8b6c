/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/jax/jaxtl.c's jax_gemm model (docs/jax.md §6.2): each step's
 * failure message in the order TraceLens raises them, and the figures and params of
 * the accepted cases (beta, bias, batch, the "0,1" layout, the dtypes, the kernel name's
 * transposition). The expected figures are the model's before it was split into steps;
 * "bias" in params is beta, as TraceLens writes it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "jax/jaxtl.h"
#include "tap.h"

#define CFG(beta, l, r) "{\"beta\":" beta ",\"lhs_contracting_dimensions\":[\"" l \
    "\"],\"rhs_contracting_dimensions\":[\"" r "\"]}"

/* The model on a kernel whose operands' texts are ins (NULL-terminated): "error: ..."
 * or "flops bytes params". */
static void
g(const char *what, const char *cfg, const char *out, const char *target,
    const char *const *ins, const char *kname, const char *want)
{
	struct jax_shape in[8];
	struct jax_tl v;
	struct jax_perf p = { 0, 0, BUF_INIT };
	struct buf err = BUF_INIT, got = BUF_INIT;
	char *cfgc = cfg != NULL ? strdup(cfg) : NULL, *outc = out != NULL ? strdup(out) : NULL;
	char *tgc = target != NULL ? strdup(target) : NULL;

	memset(&v, 0, sizeof(v));
	v.model = "jax_gemm";
	v.config = cfgc;
	v.output = outc;
	v.target = tgc;
	v.in = in;
	for (; *ins != NULL; ins++)
		if (jax_shape_match(*ins, &in[v.nin]))
			v.nin++;
	if (jax_perf_run(&v, kname, &p, &err) != 0)
		buf_printf(&got, "error: %s", err.p != NULL ? err.p : "");
	else
		buf_printf(&got, "%.17g %.17g %s", p.flops, p.bytes, p.params.p);
	is_str(got.p, want, what);
	buf_free(&got);
	buf_free(&err);
	buf_free(&p.params);
	free(cfgc);
	free(outc);
	free(tgc);
}

int
main(void)
{
	static const char *const two[] = { "bf16[64,32]{1,0}", "bf16[32,16]{1,0}", NULL };
	static const char *const one[] = { "bf16[64,32]{1,0}", NULL };
	static const char *const four[] = { "bf16[64,32]{1,0}", "bf16[32,16]{1,0}",
	    "bf16[16]{0}", "bf16[16]{0}", NULL };
	static const char *const five[] = { "f32[2]{0}", "f32[2]{0}", "f32[2]{0}",
	    "f32[2]{0}", "f32[2]{0}", NULL };
	static const char *const deep[] = { "bf16[2,2,64,32]{3,2,1,0}", "bf16[32,16]{1,0}",
	    NULL };
	static const char *const batch[] = { "f16[4,64,32]{2,1,0}", "f16[4,32,16]{2,1,0}",
	    NULL };
	static const char *const ints[] = { "s32[64,32]{1,0}", "s32[32,16]{1,0}", NULL };
	static const char *const f32[] = { "f32[64,32]{1,0}", "f32[32,16]{1,0}", NULL };
	const char *out = "(bf16[64,16]{1,0}, s8[0]{0})";

	/* failures, in the order the model meets them */
	g("no config", NULL, out, NULL, two, "k", "error: jax_gemm: no beta of 0 or 1 in "
	    "the backend config");
	g("beta 2", CFG("2", "1", "0"), out, NULL, two, "k", "error: jax_gemm: no beta of "
	    "0 or 1 in the backend config");
	g("no contracting", "{\"beta\":0,\"x\":1}", out, NULL, two, "k", "error: jax_gemm: "
	    "no contracting dimensions in the backend config");
	g("no tuple", CFG("0", "1", "0"), "bf16[64,16]{1,0}", NULL, two, "k", "error: "
	    "jax_gemm: the result is not a tuple");
	g("no float result", CFG("0", "1", "0"), "(s32[64,16]{1,0})", NULL, two, "k",
	    "error: jax_gemm: no float tensor in the result");
	g("one operand", CFG("0", "1", "0"), out, NULL, one, "k", "error: jax_gemm: 1 "
	    "operand shapes");
	g("four without bias", CFG("0", "1", "0"), out, NULL, four, "k", "error: jax_gemm: "
	    "4 operand shapes");
	g("five", CFG("0", "1", "0"), out, NULL, five, "k", "error: jax_gemm: 5 operand "
	    "shapes");
	g("rank 4", CFG("0", "1", "0"), out, NULL, deep, "k", "error: jax_gemm: tensor size "
	    "is more than 3");
	g("disagree", CFG("0", "0", "0"), out, NULL, two, "k", "error: jax_gemm: contracting "
	    "dimensions disagree");
	g("int operands", CFG("0", "1", "0"), out, NULL, ints, "k", "error: jax_gemm: "
	    "operand type s32");
	g("nvjet short", CFG("0", "1", "0"), out, NULL, two, "nvjet_x_T", "error: jax_gemm: "
	    "kernel nvjet_x_T: no transpose flags");
	/* accepted */
	g("plain", CFG("0", "1", "0"), out, NULL, two, "k", "65536 7168 {\"B\":1,\"M\":16,"
	    "\"N\":64,\"K\":32,\"bias\":false,\"dtype_A_B\":[\"bf16\",\"bf16\"],"
	    "\"simulation_dtype\":\"bf16\"}");
	g("beta 1, layout 0,1", CFG("1", "1", "0"), "(bf16[64,16]{0,1})", NULL, two, "k",
	    "66560 7200 {\"B\":1,\"M\":64,\"N\":16,\"K\":32,\"bias\":true,\"dtype_A_B\":"
	    "[\"bf16\",\"bf16\"],\"simulation_dtype\":\"bf16\"}");
	g("bias, four", "{\"beta\":0,\"epilogue\":\"BIAS\",\"lhs_contracting_dimensions\":"
	    "[\"1\"],\"rhs_contracting_dimensions\":[\"0\"]}", out, NULL, four, "k",
	    "65536 7168 {\"B\":1,\"M\":16,\"N\":64,\"K\":32,\"bias\":false,\"dtype_A_B\":"
	    "[\"bf16\",\"bf16\"],\"simulation_dtype\":\"bf16\"}");
	g("batch", CFG("0", "2", "1"), "(f16[4,64,16]{2,1,0})", NULL, batch,
	    "Cijk_Alik_Bjlk_HHS", "262144 28672 {\"B\":4,\"M\":16,\"N\":64,\"K\":32,"
	    "\"bias\":false,\"dtype_A_B\":[\"f16\",\"f16\"],\"simulation_dtype\":\"fp16\","
	    "\"transpose\":[true,true]}");
	g("fp8 target", CFG("0", "1", "0"), out, "__cublas$lt$matmul$f8", two,
	    "nvjet_tst_64x8_TN", "65536 3584 {\"B\":1,\"M\":16,\"N\":64,\"K\":32,"
	    "\"bias\":false,\"dtype_A_B\":[\"fp8\",\"fp8\"],\"simulation_dtype\":\"fp8\","
	    "\"transpose\":[true,false]}");
	g("f32, no flags", CFG("0", "1", "0"), "(f32[64,16]{1,0})", NULL, f32,
	    "Cijk_Alik_Bljk_SB", "65536 14336 {\"B\":1,\"M\":16,\"N\":64,\"K\":32,"
	    "\"bias\":false,\"dtype_A_B\":[\"f32\",\"f32\"],\"simulation_dtype\":\"fp32\","
	    "\"transpose\":[true,false]}");
	return tap_done();
}
