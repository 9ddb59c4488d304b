// SPDX-License-Identifier: GPL-2.0
/*
 * segment_load.c - a segment of an alternating run read back as its arms' blocks.
 *
 * A segment directory holds one capture and one workload run across every phase
 * (summary.json and the rest cover all arms together) and phases.csv. Each usable phase
 * is one arm in one block; its intervals - those of intervals.csv and
 * workload-intervals.csv that lie wholly in the phase's measured part [settled, end),
 * on the trace clock and CLOCK_MONOTONIC, which are the same clock (trace_clock mono) -
 * become one struct cell: workload = the segment's, config = the arm's, rep = the
 * block, control for the capture-off arm. Report, compare and advise then see blocks
 * as repetitions; cells of one segment carry its id, so that compare pairs an arm's
 * block with the reference arm's block of the same minutes (alt_block).
 *
 * What a phase's cell holds: the softirq (all CPUs), workqueue, context and workload
 * histograms, merged from the phase's intervals (counts and percentiles exact to the
 * bucket, min and max to the bucket width), and the intervals themselves. What the
 * capture keeps only for its whole length - per-CPU figures, the workload's counters -
 * belongs to no single arm and is left out of the arms' cells. The causes of softirq
 * delay, where each delay was raised and the tasks whose BH-disabled sections held it
 * (kind softirq_wait; metrics delay, origin, bh_task), a workqueue item's activate and
 * worker waits (metrics activate_wait, worker_wait) and the thread wakeups (kind wakeup)
 * are kept per interval, so each arm has its own, their statistics to the bucket width;
 * a segment captured before one of them was has none of it. The loss and unmatched
 * counts are the segment's, on every arm.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvread.h"
#include "jsonread.h"
#include "map.h"
#define DEFERBENCH_ALLOW_RUN_READ_INT_H
#include "run_read_int.h"
#include "rundir.h"
#include "grow.h"
#include "msg.h"
#include "parse.h"
#include "file.h"

#define SEG_MAX_ARMS 33

struct seg_arm {
	char config[NAME_LEN];
	bool traced;
	struct kv *knobs, *opts;
	size_t nknobs, nopts;
	bool has_loads;			/* its own loads (older runs: the segment's) */
	char loads[CELL_MAX_LOADS][NAME_LEN];
	size_t nloads;
};

struct seg {
	const char *path;		/* cell.json, for messages */
	char id[2 * NAME_LEN + 16];
	/*
	 * the key cells of the segment pair by: the run's directory (hashed) and the group (the id
	 * without its "--aN"), so that a group's later segments (run --until-decided)
	 * number their blocks on and pair with the first's, and no other run's cells pair
	 */
	char group[sizeof(((struct cell *)0)->segment)];
	char workload[NAME_LEN];
	char status[32];
	char error[TEXT_LEN];
	struct seg_arm arm[SEG_MAX_ARMS];
	int narms;
	unsigned int blocks, first_block;
	struct primary_list primary;
	char loads[CELL_MAX_LOADS][NAME_LEN];
	size_t nloads;
	struct record rec;		/* the whole segment */
	bool arm_wakeups;		/* its arms have their thread wakeups */
};

struct seg_phase {
	unsigned int block;
	int arm;
	uint64_t settled, end;
	bool ok;
};

struct phase_list {
	struct seg_phase *p;
	size_t n, cap;
	const struct seg *seg;
};

static void seg_free(struct seg *s)
{
	int a;

	for (a = 0; a < s->narms; a++) {
		free(s->arm[a].knobs);
		free(s->arm[a].opts);
	}
	record_free(&s->rec);
}

