// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_top.c - deferbench top: a live view of workqueues and softirqs, one screen (or one
 * JSON line) per interval, from the same capture engine as record. Like rtla timerlat
 * top and the kernel's wq_monitor.py, without drgn or debuginfo.
 *
 * The capture's analysis thread closes each interval (top_snap.h) and hands it over a
 * pipe; this thread waits on that pipe and, on a terminal, on the keyboard. Intervals
 * are aligned to multiples of the interval on the trace clock (so that 'record -i DUR
 * --align-intervals' beside it has the same ones); the first, partial one is not shown.
 * It stops at q, Ctrl-C, SIGTERM, a closed terminal (SIGHUP) or a closed pipe, and
 * always removes its tracefs instance.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "capture.h"
#include "cli.h"
#include "top_view.h"
#include "msg.h"
#include "parse.h"
#include "file.h"
#include "sys.h"

static const struct opt_desc top_opts[] = {
	CAPTURE_OPT_INTERVAL(top_args, cap, TOP_MIN_INTERVAL_NS,
			     "the interval of every figure, and the refresh"),
	CLI_OPT_DURATION(top_args, duration_ns, "stop after DUR (default: q, Ctrl-C)"),
	OPT_BOOL(0, "once", top_args, once, "print the first whole interval and exit"),
	CLI_OPT_JSON(top_args, json, "one JSON object per interval, one per line"),
	OPT_ENUM('s', "sort", top_args, sort, "KEY", top_sort_names, TS_NR,
		 "sort the workqueue rows by KEY"),
	OPT_ENUM('g', "group", top_args, group, "BY", top_group_names, TOP_GROUP_NR,
		 "one workqueue row per BY"),
	OPT_UINT(0, "rows", top_args, rows, "N", 1, 100000,
		 "show the first N workqueue rows; all when not given"),
	CAPTURE_OPTS(top_args, cap),
	CLI_TABLE_OPTS(top_args),
	OPT_ALIAS('n', NULL, "rows", "-n means --dry-run"),
	OPT_HELP(),
	OPT_END(),
};

static void top_defaults(void *args)
{
	struct top_args *a = args;

	memset(a, 0, sizeof(*a));
	opts_defaults(top_opts, a, NULL);
	a->sort = TS_ITEMS;
	a->group = TOP_BY_WQ;
	a->table.min_count = TABLE_MIN_COUNT;
}

const struct cli_command cli_top = {
	.name = "top",
	.fn = cmd_top,
	.summary = "live view: workqueues and softirqs per interval, like top",
	.usage = "deferbench top [-i DUR] [-d DUR] [--once] [--json] [-s KEY] [-g BY] [--rows N]",
	.desc =
	"A live view of deferred work, refreshed every interval: per workqueue items/s,\n"
	"items in flight, CPU time, items over cpu_intensive_thresh_us, rescuer runs and\n"
	"delay (queue_work -> execute_start) p50/p99/max; per softirq vector and context\n"
	"(inline, ksoftirqd, ktimers, irq thread) runs/s, ksoftirqd share, delay (raise ->\n"
	"entry) p50/p99, runtime p99 and runs over 2 ms; napi, irq and PREEMPT_RT threads,\n"
	"tasklets. Lost events are in the header whenever there are some. Keys on a\n"
	"terminal: q quit, s sort, g group.\n"
	"Plain text in a pipe; --json for other tools. Needs root.",
	.examples = "deferbench top --once\n"
		    "deferbench top -g pool -s p99 -i 2s",
	.opts = top_opts,
	.args_size = sizeof(struct top_args),
	.defaults = top_defaults,
};

int top_parse_args(int argc, char **argv, struct top_args *a, char *errbuf)
{
	int first, ret;

	top_defaults(a);
	ret = opts_parse(top_opts, OPTS_PERMUTE, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	if (first < argc)
		return set_err(errbuf, "unexpected argument '%s'", argv[first]);
	if (a->duration_ns && a->duration_ns < a->cap.interval_ns)
		return set_err(errbuf, "--duration is shorter than one --interval: nothing to show");
	return 0;
}

#define QUEUE_LEN 8

struct top {
	const struct top_args *a;
	struct capture *c;
	const struct result *res;
	_Atomic int group;
	pthread_mutex_t lock;
	struct top_snap *q[QUEUE_LEN];	/* intervals closed and not yet shown */
	size_t nq;
	uint64_t events_before;		/* analysis thread only */
	int pipe[2];
	struct top_view v;
	struct top_snap *last;		/* shown last (redrawn when the sort changes) */
	uint64_t lost_before;
	struct termios saved;
	bool tty_raw;
};

/* on_interval - analysis thread: take the interval that ends, hand it over */
static void on_interval(void *ctx, const struct matcher *m __unused, uint64_t interval)
{
	struct top *t = ctx;
	/* --json has every row; the screen folds the small ones */
	struct top_snap *s = top_snap_take(t->res, interval, atomic_load(&t->group),
					   t->a->json ? 0 : t->a->table.min_count,
					   &t->events_before);

	if (!s)
		return;
	pthread_mutex_lock(&t->lock);
	/* a reader that fell behind sees the newest intervals */
	if (t->nq == QUEUE_LEN) {
		top_snap_free(t->q[0]);
		memmove(t->q, t->q + 1, (QUEUE_LEN - 1) * sizeof(*t->q));
		t->nq--;
	}
	t->q[t->nq++] = s;
	pthread_mutex_unlock(&t->lock);
	if (write(t->pipe[1], "", 1) < 0)
		debug_msg("top: cannot wake the display: %s", strerror(errno));
}

static struct top_snap *pop(struct top *t)
{
	struct top_snap *s = NULL;

	pthread_mutex_lock(&t->lock);
	if (t->nq) {
		s = t->q[0];
		memmove(t->q, t->q + 1, (t->nq - 1) * sizeof(*t->q));
		t->nq--;
	}
	pthread_mutex_unlock(&t->lock);
	return s;
}

/* show - one interval; false when the output is gone (a closed pipe or terminal) */
static bool show(struct top *t, struct top_snap *s)
{
	uint64_t kernel = 0, total;

	/* the kernel's counters and the in-band markers count the same losses */
	if (capture_kernel_lost(t->c, &kernel))
		debug_msg("top: cannot read the ring buffer stats");
	total = kernel > s->lost_in_band ? kernel : s->lost_in_band;
	t->v.lost_total = total;
	t->v.lost_interval = total - t->lost_before;
	t->lost_before = total;
	t->v.group = atomic_load(&t->group);
	top_sort_rows(s, t->v.sort);
	if (t->a->json) {
		if (top_print_json(stdout, s, &t->v))
			err_msg("top: out of memory");
	} else {
		top_print_text(stdout, s, &t->v);
	}
	return fflush(stdout) == 0 && !ferror(stdout);
}

static void tty_raw(struct top *t)
{
	struct termios raw;

	if (t->a->json || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ||
	    tcgetattr(STDIN_FILENO, &t->saved))
		return;
	raw = t->saved;
	raw.c_lflag &= ~(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (!tcsetattr(STDIN_FILENO, TCSANOW, &raw))
		t->tty_raw = true;
}

static void tty_restore(struct top *t)
{
	if (t->tty_raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &t->saved);
	t->tty_raw = false;
}

/* keys - q, s, g; returns false on q */
static bool keys(struct top *t)
{
	char k[16];
	ssize_t n, i;

	n = read(STDIN_FILENO, k, sizeof(k));
	for (i = 0; i < n; i++) {
		if (k[i] == 'q' || k[i] == 'Q')
			return false;
		if (k[i] == 's')
			t->v.sort = (t->v.sort + 1) % TS_NR;
		if (k[i] == 'g')
			atomic_store(&t->group, (atomic_load(&t->group) + 1) % TOP_GROUP_NR);
	}
	/* a new sort shows at once; a new grouping from the next interval on */
	if (n > 0 && t->last)
		show(t, t->last);
	return true;
}

/* loop - until q, a signal, the duration, --once, or the output is gone */
static int loop(struct top *t)
{
	uint64_t deadline = t->a->duration_ns ? now_ns() + t->a->duration_ns : UINT64_MAX;
	struct pollfd fd[2] = { { t->pipe[0], POLLIN, 0 }, { STDIN_FILENO, POLLIN, 0 } };
	uint64_t start = t->res->start_ts, ival = t->a->cap.interval_ns, last_end = 0, want;
	size_t shown = 0;
	char drain[64];

	/*
	 * With a duration, the last interval to show is the one that ends before it (both
	 * on CLOCK_MONOTONIC); it closes a little later, when the readers have drained it:
	 * wait up to a second for it
	 */
	want = deadline == UINT64_MAX ? UINT64_MAX : deadline - deadline % ival;
	while (!stop_requested) {
		uint64_t now = now_ns(), until;
		struct top_snap *s;
		int timeout;

		until = now < deadline ? deadline : deadline + NSEC_PER_SEC;
		if (now >= until || (now >= deadline && last_end >= want))
			break;
		timeout = until - now > 200 * NSEC_PER_MSEC ? 200 :
			  (int)((until - now) / NSEC_PER_MSEC) + 1;
		if (poll(fd, t->tty_raw ? 2 : 1, timeout) < 0 && errno != EINTR)
			return -errno;
		if (t->tty_raw && (fd[1].revents & POLLIN) && !keys(t))
			break;
		if (fd[0].revents & POLLIN)
			while (read(t->pipe[0], drain, sizeof(drain)) == (ssize_t)sizeof(drain))
				;
		while ((s = pop(t))) {
			/* the first interval began before the capture: not a whole one */
			if (s->start_ns < start) {
				top_snap_free(s);
				continue;
			}
			top_snap_free(t->last);
			t->last = s;
			last_end = s->end_ns;
			if (!show(t, s))
				return 0;	/* nobody reads any more */
			shown++;
			if (t->a->once)
				return 0;
		}
	}
	if (t->a->once && !shown && !stop_requested)
		return -ETIME;
	return 0;
}

/* thresh_us - the kernel's CPU-intensive threshold for work items */
static uint64_t thresh_us(void)
{
	char buf[32], err[ERRBUF_LEN];
	uint64_t v;

	if (read_file("/sys/module/workqueue/parameters/cpu_intensive_thresh_us", buf,
		      sizeof(buf)) || parse_u64(buf, 1, UINT32_MAX, &v, err))
		return 10000;	/* the kernel's default */
	return v;
}

int cmd_top(int argc, char **argv)
{
	char err[ERRBUF_LEN] = "";
	struct top_args a;
	struct top t = { .a = &a, .pipe = { -1, -1 } };
	struct capture_opts co = { 0 };
	int ret;

	ret = cli_parsed(top_parse_args(argc, argv, &a, err), &cli_top, err, 1);
	if (ret >= 0)
		return ret;
	if (!host_is_root()) {
		err_msg("top: tracing the kernel needs root; run it as root (sudo)");
		return 1;
	}
	stop_on_signals();
	pthread_mutex_init(&t.lock, NULL);
	atomic_store(&t.group, a.group);
	t.v = (struct top_view){ .group = a.group, .sort = a.sort, .rows = a.rows,
				 .table = a.table, .ncpus = (int)sysconf(_SC_NPROCESSORS_CONF), .thresh_us = thresh_us() };
	if (pipe2(t.pipe, O_CLOEXEC | O_NONBLOCK)) {
		err_msg("top: cannot create a pipe: %s", strerror(errno));
		return 1;
	}
	capture_settings_apply(&a.cap, &co);
	co.align_intervals = true;
	co.on_interval_end = on_interval;
	co.interval_ctx = &t;
	co.long_work_ns = t.v.thresh_us * NSEC_PER_USEC;
	co.command = "deferbench top";
	t.c = capture_new(&co, err);
	if (!t.c) {
		err_msg("top: %s", err);
		ret = -EINVAL;
		goto out_close;
	}
	t.res = capture_live_result(t.c);
	ret = capture_start(t.c);
	if (ret) {
		err_msg("top: cannot start the capture: %s", strerror(-ret));
		goto out_free;
	}
	tty_raw(&t);
	t.v.keys = t.tty_raw;
	t.v.clear = t.tty_raw;
	ret = loop(&t);
	tty_restore(&t);
	if (ret == -ETIME)
		err_msg("top: no whole interval within --duration; give it longer");
	else if (ret)
		err_msg("top: %s", strerror(-ret));
	if (capture_stop(t.c) && !ret)
		ret = -EIO;
out_free:
	/* the instance goes on every path: q, a signal, an error, a closed output */
	if (capture_free(t.c) && !ret)
		ret = -EIO;
	while (t.nq)
		top_snap_free(t.q[--t.nq]);
	top_snap_free(t.last);
out_close:
	close(t.pipe[0]);
	close(t.pipe[1]);
	pthread_mutex_destroy(&t.lock);
	return ret ? 1 : 0;
}
