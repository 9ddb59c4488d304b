// SPDX-License-Identifier: GPL-2.0
/*
 * rd_workload.c - a workload's own metrics: workload.json (schema
 * deferbench-workload/1) and the buckets of workload-hist.csv.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "jsonread.h"
#include "rundata.h"
#include "util.h"

void workload_free(struct wl_data *wl)
{
	size_t i;

	for (i = 0; i < wl->nm; i++)
		bucketlist_free(&wl->m[i].h);
	free(wl->m);
	free(wl->counter);
	free(wl->opt);
	memset(wl, 0, sizeof(*wl));
}

/* read_kv - an object of scalars ({"rate": "1000"} or {"sent": 10}) as text pairs */
static int read_kv(const struct jr *j, struct json_object *root, const char *key,
		   struct kv **out, size_t *n)
{
	struct json_object *o;
	size_t i = 0;
	int ret;

	ret = jr_get(j, root, "", key, json_type_object, &o);
	if (ret)
		return ret;
	*n = (size_t)json_object_object_length(o);
	*out = calloc(*n ? *n : 1, sizeof(**out));
	if (!*out)
		return rd_errno(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
	json_object_object_foreach(o, k, v) {
		(void)v;
		if (strlen(k) >= sizeof((*out)[i].key))
			return jr_fail(j, key, k, "has a name longer than %zu characters",
				       sizeof((*out)[i].key) - 1);
		strcpy((*out)[i].key, k);
		ret = jr_scalar_text(j, o, key, k, (*out)[i].val, sizeof((*out)[i].val));
		if (ret)
			return ret;
		i++;
	}
	return 0;
}

static int read_metric(const struct jr *j, struct json_object *o, const char *where,
		       struct wl_metric_data *m)
{
	int ret;

	ret = jr_str(j, o, where, "name", m->name, sizeof(m->name));
	ret = ret ?: jr_str(j, o, where, "unit", m->unit, sizeof(m->unit));
	ret = ret ?: jr_str_opt(j, o, where, "desc", m->desc, sizeof(m->desc));
	ret = ret ?: jr_stats_in(j, o, where, &m->st);
	if (!ret && strcmp(m->unit, "ns"))
		return jr_fail(j, where, "unit", "is '%s'; only 'ns' metrics are supported",
			       m->unit);
	return ret;
}

static int read_metrics(const struct jr *j, struct json_object *root, struct wl_data *wl)
{
	struct json_object *arr;
	char where[64];
	size_t i;
	int ret;

	ret = jr_get(j, root, "", "metrics", json_type_array, &arr);
	if (ret)
		return ret;
	wl->nm = json_object_array_length(arr);
	wl->m = calloc(wl->nm ? wl->nm : 1, sizeof(*wl->m));
	if (!wl->m)
		return rd_errno(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
	for (i = 0; i < wl->nm; i++) {
		snprintf(where, sizeof(where), "metrics[%zu]", i);
		ret = read_metric(j, json_object_array_get_idx(arr, i), where, &wl->m[i]);
		if (ret)
			return ret;
	}
	return 0;
}

enum { WC_METRIC, WC_LO, WC_HI, WC_COUNT };
static const char *const wlhist_cols[] = { "metric", "lo_ns", "hi_ns", "count", NULL };

static int wlhist_row(const struct csvr *r, void *ctx)
{
	struct wl_data *wl = ctx;
	uint64_t lo, hi, n;
	size_t i;
	int ret;

	ret = csvr_u64(r, WC_LO, &lo);
	ret = ret ?: csvr_u64(r, WC_HI, &hi);
	ret = ret ?: csvr_u64(r, WC_COUNT, &n);
	if (ret)
		return ret;
	ret = csvr_check_bucket(r, lo, hi);
	if (ret)
		return ret;
	for (i = 0; i < wl->nm; i++)
		if (!strcmp(wl->m[i].name, csvr_str(r, WC_METRIC)))
			break;
	if (i == wl->nm)
		return csvr_fail(r, "metric '%s' is not in workload.json", csvr_str(r, WC_METRIC));
	if (bucketlist_add(&wl->m[i].h, lo, hi, n))
		return rd_errno(r->errbuf, -ENOMEM, "%s: out of memory", r->path);
	return 0;
}

static int check_wl_totals(const char *path, const struct wl_data *wl, char *errbuf)
{
	size_t i;

	for (i = 0; i < wl->nm; i++)
		if (bucketlist_count(&wl->m[i].h) != wl->m[i].st.count)
			return rd_err(errbuf, "malformed result file %s: metric '%s': buckets "
				      "hold %llu values, workload.json says %llu", path,
				      wl->m[i].name,
				      (unsigned long long)bucketlist_count(&wl->m[i].h),
				      (unsigned long long)wl->m[i].st.count);
	return 0;
}

int workload_load(const char *json_path, const char *hist_path, struct wl_data *wl,
		  char *errbuf)
{
	struct jr j = { .path = json_path, .errbuf = errbuf };
	struct json_object *root;
	int ret;

	ret = jr_load(&j, &root);
	if (ret)
		return ret;
	ret = jr_schema(&j, root, "deferbench-workload/1");
	ret = ret ?: jr_str(&j, root, "", "workload", wl->workload, sizeof(wl->workload));
	ret = ret ?: jr_double(&j, root, "", "duration_s", &wl->duration_s);
	ret = ret ?: read_metrics(&j, root, wl);
	ret = ret ?: read_kv(&j, root, "counters", &wl->counter, &wl->ncounter);
	if (!ret && jr_has(root, "options"))
		ret = read_kv(&j, root, "options", &wl->opt, &wl->nopt);
	json_object_put(root);
	if (ret)
		return ret;
	wl->present = true;
	if (!hist_path)
		return 0;
	ret = csvr_read(hist_path, wlhist_cols, wlhist_row, wl, errbuf);
	return ret ?: check_wl_totals(hist_path, wl, errbuf);
}
