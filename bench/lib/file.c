// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - whole files and paths (see file.h).
 */
#include "file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "grow.h"
#include "msg.h"
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

char *read_file_alloc(const char *path, size_t *lenp)
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

int mkdir_p(const char *path, mode_t mode)
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

int rm_rf(const char *path)
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
		if (rm_rf(child))
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

int fsync_dir(const char *path)
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

int write_atomic(const char *path, const void *data, size_t len, mode_t mode, int flags)
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
	return ret ? ret : fsync_dir(path);
}

bool rel_ok(const char *rel)
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

int parent_beneath(int dirfd, const char *rel, const char **base)
{
	char name[NAME_MAX + 1];
	const char *p = rel, *slash;
	int fd = -1, next;

	if (!rel_ok(rel))
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

/* open_walk - open_dir_nofollow where openat2 is missing: component by component */
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

int open_dir_nofollow(const char *path)
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
