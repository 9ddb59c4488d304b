// SPDX-License-Identifier: GPL-2.0
/*
 * scenario_plan.c - from parsed sections to the matrix: resolve names (configs =,
 * load =, opt.WORKLOAD.*), check the matrix is not empty, and order the cells; the
 * cells an adaptive look adds.
 */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DEFERBENCH_ALLOW_SCENARIO_INT_H
#include "scenario_int.h"
#include "msg.h"

/* next_token - the next name of a "A, B C" list into tok; false at the end */
static bool next_token(const char **p, char *tok, size_t len)
{
	const char *s = *p, *e;

	s += strspn(s, ", \t");
	if (!*s)
		return false;
	e = s + strcspn(s, ", \t");
	snprintf(tok, len, "%.*s", (int)(e - s), s);
	*p = e;
	return true;
}

/* resolve_configs - configs = A, B (or all) into indices */
static int resolve_configs(struct scenario *s, struct scn_workload *w, char *err, int *line)
{
	const char *p = w->configs_text;
	char tok[SCN_VAL_MAX];
	int i, k;

	*line = w->configs_line;
	if (!w->configs_line || !strcmp(w->configs_text, "all")) {
		for (i = 0; i < s->ncfg; i++)
			w->configs[i] = i;
		w->nconfigs = s->ncfg;
		return 0;
	}
	while (next_token(&p, tok, sizeof(tok))) {
		i = scenario_cfg_index(s, tok);
		if (i < 0)
			return set_err(err, "[workload %s] configs: no [config %s]", w->name, tok);
		for (k = 0; k < w->nconfigs; k++)
			if (w->configs[k] == i)
				return set_err(err, "[workload %s] configs: '%s' is listed twice",
					       w->name, tok);
		w->configs[w->nconfigs++] = i;
	}
	if (!w->nconfigs)
		return set_err(err, "[workload %s] configs is empty: nothing to run", w->name);
	return 0;
}

/* resolve_loads - load = A, B: names of [load] sections */
static int resolve_loads(struct scenario *s, struct scn_config *cf, char *err, int *line)
{
	const char *p = cf->loads_text;
	char tok[SCN_VAL_MAX];
	int i, k;

	*line = cf->loads_line;
	while (next_token(&p, tok, sizeof(tok))) {
		i = scenario_wl_index(s, tok);
		if (i < 0)
			return set_err(err, "[config %s] load: no [load %s]", cf->name, tok);
		if (!s->wl[i].load)
			return set_err(err, "[config %s] load: %s is a [workload]; declare background "
				       "load in a [load %s] section", cf->name, tok, tok);
		for (k = 0; k < cf->nloads; k++)
			if (cf->loads[k] == i)
				return set_err(err, "[config %s] load: '%s' is listed twice", cf->name, tok);
		if (cf->nloads == SCN_MAX_LOADS)
			return set_err(err, "[config %s]: more than %d loads", cf->name, SCN_MAX_LOADS);
		cf->loads[cf->nloads++] = i;
	}
	if (cf->loads_line && !cf->nloads)
		return set_err(err, "[config %s] load is empty", cf->name);
	return 0;
}

/* resolve_overrides - opt.WORKLOAD.OPTION must name a [workload] or [load] */
static int resolve_overrides(struct scenario *s, struct scn_config *cf, char *err, int *line)
{
	int i;

	for (i = 0; i < cf->nover; i++) {
		*line = cf->over[i].opt.line;
		cf->over[i].wl = scenario_wl_index(s, cf->over_wl[i]);
		if (cf->over[i].wl < 0)
			return set_err(err, "[config %s] opt.%s.%s: no [workload %s] or [load %s]",
				       cf->name, cf->over_wl[i], cf->over[i].opt.key, cf->over_wl[i],
				       cf->over_wl[i]);
	}
	return 0;
}

