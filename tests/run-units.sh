#!/bin/sh
# Runs the unit-test programs built from tests/unit/*.c. Each prints TAP lines and exits
# non-zero on failure.
LC_ALL=C
export LC_ALL
pass=0 fail=0
for t in "$@"; do
	if "$t"; then pass=$((pass + 1)); else echo "not ok - $t"; fail=$((fail + 1)); fi
done
echo "units: $pass passed, $fail failed"
[ $fail = 0 ]
