#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# Writes a large synthetic JAX profile (an XSpace protobuf, "*.xplane.pb") to a file, for
# make bench (tests/bench/bench.sh). The protobuf wire format is written by hand (field
# numbers: docs/jax.md §1.3); no protobuf library.
# Usage: gen-xplane.py OUT [SCALE]
# SCALE 1 (the default) gives about 100 MB, shaped like a JAX 0.8 training profile on
# ROCm: one /host:metadata plane with MODULES compiled programs (an xla.HloProto each, a
# few thousand instructions: parameters, hipBLASLt GEMM custom calls with their backend
# config, fusions with metadata; module names shared by several programs, as JAX does);
# a /host:CPU plane with a "Host Threads/<tid>" launch line per GPU (every kernel's
# hipModuleLaunchKernel with its correlation_id), python tracer lines full of short
# function events, thread-pool lines; eight /device:GPU:N planes with their capability
# stats, three "Stream #N(Kernel)" lines and a "Stream #N(MemcpyD2H)" line each, kernels
# carrying correlation_id, hlo_module, program_id, hlo_op, tf_op and kernel_details as
# JAX 0.8 writes them (strings per event). Times are whole ns, offsets as a tracer
# writes them (ascending per line, launches before kernels). Deterministic.
# Each plane is built in memory (the largest, a GPU plane, about 8 MB at SCALE 1) and
# written at once. The wire format: tests/lib/pbwrite.py.
import os
import random
import sys

# tests/lib/pbwrite.py, imported without a __pycache__ in the tree
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pbwrite import BF16, U8, fb, fv, maps, packed, shape, stat  # noqa: E402
# F32 too: tests/golden/parse/2461-deep-hlo-tuple/gen.py takes this file's encoders
from pbwrite import F32  # noqa: E402,F401
from pbwrite import tuple_shape as tshape  # noqa: E402

MODULES = 24
GPUS = 8
STREAMS = 3
STEPS = 40          # training steps per GPU
PYEVENTS = 20000    # python tracer events per step and python line


def meta(op_type, op_name, line):
    return fb(7, fb(1, op_type) + fb(2, op_name) + fb(3, "/work/model/train.py") +
              fv(4, line))


GEMM_CFG = ('{"operation_queue_id":"0","wait_on_operation_queues":[],"gemm_backend_config":'
            '{"alpha_real":1,"alpha_imag":0,"beta":0,"dot_dimension_numbers":'
            '{"lhs_contracting_dimensions":["1"],"rhs_contracting_dimensions":["0"],'
            '"lhs_batch_dimensions":[],"rhs_batch_dimensions":[]},"precision_config":'
            '{"operand_precision":["DEFAULT","DEFAULT"],"algorithm":"ALG_UNSET"},'
            '"epilogue":"DEFAULT","lhs_stride":"16777216","rhs_stride":"16777216",'
            '"grad_x":false,"grad_y":false,"damax_output":false},"force_earliest_schedule":false}')


def module(name, prog, rnd, ninstr):
    """An HloProto: its bytes and the names of the instructions kernels run."""
    base = (prog << 32) + 1
    ins = []
    ops = []
    nparam = 16
    for i in range(nparam):
        d = [rnd.choice((1024, 2048, 4096)), rnd.choice((1024, 4096, 8192))]
        ins.append(fb(1, "param.%d" % i) + fb(2, "parameter") + fb(3, shape(BF16, d)) +
                   fv(9, i) + fv(35, base + i))
    nid = base + nparam

    def fusion(nm, d, a, b, i):
        return (fb(1, nm) + fb(2, "fusion") + fb(3, shape(BF16, d)) +
                meta("mul", "jit(train_step)/jvp(model)/layer_%d/mul" % (i % 48),
                     100 + i % 900) +
                fb(11, "kLoop") + fv(35, iid) + packed(36, [a, b]))
    for i in range(nparam, ninstr):
        iid = nid
        nid += 1
        a, b = base + rnd.randrange(iid - base), base + rnd.randrange(iid - base)
        if i % 7 == 0:
            # the GEMM's operands: [m,k] and [k,n] fusions just before it
            m, k, n = rnd.choice((1024, 2048, 4096)), 4096, rnd.choice((1024, 4096))
            ins.append(fusion("loop_convert_fusion.%d" % (iid - base), [m, k], a, b, i))
            la = iid
            iid = nid
            nid += 1
            ins.append(fusion("loop_convert_fusion.%d" % (iid - base), [k, n], a, b, i))
            lb = iid
            iid = nid
            nid += 1
            nm = "custom-call.%d" % (iid - base)
            ins.append(fb(1, nm) + fb(2, "custom-call") +
                       fb(3, tshape(shape(BF16, [m, n]), shape(U8, [33554432]))) +
                       meta("dot_general", "jit(train_step)/jvp(model)/layer_%d/dot_general"
                            % (i % 48), 100 + i % 900) +
                       fb(28, "__cublas$lt$matmul") +
                       fb(30, packed(1, [1]) + packed(2, [0])) + fv(35, iid) +
                       packed(36, [la, lb]) + fb(43, GEMM_CFG))
        else:
            d = [rnd.choice((1024, 2048, 4096)), rnd.choice((1024, 4096, 8192))]
            nm = "loop_%s_fusion.%d" % (rnd.choice(("add", "multiply", "convert",
                                                     "transpose", "reduce")), iid - base)
            ins.append(fusion(nm, d, a, b, i))
        ops.append(nm)
    comp = fb(1, "main.%d" % ninstr) + b"".join(fb(2, x) for x in ins) + fv(5, 1) + \
        fv(6, nid - 1)
    mod = fb(1, name) + fb(2, "main.%d" % ninstr) + fb(3, comp) + fv(5, prog) + fv(6, 1)
    return fb(1, mod), ops


