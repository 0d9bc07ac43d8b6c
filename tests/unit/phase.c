/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/phase.c: method names, M of a tensor, the period finder (against a
 * brute-force search on random sequences) and the matmul-m split rule. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "period.h"
#include "phase.h"
#include "tensor.h"
#include "tap.h"

/* Brute force: the periodic stretch (len >= 2p) with the largest len, then smallest p,
 * then smallest start. */
static int
brute(const uint32_t *s, size_t n, struct period *pp)
{
	size_t a, b, p;
	int found = 0;

	for (p = 1; 2 * p <= n; p++)
		for (a = 0; a + 2 * p <= n; a++) {
			for (b = a; b + p < n && s[b] == s[b + p]; b++)
				;
			/* s[a .. b+p) has period p */
			if (b + p - a < 2 * p)
				continue;
			if (!found || b + p - a > pp->len ||
			    (b + p - a == pp->len && (p < pp->period ||
			    (p == pp->period && a < pp->start)))) {
				pp->start = a;
				pp->len = b + p - a;
				pp->period = p;
				found = 1;
			}
		}
	return found;
}

static void
seq(uint32_t *s, const char *text)
{
	while (*text)
		*s++ = (uint32_t)*text++;
}

static void
period_case(const char *text, int want_found, size_t start, size_t len, size_t period)
{
	uint32_t s[256];
	struct period pp = { 99, 99, 99 };
	size_t n = strlen(text);
	bool f;

	seq(s, text);
	f = period_find(s, n, &pp);
	if (!want_found) {
		ok(!f, "no period in \"%s\"", text);
		return;
	}
	if (!ok(f && pp.start == start && pp.len == len && pp.period == period,
	    "period of \"%s\": start %zu len %zu period %zu", text, start, len, period))
		printf("#   got found %d start %zu len %zu period %zu\n", f, pp.start,
		    pp.len, pp.period);
}

static void
test_period(void)
{
	size_t t, bad = 0;

	period_case("", 0, 0, 0, 0);
	period_case("a", 0, 0, 0, 0);
	period_case("abcdef", 0, 0, 0, 0);
	period_case("aa", 1, 0, 2, 1);
	period_case("abab", 1, 0, 4, 2);
	/* warm-up, then three iterations of "xyz" */
	period_case("pqxyzxyzxyz", 1, 2, 9, 3);
	/* ends mid-iteration: the partial copy is part of the stretch */
	period_case("pqxyzxyzxyzx", 1, 2, 10, 3);
	/* a tail after the repetition */
	period_case("pqxyzxyzxyzqq", 1, 2, 9, 3);
	/* the longer stretch wins over the smaller period */
	period_case("aaaabcdbcdbcd", 1, 4, 9, 3);
	/* ties: the smaller period */
	period_case("abababab", 1, 0, 8, 2);

	srand(12345);
	for (t = 0; t < 3000; t++) {
		uint32_t s[64];
		struct period a = { 0, 0, 0 }, b = { 0, 0, 0 };
		size_t n = (size_t)(rand() % 48), k = (size_t)(rand() % 3) + 2, i;
		int fa, fb;

		for (i = 0; i < n; i++)
			s[i] = (uint32_t)(rand() % (int)k);
		/* sometimes make it really periodic after a prefix */
		if (t % 3 == 0 && n > 8) {
			size_t p = (size_t)(rand() % 5) + 1, pre = (size_t)(rand() % 4);

			for (i = pre + p; i < n; i++)
				s[i] = s[i - p];
		}
		fa = period_find(s, n, &a);
		fb = brute(s, n, &b);
		if (fa != fb || (fa && (a.start != b.start || a.len != b.len ||
		    a.period != b.period))) {
			if (bad++ == 0)
				printf("# case %zu n %zu: got %d %zu/%zu/%zu want %d %zu/%zu/%zu\n",
				    t, n, fa, a.start, a.len, a.period, fb, b.start, b.len,
				    b.period);
		}
	}
	ok(bad == 0, "3000 random sequences agree with brute force (%zu differ)", bad);

	/* A long sequence: 40 iterations of 997 symbols after 123 others, cut mid-way. */
	{
		size_t n = 123 + 40 * 997 + 500, i;
		uint32_t *s = malloc(n * sizeof(*s));
		struct period pp;

		for (i = 0; i < 123; i++)
			s[i] = 5000 + (uint32_t)i;
		for (i = 123; i < n; i++)
			s[i] = (uint32_t)((i - 123) % 997 * 7 % 101);
		ok(period_find(s, n, &pp) && pp.start == 123 && pp.period == 997 &&
		    pp.len == n - 123, "40.5 iterations of 997 ops after 123 (got %zu %zu %zu)",
		    pp.start, pp.len, pp.period);
		free(s);
	}
}

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
		memcpy(t.shape, shape, sizeof(t.shape));
	}
	if (logical != NULL) {
		t.has_logical = true;
		memcpy(t.logical, logical, sizeof(t.logical));
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
	test_period();
	test_split();
	return tap_done();
}
