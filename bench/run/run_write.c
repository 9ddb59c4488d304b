// SPDX-License-Identifier: GPL-2.0
/*
 * run_write.c - run.json (RUN_SCHEMA) and cell.json (CELL_SCHEMA), written as the run
 * goes; bench/rundir reads them back.
 *
 * run.json is rewritten atomically after every cell, so that an interrupted or killed
 * run leaves a valid file that lists the cells that did finish; "complete" becomes
 * true only once every planned cell is in it.
 */
#include "run_write.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "jsonw.h"
#include "common.h"

static json_object *str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static json_object *meta_json(const struct run_meta *m)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "kernel", json_object_new_string(m->kernel));
	json_object_object_add(o, "hostname", json_object_new_string(m->hostname));
	json_object_object_add(o, "cpus", json_object_new_int(m->cpus));
	json_object_object_add(o, "cpu_model", json_object_new_string(m->cpu_model));
	json_object_object_add(o, "preempt", json_object_new_string(m->preempt));
	json_object_object_add(o, "preempt_source", json_object_new_string(m->preempt_source));
	json_object_object_add(o, "preempt_dynamic", json_object_new_boolean(m->preempt_dynamic));
	json_object_object_add(o, "threadirqs", str_or_null(m->threadirqs));
	json_object_object_add(o, "rt_bh_lock", str_or_null(m->rt_bh_lock));
	json_object_object_add(o, "sched_ext", str_or_null(m->sched_ext));
	json_object_object_add(o, "hz", m->hz ? json_object_new_int(m->hz) : NULL);
	json_object_object_add(o, "nohz", str_or_null(m->nohz));
	json_object_object_add(o, "cmdline", json_object_new_string(m->cmdline));
	json_object_object_add(o, "governor", str_or_null(m->governor));
	json_object_object_add(o, "version", json_object_new_string(DEFERBENCH_VERSION));
	json_object_object_add(o, "started", json_object_new_string(m->started));
	return o;
}

/* settings_json - the [global] values the run used (after --quick) */
static json_object *settings_json(const struct run_state *r)
{
	const struct scenario *s = r->s;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "duration_s", json_object_new_double(s->duration_ns / 1e9));
	json_object_object_add(o, "warmup_s", json_object_new_double(s->warmup_ns / 1e9));
	json_object_object_add(o, "repetitions", json_object_new_int(s->repetitions));
	json_object_object_add(o, "order", json_object_new_string(scenario_order_name(s->order)));
	json_object_object_add(o, "seed", json_object_new_uint64(s->seed));
	json_object_object_add(o, "buffer_kb", json_object_new_int(s->cap.buffer_kb));
	json_object_object_add(o, "interval_s", json_object_new_double(s->cap.interval_ns / 1e9));
	json_object_object_add(o, "quick", json_object_new_boolean(s->quick));
	json_object_object_add(o, "design", json_object_new_string(scenario_design_name(s->design)));
	if (s->design == SCN_DESIGN_ALTERNATE) {
		json_object_object_add(o, "blocks", json_object_new_int(s->blocks));
		json_object_object_add(o, "phase_s", json_object_new_double(s->phase_ns / 1e9));
		json_object_object_add(o, "settle_s", json_object_new_double(s->settle_ns / 1e9));
	}
	return o;
}

static json_object *cell_ref(const struct run_state *r, const struct scn_cell *c)
{
	json_object *o = json_object_new_object();
	char dir[sizeof(c->id) + 8];

	snprintf(dir, sizeof(dir), "cells/%s", c->id);
	json_object_object_add(o, "id", json_object_new_string(c->id));
	json_object_object_add(o, "workload", json_object_new_string(r->s->wl[c->wl].name));
	json_object_object_add(o, "config", json_object_new_string(r->s->cfg[c->cfg].name));
	json_object_object_add(o, "rep", json_object_new_int(c->rep));
	json_object_object_add(o, "dir", json_object_new_string(dir));
	if (c->look)
		json_object_object_add(o, "look", json_object_new_int(c->look));
	if (c->control)
		json_object_object_add(o, "control", json_object_new_boolean(true));
	if (c->alt) {
		json_object *arms = json_object_new_array();
		int a;

		json_object_object_add(o, "design", json_object_new_string("alternate"));
		for (a = 0; a < c->narms; a++) {
			json_object *e = json_object_new_object();

			json_object_object_add(e, "config",
					       json_object_new_string(r->s->cfg[c->arm[a].cfg].name));
			json_object_object_add(e, "traced",
					       json_object_new_boolean(c->arm[a].traced));
			json_object_array_add(arms, e);
		}
		json_object_object_add(o, "arms", arms);
		json_object_object_add(o, "blocks", json_object_new_int(c->blocks));
		json_object_object_add(o, "first_block", json_object_new_int(c->first_block));
	}
	return o;
}

int run_json_write(const struct run_state *r)
{
	json_object *o = json_object_new_object(), *cells = json_object_new_array();
	char path[PATH_MAX + 16];
	int i, ret;

	json_object_object_add(o, "schema", json_object_new_string(
		r->s->design == SCN_DESIGN_ALTERNATE ? RUN_SCHEMA_ALT : RUN_SCHEMA));
	json_object_object_add(o, "meta", meta_json(&r->meta));
	json_object_object_add(o, "scenario", json_object_new_string(r->s->name));
	json_object_object_add(o, "scenario_file", json_object_new_string("scenario.ini"));
	json_object_object_add(o, "command", json_object_new_string(r->o->command));
	json_object_object_add(o, "settings", settings_json(r));
	json_object_object_add(o, "complete",
			       json_object_new_boolean(!strcmp(r->status, "complete")));
	json_object_object_add(o, "status", json_object_new_string(r->status));
	json_object_object_add(o, "error", str_or_null(r->error));
	json_object_object_add(o, "cells_planned", json_object_new_int(r->ncells));
	if (r->adaptive)
		json_object_object_add(o, "looks", json_object_new_int(r->o->adaptive->looks));
	for (i = 0; i < r->ndone; i++)
		json_object_array_add(cells, cell_ref(r, &r->cells[r->done[i]]));
	json_object_object_add(o, "cells", cells);
	snprintf(path, sizeof(path), "%s/run.json", r->dir);
	ret = jsonw_write(path, o, 0644, 0);
	json_object_put(o);
	return ret;
}

