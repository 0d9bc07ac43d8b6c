#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# Issue 26's held-back facts, decoded from an XSpace protobuf (*.xplane.pb, plain or
# gzip) by this script alone (the wire format by hand, the field numbers of the spec's
# jax.md 1.2; nothing of ttp's reader) and compared with ttp-parse's records of it:
#   per Stream line (pid, tid): events, its stream name and device ordinal;
#   per device pid: busy time and span in exact picoseconds (the union of the Stream
#     events' [start, start + max(duration, 1)]);
#   per (pid, event name): count, total, minimum and maximum duration in ps, and its gpu
#     category (1.5) and class (2) by the spec's rules on the name;
#   per device pid: the eight gpu_timeline times (2) in exact ps from the classes;
#   per pid, the records whose uid is right (1.4 without derived lines: the converted
#     planes' events by pid, tid, start, longest first);
#   per (pid, hlo_module, program_id, hlo_op): count and total duration;
#   per pid: events linked to a host launch (a /host:CPU event with the same
#     correlation_id; of several, the last by tid, start, longest first) and not, and
#     the launch latency's minimum and maximum in ps;
#   a TPU profile's XLA Ops and XLA Modules lines: per (pid, line, op) count and total,
#     per line busy time and span, against ttp-parse's op records.
# Usage: jaxfacts.py PROFILE RECORDS   (RECORDS: ttp-parse PROFILE's output). Prints one
# line per profile, and each fact that disagrees; exit 1 when one does.
import collections
import gzip
import re
import struct
import sys

INTERNAL = {"MemoryAllocation", "MemoryDeallocation", "PrefetchProduce", "PrefetchConsume",
            "ParallelInterleaveProduce", "ParallelInterleaveConsume",
            "ParallelInterleaveInitializeInput", "ParallelMapProduce", "ParallelMapConsume",
            "MapAndBatchProduce", "MapAndBatchConsume", "ParseExampleProduce",
            "ParseExampleConsume"}


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b, lo, hi):
    """(number, wire type, value): an int, or for LEN the payload's (start, end)."""
    i = lo
    while i < hi:
        t, i = varint(b, i)
        num, wt = t >> 3, t & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v, i = struct.unpack_from("<Q", b, i)[0], i + 8
        elif wt == 2:
            n, i = varint(b, i)
            v, i = (i, i + n), i + n
        elif wt == 5:
            v, i = struct.unpack_from("<I", b, i)[0], i + 4
        else:
            raise ValueError("wire type %d at byte %d" % (wt, i))
        yield num, wt, v


def s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def text(b, r):
    return bytes(b[r[0]:r[1]]).decode("utf-8", "replace")


def stat(b, r, smd):
    """(stat name, value) of an XStat."""
    md, val = 0, None
    for num, wt, v in fields(b, *r):
        if num == 1:
            md = s64(v)
        elif num == 2:
            val = struct.unpack("<d", struct.pack("<Q", v))[0]
        elif num == 3:
            val = v
        elif num == 4:
            val = s64(v)
        elif num == 5 and wt == 2:
            val = text(b, v)
        elif num == 6:
            val = None
        elif num == 7:
            val = smd.get(s64(v), "")
    return smd.get(md, ""), val


def plane(b, r):
    p = {"id": 0, "name": "", "lines": [], "evmd": {}, "smd": {}, "raw_evmd": []}
    for num, wt, v in fields(b, *r):
        if num == 1:
            p["id"] = s64(v)
        elif num == 2:
            p["name"] = text(b, v)
        elif num == 3:
            p["lines"].append(v)
        elif num == 4:
            p["raw_evmd"].append(v)
        elif num == 5:
            for n2, _, v2 in fields(b, *v):
                if n2 == 2:
                    sid, sname = 0, ""
                    for n3, _, v3 in fields(b, *v2):
                        if n3 == 1:
                            sid = s64(v3)
                        elif n3 == 2:
                            sname = text(b, v3)
                    p["smd"][sid] = sname
    for r2 in p["raw_evmd"]:
        for n2, _, v2 in fields(b, *r2):
            if n2 != 2:
                continue
            m = {"id": 0, "name": "", "dname": "", "stats": {}}
            for n3, _, v3 in fields(b, *v2):
                if n3 == 1:
                    m["id"] = s64(v3)
                elif n3 == 2:
                    m["name"] = text(b, v3)
                elif n3 == 4:
                    m["dname"] = text(b, v3)
                elif n3 == 5:
                    k, val = stat(b, v3, p["smd"])
                    m["stats"][k] = val
            p["evmd"][m["id"]] = m
    return p


