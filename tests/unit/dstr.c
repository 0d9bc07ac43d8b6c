/* SPDX-License-Identifier: ISC */
/* Unit tests for dstr, the disk-backed intern table, against core/names as the model:
 * the same indexes for the same strings (first appearance order), the same text back,
 * whether it is still in the write buffer, in the read cache or read from the file;
 * strings with NULs, empty ones, ones longer than the cache's limit and the write buffer;
 * DSTR_LIVE strings valid at once; enough strings for the table to grow many times;
 * interning again after dstr_freeze. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dstr.h"
#include "core/names.h"
#include "tap.h"

/* String k of the test: its length from k (some long), its bytes from k (some NULs). */
static size_t
make(char *b, uint64_t k)
{
	size_t len = k % 97 == 0 ? 3000 + k % 5000 : k % 1009 == 0 ? 70000 + k % 3 : k % 61;
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = (char)(k % 13 == 0 && i % 7 == 3 ? 0 : 'a' + (k * 31 + i * 7) % 26);
	if (len > 0)
		b[0] = (char)('A' + k % 26);
	if (len > 8)
		memcpy(b + 1, &k, sizeof(k));	/* distinct for distinct k */
	return len;
}

int
main(void)
{
	struct dstr *d = dstr_new();
	struct names nm;
	char *b = malloc(80000);
	const char *live[DSTR_LIVE];
	size_t i, j, len, bad = 0, badget = 0, n = 300000;
	uint32_t id, want;

	names_init(&nm);
	ok(dstr_count(d) == 0, "empty at first");
	ok(strcmp(dstr_get(d, 0), "None") == 0, "an index not given is None");
	for (i = 0; i < n; i++) {
		uint64_t k = tap_rand() % (n / 2);	/* about half of them repeats */

		len = make(b, k);
		id = dstr_intern(d, b, len);
		want = names_intern(&nm, b, len);
		bad += id != want;
		if (i % 1000 == 0) {	/* one read back at once, anywhere */
			uint32_t x = (uint32_t)(tap_rand() % nm.n);
			const char *g = dstr_get(d, x);

			badget += dstr_len(d, x) != nm.len[x] ||
			    memcmp(g, nm.str[x], nm.len[x]) != 0 || g[nm.len[x]] != '\0';
		}
	}
	ok(bad == 0, "the same indexes as names (%zu differ)", bad);
	ok(badget == 0, "reads while adding (%zu differ)", badget);
	ok(dstr_count(d) == nm.n, "%zu strings, names %zu", dstr_count(d), nm.n);
	for (bad = 0, i = 0; i < nm.n; i++) {
		const char *g = dstr_get(d, (uint32_t)i);

		bad += dstr_len(d, (uint32_t)i) != nm.len[i] ||
		    memcmp(g, nm.str[i], nm.len[i]) != 0 || g[nm.len[i]] != '\0';
	}
	ok(bad == 0, "every string read back in order (%zu differ)", bad);
	for (bad = 0, i = nm.n; i-- > 0;) {
		const char *g = dstr_get(d, (uint32_t)i);

		bad += memcmp(g, nm.str[i], nm.len[i]) != 0;
	}
	ok(bad == 0, "and backwards (%zu differ)", bad);
	for (bad = 0, i = 0; i < 1000; i++) {
		for (j = 0; j < DSTR_LIVE; j++)
			live[j] = dstr_get(d, (uint32_t)((i * 7919 + j * 104729) % nm.n));
		for (j = 0; j < DSTR_LIVE; j++) {
			size_t x = (i * 7919 + j * 104729) % nm.n;

			bad += memcmp(live[j], nm.str[x], nm.len[x]) != 0;
		}
	}
	ok(bad == 0, "%d strings valid at once (%zu differ)", DSTR_LIVE, bad);
	dstr_freeze(d);
	for (bad = 0, i = 0; i < nm.n; i += 7) {
		const char *g = dstr_get(d, (uint32_t)i);

		bad += memcmp(g, nm.str[i], nm.len[i]) != 0;
	}
	ok(bad == 0, "frozen: the strings read back (%zu differ)", bad);
	for (bad = 0, i = 0; i < 20000; i++) {	/* every one again: no new index */
		uint64_t k = tap_rand() % (n / 2);

		len = make(b, k);
		want = names_lookup(&nm, b, len);
		id = dstr_intern(d, b, len);
		bad += want != NAME_NONE ? id != want : id != nm.n;
		if (want == NAME_NONE)
			names_intern(&nm, b, len);
	}
	ok(bad == 0, "repeats keep their indexes after a freeze (%zu differ)", bad);
	id = dstr_intern(d, "", 0);
	ok(id == names_intern(&nm, "", 0) && dstr_len(d, id) == 0 &&
	    *dstr_get(d, id) == '\0', "the empty string");
	ok(dstr_intern(d, "a\0b", 3) != dstr_intern(d, "a\0c", 3), "NULs are bytes");
	dstr_free(d);
	names_free(&nm);
	d = dstr_new();
	ok(dstr_intern(d, "x", 1) == 0 && dstr_intern(d, "y", 1) == 1 &&
	    dstr_intern(d, "x", 1) == 0 && strcmp(dstr_get(d, 1), "y") == 0,
	    "a small table, in the write buffer");
	dstr_free(d);
	dstr_free(NULL);
	free(b);
	return tap_done();
}
