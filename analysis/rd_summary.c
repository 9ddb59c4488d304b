// SPDX-License-Identifier: GPL-2.0
/*
 * rd_summary.c - summary.json (schema deferbench/1) into struct record.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"
#include "rundata.h"
#include "util.h"

const char *const sirq_metric_names[SM_NR] = {
	[SM_DELAY] = "delay",
	[SM_RUNTIME] = "runtime",
};

const char *const wq_metric_names[WM_NR] = {
	[WM_DELAY] = "delay",
	[WM_ACTIVATE_WAIT] = "activate_wait",
	[WM_WORKER_WAIT] = "worker_wait",
	[WM_RUNTIME] = "runtime",
};

const char *const wake_kind_names[WK_NR] = {
	[WK_KSOFTIRQD] = "ksoftirqd",
	[WK_WORKER] = "worker",
};

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
		     struct sirq_group *g)
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

		snprintf(key, sizeof(key), "%s_ns", sirq_metric_names[m]);
		ret = jr_stats(j, o, where, key, &g->st[m]);
	}
	return ret;
}

static int read_wq(const struct jr *j, struct json_object *o, const char *where,
		   struct wq_group *g)
{
	size_t m;
	int ret;

	ret = jr_str(j, o, where, "workqueue", g->wq, sizeof(g->wq));
	ret = ret ?: jr_str(j, o, where, "function", g->func, sizeof(g->func));
	ret = ret ?: jr_str(j, o, where, "pool", g->pool, sizeof(g->pool));
	ret = ret ?: jr_u64(j, o, where, "count", &g->count);
	for (m = 0; !ret && m < WM_NR; m++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_ns", wq_metric_names[m]);
		ret = jr_stats(j, o, where, key, &g->st[m]);
	}
	return ret;
}

/*
 * read_array - allocate n elements of size sz and fill each with fn; parent is the path
 * of the object that holds the array ("" for the root)
 */
static int read_array(const struct jr *j, struct json_object *root, const char *parent,
		      const char *key, size_t sz, void **out, size_t *n,
		      int (*fn)(const struct jr *, struct json_object *, const char *, void *))
{
	struct json_object *arr;
	char where[96];
	size_t i, len;
	char *v;
	int ret;

	ret = jr_get(j, root, parent, key, json_type_array, &arr);
	if (ret)
		return ret;
	len = json_object_array_length(arr);
	v = calloc(len ? len : 1, sz);
	if (!v)
		return rd_errno(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
	*out = v;
	*n = len;
	for (i = 0; i < len; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);

		snprintf(where, sizeof(where), "%s%s%s[%zu]", parent, *parent ? "." : "", key, i);
		if (!json_object_is_type(e, json_type_object))
			return rd_err(j->errbuf, "malformed result file %s: field '%s' is "
				      "not an object", j->path, where);
		ret = fn(j, e, where, v + i * sz);
		if (ret)
			return ret;
	}
	return 0;
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
		ret = read_array(j, tw, "thread_wakeup", wake_keys[k], sizeof(*rec->wake[k]),
				 (void **)&rec->wake[k], &rec->nwake[k], cb[k]);
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
	ret = jr_schema(&j, root, "deferbench/1");
	ret = ret ?: read_meta(&j, root, &rec->cap);
	ret = ret ?: read_capture(&j, root, &rec->cap);
	ret = ret ?: read_array(&j, root, "", "softirq", sizeof(*rec->sirq),
				(void **)&rec->sirq, &rec->nsirq, sirq_cb);
	ret = ret ?: read_array(&j, root, "", "workqueue", sizeof(*rec->wq), (void **)&rec->wq,
				&rec->nwq, wq_cb);
	ret = ret ?: read_wakeup(&j, root, rec);
	json_object_put(root);
	return ret;
}

const struct sirq_group *record_sirq(const struct record *rec, const char *vector, int cpu)
{
	size_t i;

	for (i = 0; i < rec->nsirq; i++)
		if (rec->sirq[i].cpu == cpu && !strcmp(rec->sirq[i].vector, vector))
			return &rec->sirq[i];
	return NULL;
}

const struct wake_data *record_wakeup(const struct record *rec, enum wake_kind kind,
				      const char *name)
{
	size_t i;

	for (i = 0; i < rec->nwake[kind]; i++)
		if (!strcmp(rec->wake[kind][i].name, name))
			return &rec->wake[kind][i];
	return NULL;
}

const struct wl_metric_data *record_wl_metric(const struct record *rec, const char *name)
{
	size_t i;

	for (i = 0; i < rec->wl.nm; i++)
		if (!strcmp(rec->wl.m[i].name, name))
			return &rec->wl.m[i];
	return NULL;
}
