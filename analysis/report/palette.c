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
 * Okabe-Ito without its yellow (too light on white), then Tol's muted colours: all
 * dark enough for a thin line on white, the first eight safe for colour-blind readers
 */
static const char *const colors[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
	"#882255", "#117733", "#332288", "#999933", "#AA4499", "#44AA99", "#661100",
	"#6699CC", "#888888",
};
#define NCOLORS ARRAY_SIZE(colors)

static const char *const space_names[PAL_NR] = {
	[PAL_CONFIG] = "config", [PAL_WORK] = "work", [PAL_KIND] = "kind",
	[PAL_CAUSE] = "cause", [PAL_SIDE] = "side",
};

/* fnv1a - a stable hash of the name: the same name, the same first choice */
static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

const char *palette_color(struct palette *p, enum pal_space sp, const char *name)
{
	bool used[NCOLORS] = { false };
	struct pal_entry *e;
	size_t i, k, slot;

	for (i = 0; i < p->n[sp]; i++)
		if (!strcmp(p->e[sp][i].name, name))
			return colors[p->e[sp][i].slot];
	slot = fnv1a(name) % NCOLORS;
	for (i = 0; i < p->n[sp]; i++)
		used[p->e[sp][i].slot] = true;
	/* the first free slot from the name's own; all taken: its own, shared */
	for (k = 0; k < NCOLORS && used[(slot + k) % NCOLORS]; k++)
		;
	if (k < NCOLORS)
		slot = (slot + k) % NCOLORS;
	if (GROW(p->e[sp], p->cap[sp], p->n[sp] + 1))
		return colors[slot];	/* unkept: the next ask may differ */
	e = &p->e[sp][p->n[sp]++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->slot = (int)slot;
	return colors[slot];
}

void palette_pick(struct palette *p, enum pal_space sp, const char *name, const char **color,
		  char *key, size_t len)
{
	char *c;

	*color = palette_color(p, sp, name);
	snprintf(key, len, "%s:%s", space_names[sp], name);
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
