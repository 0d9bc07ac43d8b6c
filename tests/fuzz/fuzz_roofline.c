/* SPDX-License-Identifier: ISC */
/*
 * fuzz_roofline: libFuzzer target for ttp-roofline's record handling: every line of
 * the input is parsed (rec_parse) and, when it is an op, analysed by roofline_record
 * (metrics and roofline behind it) for an input-chosen architecture, then written.
 * A good record is analysed twice: the second pass over its own output must find it
 * good too. roofline_record marks the records it cannot use bad and returns: it runs
 * under fuzz_strict (an exit is a finding).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/hwspec.h"
#include "tt/metrics.h"
#include "core/rec.h"
#include "tt/roofline.h"
#include "fuzz.h"

struct job {
	const char	*line;
	size_t		 len;
	unsigned	 opt;
};

static struct mresult m;

static void
run(void *arg)
{
	static const char *archs[] = { "wormhole", "blackhole", "grayskull", "nope" };
	struct job *jb = arg;
	struct roofline_opts o;
	struct rec *r, *r2;
	struct buf b = { 0 };
	const char *kind;
	struct error err = ERROR_INIT;

	memset(&o, 0, sizeof(o));
	o.arch = hwspec_find(archs[jb->opt & 3]);
	if (o.arch == NULL)
		o.arch = hwspec_find("wormhole");
	o.override = (jb->opt & 4) ? hwspec_find("blackhole") : NULL;
	o.extras = !(jb->opt & 8);
	o.verbose = jb->opt & 16;
	if ((r = rec_parse(jb->line, jb->len, "fuzz:1", &err)) == NULL) {
		error_free(&err);	/* a bad line: the error the program stops with */
		return;
	}
	kind = rec_str(r, "kind", NULL);
	if (kind != NULL && strcmp(kind, "op") == 0 && rec_bad(r) == NULL) {
		if (roofline_record(r, &o, &m) < 0)
			abort();	/* o.arch is set: every record has an architecture */
		if (rec_bad(r) == NULL) {
			rec_format(r, &b);
			if ((r2 = rec_parse(b.p, b.len - 1, "fuzz:2", &err)) == NULL)
				abort();	/* what rec_format wrote parses again */
			if (roofline_record(r2, &o, &m) < 0 || rec_bad(r2) != NULL)
				abort();	/* and is as good as it was */
			rec_free(r2);
		}
	}
	rec_free(r);
	buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct job jb;
	const uint8_t *nl;
	static int init;

	if (!init) {
		metrics_init(&m);
		init = 1;
	}
	jb.opt = fuzz_byte(&in);
	while (in.n > 0) {
		nl = memchr(in.p, '\n', in.n);
		jb.len = nl != NULL ? (size_t)(nl - in.p) : in.n;
		char *copy = malloc(jb.len ? jb.len : 1);
		memcpy(copy, in.p, jb.len);
		jb.line = copy;
		fuzz_strict(run, &jb);
		free(copy);
		if (nl == NULL)
			break;
		in.n -= (size_t)(nl - in.p) + 1;
		in.p = nl + 1;
	}
	return 0;
}
