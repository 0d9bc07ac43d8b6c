/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for metrics (tt-perf-report's per-op analysis) and roofline (the extras):
 * every formula on hand-checked numbers; expected doubles are Python's repr of the
 * reference's expression, compared through num_shortest.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hwspec.h"
#include "tt/metrics.h"
#include "core/numfmt.h"
#include "tt/roofline.h"
#include "tap.h"

static void
num(double got, const char *want, const char *name)
{
	char buf[NUM_BUFSZ];

	num_shortest(buf, got);
	is_str(buf, want, name);
}

static struct mtensor
T(long long w, long long z, long long y, long long x, const char *dtype, const char *mem)
{
	struct mtensor t;

	memset(&t, 0, sizeof(t));
	t.present = true;
	t.has_shape = true;
	t.shape[0] = w;
	t.shape[1] = z;
	t.shape[2] = y;
	t.shape[3] = x;
	t.dtype = dtype;
	t.mem = mem;
	return t;
}

static struct mop
matmul(const char *arch, long long cores, const char *fid, double dur)
{
	struct mop op;

	memset(&op, 0, sizeof(op));
	op.op = "MatmulDeviceOperation";
	op.hw = hwspec_find(arch);
	op.worker_cores = op.hw->worker_cores;
	op.has_cores = true;
	op.cores = cores;
	op.fidelity = fid;
	op.has_dur = true;
	op.dur_ns = dur;
	return op;
}

static void
test_deepseek(void)
{
	/* docs/tt-perf-report.md §10's example: deepseek ID 7, 3200 x 1792 x 1536 HiFi2 on
	 * 100 Blackhole cores in 94.25 us: 186.9 TFLOPs, 67.6 % of 276.48; all in L1 first
	 * (no DRAM figures, so no Bound), then with the weights in DRAM (FLOP-bound). */
	struct mop op = matmul("blackhole", 100, "HiFi2", 94250);
	struct mresult m;

	op.worker_cores = 110;
	op.in0 = T(1, 1, 3200, 1792, "BFLOAT16", "DEV_0_L1_INTERLEAVED");
	op.in1 = T(1, 1, 1792, 1536, "BFLOAT8_B", "DEV_0_L1_INTERLEAVED");
	op.out0 = T(1, 1, 3200, 1536, "BFLOAT16", "DEV_0_L1_INTERLEAVED");
	metrics_init(&m);
	metrics_analyse(&op, &m);
	is_str(m.label.p, "MatmulDeviceOperation 3200 x 1792 x 1536", "deepseek label");
	is_str(m.math.p, "HiFi2 BF16 x BFP8 => BF16", "deepseek math");
	ok(m.has_tflops && m.has_flops_pct, "deepseek has FLOPs");
	num(m.tflops, "186.90797665782495", "deepseek TFLOPs");
	num(m.flops_pct, "67.60271146478043", "deepseek FLOPs %");
	ok(!m.has_dram, "all-L1 matmul: no DRAM figures");
	ok(m.bound == BOUND_NONE, "all-L1 matmul: no bound (Q13)");
	ok(m.has_advice && m.nadvice == 0, "all-L1 matmul: advice [] (Optimized)");
	is_str(m.category, "Compute", "matmul category");

	/* the same op with in1 in DRAM: DRAM = 1792*1536*1 bytes / t / 1e9 */
	op.in1.mem = "DEV_0_DRAM_INTERLEAVED";
	metrics_analyse(&op, &m);
	ok(m.has_dram, "DRAM in1: DRAM figures");
	num(m.dram_gbps, "29.204371352785145", "deepseek DRAM GB/s");
	num(m.dram_pct, "5.703978779840849", "deepseek DRAM %");
	ok(m.bound == BOUND_FLOP, "67.6 %% FLOPs -> FLOP");
	ok(m.nadvice == 0, "100 >= 64 cores: no grid advice (Q26), HiFi2 too_low ignored");
	metrics_free(&m);
}

static void
test_synthetic(void)
{
	struct mresult m;
	struct mop op;

	metrics_init(&m);
	/* synthetic_rules ID 5: DRAM-bound, HiFi4 too high */
	op = matmul("wormhole", 64, "HiFi4", 74654);
	op.op = "Matmul";
	op.attrs = "'program_config': 'std::nullopt'";
	op.in0 = T(1, 1, 32, 4096, "BFLOAT8_B", "DEV_0_DRAM_INTERLEAVED");
	op.in1 = T(1, 1, 4096, 4096, "BFLOAT8_B", "DEV_0_DRAM_INTERLEAVED");
	op.out0 = T(1, 1, 32, 4096, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	metrics_analyse(&op, &m);
	is_str(m.label.p, "Matmul 32 x 4096 x 4096", "ID 5 label");
	num(m.dram_gbps, "230.00016074155434", "ID 5 DRAM");
	num(m.dram_pct, "79.86116692415082", "ID 5 DRAM %");
	num(m.tflops, "14.382910815227582", "ID 5 FLOPs");
	num(m.flops_pct, "21.86591171233923", "ID 5 FLOPs %");
	ok(m.bound == BOUND_DRAM, "ID 5 DRAM-bound");
	ok(m.verdict == VERDICT_TOO_HIGH, "ID 5 fidelity too high");
	ok(m.nadvice == 2, "ID 5 two advice items");
	is_str(m.advice[0], "Try a DRAM-sharded program config "
	    "(MatmulMultiCoreReuseMultiCastDRAMShardedProgramConfig) to improve throughput "
	    "further", "ID 5 advice 1");
	is_str(m.advice[1], "HiFi2 is sufficient for BFP8 multiplication and has 2x the "
	    "throughput of HiFi4", "ID 5 advice 2");
	ok(!m.has_in0_block_w && !m.has_sub_h && !m.has_sub_w, "std::nullopt: no config");

	/* ID 8: DRAM-sharded -> 12 cores; SLOW with config advice */
	op = matmul("wormhole", 8, "HiFi2", 50000);
	op.op = "Matmul";
	op.attrs = "'program_config': 'MatmulMultiCoreReuseMultiCastDRAMShardedProgramConfig("
	    "in0_block_w=1;per_core_M=1;per_core_N=4;fused_activation=std::nullopt)'";
	op.in0 = T(1, 1, 32, 2048, "BFLOAT16", "DEV_0_L1_WIDTH_SHARDED");
	op.in1 = T(1, 1, 2048, 2048, "BFLOAT4_B", "DEV_0_DRAM_INTERLEAVED");
	op.out0 = T(1, 1, 32, 2048, "BFLOAT16", "DEV_0_L1_WIDTH_SHARDED");
	metrics_analyse(&op, &m);
	ok(m.dram_sharded, "ID 8 DRAM sharded");
	ok(m.has_report_cores && m.report_cores == 12, "ID 8 Cores cell 12 (Q15)");
	num(m.dram_gbps, "41.94304", "ID 8 DRAM");
	num(m.dram_pct, "14.563555555555558", "ID 8 DRAM %");
	num(m.tflops, "5.36870912", "ID 8 FLOPs");
	num(m.flops_pct, "21.765036972972975", "ID 8 FLOPs % on 12 cores");
	ok(m.bound == BOUND_SLOW, "ID 8 SLOW");
	ok(m.has_in0_block_w && m.in0_block_w == 1 && !m.has_sub_h, "ID 8 in0_block_w=1");
	ok(m.nadvice == 3, "ID 8 three items");
	is_str(m.advice[0], "in0_block_w=1 is small, try in0_block_w=2 or above", "ID 8 a1");
	is_str(m.advice[1], "No output subblock size found", "ID 8 a2");
	is_str(m.advice[2], "If your matmuls are not FLOP-bound use HiFi4 with BF16 "
	    "activations for full accuracy", "ID 8 a3 (Q27)");

	/* ID 15: integer weights, config looks good, L1 advice */
	op = matmul("wormhole", 64, "HiFi4", 100000);
	op.op = "Matmul";
	op.attrs = "'program_config': 'MatmulMultiCoreReuseMultiCastProgramConfig("
	    "compute_with_storage_grid_size=(x=8;y=8);in0_block_w=2;out_subblock_h=2;"
	    "out_subblock_w=1;per_core_M=1;per_core_N=1)'";
	op.in0 = T(1, 1, 64, 1024, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	op.in1 = T(1, 1, 1024, 1024, "UINT32", "DEV_0_L1_INTERLEAVED");
	op.out0 = T(1, 1, 64, 1024, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	metrics_analyse(&op, &m);
	num(m.dram_gbps, "2.62144", "ID 15 DRAM");
	num(m.flops_pct, "2.0404722162162163", "ID 15 FLOPs %");
	is_str(m.math.p, "HiFi4 BF16 x UINT32 => BF16", "ID 15 math");
	ok(m.verdict == VERDICT_NOT_APPLICABLE, "ID 15 not applicable");
	ok(m.nadvice == 3, "ID 15 three items");
	is_str(m.advice[0], "If possible place input 0 in L1 (currently in "
	    "DEV_0_DRAM_INTERLEAVED)", "ID 15 a1");
	is_str(m.advice[1], "in0_block_w=2 and output subblock 2x1 look good \xf0\x9f\xa4\xb7",
	    "ID 15 a2");
	is_str(m.advice[2], "Fidelity evaluation is not applicable for integer datatypes "
	    "(UINT8, UINT16, INT32, UINT32).", "ID 15 a3 (Q28)");

	/* ID 7: FLOP-bound on 32 cores: grid advice printed as an integer (D6) */
	op = matmul("wormhole", 32, "HiFi2", 40800);
	op.op = "Matmul";
	op.in0 = T(1, 1, 1024, 1024, "BFLOAT16", "DEV_0_L1_INTERLEAVED");
	op.in1 = T(1, 1, 1024, 1024, "BFLOAT8_B", "DEV_0_DRAM_INTERLEAVED");
	op.out0 = T(1, 1, 1024, 1024, "BFLOAT8_B", "DEV_0_L1_INTERLEAVED");
	metrics_analyse(&op, &m);
	num(m.flops_pct, "80.01851828298886", "ID 7 FLOPs %");
	ok(m.bound == BOUND_FLOP, "ID 7 FLOP");
	ok(m.nadvice == 1, "ID 7 one item");
	is_str(m.advice[0], "Increase grid size (currently using 32)", "ID 7 grid (D6)");

	/* batched label */
	op.in0 = T(2, 1, 256, 512, "BFLOAT8_B", "DEV_0_L1_INTERLEAVED");
	op.in1 = T(1, 1, 512, 512, "BFLOAT4_B", "DEV_0_L1_INTERLEAVED");
	metrics_analyse(&op, &m);
	is_str(m.label.p, "Matmul b={2} x 256 x 512 x 512", "batched label");

	/* ID 12: conv uses the arch's worker cores (Q16), flags (Q17) */
	memset(&op, 0, sizeof(op));
	op.op = "Conv2dDeviceOperation";
	op.hw = hwspec_find("wormhole");
	op.worker_cores = 64;
	op.has_cores = true;
	op.cores = 16;
	op.fidelity = "HiFi4";
	op.has_dur = true;
	op.dur_ns = 30000;
	op.attrs = "{'block_config': 'Conv2dBlockConfig(act_block_h_ntiles=2;"
	    "act_block_w_ntiles=1)'; 'enable_act_double_buffer': 'false'; "
	    "'parallelization_config': 'Conv2dParallelizationConfig("
	    "per_core_out_matrix_height_ntile=4;per_core_out_matrix_width_ntile=2)'; "
	    "'sliding_window_config': 'SlidingWindowConfig(batch_size=1; input_hw=(32;32); "
	    "window_hw=(3;3); stride_hw=(1;1); padding=((1; 1); (1; 1)); dilation_hw=(1;1))'}";
	op.in0 = T(1, 1, 1024, 64, "BFLOAT16", "DEV_0_L1_HEIGHT_SHARDED");
	op.in1 = T(1, 1, 576, 128, "BFLOAT8_B", "DEV_0_DRAM_INTERLEAVED");
	op.out0 = T(1, 1, 1024, 128, "BFLOAT16", "DEV_0_L1_HEIGHT_SHARDED");
	metrics_analyse(&op, &m);
	is_str(m.label.p, "Conv2dDeviceOperation 1024 x 576 x 128 [ABH=4|2 SR]", "conv label");
	num(m.tflops, "5.0331648", "conv FLOPs");
	num(m.flops_pct, "7.651770810810811", "conv FLOPs %");
	ok(!m.has_dram && m.bound == BOUND_NONE, "conv: no DRAM, no bound");
	ok(m.verdict == VERDICT_NONE, "Conv2d: no fidelity verdict");

	/* conv without window_hw: no figures, no crash (Q41) */
	op.attrs = "{}";
	metrics_analyse(&op, &m);
	is_str(m.label.p, "Conv2dDeviceOperation", "conv without window: plain label");
	ok(!m.has_tflops && !m.has_flops_pct, "conv without window: no FLOPs");

	/* halo */
	memset(&op, 0, sizeof(op));
	op.op = "HaloDeviceOperation";
	op.hw = hwspec_find("blackhole");
	op.worker_cores = 110;
	op.attrs = "{'config': 'SlidingWindowConfig(batch_size=1; input_hw=(512;1024); "
	    "window_hw=(3;3); stride_hw=(2;2); padding=((1; 1); (1; 1)); output_padding = "
	    "(0; 0); dilation_hw=(1;1); num_cores_nhw=110)'; 'output_memory_config': "
	    "'MemoryConfig(memory_layout=TensorMemoryLayout::HEIGHT_SHARDED;buffer_type="
	    "BufferType::L1)'}";
	op.in0 = T(1, 1, 1024, 64, "BFLOAT16", "DEV_1_L1_HEIGHT_SHARDED");
	op.out0 = T(1, 1, 1156, 64, "BFLOAT16", "DEV_1_L1_HEIGHT_SHARDED");
	metrics_analyse(&op, &m);
	is_str(m.label.p, "HaloDeviceOperation w=(3,3) s=(2,2) p=((1, 1), (1, 1)) d=(1,1) | "
	    "HEIGHT_SHARDED", "halo label");
	is_str(m.math.p, "BF16 => BF16", "halo math");
	is_str(m.category, "DM", "halo category");
	op.attrs = NULL;
	metrics_analyse(&op, &m);
	is_str(m.label.p, "HaloDeviceOperation w=x s=x p=x d=x | x", "halo without attrs");

	/* host op */
	memset(&op, 0, sizeof(op));
	op.op = "(torch) aten::index_select";
	op.hw = hwspec_find("wormhole");
	metrics_analyse(&op, &m);
	ok(m.bound == BOUND_HOST && m.is_host, "host op HOST");
	ok(m.math.len == 0, "host op: no math");
	is_str(m.category, "Host", "host category");

	/* plain op math */
	memset(&op, 0, sizeof(op));
	op.op = "LayerNormDeviceOperation";
	op.hw = hwspec_find("wormhole");
	op.in0 = T(1, 1, 32, 32, "BFLOAT16", "DEV_0_L1_INTERLEAVED");
	op.in1 = T(1, 1, 32, 32, "BFLOAT16", "DEV_0_L1_INTERLEAVED");
	op.out0 = T(1, 1, 32, 32, "BFLOAT16", "DEV_0_L1_INTERLEAVED");
	metrics_analyse(&op, &m);
	is_str(m.math.p, "BF16, BF16 => BF16", "plain math");
	ok(!m.has_tflops && m.bound == BOUND_NONE && !m.has_advice, "plain op: no figures");
	metrics_free(&m);
}

static void
test_bad_input(void)
{
	struct mresult m;
	struct mop op;

	metrics_init(&m);
	op = matmul("wormhole", 64, "HiFi4", 0);
	op.in0 = T(1, 1, 32, 32, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	op.in1 = T(1, 1, 32, 32, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	op.out0 = T(1, 1, 32, 32, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	metrics_analyse(&op, &m);
	ok(!m.has_dram && !m.has_tflops && m.bound == BOUND_NONE, "zero duration: no figures");
	is_str(m.label.p, "MatmulDeviceOperation 32 x 32 x 32", "zero duration: label");
	op.has_dur = true;
	op.dur_ns = 1000;
	op.fidelity = NULL;
	metrics_analyse(&op, &m);
	ok(m.has_tflops && !m.has_flops_pct, "no fidelity: FLOPs but no FLOPs %%");
	is_str(m.math.p, "BF16 x BF16 => BF16", "no fidelity: math without it");
	ok(m.verdict == VERDICT_UNKNOWN, "no fidelity: verdict unknown");
	op.fidelity = "HiFi3";
	metrics_analyse(&op, &m);
	ok(m.has_tflops && !m.has_flops_pct, "HiFi3: not modelled");
	op.fidelity = "HiFi4";
	op.in1.mem = NULL;
	metrics_analyse(&op, &m);
	ok(!m.has_dram && m.has_flops_pct, "missing MEMORY: no DRAM, FLOPs %% still");
	op.in1.has_shape = false;
	metrics_analyse(&op, &m);
	is_str(m.label.p, "MatmulDeviceOperation", "no shapes: plain label");
	ok(!m.has_tflops && isfinite(m.tflops), "no shapes: no FLOPs");
	op.in1.has_shape = true;
	op.in1.mem = "DEV_0_DRAM_INTERLEAVED";
	metrics_free(&m);
}

/* Spec 10.1: trace-capture rows without duration and/or CORE COUNT compute NaN. */
static void
test_capture_rows(void)
{
	struct mresult m;
	struct mop op;

	metrics_init(&m);
	op = matmul("wormhole", 64, "HiFi2", 0);
	op.attrs = "{'program_config': 'MatmulMultiCoreReuseProgramConfig(in0_block_w=2; "
	    "out_subblock_h=1; out_subblock_w=2)'}";
	op.in0 = T(1, 1, 32, 64, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	op.in1 = T(1, 1, 64, 128, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	op.out0 = T(1, 1, 32, 128, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	op.has_dur = false;
	op.has_cores = false;
	metrics_analyse(&op, &m);
	is_str(m.label.p, "MatmulDeviceOperation 32 x 64 x 128", "capture: label");
	ok(m.has_dram && isnan(m.dram_gbps) && isnan(m.dram_pct), "capture: DRAM and DRAM %% NaN");
	ok(!m.has_tflops, "capture: FLOPs empty (a NaN FLOP/s is no value)");
	ok(m.has_flops_pct && isnan(m.flops_pct), "capture: FLOPs %% NaN");
	ok(m.has_report_cores && isnan(m.report_cores), "capture: Cores NaN");
	ok(m.bound == BOUND_SLOW, "capture: NaN is truthy, no comparison holds: SLOW");
	ok(m.nadvice == 3 && strncmp(m.advice[0], "If possible place input 0 in L1", 31) == 0 &&
	    strncmp(m.advice[1], "in0_block_w=2 and output subblock 1x2 look good", 47) == 0 &&
	    strncmp(m.advice[2], "If your matmuls are not FLOP-bound", 34) == 0,
	    "capture: the full SLOW advice");

	/* with a duration but no CORE COUNT: DRAM and FLOPs computed, FLOPs % NaN */
	op.has_dur = true;
	op.dur_ns = 1000;
	metrics_analyse(&op, &m);
	ok(m.has_dram && !isnan(m.dram_pct) && m.has_tflops && !isnan(m.tflops),
	    "no cores: DRAM and FLOPs computed");
	ok(m.has_flops_pct && isnan(m.flops_pct) && isnan(m.report_cores),
	    "no cores: FLOPs %% and Cores NaN");
	ok(m.bound == BOUND_SLOW, "no cores: SLOW");
	ok(!m.has_mm_cores, "no cores: no cores for the peak");

	/* the other figure at least 65 still decides the bound */
	op.dur_ns = 10;
	metrics_analyse(&op, &m);
	ok(m.dram_pct >= 65 && m.bound == BOUND_DRAM, "no cores, DRAM %% >= 65: DRAM");

	/* DRAM-sharded: 12 cores whatever CORE COUNT says */
	op.has_dur = false;
	op.attrs = "{'program_config': 'MatmulMultiCoreReuseMultiCastDRAMShardedProgramConfig("
	    "in0_block_w=2; per_core_M=1)'}";
	metrics_analyse(&op, &m);
	ok(m.dram_sharded && m.has_report_cores && m.report_cores == 12 && m.has_mm_cores &&
	    m.mm_cores == 12, "capture, DRAM-sharded: 12 cores");
	ok(m.has_flops_pct && isnan(m.flops_pct) && m.bound == BOUND_SLOW,
	    "capture, DRAM-sharded: FLOPs %% NaN (no duration), SLOW");

	/* all operands in L1: no DRAM figure, so no Bound and no advice */
	op.attrs = NULL;
	op.in0.mem = op.in1.mem = op.out0.mem = "DEV_0_L1_INTERLEAVED";
	metrics_analyse(&op, &m);
	ok(!m.has_dram && m.bound == BOUND_NONE && m.nadvice == 0,
	    "capture, all in L1: DRAM empty, no Bound, Optimized");

	/* conv without duration: FLOPs empty, FLOPs % NaN */
	memset(&op, 0, sizeof(op));
	op.op = "Conv2dDeviceOperation";
	op.hw = hwspec_find("wormhole");
	op.worker_cores = op.hw->worker_cores;
	op.fidelity = "LoFi";
	op.attrs = "{'sliding_window_config': 'SlidingWindowConfig(window_hw=(3;3); "
	    "stride_hw=(1;1))'}";
	op.in0 = T(1, 1, 1024, 16, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	op.in1 = T(1, 1, 144, 32, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	op.out0 = T(1, 1, 1024, 32, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	metrics_analyse(&op, &m);
	ok(m.has_mkn && !m.has_tflops && m.has_flops_pct && isnan(m.flops_pct) &&
	    !m.has_dram && m.bound == BOUND_NONE, "conv without duration: FLOPs %% NaN");
	metrics_free(&m);
}

static void
test_pieces(void)
{
	const char *msg;

	ok(metrics_dtype_size("BFLOAT16") == 2 && metrics_dtype_size("BFLOAT8_B") == 1 &&
	    metrics_dtype_size("BFLOAT4_B") == 0.5 && metrics_dtype_size("FLOAT32") == 4 &&
	    metrics_dtype_size("UINT8") == 1 && metrics_dtype_size("BOOL") == 4,
	    "datatype sizes");
	is_str(metrics_dtype_short("BFLOAT8_B"), "BFP8", "short BFP8");
	is_str(metrics_dtype_short("UINT32"), "UINT32", "short unchanged");

	ok(metrics_fidelity_verdict("BFLOAT16", "BFLOAT16", "BFLOAT16", "HiFi4", &msg) ==
	    VERDICT_SUFFICIENT && strncmp(msg, "HiFi2 may also work", 19) == 0, "bf16 HiFi4");
	ok(metrics_fidelity_verdict("BFLOAT16", "BFLOAT16", "BFLOAT16", "LoFi", &msg) ==
	    VERDICT_TOO_LOW && strncmp(msg, "Use HiFi2 or HiFi4", 18) == 0, "bf16 LoFi");
	ok(metrics_fidelity_verdict("BFLOAT16", "BFLOAT8_B", "BFLOAT4_B", "LoFi", &msg) ==
	    VERDICT_TOO_LOW && strncmp(msg, "HiFi2 may give better", 21) == 0, "bfp4 out LoFi");
	ok(metrics_fidelity_verdict("BFLOAT8_B", "BFLOAT8_B", "BFLOAT8_B", "HiFi2", &msg) ==
	    VERDICT_SUFFICIENT && *msg == '\0', "bfp8 HiFi2 sufficient, no message");
	ok(metrics_fidelity_verdict("BFLOAT8_B", "BFLOAT8_B", "BFLOAT4_B", "LoFi", &msg) ==
	    VERDICT_TOO_LOW && strncmp(msg, "HiFi2 may give slightly", 23) == 0, "w7 o3 LoFi");
	ok(metrics_fidelity_verdict("BFLOAT8_B", "BFLOAT4_B", "BFLOAT8_B", "HiFi2", &msg) ==
	    VERDICT_TOO_HIGH && strncmp(msg, "LoFi is sufficient", 18) == 0, "bfp4 w HiFi2");
	ok(metrics_fidelity_verdict("BFLOAT8_B", "BFLOAT4_B", "BFLOAT8_B", "LoFi", &msg) ==
	    VERDICT_SUFFICIENT, "bfp4 w LoFi");
	ok(metrics_fidelity_verdict("BFLOAT16", "INT32", "BFLOAT16", "LoFi", &msg) ==
	    VERDICT_NOT_APPLICABLE, "int");
	ok(metrics_fidelity_verdict("BFLOAT16", "BOOL", "BFLOAT16", "LoFi", &msg) ==
	    VERDICT_UNKNOWN && strcmp(msg, "Datatype BOOL is not supported for fidelity "
	    "evaluation.") == 0, "unsupported datatype");

	ok(metrics_bound(true, 65, true, 65) == BOUND_BOTH, ">= 65 both");
	ok(metrics_bound(true, 65, true, 64.9) == BOUND_DRAM, "DRAM");
	ok(metrics_bound(true, 1, true, 99) == BOUND_FLOP, "FLOP");
	ok(metrics_bound(true, 1, true, 1) == BOUND_SLOW, "SLOW");
	ok(metrics_bound(true, 0.0, true, 99) == BOUND_NONE, "0.0 is falsy (Q14)");
	ok(metrics_bound(false, 0, true, 99) == BOUND_NONE, "empty DRAM: none");

	/* the note of an op counted as Other is off by default (-v twice turns it on) */
	is_str(metrics_category("FooDeviceOperation"), "Other", "quiet by default");
	metrics_category_notes(1);
	is_str(metrics_category("BinaryNgDeviceOperation"), "Compute", "BinaryNg DO");
	is_str(metrics_category("Matmul 32 x 32 x 32"), "Compute", "Matmul label");
	is_str(metrics_category("ReshapeViewDeviceOperation"), "Other", "no prefix match");
	is_str(metrics_category("PagedUpdateCacheDeviceOperation"), "DM", "DM full name");
	is_str(metrics_category("PadDeviceOperation"), "TM", "Pad");
	is_str(metrics_category("(torch) x"), "Host", "host");
}

static void
test_roofline(void)
{
	struct mtensor t[3];
	struct mresult m;
	struct rextra x;
	struct rop r;
	struct mop op;

	metrics_init(&m);
	/* 1024^3 BF16 matmul, all DRAM, wormhole HiFi2 64 cores, 100 us */
	op = matmul("wormhole", 64, "HiFi2", 100000);
	t[0] = op.in0 = T(1, 1, 1024, 1024, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	t[1] = op.in1 = T(1, 1, 1024, 1024, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	t[2] = op.out0 = T(1, 1, 1024, 1024, "BFLOAT16", "DEV_0_L1_INTERLEAVED");
	metrics_analyse(&op, &m);
	memset(&r, 0, sizeof(r));
	r.mop = &op;
	r.tensors = t;
	r.ntensors = 3;
	r.has_pm_ideal = true;
	r.pm_ideal_ns = 50000;
	roofline_analyse(&r, &m, &x);
	ok(x.has_bytes && x.bytes == 4194304 && x.l1_bytes == 2097152, "bytes DRAM/L1");
	ok(x.has_flops && x.flops == 2147483648.0, "flops 2 * 1024^3");
	ok(x.has_intensity && x.intensity == 512, "intensity 512 flop/byte");
	/* peak = 148/72 * 64 = 131.55 TFLOP/s; memory roof = 512 * 288e9 = 147.456 */
	num(x.peak_tflops, "131.55555555555554", "peak");
	ok(strcmp(x.roof, "compute") == 0, "compute roof");
	num(x.roof_tflops, "131.55555555555554", "attainable = peak");
	num(x.roof_pct, "16.32377772972973", "achieved 21.47 of 131.56");
	num(x.bw_gbps, "41.94304", "bandwidth");
	ok(x.has_pm_eff && x.pm_eff_pct == 50, "PM efficiency");

	/* a copy: no FLOPs, memory roof, share = bandwidth share */
	memset(&op, 0, sizeof(op));
	op.op = "CopyDeviceOperation";
	op.hw = hwspec_find("wormhole");
	op.worker_cores = 64;
	op.has_cores = true;
	op.cores = 64;
	op.has_dur = true;
	op.dur_ns = 1000;
	t[0] = op.in0 = T(1, 1, 32, 1024, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	t[1] = op.out0 = T(1, 1, 32, 1024, "BFLOAT16", "DEV_0_DRAM_INTERLEAVED");
	r.ntensors = 2;
	r.has_pm_ideal = false;
	metrics_analyse(&op, &m);
	roofline_analyse(&r, &m, &x);
	ok(x.has_flops && x.flops == 0 && strcmp(x.flops_model, "none") == 0, "DM: 0 flops");
	ok(strcmp(x.roof, "memory") == 0 && x.roof_tflops == 0, "DM: memory roof");
	num(x.bw_gbps, "131.07199999999997", "DM bandwidth (bytes / (1000 * 1e-9) / 1e9)");
	ok(x.has_roof_pct && x.roof_pct == x.bw_pct, "DM share = bandwidth share");

	/* grid advice against the real worker cores */
	op = matmul("blackhole", 64, "HiFi2", 140000);
	op.worker_cores = 110;
	t[0] = op.in0 = T(1, 1, 2048, 2048, "BFLOAT16", "DEV_0_L1_INTERLEAVED");
	t[1] = op.in1 = T(1, 1, 2048, 2048, "BFLOAT8_B", "DEV_0_DRAM_INTERLEAVED");
	t[2] = op.out0 = T(1, 1, 2048, 2048, "BFLOAT16", "DEV_0_L1_INTERLEAVED");
	r.ntensors = 3;
	metrics_analyse(&op, &m);
	roofline_analyse(&r, &m, &x);
	ok(m.bound == BOUND_FLOP && m.nadvice == 0, "64 cores: reference gives no grid advice");
	ok(x.has_grid, "extra grid advice on 64 of 110 cores");
	is_str(x.grid_advice, "Increase grid size (currently using 64 of 110 worker cores)",
	    "grid advice text");
	metrics_free(&m);
}

int
main(void)
{
	test_deepseek();
	test_synthetic();
	test_bad_input();
	test_capture_rows();
	test_pieces();
	test_roofline();
	return tap_done();
}
