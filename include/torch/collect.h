/* SPDX-License-Identifier: ISC */
/*
 * collect: the collective kernels of PyTorch traces as compact records (ttp-filter
 * --collectives), for TraceLens's multi-rank collective report (report/nccl.h). Per
 * trace, after its records: one "rank" record (the rank, its file, world size and
 * device count) and one "coll" record per collective kernel (a GPU kernel TraceLens
 * counts as NCCL/RCCL: class "comm", linked to a launch), in the order of the trace's
 * events: rank, id (the event's position), name, stream, start_ns, ns, ordinal (its
 * place in time among its process group's collectives on the rank) and, from the
 * kernel's collective args as written, group, group_desc, group_ranks, coll, group_size,
 * dtype, in_nelems, out_nelems, in_split, out_split. Every other record is dropped.
 *
 * A trace's rank (coll_trace_rank, also ttp-parse's): its trace record's distributedInfo
 * rank, else the rank given (--rank), else the "rank" ttp-parse gave the trace record,
 * else the one its file name holds (TraceLens's rank[\[\-_/]?(\d+)).
 */
#ifndef TTP_COLLECT_H
#define TTP_COLLECT_H

#include <stdio.h>

struct badrec;
struct error;
struct rec_reader;

struct collect_opts {
	long long	 rank;		/* --rank; -1: none */
	struct badrec	*bad;		/* what a bad record means; NULL: stop */
};

/*
 * The rank of a trace, one rule for ttp-parse and ttp-filter --collectives (issue 27):
 * dist (distributedInfo's JSON text as written, dlen bytes; NULL: none) when its
 * "rank" is an integer >= 0 and its "world_size" is not 1 (rank 0 of a one-process job
 * tells no traces apart: two traces of one GPU, a prefill run and a decode run, stay
 * two traces), else given when >= 0, else the rank file's name holds; -1 when none.
 * *from (when not NULL) says which: "distributed", "option", "name" or NULL.
 */
long long coll_trace_rank(const char *dist, size_t dlen, long long given, const char *file,
    const char **from);
/* TraceLens's default --rank_regex rank[\[\-_/]?(?P<rank>\d+) on a path, its last
 * component first: the rank, or -1. */
long long coll_rank_in_name(const char *path);

/* 0, or -1 with err set. */
int collect_run(struct rec_reader *rd, FILE *out, const struct collect_opts *o,
    struct error *err);

#endif
