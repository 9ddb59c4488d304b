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
	struct field_loc q_req, q_cpu;	/* optional: size 0 when the format lacks them */
	struct field_loc a_work, s_work, s_func, e_work;
	struct field_loc sw_prev_pid, sw_prev_comm, sw_next_pid, sw_next_comm;
	struct field_loc wk_pid, wk_comm;
	struct field_loc tl_func[2];	/* tasklet entry, exit */
	struct field_loc irq_irq[2], irq_name;	/* irq_handler entry, exit */
	struct field_loc np_dev, np_work, np_budget;
	struct field_loc ks_size, ks_caller;	/* kernel_stack: frames, the first frame */
	struct field_loc common_pid, common_flags;
	unsigned int min_len[EV_NR];	/* the shortest record that holds every field read */
	uint64_t other_events;		/* ids that are not ours (should stay 0) */
};

/*
 * decoder_new_tep - a tep handle from the header page and the format texts
 * (formats[k] for ev_names[k], NULL when the kernel lacks the event). Every text is
 * checked first (format.h) and libtraceevent only sees a canonical copy of it.
 * *data_size gets the header page's sub-buffer data size. Returns NULL and fills
 * errbuf on failure; *bad (may be NULL) gets the index of the format at fault, or -1
 * for the header page.
 */
struct tep_handle *decoder_new_tep(const char *header_page, size_t hlen,
				   char *const formats[EV_NR], unsigned int *data_size,
				   int *bad, char *errbuf);
/*
 * decoder_init - look up ids and offsets; events missing from tep are not present, and
 * an optional event (ev_optional) with an unexpected layout is not present either but
 * unusable[] (the core events' layout is an error)
 */
int decoder_init(struct decoder *d, struct tep_handle *tep, char *errbuf);
void decoder_free(struct decoder *d);

/* Why decode_record() refused a record (0: it did not). */
enum dec_bad {
	DEC_SHORT = 1,		/* shorter than its format says */
	DEC_UNKNOWN_ID,		/* an event id none of the formats has */
	DEC_DATA_LOC,		/* a __data_loc string lies outside the record */
	DEC_STACK,		/* a kernel_stack record's frames run past it */
};
/* decode_bad_text - a sentence for what decode_record() returned */
const char *decode_bad_text(const struct decoder *d, int bad, const void *data,
			    unsigned int len, char *buf, size_t buflen);

/* rd_field - a field's value; the caller made sure the record holds it */
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

/*
 * decode_record - feed one record of len bytes (cpu's buffer, timestamp ts) to the
 * matcher. Every field is read only after checking that the record holds it: a record
 * shorter than its format, or a __data_loc string outside it, is not fed and the
 * reason (enum dec_bad) is returned; so is an unknown event id (counted in
 * other_events). Returns 0 when the record was fed.
 */
static inline int decode_record(struct decoder *d, struct matcher *m, int cpu, uint64_t ts,
				const void *data, unsigned int len)
{
	const char *base = data;
	uint16_t id;
	uint32_t loc;
	int kind;

	if (len < 2)
		return DEC_SHORT;
	memcpy(&id, data, 2);	/* a sub-buffer need not be aligned (odd sizes) */
	kind = id <= (unsigned int)d->max_id ? d->kind_of[id] - 1 : -1;
	if (kind < 0) {
		d->other_events++;
		return DEC_UNKNOWN_ID;
	}
	if (len < d->min_len[kind])
		return DEC_SHORT;
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
		if ((loc & 0xffff) + (loc >> 16) > len)
			return DEC_DATA_LOC;
		match_wq_queue(m, cpu, ts, (int)rd_field(data, d->common_pid),
			       rd_field(data, d->q_work), rd_field(data, d->q_func),
			       base + (loc & 0xffff), loc >> 16);
		if (d->q_cpu.size && len >= (unsigned int)d->q_req.offset + 4 &&
		    len >= (unsigned int)d->q_cpu.offset + 4)
			match_wq_queue_cpu(m, cpu, (int32_t)rd_field(data, d->q_req),
					   (int32_t)rd_field(data, d->q_cpu));
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
		if ((loc & 0xffff) + (loc >> 16) > len)
			return DEC_DATA_LOC;
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
		if ((loc & 0xffff) + (loc >> 16) > len)
			return DEC_DATA_LOC;
		match_napi_poll(m, cpu, ts, (int)rd_field(data, d->common_pid),
				(unsigned int)rd_field(data, d->common_flags),
				base + (loc & 0xffff), loc >> 16,
				(int)rd_field(data, d->np_work), (int)rd_field(data, d->np_budget));
		break;
	case EV_KERNEL_STACK:
		/* the record holds 'size' frames, however many its format declares */
		loc = (uint32_t)rd_field(data, d->ks_size);
		if (loc > (len - d->ks_caller.offset) / 8)
			return DEC_STACK;
		detail_kernel_stack(m, cpu, ts, base + d->ks_caller.offset, loc);
		break;
	}
	return 0;
}

#endif
