#!/bin/sh
# SPDX-License-Identifier: ISC
# ttp-tracelens: the drop-in driver for TraceLens_generate_perf_report_pytorch's command
# line, and with --inference for TraceLens_generate_perf_report_pytorch_inference's. It
# parses that command line (argparse's rules: --opt value, --opt=value, unique prefixes)
# and runs
#   ttp-parse TRACE | ttp-roofline [| ttp-phase] | ttp-table --xlsx FILE | --csv-dir DIR
# The stages are looked up next to this script first, then in PATH. Exit status: that of
# the first stage that failed (0 when all succeeded), 2 for a bad command line.

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
                     [--plot_dpi PLOT_DPI] [-q]

TraceLens's performance report of a PyTorch profiler trace (.json or .json.gz), as
TraceLens_generate_perf_report_pytorch writes it. Runs ttp-parse | ttp-roofline |
ttp-table; prints the GPU timeline and the top ops on the standard output.

options:
  -h, --help               show this help and exit
  -V, --version            show the version and exit
  -q, --quiet              no informational messages on stderr
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

#include driver.sh

# --- Many ranks: TraceLens_generate_multi_rank_collective_report_pytorch's command line
# (--multi-rank). Self-contained: resolves one trace per rank, runs
#   ttp-parse RANK_TRACE | ttp-filter --collectives --rank I      (at most -j at once)
# and ttp-table on the collective records of every rank.
multirank=
for a in "$@"; do
	[ "$a" = --multi-rank ] && multirank=1
done
if [ -n "$multirank" ]; then
	mopts='trace_dir= trace_pattern= trace_glob= world_size= rank_regex= output_xlsx_path=
