// SPDX-License-Identifier: GPL-2.0
/*
 * synth.c - synthetic run directories for tests (see synth.h).
 */
#include "synth.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "csvw.h"
#include "hist.h"
#include "util.h"

#define NCPU 2
#define MAXIV 64

struct grp {
	const char *name, *func, *pool;
	double delay_ns, run_ns;	/* medians */
	double weight;			/* share of the samples */
};

static const struct grp sirq_grps[] = {
	{ "TIMER", "", "", 4000, 3000, 1.0 },
	{ "NET_RX", "", "", 9000, 6000, 1.0 },
	{ "RCU", "", "", 6000, 2500, 0.5 },
	{ "SCHED", "", "", 3000, 1500, 0.4 },
	{ "NET_TX", "", "", 5000, 2000, 0.2 },
};
#define NSIRQ (sizeof(sirq_grps) / sizeof(sirq_grps[0]))

static const struct grp wq_grps[] = {
	{ "events_unbound", "flush_to_ldisc", "unbound2", 30000, 8000, 0.5 },
	{ "kblockd", "blk_mq_run_work_fn", "cpu0H", 15000, 10000, 0.3 },
	{ "writeback", "wb_workfn", "unbound3", 60000, 40000, 0.1 },
	{ "events", "vmstat_update", "cpu0", 20000, 3000, 0.1 },
	{ "events", "vmstat_update", "cpu1", 22000, 3000, 0.1 },
};
#define NWQ (sizeof(wq_grps) / sizeof(wq_grps[0]))

static const struct {
	const char *workload, *metric, *desc;
	double median_ns;
} wl_metrics[] = {
	{ "net", "rtt", "UDP request/response round trip", 40000 },
	{ "tty", "delivery", "pty write to read", 25000 },
	{ "timer", "wakeup", "timer expiry to thread running", 60000 },
	{ "fsync", "fsync", "fsync() duration", 2000000 },
};

static const double config_scale[] = { 1.0, 0.75, 1.3, 0.9, 1.1 };

/* One group of one cell: all-CPU histograms, per-CPU ones, per-interval ones. */
struct gdata {
	struct hist h[4];		/* sirq: delay, runtime; wq: delay, act, worker, run */
	struct hist cpu[NCPU][2];
	struct hist iv[MAXIV][2];
	uint64_t ksoftirqd, long_runs;
};

