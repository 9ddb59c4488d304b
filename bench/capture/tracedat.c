// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat.c - a trace.dat as input (see tracedat.h): libtracecmd hands the records in
 * time order across CPUs, the decoder built from the file's own event formats turns
 * them into matcher calls, and the result is printed and written like a capture's.
 *
 * What a trace.dat does not carry the way a capture does, and how it is made up for:
 *   - task names: a capture lists kernel threads from /proc at its start; here each pid
 *     that emits an event is named from the file's saved cmdlines before its event is
 *     matched (kworker pools, ksoftirqd, napi threads are recognised by name);
 *   - wq_barrier_func's address (flush barriers run without queue_work): found by
 *     naming the function of each execute_start from the file's kallsyms;
 *   - loss counters: the per-CPU stats trace-cmd stored, when it stored them for the
 *     buffer read, and the in-band missed-events markers always;
 *   - the trace clock: libtracecmd reports the clock the file names, which for
 *     'trace-cmd extract -B' is the top-level buffer's, not necessarily the instance's.
 */
#include "tracedat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>
#include <unistd.h>

#include "decode.h"
#include "map.h"
#include "output.h"
#include "result_files.h"
#include "grow.h"
#include "msg.h"

/*
 * Exported by libtracecmd 1.x but declared only in trace-cmd's private header: used
 * when the library has them (weak), and the figure they give is "unknown" otherwise.
 */
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle) __attribute__((weak));
const char *tracecmd_get_uname(struct tracecmd_input *handle) __attribute__((weak));
const char *tracecmd_get_cpustats(struct tracecmd_input *handle) __attribute__((weak));

/* The events without which nothing can be measured: one whole group of these. */
static const int sirq_events[] = { EV_SOFTIRQ_RAISE, EV_SOFTIRQ_ENTRY, EV_SOFTIRQ_EXIT };
static const int wq_events[] = { EV_WQ_QUEUE, EV_WQ_ACTIVATE, EV_WQ_START, EV_WQ_END };

struct td {
	const struct tracedat_opts *o;
	const char *path;
	struct tracecmd_input *top, *h;	/* h: the buffer read (top, or an instance) */
	const char *bufname;		/* "" for the top-level buffer */
	struct tep_handle *tep;
	int ncpus;
	struct decoder dec;
	bool dec_ready;
	struct result res;
	bool res_ready;
	struct ival_writer *iw;
	struct map named;		/* pids looked up in the saved cmdlines */
	struct map funcs_seen;		/* execute_start functions looked up by name */
	uint64_t last_ts;
	bool missing[EV_NR];		/* the events the file lacks */
	bool have_stats;
	int err;
	char *errbuf;
};

bool tracedat_is_file(const char *path)
{
	static const char magic[] = "\x17\x08\x44tracing";
	char buf[sizeof(magic) - 1];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = read(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) && !memcmp(buf, magic, sizeof(buf));
	close(fd);
	return ok;
}

/* buffer_events - whether a buffer holds at least one record on some CPU (this moves
 * the handle's cursors: probe with a handle that is not read afterwards) */
static bool buffer_events(struct tracecmd_input *h)
{
	int cpu, n = tep_get_cpus(tracecmd_get_tep(h));

	for (cpu = 0; cpu < n; cpu++) {
		struct tep_record *r = tracecmd_read_cpu_first(h, cpu);

		if (r) {
			tracecmd_free_record(r);
			return true;
		}
	}
	return false;
}

/* pick_buffer - the named instance, or the top-level buffer if it has data, or the only
 * instance that has */
static int pick_buffer(struct td *t, const char *path)
{
	int i, n = tracecmd_buffer_instances(t->top), found = -1;
	char names[512] = "";
	size_t off = 0;

	t->h = t->top;
	t->bufname = "";
	if (!t->o->buffer) {
		/* a handle of its own: looking at the first records moves the cursors */
		struct tracecmd_input *probe = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
		bool any = probe && buffer_events(probe);

		if (probe)
			tracecmd_close(probe);
		if (any)
			return 0;
	}
	for (i = 0; i < n; i++) {
		const char *name = tracecmd_buffer_instance_name(t->top, i);
		struct tracecmd_input *b;

		if (off < sizeof(names))
			off += snprintf(names + off, sizeof(names) - off, "%s'%s'", off ? ", " : "",
					name);
		if (t->o->buffer) {
			if (!strcmp(name, t->o->buffer))
				found = i;
			continue;
		}
		b = tracecmd_buffer_instance_handle(t->top, i);
		if (b && buffer_events(b)) {
			if (found >= 0) {
				tracecmd_close(b);
				return set_err(t->errbuf, "%s has events in several buffers (%s): "
					       "choose one with --buffer NAME", path, names);
			}
			found = i;
		}
		if (b)
			tracecmd_close(b);
	}
	if (found < 0 && t->o->buffer)
		return set_err(t->errbuf, "%s has no buffer '%s' (its buffers: %s)", path,
			       t->o->buffer, n ? names : "only the top-level one");
	if (found < 0)
		return set_err(t->errbuf, "%s holds no events", path);
	t->h = tracecmd_buffer_instance_handle(t->top, found);
	if (!t->h)
		return set_err(t->errbuf, "%s: cannot open buffer '%s'", path,
			       tracecmd_buffer_instance_name(t->top, found));
	t->bufname = tracecmd_buffer_instance_name(t->top, found);
	return 0;
}

