/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_meta.h - what run.json says about the machine: kernel, preemption model, threaded
 * interrupts, the PREEMPT_RT BH lock, sched_ext, HZ, NO_HZ, command line, CPUs and
 * governor; and the default directory of a run.
 */
#ifndef DEFERBENCH_RUN_META_H
#define DEFERBENCH_RUN_META_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* Machine and kernel facts for run.json. */
struct run_meta {
	char kernel[128];
	char hostname[128];
	int cpus;
	char cpu_model[128];
	char preempt[32];		/* none, voluntary, full, lazy, rt, or "unknown" */
	char preempt_source[16];	/* debugfs, cmdline, config, uname */
	bool preempt_dynamic;
	/*
	 * How softirqs and interrupts run (run_meta_kernel): threadirqs "yes" when every
	 * interrupt is threaded (PREEMPT_RT, or threadirqs on the command line), "no", or
	 * "" unknown; rt_bh_lock on PREEMPT_RT "yes" when local_bh_disable() serialises
	 * (CONFIG_PREEMPT_RT_NEEDS_BH_LOCK, or a kernel before 6.18 that always did),
	 * "no" when BH-disabled sections only disable migration (6.18), "" elsewhere;
	 * sched_ext the state in /sys/kernel/sched_ext ("enabled (scx_rusty)",
	 * "disabled"), "none" without it
	 */
	char threadirqs[8];
	char rt_bh_lock[24];
	char sched_ext[64];
	int hz;				/* CONFIG_HZ; 0 = unknown */
	char nohz[16];			/* idle, full, periodic, or "" when unknown */
	char cmdline[1024];
	char governor[32];		/* cpu0's scaling governor, "" without cpufreq */
	char started[32];
};

/* run_meta_collect - read everything from this machine */
void run_meta_collect(struct run_meta *m);
/*
 * run_meta_kernel - the pure part: preemption model, threaded interrupts, the RT BH
 * lock, HZ and NO_HZ from the kernel config text (may be NULL), `uname -v`, debugfs'
 * sched/preempt (may be NULL) and the command line.
 */
void run_meta_kernel(struct run_meta *m, const char *config, const char *uname_v,
		     const char *dbg_preempt, const char *cmdline);
/*
 * run_meta_sched_ext - sched_ext's state from /sys/kernel/sched_ext/state and
 * root/ops (either may be NULL: "none" when the kernel has no sched_ext)
 */
void run_meta_sched_ext(struct run_meta *m, const char *state, const char *ops);

/* run_dir_default - "results/<host>/<kernel>/<YYYYmmddTHHMMSSZ>-<scenario>" */
int run_dir_default(char *buf, size_t len, const char *host, const char *kernel, time_t t,
		    const char *scenario);

#endif
