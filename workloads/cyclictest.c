// SPDX-License-Identifier: GPL-2.0
/*
 * cyclictest.c - run rt-tests' cyclictest as a child and read its histogram back.
 *
 * The child gets its own process group (a terminal's Ctrl-C reaches deferbench only,
 * which then stops the child in order) and PR_SET_PDEATHSIG, so that it cannot outlive
 * a deferbench that was killed outright.
 */
#include "cyclictest.h"

#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jsonread.h"
#include "names.h"
#include "owned.h"
#include "msg.h"
#include "cpulist.h"
#include "parse.h"
#include "file.h"
#include "proc.h"
#include "sys.h"

#define CT_STOP_TIMEOUT_NS (5 * NSEC_PER_SEC)
#define CT_START_CHECK_NS (100 * NSEC_PER_MSEC)

static char ct_bin[PATH_MAX];

/* find_bin - cyclictest in $PATH (or the usual places when PATH is unset) */
static int find_bin(char *out, size_t len)
{
	const char *path = getenv("PATH");
	char dirs[4096], *save, *d;

	snprintf(dirs, sizeof(dirs), "%s", path && *path ? path : "/usr/bin:/usr/sbin:/bin");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/cyclictest", d);
		if (!access(out, X_OK))
			return 0;
	}
	return -ENOENT;
}

int cyclictest_prepare(struct cyclictest *ct, char *errbuf)
{
	int e;

	memset(ct, 0, sizeof(*ct));
	if (find_bin(ct_bin, sizeof(ct_bin))) {
		set_err(errbuf, "timer: cyclictest (rt-tests) is not installed or not in PATH: "
			"run ci/install-deps.sh (or set probe=no)");
		return -ENOENT;
	}
	snprintf(ct->dir, sizeof(ct->dir), NAME_TIMER_DIR "%d-XXXXXX", (int)getpid());
	e = -owned_mkdtemp(ct->dir);
	if (e) {
		ct->dir[0] = '\0';
		set_err(errbuf, "timer: cannot create a directory in /tmp: %s", strerror(e));
		return -e;
	}
	snprintf(ct->json, sizeof(ct->json), "%s/cyclictest.json", ct->dir);
	snprintf(ct->log, sizeof(ct->log), "%s/cyclictest.log", ct->dir);
	return 0;
}

/* the command line, built before fork: the child must not allocate */
#define CT_MAX_ARGS 16
struct ct_argv {
	char str[CT_MAX_ARGS][192];
	char *argv[CT_MAX_ARGS + 1];
	int nstr, nargv;
};

static void __printf(2, 3) add_arg(struct ct_argv *a, const char *fmt, ...)
{
	va_list ap;

	if (a->nstr >= CT_MAX_ARGS)
		return;
	va_start(ap, fmt);
	vsnprintf(a->str[a->nstr], sizeof(a->str[0]), fmt, ap);
	va_end(ap);
	a->argv[a->nargv++] = a->str[a->nstr++];
	a->argv[a->nargv] = NULL;
}

static void build_argv(const struct cyclictest *ct, const struct cyclictest_opts *o,
		       struct ct_argv *a)
{
	char cpus[48];

	memset(a, 0, sizeof(*a));
	cpulist_format(&o->cpus, cpus, sizeof(cpus));
	add_arg(a, "%s", ct_bin);
	add_arg(a, "--json=%s", ct->json);
	add_arg(a, "-q");
	add_arg(a, "-m");
	add_arg(a, "--interval=%llu", (unsigned long long)(o->interval_ns / NSEC_PER_USEC));
	add_arg(a, "--threads=%d", CPU_COUNT(&o->cpus));
	add_arg(a, "--affinity=%s", cpus);
	add_arg(a, "--histogram=%llu", (unsigned long long)(o->maxlat_ns / NSEC_PER_USEC));
	if (o->prio)
		add_arg(a, "--priority=%d", o->prio);
	else
		add_arg(a, "--policy=other");
	if (!o->pmqos)
		add_arg(a, "--default-system");
}

/* child - between fork and exec: async-signal-safe calls only */
static void child(const struct cyclictest *ct, char **argv, pid_t parent)
{
	sigset_t none;
	int fd;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);	/* SIG_IGN would survive exec */
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
	}
	fd = open(ct->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0)
		dup2(fd, STDERR_FILENO);
	proc_cloexec_from(STDERR_FILENO + 1);
	execv(argv[0], argv);
	_exit(127);
}

/* log_head - the first line of cyclictest's stderr, for messages */
static const char *log_head(const struct cyclictest *ct, char *buf, size_t len)
{
	char *nl;

	if (read_file(ct->log, buf, len) || !buf[0])
		return "(no message)";
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return buf;
}

/* reap - waitpid within timeout_ns; true once reaped */
static bool reap(struct cyclictest *ct, uint64_t timeout_ns)
{
	uint64_t end = now_ns() + timeout_ns;
	struct timespec ts = { 0, 10 * NSEC_PER_MSEC };
	pid_t r;

	for (;;) {
		r = waitpid(ct->pid, &ct->status, WNOHANG);
		if (r == ct->pid || (r < 0 && errno == ECHILD)) {
			ct->pid = 0;
			return true;
		}
		if (now_ns() >= end)
			return false;
		nanosleep(&ts, NULL);
	}
}

