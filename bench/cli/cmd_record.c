// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_record.c - deferbench record: trace softirqs and workqueues system-wide for a
 * duration or while a command runs, print the table, write the result files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "detail.h"
#include "result_files.h"
#include "cli.h"
#include "leftovers.h"
#include "outdir.h"
#include "proc.h"
#include "outw.h"
#include "msg.h"
#include "parse.h"
#include "sys.h"

/* set_keep_worst - --keep-worst[=WINDOW] */
static int set_keep_worst(const struct opt_desc *o __unused, const char *arg, void *args,
			  char *errbuf)
{
	struct record_args *a = args;

	a->keep_worst_ns = KEEP_WORST_DEFAULT_NS;
	if (arg && parse_duration_ns(arg, &a->keep_worst_ns, errbuf))
		return -EINVAL;
	if (!a->keep_worst_ns || a->keep_worst_ns > NSEC_PER_SEC)
		return set_err(errbuf, "'%s': the window is 1ns to 1s", arg);
	return 0;
}

static const struct opt_desc record_opts[] = {
	CLI_OPT_DURATION(record_args, duration_ns,
			 "trace for DUR (10s, 500ms, 2m); with a COMMAND, stop it after DUR"),
	CLI_OPT_OUTPUT(record_args, out_dir, "DIR", "write summary.json and the CSV files to DIR"),
	CAPTURE_OPT_INTERVAL(record_args, cap, CAPTURE_MIN_INTERVAL_NS,
			     "per-interval statistics every DUR in intervals.csv"),
	OPT_BOOL(0, "align-intervals", record_args, align,
		 "start intervals at multiples of DUR on the trace clock, like 'deferbench top' "
		 "(the first is then partial)"),
	CAPTURE_OPTS(record_args, cap),
	OPT_BOOL(0, "raw", record_args, raw,
		 "also keep the raw sub-buffers in DIR/raw for 'deferbench analyze'"),
	CLI_OPT_FORCE(record_args, force, "replace earlier results in DIR"),
	CLI_OPT_STORE(record_args, store,
		      "with -o: add the results to this results store (deferbench history)"),
	CAPTURE_OPT_SLOWEST(record_args, cap),
	CAPTURE_OPT_STACKS(record_args, cap),
	OPT_CALLBACK_OPTARG(0, "keep-worst", record_args, keep_worst_ns, "WINDOW",
			    set_keep_worst,
			    "with -o: keep the raw trace from WINDOW (default 10ms) before the "
			    "worst delay of each --stacks vector to WINDOW after it, in "
			    "DIR/worst/VECTOR for 'deferbench analyze'; implies --slowest"),
	CLI_TABLE_OPTS(record_args),
	OPT_HELP(),
	OPT_END(),
};

static void record_defaults(void *args)
{
	struct record_args *a = args;

	memset(a, 0, sizeof(*a));
	opts_defaults(record_opts, a, NULL);
	a->table.min_count = TABLE_MIN_COUNT;
}

const struct cli_command cli_record = {
	.name = "record",
	.fn = cmd_record,
	.summary = "trace softirq and workqueue latency system-wide",
	.usage = "deferbench record [-d DUR] [-o DIR] [OPTIONS] [-- COMMAND [ARGS]]",
	.desc =
	"Trace softirq and workqueue events system-wide in a private tracefs instance and\n"
	"report how long deferred work waited and ran (all times on trace_clock mono):\n"
	"  softirq delay    raise -> entry (earliest raise since the vector's last entry)\n"
	"  softirq runtime  entry -> exit\n"
	"  wq delay         queue_work -> execute_start (split: -> activate -> start)\n"
	"  wq runtime       execute_start -> execute_end\n"
	"and per execution context (softirq inline, in ksoftirqd, ktimers or an irq thread,\n"
	"tasklet, napi poll and thread, irq thread, PREEMPT_RT's backlog_napi, ktimers,\n"
	"rcuc and irq_work threads, hard irq, worker pool kind) its delay and runtime; each\n"
	"softirq delay is split into causes that add up to it (docs/figures.md).\n"
	"Without -d or COMMAND, records until Ctrl-C. Needs root.",
	.examples = "deferbench record -d 10s -o /tmp/rec\n"
		    "deferbench record -o /tmp/rec -- make -j2",
	.opts = record_opts,
	.args_size = sizeof(struct record_args),
	.defaults = record_defaults,
};

