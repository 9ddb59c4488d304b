// SPDX-License-Identifier: GPL-2.0
/*
 * timer.c - timer wakeups: cyclictest as the probe, plus timer load of both kinds.
 *
 * - probe: cyclictest (rt-tests), one thread per CPU, measures how late a
 *   clock_nanosleep wakeup is; its 1 us histogram is read back as metric "wakeup".
 *   Its histogram covers its whole life and cannot be cut at a deadline, so with an
 *   announced measurement window it is started when the window opens, not at start.
 * - hrtimer load: threads sleeping on absolute deadlines at chosen periods (timer
 *   slack 1 ns, so each sleep is a real hrtimer expiring in hard irq context).
 * - timer-wheel load: threads blocked in recv() on an idle AF_UNIX datagram socket
 *   with SO_RCVTIMEO set to the time left to their next deadline. A socket timeout is
 *   schedule_timeout(): a timer_list on the timer wheel, expired by the TIMER softirq,
 *   which is the load wanted. (timerfd, nanosleep, poll and epoll timeouts are all
 *   hrtimers, so they cannot make TIMER softirq work.) The wheel rounds a timeout up
 *   to whole jiffies plus one, so each thread is kept at <= 50 expiries/s (20 ms, two
 *   jiffies even at HZ=100) and as many threads are used as the rate needs.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cyclictest.h"
#include "wl_thread.h"
#include "workload.h"
#include "msg.h"
#include "parse.h"
#include "sys.h"

#define TIMER_MAX_LOAD 64
#define TIMER_MAX_PERIODS 16
#define TIMER_MIN_PERIOD_NS (50 * NSEC_PER_USEC)
#define WHEEL_PER_THREAD 50	/* expiries per second and thread: 20 ms >= 2 jiffies at HZ=100 */
#define WHEEL_MAX_THREADS 64

struct timer_cfg {
	bool probe;
	int prio;
	uint64_t interval_ns;
	cpu_set_t cpus;
	uint64_t maxlat_ns;
	bool pmqos;
	uint64_t threads;
	char periods[WL_STR_MAX];
	uint64_t wheel_rate;
	cpu_set_t load_cpus;
};

/* one load thread: hrtimer or wheel */
struct timer_load {
	struct wl_run *w;
	struct wl_thread t;
	double period_ns;
	uint64_t first_ns;	/* first deadline: threads are spread over the period */
	int sock[2];		/* wheel: the idle socket pair */
	struct hist late;	/* merged at stop */
	struct ivhist late_iv;
	uint64_t expiries;
};

struct timer_priv {
	struct cyclictest ct;
	struct cyclictest_opts ct_opts;
	bool ct_ready;
	uint64_t periods[TIMER_MAX_PERIODS];
	int nperiods;
	int nwheel;
	struct timer_load *hr;		/* cfg->threads of them */
	struct timer_load *wheel;	/* nwheel of them */
	int m_wakeup, m_load, m_wheel;
	int c_cycles, c_overflows, c_probe_asked, c_probe_got, c_load, c_load_asked, c_load_got;
	int c_wheel, c_wheel_asked, c_wheel_got;
};

