/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for rec: round trips, set/delete/append order, getters and their type
 * errors, string escapes both ways, numbers, rec_dup independence.
 *
 * Also a small tool for the golden cases under tests/golden/rec/ and for benchmarks:
 *   rec --cat [--int K] [--num K] [--str K] [--bool K] [--set-int K=V] [--del K]
 *       [FILE...]
 * reads records with rec_open_list/rec_next, calls the getters asked for on each (so a
 * type error shows), applies the changes, and writes each record with rec_write.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/badrec.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/io.h"
#include "core/rec.h"
#include "tap.h"

/* --- the --cat tool ------------------------------------------------------------- */

struct op {
	char	 what;	/* i n s b j S d */
	char	*key;
	char	*arg;
};

static int
cat_main(int argc, char **argv)
{
	struct op ops[64];
	int nops = 0, i, k;
	struct badrec bad = BADREC_INIT;
	struct rec_reader *rd;
	struct rec *r;

	io_init();
	for (i = 2; i < argc; i++) {
		static const struct { const char *flag; char what; } flags[] = {
			{ "--int", 'i' }, { "--num", 'n' }, { "--str", 's' }, { "--bool", 'b' },
			{ "--set-int", 'S' }, { "--del", 'd' },
			{ "--type", 't' }, { "--set-str", 'T' },
		};
		for (k = 0; k < (int)(sizeof(flags) / sizeof(flags[0])); k++)
			if (strcmp(argv[i], flags[k].flag) == 0)
				break;
		if (strcmp(argv[i], "--skip-bad") == 0) {
			bad.skip = true;
			continue;
		}
		if (k == (int)(sizeof(flags) / sizeof(flags[0])))
			break;
		if (i + 1 >= argc || nops == 64)
			die_usage("%s needs a key", argv[i]);
		ops[nops].what = flags[k].what;
		ops[nops].key = argv[++i];
		ops[nops].arg = strchr(argv[i], '=');
		if (ops[nops].arg != NULL)
			*ops[nops].arg++ = '\0';
		nops++;
	}
	rd = rec_open_list(argv + i, argc - i);
	while ((r = badrec_next(&bad, rd)) != NULL) {
		for (k = 0; k < nops; k++) {
			long long ll;
			double d;
			bool b;

			switch (ops[k].what) {
			case 'i': (void)rec_int(r, ops[k].key, &ll); break;
			case 'n': (void)rec_num(r, ops[k].key, &d); break;
			case 's': (void)rec_str(r, ops[k].key, NULL); break;
			case 'b': (void)rec_bool(r, ops[k].key, &b); break;
			case 't': rec_set_int(r, "type", rec_type(r, ops[k].key)); break;
			case 'S': rec_set_int(r, ops[k].key, ops[k].arg ? atoll(ops[k].arg) : 0); break;
			case 'T': rec_set_str(r, ops[k].key, ops[k].arg ? ops[k].arg : ""); break;
			case 'd': rec_del(r, ops[k].key); break;
			}
		}
		if (!badrec_check(&bad, r))
			rec_write(r, stdout);
	}
	badrec_end(&bad);
	rec_close(rd);
	return 0;
}

/* --- helpers ------------------------------------------------------------------------ */

static char *
fmt(struct rec *r)
{
	static struct buf b;

	buf_reset(&b);
	rec_format(r, &b);
	if (b.len > 0 && b.p[b.len - 1] == '\n')
		b.p[--b.len] = '\0';
	return b.p;
}

/* A line of the test's own; a bad one ends the process as a program would stop. */
static struct rec *
parse(const char *s)
{
	return tap_rec(s, strlen(s), "t:1");
}

static void
roundtrip(const char *in, const char *want)
{
	struct rec *r = parse(in);

	is_str(fmt(r), want, in);
	rec_free(r);
}

