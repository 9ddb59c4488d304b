/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flame.h - a flame graph as a static SVG, drawn by deferbench itself (Debian packages
 * no flame graph tool): folded stacks ("root;child;leaf") with a weight each, merged
 * into one tree; a frame's width is its share of the total weight, children sorted by
 * name (so the same stacks always draw the same picture), the root at the bottom. A
 * frame's colour comes from a hash of its function name alone: a function has the same
 * colour in every graph of a report. Each frame's <title> shows its name, weight and
 * share when the mouse is on it.
 */
#ifndef DEFERBENCH_FLAME_H
#define DEFERBENCH_FLAME_H

#include <stddef.h>
#include <stdint.h>

struct flame_stack {
	const char *folded;		/* frames separated by ';', outermost first */
	uint64_t weight;
};

#define FLAME_WIDTH 1200
#define FLAME_FRAME_H 16
#define FLAME_DEPTH_MAX 128		/* deeper frames are cut */

/*
 * flame_svg - draw the stacks into path (created or replaced); title above, unit names
 * the weight ("ns of delay"). 0, -ENODATA when the weights are all zero, or -errno.
 */
int flame_svg(const char *path, const char *title, const char *unit,
	      const struct flame_stack *st, size_t n);
/* flame_colour - the fill of a frame: "rgb(r,g,b)" from the name alone, into buf */
const char *flame_colour(const char *name, char *buf, size_t len);

#endif
