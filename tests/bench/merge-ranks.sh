#!/bin/sh
# Issue 28: the per-op sheets over many ranks. For each W (default 256 512 1024): W
# synthetic ranks (gen-ranks.py --ops 12, C steps each, default 100), then
#   - one rank's map, stage by stage (ttp-parse, ttp-roofline, ttp-table --partial), and
#     the partial's size;
#   - every rank's partial, two at a time (wall time);
#   - the merge of the W partials (ttp-table --merge --csv-dir), its time and peak RSS;
#   - ttp-ranks on the W files (map and reduce, per-rank reports included): its wall time
#     and the peak RSS of its largest process (GNU time's %M is the largest waited-for
#     descendant's).
# Usage: tests/bench/merge-ranks.sh [OUTDIR]   (W_LIST="256 512 1024", RANKS_C=100)
# The programs run from a copy of bin/ (OUTDIR/bin), so that a rebuild does not disturb
# a run.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$TOP/build/bench/merge}
mkdir -p "$OUT" || exit 1
rm -rf "$OUT/bin"
cp -R "$TOP/bin" "$OUT/bin" || exit 1
PATH=$OUT/bin:$PATH
export PATH
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
C=${RANKS_C:-100}
T="/usr/bin/time -f %M\tKB\t%e\ts\t%U\tuser"
# the sheets that merge over ranks, as ttp-ranks asks for them
S="--sheet gpu_timeline --sheet ops_summary_by_category --sheet ops_summary --sheet kernel_summary"
mkdir -p "$OUT" || exit 1
for W in ${W_LIST:-256 512 1024}; do
	d=$OUT/r$W
	rm -rf "$d" "$OUT/p$W" "$OUT/m$W" "$OUT/o$W"
	$PY "$TOP/tests/bench/gen-ranks.py" --ops 12 "$d" "$W" "$C" || exit 1
	mkdir -p "$OUT/p$W"
	f=$d/rank0_trace.json.gz
	echo "W=$W C=$C: $(cat "$d"/*.gz | wc -c) bytes gzip"
	printf 'W=%s map rank 0 ttp-parse:\t%s\n' "$W" "$($T ttp-parse -q "$f" 2>&1 >"$OUT/recs")"
	printf 'W=%s map rank 0 ttp-roofline:\t%s\n' "$W" \
	    "$($T ttp-roofline -q --no-step-counts <"$OUT/recs" 2>&1 >"$OUT/recs2")"
	printf 'W=%s map rank 0 ttp-table --partial:\t%s\t%s bytes\n' "$W" \
	    "$($T ttp-table -q --no-short-kernels $S --partial <"$OUT/recs2" 2>&1 >"$OUT/p0")" \
	    "$(wc -c <"$OUT/p0")"
	rm -f "$OUT/recs" "$OUT/recs2" "$OUT/p0"
	t0=$(date +%s.%N)
	i=0
	while [ $i -lt "$W" ]; do echo $i; i=$((i + 1)); done |
	    xargs -P 2 -I{} sh -c "ttp-parse -q '$d/rank{}_trace.json.gz' |
	    ttp-roofline -q --no-step-counts | ttp-table -q --no-short-kernels $S --partial \
	    >'$OUT/p$W/{}.part'"
	t1=$(date +%s.%N)
	printf 'W=%s partials of every rank (2 at a time):\t%s s wall\t%s bytes\n' "$W" \
	    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" \
	    "$(cat "$OUT/p$W"/*.part | wc -c)"
	printf 'W=%s ttp-table --merge of %s partials:\t%s\n' "$W" "$W" \
	    "$($T ttp-table -q --merge "$OUT/p$W"/*.part --csv-dir "$OUT/m$W" 2>&1)"
	printf 'W=%s ttp-ranks -j 2 (map and reduce, largest process):\t%s\n' "$W" \
	    "$($T ttp-ranks -q -j 2 --engine xargs -o "$OUT/o$W" "$d"/rank*_trace.json.gz 2>&1)"
	for s in gpu_timeline ops_summary ops_summary_by_category kernel_summary; do
		cmp -s "$OUT/m$W/$s.csv" "$OUT/o$W/$s.csv" || echo "W=$W: $s.csv: ttp-ranks differs from the merge"
	done
	rm -rf "$d" "$OUT/p$W" "$OUT/m$W" "$OUT/o$W"
done
