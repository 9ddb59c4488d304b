// SPDX-License-Identifier: GPL-2.0
/*
 * result_groups.c - a result's groups in the order every output lists them, and their
 * names (see output.h).
 */
#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool result_sirq_all(const struct result *r, int vec, struct sirq_group *out)
{
	bool any = false;
	int c;

	memset(out, 0, sizeof(*out));
	hist_init(&out->delay);
	hist_init(&out->runtime);
	for (c = 0; c < r->ncpus; c++) {
		const struct sirq_group *g = sirq_group_get(&r->m, c, vec);

		if (!g)
			continue;
		any = true;
		out->entries += g->entries;
		out->ksoftirqd += g->ksoftirqd;
		out->long_runs += g->long_runs;
		hist_merge(&out->delay, &g->delay);
		hist_merge(&out->runtime, &g->runtime);
	}
	return any;
}

int result_sirq_each(const struct result *r, sirq_visit fn, void *ctx)
{
	struct sirq_group *all = malloc(sizeof(*all));
	int v, c;

	if (!all)
		return -ENOMEM;
	for (v = 0; v < NR_SOFTIRQS; v++) {
		if (!result_sirq_all(r, v, all))
			continue;
		fn(ctx, r, all, v, -1);
		for (c = 0; c < r->ncpus; c++)
			if (sirq_group_get(&r->m, c, v))
				fn(ctx, r, sirq_group_get(&r->m, c, v), v, c);
	}
	free(all);
	return 0;
}

struct order_key {
	uint64_t p99;
	uint64_t count;
	uint32_t idx;
};

static int order_cmp(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;

	if (x->p99 != y->p99)
		return x->p99 > y->p99 ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

uint32_t *result_wq_order(const struct result *r)
{
	uint32_t n = r->m.ngroups, i;
	struct order_key *k = calloc(n ? n : 1, sizeof(*k));
	uint32_t *idx = calloc(n ? n : 1, sizeof(*idx));

	if (!k || !idx) {
		free(k);
		free(idx);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		k[i].p99 = hist_percentile(&r->m.groups[i]->delay, 0.99);
		k[i].count = r->m.groups[i]->delay.count;
		k[i].idx = i;
	}
	qsort(k, n, sizeof(*k), order_cmp);
	for (i = 0; i < n; i++)
		idx[i] = k[i].idx;
	free(k);
	return idx;
}

const char *result_wq_func(const struct result *r, const struct wq_group *g, char *buf, size_t len)
{
	return symtab_name(&r->syms, r->m.funcs[g->func].addr, buf, len);
}
