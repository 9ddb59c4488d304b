// SPDX-License-Identifier: GPL-2.0
/*
 * instance.c - the capture's tracefs side: tracefs found or mounted, the private
 * instance "deferbench-<pid>" made with tracing off, the event formats read, the events
 * enabled with the scheduler filter, the loss counters read, and all of it undone.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#define DEFERBENCH_ALLOW_CAPTURE_INT_H
#include "capture_int.h"
#include "names.h"
#include "owned.h"
#include "msg.h"
#include "file.h"

/* tracefs_mounted - is a tracefs mounted anywhere (libtracefs will find it)? */
static bool tracefs_mounted(void)
{
	char *mounts = read_whole_file("/proc/mounts", NULL);
	bool found = mounts && strstr(mounts, " tracefs ");

	free(mounts);
	return found;
}

/*
 * instance_tracefs_ready - find tracefs, or mount it at /sys/kernel/tracing and remember to
 * unmount it at the end (libtracefs would mount it silently and leave it mounted).
 */
int instance_tracefs_ready(struct capture *c, char *errbuf)
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

int instance_setup(struct capture *c, char *errbuf)
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

/* instance_read_formats - header page and event formats from tracefs; absent events stay NULL */
int instance_read_formats(struct capture *c, char **header, size_t *hlen,
			  char *formats[EV_NR], char *errbuf)
{
	const char *top = tracefs_tracing_dir();
	char path[PATH_MAX];
	int k;

	snprintf(path, sizeof(path), "%s/events/header_page", top);
	*header = read_whole_file(path, hlen);
	if (!*header)
		return set_err(errbuf, "cannot read %s: %s", path, strerror(errno));
	for (k = 0; k < EV_NR; k++) {
		if (c->opts.no_sched && (k == EV_SCHED_SWITCH || k == EV_SCHED_WAKEUP))
			continue;
		if (ev_by_trigger(k) && !c->opts.stack_vecs)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", top, ev_names[k].system,
			 ev_names[k].name);
		formats[k] = read_whole_file(path, NULL);
		if (!formats[k] && ev_by_trigger(k)) {
			warn_msg("this kernel has no %s event: no stacks", ev_names[k].id);
			c->opts.stack_vecs = 0;
		} else if (!formats[k]) {
			c->res.meta.missing[k] = true;
			warn_msg("this kernel has no %s event; its figures will be absent",
				 ev_names[k].id);
		}
	}
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
 * every other task: a first character b, k, n, i or r and a '/' further on
 * (DEFERRED_COMMS) keeps kworker/, ksoftirqd/, napi/ and irq/, and the per-CPU threads
 * of PREEMPT_RT kernels (and of threadirqs / thread_backlog_napi): backlog_napi/,
 * ktimers/, rcuc/ and irq_work/ (and the odd other thread so named, such as RT's rcuop/
 * or rcub/, which match_comm_classify() then ignores, as under sched_all; a task's comm is
 * its first 15 bytes, so "rcu_exp_par_gp_kthread_worker/0" is no such thread). Adding
 * b and r to the class cost nothing measurable (docs/capture-cost.md). The four prefix globs per comm it
 * replaced cost twice as much: on a pipe ping-pong pinned to one CPU (two switches and
 * two wakeups per round trip, none kept; 2.18 us per round trip untraced) the whole of
 * record added 0.28 us with this glob and 0.56 us with the four prefixes ('make
 * observer', part recordcost, on the development VM). No filter at all is no cheaper
 * than the glob either: under record --sched-all, every event written, +0.42 us.
 * tests/integration/t-sched-filter.sh checks that the glob keeps every event the
 * figures use.
 */
#define DEFERRED_COMMS(f) f " ~ \"[bknir]*/*\""
static const char *const sched_filter[EV_NR] = {
	[EV_SCHED_SWITCH] = DEFERRED_COMMS("next_comm") " || " DEFERRED_COMMS("prev_comm"),
	[EV_SCHED_WAKEUP] = DEFERRED_COMMS("comm"),
};

int instance_events_enable(struct capture *c, char *const formats[EV_NR], char *errbuf)
{
	const char *sys, *name;
	int k;

	for (k = 0; k < EV_NR; k++) {
		if (!formats[k] || ev_by_trigger(k))
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
		c->enabled[k] = true;
	}
	return 0;
}

/*
 * The kernel stacks of record --stacks: the stacktrace trigger of softirq_entry, with a
 * filter on the vector, writes a kernel_stack record after each entry of the chosen
 * vectors only (a stack costs about 3 us on the path here, the kernel unwinding it:
 * docs/capture-cost.md). The filter runs on every softirq_entry once a trigger is set,
 * so without --stacks no trigger is set at all. The trigger is journaled like the
 * instance and removed before it, on every exit path.
 */
void instance_stacks_enable(struct capture *c)
{
	const char *sep = "";
	size_t off;
	int v, e;

	off = (size_t)snprintf(c->trigger, sizeof(c->trigger), "stacktrace if");
	for (v = 0; v < NR_SOFTIRQS; v++) {
		if (!(c->opts.stack_vecs & (1u << v)))
			continue;
		off += (size_t)snprintf(c->trigger + off, sizeof(c->trigger) - off, "%s vec == %d",
					sep, v);
		sep = " ||";
	}
	snprintf(c->trigger_path, sizeof(c->trigger_path), "%s/events/irq/softirq_entry/trigger",
		 c->inst_path);
	owned_add(OWN_TRIGGER, c->trigger_path);
	if (tracefs_event_file_write(c->inst, "irq", "softirq_entry", "trigger",
				     c->trigger) < 0) {
		e = errno;
		owned_forget(OWN_TRIGGER, c->trigger_path);
		c->trigger[0] = '\0';
		c->opts.stack_vecs = 0;
		warn_msg("this kernel refused the stacktrace trigger on irq:softirq_entry (%s): "
			 "no stacks", strerror(e));
		return;
	}
	c->trigger_on = true;
}

/*
 * trigger_set - the stacktrace trigger on or off. A trigger keeps softirq_entry firing
 * (in the kernel's soft mode) while the event itself is disabled, so a capture that is
 * paused (the capture-off arm of an alternating run) must remove it too.
 */
static int trigger_set(struct capture *c, bool on)
{
	char off[sizeof(c->trigger) + 1];

	if (!c->trigger[0] || c->trigger_on == on)
		return 0;
	snprintf(off, sizeof(off), "!%s", c->trigger);
	if (tracefs_event_file_write(c->inst, "irq", "softirq_entry", "trigger",
				     on ? c->trigger : off) < 0)
		return errno ? -errno : -EIO;
	c->trigger_on = on;
	return 0;
}

/* stacks_disable - the trigger off (the instance would take it along, but say so) */
static void stacks_disable(struct capture *c)
{
	int ret;

	if (!c->trigger[0])
		return;
	ret = trigger_set(c, false);
	if (ret)
		err_msg("cannot remove the trigger '%s' of %s: %s", c->trigger, c->trigger_path,
			strerror(-ret));
	else
		owned_forget(OWN_TRIGGER, c->trigger_path);
	c->trigger[0] = '\0';
}

/* event_set - one event of the instance on or off: 0 or -errno */
static int event_set(struct capture *c, int k, bool on)
{
	if (!c->enabled[k])
		return 0;
	if ((on ? tracefs_event_enable : tracefs_event_disable)(c->inst, ev_names[k].system,
								 ev_names[k].name))
		return errno ? -errno : -EIO;
	return 0;
}

/*
 * The events go on and off in their order (a raise before its entry, an entry before
 * its exit: a pair half traced counts as unmatched), the stacktrace trigger beside
 * softirq_entry, whose records its stacks join: on, just before it; off, just after
 * softirq_exit, which follows it. Only a stack taken between the two writes joins no
 * entry (counted as unjoined), and no entry lacks its stack while the other events
 * change: with the trigger after all events, 6.5% of a loaded run's NET_RX entries had
 * none; with softirq_entry first on and last off, 3.3% of the softirq entries lost
 * their raise or exit (0.2-1% in order).
 * Removing the trigger waits for the tracepoint's readers (about 130 ms here) after it
 * has stopped firing.
 */
int instance_events_set(struct capture *c, bool on)
{
	int k, e, ret = 0;

	for (k = 0; k < EV_NR; k++) {
		if (on && k == EV_SOFTIRQ_ENTRY) {
			e = trigger_set(c, true);
			ret = ret ?: e;
		}
		e = event_set(c, k, on);
		ret = ret ?: e;
		if (!on && k == EV_SOFTIRQ_EXIT) {
			e = trigger_set(c, false);
			ret = ret ?: e;
		}
	}
	return ret;
}

void instance_loss_read(struct capture *c)
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
		result_cpu_loss_parse(text, &c->res.loss[i]);
		free(text);
	}
}

