/* SPDX-License-Identifier: GPL-2.0 */
/*
 * load_args.h - the command line of 'deferbench load', parsed by a pure function so
 * that it is unit-tested without root.
 */
#ifndef DEFERBENCH_LOAD_ARGS_H
#define DEFERBENCH_LOAD_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "opts.h"

#define LOAD_MAX_OPTS 64
#define LOAD_KEY_MAX 64

struct load_args {
	const char *name;		/* workload, NULL with --list alone */
	uint64_t duration_ns;		/* -d, default LOAD_DEFAULT_DURATION_NS */
	const char *outdir;		/* -o, or NULL */
	uint64_t seed;			/* --seed, default 1 */
	bool list;			/* --list */
	bool help;			/* -h */
	int nopts;
	char key[LOAD_MAX_OPTS][LOAD_KEY_MAX];	/* workload options, in order given */
	const char *val[LOAD_MAX_OPTS];
};

#define LOAD_DEFAULT_DURATION_NS (10 * NSEC_PER_SEC)

extern const struct opt_desc load_opts[];

/*
 * load_parse_args - argv[0] is "load". load's own options may come before or after
 * the workload name; after it, "--key value", "--key=value" and "key=value" are
 * workload options (checked later against the workload's table). 0 or -EINVAL with
 * errbuf filled.
 */
int load_parse_args(int argc, char **argv, struct load_args *a, char *errbuf);

#endif
