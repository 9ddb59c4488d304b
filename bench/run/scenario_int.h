/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scenario_int.h - private to scenario*.c: [global] keys (scenario_global.c).
 */
#ifndef DEFERBENCH_SCENARIO_INT_H
#define DEFERBENCH_SCENARIO_INT_H

#include "scenario.h"

/* scn_defaults - a scenario with every [global] default and nothing else */
void scn_defaults(struct scenario *s);
/*
 * scn_global_set - set [global] name = value. *idx is the key's index (to refuse
 * duplicates). -ENOENT: unknown key; -EINVAL: bad value; err says which.
 */
int scn_global_set(struct scenario *s, const char *name, const char *value,
		   const struct scn_parse_opts *o, int *idx, char *err);

/* scn_design_parse - "alternate" or "cells"; -EINVAL with the choices in e */
int scn_design_parse(const char *v, enum scn_design *d, char *e);

/*
 * scn_alternate_finish - the design (o->design overrides [global]), which overrides are
 * live, and for design = alternate the checks of phase, settle and interval (the
 * interval defaults to one that tiles both); 0 or -EINVAL with the reason in err
 */
int scn_alternate_finish(struct scenario *s, const struct scn_parse_opts *o, char *err);

#endif
