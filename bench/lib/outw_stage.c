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
		if (!rel_ok(rel))
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

/* on_signal - a signal that would end the process: no staging directory survives it */
static void on_signal(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	size_t i;

	for (i = 0; i < OUTW_MAX; i++) {
		struct outw *w = active[i];

		if (w && w->pid == getpid() && w->logfd >= 0)
			outw_remove_staged(w->pfd, w->sname);
	}
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
		if (!strncmp(path, w->stage, n) && path[n] == '/' && rel_ok(path + n + 1)) {
			*rel = path + n + 1;
			return w;
		}
	}
	return NULL;
}

void outw_log(struct outw *w, const char *rel)
{
	char line[PATH_MAX + 1];
	int n;

	if (w->logfd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s\n", rel);
	if (n > 0 && (size_t)n < sizeof(line) && write(w->logfd, line, (size_t)n) != n)
		warn_msg("%s: cannot log %s: %s", w->stage, rel, strerror(errno));
}

void out_note(const char *path)
{
	const char *rel;
	struct outw *w = owner(path, &rel);

	if (w)
		outw_log(w, rel);
}

int out_create(const char *path, mode_t mode)
{
	const char *rel;
	struct outw *w = owner(path, &rel);
	int fd;

	if (w) {
		outw_log(w, rel);
		return open_beneath(w->sfd, rel, O_WRONLY | O_CREAT | O_EXCL, mode);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

FILE *out_fopen(const char *path)
{
	int fd = out_create(path, 0644);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		fd = errno;
		close(fd);
		errno = fd;
	}
	return f;
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
	outw_log(w, rel);
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
	close(pfd);
	return ret;
}

