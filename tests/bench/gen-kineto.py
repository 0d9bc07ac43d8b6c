#!/usr/bin/env python3
# Writes a large PyTorch profiler trace (Kineto JSON) to stdout by repeating the events of
# a real one, for make bench (tests/bench/bench.sh).
# Usage: gen-kineto.py SRC.json[.gz] COPIES [DISTINCT]
# Copy c (0-based) has every timestamp shifted by c * (the trace's span + 1 ms) and every
# id that links events (External id, correlation, the ac2g flows' id, Python id and
# Python parent id, Ev Idx) by c * (the largest such id + 1024), so that the result is a
# realistic trace, sorted as the source was, with unique links. With DISTINCT=1 (the
# default), the first stride of each op's first strided argument gets c * n + k added,
# where k counts the n ops with strides in the source: every op of every copy then has
# arguments of its own (ops_unique_args has a row per GPU-launching op); with DISTINCT=0
# the copies repeat the source's arguments.
# The source is read once and each event kept as compact JSON text cut at the values
# that change; the output is written as it is made, never held.
import gzip
import json
import re
import sys

SHIFT_IDS = ("External id", "correlation", "Python id", "Python parent id", "Ev Idx")
MARK = "@@ttp-bench-"
CUT = re.compile('"' + MARK + '([0-9]+)@@"')


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def main():
    src, copies = sys.argv[1], int(sys.argv[2])
    distinct = len(sys.argv) < 4 or sys.argv[3] != "0"
    doc = load(src)
    events = doc.pop("traceEvents")
    lo = hi = None
    maxid = 0
    for e in events:
        ts = e.get("ts")
        if isinstance(ts, (int, float)):
            end = ts + (e.get("dur") or 0)
            lo = ts if lo is None or ts < lo else lo
            hi = end if hi is None or end > hi else hi
        a = e.get("args") or {}
        for k in SHIFT_IDS:
            if isinstance(a.get(k), int):
                maxid = max(maxid, a[k])
        if e.get("cat") == "ac2g" and isinstance(e.get("id"), int):
            maxid = max(maxid, e["id"])
    tshift = (hi - lo) + 1000.0
    ishift = maxid + 1024

    # Each event as text pieces between the values that change: ("t", ts) a timestamp,
    # ("i", n) an id, ("s", n) the stride that makes the arguments distinct.
    tmpl = []
    nstrided = 0
    for e in events:
        vals = []

        def mark(kind, v):
            vals.append((kind, v))
            return "%s%d@@" % (MARK, len(vals) - 1)

        ts = e.get("ts")
        if isinstance(ts, (int, float)):
            e["ts"] = mark("t", ts)
        if e.get("cat") == "ac2g" and isinstance(e.get("id"), int):
            e["id"] = mark("i", e["id"])
        a = e.get("args")
        if isinstance(a, dict):
            for k in SHIFT_IDS:
                if isinstance(a.get(k), int):
                    a[k] = mark("i", a[k])
            st = a.get("Input Strides")
            if distinct and e.get("cat") == "cpu_op" and isinstance(st, list):
                for s in st:
                    if isinstance(s, list) and s and isinstance(s[0], int):
                        s[0] = mark("s", s[0] + nstrided)
                        nstrided += 1
                        break
        text = json.dumps(e, separators=(",", ":"))
        # the pieces in the text's order, which need not be the order of marking
        bits = CUT.split(text)
        parts = bits[0::2]
        vals = [vals[int(n)] for n in bits[1::2]]
        tmpl.append((parts, vals))
    del events

    head = json.dumps(doc, separators=(",", ":"))
    out = sys.stdout
    out.write(head[:-1] + ',"traceEvents":[')
    first = True
    for c in range(copies):
        dt, di = c * tshift, c * ishift
        buf = []
        for parts, vals in tmpl:
            if not vals:
                buf.append(parts[0])
            else:
                pieces = [parts[0]]
                for (kind, v), p in zip(vals, parts[1:]):
                    if kind == "t":
                        pieces.append(repr(round(v + dt, 3)) if c else repr(v))
                    elif kind == "i":
                        pieces.append(str(v + di))
                    else:
                        pieces.append(str(v + c * nstrided))
                    pieces.append(p)
                buf.append("".join(pieces))
            if len(buf) == 4096:
                out.write(("" if first else ",") + ",".join(buf))
                first = False
                buf = []
        if buf:
            out.write(("" if first else ",") + ",".join(buf))
            first = False
    out.write("]}\n")


if __name__ == "__main__":
    main()
