// SPDX-License-Identifier: GPL-2.0
/*
 * scenario_alt.c - the alternating design (design = alternate): which configurations of
 * a workload can share one running instance of it, the segments they form, and the
 * order of their phases.
 *
 * Two configurations can alternate in one segment when switching between them needs no
 * new setup of the workload: the same background loads (a load is a condition that runs
 * throughout the segment), and the same value for every workload option the workload
 * cannot switch while it runs. A configuration alone under its loads would have nothing
 * to be judged against: when its loads can pause (hog), it joins the reference's
 * segment, its loads running in its phases and paused in every other arm's. Knobs always switch (the runner writes them through the
 * journal at each phase). The capture-off arm (control) is the segment's reference
 * configuration with the capture's events turned off.
 *
 * Every block holds every arm once, in an order drawn from the seed (Fisher-Yates over
 * scn_splitmix64), so that neither order nor anything periodic on the machine favours an arm;
 * the same scenario gives the same order on every machine.
 */
#include "scenario.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define DEFERBENCH_ALLOW_SCENARIO_INT_H
#include "scenario_int.h"
#include "msg.h"

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * mark_live - each override the workload (or load) it sets can switch while running,
 * and each load that can pause
 */
static void mark_live(struct scenario *s, const struct scn_parse_opts *o)
{
	int c, i;

	for (i = 0; i < s->nwl; i++)
		s->wl[i].pausable = s->wl[i].load && o->pausable && o->pausable(s->wl[i].type);

	for (c = 0; c < s->ncfg; c++)
		for (i = 0; i < s->cfg[c].nover; i++) {
			struct scn_override *ov = &s->cfg[c].over[i];

			ov->live = o->live_option &&
				   o->live_option(s->wl[ov->wl].type, ov->opt.key);
		}
}

int scn_alternate_finish(struct scenario *s, const struct scn_parse_opts *o, char *err)
{
	bool cfg_settle = false;
	uint64_t g;
	int c;

	if (scenario_given(s, "blocks") < 0 && s->design != SCN_DESIGN_ALTERNATE)
		return set_err(err, "--blocks %u is for the alternating design: this scenario "
			       "runs as cells, %u repetitions of each (add --design alternate, "
			       "or set repetitions in [global])", s->blocks, s->repetitions);
	mark_live(s, o);
	if (s->design != SCN_DESIGN_ALTERNATE)
		return 0;
	if (s->settle_ns >= s->phase_ns)
		return set_err(err, "[global] settle (%llu ms) must be shorter than phase (%llu ms): "
			       "the settle time is left out of each phase",
			       (unsigned long long)(s->settle_ns / NSEC_PER_MSEC),
			       (unsigned long long)(s->phase_ns / NSEC_PER_MSEC));
	g = s->settle_ns ? gcd64(s->phase_ns, s->settle_ns) : s->phase_ns;
	for (c = 0; c < s->ncfg; c++) {
		if (!s->cfg[c].settle_ns)
			continue;
		if (s->cfg[c].settle_ns >= s->phase_ns)
			return set_err(err, "[config %s] settle (%llu ms) must be shorter than phase "
				       "(%llu ms): the settle time is left out of each phase",
				       s->cfg[c].name,
				       (unsigned long long)(s->cfg[c].settle_ns / NSEC_PER_MSEC),
				       (unsigned long long)(s->phase_ns / NSEC_PER_MSEC));
		g = gcd64(g, s->cfg[c].settle_ns);
		cfg_settle = true;
	}
	if (!scenario_given(s, "interval")) {
		/* the largest interval that tiles both: every interval is in one part */
		s->cap.interval_ns = g;
		while (s->cap.interval_ns > NSEC_PER_SEC && !(s->cap.interval_ns % 2))
			s->cap.interval_ns /= 2;
	}
	if (!s->cap.interval_ns)
		return set_err(err, "[global] interval is off, but design = alternate assigns "
			       "each interval to a phase: set interval to a divisor of phase and "
			       "settle, or leave it out");
	if (s->cap.interval_ns < CAPTURE_MIN_INTERVAL_NS || g % s->cap.interval_ns)
		return set_err(err, "[global] interval (%llu ms) must divide phase (%llu ms) and "
			       "settle (%llu ms)%s, so that every interval lies in one phase: "
			       "leave interval out, or choose one such as %llu ms",
			       (unsigned long long)(s->cap.interval_ns / NSEC_PER_MSEC),
			       (unsigned long long)(s->phase_ns / NSEC_PER_MSEC),
			       (unsigned long long)(s->settle_ns / NSEC_PER_MSEC),
			       cfg_settle ? " and every [config] settle" : "",
			       (unsigned long long)(g / NSEC_PER_MSEC));
	return 0;
}

