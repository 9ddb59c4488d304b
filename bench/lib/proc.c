// SPDX-License-Identifier: GPL-2.0
/*
 * proc.c - commands started for the user (see proc.h).
 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "sys.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)	/* linux/close_range.h, since 5.11 */
#endif

void proc_cloexec_from(int fd)
{
	struct rlimit rl;
	int i, n = 1 << 16;

	if (!syscall(SYS_close_range, (unsigned int)fd, ~0U, CLOSE_RANGE_CLOEXEC))
		return;
	/* older kernels: each one up to the limit of open files */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)n)
		n = (int)rl.rlim_cur;
	for (i = fd; i < n; i++)
		fcntl(i, F_SETFD, FD_CLOEXEC);
}

/* child - between fork and exec: async-signal-safe calls only */
static void child(char *const *argv, const struct proc_opts *o, int errfd)
{
	int e;

	if (o->session)
		setsid();
	else if (o->group)
		setpgid(0, 0);
	if (o->parent_death)
		prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (o->out_fd >= 0) {
		dup2(o->out_fd, STDOUT_FILENO);
		dup2(o->out_fd, STDERR_FILENO);
	}
	if (o->err_fd > 0)
		dup2(o->err_fd, STDERR_FILENO);
	/* the signal dispositions a shell would give it */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	proc_cloexec_from(STDERR_FILENO + 1);
	execvp(argv[0], argv);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int proc_spawn(char *const *argv, const struct proc_opts *o, pid_t *pid, char *errbuf)
{
	int fds[2], e = 0;
	ssize_t n;

	*pid = 0;
	if (pipe2(fds, O_CLOEXEC)) {
		e = errno;
		return errno_msg(errbuf, -e, "cannot run '%s': %s", argv[0], strerror(e));
	}
	*pid = fork();
	if (*pid < 0) {
		e = errno;
		close(fds[0]);
		close(fds[1]);
		*pid = 0;
		return errno_msg(errbuf, -e, "cannot fork: %s", strerror(e));
	}
	if (!*pid) {
		close(fds[0]);
		child(argv, o, fds[1]);
	}
	close(fds[1]);
	do
		n = read(fds[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (n == (ssize_t)sizeof(e)) {
		waitpid(*pid, NULL, 0);
		*pid = 0;
		return errno_msg(errbuf, -e, "cannot run '%s': %s", argv[0], strerror(e));
	}
	return 0;
}

bool proc_reap(pid_t pid, int *status, uint64_t timeout_ns)
{
	uint64_t end = now_ns() + timeout_ns;
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			return true;
		if (now_ns() >= end)
			return false;
		nanosleep(&ts, NULL);
	}
}

void proc_command_line(int argc, char **argv, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < argc && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}
