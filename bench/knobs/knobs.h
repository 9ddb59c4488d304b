/* SPDX-License-Identifier: GPL-2.0 */
/*
 * knobs.h - the kernel settings a scenario may change, and how deferbench changes them.
 *
 * Knob names ("class.object.attribute"; docs/scenarios.md has the full table):
 *   wq.<workqueue>.nice              -20..19  \
 *   wq.<workqueue>.cpumask           hex       | attributes of a WQ_SYSFS workqueue,
 *   wq.<workqueue>.affinity_scope    scope     | /sys/devices/virtual/workqueue/<wq>/
 *   wq.<workqueue>.affinity_strict   0|1       |
 *   wq.<workqueue>.max_active        1..2048  /
 *   wq.cpumask                       hex       the global unbound cpumask
 *   param.default_affinity_scope     scope     workqueue module parameters
 *   param.cpu_intensive_thresh_us    1..1e8
 *   sched.ksoftirqd[.<cpu>]          policy    scheduling of ksoftirqd/N
 *   sched.ktimers[.<cpu>], sched.rcuc[.<cpu>], sched.irq_work[.<cpu>],
 *   sched.backlog_napi[.<cpu>]       policy    PREEMPT_RT's per-CPU threads
 *   sched.napi                       policy    NAPI kthreads of the run's own veth pairs
 *   sysctl.net.core.<name>           int       busy_poll, busy_read, netdev_budget, ...
 *   netdev.<dev>.threaded            0..2      NAPI in kthreads; any device of deferbench's
 *   netdev.<dev>.napi_defer_hard_irqs int      network namespace (a NIC, a veth)
 *   netdev.<dev>.gro_flush_timeout   ns
 *   netdev.lo.rps_cpus               hex       loopback only
 * Masks are hexadecimal as sysfs prints them: "1" is CPU 0, "2" CPU 1, "3" both.
 * Policies: "fifo:P" and "rr:P" (P 1..99), "other[:NICE]", "batch[:NICE]", "idle".
 *
 * A class of knobs is one ops table in one file (struct knob_ops, as stress-ng registers
 * a stressor by one info table): its names, their types, and how they are checked,
 * resolved to targets, read and written: knob_wq.c (workqueue sysfs attributes and the
 * unbound cpumask), knob_param.c (module parameters), knob_sched.c (kthread
 * scheduling), knob_rt.c (PREEMPT_RT's threads), knob_sysctl.c, knob_netdev.c; listed
 * once in knob_classes[] (knobs.c).
 * A knob resolves to targets (knobs_sys.c): files, or one thread's scheduling. Each
 * target is saved in the journal (journal.h) before the first write, written, read back
 * and compared, and restored. Parsing here is pure: no file is read unless the online
 * CPU list is needed and no override was given.
 *
 * Return convention: 0 or -errno; parsers fill errbuf (ERRBUF_LEN) and return -EINVAL.
 */
#ifndef DEFERBENCH_KNOBS_H
#define DEFERBENCH_KNOBS_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define KNOB_NAME_MAX 96
#define KNOB_VALUE_MAX 80
#define KNOB_OBJ_MAX 64

#define WQ_SYSFS_DIR "/sys/devices/virtual/workqueue"
#define WQ_PARAM_DIR "/sys/module/workqueue/parameters"
#define WQ_MAX_ACTIVE_LIMIT 2048	/* WQ_MAX_ACTIVE since Linux 6.13 (512 before) */

enum knob_class {
	KNOB_WQ_ATTR,		/* wq.<wq>.<attr> */
	KNOB_WQ_UNBOUND,	/* wq.cpumask */
	KNOB_WQ_PARAM,		/* param.<name> */
	KNOB_SYSCTL,		/* sysctl.net.core.<name> */
	KNOB_NETDEV,		/* netdev.<dev>.threaded, ..., netdev.lo.rps_cpus */
	KNOB_SCHED_KSOFTIRQD,	/* sched.ksoftirqd[.N] */
	KNOB_SCHED_NAPI,	/* sched.napi */
	KNOB_SCHED_RT,		/* sched.ktimers[.N], ...: attr is the thread's name */
};

enum knob_val {
	KV_INT,			/* decimal in [min, max] */
	KV_BOOL,		/* 0 or 1 (also yes/no, true/false, on/off) */
	KV_MASK,		/* non-empty hex cpumask of online CPUs */
	KV_MASK0,		/* same, may be 0 (rps_cpus 0 = off) */
	KV_SCOPE,		/* affinity scope, "default" allowed */
	KV_SCOPE_NODFL,		/* affinity scope, "default" refused (the module parameter) */
	KV_SCHED,		/* scheduling policy */
};

/* When a knob is applied: before the workloads are set up, or after (their threads). */
enum knob_phase { KNOB_EARLY, KNOB_LATE };

struct knob_ops;

