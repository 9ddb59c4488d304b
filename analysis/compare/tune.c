// SPDX-License-Identifier: GPL-2.0
/*
 * tune.c - ranking a survey's deferred work and the candidates it suggests (tune.h).
 */
#include "tune.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

const char *const tune_class_names[TC_NR] = {
	[TC_NICE] = "nice", [TC_SCOPE] = "scope", [TC_NAPI] = "napi",
	[TC_KSOFTIRQD] = "ksoftirqd", [TC_CPUMASK] = "cpumask",
};

int tune_allow_parse(const char *s, unsigned int *mask, char *errbuf)
{
	char copy[256], *save, *tok;
	int c;

	*mask = 0;
	snprintf(copy, sizeof(copy), "%s", s);
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (!strcmp(tok, "all")) {
			*mask = (1U << TC_NR) - 1;
			continue;
		}
		for (c = 0; c < TC_NR && strcmp(tok, tune_class_names[c]); c++)
			;
		if (c == TC_NR)
			return set_err(errbuf, "--allow: '%s' is not a class (nice, scope, napi, "
				       "ksoftirqd, cpumask, all)", tok);
		*mask |= 1U << c;
	}
	if (!*mask)
		return set_err(errbuf, "--allow: no class given (nice, scope, napi, ksoftirqd, "
			       "cpumask, all)");
	return 0;
}

static int by_wait(const void *a, const void *b)
{
	const struct tune_group *x = a, *y = b;

	return (x->wait_s < y->wait_s) - (x->wait_s > y->wait_s);
}

/* add - a group into the list (the largest max kept, by wait) */
static void add(struct tune_group *all, size_t *n, size_t cap, const struct tune_group *g)
{
	if (g->count < 10 || !(g->wait_s > 0))
		return;		/* too few to judge: not a target */
	if (*n < cap) {
		all[(*n)++] = *g;
		return;
	}
	qsort(all, *n, sizeof(*all), by_wait);
	if (g->wait_s > all[*n - 1].wait_s)
		all[*n - 1] = *g;
}

size_t tune_rank(const struct record *rec, struct tune_group *top, size_t max)
{
	struct tune_group all[64];
	size_t n = 0, i, k;

	for (i = 0; i < rec->nsirq; i++) {
		const struct sirq_data *d = &rec->sirq[i];
		struct tune_group g = { .key = { .src = MS_SOFTIRQ, .sub = SM_DELAY,
						 .stat = MST_P90 } };

		if (d->cpu != -1)
			continue;
		snprintf(g.key.name, sizeof(g.key.name), "%s", d->vector);
		g.count = d->st[SM_DELAY].count;
		g.wait_s = d->st[SM_DELAY].mean * (double)g.count / 1e9;
		g.ksoftirqd_share = d->count ? (double)d->ksoftirqd_count / (double)d->count : 0;
		add(all, &n, sizeof(all) / sizeof(all[0]), &g);
	}
	for (i = 0; i < rec->nwq; i++) {
		const struct wq_data *d = &rec->wq[i];
		struct tune_group *same = NULL;

		/* the function's pools merged: pool ids differ between boots */
		for (k = 0; k < n; k++)
			if (all[k].key.src == MS_WQ && !strcmp(all[k].key.name, d->wq) &&
			    !strcmp(all[k].key.func, d->func))
				same = &all[k];
		if (same) {
			same->wait_s += d->st[WM_DELAY].mean * (double)d->st[WM_DELAY].count / 1e9;
			same->count += d->st[WM_DELAY].count;
			same->unbound |= !strncmp(d->pool, "unbound", 7);
			continue;
		}
		struct tune_group g = { .key = { .src = MS_WQ, .sub = WM_DELAY, .stat = MST_P90 } };

		snprintf(g.key.name, sizeof(g.key.name), "%s", d->wq);
		snprintf(g.key.func, sizeof(g.key.func), "%s", d->func);
		g.count = d->st[WM_DELAY].count;
		g.wait_s = d->st[WM_DELAY].mean * (double)g.count / 1e9;
		g.unbound = !strncmp(d->pool, "unbound", 7);
		add(all, &n, sizeof(all) / sizeof(all[0]), &g);
	}
	qsort(all, n, sizeof(*all), by_wait);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		top[i] = all[i];
		metric_id(&top[i].key, top[i].id, sizeof(top[i].id));
	}
	return n;
}

