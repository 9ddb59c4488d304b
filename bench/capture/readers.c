// SPDX-License-Identifier: GPL-2.0
/*
 * readers.c - the capture's threads: one reader per CPU streaming raw sub-buffers into
 * a bounded page queue, and one analysis thread merging them into the matcher.
 *
 * Readers drain trace_pipe_raw without blocking, every 10 ms while busy and every
 * 100 ms while idle, queue the sub-buffers for the analysis thread, and (with --raw)
 * write them to cpuN.dat. After a drain that emptied the buffer, a reader publishes
 * the time the drain began: every event of that CPU older than this has been queued.
 * The merger (merge.c) uses that time, less a margin for writers that were
 * mid-commit, as the CPU's horizon, so events are matched in global timestamp order
 * although the CPUs are read independently. Queues are bounded: a
 * reader that finds its queue full leaves the data in the kernel buffer, and if the
 * kernel buffer then fills, the kernel drops events and counts them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#define DEFERBENCH_ALLOW_CAPTURE_INT_H
#include "capture_int.h"
#include "msg.h"
#include "outw.h"
#include "sys.h"

#define POLL_BUSY_NS (10 * NSEC_PER_MSEC)
#define POLL_IDLE_NS (100 * NSEC_PER_MSEC)
#define ANALYSE_NS (20 * NSEC_PER_MSEC)
/* a writer that took its timestamp before a drain can commit after it */
#define WATERMARK_SLACK_NS (5 * NSEC_PER_MSEC)

/* ---- page queues ---- */

static struct page_buf *page_get_free(struct reader *r, bool force)
{
	struct page_buf *p;

	pthread_mutex_lock(&r->lock);
	p = r->free_list;
	if (p)
		r->free_list = p->next;
	else if (!force && r->queued >= r->max_queued)
		p = (void *)-1;		/* full: leave the data in the kernel buffer */
	pthread_mutex_unlock(&r->lock);
	if (p == (void *)-1)
		return NULL;
	if (!p)
		p = malloc(sizeof(*p) + r->c->subbuf_size);
	return p;
}

static void page_push(struct reader *r, struct page_buf *p)
{
	p->next = NULL;
	pthread_mutex_lock(&r->lock);
	if (r->tail)
		r->tail->next = p;
	else
		r->head = p;
	r->tail = p;
	r->queued++;
	pthread_mutex_unlock(&r->lock);
}

static void *src_get(void *ctx, int cpu)
{
	struct capture *c = ctx;
	struct reader *r = &c->rd[cpu];
	struct page_buf *p;

	if (!r->tcpu)
		return NULL;
	pthread_mutex_lock(&r->lock);
	p = r->head;
	if (p) {
		r->head = p->next;
		if (!r->head)
			r->tail = NULL;
		r->queued--;
	}
	pthread_mutex_unlock(&r->lock);
	return p ? p->data : NULL;
}

static uint64_t src_horizon(void *ctx, int cpu)
{
	struct capture *c = ctx;
	uint64_t d = atomic_load(&c->rd[cpu].drained_until);

	if (!c->rd[cpu].tcpu || d == UINT64_MAX)
		return UINT64_MAX;
	return d > WATERMARK_SLACK_NS ? d - WATERMARK_SLACK_NS : 0;
}

static void src_put(void *ctx, int cpu, void *page)
{
	struct capture *c = ctx;
	struct reader *r = &c->rd[cpu];
	struct page_buf *p = (void *)((char *)page - offsetof(struct page_buf, data));

	pthread_mutex_lock(&r->lock);
	p->next = r->free_list;
	r->free_list = p;
	pthread_mutex_unlock(&r->lock);
}

static void page_list_free(struct page_buf *p)
{
	while (p) {
		struct page_buf *n = p->next;

		free(p);
		p = n;
	}
}

/* ---- readers ---- */

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * wait_for - sleep up to ns, or until woken; readers return at once when the capture
 * is stopping, the analysis thread (always) sleeps until a reader wakes it
 */
static void wait_for(struct capture *c, uint64_t ns, bool always)
{
	struct timespec ts;
	uint64_t t;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec + ns;
	ts.tv_sec = t / NSEC_PER_SEC;
	ts.tv_nsec = t % NSEC_PER_SEC;
	pthread_mutex_lock(&c->lock);
	if (always || !atomic_load(&c->stopping))
		pthread_cond_timedwait(&c->cond, &c->lock, &ts);
	pthread_mutex_unlock(&c->lock);
}

/*
 * reader_drain - read sub-buffers until the kernel buffer is empty (returns the number
 * read, >= 0), the queue is full (-EAGAIN), or an error (-errno). final: tracing is
 * off; read everything, including the partly filled sub-buffer, regardless of the
 * queue bound.
 */
static int reader_drain(struct reader *r, bool final)
{
	int n = 0, len;

	for (;;) {
		struct page_buf *p = page_get_free(r, final);

		if (!p)
			return final ? -ENOMEM : -EAGAIN;
		len = final ? tracefs_cpu_flush(r->tcpu, p->data) :
			      tracefs_cpu_read(r->tcpu, p->data, true);
		if (len <= 0) {
			int e = errno;

			src_put(r->c, r->cpu, p->data);
			if (len < 0 && e != EAGAIN && e != EINTR)
				return -e;
			return n;
		}
		if (r->raw_fd >= 0 && write(r->raw_fd, p->data, r->c->subbuf_size) !=
				      (ssize_t)r->c->subbuf_size) {
			src_put(r->c, r->cpu, p->data);
			return -EIO;
		}
		page_push(r, p);
		n++;
	}
}

