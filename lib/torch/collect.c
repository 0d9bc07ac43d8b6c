/* SPDX-License-Identifier: ISC */
/* collect: collective kernels as compact records (torch/collect.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "core/rec.h"
#include "core/trace.h"
#include "torch/collect.h"

/* the kernel's collective args (its "comm" object) and the keys they become */
static const char *const commkey[][2] = {
	{ "Process Group Name", "group" }, { "Process Group Description", "group_desc" },
	{ "Process Group Ranks", "group_ranks" }, { "Collective name", "coll" },
	{ "Group size", "group_size" }, { "dtype", "dtype" },
	{ "In msg nelems", "in_nelems" }, { "Out msg nelems", "out_nelems" },
	{ "In split size", "in_split" }, { "Out split size", "out_split" },
	{ "Seq", "seq" }, { "Comms Id", "comms_id" }, { "Src Rank", "src_rank" },
	{ "Dst Rank", "dst_rank" }
};
#define NCOMMKEY	(sizeof(commkey) / sizeof(commkey[0]))

struct one {
	struct rec	*r;
	long long	 id, start;
	char		*group;
};

struct trace {
	bool		 open;
	long long	 rank, world, devices;
	char		*file, *where;
	struct one	*c;
	size_t		 n, cap;
	struct rec	**g;		/* its "group" records */
	size_t		 ng, capg;
};

/* TraceLens's default --rank_regex rank[\[\-_/]?(?P<rank>\d+) on s: the rank or -1 */
static long long
rank_in(const char *s)
{
	const char *p;

	for (p = s; (p = strstr(p, "rank")) != NULL; p++) {
		const char *q = p + 4;

		if (*q == '[' || *q == '-' || *q == '_' || *q == '/')
			if (isdigit((unsigned char)q[1]))
				q++;
		if (isdigit((unsigned char)*q)) {
			long long v = 0;

			while (isdigit((unsigned char)*q) && v < 100000000)
				v = v * 10 + (*q++ - '0');
			return v;
		}
	}
	return -1;
}

long long
coll_rank_in_name(const char *path)
{
	const char *base;
	long long r;

	if (path == NULL)
		return -1;
	base = strrchr(path, '/');
	r = rank_in(base != NULL ? base + 1 : path);
	return r >= 0 ? r : rank_in(path);
}

long long
coll_trace_rank(const char *dist, size_t dlen, long long given, const char *file,
    const char **from)
{
	long long v, world = 0;
	const char *src = NULL;

	v = -1;
	if (dist != NULL) {
		struct error e = ERROR_INIT;
		struct rec *d = rec_parse(dist, dlen, "distributedInfo", &e);

		if (d != NULL && rec_type(d, "rank") == REC_INT) {
			if (!rec_int(d, "world_size", &world))
				world = 0;
			if (world != 1 && rec_int(d, "rank", &v) && v >= 0)
				src = "distributed";
			else
				v = -1;
		}
		rec_free(d);
		error_free(&e);
	}
	if (v < 0 && given >= 0) {
		v = given;
		src = "option";
	}
	if (v < 0 && (v = coll_rank_in_name(file)) >= 0)
		src = "name";
	if (from != NULL)
		*from = src;
	return v;
}

