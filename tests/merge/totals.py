#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The sheets over ranks against the ranks' own sheets (issue 28).

Usage: totals.py MERGED_DIR RANK_DIR...   (RANK_DIR i is rank i's sheets: TraceLens's or
ttp-tracelens's CSVs of that rank's trace alone, with --enable_kernel_summary)

For ops_summary, ops_summary_by_category and kernel_summary: every group of every rank
is in the merged sheet and no other; its counts and times are the sums of the ranks'
(within the CSV's printed precision), its mean the merged sum over the merged count, its
min and max the ranks' min and max, Categories the union of the ranks' lists, and the
spread columns the min, max (with their ranks) of the ranks' totals, 0 for a rank without
the group. gpu_timeline's row of rank r and type t is rank r's own. Prints one line per
sheet, and each difference; exit status 1 when there is one.
"""
import ast
import csv
import math
import os
import sys

SHEETS = {
    "ops_summary": (["name", "parent_module"],
                    ["total_direct_kernel_time_sum", "total_subtree_kernel_time_sum",
                     "total_direct_kernel_time_ms", "total_subtree_kernel_time_ms", "Count"],
                    "total_direct_kernel_time_sum"),
    "ops_summary_by_category": (["op category", "parent_module"],
                                ["Count", "total_direct_kernel_time_ms"], None),
    "kernel_summary": (["Parent op category", "Parent cpu_op", "Kernel name", "Kernel stream"],
                       ["Kernel duration (\u00b5s)_sum", "Kernel duration (\u00b5s)_count"],
                       "Kernel duration (\u00b5s)_sum"),
}
KMIN, KMAX = "Kernel duration (\u00b5s)_min", "Kernel duration (\u00b5s)_max"
KMEAN = "Kernel duration (\u00b5s)_mean"


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def close(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-12


def main():
    merged, ranks = sys.argv[1], sys.argv[2:]
    bad = 0

    def fail(msg):
        nonlocal bad
        bad += 1
        if bad <= 20:
            print("  " + msg)

    for sheet, (keys, adds, spread) in SHEETS.items():
        m = read(os.path.join(merged, sheet + ".csv"))
        keys = [k for k in keys if m and k in m[0]]
        per = [read(os.path.join(d, sheet + ".csv")) for d in ranks]
        want = {}
        for r, rows in enumerate(per):
            for row in rows:
                k = tuple(row[c] for c in keys)
                w = want.setdefault(k, {"sum": {c: 0.0 for c in adds}, "cats": set(),
                                        "min": math.inf, "max": -math.inf,
                                        "by": {}})
                for c in adds:
                    w["sum"][c] += float(row[c])
                if "Categories" in row:
                    w["cats"] |= set(ast.literal_eval(row["Categories"]))
                if KMIN in row:
                    w["min"] = min(w["min"], float(row[KMIN]))
                    w["max"] = max(w["max"], float(row[KMAX]))
                if spread:
                    w["by"][r] = w["by"].get(r, 0.0) + float(row[spread])
        got = {tuple(row[c] for c in keys): row for row in m}
        for k in sorted(set(want) ^ set(got)):
            fail("%s %s: %s" % (sheet, k, "missing" if k in want else "not in any rank"))
        n = 0
        for k, w in want.items():
            row = got.get(k)
            if row is None:
                continue
            n += 1
            for c in adds:
                if not close(float(row[c]), w["sum"][c]):
                    fail("%s %s %s: %s, the ranks' sum %r" % (sheet, k, c, row[c], w["sum"][c]))
            if "Categories" in row and sorted(w["cats"]) != ast.literal_eval(row["Categories"]):
                fail("%s %s Categories: %s, the ranks' union %s" % (sheet, k, row["Categories"],
                                                                  sorted(w["cats"])))
            if KMIN in row:
                s, c = w["sum"][adds[0]], w["sum"][adds[1]]
                if not (close(float(row[KMIN]), w["min"]) and close(float(row[KMAX]), w["max"])
                        and close(float(row[KMEAN]), s / c)):
                    fail("%s %s: min, mean or max is not the ranks'" % (sheet, k))
            if spread:
                v = [w["by"].get(r, 0.0) for r in range(len(ranks))]
                lo, hi = min(v), max(v)
                if not (close(float(row["min over ranks"]), lo) and
                        int(row["rank of min"]) == v.index(lo) and
                        close(float(row["max over ranks"]), hi) and
                        int(row["rank of max"]) == v.index(hi)):
                    fail("%s %s: the spread over ranks is not the ranks' min and max" % (sheet, k))
        print("%s: %d groups of %d ranks" % (sheet, n, len(ranks)))
    m = read(os.path.join(merged, "gpu_timeline.csv"))
    n = 0
    for r, d in enumerate(ranks):
        own = {row["type"]: row for row in read(os.path.join(d, "gpu_timeline.csv"))}
        for row in m:
            if row["rank"] != str(r):
                continue
            o = own.get(row["type"])
            if o is None or not (close(float(row["time ms"]), float(o["time ms"])) and
                                 close(float(row["percent"]), float(o["percent"]))):
                fail("gpu_timeline rank %d %s: not the rank's own" % (r, row["type"]))
            n += 1
    print("gpu_timeline: %d rows of %d ranks" % (n, len(ranks)))
    if bad:
        print("%d differences" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
