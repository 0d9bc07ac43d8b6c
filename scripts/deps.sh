#!/bin/sh
# Installs what ttp needs to build and test on Debian or Ubuntu, if it is missing, and
# says so. Usage: deps.sh [--check-only | --list] [--fuzz]
#   --check-only  exit 1 when something is missing, install nothing
#   --list        print what is missing, install nothing
#   --fuzz        also what `make fuzz` needs (clang and its libFuzzer runtime)
pkgs="libcsv-dev libjansson-dev libbsd-dev zlib1g-dev libxlsxwriter-dev pkg-config mandoc"
check=
list=
fuzz=
for a; do
	case $a in
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
missing=
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
