// SPDX-License-Identifier: GPL-2.0
/*
 * raw.c - save and load the side files of a raw capture (see raw.h).
 */
#include "raw.h"

#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "decode.h"
#include "detail.h"
#include "jsonread.h"
#include "jsonw.h"
#include "result_files.h"
#include "grow.h"
#include "msg.h"
#include "parse.h"
#include "file.h"
#include "outw.h"

static int save_text(const char *path, const char *text, size_t len)
{
	FILE *f = out_fopen(path);

	if (!f)
		return -errno;
	if (fwrite(text, 1, len, f) != len) {
		int e = errno ? errno : EIO;	/* a full disk, a size limit */

		fclose(f);
		return -e;
	}
	return fclose(f) ? -errno : 0;
}

int raw_save_formats(const char *rawdir, const char *header, size_t hlen,
		     char *const formats[EV_NR])
{
	char path[PATH_MAX];
	int k, ret;

	snprintf(path, sizeof(path), "%s/header_page", rawdir);
	ret = save_text(path, header, hlen);
	for (k = 0; k < EV_NR && !ret; k++) {
		if (!formats[k])
			continue;
		snprintf(path, sizeof(path), "%s/formats/%s", rawdir, ev_names[k].system);
		ret = out_mkdir_p(path);
		if (ret)
			break;
		snprintf(path, sizeof(path), "%s/formats/%s/%s", rawdir, ev_names[k].system,
			 ev_names[k].name);
		ret = save_text(path, formats[k], strlen(formats[k]));
	}
	return ret;
}

static int addr_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int raw_save_symbols(const char *rawdir, const struct result *r)
{
	const struct detail *d = r->m.detail;
	size_t n = r->m.nfuncs + 1 + (d ? d->nframes : 0), i = 0, j;
	char path[PATH_MAX];
	uint64_t *addrs;
	int ret;

	addrs = calloc(n, sizeof(*addrs));
	if (!addrs)
		return -ENOMEM;
	for (j = 0; j < r->m.nfuncs; j++)
		addrs[i++] = r->m.funcs[j].addr;
	/* offline analysis needs it to tell flush barriers from unmatched starts */
	if (r->m.barrier_func)
		addrs[i++] = r->m.barrier_func;
	/* and the frames of the stacks, to name them as the live capture did */
	for (j = 0; d && j < d->nframes; j++)
		addrs[i++] = d->frames[j];
	qsort(addrs, i, sizeof(*addrs), addr_cmp);
	snprintf(path, sizeof(path), "%s/symbols", rawdir);
	ret = symtab_save(&r->syms, addrs, i, path);
	free(addrs);
	return ret;
}

/* a format file is a few hundred bytes; the header page fewer */
#define FORMAT_MAX (64 * 1024)

int raw_load_formats(const char *rawdir, char **header, size_t *hlen, char *formats[EV_NR],
		     char *errbuf)
{
	char path[PATH_MAX];
	int k, ret;

	snprintf(path, sizeof(path), "%s/header_page", rawdir);
	if (read_input(path, FORMAT_MAX, header, hlen, errbuf))
		return -EINVAL;
	for (k = 0; k < EV_NR; k++) {
		snprintf(path, sizeof(path), "%s/formats/%s/%s", rawdir, ev_names[k].system,
			 ev_names[k].name);
		ret = read_input(path, FORMAT_MAX, &formats[k], NULL, errbuf);
		if (ret && ret != -ENOENT) {
			while (k-- > 0) {
				free(formats[k]);
				formats[k] = NULL;
			}
			free(*header);
			*header = NULL;
			return -EINVAL;
		}
	}
	return 0;
}

/* comms_write - a new comms file, or (append) more lines at the end of ours */
static int comms_write(const char *rawdir, const struct comm_entry *c, size_t n, bool append)
{
	char path[PATH_MAX];
	FILE *f;
	size_t i;
	int fd;

	snprintf(path, sizeof(path), "%s/comms", rawdir);
	if (!append)
		f = out_fopen(path);
	else if ((fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)) < 0)
		f = NULL;
	else if (!(f = fdopen(fd, "a")))
		close(fd);
	if (!f)
		return -errno;
	for (i = 0; i < n; i++)
		fprintf(f, "%d %s\n", c[i].pid, c[i].comm);
	return fclose(f) ? -errno : 0;
}

