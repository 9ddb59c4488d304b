// SPDX-License-Identifier: GPL-2.0
/*
 * cpd.c - E-divisive means change-point detection (see cpd.h).
 *
 * Sums of distances over rectangular blocks come from a 2-D prefix sum of the distance
 * matrix, so the statistic of one (t, k) costs O(1) and a segment of length L is
 * searched in O(L^2); a permutation redraws the matrix (O(n^2)). A history of a few
 * hundred kernels with 999 permutations takes well under a second.
 */
#include "cpd.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

void cpd_opts_default(struct cpd_opts *o)
{
	o->alpha = 1.0;
	o->min_size = 2;
	o->sig = 0.05;
	o->perms = 999;
	o->seed = 0xc0ffee;
	o->max_cp = 16;
}

/*
 * Work space for one series: the values in their current order, the prefix sums, and
 * the groups (a group is the repetitions of one run: change points fall between
 * groups, and a permutation moves whole groups)
 */
struct ws {
	size_t n;
	double alpha;
	double *v;		/* [n] */
	double *P;		/* [(n + 1)^2]: P[a][b] = sum_{i < a, j < b} d(v_i, v_j) */
	size_t *g;		/* [ng + 1]: group i is v[g[i], g[i + 1]) in the current order */
	size_t ng;
};

static double *pref(const struct ws *w, size_t a, size_t b)
{
	return &w->P[a * (w->n + 1) + b];
}

static void ws_fill(struct ws *w)
{
	size_t n = w->n, i, j;

	for (j = 0; j <= n; j++)
		*pref(w, 0, j) = 0;
	for (i = 1; i <= n; i++) {
		double row = 0;

		*pref(w, i, 0) = 0;
		for (j = 1; j <= n; j++) {
			double d = fabs(w->v[i - 1] - w->v[j - 1]);

			row += w->alpha == 1.0 ? d : pow(d, w->alpha);
			*pref(w, i, j) = *pref(w, i - 1, j) + row;
		}
	}
}

/* block - sum of d over [a, b) x [c, d) */
static double block(const struct ws *w, size_t a, size_t b, size_t c, size_t d)
{
	return *pref(w, b, d) - *pref(w, a, d) - *pref(w, b, c) + *pref(w, a, c);
}

/* within - mean distance between distinct members of [a, b): sum over i < j / C(m, 2) */
static double within(const struct ws *w, size_t a, size_t b)
{
	double m = (double)(b - a);

	return block(w, a, b, a, b) / 2 / (m * (m - 1) / 2);
}

/* stat - Q of X = [s, t), Y = [t, k) */
static double stat(const struct ws *w, size_t s, size_t t, size_t k)
{
	double m = (double)(t - s), n = (double)(k - t);
	double e = 2 * block(w, s, t, t, k) / (m * n) - within(w, s, t) - within(w, t, k);

	return m * n / (m + n) * e;
}

struct best {
	double q;
	size_t seg;		/* index into the segment bounds */
	size_t t;
};

/*
 * best_split - the largest Q over every segment of groups [b[i], b[i+1]) and every split
 * of it at a group boundary; q = -INFINITY when no segment is long enough
 */
static struct best best_split(const struct ws *w, const size_t *b, size_t nb, size_t ms)
{
	struct best r = { .q = -INFINITY };
	size_t i, t, k;

	for (i = 0; i + 1 < nb; i++) {
		size_t s = b[i], e = b[i + 1];

		if (e - s < 2 * ms)
			continue;
		for (t = s + ms; t + ms <= e; t++)
			for (k = t + ms; k <= e; k++) {
				double q = stat(w, w->g[s], w->g[t], w->g[k]);

				if (q > r.q) {
					r.q = q;
					r.seg = i;
					r.t = t;
				}
			}
	}
	return r;
}

/*
 * shuffle_groups - the groups of each segment in a random order (Fisher-Yates over the
 * group indices): the null "no change inside", with the run as the unit that moves.
 * x and gx are the values and group offsets as given; w->v and w->g get the new order.
 */
static void shuffle_groups(struct ws *w, const double *x, const size_t *gx, const size_t *b,
			   size_t nb, size_t *order, uint64_t *rng)
{
	size_t i, j, k, at = 0;

	for (j = 0; j < w->ng; j++)
		order[j] = j;
	for (i = 0; i + 1 < nb; i++)
		for (j = b[i + 1] - 1; j > b[i]; j--) {
			size_t r = b[i] + (size_t)(stats_splitmix64(rng) % (j - b[i] + 1));
			size_t tmp = order[j];

			order[j] = order[r];
			order[r] = tmp;
		}
	for (j = 0; j < w->ng; j++) {
		w->g[j] = at;
		for (k = gx[order[j]]; k < gx[order[j] + 1]; k++)
			w->v[at++] = x[k];
	}
	w->g[w->ng] = at;
}

/*
 * perm_pvalue - how often a within-segment permutation gives a statistic at least q;
 * stops counting once p can no longer reach sig (the answer is "not significant" then)
 */
