// SPDX-License-Identifier: GPL-2.0
/*
 * command.c - the user's own workload, for `deferbench tune`: the command tune started
 * in a session of its own (command_spawn) and watched before the run, handed over to
 * this workload (command_workload_adopt) and stopped with it - its whole process tree,
 * followed through setsid() and double forks (proctree.h): SIGTERM, SIGKILL 5 s later;
 * with no command (tune --live) the machine's own work. From the window's opening to
 * the stop a watcher fails the workload when the command ends or a process of it
 * leaves its session: tune must not judge phases the command no longer loaded.
 *
 * It measures nothing by itself. Its own latency comes from option metric or
 * metric_cmd (docs/tune.md, "Your latency, your format"):
 *   - a stream read live while the run goes (metric_feed.h): a file being appended or a
 *     FIFO (metric), or the standard output of a shell command (metric_cmd), in the line
 *     format, fio's latency logs or ping's output (mstream.h). Each sample is recorded
 *     as due when its operation began - its end (its timestamp, or its arrival) less its
 *     latency - so that an alternating run assigns it to its phases like any
 *     workload's; a stream that stops, or a metric command that ends, fails the run;
 *   - per-interval histograms in the format of workload-intervals.csv (metric_format
 *     intervals, or auto for a name ending in .csv), read at stop, intervals on
 *     multiples of CLOCK_MONOTONIC, as `deferbench load -i INTERVAL -o DIR` writes
 *     DIR/workload-intervals.csv; each histogram becomes a metric, its samples due in
 *     the middle of their interval.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "csvread.h"
#include "metric_feed.h"
#include "proc.h"
#include "proctree.h"
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
	struct proc_opts o = { .session = true, .parent_death = true };
	int ret;

	*pid = 0;
	/* what the command double-forks or detaches comes to deferbench, not to init */
	if (proctree_subreaper())
		return set_err(errbuf, "cannot follow the command's processes "
			       "(PR_SET_CHILD_SUBREAPER): %s", strerror(errno));
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

/*
 * stop_tree - the command and every process of its tree: SIGTERM, SIGKILL what is left
 * after CMD_STOP_TIMEOUT_NS; the leader reaped into *status (reaped: already)
 */
static void stop_tree(pid_t pid, int *status, bool *reaped)
{
	if (!*reaped) {
		proctree_signal(pid, SIGTERM);
		*reaped = proc_reap(pid, status, CMD_STOP_TIMEOUT_NS);
		if (!*reaped) {
			proctree_signal(pid, SIGKILL);
			*reaped = proc_reap(pid, status, CMD_STOP_TIMEOUT_NS);
		}
	}
	/* what it left behind: its session, and what detached or was orphaned */
	proctree_stop(pid, CMD_STOP_TIMEOUT_NS);
}

void command_workload_end(void)
{
	bool reaped = false;
	int status;

	if (adopted_pid > 0)
		stop_tree(adopted_pid, &status, &reaped);
	if (adopted_log >= 0)
		close(adopted_log);
	adopted_pid = 0;
	adopted_log = -1;
}

/* metric_format: mstream.h's formats in its order, then deferbench's own intervals */
static const char *const format_names[] = { "auto", "line", "fio", "ping", "intervals", NULL };
enum { FMT_INTERVALS = 4 };

/* a stream that has given nothing for this long fails (a file its command writes at its
 * end excepted) */
#define CMD_FIRST_NS (10 * NSEC_PER_SEC)

struct command_cfg {
	char metric[WL_STR_MAX];	/* a file or FIFO of the command's latency, or "" */
	char metric_cmd[WL_STR_MAX];	/* a shell command that prints it, or "" */
	int format;			/* format_names[] */
};

struct command_priv {
	pid_t pid;			/* 0: not running */
	int log_fd;			/* the command's stdout and stderr (a memfd) */
	int status;
	bool reaped;
	char names[WL_MAX_METRICS][64];
	struct metric_feed *feed;	/* the live stream, NULL: none (or intervals) */
	uint64_t until;			/* stop began: samples begun later are not kept */
	int c_samples, c_kept, c_skipped, c_lost;
	uint64_t kept;			/* samples inside the window */
	pthread_t watcher;
	bool watching;
	atomic_bool stop_watch;
};

/* how often the watcher looks at the command's tree */
#define CMD_WATCH_NS (100 * NSEC_PER_MSEC)

