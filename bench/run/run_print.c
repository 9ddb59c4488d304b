// SPDX-License-Identifier: GPL-2.0
/*
 * run_print.c - the --dry-run plan, the progress line and the summary of a run.
 */
#include "run_print.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "knobs.h"
#include "fmt.h"
#include "msg.h"
#include "sys.h"

#define CELL_OVERHEAD_NS (NSEC_PER_SEC)	/* setup, teardown, knobs: measured 0.3-1 s */

static bool progress_shown;

/* print_knob - each target with its current value and the one the config sets */
static void print_knob(FILE *f, const struct knob *k)
{
	char err[ERRBUF_LEN] = "", desc[TGT_PATH_MAX + 32];
	struct knob_target *t;
	int n, i;

	if (k->type->cls == KNOB_SCHED_NAPI) {
		fprintf(f, "    %-34s NAPI threads of the run's veth pairs -> %s\n", k->name, k->value);
		return;
	}
	if (knob_resolve(k, boot_ticks(), &t, &n, err)) {
		fprintf(f, "    %-34s %s (cannot read: %s)\n", k->name, k->value, err);
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(f, "    %-34s %s: %s -> %s%s\n", i ? "" : k->name,
			target_describe(&t[i], desc, sizeof(desc)), t[i].orig, k->value,
			knob_value_equal(k->type, t[i].orig, k->value) ? " (unchanged)" : "");
	free(t);
}

static void print_config(FILE *f, const struct scenario *s, const struct scn_config *cf)
{
	int i;

	fprintf(f, "  %s%s%s%s\n", cf->name, cf->description[0] ? " (" : "", cf->description,
		cf->description[0] ? ")" : "");
	if (!cf->nknobs && !cf->nloads && !cf->nover)
		fprintf(f, "    no change: the machine as it is\n");
	for (i = 0; i < cf->nknobs; i++)
		print_knob(f, &cf->knob[i].k);
	for (i = 0; i < cf->nloads; i++)
		fprintf(f, "    %-34s %s (%s)\n", "load", s->wl[cf->loads[i]].name,
			s->wl[cf->loads[i]].type);
	for (i = 0; i < cf->nover; i++) {
		char name[SCN_NAME_MAX + SCN_KEY_MAX + 8];

		snprintf(name, sizeof(name), "opt.%s.%s", s->wl[cf->over[i].wl].name,
			 cf->over[i].opt.key);
		fprintf(f, "    %-34s %s\n", name, cf->over[i].opt.value);
	}
}

int run_print_plan(const struct run_state *r, FILE *f)
{
	const struct scenario *s = r->s;
	char dir[PATH_MAX], t[32], err[ERRBUF_LEN];
	int i;

	fprintf(f, "scenario %s: %d cells (%u repetition%s, order %s), about %s\n", s->file,
		r->ncells, s->repetitions, s->repetitions > 1 ? "s" : "",
		scenario_order_name(s->order),
		fmt_eta(r->ncells * (scenario_cell_ns(s) + CELL_OVERHEAD_NS), t, sizeof(t)));
	fprintf(f, "each cell: warm-up %s, ", fmt_ns(s->warmup_ns, t, sizeof(t)));
	fprintf(f, "capture %s\n", fmt_ns(s->duration_ns, t, sizeof(t)));
	if (r->o->outdir)
		fprintf(f, "results: %s\n", r->o->outdir);
	else if (!run_dir_default(dir, sizeof(dir), r->meta.hostname, r->meta.kernel,
				  time(NULL), s->name))
		fprintf(f, "results: %s\n", dir);
	if (journal_check_stale(journal_path(), err))
		fprintf(f, "warning: %s\n", err);
	fprintf(f, "\nconfigurations (current value -> value in the cell):\n");
	for (i = 0; i < s->ncfg; i++)
		print_config(f, s, &s->cfg[i]);
	fprintf(f, "\ncells in run order:\n");
	for (i = 0; i < r->ncells; i++)
		fprintf(f, "  %4d  %s\n", i + 1, r->cells[i].id);
	return 0;
}

void run_progress(const struct run_state *r, int k)
{
	uint64_t elapsed = now_ns() - r->t0, eta;
	char e[32], a[32];

	if (!isatty(STDOUT_FILENO))
		return;
	if (k)
		eta = elapsed / k * (r->ncells - k);
	else
		eta = (r->ncells - k) * (scenario_cell_ns(r->s) + CELL_OVERHEAD_NS);
	printf("\r\033[K[%d/%d] %s  elapsed %s  ETA %s", k + 1, r->ncells, r->cells[k].id,
	       fmt_eta(elapsed, e, sizeof(e)), fmt_eta(eta, a, sizeof(a)));
	fflush(stdout);
	progress_shown = true;
}

void run_progress_clear(void)
{
	if (!progress_shown)
		return;
	printf("\r\033[K");
	fflush(stdout);
	progress_shown = false;
}

void run_summary(const struct run_state *r, FILE *f)
{
	char t[32];

	fprintf(f, "%s: %d of %d cells in %s (%s)\n", r->status, r->ndone, r->ncells, r->dir,
		fmt_eta(r->t0 ? now_ns() - r->t0 : 0, t, sizeof(t)));
}
