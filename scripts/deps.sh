#!/bin/sh
# Installs what ttp needs to build and test on Debian or Ubuntu, if it is missing, and
# says so. Usage: deps.sh [--check-only | --list | --probe] [--fuzz]
#   --check-only  exit 1 when something is missing, install nothing
#   --probe       ask the compiler ($CC with $CPPFLAGS, $LDFLAGS, $LIBS) whether the build's
#                 headers and libraries are there, wherever they are installed; on a miss,
#                 name them (and the Debian packages that hold them) and exit 1
#   --list        print what is missing, install nothing
#   --fuzz        also what `make fuzz` needs (clang and its libFuzzer runtime)
pkgs="libcsv-dev libjansson-dev libbsd-dev zlib1g-dev libxlsxwriter-dev libcairo2-dev fonts-dejavu-core pkg-config mandoc parallel"
check=
list=
fuzz=
probe=
for a; do
	case $a in
	--probe) probe=1 ;;
	--check-only) check=1 ;;
	--list) list=1 ;;
	--fuzz) fuzz=1 ;;
	esac
done
if [ -n "$fuzz" ]; then
	# clang's libFuzzer runtime: its package name carries the LLVM version, so take the
	# one that matches the clang installed (or the default clang Debian would install).
	pkgs="$pkgs clang"
	v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
	[ -n "$v" ] || v=$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9]*\)$/\1/p' | head -n 1)
	[ -n "$v" ] && pkgs="$pkgs libclang-rt-$v-dev"
fi
if [ -n "$probe" ]; then
	# header:package pairs; one compile and link of a program that includes them all
	hdrs="csv.h:libcsv-dev jansson.h:libjansson-dev bsd/libutil.h:libbsd-dev zlib.h:zlib1g-dev xlsxwriter.h:libxlsxwriter-dev cairo.h:libcairo2-dev cairo-ft.h:libcairo2-dev"
	t=$(mktemp -d "${TMPDIR:-/tmp}/ttp-probe.XXXXXX") || exit 1
	trap 'rm -rf "$t"' EXIT
	for h in $hdrs; do echo "#include <${h%%:*}>"; done >"$t/p.c"
	echo 'int main(void) { return 0; }' >>"$t/p.c"
	# shellcheck disable=SC2086
	${CC:-cc} $CPPFLAGS $LDFLAGS -o "$t/p" "$t/p.c" $LIBS 2>"$t/err" && exit 0
	miss=
	for h in $hdrs; do
		echo "#include <${h%%:*}>" | ${CC:-cc} $CPPFLAGS -E -x c - >/dev/null 2>&1 ||
			miss="$miss ${h%%:*} (${h#*:})"
	done
	if [ -n "$miss" ]; then
		echo "ttp: headers not found:$miss; run 'make deps' on Debian/Ubuntu, or install them and set CPPFLAGS" >&2
	else
		echo "ttp: the libraries do not link ($(grep -m 1 -i -e "cannot find" -e "undefined" "$t/err" || tail -n 1 "$t/err")); run 'make deps' on Debian/Ubuntu, or set LDFLAGS/LDLIBS" >&2
	fi
	exit 1
fi
missing=
command -v dpkg-query >/dev/null || {
	echo "ttp: make deps installs with Debian's apt-get; elsewhere install the libraries README.md's Building names" >&2
	exit 1
}
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
command -v python3 >/dev/null || missing="$missing python3"
[ -n "$list" ] && { echo "$missing"; exit 0; }
[ -z "$missing" ] && exit 0
[ -n "$check" ] && exit 1
echo "ttp: installing missing packages:$missing" >&2
if [ "$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; else
	echo "ttp: need root or sudo to install:$missing" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2 || exit 1
$sudo apt-get install -y -qq $missing >&2 || exit 1
