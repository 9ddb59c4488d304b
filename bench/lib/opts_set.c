// SPDX-License-Identifier: GPL-2.0
/*
 * opts_set.c - the settings engine's values (opts.h): each type parsed from text, as a
 * command line or a file gives it, and printed back; settings by key.
 */
#define DEFERBENCH_ALLOW_OPTS_INT_H
#include "opts_int.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "fmt.h"
#include "msg.h"
#include "cpulist.h"
#include "parse.h"

void opts_names(char *buf, size_t len, const char *const *names, int n)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", names[i]);
}

/*
 * parse_enum - one of the choices; where they include yes and no, a boolean word too
 * ("on", "1"), as every yes/no setting takes
 */
static int parse_enum(const struct opt_desc *o, const char *arg, int *out, char *why)
{
	char names[ERRBUF_LEN - 64];
	bool b;
	int i;

	for (i = 0; i < o->nchoices; i++)
		if (!strcmp(o->choices[i], arg)) {
			*out = i;
			return 0;
		}
	if (!parse_bool(arg, &b, NULL))
		for (i = 0; i < o->nchoices; i++)
			if (!strcmp(o->choices[i], b ? "yes" : "no")) {
				*out = i;
				return 0;
			}
	opts_names(names, sizeof(names), o->choices, o->nchoices);
	return set_err(why, "'%s' is none of %s", arg, names);
}

static bool is_none(const char *arg)
{
	return !strcmp(arg, "0") || !strcmp(arg, "off") || !strcmp(arg, "no");
}

static int parse_bounded_duration(const struct opt_desc *o, const char *arg, uint64_t *out,
				  char *why)
{
	char a[32], b[32];
	uint64_t ns;

	if (o->zero && is_none(arg)) {
		*out = 0;
		return 0;
	}
	if (parse_duration_ns(arg, &ns, why))
		return -EINVAL;
	if (o->min > 1 && o->max && (ns < o->min || ns > o->max))
		return set_err(why, "%s is out of range [%s, %s]", arg,
			       fmt_duration(o->min, a, sizeof(a)), fmt_duration(o->max, b, sizeof(b)));
	if (ns < o->min)
		return set_err(why, "%s is shorter than %s", arg,
			       fmt_duration(o->min, a, sizeof(a)));
	if (o->max && ns > o->max)
		return set_err(why, "%s is longer than %s", arg,
			       fmt_duration(o->max, b, sizeof(b)));
	*out = ns;
	return 0;
}

static int set_string(const struct opt_desc *o, const char *arg, void *p, char *why)
{
	if (!*arg && !o->zero)
		return set_err(why, "the value is empty");
	if (!o->size) {
		*(const char **)p = arg;
		return 0;
	}
	if (strlen(arg) >= o->size)
		return set_err(why, "longer than %zu characters", o->size - 1);
	strcpy(p, arg);
	return 0;
}

static int set_cpus(const struct opt_desc *o, const char *arg, void *args, void *p, char *why)
{
	const char *online = *(const char *const *)opts_field(args, o->off2);
	char buf[1024];
	cpu_set_t cpus;

	if (cpulist_parse(arg, &cpus, online, why))
		return -EINVAL;
	cpulist_format(&cpus, buf, sizeof(buf));
	return set_string(o, buf, p, why);
}

static int set_cpuset(const char *arg, cpu_set_t *set, char *why)
{
	if (!strcmp(arg, "all"))
		return cpulist_online(set) > 0 ? 0 : set_err(why, "cannot read the online CPUs");
	return cpulist_parse(arg, set, NULL, why);
}

