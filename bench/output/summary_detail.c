// SPDX-License-Identifier: GPL-2.0
/*
 * summary_detail.c - summary.json's sections of record --slowest and --stacks, written
 * only when they were asked for (a file without them is read as before):
 *
 *   slowest  per group and metric, its slowest events: time, CPU, task, causes, stack
 *   stacks   per vector the delay its stacks hold against the cause split, and per
 *            call site its entries, delay (and its bh_disabled part) and long runs
 */
#include <errno.h>
#include <json.h>
#include <stdlib.h>
#include <string.h>

#include "detail_out.h"
#include "jsonw.h"
#include "output.h"
#define DEFERBENCH_ALLOW_SUMMARY_INT_H
#include "summary_int.h"
#include "grow.h"
#include "msg.h"

void summary_json_detail_meta(const struct result *r, json_object *meta)
{
	char vecs[128];

	if (r->meta.slowest)
		jsonw_u64(meta, "slowest", r->meta.slowest);
	if (r->meta.stack_vecs)
		json_object_object_add(meta, "stacks", json_object_new_string(
			detail_vecs_format(r->meta.stack_vecs, vecs, sizeof(vecs))));
	if (r->meta.keep_worst_ns)
		jsonw_u64(meta, "keep_worst_ns", r->meta.keep_worst_ns);
}

struct slow_json {
	json_object *arr;
	const struct stack_report *sr;
};

static int slow_group_json(void *ctx, const struct result *r, const struct slow_group *g,
			   const struct slow_ev *ev, uint32_t n)
{
	struct slow_json *sj = ctx;
	json_object *o = json_object_new_object(), *evs = json_object_new_array();
	uint32_t i;
	int k;

	json_object_object_add(o, "group", json_object_new_string(slow_kind_names[g->kind]));
	json_object_object_add(o, "name", json_object_new_string(g->name));
	if (g->kind == SLOW_WQ)
		json_object_object_add(o, "function", json_object_new_string(g->func));
	if (g->kind == SLOW_CTX)
		json_object_object_add(o, "context", json_object_new_string(g->context));
	json_object_object_add(o, "where", json_object_new_string(g->where));
	json_object_object_add(o, "metric", json_object_new_string(slow_metric_names[g->metric]));
	for (i = 0; i < n; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "rank", json_object_new_int((int)i + 1));
		jsonw_u64(e, "ns", ev[i].ns);
		jsonw_u64(e, "at_ns", ev[i].ts);
		json_object_object_add(e, "t_s", json_object_new_double(slow_t_s(r, &ev[i])));
		jsonw_u64(e, "interval", slow_interval(r, &ev[i]));
		json_object_object_add(e, "cpu", json_object_new_int(ev[i].cpu));
		json_object_object_add(e, "task", json_object_new_string(ev[i].task));
		if (g->kind == SLOW_SOFTIRQ)
			json_object_object_add(e, "ksoftirqd",
					       json_object_new_boolean(ev[i].ksoftirqd));
		if (ev[i].split) {
			json_object *c = json_object_new_object();

			for (k = 0; k < WAIT_NR; k++)
				jsonw_u64(c, sirq_cause_names[k], ev[i].part[k]);
			json_object_object_add(e, "causes_ns", c);
		}
		if (ev[i].stack && sj->sr && ev[i].stack <= sj->sr->nview) {
			const struct stack_view *v = &sj->sr->view[ev[i].stack - 1];

			json_object_object_add(e, "how",
					       json_object_new_string(stack_how_names[v->how]));
			json_object_object_add(e, "site", json_object_new_string(v->site));
			json_object_object_add(e, "stack", json_object_new_string(v->folded));
		}
		json_object_array_add(evs, e);
	}
	json_object_object_add(o, "events", evs);
	json_object_array_add(sj->arr, o);
	return 0;
}

