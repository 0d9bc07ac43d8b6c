#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# Writes small XSpace profiles (the protobuf of a JAX .xplane.pb) for the golden cases,
# field numbers from docs/jax.md §1.3, with no protobuf library (tests/lib/pbwrite.py):
#   mkxspace.py small OUT   two GPUs (plane ids 0 and 3), a non-Stream line, a host
#                           plane with launches, two programs of one module name, a
#                           64-bit HLO id, a ROOT kernel, an unlinked kernel
#   mkxspace.py te OUT      Transformer Engine's fused attention in the BSHD layout
#                           (grouped-query: 8 query heads, 4 kv heads), its backward,
#                           and one call in the packed BS3HD layout (docs/jax.md §6.4)
#   mkxspace.py tpu OUT     a TPU plane (id 2) with XLA Modules, XLA Ops (sub-ns times,
#                           cost stats on the metadata), an Async XLA Ops line named
#                           without a display name and an XLA TraceMe line
import os
import sys

# tests/lib/pbwrite.py, imported without a __pycache__ in the tree
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "lib"))
from pbwrite import (BF16, F32, S32, U8, fb, fv, maps, packed, shape,  # noqa: E402
                     stat, tuple_shape)


def instr(name, opcode, shp, iid, operands=(), meta=None, target=None, config=None,
          dot=None):
    b = fb(1, name) + fb(2, opcode) + fb(3, shp)
    if meta:
        m = b""
        if "op_type" in meta:
            m += fb(1, meta["op_type"])
        if "op_name" in meta:
            m += fb(2, meta["op_name"])
        if "source_file" in meta:
            m += fb(3, meta["source_file"]) + fv(4, meta["source_line"])
        b += fb(7, m)
    if target:
        b += fb(28, target)
    if dot:
        b += fb(30, packed(1, dot[0]) + packed(2, dot[1]))
    b += fv(35, iid)
    if operands:
        b += packed(36, operands)
    if config:
        b += fb(43, config)
    return b


def module(name, big_ids, m, k, n):
    base = (1 << 40) if big_ids else 0
    comp = fb(1, "main")
    comp += fb(2, instr("p0", "parameter", shape(BF16, [m, k]), base + 1))
    comp += fb(2, instr("p1", "parameter", shape(BF16, [k, n]), base + 2))
    comp += fb(2, instr("w", "parameter", shape(U8, [64]), base + 3))
    comp += fb(2, instr(
        "custom-call.1", "custom-call",
        tuple_shape(shape(BF16, [m, n]), shape(U8, [4096])), base + 4,
        [base + 1, base + 2],
        meta={"op_type": "dot_general", "op_name": "jit(f)/dot_general",
              "source_file": "/src/f.py", "source_line": 12},
        target="__cublas$lt$matmul",
        config='{"gemm_backend_config":{"alpha_real":1,"beta":0,"epilogue":"DEFAULT",'
               '"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"],'
               '"rhs_contracting_dimensions":["0"]}}}',
        dot=([1], [0])))
    comp += fb(2, instr("fusion.2", "fusion", shape(F32, [m, n]), base + 5,
                        [base + 4, base + 3], meta={"op_name": "jit(f)/convert"}))
    comp += fv(5, 7) + fv(6, base + 5)
    mod = fb(1, name) + fb(2, "main") + fb(3, comp) + fv(5, 1) + fv(6, 7)
    return fb(1, mod)


# --- XSpace --------------------------------------------------------------------------
def event(md, off_ps, dur_ps, stats=()):
    b = fv(1, md) + fv(2, off_ps) + fv(3, dur_ps)
    for s in stats:
        b += fb(4, s)
    return b


def line(lid, name, ts_ns, events, display_id=0):
    b = fv(1, lid) + fb(2, name) + fv(3, ts_ns)
    for e in events:
        b += fb(4, e)
    if display_id:
        b += fv(10, display_id)
    return b


def plane(pid, name, lines, evmd, stmd, stats=()):
    b = (fv(1, pid) if pid else b"") + fb(2, name)
    for ln in lines:
        b += fb(3, ln)
    b += maps({i: (nm, b"".join(fb(5, s) for s in st)) for i, (nm, st) in evmd.items()},
              stmd)
    for s in stats:
        b += fb(6, s)
    return b


