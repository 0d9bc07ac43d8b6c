/* SPDX-License-Identifier: ISC */
/*
 * Numbers at the ends of their types, through every formatter and every reader of
 * numbers: the formatters (num_shortest, num_fixed, num_int, report_fixed) against
 * Python's own text (tests/data/fixed-extremes.txt, written by Python 3) and never
 * writing past their bound; the record getters, the JSON reader's number text and the
 * spec-file reader on ±DBL_MAX, DBL_MIN, denormals, values beyond a double, INT64_MIN and
 * INT64_MAX, 0 and -0. (CSV cells: golden cases parse/244x.)
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/hwspec.h"
#include "core/json.h"
#include "core/numfmt.h"
#include "core/rec.h"
#include "report/report.h"
#include "tap.h"

#define GUARD	64
#define FILL	0x5a

/* A buffer of exactly sz bytes followed by GUARD guard bytes, all filled. */
static char *
guarded(size_t sz)
{
	char *b = malloc(sz + GUARD);

	if (b == NULL)
		abort();
	memset(b, FILL, sz + GUARD);
	return b;
}

/* Nothing written after the NUL at b[n], up to sz + GUARD. */
static int
untouched(const char *b, size_t n, size_t sz)
{
	size_t i;

	if (n >= sz || b[n] != '\0' || strlen(b) != n)
		return 0;
	for (i = n + 1; i < sz + GUARD; i++)
		if ((unsigned char)b[i] != FILL)
			return 0;
	return 1;
}

static double
from_bits(unsigned long long u)
{
	double d;
	uint64_t b = u;

	memcpy(&d, &b, sizeof(d));
	return d;
}

/* Each line of fixed-extremes.txt: BITS DECIMALS THOUSANDS TEXT. */
static void
formatters_against_python(void)
{
	const char *dir = getenv("TESTDATA");
	char path[4096], line[1024], text[1024], *b;
	unsigned long long bits;
	long n = 0, bad = 0, overrun = 0, clamp = 0, rep = 0;
	int dec, th;
	size_t len;
	double d;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/fixed-extremes.txt", dir ? dir : "tests/data");
	if (!ok((fp = fopen(path, "r")) != NULL, "%s opens", path))
		return;
	b = guarded(NUM_BUFSZ);
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (line[0] == '#' || sscanf(line, "%llx %d %d %1023s", &bits, &dec, &th,
		    text) != 4)
			continue;
		d = from_bits(bits);
		memset(b, FILL, NUM_BUFSZ + GUARD);
		len = dec < 0 ? num_shortest(b, d) : num_fixed(b, d, dec, th);
		n++;
		if (!untouched(b, len, NUM_BUFSZ))
			overrun++;
		if (strcmp(b, text) != 0) {
			if (bad++ < 5)
				printf("#   %016llx %d %d: got \"%s\"\n#   want \"%s\"\n", bits,
				    dec, th, b, text);
		}
		if (dec == NUM_MAXDEC) {	/* more decimals are clamped to the most */
			memset(b, FILL, NUM_BUFSZ + GUARD);
			len = num_fixed(b, d, 100000, th);
			if (!untouched(b, len, NUM_BUFSZ) || strcmp(b, text) != 0)
				clamp++;
		}
		if (dec >= 0 && dec <= 2 && th) {	/* the report's fast path agrees */
			memset(b, FILL, NUM_BUFSZ + GUARD);
			len = report_fixed(b, d, dec);
			if (!untouched(b, len, NUM_BUFSZ) || strcmp(b, text) != 0)
				rep++;
		}
	}
	fclose(fp);
	free(b);
	ok(n > 300, "%ld extreme values formatted", n);
	ok(bad == 0, "as Python formats them (%ld differ)", bad);
	ok(overrun == 0, "nothing written past the NUL or NUM_BUFSZ (%ld did)", overrun);
	ok(clamp == 0, "decimals beyond NUM_MAXDEC clamped, in bounds (%ld not)", clamp);
	ok(rep == 0, "report_fixed as num_fixed, in bounds (%ld not)", rep);
}

