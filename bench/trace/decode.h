/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decode.h - raw ring-buffer records to matcher calls.
 *
 * Event ids and field offsets are looked up once, from the event format files, when
 * the decoder is built; decoding a record is then a table lookup and a few loads, with
 * no text formatting. The same decoder serves the live capture and offline analysis
 * (formats read from tracefs, or from the copies a raw capture keeps).
 */
#ifndef DEFERBENCH_DECODE_H
#define DEFERBENCH_DECODE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "match.h"

struct tep_handle;

struct field_loc {
	unsigned short offset;
	unsigned short size;
};

struct decoder {
	struct tep_handle *tep;
	unsigned char *kind_of;		/* event id -> ev_kind + 1; 0 = not ours */
	int max_id;
	bool present[EV_NR];
	bool unusable[EV_NR];		/* optional events whose layout is not the expected */
	struct field_loc vec[3];	/* raise, entry, exit */
	struct field_loc q_work, q_func, q_wq;
	struct field_loc a_work, s_work, s_func, e_work;
	struct field_loc sw_prev_pid, sw_prev_comm, sw_next_pid, sw_next_comm;
	struct field_loc wk_pid, wk_comm;
	struct field_loc tl_func[2];	/* tasklet entry, exit */
	struct field_loc irq_irq[2], irq_name;	/* irq_handler entry, exit */
	struct field_loc np_dev, np_work, np_budget;
	struct field_loc common_pid, common_flags;
	uint64_t other_events;		/* ids that are not ours (should stay 0) */
};

/*
 * decoder_new_tep - a tep handle from the header page and the format texts
 * (formats[k] for ev_names[k], NULL when the kernel lacks the event).
 * Returns NULL and fills errbuf on failure.
 */
struct tep_handle *decoder_new_tep(const char *header_page, size_t hlen,
				   char *const formats[EV_NR], char *errbuf);
/*
 * decoder_init - look up ids and offsets; events missing from tep are not present, and
 * an optional event (ev_optional) with an unexpected layout is not present either but
 * unusable[] (the core events' layout is an error)
 */
int decoder_init(struct decoder *d, struct tep_handle *tep, char *errbuf);
void decoder_free(struct decoder *d);

static inline uint64_t rd_field(const void *data, struct field_loc f)
{
	const unsigned char *p = (const unsigned char *)data + f.offset;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	switch (f.size) {
	case 8:
		memcpy(&v64, p, 8);
		return v64;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	default:
		return *p;
	}
}

/* decode_record - feed one record (cpu's buffer, timestamp ts) to the matcher */
static inline void decode_record(struct decoder *d, struct matcher *m, int cpu, uint64_t ts,
				 const void *data)
{
	unsigned int id = *(const uint16_t *)data;
	const char *base = data;
	uint32_t loc;
	int kind;

	kind = id <= (unsigned int)d->max_id ? d->kind_of[id] - 1 : -1;
	if (kind < 0) {
		d->other_events++;
		return;
	}
	match_tick(m, ts);
	if (__builtin_expect(!m->first_ts, 0))
		m->first_ts = ts;
	m->last_ts = ts;
	switch (kind) {
	case EV_SOFTIRQ_RAISE:
		match_softirq_raise(m, cpu, ts, (unsigned int)rd_field(data, d->vec[0]),
				    (unsigned int)rd_field(data, d->common_flags),
				    (int)rd_field(data, d->common_pid));
		break;
	case EV_SOFTIRQ_ENTRY:
		match_softirq_entry(m, cpu, ts, (unsigned int)rd_field(data, d->vec[1]),
				    (int)rd_field(data, d->common_pid));
		break;
	case EV_SOFTIRQ_EXIT:
		match_softirq_exit(m, cpu, ts, (unsigned int)rd_field(data, d->vec[2]),
				   (int)rd_field(data, d->common_pid));
		break;
	case EV_WQ_QUEUE:
		/* __data_loc: offset in the low 16 bits, length in the high 16 */
		loc = (uint32_t)rd_field(data, d->q_wq);
		match_wq_queue(m, cpu, ts, rd_field(data, d->q_work), rd_field(data, d->q_func),
			       base + (loc & 0xffff), loc >> 16);
		break;
	case EV_WQ_ACTIVATE:
		match_wq_activate(m, cpu, ts, rd_field(data, d->a_work));
		break;
	case EV_WQ_START:
		match_wq_start(m, cpu, ts, (int)rd_field(data, d->common_pid),
			       rd_field(data, d->common_flags) & TRACE_FL_SOFTIRQ,
			       rd_field(data, d->s_work), rd_field(data, d->s_func));
		break;
	case EV_WQ_END:
		match_wq_end(m, cpu, ts, (int)rd_field(data, d->common_pid),
			     rd_field(data, d->common_flags) & TRACE_FL_SOFTIRQ,
			     rd_field(data, d->e_work));
		break;
	case EV_SCHED_SWITCH:
		match_sched_switch(m, cpu, ts, (int)rd_field(data, d->sw_prev_pid),
				   (int)rd_field(data, d->sw_next_pid),
				   base + d->sw_next_comm.offset, d->sw_next_comm.size);
		break;
	case EV_SCHED_WAKEUP:
		match_sched_wakeup(m, ts, (int)rd_field(data, d->wk_pid),
				   base + d->wk_comm.offset, d->wk_comm.size);
		break;
	case EV_TASKLET_ENTRY:
		match_tasklet_entry(m, cpu, ts, rd_field(data, d->tl_func[0]));
		break;
	case EV_TASKLET_EXIT:
		match_tasklet_exit(m, cpu, ts, rd_field(data, d->tl_func[1]));
		break;
	case EV_IRQ_ENTRY:
		loc = (uint32_t)rd_field(data, d->irq_name);
		match_irq_entry(m, cpu, ts, (int)rd_field(data, d->irq_irq[0]),
				base + (loc & 0xffff), loc >> 16);
		break;
	case EV_IRQ_EXIT:
		match_irq_exit(m, cpu, ts, (int)rd_field(data, d->irq_irq[1]));
		break;
	case EV_TIMER_IRQ_ENTRY:
		match_irq_entry(m, cpu, ts, -1, NULL, 0);
		break;
	case EV_TIMER_IRQ_EXIT:
		match_irq_exit(m, cpu, ts, -1);
		break;
	case EV_NAPI_POLL:
		loc = (uint32_t)rd_field(data, d->np_dev);
		match_napi_poll(m, cpu, ts, (int)rd_field(data, d->common_pid),
				(unsigned int)rd_field(data, d->common_flags),
				base + (loc & 0xffff), loc >> 16,
				(int)rd_field(data, d->np_work), (int)rd_field(data, d->np_budget));
		break;
	}
}

#endif
