// SPDX-License-Identifier: GPL-2.0
/*
 * placement.c - did a knob move the work it targets (see placement.h)?
 */
#include "placement.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

const char *const placement_verdict_names[] = {
	[PLV_MOVED] = "moved",
	[PLV_SAME] = "had no effect on the work it targets",
	[PLV_NO_WORK] = "had no effect on the work it targets",
	[PLV_TOO_FEW] = "too little of its work ran to tell",
	[PLV_UNSEEN] = "not seen: the run's files do not say where such work ran",
	[PLV_NOT_PLACEMENT] = "does not move work",
};

/* the run's own veth pairs, whose NAPI opt.W.napi and sched.napi switch */
#define RUN_VETH NAME_VETH_PREFIX "*"

static void target(struct placement_target *t, enum placement_kind kind, const char *what,
		   const char *desc)
{
	t->kind = kind;
	snprintf(t->what, sizeof(t->what), "%s", what);
	snprintf(t->desc, sizeof(t->desc), "%s", desc);
}

void placement_target(const char *knob, struct placement_target *t)
{
	char obj[NAME_LEN], desc[TEXT_LEN];
	const char *dot, *attr;
	size_t n;

	memset(t, 0, sizeof(*t));
	t->cpu = -1;
	if (!strcmp(knob, "wq.cpumask") || !strcmp(knob, "param.default_affinity_scope")) {
		target(t, PLK_WQ_POOL, "", "the work of every unbound workqueue");
		t->unbound = true;
		return;
	}
	if (!strcmp(knob, "sched.ksoftirqd") || !strncmp(knob, "sched.ksoftirqd.", 16)) {
		if (knob[15] == '.')
			t->cpu = atoi(knob + 16);
		if (t->cpu >= 0)
			snprintf(desc, sizeof(desc), "the softirq work of CPU %d", t->cpu);
		target(t, PLK_SOFTIRQ_CTX, "", t->cpu >= 0 ? desc :
		       "the softirq work");
		snprintf(t->prio_place, sizeof(t->prio_place), "ksoftirqd");
		return;
	}
	if (!strcmp(knob, "sched.napi")) {
		target(t, PLK_NAPI, RUN_VETH, "the NAPI polls of the run's veth pairs");
		snprintf(t->prio_place, sizeof(t->prio_place), "thread");
		return;
	}
	/* CLASS.OBJECT.ATTR: wq.W.attr, netdev.D.attr, opt.W.key */
	dot = strchr(knob, '.');
	attr = dot ? strrchr(knob, '.') : NULL;
	if (!dot || attr == dot)
		return;
	n = (size_t)(attr - dot - 1);
	snprintf(obj, sizeof(obj), "%.*s", (int)(n < sizeof(obj) ? n : sizeof(obj) - 1), dot + 1);
	attr++;
	if (!strncmp(knob, "wq.", 3) && (!strcmp(attr, "nice") || !strcmp(attr, "cpumask") ||
					 !strcmp(attr, "affinity_scope") ||
					 !strcmp(attr, "affinity_strict"))) {
		snprintf(desc, sizeof(desc), "the work of workqueue %s", obj);
		target(t, PLK_WQ_POOL, obj, desc);
	} else if (!strncmp(knob, "opt.", 4) && !strcmp(attr, "napi")) {
		target(t, PLK_NAPI, RUN_VETH, "the NAPI polls of the run's veth pairs");
	} else if (!strncmp(knob, "netdev.", 7) && !strcmp(attr, "threaded")) {
		snprintf(desc, sizeof(desc), "the NAPI polls of %s", obj);
		target(t, PLK_NAPI, obj, desc);
	} else if (!strncmp(knob, "netdev.", 7) && !strcmp(attr, "rps_cpus")) {
		target(t, PLK_SOFTIRQ_CPU, "NET_RX", "the NET_RX softirq work");
	}
}

/* add - count n at place where; past PLACEMENT_MAX places, into "other" */
static void add(struct placement_dist *d, const char *where, uint64_t n)
{
	size_t i;

	if (!n)
		return;
	d->total += n;
	for (i = 0; i < d->n; i++)
		if (!strcmp(d->p[i].where, where)) {
			d->p[i].count += n;
			return;
		}
	if (d->n >= PLACEMENT_MAX - 1 && strcmp(where, "other")) {
		add(d, "other", n);
		d->total -= n;
		return;
	}
	snprintf(d->p[d->n].where, sizeof(d->p[d->n].where), "%s", where);
	d->p[d->n++].count = n;
}

