// SPDX-License-Identifier: GPL-2.0
/*
 * capture.c - the live capture: a private tracefs instance, one reader thread per
 * CPU streaming raw sub-buffers, and one analysis thread merging them into the
 * matcher (see capture.h for the lifecycle).
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
#include "capture.h"
#include "result_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#include "decode.h"
#include "merge.h"
#include "output.h"
#include "raw.h"
#include "names.h"
#include "owned.h"
#include "subbuf.h"
#include "util.h"

#define POLL_BUSY_NS (10 * NSEC_PER_MSEC)
#define POLL_IDLE_NS (100 * NSEC_PER_MSEC)
#define ANALYSE_NS (20 * NSEC_PER_MSEC)
/* a writer that took its timestamp before a drain can commit after it */
#define WATERMARK_SLACK_NS (5 * NSEC_PER_MSEC)

struct page_buf {
	struct page_buf *next;
	unsigned char data[];
};

struct reader {
	struct capture *c;
	int cpu;
	struct tracefs_cpu *tcpu;
	pthread_t thread;
	bool started;
	int raw_fd;
	pthread_mutex_t lock;		/* protects the queue and the free list */
	struct page_buf *head, *tail, *free_list;
	unsigned int queued, max_queued;
	_Atomic uint64_t drained_until;
	_Atomic bool done;
	int err;
	double cpu_s;			/* this thread's CPU time, at its end */
};

enum capture_state { CAP_NEW, CAP_RUNNING, CAP_STOPPED };

struct capture {
	struct capture_opts opts;
	enum capture_state state;
	char name[64];
	char inst_path[PATH_MAX];	/* its directory, as journaled (owned.h) */
	struct tracefs_instance *inst;
	char *mounted_at;		/* tracefs mount point we made, to undo */
	int ncpus;
	unsigned int subbuf_size;
	struct reader *rd;
	struct tep_handle *tep;
	struct decoder dec;
	struct merger mg;
	bool mg_ready;
	struct result res;
	bool res_ready;
	struct ival_writer *iw;
	pthread_t analyser;
	bool analyser_started;
	double analyser_cpu_s;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	atomic_bool stopping;
	char *raw_dir;
	/* names the analysis thread read from /proc (resolve_comm), for raw/comms */
	struct map comm_tried;
	struct comm_entry *named;
	size_t nnamed, named_cap;
};

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

/*
 * resolve_comm - the matcher's comm_resolve, in the analysis thread: a task's name from
 * /proc (scheduler events are filtered to the threads of deferred work, so an ordinary
 * task that held bottom halves off was never seen by name), each pid tried once; the
 * names found go to raw/comms at the end, so that analyze names the same tasks
 */
static bool resolve_comm(void *ctx, int pid, char *comm)
{
	struct capture *c = ctx;
	char path[64], buf[64], *p;
	struct comm_entry *nn;
	int created;

	if (!map_put(&c->comm_tried, (uint64_t)pid, &created) || !created)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (read_file(path, buf, sizeof(buf)))
		return false;	/* gone already: it stays "pid N" */
	for (p = buf; *p; p++)
		if (*p == '\n')
			*p = '?';	/* one name per line in raw/comms */
	snprintf(comm, TASK_COMM_LEN, "%.15s", buf);
	if (c->nnamed == c->named_cap) {
		size_t cap = c->named_cap ? 2 * c->named_cap : 32;

		nn = realloc(c->named, cap * sizeof(*nn));
		if (!nn)
			return true;	/* named now, just not kept for analyze */
		c->named = nn;
		c->named_cap = cap;
	}
	c->named[c->nnamed].pid = pid;
	snprintf(c->named[c->nnamed].comm, sizeof(c->named[0].comm), "%s", comm);
	c->nnamed++;
	return true;
}

/* ---- setup ---- */

/* tracefs_mounted - is a tracefs mounted anywhere (libtracefs will find it)? */
static bool tracefs_mounted(void)
{
	char *mounts = read_file_alloc("/proc/mounts", NULL);
	bool found = mounts && strstr(mounts, " tracefs ");

	free(mounts);
	return found;
}

