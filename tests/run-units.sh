#!/bin/sh
# Runs the unit-test programs built from tests/unit/*.c. Each prints TAP lines and exits
# non-zero on failure. What a test writes on stderr (the warnings that the cases of bad
# input must give) is captured and compared with tests/unit/NAME.stderr, or must be
# empty when there is no such file; it is shown only when it differs. One line per suite:
# its name and how many tests passed; a failing suite's TAP output is shown in full.
LC_ALL=C
export LC_ALL
TOP=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ttp-units.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for t in "$@"; do
	name=${t##*/}
	want=$TOP/tests/unit/$name.stderr
	[ -f "$want" ] || want=/dev/null
	"$t" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	n=$(grep -c '^ok ' "$tmp/out")
	if [ -n "$BLESS" ] && [ "$rc" -eq 0 ]; then
		if [ -s "$tmp/err" ]; then cp "$tmp/err" "$TOP/tests/unit/$name.stderr"
		else rm -f "$TOP/tests/unit/$name.stderr"; fi
		want=$tmp/err
	fi
	if [ "$rc" -ne 0 ]; then
		cat "$tmp/out" "$tmp/err"
		echo "not ok - unit $name: exit status $rc"
		fail=$((fail + 1))
	elif ! cmp -s "$tmp/err" "$want"; then
		echo "not ok - unit $name: stderr differs from ${want#"$TOP/"}"
		diff "$want" "$tmp/err" | head -n 10 | sed 's/^/#   /'
		fail=$((fail + 1))
	else
		note=
		[ -s "$tmp/err" ] && note=", stderr as expected ($(wc -l <"$tmp/err" | tr -d ' ') lines)"
		echo "ok - unit $name: $n tests$note"
		pass=$((pass + 1))
	fi
done
echo "units: $pass passed, $fail failed"
[ $fail = 0 ]
