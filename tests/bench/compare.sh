#!/bin/sh
# make bench's stages for two revisions in one run (make bench-compare BASE=REV [NEW=REV]).
# Usage: tests/bench/compare.sh BASE [NEW]
# Builds revision BASE, and NEW (default: the working tree as it is, edits included), each
# in a temporary directory (BASE and NEW in git worktrees, never the stash; the working
# tree as a copy of its tracked and unignored files), then runs this tree's
# tests/bench/bench.sh without its scale runs (BIG=0) against each build's programs, on
# the same inputs (build/bench-compare/, seeded with links to what build/bench/ already
# holds), ROUNDS times (3 unless set), old and new alternating (old first on odd rounds,
# new first on even ones, so that a change in the machine's load falls on both). Prints
# per stage the median over the rounds of the CPU time (user + system, of every process:
# the steady figure on a shared machine; wall time depends on the load) and of the peak
# RSS (the largest process's), old and new, with the ratio new / old. A stage one side
# cannot run (a revision before a reader existed) shows "-" on that side: bench.sh stops
# at it (its log is kept in build/bench-compare/).
# SHARED: the real traces' folder (default ../shared beside this tree).
set -e
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${SHARED:-$TOP/../shared}
ROUNDS=${ROUNDS:-3}
JOBS=${JOBS:-2}

die() { echo "compare: $*" >&2; exit 1; }
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: tests/bench/compare.sh BASE [NEW]" >&2; exit 2; }
BASE=$1 NEW=${2:-}
rev() { git -C "$TOP" rev-parse --verify -q "$1^{commit}" || die "$1: not a revision"; }
OLDREV=$(rev "$BASE")
NEWREV=
[ -n "$NEW" ] && NEWREV=$(rev "$NEW")
case $ROUNDS in ''|*[!0-9]*|0) die "ROUNDS=$ROUNDS: a positive number" ;; esac
[ -d "$SHARED/data" ] || die "$SHARED/data: not found (set SHARED)"
SHARED=$(cd "$SHARED" && pwd)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ttp-compare.XXXXXX")
cleanup() {
	for w in old new; do
		[ -f "$TMP/$w/.git" ] && git -C "$TOP" worktree remove --force "$TMP/$w" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# the two trees
git -C "$TOP" worktree add -q --detach "$TMP/old" "$OLDREV"
if [ -n "$NEWREV" ]; then
	git -C "$TOP" worktree add -q --detach "$TMP/new" "$NEWREV"
	NEWNAME="$(git -C "$TOP" log -1 --format='%h %s' "$NEWREV")"
else
	mkdir "$TMP/new"
	(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
	    xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\n" "$f"; done' sh) > "$TMP/files"
	(cd "$TOP" && tar -cf - -T "$TMP/files") | (cd "$TMP/new" && tar -xf -)
	NEWNAME="the working tree ($(git -C "$TOP" log -1 --format='%h' HEAD)"
	git -C "$TOP" diff --quiet HEAD -- 2>/dev/null && NEWNAME="$NEWNAME, clean)" ||
	    NEWNAME="$NEWNAME with its edits)"
fi
OLDNAME="$(git -C "$TOP" log -1 --format='%h %s' "$OLDREV")"

# the inputs, shared: links to the large ones make bench built already (bench.sh replaces
# a stale one, never writes through the link), the rest built once here
IN=$TOP/build/bench-compare
mkdir -p "$IN"
for f in big.csv big.xplane.pb; do
	[ -e "$TOP/build/bench/$f" ] && [ ! -e "$IN/$f" ] && ln -s "$TOP/build/bench/$f" "$IN/$f"
done
for w in old new; do
	echo "compare: building $w" >&2
	make -C "$TMP/$w" -j"$JOBS" all > "$IN/build-$w.log" 2>&1 ||
	    die "$w: the build failed (build/bench-compare/build-$w.log)"
	# this tree's bench (the same stages for both), its cache the shared inputs
	rm -rf "$TMP/$w/tests/bench" "$TMP/$w/build/bench"
	cp -Rp "$TOP/tests/bench" "$TMP/$w/tests/bench"
	ln -s "$IN" "$TMP/$w/build/bench"
done

# the rounds: figures of side w, round r in $TMP/fig.w.r
r=1
while [ "$r" -le "$ROUNDS" ]; do
	order="old new"
	[ $((r % 2)) = 0 ] && order="new old"
	for w in $order; do
		echo "compare: round $r of $ROUNDS, $w" >&2
		: > "$IN/figures.txt"
		st=0
		BIG=0 sh "$TMP/$w/tests/bench/bench.sh" "$SHARED" > "$IN/bench-$w.$r.log" 2>&1 ||
		    st=$?
		# a signal ends the comparison; a failed stage only that side's run
		[ "$st" -gt 128 ] && die "$w, round $r: bench.sh ended by a signal ($st)"
		[ "$st" = 0 ] || echo "compare: $w, round $r: bench.sh stopped (status $st," \
		    "build/bench-compare/bench-$w.$r.log)" >&2
		cp "$IN/figures.txt" "$TMP/fig.$w.$r"
	done
	r=$((r + 1))
done

echo "make bench (BIG=0), old and new alternating, $ROUNDS rounds; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "old: $OLDNAME"
echo "new: $NEWNAME"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians over the rounds; CPU: user + system seconds of every process; RSS: KB, the largest process"
echo
# figures.txt lines: name, wall s, cpu s, max RSS KB, ratio
for f in "$TMP"/fig.old.*; do sed 's/^/old\t/' "$f"; done > "$TMP/all"
for f in "$TMP"/fig.new.*; do sed 's/^/new\t/' "$f"; done >> "$TMP/all"
awk -F '\t' '
function median(s,   a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++)	# insertion sort: a few rounds
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function ratio(o, n) { return o == "" || n == "" || o + 0 == 0 ? "-" : sprintf("%.2f", n / o) }
function show(v, fmt) { return v == "" ? "-" : sprintf(fmt, v) }
{
	k = $2
	if (!(k in seen)) { seen[k] = 1; order[++ns] = k }
	cpu[$1, k] = cpu[$1, k] " " $4
	rss[$1, k] = rss[$1, k] " " $5
}
END {
	printf "%-52s %8s %8s %7s %9s %9s %7s\n", "stage", "cpu old", "cpu new", "new/old",
	    "RSS old", "RSS new", "new/old"
	for (i = 1; i <= ns; i++) {
		k = order[i]
		co = ("old", k) in cpu ? median(cpu["old", k]) : ""
		cn = ("new", k) in cpu ? median(cpu["new", k]) : ""
		ro = ("old", k) in rss ? median(rss["old", k]) : ""
		rn = ("new", k) in rss ? median(rss["new", k]) : ""
		printf "%-52s %8s %8s %7s %9s %9s %7s\n", k, show(co, "%.2f"), show(cn, "%.2f"),
		    ratio(co, cn), show(ro, "%d"), show(rn, "%d"), ratio(ro, rn)
		if (co != "" && cn != "") { to += co; tn += cn }
	}
	printf "%-52s %8.2f %8.2f %7s\n", "total CPU of the stages both ran", to, tn, ratio(to, tn)
}' "$TMP/all"
