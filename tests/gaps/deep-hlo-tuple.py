#!/usr/bin/env python3
# deep-hlo-tuple.py OUT DEPTH [KERNEL_DETAILS]: a JAX profile (XSpace) of one kernel whose
# HLO instruction (a custom-call) has a result shape of tuples nested DEPTH deep, and the
# kernel_details stat KERNEL_DETAILS when given. Issue 24's "no
# recursion whose depth the input controls": lib/jax/hlo.c's hlo_shape_text recurses once
# per level (about 1 KB of stack a frame), so at DEPTH 20000 (117 KB; 28 KB gzipped)
# ttp-parse dies of a stack overflow (SIGSEGV; ASan: stack-overflow in pb_next under
# shape_type under hlo_shape_text). Uses tests/bench/gen-xplane.py's encoders.
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location(
    'g', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bench', 'gen-xplane.py'))
g = importlib.util.module_from_spec(spec); spec.loader.exec_module(g)
depth = int(sys.argv[2])
s = g.shape(g.BF16, [4, 4])
for _ in range(depth):
    s = g.tshape(s)
base = (1000 << 32) + 1
ins = [g.fb(1, "param.0") + g.fb(2, "parameter") + g.fb(3, g.shape(g.BF16, [4, 4])) + g.fv(9, 0) + g.fv(35, base),
       g.fb(1, "custom-call.1") + g.fb(2, "custom-call") + g.fb(3, s) + g.fb(28, "__cublas$lt$matmul") + g.fv(35, base + 1) + g.packed(36, [base])]
comp = g.fb(1, "main.1") + b"".join(g.fb(2, x) for x in ins) + g.fv(5, 1) + g.fv(6, base + 1)
mod = g.fb(1, "jit_f") + g.fb(2, "main.1") + g.fb(3, comp) + g.fv(5, 1000) + g.fv(6, 1)
hp = g.fb(1, mod)
out = open(sys.argv[1], 'wb')
g.write_plane(out, g.fv(1, 99) + g.fb(2, "/host:metadata") + g.maps({1: ("jit_f(1000)", g.st_b(1, hp))}, {1: "Hlo Proto"}))
SM = {1: "correlation_id", 2: "hlo_op", 3: "hlo_module", 4: "program_id", 5: "kernel_details"}
t0 = 1_760_000_000_000_000_000
stats = g.st_u(1, 5) + g.st_s(3, "jit_f") + g.st_i(4, 1000) + g.st_s(2, "custom-call.1")
if len(sys.argv) > 3:
    stats += g.st_s(5, sys.argv[3])
body = g.fv(1, 0) + g.fb(2, "/device:GPU:0") + g.line(1, "Stream #1(Kernel)", t0, g.ev(1, 1000_000, 5000_000, stats)) + g.maps({1: ("gemm.kd", b"")}, SM)
g.write_plane(out, body)
host = g.line(1000, "Host Threads/1000", t0, g.ev(1, 500_000, 4000_000, g.st_u(1, 5)))
g.write_plane(out, g.fv(1, 0) + g.fb(2, "/host:CPU") + host + g.maps({1: ("hipModuleLaunchKernel", b"")}, {1: "correlation_id"}))
out.close()
