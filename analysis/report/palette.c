// SPDX-License-Identifier: GPL-2.0
/*
 * palette.c - colours kept by name (see palette.h).
 */
#include "palette.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "grow.h"

/*
 * The places, each with its colour: Okabe-Ito without its yellow (too light on
 * white), safe for colour-blind readers, because places are what the first screen and
 * the contexts ladders tell apart.
 */
static const struct { const char *name, *color; } places[] = {
	{ "softirq", "#0072B2" }, { "ksoftirqd", "#56B4E9" }, { "napi thread", "#D55E00" },
	{ "workqueue", "#009E73" }, { "irq thread", "#CC79A7" }, { "tasklet", "#E69F00" },
	{ "busy poll", "#8C6D31" },
};

/*
 * Configurations: Paul Tol's vibrant and muted schemes, the most distinct first (a
 * workload rarely has more than four); none is a place's, a work's or a cause's.
 */
static const char *const config_colors[] = {
	"#332288", "#CC3311", "#117733", "#EE7733", "#AA4499", "#44AA99", "#999933",
	"#882255", "#33BBEE", "#CC6677", "#661100", "#6699CC", "#DDAA33", "#EE3377",
};

/* Work: Tableau's colours and their darker companions. */
static const char *const work_colors[] = {
	"#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#E377C2",
	"#BCBD22", "#17BECF", "#393B79", "#637939", "#843C39", "#7B4173", "#AD494A",
};

/*
 * Causes of softirq delay, in rep_wait_causes' order: Paul Tol's bright and light schemes;
 * "other" (the ninth) light grey, apart from every cause it stands beside
 */
static const char *const cause_colors[] = {
	"#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377", "#EE8866",
	"#44BB99", "#BBBBBB", "#77AADD", "#FFAABB",
};

static const struct pal_space_def {
	const char *name;
	const char *const *colors;	/* NULL: places[] */
	size_t n;
	bool hashed;		/* the name's hash picks the first slot tried */
} spaces[PAL_NR] = {
	[PAL_CONFIG] = { "config", config_colors, ARRAY_SIZE(config_colors), false },
	[PAL_PLACE] = { "place", NULL, ARRAY_SIZE(places), false },
	[PAL_WORK] = { "work", work_colors, ARRAY_SIZE(work_colors), true },
	[PAL_CAUSE] = { "cause", cause_colors, ARRAY_SIZE(cause_colors), false },
};

#define SLOTS_MAX 16
_Static_assert(ARRAY_SIZE(config_colors) <= SLOTS_MAX && ARRAY_SIZE(work_colors) <= SLOTS_MAX &&
	       ARRAY_SIZE(cause_colors) <= SLOTS_MAX && ARRAY_SIZE(places) <= SLOTS_MAX,
	       "a space has more colours than palette_color() tracks");

/* fnv1a - a stable hash of the name: the same name, the same first choice */
static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* slot_color - the i-th colour of space sp, or NULL past the last */
static const char *slot_color(enum pal_space sp, size_t i)
{
	if (sp == PAL_PLACE)
		return i < ARRAY_SIZE(places) ? places[i].color : NULL;
	return i < spaces[sp].n ? spaces[sp].colors[i] : NULL;
}

/* first_slot - where name starts looking: its fixed place, its hash, or the first */
static size_t first_slot(enum pal_space sp, const char *name)
{
	size_t i;

	if (sp == PAL_PLACE)
		for (i = 0; i < ARRAY_SIZE(places); i++)
			if (!strcmp(places[i].name, name))
				return i;
	return spaces[sp].hashed ? fnv1a(name) % spaces[sp].n : 0;
}

const char *palette_color(struct palette *p, enum pal_space sp, const char *name)
{
	const size_t n = spaces[sp].n;
	bool used[SLOTS_MAX] = { false }, fixed = false;
	struct pal_entry *e;
	size_t i, k, slot;

	for (i = 0; i < p->n[sp]; i++)
		if (!strcmp(p->e[sp][i].name, name))
			return slot_color(sp, (size_t)p->e[sp][i].slot);
	slot = first_slot(sp, name);
	if (sp == PAL_PLACE)
		fixed = !strcmp(places[slot].name, name);
	for (i = 0; i < p->n[sp]; i++)
		used[p->e[sp][i].slot] = true;
	/* the first free slot from the name's own; all taken: its own, shared */
	for (k = 0; !fixed && k < n && used[(slot + k) % n]; k++)
		;
	if (!fixed && k < n)
		slot = (slot + k) % n;
	if (GROW(p->e[sp], p->cap[sp], p->n[sp] + 1))
		return slot_color(sp, slot);	/* unkept: the next ask may differ */
	e = &p->e[sp][p->n[sp]++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->slot = (int)slot;
	return slot_color(sp, slot);
}

void palette_pick(struct palette *p, enum pal_space sp, const char *name, const char **color,
		  char *key, size_t len)
{
	char *c;

	*color = palette_color(p, sp, name);
	snprintf(key, len, "%s:%s", spaces[sp].name, name);
	for (c = key; *c; c++)
		if (*c == '\n' || *c == ' ')
			*c = '_';
}

void palette_free(struct palette *p)
{
	int sp;

	for (sp = 0; sp < PAL_NR; sp++)
		free(p->e[sp]);
	memset(p, 0, sizeof(*p));
}
