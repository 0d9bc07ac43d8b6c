#!/bin/sh
# skipbad-mix.sh STREAM KIND STAGE...: the good records of STREAM (a record stream,
# KIND tt or kineto) come out of STAGE --skip-bad unchanged whatever bad records are
# mixed in. Each bad record of KIND's list goes in at several places (the first line,
# after the trace record, the middle, the last line); the stage's output (stdout) on the
# mixed stream must equal (cmp) its output on STREAM, with exit 0 and one "skipped"
# warning. A record that is in order at a place (a large id last, an early time right
# after the trace record) is not bad there and is not put there. One line per stage and
# bad record: "ok" or what differed.
stream=$1 kind=$2
shift 2
n=$(wc -l < "$stream")
mid=$((n / 2))
trace=$(sed -n 1p "$stream")
if [ "$kind" = tt ]; then
	t='"trace":"ttmetal"'
	bad() {
		printf '%s\n' \
		    'not-json {"kind":"op","trace":"ttmetal","id":' \
		    'not-object [1,2]' \
		    "id-type {\"kind\":\"op\",$t,\"id\":\"x\",\"op\":\"X\",\"op_type\":\"tt_dnn_device\",\"device\":0}" \
		    "kind-type {\"kind\":5,$t,\"id\":5}" \
		    "no-id {\"kind\":\"op\",$t,\"op\":\"X\",\"op_type\":\"tt_dnn_device\",\"device\":0}" \
		    "large-id:last {\"kind\":\"op\",$t,\"id\":1000000,\"op\":\"X\",\"op_type\":\"tt_dnn_device\",\"device\":0,\"device_ns\":5}" \
		    "repeated-id {\"kind\":\"op\",$t,\"id\":3,\"op\":\"X\",\"op_type\":\"tt_dnn_device\",\"device\":0,\"device_ns\":5}" \
		    "trace-copy $trace" \
		    "stray-signpost {\"kind\":\"signpost\",$t,\"id\":1000001,\"name\":\"stray\"}"
	}
else
	t='"trace":"kineto"'
	bad() {
		printf '%s\n' \
		    'not-json {"kind":"op","trace":"kineto","id":' \
		    'not-object [1,2]' \
		    "id-type {\"kind\":\"op\",$t,\"id\":\"x\",\"op\":\"aten::mm\",\"host_start_ns\":1}" \
		    "kind-type {\"kind\":5,$t,\"id\":5}" \
		    "late-op:last {\"kind\":\"op\",$t,\"id\":100000,\"op\":\"aten::mm\",\"host_start_ns\":9000000000000000000}" \
		    "early-op:second {\"kind\":\"op\",$t,\"id\":100001,\"op\":\"aten::mm\",\"host_start_ns\":1}" \
		    "trace-copy $trace" \
		    "stray-signpost {\"kind\":\"signpost\",$t,\"id\":100002,\"name\":\"stray\",\"host_start_ns\":9000000000000000000}"
	}
fi
for stage in "$@"; do
	$stage < "$stream" > clean 2>/dev/null || echo "$stage: the clean stream fails"
	bad | while read -r what rec; do
		res=ok
		not=${what#*:}
		what=${what%%:*}
		for at in first second middle last; do
			[ "$at" = "$not" ] && continue
			case $at in
			first) { printf '%s\n' "$rec"; cat "$stream"; } ;;
			second) { sed -n 1p "$stream"; printf '%s\n' "$rec"; sed 1d "$stream"; } ;;
			middle) { sed -n "1,${mid}p" "$stream"; printf '%s\n' "$rec"
			    sed "1,${mid}d" "$stream"; } ;;
			last) { cat "$stream"; printf '%s\n' "$rec"; } ;;
			esac > mixed
			$stage --skip-bad < mixed > out 2> err
			rc=$?
			if [ $rc != 0 ]; then
				res="$res; $at: exit $rc: $(tail -n 1 err)"
			elif ! cmp -s out clean; then
				res="$res; $at: output differs"
			elif ! grep -q 'skipped 1 bad record$' err; then
				res="$res; $at: $(tail -n 1 err)"
			fi
		done
		echo "$stage, $what: $res"
	done
done
