/* SPDX-License-Identifier: ISC */
/*
 * mlirloc: the texts of the columns tt-mlir's `ttrt perf` and tt-torch append to the ops
 * CSV (docs/tt-perf-report.md §1), read into the parts a user groups and filters by: the
 * MLIR source location of LOC, and PROGRAM_METADATA's program and loop numbers.
 *
 * Accepted, nested to any depth up to MLIRLOC_MAXDEPTH, with or without the outer
 * loc(...) and with spaces anywhere between tokens:
 *
 *	loc(unknown)				no location
 *	loc("file":12:7)			a file frame (also "file":12 and MLIR's ranges
 *						"file":12:7 to 14:2 / to :9, which keep 12:7)
 *	loc("name")  loc("name"(LOC))		a name frame, over an optional child
 *	loc(callsite(LOC at LOC))		callee, then caller
 *	loc(fused[LOC, ...])  fused<ATTR>[...]	every part in order
 *	#loc3					an unresolved alias, kept as a frame
 *
 * Strings take MLIR's escapes (\\ \" \n \t and \XX hex). The frames are listed depth
 * first, callee before caller: a file frame as "file:line:col" ("file:line" without a
 * column), a name frame as its name, an alias as written. The first file frame gives
 * file/line/col; the first name frame gives name.
 */
#ifndef TTP_MLIRLOC_H
#define TTP_MLIRLOC_H

#include <stddef.h>

#include "core/buf.h"

#define MLIRLOC_MAXDEPTH 64

struct mlirloc {
	const char	*file;		/* first file frame; NULL when there is none */
	long long	 line, col;	/* its line and column; col -1 when not given */
	const char	*name;		/* first name frame; NULL when there is none */
	const char	**frames;	/* nframes strings, depth first */
	size_t		 nframes;

	/* storage, private */
	struct buf	 mem;
	size_t		*offs;
	size_t		 capframes;
	size_t		 fileoff, nameoff;
	int		 hasfile, hasname;
};

void mlirloc_init(struct mlirloc *l);
void mlirloc_free(struct mlirloc *l);

/*
 * Parse s[0..n) into l (its previous contents are replaced; the strings stay valid
 * until the next parse or mlirloc_free). Returns 0, or -1 on text that is not an MLIR
 * location: then *err is a static message and *at the byte offset where reading
 * stopped, and l holds no frames. loc(unknown) parses with no frames.
 */
int mlirloc_parse(struct mlirloc *l, const char *s, size_t n, const char **err, size_t *at);

/*
 * PROGRAM_METADATA: a Python dict literal as ttrt writes it, "{}" or e.g.
 * "{'program_index': 0, 'loop_number': 1}" (keys in either quotes, ',' or ';' between
 * items, other items skipped). *prog and *loop are set to -1 and then to the integers
 * found. Returns 0, or -1 (with *err and *at as above) when the text is not a dict.
 */
int mlir_program_meta(const char *s, size_t n, long long *prog, long long *loop,
    const char **err, size_t *at);

#endif
