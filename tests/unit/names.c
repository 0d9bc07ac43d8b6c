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
	free(big);
	return tap_done();
}