/* check_type - a workload's type must be one the caller knows */
static int check_type(const struct scn_workload *w, const char *const *types, char *err)
{
	char list[200];
	size_t off = 0;
	int i;

	if (!w->type[0])
		return set_err(err, "[%s %s] has no type (type = NAME)", w->load ? "load" : "workload",
			       w->name);
	for (i = 0; types && types[i]; i++)
		if (!strcmp(types[i], w->type))
			return 0;
	list[0] = '\0';
	for (i = 0; types && types[i] && off < sizeof(list); i++)
		off += snprintf(list + off, sizeof(list) - off, "%s%s", i ? ", " : "", types[i]);
	return set_err(err, "[%s %s]: unknown workload '%s' (known: %s)",
		       w->load ? "load" : "workload", w->name, w->type, list);
}

int scenario_finish(struct scenario *s, const char *const *types, char *err, int *line)
{
	int i, measured = 0;

	for (i = 0; i < s->nwl; i++) {
		*line = s->wl[i].line;
		if (check_type(&s->wl[i], types, err))
			return -EINVAL;
		measured += !s->wl[i].load;
	}
	*line = 0;
	if (!measured)
		return set_err(err, "no [workload NAME] section: nothing to measure");
	if (!s->ncfg) {
		s->implicit_config = true;
		s->ncfg = 1;
		snprintf(s->cfg[0].name, SCN_NAME_MAX, "default");
	}
	for (i = 0; i < s->ncfg; i++) {
		if (resolve_loads(s, &s->cfg[i], err, line) ||
		    resolve_overrides(s, &s->cfg[i], err, line))
			return -EINVAL;
	}
	for (i = 0; i < s->nwl; i++)
		if (!s->wl[i].load && resolve_configs(s, &s->wl[i], err, line))
			return -EINVAL;
	return 0;
}

uint64_t scenario_cell_ns(const struct scenario *s, const struct scn_cell *c)
{
	if (c && c->alt)
		return s->warmup_ns + (uint64_t)c->blocks * (uint64_t)c->narms * s->phase_ns;
	return s->warmup_ns + s->duration_ns;
}

uint64_t scenario_cells_ns(const struct scenario *s, const struct scn_cell *c, int n)
{
	uint64_t ns = 0;
	int i;

	for (i = 0; i < n; i++)
		ns += scenario_cell_ns(s, &c[i]) + SCN_CELL_OVERHEAD_NS;
	return ns;
}

/* config_order - the configs of w for repetition rep, in run order */
static void config_order(const struct scenario *s, int w, unsigned int rep, int *out)
{
	const struct scn_workload *wl = &s->wl[w];
	int n = wl->nconfigs, i;
	uint64_t x;

	for (i = 0; i < n; i++)
		out[i] = wl->configs[(i + (s->order == SCN_INTERLEAVED ? rep - 1 : 0)) % n];
	if (s->order != SCN_SHUFFLED)
		return;
	x = s->seed ^ ((uint64_t)rep << 32) ^ (uint64_t)w;
	for (i = n - 1; i > 0; i--) {
		int j = (int)(scn_splitmix64(&x) % (uint64_t)(i + 1)), t = out[i];

		out[i] = out[j];
		out[j] = t;
	}
}

void scenario_cell(const struct scenario *s, struct scn_cell *c, int w, int cfg,
		   unsigned int rep)
{
	c->wl = w;
	c->cfg = cfg;
	c->rep = rep;
	c->seed = s->seed + rep;
	c->look = 0;
	c->control = false;
	c->alt = false;
	c->narms = 0;
	c->blocks = 0;
	c->first_block = 0;
	snprintf(c->id, sizeof(c->id), "%s--%s--r%u", s->wl[w].name, s->cfg[cfg].name, rep);
}

/* controlled - does (w, cfg) get control cells */
static bool controlled(const struct scenario *s, int w, int cfg)
{
	return s->control == SCN_CONTROL_ALL ||
	       (s->control == SCN_CONTROL_REFERENCE && cfg == scenario_reference(s, w));
}

