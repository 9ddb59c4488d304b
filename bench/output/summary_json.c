// SPDX-License-Identifier: GPL-2.0
/*
 * summary_json.c - summary.json (schema deferbench/1, docs/results-format.md): written
 * from struct result when a capture ends, read back into struct record by report and
 * compare.
 */
#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"
#include "jsonw.h"
#include "output.h"
#include "result_files.h"
#define DEFERBENCH_ALLOW_SUMMARY_INT_H
#include "summary_int.h"
#include "msg.h"

json_object *summary_json_command_status(const struct result_meta *m)
{
	json_object *o = json_object_new_object();

	if (m->cmd_signal)
		json_object_object_add(o, "signal", json_object_new_int(m->cmd_signal));
	else
		json_object_object_add(o, "exit", json_object_new_int(m->cmd_exit));
	json_object_object_add(o, "stopped_by_deferbench", json_object_new_boolean(m->cmd_stopped));
	return o;
}

static json_object *json_meta(const struct result *r)
{
	json_object *o = json_object_new_object(), *missing = json_object_new_array();
	int k;

	json_object_object_add(o, "kernel", json_object_new_string(r->meta.kernel));
	json_object_object_add(o, "hostname", json_object_new_string(r->meta.hostname));
	json_object_object_add(o, "cpus", json_object_new_int(r->ncpus));
	json_object_object_add(o, "trace_clock", json_object_new_string(r->meta.trace_clock));
	json_object_object_add(o, "duration_s", json_object_new_double(result_duration_s(r)));
	json_object_object_add(o, "started", json_object_new_string(r->meta.started));
	json_object_object_add(o, "version", json_object_new_string(DEFERBENCH_VERSION));
	json_object_object_add(o, "command", json_object_new_string(r->meta.command));
	json_object_object_add(o, "interval_s", json_object_new_double(r->meta.interval_ns / 1e9));
	/* where interval 0 begins on the trace clock (intervals.csv's t_s counts from it) */
	jsonw_u64(o, "interval_origin_ns", r->m.t0);
	jsonw_u64(o, "buffer_kb", r->meta.buffer_kb);
	if (r->meta.sched_events[0])
		json_object_object_add(o, "sched_events",
				       json_object_new_string(r->meta.sched_events));
	for (k = 0; k < EV_NR; k++)
		if (r->meta.missing[k])
			json_object_array_add(missing, json_object_new_string(ev_names[k].id));
	json_object_object_add(o, "events_missing", missing);
	if (r->meta.cmd_ended)
		json_object_object_add(o, "command_status", summary_json_command_status(&r->meta));
	summary_json_detail_meta(r, o);
	return o;
}

