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

static int
i64cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
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

void
merge_init(struct merge *m, const int64_t *devs, size_t ndev, const struct names *nm)
{
	memset(m, 0, sizeof(*m));
	m->nm = nm;
	m->ndev = m->nempty = ndev;
	m->dev = xreallocarray(NULL, ndev ? ndev : 1, sizeof(*m->dev));
	memcpy(m->dev, devs, ndev * sizeof(*devs));
	m->q = xcalloc(ndev ? ndev : 1, sizeof(*m->q));
	m->group = xreallocarray(NULL, ndev ? ndev : 1, sizeof(*m->group));
	m->missing = xreallocarray(NULL, ndev ? ndev : 1, sizeof(*m->missing));
}

size_t
merge_devindex(const int64_t *devs, size_t n, int64_t d)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (devs[mid] < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && devs[lo] == d ? lo : n;
}

void
merge_push(struct merge *m, int64_t device, uint64_t pos)
{
	size_t i = merge_devindex(m->dev, m->ndev, device);
	struct mqueue *q;

	if (i == m->ndev)
		die(EXIT_DATA, "internal error: device %lld has no merge queue", (long long)device);
	q = &m->q[i];
	if (q->head == q->n) {
		q->head = q->n = 0;
		m->nempty--;
	} else if (q->n == q->cap && q->head >= q->n / 2) {
		/* reuse the room of the ops gone out */
		memmove(q->v, q->v + q->head, (q->n - q->head) * sizeof(*q->v));
		q->n -= q->head;
		q->head = 0;
	}
	q->v = xgrow(q->v, &q->cap, q->n + 1, sizeof(*q->v));
	q->v[q->n++] = pos;
}

bool
merge_ready(const struct merge *m)
{
	return m->ndev > 0 && m->nempty == 0;
}

bool
merge_step(struct merge *m, struct fent *e, uint64_t base, uint64_t *chosen)
{
	size_t i, j, ng = 0, nmiss = 0;
	bool named = false;
	uint32_t name = NAME_NONE;
	struct fent *c;

	if (m->nempty == m->ndev)
		return false;
	for (j = 0; j < m->ndev; j++) {
		struct mqueue *q = &m->q[j];
		uint64_t h;

		if (q->head == q->n) {
			if (m->nwarn++ < MERGE_WARN_MAX)
				warning("Warning: Device %lld is missing operation %s at index %zu",
				    (long long)m->dev[j], named ? names_str(m->nm, name) : "(none)",
				    m->step);
			continue;
		}
		h = q->v[q->head];
		if (!named) {
			named = true;
			name = e[h - base].name;
		} else if (e[h - base].name != name) {
			m->missing[nmiss++] = j;
			continue;
		}
		m->group[ng++] = h;
		if (++q->head == q->n)
			m->nempty++;
	}
	if (nmiss > 0) {
		buf_reset(&m->b);
		for (i = 0; i < nmiss; i++)
			buf_printf(&m->b, "%s%lld", i ? ", " : "", (long long)m->dev[m->missing[i]]);
		if (m->nwarn++ < MERGE_WARN_MAX)
			warning("Warning: %s at index %zu not present in CSV for %zu devices [%s] - "
			    "do not trust data for this op or directly subsequent ops with the same "
			    "name", names_str(m->nm, name), m->step, nmiss, m->b.p);
	}
	*chosen = m->group[0];
	if (opclass_collective(names_str(m->nm, name))) {
		/* the lowest device's row with the mean of the group's durations */
		double sum = 0, mean;
		size_t cnt = 0;

		for (i = 0; i < ng; i++) {
			if (!isnan(e[m->group[i] - base].dur)) {
				sum += e[m->group[i] - base].dur;
				cnt++;
			}
		}
		mean = cnt ? sum / (double)cnt : NAN;
		c = &e[*chosen - base];
		if (!(mean == c->dur) && !(isnan(mean) && isnan(c->dur))) {
			c->dur = mean;
			c->flags |= FE_SETDUR;
		}
	} else {
		for (i = 1; i < ng; i++)	/* Python max(): the first of the largest */
			if (e[m->group[i] - base].dur > e[*chosen - base].dur)
				*chosen = m->group[i];
	}
	for (i = 0; i < ng; i++) {
		e[m->group[i] - base].flags &= (uint16_t)~FE_PENDING;
		if (m->group[i] != *chosen)
			e[m->group[i] - base].flags |= FE_SKIP;
	}
	m->step++;
	return true;
}

void
merge_done(struct merge *m)
{
	if (m->nwarn > MERGE_WARN_MAX)
		warning("... and %zu more warnings like these (devices that ran different ops)",
		    m->nwarn - MERGE_WARN_MAX);
	merge_free(m);
}

void
merge_free(struct merge *m)
{
	size_t j;

	for (j = 0; j < m->ndev; j++)
		free(m->q[j].v);
	free(m->q);
	free(m->dev);
	free(m->group);
	free(m->missing);
	buf_free(&m->b);
	memset(m, 0, sizeof(*m));
}

static bool
is_devop(const struct fent *x)
{
	return x->kind == FK_OP && (x->flags & (FE_DEVOP | FE_HASDEV)) == (FE_DEVOP | FE_HASDEV);
}

size_t
merge_devices(struct fent *e, const uint32_t *sel, size_t n, const struct names *nm,
    bool no_merge, bool verbose, uint32_t *out)
{
	struct key *ids;
	struct merge m;
	int64_t *devs;
	size_t i, nout = 0, ndev, nqdev = 0, nq = 0;
	uint64_t chosen;

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

	/* The devices that have device ops: one queue each. */
	devs = xreallocarray(NULL, n ? n : 1, sizeof(*devs));
	for (i = 0; i < n; i++)
		if (is_devop(&e[sel[i]]))
			devs[nq++] = e[sel[i]].device;
	if (nq == 0) {
		/* Q43: no device rows, nothing survives, not even the set-aside rows. */
		free(devs);
		return 0;
	}
	qsort(devs, nq, sizeof(*devs), i64cmp);
	for (i = 0; i < nq; i++)
		if (i == 0 || devs[i] != devs[i - 1])
			devs[nqdev++] = devs[i];
	merge_init(&m, devs, nqdev, nm);
	free(devs);
	/* Device ops into their queues (stream order within a device); everything else is
	 * set aside and goes straight to the result. */
	for (i = 0; i < n; i++) {
		if (is_devop(&e[sel[i]]))
			merge_push(&m, e[sel[i]].device, sel[i]);
		else
			out[nout++] = sel[i];
	}
	while (merge_step(&m, e, 0, &chosen))
		out[nout++] = (uint32_t)chosen;
	merge_done(&m);

	/* Q8: merged and set-aside rows in op ID order. */
	ids = xreallocarray(NULL, nout ? nout : 1, sizeof(*ids));
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