/* options_json - the options this config sets for the cell's workload (opt.W.KEY) */
static json_object *options_json(const struct scn_config *cf, int wl)
{
	json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < cf->nover; i++)
		if (cf->over[i].wl == wl)
			json_object_object_add(o, cf->over[i].opt.key,
					       json_object_new_string(cf->over[i].opt.value));
	return o;
}

/* knobs_json - each knob of the config and the value read back (null: no target) */
static json_object *knobs_json(const struct scn_config *cf, const struct knob_result *res)
{
	json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < cf->nknobs; i++)
		json_object_object_add(o, cf->knob[i].k.name, res[i].targets ?
				       json_object_new_string(res[i].value) : NULL);
	return o;
}

/* loads_json - the names of the background loads configuration cf runs */
static json_object *loads_json(const struct scenario *s, const struct scn_config *cf)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < cf->nloads; i++)
		json_object_array_add(a, json_object_new_string(s->wl[cf->loads[i]].name));
	return a;
}

/* arms_json - a segment's arms, each with its knobs as read back when it first ran */
static json_object *arms_json(const struct run_state *r, const struct scn_cell *c)
{
	json_object *arms = json_object_new_array();
	int a;

	for (a = 0; a < c->narms; a++) {
		const struct scn_config *cf = &r->s->cfg[c->arm[a].cfg];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "config", json_object_new_string(cf->name));
		json_object_object_add(e, "description", str_or_null(cf->description));
		json_object_object_add(e, "traced", json_object_new_boolean(c->arm[a].traced));
		json_object_object_add(e, "knobs", r->arm_res ? knobs_json(cf, r->arm_res[a]) :
				       json_object_new_object());
		json_object_object_add(e, "options", options_json(cf, c->wl));
		/* its own loads: a segment's other loads are paused in its phases */
		json_object_object_add(e, "loads", loads_json(r->s, cf));
		if (cf->settle_ns)	/* its own: a switch takes it when longer than [global] */
			json_object_object_add(e, "settle_s",
					       json_object_new_double(cf->settle_ns / 1e9));
		json_object_array_add(arms, e);
	}
	return arms;
}

int run_cell_json_write(const struct run_state *r, const struct scn_cell *c, const char *dir,
		    const char *status, const char *error)
{
	const struct scn_config *cf = &r->s->cfg[c->cfg];
	json_object *o = json_object_new_object();
	char path[PATH_MAX + 16];
	int i, ret;

	json_object_object_add(o, "schema", json_object_new_string(c->alt ? SEGMENT_SCHEMA :
								     CELL_SCHEMA));
	json_object_object_add(o, "id", json_object_new_string(c->id));
	json_object_object_add(o, "workload", json_object_new_string(r->s->wl[c->wl].name));
	json_object_object_add(o, "type", json_object_new_string(r->s->wl[c->wl].type));
	json_object_object_add(o, "config", json_object_new_string(cf->name));
	json_object_object_add(o, "description", str_or_null(cf->description));
	json_object_object_add(o, "rep", json_object_new_int(c->rep));
	if (c->control)
		json_object_object_add(o, "control", json_object_new_boolean(true));
	json_object_object_add(o, "seed", json_object_new_uint64(c->seed));
	json_object_object_add(o, "knobs", knobs_json(cf, c->alt && r->arm_res ? r->arm_res[0] :
								 r->res));
	json_object_object_add(o, "options", options_json(cf, c->wl));
	if (c->alt) {
		const struct scenario *s = r->s;

		json_object_object_add(o, "arms", arms_json(r, c));
		json_object_object_add(o, "blocks", json_object_new_int(c->blocks));
		json_object_object_add(o, "first_block", json_object_new_int(c->first_block));
		json_object_object_add(o, "phase_s", json_object_new_double(s->phase_ns / 1e9));
		json_object_object_add(o, "settle_s", json_object_new_double(s->settle_ns / 1e9));
		json_object_object_add(o, "interval_s", json_object_new_double(s->cap.interval_ns / 1e9));
	}
	json_object_object_add(o, "loads", loads_json(r->s, cf));
	if (r->s->wl[c->wl].nprimary) {
		json_object *p = json_object_new_array();

		for (i = 0; i < r->s->wl[c->wl].nprimary; i++)
			json_object_array_add(p, json_object_new_string(r->s->wl[c->wl].primary[i]));
		json_object_object_add(o, "primary", p);
	}
	json_object_object_add(o, "warmup_s", json_object_new_double(r->s->warmup_ns / 1e9));
	json_object_object_add(o, "duration_s", json_object_new_double(r->s->duration_ns / 1e9));
	json_object_object_add(o, "status", json_object_new_string(status));
	json_object_object_add(o, "error", str_or_null(error));
	snprintf(path, sizeof(path), "%s/cell.json", dir);
	ret = jsonw_write(path, o, 0644, 0);
	json_object_put(o);
	return ret;
}