static const struct opt_desc timer_options[] = {
	OPT_BOOL(0, NULL, timer_cfg, probe,
		 "run cyclictest (rt-tests) as the wakeup probe", .key = "probe", .def = "yes"),
	OPT_INT(0, NULL, timer_cfg, prio, "N", 0, 99,
		"cyclictest's SCHED_FIFO priority; 0 = SCHED_OTHER",
		.key = "priority", .def = "80"),
	OPT_DURATION(0, NULL, timer_cfg, interval_ns, "DUR", 100 * NSEC_PER_USEC, NSEC_PER_SEC,
		     "cyclictest's wakeup period (its -i; load's -i, --interval is the "
		     "histograms')", .key = "period", .def = "1ms"),
	OPT_CPUSET(0, NULL, timer_cfg, cpus,
		   "one cyclictest thread pinned on each of these CPUs",
		   .key = "cpus", .def = "all"),
	OPT_DURATION(0, NULL, timer_cfg, maxlat_ns, "DUR", NSEC_PER_MSEC, 100 * NSEC_PER_MSEC,
		     "cyclictest histogram range; later wakeups count as overflows, at "
		     "the max", .key = "maxlat", .def = "10ms"),
	OPT_BOOL(0, NULL, timer_cfg, pmqos,
		 "let cyclictest hold /dev/cpu_dma_latency at 0 (changes every CPU's idle "
		 "states)", .key = "pmqos", .def = "no"),
	OPT_U64(0, NULL, timer_cfg, threads, "N", 0, TIMER_MAX_LOAD,
		"hrtimer load threads (SCHED_OTHER)", .key = "threads", .def = "2"),
	OPT_STRING_BUF(0, NULL, timer_cfg, periods, "TEXT",
		       "hrtimer load periods, comma-separated, given round robin to the "
		       "threads (>= 50us)", .key = "periods", .def = "250us,1ms"),
	OPT_U64(0, NULL, timer_cfg, wheel_rate, "N", 0, WHEEL_PER_THREAD * WHEEL_MAX_THREADS,
		"timer-wheel (TIMER softirq) expiries per second, from socket timeouts; 0 "
		"= none", .key = "wheel_rate", .def = "1000"),
	OPT_CPUSET(0, NULL, timer_cfg, load_cpus,
		   "CPUs of the load threads (pinned round robin)",
		   .key = "load_cpus", .def = "all"),
	OPT_END(),
};

/* parse_periods - "250us,1ms" into ns, each at least TIMER_MIN_PERIOD_NS */
static int parse_periods(const char *s, uint64_t *out, int *n, char *errbuf)
{
	char copy[WL_STR_MAX], why[ERRBUF_LEN], *save, *tok;

	*n = 0;
	snprintf(copy, sizeof(copy), "%s", s);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n >= TIMER_MAX_PERIODS)
			return set_err(errbuf, "timer option 'periods': more than %d periods",
				       TIMER_MAX_PERIODS);
		if (parse_duration_ns(tok, &out[*n], why))
			return set_err(errbuf, "timer option 'periods': %s", why);
		if (out[*n] < TIMER_MIN_PERIOD_NS || out[*n] > NSEC_PER_SEC)
			return set_err(errbuf, "timer option 'periods': %s is out of range "
				       "[50us, 1s]", tok);
		(*n)++;
	}
	if (!*n)
		return set_err(errbuf, "timer option 'periods': no period given");
	return 0;
}

static void add_metrics(struct wl_run *w, struct timer_priv *p)
{
	p->m_wakeup = wl_metric_add(w, "wakeup", "ns",
		"cyclictest (started when the measurement window opens): absolute "
		"clock_nanosleep deadline -> thread running, CLOCK_MONOTONIC; 1 us resolution "
		"(truncated by cyclictest)");
	p->m_load = wl_metric_add(w, "load_wakeup", "ns",
		"hrtimer load threads: absolute deadline -> clock_nanosleep returned; "
		"CLOCK_MONOTONIC");
	p->m_wheel = wl_metric_add(w, "wheel_wakeup", "ns",
		"timer-wheel load: deadline -> recv() timed out; includes the wheel's rounding "
		"up to whole jiffies (typically 1-2); CLOCK_MONOTONIC");
	p->c_cycles = wl_counter_add(w, "cycles");
	p->c_overflows = wl_counter_add(w, "overflows");
	p->c_probe_asked = wl_counter_add(w, "probe_rate_asked");
	p->c_probe_got = wl_counter_add(w, "probe_rate_achieved");
	p->c_load = wl_counter_add(w, "load_wakeups");
	p->c_load_asked = wl_counter_add(w, "load_rate_asked");
	p->c_load_got = wl_counter_add(w, "load_rate_achieved");
	p->c_wheel = wl_counter_add(w, "wheel_expiries");
	p->c_wheel_asked = wl_counter_add(w, "wheel_rate_asked");
	p->c_wheel_got = wl_counter_add(w, "wheel_rate_achieved");
}

