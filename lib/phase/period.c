/* SPDX-License-Identifier: ISC */
/*
 * period: owns period_find, the search for the longest periodic stretch of a symbol
 * sequence (see period.h).
 *
 * Method. Every maximal periodic stretch ("run") of length >= 2p with period p holds a
 * position i that is a multiple of p with sym[i] == sym[i+p]. For p = 1, 2, ... we visit
 * the multiples of p; at a match we extend it right (the longest common extension, LCE,
 * of the suffixes at i and i+p) and left (the longest common part of the prefixes ending
 * at i and i+p), which gives the whole run [a, b); then we skip to the first multiple of p past
 * the run's last matching position, so each run is seen once, in order of its start.
 * The run that covers the most symbols wins; among equal lengths the first one seen,
 * i.e. the smaller period, then the earlier start. (An earlier version answered the
 * LCE queries with polynomial hashes and galloping search: O(n log^2 n) and exact only
 * without hash collisions; this one gives the same answers, deterministically.)
 *
 * The LCE: the suffix array of the sequence (symbols first compressed to dense ranks by
 * two 16-bit counting-sort passes, O(n); then SA-IS induced sorting, O(n)), its LCP
 * array (by the PLCP array and Phi, O(n)), and for range minimum a sparse table over
 * the minima of its blocks of 32 entries (O(n) to build; a query scans at most two
 * partial blocks in place and takes the whole ones between from the table): the LCE of
 * suffixes i and j is the minimum LCP between their ranks. The leftward extension needs
 * no second oracle over the reversed sequence: the run's start is the smallest a with
 * sym[a .. i) == sym[a+p .. i+p), a property that holds from a up to i, so a galloping
 * and then binary search over a, each step a forward LCE query, finds it (the visits
 * leave l < p: about log2 p queries, made only when the extension passes SCAN).
 * Most extensions are short, so the first SCAN symbols are compared in place, and the
 * tables are only built when an extension reaches SCAN (never, on sequences without
 * long repeats).
 *
 * Complexity: O(n) to build, sum over p of n/p = O(n log n) visits with O(1) work each
 * (at most SCAN comparisons and a forward query of at most 2 BLOCK comparisons), and
 * O(log p) queries per long leftward extension (one per run seen): O(n log^2 n) at
 * worst, O(n log n) on op traces, with no hashing. Memory, when the tables are built: a
 * rank and an LCP array and the blocks' table, (floor(log2 (n/32)) + 1) n/32 uint32
 * entries: about 10 bytes per symbol for n around a million, and three n-entry uint32
 * arrays while building them (a 1.37M-symbol trace: 16 MB at the peak, beside the
 * caller's symbols). It was twice that with an oracle per direction, and 184 bytes per
 * symbol with a sparse table over every LCP entry.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "phase/period.h"

/* Extensions up to this long are found by comparing symbols, longer ones by the tables. */
#define SCAN	16

/* The LCP array's blocks: a range minimum scans the ends of its range in place and
 * takes the whole blocks between from a sparse table over the blocks' minima. */
#define BLOCK	32

/* LCE oracle over one sequence. */
struct lce {
	size_t		 n, nb;
	uint32_t	*rank;	/* rank[i]: index of suffix i in the suffix array */
	uint32_t	*lcp;	/* lcp[r]: LCE of the suffixes sa[r-1] and sa[r] */
	uint32_t	*tab;	/* tab[k*nb + x]: min over blocks x .. x + 2^k */
};

static unsigned
flog2(size_t x)
{
	unsigned k = 0;

	while (x >>= 1)
		k++;
	return k;
}

#define EMPTY	UINT32_MAX

/* The L/S types of SA-IS: S when the suffix at i is smaller than the one at i+1. */
#define IS_S(t, i)	((t)[(i)] != 0)
#define IS_LMS(t, i)	((i) > 0 && IS_S(t, i) && !IS_S(t, (i) - 1))

/* bkt[a]: the start (end == false) or one past the end (end == true) of bucket a. */
static void
buckets(const uint32_t *T, size_t n, uint32_t *bkt, size_t K, bool end)
{
	size_t i, sum = 0;

	memset(bkt, 0, K * sizeof(*bkt));
	for (i = 0; i < n; i++)
		bkt[T[i]]++;
	for (i = 0; i < K; i++) {
		sum += bkt[i];
		bkt[i] = (uint32_t)(end ? sum : sum - bkt[i]);
	}
}

