/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for json: the tokenizer fed in every chunk size (the same tokens and offsets
 * whatever the refills), errors with their byte offsets, limits, skip and capture, the
 * escaper/unescaper, number text, and the builder.
 */
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "tap.h"

struct chunked {
	const char	*p;
	size_t		 n, off, chunk;
};

static size_t
read_chunk(void *ctx, char *b, size_t n)
{
	struct chunked *c = ctx;

	if (n > c->chunk)
		n = c->chunk;
	if (n > c->n - c->off)
		n = c->n - c->off;
	memcpy(b, c->p + c->off, n);
	c->off += n;
	return n;
}

static const char *const tname[] = {
	"END", "ERROR", "{", "}", "[", "]", "K", "S", "N", "T", "F", "null"
};

/* Every token as "type:text@offset " (decoded strings), or the error with its offset. */
static void
dump(struct js_reader *rd, struct buf *out)
{
	enum js_tok t;
	const char *s;
	size_t n;

	buf_reset(out);
	buf_adds(out, "");
	do {
		t = js_next(rd);
		if (t == JS_ERROR) {
			buf_printf(out, "error@%llu: %s", (unsigned long long)js_offset(rd),
			    js_error(rd));
			return;
		}
		buf_printf(out, "%s", tname[t]);
		if (t == JS_KEY || t == JS_STRING) {
			s = js_str(rd, &n);
			buf_addc(out, ':');
			buf_add(out, s, n);
		} else if (t == JS_NUMBER) {
			s = js_text(rd, &n);
			buf_addc(out, ':');
			buf_add(out, s, n);
		}
		if (t != JS_END)
			buf_printf(out, "@%llu ", (unsigned long long)js_offset(rd));
	} while (t != JS_END);
}

/* The dump of doc read at once, and whether every chunk size gives the same. */
static int
same_in_chunks(const char *doc, const char *want, const char *name)
{
	struct buf a = BUF_INIT;
	size_t n = strlen(doc), k;
	int good = 1;

	for (k = 1; k <= n + 1; k++) {
		struct chunked c = { doc, n, 0, k };
		struct js_reader *rd = js_open(read_chunk, &c);

		dump(rd, &a);
		js_close(rd);
		if (strcmp(a.p, want) != 0) {
			printf("# chunk %zu: got  %s\n#          want %s\n", k, a.p, want);
			good = 0;
			break;
		}
	}
	ok(good, "%s (all chunk sizes)", name);
	buf_free(&a);
	return good;
}

static void
test_tokens(void)
{
	same_in_chunks("{\"a\": [1, -2.5e+3, \"x\\ty\", true, false, null], \"b\":{}}",
	    "{@0 K:a@1 [@6 N:1@7 N:-2.5e+3@10 S:x\ty@19 T@27 F@33 null@40 ]@44 "
	    "K:b@47 {@51 }@52 }@53 END", "tokens, offsets, decoded strings");
	same_in_chunks("  \n[\"\\u00e9\\ud83d\\ude00\", \"\xc3\xa9\", \"a\\/b\\\\\"]\n",
	    "[@3 S:\xc3\xa9\xf0\x9f\x98\x80@4 S:\xc3\xa9@26 S:a/b\\@32 ]@40 END",
	    "unicode escapes, surrogate pairs, UTF-8");
	same_in_chunks("0", "N:0@0 END", "a bare number document");
	same_in_chunks("[1414456661859.938]", "[@0 N:1414456661859.938@1 ]@18 END",
	    "number text kept exact");
	same_in_chunks("{\"a\":1,}", "{@0 K:a@1 N:1@5 error@7: expected a string (member "
	    "name), got '}'", "trailing comma in an object");
	same_in_chunks("[1 2]", "[@0 N:1@1 error@3: expected ',' or ']', got '2'",
	    "missing comma");
	same_in_chunks("{\"a\" 1}", "{@0 K:a@1 error@5: expected ':', got '1'",
	    "missing colon");
	same_in_chunks("{\"a\":[1,2", "{@0 K:a@1 [@5 N:1@6 N:2@8 error@9: unexpected end "
	    "of input, expected ',' or ']'", "truncated document");
	same_in_chunks("[\"abc", "[@0 error@1: unterminated string", "unterminated string");
	same_in_chunks("[01]", "[@0 error@1: invalid number (leading zero)", "leading zero");
	same_in_chunks("[1.]", "[@0 error@3: expected a digit, got ']'", "number without fraction digits");
	same_in_chunks("[-]", "[@0 error@2: expected a digit, got ']'", "lone minus");
	same_in_chunks("[tru]", "[@0 error@1: bad literal (expected true)", "bad literal");
	same_in_chunks("[NaN]", "[@0 error@1: NaN is not a JSON value", "NaN");
	same_in_chunks("{} {}", "{@0 }@1 error@3: content after the end of the document",
	    "two documents");
	same_in_chunks("", "error@0: unexpected end of input (empty document)", "empty input");
	same_in_chunks("[\"a\x01\"]", "[@0 error@3: control character 0x01 in a string",
	    "control character in a string");
	same_in_chunks("[\"\\x\"]", "[@0 error@2: invalid escape in a string", "bad escape");
	same_in_chunks("[\"\\ud800x\"]", "[@0 error@2: lone surrogate \\uD800 in a string",
	    "lone high surrogate");
	same_in_chunks("[\"\xff\"]", "[@0 error@2: invalid UTF-8 in a string", "invalid UTF-8");
	same_in_chunks("{\"a\":1}]", "{@0 K:a@1 N:1@5 }@6 error@7: content after the end of "
	    "the document", "stray close");
}