int raw_save_comms(const char *rawdir, const struct comm_entry *c, size_t n)
{
	return comms_write(rawdir, c, n, false);
}

int raw_add_comms(const char *rawdir, const struct comm_entry *c, size_t n)
{
	return comms_write(rawdir, c, n, true);
}

/* comm_ok - what the kernel can name a task: 1..15 bytes, no control characters */
static bool comm_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 15)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

int raw_load_comms(const char *rawdir, struct comm_entry **out, size_t *n, char *errbuf)
{
	char path[PATH_MAX], *text;
	size_t len;
	int ret;

	*out = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/comms", rawdir);
	if (read_input(path, 16 * INPUT_MAX_TEXT, &text, &len, errbuf))
		return -EINVAL;
	ret = raw_parse_comms(text, len, path, out, n, errbuf);
	free(text);
	return ret;
}

int raw_parse_comms(char *text, size_t len, const char *path, struct comm_entry **out,
		    size_t *n, char *errbuf)
{
	struct comm_entry *c = NULL;
	size_t cap = 0, lineno = 0;
	char *line, *next;

	*out = NULL;
	*n = 0;
	if (strlen(text) != len)
		return set_err(errbuf, "%s holds a NUL byte: not a comms file", path);
	for (line = text; *line; line = next) {
		char *sp, *nl = strchr(line, '\n');
		int pid;

		lineno++;
		next = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = '\0';
		sp = strchr(line, ' ');
		if (!sp)
			goto bad;
		*sp = '\0';
		if (parse_int(line, 0, INT32_MAX, &pid, NULL) || !comm_ok(sp + 1))
			goto bad;
		if (GROW(c, cap, *n + 1))
			goto bad;
		c[*n].pid = pid;
		snprintf(c[*n].comm, sizeof(c[*n].comm), "%s", sp + 1);
		(*n)++;
	}
	*out = c;
	return 0;
bad:
	free(c);
	*n = 0;
	return set_err(errbuf, "%s:%zu: malformed line (expected 'pid comm', a comm of 1 to 15 "
		       "printable bytes)", path, lineno);
}

/* summary_json_detail - what was kept beyond the histograms (detail.h), when anything was */
static void summary_json_detail(json_object *o, const struct result_meta *m, bool excerpt)
{
	char vecs[128];

	if (m->slowest)
		jsonw_u64(o, "slowest", m->slowest);
	if (m->stack_vecs)
		json_object_object_add(o, "stacks", json_object_new_string(
			detail_vecs_format(m->stack_vecs, vecs, sizeof(vecs))));
	if (m->keep_worst_ns && !excerpt) {
		jsonw_u64(o, "keep_worst_ns", m->keep_worst_ns);
		json_object_object_add(o, "keep_worst", json_object_new_string(
			detail_vecs_format(m->worst_vecs, vecs, sizeof(vecs))));
	}
}

int raw_save_meta(const char *rawdir, const struct result *r, unsigned int subbuf_size)
{
	return raw_save_excerpt_meta(rawdir, r, subbuf_size, NULL);
}

