/* SPDX-License-Identifier: ISC */
/* Unit tests for mlirloc: every MLIR location form tt-mlir and tt-torch write. */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "tt/mlirloc.h"

static struct mlirloc l;

/* The parse as one line: "file|line|col|name|frame;frame;..." or "ERR at N: msg". */
static const char *
show(const char *s)
{
	static char out[1024];
	const char *err;
	size_t at, k;

	if (mlirloc_parse(&l, s, strlen(s), &err, &at) != 0) {
		snprintf(out, sizeof(out), "ERR at %zu: %s", at, err);
		return out;
	}
	snprintf(out, sizeof(out), "%s|%lld|%lld|%s|", l.file ? l.file : "-", l.line, l.col,
	    l.name ? l.name : "-");
	for (k = 0; k < l.nframes; k++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", k ? ";" : "",
		    l.frames[k]);
	return out;
}

static const char *
meta(const char *s)
{
	static char out[256];
	const char *err;
	size_t at;
	long long prog, loop;

	if (mlir_program_meta(s, strlen(s), &prog, &loop, &err, &at) != 0)
		snprintf(out, sizeof(out), "ERR at %zu: %s", at, err);
	else
		snprintf(out, sizeof(out), "%lld %lld", prog, loop);
	return out;
}

int
main(void)
{
	char deep[4096];
	size_t i;

	mlirloc_init(&l);
	is_str(show("loc(unknown)"), "-|0|-1|-|", "unknown: no frames");
	is_str(show("loc( unknown )"), "-|0|-1|-|", "spaces inside loc()");
	is_str(show("loc(\"/a/test.py\":60:4)"), "/a/test.py|60|4|-|/a/test.py:60:4",
	    "file:line:col");
	is_str(show("loc(\"m.mlir\":17)"), "m.mlir|17|-1|-|m.mlir:17", "file:line");
	is_str(show("loc(\"m.mlir\":3:5 to 4:2)"), "m.mlir|3|5|-|m.mlir:3:5", "range to line:col");
	is_str(show("loc(\"m.mlir\":3:5 to :9)"), "m.mlir|3|5|-|m.mlir:3:5", "range to :col");
	is_str(show("loc(\"add\")"), "-|0|-1|add|add", "name without child");
	is_str(show("loc(\"aten::add\"(\"t.py\":8:0))"), "t.py|8|0|aten::add|aten::add;t.py:8:0",
	    "name(child)");
	is_str(show("loc(fused[\"/path/tests/torch/test_basic.py\":60:0, \"add\"])"),
	    "/path/tests/torch/test_basic.py|60|0|add|/path/tests/torch/test_basic.py:60:0;add",
	    "fused[file, name] as tt-torch writes it");
	is_str(show("loc(fused<\"meta\"<1, [2]>>[\"a\", \"f.py\":1:2])"), "f.py|1|2|a|a;f.py:1:2",
	    "fused<metadata>[...]");
	is_str(show("loc(fused[])"), "-|0|-1|-|", "empty fused");
	is_str(show("loc(fused[unknown, \"x.py\":2:3])"), "x.py|2|3|-|x.py:2:3",
	    "unknown inside fused");
	is_str(show("loc(callsite(\"f\"(\"a.py\":1:2) at \"b.py\":3:4))"),
	    "a.py|1|2|f|f;a.py:1:2;b.py:3:4", "callsite: callee, then caller");
	is_str(show("loc(callsite(callsite(\"c.py\":5:1 at \"b.py\":6:1) at fused[\"m\", "
	    "\"a.py\":7:1]))"), "c.py|5|1|m|c.py:5:1;b.py:6:1;m;a.py:7:1",
	    "nested callsite and fused");
	is_str(show("loc(\"outer\"(\"inner\"(fused[\"x\"(\"y.py\":9:9)])))"),
	    "y.py|9|9|outer|outer;inner;x;y.py:9:9", "names nested in names");
	is_str(show("\"bare.py\":1:1"), "bare.py|1|1|-|bare.py:1:1", "without loc() wrapper");
	is_str(show("#loc12"), "-|0|-1|-|#loc12", "an alias is a frame");
	is_str(show("loc(\"q\\\"uote\\\\d\\0Ax\":1:2)"), "q\"uote\\d\nx|1|2|-|q\"uote\\d\nx:1:2",
	    "string escapes");
	is_str(show("loc(fused[\"a.py\":1:1, \"b.py\":2:2])"), "a.py|1|1|-|a.py:1:1;b.py:2:2",
	    "the first file frame wins");

	/* malformed */
	is_str(show(""), "ERR at 0: expected a location", "empty");
	is_str(show("loc("), "ERR at 4: expected a location", "loc( alone");
	is_str(show("loc(unknown"), "ERR at 11: expected ')'", "missing ')'");
	is_str(show("loc(\"abc"), "ERR at 8: unterminated string", "unterminated string");
	is_str(show("loc(\"a\":x)"), "ERR at 8: expected a line number", "line not a number");
	is_str(show("loc(\"a\":1:)"), "ERR at 10: expected a column number", "missing column");
	is_str(show("loc(fused[\"a\" \"b\"])"), "ERR at 14: expected ',' or ']'", "fused without comma");
	is_str(show("loc(callsite(\"a\" \"b\"))"), "ERR at 17: expected 'at'", "callsite without at");
	is_str(show("loc(unknown) extra"), "ERR at 13: unexpected text after the location",
	    "trailing text");
	is_str(show("location(x)"), "ERR at 0: expected a location", "not a location");
	is_str(show("loc(\"a\\q\":1:1)"), "ERR at 6: bad escape in a string", "bad escape");
	is_str(show("loc(\"a\":99999999999999:1)"), "ERR at 21: number too large", "huge line");
	ok(l.nframes == 0 && l.file == NULL, "a failed parse leaves no frames");
	for (i = 0; i < 100; i++)
		memcpy(deep + i * 4, "loc(", 4);
	strcpy(deep + 400, "unknown");
	for (i = 0; i < 100; i++)
		deep[407 + i] = ')';
	deep[507] = '\0';
	is_str(show(deep), "ERR at 260: locations nested too deeply", "depth is bounded");

	/* PROGRAM_METADATA */
	is_str(meta("{}"), "-1 -1", "empty dict");
	is_str(meta("{'program_index': 0, 'loop_number': 1}"), "0 1", "Python dict");
	is_str(meta(" { \"loop_number\" : 7 ; \"program_index\":2 } "), "2 7",
	    "double quotes, ';' as the CSV writer makes it, spaces");
	is_str(meta("{'name': 'forward', 'program_index': 3, 'x': None, 'y': [1]}"), "3 -1",
	    "other items skipped");
	is_str(meta("{'program_index': -1}"), "-1 -1", "a negative number is not an index");
	is_str(meta(""), "ERR at 0: expected '{'", "empty text");
	is_str(meta("{'program_index' 0}"), "ERR at 17: expected ':'", "missing ':'");
	is_str(meta("{program_index: 0}"), "ERR at 1: expected a quoted key", "bare key");
	is_str(meta("{'a': 1"), "ERR at 7: expected ',' or '}'", "unterminated dict");
	is_str(meta("{'a: 1}"), "ERR at 7: unterminated string", "unterminated key");
	is_str(meta("{} x"), "ERR at 3: unexpected text after the dict", "trailing text");
	is_str(meta("{'a\\"), "ERR at 4: unterminated string",
	    "a backslash at the end stays inside the text (found by fuzz_mlirloc)");

	/* reuse after an error */
	is_str(show("loc(\"r.py\":1:0)"), "r.py|1|0|-|r.py:1:0", "parses again after an error");
	mlirloc_free(&l);
	return tap_done();
}
