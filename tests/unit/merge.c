/* SPDX-License-Identifier: ISC */
/* Unit tests for merge: tt-perf-report's device merge on summaries (docs/tt-perf-report.md
 * §8). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tt/merge.h"
#include "tap.h"

static struct names nm;
static struct fent e[64];
static size_t n;

static void
add(int64_t id, int64_t dev, const char *name, double dur, bool devop)
{
	struct fent *x = &e[n++];

	memset(x, 0, sizeof(*x));
	x->kind = FK_OP;
	x->id = id;
	x->dur = dur;
	x->name = names_intern(&nm, name, strlen(name));
	if (dev >= 0) {
		x->device = dev;
		x->flags |= FE_HASDEV;
	}
	if (devop)
		x->flags |= FE_DEVOP;
}

static const char *
run(bool no_merge)
{
	static char out[512];
	uint32_t sel[64], seq[64];
	size_t i, k;

	for (i = 0; i < n; i++)
		sel[i] = (uint32_t)i;
	k = merge_devices(e, sel, n, &nm, no_merge, false, seq);
	out[0] = '\0';
	for (i = 0; i < k; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%lld", i ? " " : "",
		    (long long)e[seq[i]].id);
	return out;
}

/* synthetic_multidev.csv in HOST START TS order */
static void
multidev(void)
{
	n = 0;
	add(2, 0, "MatmulDeviceOperation", 100000, true);
	add(8, 1, "MatmulDeviceOperation", 120000, true);
	add(3, 0, "AllGatherAsyncDeviceOperation", 50000, true);
	add(9, 1, "AllGatherAsyncDeviceOperation", 70000, true);
	add(4, 0, "ReduceScatterMinimalAsyncDeviceOperation", 30000, true);
	add(10, 1, "ReduceScatterMinimalAsyncDeviceOperation", 30000, true);
	add(5, 0, "SliceDeviceOperation", 10000, true);
	add(11, 1, "ConcatDeviceOperation", 12000, true);
	add(6, 0, "ConcatDeviceOperation", 11000, true);
	add(7, 0, "UnaryDeviceOperation", 5000, true);
}

/* The merge step by step as ttp-filter streams it: a step whenever every queue has a
 * head, the rest at the end; the chosen entries, in stream order. */
static const char *
run_stream(void)
{
	static char out[512];
	int64_t devs[2] = { 0, 1 };
	struct merge m;
	uint64_t c;
	size_t i, early = 0;
	bool chosen[64] = { false };

	merge_init(&m, devs, 2, &nm);
	for (i = 0; i < n; i++) {
		merge_push(&m, e[i].device, i);
		while (merge_ready(&m)) {
			merge_step(&m, e, 0, &c);
			chosen[c] = true;
			early++;
		}
	}
	while (merge_step(&m, e, 0, &c))
		chosen[c] = true;
	merge_done(&m);
	snprintf(out, sizeof(out), "%zu early:", early);
	for (i = 0; i < n; i++)
		if (chosen[i])
			snprintf(out + strlen(out), sizeof(out) - strlen(out), " %lld",
			    (long long)e[i].id);
	return out;
}

int
main(void)
{
	uint32_t sel[64];
	size_t i;

	names_init(&nm);
	multidev();
	is_str(run(false), "3 4 5 7 8 11", "synthetic_multidev: the reference's IDs (Q8)");
	ok(e[2].dur == 60000 && (e[2].flags & FE_SETDUR), "AllGather: the mean on device 0's row");
	ok(!(e[4].flags & FE_SETDUR), "ReduceScatter: mean equal to the row's own, unchanged");
	multidev();
	is_str(run(true), "2 8 3 9 4 10 5 11 6 7", "--no-merge-devices: stream order");
	for (i = 0; i < n; i++)
		sel[i] = (uint32_t)i;
	ok(merge_count_devices(e, sel, n) == 2, "two devices");
	multidev();
	is_str(run_stream(), "5 early: 8 3 4 5 11 7",
	    "step by step: the same ops (in stream order), five steps before the end");
	ok(e[2].dur == 60000 && (e[2].flags & FE_SETDUR) && (e[3].flags & FE_SKIP) &&
	    !(e[2].flags & FE_PENDING), "AllGather: the mean, device 1's row merged away");

	n = 0;
	add(4, 0, "B", 20, true);
	add(2, 0, "A", 10, true);
	add(3, -1, "(torch) x", NAN, false);
	is_str(run(true), "2 3 4", "one device merges even with no_merge (Q33)");

	n = 0;
	add(2, 0, "(torch) a", NAN, false);
	add(3, 0, "(torch) b", NAN, false);
	is_str(run(false), "", "no device ops: nothing survives (Q43)");

	n = 0;
	add(2, -1, "x", NAN, true);
	add(3, -1, "y", NAN, true);
	is_str(run(false), "2 3", "no device IDs at all: kept as they are");

	n = 0;
	add(2, 0, "Op", NAN, true);
	add(3, 1, "Op", 5, true);
	add(4, 2, "Op", 5, true);
	is_str(run(false), "2", "a leading NaN stays: Python max() compares with >");
	n = 0;
	add(2, 0, "Op", 4, true);
	add(3, 1, "Op", 5, true);
	add(4, 2, "Op", 5, true);
	is_str(run(false), "3", "ties keep the first device");
	n = 0;
	add(2, 0, "Op", 5, true);
	add(3, 1, "Op", NAN, true);
	is_str(run(false), "2", "a later NaN does not win either");

	n = 0;
	add(2, 0, "AllReduce", NAN, true);
	add(3, 1, "AllReduce", NAN, true);
	is_str(run(false), "2", "collective without durations");
	ok(!(e[0].flags & FE_SETDUR), "both NaN: nothing to change");
	n = 0;
	add(2, 0, "AllReduceX", NAN, true);
	add(3, 1, "AllReduceX", 7, true);
	add(4, 2, "AllReduceX", 8, true);
	is_str(run(false), "2", "collective on the lowest device");
	ok(e[0].dur == 7.5 && (e[0].flags & FE_SETDUR), "mean of the durations present");

	names_free(&nm);
	return tap_done();
}
