#!/bin/sh
# ttp-ranks: one profiler trace per rank in, the per-rank reports and the collective report
# across ranks out. The map (each rank's file on its own) runs on an existing engine: GNU
# parallel (local jobs, --sshloginfile hosts, --joblog), xargs -P, a plain loop, or printed
# as command lines for Slurm arrays and other engines; the reduce (TraceLens's multi-rank
# collective report from the ranks' compact collective records) runs here.
prog=ttp-ranks
version=@VERSION@
#include driver.sh

usage() {
	cat <<'EOF'
usage: ttp-ranks [-hqVv] [-j N] [--engine parallel|xargs|seq|print] [--sshloginfile F]
                 [--joblog F] [--world-size N] [--gpus-per-node N] [--rank-from-order]
                 [--no-rank-reports] --output_csvs_dir DIR FILE...
       ttp-ranks --reduce [-qv] [--world-size N] [--gpus-per-node N] --output_csvs_dir DIR

One PyTorch profiler trace per rank: the map reads each rank's file on its own (its
TraceLens report in DIR/rank<R>/, its collective records, its partial sheets), then the
reduce writes in DIR/ the per-op sheets over ranks (gpu_timeline.csv, ops_summary.csv,
ops_summary_by_category.csv, kernel_summary.csv) and TraceLens's multi-rank collective
report (nccl_*.csv, straggler_summary.csv).

options:
  --output_csvs_dir DIR    where the reports go (also --output-csvs-dir, -o DIR)
  -j, --jobs N             at most N ranks at once (default: the number of CPUs)
  --engine E               parallel: GNU parallel (the default when it is on PATH);
                           xargs: xargs -P (the default otherwise); seq: one at a time;
                           print: write the map's command lines and the reduce's, run
                           nothing (for Slurm arrays and other engines)
  --sshloginfile F         GNU parallel's hosts (the files and DIR on a shared file system)
  --joblog F               GNU parallel's job log
  --world-size N           the number of ranks (default: the number of files)
  --gpus-per-node N        GPUs per node, for the intra-/inter-node labels
  --rank-from-order        a file whose trace (distributedInfo) and name (rank<N>)
                           give no rank is the rank of its position among FILEs
  --no-rank-reports        only the collective report: no DIR/rank<R>/
  --reduce                 only the reduce, over a map that already ran (after print)
  -q, --quiet              no messages but errors
  -v, --verbose            say what runs
  -h, --help               show this help and exit
  -V, --version            show the version and exit
EOF
}

engine= jobs= sshlogin= joblog= ws= gpn= byorder= noreports= reduce= out= verbose= quiet=
nfiles=0
files=
while [ $# -gt 0 ]; do
	arg=$1
	shift
	case $arg in
	--*=*) name=${arg%%=*} val=${arg#*=} hasval=1 ;;
	-[jo]?*) name=${arg%"${arg#-?}"} val=${arg#-?} hasval=1 ;;
	*) name=$arg val= hasval= ;;
	esac
	# options that take a value: from =VALUE or the next argument
	case $name in
	-o|--output_csvs_dir|--output-csvs-dir|-j|--jobs|--engine|--sshloginfile|--joblog|\
	--world-size|--world_size|--gpus-per-node|--gpus_per_node)
		if [ -z "$hasval" ]; then
			[ $# -gt 0 ] || bad "$name: expected one argument"
			val=$1
			shift
		fi
		;;
	*)
		[ -z "$hasval" ] || bad "$name: takes no argument"
		;;
	esac
	case $name in
	-o|--output_csvs_dir|--output-csvs-dir) out=$val ;;
	-j|--jobs) jobs=$val ;;
	--engine)
		case $val in
		parallel|xargs|seq|print) engine=$val ;;
		*) bad "--engine: expected parallel, xargs, seq or print, not '$val'" ;;
		esac
		;;
	--sshloginfile) sshlogin=$val ;;
	--joblog) joblog=$val ;;
	--world-size|--world_size) ws=$val ;;
	--gpus-per-node|--gpus_per_node) gpn=$val ;;
	--rank-from-order) byorder=1 ;;
	--no-rank-reports) noreports=1 ;;
	--reduce) reduce=1 ;;
	-q|--quiet) verbose= quiet=1 ;;
	-v|--verbose) verbose=1 ;;
	-h|--help) usage; exit 0 ;;
	-V|--version) echo "$prog $version"; exit 0 ;;
	--) break ;;
	-?*) bad "unknown option: $arg" ;;
	*)
		quote "$arg"; files="$files $qv"; nfiles=$((nfiles + 1))
		;;
	esac
