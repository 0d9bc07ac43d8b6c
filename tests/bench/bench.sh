#!/bin/sh
# Benchmark of ttp-parse and the pipeline on a 201 MB trace, of ttp-parse on a
# 55.6 MB PyTorch trace and on a 100 MB synthetic JAX profile (make bench).
# Usage: tests/bench/bench.sh SHARED
# Builds once, cached under build/bench/: big.csv = the data rows of
# SHARED/data/ttmetal/wh_clip_encoder_2.csv repeated 73 times, copy c with HOST START/END
# TS shifted by c * (span + 1 ms) and GLOBAL CALL COUNT by c * (max call + 1024), so the
# result is sorted, realistic and has unique ids; and csvscan, a bare libcsv scan (the
# floor). Prints wall time, CPU time and max RSS of each stage, its ratio to the scan
# (of CPU time: the machine is shared, wall time depends on the load) and the same ratio
# in tests/bench/last.txt, the figures of the last landing (this run's are written to
# build/bench/figures.txt: copy them there when a change lands). Then linearity: the
# scan and the pipeline on 1, 4 and 16 times the trace (LINEAR="1 4 16"), streamed
# through a pipe (the data rows repeated, parsed with --no-sort), never written to disk.
# Then (BIG=0 skips it) the scale runs: a 2 GB TT CSV and a 1 GB PyTorch trace through
# every program, each stage's peak RSS against the 64 MB target (tests/bench/SCALE.md),
# and ttp-ranks on 256, 512 and 1,024 ranks (tests/bench/merge-ranks.sh).
set -e
SHARED=${1:-../shared}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SRC=$SHARED/data/ttmetal/wh_clip_encoder_2.csv
OUT=$TOP/build/bench
COPIES=${COPIES:-73}
mkdir -p "$OUT"
[ -f "$SRC" ] || { echo "bench: $SRC: not found" >&2; exit 1; }

# gen_tt COPIES OUT: COPIES copies of $SRC, each shifted past the one before in host time
# and call count, written to OUT.
gen_tt() {
	awk -F, -v copies="$1" '
	function col(name,   i) { for (i = 1; i <= NF; i++) if ($i == name) return i; return 0 }
	{ sub(/\r$/, "") }
	NR == 1 { hdr = $0; hs = col("HOST START TS"); he = col("HOST END TS");
		cc = col("GLOBAL CALL COUNT"); next }
	{ rows[++n] = $0
	  if ($hs != "" && (lo == "" || $hs + 0 < lo)) lo = $hs + 0
	  if ($he != "" && (hi == "" || $he + 0 > hi)) hi = $he + 0
	  if ($cc != "" && $cc + 0 > maxc) maxc = $cc + 0 }
	END {
		OFS = ","; ORS = "\r\n"
		print hdr
		tshift = hi - lo + 1000000; cshift = maxc + 1024
		for (c = 0; c < copies; c++)
			for (r = 1; r <= n; r++) {
				$0 = rows[r]
				if (c > 0) {
					if ($hs != "") $hs = sprintf("%.0f", $hs + c * tshift)
					if ($he != "") $he = sprintf("%.0f", $he + c * tshift)
					if ($cc != "") $cc = sprintf("%.0f", $cc + c * cshift)
				}
				print
			}
	}' "$SRC" > "$2"
}

if [ ! -s "$OUT/big.csv" ] || [ "$OUT/big.csv" -ot "$SRC" ]; then
	echo "bench: building $OUT/big.csv ($COPIES copies of $(basename "$SRC"))" >&2
	gen_tt "$COPIES" "$OUT/big.csv.tmp"
	mv "$OUT/big.csv.tmp" "$OUT/big.csv"
fi
if [ ! -x "$OUT/csvscan" ] || [ "$OUT/csvscan" -ot "$TOP/tests/bench/csvscan.c" ]; then
	${CC:-cc} -O2 -o "$OUT/csvscan" "$TOP/tests/bench/csvscan.c" -lcsv
fi

TTCSV=$OUT/big.csv
echo "input: $TTCSV, $(wc -c < "$TTCSV") bytes, $(($(wc -l < "$TTCSV") - 1)) rows"
PATH=$TOP/bin:$PATH
export PATH

