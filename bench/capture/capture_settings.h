/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture_settings.h - what a capture is told by a command line and by a scenario's
 * [global] alike: the ring buffer, the intervals, the sched events, the CPUs of its
 * threads and the stacks. Each is declared once, here, as an entry of the settings
 * engine (opts.h) with its letter, long name and scenario key; record's and top's
 * tables and a scenario's [global] take the entries through these macros, so that
 * `record -b 8192` and `buffer_kb = 8192` are one setting, parsed by one parser.
 */
#ifndef DEFERBENCH_CAPTURE_SETTINGS_H
#define DEFERBENCH_CAPTURE_SETTINGS_H

#include <stdint.h>

#include "capture.h"
#include "detail.h"
#include "opts.h"

/* sched_events: none, those of deferred work's threads (the kernel filters), or all */
enum capture_sched { CAPTURE_SCHED_NO, CAPTURE_SCHED_YES, CAPTURE_SCHED_ALL, CAPTURE_SCHED_NR };
extern const char *const capture_sched_names[CAPTURE_SCHED_NR];

#define CAPTURE_CPUS_LEN 192

struct capture_settings {
	unsigned int buffer_kb;		/* per CPU */
	uint64_t interval_ns;		/* per-interval statistics; 0: none */
	int sched;			/* enum capture_sched */
	char cpus[CAPTURE_CPUS_LEN];	/* the capture's threads' CPUs, canonical; "": any */
	const char *online;		/* the CPUs cpus must be among; NULL: this machine's */
	unsigned int stack_vecs;	/* a kernel stack at each entry of these vectors; 0: none */
	unsigned int slowest;		/* keep the N slowest events of each group; 0: none */
};

/* capture_set_stacks - the stacks entry's parser: yes, no, or a list of vectors */
int capture_set_stacks(const struct opt_desc *o, const char *arg, void *args, char *errbuf);
/* capture_settings_apply - cs into the options of a capture (capture.h) */
void capture_settings_apply(const struct capture_settings *cs, struct capture_opts *co);

/* The entries, for a table over struct ST whose member M is a struct capture_settings. */
#define CAPTURE_OPT_BUFFER_KB(st, m)							\
	OPT_UINT('b', "buffer-kb", st, m.buffer_kb, "N", CAPTURE_MIN_BUFFER_KB,		\
		 CAPTURE_MAX_BUFFER_KB, "ring buffer per CPU in KiB", .key = "buffer_kb",	\
		 .def = "4096")
/* the intervals, at least LO long; further initializers after H (.zero: "off" allowed) */
#define CAPTURE_OPT_INTERVAL(st, m, lo, h, ...)						\
	OPT_DURATION('i', "interval", st, m.interval_ns, "DUR", lo, 0, h, .key = "interval",	\
		     .def = "1s", __VA_ARGS__)
#define CAPTURE_OPT_SCHED(st, m)							\
	OPT_ENUM(0, NULL, st, m.sched, NULL, capture_sched_names, CAPTURE_SCHED_NR,		\
		 "trace sched_switch/sched_wakeup: yes, those of the threads that run "	\
		 "deferred work (kworker/, ksoftirqd/, napi/, irq/, and PREEMPT_RT's "	\
		 "backlog_napi/, ktimers/, rcuc/, irq_work/; filtered in the kernel), all, "	\
		 "or no", .key = "sched_events", .def = "yes"),				\
	OPT_SET_VALUE(0, "no-sched", "sched_events", "no",				\
		      "leave sched events off (lighter; worker pools found from /proc only)"), \
	OPT_SET_VALUE(0, "sched-all", "sched_events", "all",				\
		      "trace every context switch and wakeup (default: only those of "	\
		      "kworker, ksoftirqd, napi/, irq/ and PREEMPT_RT's per-CPU threads, "	\
		      "filtered in the kernel)")
#define CAPTURE_OPT_CPUS(st, m)								\
	OPT_CPULIST(0, "capture-cpus", st, m.cpus, m.online,				\
		    "run the capture's reader and analysis threads on these CPUs only "	\
		    "(0-1,3), away from the ones being measured", .key = "capture_cpus")
#define CAPTURE_OPT_STACKS(st, m)							\
	OPT_CALLBACK_OPTARG(0, "stacks", st, m.stack_vecs, "VECTORS", capture_set_stacks,	\
			    "a kernel stack at each softirq entry of these vectors (default "	\
			    "NET_RX,BLOCK,TIMER; 'all'), weighted by the delay it ended: the "	\
			    "code that held them back; implies --slowest", .key = "stacks",	\
			    .def = "no", .implied = "yes")
#define CAPTURE_OPT_SLOWEST(st, m)							\
	OPT_UINT(0, "slowest", st, m.slowest, "N", 1, SLOWEST_MAX,			\
		 "list the N slowest delays and runs of each softirq vector, workqueue "	\
		 "function and context (10 when the option has none) with their time, CPU, "	\
		 "causes and task", .key = "slowest", .optional = true, .implied = "10")
/* CAPTURE_OPTS - what every capture takes: the buffer, the sched events, the CPUs */
#define CAPTURE_OPTS(st, m) CAPTURE_OPT_BUFFER_KB(st, m), CAPTURE_OPT_SCHED(st, m),	\
	CAPTURE_OPT_CPUS(st, m)

#endif