bool tune_napi_device(const struct record *rec, bool (*usable)(const char *dev, void *ctx),
		      void *ctx, char *dev, size_t len)
{
	uint64_t best = 0, polls;
	size_t i, k;

	dev[0] = '\0';
	for (i = 0; i < rec->nctx; i++) {
		const struct ctx_data *c = &rec->ctx[i];

		if (strcmp(c->context, "napi_poll") || !c->count)
			continue;
		/* a device polled in several places (softirq, ksoftirqd, thread): all its polls */
		for (k = 0; k < i; k++)
			if (!strcmp(rec->ctx[k].context, "napi_poll") &&
			    !strcmp(rec->ctx[k].name, c->name))
				break;
		if (k < i)
			continue;
		for (polls = 0, k = i; k < rec->nctx; k++)
			if (!strcmp(rec->ctx[k].context, "napi_poll") &&
			    !strcmp(rec->ctx[k].name, c->name))
				polls += rec->ctx[k].count;
		if (polls > best && usable(c->name, ctx)) {
			best = polls;
			snprintf(dev, len, "%s", c->name);
		}
	}
	return best > 0;
}

/*
 * cand - a new candidate of one knob, unless one of that name is there or out is full:
 * the candidate, or NULL
 */
static struct tune_cand *cand(struct tune_cand *out, size_t *n, size_t max,
			      enum tune_class cls, const char *name, const char *knob,
			      const char *value, const char *why)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(out[i].name, name))
			return NULL;
	if (*n >= max)
		return NULL;
	memset(&out[*n], 0, sizeof(out[*n]));
	out[*n].cls = cls;
	snprintf(out[*n].name, sizeof(out[*n].name), "%s", name);
	snprintf(out[*n].why, sizeof(out[*n].why), "%s", why);
	snprintf(out[*n].knob[0], sizeof(out[*n].knob[0]), "%s", knob);
	snprintf(out[*n].value[0], sizeof(out[*n].value[0]), "%s", value);
	out[*n].nknobs = 1;
	return &out[(*n)++];
}

