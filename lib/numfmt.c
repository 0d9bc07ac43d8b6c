/* SPDX-License-Identifier: ISC */
/*
 * numfmt: number to text, independent of the locale (no LC_NUMERIC is ever set, and
 * the decimal point is produced here, not by printf's locale).
 *
 * num_shortest finds the shortest decimal that reads back as the same double: a
 * decimal of up to 15 significant digits always survives the trip through %.14e, so
 * one conversion settles most values; 16 and 17 digits are tried only when needed.
 * The digits are then laid out as Python's repr(float) lays them out.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"

/* Digits and decimal exponent of d (> 0, finite): d = 0.D × 10^decpt. */
static int
shortest_digits(double d, char *digits, int *decpt)
{
	char tmp[64], *p, *e;
	int prec, n = 0;

	/* Subnormals carry fewer digits: search them from the shortest up. */
	for (prec = d < DBL_MIN ? 0 : 14; prec <= 16; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*e", prec, d);
		if (prec == 16 || strtod(tmp, NULL) == d)
			break;
	}
	/* tmp is "D.DDDDe[+-]XX" */
	e = strchr(tmp, 'e');
	for (p = tmp; p < e; p++)
		if (*p >= '0' && *p <= '9')
			digits[n++] = *p;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	*decpt = atoi(e + 1) + 1;
	return n;
}

size_t
num_shortest(char *buf, double d)
{
	char digits[32], *o = buf;
	int n, decpt, exp10, i;

	if (isnan(d))
		return (size_t)snprintf(buf, NUM_BUFSZ, "nan");
	if (isinf(d))
		return (size_t)snprintf(buf, NUM_BUFSZ, d < 0 ? "-inf" : "inf");
	if (signbit(d))
		*o++ = '-';
	d = fabs(d);
	if (d == 0) {
		memcpy(o, "0.0", 4);
		return (size_t)(o - buf) + 3;
	}
	n = shortest_digits(d, digits, &decpt);
	exp10 = decpt - 1;
	if (exp10 < -4 || exp10 >= 16) {
		/* Scientific: d[.ddd]e±XX, at least two exponent digits. */
		*o++ = digits[0];
		if (n > 1) {
			*o++ = '.';
			memcpy(o, digits + 1, (size_t)n - 1);
			o += n - 1;
		}
		o += sprintf(o, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
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
	return (size_t)(o - buf);
}

/* Copy the integer digits in s (length n) to o with ',' every three digits. */
static char *
group(char *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			*o++ = ',';
		*o++ = s[i];
	}
	return o;
}

size_t
num_fixed(char *buf, double d, int decimals, int thousands)
{
	char tmp[NUM_BUFSZ], *o = buf, *p = tmp, *dot;
	size_t intlen;

	if (isnan(d))
		return (size_t)snprintf(buf, NUM_BUFSZ, "nan");
	if (isinf(d))
		return (size_t)snprintf(buf, NUM_BUFSZ, d < 0 ? "-inf" : "inf");
	if (decimals < 0)
		decimals = 0;
	if (decimals > 40)
		decimals = 40;
	snprintf(tmp, sizeof(tmp), "%.*f", decimals, d);
	if (*p == '-')
		*o++ = *p++;
	/* glibc writes the locale's radix; we never set LC_NUMERIC, but be sure. */
	dot = p + strspn(p, "0123456789");
	intlen = (size_t)(dot - p);
	if (thousands)
		o = group(o, p, intlen);
	else {
		memcpy(o, p, intlen);
		o += intlen;
	}
	if (*dot != '\0') {
		*o++ = '.';
		strcpy(o, dot + 1);
		o += strlen(dot + 1);
	}
	*o = '\0';
	return (size_t)(o - buf);
}

size_t
num_int(char *buf, long long v, int thousands)
{
	char tmp[32], *o = buf, *p = tmp;

	snprintf(tmp, sizeof(tmp), "%lld", v);
	if (*p == '-')
		*o++ = *p++;
	if (thousands)
		o = group(o, p, strlen(p));
	else {
		strcpy(o, p);
		o += strlen(p);
	}
	*o = '\0';
	return (size_t)(o - buf);
}