/*
 * reader_main - one per CPU. It never blocks on the trace buffer (no poll(), select()
 * or blocking read of trace_pipe_raw): it reads without blocking and sleeps on its own
 * timer. Keep it so. A reader blocked on a ring buffer asks the kernel to wake it, and
 * the first event written after the buffer went idle then raises an irq_work (a
 * self-IPI, several microseconds on a VM) inside the very code path being traced. On
 * the development VM, with one text reader blocked on trace_pipe, every tracer on the
 * machine saw NET_RX delay p99 rise from about 3 us to about 30 us.
 */
static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct capture *c = r->c;
	int n;

	while (!atomic_load(&c->stopping)) {
		uint64_t t = now_ns();

		n = reader_drain(r, false);
		if (n < 0 && n != -EAGAIN) {
			r->err = n;
			break;
		}
		/* only an emptied buffer proves that nothing older than t is left */
		if (n >= 0)
			atomic_store(&r->drained_until, t);
		wait_for(c, n == 0 || n == 1 ? POLL_IDLE_NS : POLL_BUSY_NS, false);
	}
	n = reader_drain(r, true);
	if (n < 0 && !r->err)
		r->err = n;
	r->cpu_s = thread_cpu_s();
	atomic_store(&r->drained_until, UINT64_MAX);
	atomic_store(&r->done, true);
	pthread_mutex_lock(&c->lock);
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

static void *analyser_main(void *arg)
{
	struct capture *c = arg;

	for (;;) {
		bool all_done = true;
		int i;

		for (i = 0; i < c->ncpus; i++)
			if (c->rd[i].tcpu && !atomic_load(&c->rd[i].done))
				all_done = false;
		/* after the last reader is done, this run sees every horizon at the end */
		merger_run(&c->mg);
		if (all_done)
			break;
		wait_for(c, ANALYSE_NS, true);
	}
	c->analyser_cpu_s = thread_cpu_s();
	return NULL;
}

int readers_open(struct capture *c, char *errbuf)
{
	char path[PATH_MAX];
	int i;

	c->rd = calloc(c->ncpus, sizeof(*c->rd));
	if (!c->rd)
		return set_err(errbuf, "out of memory");
	for (i = 0; i < c->ncpus; i++) {
		struct reader *r = &c->rd[i];

		r->c = c;
		r->cpu = i;
		r->raw_fd = -1;
		pthread_mutex_init(&r->lock, NULL);
		r->tcpu = tracefs_cpu_open(c->inst, i, true);
		if (!r->tcpu)
			continue;	/* offline CPU: no buffer to read */
		if (!c->subbuf_size)
			c->subbuf_size = tracefs_cpu_read_size(r->tcpu);
		/* queue at most as much as the kernel buffer holds */
		r->max_queued = c->opts.buffer_kb * 1024 / c->subbuf_size + 16;
		if (c->raw_dir) {
			snprintf(path, sizeof(path), "%s/cpu%d.dat", c->raw_dir, i);
			r->raw_fd = out_create(path, 0644);
			if (r->raw_fd < 0)
				return set_err(errbuf, "cannot create %s: %s", path,
					       strerror(-r->raw_fd));
		}
	}
	if (!c->subbuf_size)
		return set_err(errbuf, "cannot open any per-CPU trace buffer of %s", c->name);
	return 0;
}

struct page_src readers_page_src(struct capture *c)
{
	return (struct page_src){ .get = src_get, .put = src_put, .horizon = src_horizon,
				  .ctx = c, .size = c->subbuf_size, .ts_lo = 0,
				  .ts_hi = UINT64_MAX };
}

int readers_start(struct capture *c, const pthread_attr_t *attr)
{
	int i, ret = 0;

	for (i = 0; i < c->ncpus; i++) {
		if (!c->rd[i].tcpu)
			continue;
		ret = pthread_create(&c->rd[i].thread, attr, reader_main, &c->rd[i]);
		if (ret)
			break;
		c->rd[i].started = true;
	}
	ret = ret ?: pthread_create(&c->analyser, attr, analyser_main, c);
	if (!ret)
		c->analyser_started = true;
	return ret;
}

int readers_stop(struct capture *c)
{
	int i, ret = 0;

	pthread_mutex_lock(&c->lock);
	atomic_store(&c->stopping, true);
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	for (i = 0; i < c->ncpus; i++) {
		if (!c->rd[i].started)
			continue;
		pthread_join(c->rd[i].thread, NULL);
		c->rd[i].started = false;
		if (c->rd[i].err) {
			err_msg("reading CPU %d's trace buffer failed: %s", i,
				strerror(-c->rd[i].err));
			ret = c->rd[i].err;
		}
	}
	/* a reader that never started still counts as done */
	for (i = 0; i < c->ncpus; i++)
		atomic_store(&c->rd[i].done, true);
	if (c->analyser_started) {
		pthread_join(c->analyser, NULL);
		c->analyser_started = false;
	}
	return ret;
}

void readers_free(struct capture *c)
{
	int i;

	for (i = 0; c->rd && i < c->ncpus; i++) {
		struct reader *r = &c->rd[i];

		if (r->tcpu)
			tracefs_cpu_close(r->tcpu);
		if (r->raw_fd >= 0)
			close(r->raw_fd);
		page_list_free(r->head);
		page_list_free(r->free_list);
		pthread_mutex_destroy(&r->lock);
	}
	free(c->rd);
	c->rd = NULL;
}
