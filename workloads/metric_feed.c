// SPDX-License-Identifier: GPL-2.0
/*
 * metric_feed.c - a service's latency read live from a file, a FIFO or a command's
 * output (see metric_feed.h).
 */
#include "metric_feed.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "proc.h"
#include "sys.h"

#define FEED_PIPE_POLL_MS 100
#define FEED_DRAIN_NS (2ULL * NSEC_PER_SEC)
#define FEED_SYNC_NS (10ULL * NSEC_PER_SEC)	/* the clocks' offset measured again */
#define FEED_TAIL 300

struct metric_feed {
	struct metric_feed_opts o;
	struct mstream ms;
	char path[PATH_MAX];
	char cmd[512];
	int fd;			/* the stream; -1 while the file is not there */
	bool regular;		/* a regular file: no wakeup, polled */
	dev_t dev;
	ino_t ino;
	pid_t pid;		/* the metric command, 0: none */
	int err_log;		/* its standard error (a memfd), -1: none */
	int status;
	bool reaped;
	pthread_t th;
	bool running;
	int stop;		/* set by metric_feed_stop: drain, then end */
	int err;		/* the first failure, reported through o.fail */
	uint64_t start_ns, first_sample_ns, synced_ns;
	char buf[8192];
};

static void fail(struct metric_feed *f, int err, const char *fmt, ...) __printf(3, 4);

/* fail - the first failure, to the caller once */
static void fail(struct metric_feed *f, int err, const char *fmt, ...)
{
	char msg[ERRBUF_LEN];
	va_list ap;

	if (f->err)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	f->err = err;
	if (f->o.fail)
		f->o.fail(f->o.ctx, err, msg);
}

static const char *source(const struct metric_feed *f)
{
	return f->pid || f->cmd[0] ? f->cmd : f->path;
}

static int one_sample(const struct mstream_sample *s, void *ctx)
{
	struct metric_feed *f = ctx;

	if (!f->first_sample_ns)
		f->first_sample_ns = f->ms.last_ns;	/* its arrival */
	return f->o.sample ? f->o.sample(s, mstream_metric_name(&f->ms, s->metric), f->o.ctx) : 0;
}

/* feed - n bytes read now into the stream */
static void feed(struct metric_feed *f, size_t n)
{
	uint64_t now = now_ns();
	int ret;

	if (now - f->synced_ns > FEED_SYNC_NS) {
		mstream_clock_sync(&f->ms);
		f->synced_ns = now;
	}
	ret = mstream_feed(&f->ms, f->buf, n, now, one_sample, f);
	if (ret)
		fail(f, ret, "%s: a sample could not be kept: %s", source(f), strerror(-ret));
}

/* ---- the source ---- */

