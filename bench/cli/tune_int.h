/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tune_int.h - what cmd_tune.c and tune_apply.c (tune.json, apply.sh, --apply=now and
 * --verify) share.
 */
#ifndef DEFERBENCH_TUNE_INT_H
#define DEFERBENCH_TUNE_INT_H

/* private to bench/cli/: its files define DEFERBENCH_ALLOW_TUNE_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_TUNE_INT_H
#error "tune_int.h is private to bench/cli/; include its public header"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "rundata.h"
#include "tune.h"

#define TUNE_MAX_TRY 6
#define TUNE_SCHEMA "deferbench-tune/1"
/* the longest line tune writes into tune.ini: libinih reads 199 characters */
#define TUNE_INI_LINE 190

struct tune_args {
	uint64_t duration_ns, survey_ns, phase_ns;
	const char *out_dir;
	const char *metric;		/* a file or FIFO (a stream), or workload-intervals.csv */
	const char *metric_cmd;		/* a shell command whose stdout is the stream */
	const char *metric_format;	/* auto, line, fio, ping, intervals; NULL: auto */
	const char *probe;
	const char *try[TUNE_MAX_TRY + 1];
	size_t ntry;
	unsigned int allow;
	bool live;
	int apply;			/* 0 no, 1 script, 2 script and now */
	bool verify;
	char **cmd;
};

/* the longest --latency path tune writes into tune.ini (the workload's string option) */
#define TUNE_PATH_MAX 128

/*
 * tune_parse_args - tune's command line into a (its options, then the cross-checks):
 * 0, OPTS_HELP, or -EINVAL with the reason in errbuf. No root; test_args.c runs it.
 */
int tune_parse_args(int argc, char **argv, struct tune_args *a, char *errbuf);

/* tune_probe_named - the probe workload called name, or NULL */
const char *tune_probe_named(const char *name);
/* tune_format_named - the --latency-format called name, or NULL */
const char *tune_format_named(const char *name);

/*
 * tune_apply.c: what tune writes into tune.ini, tune-verify.ini and apply.sh, checked
 * first (every value from the user or from tune.json): tune_value_ok - knob = value is
 * one line and a value of that knob (knob_parse), or a word for a probe's option;
 * tune_path_ok - a --latency path (or --latency-cmd command) tune.ini can hold;
 * tune_primary_ok - a list of metric patterns. 0, or -EINVAL with the reason in errbuf.
 */
int tune_value_ok(const char *knob, const char *value, char *errbuf);
int tune_path_ok(const char *path, char *errbuf);
int tune_primary_ok(const char *line, char *errbuf);

/*
 * tune_apply.c: the candidate called name; tune.json (with the primary patterns it was
 * judged on); apply.sh; the settings set now, journaled; --verify's two sides, its
 * probe, latency source and primary patterns from tune.json, checked; settings
 * --apply=now left put back
 */
const struct tune_cand *tune_cand_named(const struct tune_cand *c, size_t n, const char *name);
int tune_write_json(const char *path, const struct tune_cand *c, const char *run_dir,
		    const struct tune_args *a, const char *primary);
int tune_write_script(const char *path, const struct tune_cand *c);
int tune_apply_now(const struct tune_cand *c, const char *command);
int tune_verify_cands(const char *dir, struct tune_cand *applied, struct tune_cand *prev,
		      struct tune_args *a, char *primary, size_t plen);
int tune_take_back(bool *reapply);
/*
 * tune_write_persist - tune_persist.c: the settings of c in the forms that survive a
 * reboot, into dir (made if needed; only the files needed), each marked NOT INSTALLED;
 * online checks masks ("0-1", NULL: this machine). Returns the files written, or
 * -errno with errbuf.
 */
int tune_write_persist(const char *dir, const struct tune_cand *c, const char *online,
		       char *errbuf);

#endif
