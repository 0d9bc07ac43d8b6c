/* SPDX-License-Identifier: ISC */
/* Unit tests for window: names, --id-range and --device parsing, the signpost window. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "tap.h"
#include "tt/window.h"

static struct names nm;
static struct fent ents[64];
static size_t nents;

/* Add an entry: kind 'o' op, 's' signpost, 'x' other. */
static void
add(char kind, int64_t id, const char *name)
{
	struct fent *e = &ents[nents++];

	memset(e, 0, sizeof(*e));
	e->kind = kind == 'o' ? FK_OP : kind == 's' ? FK_SIGNPOST : FK_OTHER;
	e->id = id;
	e->dur = NAN;
	e->name = name ? names_intern(&nm, name, strlen(name)) : NAME_NONE;
}

/* The selected IDs as text: "3 4 5". */
static const char *
run(const char *start, const char *end, bool ignore, bool print, bool whole)
{
	static char out[512];
	struct wopts o = { start, end, ignore, print, whole, false };
	uint32_t sel[64];
	struct error err = ERROR_INIT;
	size_t i, k;

	out[0] = '\0';
	if (window_select(ents, nents, &nm, &o, sel, &k, &err) < 0) {
		snprintf(out, sizeof(out), "error: %s", err.msg);
		error_free(&err);
		return out;
	}
	for (i = 0; i < k; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%lld", i ? " " : "",
		    (long long)ents[sel[i]].id);
	return out;
}

static void
test_names(void)
{
	uint32_t a = names_intern(&nm, "Matmul", 6), b = names_intern(&nm, "Unary", 5);
	size_t i;
	char buf[32];

	ok(a != b, "distinct names get distinct indices");
	ok(names_intern(&nm, "Matmul", 6) == a, "a name interns once");
	ok(names_intern(&nm, "Mat\0mul", 7) != a, "names may hold NUL bytes");
	for (i = 0; i < 2000; i++) {	/* force rehashing */
		snprintf(buf, sizeof(buf), "op%zu", i);
		names_intern(&nm, buf, strlen(buf));
	}
	ok(names_intern(&nm, "Unary", 5) == b, "indices survive growth");
	is_str(names_str(&nm, 1234 + 3), "op1234", "names_str");
	is_str(names_str(&nm, NAME_NONE), "None", "NAME_NONE reads as None (Q9)");
	names_free(&nm);
	names_init(&nm);
}

static void
test_idrange(void)
{
	struct idrange r;

	ok(idrange_parse("5-10", &r) == NULL && r.has_lo && r.has_hi && r.lo == 5 && r.hi == 10,
	    "5-10");
	ok(idrange_parse("1,000-1,100", &r) == NULL && r.lo == 1000 && r.hi == 1100,
	    "commas are ignored");
	ok(idrange_parse("20-", &r) == NULL && r.has_lo && !r.has_hi && r.lo == 20, "20-");
	ok(idrange_parse("-50", &r) == NULL && !r.has_lo && r.has_hi && r.hi == 50, "-50");
	ok(idrange_parse(" 7 - +9 ", &r) == NULL && r.lo == 7 && r.hi == 9, "blanks and + as int()");
	ok(idrange_parse("5-5", &r) == NULL, "a one-ID range");
	ok(idrange_parse("-", &r) != NULL, "- alone is an error (Q32, D1)");
	ok(idrange_parse("a-b", &r) != NULL, "a-b is an error");
	ok(idrange_parse("5-2", &r) != NULL && strstr(idrange_parse("5-2", &r), "greater") != NULL,
	    "5-2 is an error");
	ok(idrange_parse("1-2-3", &r) != NULL, "two dashes");
	ok(idrange_parse("12", &r) != NULL, "no dash");
	ok(idrange_parse("99999999999999999999-", &r) != NULL, "overflow");
}

static void
test_devlist(void)
{
	struct devlist dl;

	ok(devlist_parse("0,2-3,8-", &dl) == NULL, "0,2-3,8- parses");
	ok(devlist_has(&dl, 0) && !devlist_has(&dl, 1) && devlist_has(&dl, 2) &&
	    devlist_has(&dl, 3) && !devlist_has(&dl, 4) && devlist_has(&dl, 100), "membership");
	devlist_free(&dl);
	ok(devlist_parse("x", &dl) != NULL, "x is an error");
	ok(devlist_parse("3-1", &dl) != NULL, "3-1 is an error");
	ok(devlist_parse("1,,2", &dl) != NULL, "an empty item is an error");
}

