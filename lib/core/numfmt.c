/* SPDX-License-Identifier: ISC */
/*
 * numfmt: number to text, independent of the locale (no LC_NUMERIC is ever set, and
 * the decimal point is produced here, not by printf's locale).
 *
 * num_shortest finds the shortest decimal that reads back as the same double: a
 * decimal of up to 15 significant digits always survives the trip through %.14e, so
 * the correctly rounded 15-digit decimal is tried first, then 16, then 17 digits.
 * For normal values from about 1e-11 to 1e15 this is done exactly in 128-bit
 * integer arithmetic (fast_digits); other values take the printf/strtod route
 * (slow_digits), which defines the result: both give the same digits.
 * Where d is a power of two, its rounding interval is narrower below than above, and
 * the decimal one unit above the nearest may read back when the nearest does not (Python
 * picks it too). The digits are then laid out as Python's repr(float) lays them out.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"

typedef unsigned __int128 u128;

/* 10^0 .. 10^19 */
static const uint64_t pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
	1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
	1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL,
};

/*
 * The exact route, for normal d with X = d × 10^q in [10^16, 10^17), 0 <= q <= 27
 * and d × 2^s = an integer for some s >= 0 (i.e. below about 1e15). With
 * d = m × 2^e: A = m × 5^q is exact (< 2^116) and X = A / 2^s, s = -(e + q).
 * The p-digit candidate (p = 15, 16, 17) is X / 10^(17-p) rounded half to even
 * (as printf rounds); it reads back as d when it lies inside d's rounding interval
 * (strtod rounds half to even, so the ends count when m is even). All of this is
 * compared in units of 2^-(s+2) of X, where ulp/2 is 2 × 5^q.
 * Returns the digit count, or 0 when d is outside the range handled here.
 */
static int
fast_digits(double d, char *digits, int *decpt)
{
	uint64_t bits, m, pow5, n, c, r, v;
	u128 a, frac, x4, vv, diff, hi, lo, t2, h2;
	int e, q, s, j, p, k, carry;

	memcpy(&bits, &d, sizeof(bits));
	e = (int)((bits >> 52) & 0x7ff);
	if (e == 0 || e == 0x7ff)
		return 0;
	m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
	e -= 1075;
	/* floor(log10(d)) estimate from the binary exponent, fixed below. */
	k = (int)floor((e + 52) * 0.30102999566398119521);
	q = 16 - k;
	for (;;) {
		if (q < 0 || q > 27)
			return 0;
		s = -(e + q);
		if (s < 0 || s > 63)
			return 0;
		pow5 = 1;
		for (j = 0; j < q; j++)
			pow5 *= 5;
		a = (u128)m * pow5;
		n = (uint64_t)(a >> s);
		if (n < pow10_u64[16]) {
			q++;
			continue;
		}
		if (n >= pow10_u64[17]) {
			q--;
			continue;
		}
		break;
	}
	frac = s == 0 ? 0 : a & (((u128)1 << s) - 1);
	x4 = a << 2;
	hi = (u128)pow5 << 1;
	lo = (m == (1ULL << 52) && e > -1074) ? (u128)pow5 : hi;
	for (p = 15; p <= 17; p++) {
		j = 17 - p;
		c = n / pow10_u64[j];
		r = n % pow10_u64[j];
		/* tail = r + frac / 2^s against half of 10^j, times 2^(s+1) */
		t2 = (((u128)r << s) + frac) << 1;
		h2 = (u128)pow10_u64[j] << s;
		if (t2 > h2 || (t2 == h2 && (c & 1)))
			c++;
		if (p == 17)
			break;
		v = c * pow10_u64[j];
		vv = (u128)v << (s + 2);
		if (vv >= x4) {
			diff = vv - x4;
			if (diff < hi || (diff == hi && !(m & 1)))
				break;
		} else {
			diff = x4 - vv;
			if (diff < lo || (diff == lo && !(m & 1)))
				break;
			/* below a power of two the interval is narrower below than above:
			 * the next candidate up may read back when the nearest does not */
			diff = ((u128)pow10_u64[j] << (s + 2)) - diff;
			if (lo != hi && (diff < hi || (diff == hi && !(m & 1)))) {
				c++;
				break;
			}
		}
	}
	carry = c == pow10_u64[p];
	if (carry)
		c /= 10;
	for (j = p - 1; j >= 0; j--) {
		digits[j] = (char)('0' + c % 10);
		c /= 10;
	}
	while (p > 1 && digits[p - 1] == '0')
		p--;
	digits[p] = '\0';
	*decpt = 17 - q + carry;
	return p;
}

/*
 * tmp is "D.DDDe[+-]XX", the nearest decimal of its length to d, which does not read back
 * as d. Below a power of two the rounding interval is half as wide below d as above, so
 * the next decimal up may read back: if so, tmp becomes it and 1 is returned.
 */