/* Run fn(arg) in a child; check it exits with status and stderr containing want. */
static void
dies(void (*fn)(const char *), const char *arg, int status, const char *want)
{
	int pfd[2], st;
	pid_t pid;
	char err[1024];
	ssize_t n;
	size_t got = 0;

	fflush(stdout);
	if (pipe(pfd) < 0 || (pid = fork()) < 0) {
		ok(0, "fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], 2);
		fn(arg);
		_exit(0);
	}
	close(pfd[1]);
	while (got < sizeof(err) - 1 && (n = read(pfd[0], err + got, sizeof(err) - 1 - got)) > 0)
		got += (size_t)n;
	err[got] = '\0';
	close(pfd[0]);
	waitpid(pid, &st, 0);
	if (!ok(WIFEXITED(st) && WEXITSTATUS(st) == status && strstr(err, want) != NULL,
	    "dies: %.*s", (int)strcspn(want, "\n"), want))
		printf("#   status %d, stderr: %s", WIFEXITED(st) ? WEXITSTATUS(st) : -1, err);
}

static void
do_parse(const char *s)
{
	rec_free(parse(s));
}

static struct rec *
getter_rec(void)
{
	return parse("{\"s\":\"x\",\"i\":5,\"r\":1.5,\"b\":true,\"a\":[1],"
	    "\"big\":123456789012345678901234,\"n\":null}");
}

static bool g_int(struct rec *r, const char *k) { long long v; return rec_int(r, k, &v); }
static bool g_num(struct rec *r, const char *k) { double v; return rec_num(r, k, &v); }
static bool g_str(struct rec *r, const char *k) { return rec_str(r, k, NULL) != NULL; }
static bool g_bool(struct rec *r, const char *k) { bool v; return rec_bool(r, k, &v); }
static bool g_fig(struct rec *r, const char *k) { double v; return rec_fig(r, k, &v); }
static bool g_ifig(struct rec *r, const char *k) { double v; return rec_ifig(r, k, &v); }
static bool g_strv(struct rec *r, const char *k) { struct rec_strv v; return rec_strv(r, k, &v); }

/* A getter asked for the wrong type reads key as missing and marks the record bad with
 * "where: want" (the process goes on). */
static void
marks(bool (*get)(struct rec *, const char *), const char *k, const char *want)
{
	struct rec *r = getter_rec();
	bool got = get(r, k);
	const struct error *e = rec_bad(r);
	char msg[512];

	snprintf(msg, sizeof(msg), "%s: %s", e != NULL ? e->file : "", e != NULL ? e->msg : "");
	if (!ok(!got && e != NULL && strcmp(msg, want) == 0, "marks bad: %s", want))
		printf("#   got %d, error: %s\n", got, e != NULL ? msg : "(none)");
	rec_free(r);
}

/* String vectors: read (escapes, empty, blanks, null, absent), set, read back. */
static void
test_strv(void)
{
	struct rec *r = parse("{\"a\":[\"x\", \"y\\n\\\"z\\u00e9\" ,\"\"],\"e\":[ ],"
	    "\"n\":null,\"k\":1}");
	struct rec_strv v;
	const char *in[] = { "p|q", "\"quoted\"\n", "\xce\xbcs" };
	size_t lens[] = { 1, 9, 3 };

	ok(rec_strv(r, "a", &v) && v.n == 3 && strcmp(v.s[0], "x") == 0 &&
	    strcmp(v.s[1], "y\n\"z\xc3\xa9") == 0 && v.len[1] == 6 && v.len[2] == 0 &&
	    v.s[2][0] == '\0', "rec_strv: decoded strings and lengths");
	ok(rec_strv(r, "e", &v) && v.n == 0, "rec_strv: empty array");
	ok(!rec_strv(r, "n", &v) && !rec_strv(r, "zz", &v) && v.n == 0,
	    "rec_strv: null and absent are missing");
	rec_set_strv(r, "w", in, NULL, 3);
	rec_set_strv(r, "e", in, lens, 2);
	is_str(fmt(r), "{\"a\":[\"x\", \"y\\n\\\"z\\u00e9\" ,\"\"],\"e\":[\"p\",\"\\\"quoted\\\"\\n\"],"
	    "\"n\":null,\"k\":1,\"w\":[\"p|q\",\"\\\"quoted\\\"\\n\",\"\xce\xbcs\"]}",
	    "rec_set_strv: escaped, lengths honoured, new key last");
	ok(rec_strv(r, "w", &v) && v.n == 3 && strcmp(v.s[1], in[1]) == 0 &&
	    strcmp(v.s[2], in[2]) == 0, "rec_strv reads back what rec_set_strv wrote");
	rec_free(r);
	{
		struct buf b = BUF_INIT;

		rec_line_add(&b, "{}\n", 3, "\"p\":\"x\"", 7);
		rec_line_add(&b, "{\"k\":1}\n", 8, "\"p\":1,\"i\":2", 11);
		rec_line_add(&b, "{\"k\":1}\n", 8, "", 0);
		is_str(b.p, "{\"p\":\"x\"}\n{\"k\":1,\"p\":1,\"i\":2}\n{\"k\":1}\n",
		    "rec_line_add: members at the end, a comma only after a member");
		buf_free(&b);
	}
	marks(g_strv, "a", "t:1: key \"a\": expected an array of strings");
	marks(g_strv, "s", "t:1: key \"s\": expected an array of strings");
}

/* --- tests --------------------------------------------------------------------------- */

static void
test_roundtrip(void)
{
	roundtrip("{}", "{}");
	roundtrip("   ", "{}");
	roundtrip("{\"a\":1}", "{\"a\":1}");
	roundtrip("{\"kind\":\"op\",\"id\":2,\"in\":[{\"shape\":[1,1,32,32]},null],"
	    "\"x\":-0,\"y\":1e-05,\"z\":\"caf\xc3\xa9 \\u00e9 \\n\"}",
	    "{\"kind\":\"op\",\"id\":2,\"in\":[{\"shape\":[1,1,32,32]},null],"
	    "\"x\":-0,\"y\":1e-05,\"z\":\"caf\xc3\xa9 \\u00e9 \\n\"}");
	/* Whitespace between top-level tokens goes, inside values it stays. */
	roundtrip(" { \"a\" : 1 , \"b\":[1, 2] }\r", "{\"a\":1,\"b\":[1, 2]}");
	roundtrip("{\"a\":1}\r", "{\"a\":1}");
	/* Keys keep their original escapes. */
	roundtrip("{\"\\u0061b\":1}", "{\"\\u0061b\":1}");
}

static void
test_changes(void)
{
	struct rec *r, *d;
	const char *k;
	size_t i;
	char keys[256];

	r = parse("{\"a\":1,\"b\":2,\"c\":3}");
	rec_set_int(r, "b", 20);
	rec_set_str(r, "new1", "x");
	rec_set_bool(r, "new2", false);
	rec_del(r, "a");
	is_str(fmt(r), "{\"b\":20,\"c\":3,\"new1\":\"x\",\"new2\":false}", "set/del/append");
	rec_set_int(r, "a", 10);	/* back in its place */
	rec_del(r, "new1");
	rec_set_null(r, "new1");	/* re-set new key goes last */
	is_str(fmt(r), "{\"a\":10,\"b\":20,\"c\":3,\"new2\":false,\"new1\":null}",
	    "deleted then set");
	keys[0] = '\0';
	for (i = 0; (k = rec_key(r, i)) != NULL; i++) {
		strcat(keys, k);
		strcat(keys, ",");
	}
	is_str(keys, "a,b,c,new2,new1,", "rec_key order");
	ok(rec_type(r, "new1") == REC_NULL && !rec_has(r, "new1"), "null set is not has");
	rec_del(r, "nosuch");
	rec_del(r, "c");
	rec_del(r, "c");
	ok(rec_type(r, "c") == REC_ABSENT, "deleted is absent");
	is_str(fmt(r), "{\"a\":10,\"b\":20,\"new2\":false,\"new1\":null}", "double delete");

	/* rec_dup is independent, changes included. */
	d = rec_dup(r);
	rec_set_int(r, "a", 11);
	rec_set_int(d, "z", 1);
	is_str(fmt(d), "{\"a\":10,\"b\":20,\"new2\":false,\"new1\":null,\"z\":1}", "dup");
	is_str(fmt(r), "{\"a\":11,\"b\":20,\"new2\":false,\"new1\":null}", "original");
	is_str(rec_where(d), "t:1", "dup keeps where");
	rec_free(d);
	rec_free(r);

	/* A record from scratch, set many times (no growth beyond bounds). */
	r = rec_new();
	is_str(fmt(r), "{}", "rec_new");
	is_str(rec_where(r), "-", "rec_new where");
	for (i = 0; i < 100000; i++)
		rec_set_int(r, "n", (long long)i);
	rec_set_num(r, "r", 0.1);
	rec_set_num(r, "w", 64);
	rec_set_num(r, "inf", INFINITY);
	rec_set_num(r, "big", 1.5e16);
	is_str(fmt(r), "{\"n\":99999,\"r\":0.1,\"w\":64.0,\"inf\":null,\"big\":1.5e+16}",
	    "rec_set_num forms");
	ok(rec_type(r, "w") == REC_REAL, "64.0 is real");
	rec_free(r);

	/* raw values, and an object built with json.h's writer */
	r = parse("{\"t\":[{\"shape\":[1,2]},null],\"o\":{\"k\":\"v\"}}");
	{
		struct buf b = BUF_INIT;
		struct js_writer w;
		size_t n;
		const char *raw = rec_raw(r, "t", &n);

		is_str(raw, "[{\"shape\":[1,2]},null]", "rec_raw");
		ok(n == strlen(raw), "rec_raw length");
		rec_set_raw(r, "u", raw, n);
		ok(rec_raw(r, "nosuch", &n) == NULL, "rec_raw absent");
		js_w_init(&w, &b);
		js_w_object(&w);
		js_w_key(&w, "k");
		js_w_strz(&w, "v");
		js_w_key(&w, "a");
		js_w_real(&w, 2.5);
		js_w_key(&w, "w");
		js_w_real(&w, 64);
		js_w_key(&w, "inf");
		js_w_real(&w, INFINITY);
		js_w_key(&w, "b");
		js_w_strz(&w, "q\"\n");
		js_w_key(&w, "c");
		js_w_int(&w, -7);
		js_w_end_object(&w);
		rec_set_raw(r, "o2", b.p, b.len);
		buf_free(&b);
		is_str(fmt(r), "{\"t\":[{\"shape\":[1,2]},null],\"o\":{\"k\":\"v\"},"
		    "\"u\":[{\"shape\":[1,2]},null],\"o2\":{\"k\":\"v\",\"a\":2.5,\"w\":64.0,"
		    "\"inf\":null,\"b\":\"q\\\"\\n\",\"c\":-7}}", "set_raw, js_w_real");
		ok(rec_type(r, "u") == REC_ARRAY && rec_type(r, "o2") == REC_OBJECT,
		    "types of set values");
	}
	rec_free(r);
}

static void
test_getters(void)
{
	struct rec *r = getter_rec();
	long long ll = 0;
	double d = 0;
	bool b = false;
	size_t n;

	ok(rec_int(r, "i", &ll) && ll == 5, "rec_int");
	ok(rec_num(r, "i", &d) && d == 5, "rec_num of an integer");
	ok(rec_num(r, "r", &d) && d == 1.5, "rec_num");
	ok(rec_num(r, "big", &d) && d == 123456789012345678901234.0, "big int as real");
	ok(rec_type(r, "big") == REC_REAL, "big int type is REC_REAL");
	ok(rec_bool(r, "b", &b) && b, "rec_bool");
	is_str(rec_str(r, "s", &n), "x", "rec_str");
	ok(n == 1, "rec_str length");
	ok(!rec_int(r, "n", &ll) && !rec_str(r, "n", NULL) && !rec_num(r, "n", &d) &&
	    !rec_bool(r, "n", &b), "null reads as missing");
	ok(!rec_int(r, "zz", &ll) && rec_str(r, "zz", NULL) == NULL, "absent is missing");
	ok(rec_type(r, "n") == REC_NULL && rec_type(r, "zz") == REC_ABSENT &&
	    rec_type(r, "a") == REC_ARRAY && rec_type(r, "s") == REC_STRING &&
	    rec_type(r, "i") == REC_INT && rec_type(r, "b") == REC_BOOL, "rec_type");
	ok(rec_has(r, "i") && !rec_has(r, "n") && !rec_has(r, "zz"), "rec_has");
	/* figures: null is NaN (applies, cannot be computed), absent is false */
	ok(rec_fig(r, "n", &d) && isnan(d), "rec_fig: null is NaN");
	ok(rec_fig(r, "r", &d) && d == 1.5 && rec_fig(r, "i", &d) && d == 5, "rec_fig: numbers");
	ok(!rec_fig(r, "zz", &d), "rec_fig: absent");
	ok(rec_ifig(r, "n", &d) && isnan(d), "rec_ifig: null is NaN");
	ok(rec_ifig(r, "i", &d) && d == 5 && !rec_ifig(r, "zz", &d), "rec_ifig: integer, absent");
	rec_free(r);

	r = parse("{\"mx\":9223372036854775807,\"mn\":-9223372036854775808,"
	    "\"ov\":9223372036854775808,\"m0\":-0,\"e\":1E+2}");
	ok(rec_int(r, "mx", &ll) && ll == 9223372036854775807LL, "LLONG_MAX");
	ok(rec_int(r, "mn", &ll) && ll == -9223372036854775807LL - 1, "LLONG_MIN");
	ok(rec_type(r, "ov") == REC_REAL && rec_type(r, "mx") == REC_INT, "2^63 is real");
	ok(rec_int(r, "m0", &ll) && ll == 0, "-0 is the integer 0");
	ok(rec_num(r, "e", &d) && d == 100 && rec_type(r, "e") == REC_REAL, "1E+2 real");
	rec_free(r);

	marks(g_int, "s", "t:1: key \"s\": expected an integer, got a string");
	marks(g_int, "r", "t:1: key \"r\": expected an integer, got a real number");
	marks(g_int, "big", "t:1: key \"big\": integer out of range");
	marks(g_num, "s", "t:1: key \"s\": expected a number, got a string");
	marks(g_num, "b", "t:1: key \"b\": expected a number, got a boolean");
	marks(g_str, "i", "t:1: key \"i\": expected a string, got an integer");
	marks(g_str, "a", "t:1: key \"a\": expected a string, got an array");
	marks(g_bool, "s", "t:1: key \"s\": expected a boolean, got a string");
	marks(g_fig, "s", "t:1: key \"s\": expected a number, got a string");
	marks(g_ifig, "r", "t:1: key \"r\": expected an integer, got a real number");
	{
		struct rec *r2 = getter_rec(), *dup;
		long long v;

		ok(rec_bad(r2) == NULL && rec_int(r2, "i", &v) && rec_bad(r2) == NULL,
		    "a good record is not bad");
		rec_reject(r2, "stage says %d", 1);
		(void)rec_str(r2, "i", NULL);
		rec_reject(r2, "stage says %d", 2);
		ok(rec_bad(r2) != NULL && strcmp(rec_bad(r2)->msg, "stage says 1") == 0,
		    "rec_reject: the first error is kept");
		dup = rec_dup(r2);
		ok(rec_bad(dup) != NULL && strcmp(rec_bad(dup)->msg, "stage says 1") == 0 &&
		    strcmp(rec_bad(dup)->file, "t:1") == 0, "rec_dup keeps the error");
		rec_free(dup);
		rec_free(r2);
	}

	r = rec_new();
	rec_set_ifig(r, "c", 12);
	rec_set_ifig(r, "x", NAN);
	rec_set_ifig(r, "h", 2.5);
	rec_set_num(r, "y", NAN);
	is_str(fmt(r), "{\"c\":12,\"x\":null,\"h\":2.5,\"y\":null}",
	    "rec_set_ifig: integral as integer, NaN as null");
	rec_free(r);
}

static void
test_strings(void)
{
	struct rec *r;
	size_t n;
	const char *s;

	r = parse("{\"a\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20ac\\ud83d\\ude00\","
	    "\"z\":\"a\\u0000b\",\"u\":\"\xe2\x82\xac\"}");
	s = rec_str(r, "a", &n);
	is_str(s, "\"\\/\b\f\n\r\tA\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "decode escapes");
	s = rec_str(r, "z", &n);
	ok(n == 3 && memcmp(s, "a\0b", 3) == 0, "\\u0000 decodes with its length");
	is_str(rec_str(r, "u", NULL), "\xe2\x82\xac", "raw UTF-8 kept");
	ok(rec_str(r, "a", NULL) == rec_str(r, "a", NULL), "decoded string cached");
	rec_free(r);

	r = rec_new();
	rec_set_str(r, "e", "q\"b\\n\n t\t c\x01 d\x1f \x7f \xc3\xa9");
	is_str(fmt(r), "{\"e\":\"q\\\"b\\\\n\\n t\\t c\\u0001 d\\u001f \x7f \xc3\xa9\"}",
	    "encode escapes");
	is_str(rec_str(r, "e", NULL), "q\"b\\n\n t\t c\x01 d\x1f \x7f \xc3\xa9",
	    "set string reads back");
	rec_set_str(r, "bad", "a\xff\xc3");
	is_str(fmt(r), "{\"e\":\"q\\\"b\\\\n\\n t\\t c\\u0001 d\\u001f \x7f \xc3\xa9\","
	    "\"bad\":\"a\xef\xbf\xbd\xef\xbf\xbd\"}", "invalid UTF-8 set becomes U+FFFD");
	rec_set_strn(r, "nul", "a\0b", 3);
	s = rec_str(r, "nul", &n);
	ok(n == 3 && memcmp(s, "a\0b", 3) == 0, "set_strn with NUL");
	rec_set_str(r, "k\"ey", "v");
	ok(strstr(fmt(r), ",\"k\\\"ey\":\"v\"}") != NULL, "new key escaped");
	rec_free(r);
}

static void
test_errors(void)
{
	dies(do_parse, "{\"a\":1", 1, "rec: t:1: not JSON: unexpected end of line, "
	    "expected ',' or '}' at column 7\n");
	dies(do_parse, "[1,2]", 1, "t:1: record is not a JSON object\n");
	dies(do_parse, "{\"a\":NaN}", 1, "not JSON: NaN is not a JSON value at column 6\n");
	dies(do_parse, "{\"a\":-Infinity}", 1, "-Infinity is not a JSON value");
	dies(do_parse, "{\"id\":1,\"id\":2}", 1, "t:1: duplicate key \"id\"\n");
	dies(do_parse, "{\"\\u0069d\":1,\"id\":2}", 1, "duplicate key \"id\"\n");
	dies(do_parse, "{\"a\":\"\xff\"}", 1, "not JSON: invalid UTF-8 in a string at column 7\n");
	dies(do_parse, "{\"a\":\"\xed\xa0\x80\"}", 1, "not JSON: invalid UTF-8 in a string at column 7\n");
	dies(do_parse, "{\"a\":\"\xc0\xaf\"}", 1, "invalid UTF-8");
	dies(do_parse, "{\"a\":\"x\ty\"}", 1, "control character 0x09 in a string");
	dies(do_parse, "{\"a\":\"\\x\"}", 1, "invalid escape in a string at column 7");
	dies(do_parse, "{\"a\":\"\\ud800\"}", 1, "lone surrogate \\uD800");
	dies(do_parse, "{\"a\":\"\\udc00x\"}", 1, "lone surrogate \\uDC00");
	dies(do_parse, "{\"a\":\"\\u12\"}", 1, "invalid \\u escape");
	dies(do_parse, "{\"a\":01}", 1, "leading zero");
	dies(do_parse, "{\"a\":1.}", 1, "expected a digit, got '}'");
	dies(do_parse, "{\"a\":1e400}", 1, "number out of range at column 6");
	dies(do_parse, "{\"a\":[1e400]}", 1, "number out of range at column 7");
	dies(do_parse, "{\"a\":1} x", 1, "expected the end of the line, got 'x' at column 9");
	dies(do_parse, "{\"a\" 1}", 1, "expected ':', got '1' at column 6");
	dies(do_parse, "{a:1}", 1, "expected a string (member name), got 'a' at column 2");
	dies(do_parse, "{\"a\":tru}", 1, "bad literal (expected true) at column 6");
	dies(do_parse, "{\"a\":[1,]}", 1, "expected a value, got ']' at column 9");
	dies(do_parse, "{\"a\":{\"b\":1,}}", 1, "expected a string (member name), got '}'");
}

/* rec_parse returns its error: NULL, the place as given, the message; nothing printed. */
static void
fails(const char *line, const char *want)
{
	struct error err = ERROR_INIT;
	struct rec *r = rec_parse(line, strlen(line), "in.rec:7", &err);

	ok(r == NULL && error_is_set(&err) && err.file != NULL &&
	    strcmp(err.file, "in.rec:7") == 0 && err.line == 0 && strcmp(err.msg, want) == 0,
	    "returned: %s", want);
	rec_free(r);
	error_free(&err);
}

/* A reader stops at the first bad line with its file and line; end of input is no error. */
static void
test_reader_errors(void)
{
	char path[] = "/tmp/ttp-unit-rec-XXXXXX";
	struct rec_reader *rd;
	const struct error *e;
	struct rec *r;
	long long v;
	int fd, n = 0;
	FILE *fp;

	fails("{\"a\":1", "not JSON: unexpected end of line, expected ',' or '}' at column 7");
	fails("[1]", "record is not a JSON object");
	fails("{\"id\":1,\"id\":2}", "duplicate key \"id\"");
	{
		struct error err = ERROR_INIT;
		struct rec *r0 = rec_parse("{\"a\":\"x\0\"}", 10, "in.rec:7", &err);

		ok(r0 == NULL && strcmp(err.msg, "NUL byte in record") == 0, "NUL byte returned");
		error_free(&err);
		r0 = rec_parse("  ", 2, "in.rec:8", &err);
		ok(r0 != NULL && !error_is_set(&err) && rec_key(r0, 0) == NULL,
		    "a blank line is the empty record, no error");
		rec_free(r0);
	}

	if ((fd = mkstemp(path)) < 0 || (fp = fdopen(fd, "w")) == NULL) {
		ok(0, "mkstemp: %s", strerror(errno));
		return;
	}
	fputs("{\"id\":1}\n\n{\"id\":2}\n{\"id\":3,}\n{\"id\":4}\n", fp);
	fclose(fp);
	rd = rec_open(path);
	while ((r = rec_next(rd)) != NULL)
		n += rec_int(r, "id", &v) && v == n + 1;
	e = rec_error(rd);
	ok(n == 2, "records before the bad line are read (%d)", n);
	ok(e != NULL && e->file != NULL && strcmp(e->file, path) == 0 && e->line == 4 &&
	    strcmp(e->msg, "not JSON: expected a string (member name), got '}' at column "
	    "9") == 0, "error at file:4: %s", e != NULL ? e->msg : "(none)");
	ok((r = rec_next(rd)) != NULL && rec_int(r, "id", &v) && v == 4 && rec_error(rd) == NULL &&
	    rec_next(rd) == NULL && rec_error(rd) == NULL && !rec_error_final(rd),
	    "the next call goes on after the bad line");
	rec_close(rd);

	rd = rec_open(path);
	(void)rec_next(rd);
	rec_close(rd);	/* closed before the end: nothing to report, nothing leaks */

	if ((fp = fopen(path, "w")) != NULL) {
		fputs("{\"id\":1}\n\n", fp);
		fclose(fp);
	}
	rd = rec_open(path);
	n = 0;
	while ((r = rec_next(rd)) != NULL)
		n++;
	ok(n == 1 && rec_error(rd) == NULL && rec_next(rd) == NULL,
	    "end of input: NULL and no error");
	rec_close(rd);
	unlink(path);
}

static void
test_depth(void)
{
	struct buf b = BUF_INIT;
	struct rec *r;
	int i;

	buf_adds(&b, "{\"a\":");
	for (i = 0; i < 999; i++)
		buf_addc(&b, '[');
	for (i = 0; i < 999; i++)
		buf_addc(&b, ']');
	buf_addc(&b, '}');
	r = tap_rec(b.p, b.len, "t:1");
	ok(rec_type(r, "a") == REC_ARRAY, "1000 levels are fine");
	rec_free(r);
	buf_free(&b);
}

static void
do_deep(const char *arg)
{
	struct buf b = BUF_INIT;
	int i, n = atoi(arg);

	buf_adds(&b, "{\"a\":");
	for (i = 0; i < n; i++)
		buf_addc(&b, '[');
	for (i = 0; i < n; i++)
		buf_addc(&b, ']');
	buf_addc(&b, '}');
	rec_free(tap_rec(b.p, b.len, "t:1"));
}

static void
test_big(void)
{
	struct buf b = BUF_INIT;
	struct rec *r;
	size_t i, n;
	const char *s;

	/* a record with many keys: the index grows */
	buf_addc(&b, '{');
	for (i = 0; i < 5000; i++)
		buf_printf(&b, "%s\"k%zu\":%zu", i ? "," : "", i, i);
	buf_addc(&b, '}');
	r = tap_rec(b.p, b.len, "t:1");
	{
		long long v;
		int good = 1;
		char k[32];
		for (i = 0; i < 5000; i += 7) {
			snprintf(k, sizeof(k), "k%zu", i);
			if (!rec_int(r, k, &v) || v != (long long)i)
				good = 0;
		}
		ok(good, "5000 keys");
	}
	is_str(fmt(r), b.p, "5000 keys round trip");
	rec_free(r);

	/* a long string */
	buf_reset(&b);
	buf_adds(&b, "{\"s\":\"");
	for (i = 0; i < 1000000; i++)
		buf_addc(&b, (char)('a' + i % 26));
	buf_adds(&b, "\"}");
	r = tap_rec(b.p, b.len, "t:1");
	s = rec_str(r, "s", &n);
	ok(n == 1000000 && s[0] == 'a' && s[25] == 'z', "long string");
	rec_free(r);
	buf_free(&b);
}

/* The record builder: keys, escaped strings, numbers, nesting, a record in two buffers,
 * a cut back to a mark; what it builds reads back as the same record. */
static void
test_build(void)
{
	struct buf h = BUF_INIT, t = BUF_INIT;
	struct rec_build rb;
	struct rec_build_mark m;
	struct rec *r;
	long long v;

	rec_build_begin(&rb, &h);
	rec_build_key(&rb, "kind");
	rec_build_word(&rb, "op");
	rec_build_key(&rb, "id");
	rec_build_int(&rb, -42);
	rec_build_keyn(&rb, "a\"b", 3);
	rec_build_str(&rb, "x\n\xff", 3);
	is_str(h.p, "{\"kind\":\"op\",\"id\":-42,\"a\\\"b\":\"x\\n\xef\xbf\xbd\"", "head");
	rec_build_more(&rb, &t);
	rec_build_key(&rb, "in");
	rec_build_array(&rb);
	rec_build_object(&rb);
	rec_build_key(&rb, "shape");
	rec_build_array(&rb);
	rec_build_int(&rb, 1);
	rec_build_int(&rb, 32);
	rec_build_end_array(&rb);
	rec_build_end_object(&rb);
	m = rec_build_mark(&rb);
	rec_build_null(&rb);
	rec_build_num(&rb, "1.5e3", 5);
	rec_build_rewind(&rb, m);
	rec_build_end_array(&rb);
	rec_build_key(&rb, "ok");
	rec_build_bool(&rb, true);
	rec_build_key(&rb, "f");
	rec_build_num(&rb, "0.25", 4);
	rec_build_end(&rb);
	is_str(t.p, ",\"in\":[{\"shape\":[1,32]}],\"ok\":true,\"f\":0.25}\n", "tail, cut back");
	buf_add(&h, t.p, t.len - 1);
	r = tap_rec(h.p, h.len, "t:1");
	ok(rec_int(r, "id", &v) && v == -42, "reads back");
	is_str(rec_str(r, "a\"b", NULL), "x\n\xef\xbf\xbd", "escaped key and value read back");
	rec_free(r);
	buf_free(&h);
	buf_free(&t);
}

/* Inside arrays of objects, leniently: counts, dims, strings of a member. */
static void
test_nested(void)
{
	static const char line[] = "{\"in\":[{\"shape\":[2, 3,4]},{\"dtype\":\"f\",\"shape\""
	    ":[[1],[2]]},null,{\"sh\\u0061pe\":[]}],\"kernels\":[{\"name\":\"k1\"},{\"x\":1},"
	    "{\"id\":{\"name\":\"no\"},\"name\":\"k\\\"2\"}],\"s\":\"x\"}";
	struct rec *r = parse(line);
	struct rec_strv v;
	long long d[4];

	ok(rec_count(r, "in") == 4 && rec_count(r, "kernels") == 3, "rec_count");
	ok(rec_count(r, "s") == 0 && rec_count(r, "nope") == 0, "rec_count: not an array");
	ok(rec_dims(r, "in", 0, "shape", d, 4) == 3 && d[0] == 2 && d[2] == 4, "rec_dims");
	ok(rec_dims(r, "in", 0, "shape", d, 2) == -1, "rec_dims: more than max");
	ok(rec_dims(r, "in", 1, "shape", d, 4) == -1, "rec_dims: not integers");
	ok(rec_dims(r, "in", 2, "shape", d, 4) == -1, "rec_dims: null element");
	ok(rec_dims(r, "in", 3, "shape", d, 4) == 0, "rec_dims: escaped member name, rank 0");
	ok(rec_dims(r, "in", 4, "shape", d, 4) == -1, "rec_dims: past the end");
	ok(rec_strv_of(r, "kernels", "name", &v) && v.n == 2, "rec_strv_of: two names");
	is_str(v.s[0], "k1", "rec_strv_of: first");
	is_str(v.s[1], "k\"2", "rec_strv_of: the member, not one nested deeper; decoded");
	ok(!rec_strv_of(r, "s", "name", &v) && v.n == 0, "rec_strv_of: not an array");
	rec_free(r);
}

/* rec_elems and its getters: each element once, members by type, the last of a repeated
 * name, escapes, integers beyond long long, the element itself, trees. */
static void
test_elems(void)
{
	static const char line[] = "{\"in\":[{\"shape\":[2,3],\"dtype\":\"a\\\"b\","
	    "\"strides\":null,\"start_ns\":12},{\"shape\":[[1,2],[[3]],{\"x\":[4]},\"s\",1.5,"
	    "99999999999999999999,-7],\"dt\\u0079pe\":\"e\",\"dtype\":\"f\"},\"str\",[1,2],"
	    "{\"shape\":[1],\"shape\":[5,6,7],\"start_ns\":99999999999999999999},{}],"
	    "\"n\":5,\"e\":[]}";
	struct rec *r = parse(line);
	struct rec_elems e;
	const struct rec_node *t;
	long long d[4], v;
	size_t n, len;
	const char *s;

	ok(rec_elems(r, "in", &e), "rec_elems: an array");
	ok(rec_elem_type(&e, NULL) == REC_ABSENT, "rec_elems: before the first element");
	ok(rec_elem_next(&e), "first element");
	ok(rec_elem_type(&e, NULL) == REC_OBJECT, "element type");
	ok(rec_elem_dims(&e, "shape", d, 4) == 2 && d[0] == 2 && d[1] == 3, "rec_elem_dims");
	ok(rec_elem_dims(&e, "shape", d, 1) == -1, "rec_elem_dims: more than max");
	s = rec_elem_str(&e, "dtype", &len);
	ok(s != NULL && strcmp(s, "a\"b") == 0 && len == 3, "rec_elem_str decodes");
	ok(rec_elem_type(&e, "strides") == REC_NULL, "rec_elem_type null");
	ok(rec_elem_type(&e, "value") == REC_ABSENT, "rec_elem_type absent");
	ok(rec_elem_int(&e, "start_ns", &v) && v == 12, "rec_elem_int");
	ok(!rec_elem_int(&e, "dtype", &v) && rec_elem_str(&e, "start_ns", NULL) == NULL,
	    "wrong types read as missing");
	ok(rec_bad(r) == NULL, "... and do not make the record bad");
	ok(rec_elem_tree(&e, "value", &n) == NULL && n == 0, "rec_elem_tree absent");

	ok(rec_elem_next(&e), "second element");
	ok(rec_elem_dims(&e, "shape", d, 4) == -1, "rec_elem_dims: nested");
	ok(rec_elem_type(&e, "shape") == REC_ARRAY, "rec_elem_type array");
	is_str(rec_elem_str(&e, "dtype", NULL), "f", "the last of a repeated name (escaped)");
	t = rec_elem_tree(&e, "shape", &n);
	ok(t != NULL && n == 14, "rec_elem_tree: 14 nodes (got %zu)", n);
	ok(t[0].type == REC_ARRAY && t[0].n == 7 && t[0].size == 14, "tree root");
	ok(t[1].type == REC_ARRAY && t[1].n == 2 && t[1].size == 3 && t[2].type == REC_INT &&
	    t[2].i == 1 && t[3].i == 2, "tree [1,2]");
	ok(t[4].type == REC_ARRAY && t[4].size == 3 && t[5].type == REC_ARRAY &&
	    t[5].size == 2 && t[6].i == 3, "tree [[3]]");
	ok(t[7].type == REC_OBJECT && t[7].n == 1 && t[8].type == REC_ARRAY && t[9].i == 4,
	    "tree: an object's member values");
	ok(t[10].type == REC_STRING && t[11].type == REC_REAL && t[12].type == REC_REAL &&
	    t[4 + t[4].size].type == REC_OBJECT, "tree leaves; siblings by size");
	ok(t[13].type == REC_INT && t[13].i == -7 && t[13].size == 1 && t[13].n == 0,
	    "tree leaf");

	ok(rec_elem_next(&e), "third element");
	ok(rec_elem_type(&e, NULL) == REC_STRING && rec_elem_type(&e, "shape") == REC_ABSENT,
	    "a string element has no members");
	is_str(rec_elem_str(&e, NULL, NULL), "str", "the element itself");
	ok(rec_elem_next(&e) && rec_elem_type(&e, NULL) == REC_ARRAY &&
	    rec_elem_dims(&e, NULL, d, 4) == 2 && d[1] == 2, "an array element");
	ok(rec_elem_next(&e), "fifth element");
	ok(rec_elem_dims(&e, "shape", d, 4) == 3 && d[2] == 7, "the last shape");
	ok(rec_elem_type(&e, "start_ns") == REC_REAL && !rec_elem_int(&e, "start_ns", &v),
	    "an integer beyond long long is a real");
	ok(rec_elem_next(&e) && rec_elem_type(&e, "x") == REC_ABSENT, "an empty object");
	ok(!rec_elem_next(&e) && !rec_elem_next(&e), "the end, and it stays there");
	ok(rec_elem_type(&e, NULL) == REC_ABSENT, "nothing after the end");

	ok(rec_elems(r, "e", &e) && !rec_elem_next(&e), "an empty array");
	ok(!rec_elems(r, "n", &e) && !rec_elem_next(&e), "not an array");
	ok(!rec_elems(r, "nope", &e) && !rec_elem_next(&e), "absent");
	/* over a value that was set */
	s = "[ {\"k\" : \"v\" } , 3 ]";
	rec_set_raw(r, "n", s, strlen(s));
	ok(rec_elems(r, "n", &e) && rec_elem_next(&e), "a changed value");
	is_str(rec_elem_str(&e, "k", NULL), "v", "a changed value's member");
	ok(rec_elem_next(&e) && rec_elem_int(&e, NULL, &v) && v == 3 && !rec_elem_next(&e),
	    "a changed value's second element");
	rec_free(r);
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--cat") == 0)
		return cat_main(argc, argv);
	test_roundtrip();
	test_changes();
	test_getters();
	test_strings();
	test_strv();
	test_errors();
	test_reader_errors();
	test_depth();
	dies(do_deep, "1000", 1, "nesting deeper than 1000 at column 1005");
	dies(do_deep, "200000", 1, "nesting deeper than 1000");
	test_big();
	test_build();
	test_nested();
	test_elems();
	return tap_done();
}