static const struct opt_desc command_options[] = {
	OPT_STRING_BUF(0, NULL, command_cfg, metric, "PATH",
		       "the command's latency: a file it appends to or a FIFO, read while it "
		       "runs (the line format, fio's latency log, ping's output), or a "
		       "workload-intervals.csv read when it stops",
		       .key = "metric", .def = "", .zero = true),
	OPT_STRING_BUF(0, NULL, command_cfg, metric_cmd, "CMD",
		       "the command's latency: a shell command whose standard output is the "
		       "stream (ping -D ...), run beside it", .key = "metric_cmd", .def = "",
		       .zero = true),
	OPT_ENUM(0, NULL, command_cfg, format, "WORD", format_names,
		 ARRAY_SIZE(format_names) - 1,
		 "the metric's format: auto (intervals for a name ending in .csv, else line, "
		 "fio or ping, from the first sample), line, fio, ping, intervals",
		 .key = "metric_format", .def = "auto"),
	OPT_END(),
};

/* live - the metric is a stream read while the command runs (not intervals at stop) */
static bool live(const struct command_cfg *c)
{
	size_t n = strlen(c->metric);

	if (c->metric_cmd[0])
		return true;
	if (!c->metric[0] || c->format == FMT_INTERVALS)
		return false;
	return c->format != 0 || n < 4 || strcmp(c->metric + n - 4, ".csv");
}

static int command_setup(struct wl_run *w, char *errbuf)
{
	struct command_priv *p = w->priv;
	const struct command_cfg *c = w->cfg;

	if (c->metric[0] && c->metric_cmd[0])
		return set_err(errbuf, "metric and metric_cmd: choose one source of the "
			       "command's latency");
	if (c->metric_cmd[0] && c->format == FMT_INTERVALS)
		return set_err(errbuf, "metric_format intervals is a file's, not metric_cmd's");
	/* the command tune started (and surveyed) becomes this workload; none: --live */
	p->pid = adopted_pid;
	p->log_fd = adopted_log;
	if (live(c)) {
		p->c_samples = wl_counter_add(w, "metric_samples");
		p->c_kept = wl_counter_add(w, "metric_in_window");
		p->c_skipped = wl_counter_add(w, "metric_lines_skipped");
		p->c_lost = wl_counter_add(w, "metric_lost");
		if (p->c_samples < 0 || p->c_kept < 0 || p->c_skipped < 0 || p->c_lost < 0)
			return set_err(errbuf, "too many counters");
	}
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

static int metric_index(struct wl_run *w, const char *name);

/* feed_sample - a sample of the stream, from its reader thread: due when it began */
static int feed_sample(const struct mstream_sample *s, const char *metric, void *ctx)
{
	struct wl_run *w = ctx;
	struct command_priv *p = w->priv;
	uint64_t until = __atomic_load_n(&p->until, __ATOMIC_ACQUIRE);
	int m;

	if (!wl_in_window(w, s->begin_ns) || (until && s->begin_ns >= until))
		return 0;
	m = metric_index(w, metric);
	if (m < 0)
		return m;
	wl_record(w, m, s->begin_ns, s->value_ns);
	p->kept++;
	return 0;
}

static void feed_fail(void *ctx, int err, const char *msg)
{
	wl_fail(ctx, err, "the command's metric: %s", msg);
}

/*
 * command_start - the command runs since tune started it; the metric stream begins
 * now. A file the command writes may stay empty until its end (fio); a FIFO, a metric
 * command, or any source without a command must give samples within CMD_FIRST_NS.
 */
static int command_start(struct wl_run *w, char *errbuf)
{
	const struct command_cfg *c = w->cfg;
	struct command_priv *p = w->priv;
	struct metric_feed_opts o = { .path = c->metric[0] ? c->metric : NULL,
				      .cmd = c->metric_cmd[0] ? c->metric_cmd : NULL,
				      .fmt = c->format == FMT_INTERVALS ? MSF_AUTO :
					     (enum mstream_fmt)c->format,
				      .sample = feed_sample, .fail = feed_fail, .ctx = w };
	struct stat st;

	if (!live(c))
		return 0;
	if (o.cmd || !p->pid || (!stat(o.path, &st) && S_ISFIFO(st.st_mode)))
		o.first_ns = CMD_FIRST_NS;
	p->feed = metric_feed_start(&o, errbuf);
	return p->feed ? 0 : -errno;
}

/* reap - the command ended (or did within timeout_ns): true once reaped */
static bool reap(struct command_priv *p, uint64_t timeout_ns)
{
	if (!p->reaped)
		p->reaped = proc_reap(p->pid, &p->status, timeout_ns);
	return p->reaped;
}

/* exit_code - a wait status as a shell shows it */
static int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * ended - the command's leader ended (left unreaped: WNOWAIT, the stop reaps it), its
 * status in *status
 */
static bool ended(pid_t pid, int *status)
{
	siginfo_t si = { 0 };

	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) || si.si_pid != pid)
		return false;
	*status = si.si_code == CLD_EXITED ? (si.si_status & 0xff) << 8 : si.si_status & 0x7f;
	return true;
}