output_csvs_dir= detailed_analysis use_multiprocessing max_workers= gpus_per_node=
all2allv_heatmap help version quiet multi-rank'
	munimpl='agg_metrics='
	mdir='' mpat='' mglob='' mws='' mrx='' xlsx='' csvdir='' mpar='' mjobs='' mgpn=''
	mheat='' verbose=1
	musage() {
		cat <<'EOM'
usage: ttp-tracelens --multi-rank [-h] [-V] (--trace_dir TRACE_DIR |
                     --trace_pattern TRACE_PATTERN | --trace_glob TRACE_GLOB)
                     --world_size WORLD_SIZE [--rank_regex RANK_REGEX]
                     [--output_xlsx_path OUTPUT_XLSX_PATH]
                     [--output_csvs_dir OUTPUT_CSVS_DIR] [--detailed_analysis]
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
  --use_multiprocessing    parse the ranks in parallel (--max_workers at once,
                           default: the number of CPUs)
  --gpus_per_node N        node_id and node_span columns (default: rank 0's
                           device count)
  --all2allv_heatmap       add nccl_all2allv_heatmap
  --detailed_analysis      accepted (always on, as in TraceLens)
  -q, --quiet              no informational messages on stderr
EOM
	}
	while [ $# -gt 0 ]; do
		arg=$1
		shift
		case $arg in
		--?*)
			name=${arg#--} hasval=
			case $name in *=*) val=${name#*=}; name=${name%%=*}; hasval=1 ;; esac
			opt_exact "$name" "$mopts $munimpl"
			if [ -z "$match" ]; then
				opt_prefix "$name" "$mopts $munimpl"
				[ $n -eq 0 ] && bad "unrecognized arguments: $arg"
				[ $n -gt 1 ] && bad "ambiguous option: --$name could match $cands"
			fi
			opt=${match%=}
			for o in $munimpl; do
				[ "$o" = "$match" ] && bad "--$opt: TraceLens's option is not implemented by ttp"
			done
			case $match in
			*=)
				if [ -z "$hasval" ]; then
					[ $# -gt 0 ] || bad "argument --$opt: expected one argument"
					val=$1
					case $val in -*) bad "argument --$opt: expected one argument" ;; esac
					shift
				fi
				;;
			*) [ -n "$hasval" ] && bad "argument --$opt: ignored explicit argument '$val'" ;;
			esac
			case $opt in
			world_size|max_workers|gpus_per_node)
				case $val in
				''|*[!0-9]*) bad "argument --$opt: invalid int value: '$val'" ;;
				esac
				;;
			esac
			case $opt in
			trace_dir|trace_pattern|trace_glob)
				[ -n "$mdir$mpat$mglob" ] &&
				    bad "argument --$opt: not allowed with another of --trace_dir, --trace_pattern, --trace_glob"
				case $opt in
				trace_dir) mdir=$val ;;
				trace_pattern) mpat=$val ;;
				trace_glob) mglob=$val ;;
				esac
				[ -n "$val" ] || bad "argument --$opt: an empty path"
				;;
			world_size) mws=$((val + 0)) ;;
			rank_regex) mrx=$val ;;
			output_xlsx_path) xlsx=$val ;;
			output_csvs_dir) csvdir=$val ;;
			use_multiprocessing) mpar=1 ;;
			max_workers) mjobs=$((val + 0)) ;;
			gpus_per_node) mgpn=$((val + 0)) ;;
			all2allv_heatmap) mheat=1 ;;
			help) musage; exit 0 ;;
			version) echo "$prog $version"; exit 0 ;;
			quiet) verbose= ;;
			esac
			;;
		-h) musage; exit 0 ;;
		-V) echo "$prog $version"; exit 0 ;;
		-q) verbose= ;;
		*) bad "unrecognized arguments: $arg" ;;
		esac
	done
	[ -n "$mdir$mpat$mglob" ] ||
	    bad "one of the arguments --trace_dir --trace_pattern --trace_glob is required"
	merr() {
		printf '%s: %s\n' "$prog" "$1" >&2
		exit 1
	}
	[ -n "$mws" ] || merr "--world_size must be given"
	[ "$mws" -ge 1 ] || merr "--world_size must be at least 1"
	[ -z "$mgpn" ] || [ "$mgpn" -ge 1 ] ||
	    merr "--gpus_per_node must be a positive integer, got $mgpn"
	mtmp=$(mktemp -d "${TMPDIR:-/tmp}/ttp-tracelens.XXXXXX") || exit 1
	trap 'rm -rf "$mtmp"' EXIT
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
	if [ -n "$csvdir" ]; then
		quote "$csvdir"; tout="--csv-dir=$qv"; out=$csvdir
	else
		if [ -z "$xlsx" ]; then
			if [ -n "$mdir" ]; then
				xlsx=$mdir/nccl_analysis_report.xlsx
			else
				xlsx=$(dirname -- "$(head -n 1 "$mtmp/files")")/nccl_analysis_report.xlsx
			fi
		fi
		quote "$xlsx"; tout="--xlsx=$qv"; out=$xlsx
	fi
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
	export mtmp
	i=0
	while IFS= read -r f; do
		printf '%s\0%s\0' "$i" "$f"
		i=$((i + 1))
	done <"$mtmp/files" |
	    mparse=$mparse mfilter=$mfilter xargs -0 -n 2 -P "$mjobs" sh -c '
		{ eval "$mparse -q -- \"\$2\"" 2>"$mtmp/pe$1"; echo $? >"$mtmp/ps$1"; } |
		    { eval "$mfilter -q --collectives --rank \"\$1\"" >"$mtmp/r$1.ndjson" \
		    2>"$mtmp/fe$1"; echo $? >"$mtmp/fs$1"; }' sh
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
		inputs="$inputs \"\$mtmp/r$i.ndjson\""
		i=$((i + 1))
	done
	targs="--world-size=$mws"
	[ -n "$mgpn" ] && targs="$targs --gpus-per-node=$mgpn"
	[ -n "$mheat" ] && targs="$targs --all2allv-heatmap"
	[ -n "$verbose" ] || targs="$targs -q"
	eval "$mtable $tout $targs $inputs"
	rc=$?
	[ "$rc" -eq 0 ] && [ -n "$verbose" ] && printf '%s: wrote %s\n' "$prog" "$out" >&2
	exit "$rc"
fi

