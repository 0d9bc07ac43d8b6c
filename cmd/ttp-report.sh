#!/bin/sh
# SPDX-License-Identifier: ISC
# ttp-report: the drop-in driver for tt-perf-report's command line. It parses that
# command line (abbreviated long options, --opt=value, several CSV files) and runs
#   ttp-parse | ttp-filter | ttp-roofline | ttp-table
# with the matching options (and ttp-phase after ttp-parse for --phase, --iter and a
# --group-by by phase or iter). The stages are looked up next to this script first, then
# in PATH. Exit status: that of the first stage that failed (0 when all succeeded), 2 for
# a bad command line. When a stage fails there is no report, and the later stages'
# messages (consequences of the failure) are not shown.

prog=ttp-report
version=@VERSION@

usage() {
	cat <<'EOF'
usage: ttp-report [-hqvV] [--start-signpost NAME] [--end-signpost NAME]
                  [--ignore-signposts] [--print-signposts] [--min-percentage F]
                  [--id-range START-END] [--arch NAME] [--color] [--no-color]
                  [--csv FILE] [--no-advice] [--tracing-mode] [--raw-op-codes]
                  [--no-host-ops] [--no-summary] [--group-by KEY[,KEY...]]
                  [--classic-colors] [--summary-file BASE] [--stacked-csv BASE]
                  [--no-stacked-report] [--no-stack-by-in0] [--no-merge-devices]
                  [--device LIST] [--op GLOB] [--phase NAME] [--iter N]
                  [--format text|md|html] [--html FILE] [--sort KEY] [--top N]
                  [--percent-of all|shown]
                  [--no-const-eval] [--no-input-layout-conversion] [--program N]
                  [--loop N] [--summary-only] [--plot-format png|svg|pdf] [CSV ...]

Performance report of TT-Metal ops perf results CSVs, as tt-perf-report prints it.
Runs ttp-parse | ttp-filter | ttp-roofline | ttp-table.

positional arguments:
  CSV                      ops perf results CSV(s); several files are traces of one
                           run on several hosts and are merged; none or -: standard
                           input

options:
  -h, --help               show this help and exit
  -V, --version            show the version and exit
  -v, --verbose            informational messages on stderr (the default); given,
                           also the ops counted as category Other
  -q, --quiet              no informational messages or advisory notes (warnings
                           and errors still appear)
  --start-signpost NAME    analyse the ops after the first signpost NAME
  --signpost NAME          older spelling of --start-signpost
  --end-signpost NAME      analyse the ops before signpost NAME
  --ignore-signposts       analyse the whole file, signposts included
  --print-signposts        keep the signposts inside the window in the report
  --min-percentage F       grey out ops under F % of the total time (default 0.5)
  --id-range START-END     keep ops with IDs in the range (START-, -END also work)
  --arch NAME              wormhole, wormhole_b0, blackhole, bh20, n1 (ignored
                           when the CSV names its architecture)
  --color                  colour even when stdout is not a terminal
  --no-color               never colour (wins over --color)
  --csv FILE               write the op table as CSV to FILE instead of printing it
                           (-: to standard output, and no summary files)
  --no-advice              no advice section (no Advice column with --csv)
  --tracing-mode           do not sort by HOST START TS
  --raw-op-codes           add a Raw OP Code column to the --csv output
  --no-host-ops            drop host ops
  --no-summary             no summary report
  --group-by KEY           summary grouping: op, memory (default), category;
                           beyond tt-perf-report, line (the model's source line
                           of tt-mlir and tt-torch traces), device, phase, iter
                           (running ttp-phase), any record key, or up to 4 of
                           these joined by commas (phase,iter)
  --classic-colors         summary plot with the tab20 palette
  --summary-file BASE      write the summary to BASE.csv and the plot to BASE.png
  --stacked-csv BASE       older spelling of --summary-file
  --no-stacked-report      older spelling of --no-summary
  --no-stack-by-in0        accepted and ignored, as by tt-perf-report
  --no-merge-devices       keep one row per device instead of merging devices

ttp's own options (beyond tt-perf-report):
  --device LIST            only these devices (e.g. 0,2-3), before merging
  --op GLOB                only ops whose name matches GLOB (repeatable)
  --phase NAME             only ops of phase NAME (runs ttp-phase)
  --iter N                 only ops of iteration N (runs ttp-phase)
  --format text|md|html    the text report, the table and advice as Markdown, or
                           one self-contained HTML page (tables, summary, chart)
  --html FILE              also write that HTML page to FILE
  --sort KEY               row order: id (default), time, gap, total, op
  --top N                  only the first N rows (after --sort)
  --percent-of all|shown   with --top: Total % of all ops (default) or the shown
  --no-const-eval          drop tt-mlir's const-eval ops (ttrt's *_minus_const_eval)
  --no-input-layout-conversion
                           drop tt-mlir's input layout conversions
  --program N              only ops of tt-mlir program N (PROGRAM_METADATA)
  --loop N                 only ops of ttrt's loop N (PROGRAM_METADATA)
  --summary-only           only the grouped summary (--top then counts its groups)
  --plot-format FMT        the summary plot as png (default, as tt-perf-report),
                           svg or pdf: BASE.png, BASE.svg or BASE.pdf
