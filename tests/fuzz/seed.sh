#!/bin/sh
# SPDX-License-Identifier: ISC
# seed.sh SHARED OUT: writes the seed corpora of the fuzz targets into OUT/<target>/.
# Every seed starts with one option byte (the targets read their options from it).
shared=$1 out=$2
set -e
mkdir -p "$out"
for t in fuzz_csv fuzz_rec fuzz_filter fuzz_roofline fuzz_phase fuzz_table fuzz_kineto \
    fuzz_mlirloc fuzz_steps fuzz_xplane fuzz_tltree; do
	mkdir -p "$out/$t"
done
seed() {	# seed TARGET OPTBYTE (stdin: the content); named by its checksum
	{ printf "\\$(printf %03o "$2")"; cat; } >"$out/$1/tmp"
	mv "$out/$1/tmp" "$out/$1/$(md5sum <"$out/$1/tmp" | cut -c1-16)"
}
# CSV: the first 30 lines of every real trace, the test CSVs whole.
for f in "$shared"/data/ttmetal/*.csv "$shared"/data/ttmetal/extra/*.csv; do
	[ -f "$f" ] || continue
	head -n 30 "$f" | seed fuzz_csv 0
done
for f in tests/data/*.csv tests/data/bad/*.csv tests/data/mlir/*.csv; do
	[ -f "$f" ] && seed fuzz_csv 1 <"$f"
done
# tt-mlir LOC and PROGRAM_METADATA texts, as the sample and the unit tests write them.
for s in 'loc(unknown)' 'loc("/a/test.py":60:4)' 'loc("m.mlir":3:5 to :9)' \
    'loc(fused["/p/test_basic.py":60:0, "add"])' 'loc("aten::add"("t.py":8:0))' \
    'loc(callsite("f"("a.py":1:2) at "b.py":3:4))' 'loc(fused<"m"<1>>[#loc3, "x"])' \
    'loc("q\\"u\\0Ax":1:2)' "{'program_index': 0, 'loop_number': 1}" '{}'; do
	printf '%s' "$s" | seed fuzz_mlirloc 0
done
# Two files in one seed (split at a form feed), unsorted.
{ cat tests/data/sample.csv; printf '\f'; cat tests/data/two-devices.csv; } | seed fuzz_csv 128
# Records: what the pipeline produces from the sample trace, and golden inputs.
recs=$(mktemp)
if [ -x bin/ttp-parse ]; then
	bin/ttp-parse tests/data/sample.csv | head -n 40 >"$recs"
	bin/ttp-parse tests/data/two-devices.csv | head -n 20 >>"$recs"
	for f in "$shared"/data/ttmetal/*.csv; do
		[ -f "$f" ] || continue
		head -n 12 "$f" >"$recs.csv"
		bin/ttp-parse "$recs.csv" 2>/dev/null >>"$recs" || true
	done
	rm -f "$recs.csv"
fi
rich=$recs.rich
if [ -x bin/ttp-roofline ] && [ -x bin/ttp-phase ]; then
	bin/ttp-roofline <"$recs" 2>/dev/null | bin/ttp-phase 2>/dev/null >"$rich" || true
else
	cp "$recs" "$rich"
fi
for t in fuzz_filter fuzz_phase fuzz_table; do
	for o in 0 3 8 64; do
		seed $t $o <"$recs"
	done
	seed $t 255 <"$rich"
done
seed fuzz_roofline 0 <"$recs"
seed fuzz_roofline 5 <"$rich"
# fuzz_rec: one line per seed keeps them small and varied.
head -n 60 "$rich" | while IFS= read -r line; do
	printf '%s\n' "$line" | seed fuzz_rec 255
done
for f in tests/golden/*/*/in; do
	[ -f "$f" ] || continue
	[ "$(wc -c <"$f")" -lt 65536 ] || continue
	for t in fuzz_filter fuzz_phase fuzz_table fuzz_roofline fuzz_rec; do
		seed $t 0 <"$f"
	done
done
rm -f "$recs" "$rich"
# Inference steps: the project's hand-made PyTorch records (steps, launchers), for the
# step window and the phase methods; step annotations alone for the grammar.
for f in tests/data/phase-*.ndjson; do
	[ -f "$f" ] || continue
	for o in 0 1 17 35; do
		seed fuzz_steps $o <"$f"
	done
	for o in 4 5 6 7 36 39; do
		seed fuzz_phase $o <"$f"
	done
