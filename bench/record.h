/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - argument parsing of deferbench record and analyze, kept pure so that
 * tests check it without root.
 */
#ifndef DEFERBENCH_RECORD_H
#define DEFERBENCH_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#define RECORD_MIN_BUFFER_KB 64
#define RECORD_MAX_BUFFER_KB (1024 * 1024)
#define RECORD_MIN_INTERVAL_NS (10 * 1000000ULL)

struct record_args {
	uint64_t duration_ns;		/* 0: until the command exits, or Ctrl-C */
	const char *out_dir;
	unsigned int buffer_kb;
	uint64_t interval_ns;
	bool raw;
	bool force;
	bool no_sched;
	const char *store;		/* --store: add the results to this results store */
	char **cmd;			/* NULL-terminated, or NULL */
};

/* record_parse_args - 0 ok, 1 help was asked for, -EINVAL (message in errbuf) */
int record_parse_args(int argc, char **argv, struct record_args *a, char *errbuf);

struct analyze_args {
	const char *in_dir;
	const char *out_dir;
	bool force;
};

int analyze_parse_args(int argc, char **argv, struct analyze_args *a, char *errbuf);

#endif