static double perm_pvalue(struct ws *w, const double *x, const size_t *gx, const size_t *b,
			  size_t nb, const struct cpd_opts *o, double q, size_t *order,
			  uint64_t *rng)
{
	unsigned int r, ge = 0;
	double limit = o->sig * (o->perms + 1);

	for (r = 0; r < o->perms; r++) {
		shuffle_groups(w, x, gx, b, nb, order, rng);
		ws_fill(w);
		if (best_split(w, b, nb, o->min_size).q >= q * (1 - 1e-12))
			ge++;
		if ((double)(ge + 1) > limit)
			return (double)(ge + 1) / (o->perms + 1);	/* p > sig already */
	}
	return (double)(ge + 1) / (o->perms + 1);
}

static bool opts_ok(const struct cpd_opts *o)
{
	return o->alpha > 0 && o->alpha < 2 && o->min_size >= 2 && o->sig > 0 &&
	       o->sig < 1 && o->perms >= 19 && o->max_cp > 0;
}

static int insert_bound(size_t *b, size_t *nb, size_t at)
{
	size_t i = *nb;

	while (i > 0 && b[i - 1] > at) {
		b[i] = b[i - 1];
		i--;
	}
	b[i] = at;
	(*nb)++;
	return 0;
}

static int cmp_point(const void *a, const void *b)
{
	const struct cpd_point *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

int cpd_edivisive(const double *x, size_t n, const size_t *groups, size_t ngroups,
		  const struct cpd_opts *o, struct cpd_point *cp, size_t *ncp)
{
	struct ws w = { .n = n, .alpha = o->alpha };
	size_t *b, *gx = NULL, *order, nb = 2, i;
	uint64_t rng = o->seed;
	int ret = 0;

	*ncp = 0;
	if (!opts_ok(o) || (groups && (groups[0] != 0 || groups[ngroups] != n)))
		return -EINVAL;
	for (i = 0; groups && i < ngroups; i++)
		if (groups[i + 1] <= groups[i])
			return -EINVAL;		/* an empty group */
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	if (!groups)
		ngroups = n;
	if (ngroups < 2 * o->min_size)
		return 0;
	w.ng = ngroups;
	w.v = malloc(n * sizeof(*w.v));
	w.P = malloc((n + 1) * (n + 1) * sizeof(*w.P));
	w.g = malloc((ngroups + 1) * sizeof(*w.g));
	gx = malloc(2 * (ngroups + 1) * sizeof(*gx));
	b = malloc((o->max_cp + 2) * sizeof(*b));
	if (!w.v || !w.P || !w.g || !gx || !b) {
		ret = -ENOMEM;
		goto out_free;
	}
	order = gx + ngroups + 1;
	for (i = 0; i <= ngroups; i++)
		gx[i] = groups ? groups[i] : i;
	b[0] = 0;
	b[1] = ngroups;
	while (*ncp < o->max_cp) {
		struct best best;
		double p;

		memcpy(w.v, x, n * sizeof(*x));
		memcpy(w.g, gx, (ngroups + 1) * sizeof(*gx));
		ws_fill(&w);
		best = best_split(&w, b, nb, o->min_size);
		if (!isfinite(best.q) || best.q <= 0)
			break;
		p = perm_pvalue(&w, x, gx, b, nb, o, best.q, order, &rng);
		if (p > o->sig)
			break;
		cp[*ncp] = (struct cpd_point){ .index = best.t, .q = best.q, .p = p };
		(*ncp)++;
		insert_bound(b, &nb, best.t);
	}
	qsort(cp, *ncp, sizeof(*cp), cmp_point);
out_free:
	free(w.v);
	free(w.P);
	free(w.g);
	free(gx);
	free(b);
	return ret;
}

size_t cpd_min_values(double sig)
{
	size_t n;

	for (n = 4; n < 64; n++) {
		double c = 1;
		size_t k;

		for (k = 1; k <= n / 2; k++)	/* C(n, n/2) */
			c = c * (double)(n - n / 2 + k) / (double)k;
		if (2 / c <= sig)
			return n;
	}
	return n;
}

double cpd_segment_median(const double *x, size_t a, size_t b)
{
	return b > a ? stats_median(x + a, b - a) : NAN;
}

/* step - relative change of the medians around cp[i] */
static double step(const double *x, size_t n, const struct cpd_point *cp, size_t ncp,
		   size_t i)
{
	size_t a = i ? cp[i - 1].index : 0, m = cp[i].index;
	size_t e = i + 1 < ncp ? cp[i + 1].index : n;
	double before = cpd_segment_median(x, a, m), after = cpd_segment_median(x, m, e);

	if (!(before > 0))
		return INFINITY;	/* no ratio: keep it, the caller shows the values */
	return fabs(after / before - 1);
}

size_t cpd_prune_small(const double *x, size_t n, struct cpd_point *cp, size_t ncp,
		       double min_rel)
{
	while (ncp) {
		size_t i, weakest = 0;
		double low = INFINITY;

		for (i = 0; i < ncp; i++) {
			double s = step(x, n, cp, ncp, i);

			if (s < low) {
				low = s;
				weakest = i;
			}
		}
		if (low >= min_rel)
			break;
		memmove(&cp[weakest], &cp[weakest + 1], (ncp - weakest - 1) * sizeof(*cp));
		ncp--;
	}
	return ncp;
}
