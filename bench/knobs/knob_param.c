// SPDX-License-Identifier: GPL-2.0
/*
 * knob_param.c - the workqueue module's parameters (param.<name>,
 * /sys/module/workqueue/parameters/): the scope of workqueues left at 'default', and
 * when per-CPU work becomes CPU intensive.
 */
#include "knobs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "msg.h"

static const struct knob_type param_types[] = {
	{ "param.default_affinity_scope", &knob_param_ops, KNOB_WQ_PARAM,
	  "default_affinity_scope", KV_SCOPE_NODFL, 0, 0, KNOB_EARLY,
	  "scope of workqueues left at 'default': cpu, smt, cache_shard, cache, numa, system" },
	{ "param.cpu_intensive_thresh_us", &knob_param_ops, KNOB_WQ_PARAM,
	  "cpu_intensive_thresh_us", KV_INT, 1, 100000000, KNOB_EARLY,
	  "per-CPU work running longer is CPU intensive (us)" },
	{ .pattern = NULL },
};

static int param_parse(const char *rest, struct knob *k, char *errbuf)
{
	char list[200];

	k->type = knob_type_find(&knob_param_ops, KNOB_WQ_PARAM, rest);
	if (!k->type)
		return set_err(errbuf, "'%s' is not a workqueue parameter deferbench changes "
			       "(known: %s)", rest,
			       knob_attrs(&knob_param_ops, KNOB_WQ_PARAM, list, sizeof(list)));
	return 0;
}

static void param_path(const struct knob *k, char *path, char *rpath, size_t len)
{
	snprintf(path, len, WQ_PARAM_DIR "/%s", k->type->attr);
	snprintf(rpath, len, "%s", path);
}

/* param_check - a module parameter must exist and be writable (0644, not 0444) */
static int param_check(const struct knob *k, char *errbuf)
{
	char path[TGT_PATH_MAX], rpath[TGT_PATH_MAX];
	struct stat st;

	param_path(k, path, rpath, sizeof(path));
	if (stat(path, &st))
		return set_err(errbuf, "%s: %s", path, strerror(errno));
	if (!(st.st_mode & S_IWUSR))
		return set_err(errbuf, "%s is read-only on this kernel", path);
	return 0;
}

const struct knob_ops knob_param_ops = {
	.prefix = "param.",
	.types = param_types,
	.parse = param_parse,
	.check = param_check,
	.path = param_path,
};
