#!/bin/sh
# The layer rule of lib/ (DESIGN.md, Layout; docs/HACKING.md, Layers), checked by make lint
# and make check:
#   core                 includes only core;
#   tt, torch, jax, ...  (every other folder of lib/ but phase and report: one input
#                        format each) include only core and their own layer;
#   phase, report        include any layer's header but a format reader's (READERS);
#   a private header     (one in lib/LAYER/, not include/) is included by its bare name
#                        from its own folder only; no include climbs with "..".
# Prints each offending #include as file:line and exits 1 when there is one.
cd "$(dirname "$0")/.." || exit 2

# The headers of the format readers: what turns a trace file into records. Only the
# programs (cmd/) and the readers' own layers include them.
READERS='tt/ttmetal.h tt/mlirloc.h torch/kineto.h torch/capture.h jax/xplane.h jax/xsrc.h jax/hlo.h'

# includes LAYER: every quoted #include of the layer's sources and public headers, as
# file:line:text.
includes() {
	grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' lib/"$1"/*.[ch] include/"$1"/*.h 2>/dev/null
}

bad=$(
	for dir in lib/*/; do
		l=${dir#lib/}; l=${l%/}
		case $l in
		core)
			includes core | grep -v '#[[:space:]]*include[[:space:]]*"core/' |
			    grep '#[[:space:]]*include[[:space:]]*"[^"]*/'
			;;
		phase|report)
			for r in $READERS; do
				includes "$l" | grep -F "\"$r\""
			done
			;;
		*)
			includes "$l" | grep '#[[:space:]]*include[[:space:]]*"[^"]*/' |
			    grep -v "#[[:space:]]*include[[:space:]]*\"\\(core\\|$l\\)/"
			;;
		esac
		# A bare name must be a header beside the including file.
		includes "$l" | grep -v '#[[:space:]]*include[[:space:]]*"[^"]*/' |
		while IFS= read -r line; do
			f=${line%%:*}
			h=${line#*\"}; h=${h%%\"*}
			[ -f "${f%/*}/$h" ] || echo "$line"
		done
	done
	grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.\./' \
	    lib/*/*.[ch] include/*/*.h cmd/*.c tests/unit/*.c tests/fuzz/*.c 2>/dev/null
	# A private header of lib/ by a layer path (it is not under include/, so this only
	# finds one when someone adds -Ilib).
	for p in lib/*/*.h; do
		[ -f "$p" ] || continue
		grep -Hn "#[[:space:]]*include[[:space:]]*\"${p#lib/}\"" \
		    lib/*/*.[ch] include/*/*.h cmd/*.c tests/unit/*.c tests/fuzz/*.c 2>/dev/null
	done
)
if [ -n "$bad" ]; then
	echo "layers: an include crosses the layer rule (core: core only; tt, torch, jax: core" >&2
	echo "and their own; phase and report: no reader ($READERS);" >&2
	echo "private headers: by bare name, beside the includer):" >&2
	echo "$bad" >&2
	exit 1
fi
echo "layers: include rule kept"
