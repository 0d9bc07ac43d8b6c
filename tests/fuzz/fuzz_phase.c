/* SPDX-License-Identifier: ISC */
/*
 * fuzz_phase: libFuzzer target for ttp-phase's record handling: phase_tag with an
 * input-chosen method (any of the twelve) over the NDJSON input, bad records skipped
 * (ttp-phase --skip-bad), under fuzz_strict: an exit is a finding. Plus the exposed
 * algorithms (period_find and phase_split_matmul on the input bytes as a symbol
 * sequence).
 */
#include <stdlib.h>
#include <string.h>

#include "core/badrec.h"
#include "phase/period.h"
#include "phase/phase.h"
#include "core/rec.h"
#include "fuzz.h"


static void
run(void *arg)
{
	struct fuzz_job *jb = arg;
	struct badrec bad = { true, 0, NULL };	/* skip */
	struct phase_opts o = { PHASE_AUTO, PHASE_THRESHOLD, 0, 1, &bad };
	struct rec_reader *rd;

	/* bits 0-1 and 5-6: the method (all twelve) */
	o.by = (enum phase_by)(((jb->opt & 3) | ((jb->opt >> 3) & 12)) % 12);
	o.verbose = (jb->opt >> 2) & 1;
	o.threshold = (jb->opt & 8) ? 1 : PHASE_THRESHOLD;
	rd = rec_open(fuzz_file(0, jb->p, jb->n));
	phase_tag(rd, fuzz_null, &o);
	badrec_end(&bad);
	rec_close(rd);
	fflush(fuzz_null);
}

static void
algorithms(const uint8_t *p, size_t n, unsigned opt)
{
	uint32_t *sym;
	uint8_t *mm, *own, *out;
	struct period pp;
	size_t i;

	/* phase_m (tensor shapes) is driven through phase_tag and tensor_read. */
	sym = malloc((n ? n : 1) * sizeof(*sym));
	mm = malloc(n ? n : 1);
	own = malloc(n ? n : 1);
	out = malloc(n ? n : 1);
	for (i = 0; i < n; i++) {
		sym[i] = (opt & 16) ? p[i] & 3 : p[i];
		mm[i] = p[i] % 3;
		own[i] = (p[i] / 3) % 3;
	}
	if (period_find(sym, n, &pp)) {
		if (pp.period == 0 || pp.len < 2 * pp.period || pp.start + pp.len > n)
			abort();
		for (i = pp.start; i + pp.period < pp.start + pp.len; i++)
			if (sym[i] != sym[i + pp.period])
				abort();
	}
	if (phase_split_matmul(mm, own, n, out))
		for (i = 0; i < n; i++)
			if (out[i] != PM_DECODE && out[i] != PM_PREFILL)
				abort();
	free(sym);
	free(mm);
	free(own);
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_job jb;

	fuzz_job_split(data, size, &jb);
	fuzz_strict(run, &jb);
	algorithms(jb.p, jb.n, jb.opt);
	return 0;
}