EOF
}

#include driver.sh

# The options, once (driver.sh's table: NAME ARG SHORT WHERE KIND TARGET; one entry
# point, R). tt-perf-report's come first: an abbreviation that names one of them means
# it, whatever ttp's own options add (opt_tiers).
opttab='
start-signpost             =  -  R  ref  start
end-signpost               =  -  R  ref  end
signpost                   =  -  R  ref  start
ignore-signposts           -  -  R  ref  ignore
print-signposts            -  -  R  ref  print
min-percentage             =  -  R  ref  minpct
id-range                   =  -  R  ref  idrange
arch                       =  -  R  ref  arch
color                      -  -  R  ref  color
no-color                   -  -  R  ref  nocolor
csv                        =  -  R  ref  csv
no-advice                  -  -  R  ref  noadvice
tracing-mode               -  -  R  ref  tracing
raw-op-codes               -  -  R  ref  raw
no-host-ops                -  -  R  ref  nohost
no-summary                 -  -  R  ref  nosummary
group-by                   =  -  R  ref  @opt_group_by
classic-colors             -  -  R  ref  classic
summary-file               =  -  R  ref  summary
stacked-csv                =  -  R  ref  stacked
no-stacked-report          -  -  R  ref  nosummary
no-stack-by-in0            -  -  R  ref  -
no-merge-devices           -  -  R  ref  nomerge
help                       -  h  R  ref  @opt_help
version                    -  V  R  ref  @opt_version
verbose                    -  v  R  ref  verbose=2
quiet                      -  q  R  own  verbose=
device                     =  -  R  own  fflags+
op                         =  -  R  own  fflags+
phase                      =  -  R  own  @opt_phased
iter                       =  -  R  own  @opt_phased
format                     =  -  R  own  tflags+
sort                       =  -  R  own  tflags+
top                        =  -  R  own  tflags+
percent-of                 =  -  R  own  tflags+
no-const-eval              -  -  R  own  fflags+
no-input-layout-conversion -  -  R  own  fflags+
program                    =  -  R  own  fflags+
loop                       =  -  R  own  fflags+
summary-only               -  -  R  own  tflags+
plot-format                =  -  R  own  @opt_plot_format
html                       =  -  R  own  tflags+
'
opt_style=getopt opt_tiers=1 opt_args=add_file
opt_refuse() { why="not implemented"; }
opt_help() { usage; exit 0; }
opt_version() { echo "$prog $version"; exit 0; }
# tt-perf-report's choices, ttp-table's other groupings and any record key, up to 4
# joined by commas (phase,iter); phase and iter are ttp-phase's tags, so they run it
opt_group_by() {
	case $2 in
	'' | ,* | *, | *,,* | *[!a-z0-9_,]* | [0-9]* | *,[0-9]* | *,*,*,*,*)
		bad "option --group-by: invalid choice: '$2' (choose from 'op', 'memory', 'category')" ;;
	esac
	groupby=$2
	case ,$2, in *,phase,* | *,iter,*) phased=1 ;; esac
}
# --phase and --iter select by ttp-phase's tags: they run it
opt_phased() {
	fflags="$fflags --$1=$qv"
	phased=1
}
# checked here: ttp-table sees it only when a plot is written
opt_plot_format() {
	case $2 in
	png | svg | pdf) plotfmt=$2 ;;
	*) bad "--plot-format: expected png, svg or pdf, not '$2'" ;;
	esac
}

