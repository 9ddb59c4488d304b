/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpulist.h - CPU lists as the kernel writes them ("0-3,6"): parsed strictly (the whole
 * string, every CPU online, or an error naming what was wrong), formatted canonically.
 */
#ifndef DEFERBENCH_CPULIST_H
#define DEFERBENCH_CPULIST_H

#include <sched.h>
#include <stddef.h>

#include "common.h"

/*
 * cpulist_parse - "0-3,6" into a cpu_set_t. Every CPU must be online (read from
 * /sys/devices/system/cpu/online, or the string online_override when not NULL, so
 * tests do not depend on the machine).
 */
int cpulist_parse(const char *s, cpu_set_t *set, const char *online_override, char *errbuf);
/* cpulist_format - the canonical "0-3,6" form of a set. */
char *cpulist_format(const cpu_set_t *set, char *buf, size_t len);
/* cpulist_online - the online CPU set; returns the number of online CPUs or -errno. */
int cpulist_online(cpu_set_t *set);
/* parse a kernel cpulist string ("0-1,4") without the online check */
int cpulist_parse_raw(const char *s, cpu_set_t *set, char *errbuf);

#endif
