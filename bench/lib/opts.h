/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - declare each command-line option once: getopt_long tables and the help
 * text are both generated from one struct opt_desc array (terminated by a zero entry).
 */
#ifndef DEFERBENCH_OPTS_H
#define DEFERBENCH_OPTS_H

#include <getopt.h>
#include <stdio.h>

struct opt_desc {
	const char *name;	/* long name, without "--" */
	int val;		/* short letter, or a value >= 256 for long-only options */
	int has_arg;		/* no_argument or required_argument */
	const char *metavar;	/* shown in help: --buffer-kb N */
	const char *help;	/* one line; mention bounds and the default */
};

#define OPTS_MAX 64
#define OPTS_NAME_LEN 64	/* "--buffer-kb" for messages */

/* getopt state built from a descriptor table */
struct opts_parser {
	struct option longopts[OPTS_MAX + 1];
	char shortopts[OPTS_MAX * 2 + 3];
};

/*
 * opts_build - fill the getopt_long tables; returns 0 or -E2BIG. Parsing stops at
 * the first non-option ("record -d 1s -- cmd -x" keeps -x for cmd).
 */
int opts_build(struct opts_parser *p, const struct opt_desc *d);
/* opts_build_permute - the same, but options may follow positional arguments */
int opts_build_permute(struct opts_parser *p, const struct opt_desc *d);
/* opts_usage - "usage: ..." line, a description, then every option with its help. */
void opts_usage(FILE *f, const char *usage, const char *desc, const struct opt_desc *d);
/* opts_reset - reset getopt so that a parser can run more than once (tests). */
void opts_reset(void);
/* opts_name - "--name" or "-x" for messages, given getopt's return value */
const char *opts_name(const struct opt_desc *d, int val, char *buf, size_t len);

/*
 * The parse loop every subcommand uses, so that each reports a bad option in the same
 * words ("unknown option '--bogus'", "--duration needs a value (DUR)"):
 *
 *	if ((ret = opts_begin(&it, table, OPTS_PERMUTE, argc, argv, errbuf)))
 *		return ret;
 *	while ((c = opts_next(&it, errbuf)) >= 0)
 *		switch (c) { ... }
 *	if (c != OPTS_END)
 *		return c;
 *	positional arguments: argv[optind] ... argv[argc - 1]
 */
enum opts_order {
	OPTS_IN_ORDER,		/* parsing stops at the first non-option ("-- cmd -x") */
	OPTS_PERMUTE,		/* options may follow positional arguments */
};
#define OPTS_END (-1)

struct opts_iter {
	struct opts_parser p;
	const struct opt_desc *d;
	int argc;
	char **argv;
};

/* opts_begin - build the tables and reset getopt; -E2BIG (a table too long) in errbuf */
int opts_begin(struct opts_iter *it, const struct opt_desc *d, enum opts_order order,
	       int argc, char **argv, char *errbuf);
/* opts_next - the next option's val, OPTS_END, or -EINVAL with the message in errbuf */
int opts_next(struct opts_iter *it, char *errbuf);

#endif
