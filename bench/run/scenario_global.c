// SPDX-License-Identifier: GPL-2.0
/*
 * scenario_global.c - the [global] keys of a scenario: defaults, parsers, bounds.
 */
#include "scenario.h"

#include <errno.h>
#include <string.h>

#include "scenario_int.h"
#include "detail.h"
#include "msg.h"
#include "parse.h"

void scn_defaults(struct scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->duration_ns = SCN_DEF_DURATION_NS;
	s->warmup_ns = SCN_DEF_WARMUP_NS;
	s->quick_duration_ns = SCN_DEF_QUICK_DURATION_NS;
	s->quick_warmup_ns = SCN_DEF_QUICK_WARMUP_NS;
	s->repetitions = SCN_DEF_REPETITIONS;
	s->buffer_kb = SCN_DEF_BUFFER_KB;
	s->interval_ns = SCN_DEF_INTERVAL_NS;
	s->sched_events = true;
	s->order = SCN_INTERLEAVED;
	s->seed = SCN_DEF_SEED;
	s->design = SCN_DESIGN_CELLS;
	s->phase_ns = SCN_DEF_PHASE_NS;
	s->settle_ns = SCN_DEF_SETTLE_NS;
	s->blocks = SCN_DEF_BLOCKS;
	s->quick_blocks = SCN_DEF_QUICK_BLOCKS;
}

static int g_duration(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		      char *e)
{
	return parse_duration_ns(v, &s->duration_ns, e);
}

static int g_warmup(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		    char *e)
{
	if (!strcmp(v, "0")) {
		s->warmup_ns = 0;
		return 0;
	}
	return parse_duration_ns(v, &s->warmup_ns, e);
}

static int g_quick_duration(struct scenario *s, const char *v,
			    const struct scn_parse_opts *o __unused, char *e)
{
	return parse_duration_ns(v, &s->quick_duration_ns, e);
}

static int g_quick_warmup(struct scenario *s, const char *v,
			  const struct scn_parse_opts *o __unused, char *e)
{
	if (!strcmp(v, "0")) {
		s->quick_warmup_ns = 0;
		return 0;
	}
	return parse_duration_ns(v, &s->quick_warmup_ns, e);
}

static int g_repetitions(struct scenario *s, const char *v,
			 const struct scn_parse_opts *o __unused, char *e)
{
	int n;

	if (parse_int(v, 1, 1000, &n, e))
		return -EINVAL;
	s->repetitions = n;
	return 0;
}

static int g_buffer_kb(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		       char *e)
{
	int n;

	if (parse_int(v, CAPTURE_MIN_BUFFER_KB, CAPTURE_MAX_BUFFER_KB, &n, e))
		return -EINVAL;
	s->buffer_kb = n;
	return 0;
}

static int g_interval(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		      char *e)
{
	s->interval_set = true;
	if (!strcmp(v, "0") || !strcmp(v, "off")) {
		s->interval_ns = 0;
		return 0;
	}
	if (parse_duration_ns(v, &s->interval_ns, e))
		return -EINVAL;
	if (s->interval_ns < CAPTURE_MIN_INTERVAL_NS)
		return set_err(e, "'%s': intervals shorter than 10ms are not supported", v);
	return 0;
}

static int g_cpus(struct scenario *s, const char *v, const struct scn_parse_opts *o, char *e)
{
	cpu_set_t set;

	if (parse_cpulist(v, &set, o->online, e))
		return -EINVAL;
	cpulist_format(&set, s->cpus, sizeof(s->cpus));
	return 0;
}

static int g_capture_cpus(struct scenario *s, const char *v, const struct scn_parse_opts *o,
			  char *e)
{
	cpu_set_t set;

	if (parse_cpulist(v, &set, o->online, e))
		return -EINVAL;
	cpulist_format(&set, s->capture_cpus, sizeof(s->capture_cpus));
	return 0;
}

static int g_order(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		   char *e)
{
	static const enum scn_order orders[] = { SCN_INTERLEAVED, SCN_SHUFFLED, SCN_GROUPED };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(orders); i++)
		if (!strcmp(v, scenario_order_name(orders[i]))) {
			s->order = orders[i];
			return 0;
		}
	return set_err(e, "'%s' is not an order (interleaved, shuffled, grouped)", v);
}

static int g_seed(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		  char *e)
{
	return parse_u64(v, 0, UINT64_MAX, &s->seed, e);
}

static int g_sched_events(struct scenario *s, const char *v,
			  const struct scn_parse_opts *o __unused, char *e)
{
	s->sched_all = !strcmp(v, "all");
	if (s->sched_all) {
		s->sched_events = true;
		return 0;
	}
	if (parse_bool(v, &s->sched_events, e))
		return set_err(e, "'%s': sched_events is yes (the switches and wakeups of "
			       "deferred work's threads), all, or no", v);
	return 0;
}

/* g_until_decided - the time budget of adaptive repetitions (run --until-decided) */
static int g_until_decided(struct scenario *s, const char *v,
			   const struct scn_parse_opts *o __unused, char *e)
{
	if (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no")) {
		s->until_decided_ns = 0;
		return 0;
	}
	return parse_duration_ns(v, &s->until_decided_ns, e);
}