def line_events(b, p, r):
    ln = {"id": 0, "display_id": 0, "name": "", "dname": "", "ts": 0, "events": []}
    for num, wt, v in fields(b, *r):
        if num == 1:
            ln["id"] = s64(v)
        elif num == 10:
            ln["display_id"] = s64(v)
        elif num == 2:
            ln["name"] = text(b, v)
        elif num == 11:
            ln["dname"] = text(b, v)
        elif num == 3:
            ln["ts"] = s64(v)
        elif num == 4:
            ln["events"].append(v)
    evs = []
    for r2 in ln["events"]:
        md, off, dur, stats = 0, 0, 0, {}
        for num, wt, v in fields(b, *r2):
            if num == 1:
                md = s64(v)
            elif num == 2:
                off = s64(v)
            elif num == 3:
                dur = v
            elif num == 4:
                k, val = stat(b, v, p["smd"])
                stats[k] = val
        m = p["evmd"].get(md)
        if m is not None and m["name"] in INTERNAL:
            continue
        name = "" if m is None else m["dname"] or m["name"]
        allst = dict(m["stats"]) if m is not None else {}
        allst.update(stats)
        evs.append({"name": name, "start": ln["ts"] * 1000 + off, "dur": dur, "st": allst})
    ln["events"] = evs
    ln["shown"] = ln["dname"] or ln["name"]
    ln["tid"] = (ln["display_id"] or ln["id"]) & 0xFFFFFFFF
    return ln


def as_int(v):
    if isinstance(v, float):
        return int(v) if v >= 0 and v == int(v) else None
    return v if isinstance(v, int) else None


def union(iv):
    busy, cur = 0, None
    for s, e in sorted(iv):
        if cur is None or s > cur[1]:
            if cur is not None:
                busy += cur[1] - cur[0]
            cur = [s, e]
        elif e > cur[1]:
            cur[1] = e
    if cur is not None:
        busy += cur[1] - cur[0]
    return busy


def category(name):
    n = name.lower()
    gpu = "memcpy" if n.startswith(("copy", "memcpy")) else \
        "memset" if n.startswith("memset") else "kernel"
    cls = "memcpy" if n.startswith(("copy", "memcpy", "memset")) else \
        "comm" if re.search("rccl|nccl|cross_device_reduce", n) else "comp"
    return gpu, cls


