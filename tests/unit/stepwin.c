/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/phase/stepwin.c: the --steps range and TraceLens's steady-state
 * region rule (docs/tracelens.md §9.1, identify_steady_state_regions). */
#include <stdio.h>
#include <string.h>

#include "phase/stepwin.h"
#include "tap.h"

static void
range(const char *s, const char *want)
{
	struct stepwin_opts o;
	const char *err;
	char got[64];

	memset(&o, 0, sizeof(o));
	err = stepwin_parse(s, &o);
	if (err != NULL)
		snprintf(got, sizeof(got), "error");
	else
		snprintf(got, sizeof(got), "%lld %lld", o.from, o.to);
	is_str(got, want, s);
}

/* Request counts as a string of digits, one per step ('a' = 10 ...). */
static void
steady(const char *req, long long num_steps, const char *want, const char *name)
{
	long long v[128];
	size_t n = strlen(req), i, s, e, nreg;
	char got[64];

	for (i = 0; i < n; i++)
		v[i] = req[i] >= 'a' ? req[i] - 'a' + 10 : req[i] - '0';
	stepwin_steady(v, n, num_steps, &s, &e, &nreg);
	snprintf(got, sizeof(got), "[%zu,%zu) %zu", s, e, nreg);
	is_str(got, want, name);
}

int
main(void)
{
	range("3:5", "3 5");
	range("3:", "3 -1");
	range(":5", "1 5");
	range("4", "4 4");
	range("0:5", "error");
	range("5:3", "error");
	range("a:b", "error");
	range("", "error");
	/* peak 9, thr 0.2 (fewer than 32 steps): near peak within max(1, 1.8) */
	steady("1239999999999321", 32, "[3,15) 1", "opens after 6 near-peak steps, closes after 6 others");
	steady("12399999999", 32, "[3,10) 1", "open at the end: the last step left out");
	steady("1111", 32, "[2,3) 0", "no region: the middle (delta = n)");
	steady("9999991111119999999999", 32, "[0,11) 2",
	    "two regions: the first is larger (it runs until 6 steps off the peak)");
	steady("99999911111199999999999999", 32, "[12,25) 2", "the larger second region");
	steady("9999991111119999991111119", 32, "[0,11) 2", "equal sizes: the first");
	steady("9191919191919", 32, "[5,12) 1",
	    "near-peak steps need not be consecutive; the region starts 5 before the 6th");
	steady("5", 32, "[0,1) 0", "one step");
	steady("1111111111111111111111111111111111111111", 32, "[0,39) 1",
	    "all equal: one region to the last but one");
	return tap_done();
}
