// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - whole files: sysfs/procfs/tracefs values read and written, a file read whole,
 * a file replaced atomically (see file.h).
 */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "outw.h"

int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

int write_file(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (close(fd))
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

char *read_whole_file(const char *path, size_t *lenp)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t n;
	int fd;

	if (GROW(buf, cap, 8192))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto out_free;
	for (;;) {
		if (GROW(buf, cap, len + 4096))
			goto out_close;
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto out_close;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
out_close:
	n = errno;
	close(fd);
	errno = n;
out_free:
	n = errno;
	free(buf);
	errno = n;
	return NULL;
}

int file_fsync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd, ret = 0;

	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return -ENAMETOOLONG;
	fd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd))
		ret = -errno;
	close(fd);
	return ret;
}

int write_atomic_file(const char *path, const void *data, size_t len, mode_t mode, int flags)
{
	char tmp[PATH_MAX];
	size_t off = 0;
	int fd, ret = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = out_create(tmp, mode);
	if (fd == -EEXIST && !unlink(tmp))	/* left by a dead process that had our pid */
		fd = out_create(tmp, mode);
	if (fd < 0)
		return fd;
	while (off < len) {
		ssize_t w = write(fd, (const char *)data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			ret = -errno;
			break;
		}
		off += w;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		ret = out_note(path);
	if (!ret && (flags & WA_EXCL))
		ret = link(tmp, path) ? -errno : 0;
	else if (!ret)
		ret = rename(tmp, path) ? -errno : 0;
	if (ret || (flags & WA_EXCL))
		unlink(tmp);
	return ret ? ret : file_fsync_dir(path);
}
