// SPDX-License-Identifier: GPL-2.0
/*
 * manifest.c - what deferbench wrote in a directory (see manifest.h).
 */
#include "manifest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "jsonread.h"
#include "grow.h"
#include "msg.h"

bool manifest_bookkeeping(const char *name)
{
	static const char *const prefix[] = {
		MANIFEST_NAME ".tmp.", ".deferbench.partial-", ".deferbench-staging",
	};
	size_t i;

	if (!strcmp(name, MANIFEST_NAME))
		return true;
	for (i = 0; i < ARRAY_SIZE(prefix); i++)
		if (!strncmp(name, prefix[i], strlen(prefix[i])))
			return true;
	return false;
}

/* bookkeeping - at the top of the directory (rel ""), name is bookkeeping */
static bool bookkeeping(const char *rel, const char *name)
{
	return !*rel && manifest_bookkeeping(name);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct mf_file *)a)->path, ((const struct mf_file *)b)->path);
}

const struct mf_file *manifest_find(const struct manifest *m, const char *path)
{
	struct mf_file key = { .path = (char *)path };

	return m->n ? bsearch(&key, m->f, m->n, sizeof(*m->f), cmp_path) : NULL;
}

/*
 * The entries stay sorted by path, for bsearch. New ones are appended as they come (a
 * directory's walk comes in hash order) and sorted in once per batch, by settle(): one
 * sort and one merge, O(n log n) where inserting each in place was O(n^2) (30 s for
 * 200,000 entries).
 */

/* append - path at the end of m, unsorted until settle() */
static int append(struct manifest *m, const char *path, uint64_t size, const char *sha,
		  const char *by)
{
	struct mf_file *f;

	if (m->n == MANIFEST_MAX_FILES)
		return -E2BIG;
	if (GROW(m->f, m->cap, m->n + 1))
		return -ENOMEM;
	f = &m->f[m->n];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return -ENOMEM;
	f->size = size;
	snprintf(f->sha256, sizeof(f->sha256), "%s", sha);
	snprintf(f->by, sizeof(f->by), "%s", by ? by : "");
	m->n++;
	return 0;
}

/* insert_last - the one entry appended last into its place: a bisection and a move */
static int insert_last(struct manifest *m)
{
	struct mf_file e = m->f[m->n - 1];
	size_t lo = 0, hi = m->n - 1, mid;
	int c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strcmp(m->f[mid].path, e.path);
		if (!c) {
			free(m->f[mid].path);	/* replaced by the new entry */
			m->f[mid] = e;
			m->n--;
			return 0;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&m->f[lo + 1], &m->f[lo], (m->n - 1 - lo) * sizeof(*m->f));
	m->f[lo] = e;
	return 0;
}

/*
 * settle - sort the entries appended since index from into the sorted ones before it,
 * a new entry replacing an old one of the same path; -EEXIST when two new ones share a
 * path (never in a walk; a manifest file listing a path twice), -ENOMEM
 */
static int settle(struct manifest *m, size_t from)
{
	struct mf_file *out;
	size_t i, j, o, k = m->n - from;
	int c;

	if (!k)
		return 0;
	qsort(m->f + from, k, sizeof(*m->f), cmp_path);
	for (j = from + 1; j < m->n; j++)
		if (!strcmp(m->f[j - 1].path, m->f[j].path))
			return -EEXIST;
	/* already in order (a manifest as deferbench writes it, or an append at the end) */
	if (!from || strcmp(m->f[from - 1].path, m->f[from].path) < 0)
		return 0;
	if (k == 1)
		return insert_last(m);
	out = malloc(m->n * sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = 0, j = from, o = 0; i < from || j < m->n;) {
		c = i == from ? 1 : j == m->n ? -1 : strcmp(m->f[i].path, m->f[j].path);
		if (c == 0)
			free(m->f[i++].path);	/* replaced by the new entry */
		else
			out[o++] = c < 0 ? m->f[i++] : m->f[j++];
	}
	memcpy(m->f, out, o * sizeof(*out));
	m->n = o;
	free(out);
	return 0;
}

/* put - list path, replacing an entry of the same path */
static int put(struct manifest *m, const char *path, uint64_t size, const char *sha,
	       const char *by)
{
	struct mf_file *f = (struct mf_file *)manifest_find(m, path);
	size_t from = m->n;
	int ret;

	if (f) {
		f->size = size;
		snprintf(f->sha256, sizeof(f->sha256), "%s", sha);
		snprintf(f->by, sizeof(f->by), "%s", by ? by : "");
		return 0;
	}
	ret = append(m, path, size, sha, by);
	return ret ?: settle(m, from);
}

int manifest_put(struct manifest *m, const struct mf_file *f)
{
	return put(m, f->path, f->size, f->sha256, f->by);
}

