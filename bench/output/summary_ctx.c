// SPDX-License-Identifier: GPL-2.0
/*
 * summary_ctx.c - summary.json's "contexts" and "softirq_wait" sections: written from
 * struct result, read back into struct record. Both are optional to a reader: files
 * written before they existed have neither (docs/results-format.md).
 */
#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"
#include "jsonw.h"
#include "output.h"
#define DEFERBENCH_ALLOW_SUMMARY_INT_H
#include "summary_int.h"
#include "common.h"

static void json_ctx_add(void *ctx, const struct result *r __unused, const struct ctx_row *row)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "context", json_object_new_string(ctx_kind_names[row->kind]));
	json_object_object_add(o, "name", json_object_new_string(row->name));
	json_object_object_add(o, "where", json_object_new_string(row->where));
	jsonw_u64(o, "count", row->count);
	jsonw_u64(o, "long_runs", row->long_runs);
	if (row->kind == CTX_NAPI_POLL) {
		jsonw_u64(o, "work", row->work);
		jsonw_u64(o, "budget_full", row->budget_full);
		jsonw_u64(o, "budget", row->budget);
	}
	json_object_object_add(o, "delay_ns", jsonw_stats(row->delay));
	json_object_object_add(o, "runtime_ns", jsonw_stats(row->runtime));
	json_object_array_add(ctx, o);
}

int summary_json_contexts(const struct result *r, json_object *root)
{
	json_object *a = json_object_new_array();

	json_object_object_add(root, "contexts", a);
	return output_ctx_each(r, json_ctx_add, a);
}

static json_object *json_part(const char *key, const char *name, uint64_t delays,
			      uint64_t total, uint64_t all, const struct hist *h)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, key, json_object_new_string(name));
	jsonw_u64(o, "delays", delays);
	jsonw_u64(o, "total_ns", total);
	json_object_object_add(o, "share", json_object_new_double(all ? (double)total / all : 0));
	if (h)
		json_object_object_add(o, "part_ns", jsonw_stats(h));
	return o;
}

static json_object *json_wait_vector(const struct sirq_wait *w, int vec)
{
	uint32_t *order = output_wait_tasks_order(w), i;
	json_object *o, *c, *org, *t;
	int k;

	if (!order)
		return NULL;
	o = json_object_new_object();
	c = json_object_new_array();
	org = json_object_new_array();
	t = json_object_new_array();
	json_object_object_add(o, "vector", json_object_new_string(softirq_names[vec]));
	jsonw_u64(o, "delays", w->delays);
	jsonw_u64(o, "delay_ns", w->delay_ns);
	for (k = 0; k < ORIG_NR; k++)
		json_object_array_add(org, json_part("origin", sirq_origin_names[k], w->origin[k],
						     w->origin_ns[k], w->delay_ns, NULL));
	json_object_object_add(o, "raised_in", org);
	for (k = 0; k < WAIT_NR; k++)
		json_object_array_add(c, json_part("cause", sirq_cause_names[k],
						   w->cause[k].count, w->cause_ns[k],
						   w->delay_ns, &w->cause[k]));
	json_object_object_add(o, "causes", c);
	for (i = 0; i < w->ntasks; i++) {
		const struct wait_task *wt = &w->task[order[i]];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "task", json_object_new_string(wt->comm));
		jsonw_u64(e, "delays", wt->delays);
		jsonw_u64(e, "total_ns", wt->total_ns);
		jsonw_u64(e, "max_ns", wt->max_ns);
		json_object_array_add(t, e);
	}
	json_object_object_add(o, "bh_tasks", t);
	if (w->other_tasks.delays) {
		json_object *e = json_object_new_object();

		jsonw_u64(e, "delays", w->other_tasks.delays);
		jsonw_u64(e, "total_ns", w->other_tasks.total_ns);
		jsonw_u64(e, "max_ns", w->other_tasks.max_ns);
		json_object_object_add(o, "bh_tasks_other", e);
	}
	free(order);
	return o;
}

int summary_json_wait(const struct result *r, json_object *root)
{
	json_object *a = json_object_new_array(), *o;
	int v;

	json_object_object_add(root, "softirq_wait", a);
	for (v = 0; v < NR_SOFTIRQS; v++) {
		if (!r->m.wait[v] || !r->m.wait[v]->delays)
			continue;
		o = json_wait_vector(r->m.wait[v], v);
		if (!o)
			return -ENOMEM;
		json_object_array_add(a, o);
	}
	return 0;
}

static int ctx_cb(const struct jr *j, struct json_object *o, const char *w, void *p)
{
	struct ctx_data *g = p;
	int ret, m;

	ret = jr_str(j, o, w, "context", g->context, sizeof(g->context));
	ret = ret ?: jr_str(j, o, w, "name", g->name, sizeof(g->name));
	ret = ret ?: jr_str(j, o, w, "where", g->where, sizeof(g->where));
	ret = ret ?: jr_u64(j, o, w, "count", &g->count);
	ret = ret ?: jr_u64(j, o, w, "long_runs", &g->long_runs);
	if (!ret && !g->context[0])
		ret = jr_fail(j, w, "context", "is empty");
	if (!ret && jr_has(o, "work"))
		ret = jr_u64(j, o, w, "work", &g->work) ?:
		      jr_u64(j, o, w, "budget_full", &g->budget_full) ?:
		      jr_u64(j, o, w, "budget", &g->budget);
	for (m = 0; !ret && m < SM_NR; m++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_ns", record_sirq_metric_names[m]);
		ret = jr_stats(j, o, w, key, &g->st[m]);
	}
	return ret;
}