def merged(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def minus(a, b):
    """Sorted disjoint a minus sorted disjoint b."""
    out, j = [], 0
    for s, e in a:
        while j < len(b) and b[j][1] <= s:
            j += 1
        k = j
        while k < len(b) and b[k][0] < e:
            if b[k][0] > s:
                out.append([s, b[k][0]])
            s = max(s, b[k][1])
            if s >= e:
                break
            k += 1
        if s < e:
            out.append([s, e])
    return out


def length(v):
    return sum(e - s for s, e in v)


def timeline(iv):
    """iv: class -> intervals; the eight times of 2 in ps."""
    comp, comm, mem = (merged(iv.get(c, [])) for c in ("comp", "comm", "memcpy"))
    allv = merged(iv.get("comp", []) + iv.get("comm", []) + iv.get("memcpy", []))
    total = allv[-1][1] - allv[0][0] if allv else 0
    return (length(comp), length(minus(comm, comp)), length(minus(minus(mem, comp), comm)),
            length(allv), total - length(allv), total, length(comm), length(mem))


def facts(evs, launch):
    """The facts of Stream events: (pid, tid, stream, device, name, start, dur, corr,
    module, program, op) tuples; launch: corr -> host start, or None for the records'
    own launch_start."""
    f = collections.defaultdict(dict)
    lines = collections.defaultdict(lambda: [0, set(), set()])
    iv = collections.defaultdict(list)
    names = collections.defaultdict(list)
    hlo = collections.defaultdict(list)
    links = collections.defaultdict(lambda: [0, 0, None, None])
    cats = collections.defaultdict(set)
    tl = collections.defaultdict(lambda: collections.defaultdict(list))
    for e in evs:
        pid, tid, stream, dev, name, s, d, corr, mod, prog, op, ls, cat = e
        cats[(pid, name)].add(cat)
        tl[pid][cat[1]].append((s, s + max(d, 1)))
        lines[(pid, tid)][0] += 1
        lines[(pid, tid)][1].add(stream)
        lines[(pid, tid)][2].add(dev)
        iv[pid].append((s, s + max(d, 1)))
        names[(pid, name)].append(d)
        if mod is not None or op is not None:
            hlo[(pid, mod, prog, op)].append(d)
        h = launch.get(corr) if launch is not None and corr is not None else ls
        k = links[pid]
        if h is None:
            k[1] += 1
        else:
            k[0] += 1
            lat = s - h
            k[2] = lat if k[2] is None else min(k[2], lat)
            k[3] = lat if k[3] is None else max(k[3], lat)
    for key, v in lines.items():
        f["line"][key] = (v[0], sorted(v[1]), sorted(v[2]))
    for pid, v in iv.items():
        f["busy/span"][pid] = (union(v), max(e for _, e in v) - min(s for s, _ in v))
    for key, d in names.items():
        f["name"][key] = (len(d), sum(d), min(d), max(d), sorted(cats[key]))
    for pid, iv in tl.items():
        f["timeline"][pid] = timeline(iv)
    for key, d in hlo.items():
        f["hlo"][key] = (len(d), sum(d))
    for pid, k in links.items():
        f["links"][pid] = tuple(k)
    return f


def op_facts(ops):
    """(pid, line, op, start, dur) tuples: per op count and total, per line busy, span."""
    f = collections.defaultdict(dict)
    per = collections.defaultdict(list)
    iv = collections.defaultdict(list)
    for pid, line, op, s, d in ops:
        per[(pid, line, op)].append(d)
        iv[(pid, line)].append((s, s + max(d, 1)))
    for key, d in per.items():
        f["op"][key] = (len(d), sum(d))
    for key, v in iv.items():
        f["op line"][key] = (union(v), max(e for _, e in v) - min(s for s, _ in v))
    return f


def from_profile(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    b = memoryview(raw)
    planes = [plane(b, v) for num, wt, v in fields(b, 0, len(b)) if num == 1 and wt == 2]
    planes = [p for p in planes if p["lines"]]
    gpus = [p for p in planes if p["name"].startswith("/device:GPU:")]
    devs = gpus or [p for p in planes if p["name"].startswith("/device:TPU:")]
    hosts = [p for p in planes if p["name"] == "/host:CPU"]
    best = {}
    for p in hosts:
        for r in p["lines"]:
            ln = line_events(b, p, r)
            if not ln["events"] or ln["shown"] == "Async XLA Ops":
                continue
            for e in ln["events"]:
                c = as_int(e["st"].get("correlation_id"))
                if c is None:
                    continue
                key = (ln["tid"], e["start"], -e["dur"])
                if c not in best or key >= best[c][0]:
                    best[c] = (key, e["start"])
    launch = {c: v[1] for c, v in best.items()}
    # the converted planes' events in UID order (1.4): pid, tid, start, longest first
    order = []
    for p in planes:
        n = p["name"]
        pid = 701 if n == "/host:CPU" else 1 + p["id"] if p in devs else \
            501 + p["id"] if n.startswith("/device:CUSTOM:") else None
        if pid is None:
            continue
        for r in p["lines"]:
            ln = line_events(b, p, r)
            if ln["shown"] == "Async XLA Ops":
                continue
            order += [(pid, ln["tid"], e["start"], -e["dur"]) for e in ln["events"]]
    order.sort()
    evs, ops = [], []
    for p in devs:
        pid = 1 + p["id"]
        name = p["name"]
        dev = int(name.split(":")[-1]) if name.split(":")[-1].isdigit() else -1
        for r in p["lines"]:
            ln = line_events(b, p, r)
            if ln["events"] and not gpus and ln["shown"] in ("XLA Ops", "XLA Modules"):
                ops += [(pid, ln["shown"], e["name"], e["start"], e["dur"])
                        for e in ln["events"]]
            if not ln["events"] or ln["shown"] == "Async XLA Ops" or \
                    not ln["shown"].startswith("Stream"):
                continue
            for e in ln["events"]:
                st = e["st"]
                evs.append((pid, ln["tid"], ln["shown"], dev, e["name"], e["start"], e["dur"],
                            as_int(st.get("correlation_id")), st.get("hlo_module"),
                            as_int(st.get("program_id")), st.get("hlo_op"), None,
                            category(e["name"])))
    f = facts(evs, launch)
    f.update(op_facts(ops))
    return f, len(evs) + len(ops), order


def ps(r, k):
    return int(r[k + "_ps"]) if k + "_ps" in r else int(r[k + "_ns"]) * 1000


def from_records(path):
    import json
    evs, ops, uids = [], [], []
    for l in open(path):
        r = json.loads(l)
        if r.get("kind") in ("gpu", "op"):
            d = int(r["ps"]) if "ps" in r else int(r["ns" if "ns" in r else "device_ns"]) * 1000
            uids.append((r["uid"], (r["pid"], r["tid"], ps(r, "start"), -d)))
        if r.get("kind") == "op":
            ops.append((r["pid"], r["line"], r["op"], ps(r, "start"),
                        int(r["ps"]) if "ps" in r else int(r["device_ns"]) * 1000))
        if r.get("kind") != "gpu":
            continue
        d = int(r["ps"]) if "ps" in r else int(r["ns"]) * 1000
        ls = ps(r, "launch_start") if "launch_start_ns" in r else None
        evs.append((r["pid"], r["tid"], r["stream"], r["device"], r["name"], ps(r, "start"),
                    d, r.get("correlation_id"), r.get("hlo_module"), r.get("program_id"),
                    r.get("hlo_op"), ls, (r["gpu"], r["class"])))
    f = facts(evs, None)
    f.update(op_facts(ops))
    return f, len(evs) + len(ops), uids


def main():
    prof, recs = sys.argv[1], sys.argv[2]
    want, n, order = from_profile(prof)
    got, m, uids = from_records(recs)
    # each record's uid: the place of its (pid, tid, start, duration) in the order
    for u, key in uids:
        k = want["uid"].setdefault(key[0], [0, 0])
        g = got["uid"].setdefault(key[0], [0, 0])
        k[0] += 1
        k[1] += 1
        g[0] += 1
        g[1] += 0 <= u < len(order) and order[u] == key
    bad = 0
    total = 0
    for kind in ("line", "busy/span", "name", "timeline", "hlo", "links", "uid", "op",
                 "op line"):
        w, g = want.get(kind, {}), got.get(kind, {})
        for key in sorted(set(w) | set(g), key=repr):
            total += 1
            if w.get(key) != g.get(key):
                bad += 1
                if bad <= 20:
                    print("  %s %r: profile %r, records %r" % (kind, key, w.get(key),
                                                                g.get(key)))
    name = prof.rsplit("/", 1)[-1]
    print("%s: %d Stream and op events (records %d), %d facts, %s" % (
        name, n, m, total, "all agree" if bad == 0 and n == m else "%d disagree" % bad))
    sys.exit(1 if bad or n != m else 0)


if __name__ == "__main__":
    main()
