// SPDX-License-Identifier: GPL-2.0
/*
 * tty.c - a terminal user's keystrokes: small timestamped messages written into a
 * pty master at a fixed rate, read from the raw-mode slave by another thread.
 *
 * Each write queues the tty's flush_to_ldisc work item on the events_unbound
 * workqueue; the reader wakes when it has run. The latency the user feels is from the
 * instant the message should have been sent to the instant read() returns it.
 *
 * The measurement window is decided once per message, by the writer (by deadline): it
 * publishes the deadline of its first message in the window, and the reader counts
 * from that one on, so sent and received always cover the same messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "wl_thread.h"
#include "workload.h"
#include "msg.h"
#include "sys.h"

#define TTY_MAX_MSG 4096
#define TTY_DRAIN_NS (200 * NSEC_PER_MSEC)

struct tty_cfg {
	uint64_t rate;
	uint64_t size;
	int prio;
	cpu_set_t writer_cpus;
	cpu_set_t reader_cpus;
};

/* the head of every message; the rest of it is padding */
struct tty_msg {
	uint64_t deadline_ns;	/* when it should have been written */
	uint64_t write_ns;	/* when write() was called */
};

struct tty_priv {
	int master, slave;
	struct wl_thread writer, reader;
	int m_delivery, m_write_read;
	int c_sent, c_received, c_lost, c_late;
	uint64_t sent, received, late;	/* sent: written by the writer, read after join */
	uint64_t first_ns;		/* atomic: first deadline in the window, or UINT64_MAX */
	int writer_done;		/* atomic: the writer was joined, sent is final */
	uint64_t drain_until;
};

static const struct opt_desc tty_options[] = {
	OPT_U64(0, NULL, tty_cfg, rate, "N", 1, 20000,
		"messages per second (period >= 50us), paced on absolute deadlines",
		.key = "rate", .def = "1000"),
	OPT_SIZE(0, NULL, tty_cfg, size, sizeof(struct tty_msg), TTY_MAX_MSG,
		 "bytes per message (a timestamp pair + padding)", .key = "size", .def = "16"),
	OPT_INT(0, NULL, tty_cfg, prio, "N", 0, 99,
		"SCHED_FIFO priority of writer and reader; 0 = SCHED_OTHER",
		.key = "priority", .def = "0"),
	OPT_CPUSET(0, NULL, tty_cfg, writer_cpus,
		   "CPUs the writer may run on", .key = "writer_cpus", .def = "all"),
	OPT_CPUSET(0, NULL, tty_cfg, reader_cpus,
		   "CPUs the reader may run on", .key = "reader_cpus", .def = "all"),
	OPT_END(),
};

static int tty_setup(struct wl_run *w, char *errbuf)
{
	struct tty_priv *p = w->priv;
	struct termios t;

	p->master = p->slave = -1;
	if (openpty(&p->master, &p->slave, NULL, NULL, NULL)) {
		int e = errno;

		p->master = p->slave = -1;
		set_err(errbuf, "tty: openpty: %s", strerror(e));
		return -e;
	}
	fcntl(p->master, F_SETFD, FD_CLOEXEC);
	fcntl(p->slave, F_SETFD, FD_CLOEXEC);
	/* raw both ways: bytes pass untouched, no echo back into the master */
	if (tcgetattr(p->slave, &t) == 0) {
		cfmakeraw(&t);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		tcsetattr(p->slave, TCSANOW, &t);
	}
	if (tcgetattr(p->master, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(p->master, TCSANOW, &t);
	}
	p->m_delivery = wl_metric_add(w, "delivery", "ns",
		"message due to be written (writer's deadline) -> read() returns it in the "
		"reader; CLOCK_MONOTONIC");
	p->m_write_read = wl_metric_add(w, "write_to_read", "ns",
		"write() called on the pty master -> read() returns it from the slave; "
		"CLOCK_MONOTONIC");
	p->c_sent = wl_counter_add(w, "sent");
	p->c_received = wl_counter_add(w, "received");
	p->c_lost = wl_counter_add(w, "lost");
	p->c_late = wl_counter_add(w, "late");
	wl_rate(w, p->c_sent, (double)((struct tty_cfg *)w->cfg)->rate);
	return 0;
}

/* writer_counts - is the message due at deadline in the window? publishes the first */
static bool writer_counts(struct wl_run *w, struct tty_priv *p, uint64_t deadline)
{
	if (p->first_ns != UINT64_MAX)		/* only the writer stores it */
		return deadline >= p->first_ns;
	if (!wl_in_window(w, deadline))
		return false;
	__atomic_store_n(&p->first_ns, deadline, __ATOMIC_RELEASE);	/* before write() */
	return true;
}

/* tty_writer - one message per period; a late one keeps its own deadline */
static void *tty_writer(void *arg)
{
	struct wl_run *w = arg;
	struct tty_cfg *c = w->cfg;
	struct tty_priv *p = w->priv;
	char buf[TTY_MAX_MSG] = { 0 };
	struct tty_msg m;
	struct pace pc;
	double period = period_from_rate((double)c->rate);
	bool counted;

	pace_init(&pc, now_ns(), period);
	while (!wl_stopping(w)) {
		m.deadline_ns = pace_deadline(&pc, pc.k);
		if (wl_sleep_until(m.deadline_ns) == -EINTR)
			continue;
		/* stopped while asleep: this deadline lies past the window's end */
		if (wl_stopping(w))
			break;
		pc.k++;
		m.write_ns = now_ns();
		counted = writer_counts(w, p, m.deadline_ns);
		if (counted && pace_late(m.deadline_ns, m.write_ns) > (uint64_t)period)
			p->late++;
		memcpy(buf, &m, sizeof(m));
		if (write(p->master, buf, c->size) != (ssize_t)c->size) {
			if (errno == EINTR && wl_stopping(w))
				break;
			wl_fail(w, -errno, "tty: write to the pty master: %s", strerror(errno));
			break;
		}
		p->sent += counted;
	}
	return NULL;
}

/* reader_done - stop once the writer is gone and every message arrived (or drain timed out) */
static bool reader_done(struct tty_priv *p)
{
	if (!__atomic_load_n(&p->writer_done, __ATOMIC_ACQUIRE))
		return false;
	return p->received >= p->sent || now_ns() > p->drain_until;
}

static void *tty_reader(void *arg)
{
	struct wl_run *w = arg;
	struct tty_cfg *c = w->cfg;
	struct tty_priv *p = w->priv;
	char buf[2 * TTY_MAX_MSG], msg[TTY_MAX_MSG];
	struct pollfd pfd = { .fd = p->slave, .events = POLLIN };
	size_t have = 0;

	while (!reader_done(p)) {
		ssize_t n, i;
		uint64_t t;

		if (poll(&pfd, 1, 10) <= 0)
			continue;	/* timeout or EINTR: check for stop */
		n = read(p->slave, buf, sizeof(buf));
		t = now_ns();
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			wl_fail(w, -errno, "tty: read from the pty slave: %s", strerror(errno));
			break;
		}
		for (i = 0; i < n; i++) {
			msg[have++] = buf[i];
			if (have < c->size)
				continue;
			struct tty_msg m;

			memcpy(&m, msg, sizeof(m));
			have = 0;
			if (m.deadline_ns < __atomic_load_n(&p->first_ns, __ATOMIC_ACQUIRE))
				continue;	/* before the window, as the writer decided */
			wl_record(w, p->m_delivery, m.deadline_ns, pace_late(m.deadline_ns, t));
			wl_record(w, p->m_write_read, m.deadline_ns, pace_late(m.write_ns, t));
			p->received++;
		}
	}
	return NULL;
}