int raw_save_excerpt_meta(const char *rawdir, const struct result *r, unsigned int subbuf_size,
			  const struct raw_excerpt *ex)
{
	json_object *o = json_object_new_object(), *loss = json_object_new_array();
	json_object *missing = json_object_new_array();
	char path[PATH_MAX];
	int c, k, ret = 0;

	json_object_object_add(o, "schema", json_object_new_string(RAW_SCHEMA));
	json_object_object_add(o, "cpus", json_object_new_int(r->ncpus));
	jsonw_u64(o, "subbuf_size", subbuf_size);
	jsonw_u64(o, "start_ts", ex ? ex->start_ts : r->start_ts);
	jsonw_u64(o, "end_ts", ex ? ex->end_ts : r->end_ts);
	jsonw_u64(o, "interval_ns", r->meta.interval_ns);
	jsonw_u64(o, "interval_origin_ns", ex ? ex->origin_ns : r->m.t0);
	summary_json_detail(o, &r->meta, ex != NULL);
	if (ex) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "vector", json_object_new_string(ex->vector));
		jsonw_u64(e, "delay_ns", ex->delay_ns);
		jsonw_u64(e, "raise_ns", ex->raise_ns);
		jsonw_u64(e, "entry_ns", ex->entry_ns);
		json_object_object_add(e, "cpu", json_object_new_int(ex->cpu));
		jsonw_u64(e, "margin_ns", ex->margin_ns);
		json_object_object_add(o, "excerpt", e);
	}
	jsonw_u64(o, "buffer_kb", r->meta.buffer_kb);
	if (r->meta.sched_events[0])
		json_object_object_add(o, "sched_events",
				       json_object_new_string(r->meta.sched_events));
	json_object_object_add(o, "capture_cpu_s", json_object_new_double(r->meta.capture_cpu_s));
	json_object_object_add(o, "kernel", json_object_new_string(r->meta.kernel));
	json_object_object_add(o, "hostname", json_object_new_string(r->meta.hostname));
	json_object_object_add(o, "started", json_object_new_string(r->meta.started));
	json_object_object_add(o, "command", json_object_new_string(r->meta.command));
	json_object_object_add(o, "trace_clock", json_object_new_string(r->meta.trace_clock));
	for (k = 0; k < EV_NR; k++)
		if (r->meta.missing[k])
			json_object_array_add(missing, json_object_new_string(ev_names[k].id));
	json_object_object_add(o, "events_missing", missing);
	if (r->meta.cmd_ended)
		json_object_object_add(o, "command_status", summary_json_command_status(&r->meta));
	for (c = 0; c < r->ncpus; c++) {
		json_object *l = json_object_new_object();

		jsonw_u64(l, "entries", r->loss[c].entries);
		jsonw_u64(l, "overrun", r->loss[c].overrun);
		jsonw_u64(l, "commit_overrun", r->loss[c].commit_overrun);
		jsonw_u64(l, "dropped", r->loss[c].dropped);
		/* an excerpt's cpuN.dat holds these of the events read */
		jsonw_u64(l, "read_events", ex ? ex->records[c] : r->loss[c].read_events);
		json_object_array_add(loss, l);
	}
	json_object_object_add(o, "loss", loss);
	snprintf(path, sizeof(path), "%s/capture.json", rawdir);
	ret = jsonw_write(path, o, 0644, 0);
	json_object_put(o);
	return ret;
}

/* what a capture's threads may use beyond its length: their start and stop */
#define CAPTURE_CPU_SLACK_S 10

/* span_ns - the capture's length, and a second more (a capture of an instant counts) */
static uint64_t span_ns(const struct raw_meta *rm)
{
	return rm->end_ts - rm->start_ts + NSEC_PER_SEC;
}

