/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - load generators: one file per workload, one const ops table each,
 * registered in workloads/workload_registry.c. A single driver (workloads/wl_driver.c) owns the
 * lifecycle: options -> setup -> start -> (run for the duration) -> stop -> teardown.
 *
 * Workloads only record: into the histograms and counters of their struct wl_metrics.
 * Formatting (terminal, JSON, CSV) belongs to the driver.
 *
 * Conventions: 0 / -errno returns; setup and start may fill errbuf (ERRBUF_LEN) with a
 * message naming the option or resource at fault. stop and teardown must be safe to
 * call twice and after a partial setup: the driver calls them on every exit path.
 *
 * Using the driver (e.g. the scenario runner; bench/cli/cmd_load.c is the model):
 *   w = wl_new(workload_find("tty"));           NULL + errno on failure
 *   wl_set_option(w, "rate", "500", errbuf);    -EINVAL + message; before setup only
 *   wl_setup(w, errbuf); wl_start(w, errbuf);   on failure: wl_free(w), nothing left
 *   ... poll wl_error(w) while it runs ...
 *   wl_stop(w);                                 metrics and counters final from here
 *   wl_teardown(w);                             the machine as found
 *   wl_print(w, stdout); wl_write_results(w, dir);
 *   wl_free(w);                                 stops and tears down if not done yet
 * To leave a warm-up out of the metrics (the scenario runner does):
 *   wl_measure_from(w, WL_MEASURE_LATER);       before wl_start: record nothing yet
 *   wl_start(w, errbuf); ... warm-up ...
 *   wl_measure_from(w, now_ns());               the window opens: recording starts
 * Several runs may live in one process at once. The process must leave SIGRTMIN+1 to
 * the driver (it wakes worker threads for stop), must not ignore SIGCHLD or reap
 * children it did not start (timer's cyclictest), and should start workloads and open
 * their windows from its main thread (cyclictest gets PR_SET_PDEATHSIG, tied to the
 * forking thread).
 */
#ifndef DEFERBENCH_WORKLOAD_H
#define DEFERBENCH_WORKLOAD_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "hist.h"
#include "ivhist.h"
#include "opts.h"
#include "rundata.h"
#include "msg.h"

/* A workload's options: a table of the settings engine (opts.h), one entry per option,
 * each with its key (as a scenario section or `load --KEY` gives it), default, bounds
 * and help: OPT_U64(0, NULL, tty_cfg, rate, "N", 1, 20000, "...", .key = "rate",
 * .def = "1000"). Text options are char[WL_STR_MAX] (OPT_STRING_BUF). */
#define WL_STR_MAX 128

#define WL_MAX_METRICS 8
#define WL_MAX_COUNTERS 48	/* hog reports one share counter per thread */

/*
 * What a workload measures; the driver prints and writes it. Record with wl_record()
 * (one thread per metric), or keep a hist + ivhist per thread and wl_metric_merge()
 * them at stop: the whole window's histogram and one per interval of due time.
 */
struct wl_metric {
	const char *name;	/* "rtt", "wakeup", "fsync", ... */
	const char *unit;	/* "ns" */
	const char *desc;	/* which two instants, which clock */
	struct hist hist;
	struct ivhist iv;	/* per interval (wl_run.interval_ns) of the due time */
};

struct wl_counter {
	const char *name;	/* "sent", "xruns", "rate_asked", ... */
	double value;
};

struct wl_metrics {
	struct wl_metric metric[WL_MAX_METRICS];
	int nmetrics;
	struct wl_counter counter[WL_MAX_COUNTERS];
	int ncounters;
	/*
	 * Pacing: operations per second asked (0 = not a paced workload) and the counter
	 * holding the operations done. At stop the driver adds the counters "rate_asked"
	 * and "rate_achieved" (= that counter / measured time, wl_window_s()). Set with
	 * wl_rate().
	 */
	double rate_asked;
	int rate_counter;		/* -1 = none */
};

struct wl_run;

struct workload_ops {
	const char *name;
	const char *help;			/* one line */
	const struct opt_desc *options;		/* keyed entries, ended by OPT_END() */
	/*
	 * The metrics compare judges this workload by (fnmatch patterns of metric ids,
	 * NULL-terminated, at most PRIMARY_MAX): the latency its user feels, and the delay
	 * of the deferred work it drives. Written to workload.json.
	 */
	const char *const *primary;
	/*
	 * The deferred work it drives, wherever it runs (rundata.h struct wl_work): a
	 * metric work:<name>:... per entry, NULL-terminated list, at most WORK_MAX
	 */
	const struct wl_work *const *work;
	/* why the workload needs root, for the message when it is run without; NULL: not */
	const char *needs_root;
	/*
	 * check - optional: this machine can run the workload as its options say, checked
	 * before anything runs (run's preparation and --dry-run: a block 'dir' on tmpfs is
	 * found before the first cell); touches nothing. 0 or -errno with errbuf.
	 */
	int (*check)(const struct wl_run *w, char *errbuf);
	size_t cfg_size;			/* option values land here */
	size_t priv_size;			/* workload state, zeroed */
	int (*setup)(struct wl_run *w, char *errbuf);
	int (*start)(struct wl_run *w, char *errbuf);	/* returns once the load runs */
	void (*stop)(struct wl_run *w);		/* stop the load, join threads */
	void (*teardown)(struct wl_run *w);	/* remove everything setup created */
	/*
	 * measure - optional: the announced window just opened (wl_window(w)), called in
	 * the thread that called wl_measure_from(). For what cannot filter by deadline:
	 * start a probe (timer's cyclictest), read a kernel counter's base (net's veth
	 * drops). Failures go through wl_fail().
	 */
	void (*measure)(struct wl_run *w);
	/*
	 * live - optional, NULL-terminated: the options switch_option can change while the
	 * workload runs (the alternating design of a scenario switches them between
	 * phases); switch_option - make the running workload follow w->cfg's new value of
	 * key, check that it took effect, 0 or -errno with errbuf. Called from the thread
	 * that started it, never concurrently with start or stop.
	 */
	const char *const *live;
	int (*switch_option)(struct wl_run *w, const char *key, char *errbuf);
	/*
	 * pause - optional, for background loads: the running load stops loading the
	 * machine (its threads wait, no CPU, nothing sent) or starts again. The
	 * alternating design pauses a configuration's load in the phases of the arms
	 * that do not run it. The driver has set w->paused before the call; threads see
	 * it with wl_paused() and wait in wl_pause_wait(). Nothing is recorded for time
	 * spent paused (a paced load restarts its pacing: no backlog). 0 or -errno with
	 * errbuf; called from the thread that started the load.
	 */
	int (*pause)(struct wl_run *w, bool paused, char *errbuf);
};

/*
 * The measurement window. Every operation a workload schedules has an instant it is
 * due (its deadline); it is recorded - in histograms and counters alike - only when
 * that instant is at or after the window's start. The window ends when wl_stop() begins.
 * window_ns: 0 = the whole run (the default); WL_MEASURE_LATER = announced, nothing is
 * recorded until wl_measure_from() opens it; anything else = open since then.
 */
#define WL_MEASURE_LATER UINT64_MAX

/* One workload instance. */
struct wl_run {
	const struct workload_ops *ops;
	void *cfg;
	void *priv;
	struct wl_metrics metrics;
	uint64_t seed;
	uint64_t start_ns, stop_ns;	/* CLOCK_MONOTONIC: start returned, wl_stop began */
	uint64_t start_took_ns;		/* how long the workload's start ran */
	uint64_t window_ns;		/* see WL_MEASURE_LATER; atomic, read with wl_window() */
	uint64_t interval_ns;		/* per-interval histograms (default 1 s; wl_intervals) */
	unsigned int state;		/* driver-private */
	int stopping;			/* set by wl_stop before ops->stop; see wl_stopping() */
	int paused;			/* wl_pause(); see wl_paused() */
	int err;			/* first run-time failure (-errno), see wl_fail() */
	char errmsg[ERRBUF_LEN];
};

/*
 * The "command" workload (deferbench tune): command_spawn - argv in a session of its
 * own, deferbench the subreaper of what it leaves (proctree.h), its output kept in
 * *log_fd (a memfd); command_workload_adopt - the next command workload set up is that
 * process; command_workload_end - stop it and every process of its tree (SIGTERM, then
 * SIGKILL) if the workload did not, and close its output
 */
int command_spawn(char *const *argv, pid_t *pid, int *log_fd, char *errbuf);
void command_workload_adopt(pid_t pid, int log_fd);
/*
 * command_check - the adopted command still runs, every process of it in its session:
 * 0, or -ECHILD with what happened (and what it printed) in errbuf
 */
int command_check(char *errbuf);
void command_workload_end(void);

/* Registry (workloads/workload_registry.c). */
extern const struct workload_ops *const workload_registry[];
const struct workload_ops *workload_find(const char *name);

/* Driver (workloads/wl_driver.c). */
struct wl_run *wl_new(const struct workload_ops *ops);	/* options at their defaults */
int wl_set_option(struct wl_run *w, const char *key, const char *val, char *errbuf);
/* wl_check - ops->check with the options set (0 when the workload has none) */
int wl_check(const struct wl_run *w, char *errbuf);
int wl_setup(struct wl_run *w, char *errbuf);
int wl_start(struct wl_run *w, char *errbuf);
void wl_stop(struct wl_run *w);
void wl_teardown(struct wl_run *w);
void wl_free(struct wl_run *w);		/* stops and tears down first if needed */
/* wl_option_value - option o's effective value as text ("2500us", "64k", "0-1") */
int wl_option_value(const struct wl_run *w, const struct opt_desc *o, char *buf, size_t len);

/*
 * Results (wl_results.c, the one owner of these files): the terminal table, and
 * workload.json + workload-hist.csv written into dir and read back into rundata.h's
 * struct wl_data (hist_path may be NULL or a missing file: statistics only).
 */
#define WORKLOAD_SCHEMA "deferbench-workload/1"
void wl_print(const struct wl_run *w, FILE *f);
int wl_write_results(const struct wl_run *w, const char *dir);
int workload_load(const char *json_path, const char *hist_path, struct wl_data *wl,
		  char *errbuf);

/*
 * wl_error - the message of the first run-time failure of a running workload (a
 * thread that could not go on: cyclictest died, fsync failed), or NULL. Callers poll
 * it while the workload runs and stop early when it is set; results are then invalid.
 */
const char *wl_error(const struct wl_run *w);
/*
 * wl_switch_option - a live option (ops->live) of a running workload to val: checked
 * like wl_set_option, then switched (ops->switch_option); on failure the old value
 * stays in w->cfg. 0 or -errno with errbuf.
 */
int wl_switch_option(struct wl_run *w, const char *key, const char *val, char *errbuf);
/* workload_live_option - can a workload of type name switch key while it runs? */
bool workload_live_option(const char *name, const char *key);
/*
 * wl_pause - pause (or resume) a running load (ops->pause); pausing a paused load is a
 * no-op. 0, or -EOPNOTSUPP / the workload's -errno with errbuf.
 */
int wl_pause(struct wl_run *w, bool paused, char *errbuf);
/* workload_pausable - can a workload of type name be paused while it runs (wl_pause)? */
bool workload_pausable(const char *name);
/* wl_option_renamed - the option's new name when key is an old one of ops, else NULL */
const char *wl_option_renamed(const struct workload_ops *ops, const char *key);
/* wl_option_find - the option called name, or NULL */
const struct opt_desc *wl_option_find(const struct workload_ops *ops, const char *name);
/* wl_list - every workload with its options (type, default, bounds, help) */
void wl_list(FILE *f, const struct workload_ops *only);

/*
 * For workloads: declare a metric or counter (returns its index, or -ENOSPC) and
 * record into it: w->metrics.metric[i].hist, w->metrics.counter[i].value. Names and
 * descriptions are not copied: they must live until wl_free (string literals, or
 * buffers in the workload's priv).
 */
int wl_metric_add(struct wl_run *w, const char *name, const char *unit, const char *desc);
int wl_counter_add(struct wl_run *w, const char *name);
/* wl_intervals - the interval of the per-interval histograms (before wl_setup; 0: none) */
void wl_intervals(struct wl_run *w, uint64_t ns);
/* wl_ivhist_init - a thread's own ivhist with the run's interval (merged at stop) */
void wl_ivhist_init(const struct wl_run *w, struct ivhist *iv);
/*
 * wl_metric_merge - a thread's own histogram and intervals into metric i (at stop);
 * iv may be NULL (no intervals: the metric then has none to write either)
 */
void wl_metric_merge(struct wl_run *w, int i, const struct hist *h, const struct ivhist *iv);
/* wl_rate - declare a paced workload: asked ops/s, and the counter counting them */
void wl_rate(struct wl_run *w, int counter, double asked);
/*
 * wl_measure_from - the measurement window. Before wl_start, only t_ns =
 * WL_MEASURE_LATER: announce a window, so that nothing is recorded and probes that
 * cannot filter by deadline (timer's cyclictest) are not started until it opens.
 * While the run goes (once, announced): open it at t_ns, or now if t_ns is past; a
 * future t_ns returns at t_ns. Operations due from then on are recorded, the rate is
 * computed over [open, stop]. A window cannot open on a run that already records:
 * operations in flight would be counted by one thread (the sender) and not the other.
 * Returns 0, -EINVAL when misused, or the run-time failure of the workload (wl_error()
 * says why) if opening failed.
 */
int wl_measure_from(struct wl_run *w, uint64_t t_ns);
/*
 * wl_measure_from in two steps, for windows that must open at one instant together:
 * wl_measure_at sets the window (as wl_measure_from; returns at once), wl_measure_begin
 * waits for its start and runs the workload's measure hook (once; -EINVAL without a
 * window set). Set every window first, then begin each.
 */
int wl_measure_at(struct wl_run *w, uint64_t t_ns);
int wl_measure_begin(struct wl_run *w);
/* wl_window - the window's start as recording sites see it (one relaxed load) */
static inline uint64_t wl_window(const struct wl_run *w)
{
	return __atomic_load_n(&w->window_ns, __ATOMIC_RELAXED);
}
/* wl_in_window - record an operation due at t_ns? */
static inline bool wl_in_window(const struct wl_run *w, uint64_t t_ns)
{
	return t_ns >= wl_window(w);
}
/*
 * wl_window_bounds - after wl_stop: the interval the metrics cover, [*from, *until]
 * (CLOCK_MONOTONIC); empty (from == until) when an announced window never opened.
 */
void wl_window_bounds(const struct wl_run *w, uint64_t *from, uint64_t *until);
/* wl_window_s - seconds the metrics cover; wl_warmup_s - seconds run before that */
double wl_window_s(const struct wl_run *w);
double wl_warmup_s(const struct wl_run *w);

/*
 * wl_record - value v of an operation of metric i due at t_due (inside the window):
 * into the metric's histogram and its interval's. One recording thread per metric.
 */
static inline void wl_record(struct wl_run *w, int i, uint64_t t_due, uint64_t v)
{
	struct wl_metric *m = &w->metrics.metric[i];

	hist_add(&m->hist, v);
	ivhist_add(&m->iv, wl_window(w), t_due, v);
}

/* wl_stopping - worker loops poll this; true once wl_stop() began */
static inline bool wl_stopping(const struct wl_run *w)
{
	return __atomic_load_n(&w->stopping, __ATOMIC_ACQUIRE);
}
/*
 * wl_stop_ns - the window's end, for a worker that saw wl_stopping(): wl_stop() sets
 * it right after the flag (a few instructions; the wait yields if it was preempted)
 */
static inline uint64_t wl_stop_ns(const struct wl_run *w)
{
	uint64_t t;

	while (!(t = __atomic_load_n(&w->stop_ns, __ATOMIC_ACQUIRE)))
		sched_yield();
	return t;
}
/* wl_paused - worker loops of a pausable load poll this; true while wl_pause()d */
static inline bool wl_paused(const struct wl_run *w)
{
	return __atomic_load_n(&w->paused, __ATOMIC_ACQUIRE);
}
/*
 * wl_pause_wait - in a worker thread: wait while the load is paused (in slices of a
 * millisecond, so that a resume or a stop is seen at once). Returns the nanoseconds
 * waited (0 when not paused).
 */
uint64_t wl_pause_wait(const struct wl_run *w);
/* wl_fail - record a run-time failure from any thread (the first one wins) */
void wl_fail(struct wl_run *w, int err, const char *fmt, ...) __printf(3, 4);

#endif