# The values (empty: not given).
start='' end='' ignore='' print='' minpct='' idrange='' arch='' color='' nocolor=''
csv='' noadvice='' tracing='' raw='' nohost='' nosummary='' groupby='' classic=''
summary='' stacked='' nomerge='' start_set='' end_set='' minpct_set='' idrange_set=''
arch_set='' csv_set='' summary_set='' stacked_set='' files='' val=''
tflags='' fflags='' phased='' plotfmt=png
verbose=1
nfiles=0

# add_file NAME: append to the quoted file list.
add_file() {
	quote "$1"
	files="$files $qv"
	nfiles=$((nfiles + 1))
}

opt_parse R "$@"

# No CSV: standard input, unless it is a terminal (then nobody is about to type a CSV).
if [ "$nfiles" -eq 0 ]; then
	[ -t 0 ] && bad "the following arguments are required: CSV (or a CSV on standard input)"
	add_file -
fi

# tt-perf-report crashes on this combination (Q31 in docs/tt-perf-report.md); ttp refuses it
# (D1).
if [ -n "$nomerge" ] && [ "$groupby" = category ]; then
	bad "--no-merge-devices cannot be combined with --group-by category"
fi

# The stages: next to this script first, then PATH.
stage ttp-parse; parse=$qv
stage ttp-filter; filter=$qv
stage ttp-roofline; roofline=$qv
stage ttp-table; table=$qv
phase=
if [ -n "$phased" ]; then stage ttp-phase; phase=$qv; fi

# -v (the default): the reference's informational messages; -q: not even advisory notes
if [ -n "$verbose" ]; then v=' -v' q=''; else v=' -q' q=' -q'; fi

# ttp-parse
pargs="$v --expect=csv"
[ -n "$tracing" ] && pargs="$pargs --no-sort"
pargs="$pargs --$files"

# ttp-filter
fargs=$v
if [ -n "$start_set" ]; then quote "$start"; fargs="$fargs --start-signpost $qv"; fi
if [ -n "$end_set" ]; then quote "$end"; fargs="$fargs --end-signpost $qv"; fi
[ -n "$ignore" ] && fargs="$fargs --ignore-signposts"
[ -n "$print" ] && fargs="$fargs --print-signposts"
[ -n "$nomerge" ] && fargs="$fargs --no-merge-devices"
if [ -n "$idrange_set" ]; then quote "$idrange"; fargs="$fargs --id-range=$qv"; fi
[ -n "$nohost" ] && fargs="$fargs --no-host-ops"
fargs="$fargs$fflags"

# ttp-phase (for --phase, --iter, --group-by phase or iter): says which method it chose unless -q
hargs=$q

# ttp-roofline: the report shows only the compatible keys, so skip the extras. An
# explicit -v (2) also shows the notes a user cannot act on (ops counted as Other).
vv=
[ "$verbose" = 2 ] && vv=' -v'
rargs="$v$vv --no-extras"
if [ -n "$arch_set" ]; then quote "$arch"; rargs="$rargs --arch=$qv"; fi

# ttp-table
targs=$v$vv
# The report goes through a file (it is shown only when every stage succeeded), so "auto"
# is decided here, for this script's standard output.
if [ -n "$nocolor" ]; then
	targs="$targs --color=never"
elif [ -n "$color" ]; then
	targs="$targs --color=always"
