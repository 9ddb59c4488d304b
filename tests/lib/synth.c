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
#include "common.h"

#define DEFERBENCH_ALLOW_SYNTH_INT_H
#include "synth_int.h"

const struct grp sirq_grps[] = {
	{ "TIMER", "", "", 4000, 3000, 1.0 },
	{ "NET_RX", "", "", 9000, 6000, 1.0 },
	{ "RCU", "", "", 6000, 2500, 0.5 },
	{ "SCHED", "", "", 3000, 1500, 0.4 },
	{ "NET_TX", "", "", 5000, 2000, 0.2 },
};

const struct grp wq_grps[] = {
	{ "events_unbound", "flush_to_ldisc", "unbound2", 30000, 8000, 0.5 },
	{ "kblockd", "blk_mq_run_work_fn", "cpu0H", 15000, 10000, 0.3 },
	{ "writeback", "wb_workfn", "unbound3", 60000, 40000, 0.1 },
	{ "events", "vmstat_update", "cpu0", 20000, 3000, 0.1 },
	{ "events", "vmstat_update", "cpu1", 22000, 3000, 0.1 },
};

const struct grp wake_pools[] = {
	{ "unbound2", "", "", 6000, 0, 0.5 },
	{ "cpu0H", "", "", 4000, 0, 0.3 },
	{ "cpu0", "", "", 8000, 0, 0.1 },
	{ "cpu1", "", "", 9000, 0, 0.1 },
};

#define KSOFTIRQD_WAKE_NS 12000		/* median wakeup latency of ksoftirqd */

static const struct {
	const char *workload, *metric, *desc;
	double median_ns;
} wl_metrics[] = {
	{ "net", "rtt", "UDP request/response round trip", 40000 },
	{ "tty", "delivery", "pty write to read", 25000 },
	{ "timer", "wakeup", "timer expiry to thread running", 60000 },
	{ "fsync", "fsync", "fsync() duration", 2000000 },
};

_Static_assert(sizeof(sirq_grps) / sizeof(sirq_grps[0]) == NSIRQ, "NSIRQ");
_Static_assert(sizeof(wq_grps) / sizeof(wq_grps[0]) == NWQ, "NWQ");
_Static_assert(sizeof(wake_pools) / sizeof(wake_pools[0]) == NWAKEP, "NWAKEP");

static const double config_scale[] = { 1.0, 0.75, 1.3, 0.9, 1.1 };

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

/*
 * gen_wakeups - thread wakeup latencies from a stream of their own, so that the other
 * groups draw the same values as before thread_wakeup existed
 */
static void gen_wakeups(struct cellgen *g)
{
	uint64_t rng = g->rng ^ 0x3c6ef372fe94f82bULL;
	unsigned int i, j, n;

	for (i = 0; i < NCPU; i++) {
		hist_init(&g->ksoftirqd_wake[i]);
		for (j = 0; j < g->o->samples / 20 + 5; j++)
			hist_add(&g->ksoftirqd_wake[i], draw(&rng, KSOFTIRQD_WAKE_NS * g->scale));
	}
	for (i = 0; i < NWAKEP; i++) {
		hist_init(&g->pool_wake[i]);
		n = (unsigned int)(g->o->samples * wake_pools[i].weight) + 20;
		for (j = 0; j < n; j++)
			hist_add(&g->pool_wake[i], draw(&rng, wake_pools[i].delay_ns * g->scale));
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
	for (i = 0; i < NWQ; i++) {
		g->wqg[i] = wq_grps[i];
		if (g->o->moved && !strcmp(wq_grps[i].func, "vmstat_update")) {
			g->wqg[i].name = "events_dfl";
			g->wqg[i].pool = strcmp(wq_grps[i].pool, "cpu0") ? "unbound5" : "unbound4";
			if (g->o->moved_slowdown > 0) {
				g->wqg[i].delay_ns *= g->o->moved_slowdown;
				g->wqg[i].run_ns *= g->o->moved_slowdown;
			}
		}
		gen_group(g, &g->wq[i], &g->wqg[i], false);
	}
	gen_wakeups(g);
	hist_init(&g->wl);
	for (i = 0; i < g->o->samples; i++)
		hist_add(&g->wl, draw(&g->rng, wl_metrics[wl].median_ns * g->scale));
	g->wl_metric = wl_metrics[wl].metric;
	g->wl_desc = wl_metrics[wl].desc;
}

static int write_cell_json(const char *dir, const char *wl, const char *cfg,
			   unsigned int rep, const char *status, const char *const *knobs)
{
	struct json_object *root = json_object_new_object(), *k = json_object_new_object();
	char key[128];

	add_str(root, "schema", "deferbench-cell/1");
	add_str(root, "workload", wl);
	add_str(root, "config", cfg);
	json_object_object_add(root, "rep", json_object_new_int((int)rep));
	add_str(k, "wq.writeback.nice", strstr(cfg, "nice") ? "-10" : "0");
	add_str(k, "net.threaded", strstr(cfg, "threaded") ? "1" : "0");
	for (; knobs && *knobs; knobs++) {
		const char *eq = strchr(*knobs, '=');

		if (!eq)
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - *knobs), *knobs);
		add_str(k, key, eq + 1);	/* replaces a key already there */
	}
	json_object_object_add(root, "knobs", k);
	if (!strncmp(cfg, "hog", 3)) {	/* "hog...": configurations that start a load */
		struct json_object *l = json_object_new_array();

		json_object_array_add(l, json_object_new_string("hog"));
		json_object_object_add(root, "loads", l);
	}
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
	ret = write_cell_json(part, wlname, cfgname, rep, failed ? "failed" : "ok", g->o->knobs);
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