struct knob_type {
	const char *pattern;	/* "wq.<workqueue>.nice": for messages and docs */
	const struct knob_ops *ops;	/* its class: how it is found, read and written */
	enum knob_class cls;
	const char *attr;	/* file, parameter or sysctl name; NULL when none */
	enum knob_val val;
	long min, max;		/* KV_INT */
	enum knob_phase phase;
	const char *help;
};

/* One knob assignment of a scenario, validated. */
struct knob {
	char name[KNOB_NAME_MAX];	/* as written: "wq.writeback.nice" */
	char value[KNOB_VALUE_MAX];	/* canonical form, the one written to the kernel */
	const struct knob_type *type;
	char obj[KNOB_OBJ_MAX];		/* workqueue or device name, else "" */
	int cpu;			/* sched.ksoftirqd.N: N; -1 = every CPU */
};

struct knob_target;

/*
 * A class of knobs. A class of files gives path(); one of other targets (threads,
 * several files) gives resolve(), read(), write() and allowed() instead.
 */
struct knob_ops {
	const char *prefix;		/* "wq.": the names it parses */
	const struct knob_type *types;	/* its knobs, ended by { .pattern = NULL } */
	/*
	 * parse - the name after prefix into k (type, object, CPU); -EINVAL with errbuf, or 1
	 * for a name of a later class with the same prefix (sched.: knob_sched, knob_rt)
	 */
	int (*parse)(const char *rest, struct knob *k, char *errbuf);
	/* check - can k be applied here (reads only)? NULL: its file exists */
	int (*check)(const struct knob *k, char *errbuf);
	/* path - the file k writes, and the one read to save and compare (may differ) */
	void (*path)(const struct knob *k, char *path, char *rpath, size_t len);
	/* resolve - k's targets, each with its value saved in orig (malloc'ed in *out) */
	int (*resolve)(const struct knob *k, unsigned long long since_ticks,
		       struct knob_target **out, int *n, char *errbuf);
	/* read, write - one target's value, canonical; -ESRCH: its thread is gone */
	int (*read)(const struct knob_target *t, char *val, size_t len);
	int (*write)(const struct knob_target *t, const char *val, char *errbuf);
	/* written - what a value written and read back must still meet; NULL: nothing */
	int (*written)(const struct knob_target *t, const char *val, char *errbuf);
	/* allowed - a target read from a journal is one k can have (resolve's classes) */
	bool (*allowed)(const struct knob *k, const struct knob_target *t);
};

/* knob_classes - every class, in the order `knobs list` shows them; NULL-terminated */
extern const struct knob_ops *const knob_classes[];
extern const struct knob_ops knob_wq_ops, knob_param_ops, knob_sched_ops, knob_rt_ops,
	knob_sysctl_ops, knob_netdev_ops;
/* knob_rt_show - knobs show: PREEMPT_RT's threads in the recommended order, inversions */
void knob_rt_show(FILE *f);
/* knob_type_next - every knob type, class by class: from NULL, NULL after the last */
const struct knob_type *knob_type_next(const struct knob_type *t);
/* knob_type_find - the type of ops whose cls and attribute (NULL: any) are these */
const struct knob_type *knob_type_find(const struct knob_ops *ops, enum knob_class cls,
				       const char *attr);
/* knob_attrs - "a, b, c": the attributes of ops's types of class cls, for messages */
const char *knob_attrs(const struct knob_ops *ops, enum knob_class cls, char *buf, size_t len);

/*
 * knob_parse - validate "name = value" into k. online is the online CPU list to check
 * masks against ("0-1"), or NULL to read it from sysfs.
 */
int knob_parse(const char *name, const char *value, struct knob *k, const char *online,
	       char *errbuf);
/* knob_parse_name - the name alone (no value); k->value is left empty. */
int knob_parse_name(const char *name, struct knob *k, char *errbuf);

/*
 * knob_value_canon - the canonical form of a value of type t, as the scenario wrote it
 * or as the kernel printed it ("default (cache)" -> "default", "03" -> "3"). Syntax
 * only: bounds, online CPUs and known scope names are knob_parse()'s business, so that
 * any value the kernel shows can be saved and written back.
 */
int knob_value_canon(const struct knob_type *t, const char *in, char *out, size_t len,
		     char *errbuf);
/* knob_value_equal - two values of type t mean the same setting */
bool knob_value_equal(const struct knob_type *t, const char *a, const char *b);

/* knob_safe_name - a name from a file or the user that may become a path component */
bool knob_safe_name(const char *s);

/* Hex cpumasks in the kernel's format ("%*pb": 32-bit groups separated by commas). */
int knob_cpumask_parse_hex(const char *s, cpu_set_t *set, char *errbuf);
char *knob_cpumask_format_hex(const cpu_set_t *set, char *buf, size_t len);

