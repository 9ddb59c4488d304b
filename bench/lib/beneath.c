// SPDX-License-Identifier: GPL-2.0
/*
 * beneath.c - files opened beneath a directory, never through a link (see file.h).
 */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>


int parent_beneath(int dirfd, const char *rel, const char **base)
{
	char name[NAME_MAX + 1];
	const char *p = rel, *slash;
	int fd = -1, next;

	if (!path_rel_ok(rel))
		return -EINVAL;
	while ((slash = strchr(p, '/'))) {
		memcpy(name, p, (size_t)(slash - p));
		name[slash - p] = '\0';
		next = openat(fd < 0 ? dirfd : fd, name,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		if (next < 0)
			return -errno;
		fd = next;
		p = slash + 1;
	}
	*base = p;
	if (fd < 0)
		fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int open_beneath(int dirfd, const char *rel, int flags, mode_t mode)
{
	const char *base;
	int pfd = parent_beneath(dirfd, rel, &base), fd;

	if (pfd < 0)
		return pfd;
	fd = openat(pfd, base, flags | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		fd = -errno;
	close(pfd);
	return fd;
}