/*
 * watch - from the window's opening to the stop: the command ending, or a process of it
 * leaving its session, fails the workload (and so the cell, with the phases it covered)
 */
static void *watch(void *arg)
{
	struct wl_run *w = arg;
	struct command_priv *p = w->priv;
	uint64_t from = now_ns();
	struct proctree_proc m[64];
	char tail[CMD_LOG_TAIL];
	size_t n, i;
	int status;

	while (!atomic_load(&p->stop_watch)) {
		if (ended(p->pid, &status)) {
			log_tail(p, tail, sizeof(tail));
			wl_fail(w, -ECHILD, "the command ended (status %d) %.1f s into the "
				"measurement: it must run at least as long as tune (-d); it "
				"printed: %s", exit_code(status), (now_ns() - from) / 1e9,
				tail[0] ? tail : "nothing");
			break;
		}
		if (!proctree_scan(p->pid, m, ARRAY_SIZE(m), &n)) {
			for (i = 0; i < n && i < ARRAY_SIZE(m) && !m[i].detached; i++)
				;
			if (i < n && i < ARRAY_SIZE(m)) {
				wl_fail(w, -ECHILD, "a process of the command, pid %d (%s), left its "
					"session %.1f s into the measurement (setsid, a daemon): tune "
					"follows a command that stays in the foreground; run it so",
					(int)m[i].pid, m[i].comm, (now_ns() - from) / 1e9);
				break;
			}
		}
		/* not sleep_until_or_stop: after a stop request it would not sleep at all */
		nanosleep(&(struct timespec){ 0, CMD_WATCH_NS }, NULL);
	}
	return NULL;
}

/*
 * command_measure - the window opened: a command that is gone already would leave the
 * phases without the load they are to be judged under; one that ends later too (watch)
 */
static void command_measure(struct wl_run *w)
{
	struct command_priv *p = w->priv;
	char tail[CMD_LOG_TAIL];

	if (p->pid && reap(p, 0)) {
		log_tail(p, tail, sizeof(tail));
		wl_fail(w, -ECHILD, "the command ended (status %d) before the measurement began: "
			"it must run at least as long as tune (-d); it printed: %s",
			exit_code(p->status), tail[0] ? tail : "nothing");
		return;
	}
	if (p->pid && !p->watching) {
		atomic_store(&p->stop_watch, false);
		p->watching = !pthread_create(&p->watcher, NULL, watch, w);
		if (!p->watching)
			wl_fail(w, -EAGAIN, "cannot watch the command: no thread");
	}
}

/* unwatch - the watcher stopped and joined; safe to call twice */
static void unwatch(struct command_priv *p)
{
	if (!p->watching)
		return;
	atomic_store(&p->stop_watch, true);
	pthread_join(p->watcher, NULL);
	p->watching = false;
}

int command_check(char *errbuf)
{
	struct proctree_proc m[64];
	char tail[CMD_LOG_TAIL];
	struct command_priv p = { .pid = adopted_pid, .log_fd = adopted_log };
	int status;
	size_t n, i;

	if (adopted_pid <= 0)
		return 0;
	if (ended(adopted_pid, &status)) {
		log_tail(&p, tail, sizeof(tail));
		return errno_msg(errbuf, -ECHILD, "the command ended (status %d) before the run "
				 "began: it must run for the survey and all of -d; it printed: %s",
				 exit_code(status), tail[0] ? tail : "nothing");
	}
	if (proctree_scan(adopted_pid, m, ARRAY_SIZE(m), &n))
		return 0;
	for (i = 0; i < n && i < ARRAY_SIZE(m); i++)
		if (m[i].detached)
			return errno_msg(errbuf, -ECHILD, "a process of the command, pid %d (%s), "
					 "left its session (setsid, a daemon): tune follows a "
					 "command that stays in the foreground; run it so",
					 (int)m[i].pid, m[i].comm);
	return 0;
}

