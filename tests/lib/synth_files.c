// SPDX-License-Identifier: GPL-2.0
/*
 * synth_files.c - a synthetic cell's samples in the result formats: summary.json,
 * softirq.csv, workqueue.csv, histograms.csv, intervals.csv, workload.json and
 * workload-hist.csv (json-c and libcsv, as the real writers use).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "csvw.h"
#include "jsonw.h"
#define DEFERBENCH_ALLOW_SYNTH_INT_H
#include "synth_int.h"
#include "common.h"

void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static struct json_object *sirq_json(const struct cellgen *g, unsigned int i, int cpu)
{
	struct json_object *o = json_object_new_object();
	const struct gdata *d = &g->sirq[i];
	const struct hist *h = cpu < 0 ? d->h : d->cpu[cpu];

	add_str(o, "vector", sirq_grps[i].name);
	json_object_object_add(o, "cpu", json_object_new_int(cpu));
	add_u64(o, "count", h[0].count);
	add_u64(o, "ksoftirqd_count", cpu < 0 ? d->ksoftirqd : 0);
	add_u64(o, "long_runs", cpu < 0 ? d->long_runs : 0);
	json_object_object_add(o, "delay_ns", jsonw_stats(&h[0]));
	json_object_object_add(o, "runtime_ns", jsonw_stats(&h[1]));
	return o;
}

static struct json_object *wq_json(const struct cellgen *g, unsigned int i)
{
	static const char *const keys[] = { "delay_ns", "activate_wait_ns",
					    "worker_wait_ns", "runtime_ns" };
	struct json_object *o = json_object_new_object();
	unsigned int m;

	add_str(o, "workqueue", g->wqg[i].name);
	add_str(o, "function", g->wqg[i].func);
	add_str(o, "pool", g->wqg[i].pool);
	add_u64(o, "count", g->wq[i].h[0].count);
	for (m = 0; m < 4; m++)
		json_object_object_add(o, keys[m], jsonw_stats(&g->wq[i].h[m]));
	return o;
}

static struct json_object *wake_entry(const char *key, struct json_object *id,
				      const struct hist *h)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, key, id);
	json_object_object_add(o, "wakeup_ns", jsonw_stats(h));
	return o;
}

/* wakeup_json - thread_wakeup as bench/output/summary_json.c writes it */
static struct json_object *wakeup_json(const struct cellgen *g)
{
	struct json_object *o = json_object_new_object(), *ks = json_object_new_array();
	struct json_object *wk = json_object_new_array();
	unsigned int i;

	for (i = 0; i < NCPU; i++)
		json_object_array_add(ks, wake_entry("cpu", json_object_new_int((int)i),
						     &g->ksoftirqd_wake[i]));
	for (i = 0; i < NWAKEP; i++)
		json_object_array_add(wk, wake_entry("pool", json_object_new_string(
			wake_pools[i].name), &g->pool_wake[i]));
	json_object_object_add(o, "ksoftirqd", ks);
	json_object_object_add(o, "workers", wk);
	return o;
}

int write_json(const char *dir, const char *name, struct json_object *o)
{
	char p[4096];
	int ret;

	snprintf(p, sizeof(p), "%.3000s/%.64s", dir, name);
	ret = json_object_to_file_ext(p, o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE) ? -EIO : 0;
	json_object_put(o);
	return ret;
}

int write_summary(const char *dir, const struct cellgen *g)
{
	struct json_object *root = json_object_new_object(), *meta, *cap, *arr;
	unsigned int i;
	int cpu;

	add_str(root, "schema", "deferbench/1");
	meta = json_object_new_object();
	add_str(meta, "kernel", g->o->kernel);
	add_str(meta, "hostname", g->o->hostname);
	json_object_object_add(meta, "cpus", json_object_new_int(NCPU));
	add_str(meta, "trace_clock", "mono");
	json_object_object_add(meta, "duration_s", json_object_new_double(g->niv));
	add_str(meta, "started", "2026-12-03T05:30:00Z");
	add_str(meta, "version", DEFERBENCH_VERSION);
	json_object_object_add(root, "meta", meta);
	cap = json_object_new_object();
	add_u64(cap, "events", 123456);
	add_u64(cap, "lost_events", g->lossy ? 1234 : 0);
	json_object_object_add(cap, "lossy", json_object_new_boolean(g->lossy));
	add_u64(cap, "late_events", 0);
	add_u64(cap, "unmatched", 7);
	json_object_object_add(root, "capture", cap);
	arr = json_object_new_array();
	for (i = 0; i < NSIRQ; i++)
		for (cpu = -1; cpu < NCPU; cpu++)
			json_object_array_add(arr, sirq_json(g, i, cpu));
	json_object_object_add(root, "softirq", arr);
	arr = json_object_new_array();
	for (i = 0; i < NWQ; i++)
		json_object_array_add(arr, wq_json(g, i));
	json_object_object_add(root, "workqueue", arr);
	if (!g->o->no_wakeup)
		json_object_object_add(root, "thread_wakeup", wakeup_json(g));
	return write_json(dir, "summary.json", root);
}

