#!/bin/sh
# Replays the fuzz regression inputs (tests/fuzz/regress/TARGET-name) through the fuzz
# targets built with the ordinary compiler (build/fuzz-replay/TARGET, tests/fuzz/replay.c):
# every input that once crashed, hung or leaked must now run clean.
TOP=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
for f in "$TOP"/tests/fuzz/regress/*; do
	[ -f "$f" ] || continue
	t=${f##*/}; t=${t%%-*}
	b=$TOP/build/fuzz-replay/$t
	if [ ! -x "$b" ]; then
		echo "not ok - ${f##*/}: no target $t"; fail=$((fail + 1)); continue
	fi
	if (cd "${TMPDIR:-/tmp}" && timeout 60 "$b" "$f" >/dev/null 2>"$TOP/build/fuzz-replay/err"); then
		pass=$((pass + 1))
	else
		echo "not ok - ${f##*/}: $t failed"; sed 's/^/#   /' "$TOP/build/fuzz-replay/err" | head -n 20
		fail=$((fail + 1))
	fi
done
echo "fuzz regress: $pass passed, $fail failed"
[ $fail = 0 ]
