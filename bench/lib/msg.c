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

int msg_verbose;

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

char *msg_escape(const char *in, char *buf, size_t len)
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
	fprintf(stderr, "deferbench: %s%s\n", prefix, msg_escape(msg, out, sizeof(out)));
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

	if (!msg_verbose)
		return;
	va_start(ap, fmt);
	vmsg("debug: ", fmt, ap);
	va_end(ap);
}

int errno_msg(char *errbuf, int err, const char *fmt, ...)
{
	va_list ap;

	if (errbuf) {
		va_start(ap, fmt);
		vsnprintf(errbuf, ERRBUF_LEN, fmt, ap);
		va_end(ap);
	}
	return err;
}
