// SPDX-License-Identifier: GPL-2.0
/*
 * result.c - the result of one capture: setup, loss totals, duration.
 */
#include "result.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "detail.h"

int result_init(struct result *r, int ncpus, uint64_t start_ts, uint64_t interval_ns,
		ival_cb cb, void *cb_ctx)
{
	memset(r, 0, sizeof(*r));
	r->ncpus = ncpus;
	r->start_ts = start_ts;
	r->meta.interval_ns = interval_ns;
	snprintf(r->meta.trace_clock, sizeof(r->meta.trace_clock), "mono");
	r->loss = calloc(ncpus, sizeof(*r->loss));
	if (!r->loss)
		return -ENOMEM;
	if (matcher_init(&r->m, ncpus, start_ts, interval_ns, cb, cb_ctx)) {
		free(r->loss);
		r->loss = NULL;
		return -ENOMEM;
	}
	return 0;
}

void result_free(struct result *r)
{
	matcher_free(&r->m);
	symtab_free(&r->syms);
	free(r->loss);
	r->loss = NULL;
}

void result_finish(struct result *r)
{
	uint64_t kernel = 0, inband = 0;
	int c;

	matcher_finish(&r->m);
	for (c = 0; c < r->ncpus; c++) {
		kernel += r->loss[c].overrun + r->loss[c].commit_overrun + r->loss[c].dropped;
		inband += r->loss[c].missed_in_band;
	}
	/*
	 * The kernel's counters and the in-band markers describe the same losses from
	 * two sides; take the larger rather than their sum.
	 */
	r->lost_events = kernel > inband ? kernel : inband;
	r->lossy = r->lost_events > 0 || r->m.n.missed_unknown > 0 || r->m.enomem > 0;
}

int result_detail(struct result *r)
{
	const struct result_meta *m = &r->meta;

	if (!m->slowest && !m->stack_vecs && !m->keep_worst_ns)
		return 0;
	return detail_init(&r->m, m->slowest, m->stack_vecs,
				 m->keep_worst_ns ? m->worst_vecs : 0);
}

double result_duration_s(const struct result *r)
{
	return r->end_ts > r->start_ts ? (r->end_ts - r->start_ts) / 1e9 : 0.0;
}

void result_cpu_loss_parse(const char *text, struct cpu_loss *l)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "entries: ", offsetof(struct cpu_loss, entries) },
		{ "overrun: ", offsetof(struct cpu_loss, overrun) },
		{ "commit overrun: ", offsetof(struct cpu_loss, commit_overrun) },
		{ "dropped events: ", offsetof(struct cpu_loss, dropped) },
		{ "read events: ", offsetof(struct cpu_loss, read_events) },
	};
	const char *line = text;
	size_t i;

	while (line && *line) {
		/* trace.dat keeps every CPU's stats in one text, each after "CPU: N" */
		if (line != text && !strncmp(line, "CPU: ", 5))
			break;
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strncmp(line, keys[i].key, strlen(keys[i].key)))
				*(uint64_t *)((char *)l + keys[i].off) =
					strtoull(line + strlen(keys[i].key), NULL, 10);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
}
