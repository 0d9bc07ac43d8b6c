/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/phase/phase.c: method names, M of a tensor and the matmul-m split rule
 * (the period search has its own tests, tests/unit/period.c). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "phase/phase.h"
#include "core/tensor.h"
#include "tap.h"

static void
split_case(const char *mmtext, const char *owntext, const char *want, const char *name)
{
	uint8_t mm[64], own[64], out[64];
	char got[65];
	size_t n = strlen(mmtext), i;

	memset(mm, 0, sizeof(mm));
	memset(own, 0, sizeof(own));
	for (i = 0; i < n; i++) {
		mm[i] = mmtext[i] == 'd' ? PM_DECODE : mmtext[i] == 'p' ? PM_PREFILL : PM_NONE;
		own[i] = owntext[i] == 'd' ? PM_DECODE : owntext[i] == 'p' ? PM_PREFILL :
		    PM_NONE;
		out[i] = 9;
	}
	if (!phase_split_matmul(mm, own, n, out)) {
		ok(*want == '\0', "%s: no matmul", name);
		return;
	}
	for (i = 0; i < n; i++)
		got[i] = out[i] == PM_DECODE ? 'd' : out[i] == PM_PREFILL ? 'p' : '?';
	got[n] = '\0';
	is_str(got, want, name);
}

static void
test_split(void)
{
	/* mm: matmuls (p/d, '.' other ops); own: each op's own M class */
	split_case("....", "pdpd", "", "no matmul");
	split_case("..p..p..", "........", "pppppppp", "edges take the nearest matmul");
	split_case("..d..p..", "........", "dddppppp", "no shapes: the gap goes with the next matmul");
	split_case("p...d", ".pp..", "pppdd", "own M moves the boundary");
	split_case("p...d", ".ppd.", "pppdd", "own M: boundary before the first decode-sized op");
	split_case("p...d", ".dpd.", "pdddd", "contradicting shapes: fewest disagreements, earliest");
	split_case("p..d..p", "...ddp.", "pddddpp", "two boundaries");
	split_case("d", "p", "d", "a single matmul");
}

static long long
m_of(bool present, const long long *shape, const long long *logical)
{
	struct tensor t;

	memset(&t, 0, sizeof(t));
	t.present = present;
	if (shape != NULL) {
		t.has_shape = true;
		t.shape.rank = 4;
		memcpy(t.shape.d, shape, 4 * sizeof(*shape));
	}
	if (logical != NULL) {
		t.has_logical = true;
		t.logical.rank = 4;
		memcpy(t.logical.d, logical, 4 * sizeof(*logical));
	}
	return phase_m(&t);
}

/* Reading the tensors themselves (types, escapes, nulls): tests/unit/tensor.c. */
static void
test_m(void)
{
	static const long long padded[4] = { 1, 1, 32, 2048 }, one[4] = { 1, 1, 1, 2048 },
	    small[4] = { 2, 3, 5, 7 }, batch[4] = { 2, 4, 128, 64 },
	    huge[4] = { 4294967296, 4294967296, 4294967296, 1 }, zero[4] = { 1, 0, 9, 9 };

	ok(m_of(true, padded, one) == 1, "M from logical");
	ok(m_of(true, padded, small) == 30, "M from logical: W*Z*Y");
	ok(m_of(true, batch, NULL) == 1024, "M from shape when no logical (W*Z*Y)");
	ok(m_of(true, NULL, NULL) == -1, "no shapes: unknown");
	ok(m_of(false, padded, NULL) == -1, "in[0] null: unknown");
	ok(phase_m(NULL) == -1, "no in[0]: unknown");
	ok(m_of(true, NULL, huge) == LLONG_MAX, "overflow saturates");
	ok(m_of(true, NULL, zero) == 0, "a zero dimension");
}

static void
test_names(void)
{
	enum phase_by by = PHASE_AUTO;

	ok(phase_by_parse("repeat", &by) && by == PHASE_REPEAT, "parse repeat");
	ok(phase_by_parse("matmul-m", &by) && by == PHASE_MATMUL_M, "parse matmul-m");
	ok(phase_by_parse("signpost", &by) && by == PHASE_SIGNPOST, "parse signpost");
	ok(!phase_by_parse("phase", &by) && by == PHASE_SIGNPOST, "unknown method rejected");
	is_str(phase_by_name(PHASE_MATMUL_M), "matmul-m", "name of matmul-m");
}

int
main(void)
{
	test_names();
	test_m();
	test_split();
	return tap_done();
}
