/* SPDX-License-Identifier: ISC */
/*
 * stage: the one contract of a record stage, and the one main of a record program.
 *
 * A stage reads records and writes records to a sink: open it, push each good record
 * (badrec.h's policy has judged it), finish, close. A stage that must see its input as a
 * stream (a look-ahead, a spool, a window) gives run instead of push: it pulls the
 * records itself (badrec_next). Errors about the input are returned (struct error,
 * core/diag.h); the program decides (error_die: "prog: file:line: what", exit 1).
 *
 * The sink is a stream (the standard output) or a memory buffer (the unit tests):
 * either way a FILE * the stage writes records to with rec_write.
 *
 * stage_main is every record program's main: the options every program shares (-h,
 * -V, -q, -v, --skip-bad), the program's own through its option callback, the inputs
 * (none: standard input, refused at a terminal; a closed one is an error), the stage
 * run over them to the standard output, and the exit status (0; 1 bad data; 2 usage).
 * A cmd/ttp-*.c is then its options and a stage. A sink stage (ttp-table) reads
 * records and writes a report: its push answers STAGE_READ. A source (ttp-parse) reads
 * trace files, not records: it gives source instead of a stage and writes to the sink.
 */
#ifndef TTP_STAGE_H
#define TTP_STAGE_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/badrec.h"

struct error;
struct rec;
struct rec_reader;

/* A sink of records: a stream, or memory (sink_memory; its text by sink_text). */
struct sink {
	FILE	*fp;		/* where records go */
	char	*mem;		/* a memory sink's buffer (open_memstream's) */
	size_t	 len;
	bool	 own;
};
void sink_stream(struct sink *s, FILE *fp);
void sink_memory(struct sink *s);
/* What a memory sink holds so far (NUL-terminated; valid until the next write). */
const char *sink_text(struct sink *s, size_t *len);
void sink_close(struct sink *s);

/* What every stage gets from the common options. */
struct stage_env {
	bool		 quiet;		/* -q: no advisory notes (diag_set_quiet is set) */
	bool		 verbose;	/* -v */
	int		 nverbose;	/* how many times -v is given */
	struct badrec	 bad;		/* --skip-bad, and the bad records' count */
};

/* push's answer */
#define STAGE_WRITE	0	/* write r to the sink (unless it turned out bad) */
#define STAGE_TAKEN	1	/* the stage has written, kept or dropped r itself */
#define STAGE_READ	2	/* a sink stage has read r: the policy judges it, nothing
				 * is written (ttp-table: records in, tables out) */

struct stage {
	/* Before the first record: out is the sink. 0, or -1 with e set. May be NULL. */
	int	(*open)(void *self, FILE *out, struct stage_env *env, struct error *e);
	/* One good record: STAGE_WRITE, STAGE_TAKEN, or -1 with e set. */
	int	(*push)(void *self, struct rec *r, struct error *e);
	/* Or the whole input at once (push NULL): 0, or -1 with e set. */
	int	(*run)(void *self, struct rec_reader *rd, struct error *e);
	/* After the last record (the end of input): 0, or -1 with e set. May be NULL. */
	int	(*finish)(void *self, struct error *e);
	/* Free what the stage holds; after an error too. May be NULL. */
	void	(*close)(void *self);
};

/* Open st over rd to out, push every record (or run), then end the bad records' policy
 * (env->bad: badrec_end, its count of skipped records) and finish. 0, or -1 with e set.
 * Close is left to the caller. */
int stage_run(const struct stage *st, void *self, struct rec_reader *rd, struct sink *out,
    struct stage_env *env, struct error *e);

/* A record program. */
#define STAGE_SKIP_BAD	0x1	/* takes --skip-bad */
struct stage_prog {
	const char		*name;		/* for -V: "ttp-roofline" */
	const char		*optstring;	/* its own short options ("a:o:s:n") */
	const struct option	*longopts;	/* its own long options; NULL-terminated */
	unsigned		 flags;
	void			(*usage)(FILE *fp);
	/* One of its own options, as getopt_long returned it; bad values: die_usage. */
	void			(*option)(void *self, int ch, char *arg);
	/* After the options (checks across them, settings from env); may be NULL. */
	void			(*ready)(void *self, struct stage_env *env);
	const struct stage	*stage;
	void			*self;
	/* The operands after the options, before the inputs are opened: how many lead
	 * the inputs as the program's own (ttp-table --plot's CHART; bad ones:
	 * die_usage); the program may keep argv's pointers (the inputs' names). May be
	 * NULL: every operand is an input. */
	int			(*operands)(void *self, int argc, char **argv);
	/* A source of records (ttp-parse: trace files in, records out) instead of a
	 * stage: it reads the inputs itself (argc of them; none: the standard input)
	 * and writes records to out. 0, or -1 with e set. */
	int			(*source)(void *self, int argc, char **argv, struct sink *out,
				    struct stage_env *env, struct error *e);
};

/* getopt_long's value for --skip-bad: a program's own long-only options stay below. */
#define STAGE_OPT_SKIP_BAD	0x7f00

/* The program's main: returns its exit status (0), or exits (1, 2). */
int stage_main(const struct stage_prog *p, int argc, char **argv);

#endif