# run NAME CMD: wall seconds, CPU seconds (all processes) and max RSS (KB, of the
# largest process) of CMD; the ratio is of CPU times to the scan's, and "was" the ratio
# in last.txt.
SCAN=
LAST=$TOP/tests/bench/last.txt
FIG=$OUT/figures.txt
: > "$FIG"
run() {
	name=$1; shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%e %M %U %S" -o "$OUT/time.txt" sh -c "$*" > /dev/null
		read -r secs kb us ss < "$OUT/time.txt"
		cpu=$(awk -v u="$us" -v s="$ss" 'BEGIN { printf "%.2f", u + s }')
	else
		t0=$(date +%s.%N); sh -c "$*" > /dev/null; t1=$(date +%s.%N)
		secs=$(echo "$t1 - $t0" | bc); kb=?; cpu=?
	fi
	[ -z "$SCAN" ] && SCAN=$cpu
	ratio=$(awk -v a="$cpu" -v b="$SCAN" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	was=
	[ -f "$LAST" ] && was=$(awk -F '\t' -v n="$name" '$1 == n { print $5 "x" }' "$LAST")
	printf '%-40s %6.2f s wall %6s s cpu %8s KB max RSS %5sx scan (was %s)\n' \
	    "$name" "$secs" "$cpu" "$kb" "$ratio" "${was:-?}"
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$secs" "$cpu" "$kb" "$ratio" >> "$FIG"
}

# /usr/bin/time measures the whole sh -c; for pipelines its %M is the largest child.
run "csvscan (bare libcsv)" "$OUT/csvscan '$TTCSV'"
run "ttp-parse" "ttp-parse '$TTCSV'"
run "ttp-parse --no-sort" "ttp-parse --no-sort '$TTCSV'"
run "ttp-parse < big.csv (stdin: spooled)" "ttp-parse < '$TTCSV'"
[ -x "$TOP/bin/ttp-filter" ] && run "ttp-parse | ttp-filter" "ttp-parse '$TTCSV' | ttp-filter"
[ -x "$TOP/bin/ttp-roofline" ] && run "ttp-parse | ttp-roofline" "ttp-parse '$TTCSV' | ttp-roofline"
[ -x "$TOP/bin/ttp-report" ] && run "ttp-report --no-advice --csv" \
	"cd '$OUT' && ttp-report -q '$TTCSV' --no-advice --csv out.csv"

# Each stage alone on the output of the one before (saved once), for its own time and
# memory: every stage must stay under 64 MB.
echo "stages alone (input: the previous stage's records in a file):"
ttp-parse "$TTCSV" >"$OUT/p.ndjson"
ttp-filter <"$OUT/p.ndjson" >"$OUT/f.ndjson" 2>/dev/null
ttp-roofline --no-extras <"$OUT/f.ndjson" >"$OUT/r.ndjson" 2>/dev/null
run "  ttp-filter" "ttp-filter < '$OUT/p.ndjson' 2>/dev/null"
run "  ttp-roofline --no-extras" "ttp-roofline --no-extras < '$OUT/f.ndjson' 2>/dev/null"
run "  ttp-roofline (with extras)" "ttp-roofline < '$OUT/f.ndjson' 2>/dev/null"
run "  ttp-table --no-advice --csv" "cd '$OUT' && ttp-table --no-advice --csv t.csv < r.ndjson"
run "  ttp-table (text report)" "ttp-table --color=never < '$OUT/r.ndjson'"
run "  ttp-phase --by repeat" "ttp-phase -q --by repeat < '$OUT/p.ndjson'"
rm -f "$OUT/p.ndjson" "$OUT/f.ndjson" "$OUT/r.ndjson" "$OUT/t.csv" "$OUT/t_stacked.csv" "$OUT/t_stacked.svg"

# Linearity: N times the trace through a pipe (header once, data rows N times; ids are
# the rows, timestamps repeat, so ttp-parse --no-sort, which also reads it as it comes).
# The pipeline's CPU time per copy must stay flat; its memory must not grow.
echo "linearity (the trace's data rows repeated N times through a pipe; cpu per copy):"
for n in ${LINEAR:-1 4 16}; do
	g="{ head -n 1 '$TTCSV'; i=0; while [ \$i -lt $n ]; do tail -n +2 '$TTCSV'; i=\$((i + 1)); done; }"
	SCAN=
	run "  ${n}x csvscan" "$g | '$OUT/csvscan' /dev/stdin"
	run "  ${n}x parse --no-sort | filter | roofline | table --csv" \
	    "cd '$OUT' && $g | ttp-parse -q --no-sort | ttp-filter -q | ttp-roofline -q --no-extras | ttp-table --no-advice --csv lin.csv"
	awk -F '\t' -v n="$n" '$1 ~ "^  " n "x " { printf "    %-50s %6.2f s cpu per copy\n", $1, $3 / n }' "$FIG"
done
rm -f "$OUT/lin.csv" "$OUT/lin_stacked.csv"

# PyTorch: the owlv2 trace (55.6 MB of JSON, 132,152 events; issue 14's target for
# ttp-parse alone: 0.3 s and 30 MB), gzip as shipped and plain; given twice, as two ranks,
# the time must double, not more (linear), and the memory stay per trace.
OWL=$SHARED/data/pytorch/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz
if [ -f "$OWL" ]; then
	[ -s "$OUT/owlv2.json" ] && [ "$OUT/owlv2.json" -nt "$OWL" ] ||
	    gzip -dc "$OWL" > "$OUT/owlv2.json"
	echo "PyTorch: $OWL ($(wc -c < "$OUT/owlv2.json") bytes of JSON)"
	SCAN=
	run "gzip -dc (the floor for .json.gz)" "gzip -dc '$OWL'"
	run "ttp-parse owlv2.json.gz" "ttp-parse '$OWL'"
	run "ttp-parse owlv2.json" "ttp-parse '$OUT/owlv2.json'"
	run "ttp-parse owlv2.json owlv2.json (2 ranks)" "ttp-parse '$OUT/owlv2.json' '$OUT/owlv2.json'"
	# issue 16's target: every sheet at least 15 times faster than TraceLens (8.5 s,
	# 525 MB here), in a tenth of its memory
	if [ -x "$TOP/bin/ttp-tracelens" ]; then
		run "ttp-tracelens (all sheets, CSV)" "ttp-tracelens -q --profile_json_path '$OWL' \
		    --output_csvs_dir '$OUT/owlcsv' --enable_kernel_summary --short_kernel_study"
		run "ttp-tracelens (all sheets, xlsx)" "ttp-tracelens -q --profile_json_path '$OWL' \
		    --output_xlsx_path '$OUT/owl.xlsx' --enable_kernel_summary --short_kernel_study"
		ttp-parse "$OWL" | ttp-roofline >"$OUT/owl.ndjson" 2>/dev/null
		run "  ttp-table (all sheets, CSV) alone" "ttp-table --csv-dir '$OUT/owlcsv' < '$OUT/owl.ndjson'"
		rm -rf "$OUT/owlcsv" "$OUT/owl.xlsx" "$OUT/owl.ndjson"
	fi
fi

# JAX: a synthetic profile of about 100 MB (tests/bench/gen-xplane.py: 8 GPUs, 192,000
# kernels with their launches and HLO modules, 3.2 million python tracer events; built
# once into build/bench). Issue 26's target: ttp-parse under 0.5 s, and every stage of
# the JAX report under 64 MB.
XP=$OUT/big.xplane.pb
GENXP=$TOP/tests/bench/gen-xplane.py
if [ ! -s "$XP" ] || [ "$XP" -ot "$GENXP" ]; then
	PY=python3
	[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
	echo "bench: building $XP (tests/bench/gen-xplane.py, about a minute)" >&2
	$PY "$GENXP" "$XP.tmp" && mv "$XP.tmp" "$XP"
fi
echo "JAX: $XP ($(wc -c < "$XP") bytes)"
# (the ratios here are to ttp-parse's CPU time: reading the file is no floor, it is
# in the page cache and costs nothing)
SCAN=
run "ttp-parse big.xplane.pb" "ttp-parse '$XP'"
run "ttp-parse big.xplane.pb | ttp-roofline" "ttp-parse '$XP' | ttp-roofline"
ttp-parse -q "$XP" | ttp-roofline -q >"$OUT/xp.ndjson" 2>/dev/null
run "  ttp-roofline alone (JAX)" "ttp-roofline -q < '$OUT/xp.ndjson' 2>/dev/null"
run "  ttp-table --csv-dir alone (JAX sheets)" "ttp-table --csv-dir '$OUT/xpcsv' < '$OUT/xp.ndjson'"
run "ttp-tracelens --jax (all sheets, CSV)" "ttp-tracelens -q --jax --profile_path '$XP' \
    --output_csvs_dir '$OUT/xpcsv'"
rm -rf "$OUT/xp.ndjson" "$OUT/xpcsv"

# Scale (BIG=0 skips it): a 2 GB TT-Metal CSV and a 1 GB PyTorch trace through every
# program, each stage's time and peak RSS measured inside the pipeline (no intermediate
# file), checked against the 64 MB per stage the README states. The inputs are generated into
# build/bench and deleted at the end.
[ "${BIG:-1}" = 0 ] && exit 0
LIMIT_KB=65536
OVER=

# stages NAME INPUT STAGE...: INPUT | STAGE | ... with every stage under /usr/bin/time;
# one line per stage: wall and CPU seconds, peak RSS, "OVER" past 64 MB.
stages() {
	name=$1 input=$2; shift 2
	i=0 cmd=$input
	for st in "$@"; do
		i=$((i + 1))
		cmd="$cmd | /usr/bin/time -f '%e %M %U %S' -o '$OUT/st.$i' $st"
	done
	t0=$(date +%s.%N)
	(cd "$OUT" && sh -c "$cmd" > /dev/null)
	t1=$(date +%s.%N)
	echo "$name: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s wall"
	i=0
	for st in "$@"; do
		i=$((i + 1))
		read -r secs kb us ss < "$OUT/st.$i"
		cpu=$(awk -v u="$us" -v s="$ss" 'BEGIN { printf "%.2f", u + s }')
		flag=
		[ "$kb" -gt "$LIMIT_KB" ] && { flag=" OVER 64 MB"; OVER="$OVER
  $name: ${st%% *}"; }
		printf '  %-48s %7.2f s wall %7s s cpu %9s KB max RSS%s\n' \
		    "${st%% -q*}" "$secs" "$cpu" "$kb" "$flag"
		printf '%s\t%s\t%s\t%s\t\n' "$name: ${st%% *}" "$secs" "$cpu" "$kb" >> "$FIG"
		rm -f "$OUT/st.$i"
	done
}

# TT-Metal, 2 GB: the generator above repeated (BIG_TT_COPIES of the source trace)
BIGTT=$OUT/big2g.csv
if [ ! -s "$BIGTT" ]; then
	echo "bench: building $BIGTT (${BIG_TT_COPIES:-730} copies)" >&2
	gen_tt "${BIG_TT_COPIES:-730}" "$BIGTT.tmp"
	mv "$BIGTT.tmp" "$BIGTT"
fi
echo "scale: $BIGTT, $(wc -c < "$BIGTT") bytes, $(($(wc -l < "$BIGTT") - 1)) rows"
stages "TT 2 GB, report CSV" "true" "ttp-parse -q '$BIGTT'" "ttp-filter -q" \
    "ttp-roofline -q" "ttp-phase -q" "ttp-table --no-advice --csv big2g-out.csv"
stages "TT 2 GB, text report" "true" "ttp-parse -q '$BIGTT'" "ttp-filter -q" \
    "ttp-roofline -q" "ttp-table --color=never"
stages "TT 2 GB, ttp-report" "true" "ttp-report -q '$BIGTT' --no-advice --csv big2g-rep.csv"
rm -f "$BIGTT" "$OUT"/big2g-out*.csv "$OUT"/big2g-out*.svg "$OUT"/big2g-rep*

# PyTorch, 1 GB: owlv2's events repeated (BIG_PT_COPIES), every op with arguments of
# its own (tests/bench/gen-kineto.py)
if [ -f "$OWL" ]; then
	BIGPT=$OUT/big1g.json
	PY=python3
	[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
	if [ ! -s "$BIGPT" ]; then
		echo "bench: building $BIGPT (${BIG_PT_COPIES:-32} copies)" >&2
		$PY "$TOP/tests/bench/gen-kineto.py" "$OWL" "${BIG_PT_COPIES:-32}" > "$BIGPT.tmp"
		mv "$BIGPT.tmp" "$BIGPT"
	fi
	echo "scale: $BIGPT, $(wc -c < "$BIGPT") bytes"
	# ttp-parse alone on a quarter of the copies, then on all of them: its CPU time
	# about 4 times, its memory flat (its events are sorted out of memory: SCALE.md)
	Q=$((${BIG_PT_COPIES:-32} / 4))
	[ "$Q" -ge 1 ] || Q=1
	$PY "$TOP/tests/bench/gen-kineto.py" "$OWL" "$Q" > "$OUT/bigq.json"
	stages "PyTorch ${Q} copies, ttp-parse alone" "true" "ttp-parse -q '$OUT/bigq.json'"
	rm -f "$OUT/bigq.json"
	stages "PyTorch 1 GB, ttp-parse alone" "true" "ttp-parse -q '$BIGPT'"
	awk -F '\t' -v q="PyTorch ${Q} copies, ttp-parse alone: ttp-parse" \
	    -v b="PyTorch 1 GB, ttp-parse alone: ttp-parse" '
	    $1 == q { cq = $3; mq = $4 } $1 == b { cb = $3; mb = $4 }
	    END { if (cq > 0 && mq > 0)
		printf "  ttp-parse, 1 GB against a quarter: %.2fx the CPU time, %.2fx the memory\n",
		    cb / cq, mb / mq }' "$FIG"
	stages "PyTorch 1 GB, sheets CSV" "true" "ttp-parse -q '$BIGPT'" "ttp-filter -q" \
	    "ttp-roofline -q" "ttp-phase -q" "ttp-table --csv-dir big1g-csv"
	stages "PyTorch 1 GB, sheets xlsx" "true" "ttp-parse -q '$BIGPT'" "ttp-roofline -q" \
	    "ttp-table --xlsx big1g.xlsx"
	stages "PyTorch 1 GB, ttp-tracelens" "true" "ttp-tracelens -q --profile_json_path \
	    '$BIGPT' --output_csvs_dir big1g-tl --enable_kernel_summary --short_kernel_study"
	rm -rf "$BIGPT" "$OUT/big1g-csv" "$OUT/big1g.xlsx" "$OUT/big1g-tl"
fi
stages "JAX 100 MB, sheets CSV" "true" "ttp-parse -q '$XP'" "ttp-roofline -q" \
    "ttp-table --csv-dir big-xp-csv"
rm -rf "$OUT/big-xp-csv"

# Many ranks (issues 27 and 28): tests/bench/merge-ranks.sh on W = RANKS_W_LIST (default
# 256 512 1024) synthetic ranks of gen-ranks.py --ops 12 (RANKS_C steps, default 100:
# collectives in process groups, all_to_allv with split sizes, a dozen per-op names): one
# rank's map stage by stage, every rank's map two at a time, the reduce's stages alone and
# as a whole, and ttp-ranks -j 2 on the W files, each against the 64 MB target, then the
# ratio of the times per doubling of W (linear: 2). Then, on the largest W, the collective
# report alone: ttp-tracelens --multi-rank (TraceLens took 29 s on 1,024 collective-only
# ranks of 100 collectives on an idle machine) and ttp-ranks --no-rank-reports.
RL=${RANKS_W_LIST:-256 512 1024}
RDIR=$OUT/merge
FIG_APPEND=1 FIG=$FIG W_LIST=$RL sh "$TOP/tests/bench/merge-ranks.sh" "$RDIR" |
    tee "$OUT/ranks.txt"
grep -q 'OVER 64 MB' "$OUT/ranks.txt" &&
    OVER="$OVER
$(grep 'OVER 64 MB' "$OUT/ranks.txt" | sed 's/^ */  ranks: /; s/  */ /g')"
RW=${RL##* }
stages "ranks ${RW}, ttp-tracelens --multi-rank" "true" "ttp-tracelens -q --multi-rank \
    --trace_pattern '$RDIR/r$RW/rank*_trace.json.gz' --world_size $RW --use_multiprocessing \
    --max_workers 2 --output_csvs_dir ranks-tl"
stages "ranks ${RW}, ttp-ranks --no-rank-reports" "true" "ttp-ranks -q -j 2 \
    --no-rank-reports -o ranks-rk '$RDIR/r$RW'/rank*_trace.json.gz"
rm -rf "$OUT/ranks-tl" "$OUT/ranks-rk" "$OUT/ranks.txt"
for w in $RL; do rm -rf "$RDIR/r$w"; done
if [ -n "$OVER" ]; then
	echo "over the 64 MB target:$OVER"
else
	echo "every stage under the 64 MB target"
fi
exit 0
