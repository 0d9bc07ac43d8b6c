# SPDX-License-Identifier: ISC
# badrec.sh PROG [ARGS...]: runs a record-reading program on the malformed-NDJSON corpus
# and prints, per input, its name, exit status and stderr (stdout only counted).
# Every input begins with one good op record, so a program must fail at line 2.
# The big inputs (200,000 levels of nesting, a 50 MB line) are generated here.
good='{"kind":"op","id":2,"src":"t.csv:2","op":"A","op_type":"tt_dnn_device","device":0,"device_ns":1000,"fmt":"v2"}'
mk() {	# mk NAME LINE2 (printf format, no newline added)
	{ printf '%s\n' "$good"; printf "$2"; } >"$1"
}
mk not-json 'hello\n'
mk truncated '{"kind":"op","id":3,"op":"A'
mk not-object '[1,2,3]\n'
mk string '"op"\n'
mk nan '{"kind":"op","id":3,"device_ns":NaN}\n'
mk inf '{"kind":"op","id":3,"device_ns":-Infinity}\n'
mk id-string '{"kind":"op","id":"x","op":"A","device":0,"device_ns":5}\n'
mk device-ns-string '{"kind":"op","id":3,"op":"A","device":0,"device_ns":"12"}\n'
mk device-string '{"kind":"op","id":3,"op":"A","device":"0","device_ns":12}\n'
mk kind-int '{"kind":7,"id":3}\n'
mk duplicate-key '{"kind":"op","id":3,"id":4}\n'
mk bad-utf8 '{"kind":"op","id":3,"op":"\377"}\n'
mk nul-byte '{"kind":"op","id":3,"op":"A\000"}\n'
awk 'BEGIN { s = "{\"kind\":\"op\",\"id\":3,\"x\":"; for (i = 0; i < 200000; i++) s = s "["; print s }' >deep.body
{ printf '%s\n' "$good"; cat deep.body; } >deep; rm deep.body
# 50 MB: an op whose name is 50,000,000 bytes. Valid; it must come through (or be
# counted) without trouble, in bounded time.
awk 'BEGIN { s = "x"; while (length(s) < 50000000) s = s s; s = substr(s, 1, 50000000);
	printf "{\"kind\":\"op\",\"id\":3,\"op\":\"%s\",\"op_type\":\"tt_dnn_device\",\"device\":0,\"device_ns\":7,\"fmt\":\"v2\"}\n", s }' >big.body
{ printf '%s\n' "$good"; cat big.body; } >big-line; rm big.body
for f in not-json truncated not-object string nan inf id-string device-ns-string \
    device-string kind-int duplicate-key bad-utf8 nul-byte deep big-line; do
	n=$({ "$@" "$f" 2>err; echo $? >rc; } | wc -c | tr -d ' ')
	echo "== $f: rc=$(cat rc), stdout $n bytes"
	# Long messages (a 50 MB op name quoted back) are cut.
	cut -c1-200 err
done