int record_parse_args(int argc, char **argv, struct record_args *a, char *errbuf)
{
	int first, ret;

	record_defaults(a);
	ret = opts_parse(record_opts, OPTS_IN_ORDER, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	if (first < argc)
		a->cmd = argv + first;
	if (a->raw && !a->out_dir)
		return set_err(errbuf, "--raw needs -o DIR to keep the raw capture in");
	if (a->force && !a->out_dir)
		return set_err(errbuf, "--force needs -o DIR");
	if (a->store && !a->out_dir)
		return set_err(errbuf, "--store needs -o DIR: the store imports the result files");
	if (a->keep_worst_ns && !a->out_dir)
		return set_err(errbuf, "--keep-worst needs -o DIR to keep the trace in");
	/* a stack or a kept trace is read beside the slowest events */
	if ((a->cap.stack_vecs || a->keep_worst_ns) && !a->cap.slowest)
		a->cap.slowest = SLOWEST_DEFAULT;
	return 0;
}

/*
 * command_check - can cmd be run? Not found, not executable, or a directory: -errno,
 * with a message in errbuf. Catches the common mistakes ("-- nosuchcmd", "record -d
 * 1s typo") before anything is traced.
 */
static int command_check(const char *cmd, char *errbuf)
{
	const char *path = getenv("PATH"), *p, *end;
	char full[PATH_MAX];
	struct stat st;
	int n;

	if (!*cmd)
		return set_err(errbuf, "the command is empty");
	if (strchr(cmd, '/')) {
		if (stat(cmd, &st))
			return set_err(errbuf, "cannot run '%s': %s", cmd, strerror(errno));
		if (S_ISDIR(st.st_mode) || access(cmd, X_OK))
			return set_err(errbuf, "cannot run '%s': %s", cmd,
				       S_ISDIR(st.st_mode) ? "it is a directory" : strerror(errno));
		return 0;
	}
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; ; p = end + 1) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		n = snprintf(full, sizeof(full), "%.*s/%s", (int)(end - p),
			     end == p ? "." : p, cmd);
		if (n > 0 && (size_t)n < sizeof(full) && !stat(full, &st) && !S_ISDIR(st.st_mode) &&
		    !access(full, X_OK))
			return 0;
		if (!*end)
			break;
	}
	return set_err(errbuf, "cannot run '%s': no such command in PATH (options of record go "
		       "before '--', the command and its arguments after it)", cmd);
}

/* spawn - cmd started as a shell would start it; -errno (errbuf) when it cannot run */
static pid_t spawn(char **cmd, char *errbuf)
{
	struct proc_opts o = { .out_fd = -1 };
	pid_t pid;
	int ret = proc_spawn(cmd, &o, &pid, errbuf);

	return ret ? ret : pid;
}

/* reap - wait for the child; after grace_ns send SIGKILL. Returns its wait status. */
static int reap(pid_t pid, uint64_t grace_ns)
{
	int status = 0;

	if (!proc_reap(pid, &status, grace_ns)) {
		kill(pid, SIGKILL);
		proc_reap(pid, &status, UINT64_MAX / 2);
	}
	return status;
}

/*
 * wait_end - until the duration ends, the child exits, or Ctrl-C; *stopped says that
 * deferbench ended the child (its status is then not the command's failure)
 */
static int wait_end(const struct record_args *a, pid_t child, bool *stopped)
{
	uint64_t deadline = a->duration_ns ? now_ns() + a->duration_ns : UINT64_MAX;
	int status = 0;

	*stopped = false;
	while (!stop_requested && now_ns() < deadline) {
		if (child > 0 && waitpid(child, &status, WNOHANG) == child)
			return status;
		usleep(child > 0 ? 10000 : 50000);
	}
	*stopped = true;
	if (child > 0) {
		/* Ctrl-C reached the child through the terminal; SIGTERM may not have */
		kill(child, SIGTERM);
		status = reap(child, 2 * NSEC_PER_SEC);
	}
	return status;
}

/*
 * command_status - the exit status record passes on, as time and perf stat do: the
 * command's own, 128 + N when a signal killed it, 0 when deferbench stopped it (the
 * duration ended, or Ctrl-C)
 */
static int command_status(int status, bool stopped)
{
	if (stopped)
		return 0;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 0;
}

/*
 * record_run - capture, print, write the results into staging; *instance_left when
 * the instance could not be removed afterwards (said; the results stand)
 */
