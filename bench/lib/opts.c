// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - parse options and print their help from one table (opts.h).
 */
#include "opts.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <string.h>

#include "fmt.h"
#include "msg.h"
#include "parse.h"

#define LONG_BASE 256		/* getopt's val of a long option: LONG_BASE + its index */
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

const struct opt_desc *opts_resolve(const struct opt_desc *t, const struct opt_desc *o)
{
	if (o->type != OPTION_ALIAS)
		return o;
	for (; t->type != OPTION_END; t++)
		if (t->type != OPTION_ALIAS && t->name && !strcmp(t->name, o->alias))
			return t;
	return NULL;
}

bool opts_takes_value(const struct opt_desc *t, const struct opt_desc *o)
{
	o = opts_resolve(t, o);
	return o && o->type != OPTION_HELP && o->type != OPTION_BOOL &&
	       o->type != OPTION_SET_INT && !o->optional;
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
static const char *long_name(const struct opt_desc *t, const struct opt_desc *o, char *buf,
			     size_t len)
{
	const struct opt_desc *r = o->name ? o : opts_resolve(t, o);

	if (r && r->name)
		snprintf(buf, len, "--%s", r->name);
	else
		snprintf(buf, len, "-%c", o->letter);
	return buf;
}

/* note - the one thing a parser prints: an old spelling still works, for a while */
static void note(const struct opt_desc *t, const struct opt_desc *o, const char *typed)
{
	const struct opt_desc *r = opts_resolve(t, o);
	char to[64];

	if (o->type == OPTION_ALIAS)
		warn_msg("'%s' is deprecated and goes away in the next release: use %s%s%s%s",
			 typed, r ? spell(r, to, sizeof(to)) : o->alias, o->deprecated ? " (" : "",
			 o->deprecated ? o->deprecated : "", o->deprecated ? ")" : "");
	else
		warn_msg("'%s' is deprecated and goes away in the next release: %s", typed,
			 o->deprecated);
}

static int parse_enum(const struct opt_desc *o, const char *arg, int *out, char *why)
{
	size_t off = 0;
	int i;

	for (i = 0; i < o->nchoices; i++)
		if (!strcmp(o->choices[i], arg)) {
			*out = i;
			return 0;
		}
	off = snprintf(why, ERRBUF_LEN, "'%s' is none of ", arg);
	for (i = 0; i < o->nchoices && off < ERRBUF_LEN; i++)
		off += snprintf(why + off, ERRBUF_LEN - off, "%s%s", i ? ", " : "", o->choices[i]);
	return -EINVAL;
}

static int parse_bounded_duration(const struct opt_desc *o, const char *arg, uint64_t *out,
				  char *why)
{
	char b[32];
	uint64_t ns;

	if (parse_duration_ns(arg, &ns, why))
		return -EINVAL;
	if (ns < o->min)
		return set_err(why, "%s is shorter than %s", arg,
			       fmt_duration(o->min, b, sizeof(b)));
	if (o->max && ns > o->max)
		return set_err(why, "%s is longer than %s", arg,
			       fmt_duration(o->max, b, sizeof(b)));
	*out = ns;
	return 0;
}

/* set_exclusive - one of the SET_INT options that share o's int */
static int set_exclusive(const struct opt_desc *t, const struct opt_desc *o, int *v, char *why)
{
	const char *sep = "";
	size_t off = 0;

	if (!*v) {
		*v = o->value;
		return 0;
	}
	off = snprintf(why, ERRBUF_LEN, "give one of ");
	for (; t->type != OPTION_END && off < ERRBUF_LEN; t++)
		if (t->type == OPTION_SET_INT && t->off == o->off) {
			off += snprintf(why + off, ERRBUF_LEN - off, "%s--%s", sep, t->name);
			sep = ", ";
		}
	return -EINVAL;
}

/* set - the value of o (not an alias) from arg; the message in why does not name o */
static int set(const struct opt_desc *t, const struct opt_desc *o, const char *arg,
	       void *args, char *why)
{
	void *p = field(args, o->off);
	cpu_set_t cpus;
	uint64_t u;
	double d;
	size_t *n;

	switch (o->type) {
	case OPTION_BOOL:
		*(bool *)p = true;
		return 0;
	case OPTION_SET_INT:
		return set_exclusive(t, o, p, why);
	case OPTION_STRING:
		if (!*arg)
			return set_err(why, "the value is empty");
		*(const char **)p = arg;
		return 0;
	case OPTION_CPULIST:
		if (parse_cpulist(arg, &cpus, NULL, why))
			return -EINVAL;
		*(const char **)p = arg;
		return 0;
	case OPTION_INT:
		return parse_int(arg, (long)o->min, (long)o->max, p, why);
	case OPTION_UINT:
		if (parse_u64(arg, o->min, o->max, &u, why))
			return -EINVAL;
		*(unsigned int *)p = (unsigned int)u;
		return 0;
	case OPTION_U64:
		return parse_u64(arg, o->min, o->max, p, why);
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
		return parse_enum(o, arg, p, why);
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

int opts_apply(const struct opt_desc *t, const struct opt_desc *o, const char *arg,
	       const char *val, void *args, char *errbuf)
{
	const struct opt_desc *r = opts_resolve(t, o);
	char why[ERRBUF_LEN], name[64];
	const char *eq;

	if (o->type == OPTION_ALIAS || o->deprecated) {
		eq = arg[1] == '-' ? strchr(arg, '=') : arg + 2;
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
		note(t, o, name);
	}
	if (!r)
		return set_err(errbuf, "internal error: %s stands for no option", arg);
	if (r->type == OPTION_HELP)
		return OPTS_HELP;
	if (set(t, r, val, args, why))
		return set_err(errbuf, "%s: %s", long_name(t, r, name, sizeof(name)), why);
	return 0;
}

/* getopt's tables: longopts[i].val = LONG_BASE + the index of the entry */
struct getopt_tables {
	struct option longopts[OPTS_MAX + 1];
	char shortopts[OPTS_MAX * 3 + 3];
};

static int build(struct getopt_tables *g, const struct opt_desc *t, enum opts_order order)
{
	size_t n = 0, s = 0, i;

	memset(g, 0, sizeof(*g));
	/* '+': stop at the first non-option; ':': a missing value returns ':' */
	if (order == OPTS_IN_ORDER)
		g->shortopts[s++] = '+';
	g->shortopts[s++] = ':';
	for (i = 0; t[i].type != OPTION_END; i++) {
		int has_arg = t[i].optional ? optional_argument :
			      opts_takes_value(t, &t[i]) ? required_argument : no_argument;

		if (i >= OPTS_MAX)
			return -E2BIG;
		if (t[i].name) {
			g->longopts[n].name = t[i].name;
			g->longopts[n].has_arg = has_arg;
			g->longopts[n].val = LONG_BASE + (int)i;
			n++;
		}
		if (t[i].letter) {
			g->shortopts[s++] = (char)t[i].letter;
			if (has_arg != no_argument)
				g->shortopts[s++] = ':';
			if (has_arg == optional_argument)
				g->shortopts[s++] = ':';
		}
	}
	return 0;
}

/* entry - the table entry of getopt's return value c, or NULL */
static const struct opt_desc *entry(const struct opt_desc *t, int c)
{
	const struct opt_desc *o;

	if (c >= LONG_BASE)
		return &t[c - LONG_BASE];
	for (o = t; o->type != OPTION_END; o++)
		if (o->letter == c)
			return o;
	return NULL;
}

int opts_parse(const struct opt_desc *t, enum opts_order order, int argc, char **argv,
	       void *args, int *first, char *errbuf)
{
	const struct opt_desc *o;
	struct getopt_tables g;
	char typed[64], name[64];
	int c, ret;

	if (build(&g, t, order))
		return set_errno(errbuf, -E2BIG, "internal error: more than %d options", OPTS_MAX);
	optind = 0;	/* glibc: a full reinitialisation, for parsers run more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == ':') {
			o = entry(t, optopt);
			return set_err(errbuf, "%s needs a value (%s)",
				       o ? long_name(t, o, name, sizeof(name)) : "an option",
				       o && opts_resolve(t, o) ? opts_resolve(t, o)->metavar :
				       "see --help");
		}
		if (c == '?') {
			if (optopt)
				return set_err(errbuf, "unknown option '-%c'", optopt);
			return set_err(errbuf, "unknown option '%s'", argv[optind - 1]);
		}
		o = entry(t, c);
		if (!o)
			return set_err(errbuf, "internal error: option %d", c);
		if (c < LONG_BASE)
			snprintf(typed, sizeof(typed), "-%c", c);
		else
			snprintf(typed, sizeof(typed), "--%s", o->name);
		ret = opts_apply(t, o, typed, optarg, args, errbuf);
		if (ret)
			return ret;
	}
	*first = optind;
	return 0;
}

const struct opt_desc *opts_lookup(const struct opt_desc *t, const char *arg, const char **val)
{
	const struct opt_desc *o;
	size_t n;

	*val = NULL;
	if (arg[0] != '-' || !arg[1])
		return NULL;
	for (o = t; o->type != OPTION_END; o++) {
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
		if (*val && !opts_takes_value(t, o) && !(opts_resolve(t, o) &&
							  opts_resolve(t, o)->optional)) {
			*val = NULL;
			return NULL;
		}
		return o;
	}
	return NULL;
}

/*
 * The help: the defaults shown are what the parser starts from; a default outside the
 * bounds (0 for "not given") is left to the help text to explain.
 */

/* range - "64..1048576", ">= 10ms", or "" when the bounds are the type's own */
static void range(const struct opt_desc *o, char *buf, size_t len)
{
	char a[32], b[32];

	buf[0] = '\0';
	switch (o->type) {
	case OPTION_INT:
	case OPTION_UINT:
	case OPTION_U64:
		if (o->max == UINT64_MAX && !o->min)
			return;
		snprintf(buf, len, "%llu..%llu", (unsigned long long)o->min,
			 (unsigned long long)o->max);
		return;
	case OPTION_DURATION:
		if (o->min && o->max)
			snprintf(buf, len, "%s..%s", fmt_duration(o->min, a, sizeof(a)),
				 fmt_duration(o->max, b, sizeof(b)));
		else if (o->min)
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

/* default_of - the default in defaults, as the user would write it; "" for none */
static void default_of(const struct opt_desc *o, const void *defaults, char *buf, size_t len)
{
	const void *p;
	uint64_t u = 0;
	double d;
	int i;

	buf[0] = '\0';
	if (!defaults)
		return;
	p = cfield(defaults, o->off);
	switch (o->type) {
	case OPTION_STRING:
		if (*(const char *const *)p)
			snprintf(buf, len, "%s", *(const char *const *)p);
		return;
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
		u = *(const uint64_t *)p;
		break;
	case OPTION_DOUBLE:
	case OPTION_PERCENT:
		d = *(const double *)p;
		d = o->complement ? 1 - d : o->type == OPTION_PERCENT ? d * 100 : d;
		if (d >= o->fmin && d <= o->fmax)
			snprintf(buf, len, "%g", d);
		return;
	case OPTION_ENUM:
		i = *(const int *)p;
		if (i >= 0 && i < o->nchoices)
			snprintf(buf, len, "%s", o->choices[i]);
		return;
	default:
		return;
	}
	if (u < o->min || (o->max && u > o->max) || (o->type == OPTION_DURATION && !u))
		return;
	if (o->type == OPTION_DURATION)
		fmt_duration(u, buf, len);
	else
		snprintf(buf, len, "%llu", (unsigned long long)u);
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

static void usage_line(FILE *f, const struct opt_desc *o, const void *defaults)
{
	char left[128], s[64], r[48], d[64], c[256], text[1024];
	const char *mv = o->metavar;

	spell(o, s, sizeof(s));
	if (!o->letter)
		snprintf(s, sizeof(s), "    --%s", o->name);
	if (mv && o->optional)
		snprintf(left, sizeof(left), "%s[=%s]", s, mv);
	else
		snprintf(left, sizeof(left), "%s%s%s", s, mv ? " " : "", mv ? mv : "");
	range(o, r, sizeof(r));
	default_of(o, defaults, d, sizeof(d));
	c[0] = '\0';
	if (o->type == OPTION_ENUM)
		choices(o, c, sizeof(c));
	snprintf(text, sizeof(text), "%s%s%s%s%s%s%s%s", o->help, *c || *r || *d ? " (" : "", c,
		 *c && (*r || *d) ? "; " : "", r, *r && *d ? ", " : "", *d ? "default " : "",
		 *d ? d : "");
	if (*c || *r || *d)
		strncat(text, ")", sizeof(text) - strlen(text) - 1);
	wrapped(f, left, text);
}

void opts_usage(FILE *f, const char *usage, const char *desc, const struct opt_desc *t,
		const void *defaults)
{
	const struct opt_desc *o, *r;
	char left[128], to[64], text[256];
	bool old = false;

	fprintf(f, "usage: %s\n", usage);
	if (desc)
		fprintf(f, "\n%s\n", desc);
	fprintf(f, "\noptions:\n");
	for (o = t; o->type != OPTION_END; o++)
		if (o->type != OPTION_ALIAS && !o->deprecated)
			usage_line(f, o, defaults);
	for (o = t; o->type != OPTION_END; o++) {
		if (o->type != OPTION_ALIAS && !o->deprecated)
			continue;
		if (!old)
			fprintf(f, "\nold spellings, still accepted until the next release:\n");
		old = true;
		r = opts_resolve(t, o);
		spell(o, to, sizeof(to));
		snprintf(left, sizeof(left), "%s%s%s", to, o->metavar ? " " : "",
			 o->metavar ? o->metavar : "");
		if (o->type == OPTION_ALIAS)
			snprintf(text, sizeof(text), "use %s%s%s%s", r ? spell(r, to, sizeof(to)) :
				 o->alias, o->deprecated ? " (" : "",
				 o->deprecated ? o->deprecated : "", o->deprecated ? ")" : "");
		else
			snprintf(text, sizeof(text), "%s", o->deprecated);
		wrapped(f, left, text);
	}
}
