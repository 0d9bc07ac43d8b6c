#!/bin/sh
# make demo: a TT-Metal report and a PyTorch report of the sample traces the project
# ships, each through its whole pipeline, with the commands shown as they are typed.
TOP=$(cd "$(dirname "$0")/.." && pwd)
PATH=$TOP/bin:$PATH
cd "$TOP" || exit 1
show() {
	printf '\n$ %s\n' "$1" >&2
	sh -c "$1" || exit
}
show "ttp-report tests/data/sample.csv --no-advice"
show "ttp-parse tests/data/kineto/sample.json | ttp-roofline | ttp-table -q --sheet gpu_timeline --sheet ops_summary"