done
for arg; do
	quote "$arg"; files="$files $qv"; nfiles=$((nfiles + 1))
done
count() {	# count OPTION VALUE MIN: a whole number of at least MIN
	case $2 in
	''|*[!0-9]*) bad "$1: expected a whole number, not '$2'" ;;
	esac
	[ "$2" -ge "$3" ] || bad "$1: at least $3, not '$2'"
}
[ -n "$out" ] || bad "--output_csvs_dir DIR is required"
[ -z "$jobs" ] || count --jobs "$jobs" 1
[ -z "$ws" ] || count --world-size "$ws" 1
[ -z "$gpn" ] || count --gpus-per-node "$gpn" 1
if [ -n "$reduce" ]; then
	[ "$nfiles" -eq 0 ] || bad "--reduce takes no FILE: it reads the map's output in $out"
else
	[ "$nfiles" -gt 0 ] || bad "no trace files: one FILE per rank"
fi
if [ -z "$engine" ]; then
	if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
		engine=parallel
	else
		engine=xargs
	fi
fi
[ -z "$sshlogin$joblog" ] || [ "$engine" = parallel ] ||
    bad "--sshloginfile and --joblog go with --engine parallel"
if [ "$engine" = parallel ] && ! command -v parallel >/dev/null 2>&1; then
	printf '%s: --engine parallel: GNU parallel is not on PATH (Debian: apt-get install parallel; or --engine xargs)\n' "$prog" >&2
	exit 1