/* read_loss - capture.json's per-CPU loss counters, one entry per CPU */
static int read_loss(const struct jr *j, json_object *o, struct raw_meta *rm)
{
	static const char *const keys[] = { "entries", "overrun", "commit_overrun", "dropped",
					    "read_events" };
	char where[32];
	json_object *loss;
	uint64_t *v[5];
	size_t k;
	int c, ret;

	ret = jr_get(j, o, "", "loss", json_type_array, &loss);
	if (ret)
		return ret;
	if (json_object_array_length(loss) != (size_t)rm->ncpus)
		return jr_fail(j, "", "loss", "lists %zu CPUs, not %d", json_object_array_length(loss),
			       rm->ncpus);
	rm->loss = calloc(rm->ncpus, sizeof(*rm->loss));
	if (!rm->loss)
		return errno_msg(j->errbuf, -ENOMEM, "out of memory");
	for (c = 0; c < rm->ncpus; c++) {
		json_object *l = json_object_array_get_idx(loss, c);

		v[0] = &rm->loss[c].entries;
		v[1] = &rm->loss[c].overrun;
		v[2] = &rm->loss[c].commit_overrun;
		v[3] = &rm->loss[c].dropped;
		v[4] = &rm->loss[c].read_events;
		snprintf(where, sizeof(where), "loss[%d]", c);
		for (k = 0; k < ARRAY_SIZE(keys); k++) {
			if ((ret = jr_u64(j, l, where, keys[k], v[k])))
				return ret;
			/* no ring buffer writes, loses or drops an event per nanosecond */
			if (*v[k] > span_ns(rm))
				return jr_fail(j, where, keys[k], "%llu is more events than the "
					       "capture's %.3f s could hold (one per nanosecond)",
					       (unsigned long long)*v[k], span_ns(rm) / 1e9);
		}
	}
	return 0;
}

/* read_missing - the events the kernel lacked */
static int read_missing(const struct jr *j, json_object *o, struct raw_meta *rm)
{
	json_object *missing;
	size_t i;
	int k;

	if (!jr_has(o, "events_missing"))
		return 0;
	if (jr_get(j, o, "", "events_missing", json_type_array, &missing))
		return -EINVAL;
	for (i = 0; i < json_object_array_length(missing); i++) {
		const char *name = json_object_get_string(json_object_array_get_idx(missing, i));

		for (k = 0; k < EV_NR; k++)
			if (name && !strcmp(name, ev_names[k].id))
				rm->meta.missing[k] = true;
	}
	return 0;
}

/* read_command_status - "command_status" of record -- COMMAND, when there is one */
static int read_command_status(const struct jr *j, json_object *o, struct result_meta *m)
{
	json_object *cs;
	int ret;

	if (!jr_has(o, "command_status"))
		return 0;
	ret = jr_get(j, o, "", "command_status", json_type_object, &cs);
	ret = ret ?: jr_bool(j, cs, "command_status", "stopped_by_deferbench", &m->cmd_stopped);
	if (ret)
		return ret;
	m->cmd_ended = true;
	m->cmd_exit = -1;
	if (jr_has(cs, "signal"))
		return jr_int(j, cs, "command_status", "signal", 1, 64, &m->cmd_signal);
	return jr_int(j, cs, "command_status", "exit", 0, 255, &m->cmd_exit);
}

