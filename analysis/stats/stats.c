// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - medians, quantiles of sorted values, and the generator every resampling uses.
 */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void sort_small(double *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		double x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double stats_median(const double *v, size_t n)
{
	double s[STATS_MAX_N];

	if (!n || n > STATS_MAX_N)
		return NAN;
	memcpy(s, v, n * sizeof(*v));
	sort_small(s, n);
	return median_sorted(s, n);
}

double stats_quantile_sorted(const double *s, size_t n, double q)
{
	double h;
	size_t i;

	if (!n)
		return NAN;
	h = q * (double)(n - 1);
	i = (size_t)floor(h);
	if (i + 1 >= n)
		return s[n - 1];
	return s[i] + (h - (double)i) * (s[i + 1] - s[i]);
}

uint64_t stats_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* resample_median - the median of n draws with replacement from v */
