// SPDX-License-Identifier: GPL-2.0
/*
 * run_read.c - run directories (run.json, cells/<id>/cell.json) into the model of
 * rundata.h; a cell's files are a record directory's (record_load.c), a segment's are
 * cut by its phases (segment_load.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonread.h"
#define DEFERBENCH_ALLOW_RUN_READ_INT_H
#include "run_read_int.h"
#include "rundir.h"
#include "grow.h"
#include "msg.h"
#include "file.h"

static bool file_exists(const char *dir, const char *name)
{
	char p[PATH_MAX];

	return !path_join(p, sizeof(p), dir, name) && access(p, F_OK) == 0;
}

/*
 * cell_json_load - cell.json; with from_run its workload/config/rep must agree with the
 * run.json entry already in c, otherwise they are taken from the file.
 */
static int cell_json_load(const char *path, struct cell *c, bool from_run, char *errbuf)
{
	struct jr j = { .path = path, .errbuf = errbuf };
	char wl[NAME_LEN], cfg[NAME_LEN];
	struct json_object *root;
	int rep, ret;

	ret = jr_load(&j, &root);
	if (ret)
		return ret;
	ret = jr_schema(&j, root, CELL_SCHEMA);
	ret = ret ?: jr_str(&j, root, "", "workload", wl, sizeof(wl));
	ret = ret ?: jr_str(&j, root, "", "config", cfg, sizeof(cfg));
	ret = ret ?: jr_int(&j, root, "", "rep", 1, 1000000, &rep);
	ret = ret ?: jr_kv(&j, root, "knobs", &c->knobs, &c->nknobs);
	if (!ret && jr_has(root, "options"))
		ret = jr_kv(&j, root, "options", &c->opts, &c->nopts);
	ret = ret ?: jr_strings(&j, root, "", "primary", c->primary.id[0],
				sizeof(c->primary.id[0]), PRIMARY_MAX, &c->primary.n);
	ret = ret ?: jr_strings(&j, root, "", "loads", c->loads[0], sizeof(c->loads[0]),
				CELL_MAX_LOADS, &c->nloads);
	ret = ret ?: jr_str(&j, root, "", "status", c->status, sizeof(c->status));
	ret = ret ?: jr_scalar_text(&j, root, "", "error", c->error, sizeof(c->error));
	json_object_put(root);
	if (ret)
		return ret;
	if (!from_run) {
		strcpy(c->workload, wl);
		strcpy(c->config, cfg);
		c->rep = (unsigned int)rep;
	} else if (strcmp(wl, c->workload) || strcmp(cfg, c->config) ||
		   (unsigned int)rep != c->rep) {
		return set_err(errbuf, "malformed result file %s: says %s/%s/r%d but run.json "
			      "lists it as %s/%s/r%u", path, wl, cfg, rep, c->workload,
			      c->config, c->rep);
	}
	return 0;
}

/* cell_load - cell.json, then the record when the cell finished */
static int cell_load(const char *rundir, struct cell *c, const char *reldir, char *errbuf)
{
	char p[PATH_MAX];
	int ret;

	if (path_join(c->dir, sizeof(c->dir), rundir, reldir))
		return errno_msg(errbuf, -ENAMETOOLONG, "%s/%s: path too long", rundir, reldir);
	if (access(c->dir, F_OK)) {
		strcpy(c->status, "missing");
		snprintf(c->error, sizeof(c->error), "directory %.200s is missing", reldir);
		return 0;
	}
	ret = path_join(p, sizeof(p), c->dir, "cell.json");
	ret = ret ?: cell_json_load(p, c, true, errbuf);
	if (ret || strcmp(c->status, "ok"))
		return ret;
	if (c->control) {
		/* capture off: the workload's files only */
		snprintf(c->rec.dir, sizeof(c->rec.dir), "%s", c->dir);
		ret = record_load_workload(c->dir, &c->rec, errbuf);
	} else {
		ret = record_load(c->dir, &c->rec, errbuf);
	}
	c->ok = !ret;
	return ret;
}

static int check_reldir(const struct jr *j, const char *where, const char *d)
{
	const char *base = strrchr(d, '/') ? strrchr(d, '/') + 1 : d;

	if (!*d || d[0] == '/' || strstr(d, ".."))
		return jr_fail(j, where, "dir", "'%s' must be a relative path inside the run", d);
	if (!strncmp(base, ".partial-", 9))
		return jr_fail(j, where, "dir", "'%s' is an unfinished (.partial-) cell", d);
	return 0;
}

