/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names.h - the names deferbench gives what it creates on the machine, shared by the
 * code that creates each thing and the code that finds it again (knobs that touch only
 * our own threads, `deferbench restore` cleaning up after a killed run). Every name
 * carries the creating process's pid, so that a live run's things are never touched.
 */
#ifndef DEFERBENCH_NAMES_H
#define DEFERBENCH_NAMES_H

/* tracefs instance "deferbench-<pid>" (bench/capture/instance.c) */
#define NAME_INSTANCE_PREFIX "deferbench-"
/* veth pairs "dbv<pid>-<n>a|b" (workloads/net/netns.c); IFNAMSIZ keeps it short */
#define NAME_VETH_PREFIX "dbv"
/* their threaded-NAPI kthreads "napi/dbv<pid>-<n>a-<id>" (sched.napi touches only these) */
#define NAME_NAPI_PREFIX "napi/" NAME_VETH_PREFIX
/* block workload files: "<dir>/deferbench-block-<pid>-XXXXXX" (workloads/block.c) */
#define NAME_BLOCK_DIR "deferbench-block-"
#define NAME_BLOCK_DIR_DEFAULT "/tmp/" NAME_BLOCK_DIR
/* cyclictest's output: "/tmp/deferbench-timer-<pid>-XXXXXX" (workloads/cyclictest.c) */
#define NAME_TIMER_DIR "/tmp/deferbench-timer-"

#endif