static json_object *json_capture(const struct result *r)
{
	const struct match_counts *n = &r->m.n;
	json_object *o = json_object_new_object(), *by = json_object_new_object();
	json_object *loss = json_object_new_array(), *um = json_object_new_object();
	json_object *open = json_object_new_object(), *fn = json_object_new_array();
	char name[128];
	uint32_t i;
	int k, c;

	jsonw_u64(o, "events", n->events_total);
	for (k = 0; k < EV_NR; k++)
		/* stacks only when asked for (record --stacks) or found */
		if (!ev_by_trigger(k) || r->meta.stack_vecs || n->events[k])
			jsonw_u64(by, ev_names[k].id, n->events[k]);
	json_object_object_add(o, "events_by_kind", by);
	jsonw_u64(o, "lost_events", r->lost_events);
	json_object_object_add(o, "lossy", json_object_new_boolean(r->lossy));
	jsonw_u64(o, "late_events", n->late_events);
	/* the events' span on the trace clock (0 without events) */
	jsonw_u64(o, "first_event_ns", r->m.first_ts);
	jsonw_u64(o, "last_event_ns", r->m.last_ts);
	json_object_object_add(o, "capture_cpu_s", json_object_new_double(r->meta.capture_cpu_s));
	for (c = 0; c < r->ncpus; c++) {
		json_object *l = json_object_new_object();

		json_object_object_add(l, "cpu", json_object_new_int(c));
		jsonw_u64(l, "overrun", r->loss[c].overrun);
		jsonw_u64(l, "commit_overrun", r->loss[c].commit_overrun);
		jsonw_u64(l, "dropped", r->loss[c].dropped);
		jsonw_u64(l, "missed_in_band", r->loss[c].missed_in_band);
		json_object_array_add(loss, l);
	}
	json_object_object_add(o, "lost_by_cpu", loss);
	jsonw_u64(o, "unmatched", matcher_unmatched(&r->m));
	jsonw_u64(um, "softirq_entry_no_raise", n->sirq_entry_no_raise);
	jsonw_u64(um, "softirq_exit_no_entry", n->sirq_exit_no_entry);
	jsonw_u64(um, "softirq_entry_no_exit", n->sirq_entry_no_exit);
	jsonw_u64(um, "wq_start_no_queue", n->wq_start_no_queue);
	jsonw_u64(um, "wq_activate_no_queue", n->wq_activate_no_queue);
	jsonw_u64(um, "wq_end_no_start", n->wq_end_no_start);
	jsonw_u64(um, "wq_start_no_end", n->wq_start_no_end);
	jsonw_u64(um, "tasklet_exit_no_entry", n->tasklet_exit_no_entry);
	jsonw_u64(um, "irq_exit_no_entry", n->irq_exit_no_entry);
	json_object_object_add(o, "unmatched_detail", um);
	jsonw_u64(o, "wq_flush_barriers", n->wq_barriers);
	jsonw_u64(o, "wq_superseded", n->wq_superseded);
	jsonw_u64(o, "tasklet_outside_softirq", n->tasklet_no_softirq);
	jsonw_u64(o, "softirq_wait_not_split", n->wait_inconsistent);
	jsonw_u64(open, "softirq_raised", n->sirq_raise_open);
	jsonw_u64(open, "softirq_running", n->sirq_entry_open);
	jsonw_u64(open, "wq_queued", n->wq_queued_open);
	jsonw_u64(open, "wq_running", n->wq_running_open);
	json_object_object_add(o, "in_flight_at_end", open);
	if (n->gaps) {
		/* the capture's events were off for a while (an alternating run's untraced arm) */
		json_object *g = json_object_new_object();

		jsonw_u64(g, "resumes", n->gaps);
		jsonw_u64(g, "dropped_pending", n->gap_dropped);
		json_object_object_add(o, "pauses", g);
	}
	for (i = 0; i < r->m.nfuncs; i++) {
		json_object *e;

		if (!r->m.funcs[i].unmatched_starts)
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "function", json_object_new_string(
			symtab_name(&r->syms, r->m.funcs[i].addr, name, sizeof(name))));
		jsonw_u64(e, "count", r->m.funcs[i].unmatched_starts);
		json_object_array_add(fn, e);
	}
	json_object_object_add(o, "unmatched_starts_by_function", fn);
	return o;
}

static json_object *json_sirq_row(const struct sirq_group *g, int vec, int cpu)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "vector", json_object_new_string(softirq_names[vec]));
	json_object_object_add(o, "cpu", json_object_new_int(cpu));
	jsonw_u64(o, "count", g->entries);
	jsonw_u64(o, "ksoftirqd_count", g->ksoftirqd);
	jsonw_u64(o, "long_runs", g->long_runs);
	json_object_object_add(o, "delay_ns", jsonw_stats(&g->delay));
	json_object_object_add(o, "runtime_ns", jsonw_stats(&g->runtime));
	return o;
}

static void json_sirq_add(void *ctx, const struct result *r __unused,
			  const struct sirq_group *g, int vec, int cpu)
{
	json_object_array_add(ctx, json_sirq_row(g, vec, cpu));
}

static json_object *json_workqueue(const struct result *r)
{
	json_object *a = json_object_new_array();
	uint32_t *order = result_wq_order(r), i;
	char fn[128], pool[32];

	if (!order) {
		json_object_put(a);
		return NULL;
	}
	for (i = 0; i < r->m.ngroups; i++) {
		const struct wq_group *g = r->m.groups[order[i]];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "workqueue", json_object_new_string(r->m.wq_names[g->wq]));
		json_object_object_add(o, "function",
				       json_object_new_string(result_wq_func(r, g, fn, sizeof(fn))));
		json_object_object_add(o, "pool", json_object_new_string(
					       match_pool_name(g->pool, pool, sizeof(pool))));
		jsonw_u64(o, "count", g->delay.count);
		json_object_object_add(o, "delay_ns", jsonw_stats(&g->delay));
		json_object_object_add(o, "activate_wait_ns", jsonw_stats(&g->activate_wait));
		json_object_object_add(o, "worker_wait_ns", jsonw_stats(&g->worker_wait));
		json_object_object_add(o, "runtime_ns", jsonw_stats(&g->runtime));
		output_queued_json(g, o);
		json_object_array_add(a, o);
	}
	free(order);
	return a;
}

