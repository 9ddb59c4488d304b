/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_thread.h - worker threads for workloads, and the pacing arithmetic they share.
 *
 * Threads: created with every signal blocked except WL_WAKE_SIG (so SIGINT/SIGTERM go
 * to the main thread), with their scheduling policy, nice, CPU affinity and timer slack
 * applied by the thread itself before it runs the workload's function; the creator
 * waits for that and gets the error, so a refused SCHED_FIFO is a setup error with a
 * message, not a silent SCHED_OTHER thread. wl_thread_join() interrupts a blocked
 * clock_nanosleep/poll/recv with WL_WAKE_SIG (EINTR) until the thread exits.
 *
 * Pacing: operation k of a paced workload should start at start + k * period, on
 * CLOCK_MONOTONIC. Its latency is measured from that instant, however late the thread
 * got to it (no coordinated omission): a backlog shows as latency, not as fewer samples.
 */
#ifndef DEFERBENCH_WL_THREAD_H
#define DEFERBENCH_WL_THREAD_H

#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>

#include "msg.h"

struct wl_sched {
	int policy;		/* SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR */
	int prio;		/* 1..99 for FIFO/RR, ignored otherwise */
	int nice;		/* -20..19 for OTHER/BATCH, ignored otherwise */
	uint64_t slack_ns;	/* timer slack; 0 = leave the default (50 us for OTHER) */
};

struct wl_thread {
	pthread_t tid;
	bool started;
	/* start handshake: private to wl_thread.c */
	void *(*fn)(void *);
	void *arg;
	struct wl_sched sched;
	cpu_set_t cpus;
	bool pin;
	char name[16];
	sem_t ready;
	int err;
	char why[ERRBUF_LEN];
};

/* wl_thread_signals_init - install the no-op WL_WAKE_SIG handler (once per process) */
int wl_thread_signals_init(void);
/*
 * wl_thread_start - run fn(arg) in a new thread named name (15 chars), with sched and
 * pinned to cpus (NULL or an empty set: not pinned). Returns 0 once the thread runs
 * with its settings, or -errno with errbuf naming the setting that was refused.
 */
int wl_thread_start(struct wl_thread *t, const char *name, void *(*fn)(void *), void *arg,
		    const struct wl_sched *sched, const cpu_set_t *cpus, char *errbuf);
/* wl_thread_join - wake and join; no-op for a thread never started or joined already */
void wl_thread_join(struct wl_thread *t);
/* wl_sched_name - "SCHED_FIFO" for messages */
const char *wl_sched_name(int policy);

/* pacing: deadline k is start + round(k * period) */
struct pace {
	uint64_t start_ns;
	double period_ns;
	uint64_t k;		/* index of the next operation */
};

static inline void pace_init(struct pace *p, uint64_t start_ns, double period_ns)
{
	p->start_ns = start_ns;
	p->period_ns = period_ns;
	p->k = 0;
}

/* pace_deadline - when operation k should start */
static inline uint64_t pace_deadline(const struct pace *p, uint64_t k)
{
	return p->start_ns + (uint64_t)((double)k * p->period_ns + 0.5);
}

/* pace_next - the deadline of the next operation, which is then consumed */
static inline uint64_t pace_next(struct pace *p)
{
	return pace_deadline(p, p->k++);
}

/* pace_late - how late t is for deadline (0 when early or on time) */
static inline uint64_t pace_late(uint64_t deadline, uint64_t t)
{
	return t > deadline ? t - deadline : 0;
}

/*
 * wl_pace_skip - for real-time streams (audio) that cannot catch up: drop the operations
 * whose whole slot [deadline k, deadline k+1) is already over at now. Returns how many
 * were dropped; the next one is then the slot now is in (started late, not dropped).
 */
uint64_t wl_pace_skip(struct pace *p, uint64_t now);

/* pace_count_from - how many of the operations k0..k1-1 are due at or after t */
static inline uint64_t pace_count_from(const struct pace *p, uint64_t k0, uint64_t k1,
				       uint64_t t)
{
	uint64_t n = 0;

	for (; k0 < k1; k0++)
		n += pace_deadline(p, k0) >= t;
	return n;
}

/*
 * pace_count_before - of the n operations due period apart just before one due at
 * deadline (at deadline - period, deadline - 2 period, ...), how many are due at or
 * after t: a receiver's share of a gap of lost packets that lies inside a window.
 */
static inline uint64_t pace_count_before(uint64_t deadline, double period, uint64_t n,
					 uint64_t t)
{
	double fit;

	if (deadline <= t)
		return 0;
	fit = (double)(deadline - t) / period;	/* the j-th is in while j <= fit */
	return fit >= (double)n ? n : (uint64_t)fit;
}

/* period_from_rate - ns between operations for rate per second (rate > 0) */
static inline double period_from_rate(double rate)
{
	return 1e9 / rate;
}

/*
 * wl_sleep_until - clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME); 0 at the
 * deadline, -EINTR when woken early by WL_WAKE_SIG (the caller checks wl_stopping).
 */
int wl_sleep_until(uint64_t deadline_ns);

#endif