uint64_t scenario_switch_settle(const struct scenario *s, int from, int to)
{
	uint64_t t = s->settle_ns;

	if (from >= 0 && s->cfg[from].settle_ns > t)
		t = s->cfg[from].settle_ns;
	if (to >= 0 && s->cfg[to].settle_ns > t)
		t = s->cfg[to].settle_ns;
	return t;
}

/* same_option - cfg a and b give workload (or load) wl the same value of key */
static bool same_option(const struct scenario *s, int a, int b, int wl, const char *key)
{
	const char *va = NULL, *vb = NULL;
	int i;

	for (i = 0; i < s->cfg[a].nover; i++)
		if (s->cfg[a].over[i].wl == wl && !strcmp(s->cfg[a].over[i].opt.key, key))
			va = s->cfg[a].over[i].opt.value;
	for (i = 0; i < s->cfg[b].nover; i++)
		if (s->cfg[b].over[i].wl == wl && !strcmp(s->cfg[b].over[i].opt.key, key))
			vb = s->cfg[b].over[i].opt.value;
	if (!va || !vb)
		return !va && !vb;
	return !strcmp(va, vb);
}

/* same_loads - a and b start the same background loads */
static bool same_loads(const struct scenario *s, int a, int b)
{
	const struct scn_config *ca = &s->cfg[a], *cb = &s->cfg[b];
	int i, k;

	if (ca->nloads != cb->nloads)
		return false;
	for (i = 0; i < ca->nloads; i++) {
		for (k = 0; k < cb->nloads && cb->loads[k] != ca->loads[i]; k++)
			;
		if (k == cb->nloads)
			return false;
	}
	return true;
}

/* fixed_differs - an option the workload cannot switch live differs between a and b */
static bool fixed_differs(const struct scenario *s, int a, int b)
{
	int pass, i;

	for (pass = 0; pass < 2; pass++) {
		const struct scn_config *cf = &s->cfg[pass ? b : a];

		for (i = 0; i < cf->nover; i++)
			if (!cf->over[i].live &&
			    !same_option(s, a, b, cf->over[i].wl, cf->over[i].opt.key))
				return true;
	}
	return false;
}

/*
 * can_alternate - configurations a and b can share one running workload: the same
 * background loads, and the same value of every option it cannot switch live
 */
static bool can_alternate(const struct scenario *s, int a, int b)
{
	return same_loads(s, a, b) && !fixed_differs(s, a, b);
}

bool scenario_cfg_runs_load(const struct scenario *s, int cfg, int l)
{
	int i;

	for (i = 0; i < s->cfg[cfg].nloads; i++)
		if (s->cfg[cfg].loads[i] == l)
			return true;
	return false;
}

/* pauses_apart - the loads a and b do not share can all pause */
static bool pauses_apart(const struct scenario *s, int a, int b)
{
	int pass, i, l;

	for (pass = 0; pass < 2; pass++) {
		const struct scn_config *cf = &s->cfg[pass ? b : a];

		for (i = 0; i < cf->nloads; i++) {
			l = cf->loads[i];
			if (!scenario_cfg_runs_load(s, pass ? a : b, l) && !s->wl[l].pausable)
				return false;
		}
	}
	return true;
}

/* add_loads - cfg's loads into the set loads[*n]; false (set unchanged) if they overflow */
static bool add_loads(const struct scenario *s, int cfg, int *loads, int *n)
{
	int i, k, m = *n;

	for (i = 0; i < s->cfg[cfg].nloads; i++) {
		for (k = 0; k < m && loads[k] != s->cfg[cfg].loads[i]; k++)
			;
		if (k < m)
			continue;
		if (m == SCN_MAX_LOADS)
			return false;
		loads[m++] = s->cfg[cfg].loads[i];
	}
	*n = m;
	return true;
}

/*
 * join_lone - a configuration alone in its group, under loads that can pause, to the
 * group of the reference (scenario.h), while the segment's loads fit; the groups then
 * renumbered in order
 */