elif [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
	targs="$targs --color=always"
else
	targs="$targs --color=never"
fi
if [ -n "$minpct_set" ]; then quote "$minpct"; targs="$targs --min-percentage=$qv"; fi
if [ -n "$csv_set" ]; then quote "$csv"; targs="$targs --csv=$qv"; fi
[ -n "$noadvice" ] && targs="$targs --no-advice"
[ -n "$raw" ] && targs="$targs --raw-op-codes"
[ -n "$nosummary" ] && targs="$targs --no-summary"
[ -n "$groupby" ] && targs="$targs --group-by=$groupby"
[ -n "$classic" ] && targs="$targs --classic-colors"
if [ -n "$summary_set" ]; then quote "$summary"; targs="$targs --summary-file=$qv"; fi
if [ -n "$stacked_set" ]; then quote "$stacked"; targs="$targs --stacked-csv=$qv"; fi
[ -n "$nomerge" ] && targs="$targs --per-device"
# the summary plot, when a summary file is written: PNG where tt-perf-report writes its
# PNG (D5), or --plot-format's
if [ -n "$csv_set$summary_set$stacked_set" ]; then
	quote "$plotfmt"; targs="$targs --plot-format=$qv"
fi
targs="$targs$tflags"

# Check what can be checked before starting the pipeline, so that a bad option value
# or a missing file gives one message rather than one per stage (a stage after a failed
# one would report an empty input). The pure filters check their own options: run
# them on an empty input.
tmp_init
eval "set -- $files"
for f; do
	if [ "$f" != - ] && [ ! -r "$f" ]; then
		if [ -e "$f" ]; then
			printf '%s: %s: Permission denied\n' "$prog" "$f" >&2
		else
			printf '%s: %s: No such file or directory\n' "$prog" "$f" >&2
		fi
		exit 1
	fi
	# no output may replace an input: ttp-table refuses such a name (a usage error,
	# found by the check below)
	if [ "$f" != - ]; then
		quote "$f"
		targs="$targs --protect=$qv"
	fi
done
# ttp-table gets a line that is not a record: it checks its options first, then stops at
# that line, before it writes any file.
poison="$prog: an earlier stage failed"
for s in ${phase:+"$phase $hargs"} "$filter $fargs" "$roofline $rargs" "$table $targs"; do
	printf '%s\n' "$poison" | eval "$s" >/dev/null 2>"$tmp/pre"
	s_rc=$?
	# 2: a bad option; anything else may depend on the data (a signpost that an
	# empty input lacks) and is left to the real run
	if [ "$s_rc" -eq 2 ]; then
		sed -e "s/^Try 'ttp-[a-z]* --help'/Try '$prog --help'/" \
		    -e "s/^ttp-[a-z]*: /$prog: /" "$tmp/pre" >&2
		exit "$s_rc"
	fi
done

# An unknown --arch matters only for traces that do not name their architecture (v1,
# v2); the reference rejects it before it selects any op, so check it against the
# first record rather than against the ops the window leaves.
if [ -n "$arch_set" ]; then
	eval "$parse --no-sort --$files" 2>/dev/null | head -n 1 >"$tmp/first"
	eval "$roofline $rargs" <"$tmp/first" >/dev/null 2>"$tmp/pre"
	s_rc=$?
	if [ "$s_rc" -ne 0 ]; then
		cat "$tmp/pre" >&2
		exit "$s_rc"
	fi
fi

# Run the pipeline; the report goes to a file, shown only when every stage succeeded.
if [ -n "$phase" ]; then
	run_stages "$tmp/out" "$parse $pargs" "$phase $hargs" "$filter $fargs" \
	    "$roofline $rargs" "$table $targs"
else
	run_stages "$tmp/out" "$parse $pargs" "$filter $fargs" "$roofline $rargs" \
	    "$table $targs"
fi
[ "$rc" -eq 0 ] || exit "$rc"
# The report: a closed pipe ends quietly (as SIGPIPE would); any other write error is one
# message and status 1.
cat "$tmp/out" 2>"$tmp/cat"
c=$?
if [ "$c" -ne 0 ]; then
	[ "$c" -eq 141 ] && die_pipe	# cat was killed by SIGPIPE
	case $(cat "$tmp/cat") in
	*"Broken pipe"*) die_pipe ;;
	*write\ error:\ *)
		printf '%s: write error on stdout: %s\n' "$prog" "$(sed 's/.*write error: //' "$tmp/cat")" >&2
		;;
	*) cat "$tmp/cat" >&2 ;;
	esac
	exit 1
fi
exit 0
