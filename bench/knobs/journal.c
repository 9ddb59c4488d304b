// SPDX-License-Identifier: GPL-2.0
/*
 * journal.c - the on-disk record of saved settings: atomic writes, loading, restoring.
 */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

const char *journal_path(void)
{
	const char *env = getenv("DEFERBENCH_JOURNAL");

	return env && *env ? env : JOURNAL_PATH;
}

/* entry_json - one saved target */
static json_object *entry_json(const struct knob_target *t)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "knob", json_object_new_string(t->knob));
	if (t->kind == TGT_FILE) {
		json_object_object_add(o, "path", json_object_new_string(t->path));
		json_object_object_add(o, "rpath", json_object_new_string(t->rpath));
	} else {
		json_object_object_add(o, "pid", json_object_new_int(t->pid));
		json_object_object_add(o, "comm", json_object_new_string(t->comm));
		json_object_object_add(o, "start", json_object_new_uint64(t->start));
	}
	json_object_object_add(o, "orig", json_object_new_string(t->orig));
	return o;
}

static json_object *journal_json(const struct journal *j)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	int i;

	json_object_object_add(o, "schema", json_object_new_string(JOURNAL_SCHEMA));
	json_object_object_add(o, "pid", json_object_new_int(j->pid));
	json_object_object_add(o, "pid_start", json_object_new_uint64(j->pid_start));
	json_object_object_add(o, "started", json_object_new_string(j->started));
	json_object_object_add(o, "command", json_object_new_string(j->command));
	json_object_object_add(o, "boot_ticks", json_object_new_uint64(j->boot_ticks));
	for (i = 0; i < j->n; i++)
		json_object_array_add(a, entry_json(&j->t[i]));
	json_object_object_add(o, "entries", a);
	return o;
}

/* fsync_dir - make a rename or link in path's directory durable */
static int fsync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd, ret = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	fd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd))
		ret = -errno;
	close(fd);
	return ret;
}

/* write_tmp - the journal's text into tmp, fsync'ed */
static int write_tmp(const struct journal *j, const char *tmp)
{
	json_object *o = journal_json(j);
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = strlen(s), off = 0;
	int fd, ret = 0;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		goto out_put;
	}
	while (off < len) {
		ssize_t w = write(fd, s + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			ret = -errno;
			break;
		}
		off += w;
	}
	if (!ret && write(fd, "\n", 1) != 1)
		ret = -EIO;
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		unlink(tmp);
out_put:
	json_object_put(o);
	return ret;
}

/* journal_write - replace the journal atomically; first=true: fail if one exists */
static int journal_write(const struct journal *j, bool first)
{
	char tmp[PATH_MAX + 32];
	int ret;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", j->path, (int)getpid());
	ret = write_tmp(j, tmp);
	if (ret)
		return ret;
	if (first) {
		ret = link(tmp, j->path) ? -errno : 0;
		unlink(tmp);
	} else {
		ret = rename(tmp, j->path) ? -errno : 0;
		if (ret)
			unlink(tmp);
	}
	return ret ? ret : fsync_dir(j->path);
}

/* describe_existing - why path blocks a new journal, and what to do */
static void describe_existing(const char *path, char *errbuf)
{
	struct journal old;

	if (journal_load(&old, path, NULL)) {
		set_err(errbuf, "%s exists but cannot be read; inspect it, restore by hand and "
			"remove it", path);
		return;
	}
	if (journal_owner_alive(&old))
		set_err(errbuf, "deferbench pid %d is changing kernel settings (journal %s); "
			"wait for it or stop it with 'kill -INT %d'", old.pid, path, old.pid);
	else
		set_err(errbuf, "a run (pid %d, started %s) left settings changed (journal %s); "
			"run 'deferbench restore' first", old.pid, old.started, path);
	journal_free(&old);
}

int journal_check_stale(const char *path, char *errbuf)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	describe_existing(path, errbuf);
	return -EEXIST;
}