/* json_wakeup - wakeup-to-running latency of ksoftirqd threads and worker pools */
static json_object *json_wakeup(const struct result *r)
{
	json_object *o = json_object_new_object(), *ks = json_object_new_array();
	json_object *wk = json_object_new_array();
	char pool[32];
	uint32_t i;
	int c;

	for (c = 0; c < r->ncpus; c++) {
		json_object *e;

		if (!r->m.ksoftirqd_wake[c])
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "cpu", json_object_new_int(c));
		json_object_object_add(e, "wakeup_ns", jsonw_stats(r->m.ksoftirqd_wake[c]));
		json_object_array_add(ks, e);
	}
	for (i = 0; i < r->m.nwake; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "pool", json_object_new_string(
			match_pool_name(r->m.wake[i]->pool, pool, sizeof(pool))));
		json_object_object_add(e, "wakeup_ns", jsonw_stats(&r->m.wake[i]->wake));
		json_object_array_add(wk, e);
	}
	json_object_object_add(o, "ksoftirqd", ks);
	json_object_object_add(o, "workers", wk);
	return o;
}

int summary_write(const struct result *r, const char *path)
{
	json_object *root = json_object_new_object(), *sirq, *wq;
	int ret;

	json_object_object_add(root, "schema", json_object_new_string(SUMMARY_SCHEMA));
	json_object_object_add(root, "meta", json_meta(r));
	json_object_object_add(root, "capture", json_capture(r));
	sirq = json_object_new_array();
	json_object_object_add(root, "softirq", sirq);
	ret = result_sirq_each(r, json_sirq_add, sirq);
	wq = json_workqueue(r);
	if (!wq && !ret)
		ret = -ENOMEM;
	json_object_object_add(root, "workqueue", wq);
	json_object_object_add(root, "thread_wakeup", json_wakeup(r));
	ret = ret ?: summary_json_contexts(r, root);
	ret = ret ?: summary_json_wait(r, root);
	ret = ret ?: output_bh_json(r, root);
	ret = ret ?: summary_json_detail(r, root);
	/* never write a summary that silently lacks rows */
	/* through the output writer's primitives, as every output (outw.h) */
	ret = ret ?: jsonw_write(path, root, 0644, 0);
	json_object_put(root);
	return ret;
}

/* the arrays of summary.json's thread_wakeup object, per kind */
static const char *const wake_keys[WK_NR] = {
	[WK_KSOFTIRQD] = "ksoftirqd",
	[WK_WORKER] = "workers",
};

static int read_meta(const struct jr *j, struct json_object *root, struct capture_data *c)
{
	struct json_object *m;
	int ret;

	ret = jr_get(j, root, "", "meta", json_type_object, &m);
	ret = ret ?: jr_str(j, m, "meta", "kernel", c->kernel, sizeof(c->kernel));
	ret = ret ?: jr_str(j, m, "meta", "hostname", c->hostname, sizeof(c->hostname));
	ret = ret ?: jr_double(j, m, "meta", "duration_s", &c->duration_s);
	ret = ret ?: jr_str_opt(j, m, "meta", "started", c->started, sizeof(c->started));
	ret = ret ?: jr_str_opt(j, m, "meta", "version", c->version, sizeof(c->version));
	if (!ret && jr_has(m, "interval_s"))
		ret = jr_double(j, m, "meta", "interval_s", &c->interval_s);
	if (!ret && jr_has(m, "interval_origin_ns"))
		ret = jr_u64(j, m, "meta", "interval_origin_ns", &c->interval_origin_ns);
	return ret;
}

static int read_capture(const struct jr *j, struct json_object *root, struct capture_data *c)
{
	struct json_object *cap;
	int ret;

	ret = jr_get(j, root, "", "capture", json_type_object, &cap);
	ret = ret ?: jr_u64(j, cap, "capture", "events", &c->events);
	ret = ret ?: jr_u64(j, cap, "capture", "lost_events", &c->lost_events);
	ret = ret ?: jr_bool(j, cap, "capture", "lossy", &c->lossy);
	ret = ret ?: jr_u64(j, cap, "capture", "unmatched", &c->unmatched);
	if (!ret && jr_has(cap, "late_events"))
		ret = jr_u64(j, cap, "capture", "late_events", &c->late_events);
	/* a capture that lost events must say it is lossy; trust the stricter of the two */
	if (!ret && c->lost_events)
		c->lossy = true;
	return ret;
}

static int read_sirq(const struct jr *j, struct json_object *o, const char *where,
		     struct sirq_data *g)
{
	size_t m;
	int ret;

	ret = jr_str(j, o, where, "vector", g->vector, sizeof(g->vector));
	ret = ret ?: jr_int(j, o, where, "cpu", -1, 65535, &g->cpu);
	ret = ret ?: jr_u64(j, o, where, "count", &g->count);
	ret = ret ?: jr_u64(j, o, where, "ksoftirqd_count", &g->ksoftirqd_count);
	ret = ret ?: jr_u64(j, o, where, "long_runs", &g->long_runs);
	for (m = 0; !ret && m < SM_NR; m++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_ns", record_sirq_metric_names[m]);
		ret = jr_stats(j, o, where, key, &g->st[m]);
	}
	return ret;
}

