#!/bin/sh
# The layer rule of lib/ (DESIGN.md, Layout), checked by make lint and make check:
# core includes no other layer; tt and torch never include each other; jax includes
# only core.
# Prints each offending #include as file:line and exits 1 when there is one.
cd "$(dirname "$0")/.." || exit 2
bad=$(
	grep -Hn '#include "[a-z]*/' lib/core/*.[ch] include/core/*.h 2>/dev/null | grep -v '#include "core/'
	grep -Hn '#include "torch/' lib/tt/*.[ch] include/tt/*.h 2>/dev/null
	grep -Hn '#include "tt/' lib/torch/*.[ch] include/torch/*.h 2>/dev/null
	grep -Hn '#include "[a-z]*/' lib/jax/*.[ch] include/jax/*.h 2>/dev/null |
	    grep -v '#include "\(core\|jax\)/'
)
if [ -n "$bad" ]; then
	echo "layers: an include crosses the layer rule (core: none; tt and torch: not each other):" >&2
	echo "$bad" >&2
	exit 1
fi
echo "layers: include rule kept"