int opts_parse_value(const struct opt_desc *o, const char *arg, void *args, char *why)
{
	void *p = opts_field(args, o->off);
	cpu_set_t cpus;
	uint64_t u;
	double d;
	bool b;
	int i;
	size_t *n;

	switch (o->type) {
	case OPTION_BOOL:
		if (parse_bool(arg, &b, why))
			return -EINVAL;
		*(bool *)p = b;
		return 0;
	case OPTION_STRING:
		return set_string(o, arg, p, why);
	case OPTION_CPULIST:
		return set_cpus(o, arg, args, p, why);
	case OPTION_CPUSET:
		if (set_cpuset(arg, &cpus, why))
			return -EINVAL;
		memcpy(p, &cpus, sizeof(cpus));
		return 0;
	case OPTION_INT:
		if (parse_int(arg, (long)(int64_t)o->min, (long)(int64_t)o->max, &i, why))
			return -EINVAL;
		*(int *)p = i;
		return 0;
	case OPTION_UINT:
		if (parse_u64(arg, o->min, o->max, &u, why))
			return -EINVAL;
		*(unsigned int *)p = (unsigned int)u;
		return 0;
	case OPTION_U64:
		return parse_u64(arg, o->min, o->max, p, why);
	case OPTION_SIZE:
		return parse_size(arg, o->min, o->max, p, why);
	case OPTION_DURATION:
		return parse_bounded_duration(o, arg, p, why);
	case OPTION_DOUBLE:
		if (parse_double(arg, o->fmin, o->fmax, &d, why))
			return -EINVAL;
		/* decimals stay decimals: 1 - 0.95 is 0.05, not 0.050000000000000044 */
		*(double *)p = o->complement ? round((1 - d) * 1e9) / 1e9 : d;
		return 0;
	case OPTION_PERCENT:
		if (parse_double(arg, o->fmin, o->fmax, &d, why))
			return -EINVAL;
		*(double *)p = d / 100;
		return 0;
	case OPTION_ENUM:
		if (parse_enum(o, arg, &i, why))
			return -EINVAL;
		*(int *)p = i;
		return 0;
	case OPTION_STRING_LIST:
		n = opts_field(args, o->off2);
		if (*n >= o->max)
			return set_err(why, "at most %llu of them", (unsigned long long)o->max);
		((const char **)p)[(*n)++] = arg;
		return 0;
	case OPTION_CALLBACK:
		return o->cb(o, arg, args, why);
	default:
		return set_err(why, "internal error: option of type %d", o->type);
	}
}

/*
 * Files: settings by key.
 */

const struct opt_desc *opts_find_key(const struct opt_desc *t, const char *key)
{
	for (; t->type != OPTION_END; t++)
		if (t->key && t->type != OPTION_SET_VALUE && t->type != OPTION_ALIAS &&
		    !strcmp(t->key, key))
			return t;
	return NULL;
}

int opts_set(const struct opt_desc *t, const char *key, const char *val, void *args,
	     char *errbuf)
{
	const struct opt_desc *o = opts_find_key(t, key);

	if (!o)
		return -ENOENT;
	return opts_parse_value(o, val, args, errbuf) ? -EINVAL : 0;
}

int opts_defaults(const struct opt_desc *t, void *args, char *errbuf)
{
	char why[ERRBUF_LEN];
	const struct opt_desc *o;

	for (o = t; o->type != OPTION_END; o++)
		if (o->def && o->type != OPTION_SET_VALUE && opts_parse_value(o, o->def, args, why))
			return set_err(errbuf, "internal error: the default of %s: %s",
				       o->key ? o->key : o->name, why);
	return 0;
}

void opts_keys(const struct opt_desc *t, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; t->type != OPTION_END && off < len; t++)
		if (t->key && t->type != OPTION_SET_VALUE)
			off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "", t->key);
}

void opts_bytes(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "GMk";
	int i;

	for (i = 0; i < 3; i++) {
		uint64_t m = 1ULL << (10 * (3 - i));

		if (v && v % m == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(v / m), units[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

int opts_value(const struct opt_desc *o, const void *args, char *buf, size_t len)
{
	const void *p = opts_cfield(args, o->off);
	uint64_t u;
	double d;
	int i;

	switch (o->type) {
	case OPTION_U64:
		memcpy(&u, p, sizeof(u));
		snprintf(buf, len, "%llu", (unsigned long long)u);
		return 0;
	case OPTION_UINT:
		snprintf(buf, len, "%u", *(const unsigned int *)p);
		return 0;
	case OPTION_INT:
		memcpy(&i, p, sizeof(i));
		snprintf(buf, len, "%d", i);
		return 0;
	case OPTION_DOUBLE:
		memcpy(&d, p, sizeof(d));
		snprintf(buf, len, "%.17g", o->complement ? 1 - d : d);
		return 0;
	case OPTION_PERCENT:
		memcpy(&d, p, sizeof(d));
		snprintf(buf, len, "%g", d * 100);
		return 0;
	case OPTION_DURATION:
		memcpy(&u, p, sizeof(u));
		if (!u && o->zero)
			snprintf(buf, len, "off");
		else
			fmt_duration(u, buf, len);
		return 0;
	case OPTION_SIZE:
		memcpy(&u, p, sizeof(u));
		opts_bytes(u, buf, len);
		return 0;
	case OPTION_BOOL:
		snprintf(buf, len, "%s", *(const bool *)p ? "yes" : "no");
		return 0;
	case OPTION_ENUM:
		memcpy(&i, p, sizeof(i));
		if (i < 0 || i >= o->nchoices)
			return -EINVAL;
		snprintf(buf, len, "%s", o->choices[i]);
		return 0;
	case OPTION_CPUSET:
		cpulist_format(p, buf, len);
		return 0;
	case OPTION_STRING:
	case OPTION_CPULIST:
		snprintf(buf, len, "%s", o->size ? (const char *)p :
			 *(const char *const *)p ? *(const char *const *)p : "");
		return 0;
	default:
		return -EINVAL;
	}
}
