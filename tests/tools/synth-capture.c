// SPDX-License-Identifier: GPL-2.0
/*
 * synth-capture.c - write a raw capture (bench/capture/raw.h) from an event script, so
 * that event sequences of kernels that do not boot here (PREEMPT_RT's ktimers, rcuc,
 * irq_work and backlog_napi threads) go through the same decoder, merger, matcher and
 * writers as a recorded capture: `deferbench analyze OUTDIR`.
 *
 *   synth-capture [-F FORMATS] SCRIPT OUTDIR
 *
 * FORMATS (default tests/synth/formats) holds header_page and SYSTEM/EVENT format files
 * as tracefs has them (those of the development VM's 6.18). The script, one item a line
 * ('#' starts a comment):
 *   cpus N | start NS | duration NS | interval NS | kernel TEXT
 *   comm PID NAME             a task named at the capture's start (raw/comms)
 *   sym ADDR NAME             a function's symbol (raw/symbols)
 *   repeat N every NS ... done   the lines between, N times, NS apart (no nesting)
 *   T CPU PID FLAGS SYS:EVENT [FIELD=VALUE]...
 * T is ns after start (plus the repeat's offset); FLAGS are the event's common_flags
 * as letters, '-' for none: i irqs off, h hard irq, s serving a softirq, b bottom halves
 * disabled, n NMI (the kernel's TRACE_FLAG_* bits). A VALUE is a number (0x for hex,
 * negative allowed) or, for char[] and __data_loc fields, a string without spaces.
 * Fields left out are 0. Each CPU's events are written in time order into 4 KiB
 * sub-buffers, the ring buffer's layout (time deltas, time extends past 2^27 ns).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "format.h"
#include "msg.h"
#include "outw.h"
#include "raw.h"
#include "result.h"

#define SUBBUF 4096
#define MAX_CPUS 64
#define MAX_EVENTS 100000
#define MAX_REC 128

struct ev {
	uint64_t ts;
	int cpu;
	uint32_t seq;			/* script order, for a stable sort */
	uint16_t len;
	unsigned char data[MAX_REC];
};

struct synth {
	const char *fmtdir, *script;
	struct ev_format *fmt[EV_NR];
	char *ftext[EV_NR];
	int ncpus;
	uint64_t start, duration, interval;
	char kernel[128];
	struct comm_entry *comm;
	size_t ncomm;
	char *syms;			/* "addr T name\n" lines */
	size_t symlen;
	struct ev *ev;
	size_t nev;
	uint64_t records[MAX_CPUS];
	unsigned int line;
};

