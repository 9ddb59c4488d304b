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

#include "jsonread.h"
#include "jsonw.h"
#include "grow.h"
#include "msg.h"
#include "file.h"
#include "sys.h"

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

/* journal_write - replace the journal atomically; first=true: fail if one exists */
static int journal_write(const struct journal *j, bool first)
{
	json_object *o = journal_json(j);
	int ret;

	ret = jsonw_write(j->path, o, 0600, first ? WA_EXCL : 0);
	json_object_put(o);
	return ret;
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
	ret = path_mkdir(dirname(dir), 0700);
	if (ret)
		return set_err(errbuf, "creating the directory of %s: %s", path, strerror(-ret)), ret;
	j->pid = getpid();
	if (!knob_thread_info_read(j->pid, &self))
		j->pid_start = self.start;
	iso_time_now(j->started, sizeof(j->started));
	snprintf(j->command, sizeof(j->command), "%s", command);
	j->boot_ticks = knob_boot_ticks();
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
		for (k = 0; k < j->n && !knob_target_same(&j->t[k], &t[i]); k++)
			;
		if (k < j->n)
			continue;	/* saved already: keep the first, original value */
		nt = grow_to(j->t, (size_t)j->n, (size_t)j->n + 1, sizeof(*nt));
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
		ret = knob_target_write(&t[i], k->value, errbuf);
		if (ret == -ESRCH) {
			ret = 0;	/* a thread that exited meanwhile */
			continue;
		}
		if (!ret && !r->targets++)
			knob_target_read(&t[i], r->value, sizeof(r->value));
	}
	free(t);
	return ret;
}

int journal_apply_rank(const struct knob *k)
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

/* entry_load - entry i; the knob name gives the type (how to compare values) */
static int entry_load(const struct jr *jr, json_object *o, size_t i, struct knob_target *t)
{
	uint64_t pid, start;
	char where[32];
	struct knob k;
	int ret;

	memset(t, 0, sizeof(*t));
	snprintf(where, sizeof(where), "entries[%zu]", i);
	ret = jr_str(jr, o, where, "knob", t->knob, sizeof(t->knob));
	ret = ret ?: jr_str(jr, o, where, "orig", t->orig, sizeof(t->orig));
	if (ret)
		return ret;
	if (knob_parse_name(t->knob, &k, NULL))
		return jr_fail(jr, where, "knob", "'%s' is not a knob deferbench sets", t->knob);
	t->type = k.type;
	if (jr_has(o, "path")) {
		t->kind = TGT_FILE;
		ret = jr_str(jr, o, where, "path", t->path, sizeof(t->path));
		return ret ?: jr_str(jr, o, where, "rpath", t->rpath, sizeof(t->rpath));
	}
	t->kind = TGT_THREAD;
	ret = jr_u64(jr, o, where, "pid", &pid);
	ret = ret ?: jr_u64(jr, o, where, "start", &start);
	ret = ret ?: jr_str(jr, o, where, "comm", t->comm, sizeof(t->comm));
	if (!ret && (!pid || pid > INT_MAX))
		return jr_fail(jr, where, "pid", "%llu is not a process id", (unsigned long long)pid);
	t->pid = (pid_t)pid;
	t->start = start;
	return ret;
}

/* journal_parse - the whole document into j */
static int journal_parse(const struct jr *jr, json_object *o, struct journal *j)
{
	uint64_t pid, pid_start = 0, ticks = 0;
	json_object *a;
	size_t i, n;
	int ret;

	ret = jr_schema(jr, o, JOURNAL_SCHEMA);
	ret = ret ?: jr_u64(jr, o, "", "pid", &pid);
	if (!ret && (!pid || pid > INT_MAX))
		return jr_fail(jr, "", "pid", "%llu is not a process id", (unsigned long long)pid);
	j->pid = (pid_t)pid;
	/* optional: 0 means unknown (any start time, any NAPI thread) */
	if (!ret && jr_has(o, "pid_start"))
		ret = jr_u64(jr, o, "", "pid_start", &pid_start);
	if (!ret && jr_has(o, "boot_ticks"))
		ret = jr_u64(jr, o, "", "boot_ticks", &ticks);
	j->pid_start = pid_start;
	j->boot_ticks = ticks;
	ret = ret ?: jr_str_opt(jr, o, "", "started", j->started, sizeof(j->started));
	ret = ret ?: jr_str_opt(jr, o, "", "command", j->command, sizeof(j->command));
	ret = ret ?: jr_get(jr, o, "", "entries", json_type_array, &a);
	if (ret)
		return ret;
	n = json_object_array_length(a);
	j->t = calloc(n ? n : 1, sizeof(*j->t));
	if (!j->t)
		return errno_msg(jr->errbuf, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		ret = entry_load(jr, json_object_array_get_idx(a, i), i, &j->t[i]);
		if (ret)
			return ret;
		j->n++;
	}
	return 0;
}