int journal_create(struct journal *j, const char *path, const char *command, char *errbuf)
{
	struct thread_info self;
	char dir[PATH_MAX];
	int ret;

	memset(j, 0, sizeof(*j));
	snprintf(j->path, sizeof(j->path), "%s", path);
	snprintf(dir, sizeof(dir), "%s", path);
	ret = mkdir_p(dirname(dir), 0700);
	if (ret)
		return set_err(errbuf, "creating the directory of %s: %s", path, strerror(-ret)), ret;
	j->pid = getpid();
	if (!thread_info_read(j->pid, &self))
		j->pid_start = self.start;
	iso_time_now(j->started, sizeof(j->started));
	snprintf(j->command, sizeof(j->command), "%s", command);
	j->boot_ticks = boot_ticks();
	ret = journal_write(j, true);
	if (ret == -EEXIST)
		describe_existing(path, errbuf);
	else if (ret)
		set_err(errbuf, "writing %s: %s", path, strerror(-ret));
	return ret;
}

int journal_add(struct journal *j, const struct knob_target *t, int n, char *errbuf)
{
	struct knob_target *nt;
	int i, k, added = 0, ret;

	for (i = 0; i < n; i++) {
		for (k = 0; k < j->n && !target_same(&j->t[k], &t[i]); k++)
			;
		if (k < j->n)
			continue;	/* saved already: keep the first, original value */
		nt = realloc(j->t, (j->n + 1) * sizeof(*nt));
		if (!nt)
			return -ENOMEM;
		j->t = nt;
		j->t[j->n++] = t[i];
		added++;
	}
	if (!added)
		return 0;
	ret = journal_write(j, false);
	if (ret)
		set_err(errbuf, "writing %s: %s", j->path, strerror(-ret));
	return ret;
}

/* resolve - k's targets, in a malloc'ed array */
static int resolve(const struct journal *j, const struct knob *k, struct knob_target **t,
		   int *n, char *errbuf)
{
	int ret;

	errbuf[0] = '\0';
	ret = knob_resolve(k, j->boot_ticks, t, n, errbuf);
	if (ret && !errbuf[0])
		set_err(errbuf, "%s: %s", k->name, strerror(-ret));
	return ret;
}

int journal_save(struct journal *j, const struct knob *k, char *errbuf)
{
	struct knob_target *t;
	int n, ret;

	ret = resolve(j, k, &t, &n, errbuf);
	if (ret)
		return ret;
	ret = journal_add(j, t, n, errbuf);
	free(t);
	return ret;
}

int journal_apply(struct journal *j, const struct knob *k, struct knob_result *r, char *errbuf)
{
	struct knob_target *t;
	int n, i, ret;

	memset(r, 0, sizeof(*r));
	ret = resolve(j, k, &t, &n, errbuf);
	if (ret)
		return ret;
	ret = journal_add(j, t, n, errbuf);
	for (i = 0; !ret && i < n; i++) {
		ret = target_write(&t[i], k->value, errbuf);
		if (ret == -ESRCH) {
			ret = 0;	/* a thread that exited meanwhile */
			continue;
		}
		if (!ret && !r->targets++)
			target_read(&t[i], r->value, sizeof(r->value));
	}
	free(t);
	return ret;
}

int knob_apply_rank(const struct knob *k)
{
	switch (k->type->cls) {
	case KNOB_WQ_UNBOUND:
		return 0;
	case KNOB_WQ_PARAM:
		return 1;
	default:
		return 2;
	}
}

/* get_str - a string member into buf; false if missing or not a string */
static bool get_str(json_object *o, const char *key, char *buf, size_t len)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return false;
	snprintf(buf, len, "%s", json_object_get_string(v));
	return true;
}

static bool get_u64(json_object *o, const char *key, unsigned long long *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_uint64(v);
	return true;
}