static int record_run(const struct record_args *a, const char *staging, const char *command,
		      int *cmd_status, bool *instance_left)
{
	char err[ERRBUF_LEN] = "", raw[PATH_MAX + 8], ivals[PATH_MAX + 16], worst[PATH_MAX + 8];
	struct capture_opts co = {
		.command = command,
		.align_intervals = a->align,
		.keep_worst_ns = a->keep_worst_ns,
		.worst_vecs = a->cap.stack_vecs ? a->cap.stack_vecs : STACK_VECS_DEFAULT,
	};
	struct capture *c;
	bool stopped = false;
	pid_t child = 0;
	int status = 0, ret;

	capture_settings_apply(&a->cap, &co);
	if (staging) {
		snprintf(raw, sizeof(raw), "%s/raw", staging);
		snprintf(ivals, sizeof(ivals), "%s/intervals.csv", staging);
		co.raw_dir = a->raw ? raw : NULL;
		co.intervals_csv = ivals;
		snprintf(worst, sizeof(worst), "%s/worst", staging);
		co.worst_dir = worst;
	}
	c = capture_new(&co, err);
	if (!c) {
		err_msg("%s", err);
		return -EINVAL;
	}
	ret = capture_start(c);
	if (ret) {
		err_msg("cannot start the capture: %s", strerror(-ret));
		goto out_free;
	}
	if (a->cmd) {
		child = spawn(a->cmd, err);
		if (child < 0) {
			err_msg("%s", err);
			ret = child;
			goto out_free;
		}
	}
	if (!a->cmd && !a->duration_ns)
		info_msg("recording until Ctrl-C");
	if (child > 0) {
		status = wait_end(a, child, &stopped);
		*cmd_status = command_status(status, stopped);
		capture_note_command(c, status, stopped);
	} else {
		wait_end(a, 0, &stopped);
	}
	ret = capture_stop(c);
	if (ret) {
		err_msg("the capture failed: %s", strerror(-ret));
		goto out_free;
	}
	if (stop_requested)
		info_msg("interrupted: results cover the time traced so far");
	if (child > 0 && *cmd_status)
		warn_msg("the command %s %d; record exits with status %d",
			 WIFSIGNALED(status) ? "was killed by signal" : "exited with status",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
			 *cmd_status);
	output_print(capture_result(c), stdout, &a->table);
	fflush(stdout);
	if (staging) {
		ret = result_write_dir(capture_result(c), staging);
		if (ret)
			err_msg("cannot write results: %s", strerror(-ret));
	}
out_free:
	*instance_left = capture_free(c) != 0;
	return ret;
}

int cmd_record(int argc, char **argv)
{
	char err[ERRBUF_LEN] = "", command[1024];
	struct record_args a;
	struct outw w = { .pfd = -1 };
	int ret, cmd_status = 0;
	bool instance_left = false;

	ret = cli_parsed(record_parse_args(argc, argv, &a, err), &cli_record, err, 1);
	if (ret >= 0)
		return ret;
	if (!host_is_root()) {
		err_msg("record: tracing the kernel needs root; run it as root (sudo)");
		return 1;
	}
	/* a killed run's instance would still be tracing: clean up after it first */
	leftovers_remove(NULL);
	if (a.cmd && command_check(a.cmd[0], err)) {
		err_msg("record: %s", err);
		return 1;
	}
	if (a.out_dir && outw_open(&w, a.out_dir, &(struct outw_opts){
			.kind = OUTW_DIR, .by = "record", .force = a.force }, err)) {
		err_msg("%s", err);
		return 1;
	}
	stop_on_signals();
	snprintf(command, sizeof(command), "deferbench ");
	proc_command_line(argc, argv, command + strlen(command), sizeof(command) - strlen(command));
	ret = record_run(&a, a.out_dir ? outw_dir(&w) : NULL, command, &cmd_status,
			 &instance_left);
	if (ret) {
		outw_abort(&w);
		return 1;
	}
	if (a.out_dir) {
		if (outw_commit(&w, err)) {
			err_msg("%s", err);
			return 1;
		}
		info_msg("results in %s", a.out_dir);
		if (a.store && history_add_dir(a.store, a.out_dir, false))
			return 1;
	}
	/* the results are good; the machine is not as it was until restore runs */
	return instance_left ? 1 : cmd_status;
}
