/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/phase/period.c: period_find against a brute-force search on many
 * generated sequences, the validity of what it finds on larger ones, and its time on
 * op-trace-sized inputs (printed as TAP comments). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "phase/period.h"
#include "phase/phase.h"
#include "tap.h"

/* A small deterministic generator (xorshift64*), independent of rand(). */
static uint64_t rng_state = 88172645463325252ULL;

static uint32_t
rnd(uint32_t k)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ULL) >> 32) % k;
}

/* Brute force: the periodic stretch (len >= 2p) with the largest len, then smallest p,
 * then smallest start. */
static bool
brute(const uint32_t *s, size_t n, struct period *pp)
{
	size_t a, b, p;
	bool found = false;

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
				found = true;
			}
		}
	return found;
}

static bool
same(bool fa, const struct period *a, bool fb, size_t start, size_t len, size_t period)
{
	return fa == fb && (!fa || (a->start == start && a->len == len && a->period == period));
}

/* A found stretch must be periodic and long enough. */
static bool
valid(bool f, const struct period *p, const uint32_t *s, size_t n)
{
	size_t i;

	if (!f)
		return true;
	if (p->period == 0 || p->len < 2 * p->period || p->start + p->len > n)
		return false;
	for (i = p->start; i + p->period < p->start + p->len; i++)
		if (s[i] != s[i + p->period])
			return false;
	return true;
}

/* Check period_find against brute force when asked, and its result's validity always.
 * Counts the disagreements in *bad and prints the first one. */
static void
check(const uint32_t *s, size_t n, bool with_brute, const char *what, size_t *bad)
{
	struct period got = { 7, 7, 7 }, want = { 0, 0, 0 };
	bool fg, fw;

	fg = period_find(s, n, &got);
	if (!valid(fg, &got, s, n)) {
		if ((*bad)++ == 0)
			printf("# %s n %zu: invalid %zu/%zu/%zu\n", what, n, got.start, got.len,
			    got.period);
		return;
	}
	if (with_brute) {
		fw = brute(s, n, &want);
		if (!same(fg, &got, fw, want.start, want.len, want.period)) {
			if ((*bad)++ == 0)
				printf("# %s n %zu: got %d %zu/%zu/%zu brute %d %zu/%zu/%zu\n",
				    what, n, fg, got.start, got.len, got.period, fw,
				    want.start, want.len, want.period);
		}
	}
}

static void
seq(uint32_t *s, const char *text)
{
	while (*text)
		*s++ = (uint32_t)(unsigned char)*text++;
}

static void
period_case(const char *text, bool want_found, size_t start, size_t len, size_t period)
{
	uint32_t s[256];
	struct period pp = { 99, 99, 99 };
	size_t n = strlen(text);
	bool f;

	seq(s, text);
	f = period_find(s, n, &pp);
	if (!want_found) {
		ok(!f && pp.start == 99 && pp.len == 99 && pp.period == 99,
		    "no period in \"%s\", out untouched", text);
		return;
	}
	if (!ok(f && pp.start == start && pp.len == len && pp.period == period,
	    "period of \"%s\": start %zu len %zu period %zu", text, start, len, period))
		printf("#   got found %d start %zu len %zu period %zu\n", f, pp.start,
		    pp.len, pp.period);
}

static void
test_cases(void)
{
	period_case("", false, 0, 0, 0);
	period_case("a", false, 0, 0, 0);
	period_case("ab", false, 0, 0, 0);
	period_case("aa", true, 0, 2, 1);
	period_case("abcdef", false, 0, 0, 0);
	period_case("abab", true, 0, 4, 2);
	period_case("aaaaaaa", true, 0, 7, 1);
	period_case("pqxyzxyzxyz", true, 2, 9, 3);
	period_case("pqxyzxyzxyzx", true, 2, 10, 3);
	period_case("pqxyzxyzxyzqq", true, 2, 9, 3);
	period_case("aaaabcdbcdbcd", true, 4, 9, 3);
	/* ties: the smaller period wins over the earlier start */
	period_case("abababab", true, 0, 8, 2);
	period_case("xyzxyzqqqqqq", true, 6, 6, 1);
	/* ties with one period: the earlier start */
	period_case("abab.cdcd", true, 0, 4, 2);
	period_case("aa.bb", true, 0, 2, 1);
	/* a run inside a longer run of another period */
	period_case("abaabaabaab", true, 0, 11, 3);
}

