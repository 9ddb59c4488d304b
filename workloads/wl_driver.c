// SPDX-License-Identifier: GPL-2.0
/*
 * wl_driver.c - the one owner of a workload's lifecycle: options -> setup -> start ->
 * stop -> teardown. Every step checks the state so stop and teardown run exactly once
 * whatever failed before them, and wl_free() undoes whatever was done.
 * Options are the settings engine's (wl_options.c), formatting of results wl_results.c's.
 */
#include "workload.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wl_thread.h"
#include "msg.h"
#include "sys.h"

/* state bits: what has been done and must be undone */
enum {
	WL_SETUP_DONE = 1 << 0,		/* ops->setup was called (maybe failed) */
	WL_STARTED = 1 << 1,		/* ops->start was called (maybe failed) */
	WL_STOPPED = 1 << 2,		/* ops->stop ran */
	WL_TORN_DOWN = 1 << 3,		/* ops->teardown ran */
	WL_SETUP_OK = 1 << 4,		/* ops->setup succeeded */
	WL_MEASURING = 1 << 5,		/* wl_measure_begin ran: the window is open */
};

struct wl_run *wl_new(const struct workload_ops *ops)
{
	char errbuf[ERRBUF_LEN];
	struct wl_run *w;

	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->ops = ops;
	w->seed = 1;
	w->interval_ns = NSEC_PER_SEC;
	w->metrics.rate_counter = -1;
	w->cfg = calloc(1, ops->cfg_size ? ops->cfg_size : 1);
	w->priv = calloc(1, ops->priv_size ? ops->priv_size : 1);
	if (!w->cfg || !w->priv)
		goto out_free;
	/* a default that does not parse is a bug in the workload's table */
	if (ops->options && opts_defaults(ops->options, w->cfg, errbuf)) {
		err_msg("%s: bad default: %s", ops->name, errbuf);
		errno = EINVAL;
		goto out_free;
	}
	return w;
out_free:
	free(w->cfg);
	free(w->priv);
	free(w);
	return NULL;
}

int wl_check(const struct wl_run *w, char *errbuf)
{
	return w->ops->check ? w->ops->check(w, errbuf) : 0;
}

int wl_setup(struct wl_run *w, char *errbuf)
{
	int ret;

	if (w->state)
		return set_err(errbuf, "%s: setup called twice", w->ops->name);
	w->state |= WL_SETUP_DONE;
	errbuf[0] = '\0';
	ret = w->ops->setup(w, errbuf);
	if (!ret)
		w->state |= WL_SETUP_OK;
	else if (!errbuf[0])
		set_err(errbuf, "%s: setup failed: %s", w->ops->name, strerror(-ret));
	return ret;
}

int wl_start(struct wl_run *w, char *errbuf)
{
	int ret;

	if (!(w->state & WL_SETUP_OK) || (w->state & (WL_STARTED | WL_TORN_DOWN)))
		return set_err(errbuf, "%s: start needs a successful setup, once", w->ops->name);
	ret = wl_thread_signals_init();
	if (ret)
		return set_err(errbuf, "cannot install the thread wake signal: %s", strerror(-ret));
	w->state |= WL_STARTED;
	errbuf[0] = '\0';
	w->start_ns = now_ns();
	ret = w->ops->start(w, errbuf);
	w->start_took_ns = now_ns() - w->start_ns;
	w->start_ns += w->start_took_ns;	/* the load runs from here (start may take a while) */
	if (ret) {
		if (!errbuf[0])
			set_err(errbuf, "%s: start failed: %s", w->ops->name, strerror(-ret));
		wl_stop(w);	/* join whatever threads did start */
	}
	return ret;
}

/* add_rate_counters - rate_asked and rate_achieved (over the window), from wl_rate() */
static void add_rate_counters(struct wl_run *w)
{
	struct wl_metrics *m = &w->metrics;
	double secs = wl_window_s(w);
	double done;
	int a, b;

	if (m->rate_counter < 0 || m->rate_counter >= m->ncounters || m->rate_asked <= 0)
		return;
	done = m->counter[m->rate_counter].value;
	a = wl_counter_add(w, "rate_asked");
	b = wl_counter_add(w, "rate_achieved");
	if (a < 0 || b < 0)
		return;
	m->counter[a].value = m->rate_asked;
	m->counter[b].value = secs > 0 ? done / secs : 0;
}