static int err(struct synth *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int err(struct synth *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "synth-capture: %s:%u: ", s->script, s->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

/* num - a whole number, decimal or 0x hex, possibly negative; the whole string */
static int num(const char *t, long long *v)
{
	char *end;

	if (!*t)
		return -EINVAL;
	errno = 0;
	*v = *t == '-' ? strtoll(t, &end, 0) : (long long)strtoull(t, &end, 0);
	return *end || errno ? -EINVAL : 0;
}

static int load_formats(struct synth *s)
{
	char path[PATH_MAX], e[ERRBUF_LEN];
	int k;

	for (k = 0; k < EV_NR; k++) {
		if (ev_by_trigger(k))
			continue;
		snprintf(path, sizeof(path), "%.4000s/%s/%s", s->fmtdir, ev_names[k].system,
			 ev_names[k].name);
		s->ftext[k] = read_whole_file(path, NULL);
		if (!s->ftext[k])
			continue;
		s->fmt[k] = calloc(1, sizeof(*s->fmt[k]));
		if (!s->fmt[k])
			return -ENOMEM;
		if (format_parse(s->ftext[k], strlen(s->ftext[k]), s->fmt[k], e)) {
			fprintf(stderr, "synth-capture: %s: %s\n", path, e);
			return -EINVAL;
		}
	}
	return 0;
}

static void put(unsigned char *p, unsigned int size, long long v)
{
	uint64_t u = (uint64_t)v;

	memcpy(p, &u, size);	/* little-endian host: the low bytes */
}

/* encode - one event line's record: common fields, then FIELD=VALUE words */
static int encode(struct synth *s, struct ev *e, int k, int pid, unsigned int flags,
		  char **words, int nw)
{
	const struct ev_format *f = s->fmt[k];
	unsigned int fixed = 0, dyn, i;
	long long v;
	int w, j;

	for (j = 0; j < f->nfields; j++)
		if (f->field[j].offset + f->field[j].size > fixed)
			fixed = f->field[j].offset + f->field[j].size;
	memset(e->data, 0, sizeof(e->data));
	put(e->data, 2, f->id);
	e->data[2] = (unsigned char)flags;
	put(e->data + 4, 4, pid);
	dyn = (fixed + 3) & ~3U;
	for (w = 0; w < nw; w++) {
		char *eq = strchr(words[w], '=');
		const struct fmt_field *fl = NULL;
		size_t nlen;

		if (!eq)
			return err(s, "'%s': not FIELD=VALUE", words[w]);
		*eq = '\0';
		for (j = 0; j < f->nfields && !fl; j++) {
			nlen = strcspn(f->field[j].name, "[");
			if (strlen(words[w]) == nlen && !strncmp(f->field[j].name, words[w], nlen) &&
			    strncmp(words[w], "common_", 7))
				fl = &f->field[j];
		}
		if (!fl)
			return err(s, "%s has no field '%s'", ev_names[k].id, words[w]);
		if (!strncmp(fl->type, "__data_loc", 10)) {
			size_t len = strlen(eq + 1) + 1;

			if (dyn + len > MAX_REC)
				return err(s, "the record of %s grows too long", ev_names[k].id);
			memcpy(e->data + dyn, eq + 1, len);
			put(e->data + fl->offset, 4, (long long)((len << 16) | dyn));
			dyn += (unsigned int)len;
		} else if (strchr(fl->name, '[')) {
			strncpy((char *)e->data + fl->offset, eq + 1, fl->size);
		} else if (num(eq + 1, &v) || fl->size > 8) {
			return err(s, "%s=%s: not a number", words[w], eq + 1);
		} else {
			put(e->data + fl->offset, fl->size, v);
		}
	}
	i = (dyn + 3) & ~3U;
	e->len = (uint16_t)i;
	return 0;
}

static int event_line(struct synth *s, char **w, int nw, uint64_t off)
{
	static const struct {
		char c;
		unsigned int bit;
	} fl[] = { { 'i', 0x01 }, { 'h', 0x08 }, { 's', 0x10 }, { 'n', 0x40 }, { 'b', 0x80 } };
	long long t, cpu, pid;
	unsigned int flags = 0;
	struct ev *e;
	const char *c;
	size_t i;
	int k;

	if (nw < 5 || num(w[0], &t) || t < 0 || num(w[1], &cpu) || num(w[2], &pid))
		return err(s, "want T CPU PID FLAGS SYS:EVENT [FIELD=VALUE]...");
	if (cpu < 0 || cpu >= s->ncpus)
		return err(s, "CPU %lld: the capture has %d", cpu, s->ncpus);
	for (c = w[3]; strcmp(w[3], "-") && *c; c++) {
		for (i = 0; i < ARRAY_SIZE(fl) && fl[i].c != *c; i++)
			;
		if (i == ARRAY_SIZE(fl))
			return err(s, "flag '%c': want i, h, s, n, b or -", *c);
		flags |= fl[i].bit;
	}
	for (k = 0; k < EV_NR && strcmp(ev_names[k].id, w[4]); k++)
		;
	if (k == EV_NR || !s->fmt[k])
		return err(s, "'%s': no such event in %s", w[4], s->fmtdir);
	if (s->nev == MAX_EVENTS)
		return err(s, "more than %d events", MAX_EVENTS);
	e = &s->ev[s->nev];
	e->ts = s->start + off + (uint64_t)t;
	e->cpu = (int)cpu;
	e->seq = (uint32_t)s->nev;
	if (e->ts > s->start + s->duration)
		return err(s, "at %llu ns: after the capture's end", (unsigned long long)(off + t));
	if (encode(s, e, k, (int)pid, flags, w + 5, nw - 5))
		return -EINVAL;
	s->nev++;
	return 0;
}

/* split - the words of a line, in place; returns how many (at most max) */
static int split(char *line, char **w, int max)
{
	int n = 0;
	char *save = NULL, *t;

	line[strcspn(line, "#\n")] = '\0';
	for (t = strtok_r(line, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	return n;
}

static int header_line(struct synth *s, char **w, int n)
{
	long long v;
	int i;

	if (!strcmp(w[0], "kernel")) {
		s->kernel[0] = '\0';
		for (i = 1; i < n; i++)
			snprintf(s->kernel + strlen(s->kernel), sizeof(s->kernel) - strlen(s->kernel),
				 "%s%s", i > 1 ? " " : "", w[i]);
		return 0;
	}
	/* a kernel address is a negative long long: only sym takes one */
	if (n < 2 || num(w[1], &v) || (v < 0 && strcmp(w[0], "sym")))
		return err(s, "%s: want a number", w[0]);
	if (!strcmp(w[0], "cpus") && v >= 1 && v <= MAX_CPUS)
		s->ncpus = (int)v;
	else if (!strcmp(w[0], "start") && v > 0)
		s->start = (uint64_t)v;
	else if (!strcmp(w[0], "duration") && v > 0)
		s->duration = (uint64_t)v;
	else if (!strcmp(w[0], "interval") && v > 0)
		s->interval = (uint64_t)v;
	else if (!strcmp(w[0], "comm") && n == 3) {
		struct comm_entry *c = realloc(s->comm, (s->ncomm + 1) * sizeof(*c));

		if (!c)
			return -ENOMEM;
		s->comm = c;
		c[s->ncomm].pid = (int)v;
		snprintf(c[s->ncomm].comm, sizeof(c[s->ncomm].comm), "%s", w[2]);
		s->ncomm++;
	} else if (!strcmp(w[0], "sym") && n == 3) {
		char *p = realloc(s->syms, s->symlen + 160);

		if (!p)
			return -ENOMEM;
		s->syms = p;
		s->symlen += (size_t)snprintf(p + s->symlen, 160, "%llx T %.128s\n",
					      (unsigned long long)v, w[2]);
	} else {
		return err(s, "'%s %s': unknown or out of range", w[0], w[1]);
	}
	return 0;
}

static int read_script(struct synth *s)
{
	char **lines = NULL, *text = read_whole_file(s->script, NULL), *save = NULL, *l;
	long long reps = 0, every = 0, r;
	size_t nl = 0, i, body = 0;
	char *w[64];
	int n, ret = 0;

	if (!text) {
		fprintf(stderr, "synth-capture: cannot read %s: %s\n", s->script, strerror(errno));
		return -errno;
	}
	/* keep the lines (strtok_r cuts them) to replay a repeat's body */
	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char **nl2 = realloc(lines, (nl + 1) * sizeof(*lines));

		if (!nl2) {
			ret = -ENOMEM;
			goto out;
		}
		lines = nl2;
		lines[nl++] = l;
	}
	for (i = 0; !ret && i < nl; i++) {
		char buf[1024];

		s->line = (unsigned int)i + 1;
		snprintf(buf, sizeof(buf), "%s", lines[i]);
		n = split(buf, w, ARRAY_SIZE(w));
		if (!n)
			continue;
		if (!strcmp(w[0], "repeat")) {
			if (reps || n != 4 || strcmp(w[2], "every") || num(w[1], &reps) || reps < 1 ||
			    num(w[3], &every) || every < 1)
				ret = err(s, "want 'repeat N every NS' (not nested)");
			body = i + 1;
		} else if (!strcmp(w[0], "done")) {
			if (!reps)
				ret = err(s, "'done' without 'repeat'");
			for (r = 0; !ret && r < reps; r++) {
				size_t j;

				for (j = body; !ret && j < i; j++) {
					s->line = (unsigned int)j + 1;
					snprintf(buf, sizeof(buf), "%s", lines[j]);
					n = split(buf, w, ARRAY_SIZE(w));
					if (n)
						ret = event_line(s, w, n, (uint64_t)(r * every));
				}
			}
			reps = 0;
		} else if (reps) {
			continue;	/* the body: replayed at 'done' */
		} else if ((w[0][0] >= '0' && w[0][0] <= '9')) {
			ret = event_line(s, w, n, 0);
		} else {
			ret = header_line(s, w, n);
		}
	}
	if (!ret && reps)
		ret = err(s, "'repeat' without 'done'");
out:
	free(lines);
	free(text);
	return ret;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : 1;
}

/* write_cpu - CPU c's events (sorted, from *i on) into sub-buffers of cpuC.dat */
static int write_cpu(struct synth *s, const char *rawdir, int c, size_t *i)
{
	unsigned char page[SUBBUF];
	char path[PATH_MAX];
	uint64_t last = 0;
	unsigned int used = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%.4000s/cpu%d.dat", rawdir, c);
	f = out_fopen(path);
	if (!f)
		return -errno;
	for (; *i < s->nev && s->ev[*i].cpu == c; (*i)++) {
		const struct ev *e = &s->ev[*i];
		uint64_t delta = used ? e->ts - last : 0;
		unsigned int need = 4 + e->len + (delta >> 27 ? 8 : 0);
		uint32_t hdr;

		if (used && SUBBUF - 16 - used < need) {
			memcpy(page + 8, &(uint64_t){ used }, 8);
			if (fwrite(page, SUBBUF, 1, f) != 1)
				break;
			used = 0;
			delta = 0;
		}
		if (!used) {
			memset(page, 0, sizeof(page));
			memcpy(page, &e->ts, 8);
		} else if (delta >> 27) {
			/* TIME_EXTEND: the low 27 bits in the header, the rest after it */
			hdr = 30 | (uint32_t)((delta & ((1U << 27) - 1)) << 5);
			memcpy(page + 16 + used, &hdr, 4);
			memcpy(page + 16 + used + 4, &(uint32_t){ (uint32_t)(delta >> 27) }, 4);
			used += 8;
			delta = 0;
		}
		hdr = (uint32_t)(e->len / 4) | (uint32_t)(delta << 5);
		memcpy(page + 16 + used, &hdr, 4);
		memcpy(page + 16 + used + 4, e->data, e->len);
		used += 4 + e->len;
		last = e->ts;
		s->records[c]++;
	}
	if (used) {
		memcpy(page + 8, &(uint64_t){ used }, 8);
		if (fwrite(page, SUBBUF, 1, f) != 1)
			errno = EIO;
	}
	return fclose(f) || (*i < s->nev && s->ev[*i].cpu == c) ? -EIO : 0;
}

static int write_raw(struct synth *s, const char *rawdir)
{
	char path[PATH_MAX], *header;
	struct result r;
	size_t i = 0, hlen;
	FILE *f;
	int c, k, ret;

	for (k = 0; k < s->ncpus; k++)
		s->records[k] = 0;
	ret = out_mkdir(rawdir);
	snprintf(path, sizeof(path), "%.4000s/header_page", s->fmtdir);
	header = read_whole_file(path, &hlen);
	if (!header)
		return -errno;
	ret = ret ?: raw_save_formats(rawdir, header, hlen, s->ftext);
	free(header);
	qsort(s->ev, s->nev, sizeof(*s->ev), ev_cmp);
	for (c = 0; !ret && c < s->ncpus; c++)
		ret = write_cpu(s, rawdir, c, &i);
	ret = ret ?: raw_save_comms(rawdir, s->comm, s->ncomm);
	if (!ret) {
		snprintf(path, sizeof(path), "%.4000s/symbols", rawdir);
		f = out_fopen(path);
		if (!f || (s->symlen && fwrite(s->syms, s->symlen, 1, f) != 1) || fclose(f))
			ret = -EIO;
	}
	if (ret || result_init(&r, s->ncpus, s->start, s->interval, NULL, NULL))
		return ret ?: -ENOMEM;
	r.end_ts = s->start + s->duration;
	r.meta.buffer_kb = 4096;
	snprintf(r.meta.kernel, sizeof(r.meta.kernel), "%s", s->kernel);
	snprintf(r.meta.hostname, sizeof(r.meta.hostname), "synth");
	snprintf(r.meta.started, sizeof(r.meta.started), "2026-12-07T00:00:00Z");
	snprintf(r.meta.command, sizeof(r.meta.command), "synth-capture %s", s->script);
	snprintf(r.meta.sched_events, sizeof(r.meta.sched_events), "deferred");
	for (c = 0; c < s->ncpus; c++)
		r.loss[c].read_events = s->records[c];
	ret = raw_save_meta(rawdir, &r, SUBBUF);
	result_free(&r);
	return ret;
}

int main(int argc, char **argv)
{
	struct synth s = { .fmtdir = "tests/synth/formats", .ncpus = 2, .start = 1000000000,
			   .duration = 1000000000, .interval = 1000000000 };
	char e[ERRBUF_LEN], raw[PATH_MAX];
	struct outw w;
	int ret, k;

	if (argc == 5 && !strcmp(argv[1], "-F")) {
		s.fmtdir = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: synth-capture [-F FORMATS] SCRIPT OUTDIR\n");
		return 2;
	}
	s.script = argv[1];
	snprintf(s.kernel, sizeof(s.kernel), "synthesized");
	s.ev = calloc(MAX_EVENTS, sizeof(*s.ev));
	ret = s.ev ? load_formats(&s) : -ENOMEM;
	ret = ret ?: read_script(&s);
	if (!ret && outw_open(&w, argv[2], &(struct outw_opts){ .kind = OUTW_DIR,
			      .by = "synth-capture", .force = true,
			      .inputs = (const char *const[]){ s.script, NULL } }, e)) {
		fprintf(stderr, "synth-capture: %s\n", e);
		ret = -EINVAL;
	}
	if (!ret) {
		snprintf(raw, sizeof(raw), "%.4000s/raw", outw_dir(&w));
		ret = write_raw(&s, raw);
		if (ret) {
			fprintf(stderr, "synth-capture: writing %s: %s\n", argv[2], strerror(-ret));
			outw_abort(&w);
		} else if (outw_commit(&w, e)) {
			fprintf(stderr, "synth-capture: %s\n", e);
			ret = -EIO;
		}
	}
	for (k = 0; k < EV_NR; k++) {
		free(s.fmt[k]);
		free(s.ftext[k]);
	}
	free(s.ev);
	free(s.comm);
	free(s.syms);
	return ret ? 1 : 0;
}
