// SPDX-License-Identifier: GPL-2.0
/*
 * runner.c - `deferbench run SCENARIO`: check everything, save every knob, then run
 * each cell and restore after it, whatever happens (Ctrl-C, SIGTERM, errors).
 */
#include "runner.h"
#define DEFERBENCH_ALLOW_RUN_INT_H
#include "run_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run_print.h"
#include "fmt.h"
#include "grow.h"
#include "msg.h"
#include "file.h"
#include "outw.h"
#include "sys.h"

/* check_workloads - every workload and load, with each config's overrides */
static int check_workloads(struct run_state *r, char *err)
{
	const struct scenario *s = r->s;
	int w, i, l, ret;

	for (w = 0; w < s->nwl; w++) {
		for (i = 0; !s->wl[w].load && i < s->wl[w].nconfigs; i++) {
			const struct scn_config *cf = &s->cfg[s->wl[w].configs[i]];

			ret = r->be->check(s, w, s->wl[w].configs[i], err);
			for (l = 0; !ret && l < cf->nloads; l++)
				ret = r->be->check(s, cf->loads[l], s->wl[w].configs[i], err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* check_knobs - every knob can be applied on this machine, config by config */
static int check_knobs(struct run_state *r, char *err)
{
	const struct scenario *s = r->s;
	struct knob ks[SCN_MAX_KNOBS];
	char e[ERRBUF_LEN];
	int c, i;

	for (c = 0; c < s->ncfg; c++) {
		const struct scn_config *cf = &s->cfg[c];

		for (i = 0; i < cf->nknobs; i++) {
			ks[i] = cf->knob[i].k;
			if (knob_check(&ks[i], e))
				return set_err(err, "%s:%d: [config %s] %s: %s", s->file,
					       cf->knob[i].line, cf->name, ks[i].name, e);
		}
		if (knobs_check_set(ks, cf->nknobs, e))
			return set_err(err, "%s:%d: [config %s]: %s", s->file, cf->line, cf->name, e);
	}
	return 0;
}

/* run_prepare - parse, plan and check; nothing is changed yet */
static int run_prepare(struct run_state *r)
{
	struct scn_parse_opts po = { .workloads = r->be->types, .live_option = r->be->live_option,
				     .pausable = r->be->pausable,
				     .set = &r->o->set };
	char err[ERRBUF_LEN] = "";
	int ret;

	r->s = scenario_load(r->o->scenario, &po, err);
	if (!r->s) {
		err_msg("%s", err);
		return -EINVAL;
	}
	r->adaptive = r->o->adaptive && r->s->until_decided_ns;
	ret = scenario_plan(r->s, &r->cells, &r->ncells);
	if (!ret)
		r->done = calloc(r->ncells, sizeof(*r->done));
	if (ret || !r->done) {
		err_msg("planning %s: %s", r->o->scenario, strerror(ret ? -ret : ENOMEM));
		return ret ? ret : -ENOMEM;
	}
	if (check_workloads(r, err) || check_knobs(r, err)) {
		err_msg("%s", err);
		return -EINVAL;
	}
	return 0;
}

/* copy_scenario - the file as it was run, next to the results */
static int copy_scenario(const struct run_state *r)
{
	char path[PATH_MAX + 16], *text;
	size_t len;
	FILE *f;
	int ret = 0;

	ret = read_input(r->o->scenario, INPUT_MAX_TEXT, &text, &len, NULL);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/scenario.ini", r->dir);
	f = out_fopen(path);
	if (!f)
		ret = -errno;
	else if (fwrite(text, 1, len, f) != len)
		ret = errno ? -errno : -EIO;
	if (f && fclose(f) && !ret)
		ret = -errno;
	free(text);
	return ret;
}

/*
 * list_files - the run's manifest lists run.json, scenario.ini and the cell just
 * finished (cells/ID, or none): what `run` wrote, so that no other command takes a
 * file put among them for the run's own
 */
static int list_files(struct run_state *r, const char *cell)
{
	char err[ERRBUF_LEN], rel[PATH_MAX];
	int ret;

	ret = outw_live_add(&r->out, "run.json", err);
	ret = ret ?: outw_live_add(&r->out, "scenario.ini", err);
	if (!ret && cell) {
		snprintf(rel, sizeof(rel), "cells/%s", cell);
		ret = outw_live_add(&r->out, rel, err);
	}
	if (ret)
		err_msg("%s", err);
	return ret;
}

/*
 * make_dir - the run's directory, new or empty: through the output writer, which checks
 * it as every output (never a link, a system directory, or where the scenario is)
 */
static int make_dir(struct run_state *r)
{
	char path[PATH_MAX + 16], err[ERRBUF_LEN];
	int ret;

	if (r->o->outdir)
		snprintf(r->dir, sizeof(r->dir), "%s", r->o->outdir);
	else if (run_dir_default(r->dir, sizeof(r->dir), r->meta.hostname, r->meta.kernel,
				 time(NULL), r->s->name))
		return -ENAMETOOLONG;
	if (path_check(r->dir, err)) {
		err_msg("-o: %s", err);
		return -ENAMETOOLONG;
	}
	snprintf(path, sizeof(path), "%s/run.json", r->dir);
	if (!access(path, F_OK)) {
		err_msg("%s already holds a run; choose another directory", r->dir);
		return -EEXIST;
	}
	/* as record: a run goes into a new or empty directory, never among other files */
	ret = outw_open(&r->out, r->dir, &(struct outw_opts){ .kind = OUTW_LIVE, .by = "run",
			.inputs = (const char *const[]){ r->o->scenario, NULL } }, err);
	if (ret) {
		err_msg("%s", err);
		return ret;
	}
	snprintf(path, sizeof(path), "%s/cells", r->dir);
	ret = out_mkdir(path);
	if (!ret)
		ret = copy_scenario(r);
	if (!ret)
		ret = run_json_write(r);
	if (ret)
		err_msg("creating %s: %s", r->dir, strerror(-ret));
	return ret ?: list_files(r, NULL);
}

/* save_all - the journal holds every knob of the scenario before the first write */
static int save_all(struct run_state *r)
{
	char err[ERRBUF_LEN];
	int c, i;

	if (journal_create(&r->j, journal_path(), r->o->command, err)) {
		err_msg("%s", err);
		return -EEXIST;
	}
	r->journaled = true;
	for (c = 0; c < r->s->ncfg; c++)
		for (i = 0; i < r->s->cfg[c].nknobs; i++)
			if (journal_save(&r->j, &r->s->cfg[c].knob[i].k, err)) {
				err_msg("saving %s: %s", r->s->cfg[c].knob[i].k.name, err);
				return -EIO;
			}
	return 0;
}

/* finish_dir - cells/.partial-ID becomes cells/ID, the cell is in run.json */
static int finish_dir(struct run_state *r, int k, const char *partial, char *err)
{
	char final[PATH_MAX + 128];

	snprintf(final, sizeof(final), "%s/cells/%s", r->dir, r->cells[k].id);
	if (rename(partial, final)) {
		int e = errno;

		set_err(err, "renaming %s: %s", partial, strerror(e));
		return -e;
	}
	r->done[r->ndone++] = k;
	return run_json_write(r) ?: list_files(r, r->cells[k].id);
}

/*
 * cell_end - the end of cell k that ran into partial with result ret: renamed into
 * place and listed in run.json, or its error reported (err); returns the result
 */
static int cell_end(struct run_state *r, int k, const struct run_cell *c, const char *partial,
		    int ret, const char *err)
{
	char e[ERRBUF_LEN];

	snprintf(e, sizeof(e), "%s", err);
	if (!ret)
		ret = finish_dir(r, k, partial, e);
	if (ret && ret != -EINTR) {
		run_progress_clear();
		/* a message cut to fit says so */
		if (snprintf(r->error, sizeof(r->error), "%s: %s", c->cell->id,
			     e[0] ? e : strerror(-ret)) >= (int)sizeof(r->error))
			memcpy(r->error + sizeof(r->error) - 4, "...", 4);
		err_msg("%s", r->error);
	}
	return ret;
}

/*
 * run_cell - cell k, or segment k of the alternating design: one lifecycle (run_kind),
 * every knob restored before it returns, on every path
 */
static int run_cell(struct run_state *r, int k)
{
	const struct run_kind *kind = r->cells[k].alt ? &run_segment_kind : &run_cell_kind;
	struct run_cell c = { .s = r->s, .cell = &r->cells[k], .command = r->o->command };
	char partial[PATH_MAX + 128], err[ERRBUF_LEN] = "";
	void *priv = NULL;
	int ret, left, e;

	ret = kind->begin ? kind->begin(r, &c, &priv) : 0;
	if (ret)
		return ret;
	memset(r->res, 0, sizeof(r->res));
	snprintf(partial, sizeof(partial), "%s/cells/.partial-%s", r->dir, c.cell->id);
	c.dir = partial;
	ret = out_mkdir_p(partial);
	if (ret)
		set_err(err, "creating %s: %s", partial, strerror(-ret));
	else
		ret = kind->measure(r, &c, priv, err);
	r->be->stop(&c);
	left = journal_restore(&r->j, NULL);
	if (left && !ret) {
		set_err(err, "%d setting(s) could not be restored after the %s", left, kind->what);
		ret = -EIO;
	}
	if (!ret)
		ret = r->be->write(&c, partial, err);
	if (!ret && kind->write)
		ret = kind->write(r, &c, priv, partial, err);
	/* an instance that stays fails the cell, as a setting not restored does */
	e = r->be->teardown(&c);
	if (e && !ret) {
		set_err(err, "the capture's tracefs instance stays; 'deferbench restore' removes "
			"it");
		ret = e;
	}
	if (access(partial, F_OK) == 0)
		run_cell_json_write(r, c.cell, partial, ret == -EINTR ? "interrupted" : ret ? "failed" : "ok",
				ret && ret != -EINTR ? err : NULL);
	if (kind->end)
		kind->end(r, priv);
	return cell_end(r, k, &c, partial, ret, err);
}

/*
 * more_cells - ask the adaptive loop for more cells and append them to the plan
 * (scenario_more: what the budget has no room for is left out). Returns how many were
 * added, or -errno.
 */
static int more_cells(struct run_state *r)
{
	uint64_t budget = r->s->until_decided_ns, used = now_ns() - r->t0;
	int (*add)[2] = NULL, n = 0, m, k, *done;
	bool cell_asked, block_asked;
	struct scn_cell *cells;
	int ret;

	if (!r->adaptive)
		return 0;
	r->looks++;
	ret = r->o->adaptive->more(r->o->adaptive->ctx, r, &add, &n);
	if (ret || n <= 0) {
		free(add);
		return ret;
	}
	cells = grow_to(r->cells, r->ncells, r->ncells + n, sizeof(*cells));
	if (cells)
		r->cells = cells;
	done = cells ? grow_to(r->done, r->ncells, r->ncells + n, sizeof(*done)) : NULL;
	if (!done) {
		free(add);
		return -ENOMEM;
	}
	r->done = done;
	m = scenario_more(r->s, r->cells, r->ncells, add, n, used < budget ? budget - used : 0,
			  &cell_asked, &block_asked);
	free(add);
	if (m < 0)
		return m;
	for (k = r->ncells; k < r->ncells + m; k++)
		r->cells[k].look = r->looks;
	r->ncells += m;
	run_print_added(r, r->ncells - m, cell_asked, block_asked, stdout);
	return m;
}

/* run_close - restore (again: harmless), drop the journal, final run.json */
static int run_close(struct run_state *r)
{
	int left = 0, ret;

	if (r->journaled) {
		left = journal_restore(&r->j, NULL);
		if (!left && (ret = journal_remove(&r->j)))
			err_msg("removing %s: %s", r->j.path, strerror(-ret));
		if (left)
			err_msg("%d setting(s) not restored; %s is kept: run 'deferbench restore'",
				left, r->j.path);
		journal_free(&r->j);
	}
	if (run_json_write(r) || list_files(r, NULL))
		err_msg("writing %s/run.json failed", r->dir);
	outw_abort(&r->out);	/* written in place: nothing to move, only to close */
	run_summary(r, stdout);
	return left || strcmp(r->status, "complete") ? 1 : 0;
}

int run_scenario(const struct run_opts *o, const struct run_backend *be)
{
	struct run_state r = { .o = o, .be = be, .status = "running" };
	char err[ERRBUF_LEN];
	int k, ret = 1;

	if (!o->dry_run && journal_check_stale(journal_path(), err)) {
		err_msg("%s", err);
		return 1;
	}
	if (!o->dry_run)
		stop_on_signals();
	if (run_prepare(&r))
		goto out_free;
	if (o->check_store && r.s->store[0] && o->check_store(r.s->store, err)) {
		err_msg("%s", err);
		goto out_free;
	}
	run_meta_collect(&r.meta);
	if (o->dry_run) {
		ret = run_print_plan(&r, stdout) ? 1 : 0;
		goto out_free;
	}
	if (make_dir(&r))
		goto out_free;
	if (!save_all(&r)) {
		char t[32];

		printf("%d cells, about %s; results in %s\n", r.ncells,
		       fmt_eta(run_plan_ns(&r, 0), t, sizeof(t)), r.dir);
		fflush(stdout);
		r.t0 = now_ns();
		for (k = 0, ret = 0; !ret && !stop_requested; k++) {
			if (k == r.ncells && (ret = more_cells(&r)) <= 0)
				break;	/* planned cells done, and the adaptive loop adds none */
			ret = 0;
			run_progress(&r, k);
			ret = run_cell(&r, k);
		}
		run_progress_clear();
	} else {
		ret = -EIO;
		snprintf(r.error, sizeof(r.error), "could not save the knobs");
	}
	if (!ret && r.ndone == r.ncells)
		r.status = "complete";
	else
		r.status = stop_requested || ret == -EINTR ? "interrupted" : "failed";
	ret = run_close(&r);
	if (o->outcome) {
		snprintf(o->outcome->dir, sizeof(o->outcome->dir), "%s", r.dir);
		o->outcome->complete = !strcmp(r.status, "complete");
		snprintf(o->outcome->store, sizeof(o->outcome->store), "%s", r.s->store);
	}
out_free:
	outw_abort(&r.out);
	free(r.cells);
	free(r.done);
	free(r.s);
	return ret;
}
