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
#include "msg.h"
#include "parse.h"
#include "sys.h"

enum { OPT_RAW = 256, OPT_FORCE, OPT_NO_SCHED, OPT_SCHED_ALL, OPT_CAPTURE_CPUS, OPT_STORE,
       OPT_ALIGN, OPT_SLOWEST, OPT_STACKS, OPT_KEEP_WORST };

static const struct opt_desc record_opts[] = {
	{ "duration", 'd', required_argument, "DUR",
	  "trace for DUR (10s, 500ms, 2m); with a COMMAND, stop it after DUR" },
	{ "output", 'o', required_argument, "DIR", "write summary.json and the CSV files to DIR" },
	{ "buffer-kb", 'b', required_argument, "N",
	  "ring buffer per CPU in KiB (64..1048576, default 4096)" },
	{ "interval", 'i', required_argument, "DUR",
	  "per-interval statistics every DUR (>= 10ms, default 1s) in intervals.csv" },
	{ "align-intervals", OPT_ALIGN, no_argument, NULL,
	  "start intervals at multiples of DUR on the trace clock, like 'deferbench top' "
	  "(the first is then partial)" },
	{ "raw", OPT_RAW, no_argument, NULL,
	  "also keep the raw sub-buffers in DIR/raw for 'deferbench analyze'" },
	{ "force", OPT_FORCE, no_argument, NULL, "replace earlier results in DIR" },
	{ "no-sched", OPT_NO_SCHED, no_argument, NULL,
	  "leave sched events off (lighter; worker pools found from /proc only)" },
	{ "sched-all", OPT_SCHED_ALL, no_argument, NULL,
	  "trace every context switch and wakeup (default: only those of kworker, ksoftirqd, "
	  "napi/ and irq/ threads, filtered in the kernel)" },
	{ "capture-cpus", OPT_CAPTURE_CPUS, required_argument, "LIST",
	  "run the capture's reader and analysis threads on these CPUs only (0-1,3), away "
	  "from the ones being measured" },
	{ "store", OPT_STORE, required_argument, "FILE",
	  "with -o: add the results to this results store (deferbench history)" },
	{ "slowest", OPT_SLOWEST, optional_argument, "[=N]",
	  "list the N slowest delays and runs of each softirq vector, workqueue function and "
	  "context (default 10, at most 1000) with their time, CPU, causes and task" },
	{ "stacks", OPT_STACKS, optional_argument, "[=VECTORS]",
	  "a kernel stack at each softirq entry of these vectors (default NET_RX,BLOCK,TIMER; "
	  "'all'), weighted by the delay it ended: the code that held them back; implies "
	  "--slowest" },
	{ "keep-worst", OPT_KEEP_WORST, optional_argument, "[=WINDOW]",
	  "with -o: keep the raw trace from WINDOW (default 10ms) before the worst delay of "
	  "each --stacks vector to WINDOW after it, in DIR/worst/VECTOR for 'deferbench "
	  "analyze'; implies --slowest" },
	{ "help", 'h', no_argument, NULL, "show this help" },
	{ NULL },
};

static const struct cli_help record_help = {
	"record", "deferbench record [-d DUR] [-o DIR] [OPTIONS] [-- COMMAND [ARGS]]",
	"Trace softirq and workqueue events system-wide in a private tracefs instance and\n"
	"report how long deferred work waited and ran (all times on trace_clock mono):\n"
	"  softirq delay    raise -> entry (earliest raise since the vector's last entry)\n"
	"  softirq runtime  entry -> exit\n"
	"  wq delay         queue_work -> execute_start (split: -> activate -> start)\n"
	"  wq runtime       execute_start -> execute_end\n"
	"and per execution context (softirq inline or in ksoftirqd, tasklet, napi poll and\n"
	"thread, irq thread, hard irq, worker pool kind) its delay and runtime; each\n"
	"softirq delay is split into causes that add up to it (README: Why a softirq\n"
	"waited). Without -d or COMMAND, records until Ctrl-C. Needs root.",
	record_opts, NULL,
};