done
for s in 'execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk32785sqsq32sqsk32785)' \
    'execute_context_1(888_788544)_generation_0(0)' 'step[EXTEND bs=15 toks=15360]' \
    'step[MIXED bs=2 c=1 g=1 c_sq=5 c_sqsq=25 g_sq=1 g_sqsq=1]' 'decode[bs=117/128 tok=117 d=117]' \
    'prefill[bs=6 tok=17408 ctx=[4096, 4096]...+3 sqsq=1]' 'ProfilerStep#6' \
    'execute_diffusion_1_1024x1024' 'capture_32_DECODE' '3:5'; do
	printf '%s' "$s" | seed fuzz_steps 0
done
# Op-tree programs (tests/fuzz/fuzz_tltree.c): a chain of 1,000 with a launch at its
# foot; 32,000 deep and more with kernels and models on the way; siblings and ups; python
# frames and execute wrappers; every option, and (16 and up) ops that say they launch
# nothing, which tltree spools and links through (tlgone.c).
for s in '\005\004' '\375\003\066\375\044\006\003\002\375\014' \
    '\000\003\001\003\032\004\001\007\017\004\022\003' '\007\005\004\006\003\375\004'; do
	for o in 0 5 10 15 16 21 26 31; do
		printf "$s" | seed fuzz_tltree $o
	done
done
# Inputs that once crashed a target (tests/fuzz/regress/<target>-<what>), kept as seeds.
for f in tests/fuzz/regress/*; do
	[ -f "$f" ] || continue
	t=${f##*/}; t=${t%%-*}
	[ -d "$out/$t" ] && cp "$f" "$out/$t/"
done
# PyTorch traces: the project's small ones whole, older formats too (options: none,
# python, two ranks, the tokenizer's skips and captures), and a piece of a real one
# (truncated: the error paths).
for f in tests/data/kineto/*.json tests/data/kineto/legacy/*.json; do
	[ -f "$f" ] || continue
	for o in 0 1 4 115 240; do
		seed fuzz_kineto $o <"$f"
	done
done
for f in "$shared"/data/pytorch/h100/gaunernst_bert-small-uncased__1016001.json.gz; do
	[ -f "$f" ] && gzip -dc "$f" | head -c 60000 | seed fuzz_kineto 0
done
# JAX profiles: the generated one whole and cut, the smallest real ones whole (under
# -max_len they are cut too), the HLO module of the generated one alone.
for f in tests/data/jax/*.xplane.pb; do
	[ -f "$f" ] || continue
	seed fuzz_xplane 0 <"$f"
	head -c 1500 "$f" | seed fuzz_xplane 1
done
for f in "$shared"/data/jax/jax08_gemm.xplane.pb "$shared"/data/jax/jax_conv_minimal_legacy.xplane.pb \
    "$shared"/data/jax/te_fused_attn_934987a2fc2f.xplane.pb "$shared"/data/jax/tpu_v6e_inference_2.xplane.pb; do
	[ -f "$f" ] && head -c 65000 "$f" | seed fuzz_xplane 0
done
# PyTorch records for the record targets: the sample trace's and the hand-made ones'.
if [ -x bin/ttp-parse ]; then
	for f in tests/data/kineto/basic.json tests/data/kineto/links.json; do
		bin/ttp-parse "$f" >"$out/kineto.ndjson" 2>/dev/null || continue
		for t in fuzz_filter fuzz_phase fuzz_table; do
			seed $t 0 <"$out/kineto.ndjson"
			seed $t 3 <"$out/kineto.ndjson"
		done
		seed fuzz_roofline 0 <"$out/kineto.ndjson"
	done
	# the sheets' refusals (issue 23): a trace without GPU events, two ranks in one stream
	bin/ttp-parse tests/data/kineto/nogpu.json 2>/dev/null | seed fuzz_table 0
	bin/ttp-parse tests/data/kineto/rank0.json tests/data/kineto/rank3.json 2>/dev/null |
	    seed fuzz_table 0
	rm -f "$out/kineto.ndjson"
fi
