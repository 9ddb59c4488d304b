// SPDX-License-Identifier: GPL-2.0
/*
 * path.c - paths: joined, checked, their first link found, directories made and removed,
 * a directory opened without following links (see file.h).
 */
#include "file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "msg.h"

int path_check(const char *path, char *errbuf)
{
	const char *p = path, *slash;
	char head[48];

	if (!path || !*path)
		return set_err(errbuf, "the path is empty");
	snprintf(head, sizeof(head), "%.40s%s", path, strlen(path) > 40 ? "..." : "");
	if (strlen(path) >= PATH_MAX)
		return errno_msg(errbuf, -ENAMETOOLONG, "the path '%s' is %zu bytes long, more than "
				 "the %d a path may have", head, strlen(path), PATH_MAX - 1);
	for (; *p; p = slash + 1) {
		slash = strchr(p, '/');
		if (!slash)
			slash = p + strlen(p) - 1;
		if (slash - p > NAME_MAX)
			return errno_msg(errbuf, -ENAMETOOLONG, "the path '%s' has a name of %zu "
					 "bytes, more than the %d a file name may have", head,
					 (size_t)(slash - p), NAME_MAX);
		if (!slash[0] || !slash[1])
			break;
	}
	return 0;
}

int path_mkdir(const char *path, mode_t mode)
{
	char tmp[PATH_MAX];
	char *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

int path_rm_rf(const char *path)
{
	char child[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? -errno : 0;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, de->d_name);
		if (path_rm_rf(child))
			ret = -EIO;
	}
	closedir(d);
	if (rmdir(path))
		ret = -errno;
	return ret;
}

int path_join(char *buf, size_t len, const char *a, const char *b)
{
	if ((size_t)snprintf(buf, len, "%s/%s", a, b) >= len)
		return -ENAMETOOLONG;
	return 0;
}

bool path_rel_ok(const char *rel)
{
	const char *p = rel, *slash;
	size_t n;

	if (!rel || !*rel || *rel == '/')
		return false;
	for (;;) {
		slash = strchr(p, '/');
		n = slash ? (size_t)(slash - p) : strlen(p);
		if (!n || n > NAME_MAX || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (!slash)
			return true;
		p = slash + 1;
	}
}

/* open_walk - path_open_dir_nofollow where openat2 is missing: component by component */
static int open_walk(const char *path)
{
	char name[NAME_MAX + 1];
	const char *p = path;
	int fd, next;
	size_t n;

	fd = open(*p == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (fd >= 0 && *p) {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (!n)
			break;
		if (n > NAME_MAX) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		p += n;
		next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			next = errno == ENOTDIR && !fstatat(fd, name, &(struct stat){ 0 },
							  AT_SYMLINK_NOFOLLOW) ? -ELOOP : -errno;
		close(fd);
		fd = next;
	}
	return fd < 0 ? (fd == -1 ? -errno : fd) : fd;
}

int path_open_dir_nofollow(const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	long fd;

	fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	if (fd < 0 && (errno == ENOSYS || errno == E2BIG || errno == EPERM))
		return open_walk(path);		/* a kernel before 5.6, or a seccomp filter */
	return fd < 0 ? -errno : (int)fd;
}

int path_first_link(const char *path, char *link, size_t len)
{
	char prefix[PATH_MAX];
	struct stat st;
	size_t n = 0, plen = strlen(path);

	if (plen >= sizeof(prefix))
		return 0;
	while (n < plen) {
		while (path[n] == '/')
			n++;
		n += strcspn(path + n, "/");
		memcpy(prefix, path, n);
		prefix[n] = '\0';
		if (lstat(prefix, &st))
			return 0;
		if (S_ISLNK(st.st_mode)) {
			snprintf(link, len, "%s", prefix);
			return 1;
		}
	}
	return 0;
}