int record_parse_args(int argc, char **argv, struct record_args *a, char *errbuf)
{
	struct opts_iter it;
	char err[ERRBUF_LEN];
	uint64_t v;
	int opt;

	memset(a, 0, sizeof(*a));
	a->buffer_kb = CAPTURE_DEFAULT_BUFFER_KB;
	a->interval_ns = CAPTURE_DEFAULT_INTERVAL_NS;
	if ((opt = opts_begin(&it, record_opts, OPTS_IN_ORDER, argc, argv, errbuf)))
		return opt;
	while ((opt = opts_next(&it, errbuf)) >= 0) {
		switch (opt) {
		case 'd':
			if (parse_duration_ns(optarg, &a->duration_ns, err))
				return set_err(errbuf, "--duration: %s", err);
			break;
		case 'o':
			a->out_dir = optarg;
			break;
		case 'b':
			if (parse_u64(optarg, CAPTURE_MIN_BUFFER_KB, CAPTURE_MAX_BUFFER_KB, &v, err))
				return set_err(errbuf, "--buffer-kb: %s", err);
			a->buffer_kb = (unsigned int)v;
			break;
		case 'i':
			if (parse_duration_ns(optarg, &a->interval_ns, err))
				return set_err(errbuf, "--interval: %s", err);
			if (a->interval_ns < CAPTURE_MIN_INTERVAL_NS)
				return set_err(errbuf, "--interval: %s is shorter than 10ms", optarg);
			break;
		case OPT_RAW:
			a->raw = true;
			break;
		case OPT_FORCE:
			a->force = true;
			break;
		case OPT_NO_SCHED:
			a->no_sched = true;
			break;
		case OPT_ALIGN:
			a->align = true;
			break;
		case OPT_SCHED_ALL:
			a->sched_all = true;
			break;
		case OPT_CAPTURE_CPUS: {
			cpu_set_t set;

			if (parse_cpulist(optarg, &set, NULL, err))
				return set_err(errbuf, "--capture-cpus: %s", err);
			a->capture_cpus = optarg;
			break;
		}
		case OPT_STORE:
			a->store = optarg;
			break;
		case OPT_SLOWEST:
			a->slowest = SLOWEST_DEFAULT;
			if (optarg && parse_u64(optarg, 1, SLOWEST_MAX, &v, err))
				return set_err(errbuf, "--slowest: %s", err);
			if (optarg)
				a->slowest = (uint32_t)v;
			break;
		case OPT_STACKS:
			a->stack_vecs = STACK_VECS_DEFAULT;
			if (optarg && vecs_parse(optarg, &a->stack_vecs, err))
				return set_err(errbuf, "--stacks: %s", err);
			break;
		case OPT_KEEP_WORST:
			a->keep_worst_ns = KEEP_WORST_DEFAULT_NS;
			if (optarg && parse_duration_ns(optarg, &a->keep_worst_ns, err))
				return set_err(errbuf, "--keep-worst: %s", err);
			if (!a->keep_worst_ns || a->keep_worst_ns > NSEC_PER_SEC)
				return set_err(errbuf, "--keep-worst: the window is 1ns to 1s");
			break;
		case 'h':
			return CLI_HELP;
		}
	}
	if (opt != OPTS_END)
		return opt;
	if (optind < argc)
		a->cmd = argv + optind;
	if (a->sched_all && a->no_sched)
		return set_err(errbuf, "--sched-all and --no-sched contradict each other: choose one");
	if (a->raw && !a->out_dir)
		return set_err(errbuf, "--raw needs -o DIR to keep the raw capture in");
	if (a->force && !a->out_dir)
		return set_err(errbuf, "--force needs -o DIR");
	if (a->store && !a->out_dir)
		return set_err(errbuf, "--store needs -o DIR: the store imports the result files");
	if (a->keep_worst_ns && !a->out_dir)
		return set_err(errbuf, "--keep-worst needs -o DIR to keep the trace in");
	/* a stack or a kept trace is read beside the slowest events */
	if ((a->stack_vecs || a->keep_worst_ns) && !a->slowest)
		a->slowest = SLOWEST_DEFAULT;
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

/*
 * spawn - fork and exec cmd; an exec that fails is reported through a close-on-exec
 * pipe, so that a command that never ran is an error, not a result. -errno on failure.
 */
static pid_t spawn(char **cmd, char *errbuf)
{
	int fds[2], e = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC)) {
		e = errno;
		set_err(errbuf, "cannot run '%s': %s", cmd[0], strerror(e));
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(fds[0]);
		close(fds[1]);
		set_err(errbuf, "cannot fork: %s", strerror(e));
		return -e;
	}
	if (!pid) {
		/* the child gets the signal dispositions a shell would give it */
		close(fds[0]);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(cmd[0], cmd);
		e = errno;
		if (write(fds[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(fds[1]);
	do
		n = read(fds[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (n == (ssize_t)sizeof(e)) {
		waitpid(pid, NULL, 0);
		set_err(errbuf, "cannot run '%s': %s", cmd[0], strerror(e));
		return -e;
	}
	return pid;
}

/* reap - wait for the child; after grace_ns send SIGKILL. Returns its wait status. */
static int reap(pid_t pid, uint64_t grace_ns)
{
	uint64_t deadline = now_ns() + grace_ns;
	int status = 0;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			return status;
		if (now_ns() > deadline) {
			kill(pid, SIGKILL);
			deadline = UINT64_MAX;
		}
		usleep(10000);
	}
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

static int record_run(const struct record_args *a, const char *staging, const char *command,
		      int *cmd_status)
{
	char err[ERRBUF_LEN] = "", raw[PATH_MAX], ivals[PATH_MAX], worst[PATH_MAX];
	struct capture_opts co = {
		.buffer_kb = a->buffer_kb,
		.interval_ns = a->interval_ns,
		.no_sched = a->no_sched,
		.sched_all = a->sched_all,
		.cpus = a->capture_cpus,
		.command = command,
		.align_intervals = a->align,
		.slowest = a->slowest,
		.stack_vecs = a->stack_vecs,
		.keep_worst_ns = a->keep_worst_ns,
		.worst_vecs = a->stack_vecs ? a->stack_vecs : STACK_VECS_DEFAULT,
	};
	struct capture *c;
	bool stopped = false;
	pid_t child = 0;
	int status = 0, ret;

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
	result_print(capture_result(c), stdout);
	fflush(stdout);
	if (staging) {
		ret = result_write_dir(capture_result(c), staging);
		if (ret)
			err_msg("cannot write results: %s", strerror(-ret));
	}
out_free:
	capture_free(c);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	char err[ERRBUF_LEN] = "", staging[PATH_MAX] = "", command[1024];
	struct record_args a;
	int ret, cmd_status = 0;

	ret = cli_parsed(record_parse_args(argc, argv, &a, err), &record_help, err, 1);
	if (ret >= 0)
		return ret;
	if (!is_root()) {
		err_msg("record: tracing the kernel needs root; run it as root (sudo)");
		return 1;
	}
	/* a killed run's instance would still be tracing: clean up after it first */
	leftovers_remove(NULL);
	if (a.cmd && command_check(a.cmd[0], err)) {
		err_msg("record: %s", err);
		return 1;
	}
	if (a.out_dir && (outdir_check(a.out_dir, a.force, NULL, err) ||
			  outdir_stage(a.out_dir, staging, sizeof(staging), err))) {
		err_msg("record: %s", err);
		return 1;
	}
	signals_install();
	snprintf(command, sizeof(command), "deferbench ");
	command_line(argc, argv, command + strlen(command), sizeof(command) - strlen(command));
	ret = record_run(&a, a.out_dir ? staging : NULL, command, &cmd_status);
	if (ret) {
		outdir_abort(staging);
		return 1;
	}
	if (a.out_dir) {
		if (outdir_commit(a.out_dir, staging, err)) {
			err_msg("record: %s", err);
			outdir_abort(staging);
			return 1;
		}
		info_msg("results in %s", a.out_dir);
		if (a.store && history_add_dir(a.store, a.out_dir, false))
			return 1;
	}
	return cmd_status;
}