/* capture_cols - the capture's loss figures, which end every row of the group CSVs */
static void capture_cols(struct csvw *w, const struct cellgen *g)
{
	csvw_u64(w, g->lossy ? 1234 : 0);
	csvw_u64(w, 7);
	csvw_u64(w, g->lossy);
}

static int open_in(struct csvw *w, const char *dir, const char *name)
{
	char p[4096];

	snprintf(p, sizeof(p), "%.3000s/%.64s", dir, name);
	return csvw_open(w, p);
}

int write_group_csvs(const char *dir, const struct cellgen *g)
{
	static const char *const loss_cols[] = { "lost_events", "unmatched", "lossy", NULL };
	static const char *const wqm[] = { "delay", "activate_wait", "worker_wait", "runtime" };
	struct csvw w;
	unsigned int i, m;
	int ret, cpu;

	ret = open_in(&w, dir, "softirq.csv");
	if (ret)
		return ret;
	csvw_header(&w, (const char *const[]){ "vector", "cpu", "count", "ksoftirqd_count",
					       "long_runs", NULL });
	csvw_stats_header(&w, "delay");
	csvw_stats_header(&w, "runtime");
	csvw_header(&w, loss_cols);
	csvw_end(&w);
	for (i = 0; i < NSIRQ; i++)
		for (cpu = -1; cpu < NCPU; cpu++) {
			const struct hist *h = cpu < 0 ? g->sirq[i].h : g->sirq[i].cpu[cpu];

			csvw_str(&w, sirq_grps[i].name);
			csvw_i64(&w, cpu);
			csvw_u64(&w, h[0].count);
			csvw_u64(&w, cpu < 0 ? g->sirq[i].ksoftirqd : 0);
			csvw_u64(&w, cpu < 0 ? g->sirq[i].long_runs : 0);
			csvw_stats(&w, &h[0]);
			csvw_stats(&w, &h[1]);
			capture_cols(&w, g);
			csvw_end(&w);
		}
	ret = csvw_close(&w);
	ret = ret ?: open_in(&w, dir, "workqueue.csv");
	if (ret)
		return ret;
	csvw_str(&w, "workqueue");
	csvw_str(&w, "function");
	csvw_str(&w, "pool");
	csvw_str(&w, "count");
	for (m = 0; m < 4; m++)
		csvw_stats_header(&w, wqm[m]);
	csvw_header(&w, loss_cols);
	csvw_end(&w);
	for (i = 0; i < NWQ; i++) {
		csvw_str(&w, g->wqg[i].name);
		csvw_str(&w, g->wqg[i].func);
		csvw_str(&w, g->wqg[i].pool);
		csvw_u64(&w, g->wq[i].h[0].count);
		for (m = 0; m < 4; m++)
			csvw_stats(&w, &g->wq[i].h[m]);
		capture_cols(&w, g);
		csvw_end(&w);
	}
	return csvw_close(&w);
}

static void bucket_rows(struct csvw *w, const char *const *prefix, size_t np,
			const struct hist *h)
{
	unsigned int b;
	size_t i;

	for (b = 0; b < HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		for (i = 0; i < np; i++)
			csvw_str(w, prefix[i]);
		csvw_u64(w, hist_bucket_lo(b));
		csvw_u64(w, hist_bucket_lo(b) + hist_bucket_width(b));
		csvw_u64(w, h->bucket[b]);
		csvw_end(w);
	}
}

int write_histograms(const char *dir, const struct cellgen *g)
{
	static const char *const wqm[] = { "delay", "activate_wait", "worker_wait", "runtime" };
	static const char *const sm[] = { "delay", "runtime" };
	char cpus[16];
	struct csvw w;
	unsigned int i, m;
	int ret, cpu;

	ret = open_in(&w, dir, "histograms.csv");
	if (ret)
		return ret;
	csvw_header(&w, (const char *const[]){ "kind", "name", "cpu", "function", "pool",
					       "metric", "lo_ns", "hi_ns", "count", NULL });
	csvw_end(&w);
	for (i = 0; i < NSIRQ; i++)
		for (cpu = -1; cpu < NCPU; cpu++)
			for (m = 0; m < 2; m++) {
				snprintf(cpus, sizeof(cpus), "%d", cpu);
				bucket_rows(&w, (const char *const[]){ "softirq", sirq_grps[i].name,
					    cpus, "", "", sm[m] }, 6,
					    cpu < 0 ? &g->sirq[i].h[m] : &g->sirq[i].cpu[cpu][m]);
			}
	for (i = 0; i < NWQ; i++)
		for (m = 0; m < 4; m++)
			bucket_rows(&w, (const char *const[]){ "workqueue", g->wqg[i].name, "-1",
				    g->wqg[i].func, g->wqg[i].pool, wqm[m] }, 6, &g->wq[i].h[m]);
	return csvw_close(&w);
}

