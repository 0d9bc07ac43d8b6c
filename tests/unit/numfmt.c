/* SPDX-License-Identifier: ISC */
/* Unit tests for numfmt: Python repr layout, round trips, fixed with separators. */
#include <math.h>
#include <stdlib.h>

#include "numfmt.h"
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
