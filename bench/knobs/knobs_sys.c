// SPDX-License-Identifier: GPL-2.0
/*
 * knobs_sys.c - knobs on this machine, whatever their class: check that a knob can be
 * applied, resolve it to its targets (the one file its class names, or what the class
 * resolves itself), write, read back and compare, restore.
 */
#include "knobs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "file.h"

int knob_check(const struct knob *k, char *errbuf)
{
	const struct knob_ops *ops = k->type->ops;
	char path[TGT_PATH_MAX], rpath[TGT_PATH_MAX];

	if (ops->check)
		return ops->check(k, errbuf);
	ops->path(k, path, rpath, sizeof(path));
	return access(path, F_OK) ? set_err(errbuf, "%s does not exist here", path) : 0;
}

int knob_file_target(const struct knob *k, const char *path, const char *rpath,
		     struct knob_target *t, char *errbuf)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->kind = TGT_FILE;
	t->type = k->type;
	snprintf(t->knob, sizeof(t->knob), "%s", k->name);
	snprintf(t->path, sizeof(t->path), "%s", path);
	/* the file read back where it is there (the kernel may not have it) */
	snprintf(t->rpath, sizeof(t->rpath), "%s", access(rpath, F_OK) ? path : rpath);
	ret = knob_target_read(t, t->orig, sizeof(t->orig));
	if (ret)
		set_err(errbuf, "reading %s: %s", t->rpath, strerror(-ret));
	return ret;
}

int knob_resolve(const struct knob *k, unsigned long long since_ticks,
		 struct knob_target **out, int *n, char *errbuf)
{
	const struct knob_ops *ops = k->type->ops;
	char path[TGT_PATH_MAX], rpath[TGT_PATH_MAX];
	int ret;

	*out = NULL;
	*n = 0;
	if (ops->resolve)
		return ops->resolve(k, since_ticks, out, n, errbuf);
	ret = knob_check(k, errbuf);
	if (ret)
		return ret;
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	ops->path(k, path, rpath, sizeof(path));
	ret = knob_file_target(k, path, rpath, *out, errbuf);
	if (ret) {
		free(*out);
		*out = NULL;
		return ret;
	}
	*n = 1;
	return 0;
}

int knob_target_read(const struct knob_target *t, char *val, size_t len)
{
	char raw[256];
	int ret;

	if (t->type->ops->read)
		return t->type->ops->read(t, val, len);
	ret = read_file(t->rpath, raw, sizeof(raw));
	if (ret)
		return ret;
	return knob_value_canon(t->type, raw, val, len, NULL) ? -EINVAL : 0;
}

/* put - val into the target, by its class or into its file */
static int put(const struct knob_target *t, const char *val, char *errbuf)
{
	int ret;

	if (t->type->ops->write)
		return t->type->ops->write(t, val, errbuf);
	ret = write_file(t->path, val);
	if (ret && ret != -ESRCH)
		set_err(errbuf, "writing '%s' to %s: %s", val, t->path, strerror(-ret));
	return ret;
}

int knob_target_write(const struct knob_target *t, const char *val, char *errbuf)
{
	char now[KNOB_VALUE_MAX], desc[TGT_PATH_MAX + 32];
	int ret;

	ret = knob_target_read(t, now, sizeof(now));
	if (ret == -ESRCH)
		return ret;
	if (ret || !knob_value_equal(t->type, now, val)) {
		ret = put(t, val, errbuf);
		if (ret)
			return ret;
		ret = knob_target_read(t, now, sizeof(now));
	}
	if (ret) {
		set_err(errbuf, "reading back %s: %s", knob_target_describe(t, desc, sizeof(desc)),
			strerror(-ret));
		return ret;
	}
	if (!knob_value_equal(t->type, now, val)) {
		/*
		 * parse_affn_scope() matches a prefix: a kernel without cache_shard reads it
		 * as cache rather than refusing it
		 */
		if (t->type->val == KV_SCOPE || t->type->val == KV_SCOPE_NODFL)
			set_err(errbuf, "%s: wrote '%s', the kernel shows '%s': this kernel has no "
				"affinity scope '%s' (cache_shard came after 6.18)",
				knob_target_describe(t, desc, sizeof(desc)), val, now, val);
		else
			set_err(errbuf, "%s: wrote '%s', the kernel shows '%s'",
				knob_target_describe(t, desc, sizeof(desc)), val, now);
		return -EIO;
	}
	return t->type->ops->written ? t->type->ops->written(t, val, errbuf) : 0;
}

int knob_target_restore(const struct knob_target *t, char *errbuf)
{
	int ret = knob_target_write(t, t->orig, errbuf);

	return ret == -ESRCH ? 0 : ret;
}

bool knob_target_same(const struct knob_target *t, const struct knob_target *u)
{
	if (t->kind != u->kind)
		return false;
	if (t->kind == TGT_FILE)
		return !strcmp(t->path, u->path);
	return t->pid == u->pid && t->start == u->start;
}

const char *knob_target_describe(const struct knob_target *t, char *buf, size_t len)
{
	if (t->kind == TGT_FILE)
		snprintf(buf, len, "%s", t->path);
	else
		snprintf(buf, len, "%s (pid %d)", t->comm, t->pid);
	return buf;
}

bool knob_target_allowed(const struct knob_target *t)
{
	char path[TGT_PATH_MAX], rpath[TGT_PATH_MAX];
	const struct knob_ops *ops;
	struct knob k;

	if (knob_parse_name(t->knob, &k, NULL) || k.type != t->type)
		return false;
	ops = k.type->ops;
	if (ops->allowed)
		return ops->allowed(&k, t);
	if (t->kind != TGT_FILE)
		return false;
	ops->path(&k, path, rpath, sizeof(path));
	return !strcmp(path, t->path) && (!strcmp(t->rpath, t->path) || !strcmp(t->rpath, rpath));
}
