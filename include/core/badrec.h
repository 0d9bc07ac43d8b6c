/* SPDX-License-Identifier: ISC */
/*
 * badrec: what a program does with a bad record, the one policy every record stage
 * shares. A record is bad when its line is not a record (rec_next's error) or when the
 * stage found it unusable (rec_bad: a key of the wrong type, a rec_reject).
 *
 * Stop (the default): the error, "prog: file:line: message", exit 1, as soon as the
 * first bad record is found; what the program wrote before it stays written.
 * Skip (--skip-bad): a warning for each of the first BADREC_SHOWN bad records, the
 * record left out (not written, not counted in any figure), the run goes on; at the end
 * one warning with how many were skipped. The exit status is then 0: the user asked
 * for what is left. A read error (a disk, a broken gzip stream) still stops: nothing
 * after it can be read.
 *
 * Records that break the order their trace record promises are bad too, judged here for
 * every stage alike (ttp-record(5), RECORD ORDER): after a trace record, every op,
 * signpost and gpu record has an integer id; a TT-Metal trace whose trace record says
 * ids_ascending has its op and signpost ids ascend; a PyTorch trace's op and signpost
 * records come in host time order (host_start_ns never decreases); signposts come as
 * the trace record's "signposts" announce them; an op, signpost or gpu record whose
 * "trace" is not the trace record's string (another format, another type) is bad; a copy of the current trace record is
 * bad, as is a record before the input's first trace record. Which record of two out of
 * order is the bad one: the reader looks two records ahead, so a stray record that
 * sets a bar (a large id, a late time) is the one left out, not the good ones after it;
 * when the two readings are equally good, the later record is the bad one.
 *
 * The stage must not have let a bad record into its state (a sum, a window, a table)
 * before the program asks: it checks rec_bad itself before it keeps anything of the
 * record, or it leaves keeping to after badrec_check.
 */
#ifndef TTP_BADREC_H
#define TTP_BADREC_H

#include <stdbool.h>

struct rec;
struct rec_reader;

#define BADREC_SHOWN	10

struct badrec_order;

struct badrec {
	bool			 skip;	/* warn, count and skip; else stop */
	unsigned long long	 n;	/* bad records so far */
	struct badrec_order	*ord;	/* the order judge's state (badrec_next's own) */
};
#define BADREC_INIT	{ false, 0, NULL }	/* stop */

/* The next good record of rd, bad lines handled by the policy; NULL at the end of input
 * (a read error, or a bad line under stop: error_die). */
struct rec *badrec_next(struct badrec *b, struct rec_reader *rd);
/* After the stage has read r: false when r is good; when it is bad, stop (error_die) or
 * warn and count it, and return true: the caller leaves r out. */
bool badrec_check(struct badrec *b, struct rec *r);
/* At the end of input: under skip, "skipped N bad records" when N > 0; frees what
 * badrec_next kept. */
void badrec_end(struct badrec *b);

#endif