/*
 * tracefs_ready - find tracefs, or mount it at /sys/kernel/tracing and remember to
 * unmount it at the end (libtracefs would mount it silently and leave it mounted).
 */
static int tracefs_ready(struct capture *c, char *errbuf)
{
	const char *dir = "/sys/kernel/tracing";

	if (tracefs_mounted())
		return tracefs_tracing_dir() ? 0 :
		       set_err(errbuf, "tracefs is mounted but libtracefs cannot find it");
	/* journaled first: after a SIGKILL, 'deferbench restore' unmounts it */
	owned_add(OWN_MOUNT, dir);
	if (mount("nodev", dir, "tracefs", 0, NULL)) {
		int e = errno;

		owned_forget(OWN_MOUNT, dir);
		return set_err(errbuf, "tracefs is not mounted and mounting it at %s failed: %s "
			       "(try: mount -t tracefs nodev %s)", dir, strerror(e), dir);
	}
	c->mounted_at = strdup(dir);
	if (tracefs_set_tracing_dir((char *)dir))
		return set_err(errbuf, "cannot use tracefs at %s", dir);
	return 0;
}

/*
 * An instance takes the top-level option record-cmd as it is when the instance is made.
 * With it on, the kernel saves the comm of the tasks of every context switch that
 * follows an event (saved_cmdlines, which deferbench never reads): on the development
 * VM that made a ping-pong's round trip with sched_switch and sched_wakeup traced cost
 * about 8 us more instead of 2.5 us (tests/perf/observer.sh measures it). So the option
 * is off for the moment the instance is made, and back on at once: journaled before it
 * is changed (a crash in between is undone by restore or the next record) and under a
 * lock on the option's file, so that two deferbench processes never save each other's
 * 0 as the value to put back.
 */
struct record_cmd {
	char path[PATH_MAX];
	int fd;			/* the locked option file; -1: left as it was */
};

static void record_cmd_off(struct record_cmd *rc)
{
	char val[8] = "";

	rc->fd = -1;
	snprintf(rc->path, sizeof(rc->path), "%s/options/record-cmd", tracefs_tracing_dir());
	rc->fd = open(rc->path, O_RDWR | O_CLOEXEC);
	if (rc->fd < 0)
		return;		/* no such option: nothing to do */
	if (flock(rc->fd, LOCK_EX) || pread(rc->fd, val, sizeof(val) - 1, 0) <= 0 ||
	    val[0] != '1' || owned_add(OWN_OPTION_OFF, rc->path) ||
	    pwrite(rc->fd, "0", 1, 0) != 1) {
		if (val[0] == '1')
			owned_forget(OWN_OPTION_OFF, rc->path);
		close(rc->fd);
		rc->fd = -1;
	}
}

static void record_cmd_back(struct record_cmd *rc)
{
	if (rc->fd < 0)
		return;
	if (pwrite(rc->fd, "1", 1, 0) == 1)
		owned_forget(OWN_OPTION_OFF, rc->path);
	else
		warn_msg("cannot turn %s back on: %s ('deferbench restore' will)", rc->path,
			 strerror(errno));
	close(rc->fd);		/* and the lock with it */
	rc->fd = -1;
}

