#!/bin/sh
# Issue 28: ttp-ranks over many ranks, measured. For each W (default 256 512 1024): W
# synthetic ranks (gen-ranks.py --ops 12, C steps each, default 100; built once into
# OUTDIR/rW and kept, so that a second run measures only), then
#   - one rank's map, stage by stage, each alone on the previous stage's output
#     (ttp-parse, ttp-filter --collectives, ttp-roofline, ttp-table --partial, the merge
#     of that partial alone to the rank's report, the merge cut to the sheets over ranks);
#   - the map of every rank, two at a time (ttp-ranks --engine print's lines on xargs -P 2);
#   - the reduce, each of its stages alone (the collective report, the merge of the W
#     partials), then as a whole (ttp-ranks --reduce);
#   - ttp-ranks -j 2 on the W files, map and reduce (GNU parallel when installed).
# Each line: wall and CPU (user + system) seconds and the peak RSS of the largest process
# (GNU time's %M of a run is its largest waited-for descendant's), flagged "OVER 64 MB"
# past the target; then, per doubling of W, the ratio of the wall and CPU times. The map
# of every rank and ttp-ranks as a whole must write the same merged sheets.
# Usage: tests/bench/merge-ranks.sh [OUTDIR]   (W_LIST="256 512 1024", RANKS_C=100;
# FIG=FILE appends the figures as bench.sh's figures.txt has them; CLEAN=1 removes the
# rank files at the end). The programs run from a copy of bin/ (OUTDIR/bin), so that a
# rebuild does not disturb a run.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$TOP/build/bench/merge}
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd)
rm -rf "$OUT/bin"
cp -R "$TOP/bin" "$OUT/bin" || exit 1
PATH=$OUT/bin:$PATH
export PATH
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
C=${RANKS_C:-100}
LIMIT_KB=65536
FIG=${FIG:-$OUT/figures.txt}
[ -n "${FIG_APPEND:-}" ] || : >"$FIG"
S="--sheet gpu_timeline --sheet ops_summary_by_category --sheet ops_summary --sheet kernel_summary"

# m NAME CMD: CMD (sh -c) under GNU time; one line: wall, CPU, peak RSS, the flag
m() {
	_n=$1
	shift
	/usr/bin/time -f '%e %M %U %S' -o "$OUT/time.txt" sh -c "$*" >/dev/null
	_rc=$?
	read -r _s _kb _u _y <"$OUT/time.txt"
	_cpu=$(awk -v u="$_u" -v s="$_y" 'BEGIN { printf "%.2f", u + s }')
	_f=
	[ "$_kb" -gt "$LIMIT_KB" ] && _f=" OVER 64 MB"
	[ "$_rc" -eq 0 ] || _f="$_f FAILED (exit $_rc)"
	printf '  %-56s %7.2f s wall %7s s cpu %8s KB max RSS%s\n' "$_n" "$_s" "$_cpu" "$_kb" "$_f"
	printf '%s\t%s\t%s\t%s\t\n' "ranks $_n" "$_s" "$_cpu" "$_kb" >>"$FIG"
}

