// SPDX-License-Identifier: GPL-2.0
/*
 * run_alt.c - one segment of the alternating design (scenario_alt.c): the workload, its
 * loads and the capture start once, and the machine is switched between the segment's
 * arms in phases while they run.
 *
 *   reference arm's knobs -> setup -> late knobs -> loads and workload started ->
 *   warm-up -> capture on, windows open on the interval grid at t_w ->
 *   for each block, for each arm in the block's seeded order:
 *       phase [t, t + phase): switch (knobs of other arms back, this arm's knobs,
 *       its live workload options, capture on or off), settle until t + settle
 *       (the [global] one, or the longer [config] settle of either side of the
 *       switch), measure until t + phase (the backend polled as in a cell)
 *   -> stop -> every knob restored -> files -> teardown
 *
 * Phases follow an absolute schedule on CLOCK_MONOTONIC, phase and settle being
 * multiples of the interval, so that each interval of the capture and of the workloads
 * lies in one phase's settle or measured part. phases.csv records each phase: its
 * bounds, when the switch was done, and whether it is usable (a switch that outlasted
 * the settle time, or a phase the schedule overran, is not). Readers assign intervals
 * to phases from it (bench/rundir/segment_load.c); nothing else of a segment depends on the arm.
 */
#define DEFERBENCH_ALLOW_RUN_INT_H
#include "run_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvw.h"
#include "outw.h"
#include "run_print.h"
#include "msg.h"
#include "file.h"
#include "sys.h"

/* One phase as it ran. */
struct alt_phase {
	unsigned int block;		/* 1-based, numbered on across a group's segments */
	int pos;			/* its place in the block */
	int arm;			/* index into the cell's arms */
	uint64_t start, settled, end;	/* the schedule: [start, end), settled = start + settle */
	uint64_t switched;		/* when the switch was done */
	const char *status;		/* ok, late (switch outlasted settle), overrun, failed */
};

/* arm_knobs - the knobs of cfg, for journal_revert (which leaves them to the caller) */
static int arm_knobs(const struct scn_config *cf, struct knob *ks)
{
	int i;

	for (i = 0; i < cf->nknobs; i++)
		ks[i] = cf->knob[i].k;
	return cf->nknobs;
}

/*
 * switch_arm - the machine to arm a: the knobs no other setting of a needs back to
 * their saved values (only those that differ), a's early knobs, its live options and
 * the capture state, then its late knobs (threads a switch may have made: napi/)
 */
static int switch_arm(struct run_state *r, struct run_cell *c, const struct scn_arm *a,
		      char *err)
{
	const struct scn_config *cf = &r->s->cfg[a->cfg];
	struct knob ks[SCN_MAX_KNOBS];
	int left, ret;

	left = journal_revert(&r->j, ks, arm_knobs(cf, ks));
	if (left)
		return set_err(err, "%d setting(s) could not be put back for [config %s]", left,
			       cf->name), -EIO;
	ret = run_cell_knobs(r, cf, KNOB_EARLY, err);
	if (!ret)
		ret = r->be->switch_arm(c, a->cfg, a->traced, err);
	if (!ret)
		ret = run_cell_knobs(r, cf, KNOB_LATE, err);
	return ret;
}

/* phases_write - phases.csv: one row per phase, in run order */
static int phases_write(const struct run_state *r, const struct run_cell *c, const char *dir,
			const struct alt_phase *ph, size_t n)
{
	static const char *const head[] = {
		"block", "position", "arm", "config", "traced", "start_ns", "settled_ns",
		"end_ns", "switched_ns", "status", NULL,
	};
	char path[PATH_MAX + 160];
	struct csvw w;
	size_t i;
	int ret;

	snprintf(path, sizeof(path), "%s/phases.csv", dir);
	ret = csvw_open(&w, path);
	if (ret)
		return ret;
	csvw_header(&w, head);
	csvw_end(&w);
	for (i = 0; i < n; i++) {
		const struct scn_arm *a = &c->cell->arm[ph[i].arm];

		csvw_u64(&w, ph[i].block);
		csvw_u64(&w, (uint64_t)ph[i].pos);
		csvw_u64(&w, (uint64_t)ph[i].arm);
		csvw_str(&w, r->s->cfg[a->cfg].name);
		csvw_u64(&w, a->traced);
		csvw_u64(&w, ph[i].start);
		csvw_u64(&w, ph[i].settled);
		csvw_u64(&w, ph[i].end);
		csvw_u64(&w, ph[i].switched);
		csvw_str(&w, ph[i].status);
		csvw_end(&w);
	}
	return csvw_close(&w);
}