int cyclictest_spawn(struct cyclictest *ct, const struct cyclictest_opts *o, char *errbuf)
{
	pid_t parent = getpid(), pid;
	struct ct_argv a;
	int e;

	build_argv(ct, o, &a);
	pid = fork();
	if (pid < 0) {
		e = errno;
		set_err(errbuf, "timer: fork: %s", strerror(e));
		return -e;
	}
	if (pid == 0)
		child(ct, a.argv, parent);
	ct->pid = pid;
	ct->spawn_ns = now_ns();
	return 0;
}

int cyclictest_check_start(struct cyclictest *ct, char *errbuf)
{
	uint64_t until = ct->spawn_ns + CT_START_CHECK_NS, now = now_ns();
	char msg[200];

	if (!ct->pid)
		return set_err(errbuf, "timer: cyclictest is not running"), -ESRCH;
	if (reap(ct, until > now ? until - now : 0))
		return set_err(errbuf, "timer: cyclictest exited at once (status %d): %s",
			       WIFEXITED(ct->status) ? WEXITSTATUS(ct->status) : -1,
			       log_head(ct, msg, sizeof(msg))), -EIO;
	return 0;
}

int cyclictest_stop(struct cyclictest *ct, char *errbuf)
{
	char msg[200];

	if (!ct->pid)
		return 0;
	ct->term_ns = now_ns();
	if (reap(ct, 0))
		ct->exited_early = 1;
	else if (kill(ct->pid, SIGTERM) == 0 && !reap(ct, CT_STOP_TIMEOUT_NS)) {
		kill(ct->pid, SIGKILL);
		reap(ct, UINT64_MAX / 2);
		return set_err(errbuf, "timer: cyclictest did not stop on SIGTERM within 5 s; "
			       "killed");
	}
	if (ct->exited_early)
		return set_err(errbuf, "timer: cyclictest exited before the end of the run "
			       "(status %d): %s", WIFEXITED(ct->status) ?
			       WEXITSTATUS(ct->status) : -1, log_head(ct, msg, sizeof(msg)));
	if (!WIFEXITED(ct->status) || WEXITSTATUS(ct->status))
		return set_err(errbuf, "timer: cyclictest failed (status 0x%x): %s",
			       ct->status, log_head(ct, msg, sizeof(msg)));
	return 0;
}

int cyclictest_read(struct cyclictest *ct, struct hist *h, uint64_t *cycles,
		    uint64_t *overflows, char *errbuf)
{
	char *text = read_whole_file(ct->json, NULL);
	int ret;

	if (!text)
		return set_err(errbuf, "timer: cyclictest wrote no results (%s: %s)", ct->json,
			       strerror(errno));
	ret = cyclictest_parse_json(text, h, cycles, overflows, errbuf);
	free(text);
	return ret;
}

void cyclictest_cleanup(struct cyclictest *ct)
{
	char errbuf[ERRBUF_LEN];

	if (ct->pid)
		cyclictest_stop(ct, errbuf);
	if (ct->dir[0] && !path_rm_rf(ct->dir))
		owned_forget(OWN_TMPDIR, ct->dir);
	ct->dir[0] = '\0';
}

/* parse_thread - one thread's histogram (thread.<name>: cycles, max, histogram) */
static int parse_thread(const struct jr *j, struct json_object *t, const char *where,
			struct hist *h, uint64_t *cycles, uint64_t *overflows)
{
	uint64_t c, max, total = 0;
	struct json_object *hg;
	char *end;
	int ret;

	ret = jr_u64(j, t, where, "cycles", &c);
	ret = ret ?: jr_u64(j, t, where, "max", &max);
	ret = ret ?: jr_get(j, t, where, "histogram", json_type_object, &hg);
	if (ret)
		return ret;
	json_object_object_foreach(hg, key, val) {
		unsigned long long us = strtoull(key, &end, 10);
		int64_t n = json_object_get_int64(val);

		if (*end || !*key || n < 0 || !json_object_is_type(val, json_type_int))
			return jr_fail(j, where, "histogram", "has a bucket '%s' that is not "
				       "\"microseconds\": count", key);
		hist_add_n(h, us * NSEC_PER_USEC, (uint64_t)n);
		total += (uint64_t)n;
	}
	if (c < total)
		return jr_fail(j, where, "histogram", "holds %llu samples of %llu cycles",
			       (unsigned long long)total, (unsigned long long)c);
	hist_add_n(h, max * NSEC_PER_USEC, c - total);
	*cycles += c;
	*overflows += c - total;
	return 0;
}

int cyclictest_parse_json(const char *text, struct hist *h, uint64_t *cycles,
			  uint64_t *overflows, char *errbuf)
{
	struct json_object *root = json_tokener_parse(text), *threads;
	struct jr j = { "cyclictest's --json output", errbuf };
	char where[64];
	int ret = 0;

	*cycles = *overflows = 0;
	if (!root)
		return set_err(errbuf, "timer: cyclictest's JSON does not parse");
	if (!json_object_is_type(root, json_type_object) || !jr_has(root, "thread")) {
		json_object_put(root);
		return set_err(errbuf, "timer: cyclictest's JSON has no \"thread\" object "
			       "(rt-tests 2.x needed)");
	}
	ret = jr_get(&j, root, "", "thread", json_type_object, &threads);
	if (!ret) {
		json_object_object_foreach(threads, key, t) {
			snprintf(where, sizeof(where), "thread.%s", key);
			ret = parse_thread(&j, t, where, h, cycles, overflows);
			if (ret)
				break;
		}
	}
	json_object_put(root);
	return ret;
}
