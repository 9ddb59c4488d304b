/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - declare each command-line option once, as git's parse-options does: one
 * typed table entry (letter, long name, where the value goes, bounds, help) from which
 * both the parser and --help come, so that the two cannot disagree.
 *
 *	static const struct opt_desc record_opts[] = {
 *		OPT_UINT('b', "buffer-kb", record_args, buffer_kb, "N", 64, 1048576,
 *			 "ring buffer per CPU in KiB"),
 *		OPT_BOOL(0, "raw", record_args, raw, "also keep the raw sub-buffers"),
 *		OPT_ALIAS('n', NULL, "rows", "-n means --dry-run"),
 *		OPT_HELP(),
 *		OPT_END(),
 *	};
 *
 * Values go into an arguments struct (the macros take its tag and the member, and
 * refuse to compile when the member's type does not fit the option's), which the
 * caller fills with its defaults first: --help shows those defaults and the bounds
 * after each option's help. Options several commands share are macros over these
 * (bench/cli/cli_opts.h), like git's OPT__FORCE.
 *
 * The parser prints nothing but one note on stderr when an old spelling (OPT_ALIAS, or
 * an entry with .deprecated) is used: it keeps working for one release.
 */
#ifndef DEFERBENCH_OPTS_H
#define DEFERBENCH_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"

enum opt_type {
	OPTION_END,		/* ends a table */
	OPTION_HELP,		/* the parser returns OPTS_HELP */
	OPTION_BOOL,		/* bool = true */
	OPTION_SET_INT,		/* int = .value; one of the options sharing the int only */
	OPTION_STRING,		/* const char * = the value, not empty */
	OPTION_CPULIST,		/* const char * = the value, a list of online CPUs */
	OPTION_INT,		/* int in [min, max] */
	OPTION_UINT,		/* unsigned int in [min, max] */
	OPTION_U64,		/* uint64_t in [min, max] */
	OPTION_DURATION,	/* uint64_t ns in [min, max] (max 0: none): "10s", "500ms" */
	OPTION_DOUBLE,		/* double in [fmin, fmax]; .complement: stores 1 - it */
	OPTION_PERCENT,		/* double given in percent, in [fmin, fmax]; stored / 100 */
	OPTION_ENUM,		/* int = the index of the value in choices */
	OPTION_STRING_LIST,	/* const char *[max + 1], NULL-terminated; count at off2 */
	OPTION_CALLBACK,	/* cb(): the odd one */
	OPTION_ALIAS,		/* an old spelling of the option whose long name is .alias */
};

struct opt_desc;
/* a callback fills errbuf without naming the option: the parser prefixes "--name: " */
typedef int (*opt_cb)(const struct opt_desc *o, const char *arg, void *args, char *errbuf);

struct opt_desc {
	const char *name;		/* long name, without "--"; NULL: a letter alone */
	int letter;			/* -x, or 0 */
	enum opt_type type;
	size_t off;			/* where the value goes: offsetof() in the args struct */
	size_t off2;			/* STRING_LIST: where its count (size_t) goes */
	const char *metavar;		/* "DUR": in help and "needs a value" messages */
	const char *help;		/* one line; the bounds and the default follow it */
	uint64_t min, max;		/* INT, UINT, U64, DURATION; STRING_LIST: max values */
	double fmin, fmax;		/* DOUBLE, PERCENT */
	const char *const *choices;	/* ENUM: nchoices names */
	int nchoices;
	int value;			/* SET_INT */
	bool complement;		/* DOUBLE: given a confidence, store the error (1 - it) */
	bool optional;			/* the value may be left out: --name[=VALUE] */
	opt_cb cb;			/* CALLBACK */
	const char *alias;		/* ALIAS: the long name it stands for */
	const char *deprecated;		/* an old spelling: this note on stderr; help last */
};

#define OPTS_MAX 64
#define OPTS_HELP 1	/* opts_parse: -h or --help was given */

