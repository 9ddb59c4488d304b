/* SPDX-License-Identifier: GPL-2.0 */
/*
 * knobs_cmd.h - `deferbench knobs`: show the workqueue settings of this machine, list
 * the knobs, and set knobs for a while (saved in the journal, restored on exit).
 */
#ifndef DEFERBENCH_KNOBS_CMD_H
#define DEFERBENCH_KNOBS_CMD_H

#include <stdio.h>

/* knobs_show - every tunable workqueue, the unbound mask, parameters, threads, pools */
int knobs_show(FILE *f);
/* knobs_show_pools - worker pools as kworker thread names reveal them */
int knobs_show_pools(FILE *f);
/* command_line - argv joined with spaces, for journals and metadata */
void command_line(int argc, char **argv, char *buf, size_t len);

#endif
