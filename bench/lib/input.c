// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - input files checked before they are read: a regular file, not too large (see
 * file.h).
 */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "msg.h"
#include "outw.h"

int open_input(const char *path, size_t max, char *errbuf)
{
	struct stat st;
	int fd, e;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		set_err(errbuf, "cannot read %s: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		set_err(errbuf, "cannot read %s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		set_err(errbuf, "%s is %s, not a regular file", path,
			S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a pipe" :
			S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "special");
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		set_err(errbuf, "%s is %lld bytes, more than the %zu a file of this kind can "
			"hold", path, (long long)st.st_size, max);
		return -EFBIG;
	}
	/* back to blocking reads */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int read_input(const char *path, size_t max, char **text, size_t *lenp, char *errbuf)
{
	size_t len = 0, cap = 4096;
	char *buf;
	ssize_t n;
	int fd, e;

	*text = NULL;
	fd = open_input(path, max, errbuf);
	if (fd < 0)
		return fd;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		set_err(errbuf, "out of memory reading %s", path);
		return -ENOMEM;
	}
	for (;;) {
		if (cap - len < 2 && (cap > max || GROW(buf, cap, cap + 1))) {
			e = cap > max ? EFBIG : ENOMEM;
			goto out_err;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			goto out_err;
		}
		if (!n)
			break;
		len += (size_t)n;
		/* procfs files say 0 bytes; a file may also grow while it is read */
		if (len > max) {
			e = EFBIG;
			goto out_err;
		}
	}
	close(fd);
	buf[len] = '\0';
	*text = buf;
	if (lenp)
		*lenp = len;
	return 0;
out_err:
	close(fd);
	free(buf);
	if (e == EFBIG)
		set_err(errbuf, "%s is larger than the %zu bytes a file of this kind can hold",
			path, max);
	else
		set_err(errbuf, "cannot read %s: %s", path, strerror(e));
	return -e;
}
