// SPDX-License-Identifier: GPL-2.0
/*
 * outw_check.c - what an output may not be (see outw.h): one of the command's inputs, a
 * directory holding one or lying in one (by device and inode), or a system directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFERBENCH_ALLOW_OUTW_INT_H
#include "outw_int.h"
#include "grow.h"
#include "msg.h"

#define CHAIN_MAX 4096		/* directories above anything: far more than PATH_MAX allows */

static bool same(const struct outw_id *a, const struct stat *st)
{
	return a->dev == st->st_dev && a->ino == st->st_ino;
}

int outw_chain(int fd, struct outw_id **ids, size_t *n)
{
	struct stat st, up;
	struct outw_id *v = NULL, *nv;
	int cur = dup(fd), next;
	size_t k = 0;

	*ids = NULL;
	*n = 0;
	if (cur < 0)
		return -errno;
	if (fstat(cur, &st))
		goto error;
	for (;;) {
		nv = grow_array(v, k, sizeof(*v));
		if (!nv) {
			errno = ENOMEM;
			goto error;
		}
		v = nv;
		v[k].dev = st.st_dev;
		v[k++].ino = st.st_ino;
		if (!S_ISDIR(st.st_mode) || k == CHAIN_MAX)
			break;
		next = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (next < 0 || fstat(next, &up)) {
			if (next >= 0)
				close(next);
			break;		/* a directory we may not leave: the chain ends here */
		}
		close(cur);
		cur = next;
		if (up.st_dev == st.st_dev && up.st_ino == st.st_ino)
			break;		/* the root */
		st = up;
	}
	close(cur);
	*ids = v;
	*n = k;
	return 0;
error:
	k = (size_t)errno;
	close(cur);
	free(v);
	return -(int)k;
}

int outw_inputs(struct outw *w, const char *const *inputs)
{
	char real[PATH_MAX], *dir;
	struct outw_input *in;
	struct stat st;
	size_t n = 0;
	int fd, ret;

	for (; inputs && inputs[n]; n++)
		;
	w->in = calloc(n ? n : 1, sizeof(*w->in));
	if (!w->in)
		return -ENOMEM;
	for (; inputs && *inputs; inputs++) {
		/* an input that is not there has nothing to protect */
		if (stat(*inputs, &st) || !realpath(*inputs, real))
			continue;
		in = &w->in[w->nin];
		in->path = *inputs;
		in->id = (struct outw_id){ st.st_dev, st.st_ino };
		dir = S_ISDIR(st.st_mode) ? real : dirname(real);
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ret = outw_chain(fd, &in->up, &in->nup);
		close(fd);
		if (ret)
			return ret;
		w->nin++;
	}
	return 0;
}

void outw_inputs_free(struct outw *w)
{
	size_t i;

	for (i = 0; i < w->nin; i++)
		free(w->in[i].up);
	free(w->in);
	w->in = NULL;
	w->nin = 0;
}

/* holds - the input's chain has st: the output st is the input or a directory holding it */
static const struct outw_input *holds(const struct outw *w, const struct stat *st)
{
	size_t i, k;

	for (i = 0; i < w->nin; i++) {
		if (same(&w->in[i].id, st))
			return &w->in[i];
		for (k = 0; k < w->in[i].nup; k++)
			if (same(&w->in[i].up[k], st))
				return &w->in[i];
	}
	return NULL;
}

int outw_check_entry(const struct outw *w, const char *shown, const struct stat *st,
		     char *errbuf)
{
	const struct outw_input *in = st ? holds(w, st) : NULL;

	if (!in)
		return 0;
	return set_err(errbuf, "%s: the output %s %s %s, which this command reads: results "
		       "never replace their input; choose another %s", w->o.by, shown,
		       same(&in->id, st) ? "is" : "is or holds", in->path,
		       w->o.kind == OUTW_FILE ? "file" : "directory");
}

int outw_check_inside(const struct outw *w, int dirfd, const char *shown, bool self,
		       char *errbuf)
{
	struct outw_id *ids;
	size_t n, i, k;
	int ret;

	if (!w->nin)
		return 0;
	ret = outw_chain(dirfd, &ids, &n);
	if (ret)
		return errno_msg(errbuf, ret, "%s: cannot check %s: %s", w->o.by, shown,
				 strerror(-ret));
	for (i = 0; i < w->nin; i++)
		for (k = 0; k < n; k++)
			if (ids[k].dev == w->in[i].id.dev && ids[k].ino == w->in[i].id.ino) {
				free(ids);
				return set_err(errbuf, "%s: the output %s %s %s, which this "
					       "command reads: results never replace their input; "
					       "choose another %s", w->o.by, shown,
					       k || !self ? "lies in" : "is",
					       w->in[i].path,
					       w->o.kind == OUTW_FILE ? "file" : "directory");
			}
	free(ids);
	return 0;
}

/*
 * System directories: nothing is written in them or anywhere beneath them (tree), or
 * in them but beneath is fine (exact: /var/lib/deferbench is where baselines go).
 */
static const char *const sys_tree[] = {
	"/etc", "/usr", "/boot", "/efi", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/dev", "/proc", "/sys",
};
static const char *const sys_exact[] = {
	"/", "/var", "/var/lib", "/var/log", "/var/cache", "/var/spool", "/var/mail", "/run",
	"/home", "/opt", "/srv", "/mnt", "/media",
};

const char *outw_system_dir(int fd, bool exact)
{
	struct outw_id *ids;
	struct stat st;
	const char *hit = NULL;
	size_t n, i, k;

	if (outw_chain(fd, &ids, &n))
		return NULL;
	for (i = 0; !hit && i < ARRAY_SIZE(sys_tree); i++)
		for (k = 0; !hit && !stat(sys_tree[i], &st) && k < n; k++)
			if (same(&ids[k], &st))
				hit = sys_tree[i];
	for (i = 0; exact && !hit && n && i < ARRAY_SIZE(sys_exact); i++)
		if (!stat(sys_exact[i], &st) && same(&ids[0], &st))
			hit = sys_exact[i];
	free(ids);
	return hit;
}
