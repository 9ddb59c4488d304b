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

enum { OPT_FORCE = 256, OPT_BUFFER, OPT_START, OPT_END, OPT_ACCEPT_DAMAGED };

static const struct opt_desc analyze_opts[] = {
	{ "output", 'o', required_argument, "DIR", "write summary.json and the CSV files to DIR" },
	{ "force", OPT_FORCE, no_argument, NULL, "replace earlier results in DIR" },
	{ "accept-damaged", OPT_ACCEPT_DAMAGED, no_argument, NULL,
	  "a cpuN.dat with fewer events than capture.json says were read: analyze what is "
	  "there, the missing events counted as lost (an error otherwise)" },
	{ "buffer", OPT_BUFFER, required_argument, "NAME",
	  "trace.dat: read the instance buffer NAME (default: the one with events)" },
	{ "interval", 'i', required_argument, "DUR",
	  "trace.dat: per-interval statistics every DUR (>= 10ms, default 1s)" },
	{ "start", OPT_START, required_argument, "TS",
	  "trace.dat: from the event at trace clock TS on (seconds, as trace-cmd report shows)" },
	{ "end", OPT_END, required_argument, "TS", "trace.dat: up to the event at TS" },
	{ "help", 'h', no_argument, NULL, "show this help" },
	{ NULL },
};

static const struct cli_help analyze_help = {
	"analyze", "deferbench analyze CAPTURE_DIR|TRACE.DAT [-o DIR] [--force] [OPTIONS]",
	"Recompute every figure of a capture recorded with 'deferbench record --raw -o\n"
	"CAPTURE_DIR' from its raw sub-buffers, as the live run computed them; or compute\n"
	"them from a trace.dat written by trace-cmd (record -C mono, or extract of an\n"
	"instance) with the events deferbench enables. Needs neither root nor tracefs.",
	analyze_opts, NULL,
};

int analyze_parse_args(int argc, char **argv, struct analyze_args *a, char *errbuf)
{
	char err[ERRBUF_LEN];
	struct opts_iter it;
	int opt;

	memset(a, 0, sizeof(*a));
	if ((opt = opts_begin(&it, analyze_opts, OPTS_PERMUTE, argc, argv, errbuf)))
		return opt;
	while ((opt = opts_next(&it, errbuf)) >= 0) {
		switch (opt) {
		case 'o':
			a->out_dir = optarg;
			break;
		case OPT_FORCE:
			a->force = true;
			break;
		case OPT_ACCEPT_DAMAGED:
			a->accept_damaged = true;
			break;
		case OPT_BUFFER:
			a->buffer = optarg;
			break;
		case OPT_START:
		case OPT_END:
			if (parse_ts_ns(optarg, opt == OPT_START ? &a->start_ns : &a->end_ns, err))
				return set_err(errbuf, "--%s: %s", opt == OPT_START ? "start" : "end",
					       err);
			break;
		case 'i':
			if (parse_duration_ns(optarg, &a->interval_ns, err))
				return set_err(errbuf, "--interval: %s", err);
			if (a->interval_ns < CAPTURE_MIN_INTERVAL_NS)
				return set_err(errbuf, "--interval: %s is shorter than 10ms", optarg);
			break;
		case 'h':
			return CLI_HELP;
		}
	}
	if (opt != OPTS_END)
		return opt;
	if (optind >= argc)
		return set_err(errbuf, "which capture? give the directory record -o wrote, or a "
			       "trace.dat");
	a->in_dir = argv[optind++];
	if (optind < argc)
		return set_err(errbuf, "unexpected argument '%s'", argv[optind]);
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

	ret = cli_parsed(analyze_parse_args(argc, argv, &a, err), &analyze_help, err, 1);
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
	if (tracedat && !is_tracedat(a.in_dir)) {
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
		};

		ret = tracedat_analyze(a.in_dir, &to, err);
	} else {
		ret = offline_analyze(raw, a.out_dir ? outw_dir(&w) : NULL, a.accept_damaged, err);
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
