/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmp_out.h - compare's outputs: the terminal table, compare.md and junit.xml.
 */
#ifndef DEFERBENCH_CMP_OUT_H
#define DEFERBENCH_CMP_OUT_H

#include <stdio.h>

#include "compare.h"

struct cmp_ctx {
	const struct run *base, *new;
	const struct cmp_opts *opts;
	const struct cmp_result *res;
	bool wide;		/* cmp_print: every column; false: rows fit 100 columns */
	bool fail_higher;	/* a primary "higher" fails too (compare --fail-higher) */
	const char *sets_note;	/* sets of runs: how they were judged; NULL: two runs */
};

void cmp_print(FILE *f, const struct cmp_ctx *c);
int cmp_write_md(const char *path, const struct cmp_ctx *c);
int cmp_write_junit(const char *path, const struct cmp_ctx *c);
/* cmp_interval - "[0.95, 1.07]" or "-" */
const char *cmp_interval(const struct judgement *j, char *buf, size_t len);
/*
 * cmp_margin - "10%" for the threshold, "10%r" between runs judged with the runs as the
 * unit (calibrated), "100%d" for the uncalibrated floor between runs, "-"
 */
const char *cmp_margin(const struct judgement *j, char *buf, size_t len);
/*
 * cmp_detects - "14%": the smallest change the comparison would have decided at its
 * length (judgement.mdc), so that a "no change" says what it would have caught; "-"
 */
const char *cmp_detects(const struct judgement *j, char *buf, size_t len);
/* cmp_moved.c: the section on work that moved (moved.h), in the table and compare.md */
struct doc;
void cmp_moved_print(FILE *f, const struct cmp_result *r);
void cmp_moved_md(struct doc *d, const struct cmp_result *r);

#endif
