// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - the settings engine (opts.h): the command line, files' key = value and the
 * help from one table per command, scenario section or workload.
 */
#include "opts.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "msg.h"
#include "parse.h"

#define LONG_BASE 256		/* getopt's val of a long option: LONG_BASE + its row */
#define HELP_WIDTH 80
#define HELP_INDENT 29		/* "  " + the left column + " " */

static void *field(void *args, size_t off)
{
	return (char *)args + off;
}

static const void *cfield(const void *args, size_t off)
{
	return (const char *)args + off;
}

/*
 * The rows of a command line: the entries of a table, and in place of each OPT_LAYER
 * the spelled entries of its table, each row knowing the layer it came through.
 */
struct row {
	const struct opt_desc *o;
	const struct opt_desc *layer;	/* the OPT_LAYER entry, or NULL */
};

struct view {
	struct row r[OPTS_MAX];
	int n;
};

static bool spelled(const struct opt_desc *o)
{
	return o->letter || o->name;
}

static int view_of(const struct opt_desc *t, struct view *v)
{
	const struct opt_desc *s;

	v->n = 0;
	for (; t->type != OPTION_END; t++) {
		if (t->type != OPTION_LAYER) {
			if (v->n == OPTS_MAX)
				return -E2BIG;
			v->r[v->n++] = (struct row){ t, NULL };
			continue;
		}
		for (s = t->sub; s->type != OPTION_END; s++) {
			if (!spelled(s))
				continue;
			if (v->n == OPTS_MAX)
				return -E2BIG;
			v->r[v->n++] = (struct row){ s, t };
		}
	}
	return 0;
}

/* row_of - the row of entry o in v, or NULL */
static const struct row *row_of(const struct view *v, const struct opt_desc *o)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (v->r[i].o == o)
			return &v->r[i];
	return NULL;
}

/* resolve - the row an alias stands for (its own when it is none), or NULL */
static const struct row *resolve(const struct view *v, const struct row *r)
{
	int i;

	if (r->o->type != OPTION_ALIAS)
		return r;
	for (i = 0; i < v->n; i++)
		if (v->r[i].o->type != OPTION_ALIAS && v->r[i].o->name &&
		    !strcmp(v->r[i].o->name, r->o->alias))
			return &v->r[i];
	return NULL;
}

const struct opt_desc *opts_resolve(const struct opt_desc *t, const struct opt_desc *o)
{
	struct view v;
	const struct row *r;

	if (o->type != OPTION_ALIAS)
		return o;
	if (view_of(t, &v))
		return NULL;
	r = row_of(&v, o);
	r = r ? resolve(&v, r) : NULL;
	return r ? r->o : NULL;
}

int opts_rows(const struct opt_desc *t, const struct opt_desc **rows, int max)
{
	struct view v;
	int i;

	if (view_of(t, &v))
		return -E2BIG;
	for (i = 0; i < v.n && i < max; i++)
		rows[i] = v.r[i].o;
	return v.n;
}

static bool flag(const struct opt_desc *o)
{
	return o->type == OPTION_HELP || o->type == OPTION_BOOL || o->type == OPTION_SET_INT ||
	       o->type == OPTION_SET_VALUE;
}

bool opts_takes_value(const struct opt_desc *t, const struct opt_desc *o)
{
	o = opts_resolve(t, o);
	return o && !flag(o) && !o->optional;
}

