// SPDX-License-Identifier: GPL-2.0
/*
 * command.c - the user's own workload, for `deferbench tune`: the command tune started
 * in a process group of its own (command_spawn) and watched before the run, handed over
 * to this workload (command_workload_adopt) and stopped with it (SIGTERM to the group,
 * SIGKILL 5 s later); with no command (tune --live) the machine's own work.
 *
 * It measures nothing by itself. With option metric, the command's own latency is read
 * at stop from the file it writes: per-interval histograms in the format of
 * workload-intervals.csv, intervals on multiples of CLOCK_MONOTONIC, as `deferbench load
 * -i INTERVAL -o DIR` writes DIR/workload-intervals.csv (docs/tune.md). Each histogram
 * becomes a metric of this workload, its samples due in the middle of their interval,
 * so that an alternating run assigns them to its phases like any workload's.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "csvread.h"
#include "proc.h"
#include "workload.h"
#include "msg.h"
#include "sys.h"

#define CMD_STOP_TIMEOUT_NS (5 * NSEC_PER_SEC)
#define CMD_LOG_TAIL 400

/* the command tune started and handed over (command_workload_adopt), if any */
static pid_t adopted_pid;
static int adopted_log = -1;

int command_spawn(char *const *argv, pid_t *pid, int *log_fd, char *errbuf)
{
	struct proc_opts o = { .group = true, .parent_death = true };
	int ret;

	*pid = 0;
	*log_fd = memfd_create("deferbench-command", MFD_CLOEXEC);
	if (*log_fd < 0)
		return set_err(errbuf, "cannot keep the command's output: %s", strerror(errno));
	o.out_fd = *log_fd;
	ret = proc_spawn(argv, &o, pid, errbuf);
	if (ret) {
		close(*log_fd);
		*log_fd = -1;
	}
	return ret;
}

void command_workload_adopt(pid_t pid, int log_fd)
{
	adopted_pid = pid;
	adopted_log = log_fd;
}

void command_workload_end(void)
{
	int status;

	if (adopted_pid > 0) {
		kill(-adopted_pid, SIGTERM);
		if (!proc_reap(adopted_pid, &status, CMD_STOP_TIMEOUT_NS)) {
			kill(-adopted_pid, SIGKILL);
			proc_reap(adopted_pid, &status, CMD_STOP_TIMEOUT_NS);
		}
	}
	if (adopted_log >= 0)
		close(adopted_log);
	adopted_pid = 0;
	adopted_log = -1;
}

struct command_cfg {
	char metric[WL_STR_MAX];	/* a workload-intervals.csv the command writes, or "" */
};

struct command_priv {
	pid_t pid;			/* 0: not running */
	int log_fd;			/* the command's stdout and stderr (a memfd) */
	int status;
	bool reaped;
	char names[WL_MAX_METRICS][64];
};

static const struct opt_desc command_options[] = {
	OPT_STRING_BUF(0, NULL, command_cfg, metric, "TEXT",
		       "the command's latency: a workload-intervals.csv it writes "
		       "(deferbench load -i INTERVAL -o DIR writes "
		       "DIR/workload-intervals.csv), read when it stops",
		       .key = "metric", .def = "", .zero = true),
	OPT_END(),
};

static int command_setup(struct wl_run *w, char *errbuf __unused)
{
	struct command_priv *p = w->priv;

	/* the command tune started (and surveyed) becomes this workload; none: --live */
	p->pid = adopted_pid;
	p->log_fd = adopted_log;
	return 0;
}

/* log_tail - the last bytes the command printed, on one line, for a message */
static void log_tail(const struct command_priv *p, char *buf, size_t len)
{
	off_t end = p->log_fd >= 0 ? lseek(p->log_fd, 0, SEEK_END) : 0;
	off_t from = end > (off_t)(len - 1) ? end - (off_t)(len - 1) : 0;
	ssize_t n = end > 0 ? pread(p->log_fd, buf, (size_t)(end - from), from) : 0;
	size_t i;

	buf[n > 0 ? n : 0] = '\0';
	for (i = 0; buf[i]; i++)
		if (buf[i] == '\n' || buf[i] == '\r')
			buf[i] = ' ';
}

static int command_start(struct wl_run *w __unused, char *errbuf __unused)
{
	return 0;	/* running since tune started it */
}

/* reap - the command ended (or did within timeout_ns): true once reaped */
static bool reap(struct command_priv *p, uint64_t timeout_ns)
{
	if (!p->reaped)
		p->reaped = proc_reap(p->pid, &p->status, timeout_ns);
	return p->reaped;
}

/*
 * command_measure - the window opened: a command that is gone already would leave the
 * phases without the load they are to be judged under
 */
