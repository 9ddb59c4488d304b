// SPDX-License-Identifier: GPL-2.0
/*
 * rep_wakeup.c - the report's thread wakeup table (summary.json thread_wakeup): per
 * configuration, each ksoftirqd thread and worker pool, in the document and in
 * tables/wakeup.csv. Statistics only, so figures are per-repetition spreads.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "msg.h"
#include "parse.h"

/* by_thread - ksoftirqd threads by CPU, then worker pools in version order (cpu2 < cpu10) */
static int by_thread(const void *a, const void *b)
{
	const struct metric_key *x = a, *y = b;

	if (x->sub != y->sub)
		return x->sub - y->sub;
	return strverscmp(x->name, y->name);	/* CPU numbers too: "2" < "10" */
}

/* wake_threads - the set's ksoftirqd threads and worker pools (stat p50), sorted */
static void wake_threads(const struct cellset *s, struct keylist *kl)
{
	size_t i, n = 0;

	if (keylist_collect(s, false, kl)) {
		kl->n = 0;
		return;
	}
	for (i = 0; i < kl->n; i++)
		if (kl->k[i].src == MS_WAKEUP && kl->k[i].stat == MST_P50)
			kl->k[n++] = kl->k[i];
	kl->n = n;
	qsort(kl->k, n, sizeof(*kl->k), by_thread);
}

/* wakeups_of - the wakeups of one thread or pool, summed over the finished repetitions */
static uint64_t wakeups_of(const struct cellset *s, const struct metric_key *k)
{
	uint64_t count, total = 0;
	size_t i;
	double v;

	for (i = 0; i < s->n; i++)
		if (s->cell[i]->ok && !metric_value(&s->cell[i]->rec, k, &v, &count))
			total += count;
	return total;
}

static void wake_csv(struct csvw *w, const struct cellset *s, const struct metric_key *k,
		     const struct figure *f, uint64_t wakeups)
{
	bool ks = k->sub == WK_KSOFTIRQD;
	char msg[ERRBUF_LEN];
	uint64_t cpu = 0;

	/* a ksoftirqd key's name is the CPU that rd_summary.c read as a number */
	if (ks && parse_u64(k->name, 0, INT_MAX, &cpu, msg))
		ks = false;
	csvw_str(w, s->workload);
	csvw_str(w, s->config);
	csvw_str(w, record_wake_kind_names[k->sub]);
	csvw_i64(w, ks ? (int64_t)cpu : -1);
	csvw_str(w, ks ? "" : k->name);
	csvw_u64(w, f->reps);
	csvw_u64(w, f->with_data);
	csvw_u64(w, wakeups);
	rep_csv_spread(w, f);
	rep_csv_ns(w, f->max.max);
	rep_csv_health(w, f);
	csvw_end(w);
}

static void wake_row(struct report_ctx *r, const struct cellset *s, const struct metric_key *k)
{
	char thread[NAME_LEN + 16], c[5][48], lost[32], un[32], flags[64];
	uint64_t wakeups;
	struct figure f;

	if (aggr_figure_get(s, k, &f))
		return;
	wakeups = wakeups_of(s, k);
	wake_csv(&r->tab[TAB_WAKEUP], s, k, &f, wakeups);
	snprintf(thread, sizeof(thread), k->sub == WK_KSOFTIRQD ? "ksoftirqd/%s" : "kworker %s",
		 k->name);
	snprintf(c[0], 48, "%zu/%zu", f.with_data, f.reps);
	snprintf(c[1], 48, "%llu", (unsigned long long)wakeups);
	aggr_fmt_spread(&f.p50, c[2], 48);
	aggr_fmt_spread(&f.p99, c[3], 48);
	fmt_us(f.max.max, c[4], 48);
	rep_counts(&f, lost, un, sizeof(lost));
	doc_row(&r->doc, (const char *const[]){ s->config, thread, c[0], c[1], c[2], c[3],
		c[4], lost, un, aggr_fmt_flags(&f, flags, sizeof(flags)) }, 10);
}

/*
 * wake_data_of - whether some finished repetition of the workload has a thread_wakeup
 * section, and whether any has an entry in it
 */
static bool wake_data_of(const struct report_ctx *r, const char *wl, bool *entries)
{
	bool section = false;
	size_t i, j;

	*entries = false;
	for (i = 0; i < r->cs.n; i++)
		for (j = 0; !strcmp(r->cs.s[i].workload, wl) && j < r->cs.s[i].n; j++) {
			const struct cell *c = r->cs.s[i].cell[j];

			if (!c->ok)
				continue;
			section |= c->rec.has_wakeup;
			*entries |= c->rec.nwake[WK_KSOFTIRQD] + c->rec.nwake[WK_WORKER] > 0;
		}
	return section;
}

void rep_wakeup_table(struct report_ctx *r, const char *wl)
{
	const char *hdr[] = { "config", "thread", r->alt ? "blocks" :
		"repetitions", "wakeups", "p50 (us)", "p99 (us)", "max (us)", "lost", "unmatched",
		"flags" };
	struct keylist kl = { 0 };
	bool entries;
	size_t i, j;

	if (!wake_data_of(r, wl, &entries)) {
		if (r->alt)
			doc_p(&r->doc, "No thread wakeup per configuration: an alternating run "
			      "keeps it for a whole segment, not for each configuration's "
			      "blocks.");
		else
			doc_p(&r->doc, "No thread wakeup data: these summary.json files were "
			      "written before deferbench recorded it.");
		return;
	}
	if (!entries) {
		doc_p(&r->doc, "No wakeup of a ksoftirqd or kworker thread was captured "
		      "(recorded with --no-sched?).");
		return;
	}
	doc_p(&r->doc, "From the wakeup of a ksoftirqd or kworker thread to the context switch "
	      "that runs it: the part of softirq and workqueue delay the scheduler adds. "
	      "Statistics only (no histograms), so p50 and p99 are per-%s spreads; "
	      "wakeups are summed over %ss.", r->unit, r->unit);
	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (i = 0; i < r->cs.n; i++) {
		if (strcmp(r->cs.s[i].workload, wl))
			continue;
		keylist_free(&kl);
		wake_threads(&r->cs.s[i], &kl);
		for (j = 0; j < kl.n; j++)
			wake_row(r, &r->cs.s[i], &kl.k[j]);
	}
	keylist_free(&kl);
	doc_table_end(&r->doc);
}