/* read_arms - cell.json's arms: config, traced, knobs as read back, options */
static int read_arms(const struct jr *j, struct json_object *root, struct seg *s)
{
	struct json_object *arr, *e;
	char where[32];
	size_t i;
	int ret;

	ret = jr_get(j, root, "", "arms", json_type_array, &arr);
	if (ret)
		return ret;
	if (json_object_array_length(arr) < 2 || json_object_array_length(arr) > SEG_MAX_ARMS)
		return jr_fail(j, "", "arms", "has %zu arms; a segment has 2 to %d",
			       json_object_array_length(arr), SEG_MAX_ARMS);
	s->narms = (int)json_object_array_length(arr);
	for (i = 0; !ret && i < (size_t)s->narms; i++) {
		struct seg_arm *a = &s->arm[i];

		snprintf(where, sizeof(where), "arms[%zu]", i);
		e = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(e, json_type_object))
			return jr_fail(j, "", where, "is not an object");
		ret = jr_str(j, e, where, "config", a->config, sizeof(a->config));
		ret = ret ?: jr_bool(j, e, where, "traced", &a->traced);
		ret = ret ?: jr_kv(j, e, "knobs", &a->knobs, &a->nknobs);
		if (!ret && jr_has(e, "options"))
			ret = jr_kv(j, e, "options", &a->opts, &a->nopts);
		a->has_loads = !ret && jr_has(e, "loads");
		if (a->has_loads)
			ret = jr_strings(j, e, where, "loads", a->loads[0], sizeof(a->loads[0]),
					 CELL_MAX_LOADS, &a->nloads);
	}
	return ret;
}

/* seg_json_load - the segment's cell.json (SEGMENT_SCHEMA) */
static int seg_json_load(const char *path, struct seg *s, char *errbuf)
{
	struct jr j = { .path = path, .errbuf = errbuf };
	struct json_object *root;
	int blocks, first, ret;

	ret = jr_load(&j, &root);
	if (ret)
		return ret;
	ret = jr_schema(&j, root, SEGMENT_SCHEMA);
	ret = ret ?: jr_str(&j, root, "", "workload", s->workload, sizeof(s->workload));
	ret = ret ?: read_arms(&j, root, s);
	ret = ret ?: jr_int(&j, root, "", "blocks", 1, 100000, &blocks);
	ret = ret ?: jr_int(&j, root, "", "first_block", 1, 1000000, &first);
	ret = ret ?: jr_strings(&j, root, "", "primary", s->primary.id[0],
				sizeof(s->primary.id[0]), PRIMARY_MAX, &s->primary.n);
	ret = ret ?: jr_strings(&j, root, "", "loads", s->loads[0], sizeof(s->loads[0]),
				CELL_MAX_LOADS, &s->nloads);
	ret = ret ?: jr_str(&j, root, "", "status", s->status, sizeof(s->status));
	ret = ret ?: jr_scalar_text(&j, root, "", "error", s->error, sizeof(s->error));
	json_object_put(root);
	s->blocks = (unsigned int)blocks;
	s->first_block = (unsigned int)first;
	return ret;
}

enum { PC_BLOCK, PC_ARM, PC_CONFIG, PC_TRACED, PC_START, PC_SETTLED, PC_END, PC_STATUS };
static const char *const phase_cols[] = {
	"block", "arm", "config", "traced", "start_ns", "settled_ns", "end_ns", "status", NULL
};

static int phase_row(const struct csvr *r, void *ctx)
{
	struct phase_list *pl = ctx;
	const struct seg *s = pl->seg;
	struct seg_phase p = { 0 };
	uint64_t block, start;
	int arm, ret;

	ret = csvr_u64(r, PC_BLOCK, &block);
	ret = ret ?: csvr_int(r, PC_ARM, 0, s->narms - 1, &arm);
	ret = ret ?: csvr_u64(r, PC_START, &start);
	ret = ret ?: csvr_u64(r, PC_SETTLED, &p.settled);
	ret = ret ?: csvr_u64(r, PC_END, &p.end);
	if (ret)
		return ret;
	if (block < s->first_block || block >= (uint64_t)s->first_block + s->blocks)
		return csvr_fail(r, "column 'block': %llu is outside the segment's blocks %u-%u",
				 (unsigned long long)block, s->first_block,
				 s->first_block + s->blocks - 1);
	if (strcmp(csvr_str(r, PC_CONFIG), s->arm[arm].config))
		return csvr_fail(r, "column 'config': arm %d is %s, not %s", arm,
				 s->arm[arm].config, csvr_str(r, PC_CONFIG));
	if (!(start <= p.settled && p.settled < p.end))
		return csvr_fail(r, "start_ns <= settled_ns < end_ns does not hold");
	if (pl->n && p.settled < pl->p[pl->n - 1].end)
		return csvr_fail(r, "the phase overlaps the one before it");
	p.block = (unsigned int)block;
	p.arm = arm;
	p.ok = !strcmp(csvr_str(r, PC_STATUS), "ok");
	if (GROW(pl->p, pl->cap, pl->n + 1))
		return errno_msg(r->errbuf, -ENOMEM, "%s: out of memory", r->path);
	pl->p[pl->n++] = p;
	return 0;
}