static int cell_entry(const struct jr *j, struct json_object *e, const char *where,
		      const char *rundir, struct cell *c)
{
	char reldir[PATH_MAX];
	const char *base;
	int rep, look = 0, ret;

	ret = jr_str(j, e, where, "workload", c->workload, sizeof(c->workload));
	ret = ret ?: jr_str(j, e, where, "config", c->config, sizeof(c->config));
	ret = ret ?: jr_int(j, e, where, "rep", 1, 1000000, &rep);
	ret = ret ?: jr_str(j, e, where, "dir", reldir, sizeof(reldir));
	ret = ret ?: check_reldir(j, where, reldir);
	ret = ret ?: jr_str_opt(j, e, where, "id", c->id, sizeof(c->id));
	if (!ret && jr_has(e, "look"))
		ret = jr_int(j, e, where, "look", 1, 100, &look);
	if (!ret && jr_has(e, "control"))
		ret = jr_bool(j, e, where, "control", &c->control);
	if (ret)
		return ret;
	c->rep = (unsigned int)rep;
	c->look = (unsigned int)look;
	base = strrchr(reldir, '/') ? strrchr(reldir, '/') + 1 : reldir;
	if (!c->id[0])
		snprintf(c->id, sizeof(c->id), "%.*s", (int)sizeof(c->id) - 1, base);
	return cell_load(rundir, c, reldir, j->errbuf);
}

static int check_duplicates(const struct jr *j, const struct run *run)
{
	size_t a, b;

	for (a = 0; a < run->ncells; a++)
		for (b = 0; b < a; b++)
			if (run->cells[a].rep == run->cells[b].rep &&
			    run->cells[a].control == run->cells[b].control &&
			    !strcmp(run->cells[a].workload, run->cells[b].workload) &&
			    !strcmp(run->cells[a].config, run->cells[b].config))
				return set_err(j->errbuf, "malformed result file %s: cells[%zu] "
					      "repeats %s/%s/r%u%s", j->path, a,
					      run->cells[a].workload, run->cells[a].config,
					      run->cells[a].rep,
					      run->cells[a].control ? " (control)" : "");
	return 0;
}

/* is_segment - a run.json entry of a segment (design alternate) */
static int is_segment(const struct jr *j, struct json_object *e, const char *where, bool *seg)
{
	char design[32];
	int ret = jr_str_opt(j, e, where, "design", design, sizeof(design));

	if (ret)
		return ret;
	*seg = !strcmp(design, "alternate");
	if (design[0] && !*seg && strcmp(design, "cells"))
		return jr_fail(j, where, "design", "'%s' is neither alternate nor cells", design);
	return 0;
}

/* segment_entry - a segment of run.json: its arms' blocks appended to run->cells */
static int segment_entry(const struct jr *j, struct json_object *e, const char *where,
			 struct run *run, size_t *cap)
{
	char reldir[PATH_MAX], dir[PATH_MAX], id[2 * NAME_LEN + 16];
	struct cell *add = NULL;
	size_t n = 0, i;
	int ret;

	ret = jr_str(j, e, where, "dir", reldir, sizeof(reldir));
	ret = ret ?: check_reldir(j, where, reldir);
	ret = ret ?: jr_str_opt(j, e, where, "id", id, sizeof(id));
	if (ret)
		return ret;
	if (path_join(dir, sizeof(dir), run->dir, reldir))
		return errno_msg(j->errbuf, -ENAMETOOLONG, "%s/%s: path too long", run->dir, reldir);
	if (!id[0])
		snprintf(id, sizeof(id), "%.*s", (int)sizeof(id) - 1,
			 strrchr(reldir, '/') ? strrchr(reldir, '/') + 1 : reldir);
	ret = segment_load(dir, run->dir, id, &add, &n, j->errbuf);
	if (ret)
		return ret;
	if (GROW(run->cells, *cap, run->ncells + n)) {
		for (i = 0; i < n; i++)
			run_cell_free(&add[i]);
		free(add);
		return errno_msg(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
	}
	memcpy(run->cells + run->ncells, add, n * sizeof(*add));
	run->ncells += n;
	free(add);
	return 0;
}

static int read_cells(const struct jr *j, struct json_object *root, struct run *run)
{
	struct json_object *arr;
	size_t i, n, cap;
	char where[32];
	bool seg;
	int ret;

	ret = jr_get(j, root, "", "cells", json_type_array, &arr);
	if (ret)
		return ret;
	n = json_object_array_length(arr);
	cap = 0;
	if (GROW(run->cells, cap, n ? n : 1))
		return errno_msg(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);

		snprintf(where, sizeof(where), "cells[%zu]", i);
		if (!json_object_is_type(e, json_type_object))
			return jr_fail(j, "", where, "is not an object");
		ret = is_segment(j, e, where, &seg);
		if (ret)
			return ret;
		if (seg) {
			ret = segment_entry(j, e, where, run, &cap);
		} else {
			if (GROW(run->cells, cap, run->ncells + 1))
				return errno_msg(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
			ret = cell_entry(j, e, where, run->dir, &run->cells[run->ncells++]);
		}
		if (ret)
			return ret;
	}
	return check_duplicates(j, run);
}

static int read_run_meta(const struct jr *j, struct json_object *root, struct run *run)
{
	struct json_object *m;
	int cpus, ret;
	size_t f;

	ret = jr_get(j, root, "", "meta", json_type_object, &m);
	ret = ret ?: jr_str(j, m, "meta", "kernel", run->meta[RM_KERNEL], META_LEN);
	ret = ret ?: jr_str(j, m, "meta", "hostname", run->meta[RM_HOSTNAME], META_LEN);
	ret = ret ?: jr_int(j, m, "meta", "cpus", 1, 1 << 20, &cpus);
	for (f = 0; !ret && f < RM_NR; f++)
		ret = jr_scalar_text(j, m, "meta", run_meta_names[f], run->meta[f], META_LEN);
	return ret;
}

static size_t count_partial(const char *rundir)
{
	char p[PATH_MAX];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	if (path_join(p, sizeof(p), rundir, "cells"))
		return 0;
	d = opendir(p);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, ".partial-", 9);
	closedir(d);
	return n;
}

