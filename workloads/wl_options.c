// SPDX-License-Identifier: GPL-2.0
/*
 * wl_options.c - workload options: parse "key=value" into the workload's config
 * through its wl_option table (type and bounds checked), print values back, and list
 * every option for 'deferbench load --list'. Pure functions of the table: no root.
 */
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include "fmt.h"
#include "msg.h"
#include "parse.h"

static const char *const type_names[] = {
	[WL_OPT_U64] = "integer",
	[WL_OPT_INT] = "integer",
	[WL_OPT_DOUBLE] = "number",
	[WL_OPT_DURATION] = "duration",
	[WL_OPT_SIZE] = "size",
	[WL_OPT_BOOL] = "bool",
	[WL_OPT_ENUM] = "choice",
	[WL_OPT_CPULIST] = "cpulist",
	[WL_OPT_STRING] = "string",
};

const struct wl_option *wl_option_find(const struct workload_ops *ops, const char *name)
{
	const struct wl_option *o;

	for (o = ops->options; o && o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/* list_names - "a, b, c" for error messages */
static void list_names(char *buf, size_t len, const char *const *names, size_t stride,
		       size_t n)
{
	size_t off = 0, i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++) {
		const char *s = *(const char *const *)((const char *)names + i * stride);

		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", s);
	}
}

static size_t count_options(const struct wl_option *o)
{
	size_t n = 0;

	while (o && o[n].name)
		n++;
	return n;
}

static size_t count_choices(const char *const *c)
{
	size_t n = 0;

	while (c && c[n])
		n++;
	return n;
}

/* format_bytes - "64k", "16M" when exact, bytes otherwise */
static void format_bytes(uint64_t v, char *buf, size_t len)
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

static int parse_duration_opt(const struct wl_option *o, const char *val, uint64_t *out,
			      char *errbuf)
{
	char a[32], b[32];
	uint64_t ns;
	int ret;

	ret = parse_duration_ns(val, &ns, errbuf);
	if (ret)
		return ret;
	if ((double)ns < o->min || (double)ns > o->max) {
		fmt_duration((uint64_t)o->min, a, sizeof(a));
		fmt_duration((uint64_t)o->max, b, sizeof(b));
		return set_err(errbuf, "%s is out of range [%s, %s]", val, a, b);
	}
	*out = ns;
	return 0;
}

static int parse_enum_opt(const struct wl_option *o, const char *val, int *out,
			  char *errbuf)
{
	size_t i, n = count_choices(o->choices);
	char list[160];

	for (i = 0; i < n; i++) {
		if (!strcmp(o->choices[i], val)) {
			*out = (int)i;
			return 0;
		}
	}
	list_names(list, sizeof(list), o->choices, sizeof(char *), n);
	return set_err(errbuf, "'%s' is not one of: %s", val, list);
}

static int parse_cpulist_opt(const char *val, cpu_set_t *set, char *errbuf)
{
	if (!strcmp(val, "all"))
		return online_cpus(set) > 0 ? 0 : set_err(errbuf, "cannot read the online CPUs");
	return parse_cpulist(val, set, NULL, errbuf);
}

/* parse_value - one option's text into its slot in the config; errbuf says why not */
static int parse_value(const struct wl_option *o, const char *val, void *slot, char *errbuf)
{
	switch (o->type) {
	case WL_OPT_U64:
		return parse_u64(val, (uint64_t)o->min, (uint64_t)o->max, slot, errbuf);
	case WL_OPT_INT:
		return parse_int(val, (long)o->min, (long)o->max, slot, errbuf);
	case WL_OPT_DOUBLE:
		return parse_double(val, o->min, o->max, slot, errbuf);
	case WL_OPT_DURATION:
		return parse_duration_opt(o, val, slot, errbuf);
	case WL_OPT_SIZE:
		return parse_size(val, (uint64_t)o->min, (uint64_t)o->max, slot, errbuf);
	case WL_OPT_BOOL:
		return parse_bool(val, slot, errbuf);
	case WL_OPT_ENUM:
		return parse_enum_opt(o, val, slot, errbuf);
	case WL_OPT_CPULIST:
		return parse_cpulist_opt(val, slot, errbuf);
	case WL_OPT_STRING:
		if (strlen(val) >= WL_STR_MAX)
			return set_err(errbuf, "longer than %d characters", WL_STR_MAX - 1);
		strcpy(slot, val);
		return 0;
	}
	return set_err(errbuf, "unknown option type %d", (int)o->type);
}

/* A value parsed, before it is stored: a bad value leaves the old one in place. */
union opt_value {
	uint64_t u;
	int i;
	double d;
	bool b;
	cpu_set_t set;
	char s[WL_STR_MAX];
};

/* opt_size - the bytes an option of o's type takes in the config */
static size_t opt_size(const struct wl_option *o)
{
	switch (o->type) {
	case WL_OPT_U64: case WL_OPT_DURATION: case WL_OPT_SIZE:
		return sizeof(uint64_t);
	case WL_OPT_INT: case WL_OPT_ENUM:
		return sizeof(int);
	case WL_OPT_DOUBLE:
		return sizeof(double);
	case WL_OPT_BOOL:
		return sizeof(bool);
	case WL_OPT_CPULIST:
		return sizeof(cpu_set_t);
	case WL_OPT_STRING:
		return WL_STR_MAX;
	}
	return 0;
}

/* opt_parse - the option called key of w, and val parsed for it; message in errbuf */
static const struct wl_option *opt_parse(const struct wl_run *w, const char *key,
					 const char *val, union opt_value *tmp, char *errbuf)
{
	const struct wl_option *o = wl_option_find(w->ops, key);
	char why[ERRBUF_LEN], list[ERRBUF_LEN - 64];

	if (!o) {
		list[0] = '\0';
		if (w->ops->options)
			list_names(list, sizeof(list), &w->ops->options[0].name,
				   sizeof(struct wl_option), count_options(w->ops->options));
		set_err(errbuf, "%s has no option '%s' (options: %s)", w->ops->name, key,
			list[0] ? list : "none");
		return NULL;
	}
	memset(tmp, 0, sizeof(*tmp));
	if (parse_value(o, val ? val : "", tmp, why)) {
		set_err(errbuf, "%s option '%s': %s", w->ops->name, key, why);
		return NULL;
	}
	return o;
}

int wl_set_option(struct wl_run *w, const char *key, const char *val, char *errbuf)
{
	const struct wl_option *o;
	union opt_value tmp;

	if (w->state && wl_option_find(w->ops, key))
		return set_err(errbuf, "%s: option '%s' set after setup", w->ops->name, key);
	o = opt_parse(w, key, val, &tmp, errbuf);
	if (!o)
		return -EINVAL;
	memcpy((char *)w->cfg + o->offset, &tmp, opt_size(o));
	return 0;
}

/* is_live - key is one of ops' live options */
static bool is_live(const struct workload_ops *ops, const char *key)
{
	const char *const *l;

	for (l = ops->live; l && *l; l++)
		if (!strcmp(*l, key))
			return true;
	return false;
}

bool workload_live_option(const char *name, const char *key)
{
	const struct workload_ops *ops = workload_find(name);

	return ops && ops->switch_option && is_live(ops, key);
}

int wl_switch_option(struct wl_run *w, const char *key, const char *val, char *errbuf)
{
	unsigned char old[sizeof(union opt_value)];
	const struct wl_option *o;
	union opt_value tmp;
	int ret;

	if (!w->ops->switch_option || !is_live(w->ops, key))
		return set_err(errbuf, "%s cannot switch option '%s' while it runs", w->ops->name,
			       key);
	o = opt_parse(w, key, val, &tmp, errbuf);
	if (!o)
		return -EINVAL;
	memcpy(old, (char *)w->cfg + o->offset, opt_size(o));
	memcpy((char *)w->cfg + o->offset, &tmp, opt_size(o));
	ret = w->ops->switch_option(w, key, errbuf);
	if (ret)
		memcpy((char *)w->cfg + o->offset, old, opt_size(o));
	return ret;
}

int wl_option_value(const struct wl_run *w, const struct wl_option *o, char *buf, size_t len)
{
	const void *p = (const char *)w->cfg + o->offset;
	uint64_t u;
	double d;
	int i;

	switch (o->type) {
	case WL_OPT_U64:
		memcpy(&u, p, sizeof(u));
		snprintf(buf, len, "%llu", (unsigned long long)u);
		return 0;
	case WL_OPT_INT:
		memcpy(&i, p, sizeof(i));
		snprintf(buf, len, "%d", i);
		return 0;
	case WL_OPT_DOUBLE:
		memcpy(&d, p, sizeof(d));
		snprintf(buf, len, "%.17g", d);
		return 0;
	case WL_OPT_DURATION:
		memcpy(&u, p, sizeof(u));
		fmt_duration(u, buf, len);
		return 0;
	case WL_OPT_SIZE:
		memcpy(&u, p, sizeof(u));
		format_bytes(u, buf, len);
		return 0;
	case WL_OPT_BOOL:
		snprintf(buf, len, "%s", *(const bool *)p ? "yes" : "no");
		return 0;
	case WL_OPT_ENUM:
		memcpy(&i, p, sizeof(i));
		if (i < 0 || (size_t)i >= count_choices(o->choices))
			return -EINVAL;
		snprintf(buf, len, "%s", o->choices[i]);
		return 0;
	case WL_OPT_CPULIST:
		cpulist_format(p, buf, len);
		return 0;
	case WL_OPT_STRING:
		snprintf(buf, len, "%s", (const char *)p);
		return 0;
	}
	return -EINVAL;
}

/* bounds_text - "[1, 100000]", "[50us, 1s]", "one of timer, net", "" */
static void bounds_text(const struct wl_option *o, char *buf, size_t len)
{
	char a[32], b[32], list[160];

	switch (o->type) {
	case WL_OPT_U64: case WL_OPT_INT: case WL_OPT_DOUBLE:
		snprintf(buf, len, "[%g, %g]", o->min, o->max);
		break;
	case WL_OPT_DURATION:
		fmt_duration((uint64_t)o->min, a, sizeof(a));
		fmt_duration((uint64_t)o->max, b, sizeof(b));
		snprintf(buf, len, "[%s, %s]", a, b);
		break;
	case WL_OPT_SIZE:
		format_bytes((uint64_t)o->min, a, sizeof(a));
		format_bytes((uint64_t)o->max, b, sizeof(b));
		snprintf(buf, len, "[%s, %s]", a, b);
		break;
	case WL_OPT_ENUM:
		list_names(list, sizeof(list), o->choices, sizeof(char *),
			   count_choices(o->choices));
		snprintf(buf, len, "{%s}", list);
		break;
	case WL_OPT_CPULIST:
		snprintf(buf, len, "online CPUs or 'all'");
		break;
	case WL_OPT_BOOL:
		snprintf(buf, len, "yes|no");
		break;
	default:
		buf[0] = '\0';
	}
}

void wl_list(FILE *f, const struct workload_ops *only)
{
	const struct workload_ops *const *r;
	const struct wl_option *o;
	char bounds[200];

	for (r = workload_registry; *r; r++) {
		if (only && *r != only)
			continue;
		fprintf(f, "%s - %s\n", (*r)->name, (*r)->help);
		for (o = (*r)->options; o && o->name; o++) {
			bounds_text(o, bounds, sizeof(bounds));
			fprintf(f, "  %-14s %-8s default %-8s %s\n", o->name, type_names[o->type],
				o->def ? o->def : "-", bounds);
			fprintf(f, "  %14s %s\n", "", o->help);
		}
		fprintf(f, "\n");
	}
}