void placement_count(const struct record *rec, const struct placement_target *t,
		     struct placement_dist *d)
{
	char where[NAME_LEN];
	size_t i;

	switch (t->kind) {
	case PLK_WQ_POOL:
		d->seen = true;
		for (i = 0; i < rec->nwq; i++) {
			const struct wq_data *w = &rec->wq[i];

			if ((t->what[0] && strcmp(w->wq, t->what)) ||
			    (t->unbound && strncmp(w->pool, "unbound", 7)))
				continue;
			add(d, w->pool, w->count);
		}
		break;
	case PLK_SOFTIRQ_CTX:
		for (i = 0; i < rec->nsirq; i++) {
			const struct sirq_data *s = &rec->sirq[i];

			if (s->cpu != t->cpu || (t->what[0] && strcmp(s->vector, t->what)))
				continue;
			d->seen = true;
			add(d, "inline", s->count - (s->ksoftirqd_count < s->count ?
						     s->ksoftirqd_count : s->count));
			add(d, "ksoftirqd", s->ksoftirqd_count);
		}
		break;
	case PLK_SOFTIRQ_CPU:
		for (i = 0; i < rec->nsirq; i++) {
			const struct sirq_data *s = &rec->sirq[i];

			if (s->cpu < 0)
				continue;
			d->seen = true;
			if (strcmp(s->vector, t->what))
				continue;
			snprintf(where, sizeof(where), "CPU %d", s->cpu);
			add(d, where, s->count);
		}
		break;
	case PLK_NAPI:
		d->seen |= rec->has_contexts || rec->nctx;
		for (i = 0; i < rec->nctx; i++) {
			const struct ctx_data *c = &rec->ctx[i];

			if (strcmp(c->context, "napi_poll") || fnmatch(t->what, c->name, 0))
				continue;
			add(d, c->where[0] ? c->where : "?", c->count);
		}
		break;
	case PLK_NONE:
		break;
	}
}

static double share(const struct placement_dist *d, const char *where)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->p[i].where, where))
			return d->total ? (double)d->p[i].count / (double)d->total : 0;
	return 0;
}

/* moved - half the sum of the differences of the shares, place by place */
static double moved(const struct placement_dist *a, const struct placement_dist *b)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < a->n; i++)
		sum += fabs(share(a, a->p[i].where) - share(b, a->p[i].where));
	for (i = 0; i < b->n; i++)
		if (share(a, b->p[i].where) == 0)
			sum += share(b, b->p[i].where);
	return sum / 2;
}

void placement_judge(struct placement *p)
{
	size_t i;

	p->moved = NAN;
	p->prio_items = 0;
	if (p->t.kind == PLK_NONE) {
		p->v = PLV_NOT_PLACEMENT;
		return;
	}
	if (!p->ref.seen || !p->arm.seen) {
		p->v = PLV_UNSEEN;
		return;
	}
	if (!p->ref.total && !p->arm.total) {
		p->v = PLV_NO_WORK;
		return;
	}
	if (p->ref.total < PLACEMENT_MIN_ITEMS || p->arm.total < PLACEMENT_MIN_ITEMS) {
		p->v = PLV_TOO_FEW;
		return;
	}
	p->moved = moved(&p->ref, &p->arm);
	for (i = 0; p->t.prio_place[0] && i < p->arm.n; i++)
		if (!strcmp(p->arm.p[i].where, p->t.prio_place))
			p->prio_items = p->arm.p[i].count;
	/* work that ran where the knob set the priority ran at that priority */
	p->v = p->moved >= PLACEMENT_MOVED - 1e-9 || p->prio_items ? PLV_MOVED : PLV_SAME;
}

/* places - "unbound2 97%, unbound5 3%" (largest first, at most four) */
static void places(const struct placement_dist *d, char *buf, size_t len)
{
	size_t i, k, at = 0, order[PLACEMENT_MAX];

	buf[0] = '\0';
	for (i = 0; i < d->n; i++)
		order[i] = i;
	for (i = 1; i < d->n; i++)
		for (k = i; k > 0 && d->p[order[k]].count > d->p[order[k - 1]].count; k--) {
			size_t tmp = order[k];

			order[k] = order[k - 1];
			order[k - 1] = tmp;
		}
	for (i = 0; i < d->n && i < 4 && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s %.0f%%", i ? ", " : "",
				       d->p[order[i]].where, 100.0 * (double)d->p[order[i]].count /
				       (double)d->total);
	if (d->n > 4 && at < len)
		snprintf(buf + at, len - at, ", %zu more", d->n - 4);
}

