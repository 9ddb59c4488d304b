// SPDX-License-Identifier: GPL-2.0
/*
 * run_engine.c - the runner's backend on the real capture (capture.h) and workload
 * driver (workload.h): one measured workload, its configuration's loads, and a
 * system-wide capture per cell. Every workload is told before it starts that it
 * records nothing until the capture runs (wl_measure_from), so that its metrics and
 * the capture cover the same time, warm-up left out of both.
 */
#include "run_engine.h"
#include "result_files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "detail.h"
#include "msg.h"
#include "file.h"
#include "outw.h"
#include "sys.h"
#include "workload.h"

#define ENGINE_MAX_TYPES 32

struct engine_cell {
	struct wl_run *wl;			/* the measured workload */
	struct wl_run *load[SCN_MAX_LOADS];	/* background loads of the configuration,
						 * or of any arm of the segment */
	int load_sec[SCN_MAX_LOADS];		/* each one's [load] section */
	int nloads;
	struct capture *cap;
	bool capturing;
	bool paused;				/* alt: the capture-off arm's phase */
	int stop_err;				/* capture_stop()'s result, reported by write */
};

static const char *types[ENGINE_MAX_TYPES + 1];

/* engine_types - the registry's names, NULL-terminated */
static const char *const *engine_types(void)
{
	int i;

	if (types[0])
		return types;
	for (i = 0; i < ENGINE_MAX_TYPES && workload_registry[i]; i++)
		types[i] = workload_registry[i]->name;
	return types;
}

static bool has_option(const struct wl_run *w, const char *name)
{
	return wl_option_find(w->ops, name) != NULL;
}

static bool sets_option(const struct scn_workload *sw, const char *name)
{
	int i;

	for (i = 0; i < sw->nopts; i++)
		if (!strcmp(sw->opt[i].key, name))
			return true;
	return false;
}

/* set_one - one option, the message naming the file, line, section and key as written */
static int set_one(struct wl_run *w, const struct scenario *s, const char *sec,
		   const char *prefix, const struct scn_opt *o, char *err)
{
	char e[ERRBUF_LEN] = "";

	if (wl_set_option(w, o->key, o->value, e))
		return set_err(err, "%s:%d: [%s] %s%s: %s", s->file, o->line, sec, prefix, o->key, e);
	return 0;
}

/* set_options - [global] cpus, the section's options, then the config's overrides */
static int set_options(struct wl_run *w, const struct scenario *s, int wl, int cfg, char *err)
{
	const struct scn_workload *sw = &s->wl[wl];
	const struct scn_config *cf = &s->cfg[cfg];
	struct scn_opt cpus = { .key = "cpus", .line = 0 };
	char sec[SCN_NAME_MAX + 16], prefix[SCN_NAME_MAX + 8];
	int i;

	snprintf(sec, sizeof(sec), "%s %s", sw->load ? "load" : "workload", sw->name);
	if (s->cpus[0] && has_option(w, "cpus") && !sets_option(sw, "cpus")) {
		snprintf(cpus.value, sizeof(cpus.value), "%s", s->cpus);
		if (set_one(w, s, "global", "", &cpus, err))
			return -EINVAL;
	}
	for (i = 0; i < sw->nopts; i++)
		if (set_one(w, s, sec, "", &sw->opt[i], err))
			return -EINVAL;
	snprintf(sec, sizeof(sec), "config %s", cf->name);
	snprintf(prefix, sizeof(prefix), "opt.%s.", sw->name);
	for (i = 0; i < cf->nover; i++)
		if (cf->over[i].wl == wl && set_one(w, s, sec, prefix, &cf->over[i].opt, err))
			return -EINVAL;
	return 0;
}

/* new_wl - a workload instance with its options set; NULL with err filled */
static struct wl_run *new_wl(const struct scenario *s, int wl, int cfg, uint64_t seed,
			     char *err)
{
	const struct workload_ops *ops = workload_find(s->wl[wl].type);
	struct wl_run *w;

	if (!ops) {
		set_err(err, "no workload '%s' in this build", s->wl[wl].type);
		return NULL;
	}
	w = wl_new(ops);
	if (!w) {
		set_err(err, "%s: %s", s->wl[wl].name, strerror(errno));
		return NULL;
	}
	w->seed = seed;
	/* the workload's own per-interval histograms follow the capture's intervals */
	wl_intervals(w, s->cap.interval_ns);
	if (set_options(w, s, wl, cfg, err)) {
		wl_free(w);
		return NULL;
	}
	return w;
}

