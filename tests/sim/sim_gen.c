// SPDX-License-Identifier: GPL-2.0
/*
 * sim_gen.c - synthetic blocks and repetitions, as evidence.h holds them (sim.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "sim.h"
#include "stats.h"

/* log of the median sample (20 us) and the spread of samples inside a phase */
#define SIM_MU 9.9
#define SIM_SIGMA 0.5
#define STALL_PHASES 0.10
#define STALL_SAMPLES 0.20
#define STALL_FACTOR 8.0

static double dom_val[HIST_BUCKETS];

void sim_domain_init(void)
{
	unsigned int i;

	/* a bucket stands for its midpoint, as evidence_build() makes the domain */
	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t w = hist_bucket_width(i);

		dom_val[i] = (double)hist_bucket_lo(i) + (w > 1 ? (double)(w / 2) : 0);
	}
}

void sim_model_default(struct sim_model *m)
{
	memset(m, 0, sizeof(*m));
	m->s = 0.15;
	m->drift = 0.3;
	m->ratio = 1.0;
	m->paired = true;
	m->n = 20;
	m->ivals = 1;
	m->samples = 600;
}

static double uniform(uint64_t *rng)
{
	return ((stats_splitmix64(rng) >> 11) + 0.5) / 9007199254740992.0;
}

double sim_gauss(uint64_t *rng)
{
	return sqrt(-2 * log(uniform(rng))) * cos(2 * M_PI * uniform(rng));
}

static int reserve(struct sim_data *d, size_t phases, size_t ivals, size_t buckets)
{
	void *p;

	free(d->rep);
	free(d->iv);
	d->rep = calloc(phases, sizeof(*d->rep));
	d->iv = calloc(ivals, sizeof(*d->iv));
	if (!d->rep || !d->iv)
		return -ENOMEM;
	if (d->cap_buckets < buckets) {
		p = realloc(d->idx, buckets * sizeof(*d->idx));
		if (!p)
			return -ENOMEM;
		d->idx = p;
		p = realloc(d->cnt, buckets * sizeof(*d->cnt));
		if (!p)
			return -ENOMEM;
		d->cnt = p;
		d->cap_buckets = buckets;
	}
	return 0;
}

/* fill_ival - one interval's samples around log level lv, sparse into d */
static void fill_ival(struct sim_data *d, struct hb_ival *x, double lv, bool stall,
		      unsigned int samples, uint64_t *rng, uint64_t *dense)
{
	unsigned int i, lo = HIST_BUCKETS, hi = 0, b;

	for (i = 0; i < samples; i += 2) {
		/* both normals of a Box-Muller draw: half the logs and cosines */
		double r = sqrt(-2 * log(uniform(rng))), t = 2 * M_PI * uniform(rng);
		double z[2] = { r * cos(t), r * sin(t) };
		unsigned int k;

		for (k = 0; k < 2 && i + k < samples; k++) {
			double v = exp(lv + SIM_SIGMA * z[k]);

			if (stall && uniform(rng) < STALL_SAMPLES)
				v *= STALL_FACTOR;
			b = hist_index((uint64_t)v);
			dense[b]++;
			lo = b < lo ? b : lo;
			hi = b > hi ? b : hi;
		}
	}
	x->idx = d->idx + d->used;
	x->cnt = d->cnt + d->used;
	x->n = 0;
	x->total = samples;
	for (b = lo; samples && b <= hi; b++) {
		if (!dense[b])
			continue;
		x->idx[x->n] = b;
		x->cnt[x->n++] = dense[b];
		dense[b] = 0;
	}
	d->used += x->n;
}

int sim_generate(const struct sim_model *m, uint64_t *rng, struct sim_data *d)
{
	size_t phases = 2 * (size_t)m->n, ivals = phases * m->ivals;
	unsigned int per = m->strata > 1 ? (m->n + m->strata - 1) / m->strata : m->n;
	double phase_sd = m->s / M_SQRT2, drift = 0, stratum = 0;
	uint64_t *dense;
	unsigned int i, k;
	int side, ret;

	/* an interval touches at most as many buckets as it has samples */
	ret = reserve(d, phases, ivals, ivals * m->samples);
	if (ret)
		return ret;
	dense = calloc(HIST_BUCKETS, sizeof(*dense));
	if (!dense)
		return -ENOMEM;
	memset(&d->e, 0, sizeof(d->e));
	d->used = 0;
	d->e.dom.val = dom_val;
	d->e.dom.n = HIST_BUCKETS;
	d->e.paired = m->paired;
	d->e.side[0].rep = d->rep;
	d->e.side[1].rep = d->rep + m->n;
	for (i = 0; i < m->n; i++) {
		if (m->strata > 1 && i % per == 0)
			stratum = m->stratum_sd * sim_gauss(rng);
		drift = m->paired ? m->drift * sim_gauss(rng) : 0;
		for (side = 0; side < 2; side++) {
			struct hb_rep *r = &d->e.side[side].rep[i];
			double lv = SIM_MU + drift + stratum + phase_sd * sim_gauss(rng) +
				    (side ? log(m->ratio) : 0);
			bool stall = m->stalls && uniform(rng) < STALL_PHASES;

			r->iv = d->iv + (size_t)(side * m->n + i) * m->ivals;
			r->n = m->ivals;
			r->stratum = m->strata > 1 ? i / per : 0;
			for (k = 0; k < m->ivals; k++)
				fill_ival(d, &r->iv[k], lv, stall, m->samples, rng, dense);
		}
	}
	d->e.side[0].n = d->e.side[1].n = m->n;
	d->e.count[0] = hb_count(&d->e.side[0]);
	d->e.count[1] = hb_count(&d->e.side[1]);
	free(dense);
	return 0;
}

void sim_data_free(struct sim_data *d)
{
	free(d->rep);
	free(d->iv);
	free(d->idx);
	free(d->cnt);
	memset(d, 0, sizeof(*d));
}