char *placement_describe(const struct placement *p, char *buf, size_t len)
{
	char a[TEXT_LEN], b[TEXT_LEN];
	int at;

	at = snprintf(buf, len, "%s = %s: %s", p->knob, p->value, placement_verdict_names[p->v]);
	if (at < 0 || (size_t)at >= len)
		return buf;
	switch (p->v) {
	case PLV_MOVED:
	case PLV_SAME:
		places(&p->ref, a, sizeof(a));
		places(&p->arm, b, sizeof(b));
		at += snprintf(buf + at, len - (size_t)at, ": %.0f%% of %s ran elsewhere than in the "
			       "reference (%s there, %s here; %llu and %llu items)", 100 * p->moved,
			       p->t.desc, a, b, (unsigned long long)p->ref.total,
			       (unsigned long long)p->arm.total);
		if (p->prio_items && (size_t)at < len)
			snprintf(buf + at, len - (size_t)at, "; %llu ran in %s, at the knob's "
				 "setting", (unsigned long long)p->prio_items, p->t.prio_place);
		break;
	case PLV_NO_WORK:
		snprintf(buf + at, len - (size_t)at, ": none of %s ran in either arm", p->t.desc);
		break;
	case PLV_TOO_FEW:
		snprintf(buf + at, len - (size_t)at, " (%llu and %llu items of %s; %d needed in "
			 "each arm)", (unsigned long long)p->ref.total,
			 (unsigned long long)p->arm.total, p->t.desc, PLACEMENT_MIN_ITEMS);
		break;
	default:
		break;
	}
	return buf;
}

/* value_in - the value of key in the first finished cell of s that has it, or NULL */
static const char *value_in(const struct cellset *s, const char *key, bool opt)
{
	size_t i, k;

	for (i = 0; s && i < s->n; i++) {
		const struct cell *c = s->cell[i];

		if (!c->ok)
			continue;
		for (k = 0; k < (opt ? c->nopts : c->nknobs); k++)
			if (!strcmp((opt ? c->opts : c->knobs)[k].key, key))
				return (opt ? c->opts : c->knobs)[k].val;
		return NULL;
	}
	return NULL;
}

/* judge_set - one knob of s against the reference, over the cells of each */
static void judge_set(const struct cellset *ref, const struct cellset *s, const char *knob,
		      const char *value, struct placement *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	snprintf(p->knob, sizeof(p->knob), "%s", knob);
	snprintf(p->value, sizeof(p->value), "%s", value);
	placement_target(knob, &p->t);
	for (i = 0; p->t.kind != PLK_NONE && i < ref->n; i++)
		if (ref->cell[i]->ok)
			placement_count(&ref->cell[i]->rec, &p->t, &p->ref);
	for (i = 0; p->t.kind != PLK_NONE && i < s->n; i++)
		if (s->cell[i]->ok)
			placement_count(&s->cell[i]->rec, &p->t, &p->arm);
	placement_judge(p);
}

size_t placement_sets(const struct cellset *ref, const struct cellset *s,
		      struct placement *out, size_t max)
{
	const struct cell *c = NULL;
	char name[NAME_LEN];
	const char *was;
	size_t i, n = 0;

	for (i = 0; i < s->n && !c; i++)
		if (s->cell[i]->ok)
			c = s->cell[i];
	for (i = 0; c && i < c->nknobs && n < max; i++) {
		was = value_in(ref, c->knobs[i].key, false);
		if (!was || strcmp(was, c->knobs[i].val))
			judge_set(ref, s, c->knobs[i].key, c->knobs[i].val, &out[n++]);
	}
	for (i = 0; c && i < c->nopts && n < max; i++) {
		was = value_in(ref, c->opts[i].key, true);
		if (was && !strcmp(was, c->opts[i].val))
			continue;
		snprintf(name, sizeof(name), "opt.%.20s.%.36s", s->workload, c->opts[i].key);
		judge_set(ref, s, name, c->opts[i].val, &out[n++]);
	}
	return n;
}