static int engine_check(const struct scenario *s, int wl, int cfg, char *err)
{
	struct wl_run *w = new_wl(s, wl, cfg, s->seed, err);
	char e[ERRBUF_LEN] = "";
	int ret;

	if (!w)
		return -EINVAL;
	/* what the machine must offer, found before the first cell (a tmpfs dir) */
	ret = wl_check(w, e);
	if (ret)
		set_err(err, "[%s %s] under [config %s]: %s", s->wl[wl].load ? "load" : "workload",
			s->wl[wl].name, s->cfg[cfg].name, e);
	wl_free(w);
	return ret;
}

/*
 * setup_wl - make and set up one workload (options of configuration cfg), its
 * measurement window announced
 */
static int setup_wl(const struct run_cell *c, int wl, int cfg, struct wl_run **out, char *err)
{
	char e[ERRBUF_LEN] = "";
	int ret;

	*out = new_wl(c->s, wl, cfg, c->cell->seed, err);
	if (!*out)
		return -EINVAL;
	ret = wl_measure_from(*out, WL_MEASURE_LATER);
	if (ret)
		return set_err(err, "[%s] measurement window: %s", c->s->wl[wl].name,
			       strerror(-ret)), ret;
	ret = wl_setup(*out, e);
	if (ret)
		set_err(err, "[%s] setup: %s", c->s->wl[wl].name, e[0] ? e : strerror(-ret));
	return ret;
}

/* load_cfg - the configuration whose options load l takes: the first arm running it */
static int load_cfg(const struct run_cell *c, int l)
{
	int a;

	for (a = 0; c->cell->alt && a < c->cell->narms; a++)
		if (scenario_cfg_runs_load(c->s, c->cell->arm[a].cfg, l))
			return c->cell->arm[a].cfg;
	return c->cell->cfg;
}

static int engine_setup(struct run_cell *c, char *err)
{
	const struct scenario *s = c->s;
	const struct scn_config *cf = &s->cfg[c->cell->cfg];
	struct capture_opts co = {
		.command = c->command,
		/* a segment's phases lie on the interval grid: see engine_start_capture */
		.align_intervals = c->cell->alt,
	};
	char intervals[PATH_MAX];
	struct engine_cell *e;
	int secs[SCN_MAX_LOADS], i, n, ret;

	capture_settings_apply(&s->cap, &co);
	if (s->cap.interval_ns) {
		snprintf(intervals, sizeof(intervals), "%s/intervals.csv", c->dir);
		co.intervals_csv = intervals;
	}

	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	c->priv = e;
	/* a segment: every load of its arms, paused in the phases of arms without it */
	if (c->cell->alt) {
		n = scenario_segment_loads(s, c->cell, secs);
	} else {
		n = cf->nloads;
		memcpy(secs, cf->loads, (size_t)n * sizeof(*secs));
	}
	for (i = 0; i < n; i++) {
		e->load_sec[e->nloads] = secs[i];
		ret = setup_wl(c, secs[i], load_cfg(c, secs[i]), &e->load[e->nloads], err);
		if (e->load[e->nloads])
			e->nloads++;
		if (ret)
			return ret;
	}
	ret = setup_wl(c, c->cell->wl, c->cell->cfg, &e->wl, err);
	if (ret || c->cell->control)
		return ret;	/* a control cell: the same, with no capture */
	e->cap = capture_new(&co, err);
	return e->cap ? 0 : (errno ? -errno : -EIO);
}

static int engine_start_load(struct run_cell *c, char *err)
{
	struct engine_cell *e = c->priv;
	char m[ERRBUF_LEN] = "";
	int i, ret;

	for (i = 0; i < e->nloads; i++) {
		ret = wl_start(e->load[i], m);
		if (ret)
			return set_err(err, "[load %s] start: %s", e->load[i]->ops->name, m), ret;
	}
	ret = wl_start(e->wl, m);
	if (ret)
		set_err(err, "[workload %s] start: %s", c->s->wl[c->cell->wl].name, m);
	return ret;
}

