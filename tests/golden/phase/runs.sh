#!/bin/sh
# Summarise ttp-phase output for the golden cases: one line per run of consecutive ops
# with the same phase and iter ("FIRST-LAST phase [iter N] (K ops)", ids), one line per
# signpost record, and any other record in full (the "trace" member, which every record
# has, left out; the leading "trace" record as {"kind":"trace"}). Needs no jq.
sed -e 's/^{"kind":"trace",.*/{"kind":"trace"}/' \
    -e 's/^{"kind":"\([a-z]*\)","trace":"[a-z]*",/{"kind":"\1",/' \
    -e 's/^{"kind":"op","id":\([0-9]*\),.*"phase":"\([^"]*\)","iter":\([0-9]*\)}$/op	\1	\2	\3/' \
    -e 's/^{"kind":"op","id":\([0-9]*\),.*"phase":"\([^"]*\)"}$/op	\1	\2	/' \
    -e 's/^{"kind":"signpost","id":\([0-9]*\),.*"name":"\([^"]*\)".*/sp	\1	\2	/' "$@" |
awk -F '\t' '
function flush() {
	if (prev != "")
		printf "%s-%s %s (%d op%s)\n", first, last, prev, n, n == 1 ? "" : "s"
	prev = ""
}
$1 == "op" {
	k = $3 ($4 != "" ? " iter " $4 : "")
	if (k != prev) { flush(); first = $2; prev = k; n = 0 }
	last = $2; n++
	next
}
{ flush(); if ($1 == "sp") print "signpost " $2 ": " $3; else print "record: " $0 }
END { flush() }'
