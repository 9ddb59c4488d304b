/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scenario_int.h - private to scenario*.c: [global] settings (scenario_settings.c).
 */
#ifndef DEFERBENCH_SCENARIO_INT_H
#define DEFERBENCH_SCENARIO_INT_H

/* private to bench/scenario/: its files define DEFERBENCH_ALLOW_SCENARIO_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_SCENARIO_INT_H
#error "scenario_int.h is private to bench/scenario/; include its public header"
#endif

#include "scenario.h"

/*
 * scn_ini_read - the sections and keys of a scenario file's text into s, [global] at its
 * defaults where the file says nothing; "FILE:LINE: message" in errbuf
 */
int scn_ini_read(const char *text, const char *file, const struct scn_parse_opts *o,
		 struct scenario *s, char *errbuf);
/* scn_splitmix64 - the next number of a small, portable generator seeded with *x */
uint64_t scn_splitmix64(uint64_t *x);
/* scn_defaults - a scenario with every [global] default and nothing else */
void scn_defaults(struct scenario *s, const char *online);
/*
 * scn_global_set - set [global] name = value on line line (> 0), or from the command
 * line (-1). -ENOENT: unknown key; -EEXIST: set twice; -EINVAL: bad value; err says why.
 */
int scn_global_set(struct scenario *s, const char *name, const char *value, int line,
		   char *err);
/* scn_global_layer - the command line's settings over the file's; -EINVAL names the option */
int scn_global_layer(struct scenario *s, const struct opts_layer *l, char *err);

/*
 * scn_alternate_finish - which overrides are live, and for design = alternate the checks
 * of blocks, phase, settle and interval (the interval defaults to one that tiles both);
 * 0 or -EINVAL with the reason in err
 */
int scn_alternate_finish(struct scenario *s, const struct scn_parse_opts *o, char *err);

#endif
