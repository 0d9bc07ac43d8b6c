#!/bin/sh
# Runs ../shared/conformance/ttperf-check over bin/ (every reference run of tt-perf-report).
TOP=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${1:-../shared}
case $SHARED in /*) ;; *) SHARED=$TOP/$SHARED;; esac
check=$SHARED/conformance/ttperf-check
if [ ! -f "$check" ]; then
	echo "conformance: SKIPPED: $check not found (../shared is absent)"
	exit 0
fi
if [ ! -x "$TOP/bin/ttp-report" ]; then
	echo "conformance: FAILED: bin/ttp-report is not built"
	exit 1
fi
python3 "$check" "$TOP/bin"
