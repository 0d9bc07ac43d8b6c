# SPDX-License-Identifier: ISC
# Generates tests/data/mlir/: a tt-mlir `ttrt perf` style ops CSV and the filtered copies
# ttrt writes beside it (the same rule as ttrt's: a row is kept when its CONST_EVAL_OP /
# INPUT_LAYOUT_CONVERSION_OP, spaces removed, is "false"). Usage:
#   python3 tests/data/mlir/make-sample.py tests/data/mlir
import csv, sys, os
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
cols = ["OP CODE","OP TYPE","GLOBAL CALL COUNT","DEVICE ID","DEVICE ARCH","ATTRIBUTES","MATH FIDELITY",
 "CORE COUNT","AVAILABLE WORKER CORE COUNT","PARALLELIZATION STRATEGY","HOST START TS","HOST END TS",
 "HOST DURATION [ns]","DEVICE FW DURATION [ns]","OP TO OP LATENCY [ns]","DEVICE KERNEL DURATION [ns]"]
for io, n in (("INPUT", 2), ("OUTPUT", 1)):
    for i in range(n):
        cols += [f"{io}_{i}_{d}_PAD[LOGICAL]" for d in "WZYX"] + [f"{io}_{i}_LAYOUT", f"{io}_{i}_DATATYPE", f"{io}_{i}_MEMORY"]
cols += ["METAL TRACE ID","METAL TRACE REPLAY SESSION ID","PM IDEAL [ns]","PM COMPUTE [ns]","PM BANDWIDTH [ns]",
 "PM REQ I BW","PM REQ O BW","PM FPU UTIL (%)","CompileProgram_TT_HOST_FUNC [ns]",
 "HWCommandQueue_write_buffer_TT_HOST_FUNC [ns]"]
M = "/home/user/models/test_mlp.py"
def T(w, z, y, x, lay="TILE", dt="BFLOAT16", mem="DEV_0_DRAM_INTERLEAVED"):
    return [f"{w}[{w}]", f"{z}[{z}]", f"{y}[{y}]", f"{x}[{x}]", lay, dt, mem]
NONE = [""] * 7
# (op, fidelity, cores, device ns, inputs, output, loc, const_eval, input_layout_conversion)
ce_ops = [
 ("TilizeWithValPaddingDeviceOperation", "HiFi4", 32, 5200, [T(1,1,1024,4096,"ROW_MAJOR"), NONE], T(1,1,1024,4096),
  f'loc("{M}":18:0)', "true", "false"),
 ("TypecastDeviceOperation", "HiFi4", 64, 2100, [T(1,1,32,4096,dt="FLOAT32"), NONE], T(1,1,32,4096),
  f'loc(fused["{M}":19:0, "linear1.bias"])', "true", "false"),
]
layout_op = ("TilizeWithValPaddingDeviceOperation", "HiFi4", 8, 1900, [T(1,1,32,1024,"ROW_MAJOR"), NONE],
  T(1,1,32,1024), "loc(unknown)", "false", "true")
main_ops = [
 ("MatmulDeviceOperation", "HiFi2", 64, 44000, [T(1,1,32,1024), T(1,1,1024,4096)], T(1,1,32,4096),
  f'loc(fused["{M}":30:0, "linear"])', "false", "false"),
 ("BinaryNgDeviceOperation", "HiFi4", 64, 3000, [T(1,1,32,4096), T(1,1,32,4096)], T(1,1,32,4096),
  f'loc(fused["{M}":30:0, "add"])', "false", "false"),
 ("UnaryDeviceOperation", "HiFi4", 64, 2800, [T(1,1,32,4096), NONE], T(1,1,32,4096),
  f'loc("relu"("{M}":31:0))', "false", "false"),
 ("MatmulDeviceOperation", "HiFi2", 64, 43000, [T(1,1,32,4096), T(1,1,4096,1024)], T(1,1,32,1024),
  f'loc(fused["{M}":32:0, "linear"])', "false", "false"),
 ("SoftmaxDeviceOperation", "HiFi4", 32, 6100, [T(1,1,32,1024), NONE], T(1,1,32,1024),
  f'loc(callsite("softmax"("{M}":12:0) at "{M}":33:0))', "false", "false"),
 ("ReshapeViewDeviceOperation", "", 1, 700, [T(1,1,32,1024), NONE], T(1,1,1,32768),
  "loc(unknown)", "false", "false"),
]
p1_ops = [
 ("TypecastDeviceOperation", "HiFi4", 64, 1500, [T(1,1,1024,1024,dt="FLOAT32"), NONE], T(1,1,1024,1024),
  f'loc("{M}":40:0)', "true", "false"),
 ("MatmulDeviceOperation", "HiFi2", 64, 12000, [T(1,1,32,1024), T(1,1,1024,1024)], T(1,1,32,1024),
  f'loc(fused["{M}":41:0, "linear"])', "false", "false"),
 ("BinaryNgDeviceOperation", "HiFi4", 64, 2500, [T(1,1,32,1024), T(1,1,32,1024)], T(1,1,32,1024),
  f'loc(fused["{M}":41:0, "add"])', "false", "false"),
]
rows = []
ts = 1_500_000_000
call = 0
def emit(op, prog, loop, jitter):
    global ts, call
    name, fid, cores, dns, ins, outp, loc, ce, ilc = op
    call += 1
    hdur = 14000 + (call % 7) * 1000
    r = [name, "tt_dnn_device", str(call << 10), "0", "wormhole_b0", "{'output_mem_config': 'MemoryConfig(memory_layout=TensorMemoryLayout::INTERLEAVED;buffer_type=BufferType::DRAM)'}",
         fid, str(cores), "64", "", str(ts), str(ts + hdur), str(hdur), str(dns + jitter + 640), "0" if not rows else str(1200 + (call % 5) * 150),
         str(dns + jitter)]
    r += ins[0] + ins[1] + outp
    r += ["", "", "1", "1", "1", "[]", "[]", "0.0", "", ""]
    r += [loc, ce, ilc, "{'program_index': %d, 'loop_number': %d}" % (prog, loop)]
    assert len(r) == len(cols) + 4
    rows.append(r)
    ts += hdur + 2000
for loop in range(2):
    if loop == 0:
        for op in ce_ops: emit(op, 0, loop, 0)
    emit(layout_op, 0, loop, 10 * loop)
    for op in main_ops: emit(op, 0, loop, 37 * loop)
for op in p1_ops: emit(op, 1, 0, 0)
hdr = cols + ["LOC", "CONST_EVAL_OP", "INPUT_LAYOUT_CONVERSION_OP", "PROGRAM_METADATA"]
full = os.path.join(out, "ops_perf_results.csv")
with open(full, "w", newline="") as f:
    w = csv.writer(f); w.writerow(hdr); w.writerows(rows)
def filtered(cond, suffix):
    with open(full, newline="") as fi, open(os.path.join(out, f"ops_perf_results_{suffix}.csv"), "w", newline="") as fo:
        rd = csv.DictReader(fi); wr = csv.DictWriter(fo, fieldnames=rd.fieldnames); wr.writeheader()
        for row in rd:
            if all(row.get(c, "").replace(" ", "") == v for c, v in cond.items()):
                wr.writerow(row)
filtered({"CONST_EVAL_OP": "false"}, "minus_const_eval")
filtered({"INPUT_LAYOUT_CONVERSION_OP": "false"}, "minus_input_layout_conversions")
filtered({"CONST_EVAL_OP": "false", "INPUT_LAYOUT_CONVERSION_OP": "false"}, "minus_const_eval_and_input_layout_conversions")
