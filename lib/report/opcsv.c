/* SPDX-License-Identifier: ISC */
/*
 * opcsv: the reference-compatible op CSV (docs/tt-perf-report.md §18, D6).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "report/opcsv.h"
#include "report/report.h"

static const char header[] =
    "ID,Total %,Bound,OP Code,Device,Device Time,Op-to-Op Gap,Cores,DRAM,DRAM %,"
    "FLOPs,FLOPs %,Math Fidelity,Output Datatype,Input 0 Datatype,Input 1 Datatype,"
    "DRAM Sharded,Input 0 Memory,Inner Dim Block Size,Output Subblock H,"
    "Output Subblock W,Global Call Count";

void
csv_field(FILE *fp, const char *s, size_t n)
{
	size_t i;
	int need = 0;

	for (i = 0; i < n && !need; i++)
		need = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (!need) {
		fwrite_unlocked(s, 1, n, fp);
		return;
	}
	putc_unlocked('"', fp);
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			putc_unlocked('"', fp);
		putc_unlocked(s[i], fp);
	}
	putc_unlocked('"', fp);
}

static void
put_num(FILE *fp, int present, double v)
{
	char b[NUM_BUFSZ];

	if (present)
		fwrite_unlocked(b, 1, num_shortest(b, v), fp);
}

/*
 * An integer number of ns as Python's repr of ns / 1000.0: for 0 <= ns < 1e15 the
 * quotient's shortest round-trip text is the exact decimal ns/1000 (its double is
 * closer than 0.0005 to it and no shorter decimal is that close), so no float
 * formatting is needed.
 */
static void
put_ns_us(FILE *fp, long long ns, double us)
{
	char b[NUM_BUFSZ];
	int n;

	if (ns < 0 || ns >= 1000000000000000LL) {
		fwrite_unlocked(b, 1, num_shortest(b, us), fp);
		return;
	}
	{
		long long f = ns % 1000;

		n = (int)num_int(b, ns / 1000, 0);
		b[n++] = '.';
		b[n++] = (char)('0' + f / 100);
		b[n++] = (char)('0' + f / 10 % 10);
		b[n++] = (char)('0' + f % 10);
		while (b[n - 1] == '0' && b[n - 2] != '.')
			n--;
		fwrite_unlocked(b, 1, (size_t)n, fp);
	}
}

static void
put_int(FILE *fp, int present, long long v, const char *missing)
{
	char b[NUM_INTSZ];

	if (present)
		fwrite_unlocked(b, 1, num_int(b, v, 0), fp);
	else
		fputs_unlocked(missing, fp);
}

static void
put_str(FILE *fp, const struct table *t, strid id, const char *missing)
{
	const char *s;

	if (id == 0) {
		fputs_unlocked(missing, fp);
		return;
	}
	s = table_str(t, id);
	csv_field(fp, s, strlen(s));
}

static void
put_advice(FILE *fp, const struct table *t, strid id)
{
	const char *a = table_str(t, id), *p;
	size_t n = 0;
	char small[1024], *buf = small;

	/* items are stored separated by '\n'; the CSV joins them with " • " */
	for (p = a; *p; p++)
		n += *p == '\n' ? 5 : 1;
	if (n + 1 > sizeof(small))
		buf = malloc(n + 1);
	if (buf == NULL)
		return;
	n = 0;
	for (p = a; *p; p++) {
		if (*p == '\n') {
			memcpy(buf + n, " \xe2\x80\xa2 ", 5);
			n += 5;
		} else
			buf[n++] = *p;
	}
	buf[n] = '\0';
	csv_field(fp, buf, n);
	if (buf != small)
		free(buf);
}

int
opcsv_write(FILE *fp, const struct table *t, int flags)
{
	size_t i;

	fputs_unlocked(header, fp);
	if (flags & OPCSV_ADVICE)
		fputs_unlocked(",Advice", fp);
	if (flags & OPCSV_RAW)
		fputs_unlocked(",Raw OP Code", fp);
	fputs_unlocked("\r\n", fp);
	for (i = 0; i < t->nrows; i++) {
		const struct row *w = table_row(t, i);
		uint32_t f = w->flags;

		put_int(fp, 1, w->id, "");
		putc_unlocked(',', fp);
		put_num(fp, f & ROW_PCT, w->pct);
		putc_unlocked(',', fp);
		put_str(fp, t, w->bound, "");
		putc_unlocked(',', fp);
		put_str(fp, t, w->label, "");
		putc_unlocked(',', fp);
		put_int(fp, f & ROW_DEVICE, w->device, "");
		putc_unlocked(',', fp);
		if (f & ROW_DEV_ZERO)
			putc_unlocked('0', fp);
		else if (f & ROW_DEV_INTNS)
			put_ns_us(fp, w->dev_ns, w->dev_us);
		else
			put_num(fp, f & ROW_DEV_US, w->dev_us);
		putc_unlocked(',', fp);
		if (f & ROW_GAP_INTNS)
			put_ns_us(fp, w->gap_ns, w->gap_us);
		else
			put_num(fp, f & ROW_GAP, w->gap_us);
		putc_unlocked(',', fp);
		if ((f & ROW_CORES) && !isnan(w->cores))
			put_int(fp, 1, (long long)w->cores, "");
		else
			put_num(fp, f & ROW_CORES, w->cores);	/* NaN: "nan" */
		putc_unlocked(',', fp);
		put_num(fp, f & ROW_DRAM, w->dram);
		putc_unlocked(',', fp);
		put_num(fp, f & ROW_DRAM_PCT, w->dram_pct);
		putc_unlocked(',', fp);
		put_num(fp, f & ROW_TFLOPS, w->tflops);
		putc_unlocked(',', fp);
		put_num(fp, f & ROW_FLOPS_PCT, w->flops_pct);
		putc_unlocked(',', fp);
		put_str(fp, t, w->math, "");
		putc_unlocked(',', fp);
		put_str(fp, t, w->dt_out, "nan");
		putc_unlocked(',', fp);
		put_str(fp, t, w->dt_in0, "nan");
		putc_unlocked(',', fp);
		put_str(fp, t, w->dt_in1, "nan");
		fputs_unlocked(f & ROW_SHARDED ? ",True," : ",False,", fp);
		put_str(fp, t, w->mem0, "");
		putc_unlocked(',', fp);
		put_int(fp, f & ROW_IN0BW, w->in0bw, "");
		putc_unlocked(',', fp);
		put_int(fp, f & ROW_SBH, w->sbh, "");
		putc_unlocked(',', fp);
		put_int(fp, f & ROW_SBW, w->sbw, "");
		putc_unlocked(',', fp);
		put_int(fp, f & ROW_CALL, w->call, "nan");
		if (flags & OPCSV_ADVICE) {
			putc_unlocked(',', fp);
			if (w->advice != 0)
				put_advice(fp, t, w->advice);
		}
		if (flags & OPCSV_RAW) {
			putc_unlocked(',', fp);
			put_str(fp, t, w->op, "");
		}
		fputs_unlocked("\r\n", fp);
	}
	if (fflush(fp) == EOF || ferror(fp)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}