static int instance_setup(struct capture *c, char *errbuf)
{
	struct record_cmd rc;
	char val[32], *clock;

	snprintf(c->name, sizeof(c->name), NAME_INSTANCE_PREFIX "%d", (int)getpid());
	if (tracefs_instance_exists(c->name))
		return set_err(errbuf, "tracefs instance %s already exists (left by a crashed run "
			       "with this pid?); remove it with 'deferbench restore'", c->name);
	/* journaled first: a killed run's instance would trace on until removed */
	snprintf(c->inst_path, sizeof(c->inst_path), "%s/instances/%s", tracefs_tracing_dir(),
		 c->name);
	owned_add(OWN_INSTANCE, c->inst_path);
	record_cmd_off(&rc);
	c->inst = tracefs_instance_create(c->name);
	record_cmd_back(&rc);
	if (!c->inst) {
		int e = errno;

		owned_forget(OWN_INSTANCE, c->inst_path);
		return set_err(errbuf, "cannot create tracefs instance %s: %s", c->name,
			       strerror(e));
	}
	/* a new instance starts with tracing on: nothing is enabled yet, but be explicit */
	if (tracefs_trace_off(c->inst))
		return set_err(errbuf, "cannot turn tracing off in %s", c->name);
	if (tracefs_instance_file_write(c->inst, "trace_clock", "mono") < 0)
		return set_err(errbuf, "this kernel has no 'mono' trace clock");
	clock = tracefs_instance_file_read(c->inst, "trace_clock", NULL);
	if (!clock || !strstr(clock, "[mono]")) {
		free(clock);
		return set_err(errbuf, "trace_clock did not switch to mono");
	}
	free(clock);
	/* with overwrite off a full buffer drops new events and counts them */
	if (tracefs_instance_file_write(c->inst, "options/overwrite", "0") < 0)
		return set_err(errbuf, "cannot turn the overwrite option off");
	snprintf(val, sizeof(val), "%u", c->opts.buffer_kb);
	if (tracefs_instance_file_write(c->inst, "buffer_size_kb", val) < 0)
		return set_err(errbuf, "cannot set buffer_size_kb to %s: %s", val, strerror(errno));
	return 0;
}

/* read_formats - header page and event formats from tracefs; absent events stay NULL */
static int read_formats(struct capture *c, char **header, size_t *hlen, char *formats[EV_NR],
			char *errbuf)
{
	const char *top = tracefs_tracing_dir();
	char path[PATH_MAX];
	int k;

	snprintf(path, sizeof(path), "%s/events/header_page", top);
	*header = read_file_alloc(path, hlen);
	if (!*header)
		return set_err(errbuf, "cannot read %s: %s", path, strerror(errno));
	for (k = 0; k < EV_NR; k++) {
		if (c->opts.no_sched && (k == EV_SCHED_SWITCH || k == EV_SCHED_WAKEUP))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", top, ev_names[k].system,
			 ev_names[k].name);
		formats[k] = read_file_alloc(path, NULL);
		if (!formats[k]) {
			c->res.meta.missing[k] = true;
			warn_msg("this kernel has no %s event; its figures will be absent",
				 ev_names[k].id);
		}
	}
	return 0;
}

/* decoder_setup - the decoder, from formats checked as strictly as a capture's copies */
static int decoder_setup(struct capture *c, const char *header, size_t hlen,
			 char *const formats[EV_NR], unsigned int *dsize, char *errbuf)
{
	char err[ERRBUF_LEN];
	int bad;

	c->tep = decoder_new_tep(header, hlen, formats, dsize, &bad, err);
	if (!c->tep) {
		if (bad < 0)
			return set_err(errbuf, "%s/events/header_page: %s", tracefs_tracing_dir(),
				       err);
		return set_err(errbuf, "%s/events/%s/%s/format: %s", tracefs_tracing_dir(),
			       ev_names[bad].system, ev_names[bad].name, err);
	}
	if (decoder_init(&c->dec, c->tep, err))
		return set_err(errbuf, "the event formats in %s/events: %s", tracefs_tracing_dir(),
			       err);
	return 0;
}

/*
 * Scheduler events are most of a capture under a workload that sleeps and wakes (every
 * packet, keystroke or timer of the workload's own threads is a wakeup and two
 * switches), and the figures use only those of the threads that run deferred work:
 * thread wakeup of kworkers and ksoftirqd, napi/ and irq/ thread wakeup and run time,
 * the start of a napi thread's poll loop. The kernel's event filters drop the others
 * before they reach the ring buffer, so that neither the buffer nor our readers pay for
 * them. A switch is kept when either side is such a thread: switching out is where a
 * thread's run ends. Left out with them: the switches between two other tasks, which
 * only a busy-polling socket's NAPI run time would have used (a busy poll then counts
 * from the previous poll of the same task, without the reset at a switch); sched_all
 * keeps every event.
 *
 * The filter runs on every switch and wakeup of the machine, on the path being
 * measured, so it is one glob per comm that fails at the first character for almost
 * every other task: a first character k, n or i and a '/' further on (DEFERRED_COMMS)
 * keeps kworker/, ksoftirqd/, napi/ and irq/ (and the odd other thread so named, which
 * comm_classify() then ignores, as under sched_all). The four prefix globs per comm it
 * replaced cost twice as much: on a pipe ping-pong pinned to one CPU (two switches and
 * two wakeups per round trip, none kept; 2.18 us per round trip untraced) the whole of
 * record added 0.28 us with this glob and 0.56 us with the four prefixes ('make
 * observer', part recordcost, on the development VM). No filter at all is no cheaper
 * than the glob either: under record --sched-all, every event written, +0.42 us.
 * tests/integration/t-sched-filter.sh checks that the glob keeps every event the
 * figures use.
 */