/* open_path - the file or FIFO; a regular file there at the start is read from its end */
static int open_path(struct metric_feed *f, bool at_start, char *errbuf)
{
	struct stat st;
	int fd;

	if (stat(f->path, &st))		/* not there yet: its writer will make it */
		return errno == ENOENT ? 0 : errno_msg(errbuf, -errno, "%s: %s", f->path,
						      strerror(errno));
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
		return set_err(errbuf, "%s is neither a file nor a FIFO: give the file your "
			       "service writes its latencies to, or a command that prints them "
			       "(tune --latency-cmd)", f->path);
	/* a FIFO opened for writing too never reads as ended while no writer has it open */
	fd = open(f->path, (S_ISFIFO(st.st_mode) ? O_RDWR | O_NONBLOCK : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return errno_msg(errbuf, -errno, "%s: %s", f->path, strerror(errno));
	f->regular = S_ISREG(st.st_mode);
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	if (f->regular && at_start && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return errno_msg(errbuf, -errno, "%s: %s", f->path, strerror(errno));
	}
	f->fd = fd;
	return 0;
}

/* rotated - the path now names another file, or ours shrank: read it from its start */
static void rotated(struct metric_feed *f)
{
	struct stat st, cur;
	char err[ERRBUF_LEN];

	if (fstat(f->fd, &cur) || stat(f->path, &st))
		return;
	if (st.st_dev != f->dev || st.st_ino != f->ino) {
		close(f->fd);
		f->fd = -1;
		if (open_path(f, false, err))
			fail(f, -EIO, "%s", err);
	} else if (cur.st_size < lseek(f->fd, 0, SEEK_CUR)) {
		lseek(f->fd, 0, SEEK_SET);
	}
}

static int start_cmd(struct metric_feed *f, char *errbuf)
{
	struct proc_opts po = { .group = true, .parent_death = true };
	char *argv[] = { "/bin/sh", "-c", f->cmd, NULL };
	int fds[2], ret;

	f->err_log = memfd_create("deferbench-metric-cmd", MFD_CLOEXEC);
	if (f->err_log < 0 || pipe2(fds, O_CLOEXEC))
		return errno_msg(errbuf, -errno, "the latency command: %s", strerror(errno));
	po.out_fd = fds[1];
	po.err_fd = f->err_log;
	ret = proc_spawn(argv, &po, &f->pid, errbuf);
	close(fds[1]);
	if (ret) {
		close(fds[0]);
		return ret;
	}
	f->fd = fds[0];
	fcntl(f->fd, F_SETFL, O_NONBLOCK);
	return 0;
}

/* err_tail - the last of what the metric command wrote to its standard error */
static const char *err_tail(const struct metric_feed *f, char *buf, size_t len)
{
	off_t end = f->err_log >= 0 ? lseek(f->err_log, 0, SEEK_END) : 0;
	off_t from = end > (off_t)(len - 1) ? end - (off_t)(len - 1) : 0;
	ssize_t n = end > 0 ? pread(f->err_log, buf, (size_t)(end - from), from) : 0;
	size_t i;

	buf[n > 0 ? n : 0] = '\0';
	for (i = 0; buf[i]; i++)
		if (buf[i] == '\n' || buf[i] == '\r')
			buf[i] = ' ';
	return buf[0] ? buf : "nothing";
}

static int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- the reader ---- */

/* check_time - nothing came at all, or the samples stopped coming */
static void check_time(struct metric_feed *f, uint64_t now)
{
	uint64_t stall = f->o.stall_min_ns ? f->o.stall_min_ns : FEED_STALL_MIN_NS, gap;
	char why[ERRBUF_LEN];

	if (!f->ms.samples) {
		if (f->o.first_ns && now - f->start_ns > f->o.first_ns)
			fail(f, -ENODATA, "%s: no sample in the first %.1f s: %s%s", source(f),
			     (double)f->o.first_ns / 1e9,
			     mstream_verdict(&f->ms, why, sizeof(why)) ?: "",
			     f->fd < 0 ? " (the file does not exist)" : "");
		return;
	}
	gap = f->ms.samples > 1 ? (f->ms.last_ns - f->first_sample_ns) / (f->ms.samples - 1) : 0;
	if (10 * gap > stall)
		stall = 10 * gap;
	if (now - f->ms.last_ns > stall)
		fail(f, -ETIMEDOUT, "%s: the stream stopped: %llu samples came, the last %.1f s "
		     "ago (one every %.3g s before); the service must write its latencies for as "
		     "long as the run goes", source(f), (unsigned long long)f->ms.samples,
		     (double)(now - f->ms.last_ns) / 1e9, (double)gap / 1e9);
}

enum got { GOT_DATA, GOT_NONE, GOT_END };

/* read_some - what can be read now (a pipe or FIFO: within timeout_ms) */
static enum got read_some(struct metric_feed *f, int timeout_ms)
{
	struct pollfd pfd = { .fd = f->fd, .events = POLLIN };
	ssize_t n;

	if (!f->regular && poll(&pfd, 1, timeout_ms) <= 0)
		return GOT_NONE;
	n = read(f->fd, f->buf, sizeof(f->buf));
	if (n > 0) {
		feed(f, (size_t)n);
		return GOT_DATA;
	}
	if (n < 0)
		return GOT_NONE;	/* EAGAIN, EINTR: again later */
	if (f->regular) {
		rotated(f);
		return GOT_NONE;
	}
	return GOT_END;			/* a pipe whose writer is gone */
}

/* cmd_ended - the metric command closed its output while the run went on */
static void cmd_ended(struct metric_feed *f)
{
	char tail[FEED_TAIL];

	if (!f->reaped)
		f->reaped = proc_reap(f->pid, &f->status, FEED_DRAIN_NS);
	fail(f, -ECHILD, "the metric command '%s' ended (status %d) while the run went on: it "
	     "must write samples for as long as tune runs; it printed on stderr: %s", f->cmd,
	     f->reaped ? exit_code(f->status) : -1, err_tail(f, tail, sizeof(tail)));
}

/* drain - after stop: the lines still there, the command's output to its end */
static void drain(struct metric_feed *f)
{
	uint64_t end = now_ns() + FEED_DRAIN_NS;
	char err[ERRBUF_LEN];
	enum got g = GOT_DATA;

	if (f->pid && !f->reaped)
		kill(-f->pid, SIGTERM);
	if (f->fd < 0 && f->path[0] && open_path(f, false, err))
		fail(f, -EIO, "%s", err);	/* a log written when its writer ended */
	/* a command: until its output ends; a file or FIFO: until nothing more is there */
	while (f->fd >= 0 && now_ns() < end && g != GOT_END && (f->pid || g == GOT_DATA))
		g = read_some(f, f->pid ? FEED_PIPE_POLL_MS : 0);
	mstream_finish(&f->ms, now_ns(), one_sample, f);
	if (f->pid && !f->reaped) {
		f->reaped = proc_reap(f->pid, &f->status, FEED_DRAIN_NS);
		if (!f->reaped) {
			kill(-f->pid, SIGKILL);
			f->reaped = proc_reap(f->pid, &f->status, FEED_DRAIN_NS);
		}
	}
}

static void *reader(void *arg)
{
	struct metric_feed *f = arg;
	struct timespec poll_file = { 0, (long)FEED_FILE_POLL_NS };
	char err[ERRBUF_LEN];

	while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE) && !f->err) {
		if (f->fd < 0) {
			if (open_path(f, false, err))
				fail(f, -EIO, "%s", err);
			if (f->fd < 0)
				nanosleep(&poll_file, NULL);
		} else if (f->regular) {
			if (read_some(f, 0) == GOT_NONE)
				nanosleep(&poll_file, NULL);
		} else if (read_some(f, FEED_PIPE_POLL_MS) == GOT_END) {
			if (f->pid)
				cmd_ended(f);
			break;
		}
		check_time(f, now_ns());
	}
	if (!f->err)
		drain(f);
	return NULL;
}