def small():
    STM = {1: "Hlo Proto"}
    meta = plane(0, "/host:metadata", [], {
        1: ("jit_f(5)", [stat(1, "b", module("jit_f", False, 8, 16, 4))]),
        2: ("jit_f(9)", [stat(1, "b", module("jit_f", True, 32, 64, 128))]),
    }, STM)
    SM = {1: "correlation_id", 2: "hlo_op", 3: "hlo_module", 4: "program_id",
          5: "kernel_details", 6: "device_vendor", 7: "clock_rate", 8: "core_count",
          9: "memory_bandwidth", 10: "compute_cap_major", 11: "compute_cap_minor",
          12: "tf_op"}
    caps = [stat(6, "s", "AMD"), stat(7, "u", 2100000), stat(8, "u", 304),
            stat(9, "u", 5300000000000), stat(10, "u", 9), stat(11, "u", 4)]
    EM = {1: ("Cijk_Ailk_Bljk_BBS_BH_MT64x64x32", []), 2: ("loop_convert_fusion", []),
          3: ("MemcpyD2H", []), 4: ("jit_f", []), 5: ("ncclAllReduce", [])}

    def k(md, off, dur, corr, op, prog):
        st = [stat(3, "s", "jit_f"), stat(4, "i", prog), stat(2, "s", op),
              stat(5, "s", " grid:4,1,1 block:256,1,1 private_mem:0 group_mem:1024 occ_pct:50")]
        if corr is not None:
            st.insert(0, stat(1, "u", corr))
        return event(md, off, dur, st)

    gpu0 = plane(0, "/device:GPU:0", [
        line(1, "Stream #1(Kernel)", 1000, [
            # out of order on purpose; equal starts: the longer first
            k(2, 9000000, 2000000, 102, "fusion.2", 5),
            k(1, 2000000, 5000000, 101, "custom-call.1", 5),
            k(1, 2000000, 6000000, 103, "custom-call.1", 9),
        ]),
        line(3, "Stream #3(MemcpyD2H)", 1000, [event(3, 20000000, 1000000, [stat(1, "u", 104)])]),
        line(0xDEADBEEF + 3, "XLA Ops", 1000, [event(4, 2000000, 9000000)]),
    ], EM, SM, caps)
    gpu3 = plane(3, "/device:GPU:3", [
        line(2, "Stream #2(Kernel)", 500, [
            k(2, 1000000, 3000000, 105, "fusion.2", 9),
            k(5, 5000000, 1000000, None, "nope", 9),
        ]),
    ], EM, SM, caps)
    HM = {1: "correlation_id"}
    HE = {1: ("hipModuleLaunchKernel", []), 2: ("MemoryAllocation", []), 3: ("python", [])}
    host = plane(0, "/host:CPU", [
        line(77, "Host Threads/77", 100, [
            event(1, 0, 500000, [stat(1, "u", 101)]),
            event(1, 1000000, 500000, [stat(1, "u", 103)]),
            event(2, 1000000, 10, []),
            event(1, 3000000, 500000, [stat(1, "u", 102)]),
            event(1, 4000000, 500000, [stat(1, "u", 104)]),
            event(1, 500000, 100000, [stat(1, "u", 105)]),
        ]),
        line((1 << 40) + 5, "python", 100, [event(3, 0, 90000000)]),
    ], HE, HM)
    return (fb(1, meta) + fb(1, host) + fb(1, gpu3) + fb(1, gpu0) + fb(4, "testhost"))


def te():
    q, kv = [2, 128, 8, 64], [2, 256, 4, 64]
    ids = iter(range(1, 100))
    ins = []

    def add(name, opcode, shp, ops=(), **kw):
        iid = next(ids)
        ins.append(instr(name, opcode, shp, iid, ops, **kw))
        return iid
    pq = add("q", "parameter", shape(BF16, q))
    pk = add("k", "parameter", shape(BF16, kv))
    pv = add("v", "parameter", shape(BF16, kv))
    pb = add("bias", "parameter", shape(BF16, [0]))
    ps = add("seqlens", "parameter", shape(S32, [3]))
    pqkv = add("qkv", "parameter", shape(BF16, [2, 128, 3, 8, 64]))
    aux = shape(F32, [2, 8, 128, 1])
    cfg = "{attn_heads = 8 : i64, is_training = true, qkv_layout = 2 : i64}"
    meta = {"op_type": "te_fused_attn", "op_name": "jit(attn)/te_fused_attn"}
    fwd = add("te_fused_attn_forward_ffi.1", "custom-call",
              tuple_shape(shape(BF16, q), aux, shape(U8, [1])), [pq, pk, pv, pb, ps],
              meta=meta, target="te_fused_attn_forward_ffi", config=cfg)
    paux = add("softmax_aux", "parameter", aux)
    pdo = add("dout", "parameter", shape(BF16, q))
    add("te_fused_attn_backward_ffi.2", "custom-call",
        tuple_shape(shape(BF16, q), shape(BF16, kv), shape(BF16, kv), shape(U8, [1])),
        [pq, pk, pv, pb, paux, fwd, pdo, ps], meta=meta,
        target="te_fused_attn_backward_ffi", config=cfg)
    add("te_fused_attn_forward_ffi.3", "custom-call",
        tuple_shape(shape(BF16, q), aux, shape(U8, [1])), [pqkv, pb, pb, pb, ps],
        meta=meta, target="te_fused_attn_forward_ffi", config=cfg)
    comp = fb(1, "main") + b"".join(fb(2, x) for x in ins) + fv(5, 1) + fv(6, 99)
    mod = fb(1, fb(1, "jit_attn") + fb(2, "main") + fb(3, comp) + fv(5, 7) + fv(6, 1))
    meta_plane = plane(0, "/host:metadata", [], {
        1: ("jit_attn(7)", [stat(1, "b", mod)])}, {1: "Hlo Proto"})
    SM = {1: "correlation_id", 2: "hlo_op", 3: "hlo_module", 4: "program_id",
          6: "device_vendor", 7: "clock_rate", 8: "core_count", 9: "memory_bandwidth",
          10: "compute_cap_major", 11: "compute_cap_minor"}
    caps = [stat(6, "s", "AMD"), stat(7, "u", 2400000), stat(8, "u", 256),
            stat(9, "u", 4096000000000), stat(10, "u", 9), stat(11, "u", 5)]
    EM = {1: ("void ck_tile::kentry<ck_tile::FmhaFwdKernel<bf16, 128>>", []),
          2: ("void ck_tile::kentry<ck_tile::FmhaBwdDQDKDVKernel<bf16, 128>>", []),
          3: ("transformer_engine::fused_attn_rocm::populate_rng_state_kernel", [])}

    def k(md, off, dur, corr, op):
        return event(md, off, dur, [stat(1, "u", corr), stat(3, "s", "jit_attn"),
                                    stat(4, "i", 7), stat(2, "s", op)])
    gpu = plane(0, "/device:GPU:0", [
        line(2, "Stream #2", 0, [
            k(3, 1000000, 20000, 201, "te_fused_attn_forward_ffi.1"),
            k(1, 2000000, 400000, 202, "te_fused_attn_forward_ffi.1"),
            k(2, 3000000, 900000, 203, "te_fused_attn_backward_ffi.2"),
            k(1, 5000000, 300000, 204, "te_fused_attn_forward_ffi.3"),
        ]),
    ], EM, SM, caps)
    host = plane(0, "/host:CPU", [
        line(9, "Host Threads/9", 0, [
            event(1, 500000 + 100000 * i, 50000, [stat(1, "u", 201 + i)]) for i in range(4)
        ]),
    ], {1: ("hipModuleLaunchKernel", [])}, {1: "correlation_id"})
    return fb(1, meta_plane) + fb(1, host) + fb(1, gpu) + fb(4, "tehost")