/* setup_loads - the load thread slots, and the wheel threads' idle sockets */
static int setup_loads(struct wl_run *w, struct timer_cfg *c, struct timer_priv *p,
		       char *errbuf)
{
	double hr_rate = 0;
	int i;

	p->nwheel = (int)((c->wheel_rate + WHEEL_PER_THREAD - 1) / WHEEL_PER_THREAD);
	p->hr = calloc(c->threads ? c->threads : 1, sizeof(*p->hr));
	p->wheel = calloc(p->nwheel ? p->nwheel : 1, sizeof(*p->wheel));
	if (!p->hr || !p->wheel)
		return set_err(errbuf, "timer: out of memory");
	for (i = 0; i < (int)c->threads; i++) {
		p->hr[i].w = w;
		p->hr[i].period_ns = (double)p->periods[i % p->nperiods];
		hist_init(&p->hr[i].late);
		wl_ivhist_init(w, &p->hr[i].late_iv);
		hr_rate += 1e9 / p->hr[i].period_ns;
	}
	for (i = 0; i < p->nwheel; i++)
		p->wheel[i].sock[0] = p->wheel[i].sock[1] = -1;
	for (i = 0; i < p->nwheel; i++) {
		struct timer_load *l = &p->wheel[i];

		l->w = w;
		l->period_ns = 1e9 * p->nwheel / (double)c->wheel_rate;
		hist_init(&l->late);
		wl_ivhist_init(w, &l->late_iv);
		if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, l->sock)) {
			l->sock[0] = l->sock[1] = -1;
			return set_err(errbuf, "timer: socketpair: %s", strerror(errno));
		}
	}
	w->metrics.counter[p->c_load_asked].value = hr_rate;
	w->metrics.counter[p->c_wheel_asked].value = (double)c->wheel_rate;
	return 0;
}

static int timer_setup(struct wl_run *w, char *errbuf)
{
	struct timer_cfg *c = w->cfg;
	struct timer_priv *p = w->priv;
	int ret;

	ret = parse_periods(c->periods, p->periods, &p->nperiods, errbuf);
	if (ret)
		return ret;
	if (!c->probe && !c->threads && !c->wheel_rate)
		return set_err(errbuf, "timer: nothing to run (probe=no, threads=0, "
			       "wheel_rate=0)");
	add_metrics(w, p);
	if (c->probe) {
		ret = cyclictest_prepare(&p->ct, errbuf);
		if (ret)
			return ret;
		p->ct_ready = true;
		w->metrics.counter[p->c_probe_asked].value =
			CPU_COUNT(&c->cpus) * 1e9 / (double)c->interval_ns;
	}
	return setup_loads(w, c, p, errbuf);
}

/* load_record - how late the wakeup for deadline came, now */
static void load_record(struct timer_load *l, uint64_t deadline)
{
	uint64_t late = pace_late(deadline, now_ns());

	hist_add(&l->late, late);
	ivhist_add(&l->late_iv, wl_window(l->w), deadline, late);
	l->expiries++;
}

/* hrtimer_thread - sleep to each absolute deadline; record how late the wakeup is */
static void *hrtimer_thread(void *arg)
{
	struct timer_load *l = arg;
	uint64_t deadline;
	struct pace pc;

	pace_init(&pc, l->first_ns, l->period_ns);
	while (!wl_stopping(l->w)) {
		deadline = pace_deadline(&pc, pc.k);
		if (wl_sleep_until(deadline) == -EINTR)
			continue;
		/* stopped while asleep: this deadline lies past the window's end */
		if (wl_stopping(l->w))
			break;
		if (wl_in_window(l->w, deadline))
			load_record(l, deadline);
		pc.k++;
		wl_pace_skip(&pc, now_ns());	/* load, not a measurement: no catching up */
	}
	return NULL;
}