/* ctx_unique - one context listed twice would make its buckets ambiguous */
static int ctx_unique(const struct jr *j, const struct record *rec)
{
	char where[64];
	size_t a, b;

	for (a = 0; a < rec->nctx; a++)
		for (b = 0; b < a; b++)
			if (!strcmp(rec->ctx[a].context, rec->ctx[b].context) &&
			    !strcmp(rec->ctx[a].name, rec->ctx[b].name) &&
			    !strcmp(rec->ctx[a].where, rec->ctx[b].where)) {
				snprintf(where, sizeof(where), "contexts[%zu]", a);
				return jr_fail(j, where, "name", "repeats entry %zu", b);
			}
	return 0;
}

int summary_read_contexts(const struct jr *j, struct json_object *root, struct record *rec)
{
	int ret;

	if (!jr_has(root, "contexts"))
		return 0;
	ret = jr_array(j, root, "", "contexts", sizeof(*rec->ctx), (void **)&rec->ctx,
		       &rec->nctx, ctx_cb);
	ret = ret ?: ctx_unique(j, rec);
	rec->has_contexts = !ret;
	return ret;
}

/* read_parts - an array of causes or origins, at most WAIT_PARTS_MAX */
static int read_parts(const struct jr *j, struct json_object *o, const char *w,
		      const char *key, const char *namekey, struct wait_part *p, size_t *n)
{
	struct json_object *a;
	char where[192];
	size_t i;
	int ret;

	ret = jr_get(j, o, w, key, json_type_array, &a);
	if (ret)
		return ret;
	*n = json_object_array_length(a);
	if (*n > WAIT_PARTS_MAX)
		return jr_fail(j, w, key, "has %zu entries, more than %d", *n, WAIT_PARTS_MAX);
	for (i = 0; !ret && i < *n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		snprintf(where, sizeof(where), "%s.%s[%zu]", w, key, i);
		if (!json_object_is_type(e, json_type_object))
			return jr_fail(j, where, namekey, "is in no object");
		ret = jr_str(j, e, where, namekey, p[i].name, sizeof(p[i].name));
		ret = ret ?: jr_u64(j, e, where, "delays", &p[i].delays);
		ret = ret ?: jr_u64(j, e, where, "total_ns", &p[i].total_ns);
		if (!ret && jr_has(e, "part_ns"))
			ret = jr_stats(j, e, where, "part_ns", &p[i].st);
	}
	return ret;
}

static int wait_cb(const struct jr *j, struct json_object *o, const char *w, void *p)
{
	struct wait_data *g = p;
	struct json_object *a = NULL;
	char where[192];
	uint64_t sum = 0;
	size_t i;
	int ret;

	ret = jr_str(j, o, w, "vector", g->vector, sizeof(g->vector));
	ret = ret ?: jr_u64(j, o, w, "delays", &g->delays);
	ret = ret ?: jr_u64(j, o, w, "delay_ns", &g->delay_ns);
	ret = ret ?: read_parts(j, o, w, "raised_in", "origin", g->origin, &g->norigin);
	ret = ret ?: read_parts(j, o, w, "causes", "cause", g->cause, &g->ncause);
	for (i = 0; !ret && i < g->ncause; i++)
		sum += g->cause[i].total_ns;
	/* the causes of a delay add up to it: a file where they do not is wrong */
	if (!ret && sum != g->delay_ns)
		return jr_fail(j, w, "causes", "add up to %llu ns, not delay_ns %llu",
			       (unsigned long long)sum, (unsigned long long)g->delay_ns);
	ret = ret ?: jr_get(j, o, w, "bh_tasks", json_type_array, &a);
	for (i = 0; !ret && i < json_object_array_length(a) && i < WAIT_TASKS_KEPT; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct wait_task_data *t = &g->task[g->ntask++];

		snprintf(where, sizeof(where), "%s.bh_tasks[%zu]", w, i);
		if (!json_object_is_type(e, json_type_object))
			return jr_fail(j, where, "task", "is in no object");
		ret = jr_str(j, e, where, "task", t->task, sizeof(t->task));
		ret = ret ?: jr_u64(j, e, where, "delays", &t->delays);
		ret = ret ?: jr_u64(j, e, where, "total_ns", &t->total_ns);
		ret = ret ?: jr_u64(j, e, where, "max_ns", &t->max_ns);
	}
	return ret;
}

int summary_read_wait(const struct jr *j, struct json_object *root, struct record *rec)
{
	if (!jr_has(root, "softirq_wait"))
		return 0;
	return jr_array(j, root, "", "softirq_wait", sizeof(*rec->wait),
			(void **)&rec->wait, &rec->nwait, wait_cb);
}
