#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Synthetic multi-rank PyTorch profiler traces for the many-ranks benchmark (issue 27).

Usage: gen-ranks.py [--ops K] OUTDIR W C [GPUS_PER_NODE]

Writes OUTDIR/rank{i}_trace.json.gz for i in 0..W-1, the layout TraceLens's
--trace_dir reads: each a Kineto trace of one rank with C collectives, in three process
groups as a tensor-parallel / data-parallel job has them, named as PyTorch names them
(one name per group, in order of creation): "0" the world (default_pg), "1" + n for
node n's ranks (tp, GPUS_PER_NODE of them, default 8) and "1" + nodes + i for the ranks
of local index i on every node (dp, W / GPUS_PER_NODE of them). Collective j is, in turn, an
allreduce on tp, an allgather on the world, a reduce_scatter on dp, an allreduce on tp
and an all_to_allv on dp with per-peer split sizes; each is a record_param_comms CPU op,
its cudaLaunchKernel and its NCCL kernel (the args Kineto writes, Seq per group), and a
GEMM of its own between collectives. Each rank arrives at collective j with a
deterministic skew and all leave together (NCCL's implicit sync), so the report has
stragglers. distributedInfo carries the rank, the world and the rank's process groups;
deviceProperties one entry per GPU of the node.

With --ops K (issue 28), each step also has K per-op events after the GEMM: ops of a
dozen names (elementwise, normalisation, softmax, copies; some launch two kernels), each
a cpu_op, its cudaLaunchKernel(s) and kernel(s) whose duration depends on the rank, the
step and the op, so that ops_summary and kernel_summary have groups to merge over ranks
with a spread.
"""
import gzip
import os
import sys


# --ops: (op name, kernel name, kernels per op)
OPS = [("aten::add", "vectorized_elementwise_kernel_add", 1),
       ("aten::mul", "vectorized_elementwise_kernel_mul", 1),
       ("aten::layer_norm", "vectorized_layer_norm_kernel", 1),
       ("aten::softmax", "cunn_SoftMaxForward", 1),
       ("aten::copy_", "direct_copy_kernel_cuda", 1),
       ("aten::gelu", "vectorized_elementwise_kernel_gelu", 1),
       ("aten::native_dropout", "fused_dropout_kernel_vec", 2),
       ("aten::sum", "reduce_kernel_sum", 1),
       ("aten::cat", "CatArrayBatchedCopy", 1),
       ("aten::embedding", "indexSelectLargeIndex", 1),
       ("aten::rsqrt", "vectorized_elementwise_kernel_rsqrt", 1),
       ("aten::_fused_adam", "multi_tensor_apply_kernel", 2)]


def main():
    argv = sys.argv[1:]
    nops = 0
    if argv[:1] == ["--ops"] and len(argv) > 1:
        nops = int(argv[1])
        argv = argv[2:]
    if len(argv) < 3 or nops < 0:
        sys.exit(__doc__.split("\n\n")[1])
    out, w, c = argv[0], int(argv[1]), int(argv[2])
    gpn = int(argv[3]) if len(argv) > 3 else 8
    if w < 1 or c < 1 or gpn < 1 or w % gpn != 0:
        sys.exit("gen-ranks.py: W and C must be >= 1 and W a multiple of GPUS_PER_NODE")
    os.makedirs(out, exist_ok=True)
    nodes = w // gpn
    world = "[" + ", ".join(str(i) for i in range(w)) + "]"
    tp_of = {}
    dp_of = {}
    for n in range(nodes):
        tp_of[n] = "[" + ", ".join(str(n * gpn + i) for i in range(gpn)) + "]"
    for i in range(gpn):
        dp_of[i] = "[" + ", ".join(str(n * gpn + i) for n in range(nodes)) + "]"
    kinds = [("allreduce", "tp", "tp", "AllReduce_Sum_bf16", 4 << 20, 2),
             ("allgather", "world", "default_pg", "AllGather_RING_LL", 1 << 16, 2),
             ("reduce_scatter", "dp", "dp", "ReduceScatter_Sum_bf16", 1 << 20, 2),
             ("allreduce", "tp", "tp", "AllReduce_Sum_bf16", 1 << 18, 2),
             ("all_to_allv", "dp", "dp", "SendRecv", 0, 2)]
    devs = ", ".join('{"id": %d, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": '
                     '85029158912, "computeMajor": 9, "computeMinor": 0, "numSms": 132}'
                     % i for i in range(gpn))
    base = 1700000000000000
    for r in range(w):
        node, local = divmod(r, gpn)
        groups = {"world": ("0", world, w), "tp": (str(1 + node), tp_of[node], gpn),
                  "dp": (str(1 + nodes + local), dp_of[local], nodes)}
        pgc = ", ".join('{"pg_name": "%s", "pg_desc": "%s", "backend_config": '
                        '"cuda:nccl", "pg_size": %d, "ranks": %s}'
                        % (groups[g][0], d, groups[g][2], groups[g][1])
                        for g, d in (("world", "default_pg"), ("tp", "tp"), ("dp", "dp")))
        ev = []
        seq = {"world": 0, "tp": 0, "dp": 0}
        ext = corr = 0
        t = base
        for j in range(c):
            name, g, desc, kern, nel, _ = kinds[j % len(kinds)]
            pgname, ranks, size = groups[g]
            seq[g] += 1
            # a GEMM between collectives
            ext += 1
            corr += 1
            ev.append('{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 100, '
                      '"tid": 100, "ts": %d.000, "dur": 20.000, "args": {"External id": %d, '
                      '"Input Dims": [[4096, 4096], [4096, 4096]], "Input type": '
                      '["c10::BFloat16", "c10::BFloat16"]}}' % (t, ext))
            ev.append('{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", '
                      '"pid": 100, "tid": 100, "ts": %d.000, "dur": 5.000, "args": '
                      '{"External id": %d, "correlation": %d}}' % (t + 10, ext, corr))
            ev.append('{"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_'
                      'bf16f32", "pid": 0, "tid": 7, "ts": %d.000, "dur": 300.000, "args": '
                      '{"External id": %d, "correlation": %d, "device": %d, "stream": 7}}'
                      % (t + 30, ext, corr, local))
            # the per-op events: nops ops in the 300 us after the GEMM's launch
            for k in range(nops):
                oname, kname, nk = OPS[(j * 7 + k) % len(OPS)]
                ext += 1
                ots = t + 40 + k * 250 // nops
                ev.append('{"ph": "X", "cat": "cpu_op", "name": "%s", "pid": 100, '
                          '"tid": 100, "ts": %d.000, "dur": 4.000, "args": {"External id": '
                          '%d, "Input Dims": [[1024, 4096]], "Input type": ["c10::BFloat16"]}}'
                          % (oname, ots, ext))
                for q in range(nk):
                    corr += 1
                    dur_ns = 1000 + ((r * 31 + j * 17 + k * 13 + q * 7) % 97) * 50
                    ev.append('{"ph": "X", "cat": "cuda_runtime", "name": '
                              '"cudaLaunchKernel", "pid": 100, "tid": 100, "ts": %d.%03d, '
                              '"dur": 1.000, "args": {"External id": %d, "correlation": %d}}'
                              % (ots + 1 + q, q * 500, ext, corr))
                    ev.append('{"ph": "X", "cat": "kernel", "name": "%s_%d", "pid": 0, '
                              '"tid": 7, "ts": %d.%03d, "dur": %d.%03d, "args": {"External '
                              'id": %d, "correlation": %d, "device": %d, "stream": 7}}'
                              % (kname, q, t + 340 + k * 300 // nops + q * 150 // nops, 0,
                                 dur_ns // 1000, dur_ns % 1000, ext, corr, local))
            # the collective: every rank arrives with its own skew, all leave together
            skew = (r * 7919 + j * 104729) % 997          # ns, deterministic
            start_ns = (t + 400) * 1000 + skew
            end_ns = (t + 400) * 1000 + 997 + 50000 + (j % 7) * 3000
            if name == "all_to_allv":
                split = "[" + ", ".join(str(256 + (r + p + j) % 64)
                                        for p in range(size)) + "]"
                osplit = "[" + ", ".join(str(256 + (p * gpn + local + r // gpn + j) % 64)
                                         for p in range(size)) + "]"
                innel = sum(256 + (r + p + j) % 64 for p in range(size))
                outnel = sum(256 + (p * gpn + local + r // gpn + j) % 64
                             for p in range(size))
            else:
                split = osplit = "[]"
                innel = nel
                outnel = nel * size if name == "allgather" else \
                    nel // size if name == "reduce_scatter" else nel
            args = ('"Collective name": "%s", "In msg nelems": %d, "Out msg nelems": %d, '
                    '"Group size": %d, "dtype": "BFloat16", "In split size": "%s", '
                    '"Out split size": "%s", "Process Group Name": "%s", '
                    '"Process Group Description": "%s", "Process Group Ranks": "%s", '
                    '"Seq": %d' % (name, innel, outnel, size, split, osplit, pgname, desc,
                                   ranks, seq[g]))
            ext += 1
            corr += 1
            ev.append('{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": '
                      '100, "tid": 100, "ts": %d.000, "dur": 30.000, "args": {"External '
                      'id": %d, %s}}' % (t + 340, ext, args))
            ev.append('{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", '
                      '"pid": 100, "tid": 100, "ts": %d.000, "dur": 5.000, "args": '
                      '{"External id": %d, "correlation": %d}}' % (t + 350, ext, corr))
            ev.append('{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_%s(ncclDevComm*, '
                      'unsigned long, ncclWork*)", "pid": 0, "tid": 20, "ts": %d.%03d, '
                      '"dur": %d.%03d, "args": {"External id": %d, "correlation": %d, '
                      '"device": %d, "stream": 20, %s}}'
                      % (kern, start_ns // 1000, start_ns % 1000,
                         (end_ns - start_ns) // 1000, (end_ns - start_ns) % 1000, ext, corr,
                         local, args))
            t += 1000
        doc = ('{"schemaVersion": 1, "deviceProperties": [%s], "distributedInfo": '
               '{"backend": "nccl", "rank": %d, "world_size": %d, "pg_count": 3, '
               '"pg_config": [%s], "nccl_version": "2.21.5"}, "traceEvents": [\n%s\n], '
               '"displayTimeUnit": "ms"}\n' % (devs, r, w, pgc, ",\n".join(ev)))
        path = os.path.join(out, "rank%d_trace.json.gz" % r)
        with gzip.open(path + ".tmp", "wt", compresslevel=1) as f:
            f.write(doc)
        os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