int manifest_merge(struct manifest *m, const struct manifest *from, const char *rel)
{
	size_t i, start = m->n, n = strlen(rel);
	int ret = 0;

	for (i = 0; !ret && i < from->n; i++) {
		const char *p = from->f[i].path;

		if (!n || (!strncmp(p, rel, n) && (p[n] == '\0' || p[n] == '/')))
			ret = append(m, p, from->f[i].size, from->f[i].sha256, from->f[i].by);
	}
	ret = ret ?: settle(m, start);
	if (ret) {
		/* m as it was: what was appended goes */
		while (m->n > start)
			free(m->f[--m->n].path);
	}
	return ret;
}

void manifest_drop(struct manifest *m, const char *rel)
{
	size_t i, o = 0, n = strlen(rel);

	for (i = 0; i < m->n; i++) {
		const char *p = m->f[i].path;

		if (!n || (!strncmp(p, rel, n) && (p[n] == '\0' || p[n] == '/')))
			free(m->f[i].path);
		else
			m->f[o++] = m->f[i];
	}
	m->n = o;
}

void manifest_free(struct manifest *m)
{
	manifest_drop(m, "");
	free(m->f);
	memset(m, 0, sizeof(*m));
}

int manifest_hash_fd(int fd, uint64_t *size, char sha[SHA256_HEX_LEN])
{
	static __thread unsigned char buf[65536];
	struct sha256 s;
	uint64_t off = 0;
	ssize_t r;

	sha256_init(&s);
	for (;;) {
		r = pread(fd, buf, sizeof(buf), (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		sha256_update(&s, buf, (size_t)r);
		off += (uint64_t)r;
	}
	sha256_hex(&s, sha);
	*size = off;
	return 0;
}

/* untrusted - the manifest is there but cannot be trusted: nothing counts as ours */
static int untrusted(struct manifest *m, const char *why, const char *detail)
{
	manifest_drop(m, "");
	m->present = m->untrusted = true;
	snprintf(m->why, sizeof(m->why), "%s%s%s%s", why, detail ? " (" : "",
		 detail ? detail : "", detail ? ")" : "");
	return 0;
}

static int parse(struct manifest *m, const char *text, size_t len)
{
	struct jr j = { .path = MANIFEST_NAME, .errbuf = m->why };
	struct json_object *root, *files, *e, *v;
	char path[PATH_MAX], sha[SHA256_HEX_LEN + 1], by[24];
	uint64_t size;
	size_t i, k;
	int ret;

	if (jr_parse(&j, text, len, &root))
		return untrusted(m, "it is not JSON", NULL);
	if (jr_schema(&j, root, MANIFEST_SCHEMA) ||
	    jr_get(&j, root, "", "files", json_type_array, &files))
		goto bad;
	for (i = 0; i < json_object_array_length(files); i++) {
		e = json_object_array_get_idx(files, i);
		if (!json_object_is_type(e, json_type_object) ||
		    jr_str(&j, e, "files[]", "path", path, sizeof(path)) ||
		    jr_u64(&j, e, "files[]", "size", &size) ||
		    jr_str(&j, e, "files[]", "sha256", sha, sizeof(sha)) ||
		    jr_str_opt(&j, e, "files[]", "by", by, sizeof(by)))
			goto bad;
		for (k = 0; sha[k] && strchr("0123456789abcdef", sha[k]); k++)
			;
		/* a path out of the directory is never acted on */
		if (!path_rel_ok(path) || k != 64 || sha[k] || !json_object_object_get_ex(e, "path", &v))
			goto bad;
		if (append(m, path, size, sha, by)) {
			json_object_put(root);
			return -ENOMEM;
		}
	}
	json_object_put(root);
	ret = settle(m, 0);
	if (ret == -EEXIST)
		return untrusted(m, "it lists a path twice", NULL);
	return ret;
bad:
	json_object_put(root);
	return untrusted(m, "an entry is malformed", NULL);
}

int manifest_load(int dirfd, struct manifest *m)
{
	struct stat st;
	char *text;
	int fd, ret;

	memset(m, 0, sizeof(*m));
	fd = openat(dirfd, MANIFEST_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return untrusted(m, "it cannot be opened", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return untrusted(m, "it is not a regular file", NULL);
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		close(fd);
		return untrusted(m, "it belongs to another user", NULL);
	}
	if ((uint64_t)st.st_size > INPUT_MAX_DATA) {
		close(fd);
		return untrusted(m, "it is too large", NULL);
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		close(fd);
		return -ENOMEM;
	}
	ret = (int)pread(fd, text, (size_t)st.st_size, 0);
	close(fd);
	if (ret != (int)st.st_size) {
		free(text);
		return untrusted(m, "it cannot be read whole", NULL);
	}
	text[st.st_size] = '\0';
	m->present = true;
	ret = parse(m, text, (size_t)st.st_size);
	free(text);
	return ret;
}

int manifest_save(int dirfd, const struct manifest *m, char *errbuf)
{
	json_object *o = json_object_new_object(), *files = json_object_new_array();
	char tmp[64];
	const char *text;
	size_t i, len, off = 0;
	ssize_t w;
	int fd, ret = 0;

	json_object_object_add(o, "schema", json_object_new_string(MANIFEST_SCHEMA));
	for (i = 0; i < m->n; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "path", json_object_new_string(m->f[i].path));
		json_object_object_add(e, "size", json_object_new_uint64(m->f[i].size));
		json_object_object_add(e, "sha256", json_object_new_string(m->f[i].sha256));
		json_object_object_add(e, "by", json_object_new_string(m->f[i].by));
		json_object_array_add(files, e);
	}
	json_object_object_add(o, "files", files);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", MANIFEST_NAME, (int)getpid());
	unlinkat(dirfd, tmp, 0);	/* a dead process's that had our pid */
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (!text || fd < 0) {
		ret = text ? -errno : -ENOMEM;
		goto out;
	}
	for (len = strlen(text); !ret && off < len; off += (size_t)w) {
		w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			w = 0;
		else if (w < 0)
			ret = -errno;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && renameat(dirfd, tmp, dirfd, MANIFEST_NAME))
		ret = -errno;
	if (ret)
		unlinkat(dirfd, tmp, 0);
	else if (fsync(dirfd))
		ret = -errno;
out:
	json_object_put(o);
	if (ret)
		errno_msg(errbuf, ret, "cannot write %s: %s", MANIFEST_NAME, strerror(-ret));
	return ret;
}

/* open_rel - rel beneath dirfd ("" for dirfd itself) without following links */
static int open_rel(int dirfd, const char *rel)
{
	int fd;

	if (!*rel) {
		fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	return open_beneath(dirfd, rel, O_RDONLY | O_NONBLOCK, 0);
}

/* lstat_beneath - lstat of rel beneath dirfd, following no link on the way; -errno */
static int lstat_beneath(int dirfd, const char *rel, struct stat *st)
{
	const char *base;
	int pfd = parent_beneath(dirfd, rel, &base), ret = 0;

	if (pfd < 0)
		return pfd;
	if (fstatat(pfd, base, st, AT_SYMLINK_NOFOLLOW))
		ret = -errno;
	close(pfd);
	return ret;
}

/* join - rel/name into buf ("" + name is name); -ENAMETOOLONG */
static int join(char *buf, size_t len, const char *rel, const char *name)
{
	return (size_t)snprintf(buf, len, "%s%s%s", rel, *rel ? "/" : "", name) >= len ?
	       -ENAMETOOLONG : 0;
}

/*
 * walk - call fn for each entry of the directory rel beneath dirfd (its top-level
 * bookkeeping excepted) with the entry's relative path and its lstat; stops at the
 * first non-zero return of fn and returns it
 */
static int walk(int top, const char *rel, int (*fn)(void *ctx, int top, const char *path,
						   const struct stat *st), void *ctx)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	int fd = open_rel(top, rel), ret = 0;
	DIR *d;

	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while (!ret && (errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    bookkeeping(rel, de->d_name))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			ret = errno == ENOENT ? 0 : -errno;
		else
			ret = join(path, sizeof(path), rel, de->d_name) ?:
			      fn(ctx, top, path, &st);
	}
	if (!ret && !de && errno)
		ret = -errno;
	closedir(d);
	return ret;
}

struct add_ctx {
	struct manifest *m;
	const char *by;
	char *errbuf;
};

static int add_one(void *vctx, int dirfd, const char *path, const struct stat *st)
{
	struct add_ctx *c = vctx;
	char sha[SHA256_HEX_LEN];
	uint64_t size;
	int fd, ret;

	if (S_ISDIR(st->st_mode))
		return walk(dirfd, path, add_one, c);
	if (!S_ISREG(st->st_mode))
		return errno_msg(c->errbuf, -EINVAL, "%s is not a regular file", path);
	fd = open_beneath(dirfd, path, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0)
		return errno_msg(c->errbuf, fd, "cannot read %s: %s", path, strerror(-fd));
	ret = manifest_hash_fd(fd, &size, sha);
	close(fd);
	ret = ret ?: append(c->m, path, size, sha, c->by);
	if (ret)
		errno_msg(c->errbuf, ret, "cannot list %s: %s", path, strerror(-ret));
	return ret;
}

int manifest_add(struct manifest *m, int dirfd, const char *rel, const char *by,
		 char *errbuf)
{
	struct add_ctx c = { m, by, errbuf };
	size_t from = m->n;
	struct stat st;
	int ret;

	if (!*rel) {
		ret = walk(dirfd, "", add_one, &c);
	} else if (!path_rel_ok(rel)) {
		return errno_msg(errbuf, -EINVAL, "'%s' is not a path inside the directory", rel);
	} else {
		ret = lstat_beneath(dirfd, rel, &st);
		if (ret)
			return errno_msg(errbuf, ret, "cannot read %s: %s", rel, strerror(-ret));
		ret = add_one(&c, dirfd, rel, &st);
	}
	/* what the walk appended, sorted in at once (a path it listed before: replaced) */
	if (!ret && (ret = settle(m, from)))
		errno_msg(errbuf, ret, "cannot list %s: %s", *rel ? rel : ".", strerror(-ret));
	if (ret)
		while (m->n > from)
			free(m->f[--m->n].path);
	return ret;
}

/* matches - the regular file path beneath dirfd has the size and hash m lists */
static bool matches(const struct manifest *m, int dirfd, const char *path,
		    const struct stat *st)
{
	const struct mf_file *f = manifest_find(m, path);
	char sha[SHA256_HEX_LEN];
	uint64_t size;
	int fd;
	bool ok;

	if (!f || !S_ISREG(st->st_mode) || (uint64_t)st->st_size != f->size)
		return false;
	fd = open_beneath(dirfd, path, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0)
		return false;
	ok = !manifest_hash_fd(fd, &size, sha) && size == f->size && !strcmp(sha, f->sha256);
	close(fd);
	return ok;
}

struct owns_ctx {
	const struct manifest *m;
	char *why;
	size_t len;
};

static int owns_one(void *vctx, int dirfd, const char *path, const struct stat *st)
{
	struct owns_ctx *c = vctx;

	if (S_ISDIR(st->st_mode))
		return walk(dirfd, path, owns_one, c);
	if (matches(c->m, dirfd, path, st))
		return 0;
	snprintf(c->why, c->len, "%s", path);
	return 1;
}

int manifest_owns(const struct manifest *m, int dirfd, const char *rel, char *why,
		  size_t len)
{
	struct owns_ctx c = { m, why, len };
	struct stat st;
	int ret;

	why[0] = '\0';
	if (m->untrusted) {
		snprintf(why, len, "%s", *rel ? rel : ".");
		return 0;
	}
	if (!*rel)
		ret = walk(dirfd, "", owns_one, &c);
	else if ((ret = lstat_beneath(dirfd, rel, &st)))
		ret = ret == -ENOENT ? 0 : ret;	/* nothing there: nothing of anyone else's */
	else
		ret = owns_one(&c, dirfd, rel, &st);
	return ret < 0 ? ret : !ret;
}

struct rm_ctx {
	struct manifest *m;
	bool *gone;		/* by index in m: removed, to leave m at the end (O(n)) */
	bool left;
};

static int rm_one(void *vctx, int dirfd, const char *path, const struct stat *st)
{
	struct rm_ctx *c = vctx;
	const char *base;
	int pfd, ret;

	if (S_ISDIR(st->st_mode)) {
		ret = walk(dirfd, path, rm_one, c);
		if (ret < 0)
			c->left = true;
	} else if (!matches(c->m, dirfd, path, st)) {
		c->left = true;
		return 0;
	}
	pfd = parent_beneath(dirfd, path, &base);
	if (pfd < 0) {
		c->left = true;
		return 0;
	}
	if (unlinkat(pfd, base, S_ISDIR(st->st_mode) ? AT_REMOVEDIR : 0) && errno != ENOENT)
		c->left = true;
	else if (!S_ISDIR(st->st_mode))
		c->gone[manifest_find(c->m, path) - c->m->f] = true;	/* matches() found it */
	close(pfd);
	return 0;
}

/* forget_gone - the entries rm_one removed leave m, in one pass */
static void forget_gone(struct manifest *m, const bool *gone)
{
	size_t i, o = 0;

	for (i = 0; i < m->n; i++) {
		if (gone[i])
			free(m->f[i].path);
		else
			m->f[o++] = m->f[i];
	}
	m->n = o;
}

int manifest_remove(struct manifest *m, int dirfd, const char *rel)
{
	struct rm_ctx c = { m, NULL, false };
	struct stat st;
	int ret = 0;

	if (m->untrusted)
		return -ENOTEMPTY;
	c.gone = calloc(m->n + 1, sizeof(*c.gone));
	if (!c.gone)
		return -ENOMEM;
	if (!*rel) {
		if (walk(dirfd, "", rm_one, &c) < 0)
			c.left = true;
	} else {
		ret = lstat_beneath(dirfd, rel, &st);
		if (!ret)
			rm_one(&c, dirfd, rel, &st);
		else if (ret == -ENOENT)
			ret = 0;
	}
	forget_gone(m, c.gone);
	free(c.gone);
	return ret ?: c.left ? -ENOTEMPTY : 0;
}
