/* SPDX-License-Identifier: ISC */
/* Unit tests for numfmt: Python repr layout (against Python's own output), round trips,
 * shortness, fixed with separators, integers. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "tap.h"

static void
shortest(double d, const char *want)
{
	char buf[NUM_BUFSZ];

	num_shortest(buf, d);
	is_str(buf, want, want);
}

static void
fixed(double d, int dec, const char *want)
{
	char buf[NUM_BUFSZ];

	num_fixed(buf, d, dec, 1);
	is_str(buf, want, want);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

/*
 * Python's own repr of 7,495 doubles of every kind (tests/data/repr.txt, written by
 * Python 3): the oracle for the layout and the digits.
 */
static void
against_python(void)
{
	const char *dir = getenv("TESTDATA");
	char path[4096], line[128], got[NUM_BUFSZ], want[64];
	unsigned long long bits;
	long n = 0, bad = 0;
	double d;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/repr.txt", dir ? dir : "tests/data");
	if (!ok((fp = fopen(path, "r")) != NULL, "%s opens", path))
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (line[0] == '#' || sscanf(line, "%llx %63s", &bits, want) != 2)
			continue;
		memcpy(&d, &bits, sizeof(d));
		num_shortest(got, d);
		n++;
		if (strcmp(got, want) != 0 && bad++ < 10)
			printf("# %a: got %s, Python %s\n", d, got, want);
	}
	fclose(fp);
	ok(n > 7000 && bad == 0, "as Python's repr on %ld doubles (%ld differ)", n, bad);
}

/*
 * Properties on any bit pattern: the text reads back as the same double, and with one
 * significant digit fewer no text does (printf's correctly rounded %.*e is the judge).
 */
static void
properties(void)
{
	const char *env = getenv("NUMFMT_N");
	long n = env ? atol(env) : 200000, i, notback = 0, notshort = 0;
	char got[NUM_BUFSZ], tmp[64];

	for (i = 0; i < n; i++) {
		uint64_t b = rnd();
		double d;
		int digits = 0, lead = 1;
		const char *p;

		memcpy(&d, &b, sizeof(d));
		if (!isfinite(d) || d == 0)
			continue;
		num_shortest(got, d);
		if (strtod(got, NULL) != d)
			notback++;
		for (p = got; *p && *p != 'e'; p++) {	/* significant digits */
			if (*p < '0' || *p > '9')
				continue;
			if (*p == '0' && lead)
				continue;
			lead = 0;
			digits++;
		}
		if (strchr(got, 'e') == NULL)	/* trailing zeros of "123.0", "1200.0" */
			for (p = got + strlen(got) - 1; p > got && (*p == '0' || *p == '.'); p--)
				digits -= *p == '0' && digits > 1;
		if (digits > 1) {
			snprintf(tmp, sizeof(tmp), "%.*e", digits - 2, d);
			if (strtod(tmp, NULL) == d)
				notshort++;
		}
	}
	ok(notback == 0, "%ld random bit patterns read back (%ld did not)", n, notback);
	ok(notshort == 0, "and none has a shorter text that reads back (%ld had)", notshort);
}

int
main(void)
{
	char buf[NUM_BUFSZ];
	int i, bad = 0;

	/* Values as Python's repr prints them (the reference CSV's numbers). */
	shortest(94.25, "94.25");
	shortest(64.0, "64.0");
	shortest(0.0, "0.0");
	shortest(-0.0, "-0.0");
	shortest(1e-05, "1e-05");
	shortest(0.0001, "0.0001");
	shortest(0.00010433477416946709, "0.00010433477416946709");
	shortest(5048718.545, "5048718.545");
	shortest(1e16, "1e+16");
	shortest(1e15, "1000000000000000.0");
	shortest(1.5e16, "1.5e+16");
	shortest(0.1, "0.1");
	shortest(1e23, "1e+23");
	shortest(12.441213624107162, "12.441213624107162");
	shortest(230.00016074155434, "230.00016074155434");
	shortest(74.0 / 72, "1.0277777777777777");
	shortest(-2.5e-300, "-2.5e-300");
	shortest(5e-324, "5e-324");
	shortest(1.7976931348623157e308, "1.7976931348623157e+308");
	shortest(NAN, "nan");
	shortest(INFINITY, "inf");
	/* Round trip on many values. */
	srand(7);
	for (i = 0; i < 100000; i++) {
		double d = ldexp((double)rand() / RAND_MAX, rand() % 200 - 100) * (rand() % 2 ? 1 : -1);
		num_shortest(buf, d);
		if (strtod(buf, NULL) != d)
			bad++;
	}
	ok(bad == 0, "100000 random doubles round-trip (%d failed)", bad);
	against_python();
	properties();

	/* Python "{:,.Nf}" */
	fixed(1234567.891, 1, "1,234,567.9");
	fixed(6.5, 0, "6");
	fixed(7.5, 0, "8");
	fixed(0.25, 1, "0.2");
	fixed(999.96, 1, "1,000.0");
	fixed(-1234.5, 2, "-1,234.50");
	fixed(100, 0, "100");
	fixed(0.004, 2, "0.00");
	num_int(buf, -1234567, 1);
	is_str(buf, "-1,234,567", "num_int grouped");
	num_int(buf, 123, 1);
	is_str(buf, "123", "num_int short");
	num_int(buf, INT64_MIN, 0);
	is_str(buf, "-9223372036854775808", "num_int of the smallest long long");
	num_int(buf, 0, 1);
	is_str(buf, "0", "num_int zero");
	return tap_done();
}