static void
test_window(void)
{
	/* s(2) o3 o4 e(5) s(6) o7 o8 e(9) x o10 */
	nents = 0;
	add('s', 2, "start");
	add('o', 3, "A");
	add('o', 4, "B");
	add('s', 5, "end");
	add('s', 6, "start");
	add('o', 7, "A");
	add('o', 8, "B");
	add('s', 9, "end");
	add('x', 0, NULL);
	add('o', 10, "C");
	is_str(run(NULL, NULL, false, false, false), "7 8 10",
	    "default: after the first row named like the last signpost (Q1)");
	is_str(run(NULL, NULL, false, true, false), "6 7 8 9 10",
	    "default with --print-signposts");
	is_str(run(NULL, NULL, true, false, false), "2 3 4 5 6 7 8 9 10",
	    "--ignore-signposts keeps everything but other kinds");
	is_str(run("start", NULL, false, false, false), "3 4 7 8 10", "start only");
	is_str(run("start", "end", false, false, false), "3 4", "start and end");
	is_str(run("start", "end", false, true, false), "3 4", "start and end, print");
	is_str(run("start", "start", false, true, false), "3 4 5",
	    "same name: until the second occurrence");
	is_str(run("end", "start", false, false, false), "",
	    "an end before the start: empty (Q4)");
	is_str(run(NULL, "end", false, false, false), "3 4", "end only");
	is_str(run(NULL, NULL, false, false, true), "3 4 7 8 10",
	    "whole (--phase): everything, signposts dropped");
	is_str(run("nonesuch", NULL, false, false, false), "error: signpost 'nonesuch' not "
	    "found; signposts present: start, end", "a start that is not there: returned (D3)");
	is_str(run("start", "A", false, false, false), "error: signpost 'A' not found; "
	    "signposts present: start, end", "an end that is not a signpost: returned");
	/* Q2: the default window also matches an op named like the last signpost */
	nents = 0;
	add('o', 2, "X");
	add('o', 3, "mark");
	add('o', 4, "Y");
	add('s', 5, "mark");
	add('o', 6, "Z");
	is_str(run(NULL, NULL, false, false, false), "4 6", "Q2: the first row of any kind");
	/* Not enough occurrences: the window stays as after the start */
	nents = 0;
	add('o', 2, "X");
	add('s', 3, "only");
	add('o', 4, "Y");
	is_str(run("only", "only", false, false, false), "4", "one occurrence of start = end");
	/* No signposts at all */
	nents = 0;
	add('o', 2, "X");
	add('o', 3, "Y");
	is_str(run(NULL, NULL, false, false, false), "2 3", "no signposts: everything");
	/* Stream order differs from ID order (docs/tt-perf-report.md §7; hand_win.csv):
	 * a@300 S@200 b@100 c@400 E@250 d@50 in file order (IDs 2..7), sorted by timestamp
	 * */
	nents = 0;
	add('o', 7, "d");
	add('o', 4, "b");
	add('s', 3, "S");
	add('s', 6, "E");
	add('o', 2, "a");
	add('o', 5, "c");
	is_str(run("S", NULL, false, false, false), "7 4 5",
	    "start: IDs greater than the signpost's, in stream order");
	is_str(run(NULL, "E", false, false, false), "4 2 5", "end: IDs less than the signpost's");
	is_str(run("S", "E", false, false, false), "4 5", "start and end by ID");
	is_str(run("S", "E", false, true, false), "4 5", "the signposts bound themselves out");
	is_str(run("S", NULL, false, true, false), "7 4 6 5", "start, print: later signposts kept");
	is_str(run(NULL, NULL, false, false, false), "2 5",
	    "default: positions after the last signpost in stream order");
	/* Trace replay: the signposts sort behind every op */
	nents = 0;
	add('o', 2, "capture");
	add('o', 5, "replay1");
	add('o', 6, "replay2");
	add('s', 3, "begin");
	add('s', 4, "end");
	is_str(run("begin", NULL, false, false, false), "5 6", "replay: start keeps later IDs");
	is_str(run(NULL, "end", false, false, false), "2", "replay: end keeps earlier IDs");
	is_str(run("begin", "begin", false, false, false), "5 6",
	    "one occurrence of start = end: the start alone");
}

int
main(void)
{
	names_init(&nm);
	test_names();
	test_idrange();
	test_devlist();
	test_window();
	names_free(&nm);
	return tap_done();
}