enum opts_order {
	OPTS_IN_ORDER,		/* parsing stops at the first non-option ("-- cmd -x") */
	OPTS_PERMUTE,		/* options may follow positional arguments */
};

/*
 * opts_parse - the options of argv[1..argc-1] into args, by table t. Returns 0 with
 * *first the index of the first positional argument, OPTS_HELP, or -EINVAL with a
 * message naming the option in errbuf (ERRBUF_LEN): "unknown option '--bogus'",
 * "--duration needs a value (DUR)", "--buffer-kb: 16 is out of range [64, 1048576]".
 * Parsers may run more than once (it resets getopt).
 */
int opts_parse(const struct opt_desc *t, enum opts_order order, int argc, char **argv,
	       void *args, int *first, char *errbuf);

/*
 * For parsers that getopt cannot serve (load passes unknown options on to the
 * workload): opts_lookup - the entry arg ("-x", "-xVALUE", "--name", "--name=VALUE")
 * spells, or NULL; *val is the attached value or NULL. opts_apply - give it value val
 * (NULL for a flag), as spelled in arg: 0, OPTS_HELP or -EINVAL as opts_parse.
 */
const struct opt_desc *opts_lookup(const struct opt_desc *t, const char *arg, const char **val);
int opts_apply(const struct opt_desc *t, const struct opt_desc *o, const char *arg,
	       const char *val, void *args, char *errbuf);
/* opts_takes_value - does the option need a value after it? */
bool opts_takes_value(const struct opt_desc *t, const struct opt_desc *o);

/*
 * opts_usage - "usage: ...", the description, then every option with its help, its
 * bounds and its default as found in defaults (the args struct as the parser starts
 * from it; NULL: none shown), then the old spellings still accepted.
 */
void opts_usage(FILE *f, const char *usage, const char *desc, const struct opt_desc *t,
		const void *defaults);

/* opts_resolve - the entry an alias stands for (o itself when it is none), or NULL */
const struct opt_desc *opts_resolve(const struct opt_desc *t, const struct opt_desc *o);

/*
 * The entries. ST is the tag of the args struct ("record_args"), F the member; the
 * member's type is checked at compile time.
 */
#define OPT_CHECK_(st, f, type) sizeof(struct {					\
	int : -!__builtin_types_compatible_p(__typeof__(((struct st *)0)->f), type); })
#define OPT_CHECK_SIZE_(st, f, size) \
	sizeof(struct { int : -!(sizeof(((struct st *)0)->f) == (size)); })
#define OPT_OFF_(st, f, type) (offsetof(struct st, f) + OPT_CHECK_(st, f, type))

#define OPT_END() { .type = OPTION_END }
#define OPT_HELP() { .name = "help", .letter = 'h', .type = OPTION_HELP, .help = "show this help" }
#define OPT_BOOL(l, n, st, f, h) \
	{ .name = (n), .letter = (l), .type = OPTION_BOOL, .off = OPT_OFF_(st, f, bool), \
	  .help = (h) }
#define OPT_SET_INT(l, n, st, f, v, h) \
	{ .name = (n), .letter = (l), .type = OPTION_SET_INT, .value = (v), .help = (h), \
	  .off = offsetof(struct st, f) + OPT_CHECK_SIZE_(st, f, sizeof(int)) }
#define OPT_STRING(l, n, st, f, mv, h) \
	{ .name = (n), .letter = (l), .type = OPTION_STRING, .metavar = (mv), .help = (h), \
	  .off = OPT_OFF_(st, f, const char *) }
#define OPT_CPULIST(l, n, st, f, h) \
	{ .name = (n), .letter = (l), .type = OPTION_CPULIST, .metavar = "LIST", .help = (h), \
	  .off = OPT_OFF_(st, f, const char *) }
#define OPT_INT(l, n, st, f, mv, lo, hi, h) \
	{ .name = (n), .letter = (l), .type = OPTION_INT, .metavar = (mv), .min = (lo), \
	  .max = (hi), .help = (h), .off = OPT_OFF_(st, f, int) }
