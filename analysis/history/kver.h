/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kver.h - order kernel release strings as kernels were released, not as text:
 * 6.9 < 6.10, 6.18-rc1 < 6.18-rc2 < 6.18 < 6.18.1, "6.18.0-rc2" == "6.18-rc2".
 *
 * A release is up to four numbers, an optional "-rcN", and a local version (anything
 * else: "-fc-v1147", "+", "-next-20250101"). Local versions do not order releases: two
 * kernels that differ only there compare by what the caller knows besides (the date a
 * run started, see history), and only then by the text, so that the order is total.
 * Pure; never fails: a string that does not start with a number sorts after every
 * release, by its text.
 */
#ifndef DEFERBENCH_KVER_H
#define DEFERBENCH_KVER_H

#define KVER_PARTS 4

struct kver {
	unsigned long part[KVER_PARTS];	/* missing parts are 0 */
	int numeric;			/* 0: did not start with a number */
	int rc;				/* N of -rcN; 0 for a release */
	const char *local;		/* the rest, after the numbers and -rcN */
};

void kver_parse(const char *s, struct kver *v);
/* kver_cmp_release - <0, 0, >0 by numbers and rc only (local versions are equal) */
int kver_cmp_release(const char *a, const char *b);
/* kver_cmp - release, then local version text, then the whole text */
int kver_cmp(const char *a, const char *b);

#endif
