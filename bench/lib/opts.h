/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - the settings engine: declare each setting once, as git's parse-options does,
 * as one typed table entry (letter, long name, scenario key, where the value goes,
 * bounds, default, help) from which the command-line parser, the parser of scenario
 * files and workload options, --help and the docs' tables all come, so that none of
 * them can disagree.
 *
 *	static const struct opt_desc record_opts[] = {
 *		OPT_UINT('b', "buffer-kb", record_args, buffer_kb, "N", 64, 1048576,
 *			 "ring buffer per CPU in KiB", .key = "buffer_kb", .def = "4096"),
 *		OPT_BOOL(0, "raw", record_args, raw, "also keep the raw sub-buffers"),
 *		OPT_ALIAS('n', NULL, "rows", "-n means --dry-run"),
 *		OPT_HELP(),
 *		OPT_END(),
 *	};
 *
 * Values go into an arguments struct (the macros take its tag and the member, and
 * refuse to compile when the member's type does not fit the option's). Every macro
 * takes further designated initializers after the help: .key, the setting's name in a
 * scenario file or a workload's options (opts_set() fills it from "key = value"), and
 * .def, its default as the user writes it (opts_defaults() sets every one, and the help
 * and the docs show it). A command's table may leave defaults to the caller instead,
 * who fills the struct first: --help shows what it holds. An entry with a key and
 * neither letter nor long name is a setting of files only.
 *
 * Overrides are a layer, as git's `-c name=value` is: OPT_LAYER brings the spelled
 * entries of another table onto a command line, where each given one is checked and
 * recorded as key = value (struct opts_layer), for the caller to apply over a file's
 * settings through the same opts_set() (scenario_settings.c: scn_global_layer): the one
 * parser of both, and one resolved value.
 *
 * Options several commands share are macros over these (bench/cli/cli_opts.h,
 * bench/capture/capture_settings.h), like git's OPT__FORCE.
 *
 * The parser prints nothing but one note on stderr when an old spelling (OPT_ALIAS, or
 * an entry with .deprecated) is used: it keeps working for one release.
 */
#ifndef DEFERBENCH_OPTS_H
#define DEFERBENCH_OPTS_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"

enum opt_type {
	OPTION_END,		/* ends a table */
	OPTION_HELP,		/* the parser returns OPTS_HELP */
	OPTION_BOOL,		/* bool = true; in a file: yes or no */
	OPTION_SET_INT,		/* int = .value; one of the options sharing the int only */
	OPTION_SET_VALUE,	/* a flag: the setting keyed .sets takes value .implied */
	OPTION_STRING,		/* const char * = the value, not empty; .size: char[size] */
	OPTION_CPULIST,		/* OPTION_STRING of online CPUs, canonical in a char[size] */
	OPTION_CPUSET,		/* cpu_set_t: a list of online CPUs, or "all" */
	OPTION_INT,		/* int in [min, max] (min may be negative) */
	OPTION_UINT,		/* unsigned int in [min, max] */
	OPTION_U64,		/* uint64_t in [min, max] */
	OPTION_SIZE,		/* uint64_t bytes in [min, max]: "64k", "16M" */
	OPTION_DURATION,	/* uint64_t ns in [min, max] (max 0: none): "10s", "500ms" */
	OPTION_DOUBLE,		/* double in [fmin, fmax]; .complement: stores 1 - it */
	OPTION_PERCENT,		/* double given in percent, in [fmin, fmax]; stored / 100 */
	OPTION_ENUM,		/* int = the index of the value in choices */
	OPTION_STRING_LIST,	/* const char *[max + 1], NULL-terminated; count at off2 */
	OPTION_CALLBACK,	/* cb(): the odd one */
	OPTION_ALIAS,		/* an old spelling of the option whose long name is .alias */
	OPTION_LAYER,		/* the spelled entries of .sub, recorded as key = value */
};

struct opt_desc;
/* a callback fills errbuf without naming the option: the parser prefixes "--name: " */
typedef int (*opt_cb)(const struct opt_desc *o, const char *arg, void *args, char *errbuf);

