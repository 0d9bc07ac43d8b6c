#!/bin/sh
# SPDX-License-Identifier: ISC
# ttp-tracelens: the drop-in driver for TraceLens's command lines: its four entry points
# (TraceLens_generate_perf_report_pytorch; with --inference, its _inference variant; with
# --jax, TraceLens_generate_perf_report_jax; with --multi-rank,
# TraceLens_generate_multi_rank_collective_report_pytorch) share one option table, read
# by driver.sh's loop with argparse's rules (--opt value, --opt=value, unique prefixes).
# It runs
#   ttp-parse TRACE | ttp-roofline [| ttp-phase] | ttp-table --xlsx FILE | --csv-dir DIR
# (for many ranks, ttp-parse | ttp-filter --collectives per rank, then ttp-table). The
# stages are looked up next to this script first, then in PATH. Exit status: that of the
# first stage that failed (0 when all succeeded), 2 for a bad command line.

prog=ttp-tracelens
version=@VERSION@

usage_inference() {
	cat <<'EOF'
usage: ttp-tracelens --inference [-h] [-V] --profile_json_path PROFILE_JSON_PATH
                     [--output_xlsx_path OUTPUT_XLSX_PATH]
                     [--output_csvs_dir OUTPUT_CSVS_DIR]
                     [--output_html_path OUTPUT_HTML_PATH]
                     [--include_unlinked_kernels]
                     [--micro_idle_thresh_us MICRO_IDLE_THRESH_US]
                     [--disable_coll_analysis] [--enable_kernel_summary]
                     [--group_by_parent_module] [--short_kernel_study]
                     [--short_kernel_threshold_us SHORT_KERNEL_THRESHOLD_US]
                     [--short_kernel_histogram_bins SHORT_KERNEL_HISTOGRAM_BINS]
                     [--topk_short_kernels TOPK_SHORT_KERNELS]
                     [--enable_pseudo_ops] [--topk_ops TOPK_OPS]
                     [--topk_roofline_ops TOPK_ROOFLINE_OPS]
                     [--gpu_arch_json_path GPU_ARCH_JSON_PATH]
                     [--group_by_num_kernels] [--include_call_stack]
                     [--capture_folder CAPTURE_FOLDER] [-q]

TraceLens's inference report of a PyTorch profiler trace, as
TraceLens_generate_perf_report_pytorch_inference writes it: the training report's
sheets with <family>_fwd roofline sheets (Normalization_fwd, RMSNorm_fwd,
InferenceAttention_fwd, ...), no backward sheets and no coll_analysis.

options (beside the training report's, see ttp-tracelens --help):
  --group_by_parent_module ops_summary and ops_summary_by_category per parent
                           nn.Module; parent_module and call stack columns
                           (ttp-parse -p keeps the python frames)
  --group_by_num_kernels   num_kernels in ops_unique_args and the roofline sheets
  --include_call_stack     call_stack_full and entry_point in unified_perf_summary
  --enable_pseudo_ops      sglang_profiler:: op names lose their _N suffix; a
                           trace that opens the gate of one of TraceLens's
                           pseudo-op extensions (fused MoE, MLA, ...; see
                           ttp-table(1) --pseudo-ops) is an error: ttp does not
                           build them yet; other traces get the plain report
  --capture_folder D       merge the graph-capture traces D/execution_details.json
                           lists under the graph launches they replay (ttp-parse
                           -c), so replayed kernels get their CPU ops
  --disable_coll_analysis  accepted (the inference report has no coll_analysis)

TraceLens options ttp does not implement (--comparison_json_path,
--comparison_capture_folder, --extension_file,
--python_path, --gpu_arch_platform, --include_overlap_info, --enable-origami)
are errors, never silently ignored.
EOF
}

usage() {
	cat <<'EOF'
usage: ttp-tracelens [-h] [-V] --profile_json_path PROFILE_JSON_PATH
                     [--output_xlsx_path OUTPUT_XLSX_PATH]
                     [--output_csvs_dir OUTPUT_CSVS_DIR]
                     [--output_html_path OUTPUT_HTML_PATH]
                     [--include_unlinked_kernels]
                     [--micro_idle_thresh_us MICRO_IDLE_THRESH_US]
                     [--disable_coll_analysis] [--enable_kernel_summary]
                     [--short_kernel_study]
                     [--short_kernel_threshold_us SHORT_KERNEL_THRESHOLD_US]
                     [--short_kernel_histogram_bins SHORT_KERNEL_HISTOGRAM_BINS]
                     [--topk_short_kernels TOPK_SHORT_KERNELS]
                     [--enable_pseudo_ops]
                     [--topk_ops TOPK_OPS] [--topk_roofline_ops TOPK_ROOFLINE_OPS]
                     [--gpu_arch_json_path GPU_ARCH_JSON_PATH]
                     [--group_by_num_kernels] [--include_call_stack]
                     [--inference_phase_analysis]
                     [--phase_detection_method METHOD]
                     [--decode_threshold DECODE_THRESHOLD] [--generate_plots]
                     [--disable_plots] [--plot_format {png,pdf,svg}]
                     [--plot_dpi PLOT_DPI] [-q] [-v]

TraceLens's performance report of a PyTorch profiler trace (.json or .json.gz), as
TraceLens_generate_perf_report_pytorch writes it. Runs ttp-parse | ttp-roofline |
ttp-table; prints the GPU timeline and the top ops on the standard output.

options:
  -h, --help               show this help and exit
  -V, --version            show the version and exit
  -q, --quiet              no informational messages on stderr
  -v, --verbose            also the notes a user cannot act on (the
                           communication kernels coll_analysis leaves out, as
                           TraceLens does, for want of their collective's args)
  --profile_json_path P    the trace (.json or .json.gz)
  --output_xlsx_path F     the workbook (default: the trace's name up to its last
                           ".json" + "_perf_report.xlsx")
  --output_csvs_dir D      one CSV per sheet in D instead of the workbook
  --output_html_path F     also the sheets and charts as one self-contained HTML
                           page in F (ttp's own option)
  --include_unlinked_kernels
                           count kernels without a launch in gpu_timeline
  --micro_idle_thresh_us X split idle time at gaps of X us
  --disable_coll_analysis  no coll_analysis sheet
  --enable_kernel_summary  add the kernel_summary sheet
  --short_kernel_study     add short_kernel_histogram and short_kernels_summary
  --short_kernel_threshold_us X
                           short means under X us (default 10)
  --short_kernel_histogram_bins N
                           histogram bins (default 100)
  --topk_short_kernels N   rows of short_kernels_summary
  --enable_pseudo_ops      as with --inference (ttp-tracelens --inference --help)
  --topk_ops N, --topk_roofline_ops N
                           accepted; as in TraceLens they change no sheet
  --gpu_arch_json_path F   TraceLens's arch JSON: the roofline's peaks
  --group_by_num_kernels   num_kernels in ops_unique_args and the roofline sheets
  --include_call_stack     call_stack_full and entry_point in unified_perf_summary
  --inference_phase_analysis
                           add ops_summary_prefill and ops_summary_decode
                           (ttp-phase tags the kernel launchers)
  --phase_detection_method M
                           union (default), gemm_params, kernel_names,
                           attention_patterns, framework_apis,
                           operation_frequency, hybrid: TraceLens's heuristics;
                           steps: the engine's step annotations (ttp's)
  --decode_threshold N     largest M that is decode (default 10)
  --generate_plots         with --inference_phase_analysis, TraceLens's five
                           phase charts (the default; --disable_plots: none) in
                           CSVS_DIR/inference_plots, else in the xlsx's (or the
                           trace's) name without its extension + _inference_plots
  --disable_plots          no phase charts
  --plot_format F          png (default), pdf or svg
  --plot_dpi N             the charts' resolution (default 300; ttp: 1 to 600)

  --inference              TraceLens_generate_perf_report_pytorch_inference's
                           command line instead (ttp-tracelens --inference --help)

TraceLens options ttp does not implement (--extension_file, --python_path,
--gpu_arch_platform, --detect_recompute, --include_overlap_info,
--comparison_json_path, ...) are errors that say what to use instead, never
silently ignored.
EOF
}

usage_multirank() {
	cat <<'EOF'
usage: ttp-tracelens --multi-rank [-h] [-V] (--trace_dir TRACE_DIR |
                     --trace_pattern TRACE_PATTERN | --trace_glob TRACE_GLOB)
                     --world_size WORLD_SIZE [--rank_regex RANK_REGEX]
                     [--output_xlsx_path OUTPUT_XLSX_PATH]
                     [--output_csvs_dir OUTPUT_CSVS_DIR]
                     [--output_html_path OUTPUT_HTML_PATH] [--detailed_analysis]
                     [--use_multiprocessing] [--max_workers MAX_WORKERS]
                     [--gpus_per_node GPUS_PER_NODE] [--all2allv_heatmap] [-q]

TraceLens's multi-rank collective report, as
TraceLens_generate_multi_rank_collective_report_pytorch writes it: one trace per
rank, each parsed by its own process (ttp-parse | ttp-filter --collectives),
the collectives matched across ranks by ttp-table.

options:
  --trace_dir D            D/rank{i}_trace.json (or .json.gz), i from 0
  --trace_pattern P        P with its one '*' replaced by i
  --trace_glob G           files matching G (** for any directories); each
                           file's rank from --rank_regex
  --rank_regex RE          Perl regex with a group 'rank' (default
                           rank[\[\-_/]?(?P<rank>\d+))
  --world_size N           the number of ranks (required)
  --output_xlsx_path F     the workbook (default: nccl_analysis_report.xlsx in
                           the traces' directory)
  --output_csvs_dir D      one CSV per sheet in D
  --output_html_path F     also the sheets as one self-contained HTML page in F
                           (ttp's own option)
  --use_multiprocessing    parse the ranks in parallel (--max_workers at once,
                           default: the number of CPUs)
  --gpus_per_node N        node_id and node_span columns (default: rank 0's
                           device count)
  --all2allv_heatmap       add nccl_all2allv_heatmap
  --detailed_analysis      accepted (always on, as in TraceLens)
  -q, --quiet              no informational messages on stderr
EOF
}

usage_jax() {
	cat <<'EOF'
usage: ttp-tracelens --jax --profile_path PROFILE_PATH [--output_xlsx_path OUTPUT_XLSX_PATH] [--output_csvs_dir OUTPUT_CSVS_DIR] [--output_html_path OUTPUT_HTML_PATH] [-q]
EOF
}

#include driver.sh

# The options of the four entry points, once (driver.sh's table: NAME ARG SHORT WHERE
# KIND TARGET). The entry points: P TraceLens_generate_perf_report_pytorch, I its
# _inference variant (--inference), J TraceLens_generate_perf_report_jax (--jax, or
# --profile_path without --profile_json_path), M
# TraceLens_generate_multi_rank_collective_report_pytorch (--multi-rank). A lower-case
# letter: TraceLens has the option there and ttp refuses it (opt_refuse says why).
opttab='
profile_json_path               =  -  PI    ref  trace
output_xlsx_path                =  -  PIJM  ref  xlsx
output_csvs_dir                 =  -  PIJM  ref  csvdir
include_unlinked_kernels        -  -  PI    ref  unlinked
micro_idle_thresh_us            #  -  PI    ref  micro_idle
disable_coll_analysis           -  -  PI    ref  nocoll
enable_kernel_summary           -  -  PI    ref  ksum
group_by_parent_module          -  -  pI    ref  parent_module
short_kernel_study              -  -  PI    ref  short
short_kernel_threshold_us       #  -  PI    ref  short_thresh
short_kernel_histogram_bins     #  -  PI    ref  short_bins
topk_short_kernels              #  -  PI    ref  topk_short
topk_ops                        #  -  PI    ref  @opt_no_effect
topk_roofline_ops               #  -  PI    ref  @opt_no_effect
gpu_arch_json_path              =  -  PIj   ref  gpu_arch
help                            -  h  PIJM  ref  @opt_help
version                         -  V  PIJM  own  @opt_version
quiet                           -  q  PIJM  own  verbose=
verbose                         -  v  PI    own  verbose=2
inference                       -  -  PI    own  -
inference_phase_analysis        -  -  P     ref  phases
phase_detection_method          =  -  P     ref  @opt_method
decode_threshold                #  -  P     ref  @opt_decode
disable_plots                   -  -  P     ref  noplots
generate_plots                  -  -  P     ref  -
plot_format                     =  -  P     ref  @opt_plot_format
plot_dpi                        #  -  P     ref  plotdpi
enable_pseudo_ops               -  -  PI    ref  pseudo
group_by_num_kernels            -  -  PI    ref  num_kernels
include_call_stack              -  -  PI    ref  call_stack
output_html_path                =  -  PIJM  own  @opt_html
capture_folder                  =  -  pI    ref  capture
comparison_json_path            =  -  pi    ref  -
extension_file                  =  -  pi    ref  -
python_path                     =  -  pi    ref  -
gpu_arch_platform               =  -  pij   ref  -
detect_recompute                -  -  p     ref  -
include_overlap_info            -  -  pi    ref  -
inductor_cache_dir              =  -  p     ref  -
include_first_occurrence_time   -  -  p     ref  -
enable-origami                  -  -  pij   ref  -
comparison_capture_folder       =  -  pi    ref  -
jax                             -  -  J     own  -
profile_path                    =  -  J     ref  trace
kernel_metadata_keyword_filters =  -  j     ref  -
multi-rank                      -  -  M     own  -
trace_dir                       =  -  M     ref  @opt_traces
trace_pattern                   =  -  M     ref  @opt_traces
trace_glob                      =  -  M     ref  @opt_traces
world_size                      #  -  M     ref  mws
rank_regex                      =  -  M     ref  mrx
detailed_analysis               -  -  M     ref  -
use_multiprocessing             -  -  M     ref  mpar
max_workers                     #  -  M     ref  mjobs
gpus_per_node                   #  -  M     ref  mgpn
all2allv_heatmap                -  -  M     ref  mheat
agg_metrics                     =  -  m     ref  -
'
opt_style=argparse opt_tiers=

# The entry point: --multi-rank wherever it stands; else --jax or --profile_path (unless
# --profile_json_path comes first); else --inference wherever it stands; else P.
entry=P
for a; do
	[ "$a" = --multi-rank ] && entry=M
done
if [ "$entry" = P ]; then
	for a; do
		case $a in
		--jax | --profile_path | --profile_path=*) entry=J ;;
		--profile_json_path | --profile_json_path=*) entry=P; break ;;
		esac
	done
fi
if [ "$entry" = P ]; then
	for a; do
		[ "$a" = --inference ] && entry=I
	done
fi

# opt_refuse NAME: why=what the error says about TraceLens's option NAME.
opt_refuse() {
	_w=
	case $entry:$1 in
	P:group_by_parent_module | P:capture_folder)
		why="an option of TraceLens's inference report (TraceLens_generate_perf_report_pytorch_inference): add --inference"
		return ;;
	[PI]:extension_file) _w="TraceLens's Python extensions cannot run in ttp; run TraceLens itself for what they add" ;;
	[PI]:python_path) _w="ttp has no GEMM simulator to run; the roofline sheets use the GPU's peaks (--gpu_arch_json_path)" ;;
	[PI]:gpu_arch_platform) _w="give the platform's TraceLens arch JSON with --gpu_arch_json_path instead" ;;
	[PI]:enable-origami) _w="ttp has no simulated GEMM/SDPA times; the roofline sheets use the GPU's peaks (--gpu_arch_json_path)" ;;
	[PI]:comparison_json_path | [PI]:comparison_capture_folder)
		_w="ttp has no TraceDiff; write each trace's sheets (--output_csvs_dir) and compare them" ;;
	[PI]:detect_recompute) _w="ttp does not mark recomputed ops (no is_recompute column); leave it out for the other columns" ;;
	[PI]:include_overlap_info) _w="ttp has no overlap columns; gpu_timeline shows the exposed (not overlapped) communication and memcpy time" ;;
	[PI]:include_first_occurrence_time) _w="ttp has no first-occurrence column; leave it out for the other columns" ;;
	[PI]:inductor_cache_dir) _w="ttp reads Triton kernels from the trace alone (no inductor cache)" ;;
	esac
	why="TraceLens's option is not implemented by ttp${_w:+: $_w}"
}
opt_help() {
	case $entry in
	P) usage ;;
	I) usage_inference ;;
	J) usage_jax ;;
	M) usage_multirank ;;
	esac
	exit 0
}
opt_version() { echo "$prog $version"; exit 0; }
opt_no_effect() {
	notes="$notes--$1 changes no sheet (TraceLens parses it and never uses it)
"
}
opt_method() {
	case $2 in
	union | hybrid) method=$2 ;;
	gemm_params) method=gemm-params ;;
	kernel_names) method=kernel-names ;;
	attention_patterns) method=attention ;;
	framework_apis) method=framework ;;
	operation_frequency) method=frequency ;;
	steps) method=steps ;;
	*) bad "argument --phase_detection_method: invalid choice: '$2' (choose from 'union', 'gemm_params', 'kernel_names', 'attention_patterns', 'framework_apis', 'operation_frequency', 'hybrid', 'steps')" ;;
	esac
}
opt_decode() {
	case $2 in
	-*) bad "argument --decode_threshold: ttp needs a threshold of 0 or more: '$2'" ;;
	esac
	pargs="$pargs --threshold=${2#+}"
}
opt_plot_format() {
	case $2 in
	png | pdf | svg) plotfmt=$2 ;;
	*) bad "argument --plot_format: invalid choice: '$2' (choose from 'png', 'pdf', 'svg')" ;;
	esac
}
opt_html() {
	[ -n "$2" ] || bad "argument --output_html_path: an empty file name"
	html=$2
}
# --trace_dir, --trace_pattern, --trace_glob: one of them
opt_traces() {
	[ -n "$mdir$mpat$mglob" ] &&
	    bad "argument --$1: not allowed with another of --trace_dir, --trace_pattern, --trace_glob"
	case $1 in
	trace_dir) mdir=$2 ;;
	trace_pattern) mpat=$2 ;;
	trace_glob) mglob=$2 ;;
	esac
	[ -n "$2" ] || bad "argument --$1: an empty path"
}

