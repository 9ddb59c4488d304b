// SPDX-License-Identifier: GPL-2.0
/*
 * cellset.c - the repetitions of one workload x configuration of a run gathered, and
 * their histograms pooled (see metric.h).
 */
#include "metric.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "moved.h"

/* build - the sets of the run's traced cells, or of its control cells */
static int build(const struct run *run, struct cellsets *cs, bool control)
{
	size_t i;

	memset(cs, 0, sizeof(*cs));
	cs->s = calloc(run->ncells ? run->ncells : 1, sizeof(*cs->s));
	if (!cs->s)
		return -ENOMEM;
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		struct cellset *s;

		if (c->control != control)
			continue;
		s = (struct cellset *)cellsets_find(cs, c->workload, c->config);
		if (!s) {
			s = &cs->s[cs->n++];
			strcpy(s->workload, c->workload);
			strcpy(s->config, c->config);
		}
		if (s->n == STATS_MAX_N)
			return -E2BIG;
		s->cell[s->n++] = c;
	}
	return 0;
}

int cellsets_build(const struct run *run, struct cellsets *cs)
{
	return build(run, cs, false);
}

int cellsets_build_control(const struct run *run, struct cellsets *cs)
{
	return build(run, cs, true);
}

void cellsets_free(struct cellsets *cs)
{
	free(cs->s);
	memset(cs, 0, sizeof(*cs));
}

const struct cellset *cellsets_find(const struct cellsets *cs, const char *workload,
				    const char *config)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->s[i].workload, workload) && !strcmp(cs->s[i].config, config))
			return &cs->s[i];
	return NULL;
}

const struct cellset *cellsets_reference(const struct cellsets *cs, const char *workload)
{
	const struct cellset *s = cellsets_find(cs, workload, "default");
	size_t i;

	if (!s)
		s = cellsets_find(cs, workload, "baseline");
	for (i = 0; !s && i < cs->n; i++)
		if (!strcmp(cs->s[i].workload, workload))
			s = &cs->s[i];
	return s;
}

size_t cellset_ok(const struct cellset *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		n += s->cell[i]->ok;
	return n;
}

/* pooled - every usable repetition's histogram of k; verdict: the cells a verdict reads */
static int pooled(const struct cellset *s, const struct metric_key *k, struct hist *h,
		  bool verdict)
{
	size_t i;
	int ret, used = 0;

	for (i = 0; i < s->n; i++) {
		if (!s->cell[i]->ok)
			continue;
		if (verdict && metric_trace_derived(k) && s->cell[i]->rec.cap.lossy)
			continue;
		ret = metric_hist(&s->cell[i]->rec, k, h);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		used++;
	}
	return used ? 0 : -ENOENT;
}

int cellset_pooled(const struct cellset *s, const struct metric_key *k, struct hist *h)
{
	return pooled(s, k, h, false);
}

int cellset_pooled_verdict(const struct cellset *s, const struct metric_key *k,
			   struct hist *h)
{
	return pooled(s, k, h, true);
}