/* Scheduling policies: "fifo:50" <-> policy, priority, nice. */
struct sched_spec {
	int policy;		/* SCHED_OTHER, SCHED_FIFO, ... */
	int prio;		/* 1..99 for fifo/rr, else 0 */
	int nice;		/* other/batch */
};
int knob_sched_spec_parse(const char *s, struct sched_spec *sp, char *errbuf);
char *knob_sched_spec_format(const struct sched_spec *sp, char *buf, size_t len);

/* knob_scope_names - the affinity scopes this build knows, for messages */
extern const char *const knob_scope_names[];

/*
 * Targets (knobs_sys.c; the classes' own): what a knob changes on this machine.
 */
enum target_kind { TGT_FILE, TGT_THREAD };

#define TGT_PATH_MAX 160

struct knob_target {
	enum target_kind kind;
	const struct knob_type *type;
	char knob[KNOB_NAME_MAX];	/* the knob that asked for it */
	char path[TGT_PATH_MAX];	/* TGT_FILE: the file written */
	char rpath[TGT_PATH_MAX];	/* the file read to save and compare (wq.cpumask:
					 * cpumask_requested where the kernel has it) */
	pid_t pid;			/* TGT_THREAD */
	unsigned long long start;	/* its start time in ticks: a reused pid is not it */
	char comm[64];
	char orig[KNOB_VALUE_MAX];	/* canonical value before deferbench touched it */
};

/*
 * knob_check - can knob k be applied here? The workqueue exists and has the attribute
 * (otherwise the message lists the tunable ones), the file exists, the threads exist.
 * Reads only.
 */
int knob_check(const struct knob *k, char *errbuf);
/*
 * knobs_check_set - checks that need a configuration's knobs together: a workqueue's
 * cpumask must intersect the unbound cpumask in effect (the config's wq.cpumask, or
 * the current one), or the kernel would silently use the whole unbound mask.
 */
int knobs_check_set(const struct knob *ks, int n, char *errbuf);

/*
 * knob_resolve - the targets of k with their current value saved in orig. For
 * sched.napi, only this process's NAPI threads started at or after since_ticks
 * (boot-time clock ticks, see knob_boot_ticks()) count. *out is malloc'ed (caller frees); a
 * knob may resolve to no target (sched.napi before the workload made its threads).
 */
int knob_resolve(const struct knob *k, unsigned long long since_ticks,
		 struct knob_target **out, int *n, char *errbuf);
/*
 * knob_file_target - t, the file path of k, read back from rpath where that exists, with
 * its current value saved in orig (for the classes that resolve to several files)
 */
int knob_file_target(const struct knob *k, const char *path, const char *rpath,
		     struct knob_target *t, char *errbuf);
/* knob_target_read - the target's current value, canonical; -ESRCH if the thread is gone */
int knob_target_read(const struct knob_target *t, char *val, size_t len);
/*
 * knob_target_write - set val unless already set, then read back: -EIO with a message when
 * the kernel kept or normalised to something else. -ESRCH: the thread is gone.
 */
int knob_target_write(const struct knob_target *t, const char *val, char *errbuf);
/* knob_target_restore - knob_target_write(orig); a thread that has exited needs nothing */
int knob_target_restore(const struct knob_target *t, char *errbuf);
/* knob_target_same - t and u change the same thing */
bool knob_target_same(const struct knob_target *t, const struct knob_target *u);
/* knob_target_describe - "/sys/.../nice" or "ksoftirqd/0 (pid 14)" */
const char *knob_target_describe(const struct knob_target *t, char *buf, size_t len);
/* knob_target_allowed - a target read from a journal is one a knob of its name can have */
bool knob_target_allowed(const struct knob_target *t);

/* Threads (knobs_thread.c). */
unsigned long long knob_boot_ticks(void);
struct thread_info {
	pid_t pid;
	unsigned long long start;
	char comm[64];
	char state;			/* R, S, D, ... Z (zombie), X (dead) */
	bool kthread;
};
/* knob_thread_info_read - /proc/PID/stat: name, state, start time, kernel thread flag */
int knob_thread_info_read(pid_t pid, struct thread_info *ti);
/*
 * knob_threads_find - kernel threads matching match(); calls fn for each; returns count
 * or -errno
 */
int knob_threads_find(bool (*match)(const struct thread_info *ti, void *arg), void *arg,
		 int (*fn)(const struct thread_info *ti, void *arg), void *fnarg);
/*
 * knob_threads_targets - one target of knob k per thread that match() takes, its
 * scheduling read as the value to restore (a thread gone meanwhile is left out): 0 with
 * *out (the caller frees it) and *n, or -errno with errbuf said
 */
int knob_threads_targets(const struct knob *k,
			 bool (*match)(const struct thread_info *ti, void *arg), void *arg,
			 struct knob_target **out, int *n, char *errbuf);
int knob_thread_sched_read(const struct knob_target *t, char *val, size_t len);
int knob_thread_sched_write(const struct knob_target *t, const char *val, char *errbuf);

#endif