/* spell - "-D, --dir", "--raw" or "-n" */
static const char *spell(const struct opt_desc *o, char *buf, size_t len)
{
	if (o->letter && o->name)
		snprintf(buf, len, "-%c, --%s", o->letter, o->name);
	else if (o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", o->letter);
	return buf;
}

/* long_name - "--name" of o, or of what it stands for when it is a letter alone */
static const char *long_name(const struct view *v, const struct row *r, char *buf, size_t len)
{
	const struct row *to = r->o->name ? r : resolve(v, r);

	if (to && to->o->name)
		snprintf(buf, len, "--%s", to->o->name);
	else
		snprintf(buf, len, "-%c", r->o->letter);
	return buf;
}

/* note - the one thing a parser prints: an old spelling still works, for a while */
static void note(const struct view *v, const struct row *r, const char *typed)
{
	const struct row *to = resolve(v, r);
	const struct opt_desc *o = r->o;
	char s[64];

	if (o->type == OPTION_ALIAS)
		warn_msg("'%s' is deprecated and goes away in the next release: use %s%s%s%s",
			 typed, to ? spell(to->o, s, sizeof(s)) : o->alias, o->deprecated ? " (" : "",
			 o->deprecated ? o->deprecated : "", o->deprecated ? ")" : "");
	else
		warn_msg("'%s' is deprecated and goes away in the next release: %s", typed,
			 o->deprecated);
}

/* list - "a, b, c" of n names */
static void list(char *buf, size_t len, const char *const *names, int n)
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
	list(names, sizeof(names), o->choices, o->nchoices);
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

/* set_exclusive - one of the SET_INT options that share o's int */
static int set_exclusive(const struct view *v, const struct opt_desc *o, int *val, char *why)
{
	const char *sep = "";
	size_t off = 0;
	int i;

	if (!*val) {
		*val = o->value;
		return 0;
	}
	off = snprintf(why, ERRBUF_LEN, "give one of ");
	for (i = 0; i < v->n && off < ERRBUF_LEN; i++)
		if (v->r[i].o->type == OPTION_SET_INT && v->r[i].o->off == o->off) {
			off += snprintf(why + off, ERRBUF_LEN - off, "%s--%s", sep, v->r[i].o->name);
			sep = ", ";
		}
	return -EINVAL;
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
	const char *online = *(const char *const *)field(args, o->off2);
	char buf[1024];
	cpu_set_t cpus;

	if (parse_cpulist(arg, &cpus, online, why))
		return -EINVAL;
	cpulist_format(&cpus, buf, sizeof(buf));
	return set_string(o, buf, p, why);
}

static int set_cpuset(const char *arg, cpu_set_t *set, char *why)
{
	if (!strcmp(arg, "all"))
		return online_cpus(set) > 0 ? 0 : set_err(why, "cannot read the online CPUs");
	return parse_cpulist(arg, set, NULL, why);
}

/*
 * value - the value of o (no alias, no flag of a command line) from arg, spelled as a
 * file spells it; the message in why does not name o. A refused value changes nothing.
 */
static int value(const struct opt_desc *o, const char *arg, void *args, char *why)
{
	void *p = field(args, o->off);
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
		n = field(args, o->off2);
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
	return value(o, val, args, errbuf) ? -EINVAL : 0;
}

int opts_defaults(const struct opt_desc *t, void *args, char *errbuf)
{
	char why[ERRBUF_LEN];
	const struct opt_desc *o;

	for (o = t; o->type != OPTION_END; o++)
		if (o->def && o->type != OPTION_SET_VALUE && value(o, o->def, args, why))
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

int opts_value(const struct opt_desc *o, const void *args, char *buf, size_t len)
{
	const void *p = cfield(args, o->off);
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
		format_bytes(u, buf, len);
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

/*
 * Layers: the overrides of a command line, as key = value.
 */

const char *opts_layer_get(const struct opts_layer *l, const char *key)
{
	int i;

	for (i = l->n - 1; i >= 0; i--)
		if (!strcmp(l->set[i].key, key))
			return l->set[i].value;
	return NULL;
}

int opts_layer_apply(const struct opt_desc *t, const struct opts_layer *l, void *args,
		     char *errbuf)
{
	char why[ERRBUF_LEN];
	int i, ret;

	for (i = 0; i < l->n; i++) {
		ret = opts_set(t, l->set[i].key, l->set[i].value, args, why);
		if (ret == -ENOENT)
			return set_err(errbuf, "internal error: --%s has no setting %s",
				       l->set[i].o->name, l->set[i].key);
		if (ret)
			return set_err(errbuf, "--%s: %s", l->set[i].o->name, why);
	}
	return 0;
}

/*
 * record - key = val, given by row r of layer r->layer: checked as the layer's table would
 * take it, into a scratch struct of its kind, then kept
 */
static int record(const struct row *r, const char *key, const char *val, void *args,
		  char *why)
{
	struct opts_layer *l = field(args, r->layer->off);
	void *scratch;
	int ret;

	if (l->n == OPTS_LAYER_MAX)
		return set_err(why, "more than %d settings", OPTS_LAYER_MAX);
	scratch = calloc(1, r->layer->size);
	if (!scratch)
		return set_err(why, "out of memory");
	ret = opts_set(r->layer->sub, key, val, scratch, why);
	free(scratch);
	if (ret == -ENOENT)
		return set_err(why, "internal error: no setting %s", key);
	if (!ret)
		l->set[l->n++] = (struct opts_setting){ key, val, r->o };
	return ret;
}

/* set_key - key = val by the command's own table (a SET_VALUE flag's setting) */
static int set_key(const struct view *v, const char *key, const char *val, void *args,
		   char *why)
{
	const struct opt_desc *k;
	int i;

	for (i = 0; i < v->n; i++) {
		k = v->r[i].o;
		if (!v->r[i].layer && k->key && k->type != OPTION_SET_VALUE && !strcmp(k->key, key))
			return value(k, val, args, why);
	}
	return set_err(why, "internal error: no setting %s", key);
}

/* the SET_VALUE flags of one opts_parse() call, so that two that contradict are refused */
struct flags_seen {
	const struct opt_desc *o[OPTS_MAX];
	int n;
};

static int apply(const struct view *v, const struct row *r, const char *arg, const char *val,
		 void *args, struct flags_seen *seen, char *errbuf)
{
	const struct row *to = resolve(v, r);
	char why[ERRBUF_LEN], name[64];
	const struct opt_desc *o;
	const char *eq;
	int i, ret;

	if (r->o->type == OPTION_ALIAS || r->o->deprecated) {
		eq = arg[1] == '-' ? strchr(arg, '=') : arg + 2;
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
		note(v, r, name);
	}
	if (!to)
		return set_err(errbuf, "internal error: %s stands for no option", arg);
	o = to->o;
	if (o->type == OPTION_HELP)
		return OPTS_HELP;
	if (o->type == OPTION_SET_VALUE) {
		for (i = 0; i < seen->n; i++)
			if (seen->o[i] != o && !strcmp(seen->o[i]->sets, o->sets))
				return set_err(errbuf, "--%s and --%s contradict each other: "
					       "choose one", seen->o[i]->name, o->name);
		if (seen->n < OPTS_MAX)
			seen->o[seen->n++] = o;
		val = o->implied;
	} else if (o->type == OPTION_BOOL) {
		val = "yes";
	} else if (!val && o->optional) {
		val = o->implied;
	}
	if (to->layer)
		ret = record(to, o->type == OPTION_SET_VALUE ? o->sets : o->key, val, args, why);
	else if (o->type == OPTION_SET_INT)
		ret = set_exclusive(v, o, field(args, o->off), why);
	else if (o->type == OPTION_SET_VALUE)
		ret = set_key(v, o->sets, val, args, why);
	else
		ret = value(o, val, args, why);
	if (ret)
		return set_err(errbuf, "%s: %s", long_name(v, to, name, sizeof(name)), why);
	return 0;
}

int opts_apply(const struct opt_desc *t, const struct opt_desc *o, const char *arg,
	       const char *val, void *args, char *errbuf)
{
	struct flags_seen seen = { .n = 0 };
	const struct row *r;
	struct view v;

	if (view_of(t, &v) || !(r = row_of(&v, o)))
		return set_err(errbuf, "internal error: %s is not in the table", arg);
	return apply(&v, r, arg, val, args, &seen, errbuf);
}

/* getopt's tables: longopts[i].val = LONG_BASE + the row */
struct getopt_tables {
	struct option longopts[OPTS_MAX + 1];
	char shortopts[OPTS_MAX * 3 + 3];
};

static void build(struct getopt_tables *g, const struct view *v, enum opts_order order)
{
	size_t n = 0, s = 0;
	int i;

	memset(g, 0, sizeof(*g));
	/* '+': stop at the first non-option; ':': a missing value returns ':' */
	if (order == OPTS_IN_ORDER)
		g->shortopts[s++] = '+';
	g->shortopts[s++] = ':';
	for (i = 0; i < v->n; i++) {
		const struct opt_desc *o = v->r[i].o;
		const struct row *to = resolve(v, &v->r[i]);
		int has_arg = to && to->o->optional ? optional_argument :
			      to && !flag(to->o) ? required_argument : no_argument;

		if (o->name) {
			g->longopts[n].name = o->name;
			g->longopts[n].has_arg = has_arg;
			g->longopts[n].val = LONG_BASE + i;
			n++;
		}
		if (o->letter) {
			g->shortopts[s++] = (char)o->letter;
			if (has_arg != no_argument)
				g->shortopts[s++] = ':';
			if (has_arg == optional_argument)
				g->shortopts[s++] = ':';
		}
	}
}

/* entry - the row of getopt's return value c, or NULL */
static const struct row *entry(const struct view *v, int c)
{
	int i;

	if (c >= LONG_BASE)
		return &v->r[c - LONG_BASE];
	for (i = 0; i < v->n; i++)
		if (v->r[i].o->letter == c)
			return &v->r[i];
	return NULL;
}

int opts_parse(const struct opt_desc *t, enum opts_order order, int argc, char **argv,
	       void *args, int *first, char *errbuf)
{
	struct flags_seen seen = { .n = 0 };
	const struct row *r, *to;
	struct getopt_tables g;
	char typed[64], name[64];
	struct view v;
	int c, ret;

	if (view_of(t, &v))
		return set_errno(errbuf, -E2BIG, "internal error: more than %d options", OPTS_MAX);
	build(&g, &v, order);
	optind = 0;	/* glibc: a full reinitialisation, for parsers run more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == ':') {
			r = entry(&v, optopt);
			to = r ? resolve(&v, r) : NULL;
			return set_err(errbuf, "%s needs a value (%s)",
				       r ? long_name(&v, r, name, sizeof(name)) : "an option",
				       to ? to->o->metavar : "see --help");
		}
		if (c == '?') {
			if (optopt)
				return set_err(errbuf, "unknown option '-%c'", optopt);
			return set_err(errbuf, "unknown option '%s'", argv[optind - 1]);
		}
		r = entry(&v, c);
		if (!r)
			return set_err(errbuf, "internal error: option %d", c);
		if (c < LONG_BASE)
			snprintf(typed, sizeof(typed), "-%c", c);
		else
			snprintf(typed, sizeof(typed), "--%s", r->o->name);
		ret = apply(&v, r, typed, optarg, args, &seen, errbuf);
		if (ret)
			return ret;
	}
	*first = optind;
	return 0;
}

const struct opt_desc *opts_lookup(const struct opt_desc *t, const char *arg, const char **val)
{
	const struct row *to;
	struct view v;
	size_t n;
	int i;

	*val = NULL;
	if (arg[0] != '-' || !arg[1] || view_of(t, &v))
		return NULL;
	for (i = 0; i < v.n; i++) {
		const struct opt_desc *o = v.r[i].o;

		if (arg[1] == '-' && o->name) {
			n = strlen(o->name);
			if (strncmp(arg + 2, o->name, n) || (arg[2 + n] && arg[2 + n] != '='))
				continue;
			if (arg[2 + n] == '=')
				*val = arg + 3 + n;
		} else if (arg[1] == '-' || o->letter != arg[1]) {
			continue;
		} else if (arg[2]) {
			*val = arg + 2;
		}
		/* a value attached to a flag: not this option's spelling */
		to = resolve(&v, &v.r[i]);
		if (*val && (!to || flag(to->o))) {
			*val = NULL;
			return NULL;
		}
		return o;
	}
	return NULL;
}

/*
 * The help and the docs: the defaults shown are the entries' own, else what the parser
 * starts from; a default outside the bounds (0 for "not given") is left to the help
 * text to explain.
 */

void opts_range(const struct opt_desc *o, char *buf, size_t len)
{
	char a[32], b[32];

	buf[0] = '\0';
	switch (o->type) {
	case OPTION_INT:
		snprintf(buf, len, "%lld..%lld", (long long)(int64_t)o->min,
			 (long long)(int64_t)o->max);
		return;
	case OPTION_UINT:
	case OPTION_U64:
		if (o->max == UINT64_MAX && !o->min)
			return;
		snprintf(buf, len, "%llu..%llu", (unsigned long long)o->min,
			 (unsigned long long)o->max);
		return;
	case OPTION_SIZE:
		format_bytes(o->min, a, sizeof(a));
		format_bytes(o->max, b, sizeof(b));
		snprintf(buf, len, "%s..%s", a, b);
		return;
	case OPTION_DURATION:
		if (o->min > 1 && o->max)
			snprintf(buf, len, "%s..%s", fmt_duration(o->min, a, sizeof(a)),
				 fmt_duration(o->max, b, sizeof(b)));
		else if (o->min > 1)
			snprintf(buf, len, ">= %s", fmt_duration(o->min, a, sizeof(a)));
		else if (o->max)
			snprintf(buf, len, "<= %s", fmt_duration(o->max, b, sizeof(b)));
		return;
	case OPTION_DOUBLE:
	case OPTION_PERCENT:
		snprintf(buf, len, "%g..%g", o->fmin, o->fmax);
		return;
	default:
		return;
	}
}

const char *opts_type_name(const struct opt_desc *o, char *buf, size_t len)
{
	switch (o->type) {
	case OPTION_BOOL:
		snprintf(buf, len, "yes/no");
		break;
	case OPTION_ENUM:
		list(buf, len, o->choices, o->nchoices);
		break;
	case OPTION_CPUSET:
		snprintf(buf, len, "LIST or all");
		break;
	case OPTION_DURATION:
		snprintf(buf, len, "%s%s", o->metavar ? o->metavar : "DUR", o->zero ? " or off" : "");
		break;
	case OPTION_SIZE:
		snprintf(buf, len, "SIZE");
		break;
	case OPTION_INT:
	case OPTION_UINT:
	case OPTION_U64:
		snprintf(buf, len, "%s", o->metavar ? o->metavar : "N");
		break;
	default:
		snprintf(buf, len, "%s", o->metavar ? o->metavar : "TEXT");
		break;
	}
	return buf;
}

/* default_of - the default, as the user would write it; "" for none */
static void default_of(const struct opt_desc *o, const void *defaults, char *buf, size_t len)
{
	const void *p;
	uint64_t u = 0;
	double d;

	buf[0] = '\0';
	if (o->def || !defaults) {
		snprintf(buf, len, "%s", o->def ? o->def : "");
		return;
	}
	p = cfield(defaults, o->off);
	switch (o->type) {
	case OPTION_INT:
		if (*(const int *)p < 0)
			return;
		u = (uint64_t)*(const int *)p;
		break;
	case OPTION_UINT:
		u = *(const unsigned int *)p;
		break;
	case OPTION_U64:
	case OPTION_DURATION:
		memcpy(&u, p, sizeof(u));
		break;
	case OPTION_DOUBLE:
	case OPTION_PERCENT:
		memcpy(&d, p, sizeof(d));
		d = o->complement ? 1 - d : o->type == OPTION_PERCENT ? d * 100 : d;
		if (d >= o->fmin && d <= o->fmax)
			snprintf(buf, len, "%g", d);
		return;
	case OPTION_STRING:
	case OPTION_ENUM:
		opts_value(o, defaults, buf, len);
		return;
	default:
		return;
	}
	if (u >= o->min && (!o->max || u <= o->max) && (o->type != OPTION_DURATION || u))
		opts_value(o, defaults, buf, len);
}

/* choices - "a, b or c" */
static void choices(const struct opt_desc *o, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < o->nchoices && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", !i ? "" : i == o->nchoices - 1 ?
				" or " : ", ", o->choices[i]);
}

/* wrapped - text after the left column, wrapped at HELP_WIDTH */
static void wrapped(FILE *f, const char *left, const char *text)
{
	const char *w = text, *end;
	int col = HELP_INDENT;

	/* a long left column gets a line of its own */
	if (strlen(left) > HELP_INDENT - 3)
		fprintf(f, "  %s\n%*s", left, HELP_INDENT, "");
	else
		fprintf(f, "  %-*s ", HELP_INDENT - 3, left);
	while (*w) {
		int n;

		end = strchr(w, ' ');
		n = end ? (int)(end - w) : (int)strlen(w);
		if (col > HELP_INDENT && col + 1 + n > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		} else if (col > HELP_INDENT) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", n, w);
		w += n;
		while (*w == ' ')
			w++;
	}
	fputc('\n', f);
}

/* left_column - "-b, --buffer-kb N", "--until-decided[=BUDGET]" */
static const char *left_column(const struct opt_desc *o, char *buf, size_t len)
{
	const char *mv = flag(o) ? NULL : o->metavar;
	char s[64];

	spell(o, s, sizeof(s));
	if (!o->letter && o->name)
		snprintf(s, sizeof(s), "    --%s", o->name);
	if (mv && o->optional)
		snprintf(buf, len, "%s[=%s]", s, mv);
	else
		snprintf(buf, len, "%s%s%s", s, mv ? " " : "", mv ? mv : "");
	return buf;
}

static void usage_line(FILE *f, const struct row *r, const void *defaults)
{
	char left[128], rg[48], d[80], c[256], text[1024];
	const struct opt_desc *o = r->o;

	left_column(o, left, sizeof(left));
	opts_range(o, rg, sizeof(rg));
	/* a layer's setting defaults to the file's */
	d[0] = '\0';
	if (r->layer && o->key && !flag(o))
		snprintf(d, sizeof(d), "the file's %s", o->key);
	else if (!r->layer)
		default_of(o, defaults, d, sizeof(d));
	c[0] = '\0';
	if (o->type == OPTION_ENUM)
		choices(o, c, sizeof(c));
	snprintf(text, sizeof(text), "%s%s%s%s%s%s%s%s", o->help, *c || *rg || *d ? " (" : "", c,
		 *c && (*rg || *d) ? "; " : "", rg, *rg && *d ? ", " : "", *d ? "default " : "",
		 *d ? d : "");
	if (*c || *rg || *d)
		strncat(text, ")", sizeof(text) - strlen(text) - 1);
	wrapped(f, left, text);
}

void opts_usage(FILE *f, const char *usage, const char *desc, const struct opt_desc *t,
		const void *defaults)
{
	char left[128], to[64], text[256];
	const struct row *r;
	bool old = false;
	struct view v;
	int i;

	fprintf(f, "usage: %s\n", usage);
	if (desc)
		fprintf(f, "\n%s\n", desc);
	fprintf(f, "\noptions:\n");
	if (view_of(t, &v))
		return;
	for (i = 0; i < v.n; i++)
		if (spelled(v.r[i].o) && v.r[i].o->type != OPTION_ALIAS && !v.r[i].o->deprecated)
			usage_line(f, &v.r[i], defaults);
	for (i = 0; i < v.n; i++) {
		const struct opt_desc *o = v.r[i].o;

		if (o->type != OPTION_ALIAS && !o->deprecated)
			continue;
		if (!old)
			fprintf(f, "\nold spellings, still accepted until the next release:\n");
		old = true;
		r = resolve(&v, &v.r[i]);
		spell(o, to, sizeof(to));
		snprintf(left, sizeof(left), "%s%s%s", to, o->metavar ? " " : "",
			 o->metavar ? o->metavar : "");
		if (o->type == OPTION_ALIAS)
			snprintf(text, sizeof(text), "use %s%s%s%s", r ? spell(r->o, to, sizeof(to)) :
				 o->alias, o->deprecated ? " (" : "",
				 o->deprecated ? o->deprecated : "", o->deprecated ? ")" : "");
		else
			snprintf(text, sizeof(text), "%s", o->deprecated);
		wrapped(f, left, text);
	}
}

/* cell - text for a Markdown table cell: '|' escaped */
static void cell(FILE *f, const char *text)
{
	for (; *text; text++) {
		if (*text == '|')
			fputc('\\', f);
		fputc(*text, f);
	}
}

void opts_doc_table(FILE *f, const struct opt_desc *t)
{
	char left[128], type[256], rg[48];

	fprintf(f, "| key | option | type | range | default | meaning |\n");
	fprintf(f, "| --- | --- | --- | --- | --- | --- |\n");
	for (; t->type != OPTION_END; t++) {
		if (!t->key && t->type != OPTION_SET_VALUE)
			continue;
		if (t->type == OPTION_SET_VALUE)
			fprintf(f, "| `%s = %s` | ", t->sets, t->implied);
		else
			fprintf(f, "| `%s` | ", t->key);
		if (spelled(t)) {
			left_column(t, left, sizeof(left));
			fprintf(f, "`%s`", left + strspn(left, " "));
		}
		fprintf(f, " | ");
		if (t->type != OPTION_SET_VALUE)
			cell(f, opts_type_name(t, type, sizeof(type)));
		opts_range(t, rg, sizeof(rg));
		fprintf(f, " | %s | ", rg);
		if (t->def && *t->def)
			fprintf(f, "`%s`", t->def);
		fprintf(f, " | ");
		cell(f, t->help);
		fprintf(f, " |\n");
	}
}