/* Fill s[0..n) with a planted repetition: a random prefix, a block of period p repeated,
 * cut mid-copy, then a random tail. */
static void
planted(uint32_t *s, size_t n, uint32_t k)
{
	size_t i, pre = rnd((uint32_t)n / 3 + 1), p = rnd((uint32_t)n / 3 + 1) + 1,
	    tail = rnd((uint32_t)n / 4 + 1);

	for (i = 0; i < n; i++)
		s[i] = rnd(k);
	for (i = pre + p; i + tail < n; i++)
		s[i] = s[i - p];
}

static void
test_random(void)
{
	static uint32_t s[4096];
	size_t t, n, i, bad;

	bad = 0;
	for (n = 0; n <= 3; n++)
		for (t = 0; t < 81; t++) {	/* every sequence over {0,1,2} up to n = 3 */
			size_t x = t;

			for (i = 0; i < n; i++, x /= 3)
				s[i] = (uint32_t)(x % 3);
			check(s, n, true, "tiny", &bad);
		}
	ok(bad == 0, "all sequences of length 0..3 over 3 symbols (%zu differ)", bad);

	bad = 0;
	for (t = 0; t < (1u << 14); t++) {	/* every binary sequence up to n = 13 */
		n = 0;
		while ((2u << n) - 1 <= t)
			n++;
		for (i = 0; i < n; i++)
			s[i] = (uint32_t)((t - ((1u << n) - 1)) >> i & 1);
		check(s, n, true, "binary", &bad);
	}
	ok(bad == 0, "all binary sequences of length 0..13 (%zu differ)", bad);

	bad = 0;
	for (t = 0; t < 6000; t++) {
		n = rnd(80);
		for (i = 0; i < n; i++)
			s[i] = rnd(1 + t % 5);
		check(s, n, true, "random", &bad);
	}
	ok(bad == 0, "6000 random sequences, alphabets of 1..5 (%zu differ)", bad);

	bad = 0;
	for (t = 0; t < 6000; t++) {
		n = rnd(120) + 2;
		planted(s, n, 2 + t % 4);
		check(s, n, true, "planted", &bad);
	}
	ok(bad == 0, "6000 planted repetitions with prefix and tail (%zu differ)", bad);

	/* Periods past the in-place scan (16) whose runs start well before the first
	 * multiple of the period that matches: the leftward extension comes from the
	 * tables' search, not from comparing in place. */
	bad = 0;
	for (t = 0; t < 400; t++) {
		size_t p = 17 + rnd(60), pre = rnd((uint32_t)(2 * p)), reps = 2 + rnd(3),
		    tail = rnd(20);

		n = pre + reps * p + tail;
		for (i = 0; i < n; i++)
			s[i] = rnd(2 + t % 3);
		for (i = pre + p; i < pre + reps * p; i++)
			s[i] = s[i - p];
		check(s, n, true, "long left", &bad);
	}
	ok(bad == 0, "400 runs of periods 17..76 starting anywhere (%zu differ)", bad);

	bad = 0;
	for (n = 0; n <= 200; n++) {
		for (i = 0; i < n; i++)
			s[i] = 42;
		check(s, n, n <= 80, "all equal", &bad);
	}
	ok(bad == 0, "all-equal sequences, n = 0..200 (%zu differ)", bad);

	bad = 0;
	for (t = 0; t < 2000; t++) {	/* symbols spread over the whole uint32 range */
		n = rnd(60);
		for (i = 0; i < n; i++)
			s[i] = rnd(3) == 0 ? UINT32_MAX - rnd(2) : rnd(2) * 0x80000000u;
		if (t % 2 == 0 && n > 4)
			for (i = 3 + rnd(2); i < n; i++)
				s[i] = s[i - 3];
		check(s, n, true, "wide", &bad);
	}
	ok(bad == 0, "2000 sequences of large symbol values (%zu differ)", bad);

	bad = 0;
	{	/* Fibonacci and Thue-Morse words: many overlapping runs */
		size_t la = 1, lb = 2;	/* f1 = "0", f2 = "01", f(k) = f(k-1) f(k-2) */

		s[0] = 0;
		s[1] = 1;
		while (lb < 4096) {	/* s holds f(k) = s[0..lb), a prefix of f(k+1) */
			for (i = 0; i < la && lb + i < 4096; i++)
				s[lb + i] = s[i];
			i = lb;
			lb += la;
			la = i;
		}
		for (n = 0; n <= 300; n += 7)
			check(s, n, n <= 120, "fibonacci", &bad);
		check(s, 4096, false, "fibonacci", &bad);
		for (i = 0; i < 4096; i++)	/* Thue-Morse (overlap-free) */
			s[i] = (uint32_t)__builtin_popcount((unsigned)i) & 1;
		for (n = 0; n <= 300; n += 13)
			check(s, n, n <= 120, "thue-morse", &bad);
		check(s, 4096, false, "thue-morse", &bad);
	}
	ok(bad == 0, "Fibonacci and Thue-Morse prefixes (%zu differ)", bad);

	bad = 0;
	for (t = 0; t < 300; t++) {	/* larger: validity only */
		n = rnd(4000) + 1;
		if (t % 2)
			planted(s, n, 2 + t % 7);
		else
			for (i = 0; i < n; i++)
				s[i] = rnd(1 + t % 3);
		check(s, n, false, "large", &bad);
	}
	ok(bad == 0, "300 sequences of up to 4000 symbols give valid stretches "
	    "(%zu differ)", bad);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Time period_find on s[0..n) and check it finds the run start/len/period (or none). */
static void
bench(const uint32_t *s, size_t n, const char *what, bool want_found, size_t start,
    size_t len, size_t period)
{
	struct period got = { 0, 0, 0 };
	double t0, t1;
	bool fg;

	t0 = now();
	fg = period_find(s, n, &got);
	t1 = now();
	printf("# %s, n %zu: period_find %.1f ms; found %d start %zu len %zu period %zu\n",
	    what, n, (t1 - t0) * 1e3, fg, got.start, got.len, got.period);
	if (len == 0)
		ok(valid(fg, &got, s, n), "%s: a valid stretch", what);
	else
		ok(same(fg, &got, want_found, start, len, period),
		    "%s: finds the expected run", what);
}

static void
test_big(void)
{
	size_t n = 136656, i, pre = 1000, blk = 1872, layer = 58;
	uint32_t *s = malloc(n * sizeof(*s)), *b = malloc(blk * sizeof(*b));

	if (s == NULL || b == NULL)
		abort();
	/* A decode loop: 1000 warm-up ops, then a 1872-op iteration (32 similar layers of 58
	 * ops plus 16 others) repeated to the end (72.5 times). */
	for (i = 0; i < pre; i++)
		s[i] = 1000 + rnd(400);
	for (i = 0; i < blk; i++)
		b[i] = i < 32 * layer ? (uint32_t)(i % layer) : 200 + (uint32_t)i % 7;
	for (i = 0; i < 32; i++)	/* each layer differs in one op */
		b[i * layer + 17] = 300 + (uint32_t)i;
	for (i = pre; i < n; i++)
		s[i] = b[(i - pre) % blk];
	bench(s, n, "1000 + 72.5 x 1872 (layered)", true, pre, n - pre, blk);

	for (i = 0; i < n; i++)
		s[i] = rnd(60);
	bench(s, n, "random, 60 symbols", true, 0, 0, 0);
	for (i = 0; i < n; i++)
		s[i] = rnd(2);
	bench(s, n, "random, 2 symbols", true, 0, 0, 0);
	for (i = 0; i < n; i++)
		s[i] = 7;
	bench(s, n, "all equal", true, 0, n, 1);
	free(s);
	free(b);
}

int
main(void)
{
	test_cases();
	test_random();
	test_big();
	return tap_done();
}