static json_object *json_stacks(const struct result *r, const struct stack_report *sr)
{
	const struct detail *d = r->m.detail;
	json_object *o = json_object_new_object(), *vecs = json_object_new_array();
	json_object *sites = json_object_new_array();
	char text[128];
	uint32_t i;
	int v;

	json_object_object_add(o, "vectors", json_object_new_string(
		detail_vecs_format(d->stack_vecs, text, sizeof(text))));
	jsonw_u64(o, "records", d->stack_records);
	jsonw_u64(o, "joined", d->stack_joined);
	jsonw_u64(o, "unjoined", d->stack_unjoined);
	jsonw_u64(o, "distinct", d->nst);
	jsonw_u64(o, "overflow", d->stack_overflow);
	jsonw_u64(o, "truncated", d->stack_truncated);
	for (v = 0; v < NR_SOFTIRQS; v++) {
		const struct sirq_wait *w = r->m.wait[v];
		json_object *e;
		struct sirq_group all;
		uint64_t with = 0, wait = 0, bh = 0;

		if (!(d->stack_vecs & (1u << v)))
			continue;
		for (i = 0; i < sr->nsite; i++)
			if (sr->site[i].vec == (unsigned int)v) {
				with += sr->site[i].count;
				wait += sr->site[i].wait_ns;
				bh += wait_bh_ns(sr->site[i].part_ns);
			}
		e = json_object_new_object();
		json_object_object_add(e, "vector", json_object_new_string(softirq_names[v]));
		jsonw_u64(e, "entries", result_sirq_all(r, v, &all) ? all.entries : 0);
		jsonw_u64(e, "with_stack", with);
		jsonw_u64(e, "delay_ns", w ? w->delay_ns : 0);
		jsonw_u64(e, "stack_delay_ns", wait);
		jsonw_u64(e, "bh_disabled_ns", w ? wait_bh_ns(w->cause_ns) : 0);
		jsonw_u64(e, "stack_bh_disabled_ns", bh);
		json_object_array_add(vecs, e);
	}
	json_object_object_add(o, "by_vector", vecs);
	for (i = 0; i < sr->nsite; i++) {
		const struct site_row *s = &sr->site[i];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "vector", json_object_new_string(softirq_names[s->vec]));
		json_object_object_add(e, "how", json_object_new_string(stack_how_names[s->how]));
		json_object_object_add(e, "site", json_object_new_string(s->site));
		json_object_object_add(e, "path", json_object_new_string(s->path));
		jsonw_u64(e, "count", s->count);
		jsonw_u64(e, "wait_ns", s->wait_ns);
		jsonw_u64(e, "bh_disabled_ns", wait_bh_ns(s->part_ns));
		jsonw_u64(e, "run_ns", s->run_ns);
		jsonw_u64(e, "long_runs", s->long_runs);
		jsonw_u64(e, "long_run_ns", s->long_run_ns);
		json_object_array_add(sites, e);
	}
	json_object_object_add(o, "sites", sites);
	return o;
}

int summary_json_detail(const struct result *r, json_object *root)
{
	const struct detail *d = r->m.detail;
	struct slow_json sj = { 0 };
	struct stack_report sr;
	int ret;

	if (!d)
		return 0;
	ret = stack_report_build(r, &sr);
	if (ret)
		return ret;
	sj.sr = &sr;
	if (d->slowest) {
		sj.arr = json_object_new_array();
		json_object_object_add(root, "slowest", sj.arr);
		ret = slow_each(r, slow_group_json, &sj);
	}
	if (d->stack_vecs)
		json_object_object_add(root, "stacks", json_stacks(r, &sr));
	stack_report_free(&sr);
	return ret;
}

/* ---- read back ---- */

/* causes_text - "hardirq 80%, other 20%" from a causes_ns object (1% and more) */
static int causes_text(const struct jr *j, struct json_object *c, const char *where,
		       uint64_t ns, char *buf, size_t len)
{
	size_t off = 0;
	uint64_t v;

	buf[0] = '\0';
	json_object_object_foreach(c, key, val) {
		(void)val;
		if (jr_u64(j, c, where, key, &v))
			return -EINVAL;
		if (!ns || 100.0 * (double)v / (double)ns < 1.0 || off >= len)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s %.0f%%", off ? ", " : "", key,
					100.0 * (double)v / (double)ns);
	}
	return 0;
}

static int slow_event(const struct jr *j, struct json_object *e, const char *w,
		      struct slow_data *s)
{
	struct json_object *c;
	char how[16] = "", site[FUNC_LEN] = "";
	int rank = 0, ret;

	ret = jr_int(j, e, w, "rank", 1, SLOWEST_MAX, &rank);
	s->rank = (unsigned int)rank;
	ret = ret ?: jr_u64(j, e, w, "ns", &s->ns);
	ret = ret ?: jr_u64(j, e, w, "at_ns", &s->at_ns);
	ret = ret ?: jr_double(j, e, w, "t_s", &s->t_s);
	ret = ret ?: jr_u64(j, e, w, "interval", &s->interval);
	ret = ret ?: jr_int(j, e, w, "cpu", -1, 65535, &s->cpu);
	ret = ret ?: jr_str(j, e, w, "task", s->task, sizeof(s->task));
	if (!ret && jr_has(e, "causes_ns")) {
		char cw[256];

		snprintf(cw, sizeof(cw), "%s.causes_ns", w);
		ret = jr_get(j, e, w, "causes_ns", json_type_object, &c);
		ret = ret ?: causes_text(j, c, cw, s->ns, s->causes, sizeof(s->causes));
	}
	ret = ret ?: jr_str_opt(j, e, w, "how", how, sizeof(how));
	ret = ret ?: jr_str_opt(j, e, w, "site", site, sizeof(site));
	if (!ret && site[0])
		snprintf(s->site, sizeof(s->site), "%s%.100s", !strcmp(how, "irq_exit") ?
			 "irq exit of " : "", !strcmp(how, "ksoftirqd") ? "ksoftirqd" : site);
	return ret;
}