struct opt_desc {
	const char *name;		/* long name, without "--"; NULL: no long name */
	int letter;			/* -x, or 0 */
	const char *key;		/* in a scenario file or workload options; NULL: none */
	enum opt_type type;
	size_t off;			/* where the value goes: offsetof() in the args struct */
	size_t off2;			/* STRING_LIST: where its count (size_t) goes; CPULIST:
					 * the online CPUs to check against (const char *;
					 * NULL there: this machine's) */
	size_t size;			/* STRING, CPULIST: the char array (0: a pointer to the
					 * value); LAYER: the struct .sub fills */
	const char *metavar;		/* "DUR": in help and "needs a value" messages */
	const char *help;		/* one line; the bounds and the default follow it */
	const char *def;		/* the default as written ("4096", "1s"); NULL: none */
	uint64_t min, max;		/* INT, UINT, U64, SIZE, DURATION; STRING_LIST: max */
	double fmin, fmax;		/* DOUBLE, PERCENT */
	const char *const *choices;	/* ENUM: nchoices names */
	int nchoices;
	int value;			/* SET_INT */
	bool complement;		/* DOUBLE: given a confidence, store the error (1 - it) */
	bool optional;			/* the value may be left out: --name[=VALUE] */
	bool zero;			/* DURATION: "0" or "off" is none (0); STRING: may be
					 * empty */
	const char *implied;		/* optional: the value when left out; SET_VALUE: the
					 * value it gives the setting .sets */
	const char *sets;		/* SET_VALUE: the key of the setting it gives a value */
	opt_cb cb;			/* CALLBACK */
	const struct opt_desc *sub;	/* LAYER: the table whose spelled entries it takes */
	const char *alias;		/* ALIAS: the long name it stands for */
	const char *deprecated;		/* an old spelling: this note on stderr; help last */
};

#define OPTS_MAX 64
#define OPTS_HELP 1	/* opts_parse: -h or --help was given */

enum opts_order {
	OPTS_IN_ORDER,		/* parsing stops at the first non-option ("-- cmd -x") */
	OPTS_PERMUTE,		/* options may follow positional arguments */
};

/* opts_layer - settings given on a command line, over a file's: key = value, in order */
#define OPTS_LAYER_MAX 32
struct opts_layer {
	struct opts_setting {
		const char *key;
		const char *value;	/* points into argv or at the table's strings */
		const struct opt_desc *o;	/* the option that gave it (--blocks) */
	} set[OPTS_LAYER_MAX];
	int n;
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
 * bounds and its default (the entry's .def, else as found in defaults: the args struct
 * as the parser starts from it, NULL for none), then the old spellings still accepted.
 */
void opts_usage(FILE *f, const char *usage, const char *desc, const struct opt_desc *t,
		const void *defaults);

/* opts_resolve - the entry an alias stands for (o itself when it is none), or NULL */
const struct opt_desc *opts_resolve(const struct opt_desc *t, const struct opt_desc *o);

/*
 * opts_rows - the entries of t a command line spells, those its layers bring in
 * included: up to max pointers in rows; returns how many there are
 */
int opts_rows(const struct opt_desc *t, const struct opt_desc **rows, int max);

/*
 * The settings of files (scenarios, workload options), by key.
 * opts_find_key - the entry of key, or NULL. opts_set - the setting called key to value,
 * as a file writes it (a flag takes yes or no): 0, -ENOENT for no such key, or -EINVAL
 * with the reason in errbuf, which names neither key nor file (the caller knows where
 * it was written). A refused value leaves the old one in place.
 */
const struct opt_desc *opts_find_key(const struct opt_desc *t, const char *key);
int opts_set(const struct opt_desc *t, const char *key, const char *value, void *args,
	     char *errbuf);
/* opts_defaults - every entry's .def into args; -EINVAL names a default that is wrong */
int opts_defaults(const struct opt_desc *t, void *args, char *errbuf);
/*
 * opts_value - the value of o in args as a file would write it ("2500us", "64k", "yes",
 * "0-1"): 0, or -EINVAL for a type that has no text (callbacks, lists)
 */
int opts_value(const struct opt_desc *o, const void *args, char *buf, size_t len);
/* opts_keys - "a, b, c": the keys of t, for the message of an unknown one */
void opts_keys(const struct opt_desc *t, char *buf, size_t len);

/* opts_layer_get - the value the layer gives key (the last), or NULL */
const char *opts_layer_get(const struct opts_layer *l, const char *key);

/*
 * The docs: opts_type_name - "N", "DUR", "yes/no", "alternate, cells"; opts_range -
 * "64..1048576", ">= 10ms", "" when the bounds are the type's own; opts_doc_table - a
 * Markdown table of t's settings with a key (key, option, type, range, default, meaning),
 * what docs/scenarios.md and docs/common-options.md hold and a test compares.
 */
const char *opts_type_name(const struct opt_desc *o, char *buf, size_t len);
void opts_range(const struct opt_desc *o, char *buf, size_t len);
void opts_doc_table(FILE *f, const struct opt_desc *t);

/*
 * The entries. ST is the tag of the args struct ("record_args"), F the member; the
 * member's type is checked at compile time. After H, further designated initializers:
 * .key, .def, .zero, ...
 */
#define OPT_CHECK_(st, f, type) sizeof(struct {					\
	int : -!__builtin_types_compatible_p(__typeof__(((struct st *)0)->f), type); })