# --- JAX: TraceLens_generate_perf_report_jax's command line (--jax, or --profile_path
# given without --profile_json_path). Self-contained: parses its options and runs
#   ttp-parse PROFILE | ttp-roofline | ttp-table --csv-dir DIR | --xlsx FILE
jax=
for a in "$@"; do
	case $a in
	--jax) jax=1 ;;
	--profile_json_path|--profile_json_path=*) jax= ; break ;;
	--profile_path|--profile_path=*) jax=1 ;;
	esac
done
if [ -n "$jax" ]; then
	jopts='profile_path= output_xlsx_path= output_csvs_dir= help version quiet jax'
	junimpl='kernel_metadata_keyword_filters= gpu_arch_json_path= gpu_arch_platform= enable-origami'
	trace='' xlsx='' csvdir='' verbose=1 trace_set=''
	while [ $# -gt 0 ]; do
		arg=$1
		shift
		case $arg in
		--?*)
			name=${arg#--} hasval=
			case $name in *=*) val=${name#*=}; name=${name%%=*}; hasval=1 ;; esac
			opt_exact "$name" "$jopts $junimpl"
			if [ -z "$match" ]; then
				opt_prefix "$name" "$jopts $junimpl"
				[ $n -eq 0 ] && bad "unrecognized arguments: $arg"
				[ $n -gt 1 ] && bad "ambiguous option: --$name could match $cands"
			fi
			opt=${match%=}
			for o in $junimpl; do
				[ "$o" = "$match" ] && bad "--$opt: TraceLens's option is not implemented by ttp"
			done
			case $match in
			*=)
				if [ -z "$hasval" ]; then
					[ $# -gt 0 ] || bad "argument --$opt: expected one argument"
					val=$1
					case $val in -*) bad "argument --$opt: expected one argument" ;; esac
					shift
				fi
				;;
			*) [ -n "$hasval" ] && bad "argument --$opt: ignored explicit argument '$val'" ;;
			esac
			case $opt in
			profile_path) trace=$val; trace_set=1 ;;
			output_xlsx_path) xlsx=$val ;;
			output_csvs_dir) csvdir=$val ;;
			help) echo "usage: ttp-tracelens --jax --profile_path PROFILE_PATH [--output_xlsx_path OUTPUT_XLSX_PATH] [--output_csvs_dir OUTPUT_CSVS_DIR] [-q]"; exit 0 ;;
			version) echo "$prog $version"; exit 0 ;;
			quiet) verbose= ;;
			esac
			;;
		-h) echo "usage: ttp-tracelens --jax --profile_path PROFILE_PATH [--output_xlsx_path OUTPUT_XLSX_PATH] [--output_csvs_dir OUTPUT_CSVS_DIR] [-q]"; exit 0 ;;
		-V) echo "$prog $version"; exit 0 ;;
		-q) verbose= ;;
		*) bad "unrecognized arguments: $arg" ;;
		esac
	done
	[ -n "$trace_set" ] || bad "the following arguments are required: --profile_path"
	if [ -n "$csvdir" ]; then
		quote "$csvdir"; tout="--csv-dir=$qv"; out=$csvdir
	else
		# TraceLens: the path before its last ".xplane.pb" + "_perf_report.xlsx"
		[ -n "$xlsx" ] || xlsx=${trace%.xplane.pb*}_perf_report.xlsx
		quote "$xlsx"; tout="--xlsx=$qv"; out=$xlsx
	fi
	if [ ! -r "$trace" ]; then
		if [ -e "$trace" ]; then
			printf '%s: %s: Permission denied\n' "$prog" "$trace" >&2
		else
			printf '%s: %s: No such file or directory\n' "$prog" "$trace" >&2
		fi
		exit 1
	fi
	stage ttp-parse; jparse=$qv
	stage ttp-roofline; jroof=$qv
	stage ttp-table; jtable=$qv
	quote "$trace"
	jtmp=$(mktemp -d "${TMPDIR:-/tmp}/ttp-tracelens.XXXXXX") || exit 1
	trap 'rm -rf "$jtmp"' EXIT
	# each stage's status in a file (no pipefail); a failed stage poisons the pipe
	eval "{ $jparse -q -- $qv 2>\"\$jtmp/e1\"; s=\$?; echo \$s >\"\$jtmp/1\";
		[ \$s -eq 0 ] || echo '$prog: an earlier stage failed'; } |
	    { $jroof 2>\"\$jtmp/e2\"; s=\$?; echo \$s >\"\$jtmp/2\";
		[ \$s -eq 0 ] || echo '$prog: an earlier stage failed'; } |
	    { $jtable $tout 2>\"\$jtmp/e3\"; echo \$? >\"\$jtmp/3\"; }"
	rc=0 i=0
	while [ $i -lt 3 ]; do
		i=$((i + 1))
		s=$(cat "$jtmp/$i" 2>/dev/null) || s=1
		cat "$jtmp/e$i" >&2
		if [ "$s" -ne 0 ] && [ "$s" -ne 141 ]; then rc=$s; break; fi
	done
	[ "$rc" -eq 0 ] && [ -n "$verbose" ] && printf '%s: wrote %s\n' "$prog" "$out" >&2
	exit "$rc"
fi

longopts='profile_json_path= output_xlsx_path= output_csvs_dir= include_unlinked_kernels
micro_idle_thresh_us= disable_coll_analysis enable_kernel_summary short_kernel_study
short_kernel_threshold_us= short_kernel_histogram_bins= topk_short_kernels= topk_ops=
topk_roofline_ops= gpu_arch_json_path= help version quiet inference
inference_phase_analysis phase_detection_method= decode_threshold= disable_plots generate_plots
plot_format= plot_dpi='
longopts="$longopts enable_pseudo_ops group_by_num_kernels include_call_stack output_html_path="
# TraceLens's options that ttp does not implement: a clear error each (unimpl_why), and
# the inference report's options that ttp has only there.
unimpl='extension_file= python_path= gpu_arch_platform= detect_recompute
include_overlap_info comparison_json_path= inductor_cache_dir=
include_first_occurrence_time enable-origami group_by_parent_module capture_folder=
comparison_capture_folder='

# unimpl_why NAME: why=what the error says about TraceLens's option NAME.
unimpl_why() {
	case $1 in
	extension_file) why="TraceLens's Python extensions cannot run in ttp; run TraceLens itself for what they add" ;;
	python_path) why="ttp has no GEMM simulator to run; the roofline sheets use the GPU's peaks (--gpu_arch_json_path)" ;;
	gpu_arch_platform) why="give the platform's TraceLens arch JSON with --gpu_arch_json_path instead" ;;
	enable-origami) why="ttp has no simulated GEMM/SDPA times; the roofline sheets use the GPU's peaks (--gpu_arch_json_path)" ;;
	comparison_json_path|comparison_capture_folder)
		why="ttp has no TraceDiff; write each trace's sheets (--output_csvs_dir) and compare them" ;;
	detect_recompute) why="ttp does not mark recomputed ops (no is_recompute column); leave it out for the other columns" ;;
	include_overlap_info) why="ttp has no overlap columns; gpu_timeline shows the exposed (not overlapped) communication and memcpy time" ;;
	include_first_occurrence_time) why="ttp has no first-occurrence column; leave it out for the other columns" ;;
	inductor_cache_dir) why="ttp reads Triton kernels from the trace alone (no inductor cache)" ;;
	*) why="not implemented" ;;
	esac
}