/* add_cell - a cell and, with control, its twin (capture off) in alternating order */
static void add_cell(const struct scenario *s, struct scn_cell *c, int *k, int w, int cfg,
		     unsigned int rep)
{
	int first = *k;

	scenario_cell(s, &c[(*k)++], w, cfg, rep);
	if (!controlled(s, w, cfg))
		return;
	scenario_cell(s, &c[*k], w, cfg, rep);
	c[*k].control = true;
	snprintf(c[*k].id, sizeof(c[*k].id), "%s--%s--r%u--control", s->wl[w].name,
		 s->cfg[cfg].name, rep);
	if (rep % 2) {		/* odd repetitions: the control first */
		struct scn_cell t = c[first];

		c[first] = c[*k];
		c[*k] = t;
	}
	(*k)++;
}

/*
 * plan_alternate - design = alternate: one segment per group of configurations that can
 * alternate (scenario_alt.c), workload by workload; a group of one configuration and
 * no capture-off arm has nothing to alternate with and runs as cells, after the
 * segments, repetitions interleaved. c NULL: count only.
 */
static int plan_alternate(const struct scenario *s, struct scn_cell *c)
{
	int group[SCN_MAX_CONFIGS], k = 0, w, g, i, ng;
	unsigned int rep;

	for (w = 0; w < s->nwl; w++) {
		if (s->wl[w].load)
			continue;
		ng = scenario_groups(s, w, group);
		for (g = 0; g < ng; g++) {
			struct scn_cell seg = { .wl = w };

			seg.narms = scenario_group_arms(s, w, group, g, seg.arm);
			if (seg.narms < 2)
				continue;
			seg.cfg = seg.arm[0].cfg;
			if (c)
				scenario_segment(s, &c[k], &seg, 1, s->blocks, 1);
			k++;
		}
	}
	for (rep = 1; rep <= s->repetitions; rep++)
		for (w = 0; w < s->nwl; w++) {
			if (s->wl[w].load)
				continue;
			ng = scenario_groups(s, w, group);
			for (g = 0; g < ng; g++) {
				struct scn_arm arm[SCN_MAX_ARMS];

				if (scenario_group_arms(s, w, group, g, arm) >= 2)
					continue;
				for (i = 0; i < s->wl[w].nconfigs; i++)
					if (group[i] == g) {
						if (c)
							scenario_cell(s, &c[k], w, s->wl[w].configs[i], rep);
						k++;
					}
			}
		}
	return k;
}

int scenario_plan(const struct scenario *s, struct scn_cell **cells, int *n)
{
	int order[SCN_MAX_CONFIGS], total = 0, k = 0, w, i;
	struct scn_cell *c;
	unsigned int rep;

	if (s->design == SCN_DESIGN_ALTERNATE) {
		total = plan_alternate(s, NULL);
		if (!total)
			return -EINVAL;
		c = calloc(total, sizeof(*c));
		if (!c)
			return -ENOMEM;
		plan_alternate(s, c);
		*cells = c;
		*n = total;
		return 0;
	}
	for (w = 0; w < s->nwl; w++)
		for (i = 0; !s->wl[w].load && i < s->wl[w].nconfigs; i++)
			total += (int)s->repetitions * (controlled(s, w, s->wl[w].configs[i]) ? 2 : 1);
	if (!total)
		return -EINVAL;
	c = calloc(total, sizeof(*c));
	if (!c)
		return -ENOMEM;
	if (s->order == SCN_GROUPED) {
		for (w = 0; w < s->nwl; w++)
			for (i = 0; !s->wl[w].load && i < s->wl[w].nconfigs; i++)
				for (rep = 1; rep <= s->repetitions; rep++)
					add_cell(s, c, &k, w, s->wl[w].configs[i], rep);
	} else {
		for (rep = 1; rep <= s->repetitions; rep++)
			for (w = 0; w < s->nwl; w++) {
				if (s->wl[w].load)
					continue;
				config_order(s, w, rep, order);
				for (i = 0; i < s->wl[w].nconfigs; i++)
					add_cell(s, c, &k, w, order[i], rep);
			}
	}
	*cells = c;
	*n = total;
	return 0;
}

