/* SPDX-License-Identifier: ISC */
/*
 * names: interned strings (op and signpost names): each distinct string once, known by
 * a small index in order of first appearance; the text stays put while the table grows.
 */
#ifndef TTP_NAMES_H
#define TTP_NAMES_H

#include <stddef.h>
#include <stdint.h>

#define NAME_NONE	UINT32_MAX

/* Interned strings: every distinct op and signpost name once. */
struct names {
	char	**str;
	size_t	 *len;
	size_t	  n, cap;
	uint32_t *tab;		/* open addressing: index + 1, 0 = empty */
	size_t	  tabcap;
};

void names_init(struct names *nm);
uint32_t names_intern(struct names *nm, const char *s, size_t len);
/* The index of s, or NAME_NONE when it was never interned. */
uint32_t names_lookup(const struct names *nm, const char *s, size_t len);
const char *names_str(const struct names *nm, uint32_t i);	/* "None" for NAME_NONE */
void names_free(struct names *nm);

#endif