fi
[ -n "$jobs" ] || jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# The map's files live in DIR/.ttp-ranks/: N.coll (rank N's collective records), N.sheets/
# (its report), N.fail (why it failed); the reduce moves the reports to DIR/rank<R>/.
cwd=$(pwd)
abs() {	# abs PATH: qv=PATH made absolute, quoted (the map may run on another host)
	case $1 in
	/*) quote "$1" ;;
	*) quote "$cwd/$1" ;;
	esac
}
# No output may replace an input: the reduce writes DIR/<sheet>.csv and replaces
# DIR/rank<R>/ and DIR/.ttp-ranks/, so an input there is refused before anything runs.
isrank() { case ${1#rank} in "$1"|''|*[!0-9]*) return 1 ;; esac; }
if [ -z "$reduce" ] && [ -d "$out" ]; then
	eval "set -- $files"
	for f; do
		d=$(dirname -- "$f") b=$(basename -- "$f")
		dd=$(dirname -- "$d") bd=$(basename -- "$d")
		if { [ "$d" -ef "$out" ] && { isrank "$b" || [ "$b" = .ttp-ranks ] ||
		    [ "${b%.csv}" != "$b" ]; }; } ||
		    { [ "$dd" -ef "$out" ] && { isrank "$bd" || [ "$bd" = .ttp-ranks ]; }; }; then
			printf '%s: %s: an input where the report writes (in %s): it would be replaced (give another --output_csvs_dir)\n' \
			    "$prog" "$f" "$out" >&2
			exit 1
		fi
	done
fi
mkdir -p -- "$out" || exit 1
[ -d "$out" ] || { printf '%s: %s: not a directory\n' "$prog" "$out" >&2; exit 1; }
work=$out/.ttp-ranks
abs "$work"; qwork=$qv
here=$(cd -- "$here" && pwd)	# the stages by absolute paths: the map may run elsewhere
stage ttp-parse; sparse=$qv
stage ttp-filter; sfilter=$qv
stage ttp-table; stable=$qv
stage ttp-roofline; sroofline=$qv

# the sheets that merge over ranks (ttp-table(1), --merge): the partials carry no others
msheets="--sheet gpu_timeline --sheet ops_summary_by_category --sheet ops_summary --sheet kernel_summary"

# map_cmds: one shell command line per rank on stdout. A rank that fails writes its
# file's name and what failed to N.fail and exits non-zero.
#
# A rank's trace is read once: ttp-parse's records go through tee both to ttp-filter
# --collectives (by a FIFO) and to ttp-roofline | ttp-table --partial, the partial of all
# of the rank's sheets; that partial merged alone is the rank's report (what ttp-tracelens
# writes: ttp-table(1), --merge), and cut to the sheets that merge over ranks it is what
# the reduce reads. Each stage leaves its status in N.sK and its messages in N.eK (as
# driver.sh's run_stages): a stage that fails sends a line that is not a record on, and
# the first stage that failed on its own is the one named (a stage killed by SIGPIPE
# failed only because a later one stopped reading). ttp-roofline and ttp-table
# --partial say what they note, as in ttp-tracelens.
map_cmds() {
	eval "set -- $files"
	i=0
	quote "$prog: an earlier stage failed"; qearly=$qv
	# ck K NAME...: stages K, K+1, ... (named NAME...) succeeded; else N.fail says which
	# failed, N.err has the messages of the stages up to it
	# (builtins only but for a stage's messages: a rank's processes are its cost)
	ck='ck() { n=$(($1 - 1)) p=; shift; for t; do n=$((n + 1)); s=1; [ ! -f "$w.s$n" ] || read -r s <"$w.s$n"; [ ! -s "$w.e$n" ] || cat "$w.e$n" >>"$w.err"; case $s in 0) ;; 141) [ -n "$p" ] || p=$t ;; *) echo "$t exit $s" >>"$w.fail"; return 1 ;; esac; done; [ -z "$p" ] || { echo "$p exit 141" >>"$w.fail"; return 1; }; };'
	for f; do
		abs "$f"; qf=$qv
		rk=
		[ -z "$byorder" ] || rk=" --rank $i"
		if [ -n "$noreports" ]; then
			cmd="{ $sparse -q -- $qf 2>>$qwork/$i.err || echo \"ttp-parse exit \$?\" >$qwork/$i.fail; } | $sfilter -q --collectives$rk >$qwork/$i.coll 2>>$qwork/$i.err || echo \"ttp-filter exit \$?\" >>$qwork/$i.fail;"
			cmd="$cmd if [ -e $qwork/$i.fail ]; then echo $qf >>$qwork/$i.fail; exit 1; fi"
		else
			cmd="w=$qwork/$i; $ck mkfifo \"\$w.fifo\" || exit 1;"
			cmd="$cmd { $sfilter -q --collectives$rk <\"\$w.fifo\" >\"\$w.coll\" 2>\"\$w.e2\"; echo \$? >\"\$w.s2\"; } &"
			cmd="$cmd { $sparse --expect=json -q$rk -- $qf 2>\"\$w.e1\"; s=\$?; echo \$s >\"\$w.s1\"; case \$s in 0|141) ;; *) echo $qearly ;; esac; } | tee \"\$w.fifo\" |"
			cmd="$cmd { $sroofline --no-step-counts 2>\"\$w.e3\"; s=\$?; echo \$s >\"\$w.s3\"; case \$s in 0|141) ;; *) echo $qearly ;; esac; } |"
			cmd="$cmd { $stable --no-short-kernels --partial >\"\$w.all\" 2>\"\$w.e4\"; echo \$? >\"\$w.s4\"; }; wait;"
			cmd="$cmd if ck 1 ttp-parse ttp-filter ttp-roofline 'ttp-table --partial'; then"
			cmd="$cmd $stable -q --merge --csv-dir=\"\$w.sheets\" <\"\$w.all\" 2>\"\$w.e5\"; echo \$? >\"\$w.s5\"; rm -f \"\$w.sheets/kernel_summary.csv\";"
			cmd="$cmd $stable -q --merge --partial $msheets <\"\$w.all\" >\"\$w.part\" 2>\"\$w.e6\"; echo \$? >\"\$w.s6\";"
			cmd="$cmd ck 5 'ttp-table --merge' 'ttp-table --merge --partial'; fi; rm -f \"\$w.fifo\" \"\$w.all\" \"\$w\".[es][0-9];"
			cmd="$cmd if [ -e \"\$w.fail\" ]; then echo $qf >>\"\$w.fail\"; exit 1; fi"
		fi
		printf '%s\n' "$cmd"
		i=$((i + 1))
	done
}

reduce_cmd() {
	quote "$0"
	rc="$qv --reduce"
	[ -z "$ws" ] || rc="$rc --world-size $ws"
	[ -z "$gpn" ] || rc="$rc --gpus-per-node $gpn"
	[ -z "$verbose" ] || rc="$rc -v"
	abs "$out"
	printf '%s --output_csvs_dir %s\n' "$rc" "$qv"
}

cleanup() {
	rm -rf -- "$work"
}

# show_err N: rank N's messages on stderr, each line led by its file's name
show_err() {
	[ -s "$work/$1.err" ] || return 0
	_f=$(sed -n 1p "$work/$1.file")
	_f=${_f##*/}
	sed "s|^|$prog: ${_f}: |" "$work/$1.err" >&2
}