/* phase_of - the phase whose measured part holds [t, t + iv), or -1 */
static long phase_of(const struct phase_list *pl, uint64_t t, uint64_t iv)
{
	size_t lo = 0, hi = pl->n;

	while (lo < hi) {		/* the first phase ending after t */
		size_t mid = (lo + hi) / 2;

		if (pl->p[mid].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == pl->n || !pl->p[lo].ok || t < pl->p[lo].settled || t + iv > pl->p[lo].end)
		return -1;
	return (long)lo;
}

/* buckets_add - src's buckets added into dst (both sorted by lo, as the files are) */
static int buckets_add(struct bucketlist *dst, const struct bucketlist *src)
{
	struct bucketlist out = { 0 };
	size_t a = 0, b = 0;
	int ret = 0;

	if (!dst->n) {
		for (b = 0; !ret && b < src->n; b++)
			ret = bucketlist_add(dst, src->b[b].lo, src->b[b].hi, src->b[b].count);
		return ret;
	}
	while (!ret && (a < dst->n || b < src->n)) {
		if (b == src->n || (a < dst->n && dst->b[a].lo < src->b[b].lo)) {
			ret = bucketlist_add(&out, dst->b[a].lo, dst->b[a].hi, dst->b[a].count);
			a++;
		} else if (a == dst->n || src->b[b].lo < dst->b[a].lo) {
			ret = bucketlist_add(&out, src->b[b].lo, src->b[b].hi, src->b[b].count);
			b++;
		} else {
			ret = bucketlist_add(&out, dst->b[a].lo, dst->b[a].hi,
					     dst->b[a].count + src->b[b].count);
			a++;
			b++;
		}
	}
	bucketlist_free(dst);
	*dst = out;
	return ret;
}

/* stats_of - the statistics of a bucket list (values at the bucket midpoints) */
static void stats_of(const struct bucketlist *bl, struct hist_stats *st)
{
	struct hist *h = malloc(sizeof(*h));

	memset(st, 0, sizeof(*st));
	if (!h)
		return;
	hist_init(h);
	buckets_to_hist(bl, NULL, h);
	hist_get_stats(h, st);
	free(h);
}

/*
 * split_series - every interval of the segment's series in a usable phase into the
 * cell of that phase's arm and block (cells[phase]): into its own series, numbered
 * from the phase's first measured interval
 */
static int split_series(const struct seg *s, const struct phase_list *pl, struct cell *cells,
			bool workload, char *errbuf)
{
	uint64_t origin, iv;
	size_t i, k;

	if (workload) {
		origin = s->rec.wl.interval_origin_ns;
		iv = (uint64_t)llround(s->rec.wl.interval_s * 1e9);
	} else {
		origin = s->rec.cap.interval_origin_ns;
		iv = (uint64_t)llround(s->rec.cap.interval_s * 1e9);
	}
	if (!iv || !origin)
		return set_err(errbuf, "%s: the segment's %s has no interval origin: it cannot be "
			       "split into its phases", s->path,
			       workload ? "workload.json" : "summary.json");
	for (i = 0; i < s->rec.nser; i++) {
		const struct ival_series *src = &s->rec.ser[i];

		if ((src->src == IV_WORKLOAD) != workload)
			continue;
		for (k = 0; k < src->n; k++) {
			struct ival_series *dst;
			struct bucketlist *bl;
			long p;

			if (!src->iv[k].n)
				continue;
			p = phase_of(pl, origin + k * iv, iv);
			if (p < 0 || (!workload && !s->arm[pl->p[p].arm].traced))
				continue;
			dst = record_series(&cells[p].rec, src->src, src->name, src->func,
					    src->pool, src->metric, true);
			/* numbered from the phase's first measured interval: no empty ones before */
			bl = dst ? record_series_at(dst, k - (pl->p[p].settled - origin) / iv) : NULL;
			if (!bl || buckets_add(bl, &src->iv[k]))
				return errno_msg(errbuf, -ENOMEM, "%s: out of memory", s->path);
		}
	}
	return 0;
}

/* merged - all intervals of a series of rec into one bucket list */
static int merged(const struct ival_series *sr, struct bucketlist *out)
{
	size_t k;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (k = 0; !ret && k < sr->n; k++)
		ret = buckets_add(out, &sr->iv[k]);
	return ret;
}

/* ctx_count_of - runs of context (kind, name, where) in a phase cell: its runtime count */
static uint64_t ctx_runs(const struct record *rec, const char *kind, const char *name,
			 const char *where)
{
	size_t i;

	for (i = 0; i < rec->nctx; i++)
		if (!strcmp(rec->ctx[i].context, kind) && !strcmp(rec->ctx[i].name, name) &&
		    !strcmp(rec->ctx[i].where, where))
			return rec->ctx[i].st[SM_RUNTIME].count;
	return 0;
}

/* ser_stats - a series merged into h[metric] (taken) with its statistics */
static int ser_stats(const struct ival_series *sr, struct bucketlist *h, struct hist_stats *st)
{
	int ret = merged(sr, h);

	if (!ret)
		stats_of(h, st);
	return ret;
}

/* bucket_sum - the values of a bucket list (at the bucket midpoints) */
static uint64_t bucket_sum(const struct bucketlist *bl)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < bl->n; i++)
		sum += (double)bl->b[i].count * ((double)bl->b[i].lo + (double)bl->b[i].hi) / 2;
	return (uint64_t)llround(sum);
}

