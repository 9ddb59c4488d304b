// SPDX-License-Identifier: GPL-2.0
/*
 * outw_stage.c - the output writer's staging directories (see outw.h): the primitives
 * that create every output file and log it first, the writers of this process, and the
 * removal of what was staged - on abort, on a signal, and by restore after a SIGKILL.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "msg.h"
#define DEFERBENCH_ALLOW_OUTW_INT_H
#include "outw_int.h"
#include "owned.h"

/* The writers of this process that have something staged; read by the signal handler. */
#define OUTW_MAX 8
static struct outw *volatile active[OUTW_MAX];

static const int clean_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
static struct sigaction saved_sa[ARRAY_SIZE(clean_sigs)];
static bool sig_ours[ARRAY_SIZE(clean_sigs)];

int outw_remove_staged(int pfd, const char *sname)
{
	static char log[1 << 20];
	char rel[PATH_MAX];
	const char *base;
	size_t n = 0, end, start;
	ssize_t r;
	int sfd, lfd, dfd;

	sfd = openat(pfd, sname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd < 0)
		return errno == ENOENT ? 0 : -errno;
	lfd = openat(sfd, OUTW_LOG, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (lfd < 0) {
		close(sfd);
		return -ENOENT;
	}
	while (n < sizeof(log) && ((r = read(lfd, log + n, sizeof(log) - n)) > 0 ||
				   (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	close(lfd);
	/* newest first: what is in a directory goes before the directory */
	for (end = n; end > 0; end = start) {
		start = end - 1;
		while (start > 0 && log[start - 1] != '\n')
			start--;
		if (end - start < 2 || end - start > sizeof(rel))
			continue;
		memcpy(rel, log + start, end - start - 1);
		rel[end - start - 1] = '\0';
		if (!path_rel_ok(rel))
			continue;
		dfd = parent_beneath(sfd, rel, &base);
		if (dfd < 0)
			continue;
		if (unlinkat(dfd, base, 0) && (errno == EISDIR || errno == EPERM))
			unlinkat(dfd, base, AT_REMOVEDIR);
		close(dfd);
	}
	unlinkat(sfd, OUTW_LOG, 0);
	close(sfd);
	if (unlinkat(pfd, sname, AT_REMOVEDIR))
		return errno == EEXIST || errno == ENOTEMPTY ? -ENOTEMPTY : -errno;
	return 0;
}

void outw_remove_made(struct outw *w)
{
	char path[PATH_MAX];
	size_t n = strlen(w->made);

	if (!n || n >= sizeof(path))
		return;
	memcpy(path, w->made, n + 1);
	/* deepest first; one that was never made (an error on the way) is passed over */
	while (n > w->made_keep && (!rmdir(path) || errno == ENOENT)) {
		while (n > 0 && path[n - 1] != '/')
			n--;
		while (n > 1 && path[n - 1] == '/')
			n--;
		path[n] = '\0';
	}
	w->made[0] = '\0';
}

/* on_signal - a signal that would end the process: no staging directory survives it */
static void on_signal(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	size_t i;

	for (i = 0; i < OUTW_MAX; i++) {
		struct outw *w = active[i];

		if (w && w->pid == getpid() && w->logfd >= 0) {
			outw_remove_staged(w->pfd, w->sname);
			outw_remove_made(w);
		}
	}
	owned_on_signal();
	sigaction(sig, &dfl, NULL);
	raise(sig);	/* delivered when the handler returns, blocked until then */
}

void outw_block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(clean_sigs); i++)
		sigaddset(&set, clean_sigs[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

int outw_enlist(struct outw *w)
{
	struct sigaction sa = { .sa_handler = on_signal }, cur;
	bool first = true;
	size_t i, slot = OUTW_MAX;

	for (i = 0; i < OUTW_MAX; i++) {
		first &= !active[i];
		if (!active[i] && slot == OUTW_MAX)
			slot = i;
	}
	if (slot == OUTW_MAX)
		return -EMFILE;
	active[slot] = w;
	w->registered = true;
	/* only where nobody handles the signal: a command's own stop handler stays */
	for (i = 0; first && i < ARRAY_SIZE(clean_sigs); i++) {
		sigaction(clean_sigs[i], NULL, &cur);
		sig_ours[i] = cur.sa_handler == SIG_DFL &&
			      !sigaction(clean_sigs[i], &sa, &saved_sa[i]);
	}
	return 0;
}

void outw_delist(struct outw *w)
{
	struct sigaction cur;
	bool last = true;
	size_t i;

	for (i = 0; i < OUTW_MAX; i++) {
		if (active[i] == w)
			active[i] = NULL;
		last &= !active[i];
	}
	w->registered = false;
	for (i = 0; last && i < ARRAY_SIZE(clean_sigs); i++) {
		if (!sig_ours[i])
			continue;
		sigaction(clean_sigs[i], NULL, &cur);
		if (cur.sa_handler == on_signal)
			sigaction(clean_sigs[i], &saved_sa[i], NULL);
		sig_ours[i] = false;
	}
}

/* owner - the writer whose directory holds path, and path relative to it */
static struct outw *owner(const char *path, const char **rel)
{
	size_t i, n;

	for (i = 0; i < OUTW_MAX; i++) {
		struct outw *w = active[i];

		if (!w || w->pid != getpid())
			continue;
		n = strlen(w->stage);
		if (!strncmp(path, w->stage, n) && path[n] == '/' && path_rel_ok(path + n + 1)) {
			*rel = path + n + 1;
			return w;
		}
	}
	return NULL;
}

int outw_log(struct outw *w, const char *rel)
{
	char line[PATH_MAX + 1];
	ssize_t r;
	int n;

	if (w->logfd < 0)
		return 0;
	n = snprintf(line, sizeof(line), "%s\n", rel);
	if (n <= 0 || (size_t)n >= sizeof(line))
		return -ENAMETOOLONG;
	r = write(w->logfd, line, (size_t)n);
	if (r == n)
		return 0;
	/* a part of the line names nothing; the next line starts on its own */
	if (r > 0 && write(w->logfd, "\n", 1) < 0)
		r = -1;
	return r < 0 ? -errno : -ENOSPC;
}

int out_note(const char *path)
{
	const char *rel;
	struct outw *w = owner(path, &rel);

	return w ? outw_log(w, rel) : 0;
}

int out_create(const char *path, mode_t mode)
{
	const char *rel;
	struct outw *w = owner(path, &rel);
	int fd;

	if (w) {
		/* a file the log does not name would outlive an abort: none is made */
		fd = outw_log(w, rel);
		return fd ?: open_beneath(w->sfd, rel, O_WRONLY | O_CREAT | O_EXCL, mode);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

/*
 * An output FILE writes through a cookie that keeps the errno of its first failed write:
 * stdio keeps only a flag, and a later fflush of the emptied buffer succeeds, so that a
 * full disk or a file-size limit read as "Input/output error" (out_ferror).
 */
struct out_cookie {
	int fd;
};

/* the first write error of any output stream of this thread, for out_ferror */
static __thread int out_write_errno;

static ssize_t out_cookie_write(void *c, const char *buf, size_t len)
{
	struct out_cookie *ck = c;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(ck->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!out_write_errno)
				out_write_errno = n < 0 ? errno : ENOSPC;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int out_cookie_close(void *c)
{
	struct out_cookie *ck = c;
	int ret = close(ck->fd);

	free(ck);
	return ret;
}

FILE *out_fopen_mode(const char *path, mode_t mode)
{
	int fd = out_create(path, mode), e;
	struct out_cookie *ck;
	FILE *f = NULL;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	ck = malloc(sizeof(*ck));
	if (ck) {
		ck->fd = fd;
		f = fopencookie(ck, "w", (cookie_io_functions_t){ .write = out_cookie_write,
								  .close = out_cookie_close });
	}
	if (!f) {
		e = errno ? errno : ENOMEM;
		free(ck);
		close(fd);
		errno = e;
		return NULL;
	}
	out_write_errno = 0;
	return f;
}

FILE *out_fopen(const char *path)
{
	return out_fopen_mode(path, 0644);
}

int out_ferror(FILE *f)
{
	if (!ferror(f))
		return 0;
	return out_write_errno ? -out_write_errno : -EIO;
}

int out_mkdir(const char *path)
{
	const char *rel, *base;
	struct outw *w = owner(path, &rel);
	struct stat st;
	int pfd, ret = 0;

	if (!w) {
		if (!mkdir(path, 0755))
			return 0;
		if (errno != EEXIST)
			return -errno;
		return !lstat(path, &st) && S_ISDIR(st.st_mode) ? 0 : -EEXIST;
	}
	ret = outw_log(w, rel);
	if (ret)
		return ret;
	pfd = parent_beneath(w->sfd, rel, &base);
	if (pfd < 0)
		return pfd;
	if (mkdirat(pfd, base, 0755))
		ret = errno != EEXIST ? -errno : fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) ||
		      !S_ISDIR(st.st_mode) ? -EEXIST : 0;
	close(pfd);
	return ret;
}

int out_mkdir_p(const char *path)
{
	char tmp[PATH_MAX], *p;
	const char *rel;
	struct outw *w = owner(path, &rel);
	int ret;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	/* below a writer's directory every component is made here; above, none is */
	for (p = tmp + (w ? strlen(w->stage) + 1 : 1); *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		ret = out_mkdir(tmp);
		*p = '/';
		if (ret)
			return ret;
	}
	return out_mkdir(tmp);
}

/*
 * remove_earlier - a staging name holding earlier results a replace moved aside (the
 * writer was killed between its exchange and the removal): no log, but a manifest
 * that lists every file in it. -ENOENT when it is not that.
 */
static int remove_earlier(int pfd, const char *sname)
{
	struct manifest m;
	char why[PATH_MAX];
	int dfd, ret;

	dfd = openat(pfd, sname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	ret = manifest_load(dfd, &m);
	if (!ret && (!m.present || m.untrusted))
		ret = -ENOENT;
	if (!ret)
		ret = manifest_owns(&m, dfd, "", why, sizeof(why)) == 1 ?
		      manifest_remove(&m, dfd, "") : -ENOTEMPTY;
	if (!ret && unlinkat(dfd, MANIFEST_NAME, 0))
		ret = -errno;
	manifest_free(&m);
	close(dfd);
	if (!ret && unlinkat(pfd, sname, AT_REMOVEDIR))
		ret = errno == EEXIST || errno == ENOTEMPTY ? -ENOTEMPTY : -errno;
	return ret;
}

int outw_staging_remove(const char *stage)
{
	char dir[PATH_MAX], *slash;
	int pfd, ret;

	if (snprintf(dir, sizeof(dir), "%s", stage) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	pfd = open(slash ? (*dir ? dir : "/") : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	ret = outw_remove_staged(pfd, slash ? slash + 1 : stage);
	if (ret == -ENOENT)
		ret = remove_earlier(pfd, slash ? slash + 1 : stage);
	close(pfd);
	return ret;
}