/* close_intervals - every metric's open interval; a metric that ran out of memory keeps none */
static void close_intervals(struct wl_run *w)
{
	int i;

	for (i = 0; i < w->metrics.nmetrics; i++) {
		struct ivhist *iv = &w->metrics.metric[i].iv;

		if (ivhist_finish(iv)) {
			warn_msg("%s: %s: no memory for per-interval histograms; only the whole "
				 "window's is kept", w->ops->name, w->metrics.metric[i].name);
			ivhist_free(iv);
		}
	}
}

/*
 * Pause: w->paused is also the futex paused threads wait on (wl_pause_wait), so that a
 * paused load costs nothing at all - no timer, no wakeup - in the phases it is away.
 * A resume or a stop wakes them; wl_thread_join's repeated signal covers a wake that
 * came just before a thread began to wait.
 */
static void pause_wake(struct wl_run *w)
{
	syscall(SYS_futex, &w->paused, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

uint64_t wl_pause_wait(const struct wl_run *w)
{
	uint64_t t0;

	if (!wl_paused(w))
		return 0;
	t0 = now_ns();
	while (wl_paused(w) && !wl_stopping(w))
		syscall(SYS_futex, &w->paused, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
	return now_ns() - t0;
}

int wl_pause(struct wl_run *w, bool paused, char *errbuf)
{
	int ret;

	if (!w->ops->pause)
		return set_err(errbuf, "%s cannot be paused while it runs", w->ops->name),
		       -EOPNOTSUPP;
	if (!(w->state & WL_STARTED) || (w->state & WL_STOPPED))
		return set_err(errbuf, "%s is not running", w->ops->name), -EINVAL;
	if (wl_paused(w) == paused)
		return 0;
	__atomic_store_n(&w->paused, paused, __ATOMIC_RELEASE);
	ret = w->ops->pause(w, paused, errbuf);
	if (ret)	/* refused: as it was */
		__atomic_store_n(&w->paused, !paused, __ATOMIC_RELEASE);
	if (!wl_paused(w))
		pause_wake(w);
	return ret;
}

bool workload_pausable(const char *name)
{
	const struct workload_ops *ops = workload_find(name);

	return ops && ops->pause;
}

void wl_stop(struct wl_run *w)
{
	if (!(w->state & WL_STARTED) || (w->state & WL_STOPPED))
		return;
	w->state |= WL_STOPPED;
	/*
	 * the load stops being asked for here: the flag first, then the window's end, so
	 * that an operation whose loop still saw the flag clear was due before the end (the
	 * other way round, tty once wrote and counted a message due between the two)
	 */
	__atomic_store_n(&w->stopping, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&w->stop_ns, now_ns(), __ATOMIC_RELEASE);
	pause_wake(w);			/* paused threads see the stop */
	w->ops->stop(w);
	add_rate_counters(w);
	close_intervals(w);
}

/*
 * wl_measure_at, wl_measure_begin, wl_measure_from - the store comes first: an operation
 * is decided on when it is due, and t_ns is now or later, so operations due from t_ns on
 * are decided after the store and see it. (Were this thread preempted between its clock
 * read and the store, those due in between would be left out: never counted twice, and
 * tty and net, where two threads count one operation, let one thread decide for both.)
 * The hook runs at t_ns, in this thread: cyclictest must be forked by the thread that
 * started the run. Several windows that must start at one instant (a segment's workload
 * and its loads, on the interval grid) are all set before any begins: a hook that takes
 * milliseconds (netbg reads its drop counters) would otherwise open the next window
 * late.
 */
int wl_measure_at(struct wl_run *w, uint64_t t_ns)
{
	uint64_t now;

	if (t_ns == WL_MEASURE_LATER) {
		if (w->state & WL_STARTED)
			return -EINVAL;		/* announced after recording began */
		w->window_ns = WL_MEASURE_LATER;
		return 0;
	}
	if (!(w->state & WL_STARTED) || (w->state & WL_STOPPED) ||
	    w->window_ns != WL_MEASURE_LATER)
		return -EINVAL;			/* not running, not announced, or open already */
	now = now_ns();
	if (t_ns < now)
		t_ns = now;
	__atomic_store_n(&w->window_ns, t_ns, __ATOMIC_RELEASE);
	return 0;
}

int wl_measure_begin(struct wl_run *w)
{
	uint64_t t_ns = wl_window(w);

	if (!(w->state & WL_STARTED) || (w->state & (WL_STOPPED | WL_MEASURING)) ||
	    t_ns == WL_MEASURE_LATER || !t_ns)
		return -EINVAL;			/* no window set, begun already, or stopped */
	w->state |= WL_MEASURING;
	while (now_ns() < t_ns)
		wl_sleep_until(t_ns);		/* -EINTR: a signal; sleep on */
	if (w->ops->measure)
		w->ops->measure(w);
	return wl_error(w) ? __atomic_load_n(&w->err, __ATOMIC_ACQUIRE) : 0;
}

int wl_measure_from(struct wl_run *w, uint64_t t_ns)
{
	int ret = wl_measure_at(w, t_ns);

	if (ret || t_ns == WL_MEASURE_LATER)
		return ret;
	return wl_measure_begin(w);
}

void wl_window_bounds(const struct wl_run *w, uint64_t *from, uint64_t *until)
{
	uint64_t win = w->window_ns;

	*until = w->stop_ns;
	if (win == 0)
		*from = w->start_ns;
	else if (win == WL_MEASURE_LATER)
		*from = *until;			/* announced, never opened: nothing measured */
	else
		*from = win > w->start_ns ? win : w->start_ns;
	if (*from > *until)
		*from = *until;
}

double wl_window_s(const struct wl_run *w)
{
	uint64_t from, until;

	wl_window_bounds(w, &from, &until);
	return (double)(until - from) / 1e9;
}

double wl_warmup_s(const struct wl_run *w)
{
	uint64_t from, until;

	wl_window_bounds(w, &from, &until);
	return from > w->start_ns ? (double)(from - w->start_ns) / 1e9 : 0;
}

void wl_teardown(struct wl_run *w)
{
	wl_stop(w);
	if (!(w->state & WL_SETUP_DONE) || (w->state & WL_TORN_DOWN))
		return;
	w->state |= WL_TORN_DOWN;
	w->ops->teardown(w);
}

void wl_free(struct wl_run *w)
{
	if (!w)
		return;
	wl_teardown(w);
	for (int i = 0; i < w->metrics.nmetrics; i++)
		ivhist_free(&w->metrics.metric[i].iv);
	free(w->cfg);
	free(w->priv);
	free(w);
}

int wl_metric_add(struct wl_run *w, const char *name, const char *unit, const char *desc)
{
	struct wl_metrics *m = &w->metrics;
	struct wl_metric *x;

	if (m->nmetrics >= WL_MAX_METRICS)
		return -ENOSPC;
	x = &m->metric[m->nmetrics];
	x->name = name;
	x->unit = unit;
	x->desc = desc;
	hist_init(&x->hist);
	ivhist_init(&x->iv, w->interval_ns);
	return m->nmetrics++;
}

void wl_intervals(struct wl_run *w, uint64_t ns)
{
	w->interval_ns = ns;
}

void wl_ivhist_init(const struct wl_run *w, struct ivhist *iv)
{
	ivhist_init(iv, w->interval_ns);
}

void wl_metric_merge(struct wl_run *w, int i, const struct hist *h, const struct ivhist *iv)
{
	struct wl_metric *m = &w->metrics.metric[i];

	hist_merge(&m->hist, h);
	if (!iv || !iv->ival)
		m->iv.ival = 0;		/* intervals only when every part has them */
	else if (ivhist_merge(&m->iv, iv))
		m->iv.err = -ENOMEM;
}

int wl_counter_add(struct wl_run *w, const char *name)
{
	struct wl_metrics *m = &w->metrics;

	if (m->ncounters >= WL_MAX_COUNTERS)
		return -ENOSPC;
	m->counter[m->ncounters].name = name;
	m->counter[m->ncounters].value = 0;
	return m->ncounters++;
}

void wl_rate(struct wl_run *w, int counter, double asked)
{
	w->metrics.rate_counter = counter;
	w->metrics.rate_asked = asked;
}

/*
 * wl_fail - the first failure wins: claim with 0 -> 1, write the message, then
 * publish the (negative) error so that wl_error() never sees a half-written message.
 */
void wl_fail(struct wl_run *w, int err, const char *fmt, ...)
{
	int expect = 0;
	va_list ap;

	if (!__atomic_compare_exchange_n(&w->err, &expect, 1, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return;
	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
	__atomic_store_n(&w->err, err < 0 ? err : -EIO, __ATOMIC_RELEASE);
}

const char *wl_error(const struct wl_run *w)
{
	return __atomic_load_n(&w->err, __ATOMIC_ACQUIRE) < 0 ? w->errmsg : NULL;
}
