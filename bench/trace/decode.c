// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c - event ids and field offsets from the kernel's event formats.
 */
#include "decode.h"

#include <errno.h>
#include <stdlib.h>
#include <traceevent/event-parse.h>

#include "util.h"

struct tep_handle *decoder_new_tep(const char *header_page, size_t hlen,
				   char *const formats[EV_NR], char *errbuf)
{
	struct tep_handle *tep = tep_alloc();
	int k;

	if (!tep) {
		set_err(errbuf, "out of memory");
		return NULL;
	}
	tep_set_file_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				    TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				     TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, sizeof(long));
	if (tep_parse_header_page(tep, (char *)header_page, hlen, sizeof(long))) {
		set_err(errbuf, "cannot parse the ring buffer header page format");
		goto out_free;
	}
	for (k = 0; k < EV_NR; k++) {
		if (!formats[k])
			continue;
		if (tep_parse_event(tep, formats[k], strlen(formats[k]), ev_names[k].system)) {
			set_err(errbuf, "cannot parse the format of %s:%s", ev_names[k].system,
				ev_names[k].name);
			goto out_free;
		}
	}
	return tep;
out_free:
	tep_free(tep);
	return NULL;
}

/* field - offset and size of a named field; fails if absent or of an unexpected size */
static int field(struct tep_event *ev, const char *name, struct field_loc *loc, bool dynamic,
		 char *errbuf)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);

	if (!f)
		return set_err(errbuf, "event %s:%s has no field '%s'", ev->system, ev->name, name);
	if (dynamic != !!(f->flags & TEP_FIELD_IS_DYNAMIC) ||
	    (!(f->flags & TEP_FIELD_IS_ARRAY) && f->size != 1 && f->size != 2 && f->size != 4 &&
	     f->size != 8))
		return set_err(errbuf, "event %s:%s: field '%s' has an unexpected layout",
			       ev->system, ev->name, name);
	loc->offset = f->offset;
	loc->size = f->size;
	return 0;
}

static int event_fields(struct decoder *d, int k, struct tep_event *ev, char *errbuf)
{
	int ret = 0;

	switch (k) {
	case EV_SOFTIRQ_RAISE:
	case EV_SOFTIRQ_ENTRY:
	case EV_SOFTIRQ_EXIT:
		ret = field(ev, "vec", &d->vec[k - EV_SOFTIRQ_RAISE], false, errbuf);
		break;
	case EV_WQ_QUEUE:
		ret = field(ev, "work", &d->q_work, false, errbuf) ?:
		      field(ev, "function", &d->q_func, false, errbuf) ?:
		      field(ev, "workqueue", &d->q_wq, true, errbuf);
		/* the __data_loc word itself is 4 bytes */
		d->q_wq.size = 4;
		break;
	case EV_WQ_ACTIVATE:
		ret = field(ev, "work", &d->a_work, false, errbuf);
		break;
	case EV_WQ_START:
		ret = field(ev, "work", &d->s_work, false, errbuf) ?:
		      field(ev, "function", &d->s_func, false, errbuf);
		break;
	case EV_WQ_END:
		ret = field(ev, "work", &d->e_work, false, errbuf);
		break;
	case EV_SCHED_SWITCH:
		ret = field(ev, "prev_pid", &d->sw_prev_pid, false, errbuf) ?:
		      field(ev, "prev_comm", &d->sw_prev_comm, false, errbuf) ?:
		      field(ev, "next_pid", &d->sw_next_pid, false, errbuf) ?:
		      field(ev, "next_comm", &d->sw_next_comm, false, errbuf);
		break;
	case EV_SCHED_WAKEUP:
		ret = field(ev, "pid", &d->wk_pid, false, errbuf) ?:
		      field(ev, "comm", &d->wk_comm, false, errbuf);
		break;
	case EV_TASKLET_ENTRY:
	case EV_TASKLET_EXIT:
		ret = field(ev, "func", &d->tl_func[k - EV_TASKLET_ENTRY], false, errbuf);
		break;
	case EV_IRQ_ENTRY:
		ret = field(ev, "irq", &d->irq_irq[0], false, errbuf) ?:
		      field(ev, "name", &d->irq_name, true, errbuf);
		d->irq_name.size = 4;
		break;
	case EV_IRQ_EXIT:
		ret = field(ev, "irq", &d->irq_irq[1], false, errbuf);
		break;
	case EV_NAPI_POLL:
		ret = field(ev, "dev_name", &d->np_dev, true, errbuf) ?:
		      field(ev, "work", &d->np_work, false, errbuf) ?:
		      field(ev, "budget", &d->np_budget, false, errbuf);
		d->np_dev.size = 4;
		break;
	}
	if (ret)
		return ret;
	/* common fields are the same for every event; take them from any */
	ret = field(ev, "common_pid", &d->common_pid, false, errbuf) ?:
	      field(ev, "common_flags", &d->common_flags, false, errbuf);
	return ret;
}

int decoder_init(struct decoder *d, struct tep_handle *tep, char *errbuf)
{
	struct tep_event *evs[EV_NR] = { 0 };
	int k, ret;

	memset(d, 0, sizeof(*d));
	d->tep = tep;
	d->max_id = -1;
	for (k = 0; k < EV_NR; k++) {
		evs[k] = tep_find_event_by_name(tep, ev_names[k].system, ev_names[k].name);
		if (evs[k] && evs[k]->id > d->max_id)
			d->max_id = evs[k]->id;
	}
	if (d->max_id < 0)
		return set_err(errbuf, "none of the softirq/workqueue events is known");
	if (d->max_id > 65535)
		return set_err(errbuf, "event id %d is out of range", d->max_id);
	d->kind_of = calloc(d->max_id + 1, 1);
	if (!d->kind_of)
		return set_err(errbuf, "out of memory");
	for (k = 0; k < EV_NR; k++) {
		if (!evs[k])
			continue;
		ret = event_fields(d, k, evs[k], errbuf);
		if (ret && ev_optional(k)) {
			/* only the figures that need it are lost */
			d->unusable[k] = true;
			if (errbuf)
				errbuf[0] = '\0';
			continue;
		}
		if (ret) {
			decoder_free(d);
			return ret;
		}
		d->kind_of[evs[k]->id] = k + 1;
		d->present[k] = true;
	}
	return 0;
}

void decoder_free(struct decoder *d)
{
	free(d->kind_of);
	d->kind_of = NULL;
}