/* read_slowest - each group's events, flattened into rec->slow */
static int read_slowest(const struct jr *j, struct json_object *root, struct record *rec)
{
	struct json_object *arr, *g, *evs;
	struct slow_data base, *ns;
	char where[128], ew[192];
	size_t i, k, n;
	int ret;

	ret = jr_get(j, root, "", "slowest", json_type_array, &arr);
	for (i = 0; !ret && i < json_object_array_length(arr); i++) {
		g = json_object_array_get_idx(arr, i);
		snprintf(where, sizeof(where), "slowest[%zu]", i);
		if (!json_object_is_type(g, json_type_object))
			return jr_fail(j, where, "group", "is in no object");
		memset(&base, 0, sizeof(base));
		ret = jr_str(j, g, where, "group", base.group, sizeof(base.group));
		ret = ret ?: jr_str(j, g, where, "name", base.name, sizeof(base.name));
		ret = ret ?: jr_str_opt(j, g, where, "function", base.func, sizeof(base.func));
		if (!ret && !base.func[0])
			ret = jr_str_opt(j, g, where, "context", base.func, sizeof(base.func));
		ret = ret ?: jr_str(j, g, where, "where", base.where, sizeof(base.where));
		ret = ret ?: jr_str(j, g, where, "metric", base.metric, sizeof(base.metric));
		ret = ret ?: jr_get(j, g, where, "events", json_type_array, &evs);
		if (ret)
			break;
		n = json_object_array_length(evs);
		if (n > SLOWEST_MAX)
			return jr_fail(j, where, "events", "has %zu entries, more than %d", n,
				       SLOWEST_MAX);
		ns = grow_to(rec->slow, rec->nslow, rec->nslow + n + 1, sizeof(*ns));
		if (!ns)
			return errno_msg(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
		rec->slow = ns;
		for (k = 0; !ret && k < n; k++) {
			struct json_object *e = json_object_array_get_idx(evs, k);

			snprintf(ew, sizeof(ew), "%s.events[%zu]", where, k);
			if (!json_object_is_type(e, json_type_object))
				return jr_fail(j, ew, "rank", "is in no object");
			rec->slow[rec->nslow] = base;
			ret = slow_event(j, e, ew, &rec->slow[rec->nslow]);
			if (!ret)
				rec->nslow++;
		}
	}
	return ret;
}

static int svec_cb(const struct jr *j, struct json_object *o, const char *w, void *p)
{
	struct stackvec_data *v = p;
	int ret;

	ret = jr_str(j, o, w, "vector", v->vector, sizeof(v->vector));
	ret = ret ?: jr_u64(j, o, w, "entries", &v->entries);
	ret = ret ?: jr_u64(j, o, w, "with_stack", &v->with_stack);
	ret = ret ?: jr_u64(j, o, w, "delay_ns", &v->delay_ns);
	ret = ret ?: jr_u64(j, o, w, "stack_delay_ns", &v->stack_delay_ns);
	ret = ret ?: jr_u64(j, o, w, "bh_disabled_ns", &v->bh_disabled_ns);
	return ret ?: jr_u64(j, o, w, "stack_bh_disabled_ns", &v->stack_bh_disabled_ns);
}

static int site_cb(const struct jr *j, struct json_object *o, const char *w, void *p)
{
	struct site_data *s = p;
	int ret;

	ret = jr_str(j, o, w, "vector", s->vector, sizeof(s->vector));
	ret = ret ?: jr_str(j, o, w, "how", s->how, sizeof(s->how));
	ret = ret ?: jr_str(j, o, w, "site", s->site, sizeof(s->site));
	ret = ret ?: jr_str(j, o, w, "path", s->path, sizeof(s->path));
	ret = ret ?: jr_u64(j, o, w, "count", &s->count);
	ret = ret ?: jr_u64(j, o, w, "wait_ns", &s->wait_ns);
	ret = ret ?: jr_u64(j, o, w, "bh_disabled_ns", &s->bh_disabled_ns);
	ret = ret ?: jr_u64(j, o, w, "run_ns", &s->run_ns);
	ret = ret ?: jr_u64(j, o, w, "long_runs", &s->long_runs);
	ret = ret ?: jr_u64(j, o, w, "long_run_ns", &s->long_run_ns);
	if (!ret && s->bh_disabled_ns > s->wait_ns)
		ret = jr_fail(j, w, "bh_disabled_ns", "is more than wait_ns");
	return ret;
}

int summary_read_detail(const struct jr *j, struct json_object *root, struct record *rec)
{
	struct json_object *st;
	int ret = 0;

	if (jr_has(root, "slowest"))
		ret = read_slowest(j, root, rec);
	if (ret || !jr_has(root, "stacks"))
		return ret;
	ret = jr_get(j, root, "", "stacks", json_type_object, &st);
	ret = ret ?: jr_array(j, st, "stacks", "by_vector", sizeof(*rec->svec),
			      (void **)&rec->svec, &rec->nsvec, svec_cb);
	return ret ?: jr_array(j, st, "stacks", "sites", sizeof(*rec->sites),
			       (void **)&rec->sites, &rec->nsites, site_cb);
}