static int
next_up(char *tmp, double d)
{
	char up[64], *e = strchr(tmp, 'e'), *p;
	int x;

	if (e == NULL || (size_t)(e - tmp) >= sizeof(up) - 8 || strtod(tmp, NULL) > d)
		return 0;
	memcpy(up, tmp, (size_t)(e - tmp));
	x = atoi(e + 1);
	for (p = up + (e - tmp) - 1; p >= up; p--) {
		if (*p == '.')
			continue;
		if (*p != '9') {
			(*p)++;
			break;
		}
		*p = '0';
	}
	if (p < up) {		/* 9.99e5 + 1 unit = 1.00e6 */
		up[0] = '1';
		x++;
	}
	snprintf(up + (e - tmp), sizeof(up) - (size_t)(e - tmp), "e%+03d", x);
	if (strtod(up, NULL) != d)
		return 0;
	strcpy(tmp, up);
	return 1;
}

/* Digits and decimal exponent of d (> 0, finite): d = 0.D × 10^decpt. */
static int
slow_digits(double d, char *digits, int *decpt)
{
	char tmp[64], *p, *e;
	int prec, n = 0;

	/* Subnormals carry fewer digits: search them from the shortest up. */
	for (prec = d < DBL_MIN ? 0 : 14; prec <= 16; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*e", prec, d);
		if (prec == 16 || strtod(tmp, NULL) == d)
			break;
		if (next_up(tmp, d))	/* the asymmetric interval of a power of two */
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

/* The text of a non-finite value, as Python spells it. */
static size_t
nonfinite(char *buf, double d)
{
	const char *s = isnan(d) ? "nan" : d < 0 ? "-inf" : "inf";
	size_t n = strlen(s);

	memcpy(buf, s, n + 1);
	return n;
}

size_t
num_shortest(char *buf, double d)
{
	char digits[32], *o = buf;
	int n, decpt, exp10, i;

	if (!isfinite(d))
		return nonfinite(buf, d);
	if (signbit(d))
		*o++ = '-';
	d = fabs(d);
	if (d == 0) {
		memcpy(o, "0.0", 4);
		return (size_t)(o - buf) + 3;
	}
	n = fast_digits(d, digits, &decpt);
	if (n == 0)
		n = slow_digits(d, digits, &decpt);
	exp10 = decpt - 1;
	if (exp10 < -4 || exp10 >= 16) {
		/* Scientific: d[.ddd]e±XX, at least two exponent digits. */
		*o++ = digits[0];
		if (n > 1) {
			*o++ = '.';
			memcpy(o, digits + 1, (size_t)n - 1);
			o += n - 1;
		}
		/* e±XX or e±XXX: |exp10| <= 324 */
		*o++ = 'e';
		*o++ = exp10 < 0 ? '-' : '+';
		exp10 = abs(exp10);
		if (exp10 >= 100)
			*o++ = (char)('0' + exp10 / 100);
		*o++ = (char)('0' + exp10 / 10 % 10);
		*o++ = (char)('0' + exp10 % 10);
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

/* "%.*f" of any finite double with at most NUM_MAXDEC decimals: sign, integer digits,
 * point, decimals, NUL. */
#define FIXED_TMPSZ (1 + NUM_INTDIGITS + 1 + NUM_MAXDEC + 1)
_Static_assert(DBL_MAX_10_EXP + 1 <= NUM_INTDIGITS, "DBL_MAX's integer digits fit");
_Static_assert(FIXED_TMPSZ + (NUM_INTDIGITS - 1) / 3 <= NUM_BUFSZ,
    "num_fixed's grouped text fits NUM_BUFSZ");

size_t
num_fixed(char *buf, double d, int decimals, int thousands)
{
	char tmp[FIXED_TMPSZ], *o = buf, *p = tmp, *dot;
	size_t intlen, declen;
	int n;

	if (!isfinite(d))
		return nonfinite(buf, d);
	if (decimals < 0)
		decimals = 0;
	if (decimals > NUM_MAXDEC)
		decimals = NUM_MAXDEC;
	n = snprintf(tmp, sizeof(tmp), "%.*f", decimals, d);
	if (n < 0 || (size_t)n >= sizeof(tmp))	/* cannot happen: FIXED_TMPSZ is the most */
		return nonfinite(buf, NAN);
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
		declen = strlen(dot + 1);
		*o++ = '.';
		memcpy(o, dot + 1, declen);
		o += declen;
	}
	*o = '\0';
	return (size_t)(o - buf);
}

size_t
num_int(char *buf, long long v, int thousands)
{
	char tmp[NUM_INTSZ], *p = tmp + sizeof(tmp), *o = buf;
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*o++ = '-';
	if (thousands)
		o = group(o, p, (size_t)(tmp + sizeof(tmp) - p));
	else {
		memcpy(o, p, (size_t)(tmp + sizeof(tmp) - p));
		o += tmp + sizeof(tmp) - p;
	}
	*o = '\0';
	return (size_t)(o - buf);
}
