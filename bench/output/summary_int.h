/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summary_int.h - what the parts of summary.json's owner share (summary_json.c,
 * summary_ctx.c, output_bh.c). Not for use outside them.
 */
#ifndef DEFERBENCH_SUMMARY_INT_H
#define DEFERBENCH_SUMMARY_INT_H

/* private to bench/output/: its files define DEFERBENCH_ALLOW_SUMMARY_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_SUMMARY_INT_H
#error "summary_int.h is private to bench/output/; include its public header"
#endif

#include <json.h>

#include "jsonread.h"
#include "result.h"
#include "rundata.h"

/* the sections of summary_ctx.c: written into root, 0 or -ENOMEM */
int summary_json_contexts(const struct result *r, json_object *root);
int summary_json_wait(const struct result *r, json_object *root);
/* ... and read back; absent sections are fine (older files) */
int summary_read_contexts(const struct jr *j, struct json_object *root, struct record *rec);
int summary_read_wait(const struct jr *j, struct json_object *root, struct record *rec);
/* summary_detail.c: slowest and stacks (record --slowest, --stacks), and meta's part */
int summary_json_detail(const struct result *r, json_object *root);
void summary_json_detail_meta(const struct result *r, json_object *meta);
int summary_read_detail(const struct jr *j, struct json_object *root, struct record *rec);
/* output_bh.c: bh_work, and the queued_* counts of one workqueue group */
int output_bh_json(const struct result *r, json_object *root);
void output_queued_json(const struct wq_group *g, json_object *o);

#endif
