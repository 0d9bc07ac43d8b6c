/* SPDX-License-Identifier: ISC */
/*
 * merge: tt-perf-report's device merge over per-record summaries (see merge.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "tt/merge.h"
#include "tt/opclass.h"

struct key {
	int64_t	 k;	/* device, or id */
	uint32_t pos;	/* tie-break: stream position */
};

static int
keycmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

size_t
merge_count_devices(const struct fent *e, const uint32_t *sel, size_t n)
{
	int64_t *d = xreallocarray(NULL, n ? n : 1, sizeof(*d));
	size_t i, m = 0, k = 0;

	for (i = 0; i < n; i++)
		if (e[sel[i]].flags & FE_HASDEV)
			d[m++] = e[sel[i]].device;
	if (m > 0) {
		struct key *ks = xreallocarray(NULL, m, sizeof(*ks));

		for (i = 0; i < m; i++) {
			ks[i].k = d[i];
			ks[i].pos = 0;
		}
		qsort(ks, m, sizeof(*ks), keycmp);
		for (i = 0; i < m; i++)
			if (i == 0 || ks[i].k != ks[i - 1].k)
				k++;
		free(ks);
	}
	free(d);
	return k;
}

/* Device-merge warnings shown before "... and N more": a trace whose devices ran
 * different ops gives one per op, hundreds of lines that all say the same. */
#define MERGE_WARN_MAX 5


size_t
merge_devices(struct fent *e, const uint32_t *sel, size_t n, const struct names *nm,
    bool no_merge, bool verbose, uint32_t *out)
{
	struct key *q, *ids;
	size_t i, j, nq = 0, ndev, nqdev = 0, nout = 0, left, step, nwarn = 0;
	size_t *head, *end, *group, *missing;
	int64_t *qdev;
	struct buf b = BUF_INIT;

	ndev = merge_count_devices(e, sel, n);
	if (no_merge && ndev > 1) {
		if (verbose)
			say("Detected data from %zu devices. Keeping separate device data...", ndev);
		memcpy(out, sel, n * sizeof(*out));
		return n;
	}
	if (ndev == 0) {
		note("No device operations found in the CSV data.");
		memcpy(out, sel, n * sizeof(*out));
		return n;
	}
	if (verbose)
		say("Detected data from %zu devices. Merging device data...", ndev);

	/* Device ops into per-device queues (stable: stream order within a device);
	 * everything else is set aside and goes straight to the result. */
	q = xreallocarray(NULL, n ? n : 1, sizeof(*q));
	for (i = 0; i < n; i++) {
		const struct fent *x = &e[sel[i]];

		if (x->kind == FK_OP && (x->flags & (FE_DEVOP | FE_HASDEV)) == (FE_DEVOP | FE_HASDEV)) {
			q[nq].k = x->device;
			q[nq].pos = sel[i];
			nq++;
		} else
			out[nout++] = sel[i];
	}
	if (nq == 0) {
		/* Q43: no device rows, nothing survives, not even the set-aside rows. */
		free(q);
		return 0;
	}
	qsort(q, nq, sizeof(*q), keycmp);
	for (i = 0; i < nq; i++)
		if (i == 0 || q[i].k != q[i - 1].k)
			nqdev++;
	head = xreallocarray(NULL, nqdev, sizeof(*head));
	end = xreallocarray(NULL, nqdev, sizeof(*end));
	qdev = xreallocarray(NULL, nqdev, sizeof(*qdev));
	group = xreallocarray(NULL, nqdev, sizeof(*group));
	missing = xreallocarray(NULL, nqdev, sizeof(*missing));
	for (i = 0, j = 0; i < nq; i++) {
		if (i == 0 || q[i].k != q[i - 1].k) {
			head[j] = i;
			qdev[j] = q[i].k;
			j++;
		}
	}
	for (j = 0; j < nqdev; j++)
		end[j] = j + 1 < nqdev ? head[j + 1] : nq;

	for (left = nq, step = 0; left > 0; step++) {
		size_t ng = 0, nmiss = 0;
		bool named = false;
		uint32_t name = NAME_NONE;
		uint32_t chosen;

		for (j = 0; j < nqdev; j++) {
			uint32_t h;

			if (head[j] == end[j]) {
				if (nwarn++ < MERGE_WARN_MAX)
					warning("Warning: Device %lld is missing operation %s at "
					    "index %zu", (long long)qdev[j],
					    named ? names_str(nm, name) : "(none)", step);
				continue;
			}
			h = q[head[j]].pos;
			if (!named) {
				named = true;
				name = e[h].name;
			} else if (e[h].name != name) {
				missing[nmiss++] = j;
				continue;
			}
			group[ng++] = h;
			head[j]++;
			left--;
		}
		if (nmiss > 0) {
			buf_reset(&b);
			for (i = 0; i < nmiss; i++)
				buf_printf(&b, "%s%lld", i ? ", " : "", (long long)qdev[missing[i]]);
			if (nwarn++ < MERGE_WARN_MAX)
				warning("Warning: %s at index %zu not present in CSV for %zu devices "
				    "[%s] - do not trust data for this op or directly subsequent ops "
				    "with the same name", names_str(nm, name), step, nmiss, b.p);
		}
		if (opclass_collective(names_str(nm, name))) {
			double sum = 0, mean;
			size_t cnt = 0;

			for (i = 0; i < ng; i++) {
				if (!isnan(e[group[i]].dur)) {
					sum += e[group[i]].dur;
					cnt++;
				}
			}
			mean = cnt ? sum / (double)cnt : NAN;
			chosen = (uint32_t)group[0];
			if (!(mean == e[chosen].dur) && !(isnan(mean) && isnan(e[chosen].dur))) {
				e[chosen].dur = mean;
				e[chosen].flags |= FE_SETDUR;
			}
		} else {
			chosen = (uint32_t)group[0];
			for (i = 1; i < ng; i++)	/* Python max(): the first of the largest */
				if (e[group[i]].dur > e[chosen].dur)
					chosen = (uint32_t)group[i];
		}
		out[nout++] = chosen;
	}
	if (nwarn > MERGE_WARN_MAX)
		warning("... and %zu more warnings like these (devices that ran different ops)",
		    nwarn - MERGE_WARN_MAX);
	buf_free(&b);
	free(q);
	free(head);
	free(end);
	free(qdev);
	free(group);
	free(missing);

	/* Q8: merged and set-aside rows in op ID order. */
	ids = xreallocarray(NULL, nout, sizeof(*ids));
	for (i = 0; i < nout; i++) {
		ids[i].k = e[out[i]].id;
		ids[i].pos = out[i];
	}
	qsort(ids, nout, sizeof(*ids), keycmp);
	for (i = 0; i < nout; i++)
		out[i] = ids[i].pos;
	free(ids);
	return nout;
}
