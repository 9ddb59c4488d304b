// SPDX-License-Identifier: GPL-2.0
/*
 * detail_csv.c - the files of record --slowest and --stacks (columns in
 * docs/results-format.md), and their readers into rundata.h's model:
 *
 *   slowest.csv    one row per slowest event: its group, rank, duration, time, CPU,
 *                  task, cause split and stack
 *   stacks.csv     one row per vector and stack: how it came to run, the call site, the
 *                  entries, their delay split into causes, their runtime, the stack
 *   stacks.folded  "VECTOR;outermost;...;handle_softirqs NS" per stack, weighted by the
 *                  delay it ended: the input of flame graph tools
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "csvw.h"
#include "detail_out.h"
#include "output.h"
#include "outw.h"
#include "result_files.h"
#include "grow.h"

struct slow_csv {
	struct csvw w;
	const struct stack_report *sr;
};

static void stack_cols(struct csvw *w, const struct stack_report *sr, uint32_t stack)
{
	const struct stack_view *v = stack && stack <= sr->nview ? &sr->view[stack - 1] : NULL;

	csvw_str(w, v ? stack_how_names[v->how] : "");
	csvw_str(w, v ? v->site : "");
	csvw_str(w, v ? v->folded : "");
}

static int slow_rows(void *ctx, const struct result *r, const struct slow_group *g,
		     const struct slow_ev *ev, uint32_t n)
{
	struct slow_csv *c = ctx;
	uint32_t i;
	int k;

	for (i = 0; i < n; i++) {
		csvw_str(&c->w, slow_kind_names[g->kind]);
		csvw_str(&c->w, g->name);
		csvw_str(&c->w, g->kind == SLOW_CTX ? g->context : g->func);
		csvw_str(&c->w, g->where);
		csvw_str(&c->w, slow_metric_names[g->metric]);
		csvw_u64(&c->w, i + 1);
		csvw_u64(&c->w, ev[i].ns);
		csvw_u64(&c->w, ev[i].ts);
		csvw_fixed(&c->w, slow_t_s(r, &ev[i]), 9);
		csvw_u64(&c->w, slow_interval(r, &ev[i]));
		csvw_i64(&c->w, ev[i].cpu);
		csvw_str(&c->w, ev[i].task);
		csvw_u64(&c->w, ev[i].ksoftirqd);
		for (k = 0; k < WAIT_NR; k++)
			if (ev[i].split)
				csvw_u64(&c->w, ev[i].part[k]);
			else
				csvw_str(&c->w, "");
		stack_cols(&c->w, c->sr, ev[i].stack);
		csvw_end(&c->w);
	}
	return c->w.err;
}

/* the columns of slowest.csv, in order (the cause columns come from sirq_cause_names) */
static const char *const slow_head[] = {
	"group", "name", "function", "where", "metric", "rank", "ns", "at_ns", "t_s",
	"interval", "cpu", "task", "ksoftirqd", NULL
};

static int write_slowest(const struct result *r, const struct stack_report *sr,
			 const char *path)
{
	static const char *const tail[] = { "how", "site", "stack", NULL };
	struct slow_csv c = { .sr = sr };
	char name[WAIT_NR][32];
	const char *causes[WAIT_NR + 1];
	int k, ret;

	for (k = 0; k < WAIT_NR; k++) {
		snprintf(name[k], sizeof(name[k]), "%s_ns", sirq_cause_names[k]);
		causes[k] = name[k];
	}
	causes[WAIT_NR] = NULL;
	ret = csvw_open(&c.w, path);
	if (ret)
		return ret;
	csvw_header(&c.w, slow_head);
	csvw_header(&c.w, causes);
	csvw_header(&c.w, tail);
	csvw_end(&c.w);
	ret = slow_each(r, slow_rows, &c);
	return csvw_close(&c.w) ?: ret;
}