static int tty_start(struct wl_run *w, char *errbuf)
{
	struct tty_cfg *c = w->cfg;
	struct tty_priv *p = w->priv;
	struct wl_sched s = {
		.policy = c->prio ? SCHED_FIFO : SCHED_OTHER,
		.prio = c->prio,
		.slack_ns = 1,	/* pace on the hrtimer itself, not on the 50 us default slack */
	};
	int ret;

	p->first_ns = UINT64_MAX;
	ret = wl_thread_start(&p->reader, "db-tty-read", tty_reader, w, &s, &c->reader_cpus,
			      errbuf);
	if (ret)
		return ret;
	return wl_thread_start(&p->writer, "db-tty-write", tty_writer, w, &s, &c->writer_cpus,
			       errbuf);
}

static void tty_stop(struct wl_run *w)
{
	struct tty_priv *p = w->priv;
	struct wl_metrics *m = &w->metrics;

	wl_thread_join(&p->writer);
	p->drain_until = now_ns() + TTY_DRAIN_NS;
	__atomic_store_n(&p->writer_done, 1, __ATOMIC_RELEASE);
	wl_thread_join(&p->reader);
	m->counter[p->c_sent].value = (double)p->sent;
	m->counter[p->c_received].value = (double)p->received;
	m->counter[p->c_lost].value = (double)(p->sent - p->received);
	m->counter[p->c_late].value = (double)p->late;
}

static void tty_teardown(struct wl_run *w)
{
	struct tty_priv *p = w->priv;

	if (p->master >= 0)
		close(p->master);
	if (p->slave >= 0)
		close(p->slave);
	p->master = p->slave = -1;
}

/* what compare judges tty by: the delivery a typist feels, and the flush_to_ldisc work that carries it */
/* the work each write queues: flush_to_ldisc, on whichever workqueue and pool */
static const struct wl_work tty_flush_work = {
	"flush_to_ldisc", "the pty's flush_to_ldisc work items: queue_work -> execute_start",
	{ "wq:*:flush_to_ldisc" }, 1,
};
static const struct wl_work *const tty_work[] = { &tty_flush_work, NULL };

/* at 1000 writes a second every percentile up to p99 is decided in a minute or two */
static const char *const tty_primary[] = {
	"workload:delivery:p50", "workload:delivery:p90", "workload:delivery:p99",
	"work:flush_to_ldisc:delay:p50", "work:flush_to_ldisc:delay:p90",
	"work:flush_to_ldisc:delay:p99",
	NULL,
};

const struct workload_ops tty_workload = {
	.name = "tty",
	.help = "pty writer -> raw-mode reader: keystroke delivery through flush_to_ldisc "
		"on events_unbound",
	.options = tty_options,
	.primary = tty_primary,
	.work = tty_work,
	.cfg_size = sizeof(struct tty_cfg),
	.priv_size = sizeof(struct tty_priv),
	.setup = tty_setup,
	.start = tty_start,
	.stop = tty_stop,
	.teardown = tty_teardown,
};
