// SPDX-License-Identifier: GPL-2.0
/*
 * stack_report.c - the stacks of record --stacks named, each classed by how its softirq
 * came to run, and summed per call site (see detail_out.h).
 */
#include "detail_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "map.h"
#include "output.h"
#include "grow.h"

const char *const stack_how_names[HOW_NR] = {
	[HOW_BH_ENABLE] = "bh_enable",
	[HOW_IRQ_EXIT] = "irq_exit",
	[HOW_KSOFTIRQD] = "ksoftirqd",
	[HOW_OTHER] = "other",
};

/* frame_name - the function of a return address, without "+0x..." */
static const char *frame_name(const struct result *r, uint64_t addr, char *buf, size_t len)
{
	char *plus;

	symtab_name(&r->syms, addr, buf, len);
	plus = strchr(buf, '+');
	if (plus)
		*plus = '\0';
	return buf;
}

/* base_is - name without a compiler suffix (".part.0", ".cold", ".isra.0") is s */
static bool base_is(const char *name, const char *s)
{
	size_t n = strlen(s);

	return !strncmp(name, s, n) && (name[n] == '\0' || name[n] == '.');
}

static bool starts(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

/* tracing - a frame of the tracing code that wrote the stack, above the softirq */
static bool tracing(const char *name)
{
	return starts(name, "trace_") || starts(name, "__trace") || starts(name, "ftrace") ||
	       starts(name, "event_trigger") || starts(name, "stacktrace_") ||
	       starts(name, "__ftrace") || starts(name, "perf_trace");
}

/* machinery - how a softirq entry came to run, if name is one of its frames */
static int machinery(const char *name)
{
	static const struct {
		const char *name;
		int how;
	} m[] = {
		{ "__local_bh_enable_ip", HOW_BH_ENABLE }, { "local_bh_enable", HOW_BH_ENABLE },
		{ "_local_bh_enable", HOW_BH_ENABLE },
		{ "__irq_exit_rcu", HOW_IRQ_EXIT }, { "irq_exit_rcu", HOW_IRQ_EXIT },
		{ "irq_exit", HOW_IRQ_EXIT },
		{ "run_ksoftirqd", HOW_KSOFTIRQD },
		{ "handle_softirqs", -1 }, { "__do_softirq", -1 }, { "do_softirq", -1 },
		{ "do_softirq_own_stack", -1 }, { "call_on_irqstack", -1 },
		{ "__run_on_irqstack", -1 }, { "asm_call_on_stack", -1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(m); i++)
		if (base_is(name, m[i].name))
			return m[i].how;
	return -2;
}

/* unlock_bh - spin_unlock_bh() and its kind: the caller of it ended the section */
static bool unlock_bh(const char *name)
{
	const char *p = strstr(name, "unlock_bh");

	return p && (p[9] == '\0' || p[9] == '.');
}

static int view_build(const struct result *r, uint32_t id, struct stack_view *v)
{
	const struct detail *d = r->m.detail;
	const uint64_t *f = stack_frames(d, id);
	uint32_t n = d->st[id].depth, i, first = 0, site, j;
	size_t len = 0, cap = 0, off;
	char name[160];
	int how;

	/* the tracing code that wrote the stack is no part of it */
	while (first < n && tracing(frame_name(r, f[first], name, sizeof(name))))
		first++;
	v->how = HOW_OTHER;
	for (site = first; site < n; site++) {
		frame_name(r, f[site], name, sizeof(name));
		how = machinery(name);
		if (how >= 0)
			v->how = how;
		else if (how == -2 && !(v->how == HOW_BH_ENABLE && unlock_bh(name)))
			break;
	}
	if (v->how == HOW_KSOFTIRQD)
		snprintf(v->site, sizeof(v->site), "ksoftirqd");
	else if (site < n)
		frame_name(r, f[site], v->site, sizeof(v->site));
	else
		snprintf(v->site, sizeof(v->site), "?");
	off = 0;
	v->path[0] = '\0';
	for (j = site; j < n && j < site + 3 && v->how != HOW_KSOFTIRQD &&
		       off < sizeof(v->path) - 1; j++)
		off += (size_t)snprintf(v->path + off, sizeof(v->path) - off, "%s%s",
					j > site ? " <- " : "",
					frame_name(r, f[j], name, sizeof(name)));
	if (!v->path[0])
		snprintf(v->path, sizeof(v->path), "%s", v->site);
	/* folded: the outermost frame first, as flame graphs read it */
	v->folded = NULL;
	if (GROW(v->folded, cap, 256))
		return -ENOMEM;
	v->folded[0] = '\0';
	for (i = n; i > first; i--) {
		size_t need;

		frame_name(r, f[i - 1], name, sizeof(name));
		/* ';' separates frames: no name may hold one */
		for (char *p = name; *p; p++)
			if (*p == ';' || *p == ' ')
				*p = '_';
		need = len + strlen(name) + 2;
		if (GROW(v->folded, cap, need))
			return -ENOMEM;
		len += (size_t)sprintf(v->folded + len, "%s%s", len ? ";" : "", name);
	}
	return 0;
}

static int site_cmp(const void *a, const void *b)
{
	const struct site_row *x = a, *y = b;

	if (x->vec != y->vec)
		return x->vec < y->vec ? -1 : 1;
	if (x->wait_ns != y->wait_ns)
		return x->wait_ns > y->wait_ns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->site, y->site) ?: (int)x->how - (int)y->how;
}

/* site_of - the row of (vec, how, site), added when new; NULL on ENOMEM */
static struct site_row *site_of(struct stack_report *sr, struct map *ids, uint32_t *cap,
				unsigned int vec, const struct stack_view *v)
{
	char key[SITE_LEN + 32];
	uint64_t h;
	uint32_t *i;
	int created;

	snprintf(key, sizeof(key), "%u|%d|%s", vec, v->how, v->site);
	for (h = map_hash_str(key, (unsigned int)strlen(key));; h++) {
		if (h == MAP_EMPTY)
			h = 0;
		i = map_put(ids, h, &created);
		if (!i)
			return NULL;
		if (created)
			break;
		if (sr->site[*i].vec == vec && sr->site[*i].how == v->how &&
		    !strcmp(sr->site[*i].site, v->site))
			return &sr->site[*i];
	}
	if (GROW(sr->site, *cap, sr->nsite + 1)) {
		map_del(ids, h);
		return NULL;
	}
	sr->site[sr->nsite].vec = vec;
	sr->site[sr->nsite].how = v->how;
	snprintf(sr->site[sr->nsite].site, SITE_LEN, "%s", v->site);
	*i = sr->nsite;
	return &sr->site[sr->nsite++];
}

int stack_report_build(const struct result *r, struct stack_report *sr)
{
	const struct detail *d = r->m.detail;
	uint32_t i, cap = 0;
	struct map ids;
	int k, ret = 0;

	memset(sr, 0, sizeof(*sr));
	if (!d || !d->nst)
		return 0;
	sr->view = calloc(d->nst, sizeof(*sr->view));
	if (!sr->view || map_init(&ids, sizeof(uint32_t), 256)) {
		free(sr->view);
		sr->view = NULL;
		return -ENOMEM;
	}
	sr->nview = d->nst;
	for (i = 0; i < d->nst && !ret; i++)
		ret = view_build(r, i, &sr->view[i]);
	for (i = 0; i < d->nagg && !ret; i++) {
		const struct stack_agg *a = &d->agg[i];
		const struct stack_view *v = &sr->view[a->stack];
		struct site_row *s = site_of(sr, &ids, &cap, a->vec, v);

		if (!s) {
			ret = -ENOMEM;
			break;
		}
		s->count += a->count;
		s->ksoftirqd += a->ksoftirqd;
		s->waits += a->waits;
		s->wait_ns += a->wait_ns;
		for (k = 0; k < WAIT_NR; k++)
			s->part_ns[k] += a->part_ns[k];
		s->runs += a->runs;
		s->run_ns += a->run_ns;
		s->long_runs += a->long_runs;
		s->long_run_ns += a->long_run_ns;
		if (!s->path[0] || a->wait_ns > s->path_wait) {
			s->path_wait = a->wait_ns;
			snprintf(s->path, sizeof(s->path), "%s", v->path);
		}
	}
	map_free(&ids);
	if (ret) {
		stack_report_free(sr);
		return ret;
	}
	if (sr->nsite)
		qsort(sr->site, sr->nsite, sizeof(*sr->site), site_cmp);
	return 0;
}

void stack_report_free(struct stack_report *sr)
{
	uint32_t i;

	for (i = 0; sr->view && i < sr->nview; i++)
		free(sr->view[i].folded);
	free(sr->view);
	free(sr->site);
	memset(sr, 0, sizeof(*sr));
}

const char *stack_site_text(enum stack_how how, const char *site, char *buf, size_t len)
{
	switch (how) {
	case HOW_IRQ_EXIT:
		snprintf(buf, len, "irq exit of %s", site);
		break;
	case HOW_KSOFTIRQD:
		snprintf(buf, len, "ksoftirqd");
		break;
	default:
		snprintf(buf, len, "%s", site);
		break;
	}
	return buf;
}
