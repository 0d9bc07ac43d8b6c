/* SPDX-License-Identifier: ISC */
/* reader: the row of a table of readers that claims an input (core/reader.h). */
#include <stddef.h>

#include "core/reader.h"

const struct reader *
reader_find(const struct reader *const *table, const unsigned char *head, size_t n)
{
	for (; *table != NULL; table++)
		if ((*table)->sniff(head, n))
			return *table;
	return NULL;
}
