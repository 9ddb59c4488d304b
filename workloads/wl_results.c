// SPDX-License-Identifier: GPL-2.0
/*
 * wl_results.c - the only place a workload's metrics are formatted or read back: the
 * terminal table, workload.json and workload-hist.csv (docs/results-format.md).
 */
#include "workload.h"

#include <errno.h>
#include <json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "csvw.h"
#include "jsonread.h"
#include "ivfile.h"
#include "jsonw.h"
#include "msg.h"
#include "file.h"
#include "outw.h"

static const struct wl_counter *counter_find(const struct wl_run *w, const char *name)
{
	int i;

	for (i = 0; i < w->metrics.ncounters; i++)
		if (!strcmp(w->metrics.counter[i].name, name))
			return &w->metrics.counter[i];
	return NULL;
}

/* us - nanoseconds as microseconds for the terminal table */
static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

void wl_print(const struct wl_run *w, FILE *f)
{
	const struct wl_counter *asked = counter_find(w, "rate_asked");
	const struct wl_counter *got = counter_find(w, "rate_achieved");
	struct hist_stats st;
	int i, n = 0;

	fprintf(f, "%s: %.3f s", w->ops->name, wl_window_s(w));
	if (w->window_ns)
		fprintf(f, " measured, after %.3f s of warm-up", wl_warmup_s(w));
	fprintf(f, ", seed %llu\n", (unsigned long long)w->seed);
	if (asked && got)
		fprintf(f, "  rate: %.1f/s achieved of %.1f/s asked (%.1f%%)\n", got->value,
			asked->value, asked->value > 0 ? 100.0 * got->value / asked->value : 0);
	if (w->metrics.nmetrics)
		fprintf(f, "  %-14s %10s %10s %10s %10s %10s %10s  (us)\n", "metric", "count",
			"min", "p50", "p99", "p99.9", "max");
	for (i = 0; i < w->metrics.nmetrics; i++) {
		const struct wl_metric *m = &w->metrics.metric[i];

		hist_get_stats(&m->hist, &st);
		fprintf(f, "  %-14s %10llu %10.1f %10.1f %10.1f %10.1f %10.1f\n", m->name,
			(unsigned long long)st.count, us(st.min), us(st.p50), us(st.p99),
			us(st.p999), us(st.max));
	}
	/* every counter, misses and lost operations included, next to the latencies */
	for (i = 0; i < w->metrics.ncounters; i++) {
		const struct wl_counter *c = &w->metrics.counter[i];

		if (c == asked || c == got)
			continue;
		fprintf(f, "%s%s %.10g", n % 5 ? ", " : (n ? "\n  " : "  "), c->name, c->value);
		n++;
	}
	if (n)
		fputc('\n', f);
	if (asked && got && asked->value > 0 && got->value < 0.9 * asked->value)
		fprintf(f, "  note: the rate asked was not reached; latencies measured from the "
			"intended start include the backlog\n");
}

static struct json_object *stats_json(const struct wl_metric *m)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(m->name));
	json_object_object_add(o, "unit", json_object_new_string(m->unit ? m->unit : "ns"));
	json_object_object_add(o, "desc", json_object_new_string(m->desc ? m->desc : ""));
	jsonw_stats_into(o, &m->hist);
	return o;
}

/* number_json - counters are mostly counts: write 1000, not 1000.0 */
static struct json_object *number_json(double v)
{
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double(v);
}

static struct json_object *results_json(const struct wl_run *w)
{
	struct json_object *root = json_object_new_object(), *opts, *arr, *cnt;
	const struct opt_desc *o;
	char val[512];
	int i;