/* Induce the L suffixes from the placed LMS ones, then the S suffixes from the L ones. */
static void
induce(const uint32_t *T, uint32_t *SA, const unsigned char *t, size_t n, uint32_t *bkt,
    size_t K)
{
	size_t j, k;

	buckets(T, n, bkt, K, false);
	for (j = 0; j < n; j++)
		if (SA[j] != EMPTY && SA[j] > 0 && !IS_S(t, SA[j] - 1)) {
			k = SA[j] - 1;
			SA[bkt[T[k]]++] = (uint32_t)k;
		}
	buckets(T, n, bkt, K, true);
	for (j = n; j-- > 0;)
		if (SA[j] != EMPTY && SA[j] > 0 && IS_S(t, SA[j] - 1)) {
			k = SA[j] - 1;
			SA[--bkt[T[k]]] = (uint32_t)k;
		}
}

/*
 * Suffix array of T[0..n) into SA by induced sorting (SA-IS, Nong, Zhang and Chan):
 * O(n + K) time. T[n-1] must be 0 and the only 0; symbols in [0, K).
 * Sort the LMS substrings by one induced pass, name them, sort the reduced string of
 * names (recursively when names repeat; it is at most half as long), then place the LMS
 * suffixes in that order and induce the rest.
 */
static void
sais(const uint32_t *T, uint32_t *SA, size_t n, size_t K)
{
	unsigned char *t;
	uint32_t *bkt, *s1, *SA1, name, prev;
	size_t i, j, n1;

	if (n == 1) {
		SA[0] = 0;
		return;
	}
	t = xmalloc(n);
	bkt = xreallocarray(NULL, K, sizeof(*bkt));
	t[n - 1] = 1;
	for (i = n - 1; i-- > 0;)
		t[i] = T[i] < T[i + 1] || (T[i] == T[i + 1] && t[i + 1]);

	/* Stage 1: sort the LMS substrings. */
	for (i = 0; i < n; i++)
		SA[i] = EMPTY;
	buckets(T, n, bkt, K, true);
	for (i = 1; i < n; i++)
		if (IS_LMS(t, i))
			SA[--bkt[T[i]]] = (uint32_t)i;
	induce(T, SA, t, n, bkt, K);
	n1 = 0;
	for (j = 0; j < n; j++)
		if (IS_LMS(t, SA[j]))
			SA[n1++] = SA[j];

	/* Name them: equal LMS substrings get equal names, in sorted order. */
	for (j = n1; j < n; j++)
		SA[j] = EMPTY;
	name = 0;
	prev = EMPTY;
	for (j = 0; j < n1; j++) {
		size_t pos = SA[j], d;
		bool diff = false;

		for (d = 0; prev != EMPTY; d++) {
			if (T[pos + d] != T[prev + d] || t[pos + d] != t[prev + d]) {
				diff = true;
				break;
			}
			if (d > 0 && IS_LMS(t, pos + d))
				break;
		}
		if (prev == EMPTY || diff) {
			name++;
			prev = (uint32_t)pos;
		}
		SA[n1 + pos / 2] = name - 1;
	}
	for (i = n, j = n; j-- > n1;)
		if (SA[j] != EMPTY)
			SA[--i] = SA[j];

	/* Stage 2: the suffix array of the reduced string s1 into SA1. */
	s1 = SA + n - n1;
	SA1 = SA;
	if (name < n1)
		sais(s1, SA1, n1, name);
	else
		for (i = 0; i < n1; i++)
			SA1[s1[i]] = (uint32_t)i;

	/* Stage 3: the LMS suffixes in order, then induce. */
	for (i = 1, j = 0; i < n; i++)
		if (IS_LMS(t, i))
			s1[j++] = (uint32_t)i;
	for (i = 0; i < n1; i++)
		SA1[i] = s1[SA1[i]];
	for (i = n1; i < n; i++)
		SA[i] = EMPTY;
	buckets(T, n, bkt, K, true);
	for (i = n1; i-- > 0;) {
		j = SA[i];
		SA[i] = EMPTY;
		SA[--bkt[T[j]]] = (uint32_t)j;
	}
	induce(T, SA, t, n, bkt, K);
	free(t);
	free(bkt);
}

/* Dense ranks of the symbols: c[i] = number of distinct symbols smaller than sym[i].
 * Two stable counting-sort passes on 16-bit halves order the positions by symbol; the
 * first pass's order goes to c itself (read before it is overwritten), the second's
 * to tmp, an n-entry scratch array the caller owns. */
