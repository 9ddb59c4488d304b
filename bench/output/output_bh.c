// SPDX-License-Identifier: GPL-2.0
/*
 * output_bh.c - the work items of BH workqueues tied to the softirq that ran them
 * (struct bh_tie, match.h), and where workqueue items were queued (req_cpu and cpu of
 * workqueue_queue_work): their section of the terminal table and of summary.json.
 */
#define DEFERBENCH_ALLOW_SUMMARY_INT_H
#include <json.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "output.h"
#include "summary_int.h"
#include "common.h"

/* bh_causes - the causes of the runs' wait, largest share first, into buf */
static const char *bh_causes(const struct bh_tie *t, char *buf, size_t len)
{
	bool used[WAIT_NR] = { false };
	size_t off = 0;
	int n, k, best;

	buf[0] = '\0';
	for (n = 0; n < 3 && t->run_delay_ns; n++) {
		best = -1;
		for (k = 0; k < WAIT_NR; k++)
			if (!used[k] && t->cause_ns[k] &&
			    (best < 0 || t->cause_ns[k] > t->cause_ns[best]))
				best = k;
		if (best < 0)
			break;
		used[best] = true;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s %.0f%%",
					n ? ", " : "", sirq_cause_names[best],
					100.0 * (double)t->cause_ns[best] / (double)t->run_delay_ns);
	}
	return buf[0] ? buf : "-";
}

void output_bh_print(const struct result *r, FILE *f, const struct table_opts *o)
{
	char fn[128], pool[32], causes[96], b[2][24];
	bool head = false;
	uint32_t i;

	for (i = 0; i < r->m.ngroups; i++) {
		const struct wq_group *g = r->m.groups[i];
		const struct bh_tie *t = g->bh;

		if (!t || !t->items)
			continue;
		if (!head) {
			fprintf(f, "\nBH WORK, times in %s   a BH work item waits for the softirq run "
				"that runs it (its vector's\n      wait: the causes of that vector's "
				"wait in those runs), then for its turn inside the run\n",
				table_unit(o));
			fprintf(f, "%-24s %-7s %-7s %8s | %*s %*s | %*s %*s | %s\n", "function", "pool",
				"vector", "items", table_w(o), "wait p50", table_w(o), "p99", table_w(o),
				"turn p50", table_w(o), "p99", "causes of the vector's wait");
			head = true;
		}
		fprintf(f, "%-24.24s %-7s %-7s %8llu | %*s %*s", result_wq_func(r, g, fn, sizeof(fn)),
			match_pool_name(g->pool, pool, sizeof(pool)),
			t->vec >= 0 ? softirq_names[t->vec] : "-", (unsigned long long)t->items,
			table_w(o), table_lat(hist_percentile(&t->before, 0.5), o, b[0], 24),
			table_w(o), table_lat(hist_percentile(&t->before, 0.99), o, b[1], 24));
		fprintf(f, " | %*s %*s | %s\n",
			table_w(o), table_lat(hist_percentile(&t->inside, 0.5), o, b[0], 24),
			table_w(o), table_lat(hist_percentile(&t->inside, 0.99), o, b[1], 24),
			bh_causes(t, causes, sizeof(causes)));
	}
}

void output_queued_print(const struct result *r, FILE *f)
{
	char fn[128];
	bool head = false;
	uint32_t i;

	for (i = 0; i < r->m.ngroups; i++) {
		const struct wq_group *g = r->m.groups[i];

		if (!g->queued_remote)
			continue;
		fprintf(f, "%s%s %s %.0f%% (%llu of %llu)", head ? ", " :
			"queued to another CPU's pool (workqueue_queue_work cpu): ",
			r->m.wq_names[g->wq], result_wq_func(r, g, fn, sizeof(fn)),
			100.0 * (double)g->queued_remote / (double)g->queued_known,
			(unsigned long long)g->queued_remote, (unsigned long long)g->queued_known);
		head = true;
	}
	if (head)
		fputc('\n', f);
}

void output_queued_json(const struct wq_group *g, json_object *o)
{
	jsonw_u64(o, "queued_known", g->queued_known);
	jsonw_u64(o, "queued_remote", g->queued_remote);
	jsonw_u64(o, "queued_on_cpu", g->queued_req);
}

int output_bh_json(const struct result *r, json_object *root)
{
	json_object *a = json_object_new_array(), *o, *c;
	char fn[128], pool[32];
	uint32_t i;
	int k;

	json_object_object_add(root, "bh_work", a);
	for (i = 0; i < r->m.ngroups; i++) {
		const struct wq_group *g = r->m.groups[i];
		const struct bh_tie *t = g->bh;

		if (!t || !t->items)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "workqueue", json_object_new_string(r->m.wq_names[g->wq]));
		json_object_object_add(o, "function",
				       json_object_new_string(result_wq_func(r, g, fn, sizeof(fn))));
		json_object_object_add(o, "pool", json_object_new_string(
					       match_pool_name(g->pool, pool, sizeof(pool))));
		json_object_object_add(o, "vector", json_object_new_string(
			t->vec >= 0 && t->vec < NR_SOFTIRQS ? softirq_names[t->vec] : ""));
		jsonw_u64(o, "items", t->items);
		json_object_object_add(o, "before_run_ns", jsonw_stats(&t->before));
		json_object_object_add(o, "in_run_ns", jsonw_stats(&t->inside));
		jsonw_u64(o, "split_items", t->split);
		jsonw_u64(o, "run_delay_ns", t->run_delay_ns);
		c = json_object_new_object();
		for (k = 0; k < WAIT_NR; k++)
			jsonw_u64(c, sirq_cause_names[k], t->cause_ns[k]);
		json_object_object_add(o, "run_causes_ns", c);
		json_object_array_add(a, o);
	}
	return 0;
}
