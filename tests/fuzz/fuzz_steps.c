/* SPDX-License-Identifier: ISC */
/*
 * fuzz_steps: libFuzzer target for the inference-step code: ttp-filter's step window
 * (stepwin_run, a range or the steady state, chosen by the options byte) over the
 * NDJSON input, then the step grammar (step_parse) on every line and on the whole input,
 * the heuristics (guess_row) with the input as names, the steady-state rule with the
 * input bytes as request counts, and the --steps range parser. Bad records are
 * skipped (--skip-bad); a trace without the steps asked for is a returned error: the
 * window runs under fuzz_strict, an exit is a finding.
 */
#include <stdlib.h>
#include <string.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "phase/guess.h"
#include "torch/step.h"
#include "phase/stepwin.h"
#include "core/rec.h"
#include "fuzz.h"

static void
run(void *arg)
{
	struct fuzz_job *jb = arg;
	struct badrec bad = { true, 0, NULL };	/* skip */
	struct stepwin_opts o = { 1, -1, false, STEPWIN_NUM_STEPS, false, &bad };
	struct error err = ERROR_INIT;
	struct rec_reader *rd;

	o.steady = jb->opt & 1;
	o.verbose = (jb->opt >> 1) & 1;
	o.from = 1 + ((jb->opt >> 2) & 3);
	o.to = (jb->opt & 16) ? -1 : o.from + 2;
	o.num_steps = (jb->opt & 32) ? 1 : STEPWIN_NUM_STEPS;
	rd = rec_open(fuzz_file(0, jb->p, jb->n));
	if (stepwin_run(rd, fuzz_null, &o, &err) < 0 && err.msg == NULL)
		abort();	/* an error without its message */
	badrec_end(&bad);	/* frees the order judge's state */
	error_free(&err);
	rec_close(rd);
	fflush(fuzz_null);
}

static void
grammar(const uint8_t *p, size_t n, unsigned opt)
{
	const char *s = (const char *)p, *e = s + n, *nl;
	struct step st;
	struct guess_row r;
	struct stepwin_opts o;
	long long *req;
	size_t i, a, b, nreg;
	char range[40];
	uint8_t label[1] = { GL_MIXED };
	uint32_t sym[1] = { 0 };

	for (; s < e; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(e - s));
		if (nl == NULL)
			nl = e;
		if (step_parse(s, (size_t)(nl - s), &st) && step_tier(st.kind) == 0)
			abort();
	}
	(void)step_parse((const char *)p, n, &st);
	r.name = (const char *)p;
	r.namelen = n;
	r.text = (const char *)p;
	r.textlen = n;
	r.m = n > 0 ? p[0] - 8 : -1;
	for (i = GM_GEMM_PARAMS; i <= GM_UNION; i++)
		if (guess_row((enum guess_method)i, &r, opt & 15) > GL_DECODE)
			abort();
	guess_finish(GM_UNION, sym, 1, 1, label);
	if (n > 0) {
		req = malloc(n * sizeof(*req));
		for (i = 0; i < n; i++)
			req[i] = p[i] & 15;
		stepwin_steady(req, n, (opt & 32) ? 1 : STEPWIN_NUM_STEPS, &a, &b, &nreg);
		if (a >= b || b > n)
			abort();
		free(req);
	}
	memcpy(range, p, n < sizeof(range) - 1 ? n : sizeof(range) - 1);
	range[n < sizeof(range) - 1 ? n : sizeof(range) - 1] = '\0';
	if (stepwin_parse(range, &o) == NULL && (o.from < 1 || (o.to != -1 && o.to < o.from)))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_job jb;

	fuzz_job_split(data, size, &jb);
	fuzz_strict(run, &jb);
	grammar(jb.p, jb.n, jb.opt);
	return 0;
}
