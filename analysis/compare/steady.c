// SPDX-License-Identifier: GPL-2.0
/*
 * steady.c - an arm's phases, their end against their start (steady.h).
 */
#include "steady.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"

int steady_judge(const struct cellset *arm, const struct metric_key *k, double margin,
		 const struct judge_opts *o, struct judgement *j, double **d)
{
	struct evidence e, v;
	struct hb_rep *reps;
	int ret;

	*d = NULL;
	/* both sides the arm: paired when its cells are the blocks of one segment */
	ret = evidence_build(arm, arm, k, &e);
	if (ret)
		return ret;
	if (!e.paired) {
		memset(j, 0, sizeof(*j));
		j->v = V_CANNOT_TELL;
		j->ratio = j->lo = j->hi = j->p = j->level = j->mdc = NAN;
		j->base = j->new = NAN;
		j->margin = margin;
		j->more = -1;
		snprintf(j->why, sizeof(j->why), "not the blocks of an alternating run");
		evidence_free(&e);
		return 0;
	}
	reps = calloc(2 * (size_t)e.side[EV_BASE].n + 1, sizeof(*reps));
	if (!reps) {
		evidence_free(&e);
		return -ENOMEM;
	}
	v = e;
	v.side[EV_BASE].rep = reps;
	v.side[EV_NEW].rep = reps + e.side[EV_BASE].n;
	hb_side_ends(&e.side[EV_BASE], &v.side[EV_BASE], &v.side[EV_NEW]);
	v.count[EV_BASE] = hb_count(&v.side[EV_BASE]);
	v.count[EV_NEW] = hb_count(&v.side[EV_NEW]);
	ret = judge_eval(&v, k->stat, margin, false, o, j, d);
	free(reps);
	evidence_free(&e);
	return ret;
}