#define DEFERRED_COMMS(f) f " ~ \"[kni]*/*\""
static const char *const sched_filter[EV_NR] = {
	[EV_SCHED_SWITCH] = DEFERRED_COMMS("next_comm") " || " DEFERRED_COMMS("prev_comm"),
	[EV_SCHED_WAKEUP] = DEFERRED_COMMS("comm"),
};

static int events_enable(struct capture *c, char *const formats[EV_NR], char *errbuf)
{
	const char *sys, *name;
	int k;

	for (k = 0; k < EV_NR; k++) {
		if (!formats[k])
			continue;
		sys = ev_names[k].system;
		name = ev_names[k].name;
		if (sched_filter[k] && !c->opts.sched_all &&
		    tracefs_event_file_write(c->inst, sys, name, "filter", sched_filter[k]) < 0)
			return set_err(errbuf, "cannot set the filter of %s:%s (%s): %s", sys,
				       name, sched_filter[k], strerror(errno));
		if (tracefs_event_enable(c->inst, sys, name))
			return set_err(errbuf, "cannot enable %s:%s: %s", sys, name,
				       strerror(errno));
	}
	return 0;
}

/*
 * comms_snapshot - kernel workers and ksoftirqd threads alive now. Workers that
 * were already running when the capture started never appear in a sched_switch.
 */
static int comms_snapshot(struct comm_entry **out, size_t *n)
{
	struct comm_entry *v = NULL, *nv;
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	*n = 0;
	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char path[64], comm[64];
		uint32_t pool;
		int pid, cpu;

		if (parse_int(de->d_name, 1, INT32_MAX, &pid, NULL))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		if (read_file(path, comm, sizeof(comm)) || comm_classify(comm, &pool, &cpu) == COMM_OTHER)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		v[*n].pid = pid;
		snprintf(v[*n].comm, sizeof(v[*n].comm), "%.15s", comm);
		(*n)++;
	}
	closedir(d);
	*out = v;
	return 0;
}

static int readers_open(struct capture *c, char *errbuf)
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
			r->raw_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (r->raw_fd < 0)
				return set_err(errbuf, "cannot create %s: %s", path, strerror(errno));
		}
	}
	if (!c->subbuf_size)
		return set_err(errbuf, "cannot open any per-CPU trace buffer of %s", c->name);
	return 0;
}

static void meta_fill(struct capture *c)
{
	struct result_meta *m = &c->res.meta;

	kernel_release(m->kernel, sizeof(m->kernel));
	host_name(m->hostname, sizeof(m->hostname));
	iso_time_now(m->started, sizeof(m->started));
	snprintf(m->command, sizeof(m->command), "%s", c->opts.command ? c->opts.command : "");
	m->buffer_kb = c->opts.buffer_kb;
	snprintf(m->sched_events, sizeof(m->sched_events), "%s", c->opts.no_sched ? "off" :
		 c->opts.sched_all ? "all" : "deferred");
}

