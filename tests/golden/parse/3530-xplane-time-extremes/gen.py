import sys
sys.path.insert(0, sys.argv[1])
sys.dont_write_bytecode = True
from pbwrite import fv, fb, stat, maps
def event(md, off, dur, stats=()):
    return fv(1, md) + fv(2, off) + fv(3, dur) + b"".join(fb(4, s) for s in stats)
def line(lid, name, ts, evs):
    return fv(1, lid) + fb(2, name) + fv(3, ts) + b"".join(fb(4, e) for e in evs)
def plane(pid, name, lines, evmd, stmd):
    b = (fv(1, pid) if pid else b"") + fb(2, name)
    for ln in lines: b += fb(3, ln)
    return b + maps({i: (nm, b"") for i, nm in evmd.items()}, stmd)
mode = sys.argv[2]
gts = {"zero": 1000, "big": (1 << 63) - 1, "neg": -5}[mode]
hts = {"zero": 0, "big": 0, "neg": -5}[mode]
gpu = plane(0, "/device:GPU:0", [line(1, "Stream #1(Kernel)", gts,
    [event(1, 2000123, 5000, [stat(1, "u", 101)])])], {1: "Cijk_gemm"}, {1: "correlation_id"})
host = plane(0, "/host:CPU", [line(77, "Host Threads/77", hts,
    [event(1, 123, 500000, [stat(1, "u", 101)])])], {1: "hipModuleLaunchKernel"}, {1: "correlation_id"})
sys.stdout.buffer.write(fb(1, host) + fb(1, gpu) + fb(4, "h"))
