/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outdir.h - output directories that are never half-written: results are written
 * into a staging directory beside the target ("DIR.partial-PID") and renamed into
 * place only when complete; on failure the staging directory is removed.
 */
#ifndef DEFERBENCH_OUTDIR_H
#define DEFERBENCH_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

/* outdir_check - DIR may be absent or empty; non-empty needs force. Fills errbuf. */
int outdir_check(const char *dir, bool force, char *errbuf);
/* outdir_stage - create the staging directory for dir; its path goes to staging */
int outdir_stage(const char *dir, char *staging, size_t len, char *errbuf);
/* outdir_commit - replace dir by the staging directory */
int outdir_commit(const char *dir, const char *staging, char *errbuf);
void outdir_abort(const char *staging);

#endif