if [ -z "$reduce" ]; then
	rm -rf -- "$work"
	mkdir -p -- "$work" || exit 1
	printf '%s\n' "$nfiles" >"$work/count"
	eval "set -- $files"
	i=0
	for f; do
		printf '%s\n' "$f" >"$work/$i.file"
		i=$((i + 1))
	done
	if [ "$engine" = print ]; then
		map_cmds
		reduce_cmd
		exit 0
	fi
	map_cmds >"$work/map.sh"
	[ -z "$verbose" ] || printf '%s: %s ranks, %s at once, with %s\n' "$prog" "$nfiles" "$jobs" "$engine" >&2
	quote "$work/map.sh"; qmap=$qv
	case $engine in
	parallel)
		# a signal: each rank's driver gets 5 s to remove its files before a KILL
		e="parallel --will-cite --halt soon,fail=1 --termseq TERM,5000,KILL,25 -j $jobs"
		# its own buffers (.par files) in the work directory, removed with it: a
		# parallel that a signal ends before it cleans up leaves none in TMPDIR
		mkdir -p -- "$work/par" || exit 1
		quote "$work/par"
		e="$e --tmpdir $qv"
		[ -z "$sshlogin" ] || { quote "$sshlogin"; e="$e --sshloginfile $qv"; }
		[ -z "$joblog" ] || { quote "$joblog"; e="$e --joblog $qv"; }
		quote "$work/engine.err"
		e="$e <$qmap >/dev/null 2>$qv"
		;;
	xargs)
		e="tr '\\n' '\\0' <$qmap | xargs -0 -n 1 -P $jobs sh -c 'eval \"\$1\"' sh"
		;;
	seq)
		e="while IFS= read -r c; do sh -c \"\$c\" || break; done <$qmap"
		;;
	esac
	# the engine in a session of its own, waited for in the background, so that HUP, INT
	# and TERM reach this shell at once and end every rank's processes (driver.sh)
	tmp=$work
	trap tmp_cleanup EXIT
	trap 'on_signal HUP 1' HUP
	trap 'on_signal INT 2' INT
	trap 'on_signal TERM 15' TERM
	ss=
	command -v setsid >/dev/null 2>&1 && ss=setsid
	$ss /bin/sh -c "$e" </dev/null &
	pgrp=$!
	wait "$pgrp" || engine_rc=$?
	pgrp=
	fail=
	if [ "$engine" = parallel ] && [ -n "${engine_rc:-}" ] && ! ls "$work"/*.fail >/dev/null 2>&1; then
		# the engine failed and no rank says why (an ssh login, a job log): its words
		cat "$work/engine.err" >&2
		printf '%s: GNU parallel failed (exit %s)\n' "$prog" "$engine_rc" >&2
		cleanup
		exit 1
	fi
	i=0
	while [ $i -lt "$nfiles" ]; do
		if [ -e "$work/$i.fail" ]; then
			show_err $i
			printf '%s: %s: this rank failed (%s)\n' "$prog" "$(sed -n 1p "$work/$i.file")" \
			    "$(sed '$d' "$work/$i.fail" | tr '\n' ',' | sed 's/,$//; s/,/, /g')" >&2
			! grep -q 'which rank is' "$work/$i.err" 2>/dev/null ||
			    printf '%s: --rank-from-order gives such a file the rank of its position\n' "$prog" >&2
			fail=1
		elif [ ! -e "$work/$i.coll" ]; then
			printf '%s: %s: this rank did not run (an earlier one failed)\n' "$prog" \
			    "$(sed -n 1p "$work/$i.file")" >&2
			fail=1
		fi
		i=$((i + 1))
	done
	if [ -n "$fail" ]; then
		cleanup
		exit 1
	fi
fi

# The reduce: the collective report over every rank, then each rank's report moved to
# DIR/rank<R>/ (R from its collective records' rank record).
[ -f "$work/count" ] || { printf '%s: %s: no map output (run the map first)\n' "$prog" "$work" >&2; exit 1; }
n=$(cat "$work/count")
[ -n "$ws" ] || ws=$n
i=0 inputs=
while [ $i -lt "$n" ]; do
	[ -f "$work/$i.coll" ] || { printf '%s: %s/%s.coll: missing (rank %s of the map did not finish)\n' "$prog" "$work" "$i" "$i" >&2; exit 1; }
	inputs="$inputs \"\$work/$i.coll\""
	i=$((i + 1))
done
# the ranks' messages: each one once, with the file that said it, or how many said it
if [ -z "$quiet" ]; then
	i=0
	while [ $i -lt "$n" ]; do
		[ ! -s "$work/$i.err" ] || sed -n 1p "$work/$i.file" | awk -v e="$work/$i.err" '
		    { f = $0; sub(/.*\//, "", f); while ((getline l < e) > 0) print f "\t" l }'
		i=$((i + 1))
	done | awk -F '\t' -v p="$prog" '
	    { m = substr($0, length($1) + 2) }
	    !(m in c) { o[++k] = m; f[m] = $1 }
	    { c[m]++ }
	    END {
		for (j = 1; j <= k; j++) {
			m = o[j]
			if (c[m] == 1)
				printf "%s: %s: %s\n", p, f[m], m
			else
				printf "%s: %s (%d ranks: %s and %d more)\n", p, m, c[m], f[m], c[m] - 1
		}
	    }' >&2
fi
# one file per rank: two files of one rank are named here, not by the stage. Each
# rank's rank record (the first of its collective records) and file, in one process
# for every rank: W processes of the shell would be most of the reduce's time.
awk -v w="$work" -v n="$n" 'BEGIN {
	for (i = 0; i < n; i++) {
		r = "?"
		c = w "/" i ".coll"
		while ((getline l <c) > 0) {
			if (l !~ /"kind":"rank"/)
				continue
			sub(/.*"kind":"rank"/, "", l)
			while (match(l, /"rank":[0-9]+/)) {
				r = substr(l, RSTART + 7, RLENGTH - 7)
				l = substr(l, RSTART + RLENGTH)
			}
			if (r != "?")
				break
		}
		close(c)
		f = ""
		c = w "/" i ".file"
		if ((getline f <c) <= 0)
			f = ""
		close(c)
		printf "%s\t%s\n", r, f
	}
}' >"$work/ranks" || exit 1
dup=$(awk -F '\t' '$1 != "?" && ($1 in f) { printf "%s and %s are both rank %s", f[$1], $2, $1; exit }
    { f[$1] = $2 }' "$work/ranks")
if [ -n "$dup" ]; then
	printf '%s: %s: one file per rank\n' "$prog" "$dup" >&2
	cleanup
	exit 1
fi
targs="--world-size=$ws"
[ -z "$gpn" ] || targs="$targs --gpus-per-node=$gpn"
[ -n "$verbose" ] || targs="$targs -q"
quote "$out"
eval "$stable --csv-dir=$qv $targs $inputs" || { rc=$?; cleanup; exit $rc; }
# the per-op sheets over ranks: the ranks' partials merged (DIR/<sheet>.csv)
if [ -f "$work/0.part" ]; then
	i=0 parts=
	while [ $i -lt "$n" ]; do
		[ -f "$work/$i.part" ] || { printf '%s: %s/%s.part: missing (rank %s of the map did not finish)\n' "$prog" "$work" "$i" "$i" >&2; exit 1; }
		parts="$parts \"\$work/$i.part\""
		i=$((i + 1))
	done
	margs=-q
	[ -z "$verbose" ] || margs=-v
	eval "$stable --merge $margs --csv-dir=$qv $parts" || { rc=$?; cleanup; exit $rc; }
fi
i=0
tab=$(printf '\t')
while IFS=$tab read -r r f; do
	if [ -d "$work/$i.sheets" ]; then
		[ "$r" != "?" ] || r=$i
		[ ! -e "$out/rank$r" ] || rm -rf -- "$out/rank$r"
		mv -- "$work/$i.sheets" "$out/rank$r" || exit 1
	fi
	i=$((i + 1))
done <"$work/ranks"
cleanup
[ -n "$quiet" ] || printf '%s: wrote %s (%s ranks)\n' "$prog" "$out" "$n" >&2
exit 0