static int
cmp_one(const void *a, const void *b)
{
	const struct one *x = a, *y = b;
	int d = strcmp(x->group, y->group);

	if (d != 0)
		return d;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static int
cmp_id(const void *a, const void *b)
{
	const struct one *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static void
drop_groups(struct trace *t)
{
	size_t i;

	for (i = 0; i < t->ng; i++)
		rec_free(t->g[i]);
	free(t->g);
	t->g = NULL;
	t->ng = t->capg = 0;
}

/* A process group's record (ttp-parse's "group": its name and rank list), kept for
 * the trace's output in the same form: kind, trace, rank, group, group_ranks. */
static void
take_group(struct trace *t, struct rec *r)
{
	const char *name = rec_raw(r, "group", NULL), *ranks = rec_raw(r, "group_ranks", NULL);
	size_t nl, rl;
	struct rec *g;

	if (name == NULL || ranks == NULL || rec_type(r, "group") == REC_NULL) {
		rec_reject(r, "group record without \"group\" and \"group_ranks\"");
		return;
	}
	name = rec_raw(r, "group", &nl);
	ranks = rec_raw(r, "group_ranks", &rl);
	g = rec_new();
	rec_set_str(g, "kind", "group");
	rec_set_str(g, "trace", "kineto");
	rec_set_int(g, "rank", -1);	/* the trace's, when written */
	rec_set_raw(g, "group", name, nl);
	rec_set_raw(g, "group_ranks", ranks, rl);
	t->g = xgrow(t->g, &t->capg, t->ng + 1, sizeof(*t->g));
	t->g[t->ng++] = g;
}

static void
flush(struct trace *t, FILE *out)
{
	struct rec *r;
	size_t i;

	if (t->open || t->n > 0) {
		/* ordinals: by start within each group, ties in trace order (none: a
		 * trace of no collective has no array to sort) */
		if (t->n > 1)
			qsort(t->c, t->n, sizeof(*t->c), cmp_one);
		/* a running count per group */
		{
			long long ord = 0;

			for (i = 0; i < t->n; i++) {
				ord = i > 0 && strcmp(t->c[i - 1].group, t->c[i].group) == 0 ?
				    ord + 1 : 0;
				rec_set_int(t->c[i].r, "ordinal", ord);
			}
		}
		if (t->n > 1)
			qsort(t->c, t->n, sizeof(*t->c), cmp_id);
		r = rec_new();
		rec_set_str(r, "kind", "rank");
		rec_set_str(r, "trace", "kineto");
		rec_set_int(r, "rank", t->rank);
		if (t->file != NULL)
			rec_set_str(r, "file", t->file);
		if (t->world > 0)
			rec_set_int(r, "world_size", t->world);
		rec_set_int(r, "devices", t->devices);
		rec_set_int(r, "collectives", (long long)t->n);
		rec_write(r, out);
		rec_free(r);
		for (i = 0; i < t->ng; i++) {
			rec_set_int(t->g[i], "rank", t->rank);
			rec_write(t->g[i], out);
		}
		for (i = 0; i < t->n; i++) {
			rec_write(t->c[i].r, out);
			rec_free(t->c[i].r);
			free(t->c[i].group);
		}
	}
	drop_groups(t);
	free(t->file);
	free(t->where);
	free(t->c);
	memset(t, 0, sizeof(*t));
	t->rank = -1;
}

/* A new trace: its rank, file and devices, from its trace record r (core/trace.h; read
 * after the bad-record check, as trace_read may mark r bad). */
static int
open_trace(struct trace *t, struct rec *r, const struct collect_opts *o, struct error *err)
{
	struct trace_info ti;
	const char *raw = NULL;
	size_t len = 0;
	long long given = o->rank;

	(void)trace_read(r, &ti);
	t->open = true;
	t->rank = -1;
	/* the devices' count (trace_read has their text only) */
	t->devices = (long long)rec_count(r, "devices");
	t->where = xstrdup(rec_where(r));
	if (ti.file != NULL)
		t->file = xstrdup(ti.file);
	/* distributedInfo, which trace_read leaves to the stages that need it */
	if (rec_type(r, "distributed") == REC_OBJECT) {
		struct error e = ERROR_INIT;
		struct rec *d;

		raw = rec_raw(r, "distributed", &len);
		if ((d = rec_parse(raw, len, rec_where(r), &e)) != NULL) {
			long long v;

			if (rec_int(d, "world_size", &v) && v > 0)
				t->world = v;
			rec_free(d);
		}
		error_free(&e);
	}
	/* the rank ttp-parse resolved (--rank, the name, the input's position) */
	if (given < 0)
		given = ti.has_rank ? ti.rank : -1;
	t->rank = coll_trace_rank(raw, len, given, t->file, NULL);
	if (t->rank < 0) {
		error_set(err, NULL, 0, 0, "%s: which rank is %s? its trace has no "
		    "distributedInfo rank and its name none (give --rank N)", rec_where(r),
		    t->file != NULL ? t->file : "this trace");
		return -1;
	}
	return 0;
}

/* A collective kernel: 1 taken, 0 not one. */
static int
take(struct trace *t, struct rec *r, const struct collect_opts *o, struct error *err)
{
	const char *gpu = rec_str(r, "gpu", NULL), *cls = rec_str(r, "class", NULL), *s;
	long long id, start, ns, v;
	struct rec *c, *cm = NULL;
	struct error e = ERROR_INIT;
	size_t len, i;
	const char *raw;
	struct one one;

	if (gpu == NULL || strcmp(gpu, "kernel") != 0 || cls == NULL || strcmp(cls, "comm") != 0)
		return 0;
	/* TraceLens: linked kernels only (a correlation or an External id) */
	if (!rec_has(r, "correlation") && !rec_has(r, "launched_by"))
		return 0;
	if (!rec_int(r, "id", &id) || !rec_int(r, "start_ns", &start) || !rec_int(r, "ns", &ns)) {
		if (rec_bad(r) == NULL)
			rec_reject(r, "gpu record without integer id, start_ns and ns");
		return 0;
	}
	if (!t->open) {
		if (o->rank < 0) {
			error_set(err, NULL, 0, 0, "%s: a gpu record before any trace record, "
			    "and no --rank", rec_where(r));
			return -1;
		}
		t->open = true;
		t->rank = o->rank;
	}
	c = rec_new();
	rec_set_str(c, "kind", "coll");
	rec_set_str(c, "trace", "kineto");
	rec_set_int(c, "rank", t->rank);
	rec_set_int(c, "id", id);
	if ((s = rec_str(r, "name", &len)) != NULL)
		rec_set_strn(c, "name", s, len);
	if (rec_int(r, "stream", &v))
		rec_set_int(c, "stream", v);
	else if ((raw = rec_raw(r, "stream", &len)) != NULL)
		rec_set_raw(c, "stream", raw, len);
	rec_set_int(c, "start_ns", start);
	rec_set_int(c, "ns", ns);
	one.group = NULL;
	if (rec_type(r, "comm") == REC_OBJECT && (raw = rec_raw(r, "comm", &len)) != NULL &&
	    (cm = rec_parse(raw, len, rec_where(r), &e)) != NULL) {
		for (i = 0; i < NCOMMKEY; i++) {
			const char *cv = rec_raw(cm, commkey[i][0], &len);

			if (cv != NULL && rec_type(cm, commkey[i][0]) != REC_NULL)
				rec_set_raw(c, commkey[i][1], cv, len);
		}
		if ((s = rec_str(cm, "Process Group Name", NULL)) != NULL)
			one.group = xstrdup(s);
		rec_free(cm);
	}
	error_free(&e);
	one.r = c;
	one.id = id;
	one.start = start;
	if (one.group == NULL)
		one.group = xstrdup("");
	t->c = xgrow(t->c, &t->cap, t->n + 1, sizeof(*t->c));
	t->c[t->n++] = one;
	return 1;
}

int
collect_run(struct rec_reader *rd, FILE *out, const struct collect_opts *o,
    struct error *err)
{
	struct badrec stop = BADREC_INIT, *bad = o->bad != NULL ? o->bad : &stop;
	struct trace t;
	struct rec *r;
	int rc = 0;

	memset(&t, 0, sizeof(t));
	t.rank = -1;
	while ((r = badrec_next(bad, rd)) != NULL) {
		const char *kind = rec_str(r, "kind", NULL);

		if (kind != NULL && strcmp(kind, "trace") == 0) {
			if (badrec_check(bad, r))
				continue;
			flush(&t, out);
			if (open_trace(&t, r, o, err) < 0) {
				rc = -1;
				break;
			}
			continue;
		}
		if (kind != NULL && strcmp(kind, "group") == 0 && rec_bad(r) == NULL)
			take_group(&t, r);
		if (kind != NULL && strcmp(kind, "gpu") == 0 && rec_bad(r) == NULL) {
			size_t n = t.n;

			if (take(&t, r, o, err) < 0) {
				rc = -1;
				break;
			}
			if (rec_bad(r) != NULL && t.n > n) {
				rec_free(t.c[--t.n].r);
				free(t.c[t.n].group);
			}
		}
		(void)badrec_check(bad, r);
	}
	if (rc == 0)
		flush(&t, out);
	else {
		size_t i;

		for (i = 0; i < t.n; i++) {
			rec_free(t.c[i].r);
			free(t.c[i].group);
		}
		free(t.c);
		free(t.file);
		free(t.where);
		drop_groups(&t);
	}
	return rc;
}