/* Blocks a look adds to a segment's group, at most and at least. */
#define MORE_BLOCKS_MAX 16
#define MORE_BLOCKS_MIN 4

/*
 * segment_of - the last segment of cells[0..n) of workload w whose arms include cfg, or
 * -1: a configuration measured in a segment gets more blocks, not more cells
 */
static int segment_of(const struct scn_cell *cells, int n, int w, int cfg)
{
	int k, a, found = -1;

	for (k = 0; k < n; k++)
		for (a = 0; cells[k].alt && cells[k].wl == w && a < cells[k].narms; a++)
			if (cells[k].arm[a].cfg == cfg)
				found = k;
	return found;
}

/*
 * more_blocks - into out, a continuation of segment seg's group: the same arms, blocks
 * numbered on after its last, as many as asked for within left_ns (blocks = 0: no room)
 */
static void more_blocks(const struct scenario *s, const struct scn_cell *cells, int n,
			const struct scn_cell *seg, int asked, uint64_t left_ns,
			struct scn_cell *out)
{
	uint64_t block = (uint64_t)seg->narms * s->phase_ns;
	unsigned int blocks = (unsigned int)asked, fit, next = 0, rep = 0;
	int i;

	for (i = 0; i < n; i++)
		if (cells[i].alt && cells[i].wl == seg->wl && cells[i].cfg == seg->cfg) {
			if (cells[i].first_block + cells[i].blocks > next)
				next = cells[i].first_block + cells[i].blocks;
			if (cells[i].rep > rep)
				rep = cells[i].rep;
		}
	fit = s->warmup_ns < left_ns ? (unsigned int)((left_ns - s->warmup_ns) / block) : 0;
	if (blocks < MORE_BLOCKS_MIN)
		blocks = MORE_BLOCKS_MIN;
	if (blocks > MORE_BLOCKS_MAX)
		blocks = MORE_BLOCKS_MAX;
	if (blocks > fit)
		blocks = fit;
	if (next + blocks > SCN_MAX_BLOCKS + 1)
		blocks = next <= SCN_MAX_BLOCKS ? SCN_MAX_BLOCKS + 1 - next : 0;
	scenario_segment(s, out, seg, rep + 1, blocks, next);
}

int scenario_more(const struct scenario *s, struct scn_cell *cells, int n, int (*add)[2],
		  int nadd, uint64_t left_ns, bool *cell_asked, bool *block_asked)
{
	struct scn_cell *c = cells + n;
	int i, k, m = 0, seg, *asked;
	unsigned int rep;
	uint64_t ahead;

	*cell_asked = *block_asked = false;
	asked = calloc(n + 1, sizeof(*asked));
	if (!asked)
		return -ENOMEM;
	/* pairs of a segment's configurations count for its group; the rest are cells */
	for (i = 0; i < nadd; i++) {
		seg = segment_of(cells, n, add[i][0], add[i][1]);
		if (seg >= 0) {
			asked[seg]++;
			*block_asked = true;
			continue;
		}
		*cell_asked = true;
		for (rep = 0, k = 0; k < n + m; k++)
			if (cells[k].wl == add[i][0] && cells[k].cfg == add[i][1] && cells[k].rep > rep)
				rep = cells[k].rep;
		scenario_cell(s, &c[m], add[i][0], add[i][1], rep + 1);
		if (scenario_cells_ns(s, c, m + 1) <= left_ns)
			m++;	/* else no room for it */
	}
	for (k = 0; k < n && m < nadd; k++) {
		if (!asked[k])
			continue;
		ahead = scenario_cells_ns(s, c, m);
		more_blocks(s, cells, n, &cells[k], asked[k], ahead < left_ns ? left_ns - ahead : 0,
			    &c[m]);
		if (c[m].blocks)
			m++;	/* else no room left */
	}
	free(asked);
	return m;
}