int journal_load(struct journal *j, const char *path, char *errbuf)
{
	char why[ERRBUF_LEN];
	struct jr jr = { path, why };
	json_object *o;
	struct stat st;
	int ret;

	memset(j, 0, sizeof(*j));
	snprintf(j->path, sizeof(j->path), "%s", path);
	if (stat(path, &st))
		return -errno;
	ret = jr_load(&jr, &o);
	if (!ret) {
		ret = journal_parse(&jr, o, j);
		json_object_put(o);
	}
	if (ret) {
		journal_free(j);
		errno_msg(errbuf, ret, "%s; deferbench cannot restore from it: put back by hand "
			  "the settings it lists (compare with 'deferbench knobs show'; a reboot "
			  "restores every default), then remove it", why);
	}
	return ret;
}

bool journal_owner_alive(const struct journal *j)
{
	struct thread_info ti;

	if (kill(j->pid, 0) && errno == ESRCH)
		return false;
	if (knob_thread_info_read(j->pid, &ti) || ti.state == 'Z' || ti.state == 'X')
		return false;	/* a zombie restores nothing any more */
	return !j->pid_start || ti.start == j->pid_start;
}

int journal_restore(struct journal *j, FILE *report)
{
	char errbuf[ERRBUF_LEN], desc[TGT_PATH_MAX + 32], now[KNOB_VALUE_MAX];
	int i, failed = 0;

	for (i = j->n - 1; i >= 0; i--) {
		struct knob_target *t = &j->t[i];

		knob_target_describe(t, desc, sizeof(desc));
		if (!knob_target_allowed(t)) {
			err_msg("journal entry %s (%s) is not a target deferbench changes; not "
				"written", t->knob, desc);
			failed++;
			continue;
		}
		switch (knob_target_read(t, now, sizeof(now))) {
		case 0:
			break;
		case -ESRCH:
			continue;	/* the thread has exited: nothing left to restore */
		default:
			snprintf(now, sizeof(now), "?");
		}
		errbuf[0] = '\0';
		if (knob_target_restore(t, errbuf)) {
			err_msg("restoring %s = %s: %s", t->knob, t->orig, errbuf);
			failed++;
		} else if (report && strcmp(now, t->orig)) {
			fprintf(report, "  %s (%s): %s -> %s\n", t->knob, desc, now, t->orig);
		}
	}
	return failed;
}

/* kept - target t belongs to a knob named in keep */
static bool kept(const struct knob_target *t, const struct knob *keep, int nkeep)
{
	int i;

	for (i = 0; i < nkeep; i++)
		if (!strcmp(t->knob, keep[i].name))
			return true;
	return false;
}

int journal_revert(struct journal *j, const struct knob *keep, int nkeep)
{
	char errbuf[ERRBUF_LEN], now[KNOB_VALUE_MAX];
	int i, failed = 0;

	for (i = j->n - 1; i >= 0; i--) {
		struct knob_target *t = &j->t[i];

		if (kept(t, keep, nkeep) || !knob_target_allowed(t))
			continue;
		switch (knob_target_read(t, now, sizeof(now))) {
		case 0:
			if (!strcmp(now, t->orig))
				continue;
			break;
		case -ESRCH:
			continue;	/* the thread has exited: nothing left to restore */
		default:
			break;
		}
		errbuf[0] = '\0';
		if (knob_target_restore(t, errbuf)) {
			err_msg("restoring %s = %s: %s", t->knob, t->orig, errbuf);
			failed++;
		}
	}
	return failed;
}

int journal_remove(struct journal *j)
{
	if (unlink(j->path) && errno != ENOENT)
		return -errno;
	return file_fsync_dir(j->path);
}

void journal_free(struct journal *j)
{
	free(j->t);
	j->t = NULL;
	j->n = 0;
}