# --inference, wherever it stands, selects the inference entry point's option set.
inference=
for a in "$@"; do
	[ "$a" = --inference ] && inference=1
done
if [ -n "$inference" ]; then
	longopts='profile_json_path= output_xlsx_path= output_csvs_dir= include_unlinked_kernels
micro_idle_thresh_us= disable_coll_analysis enable_kernel_summary group_by_parent_module
short_kernel_study short_kernel_threshold_us= short_kernel_histogram_bins=
topk_short_kernels= enable_pseudo_ops topk_ops= topk_roofline_ops= gpu_arch_json_path=
group_by_num_kernels include_call_stack capture_folder= help version quiet inference
output_html_path='
	unimpl='comparison_json_path= extension_file= python_path= gpu_arch_platform=
enable-origami comparison_capture_folder= include_overlap_info'
fi


trace='' xlsx='' csvdir='' targs='' rargs='' verbose=1 trace_set='' html=''

# A number argparse's int() accepts (TraceLens's options are typed int).
int_arg() {
	case $2 in
	''|*[!0-9+-]*|?*[+-]*) bad "argument --$1: invalid int value: '$2'" ;;
	esac
}

while [ $# -gt 0 ]; do
	arg=$1
	shift
	case $arg in
	--?*)
		name=${arg#--}
		hasval=
		case $name in
		*=*)
			val=${name#*=}
			name=${name%%=*}
			hasval=1
			;;
		esac
		opt_exact "$name" "$longopts $unimpl"
		if [ -z "$match" ]; then
			opt_prefix "$name" "$longopts $unimpl"
			[ $n -eq 0 ] && bad "unrecognized arguments: $arg"
			[ $n -gt 1 ] && bad "ambiguous option: --$name could match $cands"
		fi
		opt=${match%=}
		for o in $unimpl; do
			[ "$o" = "$match" ] || continue
			case $opt in
			group_by_parent_module|capture_folder)
				bad "--$opt: an option of TraceLens's inference report (TraceLens_generate_perf_report_pytorch_inference): add --inference" ;;
			esac
			unimpl_why "$opt"
			bad "--$opt: TraceLens's option is not implemented by ttp: $why"
		done
		case $match in
		*=)
			if [ -z "$hasval" ]; then
				[ $# -gt 0 ] || bad "argument --$opt: expected one argument"
				val=$1
				case $val in
				-[0-9]*) ;;
				-*)
					# as argparse; but a file of that name gets a hint
					[ -e "$val" ] && bad "argument --$opt: expected one argument ('$val' looks like an option: for the file, write --$opt=$val or ./$val)"
					bad "argument --$opt: expected one argument" ;;
				esac
				shift
			fi
			;;
		*)
			[ -n "$hasval" ] && bad "argument --$opt: ignored explicit argument '$val'"
			;;
		esac
		quote "$val"
		case $opt in
		profile_json_path) trace=$val; trace_set=1 ;;
		output_xlsx_path) xlsx=$val ;;
		output_html_path)
			[ -n "$val" ] || bad "argument --output_html_path: an empty file name"
			html=$val ;;
		output_csvs_dir) csvdir=$val ;;
		include_unlinked_kernels) targs="$targs --include-unlinked-kernels" ;;
		micro_idle_thresh_us)
			int_arg "$opt" "$val"
			targs="$targs --micro-idle-thresh-us=$qv"
			;;
		disable_coll_analysis) targs="$targs --no-coll-analysis" ;;
		enable_kernel_summary) ksum=1 ;;
		short_kernel_study) short=1 ;;
		short_kernel_threshold_us)
			int_arg "$opt" "$val"
			targs="$targs --short-kernel-threshold-us=$qv"
			;;
		short_kernel_histogram_bins)
			int_arg "$opt" "$val"
			targs="$targs --short-kernel-bins=$qv"
			;;
		topk_short_kernels)
			int_arg "$opt" "$val"
			targs="$targs --topk-short-kernels=$qv"
			;;
		topk_ops|topk_roofline_ops)
			int_arg "$opt" "$val"
			notes="$notes--$opt changes no sheet (TraceLens parses it and never uses it)
