# A stream whose one kept op with a model (aten::mm) hangs below its root (aten::R,
# which launches a kernel) through a chain of DEPTH ops that ttp-table does not keep
# (they launch nothing): R's row of unified_perf_summary is then a synthetic one, since
# a descendant has a model. The chain and aten::mm start at the same time (records come
# in start order; ties in any order): ORDER fwd (parents first), rev (each child before
# its parent: one level a scan), mix (the chain's middle first).
import json, sys

order, depth = sys.argv[1], int(sys.argv[2])


def op(i, name, parent, hs, he, **kw):
    r = {"kind": "op", "trace": "kineto", "id": i, "op": name, "cat": "cpu_op"}
    if parent is not None:
        r["parent"] = parent
    r.update({"host_start_ns": hs, "host_end_ns": he, "pid": 1, "tid": 1})
    r.update(kw)
    return r


print(json.dumps({"kind": "trace", "trace": "kineto", "file": "chain.json",
                  "format": "kineto", "signposts": [], "events": 1000,
                  "gpu_events": 1, "unlinked": 0, "gpu_only": False}))
ops = [op(0, "aten::R", None, 1000, 900000, launcher=True, kernels=[1],
          subtree_ns=500, category="other")]
chain = []
p = 0
for d in range(depth):
    chain.append(op(10 + d, "aten::wrap%d" % d, p, 2000, 800000 - 10 * d,
                    launcher=False, category="other"))
    p = 10 + d
leaf = op(900, "aten::mm", p, 2000, 400000, launcher=False, flops=2e9, bytes=4e6,
          category="GEMM", perf_model="GEMM")
# ops not kept beside the chain, none below another
side = [op(1000 + j, "aten::side%d" % j, 0, 500000 + j, 500000 + j, launcher=False,
           category="other") for j in range(20)]
if order == "rev":
    chain.reverse()
    chain.insert(0, leaf)
elif order == "mix":
    h = len(chain) // 2
    chain = chain[h:] + [leaf] + chain[:h]
else:
    chain.append(leaf)
for o in ops + chain + side:
    print(json.dumps(o))
print(json.dumps({"kind": "gpu", "trace": "kineto", "id": 1, "name": "gemm_kernel",
                  "gpu": "kernel", "start_ns": 2000, "ns": 500, "stream": 7,
                  "launched_by": 0}))