static void command_measure(struct wl_run *w)
{
	struct command_priv *p = w->priv;
	char tail[CMD_LOG_TAIL];

	if (p->pid && reap(p, 0)) {
		log_tail(p, tail, sizeof(tail));
		wl_fail(w, -ECHILD, "the command ended (status %d) before the measurement began: "
			"it must run at least as long as tune (-d); it printed: %s",
			WIFEXITED(p->status) ? WEXITSTATUS(p->status) : 128 + WTERMSIG(p->status),
			tail[0] ? tail : "nothing");
	}
}

enum { MC_T, MC_KIND, MC_NAME, MC_BUCKETS };
static const char *const metric_cols[] = { "t_s", "kind", "name", "buckets", NULL };

struct metric_read {
	struct wl_run *w;
	uint64_t iv;			/* the file's interval, from the first two rows */
	double first_t;
	uint64_t from, until;		/* the window */
};

static int metric_index(struct wl_run *w, const char *name)
{
	struct command_priv *p = w->priv;
	int i;

	for (i = 0; i < w->metrics.nmetrics; i++)
		if (!strcmp(w->metrics.metric[i].name, name))
			return i;
	if (w->metrics.nmetrics >= WL_MAX_METRICS)
		return -ENOSPC;
	snprintf(p->names[w->metrics.nmetrics], sizeof(p->names[0]), "%s", name);
	return wl_metric_add(w, p->names[w->metrics.nmetrics], "ns",
			     "the command's own latency, from its metric file");
}

static int metric_row(const struct csvr *r, void *ctx)
{
	struct metric_read *mr = ctx;
	struct bucketlist bl = { 0 };
	char err[ERRBUF_LEN];
	uint64_t due;
	double t;
	size_t i;
	int m, ret;

	if (strcmp(csvr_str(r, MC_KIND), "workload"))
		return 0;
	ret = csvr_double(r, MC_T, &t);
	if (ret)
		return ret;
	/* the middle of the interval the row is for: inside it whatever the interval */
	due = (uint64_t)llround(t * 1e9) + mr->iv / 2;
	if (due < mr->from || due >= mr->until)
		return 0;
	m = metric_index(mr->w, csvr_str(r, MC_NAME));
	if (m < 0)
		return csvr_fail(r, "more than %d metrics", WL_MAX_METRICS);
	if (bucketlist_parse(csvr_str(r, MC_BUCKETS), &bl, err))
		return csvr_fail(r, "column 'buckets': %s", err);
	for (i = 0; i < bl.n; i++) {
		uint64_t v = bl.b[i].lo + (bl.b[i].hi - bl.b[i].lo) / 2, k;

		for (k = 0; k < bl.b[i].count; k++)
			wl_record(mr->w, m, due, v);
	}
	bucketlist_free(&bl);
	return 0;
}

/* read_metric - the command's metric file into this workload's metrics */
static void read_metric(struct wl_run *w)
{
	const struct command_cfg *c = w->cfg;
	struct metric_read mr = { .w = w, .iv = w->interval_ns };
	char err[ERRBUF_LEN];

	if (!c->metric[0])
		return;
	wl_window_bounds(w, &mr.from, &mr.until);
	if (csvr_read(c->metric, metric_cols, metric_row, &mr, err))
		wl_fail(w, -EINVAL, "the command's metric: %s", err);
	else if (!w->metrics.nmetrics)
		wl_fail(w, -ENODATA, "the command's metric %s holds no interval inside the "
			"measurement: did it run with -i at the run's interval and write it?",
			c->metric);
}

static void command_stop(struct wl_run *w)
{
	struct command_priv *p = w->priv;

	if (p->pid && !p->reaped) {
		kill(-p->pid, SIGTERM);
		if (!reap(p, CMD_STOP_TIMEOUT_NS)) {
			kill(-p->pid, SIGKILL);
			reap(p, CMD_STOP_TIMEOUT_NS);
		}
	}
	read_metric(w);
}

static void command_teardown(struct wl_run *w)
{
	struct command_priv *p = w->priv;

	if (p->pid && !p->reaped) {
		kill(-p->pid, SIGKILL);
		reap(p, CMD_STOP_TIMEOUT_NS);
	}
	if (p->pid == adopted_pid)
		adopted_pid = 0;	/* reaped here: command_workload_end has nothing to do */
	p->pid = 0;
	p->log_fd = -1;			/* tune's: command_workload_end closes it */
}

const struct workload_ops command_workload = {
	.name = "command",
	.help = "the command deferbench tune was given (its own latency from a metric file), "
		"or nothing: the machine's own work",
	.options = command_options,
	.cfg_size = sizeof(struct command_cfg),
	.priv_size = sizeof(struct command_priv),
	.setup = command_setup,
	.start = command_start,
	.stop = command_stop,
	.teardown = command_teardown,
	.measure = command_measure,
};
