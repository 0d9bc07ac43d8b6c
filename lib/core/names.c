/* SPDX-License-Identifier: ISC */
/*
 * names: the interned-string table (see names.h): the strings in order of first
 * appearance, kept in blocks of 64 KB (a longer string gets a block of its own), and an
 * open-addressing hash table of their indexes (FNV-1a).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/hash.h"
#include "core/names.h"

#define BLOCKSZ	65536

struct names_block {
	struct names_block *next;
	size_t	 used, cap;
	char	 text[];
};

void
names_init(struct names *nm)
{
	memset(nm, 0, sizeof(*nm));
}

static uint32_t
names_find(const struct names *nm, const char *s, size_t len, size_t *slot)
{
	size_t i;

	if (nm->tabcap == 0) {
		*slot = 0;
		return NAME_NONE;
	}
	for (i = hash_bytes(s, len) & (nm->tabcap - 1); nm->tab[i] != 0;
	    i = (i + 1) & (nm->tabcap - 1)) {
		uint32_t k = nm->tab[i] - 1;

		if (nm->len[k] == len && memcmp(nm->str[k], s, len) == 0)
			return k;
	}
	*slot = i;
	return NAME_NONE;
}

static void
names_rehash(struct names *nm)
{
	size_t i, j, cap = nm->tabcap ? 2 * nm->tabcap : 256;

	free(nm->tab);
	nm->tab = xcalloc(cap, sizeof(*nm->tab));
	nm->tabcap = cap;
	for (i = 0; i < nm->n; i++) {
		for (j = hash_bytes(nm->str[i], nm->len[i]) & (cap - 1); nm->tab[j] != 0;
		    j = (j + 1) & (cap - 1))
			;
		nm->tab[j] = (uint32_t)i + 1;
	}
}

/* Room for n bytes that never move. */
static char *
names_room(struct names *nm, size_t n)
{
	struct names_block *b = nm->blocks;

	if (b == NULL || b->cap - b->used < n) {
		size_t cap = n > BLOCKSZ / 4 ? n : BLOCKSZ;

		b = xmalloc(sizeof(*b) + cap);
		b->used = 0;
		b->cap = cap;
		if (cap == n && nm->blocks != NULL) {	/* keep filling the current block */
			b->next = nm->blocks->next;
			nm->blocks->next = b;
		} else {
			b->next = nm->blocks;
			nm->blocks = b;
		}
	}
	b->used += n;
	return b->text + b->used - n;
}

uint32_t
names_intern(struct names *nm, const char *s, size_t len)
{
	int added;

	return names_add(nm, s, len, &added);
}

uint32_t
names_add(struct names *nm, const char *s, size_t len, int *added)
{
	size_t slot;
	uint32_t k = names_find(nm, s, len, &slot);

	*added = k == NAME_NONE;
	if (k != NAME_NONE)
		return k;
	if (nm->n >= UINT32_MAX - 1 || len > SIZE_MAX / 2)
		die(EXIT_DATA, "too many distinct names");
	if (2 * (nm->n + 1) > nm->tabcap) {
		names_rehash(nm);
		(void)names_find(nm, s, len, &slot);
	}
	if (nm->n == nm->cap) {
		nm->cap = grow_cap(nm->cap, nm->n + 1);
		nm->str = xreallocarray(nm->str, nm->cap, sizeof(*nm->str));
		nm->len = xreallocarray(nm->len, nm->cap, sizeof(*nm->len));
	}
	nm->str[nm->n] = names_room(nm, len + 1);
	memcpy(nm->str[nm->n], s, len);
	nm->str[nm->n][len] = '\0';
	nm->len[nm->n] = len;
	nm->tab[slot] = (uint32_t)nm->n + 1;
	return (uint32_t)nm->n++;
}

/* Empty slot j of the hash table, moving later entries of its probe chain back
 * (backward-shift deletion: every chain stays unbroken). */
static void
names_unslot(struct names *nm, size_t j)
{
	size_t k, h, mask = nm->tabcap - 1;

	for (;;) {
		nm->tab[j] = 0;
		for (k = j;;) {
			k = (k + 1) & mask;
			if (nm->tab[k] == 0)
				return;
			h = hash_bytes(nm->str[nm->tab[k] - 1], nm->len[nm->tab[k] - 1]) & mask;
			/* the entry at k may move to j unless its home is in (j, k] */
			if (j < k ? h <= j || h > k : h <= j && h > k)
				break;
		}
		nm->tab[j] = nm->tab[k];
		j = k;
	}
}

void
names_rewind(struct names *nm, size_t n)
{
	struct names_block *b = nm->blocks;

	while (nm->n > n) {
		size_t i = nm->n - 1, j, mask = nm->tabcap - 1;

		for (j = hash_bytes(nm->str[i], nm->len[i]) & mask; nm->tab[j] != i + 1;
		    j = (j + 1) & mask)
			;
		names_unslot(nm, j);
		/* its text, when it is the last in the current block */
		if (b != NULL && nm->str[i] + nm->len[i] + 1 == b->text + b->used)
			b->used -= nm->len[i] + 1;
		nm->n--;
	}
}

const char *
names_str(const struct names *nm, uint32_t i)
{
	return i == NAME_NONE || i >= nm->n ? "None" : nm->str[i];
}

size_t
names_in_list(const char *const *list, size_t n, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
			break;
	return i;
}

void
names_free(struct names *nm)
{
	struct names_block *b, *next;

	for (b = nm->blocks; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	free(nm->str);
	free(nm->len);
	free(nm->tab);
	memset(nm, 0, sizeof(*nm));
}

uint32_t
names_lookup(const struct names *nm, const char *s, size_t len)
{
	size_t slot;

	return names_find(nm, s, len, &slot);
}