size_t tune_candidates(const struct tune_group *top, size_t ntop, unsigned int allow,
		       const struct tune_facts *f, struct tune_cand *out, size_t max)
{
	char name[NAME_LEN], knob[NAME_LEN], why[TEXT_LEN];
	bool unbound = false, ksoftirqd = false, net_rx = false;
	struct tune_cand *c;
	size_t i, n = 0;

	for (i = 0; i < ntop; i++) {
		const struct tune_group *g = &top[i];

		if (g->key.src == MS_WQ) {
			unbound |= g->unbound;
			if (!(allow & (1U << TC_NICE)) || !f->sysfs || !f->sysfs(g->key.name, f->ctx))
				continue;
			snprintf(name, sizeof(name), "%.40s-nice-10", g->key.name);
			snprintf(knob, sizeof(knob), "wq.%.40s.nice", g->key.name);
			snprintf(why, sizeof(why), "%s (%s) waited %.3g s in the survey: its workers "
				 "at nice -10, a pool of their own", g->key.name, g->key.func,
				 g->wait_s);
			cand(out, &n, max, TC_NICE, name, knob, "-10", why);
		} else {
			ksoftirqd |= g->ksoftirqd_share >= 0.10;
			net_rx |= !strcmp(g->key.name, "NET_RX");
		}
	}
	if (unbound && (allow & (1U << TC_SCOPE))) {
		cand(out, &n, max, TC_SCOPE, "scope-cpu", "param.default_affinity_scope", "cpu",
		     "unbound work among the top waiters: one worker pool per CPU");
		cand(out, &n, max, TC_SCOPE, "scope-system", "param.default_affinity_scope",
		     "system", "unbound work among the top waiters: one worker pool for all CPUs");
	}
	if (net_rx && f->probe && !strcmp(f->probe, "net") && (allow & (1U << TC_NAPI)))
		cand(out, &n, max, TC_NAPI, "napi-threaded", "opt.probe.napi", "threaded",
		     "NET_RX among the top waiters: the probe's NAPI in napi/ threads");
	/* the machine's own device: threaded NAPI, and for a NIC interrupts deferred */
	if (net_rx && f->napi_dev && *f->napi_dev && !(f->probe && !strcmp(f->probe, "net")) &&
	    (allow & (1U << TC_NAPI))) {
		if (!f->napi_threaded) {
			snprintf(name, sizeof(name), "%.30s-threaded", f->napi_dev);
			snprintf(knob, sizeof(knob), "netdev.%.30s.threaded", f->napi_dev);
			snprintf(why, sizeof(why), "NET_RX among the top waiters, most NAPI polls "
				 "on %s: its NAPI in napi/%s-N kernel threads", f->napi_dev,
				 f->napi_dev);
			cand(out, &n, max, TC_NAPI, name, knob, "1", why);
		}
		if (f->napi_hw) {
			snprintf(name, sizeof(name), "%.30s-defer-irqs", f->napi_dev);
			snprintf(knob, sizeof(knob), "netdev.%.30s.napi_defer_hard_irqs",
				 f->napi_dev);
			snprintf(why, sizeof(why), "NET_RX among the top waiters, most NAPI polls "
				 "on %s: its interrupt held off for two empty polls, a 200 us GRO "
				 "timer polling meanwhile", f->napi_dev);
			c = cand(out, &n, max, TC_NAPI, name, knob, "2", why);
			if (c) {
				snprintf(c->knob[1], sizeof(c->knob[1]),
					 "netdev.%.30s.gro_flush_timeout", f->napi_dev);
				snprintf(c->value[1], sizeof(c->value[1]), "200000");
				c->nknobs = 2;
			}
		}
	}
	if (ksoftirqd && (allow & (1U << TC_KSOFTIRQD)))
		cand(out, &n, max, TC_KSOFTIRQD, "ksoftirqd-fifo", "sched.ksoftirqd", "fifo:1",
		     "softirq work ran in ksoftirqd: its threads at SCHED_FIFO 1");
	if (unbound && (allow & (1U << TC_CPUMASK)) && f->first_cpu >= 0) {
		char mask[32];

		snprintf(mask, sizeof(mask), "%x", 1U << (f->first_cpu & 31));
		snprintf(name, sizeof(name), "unbound-cpu%d", f->first_cpu);
		cand(out, &n, max, TC_CPUMASK, name, "wq.cpumask", mask,
		     "every unbound workqueue on one CPU (takes CPUs from unbound work)");
	}
	return n;
}

int tune_try_parse(const char *s, int n, struct tune_cand *c, char *errbuf)
{
	char copy[512], *save, *tok, *eq;

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "try-%d", n);
	snprintf(c->why, sizeof(c->why), "--try %.200s", s);
	c->cls = TC_NR;
	if (strlen(s) >= sizeof(copy))
		return set_err(errbuf, "--try: '%.40s...' is too long", s);
	strcpy(copy, s);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (!eq || eq == tok || !eq[1])
			return set_err(errbuf, "--try: '%s' is not KNOB=VALUE (wq.writeback.nice=-10)",
				       tok);
		if (c->nknobs == TUNE_MAX_KNOBS)
			return set_err(errbuf, "--try: more than %d settings in '%s'",
				       TUNE_MAX_KNOBS, s);
		*eq = '\0';
		if (strlen(tok) >= NAME_LEN || strlen(eq + 1) >= NAME_LEN)
			return set_err(errbuf, "--try: '%s' is too long", tok);
		snprintf(c->knob[c->nknobs], NAME_LEN, "%s", tok);
		snprintf(c->value[c->nknobs++], NAME_LEN, "%s", eq + 1);
	}
	if (!c->nknobs)
		return set_err(errbuf, "--try: empty (wq.writeback.nice=-10)");
	return 0;
}
