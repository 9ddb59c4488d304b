// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c - timestamp-ordered merge of per-CPU sub-buffers (see merge.h).
 */
#include "merge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "subbuf.h"

int merger_init(struct merger *mg, int ncpus, struct decoder *dec, struct result *res,
		const struct page_src *src)
{
	int c;

	memset(mg, 0, sizeof(*mg));
	if (src->size <= SUBBUF_HDR)
		return -EINVAL;
	mg->ncpus = ncpus;
	mg->dec = dec;
	mg->res = res;
	mg->src = *src;
	atomic_init(&mg->gap_at, UINT64_MAX);
	mg->cpu = calloc(ncpus, sizeof(*mg->cpu));
	if (!mg->cpu)
		return -ENOMEM;
	for (c = 0; c < ncpus; c++) {
		mg->cpu[c].kbuf = tep_kbuffer(dec->tep);
		if (!mg->cpu[c].kbuf) {
			merger_free(mg);
			return -ENOMEM;
		}
	}
	return 0;
}

void merger_gap(struct merger *mg, uint64_t ts)
{
	atomic_store_explicit(&mg->gap_at, ts, memory_order_release);
}

void merger_free(struct merger *mg)
{
	int c;

	if (!mg->cpu)
		return;
	for (c = 0; c < mg->ncpus; c++) {
		if (mg->cpu[c].page)
			mg->src.put(mg->src.ctx, c, mg->cpu[c].page);
		if (mg->cpu[c].kbuf)
			kbuffer_free(mg->cpu[c].kbuf);
	}
	free(mg->cpu);
	mg->cpu = NULL;
}

/* note_bad - remember the first bad spot; count what a live merge skips */
static void note_bad(struct merger *mg, int c, unsigned int offset, bool page, const char *what)
{
	struct merge_cpu *mc = &mg->cpu[c];

	if (!mg->bad_subbufs && !mg->bad_records) {
		mg->first_bad.cpu = c;
		mg->first_bad.subbuf = mc->pages - 1;
		mg->first_bad.offset = offset;
		snprintf(mg->first_bad.what, sizeof(mg->first_bad.what), "%s", what);
	}
	if (page)
		mg->bad_subbufs++;
	else
		mg->bad_records++;
	if (mg->src.strict) {
		mg->err = -EPROTO;
		return;
	}
	/* what was pending on this CPU may have been consumed by what we skip */
	match_missed(&mg->res->m, c, page ? -1 : 1);
	mg->res->loss[c].missed_in_band++;
}

/*
 * cpu_ready - make sure cpu has a current record, loading sub-buffers as needed;
 * returns false when none is available (or a strict merge found damage).
 */
static bool cpu_ready(struct merger *mg, int c)
{
	struct merge_cpu *mc = &mg->cpu[c];
	struct subbuf_bad bad;
	int missed;

	while (!mc->rec) {
		if (mc->page) {
			mg->src.put(mg->src.ctx, c, mc->page);
			mc->page = NULL;
		}
		if (mg->err)
			return false;
		mc->page = mg->src.get(mg->src.ctx, c);
		if (!mc->page)
			return false;
		mc->pages++;
		/* kbuffer trusts the sub-buffer: it only gets one that was walked safely */
		if (subbuf_check(mc->page, mg->src.size, mg->src.ts_lo, mg->src.ts_hi, &bad)) {
			note_bad(mg, c, bad.offset, true, bad.what);
			continue;
		}
		if (kbuffer_load_subbuffer(mc->kbuf, mc->page) < 0) {
			/* a corrupt sub-buffer: count it as loss of unknown size */
			match_missed(&mg->res->m, c, -1);
			mg->res->loss[c].missed_in_band++;
			continue;
		}
		/* events were lost between the previous sub-buffer and this one */
		missed = kbuffer_missed_events(mc->kbuf);
		if (missed) {
			match_missed(&mg->res->m, c, missed);
			mg->res->loss[c].missed_in_band += missed > 0 ? missed : 1;
		}
		mc->rec = kbuffer_read_event(mc->kbuf, (unsigned long long *)&mc->ts);
	}
	return true;
}

void merger_run(struct merger *mg)
{
	struct matcher *m = &mg->res->m;
	struct decoder *dec = mg->dec;
	uint64_t gap;
	char why[128];
	int bad;

	for (;;) {
		uint64_t best_ts = UINT64_MAX, next_ts = UINT64_MAX, limit = UINT64_MAX;
		int best = -1, next = mg->ncpus, c;
		struct merge_cpu *mc;

		for (c = 0; c < mg->ncpus; c++) {
			uint64_t h = 0;

			/* the horizon must be read before looking for a sub-buffer */
			if (!mg->cpu[c].rec)
				h = mg->src.horizon(mg->src.ctx, c);
			if (!cpu_ready(mg, c)) {
				if (mg->err)
					return;
				if (h < limit)
					limit = h;
				continue;
			}
			if (mg->cpu[c].ts < best_ts) {
				next_ts = best_ts;
				next = best;
				best_ts = mg->cpu[c].ts;
				best = c;
			} else if (mg->cpu[c].ts < next_ts) {
				next_ts = mg->cpu[c].ts;
				next = c;
			}
		}
		if (best < 0 || best_ts >= limit) {
			/*
			 * Nothing older than min(best_ts, limit) can come any more: close the
			 * intervals that ended before it, so that a live view sees an interval
			 * end on time even when the machine is quiet. Offline, every horizon
			 * is UINT64_MAX and the last interval closes at matcher_finish().
			 */
			limit = best >= 0 && best_ts < limit ? best_ts : limit;
			if (limit != UINT64_MAX)
				match_tick(m, limit);
			return;
		}
		if (next < 0)
			next = mg->ncpus;
		if (limit <= next_ts) {
			next_ts = limit;
			next = -1;	/* strict: never reach the limit itself */
		}
		/* run the best CPU's records while they stay ahead of every other CPU */
		mc = &mg->cpu[best];
		do {
			gap = atomic_load_explicit(&mg->gap_at, memory_order_acquire);
			if (__builtin_expect(mc->ts >= gap, 0) &&
			    atomic_compare_exchange_strong(&mg->gap_at, &gap, UINT64_MAX))
				match_gap(m, gap);
			if (mc->ts < mg->last_ts) {
				m->n.late_events++;
			} else {
				if (!mg->first_ts)
					mg->first_ts = mc->ts;
				else if (mc->ts - mg->last_ts > mg->max_gap)
					mg->max_gap = mc->ts - mg->last_ts;
				mg->last_ts = mc->ts;
			}
			mc->records++;
			bad = decode_record(dec, m, best, mc->ts, mc->rec,
					    (unsigned int)kbuffer_event_size(mc->kbuf));
			if (bad && (bad != DEC_UNKNOWN_ID || mg->src.strict)) {
				note_bad(mg, best, (unsigned int)kbuffer_curr_offset(mc->kbuf), false,
					 decode_bad_text(dec, bad, mc->rec,
							 (unsigned int)kbuffer_event_size(mc->kbuf),
							 why, sizeof(why)));
				if (mg->err)
					return;
			}
			mc->rec = kbuffer_next_event(mc->kbuf, (unsigned long long *)&mc->ts);
		} while (mc->rec && (mc->ts < next_ts || (mc->ts == next_ts && best < next)));
	}
}
