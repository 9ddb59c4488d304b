// SPDX-License-Identifier: GPL-2.0
/*
 * run_cell.c - the steps of a cell that a segment of the alternating design shares: a
 * configuration's knobs through the journal, the bring-up (knobs, setup, loads and
 * workload, warm-up, capture), the wait that polls the backend; and a cell's measurement
 * itself (run_cell_kind). The lifecycle around them is runner.c's.
 */
#define DEFERBENCH_ALLOW_RUN_INT_H
#include "run_int.h"

#include <errno.h>

#include "run_print.h"
#include "msg.h"
#include "sys.h"

#define POLL_NS (250 * NSEC_PER_MSEC)	/* how often a running cell checks its workloads */

int run_cell_knobs(struct run_state *r, const struct scn_config *cf, enum knob_phase ph,
		    char *err)
{
	char e[ERRBUF_LEN];
	int rank, i;

	for (rank = 0; rank < KNOB_RANKS; rank++)
		for (i = 0; i < cf->nknobs; i++) {
			const struct knob *k = &cf->knob[i].k;

			if (k->type->phase != ph || journal_apply_rank(k) != rank)
				continue;
			if (journal_apply(&r->j, k, &r->res[i], e))
				return set_err(err, "[config %s] %s = %s: %s", cf->name, k->name,
					       k->value, e);
			if (!r->res[i].targets) {
				run_progress_clear();
				warn_msg("[config %s] %s: no thread to set", cf->name, k->name);
			}
		}
	return 0;
}

int run_cell_wait(struct run_state *r, struct run_cell *c, uint64_t deadline, char *err)
{
	uint64_t next;
	int ret;

	for (;;) {
		next = now_ns() + POLL_NS;
		if (sleep_until_or_stop(next < deadline ? next : deadline))
			return -EINTR;
		ret = r->be->poll ? r->be->poll(c, err) : 0;
		if (ret || now_ns() >= deadline)
			return ret;
	}
}

int run_cell_up(struct run_state *r, struct run_cell *c, char *err)
{
	const struct scn_config *cf = &r->s->cfg[c->cell->cfg];
	int ret;

	ret = run_cell_knobs(r, cf, KNOB_EARLY, err);
	if (!ret)
		ret = r->be->setup(c, err);
	if (!ret)
		ret = run_cell_knobs(r, cf, KNOB_LATE, err);
	if (!ret)
		ret = r->be->start_load(c, err);
	if (!ret)
		ret = run_cell_wait(r, c, now_ns() + r->s->warmup_ns, err);
	if (!ret)
		ret = r->be->start_capture(c, err);
	return ret;
}

/* measure - knobs, workloads and capture up, warm-up, duration; -EINTR on a stop */
static int measure(struct run_state *r, struct run_cell *c, void *priv __unused, char *err)
{
	int ret = run_cell_up(r, c, err);

	return ret ?: run_cell_wait(r, c, now_ns() + r->s->duration_ns, err);
}

const struct run_kind run_cell_kind = { .what = "cell", .measure = measure };
