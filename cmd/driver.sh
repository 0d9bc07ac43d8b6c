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
