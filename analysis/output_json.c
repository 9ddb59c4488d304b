// SPDX-License-Identifier: GPL-2.0
/*
 * output_json.c - summary.json (schema deferbench/1, see docs/results-format.md).
 */
#include <errno.h>
#include <json.h>
#include <stdlib.h>

#include "jsonw.h"
#include "output.h"
#include "util.h"

static void add_u64(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

json_object *json_command_status(const struct result_meta *m)
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
	add_u64(o, "buffer_kb", r->meta.buffer_kb);
	for (k = 0; k < EV_NR; k++)
		if (r->meta.missing[k])
			json_object_array_add(missing, json_object_new_string(ev_kind_names[k]));
	json_object_object_add(o, "events_missing", missing);
	if (r->meta.cmd_ended)
		json_object_object_add(o, "command_status", json_command_status(&r->meta));
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

	add_u64(o, "events", n->events_total);
	for (k = 0; k < EV_NR; k++)
		add_u64(by, ev_kind_names[k], n->events[k]);
	json_object_object_add(o, "events_by_kind", by);
	add_u64(o, "lost_events", r->lost_events);
	json_object_object_add(o, "lossy", json_object_new_boolean(r->lossy));
	add_u64(o, "late_events", n->late_events);
	json_object_object_add(o, "capture_cpu_s", json_object_new_double(r->meta.capture_cpu_s));
	for (c = 0; c < r->ncpus; c++) {
		json_object *l = json_object_new_object();

		json_object_object_add(l, "cpu", json_object_new_int(c));
		add_u64(l, "overrun", r->loss[c].overrun);
		add_u64(l, "commit_overrun", r->loss[c].commit_overrun);
		add_u64(l, "dropped", r->loss[c].dropped);
		add_u64(l, "missed_in_band", r->loss[c].missed_in_band);
		json_object_array_add(loss, l);
	}
	json_object_object_add(o, "lost_by_cpu", loss);
	add_u64(o, "unmatched", matcher_unmatched(&r->m));
	add_u64(um, "softirq_entry_no_raise", n->sirq_entry_no_raise);
	add_u64(um, "softirq_exit_no_entry", n->sirq_exit_no_entry);
	add_u64(um, "softirq_entry_no_exit", n->sirq_entry_no_exit);
	add_u64(um, "wq_start_no_queue", n->wq_start_no_queue);
	add_u64(um, "wq_activate_no_queue", n->wq_activate_no_queue);
	add_u64(um, "wq_end_no_start", n->wq_end_no_start);
	add_u64(um, "wq_start_no_end", n->wq_start_no_end);
	json_object_object_add(o, "unmatched_detail", um);
	add_u64(o, "wq_flush_barriers", n->wq_barriers);
	add_u64(o, "wq_superseded", n->wq_superseded);
	add_u64(open, "softirq_raised", n->sirq_raise_open);
	add_u64(open, "softirq_running", n->sirq_entry_open);
	add_u64(open, "wq_queued", n->wq_queued_open);
	add_u64(open, "wq_running", n->wq_running_open);
	json_object_object_add(o, "in_flight_at_end", open);
	for (i = 0; i < r->m.nfuncs; i++) {
		json_object *e;

		if (!r->m.funcs[i].unmatched_starts)
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "function", json_object_new_string(
			symtab_name(&r->syms, r->m.funcs[i].addr, name, sizeof(name))));
		add_u64(e, "count", r->m.funcs[i].unmatched_starts);
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
	add_u64(o, "count", g->entries);
	add_u64(o, "ksoftirqd_count", g->ksoftirqd);
	add_u64(o, "long_runs", g->long_runs);
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
	uint32_t *order = wq_order(r), i;
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
				       json_object_new_string(wq_func_name(r, g, fn, sizeof(fn))));
		json_object_object_add(o, "pool",
				       json_object_new_string(pool_name(g->pool, pool, sizeof(pool))));
		add_u64(o, "count", g->delay.count);
		json_object_object_add(o, "delay_ns", jsonw_stats(&g->delay));
		json_object_object_add(o, "activate_wait_ns", jsonw_stats(&g->activate_wait));
		json_object_object_add(o, "worker_wait_ns", jsonw_stats(&g->worker_wait));
		json_object_object_add(o, "runtime_ns", jsonw_stats(&g->runtime));
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
			pool_name(r->m.wake[i]->pool, pool, sizeof(pool))));
		json_object_object_add(e, "wakeup_ns", jsonw_stats(&r->m.wake[i]->wake));
		json_object_array_add(wk, e);
	}
	json_object_object_add(o, "ksoftirqd", ks);
	json_object_object_add(o, "workers", wk);
	return o;
}

int result_write_json(const struct result *r, const char *path)
{
	json_object *root = json_object_new_object(), *sirq, *wq;
	int ret;

	json_object_object_add(root, "schema", json_object_new_string("deferbench/1"));
	json_object_object_add(root, "meta", json_meta(r));
	json_object_object_add(root, "capture", json_capture(r));
	sirq = json_object_new_array();
	json_object_object_add(root, "softirq", sirq);
	ret = sirq_each(r, json_sirq_add, sirq);
	wq = json_workqueue(r);
	if (!wq && !ret)
		ret = -ENOMEM;
	json_object_object_add(root, "workqueue", wq);
	json_object_object_add(root, "thread_wakeup", json_wakeup(r));
	/* never write a summary that silently lacks rows */
	if (!ret && json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE))
		ret = errno ? -errno : -EIO;
	json_object_put(root);
	return ret;
}
