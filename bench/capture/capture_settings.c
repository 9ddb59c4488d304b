// SPDX-License-Identifier: GPL-2.0
/*
 * capture_settings.c - the parser of the stacks setting, and the settings into a
 * capture's options.
 */
#include "capture_settings.h"

#include "detail.h"
#include "msg.h"
#include "parse.h"

const char *const capture_sched_names[CAPTURE_SCHED_NR] = {
	[CAPTURE_SCHED_NO] = "no",
	[CAPTURE_SCHED_YES] = "yes",
	[CAPTURE_SCHED_ALL] = "all",
};

int capture_set_stacks(const struct opt_desc *o, const char *arg, void *args, char *errbuf)
{
	unsigned int *vecs = (unsigned int *)((char *)args + o->off), v;
	char err[ERRBUF_LEN];
	bool on;

	if (!parse_bool(arg, &on, NULL)) {
		*vecs = on ? STACK_VECS_DEFAULT : 0;
		return 0;
	}
	if (detail_vecs_parse(arg, &v, err))
		return set_err(errbuf, "'%s': stacks are yes (NET_RX, BLOCK, TIMER), no, or a "
			       "list of softirq vectors (NET_RX,BLOCK): %s", arg, err);
	*vecs = v;
	return 0;
}

void capture_settings_apply(const struct capture_settings *cs, struct capture_opts *co)
{
	co->buffer_kb = cs->buffer_kb;
	co->interval_ns = cs->interval_ns;
	co->no_sched = cs->sched == CAPTURE_SCHED_NO;
	co->sched_all = cs->sched == CAPTURE_SCHED_ALL;
	co->cpus = cs->cpus[0] ? cs->cpus : NULL;
	co->stack_vecs = cs->stack_vecs;
	/* a stack is read beside the slowest events */
	co->slowest = cs->slowest ? cs->slowest : cs->stack_vecs ? SLOWEST_DEFAULT : 0;
}