static int write_stacks(const struct result *r, const struct stack_report *sr,
			const char *path)
{
	static const char *const head[] = { "vector", "how", "site", "count", "waits",
					    "wait_ns", NULL };
	static const char *const tail[] = { "runs", "run_ns", "long_runs", "long_run_ns",
					    "ksoftirqd", "stack", NULL };
	const struct detail *d = r->m.detail;
	char name[WAIT_NR][32];
	const char *causes[WAIT_NR + 1];
	struct csvw w;
	uint32_t i;
	int k, ret;

	for (k = 0; k < WAIT_NR; k++) {
		snprintf(name[k], sizeof(name[k]), "%s_ns", sirq_cause_names[k]);
		causes[k] = name[k];
	}
	causes[WAIT_NR] = NULL;
	ret = csvw_open(&w, path);
	if (ret)
		return ret;
	csvw_header(&w, head);
	csvw_header(&w, causes);
	csvw_header(&w, tail);
	csvw_end(&w);
	for (i = 0; i < d->nagg; i++) {
		const struct stack_agg *a = &d->agg[i];
		const struct stack_view *v = &sr->view[a->stack];

		csvw_str(&w, softirq_names[a->vec]);
		csvw_str(&w, stack_how_names[v->how]);
		csvw_str(&w, v->site);
		csvw_u64(&w, a->count);
		csvw_u64(&w, a->waits);
		csvw_u64(&w, a->wait_ns);
		for (k = 0; k < WAIT_NR; k++)
			csvw_u64(&w, a->part_ns[k]);
		csvw_u64(&w, a->runs);
		csvw_u64(&w, a->run_ns);
		csvw_u64(&w, a->long_runs);
		csvw_u64(&w, a->long_run_ns);
		csvw_u64(&w, a->ksoftirqd);
		csvw_str(&w, v->folded);
		csvw_end(&w);
	}
	return csvw_close(&w);
}

/* write_folded - one line per vector and stack with any delay: FlameGraph's input */
static int write_folded(const struct result *r, const struct stack_report *sr,
			const char *path)
{
	const struct detail *d = r->m.detail;
	FILE *f = out_fopen(path);
	uint32_t i;

	if (!f)
		return -errno;
	for (i = 0; i < d->nagg; i++) {
		const struct stack_agg *a = &d->agg[i];

		if (a->wait_ns)
			fprintf(f, "%s;%s %llu\n", softirq_names[a->vec], sr->view[a->stack].folded,
				(unsigned long long)a->wait_ns);
	}
	return fclose(f) ? -errno : 0;
}

int detail_write_csv(const struct result *r, const char *dir)
{
	const struct detail *d = r->m.detail;
	struct stack_report sr;
	char path[PATH_MAX];
	int ret;

	if (!d)
		return 0;
	ret = stack_report_build(r, &sr);
	if (ret)
		return ret;
	if (d->slowest) {
		snprintf(path, sizeof(path), "%s/slowest.csv", dir);
		ret = write_slowest(r, &sr, path);
	}
	if (!ret && d->stack_vecs) {
		snprintf(path, sizeof(path), "%s/stacks.csv", dir);
		ret = write_stacks(r, &sr, path);
		snprintf(path, sizeof(path), "%s/stacks.folded", dir);
		ret = ret ?: write_folded(r, &sr, path);
	}
	stack_report_free(&sr);
	return ret;
}

/* ---- stacks.csv read back (report's flame graphs) ---- */

enum { SC_VECTOR, SC_COUNT, SC_WAIT, SC_RUN, SC_LONG, SC_STACK, SC_NR };

static int stack_row(const struct csvr *c, void *ctx)
{
	static const uint64_t max_stack = 1 << 20;
	struct record *rec = ctx;
	struct stack_data *s, *ns;
	const char *text;
	int ret;

	ns = grow_array(rec->stacks, rec->nstacks, sizeof(*ns));
	if (!ns)
		return csvr_fail(c, "out of memory");
	rec->stacks = ns;
	s = &rec->stacks[rec->nstacks];
	ret = csvr_strcpy(c, SC_VECTOR, s->vector, sizeof(s->vector));
	ret = ret ?: csvr_u64(c, SC_COUNT, &s->count);
	ret = ret ?: csvr_u64(c, SC_WAIT, &s->wait_ns);
	ret = ret ?: csvr_u64(c, SC_RUN, &s->run_ns);
	ret = ret ?: csvr_u64(c, SC_LONG, &s->long_run_ns);
	if (ret)
		return ret;
	text = csvr_str(c, SC_STACK);
	if (strlen(text) > max_stack)
		return csvr_fail(c, "a stack of %zu bytes", strlen(text));
	s->folded = strdup(text);
	if (!s->folded)
		return csvr_fail(c, "out of memory");
	rec->nstacks++;
	return 0;
}

int detail_stacks_load(const char *path, struct record *rec, char *errbuf)
{
	static const char *const cols[] = { "vector", "count", "wait_ns", "run_ns",
					    "long_run_ns", "stack", NULL };

	return csvr_read(path, cols, stack_row, rec, errbuf);
}
