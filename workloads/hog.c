// SPDX-License-Identifier: GPL-2.0
/*
 * hog.c - CPU competition for deferred work: N threads that spin (or spin for a duty
 * share of every period and sleep the rest) at a chosen policy, nice or priority.
 *
 * What it records: each thread's achieved CPU share (thread CPU time / wall time), and
 * the gaps in its spin loop - two consecutive clock reads further apart than 'gap' mean
 * the thread was interrupted or preempted (hard irq, softirq, kworker, ksoftirqd) for
 * that long. A SCHED_FIFO/RR hog must have duty < 100: a 100% real-time spinner starves
 * every kworker and ksoftirqd on its CPU, and deferbench does not rely on RT throttling
 * (kernel.sched_rt_runtime_us) to rescue the machine.
 *
 * With a measurement window, a gap is recorded when it began inside it, and a share is
 * the thread's CPU time over the window: each thread reads its CPU clock the first
 * time it sees the window open (it cannot have run in between: it was either spinning
 * and saw it at once, or sleeping or preempted, using no CPU).
 *
 * A hog can be paused (the alternating design pauses it in the phases of arms that run
 * without it): its threads leave the spin loop and wait on a futex, using no CPU and
 * taking no timer. The time paused is left out of the share's wall time, a pause is
 * not a gap, and a duty-cycled hog restarts its cycle on resume.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "wl_thread.h"
#include "workload.h"
#include "msg.h"
#include "sys.h"

#define HOG_MAX_THREADS 32

enum { POL_OTHER, POL_BATCH, POL_IDLE, POL_FIFO, POL_RR };
static const char *const policy_names[] = { "other", "batch", "idle", "fifo", "rr", NULL };
static const int policy_values[] = { SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO,
				     SCHED_RR };

struct hog_cfg {
	uint64_t threads;
	cpu_set_t cpus;
	bool pin;
	int policy;
	int nice;
	int prio;
	double duty;
	uint64_t period_ns;
	uint64_t gap_ns;
};

struct hog_thread {
	struct wl_run *w;
	struct wl_thread t;
	struct hist gap;	/* this thread's own: merged at stop */
	struct ivhist gap_iv;
	bool measuring;		/* the window is open: cpu0, wall0 are valid */
	uint64_t cpu0, wall0;	/* thread CPU time, and the instant, at the window's start */
	uint64_t cpu_ns, wall_ns;
	uint64_t paused_ns;	/* of wall time since wall0, spent paused */
	char name[16];
};

struct hog_priv {
	int n;
	struct hog_thread th[HOG_MAX_THREADS];
	int m_gap, c_share0;
	int c_gaps, c_stolen;
};

static const struct opt_desc hog_options[] = {
	OPT_U64(0, NULL, hog_cfg, threads, "N", 0, HOG_MAX_THREADS,
		"spinning threads; 0 = one per CPU in 'cpus'", .key = "threads", .def = "0"),
	OPT_CPUSET(0, NULL, hog_cfg, cpus,
		   "CPUs the threads run on", .key = "cpus", .def = "all"),
	OPT_BOOL(0, NULL, hog_cfg, pin,
		 "pin thread i to the i-th CPU of 'cpus' (round robin); no = all float on "
		 "'cpus'", .key = "pin", .def = "yes"),
	OPT_ENUM(0, NULL, hog_cfg, policy, "WORD", policy_names, ARRAY_SIZE(policy_names) - 1,
		 "scheduling policy; fifo/rr need duty < 100 (RT throttling is not relied "
		 "on)", .key = "policy", .def = "other"),
	OPT_INT(0, NULL, hog_cfg, nice, "N", -20, 19,
		"nice value for policy other/batch", .key = "nice", .def = "0"),
	OPT_INT(0, NULL, hog_cfg, prio, "N", 1, 99,
		"real-time priority for policy fifo/rr", .key = "priority", .def = "1"),
	OPT_DOUBLE(0, NULL, hog_cfg, duty, "X", 1, 100,
		   "percent of each period spent spinning; the rest sleeping",
		   .key = "duty", .def = "100"),
	OPT_DURATION(0, NULL, hog_cfg, period_ns, "DUR", 100 * NSEC_PER_USEC, NSEC_PER_SEC,
		     "on/off cycle when duty < 100", .key = "period", .def = "10ms"),
	OPT_DURATION(0, NULL, hog_cfg, gap_ns, "DUR", NSEC_PER_USEC, NSEC_PER_SEC,
		     "a spin-loop gap longer than this is recorded", .key = "gap", .def = "10us"),
	OPT_END(),
};

