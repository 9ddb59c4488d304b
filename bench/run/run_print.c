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

#define PROGRESS_LOG_NS (10 * NSEC_PER_SEC)	/* a log line at least this often */

static bool progress_shown;
static uint64_t progress_logged;	/* when the last log line was printed */

uint64_t run_plan_ns(const struct run_state *r, int k)
{
	return scenario_cells_ns(r->s, r->cells + k, r->ncells - k);
}

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
	if (knob_resolve(k, knob_boot_ticks(), &t, &n, err)) {
		fprintf(f, "    %-34s %s (cannot read: %s)\n", k->name, k->value, err);
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(f, "    %-34s %s: %s -> %s%s\n", i ? "" : k->name,
			knob_target_describe(&t[i], desc, sizeof(desc)), t[i].orig, k->value,
			knob_value_equal(k->type, t[i].orig, k->value) ? " (unchanged)" : "");
	free(t);
}

/* any_settle - a configuration has a settle time of its own */
static bool any_settle(const struct scenario *s)
{
	int i;

	for (i = 0; i < s->ncfg; i++)
		if (s->cfg[i].settle_ns > s->settle_ns)
			return true;
	return false;
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
	if (cf->settle_ns && s->design == SCN_DESIGN_ALTERNATE) {
		char t[32];

		fprintf(f, "    %-34s %s after a switch into or out of it\n", "settle",
			fmt_ns(scenario_switch_settle(s, -1, (int)(cf - s->cfg)), t, sizeof(t)));
	}
	for (i = 0; i < cf->nover; i++) {
		char name[SCN_NAME_MAX + SCN_KEY_MAX + 8];

		snprintf(name, sizeof(name), "opt.%s.%s", s->wl[cf->over[i].wl].name,
			 cf->over[i].opt.key);
		fprintf(f, "    %-34s %s\n", name, cf->over[i].opt.value);
	}
}

/* print_cell - one entry of the plan: a cell, or a segment with its arms */
static void print_cell(FILE *f, const struct scenario *s, const struct scn_cell *c, int i)
{
	int loads[SCN_MAX_LOADS], nl, a, l;
	char t[32], u[32];

	fprintf(f, "  %4d  %s", i + 1, c->id);
	if (!c->alt) {
		fputc('\n', f);
		return;
	}
	fprintf(f, "  (alternating: %u block%s of %d phases of %s, %s)\n", c->blocks,
		c->blocks > 1 ? "s" : "", c->narms, fmt_ns(s->phase_ns, t, sizeof(t)),
		fmt_eta(scenario_cell_ns(s, c), u, sizeof(u)));
	for (a = 0; a < c->narms; a++)
		fprintf(f, "          arm %d: %s%s\n", a, s->cfg[c->arm[a].cfg].name,
			c->arm[a].traced ? "" : " with the capture off (its effect)");
	nl = scenario_segment_loads(s, c, loads);
	for (l = 0; l < nl; l++) {
		for (a = 0; a < c->narms; a++)
			if (!scenario_cfg_runs_load(s, c->arm[a].cfg, loads[l]))
				break;
		if (a < c->narms)
			fprintf(f, "          load %s: paused in the phases of the arms that do not "
				"run it\n", s->wl[loads[l]].name);
	}
}

