/* SPDX-License-Identifier: GPL-2.0 */
/*
 * leftovers.h - what a killed run leaves besides kernel settings: its tracefs instance
 * "deferbench-<pid>" and the block workload's /tmp/deferbench-block-<pid>-* directories.
 */
#ifndef DEFERBENCH_LEFTOVERS_H
#define DEFERBENCH_LEFTOVERS_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>


/* pid_is_deferbench - pid is a running deferbench process */
bool pid_is_deferbench(pid_t pid);
/*
 * leftovers_remove - remove the instances and directories of deferbench processes
 * that no longer run, one report line each; returns how many could not be removed.
 */
int leftovers_remove(FILE *report);

#endif
