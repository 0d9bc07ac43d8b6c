/* SPDX-License-Identifier: ISC */
/* Unit tests for spool: append, then read back in any order, big and small records;
 * line by line; reset. */
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
	{	/* every line in order, the big one and a last one without newline */
		uint64_t o = 0;
		size_t len, n = 0, nbig = 0;

		spool_add(sp, "end", 3);
		bad = 0;
		while ((p = spool_line(sp, &o, &len)) != NULL) {
			if (n < 3000) {
				int k = snprintf(line, sizeof(line), "{\"id\":%zu}\n", n);

				if (len != (size_t)k || memcmp(p, line, len) != 0)
					bad++;
			} else if (n == 3000)
				nbig = len == big && p[0] == 'x' && p[big - 1] == '\n';
			else if (n == 3001)
				bad += len != 5 || memcmp(p, "tail\n", 5) != 0;
			else if (n == 3002)
				bad += len != 3 || memcmp(p, "end", 3) != 0;
			n++;
		}
		ok(bad == 0 && nbig && n == 3003 && o == spool_size(sp),
		    "spool_line: every line, one longer than the window, none ending the file");
		spool_reset(sp);
		o = 0;
		ok(spool_size(sp) == 0 && spool_line(sp, &o, &len) == NULL, "reset empties it");
		off[0] = spool_add(sp, "again\n", 6);
		p = spool_line(sp, &o, &len);
		ok(off[0] == 0 && p != NULL && len == 6 && memcmp(p, "again\n", 6) == 0,
		    "reused after reset");
	}
	spool_close(sp);
	free(b);
	return tap_done();
}
