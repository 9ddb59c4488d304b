// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_analyze.c - deferbench analyze: recompute every figure of a capture kept with
 * record --raw, offline, with the same decoder, merger and matcher as the live run; or
 * compute them from a trace.dat that trace-cmd wrote (tracedat.h).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "capture.h"
#include "cli.h"
#include "offline.h"
#include "outw.h"
#include "tracedat.h"
#include "msg.h"
#include "parse.h"

/* set_ts - --start and --end: a trace clock timestamp in seconds */
static int set_ts(const struct opt_desc *o, const char *arg, void *args, char *errbuf)
{
	return parse_ts_ns(arg, (uint64_t *)((char *)args + o->off), errbuf);
}

static const struct opt_desc analyze_opts[] = {
	CLI_OPT_OUTPUT(analyze_args, out_dir, "DIR", "write summary.json and the CSV files to DIR"),
	CLI_OPT_FORCE(analyze_args, force, "replace earlier results in DIR"),
	OPT_BOOL(0, "accept-damaged", analyze_args, accept_damaged,
		 "a cpuN.dat with fewer events than capture.json says were read: analyze what "
		 "is there, the missing events counted as lost (an error otherwise)"),
	OPT_STRING(0, "buffer", analyze_args, buffer, "NAME",
		   "trace.dat: read the instance buffer NAME (default: the one with events)"),
	CLI_OPT_INTERVAL(analyze_args, interval_ns, CAPTURE_MIN_INTERVAL_NS,
			 "trace.dat: per-interval statistics every DUR; 1s when not given"),
	OPT_CALLBACK(0, "start", analyze_args, start_ns, "TS", set_ts,
		     "trace.dat: from the event at trace clock TS on (seconds, as trace-cmd "
		     "report shows)"),
	OPT_CALLBACK(0, "end", analyze_args, end_ns, "TS", set_ts,
		     "trace.dat: up to the event at TS"),
	CLI_TABLE_OPTS(analyze_args),
	OPT_HELP(),
	OPT_END(),
};

static void analyze_defaults(void *args)
{
	struct analyze_args *a = args;

	memset(a, 0, sizeof(*a));
	a->table.min_count = TABLE_MIN_COUNT;
}

const struct cli_command cli_analyze = {
	.name = "analyze",
	.fn = cmd_analyze,
	.summary = "recompute every figure from a capture kept with record --raw, or from a "
		   "trace.dat",
	.usage = "deferbench analyze CAPTURE_DIR|TRACE.DAT [-o DIR] [--force] [OPTIONS]",
	.desc =
	"Recompute every figure of a capture recorded with 'deferbench record --raw -o\n"
	"CAPTURE_DIR' from its raw sub-buffers, as the live run computed them; or compute\n"
	"them from a trace.dat written by trace-cmd (record -C mono, or extract of an\n"
	"instance) with the events deferbench enables. Needs neither root nor tracefs.",
	.examples = "deferbench analyze /tmp/rec -o /tmp/rec-again\n"
		    "deferbench analyze trace.dat -o /tmp/from-trace-cmd",
	.opts = analyze_opts,
	.args_size = sizeof(struct analyze_args),
	.defaults = analyze_defaults,
};

int analyze_parse_args(int argc, char **argv, struct analyze_args *a, char *errbuf)
{
	int first, ret;

	analyze_defaults(a);
	ret = opts_parse(analyze_opts, OPTS_PERMUTE, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	if (first >= argc)
		return set_err(errbuf, "which capture? give the directory record -o wrote, or a "
			       "trace.dat");
	a->in_dir = argv[first++];
	if (first < argc)
		return set_err(errbuf, "unexpected argument '%s'", argv[first]);
	if (a->force && !a->out_dir)
		return set_err(errbuf, "--force needs -o DIR");
	if (a->end_ns && a->end_ns < a->start_ns)
		return set_err(errbuf, "--end is before --start");
	return 0;
}

int cmd_analyze(int argc, char **argv)
{
	char err[ERRBUF_LEN] = "", raw[PATH_MAX];
	struct analyze_args a;
	struct outw w = { .pfd = -1 };
	struct stat st;
	bool tracedat;
	int ret;

	ret = cli_parsed(analyze_parse_args(argc, argv, &a, err), &cli_analyze, err, 1);
	if (ret >= 0)
		return ret;
	if (stat(a.in_dir, &st)) {
		err_msg("analyze: %s: %s; give a directory 'deferbench record --raw -o DIR' wrote, "
			"or a trace.dat", a.in_dir, strerror(errno));
		return 1;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		err_msg("analyze: %s is %s: give a directory 'deferbench record --raw -o DIR' "
			"wrote, or a trace.dat", a.in_dir, S_ISFIFO(st.st_mode) ? "a pipe" :
			S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" :
			"not a regular file");
		return 1;
	}
	tracedat = S_ISREG(st.st_mode);
	if (tracedat && !tracedat_is_file(a.in_dir)) {
		err_msg("analyze: %s is not a trace.dat (it does not begin with trace-cmd's magic "
			"bytes) nor a record directory", a.in_dir);
		return 1;
	}
	if (!tracedat && (a.buffer || a.interval_ns || a.start_ns || a.end_ns)) {
		err_msg("analyze: --buffer, --interval, --start and --end are for a trace.dat; a "
			"capture is analyzed whole, with its own interval");
		return 1;
	}
	snprintf(raw, sizeof(raw), "%s/raw", a.in_dir);
	if (!tracedat && (stat(raw, &st) || !S_ISDIR(st.st_mode))) {
		err_msg("analyze: %s holds no raw/ capture to analyze: only 'deferbench record "
			"--raw -o DIR' keeps one (a record without --raw keeps its results only)",
			a.in_dir);
		return 1;
	}
	/* the capture is an input: the output may not be, hold or lie in it */
	if (a.out_dir && outw_open(&w, a.out_dir, &(struct outw_opts){
			.kind = OUTW_DIR, .by = "analyze", .force = a.force,
			.inputs = (const char *const[]){ tracedat ? a.in_dir : raw, NULL } },
			err)) {
		err_msg("%s", err);
		return 1;
	}
	if (tracedat) {
		struct tracedat_opts to = {
			.buffer = a.buffer,
			.interval_ns = a.interval_ns ? a.interval_ns : CAPTURE_DEFAULT_INTERVAL_NS,
			.start_ns = a.start_ns,
			.end_ns = a.end_ns,
			.outdir = a.out_dir ? outw_dir(&w) : NULL,
			.table = &a.table,
		};

		ret = tracedat_analyze(a.in_dir, &to, err);
	} else {
		ret = offline_analyze(raw, a.out_dir ? outw_dir(&w) : NULL, a.accept_damaged,
				      &a.table, err);
	}
	if (ret) {
		err_msg("analyze: %s", err);
		outw_abort(&w);
		return 1;
	}
	if (a.out_dir && outw_commit(&w, err)) {
		err_msg("%s", err);
		return 1;
	}
	if (a.out_dir)
		info_msg("results in %s", a.out_dir);
	return 0;
}