struct metric_feed *metric_feed_start(const struct metric_feed_opts *o, char *errbuf)
{
	struct metric_feed *f = calloc(1, sizeof(*f));
	int ret;

	if (!f) {
		errno_msg(errbuf, -ENOMEM, "out of memory");
		return NULL;
	}
	f->o = *o;
	f->fd = f->err_log = -1;
	f->start_ns = f->synced_ns = now_ns();
	mstream_init(&f->ms, o->fmt, f->start_ns);
	mstream_clock_sync(&f->ms);
	if (o->cmd) {
		snprintf(f->cmd, sizeof(f->cmd), "%s", o->cmd);
		ret = strlen(o->cmd) >= sizeof(f->cmd) ?
		      set_err(errbuf, "the latency command: longer than %zu characters", sizeof(f->cmd) - 1) :
		      start_cmd(f, errbuf);
	} else {
		snprintf(f->path, sizeof(f->path), "%s", o->path);
		ret = open_path(f, true, errbuf);
	}
	if (!ret) {
		ret = -pthread_create(&f->th, NULL, reader, f);
		if (ret)
			errno_msg(errbuf, ret, "cannot start the metric reader: %s", strerror(-ret));
	}
	if (ret) {
		f->running = false;
		metric_feed_free(f);
		errno = -ret;
		return NULL;
	}
	f->running = true;
	return f;
}

int metric_feed_stop(struct metric_feed *f)
{
	if (f->running) {
		__atomic_store_n(&f->stop, 1, __ATOMIC_RELEASE);
		pthread_join(f->th, NULL);
		f->running = false;
	}
	return f->err;
}

const struct mstream *metric_feed_stream(const struct metric_feed *f)
{
	return &f->ms;
}

void metric_feed_free(struct metric_feed *f)
{
	if (!f)
		return;
	metric_feed_stop(f);
	if (f->pid && !f->reaped) {
		kill(-f->pid, SIGKILL);
		proc_reap(f->pid, &f->status, FEED_DRAIN_NS);
	}
	if (f->fd >= 0)
		close(f->fd);
	if (f->err_log >= 0)
		close(f->err_log);
	free(f);
}