#define OPT_CHECK_SIZE_(st, f, size) \
	sizeof(struct { int : -!(sizeof(((struct st *)0)->f) == (size)); })
#define OPT_OFF_(st, f, type) (offsetof(struct st, f) + OPT_CHECK_(st, f, type))
/* a char array member: its offset, checked */
#define OPT_BUF_(st, f) (offsetof(struct st, f) + OPT_CHECK_(st, f[0], char))

#define OPT_END() { .type = OPTION_END }
#define OPT_HELP() { .name = "help", .letter = 'h', .type = OPTION_HELP, .help = "show this help" }
#define OPT_BOOL(l, n, st, f, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_BOOL, .off = OPT_OFF_(st, f, bool), \
	  .help = (h), __VA_ARGS__ }
#define OPT_SET_INT(l, n, st, f, v, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_SET_INT, .value = (v), .help = (h), \
	  .off = offsetof(struct st, f) + OPT_CHECK_SIZE_(st, f, sizeof(int)), __VA_ARGS__ }
/* OPT_SET_VALUE - the flag -l/--n means key = value; two such flags of one key contradict */
#define OPT_SET_VALUE(l, n, k, v, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_SET_VALUE, .sets = (k), .implied = (v), \
	  .help = (h), __VA_ARGS__ }
#define OPT_STRING(l, n, st, f, mv, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_STRING, .metavar = (mv), .help = (h), \
	  .off = OPT_OFF_(st, f, const char *), __VA_ARGS__ }
/* OPT_STRING_BUF - the value copied into the char array F (a file's values do not last) */
#define OPT_STRING_BUF(l, n, st, f, mv, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_STRING, .metavar = (mv), .help = (h), \
	  .off = OPT_BUF_(st, f), .size = sizeof(((struct st *)0)->f), __VA_ARGS__ }
/* OPT_CPULIST - canonical into the char array F, checked against the online CPUs at ON */
#define OPT_CPULIST(l, n, st, f, on, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_CPULIST, .metavar = "LIST", .help = (h), \
	  .off = OPT_BUF_(st, f), .size = sizeof(((struct st *)0)->f), \
	  .off2 = OPT_OFF_(st, on, const char *), __VA_ARGS__ }
#define OPT_CPUSET(l, n, st, f, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_CPUSET, .metavar = "LIST", .help = (h), \
	  .off = OPT_OFF_(st, f, cpu_set_t), __VA_ARGS__ }
#define OPT_INT(l, n, st, f, mv, lo, hi, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_INT, .metavar = (mv), \
	  .min = (uint64_t)(lo), .max = (uint64_t)(hi), .help = (h), .off = OPT_OFF_(st, f, int), \
	  __VA_ARGS__ }