# --- XSpace ------------------------------------------------------------------------
def st_u(md, v):
    return fb(4, stat(md, "u", v))


def st_i(md, v):
    return fb(4, stat(md, "i", v))


def st_s(md, s):
    return fb(4, stat(md, "s", s))


def ev(md, off_ps, dur_ps, stats=b""):
    return fb(4, fv(1, md) + fv(2, off_ps) + fv(3, dur_ps) + stats)


def line(lid, name, ts_ns, events):
    return fb(3, fv(1, lid) + fb(2, name) + fv(3, ts_ns) + events)


def write_plane(out, body):
    out.write(fb(1, body))


def main():
    path = sys.argv[1]
    scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    steps = max(1, int(STEPS * scale))
    rnd = random.Random(26)
    t0 = 1_760_000_000_000_000_000     # ns, epoch
    out = open(path, "wb")

    # metadata plane: the programs (names repeat, as JAX's jit_* do)
    mods = []
    evmd = {}
    for k in range(MODULES):
        name = "jit_train_step" if k % 3 else "jit_%s" % ("add", "matmul", "broadcast")[k % 3]
        prog = 1000 + 37 * k
        hp, ops = module(name, prog, rnd, 1500 + 150 * (k % 8))
        evmd[k + 1] = ("%s(%d)" % (name, prog), st_b(1, hp))
        mods.append((name, prog, ops))
    write_plane(out, fv(1, 99) + fb(2, "/host:metadata") + maps(evmd, {1: "Hlo Proto"}))

    # the kernels each GPU runs per step: (module, op, kernel name, duration ns)
    knames = ["Cijk_Alik_Bljk_BBS_BH_Bias_HAS_SAV_UserArgs_MT256x256x64_MI16x16x1_SN_"
              "LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_"
              "GRVWA8_GRVWB8_GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA2048_LBSPPB256_LBSPPM0_"
              "LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT8_8_MO40_NTn1_NTA0_NTB0_NTC0_"
              "NTD0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_"
              "SSO0_SVW4_SK3_SKXCCM8_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_"
              "VWA4_VWB4_WSGRA0_WSGRB0_WS64_WG32_8_1.kd"]
    sched = []
    for s in range(600):
        name, prog, ops = mods[s % MODULES]
        op = ops[rnd.randrange(len(ops))]
        kn = knames[0] if op.startswith("custom-call") else op.split(".")[0] + ".kd"
        sched.append((name, prog, op, kn, rnd.randrange(2000, 90000)))

    # stat metadata of the device planes, and the GPU kernels' event metadata
    SM = {1: "correlation_id", 2: "hlo_op", 3: "hlo_module", 4: "program_id",
          5: "kernel_details", 6: "tf_op", 7: "device_vendor", 8: "clock_rate",
          9: "core_count", 10: "memory_bandwidth", 11: "memory_size",
          12: "compute_cap_major", 13: "compute_cap_minor", 14: "name"}
    kmd = {}
    for _, _, _, kn, _ in sched:
        kmd.setdefault(kn, len(kmd) + 1)
    copy_md = len(kmd) + 1
    GEM = {i: (kn, b"") for kn, i in kmd.items()}
    GEM[copy_md] = ("MemcpyD2H", b"")

    # host: launches per GPU, then python and thread-pool lines
    HM = {1: "correlation_id", 2: "python_source"}
    HEM = {1: ("hipModuleLaunchKernel", b""), 2: ("hipMemcpyDtoHAsync", b""),
           3: ("PjRtStreamExecutorLoadedExecutable::Execute", b""),
           4: ("ThunkExecutor::Execute", b"")}
    pyfns = ["$train.py:%d train_step" % (10 + i) for i in range(200)] + \
        ["$flax/linen/module.py:%d _call_wrapped_method" % (600 + i) for i in range(200)] + \
        ["$jax/_src/pjit.py:%d _pjit_call_impl" % (1200 + i) for i in range(100)]
    for i, f in enumerate(pyfns):
        HEM[10 + i] = (f, b"")
    step_ns = 0
    for _, _, _, _, d in sched:
        step_ns += d + 500
    step_ns += 2_000_000
    corr = [1]
    hlines = bytearray()
    gplanes = []
    for g in range(GPUS):
        launches = bytearray()
        streams = [bytearray() for _ in range(STREAMS)]
        copies = bytearray()
        c = 100000 * (g + 1)
        for s in range(steps):
            tk = s * step_ns + 1_000_000
            th = tk - 900_000
            for j, (name, prog, op, kn, d) in enumerate(sched):
                c += 1
                launches += ev(1, th * 1000, 4000 * 1000, st_u(1, c))
                th += 1400
                stats = (st_u(1, c) + st_s(3, name) + st_i(4, prog) + st_s(2, op) +
                         st_s(6, "jit(train_step)/layer_%d/%s" % (j % 48, op.split(".")[0])) +
                         st_s(5, " grid:%d,1,1 block:256,1,1 private_mem:0 group_mem:%d "
                              "occ_pct:%d" % (64 * (1 + j % 40), 1024 * (j % 64), 25 + j % 75)))
                streams[j % STREAMS] += ev(kmd[kn], tk * 1000, d * 1000, stats)
                tk += d + 500
            c += 1
            launches += ev(2, th * 1000, 6000 * 1000, st_u(1, c))
            copies += ev(copy_md, tk * 1000, 120_000 * 1000, st_u(1, c))
        hlines += line(1000 + g, "Host Threads/%d" % (1000 + g), t0, bytes(launches))
        body = fv(1, g) + fb(2, "/device:GPU:%d" % g)
        for k in range(STREAMS):
            body += line(k + 1, "Stream #%d(Kernel)" % (k + 1), t0, bytes(streams[k]))
        body += line(STREAMS + 1, "Stream #%d(MemcpyD2H)" % (STREAMS + 1), t0, bytes(copies))
        body += maps(GEM, SM)
        for md, v in ((7, "AMD"), ):
            body += fb(6, fv(1, md) + fb(5, v))
        for md, v in ((8, 2100000), (9, 304), (10, 5300000000000), (11, 205822885888),
                      (12, 9), (13, 4)):
            body += fb(6, fv(1, md) + fv(3, v))
        gplanes.append(body)
    # python tracer: nested short calls on one line per process thread
    for t in range(4):
        py = bytearray()
        tp = 0
        for s in range(steps):
            for k in range(PYEVENTS):
                md = 10 + rnd.randrange(len(pyfns))
                py += ev(md, tp * 1000, 3000 * 1000)
                tp += rnd.randrange(200, 9000)
            tp = (s + 1) * step_ns
        hlines += line(2000 + t, "python", t0, bytes(py))
    for t in range(4):
        pool = bytearray()
        for s in range(steps * 40):
            pool += ev(3 + (s & 1), (s * step_ns // 40) * 1000, 250_000 * 1000)
        hlines += line((1 << 40) + t, "tf_pjrt_thread_pool/%d" % t, t0, bytes(pool))
    write_plane(out, fv(1, 0) + fb(2, "/host:CPU") + bytes(hlines) + maps(HEM, HM))
    hlines = None
    for body in gplanes:
        write_plane(out, body)
    out.write(fb(4, "bench-host"))
    out.close()


def st_b(md, b):
    return fb(5, stat(md, "b", b))


if __name__ == "__main__":
    main()