/* nth_cpu - the n-th (mod count) CPU of set */
static int nth_cpu(const cpu_set_t *set, int n)
{
	int count = CPU_COUNT(set), cpu, seen = 0;

	n %= count;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set) && seen++ == n)
			return cpu;
	return -1;
}

static int check_cfg(const struct hog_cfg *c, char *errbuf)
{
	bool rt = c->policy == POL_FIFO || c->policy == POL_RR;

	if (rt && c->duty >= 100)
		return set_err(errbuf, "hog: policy=%s needs duty < 100 (e.g. duty=50): a 100%% "
			       "real-time spinner starves kworkers and ksoftirqd on its CPU",
			       policy_names[c->policy]);
	if (c->nice && c->policy != POL_OTHER && c->policy != POL_BATCH)
		return set_err(errbuf, "hog option 'nice' applies to policy other and batch, "
			       "not %s", policy_names[c->policy]);
	if (c->duty < 100 && (double)c->period_ns * c->duty / 100 < 50 * NSEC_PER_USEC)
		return set_err(errbuf, "hog: the on time (duty x period) is below 50us; "
			       "raise 'period' or 'duty'");
	return 0;
}

static int hog_setup(struct wl_run *w, char *errbuf)
{
	struct hog_cfg *c = w->cfg;
	struct hog_priv *p = w->priv;
	int i, ret;

	ret = check_cfg(c, errbuf);
	if (ret)
		return ret;
	p->n = c->threads ? (int)c->threads : CPU_COUNT(&c->cpus);
	if (p->n > HOG_MAX_THREADS)
		p->n = HOG_MAX_THREADS;
	p->m_gap = wl_metric_add(w, "gap", "ns",
		"consecutive clock reads in a hog's spin loop further apart than 'gap': time "
		"the thread was interrupted or preempted; CLOCK_MONOTONIC");
	for (i = 0; i < p->n; i++) {
		struct hog_thread *t = &p->th[i];

		t->w = w;
		hist_init(&t->gap);
		wl_ivhist_init(w, &t->gap_iv);
		snprintf(t->name, sizeof(t->name), "share_t%d", i);
		ret = wl_counter_add(w, t->name);
		if (ret < 0)
			return set_err(errbuf, "hog: too many counters");
		if (i == 0)
			p->c_share0 = ret;
	}
	p->c_gaps = wl_counter_add(w, "gaps");
	p->c_stolen = wl_counter_add(w, "gap_total_ns");
	return 0;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* window_check - at now, has the window opened? then take this thread's base */
static inline void window_check(struct hog_thread *t, uint64_t now, uint64_t started)
{
	uint64_t from;

	if (t->measuring)
		return;
	from = wl_window(t->w);
	if (now < from)
		return;
	t->measuring = true;
	t->cpu0 = thread_cpu_ns();
	t->wall0 = from > started ? from : started;
}

/* spin_until - busy loop to end, recording the gaps longer than gap_ns */
static void spin_until(struct hog_thread *t, uint64_t end, uint64_t gap_ns,
		       uint64_t started)
{
	uint64_t prev = now_ns(), now;

	while (!wl_stopping(t->w) && !wl_paused(t->w)) {
		now = now_ns();
		window_check(t, now, started);
		if (now - prev > gap_ns && t->measuring && prev >= t->wall0) {
			hist_add(&t->gap, now - prev);
			ivhist_add(&t->gap_iv, wl_window(t->w), prev, now - prev);
		}
		prev = now;
		if (now >= end)
			break;
	}
}

/*
 * pause_wait - while paused: wait; the part of the wait inside the window is left out
 * of the share's wall time (the window may have opened during it)
 */
static bool pause_wait(struct hog_thread *t, uint64_t started)
{
	uint64_t waited = wl_pause_wait(t->w), now;

	if (!waited)
		return false;
	now = now_ns();
	window_check(t, now, started);
	if (t->measuring)
		t->paused_ns += waited < now - t->wall0 ? waited : now - t->wall0;
	return true;
}

static void *hog_thread(void *arg)
{
	struct hog_thread *t = arg;
	struct hog_cfg *c = t->w->cfg;
	uint64_t started = now_ns(), on = (uint64_t)((double)c->period_ns * c->duty / 100);
	struct pace pc;

	window_check(t, started, started);
	pace_init(&pc, started, (double)c->period_ns);
	while (!wl_stopping(t->w)) {
		uint64_t start;

		if (pause_wait(t, started)) {
			pace_init(&pc, now_ns(), (double)c->period_ns);	/* a new cycle */
			continue;
		}
		if (c->duty >= 100) {
			spin_until(t, UINT64_MAX, c->gap_ns, started);
			continue;
		}
		start = pace_deadline(&pc, pc.k);
		if (wl_sleep_until(start) == -EINTR || wl_paused(t->w))
			continue;
		pc.k++;
		spin_until(t, start + on, c->gap_ns, started);
		wl_pace_skip(&pc, now_ns());	/* a preempted hog does not catch up */
	}
	if (t->measuring) {
		t->cpu_ns = thread_cpu_ns() - t->cpu0;
		t->wall_ns = now_ns() - t->wall0 - t->paused_ns;
	}
	return NULL;
}

/* hog_pause - the threads see w->paused (the driver's) in their loops: nothing to do */
static int hog_pause(struct wl_run *w __unused, bool paused __unused, char *errbuf __unused)
{
	return 0;
}

static int hog_start(struct wl_run *w, char *errbuf)
{
	struct hog_cfg *c = w->cfg;
	struct hog_priv *p = w->priv;
	struct wl_sched s = {
		.policy = policy_values[c->policy],
		.prio = c->prio,
		.nice = c->nice,
	};
	char name[16];
	cpu_set_t one;
	int i, ret;

	for (i = 0; i < p->n; i++) {
		const cpu_set_t *cpus = &c->cpus;

		if (c->pin) {
			CPU_ZERO(&one);
			CPU_SET(nth_cpu(&c->cpus, i), &one);
			cpus = &one;
		}
		snprintf(name, sizeof(name), "db-hog-%u", (unsigned int)i % 100);
		ret = wl_thread_start(&p->th[i].t, name, hog_thread, &p->th[i], &s, cpus, errbuf);
		if (ret)
			return ret;
	}
	return 0;
}

static void hog_stop(struct wl_run *w)
{
	struct hog_priv *p = w->priv;
	struct wl_metrics *m = &w->metrics;
	struct hist *gap = &m->metric[p->m_gap].hist;
	int i;

	for (i = 0; i < p->n; i++)
		wl_thread_join(&p->th[i].t);
	for (i = 0; i < p->n; i++) {
		struct hog_thread *t = &p->th[i];

		ivhist_finish(&t->gap_iv);
		wl_metric_merge(w, p->m_gap, &t->gap, &t->gap_iv);
		ivhist_free(&t->gap_iv);
		m->counter[p->c_share0 + i].value =
			t->wall_ns ? (double)t->cpu_ns / (double)t->wall_ns : 0;
	}
	m->counter[p->c_gaps].value = (double)gap->count;
	m->counter[p->c_stolen].value = (double)gap->sum;
}

static void hog_teardown(struct wl_run *w)
{
	struct hog_priv *p = w->priv;
	int i;

	/* threads are joined in stop; their interval histograms may remain */
	for (i = 0; i < p->n; i++)
		ivhist_free(&p->th[i].gap_iv);
}

const struct workload_ops hog_workload = {
	.name = "hog",
	.help = "spinning or bursty CPU hogs at a chosen policy/nice/priority: CPU share "
		"and preemption gaps",
	.options = hog_options,
	.cfg_size = sizeof(struct hog_cfg),
	.priv_size = sizeof(struct hog_priv),
	.setup = hog_setup,
	.start = hog_start,
	.stop = hog_stop,
	.teardown = hog_teardown,
	.pause = hog_pause,
};
