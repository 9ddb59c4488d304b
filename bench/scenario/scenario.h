/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scenario.h - scenario files: which workloads run under which kernel configurations,
 * how long and how often. fio-style INI (parsed with libinih); docs/scenarios.md is
 * the reference. In short:
 *
 *   [global]            the settings of scenario_settings[] (scenario_settings.c):
 *                       design, duration, repetitions, blocks, buffer_kb, ...
 *   [workload NAME]     type = net|timer|audio|tty|block|hog (or workload = ...),
 *                       configs = A, B (default: every [config]), primary = metric-id
 *                       patterns compare decides by (default: the workload's own), other
 *                       keys are the workload's options, checked later by the workload
 *   [load NAME]         a workload run as background load, never measured on its own
 *   [config NAME]       knob assignments (knobs.h), load = NAME[, NAME],
 *                       opt.WORKLOAD.OPTION = value, description = text, settle = DUR
 *                       (alternate: left out around a switch into or out of it)
 *
 * design = cells: the matrix is every [workload] x its configs x repetitions; one entry
 * is a cell, each its own setup of the workload. design = alternate: the configurations
 * of a workload that can be switched while it runs (knobs, background loads shared by
 * all of them, live workload options) are one *segment*: the workload and the capture
 * start once, and the runner switches the machine between the configurations (arms) in
 * phases, in randomized balanced blocks; the rest falls back to cells.
 *
 * scenario_parse() is pure: the valid workload types and the online CPUs come from the
 * caller, so unit tests need neither the workload registry nor a particular machine.
 * Return convention: 0 or -errno; errors are "FILE:LINE: message" in errbuf.
 */
#ifndef DEFERBENCH_SCENARIO_H
#define DEFERBENCH_SCENARIO_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "capture_settings.h"
#include "knobs.h"
#include "opts.h"
#include "common.h"

#define SCN_NAME_MAX 40		/* section names: [A-Za-z0-9_-], used in paths */
#define SCN_KEY_MAX 48
#define SCN_VAL_MAX 192
#define SCN_MAX_WORKLOADS 16	/* [workload] and [load] sections together */
#define SCN_MAX_CONFIGS 32
#define SCN_MAX_OPTS 24		/* options of one workload, overrides of one config */
#define SCN_MAX_KNOBS 24
#define SCN_MAX_LOADS 4

/* Bounds and the defaults the runner's arithmetic needs (the rest: scenario_settings). */
#define SCN_MIN_PHASE_NS (200 * NSEC_PER_MSEC)
#define SCN_MAX_BLOCKS 200	/* a side of compare holds at most STATS_MAX_N blocks */
#define SCN_SETTINGS_MAX 32	/* entries of scenario_settings[] */

struct scn_opt {
	char key[SCN_KEY_MAX];
	char value[SCN_VAL_MAX];
	int line;
};

#define SCN_MAX_PRIMARY 8	/* = PRIMARY_MAX of rundata.h */

/* control = no | reference | yes: untraced twins of no cell, the reference's, every */
enum scn_control { SCN_CONTROL_NO, SCN_CONTROL_REFERENCE, SCN_CONTROL_ALL };

struct scn_workload {
	char name[SCN_NAME_MAX];
	char type[SCN_NAME_MAX];	/* a registered workload */
	bool load;			/* [load NAME] */
	bool pausable;			/* a load the runner can pause while it runs */
	struct scn_opt opt[SCN_MAX_OPTS];
	int nopts;
	int configs[SCN_MAX_CONFIGS];	/* indices into scenario.cfg, in the order given */
	int nconfigs;
	char configs_text[SCN_VAL_MAX];	/* configs = ... as written; "" = all */
	int configs_line;
	char primary[SCN_MAX_PRIMARY][SCN_VAL_MAX];	/* primary = ...: metric-id patterns */
	int nprimary;
	int line;
};

struct scn_knob {
	struct knob k;
	int line;
};

/* opt.WORKLOAD.OPTION = value in a [config]: an option of one workload in that config */
struct scn_override {
	int wl;				/* index into scenario.wl */
	struct scn_opt opt;
	bool live;			/* the workload can switch it while it runs */
};

struct scn_config {
	char name[SCN_NAME_MAX];
	char description[SCN_VAL_MAX];
	struct scn_knob knob[SCN_MAX_KNOBS];
	int nknobs;
	int loads[SCN_MAX_LOADS];	/* indices of [load] sections */
	int nloads;
	char loads_text[SCN_VAL_MAX];
	int loads_line;
	struct scn_override over[SCN_MAX_OPTS];
	char over_wl[SCN_MAX_OPTS][SCN_NAME_MAX];	/* names until resolved */
	int nover;
	/*
	 * alternate: left out after a switch into or out of this configuration when longer
	 * than [global] settle (its knobs take longer to settle); 0 = the global one
	 */
	uint64_t settle_ns;
	int line;
};

enum scn_order { SCN_INTERLEAVED, SCN_SHUFFLED, SCN_GROUPED };
enum scn_design { SCN_DESIGN_CELLS, SCN_DESIGN_ALTERNATE };

/*
 * A scenario. The [global] settings are declared once, in scenario_settings[]
 * (scenario_settings.c: key, option, type, bounds, default, help), and hold the value
 * the file gave, or the command line's over it (run --blocks): the one the run uses.
 */
struct scenario {
	char file[PATH_MAX];
	char name[SCN_NAME_MAX * 2];	/* file name without directory and ".ini" */
	uint64_t duration_ns, warmup_ns;
	uint64_t quick_duration_ns, quick_warmup_ns;
	unsigned int repetitions;
	int design;			/* enum scn_design */
	uint64_t phase_ns, settle_ns;	/* alternate: a phase, and its start left out */
	unsigned int blocks, quick_blocks;	/* alternate: blocks of every arm once */
	struct capture_settings cap;	/* buffer_kb, interval, sched_events, capture_cpus,
					 * stacks; cap.online: the CPUs lists are checked on */
	uint64_t until_decided_ns;	/* adaptive repetitions' time budget; 0 = off */
	int control;			/* enum scn_control: untraced twins of which cells */
	char cpus[SCN_VAL_MAX];		/* canonical CPU list for the workloads; "" = all */
	int order;			/* enum scn_order */
	uint64_t seed;
	char store[PATH_MAX];		/* results store to add the run to; "" = none */
	bool quick;			/* one short repetition (scenario_quick), applied */
	/* where each setting came from: 0 its default, > 0 the file's line, -1 the command line */
	int given[SCN_SETTINGS_MAX];
	struct scn_workload wl[SCN_MAX_WORKLOADS];
	int nwl;
	struct scn_config cfg[SCN_MAX_CONFIGS];
	int ncfg;
	bool implicit_config;		/* no [config]: one empty config named "default" */
};

struct scn_parse_opts {
	const char *const *workloads;	/* valid workload types, NULL-terminated */
	const char *online;		/* online CPUs ("0-1") for checks; NULL = this machine */
	/* can a workload of this type switch option key while it runs? NULL: none can */
	bool (*live_option)(const char *type, const char *key);
	/* can a load of this type be paused while it runs? NULL: none can */
	bool (*pausable)(const char *type);
	/* settings of the command line over [global] (run --blocks 20): NULL, none */
	const struct opts_layer *set;
};

/*
 * scenario_settings - the [global] settings, one entry each: a scenario file's keys,
 * and (those with a long name) the options of `run` that override them
 */
extern const struct opt_desc scenario_settings[];
/* scenario_given - where setting key came from: 0 its default, > 0 a line, -1 the command line */
int scenario_given(const struct scenario *s, const char *key);

/* scenario_parse - text (the file's contents) into s; file names it in messages */
int scenario_parse(const char *text, const char *file, const struct scn_parse_opts *o,
		   struct scenario *s, char *errbuf);
/* scenario_load - read and parse a file; NULL + errno, message in errbuf */
struct scenario *scenario_load(const char *path, const struct scn_parse_opts *o, char *errbuf);
/* scenario_finish - resolve names and check the matrix (scenario_parse's last step) */
int scenario_finish(struct scenario *s, const char *const *types, char *err, int *line);
/* scenario_quick - the --quick version: one repetition of quick_duration (quick = yes) */
void scenario_quick(struct scenario *s);
const char *scenario_order_name(enum scn_order o);
const char *scenario_design_name(enum scn_design d);

/* One arm of a segment: a configuration, traced or with the capture off. */
#define SCN_MAX_ARMS (SCN_MAX_CONFIGS + 1)
struct scn_arm {
	int cfg;
	bool traced;
};

/*
 * One cell: a measured workload under one configuration, one repetition; or (alt) one
 * segment: the workload under every arm in turn, blocks x arms phases.
 */
struct scn_cell {
	int wl, cfg;			/* alt: cfg is the segment's reference arm */
	unsigned int rep;		/* 1-based; alt: the segment's number in its group */
	uint64_t seed;			/* scenario seed + rep: the same for every config */
	char id[SCN_NAME_MAX * 2 + 32];	/* "<workload>--<config>--r<rep>[--control]",
					 * alt: "<workload>--<reference>--a<rep>" */
	unsigned int look;		/* 0: planned; k: added after look k (run --until-decided) */
	bool control;			/* run with the capture off (the observer effect) */
	bool alt;			/* a segment of the alternating design */
	struct scn_arm arm[SCN_MAX_ARMS];
	int narms;
	unsigned int blocks;		/* alt: blocks of this segment */
	unsigned int first_block;	/* alt: the number of its first block (1-based), so
					 * that a group's segments number blocks on */
};

/*
 * scenario_plan - every cell in run order. With control, each cell (or each cell of a
 * workload's reference configuration) has a twin with the capture off right beside it, before it in odd repetitions and after it in even ones,
 * so that neither order nor drift favours one. Repetitions are the outer loop so that
 * slow drift of the machine spreads over every configuration; within a repetition the
 * configurations of a workload rotate (interleaved: A B C, B C A, ...) or are shuffled
 * with the seed (shuffled). grouped runs each cell's repetitions back to back.
 * *cells is malloc'ed; the caller frees it.
 */
/*
 * scenario_reference - the configuration a workload's others are judged against: the
 * one named "default" or "baseline", else its first
 */
int scenario_reference(const struct scenario *s, int w);
/* scenario_wl_index, scenario_cfg_index - a workload's or configuration's index by name,
 * -1 if the scenario has none of that name */
int scenario_wl_index(const struct scenario *s, const char *name);
int scenario_cfg_index(const struct scenario *s, const char *name);
int scenario_plan(const struct scenario *s, struct scn_cell **cells, int *n);
/* scenario_cell - cell (w, cfg, repetition rep) with its seed and id */
void scenario_cell(const struct scenario *s, struct scn_cell *c, int w, int cfg,
		   unsigned int rep);
/* scenario_cell_ns - the time a cell (or segment c, when not NULL) takes, roughly */
uint64_t scenario_cell_ns(const struct scenario *s, const struct scn_cell *c);
/* what running a cell adds to its warm-up and capture: setup, teardown, knobs (0.3-1 s) */
#define SCN_CELL_OVERHEAD_NS NSEC_PER_SEC
/* scenario_cells_ns - the time cells c[0..n) take with their overhead, roughly */
uint64_t scenario_cells_ns(const struct scenario *s, const struct scn_cell *c, int n);
/*
 * scenario_more - the plan cells[0..n) extended by an adaptive look's (workload,
 * configuration) pairs add[0..nadd) into cells[n..n + nadd), within left_ns (what the
 * run may still take): a pair adds the next repetition of its cell, or - for a
 * configuration measured in a segment - more blocks of that segment's group in a new
 * segment (as many as pairs name the group, 4 to 16). What left_ns has no room for is
 * left out. Returns how many cells were added (the kinds asked for in *cell_asked,
 * *block_asked), or -ENOMEM.
 */
int scenario_more(const struct scenario *s, struct scn_cell *cells, int n, int (*add)[2],
		  int nadd, uint64_t left_ns, bool *cell_asked, bool *block_asked);
/*
 * scenario_segment - segment c (alt) of workload w: the arms of group g (as planned),
 * blocks blocks numbered from first_block; its id from rep
 */
void scenario_segment(const struct scenario *s, struct scn_cell *c, const struct scn_cell *like,
		      unsigned int rep, unsigned int blocks, unsigned int first_block);
/*
 * scenario_groups - the configurations of workload w (in w->configs order) into groups
 * that can alternate: group[i] for configs[i]; returns the number of groups. A
 * configuration alone under its background loads joins the group of w's reference
 * when those loads can pause (and it can alternate with the reference otherwise): its
 * loads then run in its own phases only, paused in the others' (scenario_arm_runs).
 */
int scenario_groups(const struct scenario *s, int w, int *group);
/*
 * scenario_group_arms - the arms of group g: its reference first, its other
 * configurations, and (control) the reference with the capture off; returns how many
 */
int scenario_group_arms(const struct scenario *s, int w, const int *group, int g,
			struct scn_arm *arm);
/*
 * scenario_segment_loads - the background loads segment c starts: every load of any of
 * its arms, each once (scenario indices), in the order of the arms; returns how many
 */
int scenario_segment_loads(const struct scenario *s, const struct scn_cell *c, int *loads);
/* scenario_cfg_runs_load - configuration cfg runs load section l */
bool scenario_cfg_runs_load(const struct scenario *s, int cfg, int l);
/*
 * scenario_switch_settle - what a switch from configuration from to configuration to
 * leaves out (alternate): [global] settle, or either one's own settle when longer; from
 * or to < 0: none
 */
uint64_t scenario_switch_settle(const struct scenario *s, int from, int to);

/*
 * scenario_block_order - the arms of block b (1-based) of segment c in run order, a
 * permutation of 0..c->narms-1 drawn from the seed: the same on every machine
 */
void scenario_block_order(const struct scenario *s, const struct scn_cell *c, unsigned int b,
			  int *order);

#endif