/*
 * wait_series - one cause of a vector's delays (or "all": the delays split), one origin
 * or one BH-disabling task of a phase cell into its softirq_wait; totals to the bucket
 * width (0.78%)
 */
static int wait_series(const struct ival_series *sr, struct record *rec, size_t *cap)
{
	struct bucketlist bl;
	struct wait_data *d = NULL;
	struct wait_task_data *t;
	struct hist_stats st;
	struct wait_part *c;
	size_t k;
	int ret;

	for (k = 0; k < rec->nwait; k++)
		if (!strcmp(rec->wait[k].vector, sr->name))
			d = &rec->wait[k];
	if (!d) {
		if (GROW(rec->wait, *cap, rec->nwait + 1))
			return -ENOMEM;
		d = &rec->wait[rec->nwait++];
		memset(d, 0, sizeof(*d));
		snprintf(d->vector, sizeof(d->vector), "%s", sr->name);
	}
	ret = merged(sr, &bl);
	if (ret)
		return ret;
	if (sr->metric == IW_BH_TASK) {
		if (d->ntask < WAIT_TASKS_KEPT) {
			t = &d->task[d->ntask++];
			snprintf(t->task, sizeof(t->task), "%.*s", (int)sizeof(t->task) - 1,
				 sr->func);
			stats_of(&bl, &st);
			t->delays = bucketlist_count(&bl);
			t->total_ns = bucket_sum(&bl);
			t->max_ns = st.max;
		}
	} else if (sr->metric == IW_DELAY && !strcmp(sr->func, "all")) {
		d->delays = bucketlist_count(&bl);
		d->delay_ns = bucket_sum(&bl);
	} else if (sr->metric == IW_ORIGIN ? d->norigin < WAIT_PARTS_MAX :
		   d->ncause < WAIT_PARTS_MAX) {
		c = sr->metric == IW_ORIGIN ? &d->origin[d->norigin++] : &d->cause[d->ncause++];
		snprintf(c->name, sizeof(c->name), "%.*s", (int)sizeof(c->name) - 1, sr->func);
		c->delays = bucketlist_count(&bl);
		c->total_ns = bucket_sum(&bl);
		/* as summary.json: an origin's delays have no statistics of a part */
		if (sr->metric == IW_DELAY)
			stats_of(&bl, &c->st);
	}
	bucketlist_free(&bl);
	return 0;
}

/* wake_series - a thread's (or a pool's) wakeups of the phase into the cell's */
static int wake_series(const struct ival_series *sr, struct record *rec, size_t *cap)
{
	struct bucketlist bl = { 0 };
	struct wake_data *d;
	int k = sr->metric, ret;

	if (k < 0 || k >= WK_NR)
		return -EINVAL;
	if (GROW(rec->wake[k], cap[k], rec->nwake[k] + 1))
		return -ENOMEM;
	d = &rec->wake[k][rec->nwake[k]];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", sr->pool);
	d->cpu = -1;
	if (k == WK_KSOFTIRQD && parse_int(sr->pool, 0, INT_MAX, &d->cpu, NULL))
		return -EINVAL;		/* ivfile.c refused it already */
	ret = ser_stats(sr, &bl, &d->st);
	bucketlist_free(&bl);
	if (!ret && d->st.count)
		rec->nwake[k]++;
	return ret;
}