static int g_control(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		     char *e)
{
	bool on;

	if (!strcmp(v, "reference")) {
		s->control = SCN_CONTROL_REFERENCE;
		return 0;
	}
	if (parse_bool(v, &on, e))
		return set_err(e, "'%s': control is yes (an untraced twin of every cell), "
			       "reference (of the reference configuration's cells) or no", v);
	s->control = on ? SCN_CONTROL_ALL : SCN_CONTROL_NO;
	return 0;
}

static int g_store(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		   char *e)
{
	if (!*v || strlen(v) >= sizeof(s->store))
		return set_err(e, "needs the path of a results store (deferbench history)");
	strcpy(s->store, v);
	return 0;
}

int scn_design_parse(const char *v, enum scn_design *d, char *e)
{
	if (!strcmp(v, "cells"))
		*d = SCN_DESIGN_CELLS;
	else if (!strcmp(v, "alternate"))
		*d = SCN_DESIGN_ALTERNATE;
	else
		return set_err(e, "'%s' is not a design (alternate: the configurations switched "
			       "in phases while the workload runs; cells: each configuration its "
			       "own runs)", v);
	return 0;
}

static int g_design(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		    char *e)
{
	return scn_design_parse(v, &s->design, e);
}

static int g_phase(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		   char *e)
{
	if (parse_duration_ns(v, &s->phase_ns, e))
		return -EINVAL;
	if (s->phase_ns < SCN_MIN_PHASE_NS || s->phase_ns > 600 * NSEC_PER_SEC)
		return set_err(e, "'%s': a phase is 200ms to 10m", v);
	return 0;
}

static int g_settle(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		    char *e)
{
	if (!strcmp(v, "0")) {
		s->settle_ns = 0;
		return 0;
	}
	return parse_duration_ns(v, &s->settle_ns, e);
}

static int blocks_parse(const char *v, unsigned int *out, char *e)
{
	int n;

	if (parse_int(v, 1, SCN_MAX_BLOCKS, &n, e))
		return -EINVAL;
	*out = (unsigned int)n;
	return 0;
}

static int g_blocks(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		    char *e)
{
	return blocks_parse(v, &s->blocks, e);
}

static int g_quick_blocks(struct scenario *s, const char *v,
			  const struct scn_parse_opts *o __unused, char *e)
{
	return blocks_parse(v, &s->quick_blocks, e);
}

/*
 * g_stacks - record --stacks in every cell: no, yes (the vectors the workloads drive:
 * NET_RX, BLOCK, TIMER), or a list of vectors; with the slowest events
 */
static int g_stacks(struct scenario *s, const char *v, const struct scn_parse_opts *o __unused,
		    char *e)
{
	char err[ERRBUF_LEN];
	bool on;

	if (!parse_bool(v, &on, NULL)) {
		s->stack_vecs = on ? STACK_VECS_DEFAULT : 0;
		return 0;
	}
	if (vecs_parse(v, &s->stack_vecs, err))
		return set_err(e, "'%s': stacks is yes (NET_RX, BLOCK, TIMER), no, or a list of "
			       "softirq vectors (NET_RX,BLOCK): %s", v, err);
	return 0;
}

static const struct {
	const char *name;
	int (*set)(struct scenario *s, const char *v, const struct scn_parse_opts *o, char *e);
} global_keys[] = {
	{ "duration", g_duration },
	{ "warmup", g_warmup },
	{ "repetitions", g_repetitions },
	{ "buffer_kb", g_buffer_kb },
	{ "interval", g_interval },
	{ "cpus", g_cpus },
	{ "order", g_order },
	{ "seed", g_seed },
	{ "quick_duration", g_quick_duration },
	{ "quick_warmup", g_quick_warmup },
	{ "sched_events", g_sched_events },
	{ "until_decided", g_until_decided },
	{ "store", g_store },
	{ "control", g_control },
	{ "capture_cpus", g_capture_cpus },
	{ "design", g_design },
	{ "phase", g_phase },
	{ "settle", g_settle },
	{ "blocks", g_blocks },
	{ "quick_blocks", g_quick_blocks },
	{ "stacks", g_stacks },
};


int scn_global_set(struct scenario *s, const char *name, const char *value,
		   const struct scn_parse_opts *o, int *idx, char *err)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(global_keys); i++)
		if (!strcmp(name, global_keys[i].name))
			break;
	if (i == ARRAY_SIZE(global_keys)) {
		set_err(err, "unknown key '%s' (design, duration, warmup, repetitions, blocks, "
			"phase, settle, buffer_kb, interval, cpus, order, seed, quick_duration, "
			"quick_warmup, quick_blocks, sched_events, until_decided, store, control, "
			"capture_cpus, stacks)", name);
		return -ENOENT;
	}
	*idx = (int)i;
	return global_keys[i].set(s, value, o, err) ? -EINVAL : 0;
}
