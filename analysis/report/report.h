/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - deferbench report: report.md, report.html, plots/ and tables/ for a run
 * or record directory. The public entry point.
 */
#ifndef DEFERBENCH_REPORT_H
#define DEFERBENCH_REPORT_H

#include <stdbool.h>

#include "rundata.h"

struct report_opts {
	const char *outdir;	/* where report.md etc. go */
	bool plots;		/* draw plots with gnuplot */
	unsigned int top_wq;	/* workqueue groups per configuration in report tables */
};

/* report_write - 0 or -errno with a message in errbuf (ERRBUF_LEN) */
int report_write(const struct run *run, const struct report_opts *o, char *errbuf);

#endif
