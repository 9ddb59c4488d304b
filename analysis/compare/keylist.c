// SPDX-License-Identifier: GPL-2.0
/*
 * keylist.c - the metric keys a cellset's records have, collected once each (see
 * metric.h).
 */
#include "metric.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "moved.h"

int keylist_add(struct keylist *kl, const struct metric_key *k)
{
	size_t i;

	for (i = 0; i < kl->n; i++)
		if (kl->k[i].stat == k->stat && metric_same_group(&kl->k[i], k))
			return 0;
	if (GROW(kl->k, kl->cap, kl->n + 1))
		return -ENOMEM;
	kl->k[kl->n++] = *k;
	return 0;
}

void keylist_free(struct keylist *kl)
{
	free(kl->k);
	memset(kl, 0, sizeof(*kl));
}

/* add_all_stats - k for every statistic */
static int add_all_stats(struct keylist *kl, struct metric_key *k)
{
	int s, ret = 0;

	for (s = 0; !ret && s < MST_NR; s++) {
		k->stat = (enum mstat)s;
		ret = keylist_add(kl, k);
	}
	return ret;
}

static int collect_record(const struct record *rec, bool per_pool, struct keylist *kl)
{
	struct metric_key k;
	size_t i;
	int m, ret = 0;

	for (i = 0; !ret && i < rec->wl.nm; i++) {
		k = (struct metric_key){ .src = MS_WORKLOAD };
		snprintf(k.name, sizeof(k.name), "%s", rec->wl.m[i].name);
		ret = add_all_stats(kl, &k);
	}
	for (i = 0; !ret && i < rec->nsirq; i++)
		for (m = 0; !ret && m < SM_NR && rec->sirq[i].cpu == -1; m++) {
			k = (struct metric_key){ .src = MS_SOFTIRQ, .sub = m };
			snprintf(k.name, sizeof(k.name), "%s", rec->sirq[i].vector);
			ret = add_all_stats(kl, &k);
		}
	for (i = 0; !ret && i < rec->nwq; i++)
		for (m = 0; !ret && m < WM_NR; m++) {
			k = (struct metric_key){ .src = MS_WQ, .sub = m };
			snprintf(k.name, sizeof(k.name), "%s", rec->wq[i].wq);
			snprintf(k.func, sizeof(k.func), "%s", rec->wq[i].func);
			if (per_pool)
				snprintf(k.pool, sizeof(k.pool), "%s", rec->wq[i].pool);
			ret = add_all_stats(kl, &k);
		}
	for (m = 0; !ret && m < WK_NR; m++)
		for (i = 0; !ret && i < rec->nwake[m]; i++) {
			k = (struct metric_key){ .src = MS_WAKEUP, .sub = m };
			snprintf(k.name, sizeof(k.name), "%s", rec->wake[m][i].name);
			ret = add_all_stats(kl, &k);
		}
	for (i = 0; !ret && i < rec->nctx; i++)
		for (m = 0; !ret && m < SM_NR; m++) {
			k = (struct metric_key){ .src = MS_CONTEXT, .sub = m };
			snprintf(k.name, sizeof(k.name), "%s", rec->ctx[i].context);
			snprintf(k.func, sizeof(k.func), "%s", rec->ctx[i].name);
			snprintf(k.pool, sizeof(k.pool), "%s", rec->ctx[i].where);
			ret = add_all_stats(kl, &k);
		}
	for (i = 0; !ret && i < rec->wl.nwork; i++)
		for (m = 0; !ret && m < SM_NR; m++) {
			struct hist *h = malloc(sizeof(*h));

			k = (struct metric_key){ .src = MS_WORK, .sub = m };
			snprintf(k.name, sizeof(k.name), "%s", rec->wl.work[i].name);
			if (!h)
				return -ENOMEM;
			hist_init(h);
			/* only a work the record has samples of */
			if (!metric_hist(rec, &k, h) && h->count)
				ret = add_all_stats(kl, &k);
			free(h);
		}
	return ret;
}

int keylist_collect(const struct cellset *s, bool per_pool, struct keylist *kl)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < s->n; i++)
		if (s->cell[i]->ok)
			ret = collect_record(&s->cell[i]->rec, per_pool, kl);
	return ret;
}
