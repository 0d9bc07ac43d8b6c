#!/bin/sh
# make demo: the report of the sample trace the project ships, through the whole pipeline.
TOP=$(cd "$(dirname "$0")/.." && pwd)
PATH=$TOP/bin:$PATH
sample=$TOP/tests/data/sample.csv
echo "\$ ttp-report tests/data/sample.csv" >&2
exec ttp-report "$sample"