/* events_list - the events (of ev_names) with no records, as text; returns how many */
static int events_list(const struct td *t, const struct match_counts *n, char *list,
		       size_t len)
{
	size_t off = 0;
	int k, count = 0;

	list[0] = '\0';
	for (k = 0; k < EV_NR; k++) {
		if ((n && n->events[k]) || ev_by_trigger(k))
			continue;
		count++;
		if (off < len)
			off += snprintf(list + off, len - off, "%s%s%s", off ? ", " : "",
					ev_names[k].id, !t->dec.present[k] ? " (no format)" :
					t->dec.unusable[k] ? " (unknown layout)" : "");
	}
	return count;
}

/*
 * events_check - trace-cmd keeps the format of every event of the system, enabled or
 * not: what the file lacks shows in the records. Without a whole group of the needed
 * events it is an error that names every event missing and the command that records
 * them; other events without records are a note (not recorded, or none happened).
 */
static int events_check(struct td *t)
{
	const struct match_counts *n = &t->res.m.n;
	bool sirq = true, wq = true;
	char list[1024], cmd[1024] = "trace-cmd record -C mono";
	size_t i, off = strlen(cmd);
	int k;

	for (i = 0; i < ARRAY_SIZE(sirq_events); i++)
		sirq &= n->events[sirq_events[i]] > 0;
	for (i = 0; i < ARRAY_SIZE(wq_events); i++)
		wq &= n->events[wq_events[i]] > 0;
	for (k = 0; k < EV_NR; k++)
		if (t->dec.present[k] && !ev_by_trigger(k) && off < sizeof(cmd))
			off += snprintf(cmd + off, sizeof(cmd) - off, " -e %s", ev_names[k].id);
	if (!sirq && !wq) {
		events_list(t, n, list, sizeof(list));
		return set_err(t->errbuf, "%s lacks the events deferbench needs (all of "
			       "irq:softirq_*, or all of workqueue:*); it has no records of: %s. "
			       "Record them with: %s (or trace-cmd extract an instance where they "
			       "are enabled)", t->path, list, cmd);
	}
	if (events_list(t, n, list, sizeof(list)))
		warn_msg("%s has no records of %s (not recorded, or none happened): their "
			 "figures are absent", t->path, list);
	return 0;
}

static void meta_fill(struct td *t)
{
	const char *path = t->path;
	struct result_meta *m = &t->res.meta;
	const char *clock = tracecmd_get_trace_clock ? tracecmd_get_trace_clock(t->top) : NULL;
	const char *uname = tracecmd_get_uname ? tracecmd_get_uname(t->top) : NULL;
	char sys[64], host[128], rel[128];

	snprintf(m->trace_clock, sizeof(m->trace_clock), "%s", clock ? clock : "unknown");
	/* "Linux vm 6.18.44-fc-v1147 x86_64": system, node, release, machine */
	if (uname && sscanf(uname, "%63s %127s %127s", sys, host, rel) == 3) {
		snprintf(m->hostname, sizeof(m->hostname), "%s", host);
		snprintf(m->kernel, sizeof(m->kernel), "%s", rel);
	}
	memcpy(m->missing, t->missing, sizeof(m->missing));
	snprintf(m->command, sizeof(m->command), "trace.dat %s%s%s", path,
		 *t->bufname ? " buffer " : "", t->bufname);
	m->interval_ns = t->o->interval_ns;
	/* a per-CPU clock cannot order work queued on one CPU and run on another */
	if (clock && strcmp(clock, "mono") && strcmp(clock, "mono_raw") && strcmp(clock, "global") &&
	    strcmp(clock, "boot") && strcmp(clock, "x86-tsc") && strcmp(clock, "tai"))
		warn_msg("%s names trace clock '%s' (for 'trace-cmd extract -B', the top-level "
			 "buffer's): if the events were stamped by a per-CPU clock, work queued "
			 "on one CPU and run on another is mis-timed; record with -C mono", path,
			 clock);
}

