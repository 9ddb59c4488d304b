// SPDX-License-Identifier: GPL-2.0
/*
 * wl_thread.c - workload threads with explicit scheduling, woken for stop by a signal;
 * absolute-deadline sleeping and the skip arithmetic of real-time streams.
 */
#include "wl_thread.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "msg.h"

#define WL_WAKE_SIG (SIGRTMIN + 1)

static void on_wake(int sig __unused)
{
}

int wl_thread_signals_init(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static bool done;
	struct sigaction sa = { .sa_handler = on_wake };	/* no SA_RESTART: EINTR */
	int ret = 0;

	pthread_mutex_lock(&lock);
	if (!done) {
		sigemptyset(&sa.sa_mask);
		if (sigaction(WL_WAKE_SIG, &sa, NULL))
			ret = -errno;
		else
			done = true;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

const char *wl_sched_name(int policy)
{
	switch (policy) {
	case SCHED_OTHER: return "SCHED_OTHER";
	case SCHED_BATCH: return "SCHED_BATCH";
	case SCHED_IDLE: return "SCHED_IDLE";
	case SCHED_FIFO: return "SCHED_FIFO";
	case SCHED_RR: return "SCHED_RR";
	}
	return "SCHED_?";
}

/* fail - record why the thread could not take its settings; returns -errno */
static int fail(struct wl_thread *t, int err, const char *what)
{
	snprintf(t->why, sizeof(t->why), "thread %s: cannot %s: %s%s", t->name, what,
		 strerror(err), err == EPERM ? " (needs root or CAP_SYS_NICE)" : "");
	return -err;
}

/* apply_settings - run in the new thread: its CPUs, policy, nice and timer slack */
static int apply_settings(struct wl_thread *t)
{
	struct sched_param sp = { 0 };
	const struct wl_sched *s = &t->sched;
	char what[64];

	if (t->pin && sched_setaffinity(0, sizeof(t->cpus), &t->cpus))
		return fail(t, errno, "set its CPU affinity");
	if (s->policy == SCHED_FIFO || s->policy == SCHED_RR)
		sp.sched_priority = s->prio;
	if (sched_setscheduler(0, s->policy, &sp)) {
		int e = errno;

		snprintf(what, sizeof(what), "set %s priority %d", wl_sched_name(s->policy),
			 sp.sched_priority);
		return fail(t, e, what);
	}
	if ((s->policy == SCHED_OTHER || s->policy == SCHED_BATCH) && s->nice &&
	    setpriority(PRIO_PROCESS, gettid(), s->nice)) {
		int e = errno;

		snprintf(what, sizeof(what), "set nice %d", s->nice);
		return fail(t, e, what);
	}
	if (s->slack_ns && prctl(PR_SET_TIMERSLACK, (unsigned long)s->slack_ns, 0, 0, 0))
		return fail(t, errno, "set its timer slack");
	pthread_setname_np(pthread_self(), t->name);
	return 0;
}

static void *trampoline(void *arg)
{
	struct wl_thread *t = arg;
	sigset_t wake;

	sigemptyset(&wake);
	sigaddset(&wake, WL_WAKE_SIG);
	pthread_sigmask(SIG_UNBLOCK, &wake, NULL);
	t->err = apply_settings(t);
	sem_post(&t->ready);
	if (t->err)
		return NULL;
	return t->fn(t->arg);
}

int wl_thread_start(struct wl_thread *t, const char *name, void *(*fn)(void *), void *arg,
		    const struct wl_sched *sched, const cpu_set_t *cpus, char *errbuf)
{
	sigset_t all, old;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fn = fn;
	t->arg = arg;
	t->sched = *sched;
	if (cpus && CPU_COUNT(cpus)) {
		t->cpus = *cpus;
		t->pin = true;
	}
	snprintf(t->name, sizeof(t->name), "%s", name);
	if (sem_init(&t->ready, 0, 0))
		return set_err(errbuf, "sem_init: %s", strerror(errno));
	/* the thread inherits this mask: stop signals stay with the main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&t->tid, NULL, trampoline, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		sem_destroy(&t->ready);
		set_err(errbuf, "cannot create thread %s: %s", name, strerror(-ret));
		return ret;
	}
	while (sem_wait(&t->ready) && errno == EINTR)
		;
	sem_destroy(&t->ready);
	if (t->err) {
		pthread_join(t->tid, NULL);
		set_err(errbuf, "%s", t->why);
		return t->err;
	}
	t->started = true;
	return 0;
}

void wl_thread_join(struct wl_thread *t)
{
	struct timespec ts;

	if (!t->started)
		return;
	/* a signal sent just before the thread blocks is lost: send again until it exits */
	for (;;) {
		pthread_kill(t->tid, WL_WAKE_SIG);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 20 * NSEC_PER_MSEC;
		if (ts.tv_nsec >= (long)NSEC_PER_SEC) {
			ts.tv_sec++;
			ts.tv_nsec -= NSEC_PER_SEC;
		}
		if (pthread_clockjoin_np(t->tid, NULL, CLOCK_MONOTONIC, &ts) != ETIMEDOUT)
			break;
	}
	t->started = false;
}

uint64_t wl_pace_skip(struct pace *p, uint64_t now)
{
	uint64_t dropped = 0;

	while (pace_deadline(p, p->k + 1) <= now) {
		p->k++;
		dropped++;
	}
	return dropped;
}

int wl_sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / NSEC_PER_SEC),
		.tv_nsec = (long)(deadline_ns % NSEC_PER_SEC),
	};
	int ret;

	ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	return ret ? -ret : 0;
}