static void
ints(void)
{
	static const struct { long long v; int th; const char *want; } t[] = {
		{ INT64_MIN, 1, "-9,223,372,036,854,775,808" },
		{ INT64_MIN, 0, "-9223372036854775808" },
		{ INT64_MAX, 1, "9,223,372,036,854,775,807" },
		{ INT64_MAX, 0, "9223372036854775807" },
		{ INT64_MIN + 1, 1, "-9,223,372,036,854,775,807" },
		{ 0, 1, "0" },
		{ -1, 1, "-1" },
		{ 999, 1, "999" },
		{ -1000, 1, "-1,000" },
	};
	char *b = guarded(NUM_INTSZ);
	size_t i, n;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(b, FILL, NUM_INTSZ + GUARD);
		n = num_int(b, t[i].v, t[i].th);
		ok(untouched(b, n, NUM_INTSZ) && strcmp(b, t[i].want) == 0, "num_int %s",
		    t[i].want);
	}
	free(b);
}

/* A record {"v":TEXT}: NULL when it does not parse (the message in *msg). */
static struct rec *
rec_of(const char *text, char *msg, size_t msz)
{
	struct error err = ERROR_INIT;
	char line[256];
	struct rec *r;

	snprintf(line, sizeof(line), "{\"v\":%s}", text);
	r = rec_parse(line, strlen(line), "x:1", &err);
	snprintf(msg, msz, "%s", err.msg ? err.msg : "");
	error_free(&err);
	return r;
}

static void
rec_getters(void)
{
	static const struct {
		const char *text;
		double num;	/* rec_num's value */
		int isint;	/* rec_int reads it */
		long long i;
		const char *out;	/* rec_set_num's text for num */
	} t[] = {
		{ "1.7976931348623157e308", DBL_MAX, 0, 0, "1.7976931348623157e+308" },
		{ "-1.7976931348623157E+308", -DBL_MAX, 0, 0, "-1.7976931348623157e+308" },
		{ "2.2250738585072014e-308", DBL_MIN, 0, 0, "2.2250738585072014e-308" },
		{ "4.9406564584124654e-324", 5e-324, 0, 0, "5e-324" },
		{ "-5e-324", -5e-324, 0, 0, "-5e-324" },
		{ "1e-400", 0, 0, 0, "0.0" },			/* underflow: zero */
		{ "-1e-400", -0.0, 0, 0, "-0.0" },
		{ "0.1e309", 1e308, 0, 0, "1e+308" },
		{ "9223372036854775807", 9223372036854775807.0, 1, INT64_MAX,
		    "9.223372036854776e+18" },
		{ "-9223372036854775808", -9223372036854775808.0, 1, INT64_MIN,
		    "-9.223372036854776e+18" },
		{ "9223372036854775808", 9223372036854775808.0, 0, 0, "9.223372036854776e+18" },
		{ "-9223372036854775809", -9223372036854775808.0, 0, 0,
		    "-9.223372036854776e+18" },
		{ "0", 0, 1, 0, "0.0" },
		{ "-0", 0.0, 1, 0, "0.0" },		/* an integer: Python's 0 */
		{ "-0.0", -0.0, 0, 0, "-0.0" },
	};
	static const char *const bad[] = {
		"1e400", "-1e400", "1.7976931348623159e308", "1e99999999999999999999",
		"NaN", "Infinity", "-Infinity", "nan", "inf", "0x10", "+1", ".5", "1.", "01",
	};
	char msg[256];
	struct buf out = BUF_INIT;
	struct rec *r;
	long long i;
	double d, f;
	size_t k;

	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		r = rec_of(t[k].text, msg, sizeof(msg));
		if (!ok(r != NULL, "record with %s parses", t[k].text)) {
			printf("#   %s\n", msg);
			continue;
		}
		ok(rec_num(r, "v", &d) && d == t[k].num && !signbit(d) == !signbit(t[k].num),
		    "rec_num %s", t[k].text);
		ok(rec_fig(r, "v", &f) && (f == d || (isnan(f) && isnan(d))),
		    "rec_fig %s", t[k].text);
		ok(rec_int(r, "v", &i) == (t[k].isint != 0) && (!t[k].isint || i == t[k].i),
		    "rec_int %s: %s", t[k].text, t[k].isint ? "its value" : "not an integer");
		rec_set_num(r, "w", d);
		buf_reset(&out);
		rec_format(r, &out);
		ok(out.p != NULL && strstr(out.p, t[k].out) != NULL &&
		    (d == d) == (strstr(out.p, "\"w\":null") == NULL), "rec_set_num writes %s",
		    t[k].out);
		rec_free(r);
	}
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		r = rec_of(bad[k], msg, sizeof(msg));
		ok(r == NULL && msg[0] != '\0', "record with %s refused: %s", bad[k], msg);
		rec_free(r);
	}
	/* integers inside arrays of objects: the 64-bit ends read, beyond them do not */
	{
		static const char line[] = "{\"in\":[{\"shape\":[9223372036854775807,"
		    "-9223372036854775808,0,-0]},{\"shape\":[9223372036854775808]},"
		    "{\"shape\":[1e300]},{\"shape\":[-9223372036854775809]}]}";
		struct error err = ERROR_INIT;
		long long dd[4];

		r = rec_parse(line, sizeof(line) - 1, "x:1", &err);
		ok(r != NULL && rec_dims(r, "in", 0, "shape", dd, 4) == 4 &&
		    dd[0] == INT64_MAX && dd[1] == INT64_MIN && dd[2] == 0 && dd[3] == 0,
		    "rec_dims reads INT64_MAX, INT64_MIN, 0, -0");
		ok(r != NULL && rec_dims(r, "in", 1, "shape", dd, 4) == -1 &&
		    rec_dims(r, "in", 2, "shape", dd, 4) == -1 &&
		    rec_dims(r, "in", 3, "shape", dd, 4) == -1,
		    "rec_dims: beyond 64 bits or real is not a dimension");
		rec_free(r);
		error_free(&err);
	}
	/* non-finite figures are written as null, INT64_MIN as itself */
	r = rec_new();
	rec_set_num(r, "a", NAN);
	rec_set_num(r, "b", INFINITY);
	rec_set_num(r, "c", -INFINITY);
	rec_set_ifig(r, "d", DBL_MAX);
	rec_set_ifig(r, "e", -0.0);		/* integral: int(-0.0) is 0 */
	rec_set_int(r, "f", INT64_MIN);
	rec_set_num(r, "g", DBL_MIN);
	buf_reset(&out);
	rec_format(r, &out);
	is_str(out.p, "{\"a\":null,\"b\":null,\"c\":null,\"d\":1.7976931348623157e+308,"
	    "\"e\":0,\"f\":-9223372036854775808,\"g\":2.2250738585072014e-308}\n",
	    "rec_set_num/ifig/int at the extremes");
	ok(rec_ifig(r, "d", &d) == false || d == DBL_MAX, "rec_ifig of DBL_MAX");
	rec_free(r);
	buf_free(&out);
}

