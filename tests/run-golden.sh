#!/bin/sh
# Golden tests: one directory per case under tests/golden/<tool>/<NNNN-name>/ holding
#   cmd     a sh script, run in a fresh temporary directory
#   in      (optional) its standard input; otherwise /dev/null
#   expout, experr, rc   expected stdout, stderr and exit status
# The script sees PATH with bin/ first, $CASE (the case directory), $TOP (the project),
# $DATA ($SHARED/data, the real traces; SHARED defaults to ../shared, relative to the
# project, or absolute) and $TESTDATA (tests/data). A case that uses $DATA is skipped,
# with a notice, when the default ../shared is absent; a SHARED given explicitly
# (SHARED_REQUIRED=1, as make passes it) that has no data/ is an error.
# Two cases of one tool with the same number fail the run (each engineer has a range).
# Usage: run-golden.sh [PATTERN...]   (substrings of case paths); BLESS=1 rewrites the
# expected files from the actual output.
LC_ALL=C
export LC_ALL
TOP=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-../shared}
case $SHARED in /*) ;; *) SHARED=$TOP/$SHARED;; esac
DATA=$(cd "$SHARED/data" 2>/dev/null && pwd)
if [ -z "$DATA" ] && [ -n "$SHARED_REQUIRED" ]; then
	echo "golden: $SHARED/data: no such directory (SHARED=$SHARED)" >&2
	exit 1
fi
TESTDATA=$TOP/tests/data
PATH=$TOP/bin:$PATH
export TOP DATA TESTDATA PATH
unset NO_COLOR
pass=0 fail=0 skip=0 n=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ttp-golden.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
dups=$(cd "$TOP/tests/golden" && for d in */[0-9]*-*/; do echo "${d%%-*}"; done | sort | uniq -d)
if [ -n "$dups" ]; then
	n=$((n + 1)) fail=$((fail + 1))
	echo "not ok $n - case numbers used twice:" $dups
fi
for c in $(find "$TOP/tests/golden" -name cmd -type f | sort); do
	case_dir=${c%/cmd}
	name=${case_dir#"$TOP/tests/golden/"}
	if [ $# -gt 0 ]; then
		want=0
		for p in "$@"; do case $name in *"$p"*) want=1;; esac; done
		[ $want = 1 ] || continue
	fi
	n=$((n + 1))
	if [ -z "$DATA" ] && grep -Eq '[$][{]?DATA' "$c"; then
		echo "ok $n - $name # SKIP $SHARED/data absent"; skip=$((skip + 1)); continue
	fi
	work=$tmp/work.$n; mkdir -p "$work"
	input=/dev/null; [ -f "$case_dir/in" ] && input=$case_dir/in
	(cd "$work" && CASE=$case_dir sh "$c" <"$input" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc")
	if [ -n "$BLESS" ]; then
		cp "$tmp/out" "$case_dir/expout"; cp "$tmp/err" "$case_dir/experr"; cp "$tmp/rc" "$case_dir/rc"
	fi
	why=
	cmp -s "$tmp/rc" "$case_dir/rc" 2>/dev/null || why="exit status $(cat "$tmp/rc"), want $(cat "$case_dir/rc" 2>/dev/null)"
	[ -z "$why" ] && ! cmp -s "$tmp/out" "$case_dir/expout" 2>/dev/null && why="stdout differs"
	[ -z "$why" ] && ! cmp -s "$tmp/err" "$case_dir/experr" 2>/dev/null && why="stderr differs"
	if [ -z "$why" ]; then
		echo "ok $n - $name"; pass=$((pass + 1))
	else
		echo "not ok $n - $name: $why"; fail=$((fail + 1))
		case $why in
		stdout*) diff "$case_dir/expout" "$tmp/out" 2>&1 | head -n 10 | sed 's/^/#   /';;
		stderr*) diff "$case_dir/experr" "$tmp/err" 2>&1 | head -n 10 | sed 's/^/#   /';;
		*) head -n 5 "$tmp/err" | sed 's/^/#   stderr: /';;
		esac
	fi
	rm -rf "$work"
done
echo "1..$n"
echo "golden: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