static int result_setup(struct capture *c, char *errbuf)
{
	bool missing[EV_NR];
	char path[PATH_MAX], err[ERRBUF_LEN];

	memcpy(missing, c->res.meta.missing, sizeof(missing));
	/* intervals: the writer keeps a pointer to the result, which is set up next */
	if (c->opts.intervals_csv && c->opts.interval_ns) {
		c->iw = ival_writer_open(c->opts.intervals_csv, &c->res);
		if (!c->iw)
			return set_err(errbuf, "cannot create %s: %s", c->opts.intervals_csv,
				       strerror(errno));
	}
	/* the real start is set in capture_start(); intervals are relative to it */
	if (result_init(&c->res, c->ncpus, 0, c->opts.interval_ns,
			c->iw ? ival_writer_cb : NULL, c->iw))
		return set_err(errbuf, "out of memory");
	c->res_ready = true;
	c->res.m.comm_resolve = resolve_comm;
	c->res.m.comm_resolve_ctx = c;
	c->res.m.on_interval_end = c->opts.on_interval_end;
	c->res.m.ival_end_ctx = c->opts.interval_ctx;
	c->res.m.long_work_ns = c->opts.long_work_ns;
	memcpy(c->res.meta.missing, missing, sizeof(missing));
	meta_fill(c);
	snprintf(path, sizeof(path), "/proc/kallsyms");
	if (symtab_load(&c->res.syms, path, err))
		warn_msg("%s: work functions will be shown as addresses", err);
	c->res.m.barrier_func = symtab_addr(&c->res.syms, "wq_barrier_func");
	return 0;
}

struct capture *capture_new(const struct capture_opts *opts, char *errbuf)
{
	char *header = NULL, *formats[EV_NR] = { 0 };
	struct comm_entry *comms = NULL;
	struct capture *c;
	size_t hlen = 0, ncomms = 0, i;
	unsigned int dsize = 0;
	int k;

	if (!is_root()) {
		set_err(errbuf, "tracing the kernel needs root: run deferbench as root (sudo)");
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		set_err(errbuf, "out of memory");
		return NULL;
	}
	c->opts = *opts;
	if (opts->cpus) {
		cpu_set_t set;
		char msg[ERRBUF_LEN];

		if (parse_cpulist(opts->cpus, &set, NULL, msg)) {
			set_err(errbuf, "capture CPUs: %s", msg);
			free(c);
			return NULL;
		}
	}
	if (!c->opts.buffer_kb)
		c->opts.buffer_kb = CAPTURE_DEFAULT_BUFFER_KB;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->cond, &ca);
	pthread_condattr_destroy(&ca);
	c->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (map_init(&c->comm_tried, 1, 64)) {
		set_err(errbuf, "out of memory");
		goto out_free;
	}
	if (opts->raw_dir) {
		c->raw_dir = strdup(opts->raw_dir);
		if (!c->raw_dir || mkdir_p(c->raw_dir, 0755)) {
			set_err(errbuf, "cannot create %s: %s", opts->raw_dir, strerror(errno));
			goto out_free;
		}
	}
	if (tracefs_ready(c, errbuf) || read_formats(c, &header, &hlen, formats, errbuf))
		goto out_free;
	if (result_setup(c, errbuf))
		goto out_free;
	if (decoder_setup(c, header, hlen, formats, &dsize, errbuf))
		goto out_free;
	for (k = 0; k < EV_NR; k++)
		if (c->dec.unusable[k]) {
			/* not enabled: its figures are absent, everything else is measured */
			warn_msg("%s has fields deferbench does not know; its figures will be "
				 "absent", ev_names[k].id);
			c->res.meta.missing[k] = true;
			free(formats[k]);
			formats[k] = NULL;
		}
	if (instance_setup(c, errbuf) || events_enable(c, formats, errbuf) ||
	    readers_open(c, errbuf))
		goto out_free;
	if (dsize + SUBBUF_HDR != c->subbuf_size) {
		set_err(errbuf, "events/header_page describes %u-byte sub-buffers, but "
			"trace_pipe_raw reads %u", dsize + SUBBUF_HDR, c->subbuf_size);
		goto out_free;
	}
	/* a kernel bug must not crash the reader: damage is skipped and counted */
	if (merger_init(&c->mg, c->ncpus, &c->dec, &c->res, &(struct page_src){
				.get = src_get, .put = src_put, .horizon = src_horizon, .ctx = c,
				.size = c->subbuf_size, .ts_lo = 0, .ts_hi = UINT64_MAX })) {
		set_err(errbuf, "out of memory");
		goto out_free;
	}
	c->mg_ready = true;
	if (comms_snapshot(&comms, &ncomms))
		warn_msg("cannot list kernel threads: some workers may show as pool 'unknown'");
	for (i = 0; i < ncomms; i++)
		match_comm(&c->res.m, comms[i].pid, comms[i].comm, strlen(comms[i].comm));
	if (c->raw_dir && (raw_save_formats(c->raw_dir, header, hlen, formats) ||
			   raw_save_comms(c->raw_dir, comms, ncomms))) {
		set_err(errbuf, "cannot write the raw capture files in %s", c->raw_dir);
		goto out_free;
	}
	free(comms);
	free(header);
	for (k = 0; k < EV_NR; k++)
		free(formats[k]);
	return c;
