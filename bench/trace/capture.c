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
#include <sys/mount.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#include "decode.h"
#include "merge.h"
#include "output.h"
#include "raw.h"
#include "names.h"
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
	if (mount("nodev", dir, "tracefs", 0, NULL))
		return set_err(errbuf, "tracefs is not mounted and mounting it at %s failed: %s "
			       "(try: mount -t tracefs nodev %s)", dir, strerror(errno), dir);
	c->mounted_at = strdup(dir);
	if (tracefs_set_tracing_dir((char *)dir))
		return set_err(errbuf, "cannot use tracefs at %s", dir);
	return 0;
}

static int instance_setup(struct capture *c, char *errbuf)
{
	char val[32], *clock;

	snprintf(c->name, sizeof(c->name), NAME_INSTANCE_PREFIX "%d", (int)getpid());
	if (tracefs_instance_exists(c->name))
		return set_err(errbuf, "tracefs instance %s already exists (left by a crashed run "
			       "with this pid?); remove it with 'deferbench restore'", c->name);
	c->inst = tracefs_instance_create(c->name);
	if (!c->inst)
		return set_err(errbuf, "cannot create tracefs instance %s: %s", c->name,
			       strerror(errno));
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

static int events_enable(struct capture *c, char *const formats[EV_NR], char *errbuf)
{
	int k;

	for (k = 0; k < EV_NR; k++) {
		if (!formats[k])
			continue;
		if (tracefs_event_enable(c->inst, ev_names[k].system, ev_names[k].name))
			return set_err(errbuf, "cannot enable %s:%s: %s", ev_names[k].system,
				       ev_names[k].name, strerror(errno));
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
}

static int result_setup(struct capture *c, char *errbuf)
{
	bool missing[EV_NR];
	char path[PATH_MAX];

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
	memcpy(c->res.meta.missing, missing, sizeof(missing));
	meta_fill(c);
	snprintf(path, sizeof(path), "/proc/kallsyms");
	if (symtab_load(&c->res.syms, path))
		warn_msg("cannot read %s: work functions will be shown as addresses", path);
	c->res.m.barrier_func = symtab_addr(&c->res.syms, "wq_barrier_func");
	return 0;
}

struct capture *capture_new(const struct capture_opts *opts, char *errbuf)
{
	char *header = NULL, *formats[EV_NR] = { 0 };
	struct comm_entry *comms = NULL;
	struct capture *c;
	size_t hlen = 0, ncomms = 0, i;
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
	if (!c->opts.buffer_kb)
		c->opts.buffer_kb = CAPTURE_DEFAULT_BUFFER_KB;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->cond, &ca);
	pthread_condattr_destroy(&ca);
	c->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
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
	c->tep = decoder_new_tep(header, hlen, formats, errbuf);
	if (!c->tep || decoder_init(&c->dec, c->tep, errbuf))
		goto out_free;
	if (instance_setup(c, errbuf) || events_enable(c, formats, errbuf) ||
	    readers_open(c, errbuf))
		goto out_free;
	if (merger_init(&c->mg, c->ncpus, &c->dec, &c->res,
			&(struct page_src){ src_get, src_put, src_horizon, c })) {
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

int capture_start(struct capture *c)
{
	int i, ret;

	if (c->state != CAP_NEW)
		return -EINVAL;
	/* tracing starts now: intervals count from here */
	c->res.start_ts = now_ns();
	c->res.m.t0 = c->res.start_ts;
	c->res.m.ival_end = c->opts.interval_ns ? c->res.start_ts + c->opts.interval_ns : UINT64_MAX;
	c->state = CAP_RUNNING;
	for (i = 0; i < c->ncpus; i++) {
		if (!c->rd[i].tcpu)
			continue;
		ret = pthread_create(&c->rd[i].thread, NULL, reader_main, &c->rd[i]);
		if (ret)
			goto out_stop;
		c->rd[i].started = true;
	}
	ret = pthread_create(&c->analyser, NULL, analyser_main, c);
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

struct result *capture_result(struct capture *c)
{
	return c->state == CAP_STOPPED ? &c->res : NULL;
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
		tracefs_instance_free(c->inst);
	}
	if (c->mounted_at) {
		/* we mounted tracefs: leave the machine as we found it */
		if (umount(c->mounted_at))
			debug_msg("cannot unmount %s: %s", c->mounted_at, strerror(errno));
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
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
