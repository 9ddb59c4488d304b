// SPDX-License-Identifier: GPL-2.0
/*
 * scenario_settings.c - the [global] settings of a scenario, each declared once: its
 * key, its option of `run` where it has one, its type, bounds, default and help. The
 * parser of [global], the command line's overrides (a layer, applied over the file
 * before anything is planned), `run --help` and the table of docs/scenarios.md all
 * come from scenario_settings[].
 */
#include "scenario.h"

#include <errno.h>
#include <string.h>

#define DEFERBENCH_ALLOW_SCENARIO_INT_H
#include "scenario_int.h"
#include "msg.h"

static const char *const design_names[] = {
	[SCN_DESIGN_CELLS] = "cells",
	[SCN_DESIGN_ALTERNATE] = "alternate",
};

static const char *const order_names[] = {
	[SCN_INTERLEAVED] = "interleaved",
	[SCN_SHUFFLED] = "shuffled",
	[SCN_GROUPED] = "grouped",
};

static const char *const control_names[] = {
	[SCN_CONTROL_NO] = "no",
	[SCN_CONTROL_REFERENCE] = "reference",
	[SCN_CONTROL_ALL] = "yes",
};

const struct opt_desc scenario_settings[] = {
	OPT_ENUM(0, "design", scenario, design, "DESIGN", design_names, 2,
		 "alternate: the configurations of a workload that can share it switched in "
		 "phases while it runs, decided inside one run (docs/alternate.md); cells: "
		 "each configuration its own runs", .key = "design", .def = "cells"),
	OPT_UINT(0, "blocks", scenario, blocks, "N", 1, SCN_MAX_BLOCKS,
		 "alternate: blocks of each segment, each holding every arm once; more blocks "
		 "decide smaller changes (advise says how many)", .key = "blocks", .def = "12"),
	OPT_DURATION(0, NULL, scenario, phase_ns, "DUR", SCN_MIN_PHASE_NS, 600 * NSEC_PER_SEC,
		     "alternate: one arm's turn", .key = "phase", .def = "2s"),
	OPT_DURATION(0, NULL, scenario, settle_ns, "DUR", 0, 0,
		     "alternate: the start of each phase left out (shorter than phase)",
		     .key = "settle", .def = "500ms", .zero = true),
	OPT_UINT(0, NULL, scenario, quick_blocks, "N", 1, SCN_MAX_BLOCKS, "blocks under --quick",
		 .key = "quick_blocks", .def = "3"),
	OPT_DURATION(0, NULL, scenario, duration_ns, "DUR", 0, 0, "capture time of each cell",
		     .key = "duration", .def = "10s"),
	OPT_DURATION(0, NULL, scenario, warmup_ns, "DUR", 0, 0,
		     "time the workloads run before the capture starts", .key = "warmup",
		     .def = "2s", .zero = true),
	OPT_UINT(0, NULL, scenario, repetitions, "N", 1, 1000, "times every cell runs",
		 .key = "repetitions", .def = "3"),
	OPT_ENUM(0, NULL, scenario, order, "ORDER", order_names, 3,
		 "the order of the cells in a repetition (docs/scenarios.md, Cell order)",
		 .key = "order", .def = "interleaved"),
	OPT_U64(0, NULL, scenario, seed, "N", 0, UINT64_MAX,
		"seeds the shuffle and the workloads (a cell's seed is seed + rep)",
		.key = "seed", .def = "1"),
	CAPTURE_OPT_BUFFER_KB(scenario, cap),
	CAPTURE_OPT_INTERVAL(scenario, cap, CAPTURE_MIN_INTERVAL_NS,
			     "per-interval statistics every DUR (intervals.csv); alternate: a "
			     "divisor of phase and settle, by default the largest one",
			     .zero = true),
	CAPTURE_OPT_SCHED(scenario, cap),
	OPT_DURATION(0, "until-decided", scenario, until_decided_ns, "BUDGET", 0, 0,
		     "after the planned repetitions (blocks), add some where a primary verdict "
		     "is undecided, until all are decided or BUDGET (10m when the option has "
		     "none; the run's whole time) is spent", .key = "until_decided",
		     .def = "off", .zero = true, .optional = true, .implied = "10m"),
	OPT_ENUM(0, NULL, scenario, control, "WHICH", control_names, 3,
		 "untraced twins (capture off) of every cell (yes), of the reference "
		 "configuration's (reference), or none; alternate: an arm of the reference "
		 "with the capture's events off", .key = "control", .def = "no"),
	OPT_STRING_BUF('S', "store", scenario, store, "FILE",
		       "add the run, once complete, to this results store (deferbench history)",
		       .key = "store"),
	CAPTURE_OPT_CPUS(scenario, cap),
	CAPTURE_OPT_STACKS(scenario, cap),
	CAPTURE_OPT_SLOWEST(scenario, cap),
	OPT_CPULIST(0, NULL, scenario, cpus, cap.online,
		    "the cpus option of the workloads that have one, unless their section sets it",
		    .key = "cpus"),
	OPT_DURATION(0, NULL, scenario, quick_duration_ns, "DUR", 0, 0, "duration under --quick",
		     .key = "quick_duration", .def = "3s"),
	OPT_DURATION(0, NULL, scenario, quick_warmup_ns, "DUR", 0, 0,
		     "the longest warm-up under --quick", .key = "quick_warmup", .def = "1s",
		     .zero = true),
	OPT_BOOL(0, "quick", scenario, quick,
		 "one repetition of quick_duration per cell, quick_blocks blocks per segment, "
		 "no control", .key = "quick", .def = "no"),
	OPT_END(),
};
_Static_assert(ARRAY_SIZE(scenario_settings) <= SCN_SETTINGS_MAX, "SCN_SETTINGS_MAX");

