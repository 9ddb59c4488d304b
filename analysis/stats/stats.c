// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - medians, bootstrap intervals of a ratio of medians, Mann-Whitney U.
 */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

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

double median(const double *v, size_t n)
{
	double s[STATS_MAX_N];

	if (!n || n > STATS_MAX_N)
		return NAN;
	memcpy(s, v, n * sizeof(*v));
	sort_small(s, n);
	return median_sorted(s, n);
}

double quantile_sorted(const double *s, size_t n, double q)
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

uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* resample_median - the median of n draws with replacement from v */
static double resample_median(const double *v, size_t n, uint64_t *rng)
{
	double s[STATS_MAX_N];
	size_t i;

	for (i = 0; i < n; i++)
		s[i] = v[splitmix64(rng) % n];
	sort_small(s, n);
	return median_sorted(s, n);
}

int bootstrap_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		       double conf, unsigned int iters, uint64_t seed, struct ratio_ci *out)
{
	double ma = median(a, na), mb = median(b, nb), *r;
	uint64_t rng = seed;
	size_t lo, hi;
	unsigned int i;

	if (!na || !nb || na > STATS_MAX_N || nb > STATS_MAX_N || iters < 100 ||
	    !(conf > 0 && conf < 1) || !(ma > 0) || !(mb >= 0))
		return -EINVAL;
	r = malloc(iters * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (i = 0; i < iters; i++) {
		double ra = resample_median(a, na, &rng);

		r[i] = resample_median(b, nb, &rng) / (ra > 0 ? ra : ma);
	}
	qsort(r, iters, sizeof(*r), cmp_double);
	lo = (size_t)floor((1 - conf) / 2 * iters);
	hi = (size_t)ceil((1 + conf) / 2 * iters) - 1;
	out->ratio = mb / ma;
	out->lo = r[lo];
	out->hi = r[hi < iters ? hi : iters - 1];
	free(r);
	return 0;
}

/* u_of - pairs (x in a, y in b) with x > y, ties one half */
static double u_of(const double *a, size_t na, const double *b, size_t nb, int *ties)
{
	double u = 0;
	size_t i, j;

	*ties = 0;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++) {
			if (a[i] > b[j])
				u += 1;
			else if (a[i] == b[j]) {
				u += 0.5;
				*ties = 1;
			}
		}
	return u;
}

/*
 * u_cdf_exact - P(U <= u) under the null, no ties: the number of arrangements of m
 * a-values among m + n ranks with U <= u, over C(m + n, m). f[m][n][k] obeys
 * f(m, n, k) = f(m - 1, n, k - n) + f(m, n - 1, k); one 2-D layer per m.
 */
static double u_cdf_exact(size_t m, size_t n, double u)
{
	size_t kmax = m * n, i, j, k;
	double *f, *g, total = 0, below = 0;

	f = calloc((n + 1) * (kmax + 1), sizeof(*f));	/* f[j][k] for the current i */
	g = calloc((n + 1) * (kmax + 1), sizeof(*g));
	if (!f || !g) {
		free(f);
		free(g);
		return NAN;
	}
	for (j = 0; j <= n; j++)
		f[j * (kmax + 1)] = 1;			/* i = 0: one way, U = 0 */
	for (i = 1; i <= m; i++) {
		memset(g, 0, (n + 1) * (kmax + 1) * sizeof(*g));
		for (j = 0; j <= n; j++)
			for (k = 0; k <= i * j; k++) {
				double v = k >= j ? f[j * (kmax + 1) + k - j] : 0;

				if (j)
					v += g[(j - 1) * (kmax + 1) + k];
				g[j * (kmax + 1) + k] = v;
			}
		memcpy(f, g, (n + 1) * (kmax + 1) * sizeof(*f));
	}
	for (k = 0; k <= kmax; k++) {
		total += f[n * (kmax + 1) + k];
		if ((double)k <= u + 1e-9)
			below += f[n * (kmax + 1) + k];
	}
	free(f);
	free(g);
	return below / total;
}

static double normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2));
}

/* u_p_normal - two-sided p from the normal approximation with tie correction */
static double u_p_normal(const double *a, size_t na, const double *b, size_t nb, double u)
{
	double n = (double)(na + nb), mu = (double)na * (double)nb / 2, t = 0, var, z;
	double all[2 * STATS_MAX_N];
	size_t i, j;

	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	qsort(all, na + nb, sizeof(*all), cmp_double);
	for (i = 0; i < na + nb; i = j) {
		for (j = i; j < na + nb && all[j] == all[i]; j++)
			;
		t += pow((double)(j - i), 3) - (double)(j - i);
	}
	var = (double)na * (double)nb / 12 * ((n + 1) - t / (n * (n - 1)));
	if (var <= 0)
		return 1;
	z = (fabs(u - mu) - 0.5) / sqrt(var);
	return z <= 0 ? 1 : 2 * (1 - normal_cdf(z));
}

double mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u)
{
	double p, lo, hi;
	int ties;

	if (!na || !nb || na > STATS_MAX_N || nb > STATS_MAX_N)
		return NAN;
	*u = u_of(a, na, b, nb, &ties);
	if (ties || na > 50 || nb > 50)
		return u_p_normal(a, na, b, nb, *u);
	lo = u_cdf_exact(na, nb, *u);
	hi = 1 - u_cdf_exact(na, nb, *u - 1);		/* P(U >= u) */
	p = 2 * (lo < hi ? lo : hi);
	return p > 1 ? 1 : p;
}