int run_print_plan(const struct run_state *r, FILE *f)
{
	const struct scenario *s = r->s;
	char dir[PATH_MAX], t[32], err[ERRBUF_LEN];
	int i, nseg = 0;

	for (i = 0; i < r->ncells; i++)
		nseg += r->cells[i].alt;
	fprintf(f, "scenario %s: design %s, ", s->file, scenario_design_name(s->design));
	if (nseg)
		fprintf(f, "%d segment%s of %u blocks, ", nseg, nseg > 1 ? "s" : "", s->blocks);
	if (r->ncells > nseg)
		fprintf(f, "%d cells (%u repetition%s, order %s), ", r->ncells - nseg,
			s->repetitions, s->repetitions > 1 ? "s" : "", scenario_order_name(s->order));
	fprintf(f, "about %s\n", fmt_eta(run_plan_ns(r, 0), t, sizeof(t)));
	if (r->ncells > nseg) {
		fprintf(f, "each cell: warm-up %s, ", fmt_ns(s->warmup_ns, t, sizeof(t)));
		fprintf(f, "capture %s\n", fmt_ns(s->duration_ns, t, sizeof(t)));
	}
	if (nseg) {
		fprintf(f, "each segment: warm-up %s, ", fmt_ns(s->warmup_ns, t, sizeof(t)));
		fprintf(f, "then phases of %s (", fmt_ns(s->phase_ns, t, sizeof(t)));
		fprintf(f, "the first %s of each left out%s), ", fmt_ns(s->settle_ns, t, sizeof(t)),
			any_settle(s) ? ", more where a configuration says" : "");
		fprintf(f, "intervals of %s\n", fmt_ns(s->cap.interval_ns, t, sizeof(t)));
	}
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
		print_cell(f, s, &r->cells[i], i);
	return 0;
}

/* progress - one progress report: what runs now, elapsed, and the time left */
static void progress(const struct run_state *r, int k, const char *what, uint64_t left)
{
	uint64_t t = now_ns(), elapsed = t - r->t0;
	char e[32], a[32];

	if (isatty(STDOUT_FILENO)) {
		printf("\r\033[K[%d/%d] %s  elapsed %s  left %s", k + 1, r->ncells, what,
		       fmt_eta(elapsed, e, sizeof(e)), fmt_eta(left, a, sizeof(a)));
		progress_shown = true;
	} else {
		printf("[%d/%d] %s  elapsed %s  left about %s\n", k + 1, r->ncells, what,
		       fmt_eta(elapsed, e, sizeof(e)), fmt_eta(left, a, sizeof(a)));
		progress_logged = t;
	}
	fflush(stdout);
}

void run_progress(const struct run_state *r, int k)
{
	progress(r, k, r->cells[k].id, run_plan_ns(r, k));
}

void run_progress_phase(const struct run_state *r, const struct run_cell *c, unsigned int b,
			int pos)
{
	const struct scn_cell *seg = c->cell;
	int k = (int)(seg - r->cells);
	unsigned int done = (b - seg->first_block) * (unsigned int)seg->narms + (unsigned int)pos;
	uint64_t left = (uint64_t)(seg->blocks * seg->narms - done) * r->s->phase_ns;
	char what[sizeof(seg->id) + 64];

	if (!isatty(STDOUT_FILENO) && now_ns() - progress_logged < PROGRESS_LOG_NS)
		return;
	snprintf(what, sizeof(what), "%s block %u/%u", seg->id, b - seg->first_block + 1,
		 seg->blocks);
	progress(r, k, what, left + run_plan_ns(r, k + 1));
}

void run_print_added(const struct run_state *r, int from, bool cell_asked, bool block_asked,
		     FILE *f)
{
	unsigned int blocks = 0;
	int k, segs = 0, cells = 0;
	char t[32];

	for (k = from; k < r->ncells; k++) {
		if (r->cells[k].alt) {
			segs++;
			blocks += r->cells[k].blocks;
		} else {
			cells++;
		}
	}
	if (!segs && !cells) {
		fprintf(f, "until-decided: the budget has no room for another %s\n",
			cell_asked && block_asked ? "cell or block" : cell_asked ? "cell" : "block");
		return;
	}
	fprintf(f, "until-decided: adding ");
	if (segs)
		fprintf(f, "%u block(s) in %d segment(s)%s", blocks, segs, cells ? " and " : "");
	if (cells)
		fprintf(f, "%d cell(s)", cells);
	fprintf(f, ", about %s\n", fmt_eta(run_plan_ns(r, from), t, sizeof(t)));
	fflush(f);
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
