/* SPDX-License-Identifier: ISC */
/*
 * fuzz_mlirloc: libFuzzer target for the tt-mlir column readers (lib/tt/mlirloc.c): the
 * input is one LOC or PROGRAM_METADATA text. Either reader must return an error or a
 * result that keeps the header's promises; it must never read outside the text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tt/mlirloc.h"

static struct mlirloc l;

static void
run(void *arg)
{
	struct fuzz_job *jb = arg;
	const char *s = (const char *)jb->p, *err;
	size_t n = jb->n, at, k;
	long long prog, loop;
	char *copy = malloc(n ? n : 1);

	/* an exact-size copy, so that a read past the end is caught */
	memcpy(copy, s, n);
	if (mlirloc_parse(&l, copy, n, &err, &at) == 0) {
		if (l.file != NULL && (l.nframes == 0 || l.line < 0))
			abort();
		if (l.name != NULL && l.nframes == 0)
			abort();
		for (k = 0; k < l.nframes; k++)
			if (l.frames[k] == NULL)
				abort();
	} else if (err == NULL || at > n || l.nframes != 0)
		abort();
	if (mlir_program_meta(copy, n, &prog, &loop, &err, &at) != 0 &&
	    (err == NULL || at > n || prog != -1 || loop != -1))
		abort();
	free(copy);
	if (jb->opt & 1)
		mlirloc_free(&l);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_job jb;

	fuzz_job_split(data, size, &jb);
	fuzz_strict(run, &jb);
	return 0;
}
