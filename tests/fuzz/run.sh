#!/bin/sh
# run.sh TARGET SECONDS LOG [libFuzzer args...]: runs a fuzz target for SECONDS in
# rounds of at most RUNS inputs (default 20000), each a fresh process on the growing
# corpus, so that what a long process keeps (caches, the corpus in memory) stays
# bounded.
# Any round that fails (crash, leak, sanitizer report, timeout, OOM) fails the run.
target=$1 secs=$2 log=$3
shift 3
runs=${RUNS:-20000}
start=$(date +%s)
total=0 rounds=0
: >"$log"
while :; do
	now=$(date +%s)
	left=$((secs - (now - start)))
	[ "$left" -gt 0 ] || break
	if ! "$target" "$@" -max_total_time="$left" -runs="$runs" >>"$log" 2>&1; then
		tail -n 60 "$log"
		echo "fuzz: $(basename "$target") FAILED in round $((rounds + 1)) (log: $log)"
		exit 1
	fi
	n=$(grep '^stat::number_of_executed_units' "$log" | tail -n 1 | awk '{print $2}')
	total=$((total + ${n:-0}))
	rounds=$((rounds + 1))
done
echo "fuzz: $(basename "$target"): $total inputs in $rounds rounds, $secs s, no findings"