/*
 * window - step 'begin' (or set, at) of the window of the cell's i-th load, or of its
 * workload (i = nloads); a probe that failed to start fails the cell
 */
static int window(struct run_cell *c, int i, bool begin, uint64_t at, char *err)
{
	struct engine_cell *e = c->priv;
	bool load = i < e->nloads;
	struct wl_run *w = load ? e->load[i] : e->wl;
	const char *name = load ? w->ops->name : c->s->wl[c->cell->wl].name;
	int ret = begin ? wl_measure_begin(w) : wl_measure_at(w, at);

	if (!ret)
		return 0;
	if (wl_error(w))
		return set_err(err, "[%s %s] failed: %s", load ? "load" : "workload", name,
			       wl_error(w)), ret;
	return set_err(err, "[%s %s] measurement window: %s", load ? "load" : "workload", name,
		       strerror(-ret)), ret;
}

/*
 * engine_start_capture - tracing on, then the workloads' windows open: inside it; a
 * control cell opens the windows at the same point with nothing traced
 */
static int engine_start_capture(struct run_cell *c, char *err)
{
	struct engine_cell *e = c->priv;
	uint64_t at, iv = c->s->cap.interval_ns;
	int i, ret = e->cap ? capture_start(e->cap) : 0;

	if (ret)
		return set_err(err, "capture: %s", strerror(-ret)), ret;
	e->capturing = e->cap != NULL;
	/*
	 * a segment: the windows open on a multiple of the interval, where one of the
	 * capture's aligned intervals begins, so that the workloads' intervals and the
	 * capture's are the same and every phase (a multiple of the interval) holds whole
	 * intervals of both; at least a millisecond ahead, so that every window is set
	 * before it starts. All are set before any begins: a load's hook opening its window
	 * (netbg reads its drop counters: milliseconds) put the workload's window 46 us to
	 * 6 ms off the grid, and with it each phase's last interval out of its arm.
	 */
	at = c->cell->alt && iv ? ((now_ns() + NSEC_PER_MSEC) / iv + 1) * iv : now_ns();
	for (i = 0; !ret && i <= e->nloads; i++)
		ret = window(c, i, false, at, err);
	for (i = 0; !ret && i <= e->nloads; i++)
		ret = window(c, i, true, at, err);
	c->window_ns = at;
	return ret;
}

/*
 * live_value - the value of live option key of workload x under configuration cfg: the
 * configuration's opt.X.KEY, else the [workload]/[load] section's, else the default
 */
static const char *live_value(const struct scenario *s, int x, int cfg, const char *key,
			      const struct workload_ops *ops)
{
	const struct scn_config *cf = &s->cfg[cfg];
	const struct opt_desc *o;
	int i;

	for (i = 0; i < cf->nover; i++)
		if (cf->over[i].wl == x && !strcmp(cf->over[i].opt.key, key))
			return cf->over[i].opt.value;
	for (i = 0; i < s->wl[x].nopts; i++)
		if (!strcmp(s->wl[x].opt[i].key, key))
			return s->wl[x].opt[i].value;
	o = wl_option_find(ops, key);
	return o ? o->def : NULL;
}

/* switch_wl - w (workload x of the scenario) to cfg's value of each live option */
static int switch_wl(const struct run_cell *c, struct wl_run *w, int x, int cfg, char *err)
{
	const char *const *key;
	char e[ERRBUF_LEN] = "", cur[WL_STR_MAX];
	int ret;

	for (key = w->ops->live; key && *key; key++) {
		const char *want = live_value(c->s, x, cfg, *key, w->ops);
		const struct opt_desc *o = wl_option_find(w->ops, *key);

		if (!want || !o || (!wl_option_value(w, o, cur, sizeof(cur)) && !strcmp(cur, want)))
			continue;
		ret = wl_switch_option(w, *key, want, e);
		if (ret)
			return set_err(err, "[%s %s] %s = %s: %s", c->s->wl[x].load ? "load" :
				       "workload", c->s->wl[x].name, *key, want, e), ret;
	}
	return 0;
}

/*
 * engine_switch_arm - a segment's next phase: every workload of the cell to cfg's live
 * options (only those that differ are switched), the capture's events on or off
 */
