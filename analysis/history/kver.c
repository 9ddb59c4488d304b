// SPDX-License-Identifier: GPL-2.0
/*
 * kver.c - kernel release order (see kver.h).
 */
#include "kver.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void kver_parse(const char *s, struct kver *v)
{
	const char *p = s;
	char *end;
	int i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < KVER_PARTS && isdigit((unsigned char)*p); i++) {
		v->part[i] = strtoul(p, &end, 10);
		p = end;
		v->numeric = 1;
		if (*p != '.' || !isdigit((unsigned char)p[1]))
			break;
		p++;
	}
	if (v->numeric && !strncmp(p, "-rc", 3) && isdigit((unsigned char)p[3])) {
		v->rc = (int)strtol(p + 3, &end, 10);
		p = end;
	}
	v->local = v->numeric ? p : s;
}

static int cmp_ul(unsigned long a, unsigned long b)
{
	return (a > b) - (a < b);
}

static int cmp_parsed(const struct kver *a, const struct kver *b)
{
	int i, c;

	if (a->numeric != b->numeric)
		return a->numeric ? -1 : 1;
	if (!a->numeric)
		return 0;
	for (i = 0; i < KVER_PARTS; i++) {
		c = cmp_ul(a->part[i], b->part[i]);
		if (c)
			return c;
	}
	/* a release candidate comes before its release: rc 0 means "released" */
	if (!!a->rc != !!b->rc)
		return a->rc ? -1 : 1;
	return (a->rc > b->rc) - (a->rc < b->rc);
}

int kver_cmp_release(const char *a, const char *b)
{
	struct kver x, y;

	kver_parse(a, &x);
	kver_parse(b, &y);
	return cmp_parsed(&x, &y);
}

int kver_cmp(const char *a, const char *b)
{
	struct kver x, y;
	int c;

	kver_parse(a, &x);
	kver_parse(b, &y);
	c = cmp_parsed(&x, &y);
	if (c)
		return c;
	c = strcmp(x.local, y.local);
	return c ? c : strcmp(a, b);
}
