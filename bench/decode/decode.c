// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c - event ids and field offsets from the kernel's event formats.
 */
#include "decode.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <traceevent/event-parse.h>

#include "format.h"
#include "msg.h"

/* canonical_format - check formats[k] and rebuild it for libtraceevent */
static char *canonical_format(const char *text, int k, int *id, char *errbuf)
{
	struct ev_format *f = malloc(sizeof(*f));
	char err[ERRBUF_LEN], *out;

	if (!f) {
		set_err(errbuf, "out of memory");
		return NULL;
	}
	if (format_parse(text, strlen(text), f, err)) {
		set_err(errbuf, "%s", err);
		free(f);
		return NULL;
	}
	if (strcmp(f->name, ev_names[k].name)) {
		set_err(errbuf, "line 1: names event '%s', expected '%s'", f->name,
			ev_names[k].name);
		free(f);
		return NULL;
	}
	*id = f->id;
	out = format_text(f, NULL);
	if (!out)
		set_err(errbuf, "out of memory");
	free(f);
	return out;
}

struct tep_handle *decoder_new_tep(const char *header_page, size_t hlen,
				   char *const formats[EV_NR], unsigned int *data_size,
				   int *bad, char *errbuf)
{
	char err[ERRBUF_LEN], *text = NULL;
	unsigned int data_off, dsize;
	int ids[EV_NR] = { 0 }, k, j;
	struct tep_handle *tep;
	size_t len;

	if (bad)
		*bad = -1;
	if (format_header_page_parse(header_page, hlen, sizeof(long), &data_off, &dsize, err)) {
		set_err(errbuf, "%s", err);
		return NULL;
	}
	if (data_size)
		*data_size = dsize;
	tep = tep_alloc();
	if (!tep) {
		set_err(errbuf, "out of memory");
		return NULL;
	}
	tep_set_file_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				    TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				     TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, sizeof(long));
	text = format_header_page_text(sizeof(long), dsize, &len);
	if (!text || tep_parse_header_page(tep, text, len, sizeof(long))) {
		set_err(errbuf, "cannot parse the ring buffer header page format");
		goto out_free;
	}
	free(text);
	text = NULL;
	for (k = 0; k < EV_NR; k++) {
		if (!formats[k])
			continue;
		if (bad)
			*bad = k;
		text = canonical_format(formats[k], k, &ids[k], err);
		if (!text) {
			set_err(errbuf, "%s", err);
			goto out_free;
		}
		for (j = 0; j < k; j++)
			if (ids[j] == ids[k]) {
				set_err(errbuf, "line 2: ID %d is also the ID of %s:%s", ids[k],
					ev_names[j].system, ev_names[j].name);
				goto out_free;
			}
		if (tep_parse_event(tep, text, strlen(text), ev_names[k].system)) {
			set_err(errbuf, "libtraceevent cannot parse it");
			goto out_free;
		}
		free(text);
		text = NULL;
	}
	return tep;
out_free:
	free(text);
	tep_free(tep);
	return NULL;
}

/* field - offset and size of a named field; fails if absent or of an unexpected size */
static int field(struct tep_event *ev, const char *name, struct field_loc *loc, bool dynamic,
		 char *errbuf)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);

	if (!f)
		return set_err(errbuf, "%s/%s: no field '%s'", ev->system, ev->name, name);
	if (dynamic != !!(f->flags & TEP_FIELD_IS_DYNAMIC) ||
	    (!(f->flags & TEP_FIELD_IS_ARRAY) && f->size != 1 && f->size != 2 && f->size != 4 &&
	     f->size != 8))
		return set_err(errbuf, "%s/%s: field '%s' has an unexpected layout",
			       ev->system, ev->name, name);
	loc->offset = f->offset;
	loc->size = f->size;
	return 0;
}

/* ev_field_flags, ev_field_elem - a field's TEP_FIELD_* flags and element size */
static unsigned long ev_field_flags(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);

	return f ? f->flags : 0;
}

static unsigned int ev_field_elem(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);

	return f ? f->elementsize : 0;
}

static unsigned int end_of(struct field_loc f)
{
	return (unsigned int)f.offset + f.size;
}

