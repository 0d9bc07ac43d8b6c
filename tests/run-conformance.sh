#!/bin/sh
# Runs ../shared/conformance/ttperf-check over bin/ (every reference run of tt-perf-report)
# and ../shared/conformance/tracelens-check (every reference run of TraceLens but those
# listed in TRACELENS_SKIP, none by default).
TOP=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${1:-../shared}
case $SHARED in /*) ;; *) SHARED=$TOP/$SHARED;; esac
TRACELENS_SKIP=${TRACELENS_SKIP-}
check=$SHARED/conformance/ttperf-check
if [ ! -f "$check" ]; then
	echo "conformance: SKIPPED: $check not found (../shared is absent)"
	exit 0
fi
if [ ! -x "$TOP/bin/ttp-report" ] || [ ! -x "$TOP/bin/ttp-tracelens" ]; then
	echo "conformance: FAILED: bin/ttp-report or bin/ttp-tracelens is not built"
	exit 1
fi
rc=0
# Each checker's own summary line ("N passed, M failed") gets the suite's name.
out=$(mktemp "${TMPDIR:-/tmp}/ttp-conf.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
python3 "$check" "$TOP/bin" >"$out" 2>&1 || rc=1
sed '$s/^/conformance (tt-perf-report): /' "$out"
tlcheck=$SHARED/conformance/tracelens-check
[ -f "$tlcheck" ] || exit $rc
# Each oracle folder of TraceLens's runs, with the suite's name: the single traces of the
# project's data, the foreign traces (older formats, backward passes, no GPU), the JAX
# profiles, the multi-rank collective report.
for suite in tracelens:TraceLens tracelens-foreign:"TraceLens, foreign traces" \
    tracelens-jax:"TraceLens, JAX" tracelens-multirank:"TraceLens, multi-rank"; do
	oracle=$SHARED/oracle/${suite%%:*}
	[ -d "$oracle" ] || continue
	# tracelens-check selects cases by substring: name every case but the skipped ones
	set --
	for d in "$oracle"/*/; do
		c=$(basename "$d")
		[ -f "$d/cmd.txt" ] || continue
		case " $TRACELENS_SKIP " in *" $c "*) echo "tracelens: SKIP $c"; continue ;; esac
		set -- "$@" --case "$c"
	done
	[ $# -gt 0 ] || continue
	python3 "$tlcheck" "$TOP/bin" --oracle "$oracle" "$@" >"$out" 2>&1 || rc=1
	sed "\$s/^/conformance (${suite#*:}): /" "$out"
done
exit $rc
