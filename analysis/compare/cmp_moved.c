// SPDX-License-Identifier: GPL-2.0
/*
 * cmp_moved.c - compare's section on work that moved between execution contexts
 * (moved.h): where it ran on each side, and its own wait there as its rows judged it.
 */
#include "cmp_out.h"

#include <stdio.h>
#include <string.h>

#include "doc.h"
#include "fmt.h"
#include "common.h"

/* moved_row - the row of m's metric for statistic stat, or NULL (left out: too sparse) */
static const struct cmp_row *moved_row(const struct cmp_result *r, const struct moved *m,
				       enum mstat stat)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		const struct cmp_row *x = &r->rows[i];

		if (x->key.stat == stat && metric_same_group(&x->key, &m->key) &&
		    !strcmp(x->workload, m->workload) && !strcmp(x->config, m->config))
			return x;
	}
	return NULL;
}

static const enum mstat moved_stats[] = { MST_P50, MST_P99 };

void cmp_moved_print(FILE *f, const struct cmp_result *r)
{
	char b[32], n[32], ra[32];
	size_t i, s;

	if (!r->moved.n)
		return;
	fprintf(f, "\nMOVED: the same work in another place on each side (a tasklet now a BH work "
		"item, a\n  per-CPU work item now unbound, a softirq now in a thread); its own %s "
		"wherever it ran\n", "wait");
	for (i = 0; i < r->moved.n; i++) {
		const struct moved *m = &r->moved.m[i];

		fprintf(f, "%s/%s %s %s: moved from %s (%.0f%% of %llu) to %s (%.0f%% of %llu)\n",
			m->workload, m->config, m->key.name, m->key.func, m->from,
			100 * m->from_share, (unsigned long long)m->nbase, m->to,
			100 * m->to_share, (unsigned long long)m->nnew);
		for (s = 0; s < ARRAY_SIZE(moved_stats); s++) {
			const struct cmp_row *x = moved_row(r, m, moved_stats[s]);

			if (!x) {
				fprintf(f, "  %s %s: too few samples beyond it on both sides\n",
					record_sirq_metric_names[m->key.sub], metric_stat_names[moved_stats[s]]);
				continue;
			}
			fprintf(f, "  %s %s: %s -> %s us (ratio %s): %s\n",
				record_sirq_metric_names[m->key.sub], metric_stat_names[moved_stats[s]],
				fmt_us(x->j.base, b, sizeof(b)), fmt_us(x->j.new, n, sizeof(n)),
				fmt_ratio(x->j.ratio, ra, sizeof(ra)), judge_verdict_names[x->j.v]);
		}
	}
}

void cmp_moved_md(struct doc *d, const struct cmp_result *r)
{
	static const char *const hdr[] = { "workload", "config", "what", "name", "from",
		"to", "metric", "base (us)", "new (us)", "ratio", "verdict" };
	char from[64], to[64], b[32], n[32], ra[32], id[METRIC_ID_LEN];
	size_t i, s;

	if (!r->moved.n)
		return;
	doc_h(d, 2, "Moved work");
	doc_p(d, "The same work in another place on each side: a tasklet that became a BH "
	      "work item, a per-CPU work item gone unbound, a softirq gone to a thread. Its "
	      "own wait is judged wherever it ran (the moved:* rows above); the place is "
	      "the one that held most of its samples, with that share and the samples.");
	doc_table(d, hdr, ARRAY_SIZE(hdr));
	for (i = 0; i < r->moved.n; i++) {
		const struct moved *m = &r->moved.m[i];

		snprintf(from, sizeof(from), "%s (%.0f%% of %llu)", m->from, 100 * m->from_share,
			 (unsigned long long)m->nbase);
		snprintf(to, sizeof(to), "%s (%.0f%% of %llu)", m->to, 100 * m->to_share,
			 (unsigned long long)m->nnew);
		for (s = 0; s < ARRAY_SIZE(moved_stats); s++) {
			const struct cmp_row *x = moved_row(r, m, moved_stats[s]);
			struct metric_key k = m->key;

			k.stat = moved_stats[s];
			metric_id(&k, id, sizeof(id));
			doc_row(d, (const char *const[]){ m->workload, m->config, m->key.name,
				m->key.func, from, to, id,
				x ? fmt_us(x->j.base, b, sizeof(b)) : "-",
				x ? fmt_us(x->j.new, n, sizeof(n)) : "-",
				x ? fmt_ratio(x->j.ratio, ra, sizeof(ra)) : "-",
				x ? judge_verdict_names[x->j.v] : "left out: too few samples" },
				ARRAY_SIZE(hdr));
		}
	}
	doc_table_end(d);
}
