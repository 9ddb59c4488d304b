/* SPDX-License-Identifier: GPL-2.0 */
/*
 * history_out.h - the history's output layer: tables, the regressions list, the fleet
 * view and plots of series that hs_detect has examined. Values print in microseconds.
 */
#ifndef DEFERBENCH_HISTORY_OUT_H
#define DEFERBENCH_HISTORY_OUT_H

#include <stdio.h>

#include "history.h"

/* hs_print_table - per series: each run's median and range, change points between */
void hs_print_table(FILE *f, const struct hs_set *set);
/*
 * hs_print_regressions - every change point, worse first word "WORSE"; returns how
 * many series have their newest run past a change point for the worse
 */
size_t hs_print_regressions(FILE *f, const struct hs_set *set);
/*
 * hs_print_fleet - per kernel (release order; only kernel when not NULL): on how many
 * of the hosts that ran it each series got worse, better or did not change, each host
 * judged against its own history; then the changes themselves. 0 or -ENOMEM.
 */
int hs_print_fleet(FILE *f, const struct hs_set *set, const char *kernel);
/*
 * hs_plot - one plot per scenario x workload x configuration x metric in dir (which
 * must exist): one line per host, bands from the repetitions, change points marked.
 * 0 or -errno with errbuf.
 */
int hs_plot(const struct hs_set *set, const char *dir, size_t *nplots, char *errbuf);

#endif