/*
 * instance_destroy - remove the instance. While another process holds a file of it
 * open (a monitor reading its tracing_on, a child that inherited a descriptor) the
 * kernel refuses with EBUSY: tried again for up to a second before that is an error.
 */
static int instance_destroy(struct capture *c)
{
	const struct timespec nap = { 0, 10 * 1000 * 1000 };
	int tries = 100;

	while (tracefs_instance_destroy(c->inst)) {
		if (errno != EBUSY || !--tries)
			return -1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

int instance_free(struct capture *c)
{
	int ret = 0;

	if (c->inst) {
		tracefs_trace_off(c->inst);
		stacks_disable(c);
		if (instance_destroy(c)) {
			ret = -errno;
			err_msg("cannot remove tracefs instance %s: %s%s; 'deferbench restore' "
				"removes it", c->name, strerror(-ret), ret == -EBUSY ?
				" (a process holds one of its files open)" : "");
		} else {
			owned_forget(OWN_INSTANCE, c->inst_path);
		}
		tracefs_instance_free(c->inst);
		c->inst = NULL;
	}
	if (c->mounted_at) {
		/* we mounted tracefs: leave the machine as we found it */
		if (umount(c->mounted_at))
			debug_msg("cannot unmount %s: %s", c->mounted_at, strerror(errno));
		else
			owned_forget(OWN_MOUNT, c->mounted_at);
		free(c->mounted_at);
		c->mounted_at = NULL;
	}
	return ret;
}