static void ival_row(struct csvw *w, unsigned int iv, const struct grp *gr, bool sirq,
		     const char *metric, const struct hist *h)
{
	char buckets[65536];
	size_t off = 0;
	struct hist_stats st;
	unsigned int b;

	if (!h->count)
		return;
	hist_get_stats(h, &st);
	buckets[0] = '\0';
	for (b = 0; b < HIST_BUCKETS && off < sizeof(buckets) - 64; b++)
		if (h->bucket[b])
			off += snprintf(buckets + off, sizeof(buckets) - off, "%s%llu:%llu",
					off ? " " : "", (unsigned long long)hist_bucket_lo(b),
					(unsigned long long)h->bucket[b]);
	csvw_u64(w, iv);
	csvw_dbl(w, iv);
	csvw_str(w, sirq ? "softirq" : "workqueue");
	csvw_str(w, gr->name);
	csvw_str(w, gr->func);
	csvw_str(w, gr->pool);
	csvw_str(w, metric);
	csvw_u64(w, st.count);
	csvw_u64(w, st.min);
	csvw_dbl(w, st.mean);
	csvw_u64(w, st.p50);
	csvw_u64(w, st.p99);
	csvw_u64(w, st.max);
	csvw_str(w, buckets);
	csvw_end(w);
}

int write_intervals(const char *dir, const struct cellgen *g)
{
	struct csvw w;
	unsigned int iv, i;
	int ret;

	ret = open_in(&w, dir, "intervals.csv");
	if (ret)
		return ret;
	csvw_header(&w, (const char *const[]){ "interval", "t_s", "kind", "name", "function",
		    "pool", "metric", "count", "min_ns", "mean_ns", "p50_ns", "p99_ns", "max_ns",
		    "buckets", NULL });
	csvw_end(&w);
	for (iv = 0; iv < g->niv; iv++) {
		for (i = 0; i < NSIRQ; i++) {
			ival_row(&w, iv, &sirq_grps[i], true, "delay", &g->sirq[i].iv[iv][0]);
			ival_row(&w, iv, &sirq_grps[i], true, "runtime", &g->sirq[i].iv[iv][1]);
		}
		for (i = 0; i < NWQ; i++) {
			ival_row(&w, iv, &g->wqg[i], false, "delay", &g->wq[i].iv[iv][0]);
			ival_row(&w, iv, &g->wqg[i], false, "runtime", &g->wq[i].iv[iv][1]);
		}
	}
	return csvw_close(&w);
}

int write_workload(const char *dir, const struct cellgen *g, const char *wl)
{
	struct json_object *root = json_object_new_object(), *m, *arr, *c, *opt;
	struct csvw w;
	int ret;

	add_str(root, "schema", "deferbench-workload/1");
	add_str(root, "workload", wl);
	opt = json_object_new_object();
	add_str(opt, "rate", "1000");
	json_object_object_add(root, "options", opt);
	add_u64(root, "seed", g->o->seed);
	json_object_object_add(root, "duration_s", json_object_new_double(g->niv));
	m = jsonw_stats(&g->wl);
	add_str(m, "name", g->wl_metric);
	add_str(m, "unit", "ns");
	add_str(m, "desc", g->wl_desc);
	arr = json_object_new_array();
	json_object_array_add(arr, m);
	json_object_object_add(root, "metrics", arr);
	c = json_object_new_object();
	add_u64(c, "sent", g->wl.count + 3);
	add_u64(c, "received", g->wl.count);
	json_object_object_add(root, "counters", c);
	ret = write_json(dir, "workload.json", root);
	ret = ret ?: open_in(&w, dir, "workload-hist.csv");
	if (ret)
		return ret;
	csvw_header(&w, (const char *const[]){ "metric", "lo_ns", "hi_ns", "count", NULL });
	csvw_end(&w);
	bucket_rows(&w, &g->wl_metric, 1, &g->wl);
	return csvw_close(&w);
}

