/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - helpers shared by the table (output.c) and the result files
 * (result_files.h): groups in the order every output lists them, function names.
 */
#ifndef DEFERBENCH_OUTPUT_H
#define DEFERBENCH_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "fmt.h"
#include "result.h"

/* sirq_all - vector vec merged over every CPU; false if it never ran */
bool sirq_all(const struct result *r, int vec, struct sirq_group *out);
/*
 * sirq_each - fn for every vector that ran: its all-CPU merge (cpu -1), then each CPU
 * it ran on, in the order every output lists them. Returns 0 or -ENOMEM.
 */
typedef void (*sirq_visit)(void *ctx, const struct result *r, const struct sirq_group *g,
			   int vec, int cpu);
int sirq_each(const struct result *r, sirq_visit fn, void *ctx);
/* wq_order - group indices sorted by p99 delay, largest first; caller frees */
uint32_t *wq_order(const struct result *r);
/* wq_func_name - the work function's symbol */
const char *wq_func_name(const struct result *r, const struct wq_group *g, char *buf,
			 size_t len);

#endif