"
			;;
		gpu_arch_json_path) rargs="$rargs --spec=$qv" ;;
		inference_phase_analysis) phases=1 ;;
		phase_detection_method)
			case $val in
			union|hybrid) method=$val ;;
			gemm_params) method=gemm-params ;;
			kernel_names) method=kernel-names ;;
			attention_patterns) method=attention ;;
			framework_apis) method=framework ;;
			operation_frequency) method=frequency ;;
			steps) method=steps ;;
			*) bad "argument --phase_detection_method: invalid choice: '$val' (choose from 'union', 'gemm_params', 'kernel_names', 'attention_patterns', 'framework_apis', 'operation_frequency', 'hybrid', 'steps')" ;;
			esac
			;;
		decode_threshold)
			int_arg "$opt" "$val"
			case $val in
			-*) bad "argument --decode_threshold: ttp needs a threshold of 0 or more: '$val'" ;;
			esac
			pargs="$pargs --threshold=${val#+}"
			;;
		disable_plots) noplots=1 ;;
		generate_plots) ;;
		plot_format)
			case $val in
			png|pdf|svg) plotfmt=$val ;;
			*) bad "argument --plot_format: invalid choice: '$val' (choose from 'png', 'pdf', 'svg')" ;;
			esac
			;;
		plot_dpi) int_arg "$opt" "$val"; plotdpi=$val ;;
		inference) targs="$targs --inference" ;;
		group_by_parent_module) targs="$targs --group-by-parent-module"; python=1 ;;
		group_by_num_kernels) targs="$targs --group-by-num-kernels" ;;
		include_call_stack) targs="$targs --include-call-stack"; python=1 ;;
		capture_folder) capture=$val; python=1 ;;
		enable_pseudo_ops) targs="$targs --pseudo-ops"; rargs="$rargs --pseudo-ops"; python=1 ;;
		help) [ -n "$inference" ] && { usage_inference; exit 0; }; usage; exit 0 ;;
		version) echo "$prog $version"; exit 0 ;;
		quiet) verbose= ;;
		esac
		;;
	-h) [ -n "$inference" ] && { usage_inference; exit 0; }; usage; exit 0 ;;
	-V) echo "$prog $version"; exit 0 ;;
	-q) verbose= ;;
	*) bad "unrecognized arguments: $arg" ;;
	esac