out_free:
	free(comms);
	free(header);
	for (k = 0; k < EV_NR; k++)
		free(formats[k]);
	capture_free(c);
	return NULL;
}

/*
 * thread_attr - the attributes of the capture's threads: pinned to opts.cpus when given
 * (checked by capture_new), so that reading and matching stay off the measured CPUs
 */
static int thread_attr(const struct capture *c, pthread_attr_t *attr)
{
	cpu_set_t set;
	int ret = pthread_attr_init(attr);

	if (ret || !c->opts.cpus)
		return ret;
	ret = cpulist_parse_raw(c->opts.cpus, &set, NULL) ? EINVAL : 0;
	ret = ret ?: pthread_attr_setaffinity_np(attr, sizeof(set), &set);
	if (ret)
		pthread_attr_destroy(attr);
	return ret;
}

int capture_start(struct capture *c)
{
	pthread_attr_t attr;
	int i, ret;

	if (c->state != CAP_NEW)
		return -EINVAL;
	/* tracing starts now: intervals count from here, or from the multiple before */
	c->res.start_ts = now_ns();
	c->res.m.t0 = c->res.start_ts;
	if (c->opts.align_intervals && c->opts.interval_ns)
		c->res.m.t0 -= c->res.start_ts % c->opts.interval_ns;
	c->res.m.ival_end = c->opts.interval_ns ? c->res.m.t0 + c->opts.interval_ns : UINT64_MAX;
	/* every event is younger than this; the analysis thread is not running yet */
	c->mg.src.ts_lo = c->res.start_ts > NSEC_PER_SEC ? c->res.start_ts - NSEC_PER_SEC : 0;
	c->state = CAP_RUNNING;
	ret = thread_attr(c, &attr);
	if (ret)
		goto out_stop;
	for (i = 0; i < c->ncpus; i++) {
		if (!c->rd[i].tcpu)
			continue;
		ret = pthread_create(&c->rd[i].thread, &attr, reader_main, &c->rd[i]);
		if (ret)
			break;
		c->rd[i].started = true;
	}
	ret = ret ?: pthread_create(&c->analyser, &attr, analyser_main, c);
	pthread_attr_destroy(&attr);
	if (ret)
		goto out_stop;
	c->analyser_started = true;
	if (tracefs_trace_on(c->inst)) {
		ret = EIO;
		goto out_stop;
	}
	return 0;
out_stop:
	capture_stop(c);
	return -ret;
}

static void stats_read(struct capture *c)
{
	char file[64], *text;
	int i;

	for (i = 0; i < c->ncpus; i++) {
		if (!c->rd[i].tcpu)
			continue;
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", i);
		text = tracefs_instance_file_read(c->inst, file, NULL);
		if (!text) {
			warn_msg("cannot read %s: loss on CPU %d is unknown", file, i);
			c->res.m.n.missed_unknown++;
			continue;
		}
		cpu_loss_parse(text, &c->res.loss[i]);
		free(text);
	}
}

static int raw_finish(struct capture *c)
{
	uint64_t *addrs;
	char path[PATH_MAX];
	uint32_t i;
	int ret;

	ret = raw_save_meta(c->raw_dir, &c->res, c->subbuf_size);
	ret = ret ?: raw_add_comms(c->raw_dir, c->named, c->nnamed);
	if (ret)
		return ret;
	addrs = calloc(c->res.m.nfuncs + 1, sizeof(*addrs));
	if (!addrs)
		return -ENOMEM;
	for (i = 0; i < c->res.m.nfuncs; i++)
		addrs[i] = c->res.m.funcs[i].addr;
	/* offline analysis needs it to tell flush barriers from unmatched starts */
	if (c->res.m.barrier_func)
		addrs[i++] = c->res.m.barrier_func;
	snprintf(path, sizeof(path), "%s/symbols", c->raw_dir);
	ret = symtab_save(&c->res.syms, addrs, i, path);
	free(addrs);
	return ret;
}