const char *scenario_design_name(enum scn_design d)
{
	return d == SCN_DESIGN_ALTERNATE ? "alternate" : "cells";
}

const char *scenario_order_name(enum scn_order o)
{
	return o >= 0 && o < (int)ARRAY_SIZE(order_names) ? order_names[o] : "interleaved";
}

void scenario_quick(struct scenario *s)
{
	s->repetitions = 1;
	s->blocks = s->quick_blocks;
	s->control = SCN_CONTROL_NO;	/* one repetition cannot measure the capture's effect */
	s->duration_ns = s->quick_duration_ns;
	if (s->warmup_ns > s->quick_warmup_ns)
		s->warmup_ns = s->quick_warmup_ns;
}

void scn_defaults(struct scenario *s, const char *online)
{
	memset(s, 0, sizeof(*s));
	s->cap.online = online;
	opts_defaults(scenario_settings, s, NULL);
}

int scenario_given(const struct scenario *s, const char *key)
{
	const struct opt_desc *o = opts_find_key(scenario_settings, key);

	return o ? s->given[o - scenario_settings] : 0;
}

int scn_global_set(struct scenario *s, const char *name, const char *value, int line,
		   char *err)
{
	const struct opt_desc *o = opts_find_key(scenario_settings, name);
	char keys[ERRBUF_LEN - 64];
	int *given;

	if (!o) {
		opts_keys(scenario_settings, keys, sizeof(keys));
		set_err(err, "unknown key '%s' (%s)", name, keys);
		return -ENOENT;
	}
	given = &s->given[o - scenario_settings];
	if (*given > 0 && line > 0)
		return errno_msg(err, -EEXIST, "'%s' is set twice (first at line %d)", name, *given);
	if (opts_set(scenario_settings, name, value, s, err))
		return -EINVAL;
	*given = line;
	return 0;
}

int scn_global_layer(struct scenario *s, const struct opts_layer *l, char *err)
{
	char why[ERRBUF_LEN];
	int i;

	for (i = 0; l && i < l->n; i++)
		if (scn_global_set(s, l->set[i].key, l->set[i].value, -1, why))
			return set_err(err, "--%s: %s", l->set[i].o ? l->set[i].o->name :
				       l->set[i].key, why);
	return 0;
}