static int run_json_load(const char *path, struct run *run, char *errbuf)
{
	struct jr j = { .path = path, .errbuf = errbuf };
	struct json_object *root;
	int ret;

	ret = jr_load(&j, &root);
	if (ret)
		return ret;
	ret = jr_schema(&j, root, RUN_SCHEMA);
	if (ret && jr_has(root, "schema") &&
	    !strcmp(json_object_get_string(json_object_object_get(root, "schema")), RUN_SCHEMA_ALT)) {
		errbuf[0] = '\0';
		ret = 0;	/* a run of the alternating design: segments among its cells */
	}
	ret = ret ?: read_run_meta(&j, root, run);
	ret = ret ?: jr_str(&j, root, "", "scenario", run->scenario, sizeof(run->scenario));
	ret = ret ?: jr_bool(&j, root, "", "complete", &run->complete);
	ret = ret ?: read_cells(&j, root, run);
	if (!ret && jr_has(root, "cells_planned")) {
		int planned;

		ret = jr_int(&j, root, "", "cells_planned", 0, 1 << 24, &planned);
		run->planned = (size_t)planned;
	}
	if (!ret && jr_has(root, "looks")) {
		int looks;

		ret = jr_int(&j, root, "", "looks", 1, 100, &looks);
		run->looks = (unsigned int)looks;
	}
	json_object_put(root);
	return ret;
}

/* record_as_run - a record (or cell) directory shown as a run of one cell */
static int record_as_run(struct run *run, char *errbuf)
{
	struct cell *c;
	char p[PATH_MAX];
	int ret;

	run->is_record = true;
	run->complete = true;
	run->ncells = 1;
	run->cells = c = calloc(1, sizeof(*c));
	if (!c)
		return errno_msg(errbuf, -ENOMEM, "out of memory");
	strcpy(c->config, "as-is");
	strcpy(c->status, "ok");
	c->rep = 1;
	strcpy(c->dir, run->dir);
	ret = record_load(run->dir, &c->rec, errbuf);
	if (ret)
		return ret;
	c->ok = true;
	snprintf(c->workload, sizeof(c->workload), "%s",
		 c->rec.wl.present ? c->rec.wl.workload : "system");
	if (file_exists(run->dir, "cell.json")) {
		/* a cell directory given alone: take workload/config/rep from cell.json */
		ret = path_join(p, sizeof(p), run->dir, "cell.json");
		ret = ret ?: cell_json_load(p, c, false, errbuf);
		c->ok = !ret && !strcmp(c->status, "ok");
	}
	snprintf(c->id, sizeof(c->id), "%s--%s--r%u", c->workload, c->config, c->rep);
	strcpy(run->scenario, "record");
	snprintf(run->meta[RM_KERNEL], META_LEN, "%s", c->rec.cap.kernel);
	snprintf(run->meta[RM_HOSTNAME], META_LEN, "%s", c->rec.cap.hostname);
	snprintf(run->meta[RM_VERSION], META_LEN, "%s", c->rec.cap.version);
	snprintf(run->meta[RM_STARTED], META_LEN, "%s", c->rec.cap.started);
	return ret;
}

int run_load(const char *dir, struct run *run, char *errbuf)
{
	char p[PATH_MAX];
	size_t len = strlen(dir);
	int ret;

	memset(run, 0, sizeof(*run));
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (len >= sizeof(run->dir))
		return errno_msg(errbuf, -ENAMETOOLONG, "%s: path too long", dir);
	memcpy(run->dir, dir, len);
	run->dir[len] = '\0';
	if (access(run->dir, F_OK))
		return errno_msg(errbuf, -errno, "%s: %s", run->dir, strerror(errno));
	if (file_exists(run->dir, "run.json")) {
		ret = path_join(p, sizeof(p), run->dir, "run.json");
		ret = ret ?: run_json_load(p, run, errbuf);
		run->npartial = count_partial(run->dir);
	} else if (file_exists(run->dir, "summary.json")) {
		ret = record_as_run(run, errbuf);
	} else {
		ret = errno_msg(errbuf, -ENOENT, "%s is neither a run directory (no run.json) "
			       "nor a record directory (no summary.json)", run->dir);
	}
	if (ret)
		run_free(run);
	return ret;
}
