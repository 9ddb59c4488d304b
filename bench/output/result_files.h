/* SPDX-License-Identifier: GPL-2.0 */
/*
 * result_files.h - the files a capture writes, each with its writer (from struct
 * result) and its reader (into the model of rundata.h), so that a format has one owner:
 *
 *   (all of them)    result_files.c     the result directory (result_write_dir)
 *   summary.json     summary_json.c     every statistic, counts, losses, metadata
 *   softirq.csv      tables_csv.c       the statistics as tables (written only)
 *   workqueue.csv    tables_csv.c
 *   contexts.csv     tables_csv.c
 *   softirq_wait.csv tables_csv.c
 *   histograms.csv   histograms_csv.c   the buckets of every histogram
 *   intervals.csv    intervals_csv.c    per-interval statistics and buckets (the format
 *                                       is bench/lib/ivfile.h's, shared with workloads)
 *   slowest.csv      detail_csv.c       record --slowest: the slowest events (written only)
 *   stacks.csv       detail_csv.c       record --stacks: delay and runtime per stack
 *   stacks.folded    detail_csv.c       the same for flame graph tools (written only)
 *
 * Columns and fields: docs/results-format.md. Writers return 0 or -errno; readers
 * return 0 or -errno with a message naming the file, row and field in errbuf.
 */
#ifndef DEFERBENCH_RESULT_FILES_H
#define DEFERBENCH_RESULT_FILES_H

#include <stddef.h>

#include "result.h"
#include "rundata.h"

#define SUMMARY_SCHEMA "deferbench/1"

/* result_write_dir - summary.json and the CSV files (tables_write) into dir */
int result_write_dir(const struct result *r, const char *dir);
/* summary_write - summary.json at path */
int summary_write(const struct result *r, const char *path);
/* tables_write - softirq.csv, workqueue.csv, contexts.csv, softirq_wait.csv and
 * histograms.csv into dir */
int tables_write(const struct result *r, const char *dir);
int histograms_write(const struct result *r, const char *path);
/*
 * summary_json_command_status - record -- COMMAND: {"exit": N} or {"signal": N}, and
 * "stopped_by_deferbench"; in summary.json's meta and in a raw capture's capture.json
 */
struct json_object;
struct json_object *summary_json_command_status(const struct result_meta *m);

/* intervals.csv, written while the capture runs: intervals_csv_cb is the matcher's callback */
struct ival_writer;
struct ival_writer *intervals_csv_open(const char *path, const struct result *r);
void intervals_csv_cb(void *ctx, uint64_t interval, enum ival_kind kind, uint32_t key,
		    const struct hist *delay, const struct hist *runtime);
int intervals_csv_close(struct ival_writer *w);

/* summary_load - summary.json into rec (statistics; buckets come from histograms.csv) */
int summary_load(const char *path, struct record *rec, char *errbuf);
/* histograms_load - histograms.csv's buckets into the groups summary_load made */
int histograms_load(const char *path, struct record *rec, char *errbuf);
/* detail_stacks_load - stacks.csv's stacks into rec->stacks */
int detail_stacks_load(const char *path, struct record *rec, char *errbuf);

#endif
