// SPDX-License-Identifier: GPL-2.0
/*
 * noise.c - a host's noise floors, noise.json (see noise.h).
 */
#include "noise.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonread.h"
#include "jsonw.h"
#include "grow.h"
#include "msg.h"
#include "file.h"

static struct noise_floor *find(const struct noise *n, const char *workload,
				const char *config, const char *id)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		if (!strcmp(n->f[i].id, id) && !strcmp(n->f[i].workload, workload) &&
		    !strcmp(n->f[i].config, config))
			return &n->f[i];
	return NULL;
}

double noise_floor(const struct noise *n, const char *workload, const char *config,
		   const char *id)
{
	const struct noise_floor *f = find(n, workload, config, id);

	return f ? f->floor : NAN;
}

const struct noise_floor *noise_find(const struct noise *n, const char *workload,
				     const char *config, const char *id)
{
	return find(n, workload, config, id);
}

int noise_add(struct noise *n, const char *workload, const char *config, const char *id,
	      double sd, unsigned int runs, double floor)
{
	struct noise_floor *f = find(n, workload, config, id);

	if (f) {
		f->floor = fmax(f->floor, floor);
		f->sd = fmax(f->sd, sd);
		f->runs = runs < f->runs ? runs : f->runs;
		f->pairs++;
		return 0;
	}
	if (GROW(n->f, n->cap, n->n + 1))
		return -ENOMEM;
	f = &n->f[n->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->workload, sizeof(f->workload), "%s", workload);
	snprintf(f->config, sizeof(f->config), "%s", config);
	snprintf(f->id, sizeof(f->id), "%s", id);
	f->floor = floor;
	f->sd = sd;
	f->runs = runs;
	f->pairs = 1;
	return 0;
}

int noise_save(const char *path, const struct noise *n)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;
	int ret;

	json_object_object_add(o, "schema", json_object_new_string(NOISE_SCHEMA));
	json_object_object_add(o, "host", json_object_new_string(n->host));
	json_object_object_add(o, "kernel", json_object_new_string(n->kernel));
	json_object_object_add(o, "scenario", json_object_new_string(n->scenario));
	json_object_object_add(o, "created", json_object_new_string(n->created));
	json_object_object_add(o, "runs", json_object_new_int(n->runs));
	json_object_object_add(o, "alpha", json_object_new_double(n->alpha));
	json_object_object_add(o, "looks", json_object_new_int(n->looks));
	for (i = 0; i < n->n; i++) {
		json_object *f = json_object_new_object();

		json_object_object_add(f, "workload", json_object_new_string(n->f[i].workload));
		json_object_object_add(f, "config", json_object_new_string(n->f[i].config));
		json_object_object_add(f, "metric", json_object_new_string(n->f[i].id));
		json_object_object_add(f, "sd", json_object_new_double(n->f[i].sd));
		json_object_object_add(f, "runs", json_object_new_int((int)n->f[i].runs));
		json_object_object_add(f, "floor", json_object_new_double(n->f[i].floor));
		json_object_array_add(a, f);
	}
	json_object_object_add(o, "floors", a);
	ret = jsonw_write(path, o, 0644, 0);
	json_object_put(o);
	return ret;
}

static int read_floor(const struct jr *j, json_object *o, size_t i, bool v1,
		      unsigned int file_runs, struct noise *n)
{
	char where[32], wl[NAME_LEN], cfg[NAME_LEN], id[METRIC_ID_LEN];
	double floor, sd = 0;
	int runs = 0, ret;

	snprintf(where, sizeof(where), "floors[%zu]", i);
	ret = jr_str(j, o, where, "workload", wl, sizeof(wl));
	ret = ret ?: jr_str(j, o, where, "config", cfg, sizeof(cfg));
	ret = ret ?: jr_str(j, o, where, "metric", id, sizeof(id));
	ret = ret ?: jr_double(j, o, where, "floor", &floor);
	if (!ret && !v1) {
		ret = jr_double(j, o, where, "sd", &sd);
		ret = ret ?: jr_int(j, o, where, "runs", 3, (long)file_runs, &runs);
	}
	if (ret)
		return ret;
	if (!(floor >= 0 && floor <= NOISE_FLOOR_MAX))
		return jr_fail(j, where, "floor", "%g is not a relative margin between 0 and %g "
			       "(0.25 = 25%%)", floor, NOISE_FLOOR_MAX);
	if (!(sd >= 0 && sd <= NOISE_SD_MAX))
		return jr_fail(j, where, "sd", "%g is not an sd of log figures between 0 and %g",
			       sd, NOISE_SD_MAX);
	if (noise_add(n, wl, cfg, id, sd, (unsigned int)runs, floor))
		return errno_msg(j->errbuf, -ENOMEM, "out of memory");
	return 0;
}

int noise_load(const char *path, struct noise *n, char *errbuf)
{
	struct jr j = { path, errbuf };
	json_object *o, *a;
	int runs, looks = 1, ret;
	char schema[64];
	bool v1;
	size_t i;

	memset(n, 0, sizeof(*n));
	snprintf(n->path, sizeof(n->path), "%s", path);
	ret = jr_load(&j, &o);
	if (ret)
		return ret;
	/* schema 1: floors from pairs of runs, no spread; read, counted as uncalibrated */
	v1 = !jr_str(&j, o, "", "schema", schema, sizeof(schema)) &&
	     !strcmp(schema, NOISE_SCHEMA_1);
	ret = v1 ? 0 : jr_schema(&j, o, NOISE_SCHEMA);
	ret = ret ?: jr_str_opt(&j, o, "", "host", n->host, sizeof(n->host));
	ret = ret ?: jr_str_opt(&j, o, "", "kernel", n->kernel, sizeof(n->kernel));
	ret = ret ?: jr_str_opt(&j, o, "", "scenario", n->scenario, sizeof(n->scenario));
	ret = ret ?: jr_str_opt(&j, o, "", "created", n->created, sizeof(n->created));
	ret = ret ?: jr_int(&j, o, "", "runs", v1 ? 2 : 3, 1000, &runs);
	ret = ret ?: jr_double(&j, o, "", "alpha", &n->alpha);
	if (!ret && !(n->alpha > 0 && n->alpha < 0.5))
		ret = jr_fail(&j, "", "alpha", "%g is not a level between 0 and 0.5", n->alpha);
	if (!ret && jr_has(o, "looks"))
		ret = jr_int(&j, o, "", "looks", 1, 100, &looks);
	n->looks = looks;
	ret = ret ?: jr_get(&j, o, "", "floors", json_type_array, &a);
	for (i = 0; !ret && i < json_object_array_length(a); i++)
		ret = read_floor(&j, json_object_array_get_idx(a, i), i, v1, (unsigned int)runs,
				 n);
	n->runs = (unsigned int)runs;
	json_object_put(o);
	if (ret)
		noise_free(n);
	return ret;
}

void noise_free(struct noise *n)
{
	free(n->f);
	n->f = NULL;
	n->n = n->cap = 0;
}

int noise_load_dir(const char *dir, struct noise *n, char *errbuf)
{
	char path[PATH_MAX];

	memset(n, 0, sizeof(*n));
	if (path_join(path, sizeof(path), dir, "noise.json"))
		return errno_msg(errbuf, -ENAMETOOLONG, "%s: path too long", dir);
	if (access(path, F_OK))
		return -ENOENT;
	return noise_load(path, n, errbuf);
}
