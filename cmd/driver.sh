# driver.sh: what the drivers (ttp-report, ttp-tracelens) share. Not a program: the
# Makefile copies it into each driver at the line '#include driver.sh', so an installed
# driver stands alone. The driver sets $prog before it.

# Usage error: message, hint, exit 2.
bad() {
	printf '%s: %s\n' "$prog" "$1" >&2
	printf "Try '%s --help' for more information.\n" "$prog" >&2
	exit 2
}

# qv=the value of $1 quoted for eval.
quote() {
	_s=$1 _r=
	while :; do
		case $_s in
		*\'*)
			_r="$_r${_s%%\'*}'\\''"
			_s=${_s#*\'}
			;;
		*)
			_r="$_r$_s"
			break
			;;
		esac
	done
	qv="'$_r'"
}

# Long options, as Python's argparse finds them. A set is a list of names, each with a
# trailing '=' when it takes an argument.
# opt_exact NAME SET: match=the entry of SET that is NAME, else empty.
opt_exact() {
	match=
	for _o in $2; do
		if [ "${_o%=}" = "$1" ]; then
			match=$_o
			return
		fi
	done
}
# opt_prefix NAME SET: n=how many entries of SET start with NAME, match=the last of them,
# cands=their names as a message lists them ("--a, --b").
opt_prefix() {
	n=0 cands= match=
	for _o in $2; do
		case ${_o%=} in
		"$1"*)
			n=$((n + 1))
			match=$_o
			cands="$cands${cands:+, }--${_o%=}"
			;;
		esac
	done
}

# --- the command line: one table, one loop ---------------------------------------------
#
# A driver declares its options once, in $opttab, one line per option (blank lines and
# lines that start with # are left out):
#   NAME  ARG  SHORT  WHERE  KIND  TARGET
# NAME    the long name, without --
# ARG     '-' a flag; '=' takes a value; '#' takes an integer (as Python's int(): a sign,
#         then digits)
# SHORT   its one-letter form, or '-'
# WHERE   the entry points that accept it, a letter each (the driver's choice): upper
#         case where ttp implements it, lower case where the reference tool has it and
#         ttp refuses it (opt_refuse says why)
# KIND    'ref' (the reference tool's option) or 'own' (ttp's)
# TARGET  what it does: VAR (a flag sets VAR=1; a value sets VAR and VAR_set=1),
#         VAR=V (sets VAR to V, which may be empty), VAR+ (appends --NAME, or
#         --NAME='VALUE', to VAR: options passed on to a stage), @FUNC (calls
#         FUNC NAME VALUE, qv the value quoted), or - (accepted, nothing to do)
# and sets:
# opt_style  argparse (TraceLens's drivers: argparse's messages, no positional argument,
#            one short option per argument) or getopt (short options bundled, positional
#            arguments and those after '--' given to the function $opt_args)
# opt_tiers  1: a prefix is tried against the 'ref' options first, so that an
#            abbreviation that worked with the reference tool keeps its meaning
# and defines opt_refuse NAME (why=the message for a refused option, after "--NAME: ").
# opt_parse ENTRY ARG... then reads the command line; every error is a usage error (bad).

# opt_select E: opt_all=entry point E's options (either case), in the table's order, each
# with a trailing '=' when it takes a value; opt_ref=those of kind ref; opt_e=E, opt_lc=E
# in lower case.
opt_select() {
	opt_all= opt_ref= opt_e=$1
	opt_lc=$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')
	_ifs=$IFS
	IFS='
'
	set -f
	for _l in $opttab; do
		IFS=$_ifs
		# shellcheck disable=SC2086
		set -- $_l
		case ${1:-#} in \#*) continue ;; esac
		case $4 in *"$opt_e"* | *"$opt_lc"*) ;; *) continue ;; esac
		_n=$1
		[ "$2" = - ] || _n="$_n="
		opt_all="$opt_all $_n"
		[ "$5" = ref ] && opt_ref="$opt_ref $_n"
	done
	IFS=$_ifs
	set +f
}

# opt_row NAME|-C: the row of the long option NAME (or of the short option C) at the
# entry point opt_select chose: opt=its name, o_arg, o_target, and o_on=1 where ttp
# implements it. False when there is none.
opt_row() {
	_want=$1 _ifs=$IFS
	IFS='
'
	set -f
	for _l in $opttab; do
		IFS=$_ifs
		# shellcheck disable=SC2086
		set -- $_l
		case ${1:-#} in \#*) continue ;; esac
		case $_want in
		-?) [ "$3" != - ] && [ "-$3" = "$_want" ] || continue ;;
		*) [ "$1" = "$_want" ] || continue ;;
		esac
		case $4 in
		*"$opt_e"*) o_on=1 ;;
		*"$opt_lc"*) o_on= ;;
		*) continue ;;
		esac
		opt=$1 o_arg=$2 o_target=$6
		IFS=$_ifs
		set +f
		return 0
	done
	IFS=$_ifs
	set +f
	return 1
}