static size_t
compress(const uint32_t *sym, size_t n, uint32_t *c, uint32_t *tmp)
{
	uint32_t *cnt = xcalloc(65536, sizeof(*cnt));
	size_t i, m, sum;

	for (i = 0; i < n; i++)
		cnt[sym[i] & 0xffff]++;
	for (i = 0, sum = 0; i < 65536; i++) {
		sum += cnt[i];
		cnt[i] = (uint32_t)(sum - cnt[i]);
	}
	for (i = 0; i < n; i++)
		c[cnt[sym[i] & 0xffff]++] = (uint32_t)i;
	memset(cnt, 0, 65536 * sizeof(*cnt));
	for (i = 0; i < n; i++)
		cnt[sym[i] >> 16]++;
	for (i = 0, sum = 0; i < 65536; i++) {
		sum += cnt[i];
		cnt[i] = (uint32_t)(sum - cnt[i]);
	}
	for (i = 0; i < n; i++)
		tmp[cnt[sym[c[i]] >> 16]++] = c[i];
	m = 0;
	for (i = 0; i < n; i++) {
		if (i > 0 && sym[tmp[i]] != sym[tmp[i - 1]])
			m++;
		c[tmp[i]] = (uint32_t)m;
	}
	free(cnt);
	return m + 1;
}

/* Build the LCE oracle of sym[0..n), n >= 1: the suffix array of the dense ranks, the
 * PLCP array by Phi (Kaerkkaeinen, Manzini and Puglisi: the same O(n) argument as
 * Kasai's, but in text order over one array), then the rank and LCP arrays. At most
 * three n-entry uint32 arrays are alive at once. */
static void
lce_init(struct lce *q, const uint32_t *sym, size_t n)
{
	uint32_t *T, *SA, *sa, *phi;
	size_t i, r, h, m, lev, levels, half, nb = (n + BLOCK - 1) / BLOCK;

	q->n = n;
	q->nb = nb;
	/* The suffix array of the dense ranks with a sentinel 0 appended (ranks shifted
	 * up by one); the sentinel's suffix sorts first. compress leaves its spare array
	 * behind for SA. */
	T = xreallocarray(NULL, n + 1, sizeof(*T));
	SA = xreallocarray(NULL, n + 1, sizeof(*SA));
	m = compress(sym, n, T, SA);
	for (i = 0; i < n; i++)
		T[i]++;
	T[n] = 0;
	sais(T, SA, n + 1, m + 1);
	free(T);
	sa = SA + 1;

	/* phi[i]: the suffix before suffix i in sorted order; then, in place, the PLCP:
	 * the LCE of suffix i and that one (the LCE of suffix i+1 and its own is at least
	 * one less). The sorted-first suffix has none: 0. */
	phi = xreallocarray(NULL, n, sizeof(*phi));
	phi[sa[0]] = EMPTY;
	for (r = 1; r < n; r++)
		phi[sa[r]] = sa[r - 1];
	h = 0;
	for (i = 0; i < n; i++) {
		size_t j = phi[i];

		if (j == EMPTY) {
			phi[i] = 0;
			h = 0;
			continue;
		}
		while (i + h < n && j + h < n && sym[i + h] == sym[j + h])
			h++;
		phi[i] = (uint32_t)h;
		if (h > 0)
			h--;
	}
	/* rank[i]: the sorted place of suffix i; lcp[r] = plcp[sa[r]], over sa in place */
	q->rank = xreallocarray(NULL, n, sizeof(*q->rank));
	for (r = 0; r < n; r++)
		q->rank[sa[r]] = (uint32_t)r;
	for (r = 0; r < n; r++)
		SA[r] = phi[sa[r]];
	free(phi);
	q->lcp = xreallocarray(SA, n, sizeof(*q->lcp));

	/* Sparse table over the blocks' minima. */
	levels = flog2(nb) + 1;
	q->tab = xreallocarray(NULL, levels * nb, sizeof(*q->tab));
	for (i = 0; i < nb; i++)
		q->tab[i] = UINT32_MAX;
	for (i = 0; i < n; i++)
		if (q->lcp[i] < q->tab[i / BLOCK])
			q->tab[i / BLOCK] = q->lcp[i];
	for (lev = 1, half = 1; lev < levels; lev++, half *= 2) {
		const uint32_t *prev = q->tab + (lev - 1) * nb;
		uint32_t *cur = q->tab + lev * nb;

		for (i = 0; i + 2 * half <= nb; i++)
			cur[i] = prev[i] < prev[i + half] ? prev[i] : prev[i + half];
	}
}

static void
lce_free(struct lce *q)
{
	free(q->rank);
	free(q->lcp);
	free(q->tab);
}

