# ttp-filter golden helper: summarise records (stdin) one per line as
#   <id> <kind> [dev=<device>] [ns=<device_ns>] [gap]
# and, with --oracle CASE, check them against tt-perf-report's out.csv of that case
# ($DATA/../oracle/ttperf/CASE/out.csv): same IDs in the same order (--set: as a set,
# for quirk Q35), an Op-to-Op Gap exactly where gap_ns is, Device Time = device_ns/1000.
import csv, json, os, sys

args = sys.argv[1:]
oracle = args[args.index("--oracle") + 1] if "--oracle" in args else None
recs = [json.loads(l) for l in sys.stdin if l.strip()]
for r in recs:
    if r.get("kind") not in ("op", "signpost"):
        print("other", r.get("kind"))
        continue
    s = "%d %s" % (r["id"], r["kind"])
    if "device" in r:
        s += " dev=%d" % r["device"]
    if "device_ns" in r:
        s += " ns=%s" % r["device_ns"]
    if "gap_ns" in r:
        s += " gap"
    print(s)
if oracle:
    path = os.path.join(os.environ["DATA"], "..", "oracle", "ttperf", oracle, "out.csv")
    want = list(csv.DictReader(open(path, newline="")))
    got = [r for r in recs if r.get("kind") in ("op", "signpost")]
    bad = []
    gi, wi = [r["id"] for r in got], [int(w["ID"]) for w in want]
    if "--set" in args:
        if sorted(gi) != sorted(wi):
            bad.append("IDs differ")
    elif gi != wi:
        bad.append("IDs differ: got %s want %s" % (gi[:8], wi[:8]))
    else:
        for r, w in zip(got, want):
            if ("gap_ns" in r) != (w["Op-to-Op Gap"] != ""):
                bad.append("gap of ID %d" % r["id"])
            if r["kind"] == "op" and w["Device Time"] != "" and "(torch)" not in r.get("op", ""):
                if abs(r.get("device_ns", 0) / 1000 - float(w["Device Time"])) > 1e-9:
                    bad.append("device time of ID %d" % r["id"])
    print("oracle %s: %s" % (oracle, "; ".join(bad) if bad else "%d rows match" % len(want)))
