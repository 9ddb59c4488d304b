// SPDX-License-Identifier: GPL-2.0
/*
 * owned.c - the journal of what a process creates outside its results (see owned.h).
 */
#include "owned.h"

#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsonread.h"
#include "msg.h"
#include "file.h"

const char *const owned_kind_names[OWN_NR] = {
	[OWN_INSTANCE] = "instance",
	[OWN_MOUNT] = "mount",
	[OWN_STAGING] = "staging",
	[OWN_OLD] = "old",
	[OWN_TMPDIR] = "tmpdir",
	[OWN_OPTION_OFF] = "option_off",
	[OWN_TRIGGER] = "trigger",
};

#define OWNED_MAX 64		/* resources of one process; a few in practice */

/* This process's journal. */
static struct {
	pthread_mutex_t lock;
	struct owned_res res[OWNED_MAX];
	int n;
	pid_t pid;			/* the process the list belongs to (not a fork) */
	char command[256];
	char file[PATH_MAX];		/* this process's file, once written; for signals */
	bool warned;
} self = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* the signals that end a process and run a cleanup: the list must not change under one */
static const int end_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };

/* self_lock - the list's lock, with the ending signals held until self_unlock */
static void self_lock(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(end_sigs); i++)
		sigaddset(&set, end_sigs[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
	pthread_mutex_lock(&self.lock);
}

static void self_unlock(sigset_t *old)
{
	pthread_mutex_unlock(&self.lock);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

void owned_on_signal(void)
{
	int i;

	if (self.pid != getpid() || !self.file[0])
		return;
	/* only staging directories, and the handler removed each: nothing left to undo */
	for (i = 0; i < self.n; i++)
		if (self.res[i].kind != OWN_STAGING || !access(self.res[i].path, F_OK))
			return;
	unlink(self.file);
}

const char *owned_dir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("DEFERBENCH_OWNED_DIR"), *run;

	if (env && *env)
		return env;
	if (geteuid() == 0)
		return OWNED_DIR;
	run = getenv("XDG_RUNTIME_DIR");
	if (!run || *run != '/')
		return NULL;
	if (snprintf(dir, sizeof(dir), "%s/deferbench/owned", run) >= (int)sizeof(dir))
		return NULL;
	return dir;
}

unsigned long long owned_proc_start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_file(path, buf, sizeof(buf)))
		return 0;
	/* "pid (comm) state ...": comm may hold spaces and parentheses */
	p = strrchr(buf, ')');
	if (!p || !p[1] || strchr("ZX", p[2]))
		return 0;	/* a zombie cleans nothing up any more */
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	return start;
}

void owned_mnt_ns_self(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/ns/mnt", buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
}

static json_object *to_json(pid_t pid, unsigned long long start, const char *ns,
			    const char *command, const struct owned_res *res, int n)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	int i;

	json_object_object_add(o, "schema", json_object_new_string(OWNED_SCHEMA));
	json_object_object_add(o, "pid", json_object_new_int(pid));
	json_object_object_add(o, "pid_start", json_object_new_uint64(start));
	json_object_object_add(o, "mnt_ns", json_object_new_string(ns));
	json_object_object_add(o, "command", json_object_new_string(command));
	for (i = 0; i < n; i++) {
		json_object *r = json_object_new_object();

		json_object_object_add(r, "kind",
				       json_object_new_string(owned_kind_names[res[i].kind]));
		json_object_object_add(r, "path", json_object_new_string(res[i].path));
		json_object_array_add(arr, r);
	}
	json_object_object_add(o, "resources", arr);
	return o;
}

/* write_file_of - file with pid's resources, or no file when there are none */
static int write_file_of(const char *file, pid_t pid, unsigned long long start,
			 const char *ns, const char *command, const struct owned_res *res, int n)
{
	json_object *o;
	const char *text;
	int ret;

	if (!n)
		return unlink(file) && errno != ENOENT ? -errno : 0;
	o = to_json(pid, start, ns, command, res, n);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	ret = text ? write_atomic_file(file, text, strlen(text), 0600, 0) : -ENOMEM;
	json_object_put(o);
	return ret;
}

/* self_write - this process's file; called with the lock held */
static int self_write(void)
{
	char file[PATH_MAX], ns[64];
	const char *dir = owned_dir();
	int ret;

	if (!dir)
		return 0;	/* nowhere to journal: go on as before */
	owned_mnt_ns_self(ns, sizeof(ns));
	if (snprintf(file, sizeof(file), "%s/%d.json", dir, (int)getpid()) >= (int)sizeof(file))
		return -ENAMETOOLONG;
	ret = self.n ? path_mkdir(dir, 0700) : 0;
	ret = ret ?: write_file_of(file, getpid(), owned_proc_start_time(getpid()), ns,
				   self.command, self.res, self.n);
	snprintf(self.file, sizeof(self.file), "%s", self.n && !ret ? file : "");
	if (ret && !self.warned) {
		self.warned = true;
		warn_msg("cannot journal what this run creates in %s (%s): after a crash, "
			 "'deferbench restore' may not find all of it", dir, strerror(-ret));
	}
	return ret;
}

/* self_own - a child of fork() does not own its parent's list */
static void self_own(void)
{
	if (self.pid != getpid()) {
		self.pid = getpid();
		self.n = 0;
	}
}