# opt_err WHAT ARG [X]: the usage error WHAT in the driver's style: unknown (ARG the
# argument as given, X the option in it), ambiguous (ARG the name given), noval (ARG the
# option, X the argument that is not its value), explicit (ARG the option, X the value).
opt_err() {
	case $opt_style:$1 in
	argparse:unknown) bad "unrecognized arguments: $2" ;;
	getopt:unknown)
		_m=$3
		[ "$3" = "${2%%=*}" ] || _m="$3 in $2"
		[ -e "$2" ] && bad "unrecognized option: $_m; to read the file $2, write ./$2 or put -- before it"
		bad "unrecognized option: $3" ;;
	*:ambiguous) bad "ambiguous option: --$2 could match $cands" ;;
	argparse:noval) _m="argument --$2: expected one argument" ;;
	getopt:noval) _m="option --$2 requires an argument" ;;
	argparse:explicit) bad "argument --$2: ignored explicit argument '$3'" ;;
	getopt:explicit) bad "option --$2 does not take an argument" ;;
	esac
	# a value that looks like an option, and is a file: say how to give it
	[ -n "${3:-}" ] && [ -e "$3" ] &&
	    bad "$_m ('$3' looks like an option: for the file, write --$2=$3 or ./$3)"
	bad "$_m"
}

# opt_find NAME: match=the table's entry (NAME, NAME=) that NAME names, exactly or as a
# unique prefix; else a usage error.
opt_find() {
	opt_exact "$1" "$opt_all"
	[ -n "$match" ] && return
	if [ -n "${opt_tiers:-}" ]; then
		opt_prefix "$1" "$opt_ref"
		[ "$n" -gt 1 ] && opt_err ambiguous "$1"
		[ -n "$match" ] && return
	fi
	opt_prefix "$1" "$opt_all"
	[ "$n" -gt 1 ] && opt_err ambiguous "$1"
	[ -n "$match" ] || opt_err unknown "$arg" "--$1"
}

# int_arg NAME VALUE: VALUE is an integer as Python's int() reads one, else a usage error.
int_arg() {
	case $2 in
	'' | *[!0-9+-]* | ?*[+-]*) bad "argument --$1: invalid int value: '$2'" ;;
	esac
}

# opt_do VALUE: what the row found (opt, o_arg, o_target) says to do with VALUE.
opt_do() {
	case $o_target in
	-) ;;
	@*)
		quote "$1"
		${o_target#@} "$opt" "$1"
		;;
	*+)
		if [ "$o_arg" = - ]; then
			eval "${o_target%+}=\"\$${o_target%+} --$opt\""
		else
			quote "$1"
			eval "${o_target%+}=\"\$${o_target%+} --$opt=\$qv\""
		fi
		;;
	*=*) eval "${o_target%%=*}=\${o_target#*=}" ;;
	*)
		if [ "$o_arg" = - ]; then
			eval "$o_target=1"
		else
			eval "$o_target=\$1 ${o_target}_set=1"
		fi
		;;
	esac
}

# opt_parse E ARG...: the command line ARG... at entry point E, by $opttab.
opt_parse() {
	_e=$1
	shift
	opt_select "$_e"
	while [ $# -gt 0 ]; do
		arg=$1
		shift
		case $arg in
		--)
			[ "$opt_style" = getopt ] || opt_err unknown "$arg"
			for _f; do
				$opt_args "$_f"
			done
			return
			;;
		--?*)
			name=${arg#--} hasval= val=
			case $name in
			*=*)
				val=${name#*=}
				name=${name%%=*}
				hasval=1
				;;
			esac
			opt_find "$name"
			opt_row "${match%=}"
			if [ -z "$o_on" ]; then
				why=
				opt_refuse "$opt"
				bad "--$opt: $why"
			fi
			if [ "$o_arg" = - ]; then
				[ -z "$hasval" ] || opt_err explicit "$opt" "$val"
			elif [ -z "$hasval" ]; then
				[ $# -gt 0 ] || opt_err noval "$opt"
				val=$1
				# as argparse: an option is no value, but '-' and a negative number are
				case $val in
				- | -[0-9]* | -.[0-9]*) ;;
				-*) opt_err noval "$opt" "$val" ;;
				esac
				shift
			fi
			[ "$o_arg" = '#' ] && int_arg "$opt" "$val"
			opt_do "$val"
			;;
		-?*)
			_sb=${arg#-}
			if [ "$opt_style" = argparse ]; then
				case $_sb in ?) ;; *) opt_err unknown "$arg" ;; esac
			fi
			# short options, bundled (getopt) or one (argparse)
			while [ -n "$_sb" ]; do
				_sr=${_sb#?}
				_sc=${_sb%"$_sr"}
				_sb=$_sr
				if ! opt_row "-$_sc" || [ -z "$o_on" ]; then
					opt_err unknown "$arg" "-$_sc"
				fi
				opt_do ''
			done
			;;
		*)
			[ "$opt_style" = getopt ] || opt_err unknown "$arg"
			$opt_args "$arg"
			;;
		esac
	done
}

