/* SPDX-License-Identifier: ISC */
/*
 * fuzz_table: libFuzzer target for ttp-table's record handling: the records of the
 * input (NDJSON from a scratch file) go into a table (table_add) or, PyTorch ones,
 * into TraceLens's sheets (tl_add), bad records skipped (ttp-table --skip-bad), under
 * fuzz_strict: an exit is a finding. The table is finished and rendered every way
 * ttp-table renders it: text report (with and without colour and advice), Markdown,
 * op CSV, the grouped summary for every --group-by (merged and per device) as text,
 * Markdown, CSV and SVG; the sheets as text and CSV; all to /dev/null.
 */
#include <stdbool.h>
#include <string.h>

#include "core/badrec.h"
#include "core/diag.h"
#include "report/opcsv.h"
#include "core/rec.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/tab.h"
#include "report/tlsheets.h"
#include "fuzz.h"


static void
run(void *arg)
{
	struct fuzz_job *jb = arg;
	struct rec_reader *rd;
	struct rec *r;
	struct table t;
	struct badrec bad = { true, 0, NULL };	/* skip */
	struct tl *tl = tl_new();
	struct tl_opts to = TL_OPTS_INIT;
	struct error e = ERROR_INIT;
	struct tab **sh;
	size_t nsh, i;
	struct report_opts ro = { jb->opt & 1, (jb->opt >> 1) & 1, (jb->opt & 4) ? 0.5 : 0,
	    (jb->opt & 2) ? 60 : 0 };
	struct summary *s;
	static const char *const specs[] = {
		"op", "memory", "category", "device", "phase", "loc_line,phase,iter", "line"
	};
	struct group_spec gs[7];
	const char *err;
	int g;

	for (g = 0; g < 7; g++)
		(void)summary_parse_spec(specs[g], &gs[g], &err);
	table_init(&t);
	table_group_keys(&t, gs[5].keys, gs[5].nkeys);
	rd = rec_open(fuzz_file(0, jb->p, jb->n));
	while ((r = badrec_next(&bad, rd)) != NULL) {
		if (!tl_add(tl, r))
			table_add(&t, r);
		badrec_check(&bad, r);
	}
	badrec_end(&bad);
	rec_close(rd);
	if (tl_count(tl) > 0) {
		to.pseudo_ops = (jb->opt >> 2) & 1;
		to.inference = (jb->opt >> 3) & 1;
		nsh = tl_sheets(tl, &to, &sh, &e);
		for (i = 0; i < nsh; i++) {
			tab_write_text(sh[i], fuzz_null, 5, 80);
			tab_write_csv(sh[i], fuzz_null);
		}
		tl_sheets_free(sh, nsh);
		error_free(&e);
	}
	tl_free(tl);
	table_finish(&t);
	if (summary_check_keys(&t, &gs[5], &e) != 0)
		error_free(&e);
	report_text(fuzz_null, &t, &ro);
	report_markdown(fuzz_null, &t);
	(void)opcsv_write(fuzz_null, &t, (jb->opt >> 3) & 3);
	for (g = 0; g < 6; g++) {
		if ((s = summary_build(&t, &gs[g], (jb->opt >> 5) & 1)) == NULL)
			continue;
		(void)summary_ndevices(s);
		summary_print(fuzz_null, s, jb->opt & 1, (jb->opt & 2) ? 60 : 0);
		summary_markdown(fuzz_null, s);
		if (jb->opt & 64) {
			(void)summary_write_csv("/dev/null", s);
			(void)summary_write_svg("/dev/null", s, (jb->opt >> 7) & 1);
		}
		summary_free(s);
	}
	fflush(fuzz_null);
	table_free(&t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_job jb;

	fuzz_job_split(data, size, &jb);
	fuzz_strict(run, &jb);
	return 0;
}