enum { MC_T, MC_KIND, MC_NAME, MC_BUCKETS };
static const char *const metric_cols[] = { "t_s", "kind", "name", "buckets", NULL };

struct metric_read {
	struct wl_run *w;
	uint64_t iv;			/* the file's interval, from the first two rows */
	double first_t;
	uint64_t from, until;		/* the window */
};

/* metric_index - the metric called name, declared when first seen */
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
			     p->feed ? "the command's own latency, from its metric stream: "
			     "from when each operation began (its end less its latency) to its "
			     "end, CLOCK_MONOTONIC" :
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

	if (!c->metric[0] || live(c))
		return;
	wl_window_bounds(w, &mr.from, &mr.until);
	if (csvr_read(c->metric, metric_cols, metric_row, &mr, err))
		wl_fail(w, -EINVAL, "the command's metric: %s", err);
	else if (!w->metrics.nmetrics)
		wl_fail(w, -ENODATA, "the command's metric %s holds no interval inside the "
			"measurement: did it run with -i at the run's interval and write it?",
			c->metric);
}

/*
 * stop_feed - after the command stopped (a log written at its end is there now): the
 * stream drained and ended, what it gave counted, a run with no sample failed
 */
static void stop_feed(struct wl_run *w)
{
	const struct command_cfg *c = w->cfg;
	struct command_priv *p = w->priv;
	const struct mstream *ms;
	char why[ERRBUF_LEN], sk[ERRBUF_LEN];

	if (!p->feed)
		return;
	if (metric_feed_stop(p->feed))
		return;		/* failed while it ran: wl_fail said why */
	ms = metric_feed_stream(p->feed);
	w->metrics.counter[p->c_samples].value = (double)ms->samples;
	w->metrics.counter[p->c_kept].value = (double)p->kept;
	w->metrics.counter[p->c_skipped].value = (double)(mstream_nskipped(ms) -
							  ms->skipped[MSK_LOST]);
	w->metrics.counter[p->c_lost].value = (double)ms->skipped[MSK_LOST];
	if (mstream_nskipped(ms))
		warn_msg("the command's metric (%s): %llu samples, %s", c->metric_cmd[0] ?
			 c->metric_cmd : c->metric, (unsigned long long)ms->samples,
			 mstream_skips(ms, sk, sizeof(sk)));
	if (mstream_verdict(ms, why, sizeof(why)))
		wl_fail(w, -ENODATA, "the command's metric (%s): %s", c->metric_cmd[0] ?
			c->metric_cmd : c->metric, why);
	else if (!p->kept)
		wl_fail(w, -ENODATA, "the command's metric (%s): %llu samples, none of an "
			"operation that began inside the measurement", c->metric_cmd[0] ?
			c->metric_cmd : c->metric, (unsigned long long)ms->samples);
}

static void command_stop(struct wl_run *w)
{
	struct command_priv *p = w->priv;

	__atomic_store_n(&p->until, now_ns(), __ATOMIC_RELEASE);
	/* the end of the window: what the command does from here is tune's doing */
	unwatch(p);
	if (p->pid)
		stop_tree(p->pid, &p->status, &p->reaped);
	read_metric(w);
	stop_feed(w);
}

static void command_teardown(struct wl_run *w)
{
	struct command_priv *p = w->priv;

	unwatch(p);
	if (p->pid)
		stop_tree(p->pid, &p->status, &p->reaped);
	metric_feed_free(p->feed);
	p->feed = NULL;
	if (p->pid == adopted_pid)
		adopted_pid = 0;	/* reaped here: command_workload_end has nothing to do */
	p->pid = 0;
	p->log_fd = -1;			/* tune's: command_workload_end closes it */
}

/* the command's own latency, whatever its metrics are called (rtt, latency, write) */
static const char *const command_primary[] = {
	"workload:*:p50", "workload:*:p90", "workload:*:p99", NULL,
};

const struct workload_ops command_workload = {
	.name = "command",
	.help = "the command deferbench tune was given (its own latency from a metric stream "
		"or file), or nothing: the machine's own work",
	.options = command_options,
	.primary = command_primary,
	.cfg_size = sizeof(struct command_cfg),
	.priv_size = sizeof(struct command_priv),
	.setup = command_setup,
	.start = command_start,
	.stop = command_stop,
	.teardown = command_teardown,
	.measure = command_measure,
};