	json_object_object_add(root, "schema", json_object_new_string(WORKLOAD_SCHEMA));
	json_object_object_add(root, "workload", json_object_new_string(w->ops->name));
	opts = json_object_new_object();
	for (o = w->ops->options; o && o->type != OPTION_END; o++)
		if (o->key && !wl_option_value(w, o, val, sizeof(val)))
			json_object_object_add(opts, o->key, json_object_new_string(val));
	json_object_object_add(root, "options", opts);
	json_object_object_add(root, "seed", json_object_new_uint64(w->seed));
	/* what the metrics cover (the window), and how long the load ran before it */
	json_object_object_add(root, "duration_s", json_object_new_double(wl_window_s(w)));
	json_object_object_add(root, "warmup_s", json_object_new_double(wl_warmup_s(w)));
	/* threads start inside it: with no window, what they did then is in the metrics */
	json_object_object_add(root, "start_s", json_object_new_double(w->start_took_ns / 1e9));
	arr = json_object_new_array();
	for (i = 0; i < w->metrics.nmetrics; i++)
		json_object_array_add(arr, stats_json(&w->metrics.metric[i]));
	json_object_object_add(root, "metrics", arr);
	cnt = json_object_new_object();
	for (i = 0; i < w->metrics.ncounters; i++)
		json_object_object_add(cnt, w->metrics.counter[i].name,
				       number_json(w->metrics.counter[i].value));
	json_object_object_add(root, "counters", cnt);
	arr = json_object_new_array();
	for (i = 0; w->ops->primary && w->ops->primary[i] && i < PRIMARY_MAX; i++)
		json_object_array_add(arr, json_object_new_string(w->ops->primary[i]));
	json_object_object_add(root, "primary", arr);
	if (w->ops->work) {
		arr = json_object_new_array();
		for (i = 0; w->ops->work[i] && i < WORK_MAX; i++) {
			const struct wl_work *wk = w->ops->work[i];
			struct json_object *wo = json_object_new_object(), *m = json_object_new_array();
			size_t k;

			json_object_object_add(wo, "name", json_object_new_string(wk->name));
			json_object_object_add(wo, "desc", json_object_new_string(wk->desc));
			for (k = 0; k < wk->nmember; k++)
				json_object_array_add(m, json_object_new_string(wk->member[k]));
			json_object_object_add(wo, "members", m);
			json_object_array_add(arr, wo);
		}
		json_object_object_add(root, "work", arr);
	}
	json_object_object_add(root, "interval_s", json_object_new_double(w->interval_ns / 1e9));
	/* where interval 0 of workload-intervals.csv begins, on CLOCK_MONOTONIC */
	if (wl_window(w) != WL_MEASURE_LATER)
		json_object_object_add(root, "interval_origin_ns",
				       json_object_new_uint64(wl_window(w)));
	if (wl_error(w))
		json_object_object_add(root, "error", json_object_new_string(wl_error(w)));
	return root;
}

static int write_json(const struct wl_run *w, const char *path)
{
	struct json_object *root = results_json(w);
	int ret = 0;

	/* 10 significant digits, not json-c's 17 (2.0002131190000001) */
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_THREAD);
	ret = jsonw_write(path, root, 0644, 0);
	json_c_set_serialization_double_format(NULL, JSON_C_OPTION_THREAD);
	json_object_put(root);
	return ret;
}

/* write_hist_csv - metric,lo_ns,hi_ns,count: the non-empty buckets of every metric */
static int write_hist_csv(const struct wl_run *w, const char *path)
{
	static const char *const head[] = { "metric", "lo_ns", "hi_ns", "count", NULL };
	struct csvw c;
	unsigned int b;
	int i, ret;

	ret = csvw_open(&c, path);
	if (ret)
		return ret;
	csvw_header(&c, head);
	csvw_end(&c);
	for (i = 0; i < w->metrics.nmetrics; i++) {
		const struct wl_metric *m = &w->metrics.metric[i];

		for (b = 0; b < HIST_BUCKETS; b++) {
			if (!m->hist.bucket[b])
				continue;
			csvw_str(&c, m->name);
			csvw_u64(&c, hist_bucket_lo(b));
			csvw_u64(&c, hist_bucket_lo(b) + hist_bucket_width(b));
			csvw_u64(&c, m->hist.bucket[b]);
			csvw_end(&c);
		}
	}
	return csvw_close(&c);
}

/*
 * write_intervals - workload-intervals.csv (ivfile.h), kind "workload", name the metric:
 * each metric's histogram per interval of the operations' due time
 */