trace='' trace_set='' xlsx='' csvdir='' html='' verbose=1 notes='' pargs='' method=''
mdir='' mpat='' mglob='' mws='' mrx='' mpar='' mjobs='' mgpn='' mheat=''
opt_parse "$entry" "$@"

# check_trace: the trace is readable, else a message and exit 1.
check_trace() {
	if [ ! -r "$trace" ]; then
		if [ -e "$trace" ]; then
			printf '%s: %s: Permission denied\n' "$prog" "$trace" >&2
		else
			printf '%s: %s: No such file or directory\n' "$prog" "$trace" >&2
		fi
		exit 1
	fi
}

# sheets_out DEFAULT_XLSX: tout=ttp-table's output options (--csv-dir, else --xlsx with
# DEFAULT_XLSX when none was given; and --html), out=what the last message names.
sheets_out() {
	if [ -n "$csvdir" ]; then
		quote "$csvdir"
		tout="--csv-dir=$qv"
		out=$csvdir
	else
		[ -n "$xlsx" ] || xlsx=$1
		quote "$xlsx"
		tout="--xlsx=$qv"
		out=$xlsx
	fi
	if [ -n "$html" ]; then
		# ttp's own: the sheets and charts as one HTML page (ttp-table --html)
		quote "$html"
		tout="$tout --html=$qv"
		out="$out and $html"
	fi
}