/* summary_read_detail - what was kept beyond the histograms, and an excerpt's delay */
static int summary_read_detail(const struct jr *j, json_object *o, struct raw_meta *rm)
{
	struct result_meta *m = &rm->meta;
	char vecs[128], err[ERRBUF_LEN];
	json_object *e;
	uint64_t v;
	int ret = 0;

	if (jr_has(o, "slowest")) {
		ret = jr_u64(j, o, "", "slowest", &v);
		if (!ret && (!v || v > SLOWEST_MAX))
			ret = jr_fail(j, "", "slowest", "%llu is out of range [1, %d]",
				      (unsigned long long)v, SLOWEST_MAX);
		m->slowest = (uint32_t)v;
	}
	if (!ret && jr_has(o, "stacks")) {
		ret = jr_str(j, o, "", "stacks", vecs, sizeof(vecs));
		if (!ret && detail_vecs_parse(vecs, &m->stack_vecs, err))
			ret = jr_fail(j, "", "stacks", "%s", err);
	}
	if (!ret && jr_has(o, "keep_worst_ns")) {
		ret = jr_u64(j, o, "", "keep_worst_ns", &m->keep_worst_ns);
		ret = ret ?: jr_str(j, o, "", "keep_worst", vecs, sizeof(vecs));
		if (!ret && detail_vecs_parse(vecs, &m->worst_vecs, err))
			ret = jr_fail(j, "", "keep_worst", "%s", err);
	}
	if (ret || !jr_has(o, "excerpt"))
		return ret;
	rm->is_excerpt = true;
	ret = jr_get(j, o, "", "excerpt", json_type_object, &e);
	ret = ret ?: jr_str(j, e, "excerpt", "vector", rm->excerpt.vector,
			    sizeof(rm->excerpt.vector));
	if (!ret && softirq_vec_from_name(rm->excerpt.vector) < 0)
		ret = jr_fail(j, "excerpt", "vector", "'%s' is not a softirq vector",
			      rm->excerpt.vector);
	ret = ret ?: jr_u64(j, e, "excerpt", "delay_ns", &rm->excerpt.delay_ns);
	ret = ret ?: jr_u64(j, e, "excerpt", "raise_ns", &rm->excerpt.raise_ns);
	ret = ret ?: jr_u64(j, e, "excerpt", "entry_ns", &rm->excerpt.entry_ns);
	ret = ret ?: jr_int(j, e, "excerpt", "cpu", 0, rm->ncpus - 1, &rm->excerpt.cpu);
	ret = ret ?: jr_u64(j, e, "excerpt", "margin_ns", &rm->excerpt.margin_ns);
	/* the worst delay was kept with the trace around it: it lies inside the excerpt */
	if (!ret && (rm->excerpt.raise_ns > rm->excerpt.entry_ns ||
		     rm->excerpt.raise_ns < rm->start_ts || rm->excerpt.entry_ns > rm->end_ts))
		ret = jr_fail(j, "excerpt", "raise_ns", "and entry_ns (%llu, %llu) are not an "
			      "interval inside the excerpt [start_ts, end_ts]",
			      (unsigned long long)rm->excerpt.raise_ns,
			      (unsigned long long)rm->excerpt.entry_ns);
	if (!ret && rm->excerpt.delay_ns != rm->excerpt.entry_ns - rm->excerpt.raise_ns)
		ret = jr_fail(j, "excerpt", "delay_ns", "%llu is not entry_ns - raise_ns (%llu)",
			      (unsigned long long)rm->excerpt.delay_ns,
			      (unsigned long long)(rm->excerpt.entry_ns - rm->excerpt.raise_ns));
	return ret;
}

/* printable - a string from a file that deferbench prints: control characters become '?' */
static void printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

int raw_load_meta(const char *rawdir, struct raw_meta *rm, char *errbuf)
{
	char path[PATH_MAX], *text;
	size_t len;
	int ret;

	memset(rm, 0, sizeof(*rm));
	if (path_join(path, sizeof(path), rawdir, "capture.json"))
		return errno_msg(errbuf, -ENAMETOOLONG, "%s: path too long", rawdir);
	ret = read_input(path, INPUT_MAX_TEXT, &text, &len, errbuf);
	if (ret)
		return ret;
	ret = raw_parse_meta(text, len, path, rm, errbuf);
	free(text);
	return ret;
}