static int write_intervals(const struct wl_run *w, const char *path)
{
	struct hist *h = malloc(sizeof(*h));
	struct ivfile f;
	size_t k;
	int i, ret;

	if (!h)
		return -ENOMEM;
	ret = ivfile_open(&f, path);
	for (i = 0; !ret && i < w->metrics.nmetrics; i++) {
		const struct wl_metric *m = &w->metrics.metric[i];

		for (k = 0; m->iv.ival && k < m->iv.n; k++) {
			uint64_t n = ivhist_get(&m->iv, k, h);

			ivfile_row(&f, n, n * (m->iv.ival / 1e9), "workload", m->name, "", "",
				   "latency", h);
		}
	}
	if (!ret)
		ret = ivfile_close(&f);
	free(h);
	return ret;
}

int wl_write_results(const struct wl_run *w, const char *dir)
{
	char path[PATH_MAX];
	int ret;

	ret = out_mkdir_p(dir);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/workload.json", dir);
	ret = write_json(w, path);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/workload-hist.csv", dir);
	ret = write_hist_csv(w, path);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/workload-intervals.csv", dir);
	return write_intervals(w, path);
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
		return errno_msg(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
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
		return errno_msg(r->errbuf, -ENOMEM, "%s: out of memory", r->path);
	return 0;
}

static int check_wl_totals(const char *path, const struct wl_data *wl, char *errbuf)
{
	size_t i;

	for (i = 0; i < wl->nm; i++)
		if (bucketlist_count(&wl->m[i].h) != wl->m[i].st.count)
			return set_err(errbuf, "malformed result file %s: metric '%s': buckets "
				      "hold %llu values, workload.json says %llu", path,
				      wl->m[i].name,
				      (unsigned long long)bucketlist_count(&wl->m[i].h),
				      (unsigned long long)wl->m[i].st.count);
	return 0;
}

/* read_work - the work entries: name, desc, members (group-id patterns) */
static int read_work(const struct jr *j, struct json_object *root, struct wl_data *wl)
{
	struct json_object *arr, *e;
	char where[32];
	size_t i;
	int ret;

	ret = jr_get(j, root, "", "work", json_type_array, &arr);
	if (ret)
		return ret;
	if (json_object_array_length(arr) > WORK_MAX)
		return jr_fail(j, "", "work", "has more than %d entries", WORK_MAX);
	for (i = 0; !ret && i < json_object_array_length(arr); i++) {
		struct wl_work *w = &wl->work[i];

		snprintf(where, sizeof(where), "work[%zu]", i);
		e = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(e, json_type_object))
			return jr_fail(j, "work", where + 4, "is not an object");
		ret = jr_str(j, e, where, "name", w->name, sizeof(w->name));
		ret = ret ?: jr_str_opt(j, e, where, "desc", w->desc, sizeof(w->desc));
		ret = ret ?: jr_strings(j, e, where, "members", w->member[0], sizeof(w->member[0]),
					WORK_MEMBERS, &w->nmember);
		if (!ret && !w->nmember)
			ret = jr_fail(j, where, "members", "is empty");
		wl->nwork = i + 1;
	}
	return ret;
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
	ret = jr_schema(&j, root, WORKLOAD_SCHEMA);
	ret = ret ?: jr_str(&j, root, "", "workload", wl->workload, sizeof(wl->workload));
	ret = ret ?: jr_double(&j, root, "", "duration_s", &wl->duration_s);
	ret = ret ?: read_metrics(&j, root, wl);
	ret = ret ?: jr_kv(&j, root, "counters", &wl->counter, &wl->ncounter);
	ret = ret ?: jr_strings(&j, root, "", "primary", wl->primary.id[0],
				sizeof(wl->primary.id[0]), PRIMARY_MAX, &wl->primary.n);
	if (!ret && jr_has(root, "options"))
		ret = jr_kv(&j, root, "options", &wl->opt, &wl->nopt);
	if (!ret && jr_has(root, "work"))
		ret = read_work(&j, root, wl);
	if (!ret && jr_has(root, "interval_s"))
		ret = jr_double(&j, root, "", "interval_s", &wl->interval_s);
	if (!ret && jr_has(root, "interval_origin_ns"))
		ret = jr_u64(&j, root, "", "interval_origin_ns", &wl->interval_origin_ns);
	json_object_put(root);
	if (ret)
		return ret;
	wl->present = true;
	if (!hist_path)
		return 0;
	ret = csvr_read(hist_path, wlhist_cols, wlhist_row, wl, errbuf);
	return ret ?: check_wl_totals(hist_path, wl, errbuf);
}
