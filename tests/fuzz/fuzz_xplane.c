/* SPDX-License-Identifier: ISC */
/*
 * fuzz_xplane: libFuzzer target for the JAX profile reader: the protobuf wire iterator
 * (lib/core/pb.c), the windowed file source and the XSpace walker (lib/jax/xsrc.c,
 * xplane.c) and the HLO walker (lib/jax/hlo.c). The input is read as a profile by
 * xplane_parse (which must return an error, never end the process), parsed as an
 * HloProto whose instructions are looked up, printed and read as GEMMs (a fusion's
 * called computation included), and walked field by field as
 * nested messages, where every length-delimited field must lie inside its parent.
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/pb.h"
#include "jax/hlo.h"
#include "jax/xplane.h"
#include "fuzz.h"

static void
walk(const unsigned char *p, size_t n, uint64_t off, int depth)
{
	struct pb_iter it;
	struct pb_field f;

	pb_init(&it, p, n, off);
	while (pb_next(&it, &f) == PB_OK)
		if (f.wt == PB_LEN) {
			if (f.data < p || f.data + f.v > p + n || f.at != off +
			    (uint64_t)(f.data - p))
				abort();
			if (depth < 8)
				walk(f.data, (size_t)f.v, f.at, depth + 1);
		}
	if (it.err != NULL && (it.err_off < off || it.err_off > off + n))
		abort();
}

static void
run(void *arg)
{
	struct fuzz_job *jb = arg;
	struct error err = ERROR_INIT;

	if (xplane_parse(fuzz_file(0, jb->p, jb->n), "fuzz", jb->opt & 1, stdout,
	    &err) != 0 && !error_is_set(&err))
		abort();
	error_free(&err);
	fflush(stdout);
}

static void
hlo(const uint8_t *p, size_t n)
{
	struct hlo_module m;
	struct error err = ERROR_INIT;
	struct buf b = BUF_INIT;
	unsigned char *copy = malloc(n + 1);
	size_t i, k;
	const struct hlo_instr *dot;
	int64_t bmnk[4];

	memcpy(copy, p, n);
	if (hlo_parse(&m, copy, n, 0, "fuzz", &err) == 0) {
		for (i = 0; i < m.nins; i++) {
			const struct hlo_instr *ins = &m.ins[i];

			if (hlo_find(&m, hlo_str(&m, ins->name), ins->name.len) == NULL)
				abort();
			hlo_shape_text(&m, ins->shape, &b);
			hlo_metadata_text(&m, ins, &b);
			(void)hlo_tl_listed(&m, ins);
			for (k = 0; k < ins->nops; k++)
				(void)hlo_operand(&m, ins, k);
			if (hlo_gemm(&m, ins, bmnk, &dot) && (dot < m.ins ||
			    dot >= m.ins + m.nins))
				abort();
			buf_reset(&b);
		}
	} else if (!error_is_set(&err))
		abort();
	error_free(&err);
	buf_free(&b);
	hlo_free(&m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_job jb;

	fuzz_job_split(data, size, &jb);
	fuzz_strict(run, &jb);
	walk(jb.p, jb.n, 0, 0);
	hlo(jb.p, jb.n);
	return 0;
}
