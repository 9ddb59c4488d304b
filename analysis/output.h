/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - helpers shared by the writers of result.h (table, JSON, CSV, intervals).
 */
#ifndef DEFERBENCH_OUTPUT_H
#define DEFERBENCH_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

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
/* fmt_ns - "850ns", "12.3us", "4.56ms", "1.20s" */
const char *fmt_ns(uint64_t ns, char *buf, size_t len);

/* json_command_status - {"exit": N} or {"signal": N}, "stopped_by_deferbench" */
struct json_object;
struct json_object *json_command_status(const struct result_meta *m);

/* Per-interval statistics writer (intervals.csv); used as the matcher's callback. */
struct ival_writer;
struct ival_writer *ival_writer_open(const char *path, const struct result *r);
void ival_writer_cb(void *ctx, uint64_t interval, enum ival_kind kind, uint32_t key,
		    const struct hist *delay, const struct hist *runtime);
int ival_writer_close(struct ival_writer *w);

#endif