static int engine_switch_arm(struct run_cell *c, int cfg, bool traced, char *err)
{
	struct engine_cell *e = c->priv;
	char m[ERRBUF_LEN] = "";
	int i, ret;

	for (i = 0; i < e->nloads; i++) {
		bool runs = scenario_cfg_runs_load(c->s, cfg, e->load_sec[i]);

		/* a load this arm does not run: paused (scenario_groups admitted only those) */
		ret = wl_pause(e->load[i], !runs, m);
		if (ret)
			return set_err(err, "[load %s] %s: %s", c->s->wl[e->load_sec[i]].name,
				       runs ? "resume" : "pause", m), ret;
		if (runs)
			ret = switch_wl(c, e->load[i], e->load_sec[i], cfg, err);
		if (ret)
			return ret;
	}
	ret = switch_wl(c, e->wl, c->cell->wl, cfg, err);
	if (ret || !e->capturing)
		return ret;
	ret = traced ? (e->paused ? capture_resume(e->cap) : 0) :
		       (!e->paused ? capture_pause(e->cap) : 0);
	if (ret)
		return set_err(err, "capture %s: %s", traced ? "resume" : "pause", strerror(-ret)),
		       ret;
	e->paused = !traced;
	return 0;
}

/*
 * engine_poll - a workload that failed while running ends the cell; also called after
 * stop, when a failure may have surfaced only then (a cyclictest started with the
 * window and gone before the end is found when it is stopped)
 */
static int engine_poll(struct run_cell *c, char *err)
{
	struct engine_cell *e = c->priv;
	const char *why;
	int i;

	for (i = 0; i < e->nloads; i++)
		if ((why = wl_error(e->load[i])))
			return set_err(err, "[load %s] failed: %s", e->load[i]->ops->name, why), -EIO;
	if ((why = wl_error(e->wl)))
		return set_err(err, "[workload %s] failed: %s", c->s->wl[c->cell->wl].name, why), -EIO;
	return 0;
}

static void engine_stop(struct run_cell *c)
{
	struct engine_cell *e = c->priv;
	int i;

	if (!e)
		return;
	if (e->capturing) {
		e->stop_err = capture_stop(e->cap);
		e->capturing = false;
	}
	if (e->wl)
		wl_stop(e->wl);
	for (i = e->nloads - 1; i >= 0; i--)
		wl_stop(e->load[i]);
}

/* engine_write - the capture's files, the workload's, and each load's in load-NAME/ */
static int engine_write(struct run_cell *c, const char *dir, char *err)
{
	struct engine_cell *e = c->priv;
	char sub[PATH_MAX];
	int i, ret;

	if (e->stop_err)
		return set_err(err, "capture stop: %s", strerror(-e->stop_err)), e->stop_err;
	ret = engine_poll(c, err);
	if (ret)
		return ret;
	ret = e->cap ? result_write_dir(capture_result(e->cap), dir) : 0;
	if (ret)
		return set_err(err, "writing the capture to %s: %s", dir, strerror(-ret)), ret;
	ret = wl_write_results(e->wl, dir);
	for (i = 0; !ret && i < e->nloads; i++) {
		snprintf(sub, sizeof(sub), "%s/load-%s", dir, c->s->wl[e->load_sec[i]].name);
		ret = out_mkdir_p(sub);
		if (!ret)
			ret = wl_write_results(e->load[i], sub);
	}
	if (ret)
		set_err(err, "writing workload results to %s: %s", dir, strerror(-ret));
	return ret;
}

static int engine_teardown(struct run_cell *c)
{
	struct engine_cell *e = c->priv;
	int i, ret;

	if (!e)
		return 0;
	engine_stop(c);
	if (e->wl)
		wl_free(e->wl);
	for (i = e->nloads - 1; i >= 0; i--)
		wl_free(e->load[i]);
	ret = capture_free(e->cap);
	free(e);
	c->priv = NULL;
	return ret;
}

static struct run_backend engine = {
	.check = engine_check,
	.setup = engine_setup,
	.start_load = engine_start_load,
	.start_capture = engine_start_capture,
	.poll = engine_poll,
	.switch_arm = engine_switch_arm,
	.live_option = workload_live_option,
	.pausable = workload_pausable,
	.stop = engine_stop,
	.write = engine_write,
	.teardown = engine_teardown,
};

const struct run_backend *run_engine(void)
{
	engine.types = engine_types();
	return &engine;
}
