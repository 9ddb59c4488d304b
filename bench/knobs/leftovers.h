/* SPDX-License-Identifier: GPL-2.0 */
/*
 * leftovers.h - what a killed run leaves besides kernel settings: its tracefs instance
 * (tracing on, its buffer allocated), a tracefs mount, DIR.partial-PID and DIR.old-PID
 * staging directories, the block workload's and cyclictest's temporary directories.
 */
#ifndef DEFERBENCH_LEFTOVERS_H
#define DEFERBENCH_LEFTOVERS_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>


/*
 * leftovers_pid_is_deferbench - pid is a running deferbench process, or one of a program
 * built on its code whose journal file (owned.h) it wrote itself
 */
bool leftovers_pid_is_deferbench(pid_t pid);
/*
 * leftovers_remove - remove what deferbench processes that no longer run left: every
 * resource their owned files list (owned.h: tracefs instance, tracefs mount, staging
 * and temporary directories), and, for runs that left no file, the instances
 * "deferbench-<pid>" and /tmp/deferbench-{block,timer}-<pid>-* directories. One line
 * per thing done goes to report, or is a warning when report is NULL (record and run
 * clean up this way at start). Returns how many things could not be removed.
 */
int leftovers_remove(FILE *report);
/* leftovers_remove_owned - only what the owned files in dir list (dir may be NULL) */
int leftovers_remove_owned(const char *dir, FILE *report);

#endif
