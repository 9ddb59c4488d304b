// SPDX-License-Identifier: GPL-2.0
/*
 * scenario.c - the questions every part asks of a parsed scenario: a workload's or a
 * configuration's index by name, a workload's reference configuration, and the seeded
 * generator that orders cells and phases alike on every machine.
 */
#include "scenario.h"

#include <string.h>

#define DEFERBENCH_ALLOW_SCENARIO_INT_H
#include "scenario_int.h"

int scenario_cfg_index(const struct scenario *s, const char *name)
{
	int i;

	for (i = 0; i < s->ncfg; i++)
		if (!strcmp(s->cfg[i].name, name))
			return i;
	return -1;
}

int scenario_wl_index(const struct scenario *s, const char *name)
{
	int i;

	for (i = 0; i < s->nwl; i++)
		if (!strcmp(s->wl[i].name, name))
			return i;
	return -1;
}

int scenario_reference(const struct scenario *s, int w)
{
	int i;

	for (i = 0; i < s->wl[w].nconfigs; i++)
		if (!strcmp(s->cfg[s->wl[w].configs[i]].name, "default") ||
		    !strcmp(s->cfg[s->wl[w].configs[i]].name, "baseline"))
			return s->wl[w].configs[i];
	return s->wl[w].configs[0];
}

/* scn_splitmix64 - a small, portable generator: the same seed gives the same order anywhere */
uint64_t scn_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
