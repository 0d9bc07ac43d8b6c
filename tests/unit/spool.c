/* SPDX-License-Identifier: ISC */
/* Unit tests for spool: append, then read back in any order, big and small records. */
#include <stdlib.h>
#include <string.h>

#include "core/spool.h"
#include "tap.h"

int
main(void)
{
	struct spool *sp = spool_open();
	uint64_t off[3000];
	char line[64];
	size_t i, bad = 0, big = 3u << 20;
	char *b = malloc(big);
	uint64_t boff;
	const char *p;

	for (i = 0; i < 3000; i++) {
		int n = snprintf(line, sizeof(line), "{\"id\":%zu}\n", i);

		off[i] = spool_add(sp, line, (size_t)n);
	}
	memset(b, 'x', big);
	b[big - 1] = '\n';
	boff = spool_add(sp, b, big);
	ok(spool_size(sp) == boff + big, "size counts every byte");
	for (i = 0; i < 3000; i++) {	/* forward */
		int n = snprintf(line, sizeof(line), "{\"id\":%zu}\n", i);

		if (memcmp(spool_get(sp, off[i], (size_t)n), line, (size_t)n) != 0)
			bad++;
	}
	ok(bad == 0, "forward reads");
	for (i = 3000, bad = 0; i-- > 0;) {	/* backward */
		int n = snprintf(line, sizeof(line), "{\"id\":%zu}\n", i);

		if (memcmp(spool_get(sp, off[i], (size_t)n), line, (size_t)n) != 0)
			bad++;
	}
	ok(bad == 0, "backward reads");
	p = spool_get(sp, boff, big);
	ok(p[0] == 'x' && p[big - 2] == 'x' && p[big - 1] == '\n', "a record bigger than the window");
	p = spool_get(sp, off[7], 9);
	ok(memcmp(p, "{\"id\":7}\n", 9) == 0, "small read after a big one");
	spool_add(sp, "tail\n", 5);
	ok(memcmp(spool_get(sp, boff + big, 5), "tail\n", 5) == 0, "append after reading");
	spool_close(sp);
	free(b);
	return tap_done();
}