done

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
if [ -n "$csvdir" ]; then
	quote "$csvdir"
	targs="$targs --csv-dir=$qv"
	out=$csvdir
else
	# TraceLens: the trace's path up to its last ".json", plus "_perf_report.xlsx"
	if [ -z "$xlsx" ]; then
		case $trace in
		*.json*) xlsx=${trace%.json*}_perf_report.xlsx ;;
		*) xlsx=${trace}_perf_report.xlsx ;;
		esac
	fi
	quote "$xlsx"
	targs="$targs --xlsx=$qv"
	out=$xlsx
fi
if [ -n "$html" ]; then
	# ttp's own: the sheets and charts as one HTML page (ttp-table --html)
	quote "$html"
	targs="$targs --html=$qv"
	out="$out and $html"
fi
[ -n "$verbose" ] && [ -n "${notes:-}" ] && printf '%s: %s' "$prog" "$notes" >&2

if [ ! -r "$trace" ]; then
	if [ -e "$trace" ]; then
		printf '%s: %s: Permission denied\n' "$prog" "$trace" >&2
	else
		printf '%s: %s: No such file or directory\n' "$prog" "$trace" >&2
	fi
	exit 1
fi

# TraceLens's training report reads no step annotation: its inference-engine attention
# ops get no figures
[ -n "$inference" ] || rargs="$rargs --no-step-counts"
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
if [ -z "$csvdir" ] && [ "$xlsx" -ef "$trace" ]; then
	bad "--output_xlsx_path $xlsx: that file is the trace (--profile_json_path); writing it would destroy the trace (give another output name)"
fi
if [ -n "$html" ] && [ "$html" -ef "$trace" ]; then
	bad "--output_html_path $html: that file is the trace (--profile_json_path); writing it would destroy the trace (give another output name)"
fi
targs="$targs --protect=$trace_q"

# Each stage leaves its exit status in a file (dash has no pipefail); a stage that fails
# sends a line that is not a record down the pipe, so that ttp-table writes nothing. A
# CSV for the trace is refused by ttp-parse --expect json: it is ttp-report's.
tmp_init
run_stages '' "$parse --expect=json -q${python:+ -p} -- $trace_q" "$roofline$rargs" \
    "$phase" "$table$targs --print-summary"
[ "$rc" -eq 0 ] && [ -n "$verbose" ] && printf '%s: wrote %s\n' "$prog" "$out" >&2
exit "$rc"