static void
test_limits(void)
{
	struct buf a = BUF_INIT, doc = BUF_INIT;
	struct js_reader *rd;
	int i;

	for (i = 0; i < 300; i++)
		buf_addc(&doc, '[');
	rd = js_open_mem(doc.p, doc.len);
	dump(rd, &a);
	js_close(rd);
	ok(strstr(a.p, "error@256: nesting deeper than 256") != NULL, "depth limit");

	buf_reset(&doc);
	buf_adds(&doc, "[\"");
	for (i = 0; i < 3000; i++)
		buf_adds(&doc, "0123456789");
	buf_adds(&doc, "\"]");
	rd = js_open_mem(doc.p, doc.len);
	js_set_limits(rd, 1000, 0);
	dump(rd, &a);
	js_close(rd);
	ok(strcmp(a.p, "[@0 error@1: string longer than 1000 bytes") == 0,
	    "token limit: %s", a.p);
	rd = js_open_mem(doc.p, doc.len);
	dump(rd, &a);
	js_close(rd);
	ok(strncmp(a.p, "[@0 S:0123", 10) == 0 && strstr(a.p, "]@30003 END") != NULL,
	    "a 30 kB string within the default limit");
	buf_free(&a);
	buf_free(&doc);
}

static void
test_skip_capture(void)
{
	const char *doc = "{\"skip\": {\"x\": [1, {\"y\": []}], \"z\": \"w\"}, "
	    "\"take\" : [ [1, 512], [], \"a\\\"b\", {\"k\" : null} ], \"n\": 7}";
	struct js_reader *rd = js_open_mem(doc, strlen(doc));
	struct buf cap = BUF_INIT;
	long long v = 0;
	const char *t;
	size_t n;

	js_next(rd);
	js_next(rd);
	ok(js_is(rd, "skip"), "key skip");
	ok(js_next(rd) == JS_OBJECT && js_skip(rd) == JS_OBJECT_END && js_depth(rd) == 1,
	    "js_skip a nested object");
	ok(js_next(rd) == JS_KEY && js_is(rd, "take"), "key take");
	js_next(rd);
	ok(js_capture(rd, &cap) == JS_ARRAY_END, "js_capture ends on ]");
	is_str(cap.p, "[[1,512],[],\"a\\\"b\",{\"k\":null}]", "captured text is compact");
	ok(js_next(rd) == JS_KEY && js_next(rd) == JS_NUMBER, "scalar after capture");
	buf_reset(&cap);
	ok(js_capture(rd, &cap) == JS_NUMBER, "capture a scalar");
	is_str(cap.p, "7", "scalar capture text");
	t = js_text(rd, &n);
	ok(js_number_int(t, n, &v) && v == 7, "js_number_int");
	ok(js_next(rd) == JS_OBJECT_END && js_next(rd) == JS_END, "end");
	js_close(rd);
	buf_free(&cap);
}

