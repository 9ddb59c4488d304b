/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outdir.h - output directories that are never half-written: results are written
 * into a staging directory beside the target ("DIR.partial-PID") and renamed into
 * place only when complete; on failure the staging directory is removed.
 *
 * Nothing but deferbench's own files is ever deleted: an earlier DIR is replaced only
 * when every entry in it is a name deferbench writes there (summary.json, the CSVs,
 * stacks.folded, raw/ with its files, worst/VECTOR/raw/, report.md, report.html,
 * plots/, tables/), and only those names are removed. Symbolic links are never followed nor counted as results.
 */
#ifndef DEFERBENCH_OUTDIR_H
#define DEFERBENCH_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * outdir_check - may results be written to dir? It may be absent or empty; holding
 * only deferbench's files it needs force; holding anything else it is refused, and so
 * it is when it is, holds or lies inside one of inputs (a NULL-terminated list of
 * paths the command reads, or NULL). 0 or -EINVAL with the reason in errbuf.
 */
int outdir_check(const char *dir, bool force, const char *const *inputs, char *errbuf);
/*
 * outdir_writable - for outputs written straight into dir (load -o, compare -o, report
 * -o): dir, or the ancestor mkdir -p would start from, is a directory this user can
 * write in, and the path is not too long. Checked before the work, not after it.
 */
int outdir_writable(const char *dir, char *errbuf);
/* outdir_stage - create the staging directory for dir; its path goes to staging */
int outdir_stage(const char *dir, char *staging, size_t len, char *errbuf);
/*
 * outdir_commit - put staging in dir's place; deferbench's files of an earlier dir are
 * removed (after the new results are in place), nothing else. When dir gained foreign
 * files meanwhile the new results are kept in staging, errbuf says where, and staging
 * is set to "" so that outdir_abort() leaves them.
 */
int outdir_commit(const char *dir, char *staging, char *errbuf);
void outdir_abort(const char *staging);

/*
 * results_remove - remove deferbench's own files from dir, and dir itself when that
 * empties it. 0, -ENOTEMPTY when other files remain (untouched), or -errno.
 */
int results_remove(const char *dir);
/* outdir_report_file - a name the report writes into plots/ and tables/ (no dot file) */
bool outdir_report_file(const char *name);

#endif
