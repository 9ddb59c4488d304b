// SPDX-License-Identifier: GPL-2.0
/*
 * knobs.c - knob names: the classes of what deferbench may change (knob_classes[], one
 * ops table each, in its own file), and pure validation of "name = value" (no file is
 * read but the online CPU list). Values: knobs_value.c; targets: knobs_sys.c.
 */
#include "knobs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "cpulist.h"
#include "parse.h"

const struct knob_ops *const knob_classes[] = {
	&knob_wq_ops, &knob_param_ops, &knob_sched_ops, &knob_rt_ops, &knob_sysctl_ops,
	&knob_netdev_ops, NULL,
};

/*
 * The kernel's wq_affn_names (kernel/workqueue.c); cache_shard is newer than 6.18: a
 * kernel without it reads it as cache (parse_affn_scope() matches a prefix), the read
 * back differs, and knob_target_write() says why
 */
const char *const knob_scope_names[] = {
	"default", "cpu", "smt", "cache_shard", "cache", "numa", "system", NULL,
};

bool knob_safe_name(const char *s)
{
	const char *p;

	if (!s || !*s || strlen(s) >= KNOB_OBJ_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (p = s; *p; p++)
		if (*p == '/' || !isgraph((unsigned char)*p))
			return false;
	return true;
}

/* check_mask_online - a mask's CPUs must be online, and it must not be empty */
static int check_mask_online(const struct knob *k, const char *online, char *errbuf)
{
	cpu_set_t set, on, extra;
	char list[128], onl[128], hex[80];

	knob_cpumask_parse_hex(k->value, &set, NULL);
	if (!CPU_COUNT(&set) && k->type->val == KV_MASK)
		return set_err(errbuf, "mask 0 selects no CPU");
	if (online ? cpulist_parse_raw(online, &on, NULL) : cpulist_online(&on) < 0 ? -1 : 0)
		return set_err(errbuf, "cannot read the online CPUs");
	CPU_XOR(&extra, &set, &on);
	CPU_AND(&extra, &extra, &set);
	if (CPU_COUNT(&extra))
		return set_err(errbuf, "mask %s selects CPU %s, not online (online: %s, mask %s)",
			       k->value, cpulist_format(&extra, list, sizeof(list)),
			       cpulist_format(&on, onl, sizeof(onl)),
			       knob_cpumask_format_hex(&on, hex, sizeof(hex)));
	return 0;
}

/* check_value - bounds and known names, after canonicalisation */
static int check_value(const struct knob *k, const char *online, char *errbuf)
{
	const struct knob_type *t = k->type;
	const char *const *n;
	long long v;

	switch (t->val) {
	case KV_INT:
		v = strtoll(k->value, NULL, 10);
		if (v < t->min || v > t->max)
			return set_err(errbuf, "%lld is out of range [%ld, %ld]", v, t->min, t->max);
		return 0;
	case KV_MASK:
	case KV_MASK0:
		return check_mask_online(k, online, errbuf);
	case KV_SCOPE:
	case KV_SCOPE_NODFL:
		if (t->val == KV_SCOPE_NODFL && !strcmp(k->value, "default"))
			return set_err(errbuf, "'default' is what this parameter defines; "
				       "use cpu, smt, cache_shard, cache, numa or system");
		for (n = knob_scope_names; *n; n++)
			if (!strcmp(*n, k->value))
				return 0;
		return set_err(errbuf, "unknown affinity scope '%s' (default, cpu, smt, "
			       "cache_shard, cache, numa, system)", k->value);
	default:
		return 0;
	}
}

const struct knob_type *knob_type_next(const struct knob_type *t)
{
	const struct knob_ops *const *c;

	if (!t)
		return knob_classes[0]->types;
	if ((++t)->pattern)
		return t;
	for (c = knob_classes; *c && *c != t[-1].ops; c++)
		;
	return *c && c[1] ? c[1]->types : NULL;
}

const struct knob_type *knob_type_find(const struct knob_ops *ops, enum knob_class cls,
				       const char *attr)
{
	const struct knob_type *t;

	for (t = ops->types; t->pattern; t++)
		if (t->cls == cls && (!attr || (t->attr && !strcmp(t->attr, attr))))
			return t;
	return NULL;
}

const char *knob_attrs(const struct knob_ops *ops, enum knob_class cls, char *buf, size_t len)
{
	const struct knob_type *t;
	size_t off = 0;

	buf[0] = '\0';
	for (t = ops->types; t->pattern; t++)
		if (t->cls == cls && t->attr && off < len)
			off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "", t->attr);
	return buf;
}

/* parse_class - the class whose prefix the name has parses the rest (or leaves it on) */
static int parse_class(const char *name, struct knob *k, char *errbuf)
{
	const struct knob_ops *const *c;
	int ret;

	for (c = knob_classes; *c; c++) {
		if (strncmp(name, (*c)->prefix, strlen((*c)->prefix)))
			continue;
		ret = (*c)->parse(name + strlen((*c)->prefix), k, errbuf);
		if (ret <= 0)
			return ret;
	}
	return set_err(errbuf, "unknown knob '%s' (knobs start with wq., param., sched., "
		       "sysctl.net.core. or netdev.)", name);
}

int knob_parse_name(const char *name, struct knob *k, char *errbuf)
{
	memset(k, 0, sizeof(*k));
	k->cpu = -1;
	if (!name || strlen(name) >= sizeof(k->name))
		return set_err(errbuf, "knob name too long");
	strcpy(k->name, name);
	return parse_class(name, k, errbuf);
}

int knob_parse(const char *name, const char *value, struct knob *k, const char *online,
	       char *errbuf)
{
	int ret;

	ret = knob_parse_name(name, k, errbuf);
	if (ret)
		return ret;
	if (!value || !*value)
		return set_err(errbuf, "empty value");
	ret = knob_value_canon(k->type, value, k->value, sizeof(k->value), errbuf);
	if (ret)
		return ret;
	return check_value(k, online, errbuf);
}