# refuse_overwrite OPTION FILE: FILE (an output) is not the trace.
refuse_overwrite() {
	[ -n "$2" ] && [ "$2" -ef "$trace" ] &&
	    bad "$1 $2: that file is the trace ($traceopt); writing it would destroy the trace (give another output name)"
}

# --- Many ranks: TraceLens_generate_multi_rank_collective_report_pytorch's command line.
# One trace per rank, each parsed by its own process (at most --max_workers at once):
#   ttp-parse RANK_TRACE | ttp-filter --collectives --rank I
# then ttp-table on the collective records of every rank.
if [ "$entry" = M ]; then
	[ -n "$mdir$mpat$mglob" ] ||
	    bad "one of the arguments --trace_dir --trace_pattern --trace_glob is required"
	merr() {
		printf '%s: %s\n' "$prog" "$1" >&2
		exit 1
	}
	[ -n "$mws" ] || merr "--world_size must be given"
	mws=$((mws + 0))
	[ "$mws" -ge 1 ] || merr "--world_size must be at least 1"
	[ -z "$mgpn" ] || mgpn=$((mgpn + 0))
	[ -z "$mgpn" ] || [ "$mgpn" -ge 1 ] ||
	    merr "--gpus_per_node must be a positive integer, got $mgpn"
	[ -z "$mjobs" ] || mjobs=$((mjobs + 0))
	tmp_init
	mtmp=$tmp
	# the list of traces, one per rank in rank order: $mtmp/files
	: >"$mtmp/files"
	if [ -n "$mglob" ]; then
		[ -n "$mrx" ] || mrx='rank[\[\-_/]?(?P<rank>\d+)'
		# the glob's fixed leading directories, then every file under them
		mroot=${mglob%%[*?[]*}
		case $mroot in
		*/*) mroot=${mroot%/*}; [ -n "$mroot" ] || mroot=/ ;;
		*) mroot=. ;;
		esac
		[ -d "$mroot" ] || merr "No files matched --trace_glob: $mglob"
		find "$mroot" -type f -print 2>/dev/null | LC_ALL=C sort |
		    perl -e '
			my ($glob, $rx, $ws) = @ARGV;
			my $re = "";
			my $g = $glob;
			$g =~ s{^\./}{} if $glob =~ m{^\./};
			while (length $g) {
				if ($g =~ s{^\*\*/}{}) { $re .= "(?:.*/)?" }
				elsif ($g =~ s{^\*\*}{}) { $re .= ".*" }
				elsif ($g =~ s{^\*}{}) { $re .= "[^/]*" }
				elsif ($g =~ s{^\?}{}) { $re .= "[^/]" }
				elsif ($g =~ s{^(\[!?\]?[^\]]*\])}{}) { my $c = $1; $c =~ s/^\[!/[^/; $re .= $c }
				else { $g =~ s{^(.)}{}s; $re .= quotemeta $1 }
			}
			my $rrx = eval { qr/$rx/ } or do { print STDERR "bad --rank_regex: $rx\n"; exit 3 };
			my (%by, $n);
			while (my $p = <STDIN>) {
				chomp $p;
				my $q = $p;
				$q =~ s{^\./}{} if $glob !~ m{^\./};
				next unless $q =~ m{^$re$}s;
				$n++;
				my $base = $p; $base =~ s{.*/}{};
				my $r;
				if ($base =~ $rrx or $p =~ $rrx) {
					$r = defined $+{rank} ? $+{rank} : $1;
				}
				next unless defined $r and $r =~ /^\d+$/;
				$by{$r + 0} //= $p;
			}
			if (!$n) { print STDERR "No files matched --trace_glob: $glob\n"; exit 3 }
			if (!%by) { print STDERR "--trace_glob matched $n file(s), but none matched --rank_regex \x27$rx\x27\n"; exit 3 }
			my @miss = grep { !exists $by{$_} } 0 .. $ws - 1;
			if (@miss) { print STDERR "Missing ranks after glob resolution: [" . join(", ", @miss) . "]. A complete rank set (0.." . ($ws - 1) . ") is needed\n"; exit 3 }
			print "$by{$_}\n" for 0 .. $ws - 1;
		    ' "$mglob" "$mrx" "$mws" >"$mtmp/files" 2>"$mtmp/globerr" ||
		    merr "$(cat "$mtmp/globerr")"
	else
		i=0
		while [ $i -lt "$mws" ]; do
			if [ -n "$mpat" ]; then
				rest=${mpat#*\*}
				[ "${mpat%%\**}" != "$mpat" ] && [ "${rest#*\*}" = "$rest" ] ||
				    merr "trace_pattern must contain exactly one '*' character as a placeholder for rank id"
				f=${mpat%%\**}$i$rest
			else
				f=$mdir/rank${i}_trace.json
				[ -f "$f" ] || [ ! -f "$f.gz" ] || f=$f.gz
			fi
			[ -f "$f" ] || merr "Expected trace file not found: $f"
			printf '%s\n' "$f" >>"$mtmp/files"
			i=$((i + 1))
		done
	fi
	if [ -n "$mdir" ]; then
		sheets_out "$mdir/nccl_analysis_report.xlsx"
	else
		sheets_out "$(dirname -- "$(head -n 1 "$mtmp/files")")/nccl_analysis_report.xlsx"
	fi
	# no output may replace a rank's trace: ttp-table refuses them (--protect), the
	# workbook, the page and the sheets' names alike, before it writes anything
	mprot=
	while IFS= read -r f; do
		for o in xlsx html; do
			eval "v=\$$o"
			[ "$o" = xlsx ] && [ -n "$csvdir" ] && continue
			[ -n "$v" ] && [ "$v" -ef "$f" ] &&
			    bad "--output_${o}_path $v: that file is a rank's trace; writing it would destroy the trace (give another output name)"
		done
		quote "$f"
		mprot="$mprot --protect=$qv"
	done <"$mtmp/files"
	stage ttp-parse; mparse=$qv
	stage ttp-filter; mfilter=$qv
	stage ttp-table; mtable=$qv
	# each rank by its own process, at most $mjobs at once
	if [ -n "$mpar" ]; then
		[ -n "$mjobs" ] && [ "$mjobs" -ge 1 ] ||
		    mjobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
	else
		mjobs=1
	fi
	i=0
	while IFS= read -r f; do
		printf '%s\0%s\0' "$i" "$f"
		i=$((i + 1))
	done <"$mtmp/files" >"$mtmp/ranks"
	quote "$mtmp"; mq=$qv
	quote "$mparse"; mpq=$qv
	quote "$mfilter"; mfq=$qv
	run_stages '' "mtmp=$mq mparse=$mpq mfilter=$mfq xargs -0 -n 2 -P $mjobs sh -c '
		{ eval \"\$mparse -q -- \\\"\\\$2\\\"\" 2>\"\$mtmp/pe\$1\"; echo \$? >\"\$mtmp/ps\$1\"; } |
		    { eval \"\$mfilter -q --collectives --rank \\\"\\\$1\\\"\" >\"\$mtmp/r\$1.ndjson\" \\
		    2>\"\$mtmp/fe\$1\"; echo \$? >\"\$mtmp/fs\$1\"; }' sh <$mq/ranks"
	[ "$rc" -eq 0 ] || exit "$rc"
	i=0 inputs=
	while [ $i -lt "$mws" ]; do
		for st in p f; do
			s=$(cat "$mtmp/${st}s$i" 2>/dev/null) || s=1
			if [ "$s" -ne 0 ] && [ "$s" -ne 141 ]; then
				cat "$mtmp/${st}e$i" >&2
				exit "$s"
			fi
			cat "$mtmp/${st}e$i" >&2
		done
		inputs="$inputs $mq/r$i.ndjson"
		i=$((i + 1))
	done
	targs="--world-size=$mws"
	[ -n "$mgpn" ] && targs="$targs --gpus-per-node=$mgpn"
	[ -n "$mheat" ] && targs="$targs --all2allv-heatmap"
	[ -n "$verbose" ] || targs="$targs -q"
	run_stages '' "$mtable $tout $targs$mprot$inputs"
	[ "$rc" -eq 0 ] && [ -n "$verbose" ] && printf '%s: wrote %s\n' "$prog" "$out" >&2
	exit "$rc"
fi

# --- JAX: TraceLens_generate_perf_report_jax's command line:
#   ttp-parse PROFILE | ttp-roofline | ttp-table --csv-dir DIR | --xlsx FILE [--html F]
if [ "$entry" = J ]; then
	[ -n "$trace_set" ] || bad "the following arguments are required: --profile_path"
	# TraceLens: the path before its last ".xplane.pb" + "_perf_report.xlsx"
	sheets_out "${trace%.xplane.pb*}_perf_report.xlsx"
	check_trace
	traceopt=--profile_path
	[ -n "$csvdir" ] || refuse_overwrite --output_xlsx_path "$xlsx"
	refuse_overwrite --output_html_path "$html"
	stage ttp-parse; parse=$qv
	stage ttp-roofline; roofline=$qv
	stage ttp-table; table=$qv
	quote "$trace"
	tmp_init
	run_stages '' "$parse -q -- $qv" "$roofline" "$table $tout --protect=$qv"
	[ "$rc" -eq 0 ] && [ -n "$verbose" ] && printf '%s: wrote %s\n' "$prog" "$out" >&2
	exit "$rc"
fi

# --- PyTorch: TraceLens_generate_perf_report_pytorch's command line (P), or with
# --inference its _inference variant's (I):
#   ttp-parse TRACE | ttp-roofline [| ttp-phase] | ttp-table --xlsx FILE | --csv-dir DIR
targs= rargs=
[ "$entry" = I ] && targs=" --inference"
# -v: ttp-table's notes a user cannot act on too
[ "$verbose" = 2 ] && targs="$targs -v -v"
[ -n "${unlinked:-}" ] && targs="$targs --include-unlinked-kernels"
if [ -n "${micro_idle_set:-}" ]; then quote "$micro_idle"; targs="$targs --micro-idle-thresh-us=$qv"; fi
[ -n "${nocoll:-}" ] && targs="$targs --no-coll-analysis"
if [ -n "${short_thresh_set:-}" ]; then quote "$short_thresh"; targs="$targs --short-kernel-threshold-us=$qv"; fi
if [ -n "${short_bins_set:-}" ]; then quote "$short_bins"; targs="$targs --short-kernel-bins=$qv"; fi
if [ -n "${topk_short_set:-}" ]; then quote "$topk_short"; targs="$targs --topk-short-kernels=$qv"; fi
if [ -n "${gpu_arch_set:-}" ]; then quote "$gpu_arch"; rargs="$rargs --spec=$qv"; fi
[ -n "${parent_module:-}" ] && targs="$targs --group-by-parent-module" python=1
[ -n "${num_kernels:-}" ] && targs="$targs --group-by-num-kernels"
[ -n "${call_stack:-}" ] && targs="$targs --include-call-stack" python=1
[ -n "${capture_set:-}" ] && python=1
[ -n "${pseudo:-}" ] && targs="$targs --pseudo-ops" rargs="$rargs --pseudo-ops" python=1

[ -n "$trace_set" ] || bad "the following arguments are required: --profile_json_path"
if [ -n "${phases:-}" ]; then
	# TraceLens's CLI default is union; --by steps is ttp's better answer. ttp-phase
	# says what it labelled (how many launchers of each phase, or ops outside any
	# step), unless quiet.
	pv=-q
	[ -n "$verbose" ] && pv=-v
	pargs="$pv -b ${method:-union}${pargs:-}"
	if [ -z "${noplots:-}" ]; then
		# TraceLens's phase charts, where its branch puts them: beside the CSVs, or
		# named after the workbook (as given) or the trace
		if [ -n "$csvdir" ]; then
			case $csvdir in
			*/) plotdir=${csvdir}inference_plots ;;
			*) plotdir=$csvdir/inference_plots ;;
			esac
		elif [ -n "$xlsx" ]; then
			plotdir=${xlsx%.*}_inference_plots
		else
			plotdir=${trace%.json*}_inference_plots
		fi
		# argparse's int: a sign, leading zeros
		dpi=${plotdpi:-300}
		case $dpi in +*) dpi=${dpi#+} ;; esac
		case $dpi in ''|-*|*[!0-9]*) dpi=0 ;; esac
		while [ "${#dpi}" -gt 1 ] && [ "${dpi#0}" != "$dpi" ]; do dpi=${dpi#0}; done
		if [ "${#dpi}" -gt 3 ] || [ "$dpi" -lt 1 ] || [ "$dpi" -gt 600 ]; then
			bad "argument --plot_dpi: ttp draws at 1 to 600 dpi, not '${plotdpi:-}'"
		fi
		tb=${trace##*/}
		quote "$plotdir"; targs="$targs --plot-phases=$qv"
		quote "${tb%%.*}"; targs="$targs --plot-title=$qv"
		targs="$targs --plot-format=${plotfmt:-png} --plot-dpi=$dpi"
		# ttp-table says where the charts went, unless quiet
		[ -n "$verbose" ] || targs="$targs -q"
	fi
elif [ -n "${method:-}${pargs:-}" ]; then
	notes="${notes:-}--phase_detection_method and --decode_threshold change nothing without --inference_phase_analysis
"
fi
[ -n "${ksum:-}" ] || targs="$targs --no-kernel-summary"
[ -n "${short:-}" ] || targs="$targs --no-short-kernels"
# TraceLens: the trace's path up to its last ".json", plus "_perf_report.xlsx"
case $trace in
*.json*) sheets_out "${trace%.json*}_perf_report.xlsx" ;;
*) sheets_out "${trace}_perf_report.xlsx" ;;
esac
targs="$targs $tout"
[ -n "$verbose" ] && [ -n "${notes:-}" ] && printf '%s: %s' "$prog" "$notes" >&2

check_trace

# TraceLens's training report reads no step annotation: its inference-engine attention
# ops get no figures
[ "$entry" = I ] || rargs="$rargs --no-step-counts"
stage ttp-parse; parse=$qv
stage ttp-roofline; roofline=$qv
stage ttp-table; table=$qv
if [ -n "${phases:-}" ]; then
	stage ttp-phase
	phase="$qv $pargs"
else
	phase=cat
fi
quote "$trace"
trace_q=$qv
if [ -n "${capture:-}" ]; then
	# TraceLens reads the folder's execution_details.json: a missing folder is an error
	if [ ! -d "$capture" ]; then
		printf '%s: %s: Not a directory\n' "$prog" "$capture" >&2
		exit 1
	fi
	quote "$capture"
	parse="$parse -c $qv"
fi

# No output may replace the trace (an xlsx or CSV named like it, or a link to it): TraceLens
# would destroy its input. ttp-table checks the sheets' names too (--protect).
traceopt=--profile_json_path
[ -n "$csvdir" ] || refuse_overwrite --output_xlsx_path "$xlsx"
refuse_overwrite --output_html_path "$html"
targs="$targs --protect=$trace_q"

# Each stage leaves its exit status in a file (dash has no pipefail); a stage that fails
# sends a line that is not a record down the pipe, so that ttp-table writes nothing. A
# CSV for the trace is refused by ttp-parse --expect json: it is ttp-report's.
tmp_init
run_stages '' "$parse --expect=json -q${python:+ -p} -- $trace_q" "$roofline$rargs" \
    "$phase" "$table$targs --print-summary"
[ "$rc" -eq 0 ] && [ -n "$verbose" ] && printf '%s: wrote %s\n' "$prog" "$out" >&2
exit "$rc"