/* loss_read - the per-CPU ring buffer stats trace-cmd kept for the buffer read */
static void loss_read(struct td *t)
{
	const char *stats = tracecmd_get_cpustats ? tracecmd_get_cpustats(t->h) : NULL;
	const char *p;
	int cpu;

	if (!stats && t->h == t->top)
		return;
	if (!stats) {
		warn_msg("no ring buffer statistics for buffer '%s' in the file: events the "
			 "kernel dropped are counted only where the data marks them", t->bufname);
		return;
	}
	for (p = strstr(stats, "CPU: "); p; p = strstr(p + 5, "CPU: ")) {
		cpu = atoi(p + 5);
		if (cpu >= 0 && cpu < t->ncpus) {
			result_cpu_loss_parse(p, &t->res.loss[cpu]);
			t->have_stats = true;
		}
	}
}

/* start - the result, at the first record: intervals count from its timestamp */
static int start(struct td *t, uint64_t ts)
{
	char ivals[PATH_MAX];

	if (t->o->outdir && t->o->interval_ns) {
		snprintf(ivals, sizeof(ivals), "%s/intervals.csv", t->o->outdir);
		t->iw = intervals_csv_open(ivals, &t->res);
		if (!t->iw)
			return set_err(t->errbuf, "cannot create %s: %s", ivals, strerror(errno));
	}
	if (result_init(&t->res, t->ncpus, ts, t->o->interval_ns,
			t->iw ? intervals_csv_cb : NULL, t->iw))
		return set_err(t->errbuf, "out of memory");
	t->res_ready = true;
	t->res.end_ts = ts;
	meta_fill(t);
	return 0;
}

/* name_pid - a pid's name from the saved cmdlines, before its event is matched */
static void name_pid(struct td *t, int pid)
{
	const char *comm;
	int created;

	if (!map_put(&t->named, (uint64_t)pid, &created) || !created ||
	    match_comm_known(&t->res.m, pid))
		return;
	comm = tep_data_comm_from_pid(t->tep, pid);
	if (comm && strcmp(comm, "<...>") && strcmp(comm, "<idle>"))
		match_comm(&t->res.m, pid, comm, (unsigned int)strlen(comm));
}

/* find_barrier - is this execute_start's function wq_barrier_func? */
static void find_barrier(struct td *t, const void *data)
{
	uint64_t func = rd_field(data, t->dec.s_func);
	const char *name;
	int created;

	if (!map_put(&t->funcs_seen, func, &created) || !created)
		return;
	name = tep_find_function(t->tep, func);
	if (name && !strcmp(name, "wq_barrier_func"))
		t->res.m.barrier_func = func;
}

static int on_record(struct tracecmd_input *h __unused, struct tep_record *rec, int cpu,
		     void *ctx)
{
	struct td *t = ctx;
	struct matcher *m;
	char why[160];
	uint16_t id;
	int kind, bad = 0;

	if (rec->ts < t->o->start_ns || (t->o->end_ns && rec->ts > t->o->end_ns))
		return 0;
	if (!t->res_ready && (t->err = start(t, rec->ts)))
		return -1;
	m = &t->res.m;
	if (cpu < 0 || cpu >= t->ncpus || rec->ts < t->o->start_ns ||
	    (t->o->end_ns && rec->ts > t->o->end_ns))
		return 0;
	if (rec->missed_events) {
		match_missed(m, cpu, rec->missed_events > 0 ? (long)rec->missed_events : -1);
		t->res.loss[cpu].missed_in_band += rec->missed_events > 0 ? rec->missed_events : 1;
	}
	if (rec->size < 2)
		goto bad;
	memcpy(&id, rec->data, 2);
	kind = id <= (unsigned int)t->dec.max_id ? t->dec.kind_of[id] - 1 : -1;
	if (kind >= 0 && (unsigned int)rec->size >= t->dec.min_len[kind]) {
		name_pid(t, (int)rd_field(rec->data, t->dec.common_pid));
		if (kind == EV_WQ_START && !m->barrier_func)
			find_barrier(t, rec->data);
	}
	if (rec->ts < t->last_ts)
		m->n.late_events++;
	else
		t->last_ts = rec->ts;
	/* events of other kinds (a trace.dat may hold any) are no error here */
	bad = decode_record(&t->dec, m, cpu, rec->ts, rec->data, (unsigned int)rec->size);
	if (!bad || bad == DEC_UNKNOWN_ID)
		return 0;
bad:
	decode_bad_text(&t->dec, bad ?: DEC_SHORT, rec->data, (unsigned int)rec->size, why,
			sizeof(why));
	t->err = set_err(t->errbuf, "%s: a record of CPU %d at %llu ns is damaged: %s", t->path,
			 cpu, (unsigned long long)rec->ts, why);
	return -1;
}

