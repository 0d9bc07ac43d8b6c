/* SPDX-License-Identifier: ISC */
/* Unit tests for numfmt: Python repr layout, round trips, fixed with separators. */
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

/*
 * The reference: the original printf/strtod search (shortest of %.14e, %.15e,
 * %.16e that reads back; subnormals from %.0e up), laid out like num_shortest.
 * num_shortest's exact integer route must give the same text for every double.
 */
static void
ref_shortest(char *buf, double d)
{
	char tmp[64], digits[32], *p, *e, *o = buf;
	int prec, n = 0, decpt, exp10, i;

	if (signbit(d))
		*o++ = '-';
	d = fabs(d);
	if (d == 0) {
		strcpy(o, "0.0");
		return;
	}
	for (prec = d < DBL_MIN ? 0 : 14; prec <= 16; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*e", prec, d);
		if (prec == 16 || strtod(tmp, NULL) == d)
			break;
	}
	e = strchr(tmp, 'e');
	for (p = tmp; p < e; p++)
		if (*p >= '0' && *p <= '9')
			digits[n++] = *p;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	decpt = atoi(e + 1) + 1;
	exp10 = decpt - 1;
	if (exp10 < -4 || exp10 >= 16) {
		*o++ = digits[0];
		if (n > 1) {
			*o++ = '.';
			memcpy(o, digits + 1, (size_t)n - 1);
			o += n - 1;
		}
		sprintf(o, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
		return;
	} else if (decpt <= 0) {
		*o++ = '0';
		*o++ = '.';
		for (i = 0; i < -decpt; i++)
			*o++ = '0';
		memcpy(o, digits, (size_t)n);
		o += n;
	} else if (decpt >= n) {
		memcpy(o, digits, (size_t)n);
		o += n;
		for (i = n; i < decpt; i++)
			*o++ = '0';
		*o++ = '.';
		*o++ = '0';
	} else {
		memcpy(o, digits, (size_t)decpt);
		o += decpt;
		*o++ = '.';
		memcpy(o, digits + decpt, (size_t)(n - decpt));
		o += n - decpt;
	}
	*o = '\0';
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

static double
bits2d(uint64_t b)
{
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

/* Compare num_shortest with the reference on d; print the first few mismatches. */
static int
same(double d)
{
	char got[NUM_BUFSZ], want[NUM_BUFSZ];
	static int shown;

	if (!isfinite(d))
		return 1;
	num_shortest(got, d);
	ref_shortest(want, d);
	if (strcmp(got, want) == 0)
		return 1;
	if (shown++ < 10)
		printf("# %a: got %s want %s\n", d, got, want);
	return 0;
}

/* N (or $NUMFMT_N) values of each kind, compared with the reference. */
static void
against_reference(void)
{
	const char *env = getenv("NUMFMT_N");
	long n = env ? atol(env) : 30000, i;
	int k, bad[8] = { 0 };
	double d;
	uint64_t b;

	for (i = 0; i < n; i++) {
		/* any bit pattern (all exponents, subnormals, both signs) */
		bad[0] += !same(bits2d(rnd()));
		/* log-uniform over the range the exact route covers and beyond */
		d = pow(10, (double)(rnd() % 40000) / 1000 - 20) * (1 + (double)(rnd() % 1000000) / 1e6);
		bad[1] += !same(d);
		/* integers, including 16-digit ones ending in 5 and 50 (rounding ties) */
		b = rnd() % 9007199254740992ULL;
		bad[2] += !same((double)b);
		bad[3] += !same((double)(b - b % 10 + 5)) + !same((double)(b - b % 100 + 50));
		/* x/7, x/3, short decimals scaled, halves and binary fractions */
		d = (double)(rnd() % 100000000) / 7 * pow(10, (double)(int)(rnd() % 30) - 15);
		bad[4] += !same(d) + !same(d / 3);
		d = (double)(rnd() % 100000) / 1000 * pow(10, (double)(int)(rnd() % 40) - 20);
		bad[5] += !same(d) + !same((double)(rnd() % 100000000) + 0.5)
		    + !same(ldexp((double)(rnd() % 1000000), -(int)(rnd() % 60)));
		/* neighbours of powers of two (the asymmetric interval) */
		d = ldexp(1.0, (int)(rnd() % 2098) - 1074);
		bad[6] += !same(d) + !same(nextafter(d, 0)) + !same(nextafter(d, INFINITY));
		/* subnormals */
		bad[7] += !same(bits2d(rnd() % (1ULL << 52)));
	}
	/* every power of ten and its neighbours */
	for (k = -323; k <= 308; k++) {
		d = pow(10, k);
		bad[6] += !same(d) + !same(nextafter(d, 0)) + !same(nextafter(d, INFINITY));
	}
	for (k = 0; k < 8; k++)
		ok(bad[k] == 0, "matches the printf/strtod reference, class %d, %ld values (%d differ)",
		    k, n, bad[k]);
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
	against_reference();

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
	return tap_done();
}
