// SPDX-License-Identifier: GPL-2.0
/*
 * msg.c - diagnostics and error messages (see msg.h).
 */
#include "msg.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int verbose;

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

/* utf8_len - the length of a valid UTF-8 sequence at s that is not a control, or 0 */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* U+0080..U+009F are the C1 controls (0x9b is CSI on some terminals) */
	if (s[0] == 0xc2 && s[1] < 0xa0)
		return 0;
	return n;
}

char *str_escape(const char *in, char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0, n;

	if (!len)
		return buf;
	while (*s && o + 1 < len) {
		if (*s == '\n' || (*s >= 0x20 && *s < 0x7f)) {
			buf[o++] = (char)*s++;
		} else if ((n = utf8_len(s)) && o + n < len) {
			memcpy(buf + o, s, n);
			o += n;
			s += n;
		} else if (o + 4 < len) {
			snprintf(buf + o, len - o, "\\x%02x", *s++);
			o += 4;
		} else {
			break;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* vmsg - every diagnostic: input quoted in it is escaped on the way out */
static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char msg[2048], out[sizeof(msg) * 4];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* what was printed before comes before it, also with 2>&1 into a file or a pipe */
	fflush(stdout);
	fprintf(stderr, "deferbench: %s%s\n", prefix, str_escape(msg, out, sizeof(out)));
}

void err_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void info_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void debug_msg(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	vmsg("debug: ", fmt, ap);
	va_end(ap);
}

int set_errno(char *errbuf, int err, const char *fmt, ...)
{
	va_list ap;

	if (errbuf) {
		va_start(ap, fmt);
		vsnprintf(errbuf, ERRBUF_LEN, fmt, ap);
		va_end(ap);
	}
	return err;
}