static void
test_skip_rest(void)
{
	const char *doc = "[{\"cat\": \"x\", \"args\": {\"s\": \"a]}\\\"\", \"v\": [[{}]]}}, "
	    "{\"cat\": \"y\"}, 3]";
	struct js_reader *rd = js_open_mem(doc, strlen(doc));

	js_next(rd);
	js_next(rd);
	js_next(rd);
	ok(js_is(rd, "cat") && js_next(rd) == JS_STRING, "in the first object");
	ok(js_skip_rest(rd) == JS_OBJECT_END && js_depth(rd) == 1,
	    "js_skip_rest past brackets inside strings and escaped quotes");
	ok(js_offset(rd) == 49, "js_skip_rest ends on the object's '}' (%llu)",
	    (unsigned long long)js_offset(rd));
	ok(js_next(rd) == JS_OBJECT && js_next(rd) == JS_KEY && js_skip_rest(rd) == JS_OBJECT_END,
	    "js_skip_rest right after a key skips its value too");
	ok(js_next(rd) == JS_NUMBER && js_next(rd) == JS_ARRAY_END && js_next(rd) == JS_END,
	    "the grammar goes on after a skip");
	js_close(rd);
	rd = js_open_mem("{\"a\": [1, 2}", 12);
	js_next(rd);
	js_next(rd);
	js_next(rd);
	ok(js_skip(rd) == JS_ERROR && strcmp(js_error(rd), "expected ']', got '}'") == 0 &&
	    js_offset(rd) == 11, "js_skip: a mismatched bracket is an error at its offset");
	js_close(rd);
	rd = js_open_mem("[1, \"ab", 7);
	js_next(rd);
	js_next(rd);
	ok(js_skip_rest(rd) == JS_ERROR && js_offset(rd) == 7, "js_skip_rest: truncated");
	js_close(rd);
}

static void
test_text(void)
{
	struct buf b = BUF_INIT;
	char out[64];
	long long v;
	size_t n;

	js_escape(&b, "a\"\\\n\x01\xc3\xa9\xff", 8);
	is_str(b.p, "\"a\\\"\\\\\\n\\u0001\xc3\xa9\xef\xbf\xbd\"", "js_escape");
	n = js_unescape(out, "a\\u0000b\\n", 10);
	ok(n == 4 && memcmp(out, "a\0b\n", 4) == 0, "js_unescape keeps NUL");
	ok(js_number_len("-0.5e-3x", 8) == 7, "number_len stops at x");
	ok(js_number_len("1.e5", 4) == 1, "number_len: 1. is 1");
	ok(js_number_len("-x", 2) == 0, "number_len: lone minus");
	ok(js_number_int("9223372036854775807", 19, &v) && v == 9223372036854775807LL,
	    "number_int: LLONG_MAX");
	ok(js_number_int("-9223372036854775808", 20, &v) && v == -9223372036854775807LL - 1,
	    "number_int: LLONG_MIN");
	ok(!js_number_int("9223372036854775808", 19, &v), "number_int: overflow");
	ok(!js_number_int("1.0", 3, &v) && !js_number_int("1e3", 3, &v),
	    "number_int: not integers");
	buf_free(&b);
}

static void
test_writer(void)
{
	struct buf b = BUF_INIT;
	struct js_writer w;

	js_w_init(&w, &b);
	js_w_object(&w);
	js_w_key(&w, "in");
	js_w_array(&w);
	js_w_object(&w);
	js_w_key(&w, "shape");
	js_w_raw(&w, "[1,512]", 7);
	js_w_key(&w, "dtype");
	js_w_strz(&w, "c10::BFloat16");
	js_w_end_object(&w);
	js_w_null(&w);
	js_w_array(&w);
	js_w_end_array(&w);
	js_w_int(&w, -42);
	js_w_bool(&w, true);
	js_w_end_array(&w);
	js_w_key(&w, "q\"");
	js_w_str(&w, "x\ny", 3);
	js_w_end_object(&w);
	is_str(b.p, "{\"in\":[{\"shape\":[1,512],\"dtype\":\"c10::BFloat16\"},null,[],-42,"
	    "true],\"q\\\"\":\"x\\ny\"}", "builder output");
	buf_free(&b);
}

/* A source that gives "[1," and then fails. */
static size_t
read_fails(void *ctx, char *b, size_t n)
{
	int *calls = ctx;

	if ((*calls)++ > 0) {
		errno = EIO;
		return (size_t)-1;
	}
	memcpy(b, "[1,", n < 3 ? n : 3);
	return n < 3 ? n : 3;
}

/* A read error is the source's, told apart from the text's errors. */
static void
test_read_error(void)
{
	int calls = 0;
	struct js_reader *rd = js_open(read_fails, &calls);

	ok(js_next(rd) == JS_ARRAY && js_next(rd) == JS_NUMBER, "tokens before the failure");
	ok(js_next(rd) == JS_ERROR && js_read_failed(rd) &&
	    strcmp(js_error(rd), strerror(EIO)) == 0, "read error: %s", js_error(rd));
	js_close(rd);
	rd = js_open_mem("[1,]", 4);
	ok(js_next(rd) == JS_ARRAY && js_next(rd) == JS_NUMBER && js_next(rd) == JS_ERROR &&
	    !js_read_failed(rd), "a syntax error is not a read error");
	js_close(rd);
}

int
main(void)
{
	test_read_error();
	test_tokens();
	test_limits();
	test_skip_capture();
	test_skip_rest();
	test_text();
	test_writer();
	return tap_done();
}