struct cellgen {
	const struct synth_opts *o;
	uint64_t rng;
	double scale;			/* config x repetition x slowdown */
	unsigned int niv;
	struct gdata sirq[NSIRQ], wq[NWQ];
	struct hist wl;
	const char *wl_metric, *wl_desc;
	bool lossy;
};

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double unif(uint64_t *s)
{
	return ((double)(rnd(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(uint64_t *s)
{
	return sqrt(-2.0 * log(unif(s))) * cos(2 * M_PI * unif(s));
}

/* draw - log-normal around median, 1% tail 4-15x, a rare 300x outlier */
static uint64_t draw(uint64_t *s, double median)
{
	double v = median * exp(0.45 * gauss(s));
	double u = unif(s);

	if (u < 0.0005)
		v *= 300;
	else if (u < 0.01)
		v *= 4 + 11 * unif(s);
	return (uint64_t)(v < 1 ? 1 : v);
}

void synth_defaults(struct synth_opts *o)
{
	static const char *const wls[] = { "net", "tty", "timer", NULL };
	static const char *const cfgs[] = { "default", "threaded-napi", "wq-nice-10", NULL };

	memset(o, 0, sizeof(*o));
	o->workloads = wls;
	o->configs = cfgs;
	o->reps = 3;
	o->slowdown = 1.0;
	o->rep_noise = 0.03;
	o->samples = 4000;
	o->duration_s = 5;
	o->seed = 1;
	o->kernel = "6.18.0-synth";
	o->hostname = "synthhost";
	o->cmdline = "BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro quiet";
}

static void gen_group(struct cellgen *g, struct gdata *d, const struct grp *gr, bool sirq)
{
	unsigned int n = (unsigned int)(g->o->samples * gr->weight) + 20, i, m;

	d->ksoftirqd = d->long_runs = 0;
	for (m = 0; m < 4; m++)
		hist_init(&d->h[m]);
	for (i = 0; i < NCPU * 2; i++)
		hist_init(&d->cpu[i / 2][i % 2]);
	for (i = 0; i < g->niv * 2; i++)
		hist_init(&d->iv[i / 2][i % 2]);
	for (i = 0; i < n; i++) {
		uint64_t dl = draw(&g->rng, gr->delay_ns * g->scale);
		uint64_t rt = draw(&g->rng, gr->run_ns * g->scale);
		unsigned int cpu = rnd(&g->rng) % NCPU, iv = i * g->niv / n;

		hist_add(&d->h[0], dl);
		hist_add(&d->h[sirq ? 1 : 3], rt);
		hist_add(&d->iv[iv][0], dl);
		hist_add(&d->iv[iv][1], rt);
		if (sirq) {
			hist_add(&d->cpu[cpu][0], dl);
			hist_add(&d->cpu[cpu][1], rt);
			d->ksoftirqd += unif(&g->rng) < 0.05;
			d->long_runs += rt > 2 * NSEC_PER_MSEC;
		} else {
			hist_add(&d->h[1], 0);
			hist_add(&d->h[2], dl);
		}
	}
}

static void gen_cell(struct cellgen *g, unsigned int wl, unsigned int cfg)
{
	double rep = exp(g->o->rep_noise * gauss(&g->rng));
	unsigned int i;

	g->scale = config_scale[cfg % 5] * rep * g->o->slowdown;
	g->niv = g->o->duration_s < MAXIV ? g->o->duration_s : MAXIV;
	for (i = 0; i < NSIRQ; i++)
		gen_group(g, &g->sirq[i], &sirq_grps[i], true);
	for (i = 0; i < NWQ; i++)
		gen_group(g, &g->wq[i], &wq_grps[i], false);
	hist_init(&g->wl);
	for (i = 0; i < g->o->samples; i++)
		hist_add(&g->wl, draw(&g->rng, wl_metrics[wl].median_ns * g->scale));
	g->wl_metric = wl_metrics[wl].metric;
	g->wl_desc = wl_metrics[wl].desc;
}

static struct json_object *stats_json(const struct hist *h)
{
	struct json_object *o = json_object_new_object();
	struct hist_stats st;

	hist_get_stats(h, &st);
	json_object_object_add(o, "count", json_object_new_uint64(st.count));
	json_object_object_add(o, "min", json_object_new_uint64(st.min));
	json_object_object_add(o, "mean", json_object_new_double(st.mean));
	json_object_object_add(o, "stddev", json_object_new_double(st.stddev));
	json_object_object_add(o, "p50", json_object_new_uint64(st.p50));
	json_object_object_add(o, "p90", json_object_new_uint64(st.p90));
	json_object_object_add(o, "p99", json_object_new_uint64(st.p99));
	json_object_object_add(o, "p999", json_object_new_uint64(st.p999));
	json_object_object_add(o, "max", json_object_new_uint64(st.max));
	return o;
}

static void add_str(struct json_object *o, const char *k, const char *v)
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
	json_object_object_add(o, "delay_ns", stats_json(&h[0]));
	json_object_object_add(o, "runtime_ns", stats_json(&h[1]));
	return o;
}

static struct json_object *wq_json(const struct cellgen *g, unsigned int i)
{
	static const char *const keys[] = { "delay_ns", "activate_wait_ns",
					    "worker_wait_ns", "runtime_ns" };
	struct json_object *o = json_object_new_object();
	unsigned int m;

	add_str(o, "workqueue", wq_grps[i].name);
	add_str(o, "function", wq_grps[i].func);
	add_str(o, "pool", wq_grps[i].pool);
	add_u64(o, "count", g->wq[i].h[0].count);
	for (m = 0; m < 4; m++)
		json_object_object_add(o, keys[m], stats_json(&g->wq[i].h[m]));
	return o;
}

static int write_json(const char *dir, const char *name, struct json_object *o)
{
	char p[4096];
	int ret;

	snprintf(p, sizeof(p), "%.3000s/%.64s", dir, name);
	ret = json_object_to_file_ext(p, o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE) ? -EIO : 0;
	json_object_put(o);
	return ret;
}

static int write_summary(const char *dir, const struct cellgen *g)
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
	return write_json(dir, "summary.json", root);
}

static void stats_cols(struct csvw *w, const struct hist *h)
{
	struct hist_stats st;

	hist_get_stats(h, &st);
	csvw_u64(w, st.count);
	csvw_u64(w, st.min);
	csvw_dbl(w, st.mean, 1);
	csvw_dbl(w, st.stddev, 1);
	csvw_u64(w, st.p50);
	csvw_u64(w, st.p90);
	csvw_u64(w, st.p99);
	csvw_u64(w, st.p999);
	csvw_u64(w, st.max);
}

static void stats_hdr(struct csvw *w, const char *m)
{
	static const char *const s[] = { "count", "min_ns", "mean_ns", "stddev_ns", "p50_ns",
					 "p90_ns", "p99_ns", "p999_ns", "max_ns" };
	char col[64];
	unsigned int i;

	for (i = 0; i < 9; i++) {
		snprintf(col, sizeof(col), "%.20s_%.20s", m, s[i]);
		csvw_str(w, col);
	}
}

static int open_in(struct csvw *w, const char *dir, const char *name)
{
	char p[4096];

	snprintf(p, sizeof(p), "%.3000s/%.64s", dir, name);
	return csvw_open(w, p);
}

static int write_group_csvs(const char *dir, const struct cellgen *g)
{
	static const char *const wqm[] = { "delay", "activate_wait", "worker_wait", "runtime" };
	struct csvw w;
	unsigned int i, m;
	int ret, cpu;

	ret = open_in(&w, dir, "softirq.csv");
	if (ret)
		return ret;
	csvw_strs(&w, (const char *const[]){ "vector", "cpu", "count", "ksoftirqd_count",
					     "long_runs", NULL });
	stats_hdr(&w, "delay");
	stats_hdr(&w, "runtime");
	csvw_end(&w);
	for (i = 0; i < NSIRQ; i++)
		for (cpu = -1; cpu < NCPU; cpu++) {
			const struct hist *h = cpu < 0 ? g->sirq[i].h : g->sirq[i].cpu[cpu];

			csvw_str(&w, sirq_grps[i].name);
			csvw_int(&w, cpu);
			csvw_u64(&w, h[0].count);
			csvw_u64(&w, cpu < 0 ? g->sirq[i].ksoftirqd : 0);
			csvw_u64(&w, cpu < 0 ? g->sirq[i].long_runs : 0);
			stats_cols(&w, &h[0]);
			stats_cols(&w, &h[1]);
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
		stats_hdr(&w, wqm[m]);
	csvw_end(&w);
	for (i = 0; i < NWQ; i++) {
		csvw_str(&w, wq_grps[i].name);
		csvw_str(&w, wq_grps[i].func);
		csvw_str(&w, wq_grps[i].pool);
		csvw_u64(&w, g->wq[i].h[0].count);
		for (m = 0; m < 4; m++)
			stats_cols(&w, &g->wq[i].h[m]);
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

static int write_histograms(const char *dir, const struct cellgen *g)
{
	static const char *const wqm[] = { "delay", "activate_wait", "worker_wait", "runtime" };
	static const char *const sm[] = { "delay", "runtime" };
	char cpus[8];
	struct csvw w;
	unsigned int i, m;
	int ret, cpu;

	ret = open_in(&w, dir, "histograms.csv");
	if (ret)
		return ret;
	csvw_header(&w, (const char *const[]){ "kind", "name", "cpu", "function", "pool",
					       "metric", "lo_ns", "hi_ns", "count", NULL });
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
			bucket_rows(&w, (const char *const[]){ "workqueue", wq_grps[i].name, "-1",
				    wq_grps[i].func, wq_grps[i].pool, wqm[m] }, 6, &g->wq[i].h[m]);
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
	csvw_dbl(w, iv, 3);
	csvw_str(w, sirq ? "softirq" : "workqueue");
	csvw_str(w, gr->name);
	csvw_str(w, gr->func);
	csvw_str(w, gr->pool);
	csvw_str(w, metric);
	csvw_u64(w, st.count);
	csvw_u64(w, st.min);
	csvw_dbl(w, st.mean, 1);
	csvw_u64(w, st.p50);
	csvw_u64(w, st.p99);
	csvw_u64(w, st.max);
	csvw_str(w, buckets);
	csvw_end(w);
}

static int write_intervals(const char *dir, const struct cellgen *g)
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
	for (iv = 0; iv < g->niv; iv++) {
		for (i = 0; i < NSIRQ; i++) {
			ival_row(&w, iv, &sirq_grps[i], true, "delay", &g->sirq[i].iv[iv][0]);
			ival_row(&w, iv, &sirq_grps[i], true, "runtime", &g->sirq[i].iv[iv][1]);
		}
		for (i = 0; i < NWQ; i++) {
			ival_row(&w, iv, &wq_grps[i], false, "delay", &g->wq[i].iv[iv][0]);
			ival_row(&w, iv, &wq_grps[i], false, "runtime", &g->wq[i].iv[iv][1]);
		}
	}
	return csvw_close(&w);
}

static int write_workload(const char *dir, const struct cellgen *g, const char *wl)
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
	m = stats_json(&g->wl);
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
	bucket_rows(&w, &g->wl_metric, 1, &g->wl);
	return csvw_close(&w);
}

static int write_cell_json(const char *dir, const char *wl, const char *cfg,
			   unsigned int rep, const char *status)
{
	struct json_object *root = json_object_new_object(), *k = json_object_new_object();

	add_str(root, "schema", "deferbench-cell/1");
	add_str(root, "workload", wl);
	add_str(root, "config", cfg);
	json_object_object_add(root, "rep", json_object_new_int((int)rep));
	add_str(k, "wq.writeback.nice", strstr(cfg, "nice") ? "-10" : "0");
	add_str(k, "net.threaded", strstr(cfg, "threaded") ? "1" : "0");
	json_object_object_add(root, "knobs", k);
	add_str(root, "status", status);
	if (strcmp(status, "ok"))
		add_str(root, "error", "workload failed: synthetic failure");
	return write_json(dir, "cell.json", root);
}

static int write_cell(const char *rundir, struct cellgen *g, unsigned int wl,
		      unsigned int cfg, unsigned int rep, const char *id)
{
	const char *wlname = g->o->workloads[wl], *cfgname = g->o->configs[cfg];
	bool failed = g->o->failed_cell && !strcmp(g->o->failed_cell, id);
	char part[4096], fin[4096];
	unsigned int mi;
	int ret;

	for (mi = 0; mi < sizeof(wl_metrics) / sizeof(wl_metrics[0]); mi++)
		if (!strcmp(wl_metrics[mi].workload, wlname))
			break;
	if (mi == sizeof(wl_metrics) / sizeof(wl_metrics[0]))
		return -EINVAL;
	snprintf(part, sizeof(part), "%s/cells/.partial-%s", rundir, id);
	snprintf(fin, sizeof(fin), "%s/cells/%s", rundir, id);
	if (mkdir(part, 0755))
		return -errno;
	g->lossy = g->o->lossy_cell && !strcmp(g->o->lossy_cell, id);
	gen_cell(g, mi, cfg);
	ret = write_cell_json(part, wlname, cfgname, rep, failed ? "failed" : "ok");
	if (!failed) {
		ret = ret ?: write_summary(part, g);
		ret = ret ?: write_group_csvs(part, g);
		ret = ret ?: write_histograms(part, g);
		ret = ret ?: write_intervals(part, g);
		ret = ret ?: write_workload(part, g, wlname);
	}
	if (!ret && rename(part, fin))
		ret = -errno;
	return ret;
}

static struct json_object *run_meta(const struct synth_opts *o)
{
	struct json_object *m = json_object_new_object();

	add_str(m, "kernel", o->kernel);
	add_str(m, "hostname", o->hostname);
	json_object_object_add(m, "cpus", json_object_new_int(NCPU));
	add_str(m, "cpu_model", "Synthetic CPU @ 2.0GHz");
	add_str(m, "preempt", "none");
	json_object_object_add(m, "hz", json_object_new_int(250));
	add_str(m, "nohz", "idle");
	add_str(m, "cmdline", o->cmdline);
	add_str(m, "governor", "");
	add_str(m, "version", DEFERBENCH_VERSION);
	add_str(m, "started", "2026-12-03T05:30:00Z");
	return m;
}

static void cell_entry(struct json_object *cells, const char *wl, const char *cfg,
		       unsigned int rep, const char *id)
{
	struct json_object *c = json_object_new_object();
	char dir[300];

	snprintf(dir, sizeof(dir), "cells/%s", id);
	add_str(c, "id", id);
	add_str(c, "workload", wl);
	add_str(c, "config", cfg);
	json_object_object_add(c, "rep", json_object_new_int((int)rep));
	add_str(c, "dir", dir);
	json_object_array_add(cells, c);
}

int synth_run(const char *dir, const struct synth_opts *o)
{
	struct json_object *root, *cells;
	struct cellgen *g;
	unsigned int w, c, r;
	char p[4096], id[256];
	int ret = 0;

	snprintf(p, sizeof(p), "%s/cells", dir);
	if (mkdir(dir, 0755) || mkdir(p, 0755))
		return -errno;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->o = o;
	/* hash the seed: splitmix's state advances additively, so seeds n and n + 1
	 * must not become neighbouring states of one sequence */
	g->rng = o->seed ^ 0x6a09e667f3bcc909ULL;
	g->rng = rnd(&g->rng) ^ rnd(&g->rng);
	root = json_object_new_object();
	cells = json_object_new_array();
	for (w = 0; !ret && o->workloads[w]; w++)
		for (c = 0; !ret && o->configs[c]; c++)
			for (r = 1; !ret && r <= o->reps; r++) {
				snprintf(id, sizeof(id), "%s--%s--r%u", o->workloads[w],
					 o->configs[c], r);
				ret = write_cell(dir, g, w, c, r, id);
				if (!ret)
					cell_entry(cells, o->workloads[w], o->configs[c], r, id);
			}
	free(g);
	if (!ret && o->partial) {
		snprintf(p, sizeof(p), "%s/cells/.partial-%s--%s--r%u", dir, o->workloads[0],
			 o->configs[0], o->reps + 1);
		ret = mkdir(p, 0755) ? -errno : 0;
	}
	add_str(root, "schema", "deferbench-run/1");
	json_object_object_add(root, "meta", run_meta(o));
	add_str(root, "scenario", "synthetic");
	json_object_object_add(root, "complete", json_object_new_boolean(!o->partial));
	json_object_object_add(root, "cells", cells);
	if (ret) {
		json_object_put(root);
		return ret;
	}
	return write_json(dir, "run.json", root);
}
