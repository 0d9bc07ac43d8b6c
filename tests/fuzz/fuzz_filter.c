/* SPDX-License-Identifier: ISC */
/*
 * fuzz_filter: libFuzzer target for ttp-filter's record handling (filter_run with the
 * window, merge and filter modules behind it). One option byte picks the options; the
 * rest is the NDJSON input, read from a scratch file, the selection going to
 * /dev/null. Bad records are skipped (--skip-bad); an error of the run (a selection
 * that keeps nothing) is returned: it runs under fuzz_strict, an exit is a finding.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "tt/filter.h"
#include "core/rec.h"
#include "fuzz.h"


static void
run(void *arg)
{
	struct fuzz_job *jb = arg;
	struct badrec bad = { true, 0, NULL };	/* skip */
	struct error err = ERROR_INIT;
	struct filter_opts o;
	struct rec_reader *rd;
	static char *ops[] = { "*Matmul*" }, *xops[] = { "Tilize*" };

	memset(&o, 0, sizeof(o));
	o.program = o.loop = o.iter = -1;
	o.bad = &bad;
	o.w.ignore = jb->opt & 1;
	o.no_merge = jb->opt & 2;
	o.w.print = jb->opt & 4;
	if (jb->opt & 8) {
		o.w.start = "start";
		o.w.end = (jb->opt & 16) ? "stop" : NULL;
	}
	if (jb->opt & 32) {
		o.has_idrange = true;
		(void)idrange_parse("3-40", &o.idrange);
	}
	if (jb->opt & 64) {
		o.no_host_ops = true;
		o.const_eval = FILTER_DROP;
		o.ops = ops;
		o.nops = 1;
		o.xops = xops;
		o.nxops = 1;
	}
	if (jb->opt & 128) {
		o.phase = "decode";
		o.w.whole = true;
	}
	rd = rec_open(fuzz_file(0, jb->p, jb->n));
	if (filter_run(rd, fuzz_null, &o, &err) < 0 && err.msg == NULL)
		abort();	/* an error without its message */
	badrec_end(&bad);	/* frees the order judge's state */
	error_free(&err);
	rec_close(rd);
	fflush(fuzz_null);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_job jb;

	fuzz_job_split(data, size, &jb);
	fuzz_strict(run, &jb);
	return 0;
}
