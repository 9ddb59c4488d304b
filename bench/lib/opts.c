// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - getopt_long tables and help text from one option table.
 */
#include "opts.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "msg.h"

static int build(struct opts_parser *p, const struct opt_desc *d, bool in_order)
{
	size_t n = 0, s = 0;

	memset(p, 0, sizeof(*p));
	/* '+': stop at the first non-option; ':': a missing argument returns ':' */
	if (in_order)
		p->shortopts[s++] = '+';
	p->shortopts[s++] = ':';
	for (; d->name; d++) {
		if (n >= OPTS_MAX)
			return -E2BIG;
		p->longopts[n].name = d->name;
		p->longopts[n].has_arg = d->has_arg;
		p->longopts[n].val = d->val;
		n++;
		if (d->val > 0 && d->val < 256) {
			p->shortopts[s++] = (char)d->val;
			if (d->has_arg == required_argument)
				p->shortopts[s++] = ':';
		}
	}
	return 0;
}

int opts_build(struct opts_parser *p, const struct opt_desc *d)
{
	return build(p, d, true);
}

int opts_build_permute(struct opts_parser *p, const struct opt_desc *d)
{
	return build(p, d, false);
}

void opts_usage(FILE *f, const char *usage, const char *desc, const struct opt_desc *d)
{
	char left[64];

	fprintf(f, "usage: %s\n", usage);
	if (desc)
		fprintf(f, "\n%s\n", desc);
	fprintf(f, "\noptions:\n");
	for (; d->name; d++) {
		if (d->val > 0 && d->val < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", d->val, d->name,
				 d->metavar ? " " : "", d->metavar ? d->metavar : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", d->name,
				 d->metavar ? " " : "", d->metavar ? d->metavar : "");
		fprintf(f, "  %-26s %s\n", left, d->help);
	}
}

void opts_reset(void)
{
	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
}

const char *opts_name(const struct opt_desc *d, int val, char *buf, size_t len)
{
	for (; d->name; d++) {
		if (d->val == val) {
			snprintf(buf, len, "--%s", d->name);
			return buf;
		}
	}
	snprintf(buf, len, "-%c", val);
	return buf;
}

int opts_begin(struct opts_iter *it, const struct opt_desc *d, enum opts_order order,
	       int argc, char **argv, char *errbuf)
{
	if (build(&it->p, d, order == OPTS_IN_ORDER))
		return set_errno(errbuf, -E2BIG, "internal error: more than %d options", OPTS_MAX);
	it->d = d;
	it->argc = argc;
	it->argv = argv;
	opts_reset();
	return 0;
}

int opts_next(struct opts_iter *it, char *errbuf)
{
	const struct opt_desc *d;
	char name[OPTS_NAME_LEN];
	int c;

	c = getopt_long(it->argc, it->argv, it->p.shortopts, it->p.longopts, NULL);
	if (c == -1)
		return OPTS_END;
	if (c == ':') {
		for (d = it->d; d->name && d->val != optopt; d++)
			;
		return set_err(errbuf, "%s needs a value (%s)",
			       opts_name(it->d, optopt, name, sizeof(name)),
			       d->metavar ? d->metavar : "see --help");
	}
	if (c == '?') {
		if (optopt)
			return set_err(errbuf, "unknown option '-%c'", optopt);
		return set_err(errbuf, "unknown option '%s'", it->argv[optind - 1]);
	}
	return c;
}