#define OPT_UINT(l, n, st, f, mv, lo, hi, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_UINT, .metavar = (mv), .min = (lo), \
	  .max = (hi), .help = (h), .off = OPT_OFF_(st, f, unsigned int), __VA_ARGS__ }
#define OPT_U64(l, n, st, f, mv, lo, hi, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_U64, .metavar = (mv), .min = (lo), \
	  .max = (hi), .help = (h), .off = OPT_OFF_(st, f, uint64_t), __VA_ARGS__ }
#define OPT_SIZE(l, n, st, f, lo, hi, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_SIZE, .metavar = "SIZE", .min = (lo), \
	  .max = (hi), .help = (h), .off = OPT_OFF_(st, f, uint64_t), __VA_ARGS__ }
#define OPT_DURATION(l, n, st, f, mv, lo, hi, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_DURATION, .metavar = (mv), .min = (lo), \
	  .max = (hi), .help = (h), .off = OPT_OFF_(st, f, uint64_t), __VA_ARGS__ }
#define OPT_DOUBLE(l, n, st, f, mv, lo, hi, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_DOUBLE, .metavar = (mv), .fmin = (lo), \
	  .fmax = (hi), .help = (h), .off = OPT_OFF_(st, f, double), __VA_ARGS__ }
/* OPT_COMPLEMENT - a confidence C given, 1 - C stored (rounded to 1e-9: 0.95 -> 0.05) */
#define OPT_COMPLEMENT(l, n, st, f, mv, lo, hi, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_DOUBLE, .metavar = (mv), .fmin = (lo), \
	  .fmax = (hi), .help = (h), .off = OPT_OFF_(st, f, double), .complement = true, \
	  __VA_ARGS__ }
#define OPT_PERCENT(l, n, st, f, lo, hi, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_PERCENT, .metavar = "PCT", .fmin = (lo), \
	  .fmax = (hi), .help = (h), .off = OPT_OFF_(st, f, double), __VA_ARGS__ }
#define OPT_ENUM(l, n, st, f, mv, names, count, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_ENUM, .metavar = (mv), .choices = (names), \
	  .nchoices = (count), .help = (h), .off = OPT_OFF_(st, f, int), __VA_ARGS__ }
/* OPT_STRING_LIST - repeatable; F an array of const char * with room for a NULL */
#define OPT_STRING_LIST(l, n, st, f, count, mv, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_STRING_LIST, .metavar = (mv), .help = (h), \
	  .off = OPT_OFF_(st, f[0], const char *), .off2 = OPT_OFF_(st, count, size_t), \
	  .max = ARRAY_SIZE(((struct st *)0)->f) - 1, __VA_ARGS__ }
#define OPT_CALLBACK(l, n, st, f, mv, fn, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_CALLBACK, .metavar = (mv), .cb = (fn), \
	  .help = (h), .off = offsetof(struct st, f), __VA_ARGS__ }
/* OPT_CALLBACK_OPTARG - the same, the value optional (--name[=VALUE]); fn gets .implied */
#define OPT_CALLBACK_OPTARG(l, n, st, f, mv, fn, h, ...) \
	{ .name = (n), .letter = (l), .type = OPTION_CALLBACK, .metavar = (mv), .cb = (fn), \
	  .help = (h), .off = offsetof(struct st, f), .optional = true, __VA_ARGS__ }
/*
 * OPT_ALIAS - letter l or long name n (either may be 0/NULL) is the old spelling of
 * the option named target; why, or NULL, says what the old spelling means elsewhere
 */
#define OPT_ALIAS(l, n, target, why) \
	{ .name = (n), .letter = (l), .type = OPTION_ALIAS, .alias = (target), \
	  .deprecated = (why) }
/*
 * OPT_LAYER - the options of table t (those with a letter or long name), each checked
 * against a scratch struct tt as t would fill it and recorded into the opts_layer F
 */
#define OPT_LAYER(st, f, t, tt) \
	{ .type = OPTION_LAYER, .off = OPT_OFF_(st, f, struct opts_layer), .sub = (t), \
	  .size = sizeof(tt) }

#endif