/* build_groups - a phase cell's softirq, workqueue, context and workload groups */
static int build_groups(const struct seg *s, struct record *rec)
{
	size_t i, cap[5] = { 0 }, wake_cap[WK_NR] = { 0 };
	int ret = 0;

	for (i = 0; !ret && i < rec->nser; i++) {
		const struct ival_series *sr = &rec->ser[i];

		switch (sr->src) {
		case IV_SOFTIRQ: {
			struct sirq_data *d = NULL;
			size_t k;

			for (k = 0; k < rec->nsirq; k++)
				if (!strcmp(rec->sirq[k].vector, sr->name))
					d = &rec->sirq[k];
			if (!d) {
				if (GROW(rec->sirq, cap[0], rec->nsirq + 1))
					return -ENOMEM;
				d = &rec->sirq[rec->nsirq++];
				memset(d, 0, sizeof(*d));
				snprintf(d->vector, sizeof(d->vector), "%s", sr->name);
				d->cpu = -1;
			}
			ret = ser_stats(sr, &d->h[sr->metric], &d->st[sr->metric]);
			break;
		}
		case IV_WQ: {
			struct wq_data *d = NULL;
			size_t k;

			for (k = 0; k < rec->nwq; k++)
				if (!strcmp(rec->wq[k].wq, sr->name) && !strcmp(rec->wq[k].func, sr->func) &&
				    !strcmp(rec->wq[k].pool, sr->pool))
					d = &rec->wq[k];
			if (!d) {
				if (GROW(rec->wq, cap[1], rec->nwq + 1))
					return -ENOMEM;
				d = &rec->wq[rec->nwq++];
				memset(d, 0, sizeof(*d));
				snprintf(d->wq, sizeof(d->wq), "%s", sr->name);
				snprintf(d->func, sizeof(d->func), "%s", sr->func);
				snprintf(d->pool, sizeof(d->pool), "%s", sr->pool);
			}
			ret = ser_stats(sr, &d->h[sr->metric], &d->st[sr->metric]);
			break;
		}
		case IV_CONTEXT: {
			struct ctx_data *d = NULL;
			size_t k;

			for (k = 0; k < rec->nctx; k++)
				if (!strcmp(rec->ctx[k].context, sr->func) &&
				    !strcmp(rec->ctx[k].name, sr->name) &&
				    !strcmp(rec->ctx[k].where, sr->pool))
					d = &rec->ctx[k];
			if (!d) {
				if (GROW(rec->ctx, cap[2], rec->nctx + 1))
					return -ENOMEM;
				d = &rec->ctx[rec->nctx++];
				memset(d, 0, sizeof(*d));
				snprintf(d->context, sizeof(d->context), "%.*s", (int)sizeof(d->context) - 1,
					 sr->func);
				snprintf(d->name, sizeof(d->name), "%s", sr->name);
				snprintf(d->where, sizeof(d->where), "%s", sr->pool);
			}
			ret = ser_stats(sr, &d->h[sr->metric], &d->st[sr->metric]);
			break;
		}
		case IV_WORKLOAD: {
			struct wl_metric_data *d;
			size_t k;

			if (GROW(rec->wl.m, cap[3], rec->wl.nm + 1))
				return -ENOMEM;
			d = &rec->wl.m[rec->wl.nm++];
			memset(d, 0, sizeof(*d));
			snprintf(d->name, sizeof(d->name), "%s", sr->name);
			snprintf(d->unit, sizeof(d->unit), "ns");
			for (k = 0; k < s->rec.wl.nm; k++)
				if (!strcmp(s->rec.wl.m[k].name, sr->name))
					snprintf(d->desc, sizeof(d->desc), "%s", s->rec.wl.m[k].desc);
			ret = ser_stats(sr, &d->h, &d->st);
			break;
		}
		case IV_WAIT:
			ret = wait_series(sr, rec, &cap[4]);
			break;
		case IV_WAKEUP:
			ret = wake_series(sr, rec, wake_cap);
			break;
		}
	}
	if (ret)
		return ret;
	/* runs and the share in ksoftirqd, from the vector's contexts where there are some */
	for (i = 0; i < rec->nsirq; i++) {
		struct sirq_data *d = &rec->sirq[i];

		d->count = d->st[SM_RUNTIME].count ?: d->st[SM_DELAY].count;
		d->ksoftirqd_count = ctx_runs(rec, "softirq", d->vector, "ksoftirqd");
	}
	for (i = 0; i < rec->nwq; i++)
		rec->wq[i].count = rec->wq[i].st[WM_DELAY].count;
	for (i = 0; i < rec->nctx; i++)
		rec->ctx[i].count = rec->ctx[i].st[SM_RUNTIME].count ?: rec->ctx[i].st[SM_DELAY].count;
	return 0;
}