/* js_number_int, js_number_len and the streaming reader's number check. */
static void
json_numbers(void)
{
	static const struct { const char *s; int ok; long long v; } t[] = {
		{ "9223372036854775807", 1, INT64_MAX },
		{ "-9223372036854775808", 1, INT64_MIN },
		{ "9223372036854775808", 0, 0 },
		{ "-9223372036854775809", 0, 0 },
		{ "99999999999999999999999", 0, 0 },
		{ "-0", 1, 0 },
		{ "0", 1, 0 },
		{ "1e3", 0, 0 },
		{ "1.0", 0, 0 },
		{ "01", 0, 0 },
		{ "", 0, 0 },
		{ "-", 0, 0 },
	};
	static const struct { const char *doc; int ok; } docs[] = {
		{ "[1.7976931348623157e308,-1.7976931348623157e308]", 1 },
		{ "[5e-324,-5e-324,2.2250738585072014e-308,1e-400,-0]", 1 },
		{ "[9223372036854775807,-9223372036854775808,1e308]", 1 },
		{ "[123456789012345678901234567890]", 1 },
		{ "[1e400]", 0 },
		{ "[-1e400]", 0 },
		{ "[1.7976931348623159e308]", 0 },
		{ "[10e308]", 0 },
		{ "[NaN]", 0 },
		{ "[-Infinity]", 0 },
	};
	struct js_reader *rd;
	enum js_tok tok;
	long long v;
	size_t k;

	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		v = 42;
		ok(js_number_int(t[k].s, strlen(t[k].s), &v) == (t[k].ok != 0) &&
		    (!t[k].ok || v == t[k].v), "js_number_int \"%s\": %s", t[k].s,
		    t[k].ok ? "its value" : "refused");
	}
	ok(js_number_len("1e", 2) == 1 && js_number_len("-1.5e-308x", 10) == 9 &&
	    js_number_len("1.e5", 4) == 1 && js_number_len("-", 1) == 0,
	    "js_number_len stops where the number does");
	for (k = 0; k < sizeof(docs) / sizeof(docs[0]); k++) {
		rd = js_open_mem(docs[k].doc, strlen(docs[k].doc));
		while ((tok = js_next(rd)) != JS_END && tok != JS_ERROR)
			;
		ok((tok == JS_END) == (docs[k].ok != 0), "js reader: %s %s%s%s", docs[k].doc,
		    tok == JS_END ? "reads" : "refused: ", tok == JS_END ? "" : js_error(rd), "");
		js_close(rd);
	}
}