static int join_lone(const struct scenario *s, int w, int *group, int n)
{
	const struct scn_workload *wl = &s->wl[w];
	int ref = scenario_reference(s, w), rg = -1, size[SCN_MAX_CONFIGS] = { 0 };
	int map[SCN_MAX_CONFIGS], loads[SCN_MAX_LOADS], nl = 0, i, g, m = 0;

	for (i = 0; i < wl->nconfigs; i++) {
		size[group[i]]++;
		if (wl->configs[i] == ref)
			rg = group[i];
	}
	if (rg < 0)
		return n;
	for (i = 0; i < wl->nconfigs; i++)
		if (group[i] == rg)
			add_loads(s, wl->configs[i], loads, &nl);
	for (i = 0; i < wl->nconfigs; i++) {
		int c = wl->configs[i];

		if (group[i] != rg && size[group[i]] == 1 && s->cfg[c].nloads &&
		    !fixed_differs(s, c, ref) && pauses_apart(s, c, ref) &&
		    add_loads(s, c, loads, &nl))
			group[i] = rg;
	}
	for (g = 0; g < n; g++)
		map[g] = -1;
	for (i = 0; i < wl->nconfigs; i++) {
		if (map[group[i]] < 0)
			map[group[i]] = m++;
		group[i] = map[group[i]];
	}
	return m;
}

int scenario_groups(const struct scenario *s, int w, int *group)
{
	const struct scn_workload *wl = &s->wl[w];
	int i, k, n = 0;

	for (i = 0; i < wl->nconfigs; i++) {
		group[i] = -1;
		for (k = 0; k < i && group[i] < 0; k++)
			if (can_alternate(s, wl->configs[k], wl->configs[i]))
				group[i] = group[k];
		if (group[i] < 0)
			group[i] = n++;
	}
	return join_lone(s, w, group, n);
}

int scenario_segment_loads(const struct scenario *s, const struct scn_cell *c, int *loads)
{
	int a, n = 0;

	/* they fit: join_lone admitted only arms whose loads do */
	for (a = 0; a < c->narms; a++)
		add_loads(s, c->arm[a].cfg, loads, &n);
	return n;
}

/* group_reference - the reference of group g: w's reference, else its first */
static int group_reference(const struct scenario *s, int w, const int *group, int g)
{
	const struct scn_workload *wl = &s->wl[w];
	int ref = scenario_reference(s, w), i, first = -1;

	for (i = 0; i < wl->nconfigs; i++) {
		if (group[i] != g)
			continue;
		if (wl->configs[i] == ref)
			return ref;
		if (first < 0)
			first = wl->configs[i];
	}
	return first;
}

int scenario_group_arms(const struct scenario *s, int w, const int *group, int g,
			struct scn_arm *arm)
{
	const struct scn_workload *wl = &s->wl[w];
	int ref = group_reference(s, w, group, g), i, n = 0;

	arm[n++] = (struct scn_arm){ .cfg = ref, .traced = true };
	for (i = 0; i < wl->nconfigs; i++)
		if (group[i] == g && wl->configs[i] != ref)
			arm[n++] = (struct scn_arm){ .cfg = wl->configs[i], .traced = true };
	if (s->control != SCN_CONTROL_NO)
		arm[n++] = (struct scn_arm){ .cfg = ref, .traced = false };
	return n;
}

void scenario_segment(const struct scenario *s, struct scn_cell *c, const struct scn_cell *like,
		      unsigned int rep, unsigned int blocks, unsigned int first_block)
{
	if (like != c)
		*c = *like;
	c->rep = rep;
	c->seed = s->seed + rep;
	c->look = 0;
	c->control = false;
	c->alt = true;
	c->blocks = blocks;
	c->first_block = first_block;
	snprintf(c->id, sizeof(c->id), "%s--%s--a%u", s->wl[c->wl].name, s->cfg[c->cfg].name, rep);
}

void scenario_block_order(const struct scenario *s, const struct scn_cell *c, unsigned int b,
			  int *order)
{
	uint64_t x = s->seed ^ ((uint64_t)b << 32) ^ ((uint64_t)c->wl << 16) ^ (uint64_t)c->cfg;
	int i;

	for (i = 0; i < c->narms; i++)
		order[i] = i;
	for (i = c->narms - 1; i > 0; i--) {
		int j = (int)(scn_splitmix64(&x) % (uint64_t)(i + 1)), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}