/* kv_dup - a copy of n pairs */
static struct kv *kv_dup(const struct kv *src, size_t n)
{
	struct kv *d = calloc(n ? n : 1, sizeof(*d));

	if (d && n)
		memcpy(d, src, n * sizeof(*d));
	return d;
}

/*
 * wake_per_interval - the segment's intervals.csv holds its thread wakeups (captures
 * since December 2026), or it had none to hold: then the arms have theirs
 */
static bool wake_per_interval(const struct seg *s)
{
	size_t i, k;

	if (!s->rec.has_wakeup)
		return false;
	for (i = 0; i < s->rec.nser; i++)
		if (s->rec.ser[i].src == IV_WAKEUP)
			return true;
	for (k = 0; k < WK_NR; k++)
		for (i = 0; i < s->rec.nwake[k]; i++)
			if (s->rec.wake[k][i].st.count)
				return false;
	return true;
}

/* phase_cell - the cell of phase p of segment s, before its data */
static int phase_cell(const struct seg *s, const struct seg_phase *p, const char *segdir,
		      struct cell *c)
{
	const struct seg_arm *a = &s->arm[p->arm];

	memset(c, 0, sizeof(*c));
	snprintf(c->workload, sizeof(c->workload), "%s", s->workload);
	snprintf(c->config, sizeof(c->config), "%s", a->config);
	c->rep = p->block;
	c->control = !a->traced;
	c->alt = true;
	c->seg_first = s->first_block;
	snprintf(c->segment, sizeof(c->segment), "%s", s->group);
	snprintf(c->id, sizeof(c->id), "%s--%s--b%u%s", s->workload, a->config, p->block,
		 a->traced ? "" : "--control");
	snprintf(c->dir, sizeof(c->dir), "%s", segdir);
	snprintf(c->status, sizeof(c->status), "ok");
	c->knobs = kv_dup(a->knobs, a->nknobs);
	c->opts = kv_dup(a->opts, a->nopts);
	if (!c->knobs || !c->opts)
		return -ENOMEM;
	c->nknobs = a->nknobs;
	c->nopts = a->nopts;
	c->primary = s->primary;
	/* an arm's own loads: in a segment, those of the others are paused in its phases */
	if (a->has_loads) {
		memcpy(c->loads, a->loads, sizeof(c->loads));
		c->nloads = a->nloads;
	} else {
		memcpy(c->loads, s->loads, sizeof(c->loads));
		c->nloads = s->nloads;
	}
	c->measured_s = (double)(p->end - p->settled) / 1e9;
	c->rec.cap = s->rec.cap;
	c->rec.cap.duration_s = c->measured_s;
	snprintf(c->rec.dir, sizeof(c->rec.dir), "%s", segdir);
	c->rec.wl.present = s->rec.wl.present;
	snprintf(c->rec.wl.workload, sizeof(c->rec.wl.workload), "%s", s->rec.wl.workload);
	c->rec.wl.primary = s->rec.wl.primary;
	memcpy(c->rec.wl.work, s->rec.wl.work, sizeof(c->rec.wl.work));
	c->rec.wl.nwork = s->rec.wl.nwork;
	c->rec.wl.duration_s = c->measured_s;
	c->rec.wl.interval_s = s->rec.wl.interval_s;
	c->rec.wl.opt = kv_dup(a->opts, a->nopts);
	c->rec.wl.nopt = a->nopts;
	c->rec.has_hist = true;
	c->rec.has_contexts = a->traced && s->rec.has_contexts;
	c->rec.has_wakeup = a->traced && s->arm_wakeups;
	c->rec.has_ivals = a->traced && s->rec.has_ivals;
	c->rec.has_wl_ivals = s->rec.has_wl_ivals;
	return c->rec.wl.opt ? 0 : -ENOMEM;
}

