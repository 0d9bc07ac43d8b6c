/* SPDX-License-Identifier: ISC */
/*
 * fuzz_csv: libFuzzer target for lib/core/csvread.c and lib/tt/ttmetal.c. The input (after
 * one option byte) is read as CSV through csvr_open_fp over fmemopen with a small,
 * input-chosen chunk size, touching every cell, twice: with lines split in place and
 * with every line given to libcsv, which must give the same rows and the same error (a
 * difference aborts); then it is written to scratch files
 * (split in two at a form feed, to exercise the multi-file merge) and parsed by
 * ttm_parse with input-chosen options, its records going to /dev/null. Both return their
 * errors: an exit is a finding (fuzz_strict).
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/csvread.h"
#include "core/diag.h"
#include "tt/ttmetal.h"
#include "fuzz.h"

struct job {
	const uint8_t	*p;
	size_t		 n;
	unsigned	 opt;
	int		 split;		/* csvr_split_lines */
	struct buf	 rows[2];	/* each way's rows, rendered */
};

static void
run_csvr(void *arg)
{
	struct job *jb = arg;
	const struct csvr_row *row;
	struct csvr *r;
	FILE *fp;
	size_t i, sum = 0;

	if ((fp = fmemopen((void *)jb->p, jb->n, "r")) == NULL)
		return;		/* size 0 */
	r = csvr_open_fp(fp, "fuzz.csv", 1 + (jb->opt & 15) * 7);
	csvr_split_lines(r, jb->split);
	if (csvr_ncols(r) > 0)
		(void)csvr_colname(r, csvr_ncols(r) - 1);
	(void)csvr_col(r, "OP CODE");
	if (jb->opt & 16)
		csvr_want_none(r);
	if ((jb->opt & 32) && csvr_ncols(r) > 1)
		csvr_want(r, 1, false);
	while ((row = csvr_next(r)) != NULL) {
		if (row->n != csvr_ncols(r))
			abort();
		buf_printf(&jb->rows[jb->split], "%ld", row->line);
		for (i = 0; i < row->n; i++) {
			if (strlen(row->f[i]) != row->len[i])
				abort();
			sum += row->len[i];
			buf_addc(&jb->rows[jb->split], '|');
			buf_add(&jb->rows[jb->split], row->f[i], row->len[i]);
		}
		buf_addc(&jb->rows[jb->split], '\n');
	}
	(void)csvr_nrows(r);
	if (csvr_error(r) != NULL && (csvr_error(r)->msg == NULL || csvr_next(r) != NULL))
		abort();
	if (csvr_error(r) != NULL)
		buf_printf(&jb->rows[jb->split], "error %lld: %s\n", csvr_error(r)->line,
		    csvr_error(r)->msg);
	csvr_close(r);
	fclose(fp);
	(void)sum;
}

static void
run_ttm(void *arg)
{
	struct job *jb = arg;
	struct ttm_opts o = { (jb->opt >> 6) & 1, (jb->opt >> 7) & 1, 0 };
	const uint8_t *ff = memchr(jb->p, '\f', jb->n);
	char *paths[2];
	int n = 1;
	struct error err = ERROR_INIT;

	if (ff != NULL) {
		paths[0] = (char *)fuzz_file(0, jb->p, (size_t)(ff - jb->p));
		paths[1] = (char *)fuzz_file(1, ff + 1, jb->n - (size_t)(ff - jb->p) - 1);
		n = 2;
	} else
		paths[0] = (char *)fuzz_file(0, jb->p, jb->n);
	if (ttm_parse(paths, n, &o, stdout, &err) != 0 && !error_is_set(&err))
		abort();
	error_free(&err);
	fflush(stdout);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct job jb;
	uint8_t *copy;

	jb.opt = fuzz_byte(&in);
	copy = malloc(in.n ? in.n : 1);
	memcpy(copy, in.p, in.n);
	jb.p = copy;
	jb.n = in.n;
	memset(jb.rows, 0, sizeof(jb.rows));
	for (jb.split = 0; jb.split <= 1; jb.split++)
		fuzz_strict(run_csvr, &jb);
	if (jb.rows[0].len != jb.rows[1].len ||
	    (jb.rows[0].len && memcmp(jb.rows[0].p, jb.rows[1].p, jb.rows[0].len) != 0))
		abort();
	buf_free(&jb.rows[0]);
	buf_free(&jb.rows[1]);
	fuzz_strict(run_ttm, &jb);
	free(copy);
	return 0;
}
