/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cyclictest.h - rt-tests' cyclictest as a child process: the timer workload's
 * wakeup probe. cyclictest runs until stopped with SIGTERM, then writes its JSON
 * results (per-thread histograms in microseconds), which are read back here.
 */
#ifndef DEFERBENCH_CYCLICTEST_H
#define DEFERBENCH_CYCLICTEST_H

#include <sched.h>
#include <stdint.h>
#include <sys/types.h>

#include "hist.h"

struct cyclictest_opts {
	int prio;		/* 0 = SCHED_OTHER, else SCHED_FIFO priority */
	uint64_t interval_ns;
	cpu_set_t cpus;		/* one measuring thread per CPU, pinned */
	uint64_t maxlat_ns;	/* histogram range; later wakeups are overflows */
	int pmqos;		/* let cyclictest hold /dev/cpu_dma_latency at 0 */
};

struct cyclictest {
	pid_t pid;		/* 0 = not running */
	char dir[64];		/* private temporary directory, "" = none */
	char json[96], log[96];
	uint64_t spawn_ns;	/* CLOCK_MONOTONIC: forked */
	uint64_t term_ns;	/* CLOCK_MONOTONIC: asked to stop (cycles count until then) */
	int exited_early;	/* it was gone before we stopped it */
	int status;		/* waitpid status once reaped */
};

/*
 * cyclictest_prepare - find the binary and make the temporary directory
 * (/tmp/deferbench-timer-<pid>-XXXXXX); 0 or -errno with errbuf.
 */
int cyclictest_prepare(struct cyclictest *ct, char *errbuf);
/* cyclictest_spawn - fork and exec it; returns at once */
int cyclictest_spawn(struct cyclictest *ct, const struct cyclictest_opts *o, char *errbuf);
/*
 * cyclictest_check_start - wait until 100 ms after the spawn; -EIO with errbuf (the
 * start of its stderr) if it exited by then: bad options, a refused priority
 */
int cyclictest_check_start(struct cyclictest *ct, char *errbuf);
/*
 * cyclictest_stop - SIGTERM, wait up to 5 s, then SIGKILL; always reaps. Returns 0
 * when it ran until stopped and exited 0; -errno and errbuf (with the start of its
 * stderr) otherwise. Safe when not running.
 */
int cyclictest_stop(struct cyclictest *ct, char *errbuf);
/* cyclictest_read - its JSON results into h; cycles, overflows: totals of all threads */
int cyclictest_read(struct cyclictest *ct, struct hist *h, uint64_t *cycles,
		    uint64_t *overflows, char *errbuf);
/* cyclictest_cleanup - stop (if needed) and remove the temporary directory */
void cyclictest_cleanup(struct cyclictest *ct);

/*
 * cyclictest_parse_json - the JSON text of cyclictest --json (rt-tests 2.x): each
 * thread's histogram {"us": count} lands in h at us * 1000 ns (cyclictest truncates
 * to the microsecond); wakeups beyond the histogram range (cycles - histogram total)
 * are counted at the thread's max, the only value known for them.
 */
int cyclictest_parse_json(const char *text, struct hist *h, uint64_t *cycles,
			  uint64_t *overflows, char *errbuf);

#endif
