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
