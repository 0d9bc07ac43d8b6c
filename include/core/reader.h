/* SPDX-License-Identifier: ISC */
/*
 * reader: the interface of a trace reader, one row of ttp-parse's table of readers (in
 * the style of samurai's tools[]). Each format layer exports its entry (tt/ttreader.h,
 * torch/kreader.h, jax/jreader.h); the table that lists them lives at the command level
 * (cmd/ttp-parse.c), since core includes no other layer.
 *
 * ttp-parse opens every input once (core/io.h, struct io_input), asks the rows in
 * order whose sniff claims the first input's head, refuses inputs that another row
 * claims (one kind of trace at a time), then hands them all to that row's parse. The
 * next format is one module and one row: a sniff over the first bytes (inflated when
 * gzip; IO_HEAD of them, fewer when the input is shorter) and a parse that writes the
 * records.
 *
 * A parse writes its records to a sink (core/stage.h): ttp-parse's is the standard
 * output, a unit test's a memory buffer it reads the records back from.
 */
#ifndef TTP_READER_H
#define TTP_READER_H

#include <stddef.h>

struct error;
struct io_input;
struct sink;

/* What ttp-parse's options ask of a reader; a reader reads what applies to it. */
struct reader_opts {
	int		 verbose;	/* the reference's informational messages */
	int		 all;		/* CSV: every other column too */
	int		 nosort;	/* CSV: file order */
	int		 python;	/* PyTorch: python functions in the call tree */
	const char	*capture;	/* PyTorch: graph-capture folder, or NULL */
	int		 has_rank;	/* PyTorch: --rank N, the trace's rank when its */
	long long	 rank;		/* distributedInfo has none (one trace only) */
};

/* reader.flags */
#define READER_CAPTURE	0x1	/* takes reader_opts.capture */
#define READER_RANK	0x2	/* takes reader_opts.rank */

struct reader {
	const char	*name;		/* the records' "trace": ttmetal, kineto, xplane */
	const char	*expect;	/* ttp-parse --expect's word for it, or NULL */
	/* for messages: what it is found to be ("a %s, not a ..."), what it is when
	 * wanted ("not a %s"), one input and several of this kind, how to report it */
	const char	*what, *wanted, *one, *many, *hint;
	/* an input of another kind after one of this: "%s: <stray> among <many>"; NULL:
	 * "%s: a <other's one> among <many>: give one kind of trace at a time" */
	const char	*stray;
	unsigned	 flags;
	/* Whether the first n bytes of an input are this format. */
	int		(*sniff)(const unsigned char *head, size_t n);
	/* Read n inputs of this kind (io_input_open'd; closed here) and write their
	 * records to out. 0, or -1 with e set (the records before the bad one are
	 * written). */
	int		(*parse)(struct io_input *in, int n, const struct reader_opts *o,
			    struct sink *out, struct error *e);
};

/* The first row of table (NULL-terminated) whose sniff claims head, or NULL. */
const struct reader *reader_find(const struct reader *const *table,
    const unsigned char *head, size_t n);

#endif