/* absolute - path made absolute (restore may run elsewhere); false if too long */
static bool absolute(const char *path, char *out)
{
	char cwd[PATH_MAX];

	if (path[0] == '/')
		return snprintf(out, PATH_MAX, "%s", path) < PATH_MAX;
	if (!getcwd(cwd, sizeof(cwd)))
		return false;
	return snprintf(out, PATH_MAX, "%s/%s", cwd, path) < PATH_MAX;
}

int owned_add(enum owned_kind kind, const char *rel)
{
	char path[PATH_MAX];
	int i, ret = 0;
	sigset_t old;

	if (kind < 0 || kind >= OWN_NR || !rel || !absolute(rel, path))
		return -EINVAL;
	self_lock(&old);
	self_own();
	for (i = 0; i < self.n; i++)
		if (self.res[i].kind == kind && !strcmp(self.res[i].path, path))
			goto out;
	if (self.n == OWNED_MAX) {
		ret = -ENOSPC;
		goto out;
	}
	self.res[self.n].kind = kind;
	snprintf(self.res[self.n].path, PATH_MAX, "%s", path);
	self.n++;
	ret = self_write();
out:
	self_unlock(&old);
	return ret;
}

void owned_forget(enum owned_kind kind, const char *rel)
{
	char path[PATH_MAX];
	sigset_t old;
	int i;

	if (!rel || !absolute(rel, path))
		return;
	self_lock(&old);
	self_own();
	for (i = 0; i < self.n; i++) {
		if (self.res[i].kind != kind || strcmp(self.res[i].path, path))
			continue;
		memmove(&self.res[i], &self.res[i + 1], (self.n - i - 1) * sizeof(self.res[0]));
		self.n--;
		self_write();
		break;
	}
	self_unlock(&old);
}

void owned_command(const char *command)
{
	pthread_mutex_lock(&self.lock);
	snprintf(self.command, sizeof(self.command), "%s", command);
	pthread_mutex_unlock(&self.lock);
}

int owned_mkdtemp(char *tmpl)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t n = strlen(tmpl), i;
	unsigned char rnd[6];
	int tries, ret;

	if (n < 6 || strcmp(tmpl + n - 6, "XXXXXX"))
		return -EINVAL;
	for (tries = 0; tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return -EIO;
		for (i = 0; i < 6; i++)
			tmpl[n - 6 + i] = chars[rnd[i] % (sizeof(chars) - 1)];
		/* journaled before it exists: a kill right after mkdir leaves no orphan */
		owned_add(OWN_TMPDIR, tmpl);
		if (!mkdir(tmpl, 0700))
			return 0;
		ret = -errno;
		owned_forget(OWN_TMPDIR, tmpl);
		if (ret != -EEXIST)
			return ret;
	}
	return -EEXIST;
}

int owned_load(const char *file, struct owned_file *f, char *errbuf)
{
	struct jr j = { file, errbuf };
	json_object *o, *arr;
	char kind[32];
	uint64_t start;
	int ret, pid = 0, k;
	size_t i, n;

	memset(f, 0, sizeof(*f));
	snprintf(f->file, sizeof(f->file), "%s", file);
	ret = jr_load(&j, &o);
	if (ret)
		return ret;
	ret = jr_schema(&j, o, OWNED_SCHEMA);
	ret = ret ?: jr_int(&j, o, "", "pid", 1, INT32_MAX, &pid);
	ret = ret ?: jr_u64(&j, o, "", "pid_start", &start);
	ret = ret ?: jr_str_opt(&j, o, "", "mnt_ns", f->mnt_ns, sizeof(f->mnt_ns));
	ret = ret ?: jr_str_opt(&j, o, "", "command", f->command, sizeof(f->command));
	ret = ret ?: jr_get(&j, o, "", "resources", json_type_array, &arr);
	if (ret)
		goto out;
	f->pid = pid;
	f->pid_start = start;
	n = json_object_array_length(arr);
	if (n > OWNED_MAX) {
		ret = jr_fail(&j, "", "resources", "lists %zu, more than %d", n, OWNED_MAX);
		goto out;
	}
	f->res = calloc(n + 1, sizeof(*f->res));
	if (!f->res) {
		ret = errno_msg(errbuf, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		json_object *r = json_object_array_get_idx(arr, i);
		struct owned_res *res = &f->res[i];
		char where[32];

		snprintf(where, sizeof(where), "resources[%zu]", i);
		ret = jr_str(&j, r, where, "kind", kind, sizeof(kind));
		ret = ret ?: jr_str(&j, r, where, "path", res->path, sizeof(res->path));
		if (ret)
			break;
		for (k = 0; k < OWN_NR && strcmp(kind, owned_kind_names[k]); k++)
			;
		if (k == OWN_NR)
			ret = jr_fail(&j, where, "kind", "'%s' is unknown", kind);
		else if (res->path[0] != '/')
			ret = jr_fail(&j, where, "path", "is not absolute");
		res->kind = k;
		f->n++;
	}
out:
	json_object_put(o);
	if (ret)
		owned_free(f);
	return ret;
}

bool owned_alive(const struct owned_file *f)
{
	unsigned long long start = owned_proc_start_time(f->pid);

	return start && (!f->pid_start || start == f->pid_start);
}

int owned_save(const struct owned_file *f)
{
	return write_file_of(f->file, f->pid, f->pid_start, f->mnt_ns, f->command, f->res, f->n);
}

void owned_free(struct owned_file *f)
{
	free(f->res);
	f->res = NULL;
	f->n = 0;
}
