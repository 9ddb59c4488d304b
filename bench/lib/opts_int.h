/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts_int.h - what the files of the settings engine share: opts_parse.c (the command line
 * and its layers), opts_set.c (values by key, as files write them), opts_help.c (--help
 * and the docs' tables).
 */
#ifndef DEFERBENCH_OPTS_INT_H
#define DEFERBENCH_OPTS_INT_H

/* private to bench/lib/: its files define DEFERBENCH_ALLOW_OPTS_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_OPTS_INT_H
#error "opts_int.h is private to bench/lib/; include its public header"
#endif

#include "opts.h"

static inline void *opts_field(void *args, size_t off)
{
	return (char *)args + off;
}

static inline const void *opts_cfield(const void *args, size_t off)
{
	return (const char *)args + off;
}

/*
 * The rows of a command line: the entries of a table, and in place of each OPT_LAYER
 * the spelled entries of its table, each row knowing the layer it came through.
 */
struct opts_row {
	const struct opt_desc *o;
	const struct opt_desc *layer;	/* the OPT_LAYER entry, or NULL */
};

struct opts_view {
	struct opts_row r[OPTS_MAX];
	int n;
};

/* opts_view_of - the rows of t; -E2BIG beyond OPTS_MAX */
int opts_view_of(const struct opt_desc *t, struct opts_view *v);
/* opts_view_resolve - the row an alias stands for (its own when it is none), or NULL */
const struct opts_row *opts_view_resolve(const struct opts_view *v, const struct opts_row *r);
/* opts_spelled - o has a letter or a long name; opts_is_flag - o takes no value */
bool opts_spelled(const struct opt_desc *o);
bool opts_is_flag(const struct opt_desc *o);
/* opts_spell - "-D, --dir", "--raw" or "-n" */
const char *opts_spell(const struct opt_desc *o, char *buf, size_t len);
/*
 * opts_parse_value - the value of o (no alias, no flag of a command line) from arg,
 * spelled as a file spells it; the message in why does not name o. A refused value
 * changes nothing.
 */
int opts_parse_value(const struct opt_desc *o, const char *arg, void *args, char *why);
/* opts_names - "a, b, c" of n names; opts_bytes - "64k", "16M" when exact, else bytes */
void opts_names(char *buf, size_t len, const char *const *names, int n);
void opts_bytes(uint64_t v, char *buf, size_t len);

#endif
