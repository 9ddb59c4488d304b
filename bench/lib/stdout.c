// SPDX-License-Identifier: GPL-2.0
/*
 * stdout.c - the one writer of stdout, which keeps its first write error (see
 * stdout.h).
 */
#include "stdout.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"

/* the first error writing stdout (an errno), and the stream stdout_begin made */
static int stdout_errno;
static bool stdout_told;		/* the command said it already (stdout_check) */
static FILE *stdout_stream, *stdout_stdio;

/* stdout_write - fd 1, all of buf; the first failure is kept for stdout_end */
static ssize_t stdout_write(void *cookie __unused, const char *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(STDOUT_FILENO, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!stdout_errno)
				stdout_errno = n < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += n;
	}
	return done;
}

void stdout_begin(void)
{
	FILE *f = fopencookie(NULL, "w", (cookie_io_functions_t){ .write = stdout_write });

	if (!f)
		return;	/* stdio's own stdout then: no error is missed, only its errno */
	/* what stdio gives fd 1: line by line on a terminal, in blocks elsewhere */
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	stdout_stream = f;
	stdout_stdio = stdout;
	stdout = f;
}

int stdout_check(void)
{
	int e = fflush(stdout) ? errno : 0;

	if (stdout_errno)
		e = stdout_errno;
	else if (!e && ferror(stdout))
		e = EIO;
	stdout_told = e != 0;
	return -e;
}

int stdout_end(int status, int err_status)
{
	int e;

	e = fflush(stdout) ? errno : 0;
	if (stdout_errno)
		e = stdout_errno;
	else if (!e && ferror(stdout))
		e = EIO;
	if (stdout_stream) {
		stdout = stdout_stdio;	/* for anything printed after: nothing should be */
		fclose(stdout_stream);
		stdout_stream = NULL;
	}
	/* close(1) reports what a delayed write found (NFS, some full disks); EBADF: none */
	if (close(STDOUT_FILENO) && errno != EBADF && errno != EINTR && !e)
		e = errno;
	if (!e || e == EPIPE)
		return status;
	if (stdout_told)
		return status ? status : err_status;
	fprintf(stderr, "deferbench: error: cannot write to stdout: %s; what it shows is "
		"incomplete\n", strerror(e));
	return status ? status : err_status;
}