def tpu():
    SM = {1: "hlo_category", 2: "flops", 3: "bytes_accessed", 4: "shape_with_layout",
          5: "program_id", 6: "run_id", 7: "device_type_string",
          8: "peak_teraflops_per_second", 9: "peak_hbm_bw_gigabytes_per_second",
          10: "_ct", 11: "device_duration_ps"}
    EM = {
        1: ("jit_step(77)", []),
        2: ("%fusion.1 = bf16[8,128]{1,0} fusion(bf16[8,128]{1,0} %p), kind=kLoop",
            [stat(1, "s", "loop fusion"), stat(2, "u", 2048), stat(3, "u", 4096),
             stat(4, "s", "bf16[8,128]{1,0}"), stat(5, "u", 77)]),
        3: ("%convolution.2 = f32[8,8]{1,0} convolution(f32[8,64]{1,0} %a, f32[64,8]{1,0} %b)",
            [stat(1, "s", "convolution"), stat(2, "u", 8192), stat(3, "u", 4352),
             stat(5, "u", 77)]),
        4: ("copy-done", []),
        5: ("dependency-wait", []),
    }
    # display names as xprof writes them: the instruction's name
    EMD = {}
    for i, (nm, st) in EM.items():
        EMD[i] = (nm, st)

    def evmd_plane(pid, name, lines, stats):
        b = fv(1, pid) + fb(2, name)
        for ln in lines:
            b += fb(3, ln)
        for i, (nm, st) in EMD.items():
            dn = {2: "fusion.1", 3: "convolution.2"}.get(i)
            v = fv(1, i) + fb(2, nm) + (fb(4, dn) if dn else b"") + \
                b"".join(fb(5, x) for x in st)
            b += fb(4, fv(1, i) + fb(2, v))
        b += maps({}, SM)
        for x in stats:
            b += fb(6, x)
        return b
    ops = line(3, "XLA Ops", 0, [
        event(2, 1000250, 500125, [stat(11, "u", 500000)]),
        event(3, 1600500, 2000000),
        event(2, 3700000, 499875),
        event(3, 3700000, 1000000),    # same start, longer first in the UIDs
    ])
    mods = line(2, "XLA Modules", 0, [
        event(1, 1000000, 1500000, [stat(6, "i", 1), stat(10, "u", 12)]),
        event(1, 3600000, 2200000, [stat(6, "i", 2)]),
    ])
    asyn = line(4, "Async XLA Ops", 0, [event(4, 1100000, 300000)])
    traceme = line(6, "XLA TraceMe", 0, [event(5, 999000, 1000)])
    caps = [stat(7, "s", "TPU v6 Lite"), stat(8, "d", 918.0), stat(9, "d", 1640.0)]
    tpu0 = evmd_plane(2, "/device:TPU:0", [mods, ops, asyn, traceme], caps)
    host = plane(0, "/host:CPU", [line(5, "python", 0, [event(1, 0, 10)])],
                 {1: ("train", [])}, {})
    return fb(1, tpu0) + fb(1, host) + fb(4, "tpuhost")


if __name__ == "__main__":
    data = {"small": small, "te": te, "tpu": tpu}[sys.argv[1]]()
    with open(sys.argv[2], "wb") as f:
        f.write(data)
