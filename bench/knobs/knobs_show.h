/* SPDX-License-Identifier: GPL-2.0 */
/*
 * knobs_show.h - `deferbench knobs show`: this machine's workqueue settings, softirq
 * threads and worker pools, read from sysfs and /proc (no drgn, no debuginfo).
 */
#ifndef DEFERBENCH_KNOBS_SHOW_H
#define DEFERBENCH_KNOBS_SHOW_H

#include <stdio.h>

/* knobs_show - every tunable workqueue, the unbound mask, parameters, threads, pools */
int knobs_show(FILE *f);
/* wq_pools_show - worker pools as kworker thread names reveal them */
int wq_pools_show(FILE *f);

#endif