int raw_parse_meta(const char *text, size_t len, const char *path, struct raw_meta *rm,
		   char *errbuf)
{
	struct jr j = { path, errbuf };
	json_object *o;
	int ncpus = 0, ret;
	uint64_t v = 0;

	memset(rm, 0, sizeof(*rm));
	ret = jr_parse(&j, text, len, &o);
	if (ret)
		return ret;
	ret = jr_schema(&j, o, RAW_SCHEMA);
	ret = ret ?: jr_int(&j, o, "", "cpus", 1, 8192, &ncpus);
	ret = ret ?: jr_u64(&j, o, "", "subbuf_size", &v);
	/* the kernel's sub-buffers are pages: a power of two, so records stay aligned */
	if (!ret && (v < 4096 || v > (1 << 20) || (v & (v - 1))))
		ret = jr_fail(&j, "", "subbuf_size", "%llu is not a power of two in [4096, "
			      "1048576]", (unsigned long long)v);
	rm->ncpus = ncpus;
	rm->subbuf_size = (unsigned int)v;
	ret = ret ?: jr_u64(&j, o, "", "start_ts", &rm->start_ts);
	ret = ret ?: jr_u64(&j, o, "", "end_ts", &rm->end_ts);
	if (!ret && rm->end_ts < rm->start_ts)
		ret = jr_fail(&j, "", "end_ts", "is before start_ts");
	ret = ret ?: jr_u64(&j, o, "", "interval_ns", &rm->interval_ns);
	/* record --interval is at least 10 ms */
	if (!ret && rm->interval_ns && rm->interval_ns < 10 * NSEC_PER_MSEC)
		ret = jr_fail(&j, "", "interval_ns", "%llu is shorter than 10 ms",
			      (unsigned long long)rm->interval_ns);
	/* captures from before --align-intervals started their intervals at start_ts */
	rm->interval_origin_ns = rm->start_ts;
	if (!ret && jr_has(o, "interval_origin_ns"))
		ret = jr_u64(&j, o, "", "interval_origin_ns", &rm->interval_origin_ns);
	if (!ret && (rm->interval_origin_ns > rm->start_ts ||
		     (rm->interval_ns && rm->start_ts - rm->interval_origin_ns >= rm->interval_ns)))
		ret = jr_fail(&j, "", "interval_origin_ns", "is not within an interval before "
			      "start_ts");
	ret = ret ?: jr_u64(&j, o, "", "buffer_kb", &v);
	/* what record -b takes: the ring buffer the capture had, per CPU */
	if (!ret && (v < CAPTURE_MIN_BUFFER_KB || v > CAPTURE_MAX_BUFFER_KB))
		ret = jr_fail(&j, "", "buffer_kb", "%llu is outside [%d, %d] (record -b)",
			      (unsigned long long)v, CAPTURE_MIN_BUFFER_KB, CAPTURE_MAX_BUFFER_KB);
	rm->meta.buffer_kb = (unsigned int)v;
	rm->meta.interval_ns = rm->interval_ns;
	if (!ret && jr_has(o, "capture_cpu_s"))
		ret = jr_double(&j, o, "", "capture_cpu_s", &rm->meta.capture_cpu_s);
	/* the capture's threads (a reader per CPU, the analyser) ran for its length at most */
	if (!ret && (rm->meta.capture_cpu_s < 0 || rm->meta.capture_cpu_s >
		     (ncpus + 1) * (span_ns(rm) / 1e9 + CAPTURE_CPU_SLACK_S)))
		ret = jr_fail(&j, "", "capture_cpu_s", "%g is not a CPU time between 0 and what "
			      "%d threads use in the capture's %.3f s", rm->meta.capture_cpu_s,
			      ncpus + 1, (rm->end_ts - rm->start_ts) / 1e9);
	ret = ret ?: jr_str_opt(&j, o, "", "sched_events", rm->meta.sched_events,
				sizeof(rm->meta.sched_events));
	ret = ret ?: jr_str_opt(&j, o, "", "kernel", rm->meta.kernel, sizeof(rm->meta.kernel));
	ret = ret ?: jr_str_opt(&j, o, "", "hostname", rm->meta.hostname,
				sizeof(rm->meta.hostname));
	ret = ret ?: jr_str_opt(&j, o, "", "started", rm->meta.started, sizeof(rm->meta.started));
	ret = ret ?: jr_str_opt(&j, o, "", "command", rm->meta.command, sizeof(rm->meta.command));
	ret = ret ?: jr_str_opt(&j, o, "", "trace_clock", rm->meta.trace_clock,
				sizeof(rm->meta.trace_clock));
	ret = ret ?: read_missing(&j, o, rm);
	ret = ret ?: summary_read_detail(&j, o, rm);
	ret = ret ?: read_command_status(&j, o, &rm->meta);
	ret = ret ?: read_loss(&j, o, rm);
	if (ret) {
		free(rm->loss);
		rm->loss = NULL;
	} else {
		printable(rm->meta.kernel);
		printable(rm->meta.hostname);
		printable(rm->meta.started);
		printable(rm->meta.command);
		printable(rm->meta.trace_clock);
		printable(rm->meta.sched_events);
	}
	json_object_put(o);
	return ret;
}