/* wheel_wait - recv() with SO_RCVTIMEO = time left to deadline (at least 1 us: 0 = forever) */
static int wheel_wait(struct timer_load *l, uint64_t deadline)
{
	uint64_t now = now_ns(), left = deadline > now + NSEC_PER_USEC ? deadline - now :
				       NSEC_PER_USEC;
	struct timeval tv = {
		.tv_sec = (time_t)(left / NSEC_PER_SEC),
		.tv_usec = (suseconds_t)((left % NSEC_PER_SEC) / NSEC_PER_USEC),
	};
	char b;

	if (setsockopt(l->sock[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return -errno;
	if (recv(l->sock[0], &b, 1, 0) >= 0)
		return 0;	/* nobody sends; treat as a wakeup anyway */
	return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
}

static void *wheel_thread(void *arg)
{
	struct timer_load *l = arg;
	uint64_t deadline;
	struct pace pc;
	int ret;

	pace_init(&pc, l->first_ns, l->period_ns);
	while (!wl_stopping(l->w)) {
		deadline = pace_deadline(&pc, pc.k);
		ret = wheel_wait(l, deadline);
		if (ret == -EINTR)
			continue;
		if (ret) {
			wl_fail(l->w, ret, "timer: socket timeout wait: %s", strerror(-ret));
			break;
		}
		if (wl_in_window(l->w, deadline))
			load_record(l, deadline);
		pc.k++;
		wl_pace_skip(&pc, now_ns());
	}
	return NULL;
}

/*
 * start_loads - n threads of fn, pinned round robin over cpus, their first deadlines
 * spread over their period so that their expiries do not all land in the same tick
 */
static int start_loads(struct timer_load *l, int n, const char *what, void *(*fn)(void *),
		       const cpu_set_t *cpus, char *errbuf)
{
	uint64_t base = now_ns() + 10 * NSEC_PER_MSEC;

	struct wl_sched s = { .policy = SCHED_OTHER, .slack_ns = 1 };
	int i, cpu, k, ncpu = CPU_COUNT(cpus);
	char name[16];
	cpu_set_t one;

	for (i = 0; i < n; i++) {
		for (cpu = 0, k = -1; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, cpus) && ++k == i % ncpu)
				break;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		l[i].first_ns = base + (uint64_t)(l[i].period_ns * i / n);
		snprintf(name, sizeof(name), "db-%s-%d", what, i);
		if (wl_thread_start(&l[i].t, name, fn, &l[i], &s, &one, errbuf))
			return -EAGAIN;
	}
	return 0;
}

/* timer_start - the loads; the probe too, unless it waits for an announced window */
static int timer_start(struct wl_run *w, char *errbuf)
{
	struct timer_cfg *c = w->cfg;
	struct timer_priv *p = w->priv;
	int ret;

	p->ct_opts = (struct cyclictest_opts){
		.prio = c->prio,
		.interval_ns = c->interval_ns,
		.cpus = c->cpus,
		.maxlat_ns = c->maxlat_ns,
		.pmqos = c->pmqos,
	};
	if (c->probe && wl_window(w) != WL_MEASURE_LATER) {
		ret = cyclictest_spawn(&p->ct, &p->ct_opts, errbuf);
		if (!ret)
			ret = cyclictest_check_start(&p->ct, errbuf);
		if (ret)
			return ret;
	}
	ret = start_loads(p->hr, (int)c->threads, "hrt", hrtimer_thread, &c->load_cpus, errbuf);
	if (ret)
		return ret;
	return start_loads(p->wheel, p->nwheel, "wheel", wheel_thread, &c->load_cpus, errbuf);
}

/*
 * timer_measure - the window opened: start the probe now. No 100 ms start check here,
 * the caller is opening windows and starting a capture: a cyclictest that exits at
 * once is reported at stop, with its stderr.
 */
static void timer_measure(struct wl_run *w)
{
	struct timer_cfg *c = w->cfg;
	struct timer_priv *p = w->priv;
	char errbuf[ERRBUF_LEN];

	if (!c->probe || !p->ct_ready || p->ct.spawn_ns)
		return;
	if (cyclictest_spawn(&p->ct, &p->ct_opts, errbuf))
		wl_fail(w, -EIO, "%s", errbuf);
}

/* join_loads - join and merge n load threads into metric; returns their expiries */
static uint64_t join_loads(struct wl_run *w, struct timer_load *l, int n, int metric)
{
	uint64_t total = 0;
	int i;

	for (i = 0; i < n; i++)
		wl_thread_join(&l[i].t);
	for (i = 0; i < n; i++) {
		ivhist_finish(&l[i].late_iv);
		wl_metric_merge(w, metric, &l[i].late, &l[i].late_iv);
		ivhist_free(&l[i].late_iv);
		total += l[i].expiries;
	}
	return total;
}

static void timer_stop(struct wl_run *w)
{
	struct timer_cfg *c = w->cfg;
	struct timer_priv *p = w->priv;
	struct wl_metrics *m = &w->metrics;
	char errbuf[ERRBUF_LEN];
	uint64_t cycles = 0, over = 0;
	double secs;

	if (p->ct_ready && p->ct.spawn_ns) {	/* it was started */
		if (cyclictest_stop(&p->ct, errbuf) ||
		    cyclictest_read(&p->ct, &m->metric[p->m_wakeup].hist, &cycles, &over,
				    errbuf))
			wl_fail(w, -EIO, "%s", errbuf);
	}
	m->counter[p->c_cycles].value = (double)cycles;
	if (p->ct.term_ns > p->ct.spawn_ns)	/* cyclictest's own lifetime */
		m->counter[p->c_probe_got].value =
			(double)cycles * 1e9 / (double)(p->ct.term_ns - p->ct.spawn_ns);
	m->counter[p->c_overflows].value = (double)over;
	m->counter[p->c_load].value = (double)join_loads(w, p->hr, (int)c->threads, p->m_load);
	m->counter[p->c_wheel].value = (double)join_loads(w, p->wheel, p->nwheel, p->m_wheel);
	secs = wl_window_s(w);
	m->counter[p->c_load_got].value = secs > 0 ? m->counter[p->c_load].value / secs : 0;
	m->counter[p->c_wheel_got].value = secs > 0 ? m->counter[p->c_wheel].value / secs : 0;
}

static void timer_teardown(struct wl_run *w)
{
	struct timer_priv *p = w->priv;
	int i;

	if (p->ct_ready)
		cyclictest_cleanup(&p->ct);
	p->ct_ready = false;
	for (i = 0; p->wheel && i < p->nwheel; i++) {
		if (p->wheel[i].sock[0] >= 0)
			close(p->wheel[i].sock[0]);
		if (p->wheel[i].sock[1] >= 0)
			close(p->wheel[i].sock[1]);
		ivhist_free(&p->wheel[i].late_iv);
	}
	for (i = 0; p->hr && i < (int)((struct timer_cfg *)w->cfg)->threads; i++)
		ivhist_free(&p->hr[i].late_iv);
	free(p->hr);
	free(p->wheel);
	p->hr = p->wheel = NULL;
}

/* what compare judges timer by: cyclictest's wakeup (real-time), the hrtimer load's (an ordinary task), and the TIMER softirq */
/*
 * cyclictest's wakeup comes as one histogram (no intervals: an alternating run cannot
 * split it by phase); the load threads' wakeup and the TIMER softirq are recorded
 * sample by sample
 */
static const char *const timer_primary[] = {
	"workload:wakeup:p99", "workload:load_wakeup:p50", "workload:load_wakeup:p90",
	"workload:load_wakeup:p99", "softirq:TIMER:delay:p50", "softirq:TIMER:delay:p90",
	"softirq:TIMER:delay:p99",
	NULL,
};

const struct workload_ops timer_workload = {
	.name = "timer",
	.needs_root = "cyclictest runs at a real-time priority with its memory locked",
	.help = "cyclictest wakeup probe plus hrtimer and timer-wheel (TIMER softirq) load",
	.options = timer_options,
	.primary = timer_primary,
	.cfg_size = sizeof(struct timer_cfg),
	.priv_size = sizeof(struct timer_priv),
	.setup = timer_setup,
	.start = timer_start,
	.stop = timer_stop,
	.teardown = timer_teardown,
	.measure = timer_measure,
};