/* Length of the longest common prefix of the suffixes at i and j, i != j. */
static size_t
lce(const struct lce *q, size_t i, size_t j)
{
	size_t lo = q->rank[i], hi = q->rank[j], t, bl, bh;
	unsigned k;
	uint32_t mn = UINT32_MAX, x, y;

	if (lo > hi) {
		t = lo;
		lo = hi;
		hi = t;
	}
	lo++;			/* min of lcp[lo .. hi] */
	bl = lo / BLOCK + 1;	/* the whole blocks bl .. bh-1 */
	bh = hi / BLOCK;
	if (bl >= bh) {
		for (t = lo; t <= hi; t++)
			if (q->lcp[t] < mn)
				mn = q->lcp[t];
		return mn;
	}
	for (t = lo; t < bl * BLOCK; t++)
		if (q->lcp[t] < mn)
			mn = q->lcp[t];
	for (t = bh * BLOCK; t <= hi; t++)
		if (q->lcp[t] < mn)
			mn = q->lcp[t];
	k = flog2(bh - bl);
	x = q->tab[k * q->nb + bl];
	y = q->tab[k * q->nb + bh - ((size_t)1 << k)];
	if (x < mn)
		mn = x;
	return y < mn ? y : mn;
}

/* Whether sym[a .. i) == sym[a+p .. i+p), a <= i, by the forward oracle. */
static bool
same_before(const struct lce *q, size_t a, size_t i, size_t p)
{
	return a == i || lce(q, a, a + p) >= i - a;
}

/*
 * The leftward extension of a match at i with period p that is at least SCAN long: the
 * largest l <= i with sym[i-l .. i) == sym[i+p-l .. i+p). Its start a = i - l is the
 * smallest a for which that holds, and it holds for every a' between a and i: a
 * galloping search down from i - SCAN, then a binary one, each step one forward LCE
 * query. (The search's visits make l < p, so it takes about log2 p steps; it does not
 * rely on that.)
 */
static size_t
extend_left(const struct lce *q, size_t i, size_t p)
{
	size_t good = i - SCAN, lo, d;

	for (d = 2 * SCAN;; d *= 2) {
		if (d >= i) {
			if (same_before(q, 0, i, p))
				return i;
			lo = 1;
			break;
		}
		if (!same_before(q, i - d, i, p)) {
			lo = i - d + 1;
			break;
		}
		good = i - d;
	}
	while (lo < good) {
		size_t mid = lo + (good - lo) / 2;

		if (same_before(q, mid, i, p))
			good = mid;
		else
			lo = mid + 1;
	}
	return i - good;
}

bool
period_find(const uint32_t *sym, size_t n, struct period *out)
{
	struct lce fw;
	struct period best = { 0, 0, 0 };
	bool built = false;	/* the tables are built on the first long extension */
	size_t i, p;

	if (n < 2)
		return false;
	if (n >= UINT32_MAX)
		die(EXIT_DATA, "period: too many symbols (%zu)", n);
	for (p = 1; 2 * p <= n; p++) {
		if (best.len == n)
			break;		/* nothing longer; larger periods lose ties */
		for (i = 0; i + p < n;) {
			size_t e, l, a, b, next;

			if (sym[i] != sym[i + p]) {
				i += p;
				continue;
			}
			/* sym[i .. i+e) == sym[i+p .. i+p+e), maximal. Most matches are
			 * short: compare a few symbols in place before asking the tables. */
			for (e = 1; e < SCAN && i + p + e < n && sym[i + e] == sym[i + p + e];)
				e++;
			if (e == SCAN && i + p + e < n) {
				if (!built)
					lce_init(&fw, sym, n);
				built = true;
				e = lce(&fw, i, i + p);
			}
			/* sym[i-l .. i) == sym[i+p-l .. i+p), maximal */
			for (l = 0; l < SCAN && l < i && sym[i - l - 1] == sym[i + p - l - 1];)
				l++;
			if (l == SCAN && l < i) {
				if (!built)
					lce_init(&fw, sym, n);
				built = true;
				l = extend_left(&fw, i, p);
			}
			a = i - l;
			b = i + p + e;
			if (b - a >= 2 * p && (b - a > best.len ||
			    (b - a == best.len && a < best.start && p == best.period))) {
				best.start = a;
				best.len = b - a;
				best.period = p;
			}
			/* The multiples of p whose pair lies inside [a, b) give the same run. */
			next = (i + e + p - 1) / p * p;
			i = next > i ? next : i + p;
		}
	}
	if (built)
		lce_free(&fw);
	if (best.len == 0)
		return false;
	*out = best;
	return true;
}