#define OPT_UINT(l, n, st, f, mv, lo, hi, h) \
	{ .name = (n), .letter = (l), .type = OPTION_UINT, .metavar = (mv), .min = (lo), \
	  .max = (hi), .help = (h), .off = OPT_OFF_(st, f, unsigned int) }
#define OPT_U64(l, n, st, f, mv, lo, hi, h) \
	{ .name = (n), .letter = (l), .type = OPTION_U64, .metavar = (mv), .min = (lo), \
	  .max = (hi), .help = (h), .off = OPT_OFF_(st, f, uint64_t) }
#define OPT_DURATION(l, n, st, f, mv, lo, hi, h) \
	{ .name = (n), .letter = (l), .type = OPTION_DURATION, .metavar = (mv), .min = (lo), \
	  .max = (hi), .help = (h), .off = OPT_OFF_(st, f, uint64_t) }
#define OPT_DOUBLE(l, n, st, f, mv, lo, hi, h) \
	{ .name = (n), .letter = (l), .type = OPTION_DOUBLE, .metavar = (mv), .fmin = (lo), \
	  .fmax = (hi), .help = (h), .off = OPT_OFF_(st, f, double) }
/* OPT_COMPLEMENT - a confidence C given, 1 - C stored (rounded to 1e-9: 0.95 -> 0.05) */
#define OPT_COMPLEMENT(l, n, st, f, mv, lo, hi, h) \
	{ .name = (n), .letter = (l), .type = OPTION_DOUBLE, .metavar = (mv), .fmin = (lo), \
	  .fmax = (hi), .help = (h), .off = OPT_OFF_(st, f, double), .complement = true }
#define OPT_PERCENT(l, n, st, f, lo, hi, h) \
	{ .name = (n), .letter = (l), .type = OPTION_PERCENT, .metavar = "PCT", .fmin = (lo), \
	  .fmax = (hi), .help = (h), .off = OPT_OFF_(st, f, double) }
#define OPT_ENUM(l, n, st, f, mv, names, count, h) \
	{ .name = (n), .letter = (l), .type = OPTION_ENUM, .metavar = (mv), .choices = (names), \
	  .nchoices = (count), .help = (h), .off = OPT_OFF_(st, f, int) }
/* OPT_STRING_LIST - repeatable; F an array of const char * with room for a NULL */
#define OPT_STRING_LIST(l, n, st, f, count, mv, h) \
	{ .name = (n), .letter = (l), .type = OPTION_STRING_LIST, .metavar = (mv), .help = (h), \
	  .off = OPT_OFF_(st, f[0], const char *), .off2 = OPT_OFF_(st, count, size_t), \
	  .max = ARRAY_SIZE(((struct st *)0)->f) - 1 }
#define OPT_CALLBACK(l, n, st, f, mv, fn, h) \
	{ .name = (n), .letter = (l), .type = OPTION_CALLBACK, .metavar = (mv), .cb = (fn), \
	  .help = (h), .off = offsetof(struct st, f) }
/* OPT_CALLBACK_OPTARG - the same, the value optional (--name[=VALUE]); fn gets NULL */
#define OPT_CALLBACK_OPTARG(l, n, st, f, mv, fn, h) \
	{ .name = (n), .letter = (l), .type = OPTION_CALLBACK, .metavar = (mv), .cb = (fn), \
	  .help = (h), .off = offsetof(struct st, f), .optional = true }
/*
 * OPT_ALIAS - letter l or long name n (either may be 0/NULL) is the old spelling of
 * the option named target; why, or NULL, says what the old spelling means elsewhere
 */
#define OPT_ALIAS(l, n, target, why) \
	{ .name = (n), .letter = (l), .type = OPTION_ALIAS, .alias = (target), \
	  .deprecated = (why) }

#endif
