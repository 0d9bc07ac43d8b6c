/* SPDX-License-Identifier: ISC */
/* Unit tests for spsort: records in random order come back sorted, the same with one run
 * in memory, with a few runs, and with runs of one and of three records (forced by
 * TTP_SPSORT_RUN); an empty sort; duplicate keys broken by a second field. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/spool.h"
#include "tap.h"

struct r {
	int64_t	 key;
	uint32_t id;
	char	 pad[20];
};

static int
cmp(const void *a, const void *b)
{
	const struct r *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* n records (keys in [0, range)) through a sort with runs of run records (0: default);
 * true when they come back in order, all of them, each intact. */
static int
check(size_t n, int64_t range, const char *run, size_t *nruns)
{
	struct spsort *s;
	const struct r *p;
	struct r x, prev;
	size_t i, got = 0;
	int good = 1;
	uint64_t sum = 0, sum2 = 0;

	if (run != NULL)
		setenv("TTP_SPSORT_RUN", run, 1);
	else
		unsetenv("TTP_SPSORT_RUN");
	s = spsort_new(sizeof(struct r), cmp);
	for (i = 0; i < n; i++) {
		memset(&x, 0, sizeof(x));
		x.key = (int64_t)(tap_rand() % (uint64_t)range) - range / 2;
		x.id = (uint32_t)i;
		memset(x.pad, (int)(i & 0x7f), sizeof(x.pad));
		sum += (uint64_t)x.key * 31 + x.id;
		spsort_add(s, &x);
	}
	good = spsort_count(s) == n;
	while ((p = spsort_next(s)) != NULL) {
		if (got > 0 && cmp(&prev, p) >= 0)
			good = 0;
		if ((unsigned char)p->pad[19] != (p->id & 0x7f))
			good = 0;
		sum2 += (uint64_t)p->key * 31 + p->id;
		prev = *p;
		got++;
	}
	*nruns = spsort_runs(s);
	spsort_free(s);
	return good && got == n && sum == sum2;
}

int
main(void)
{
	size_t runs;

	ok(check(0, 10, NULL, &runs) && runs == 0, "an empty sort");
	ok(check(1000, 50, NULL, &runs) && runs == 0, "one run in memory");
	ok(check(200000, 1000000, NULL, &runs) && runs == 2, "two runs of the default size");
	ok(check(1000, 7, "1", &runs) && runs == 1000, "runs of one record");
	ok(check(10000, 100, "3", &runs) && runs == 3334, "runs of three records, duplicate keys");
	ok(check(100000, 1 << 30, "4096", &runs) && runs == 25, "25 runs");
	unsetenv("TTP_SPSORT_RUN");
	return tap_done();
}