/*
 * phase_failed - the workload failed in phase p (index i): say which, and how many of
 * the phases before it were whole, after the workload's own reason in err
 */
static void phase_failed(struct run_state *r, struct alt_phase *p, size_t i,
			 const struct scn_cell *seg, char *err)
{
	size_t len = strlen(err);

	p->status = "failed";
	snprintf(err + len, ERRBUF_LEN - len, " (in phase %zu of %u: block %u, arm %s; the "
		 "%zu before it covered)", i + 1, seg->blocks * seg->narms, p->block,
		 r->s->cfg[seg->arm[p->arm].cfg].name, i);
}

/*
 * run_phases - the schedule from c->window_ns: blocks x arms phases, each switched to
 * its arm and waited out; -EINTR on a stop request, -errno when a switch or the
 * workload failed. *n phases are filled, the last one possibly cut short.
 */
static int run_phases(struct run_state *r, struct run_cell *c, struct alt_phase *ph,
		      size_t *n, char *err)
{
	const struct scenario *s = r->s;
	const struct scn_cell *seg = c->cell;
	uint64_t t = c->window_ns;
	int order[SCN_MAX_ARMS], i, ret = 0, prev = seg->arm[0].cfg;	/* the bring-up's */
	bool seen[SCN_MAX_ARMS] = { false };
	unsigned int b;

	*n = 0;
	for (b = seg->first_block; b < seg->first_block + seg->blocks; b++) {
		scenario_block_order(s, seg, b, order);
		for (i = 0; i < seg->narms; i++, t += s->phase_ns) {
			struct alt_phase *p = &ph[(*n)++];
			int cfg = seg->arm[order[i]].cfg;

			*p = (struct alt_phase){ .block = b, .pos = i, .arm = order[i], .start = t,
						 .settled = t + scenario_switch_settle(s, prev, cfg),
						 .end = t + s->phase_ns, .status = "ok" };
			prev = cfg;
			if (sleep_until_or_stop(t))
				return -EINTR;
			run_progress_phase(r, c, b, i);
			ret = switch_arm(r, c, &seg->arm[order[i]], err);
			p->switched = now_ns();
			if (!ret && !seen[order[i]]) {
				memcpy(r->arm_res[order[i]], r->res, sizeof(r->res));
				seen[order[i]] = true;
			}
			if (ret) {
				p->status = "failed";
				return ret;
			}
			if (p->switched > p->settled)
				p->status = "late";
			ret = run_cell_wait(r, c, p->end, err);
			if (ret) {
				if (ret != -EINTR)
					phase_failed(r, p, *n - 1, seg, err);
				return ret;
			}
			if (now_ns() > p->end + s->settle_ns)
				p->status = "overrun";
		}
	}
	return 0;
}

/* The state of a segment while it runs: its phases as they ran. */
struct alt_state {
	struct alt_phase *ph;
	size_t n;
};

static int segment_begin(struct run_state *r, struct run_cell *c, void **priv)
{
	struct alt_state *st = calloc(1, sizeof(*st));

	if (st)
		st->ph = calloc((size_t)c->cell->blocks * (size_t)c->cell->narms, sizeof(*st->ph));
	r->arm_res = calloc(SCN_MAX_ARMS, sizeof(*r->arm_res));
	if (!st || !st->ph || !r->arm_res) {
		free(st ? st->ph : NULL);
		free(st);
		free(r->arm_res);
		r->arm_res = NULL;
		return -ENOMEM;
	}
	*priv = st;
	return 0;
}

/* segment_measure - up to the window as a cell (the reference arm's knobs), then the phases */
static int segment_measure(struct run_state *r, struct run_cell *c, void *priv, char *err)
{
	struct alt_state *st = priv;
	int ret = run_cell_up(r, c, err);

	return ret ?: run_phases(r, c, st->ph, &st->n, err);
}

static int segment_write(struct run_state *r, const struct run_cell *c, void *priv,
			 const char *dir, char *err)
{
	struct alt_state *st = priv;

	if (phases_write(r, c, dir, st->ph, st->n))
		return set_err(err, "writing %s/phases.csv failed", dir);
	return 0;
}

static void segment_end(struct run_state *r, void *priv)
{
	struct alt_state *st = priv;

	free(st->ph);
	free(st);
	free(r->arm_res);
	r->arm_res = NULL;
}

const struct run_kind run_segment_kind = {
	.what = "segment",
	.begin = segment_begin,
	.measure = segment_measure,
	.write = segment_write,
	.end = segment_end,
};