/* failed_cells - a segment that did not finish: one incomplete cell per arm */
static int failed_cells(const struct seg *s, const char *segdir, struct cell **out, size_t *n)
{
	struct cell *c = calloc(s->narms, sizeof(*c));
	int a;

	if (!c)
		return -ENOMEM;
	for (a = 0; a < s->narms; a++) {
		struct seg_phase p = { .block = s->first_block, .arm = a, .settled = 0, .end = 0 };

		if (phase_cell(s, &p, segdir, &c[a]))
			return -ENOMEM;
		snprintf(c[a].status, sizeof(c[a].status), "%s", s->status);
		snprintf(c[a].error, sizeof(c[a].error), "%s", s->error);
	}
	*out = c;
	*n = (size_t)s->narms;
	return 0;
}

/* group_of - "RUNDIR|<workload>--<reference>" from the segment id "...--aN" */
static void group_of(struct seg *s, const char *rundir)
{
	const char *end = strrchr(s->id, '-');
	int len = (int)strlen(s->id);

	if (end && end - s->id >= 2 && end[-1] == '-' && end[1] == 'a' &&
	    strspn(end + 2, "0123456789") == strlen(end + 2) && end[2])
		len = (int)(end - 1 - s->id);
	snprintf(s->group, sizeof(s->group), "%016llx|%.*s",
		 (unsigned long long)map_hash_str(rundir, (unsigned int)strlen(rundir)), len, s->id);
}

int segment_load(const char *segdir, const char *rundir, const char *id, struct cell **out,
		 size_t *n, char *errbuf)
{
	struct phase_list pl = { 0 };
	struct seg *s = calloc(1, sizeof(*s));
	char path[PATH_MAX], cj[PATH_MAX];
	struct cell *cells = NULL;
	size_t i;
	int a, ret;

	*out = NULL;
	*n = 0;
	if (!s)
		return errno_msg(errbuf, -ENOMEM, "out of memory");
	snprintf(s->id, sizeof(s->id), "%s", id);
	group_of(s, rundir);
	ret = path_join(cj, sizeof(cj), segdir, "cell.json");
	s->path = cj;
	ret = ret ?: seg_json_load(cj, s, errbuf);
	if (ret)
		goto out;
	if (strcmp(s->status, "ok")) {
		ret = failed_cells(s, segdir, out, n);
		goto out;
	}
	ret = record_load(segdir, &s->rec, errbuf);
	s->arm_wakeups = !ret && wake_per_interval(s);
	ret = ret ?: path_join(path, sizeof(path), segdir, "phases.csv");
	pl.seg = s;
	ret = ret ?: csvr_read(path, phase_cols, phase_row, &pl, errbuf);
	if (ret)
		goto out;
	cells = calloc(pl.n ? pl.n : 1, sizeof(*cells));
	if (!cells) {
		ret = errno_msg(errbuf, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; !ret && i < pl.n; i++)
		ret = phase_cell(s, &pl.p[i], segdir, &cells[i]);
	ret = ret ?: split_series(s, &pl, cells, false, errbuf);
	ret = ret ?: split_series(s, &pl, cells, true, errbuf);
	for (i = 0; !ret && i < pl.n; i++) {
		ret = build_groups(s, &cells[i].rec);
		cells[i].ok = !ret && pl.p[i].ok;
		if (!pl.p[i].ok)
			snprintf(cells[i].status, sizeof(cells[i].status), "unusable");
	}
	if (ret) {
		if (!errbuf[0] || ret == -ENOMEM)
			errno_msg(errbuf, ret, "%s: %s", segdir, strerror(-ret));
		for (i = 0; i < pl.n; i++)
			run_cell_free(&cells[i]);
		free(cells);
		goto out;
	}
	/*
	 * the arms in their order, each its blocks in run order: readers take the first
	 * configuration of a workload for its reference, and the phases' seeded order must
	 * not choose it (arm 0 is the segment's reference)
	 */
	*out = calloc(pl.n ? pl.n : 1, sizeof(**out));
	if (!*out) {
		for (i = 0; i < pl.n; i++)
			run_cell_free(&cells[i]);
		free(cells);
		ret = errno_msg(errbuf, -ENOMEM, "out of memory");
		goto out;
	}
	for (a = 0; a < s->narms; a++)
		for (i = 0; i < pl.n; i++)
			if (pl.p[i].arm == a)
				(*out)[(*n)++] = cells[i];
	free(cells);
out:
	free(pl.p);
	seg_free(s);
	free(s);
	return ret;
}
