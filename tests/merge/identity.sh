#!/bin/sh
# The identity of ttp-table's partials (issue 28): on every TraceLens golden case and
# every case of every TraceLens oracle,
#   ttp-table OPTS --partial <recs | ttp-table OPTS --merge  ==  ttp-table OPTS <recs
# byte for byte. Runs them with a ttp-table that is that pipeline (a wrapper in a
# scratch bin/ beside the other programs). Usage: identity.sh [SHARED]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${1:-../shared}
case $SHARED in /*) ;; *) SHARED=$TOP/$SHARED;; esac
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ttp-identity.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
for p in "$TOP"/bin/*; do
	[ "$(basename "$p")" = ttp-table ] || ln -s "$p" "$tmp/bin/"
done
# The wrapper: the report programs' own paths (the TT report, --group-by, --plot, help)
# have no partial; the files named go to the map only.
cat >"$tmp/bin/ttp-table" <<EOW
#!/bin/sh
real=$TOP/bin/ttp-table
EOW
cat >>"$tmp/bin/ttp-table" <<'EOW'
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
t=$(mktemp -d "$IDENTITY_TMP/p.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
all="$*" opts= dopts= files= want= outs=
for a; do
	if [ -n "$want" ]; then
		opts="$opts $(q "$a")"
		case $want in
		--csv-dir|--xlsx|--html|--plot-phases)
			dopts="$dopts $(q "$t/direct$want")"; outs="$outs $want $(q "$a")" ;;
		*) dopts="$dopts $(q "$a")" ;;
		esac
		want=; continue
	fi
	case $a in
	--group-by*|--plot|--plot=*|--csv|--csv=*|-h|--help|-V|--version|--summary-only|--summary-file*|--stacked-csv*)
		exec "$real" "$@" ;;
	--format|--sort|--top|--percent-of|--sheet|--csv-dir|--xlsx|--width|\
	--micro-idle-thresh-us|--short-kernel-threshold-us|--short-kernel-bins|\
	--topk-short-kernels|--protect|--plot-format|--device|--plot-phases|--plot-dpi|\
	--plot-title|--gpus-per-node|--world-size|--html|--min-percentage)
		opts="$opts $(q "$a")"; dopts="$dopts $(q "$a")"; want=$a ;;
	-?*) opts="$opts $(q "$a")"; dopts="$dopts $(q "$a")" ;;
	*) files="$files $(q "$a")" ;;
	esac
done
[ -n "$files" ] || cat >"$t/in"
[ -n "$files" ] || files="$t/in"
# the direct run, its files to the side, for the comparison
eval "\"\$real\" $dopts $files" >"$t/out1" 2>/dev/null
rc1=$?
eval "\"\$real\" $opts --partial $files" >"$t/p"
rc=$?
if [ $rc = 0 ]; then
	eval "\"\$real\" $opts --merge" <"$t/p" >"$t/out2"
	rc=$?
else
	: >"$t/out2"
fi
cat "$t/out2"
if [ -n "$IDENTITY_LOG" ]; then
	why=
	[ $rc = $rc1 ] || why="exit status $rc, direct $rc1"
	cmp -s "$t/out1" "$t/out2" || why="$why stdout differs"
	eval "set -- $outs"
	while [ $# -gt 1 ]; do
		case $1 in
		--xlsx) { [ -f "$2" ] && [ -f "$t/direct$1" ]; } || why="$why $1 missing" ;;
		*) [ -e "$2" ] && ! diff -r "$2" "$t/direct$1" >/dev/null 2>&1 && why="$why $1 differs" ;;
		esac
		shift 2
	done
	[ -z "$why" ] || echo "ttp-table $all: $why" >>"$IDENTITY_LOG"
fi
exit $rc
EOW
chmod +x "$tmp/bin/ttp-table"
rc=0 pass=0 fail=0
IDENTITY_LOG=$tmp/log IDENTITY_TMP=$tmp
export IDENTITY_LOG IDENTITY_TMP
: >"$IDENTITY_LOG"
# the golden cases of TraceLens's sheets, with the wrapper first on PATH
for c in "$TOP"/tests/golden/tracelens/*/cmd "$TOP"/tests/golden/merge/*/cmd; do
	[ -f "$c" ] || continue
	d=${c%/cmd}
	if grep -Eq '[$][{]?DATA' "$c" && [ ! -d "$SHARED/data" ]; then
		continue
	fi
	mkdir "$tmp/w" && in=/dev/null && { [ -f "$d/in" ] && in=$d/in; }
	(cd "$tmp/w" && CASE=$d TOP=$TOP DATA=$SHARED/data TESTDATA=$TOP/tests/data \
	    PATH=$tmp/bin:$TOP/bin:$PATH sh "$c" <"$in" >"$tmp/out" 2>"$tmp/err"
	    echo $? >"$tmp/rc")
	if cmp -s "$tmp/out" "$d/expout" && cmp -s "$tmp/rc" "$d/rc"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)) rc=1
		echo "identity: FAIL ${d#"$TOP"/tests/golden/}"
		diff "$d/expout" "$tmp/out" | head -n 5 | sed 's/^/#   /'
	fi
	rm -rf "$tmp/w"
done
echo "identity (golden): $pass passed, $fail failed"
check=$SHARED/conformance/tracelens-check
if [ -f "$check" ]; then
	for suite in tracelens tracelens-foreign tracelens-jax tracelens-multirank; do
		[ -d "$SHARED/oracle/$suite" ] || continue
		python3 "$check" "$tmp/bin" --oracle "$SHARED/oracle/$suite" >"$tmp/out" 2>&1 || rc=1
		sed "\$s/^/identity ($suite): /" "$tmp/out"
	done
fi
if [ -s "$IDENTITY_LOG" ]; then
	echo "identity: the merge of a partial differs from the direct run:"
	sed 's/^/#   /' "$IDENTITY_LOG"
	rc=1
fi
exit $rc