/* symbols - the work and tasklet functions seen, named from the file's kallsyms */
static int symbols(struct td *t)
{
	size_t cap = 0, len = 0;
	char *text = NULL;
	uint32_t i;

	if (GROW(text, cap, 4096))
		return -ENOMEM;
	text[0] = '\0';
	for (i = 0; i < t->res.m.nfuncs; i++) {
		uint64_t addr = t->res.m.funcs[i].addr;
		const char *name = tep_find_function(t->tep, addr);

		if (!name)
			continue;
		if (GROW(text, cap, len + strlen(name) + 32)) {
			free(text);
			return -ENOMEM;
		}
		len += snprintf(text + len, cap - len, "%016llx T %s\n",
				tep_find_function_address(t->tep, addr), name);
	}
	return symtab_parse(&t->res.syms, text, len);
}

static int td_run(struct td *t, const char *path)
{
	int ret, k;

	errno = 0;
	t->top = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	/* libtracecmd leaves whatever errno its last call set: only I/O errors are news */
	if (!t->top && (errno == EACCES || errno == EIO || errno == ENOMEM))
		return set_err(t->errbuf, "cannot read %s: %s", path, strerror(errno));
	if (!t->top)
		return set_err(t->errbuf, "%s begins like a trace.dat, but libtracecmd cannot "
			       "read it: it is truncated or damaged, or from a trace-cmd this "
			       "libtracecmd does not know", path);
	ret = pick_buffer(t, path);
	if (ret)
		return ret;
	t->tep = tracecmd_get_tep(t->h);
	t->ncpus = tep_get_cpus(t->tep);
	if (t->ncpus <= 0)
		return set_err(t->errbuf, "%s: the file does not say how many CPUs it traced", path);
	if (decoder_init(&t->dec, t->tep, t->errbuf)) {
		char why[ERRBUF_LEN];

		snprintf(why, sizeof(why), "%s", t->errbuf);
		return set_err(t->errbuf, "%s: %s (deferbench reads the softirq, workqueue, "
			       "sched, irq and napi events: trace-cmd record -C mono -e irq -e "
			       "workqueue -e sched -e napi)", path, why);
	}
	t->dec_ready = true;
	if (map_init(&t->named, 1, 1024) || map_init(&t->funcs_seen, 1, 256))
		return set_err(t->errbuf, "out of memory");
	for (k = 0; k < EV_NR; k++)
		t->missing[k] = !t->dec.present[k] && !ev_by_trigger(k);
	if (tracecmd_iterate_events(t->h, NULL, 0, on_record, t) < 0 && !t->err)
		return set_err(t->errbuf, "%s: reading the events failed", path);
	if (t->err)
		return t->err;
	if (!t->res_ready) {
		char list[1024];

		events_list(t, NULL, list, sizeof(list));
		return set_err(t->errbuf, "%s holds no events in buffer '%s'; deferbench reads: %s",
			       path, *t->bufname ? t->bufname : "top-level", list);
	}
	ret = events_check(t);
	if (ret)
		return ret;
	t->res.end_ts = t->last_ts;
	loss_read(t);
	if (symbols(t))
		return set_err(t->errbuf, "out of memory");
	result_finish(&t->res);
	return 0;
}

int tracedat_analyze(const char *path, const struct tracedat_opts *o, char *errbuf)
{
	struct td t = { .o = o, .path = path, .errbuf = errbuf };
	int ret, r;

	ret = td_run(&t, path);
	r = intervals_csv_close(t.iw);
	if (!ret) {
		output_print(&t.res, stdout, o->table);
		fflush(stdout);
		if (!r && o->outdir)
			r = result_write_dir(&t.res, o->outdir);
		if (r)
			ret = errno_msg(errbuf, r, "cannot write results: %s", strerror(-r));
	}
	if (t.res_ready)
		result_free(&t.res);
	if (t.dec_ready)
		decoder_free(&t.dec);
	map_free(&t.named);
	map_free(&t.funcs_seen);
	if (t.h && t.h != t.top)
		tracecmd_close(t.h);
	if (t.top)
		tracecmd_close(t.top);
	return ret;
}
