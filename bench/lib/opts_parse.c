// SPDX-License-Identifier: GPL-2.0
/*
 * opts_parse.c - the settings engine's command line (opts.h): one table per command, the
 * spelled entries of its layers (another table's settings, recorded as key = value) in
 * it, parsed with getopt; values by key: opts_set.c; --help and docs: opts_help.c.
 */
#define DEFERBENCH_ALLOW_OPTS_INT_H
#include "opts_int.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

#define LONG_BASE 256		/* getopt's val of a long option: LONG_BASE + its row */

bool opts_spelled(const struct opt_desc *o)
{
	return o->letter || o->name;
}

int opts_view_of(const struct opt_desc *t, struct opts_view *v)
{
	const struct opt_desc *s;

	v->n = 0;
	for (; t->type != OPTION_END; t++) {
		if (t->type != OPTION_LAYER) {
			if (v->n == OPTS_MAX)
				return -E2BIG;
			v->r[v->n++] = (struct opts_row){ t, NULL };
			continue;
		}
		for (s = t->sub; s->type != OPTION_END; s++) {
			if (!opts_spelled(s))
				continue;
			if (v->n == OPTS_MAX)
				return -E2BIG;
			v->r[v->n++] = (struct opts_row){ s, t };
		}
	}
	return 0;
}

/* row_of - the row of entry o in v, or NULL */
static const struct opts_row *row_of(const struct opts_view *v, const struct opt_desc *o)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (v->r[i].o == o)
			return &v->r[i];
	return NULL;
}

const struct opts_row *opts_view_resolve(const struct opts_view *v, const struct opts_row *r)
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
	struct opts_view v;
	const struct opts_row *r;

	if (o->type != OPTION_ALIAS)
		return o;
	if (opts_view_of(t, &v))
		return NULL;
	r = row_of(&v, o);
	r = r ? opts_view_resolve(&v, r) : NULL;
	return r ? r->o : NULL;
}

int opts_rows(const struct opt_desc *t, const struct opt_desc **rows, int max)
{
	struct opts_view v;
	int i;

	if (opts_view_of(t, &v))
		return -E2BIG;
	for (i = 0; i < v.n && i < max; i++)
		rows[i] = v.r[i].o;
	return v.n;
}

bool opts_is_flag(const struct opt_desc *o)
{
	return o->type == OPTION_HELP || o->type == OPTION_BOOL || o->type == OPTION_SET_INT ||
	       o->type == OPTION_SET_VALUE;
}

bool opts_takes_value(const struct opt_desc *t, const struct opt_desc *o)
{
	o = opts_resolve(t, o);
	return o && !opts_is_flag(o) && !o->optional;
}

const char *opts_spell(const struct opt_desc *o, char *buf, size_t len)
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
static const char *long_name(const struct opts_view *v, const struct opts_row *r, char *buf, size_t len)
{
	const struct opts_row *to = r->o->name ? r : opts_view_resolve(v, r);

	if (to && to->o->name)
		snprintf(buf, len, "--%s", to->o->name);
	else
		snprintf(buf, len, "-%c", r->o->letter);
	return buf;
}

/* note - the one thing a parser prints: an old spelling still works, for a while */
static void note(const struct opts_view *v, const struct opts_row *r, const char *typed)
{
	const struct opts_row *to = opts_view_resolve(v, r);
	const struct opt_desc *o = r->o;
	char s[64];

	if (o->type == OPTION_ALIAS)
		warn_msg("'%s' is deprecated and goes away in the next release: use %s%s%s%s",
			 typed, to ? opts_spell(to->o, s, sizeof(s)) : o->alias, o->deprecated ? " (" : "",
			 o->deprecated ? o->deprecated : "", o->deprecated ? ")" : "");
	else
		warn_msg("'%s' is deprecated and goes away in the next release: %s", typed,
			 o->deprecated);
}

/* set_exclusive - one of the SET_INT options that share o's int */
static int set_exclusive(const struct opts_view *v, const struct opt_desc *o, int *val, char *why)
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

/*
 * record - key = val, given by row r of layer r->layer: checked as the layer's table would
 * take it, into a scratch struct of its kind, then kept
 */
static int record(const struct opts_row *r, const char *key, const char *val, void *args,
		  char *why)
{
	struct opts_layer *l = opts_field(args, r->layer->off);
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
static int set_key(const struct opts_view *v, const char *key, const char *val, void *args,
		   char *why)
{
	const struct opt_desc *k;
	int i;

	for (i = 0; i < v->n; i++) {
		k = v->r[i].o;
		if (!v->r[i].layer && k->key && k->type != OPTION_SET_VALUE && !strcmp(k->key, key))
			return opts_parse_value(k, val, args, why);
	}
	return set_err(why, "internal error: no setting %s", key);
}

/* the SET_VALUE flags of one opts_parse() call, so that two that contradict are refused */
struct flags_seen {
	const struct opt_desc *o[OPTS_MAX];
	int n;
};

static int apply(const struct opts_view *v, const struct opts_row *r, const char *arg, const char *val,
		 void *args, struct flags_seen *seen, char *errbuf)
{
	const struct opts_row *to = opts_view_resolve(v, r);
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
		ret = set_exclusive(v, o, opts_field(args, o->off), why);
	else if (o->type == OPTION_SET_VALUE)
		ret = set_key(v, o->sets, val, args, why);
	else
		ret = opts_parse_value(o, val, args, why);
	if (ret)
		return set_err(errbuf, "%s: %s", long_name(v, to, name, sizeof(name)), why);
	return 0;
}

int opts_apply(const struct opt_desc *t, const struct opt_desc *o, const char *arg,
	       const char *val, void *args, char *errbuf)
{
	struct flags_seen seen = { .n = 0 };
	const struct opts_row *r;
	struct opts_view v;

	if (opts_view_of(t, &v) || !(r = row_of(&v, o)))
		return set_err(errbuf, "internal error: %s is not in the table", arg);
	return apply(&v, r, arg, val, args, &seen, errbuf);
}

/* getopt's tables: longopts[i].val = LONG_BASE + the row */
struct getopt_tables {
	struct option longopts[OPTS_MAX + 1];
	char shortopts[OPTS_MAX * 3 + 3];
};

static void build(struct getopt_tables *g, const struct opts_view *v, enum opts_order order)
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
		const struct opts_row *to = opts_view_resolve(v, &v->r[i]);
		int has_arg = to && to->o->optional ? optional_argument :
			      to && !opts_is_flag(to->o) ? required_argument : no_argument;

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
static const struct opts_row *entry(const struct opts_view *v, int c)
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
	const struct opts_row *r, *to;
	struct getopt_tables g;
	char typed[64], name[64];
	struct opts_view v;
	int c, ret;

	if (opts_view_of(t, &v))
		return errno_msg(errbuf, -E2BIG, "internal error: more than %d options", OPTS_MAX);
	build(&g, &v, order);
	optind = 0;	/* glibc: a full reinitialisation, for parsers run more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == ':') {
			r = entry(&v, optopt);
			to = r ? opts_view_resolve(&v, r) : NULL;
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
	const struct opts_row *to;
	struct opts_view v;
	size_t n;
	int i;

	*val = NULL;
	if (arg[0] != '-' || !arg[1] || opts_view_of(t, &v))
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
		to = opts_view_resolve(&v, &v.r[i]);
		if (*val && (!to || opts_is_flag(to->o))) {
			*val = NULL;
			return NULL;
		}
		return o;
	}
	return NULL;
}
