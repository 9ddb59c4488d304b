// SPDX-License-Identifier: GPL-2.0
/*
 * flame.c - flame graphs as SVG (see flame.h).
 */
#include "flame.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "outw.h"
#include "grow.h"

struct fnode {
	char *name;
	uint64_t weight;
	uint32_t child;			/* first child + 1, 0: none */
	uint32_t next;			/* next sibling + 1 */
};

struct ftree {
	struct fnode *n;
	uint32_t len, cap;
	int depth;			/* of the deepest frame, root = 0 */
	bool enomem;
};

static uint32_t node_new(struct ftree *t, const char *name, size_t nlen)
{
	struct fnode *nn;

	if (GROW(t->n, t->cap, t->len + 1)) {
		t->enomem = true;
		return UINT32_MAX;
	}
	nn = &t->n[t->len];
	nn->name = strndup(name, nlen);
	if (!nn->name) {
		t->enomem = true;
		return UINT32_MAX;
	}
	return t->len++;
}

/* child_of - parent's child named name (nlen bytes), added in name order when new */
static uint32_t child_of(struct ftree *t, uint32_t parent, const char *name, size_t nlen)
{
	uint32_t c, id, *link;

	for (c = t->n[parent].child; c; c = t->n[c - 1].next)
		if (!strncmp(t->n[c - 1].name, name, nlen) && t->n[c - 1].name[nlen] == '\0')
			return c - 1;
	id = node_new(t, name, nlen);
	if (id == UINT32_MAX)
		return id;
	/* in name order: the same stacks always draw the same picture */
	link = &t->n[parent].child;
	while (*link && strcmp(t->n[*link - 1].name, t->n[id].name) < 0)
		link = &t->n[*link - 1].next;
	t->n[id].next = *link;
	*link = id + 1;
	return id;
}

static void tree_add(struct ftree *t, const char *folded, uint64_t w)
{
	const char *p = folded, *semi;
	uint32_t node = 0;
	int depth = 0;

	t->n[0].weight += w;
	while (*p && depth < FLAME_DEPTH_MAX) {
		semi = strchr(p, ';');
		if (!semi)
			semi = p + strlen(p);
		if (semi > p) {
			node = child_of(t, node, p, (size_t)(semi - p));
			if (node == UINT32_MAX)
				return;
			t->n[node].weight += w;
			if (++depth > t->depth)
				t->depth = depth;
		}
		p = *semi ? semi + 1 : semi;
	}
}

static uint64_t fnv(const char *s, uint64_t h)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

const char *flame_colour(const char *name, char *buf, size_t len)
{
	uint64_t h = fnv(name, 0xcbf29ce484222325ULL);

	/* warm colours, as flame graphs are drawn: red to yellow */
	snprintf(buf, len, "rgb(%u,%u,%u)", 205 + (unsigned int)(h % 50),
		 (unsigned int)((h >> 8) % 180), (unsigned int)((h >> 16) % 55));
	return buf;
}

/* draw - node and its children from x (px), at depth; the root (depth 0) is the total */
static void draw(FILE *f, const struct ftree *t, uint32_t id, double x, int depth,
		 double scale, int height, const char *unit)
{
	const struct fnode *n = &t->n[id];
	double w = (double)n->weight * scale, cx = x;
	char colour[32];
	uint32_t c;
	size_t chars;

	if (w < 0.3)
		return;		/* too narrow to see */
	fprintf(f, "<g><title>");
	doc_xml_escape(f, n->name);
	fprintf(f, " (%llu %s, %.2f%%)</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
		"height=\"%d\" fill=\"%s\" rx=\"2\"/>", (unsigned long long)n->weight, unit,
		100.0 * (double)n->weight / (double)t->n[0].weight, x,
		height - (depth + 1) * FLAME_FRAME_H, w, FLAME_FRAME_H - 1,
		id ? flame_colour(n->name, colour, sizeof(colour)) : "rgb(220,220,220)");
	/* about 7 px per character at this size */
	chars = w > 14 ? (size_t)((w - 6) / 7) : 0;
	if (chars >= 3) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">", x + 3,
			height - depth * FLAME_FRAME_H - 4);
		if (strlen(n->name) <= chars) {
			doc_xml_escape(f, n->name);
		} else {
			char cut[256];

			snprintf(cut, sizeof(cut), "%.*s..", (int)(chars - 2 < 250 ? chars - 2 : 250),
				 n->name);
			doc_xml_escape(f, cut);
		}
		fprintf(f, "</text>");
	}
	fprintf(f, "</g>\n");
	for (c = n->child; c; c = t->n[c - 1].next) {
		draw(f, t, c - 1, cx, depth + 1, scale, height, unit);
		cx += (double)t->n[c - 1].weight * scale;
	}
}

int flame_svg(const char *path, const char *title, const char *unit,
	      const struct flame_stack *st, size_t n)
{
	struct ftree t = { 0 };
	int height, ret = 0;
	uint32_t i;
	FILE *f;

	if (node_new(&t, "all", 3) == UINT32_MAX)
		return -ENOMEM;
	for (i = 0; i < n && !t.enomem; i++)
		if (st[i].weight)
			tree_add(&t, st[i].folded, st[i].weight);
	if (t.enomem) {
		ret = -ENOMEM;
		goto out_free;
	}
	if (!t.n[0].weight) {
		ret = -ENODATA;
		goto out_free;
	}
	height = (t.depth + 1) * FLAME_FRAME_H + 40;
	f = out_fopen(path);
	if (!f) {
		ret = -errno;
		goto out_free;
	}
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text { font-family: Verdana, sans-serif; font-size: 11px; fill: #000; } "
		".title { font-size: 15px; }</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f8\"/>\n"
		"<text class=\"title\" x=\"%d\" y=\"22\" text-anchor=\"middle\">",
		FLAME_WIDTH + 20, height, FLAME_WIDTH + 20, height, FLAME_WIDTH + 20, height,
		(FLAME_WIDTH + 20) / 2);
	doc_xml_escape(f, title);
	fprintf(f, "</text>\n");
	draw(f, &t, 0, 10.0, 0, (double)FLAME_WIDTH / (double)t.n[0].weight, height - 4,
	     unit);
	fprintf(f, "</svg>\n");
	if (fclose(f))
		ret = -errno;
out_free:
	for (i = 0; i < t.len; i++)
		free(t.n[i].name);
	free(t.n);
	return ret;
}
