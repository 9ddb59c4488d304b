// SPDX-License-Identifier: GPL-2.0
/*
 * softirq.c - the softirq vectors' names, as the kernel's softirq_to_name[] (see
 * match.h).
 */
#include "match.h"

#include <string.h>

const char *const softirq_names[NR_SOFTIRQS] = {
	[SIRQ_HI] = "HI",
	[SIRQ_TIMER] = "TIMER",
	[SIRQ_NET_TX] = "NET_TX",
	[SIRQ_NET_RX] = "NET_RX",
	[SIRQ_BLOCK] = "BLOCK",
	[SIRQ_IRQ_POLL] = "IRQ_POLL",
	[SIRQ_TASKLET] = "TASKLET",
	[SIRQ_SCHED] = "SCHED",
	[SIRQ_HRTIMER] = "HRTIMER",
	[SIRQ_RCU] = "RCU",
};

int softirq_vec_from_name(const char *name)
{
	int i;

	for (i = 0; i < NR_SOFTIRQS; i++)
		if (!strcmp(name, softirq_names[i]))
			return i;
	return -1;
}