/* entry_load - one entry; the knob name gives the type (how to compare values) */
static int entry_load(json_object *o, struct knob_target *t)
{
	unsigned long long pid;
	struct knob k;

	memset(t, 0, sizeof(*t));
	if (!get_str(o, "knob", t->knob, sizeof(t->knob)) ||
	    !get_str(o, "orig", t->orig, sizeof(t->orig)) ||
	    knob_parse_name(t->knob, &k, NULL))
		return -EINVAL;
	t->type = k.type;
	if (get_str(o, "path", t->path, sizeof(t->path))) {
		t->kind = TGT_FILE;
		if (!get_str(o, "rpath", t->rpath, sizeof(t->rpath)))
			return -EINVAL;
		return 0;
	}
	t->kind = TGT_THREAD;
	if (!get_u64(o, "pid", &pid) || !get_u64(o, "start", &t->start) ||
	    !get_str(o, "comm", t->comm, sizeof(t->comm)) || !pid || pid > INT_MAX)
		return -EINVAL;
	t->pid = (pid_t)pid;
	return 0;
}

/* journal_parse - the whole document into j */
static int journal_parse(json_object *o, struct journal *j)
{
	unsigned long long pid;
	json_object *a;
	char schema[64];
	size_t i, n;

	if (!get_str(o, "schema", schema, sizeof(schema)) || strcmp(schema, JOURNAL_SCHEMA) ||
	    !get_u64(o, "pid", &pid) || !pid || pid > INT_MAX ||
	    !json_object_object_get_ex(o, "entries", &a) || !json_object_is_type(a, json_type_array))
		return -EINVAL;
	j->pid = (pid_t)pid;
	get_u64(o, "pid_start", &j->pid_start);
	get_u64(o, "boot_ticks", &j->boot_ticks);
	get_str(o, "started", j->started, sizeof(j->started));
	get_str(o, "command", j->command, sizeof(j->command));
	n = json_object_array_length(a);
	j->t = calloc(n ? n : 1, sizeof(*j->t));
	if (!j->t)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (entry_load(json_object_array_get_idx(a, i), &j->t[i]))
			return -EINVAL;
		j->n++;
	}
	return 0;
}

int journal_load(struct journal *j, const char *path, char *errbuf)
{
	json_object *o;
	struct stat st;
	int ret;

	memset(j, 0, sizeof(*j));
	snprintf(j->path, sizeof(j->path), "%s", path);
	if (stat(path, &st))
		return -errno;
	o = json_object_from_file(path);
	if (!o)
		return set_err(errbuf, "%s is not valid JSON: %s", path, json_util_get_last_err());
	ret = journal_parse(o, j);
	json_object_put(o);
	if (ret) {
		journal_free(j);
		set_err(errbuf, "%s is not a deferbench journal (schema %s)", path, JOURNAL_SCHEMA);
	}
	return ret;
}

bool journal_owner_alive(const struct journal *j)
{
	struct thread_info ti;

	if (kill(j->pid, 0) && errno == ESRCH)
		return false;
	if (thread_info_read(j->pid, &ti) || ti.state == 'Z' || ti.state == 'X')
		return false;	/* a zombie restores nothing any more */
	return !j->pid_start || ti.start == j->pid_start;
}

int journal_restore(struct journal *j, FILE *report)
{
	char errbuf[ERRBUF_LEN], desc[TGT_PATH_MAX + 32], now[KNOB_VALUE_MAX];
	int i, failed = 0;

	for (i = j->n - 1; i >= 0; i--) {
		struct knob_target *t = &j->t[i];

		target_describe(t, desc, sizeof(desc));
		if (!target_allowed(t)) {
			err_msg("journal entry %s (%s) is not a target deferbench changes; not "
				"written", t->knob, desc);
			failed++;
			continue;
		}
		switch (target_read(t, now, sizeof(now))) {
		case 0:
			break;
		case -ESRCH:
			continue;	/* the thread has exited: nothing left to restore */
		default:
			snprintf(now, sizeof(now), "?");
		}
		errbuf[0] = '\0';
		if (target_restore(t, errbuf)) {
			err_msg("restoring %s = %s: %s", t->knob, t->orig, errbuf);
			failed++;
		} else if (report && strcmp(now, t->orig)) {
			fprintf(report, "  %s (%s): %s -> %s\n", t->knob, desc, now, t->orig);
		}
	}
	return failed;
}

int journal_remove(struct journal *j)
{
	if (unlink(j->path) && errno != ENOENT)
		return -errno;
	return fsync_dir(j->path);
}

void journal_free(struct journal *j)
{
	free(j->t);
	j->t = NULL;
	j->n = 0;
}