# stage NAME: qv=the quoted path of the stage NAME, next to the driver first, then PATH.
here=$(dirname -- "$0")
stage() {
	if [ -x "$here/$1" ] && [ ! -d "$here/$1" ]; then
		quote "$here/$1"
	elif command -v "$1" >/dev/null 2>&1; then
		quote "$(command -v "$1")"
	else
		printf '%s: cannot find %s (looked in %s and PATH)\n' "$prog" "$1" "$here" >&2
		exit 1
	fi
}

# --- temporary directory, signals and the pipeline --------------------------------------
#
# tmp_init: tmp=a new temporary directory, removed at exit. HUP, INT and TERM end the
# driver as they would any program (status 128+signal), after removing tmp and killing
# every stage of a running pipeline: no stage survives, so none writes an output later.
tmp= pgrp=
tmp_cleanup() {
	if [ -n "$pgrp" ]; then
		# the pipeline's process group (setsid), and its leader in case it has not
		# reached setsid yet; then wait (up to 5 s) until none of them is left, so
		# that none creates a file in tmp after it is removed
		kill -s TERM -- "-$pgrp" "$pgrp" 2>/dev/null
		wait "$pgrp" 2>/dev/null
		_w=0
		while kill -s 0 -- "-$pgrp" 2>/dev/null && [ "$_w" -lt 100 ]; do
			sleep 0.05
			_w=$((_w + 1))
		done
		pgrp=
	fi
	[ -z "$tmp" ] || rm -rf "$tmp"
	tmp=
}
# on_signal NAME NUMBER
on_signal() {
	trap '' HUP INT TERM
	tmp_cleanup
	trap - EXIT "$1"
	kill -s "$1" $$
	exit $((128 + $2))
}
tmp_init() {
	trap tmp_cleanup EXIT
	trap 'on_signal HUP 1' HUP
	trap 'on_signal INT 2' INT
	trap 'on_signal TERM 15' TERM
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$prog.XXXXXX") || exit 1
}

# die_pipe: the driver's standard output is a closed pipe: end as a stage killed by
# SIGPIPE would (status 141), also when SIGPIPE is ignored.
die_pipe() {
	tmp_cleanup
	trap - EXIT PIPE
	kill -s PIPE $$ 2>/dev/null
	exit 141
}

# run_stages OUT STAGE...: runs STAGE | STAGE | ... (each a command line for eval) with
# the last stage's standard output to the file OUT (empty: the driver's), the driver's
# standard input to the first. Each stage's messages go to a file of their own and its
# exit status to another; a stage that fails sends a line that is not a record down the
# pipe, so every later stage fails too and ttp-table writes no file. The stages run in a
# session of their own (setsid), so that a signal to the driver kills them all (tmp_init).
# Then: rc=the status of the first stage that failed on its own (a stage killed by
# SIGPIPE, 141, failed only because a later one stopped reading: it counts only when
# nothing else failed), and the messages of every stage up to that one are shown (what
# the later ones said is only a consequence).
run_stages() {
	_out=$1
	shift
	quote "$tmp"
	_t=$qv
	quote "$prog: an earlier stage failed"
	_p=$qv
	_pl= _n=0
	for _st; do
		_n=$((_n + 1))
		if [ "$_n" -lt $# ]; then
			_pl="$_pl{ $_st 2>$_t/e$_n; s=\$?; echo \$s >$_t/$_n;
	case \$s in 0|141) ;; *) printf '%s\\n' $_p ;; esac; } | "
		elif [ -n "$_out" ]; then
			quote "$_out"
			_pl="$_pl{ $_st >$qv 2>$_t/e$_n; echo \$? >$_t/$_n; }"
		else
			_pl="$_pl{ $_st 2>$_t/e$_n; echo \$? >$_t/$_n; }"
		fi
	done
	_ss=
	command -v setsid >/dev/null 2>&1 && _ss=setsid
	# an asynchronous list reads /dev/null unless told otherwise: give it ours (closed
	# when it is closed)
	if { : <&0; } 2>/dev/null; then
		{ $_ss /bin/sh -c "$_pl" <&3 3<&- & } 3<&0
	else
		$_ss /bin/sh -c "$_pl" <&- &
	fi
	pgrp=$!
	wait "$pgrp"
	pgrp=
	rc=0 _piped=0 _failed=0 _i=0
	while [ "$_i" -lt "$_n" ]; do
		_i=$((_i + 1))
		_s=$(cat "$tmp/$_i" 2>/dev/null) || _s=1
		case $_s in
		0) ;;
		141) [ "$_piped" -eq 0 ] && _piped=141 ;;
		*) rc=$_s; _failed=$_i; break ;;
		esac
	done
	[ "$rc" -eq 0 ] && rc=$_piped
	_i=0
	while [ "$_i" -lt "$_n" ]; do
		_i=$((_i + 1))
		cat "$tmp/e$_i" >&2 2>/dev/null
		[ "$_i" -eq "$_failed" ] && break
	done
}