/* min_len - the shortest record of kind k that holds every field decode_record reads */
static unsigned int min_len(const struct decoder *d, int k)
{
	struct field_loc used[6] = { { 0, 2 }, d->common_pid, d->common_flags };
	unsigned int n = 3, i, len = 0;

	switch (k) {
	case EV_SOFTIRQ_RAISE:
	case EV_SOFTIRQ_ENTRY:
	case EV_SOFTIRQ_EXIT:
		used[n++] = d->vec[k - EV_SOFTIRQ_RAISE];
		break;
	case EV_WQ_QUEUE:
		used[n++] = d->q_work;
		used[n++] = d->q_func;
		if (end_of(d->q_wq) > len)
			len = end_of(d->q_wq);
		break;
	case EV_WQ_ACTIVATE:
		used[n++] = d->a_work;
		break;
	case EV_WQ_START:
		used[n++] = d->s_work;
		used[n++] = d->s_func;
		break;
	case EV_WQ_END:
		used[n++] = d->e_work;
		break;
	case EV_SCHED_SWITCH:
		used[n++] = d->sw_prev_pid;
		used[n++] = d->sw_next_pid;
		if (end_of(d->sw_next_comm) > len)
			len = end_of(d->sw_next_comm);
		break;
	case EV_SCHED_WAKEUP:
		used[n++] = d->wk_pid;
		used[n++] = d->wk_comm;
		break;
	case EV_TASKLET_ENTRY:
	case EV_TASKLET_EXIT:
		used[n++] = d->tl_func[k - EV_TASKLET_ENTRY];
		break;
	case EV_IRQ_ENTRY:
		used[n++] = d->irq_irq[0];
		used[n++] = d->irq_name;
		break;
	case EV_IRQ_EXIT:
		used[n++] = d->irq_irq[1];
		break;
	case EV_NAPI_POLL:
		used[n++] = d->np_dev;
		used[n++] = d->np_work;
		used[n++] = d->np_budget;
		break;
	case EV_KERNEL_STACK:
		/* the frames: checked against the record's 'size' field by decode_record */
		used[n++] = d->ks_size;
		if (d->ks_caller.offset > len)
			len = d->ks_caller.offset;
		break;
	}
	for (i = 0; i < n; i++)
		if (end_of(used[i]) > len)
			len = end_of(used[i]);
	return len;
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
		if (!ret && d->q_wq.size != 4)
			ret = set_err(errbuf, "%s/%s: field 'workqueue' is not a 4-byte "
				      "__data_loc", ev->system, ev->name);
		/* req_cpu and cpu: optional (read only when both are 4-byte ints) */
		if (!ret && (field(ev, "req_cpu", &d->q_req, false, NULL) ||
			     field(ev, "cpu", &d->q_cpu, false, NULL) || d->q_req.size != 4 ||
			     d->q_cpu.size != 4))
			d->q_req.size = d->q_cpu.size = 0;
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
	case EV_KERNEL_STACK:
		ret = field(ev, "size", &d->ks_size, false, errbuf) ?:
		      field(ev, "caller", &d->ks_caller, false, errbuf);
		/* return addresses of a 64-bit kernel, whatever the declared count */
		if (!ret && (d->ks_size.size != 4 || !(ev_field_flags(ev, "caller") &
						       TEP_FIELD_IS_ARRAY) ||
			     ev_field_elem(ev, "caller") != 8))
			ret = set_err(errbuf, "%s/%s: fields 'size' and 'caller' are not an int "
				      "and an array of 8-byte addresses", ev->system, ev->name);
		break;
	}
	if (ret)
		return ret;
	/* common fields are the same for every event; take them from any */
	ret = field(ev, "common_pid", &d->common_pid, false, errbuf) ?:
	      field(ev, "common_flags", &d->common_flags, false, errbuf);
	if (ret)
		return ret;
	d->min_len[k] = min_len(d, k);
	return 0;
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

const char *decode_bad_text(const struct decoder *d, int bad, const void *data,
			    unsigned int len, char *buf, size_t buflen)
{
	uint16_t id = 0;
	int kind;

	if (len >= 2)
		memcpy(&id, data, 2);
	kind = id <= (unsigned int)d->max_id ? d->kind_of[id] - 1 : -1;
	switch (bad) {
	case DEC_SHORT:
		if (kind < 0)
			snprintf(buf, buflen, "a record of %u bytes is too short for an event", len);
		else
			snprintf(buf, buflen, "a %s record of %u bytes is shorter than its format "
				 "(%u bytes)", ev_names[kind].id, len, d->min_len[kind]);
		break;
	case DEC_UNKNOWN_ID:
		snprintf(buf, buflen, "a record has event id %u, which none of the formats has",
			 id);
		break;
	case DEC_STACK:
		snprintf(buf, buflen, "a %s record of %u bytes says it holds more frames than "
			 "fit in it", ev_names[EV_KERNEL_STACK].id, len);
		break;
	case DEC_DATA_LOC:
		snprintf(buf, buflen, "the workqueue name of a %s record lies outside its %u "
			 "bytes", kind >= 0 ? ev_names[kind].id : "queue_work", len);
		break;
	default:
		snprintf(buf, buflen, "a bad record");
		break;
	}
	return buf;
}

void decoder_free(struct decoder *d)
{
	free(d->kind_of);
	d->kind_of = NULL;
}
