// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - the trace events the matcher reads, by system and name (see match.h).
 */
#include "match.h"

/* EV - system, name and "system:name" of one event, from two literals */
#define EV(sys, name) { sys, name, sys ":" name }

const struct ev_name ev_names[EV_NR] = {
	[EV_SOFTIRQ_RAISE] = EV("irq", "softirq_raise"),
	[EV_SOFTIRQ_ENTRY] = EV("irq", "softirq_entry"),
	[EV_SOFTIRQ_EXIT] = EV("irq", "softirq_exit"),
	[EV_WQ_QUEUE] = EV("workqueue", "workqueue_queue_work"),
	[EV_WQ_ACTIVATE] = EV("workqueue", "workqueue_activate_work"),
	[EV_WQ_START] = EV("workqueue", "workqueue_execute_start"),
	[EV_WQ_END] = EV("workqueue", "workqueue_execute_end"),
	[EV_SCHED_SWITCH] = EV("sched", "sched_switch"),
	[EV_SCHED_WAKEUP] = EV("sched", "sched_wakeup"),
	[EV_TASKLET_ENTRY] = EV("irq", "tasklet_entry"),
	[EV_TASKLET_EXIT] = EV("irq", "tasklet_exit"),
	[EV_IRQ_ENTRY] = EV("irq", "irq_handler_entry"),
	[EV_IRQ_EXIT] = EV("irq", "irq_handler_exit"),
	/* x86 only: the local APIC timer interrupt is no irq_handler_entry */
	[EV_TIMER_IRQ_ENTRY] = EV("irq_vectors", "local_timer_entry"),
	[EV_TIMER_IRQ_EXIT] = EV("irq_vectors", "local_timer_exit"),
	[EV_NAPI_POLL] = EV("napi", "napi_poll"),
	[EV_KERNEL_STACK] = EV("ftrace", "kernel_stack"),
};
