/* SPDX-License-Identifier: GPL-2.0 */
/*
 * adaptive.h - the loop behind `run --until-decided` (rules in adaptive.c): the
 * runner's more() callback, judging with the engine of compare and advise.
 */
#ifndef DEFERBENCH_ADAPTIVE_H
#define DEFERBENCH_ADAPTIVE_H

#include "compare.h"
#include "runner.h"

/* Looks at the data an adaptive run plans: each at alpha / ADAPT_LOOKS. */
#define ADAPT_LOOKS 4

struct adapt {
	const char *against;		/* a baseline run, or NULL: within the run */
	struct run base;
	struct noise noise;		/* the baseline's noise floors, when it has them */
	struct judge_opts jo;
	unsigned int look;
};

/* adapt_init - load the run to judge against (NULL: the run's own reference configs) */
int adapt_init(struct adapt *a, const char *against, char *errbuf);
int adapt_more(void *ctx, const struct run_state *r, int (**add)[2], int *n);
void adapt_free(struct adapt *a);

#endif