int capture_stop(struct capture *c)
{
	int i, ret = 0;

	if (c->state != CAP_RUNNING)
		return c->state == CAP_STOPPED ? 0 : -EINVAL;
	if (c->inst)
		tracefs_trace_off(c->inst);
	c->res.end_ts = now_ns();
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
	c->state = CAP_STOPPED;
	if (c->mg.bad_subbufs || c->mg.bad_records) {
		const struct merge_bad *b = &c->mg.first_bad;

		warn_msg("the kernel's trace buffers held %llu damaged sub-buffer(s) and %llu "
			 "record(s), skipped and counted as lost events (the first on CPU %d, "
			 "sub-buffer %llu, byte %u: %s)", (unsigned long long)c->mg.bad_subbufs,
			 (unsigned long long)c->mg.bad_records, b->cpu,
			 (unsigned long long)b->subbuf, b->offset, b->what);
	}
	c->res.meta.capture_cpu_s = c->analyser_cpu_s;
	for (i = 0; i < c->ncpus; i++)
		c->res.meta.capture_cpu_s += c->rd[i].cpu_s;
	stats_read(c);
	result_finish(&c->res);
	if (c->iw) {
		int r = ival_writer_close(c->iw);

		c->iw = NULL;
		if (r && !ret)
			ret = r;
	}
	if (c->raw_dir) {
		for (i = 0; i < c->ncpus; i++) {
			if (c->rd[i].raw_fd >= 0 && close(c->rd[i].raw_fd) && !ret)
				ret = -errno;
			c->rd[i].raw_fd = -1;
		}
		if (!ret)
			ret = raw_finish(c);
	}
	return ret;
}

void capture_note_command(struct capture *c, int wait_status, bool stopped)
{
	struct result_meta *m = &c->res.meta;

	m->cmd_ended = true;
	m->cmd_stopped = stopped;
	m->cmd_signal = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0;
	m->cmd_exit = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
}

struct result *capture_result(struct capture *c)
{
	return c->state == CAP_STOPPED ? &c->res : NULL;
}

const struct result *capture_live_result(const struct capture *c)
{
	return &c->res;
}

int capture_kernel_lost(struct capture *c, uint64_t *lost)
{
	struct cpu_loss l;
	char file[64], *text;
	int i, ret = 0;

	*lost = 0;
	for (i = 0; i < c->ncpus; i++) {
		if (!c->rd || !c->rd[i].tcpu)
			continue;
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", i);
		text = tracefs_instance_file_read(c->inst, file, NULL);
		if (!text) {
			ret = -errno ?: -EIO;
			continue;
		}
		memset(&l, 0, sizeof(l));
		cpu_loss_parse(text, &l);
		free(text);
		*lost += l.overrun + l.commit_overrun + l.dropped;
	}
	return ret;
}

void capture_free(struct capture *c)
{
	int i;

	if (!c)
		return;
	if (c->state == CAP_RUNNING)
		capture_stop(c);
	if (c->mg_ready)
		merger_free(&c->mg);
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
	if (c->inst) {
		tracefs_trace_off(c->inst);
		if (tracefs_instance_destroy(c->inst))
			err_msg("cannot remove tracefs instance %s: %s", c->name, strerror(errno));
		else
			owned_forget(OWN_INSTANCE, c->inst_path);
		tracefs_instance_free(c->inst);
	}
	if (c->mounted_at) {
		/* we mounted tracefs: leave the machine as we found it */
		if (umount(c->mounted_at))
			debug_msg("cannot unmount %s: %s", c->mounted_at, strerror(errno));
		else
			owned_forget(OWN_MOUNT, c->mounted_at);
		free(c->mounted_at);
	}
	if (c->iw)
		ival_writer_close(c->iw);
	decoder_free(&c->dec);
	if (c->tep)
		tep_free(c->tep);
	if (c->res_ready)
		result_free(&c->res);
	free(c->raw_dir);
	map_free(&c->comm_tried);
	free(c->named);
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