static int read_wq(const struct jr *j, struct json_object *o, const char *where,
		   struct wq_data *g)
{
	size_t m;
	int ret;

	ret = jr_str(j, o, where, "workqueue", g->wq, sizeof(g->wq));
	ret = ret ?: jr_str(j, o, where, "function", g->func, sizeof(g->func));
	ret = ret ?: jr_str(j, o, where, "pool", g->pool, sizeof(g->pool));
	ret = ret ?: jr_u64(j, o, where, "count", &g->count);
	for (m = 0; !ret && m < WM_NR; m++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_ns", record_wq_metric_names[m]);
		ret = jr_stats(j, o, where, key, &g->st[m]);
	}
	return ret;
}

static int sirq_cb(const struct jr *j, struct json_object *o, const char *w, void *g)
{
	return read_sirq(j, o, w, g);
}

static int wq_cb(const struct jr *j, struct json_object *o, const char *w, void *g)
{
	return read_wq(j, o, w, g);
}

static int ksoftirqd_cb(const struct jr *j, struct json_object *o, const char *w, void *p)
{
	struct wake_data *g = p;
	int ret;

	ret = jr_int(j, o, w, "cpu", 0, 65535, &g->cpu);
	snprintf(g->name, sizeof(g->name), "%d", g->cpu);
	return ret ?: jr_stats(j, o, w, "wakeup_ns", &g->st);
}

static int worker_cb(const struct jr *j, struct json_object *o, const char *w, void *p)
{
	struct wake_data *g = p;
	int ret;

	g->cpu = -1;
	ret = jr_str(j, o, w, "pool", g->name, sizeof(g->name));
	if (!ret && !g->name[0])
		ret = jr_fail(j, w, "pool", "is empty");
	return ret ?: jr_stats(j, o, w, "wakeup_ns", &g->st);
}

/* wake_unique - a thread or pool listed twice would make its figures ambiguous */
static int wake_unique(const struct jr *j, const struct record *rec, enum wake_kind k)
{
	char where[64];
	size_t a, b;

	for (a = 0; a < rec->nwake[k]; a++)
		for (b = 0; b < a; b++)
			if (!strcmp(rec->wake[k][a].name, rec->wake[k][b].name)) {
				snprintf(where, sizeof(where), "thread_wakeup.%s[%zu]",
					 wake_keys[k], a);
				return jr_fail(j, where, k == WK_KSOFTIRQD ? "cpu" : "pool",
					       "repeats '%s' of entry %zu", rec->wake[k][a].name, b);
			}
	return 0;
}

/*
 * read_wakeup - the optional thread_wakeup section: files written before it existed are
 * read without it (has_wakeup false); a section that is there must be whole
 */
static int read_wakeup(const struct jr *j, struct json_object *root, struct record *rec)
{
	static int (*const cb[WK_NR])(const struct jr *, struct json_object *, const char *,
				       void *) = { [WK_KSOFTIRQD] = ksoftirqd_cb,
						   [WK_WORKER] = worker_cb };
	struct json_object *tw;
	int k, ret;

	if (!jr_has(root, "thread_wakeup"))
		return 0;
	ret = jr_get(j, root, "", "thread_wakeup", json_type_object, &tw);
	for (k = 0; !ret && k < WK_NR; k++) {
		ret = jr_array(j, tw, "thread_wakeup", wake_keys[k],
			       sizeof(*rec->wake[k]), (void **)&rec->wake[k],
			       &rec->nwake[k], cb[k]);
		ret = ret ?: wake_unique(j, rec, k);
	}
	rec->has_wakeup = !ret;
	return ret;
}

int summary_load(const char *path, struct record *rec, char *errbuf)
{
	struct jr j = { .path = path, .errbuf = errbuf };
	struct json_object *root;
	int ret;

	ret = jr_load(&j, &root);
	if (ret)
		return ret;
	ret = jr_schema(&j, root, SUMMARY_SCHEMA);
	ret = ret ?: read_meta(&j, root, &rec->cap);
	ret = ret ?: read_capture(&j, root, &rec->cap);
	ret = ret ?: jr_array(&j, root, "", "softirq", sizeof(*rec->sirq),
			      (void **)&rec->sirq, &rec->nsirq, sirq_cb);
	ret = ret ?: jr_array(&j, root, "", "workqueue", sizeof(*rec->wq),
			      (void **)&rec->wq, &rec->nwq, wq_cb);
	ret = ret ?: read_wakeup(&j, root, rec);
	ret = ret ?: summary_read_contexts(&j, root, rec);
	ret = ret ?: summary_read_wait(&j, root, rec);
	ret = ret ?: summary_read_detail(&j, root, rec);
	json_object_put(root);
	return ret;
}