/* Load a spec file with one entry; its message, or "" when it loads. */
static int
spec(const char *json, char *msg, size_t msz)
{
	char path[] = "/tmp/ttp-extremes-XXXXXX";
	struct error err = ERROR_INIT;
	FILE *fp;
	int fd, rc;

	if ((fd = mkstemp(path)) < 0 || (fp = fdopen(fd, "w")) == NULL)
		abort();
	fputs(json, fp);
	fclose(fp);
	rc = hwspec_load(path, &err);
	snprintf(msg, msz, "%s", err.msg ? err.msg : "");
	error_free(&err);
	unlink(path);
	return rc;
}

static void
spec_files(void)
{
	static const struct { const char *json; int ok; } t[] = {
		{ "{\"name\":\"wormhole\",\"dram_gbps\":1e-300}", 1 },
		{ "{\"name\":\"wormhole\",\"dram_gbps\":5e-324}", 1 },
		{ "{\"name\":\"wormhole\",\"dram_gbps\":1e308}", 0 },
		{ "{\"name\":\"wormhole\",\"dram_gbps\":1e400}", 0 },
		{ "{\"name\":\"wormhole\",\"dram_gbps\":-0.0}", 0 },
		{ "{\"name\":\"wormhole\",\"dram_gbps\":0}", 0 },
		{ "{\"name\":\"wormhole\",\"dram_gbps\":NaN}", 0 },
		{ "{\"name\":\"wormhole\",\"dram_gbps\":-1.7976931348623157e308}", 0 },
		{ "{\"name\":\"wormhole\",\"worker_cores\":9223372036854775807}", 0 },
		{ "{\"name\":\"wormhole\",\"worker_cores\":-9223372036854775808}", 0 },
		{ "{\"name\":\"wormhole\",\"worker_cores\":9223372036854775808}", 0 },
		{ "{\"name\":\"wormhole\",\"worker_cores\":1e400}", 0 },
		{ "{\"name\":\"wormhole\",\"tflops_per_core\":{\"LoFi\":5e-324}}", 1 },
		{ "{\"name\":\"wormhole\",\"tflops_per_core\":{\"LoFi\":1.7976931348623157e308}}",
		    0 },
		{ "{\"name\":\"g\",\"mem_bw_gbps\":5e-324,\"max_achievable_tflops\":"
		    "{\"matrix_bf16\":1e-300}}", 1 },
		{ "{\"name\":\"g\",\"mem_bw_gbps\":1e400,\"max_achievable_tflops\":"
		    "{\"matrix_bf16\":1}}", 0 },
		{ "{\"name\":\"g\",\"mem_bw_gbps\":1,\"max_achievable_tflops\":"
		    "{\"matrix_bf16\":-5e-324}}", 0 },
	};
	char msg[512];
	size_t k;
	int rc;

	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		rc = spec(t[k].json, msg, sizeof(msg));
		ok((rc == 0) == (t[k].ok != 0) && (rc == 0 || msg[0] != '\0'), "spec %s: %s%s",
		    t[k].json, rc == 0 ? "loads" : "refused: ", msg);
	}
}

int
main(void)
{
	formatters_against_python();
	ints();
	rec_getters();
	json_numbers();
	spec_files();
	return tap_done();
}
