/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for names: indexes in order of first appearance, lookups, strings that stay
 * put while the table grows (many short ones, some longer than a block), embedded NULs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "tap.h"

int
main(void)
{
	struct names nm;
	const char *first;
	char s[32], *big = malloc(110000);
	size_t i, bad = 0;
	uint32_t k, next = 2;
	int added;

	names_init(&nm);
	ok(names_lookup(&nm, "x", 1) == NAME_NONE, "lookup in an empty table");
	ok(names_intern(&nm, "a", 1) == 0 && names_intern(&nm, "b", 1) == 1 &&
	    names_intern(&nm, "a", 1) == 0, "indexes in order of first appearance");
	first = names_str(&nm, 0);
	memset(big, 'z', 110000);	/* the longest name below is 70000 + 40000 */
	for (i = 0; i < 50000; i++) {
		int n = snprintf(s, sizeof(s), "name-%zu", i);

		if (names_intern(&nm, s, (size_t)n) != next++)
			bad++;
		if (i % 10000 == 0 && names_intern(&nm, big, 70000 + i) != next++)
			bad++;
	}
	ok(bad == 0, "50,000 new names get the next indexes");
	ok(first == names_str(&nm, 0) && strcmp(first, "a") == 0, "text stays put while it grows");
	k = names_lookup(&nm, big, 70000 + 20000);
	ok(k != NAME_NONE && nm.len[k] == 90000 && names_str(&nm, k)[89999] == 'z' &&
	    names_str(&nm, k)[90000] == '\0', "long strings, NUL-terminated");
	ok(names_lookup(&nm, "name-49999", 10) == next - 1, "lookup finds a late name");
	k = names_add(&nm, "a\0b", 3, &added);
	ok(added && k != 0 && names_add(&nm, "a\0b", 3, &added) == k && !added,
	    "embedded NUL: its own name; added only the first time");
	ok(strcmp(names_str(&nm, NAME_NONE), "None") == 0, "NAME_NONE reads as None");
	names_free(&nm);

	/* rewind: the names added since a count are gone, the others still found, and
	 * the indexes go on from the count (many colliding chains in a small table) */
	names_init(&nm);
	for (i = 0; i < 1000; i++)
		names_intern(&nm, s, (size_t)snprintf(s, sizeof(s), "k%zu", i));
	for (i = 1000; i < 1100; i++)
		names_intern(&nm, s, (size_t)snprintf(s, sizeof(s), "k%zu", i));
	names_intern(&nm, big, 70000);
	names_rewind(&nm, 1000);
	bad = nm.n != 1000;
	for (i = 0; i < 1100; i++) {
		k = names_lookup(&nm, s, (size_t)snprintf(s, sizeof(s), "k%zu", i));
		if (i < 1000 ? k != i : k != NAME_NONE)
			bad++;
	}
	ok(bad == 0 && names_lookup(&nm, big, 70000) == NAME_NONE,
	    "rewind: the later names are gone, the earlier ones found");
	ok(names_intern(&nm, "k1050", 5) == 1000 && names_intern(&nm, "k5", 2) == 5 &&
	    strcmp(names_str(&nm, 1000), "k1050") == 0, "rewind: the indexes go on from there");
	names_rewind(&nm, nm.n);
	ok(nm.n == 1001, "rewind to the current count: nothing changes");
	names_free(&nm);
	free(big);
	{
		static const char *const list[] = { "mm", "addmm", "bmm" };

		ok(names_in_list(list, 3, "bmm", 3) == 2 && names_in_list(list, 3, "addmmx", 5) == 1 &&
		    names_in_list(list, 3, "add", 3) == 3 && names_in_list(list, 3, "mmm", 3) == 3 &&
		    names_in_list(list, 0, "mm", 2) == 0, "names_in_list: exact, by length, absent");
	}
	return tap_done();
}