for W in ${W_LIST:-256 512 1024}; do
	d=$OUT/r$W
	if [ ! -e "$d/.done" ] || [ "$d/.done" -ot "$TOP/tests/bench/gen-ranks.py" ]; then
		echo "merge-ranks: building $d ($W ranks, --ops 12, $C steps)" >&2
		rm -rf "$d"
		$PY "$TOP/tests/bench/gen-ranks.py" --ops 12 "$d" "$W" "$C" || exit 1
		touch "$d/.done"
	fi
	t=$OUT/t$W
	rm -rf "$t"
	mkdir -p "$t" || exit 1
	f=$d/rank0_trace.json.gz
	echo "W=$W C=$C: $(cat "$d"/*.gz | wc -c) bytes gzip, rank 0 $(gzip -dc "$f" | wc -c) bytes of JSON"
	m "W=$W map of rank 0: ttp-parse" "ttp-parse --expect=json -q '$f' >'$t/recs'"
	m "W=$W map of rank 0: ttp-filter --collectives" \
	    "ttp-filter -q --collectives <'$t/recs' >'$t/coll'"
	m "W=$W map of rank 0: ttp-roofline" "ttp-roofline -q --no-step-counts <'$t/recs' >'$t/roof'"
	m "W=$W map of rank 0: ttp-table --partial" \
	    "ttp-table -q --no-short-kernels --partial <'$t/roof' >'$t/all'"
	m "W=$W map of rank 0: ttp-table --merge (its report)" \
	    "ttp-table -q --merge --csv-dir='$t/sheets' <'$t/all'"
	m "W=$W map of rank 0: ttp-table --merge --partial --sheet" \
	    "ttp-table -q --merge --partial $S <'$t/all' >'$t/part'"
	echo "  rank 0: $(wc -c <"$t/recs") bytes of records, partial $(wc -c <"$t/all") bytes, cut $(wc -c <"$t/part")"
	rm -rf "$t/recs" "$t/roof" "$t/all" "$t/part" "$t/coll" "$t/sheets"
	# the map of every rank, as an engine runs ttp-ranks --engine print's lines
	ttp-ranks --engine print -o "$t/o" "$d"/rank*_trace.json.gz >"$t/cmds" || exit 1
	sed '$d' "$t/cmds" >"$t/map.sh"
	sed -n '$p' "$t/cmds" >"$t/reduce.sh"
	m "W=$W map of every rank (xargs -P 2)" \
	    "tr '\\n' '\\0' <'$t/map.sh' | xargs -0 -n 1 -P 2 sh -c 'eval \"\$1\"' sh"
	wk=$t/o/.ttp-ranks
	echo "  the map's output: $(cat "$wk"/*.coll | wc -c) bytes of collective records, $(cat "$wk"/*.part | wc -c) bytes of partials"
	colls= parts=
	i=0
	while [ $i -lt "$W" ]; do
		colls="$colls '$wk/$i.coll'"
		parts="$parts '$wk/$i.part'"
		i=$((i + 1))
	done
	m "W=$W reduce alone: ttp-table (collective report)" \
	    "ttp-table -q --world-size=$W --csv-dir='$t/c' $colls"
	m "W=$W reduce alone: ttp-table --merge of $W partials" \
	    "ttp-table -q --merge --csv-dir='$t/m' $parts"
	m "W=$W reduce: ttp-ranks --reduce" "$(cat "$t/reduce.sh") -q"
	m "W=$W ttp-ranks -j 2 (map and reduce)" "ttp-ranks -q -j 2 -o '$t/w' '$d'/rank*_trace.json.gz"
	diff -r -q "$t/o" "$t/w" >/dev/null || echo "W=$W: ttp-ranks differs from its printed map and reduce"
	for s in gpu_timeline ops_summary ops_summary_by_category kernel_summary; do
		cmp -s "$t/m/$s.csv" "$t/w/$s.csv" || echo "W=$W: $s.csv: ttp-ranks differs from the merge"
	done
	rm -rf "$t"
	[ "${CLEAN:-0}" = 0 ] || rm -rf "$d"
done
# per doubling of W: the ratio of the times (linear: 2)
awk -F '\t' '
	function key(n) { sub(/^ranks W=[0-9]+ /, "", n); return n }
	$1 ~ /^ranks W=/ {
		w = $1; sub(/^ranks W=/, "", w); sub(/ .*/, "", w); k = key($1)
		if ((k, w / 2) in wall)
			printf "  x2 ranks (%d -> %d) %-48s wall %5.2fx cpu %5.2fx\n", w / 2, w, k,
			    (wall[k, w / 2] > 0 ? $2 / wall[k, w / 2] : 0),
			    (cpu[k, w / 2] > 0 ? $3 / cpu[k, w / 2] : 0)
		wall[k, w] = $2; cpu[k, w] = $3
	}' "$FIG" | grep -e 'every rank' -e 'ttp-ranks' -e 'partials' -e 'collective report'
