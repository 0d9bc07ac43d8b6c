#!/usr/bin/env python3
# gen.py OUT DEPTH [wide] [KERNEL_DETAILS]: a JAX profile (XSpace) of one kernel whose HLO
# instruction (a custom-call) has a result shape of tuples nested DEPTH deep (with
# "wide", each level also holds an f32[2] and an empty tuple), and the kernel_details stat
# KERNEL_DETAILS when given. Written with tests/bench/gen-xplane.py's encoders.
import importlib.util, os, sys
top = os.environ.get('TOP') or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                            '..', '..', '..', '..')
spec = importlib.util.spec_from_file_location(
    'g', os.path.join(top, 'tests', 'bench', 'gen-xplane.py'))
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)
args = sys.argv[1:]
out_path, depth = args[0], int(args[1])
wide = len(args) > 2 and args[2] == 'wide'
kd = args[3 if wide else 2] if len(args) > (3 if wide else 2) else None
s = g.shape(g.BF16, [4, 4])
for _ in range(depth):
    s = g.tshape(s, g.shape(g.F32, [2]), g.tshape()) if wide else g.tshape(s)
base = (1000 << 32) + 1
ins = [g.fb(1, "param.0") + g.fb(2, "parameter") + g.fb(3, g.shape(g.BF16, [4, 4])) +
       g.fv(9, 0) + g.fv(35, base),
       g.fb(1, "custom-call.1") + g.fb(2, "custom-call") + g.fb(3, s) +
       g.fb(28, "__cublas$lt$matmul") + g.fv(35, base + 1) + g.packed(36, [base])]
comp = g.fb(1, "main.1") + b"".join(g.fb(2, x) for x in ins) + g.fv(5, 1) + g.fv(6, base + 1)
mod = g.fb(1, "jit_f") + g.fb(2, "main.1") + g.fb(3, comp) + g.fv(5, 1000) + g.fv(6, 1)
out = open(out_path, 'wb')
g.write_plane(out, g.fv(1, 99) + g.fb(2, "/host:metadata") +
              g.maps({1: ("jit_f(1000)", g.st_b(1, g.fb(1, mod)))}, {1: "Hlo Proto"}))
SM = {1: "correlation_id", 2: "hlo_op", 3: "hlo_module", 4: "program_id", 5: "kernel_details"}
t0 = 1_760_000_000_000_000_000
stats = g.st_u(1, 5) + g.st_s(3, "jit_f") + g.st_i(4, 1000) + g.st_s(2, "custom-call.1")
if kd is not None:
    stats += g.st_s(5, kd)
body = (g.fv(1, 0) + g.fb(2, "/device:GPU:0") +
        g.line(1, "Stream #1(Kernel)", t0, g.ev(1, 1000_000, 5000_000, stats)) +
        g.maps({1: ("gemm.kd", b"")}, SM))
g.write_plane(out, body)
host = g.line(1000, "Host Threads/1000", t0, g.ev(1, 500_000, 4000_000, g.st_u(1, 5)))
g.write_plane(out, g.fv(1, 0) + g.fb(2, "/host:CPU") + host +
              g.maps({1: ("hipModuleLaunchKernel", b"")}, {1: "correlation_id"}))
out.close()
