/* SPDX-License-Identifier: ISC */
/*
 * names: the one intern table: each distinct string once, known by a small index in
 * order of first appearance; the text stays put while the table grows (strings live in
 * large blocks, not one allocation each). Used for op and signpost names, the report's
 * strings and the keys of messages printed once.
 */
#ifndef TTP_NAMES_H
#define TTP_NAMES_H

#include <stddef.h>
#include <stdint.h>

#define NAME_NONE	UINT32_MAX

struct names_block;

struct names {
	char	**str;		/* NUL-terminated, in the blocks */
	size_t	 *len;
	size_t	  n, cap;
	uint32_t *tab;		/* open addressing: index + 1, 0 = empty */
	size_t	  tabcap;
	struct names_block *blocks;	/* the newest first */
};

void names_init(struct names *nm);
uint32_t names_intern(struct names *nm, const char *s, size_t len);
/* Like names_intern; *added tells whether s was new. */
uint32_t names_add(struct names *nm, const char *s, size_t len, int *added);
/* The index of s, or NAME_NONE when it was never interned. */
uint32_t names_lookup(const struct names *nm, const char *s, size_t len);
const char *names_str(const struct names *nm, uint32_t i);	/* "None" for NAME_NONE */
/* Forget the names added since the table held n of them (n <= nm->n): a stage that
 * interned the strings of a record it then leaves out (a bad record) takes them back,
 * so that the indexes go on as if the record had not been read. */
void names_rewind(struct names *nm, size_t n);
void names_free(struct names *nm);

/* A fixed list of names (a static array of n strings, searched in order): the index of
 * s[0..len), or n when it is not there. For short lists read rarely; the table above is
 * for names met while reading. */
size_t names_in_list(const char *const *list, size_t n, const char *s, size_t len);

#endif
