// SPDX-License-Identifier: GPL-2.0
/*
 * leftovers.c - remove what deferbench processes that died without cleaning up left:
 * every resource their owned files journaled (owned.h), and, for those that left no
 * file, the tracefs instances and temporary directories deferbench names after its
 * pid. Only names deferbench itself makes are touched, and only when their process no
 * longer runs.
 */
#include "leftovers.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "knobs.h"
#include "names.h"
#include "outdir.h"
#include "outw.h"
#include "owned.h"
#include "msg.h"
#include "file.h"

/* say - one line of what was done: to report, or as a warning when report is NULL */
static void say(FILE *report, const char *fmt, ...) __printf(2, 3);
static void say(FILE *report, const char *fmt, ...)
{
	char msg[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (report)
		fprintf(report, "%s\n", msg);
	else
		warn_msg("a killed deferbench left this behind: %s", msg);
}

static const char *const instance_dirs[] = {
	"/sys/kernel/tracing/instances",
	"/sys/kernel/debug/tracing/instances",
};

bool leftovers_pid_is_deferbench(pid_t pid)
{
	char file[PATH_MAX], err[ERRBUF_LEN];
	const char *dir = owned_dir();
	struct thread_info ti;
	struct owned_file f;
	bool alive;

	if (knob_thread_info_read(pid, &ti) || ti.state == 'Z' || ti.state == 'X')
		return false;
	if (!strcmp(ti.comm, "deferbench"))
		return true;
	/*
	 * a program built on deferbench's code under another name (its unit tests, the
	 * tools) journals what it makes before making it: its journal file, written by
	 * this very process (pid and start time), says it is alive. In CI a restore
	 * removed a live unit test's cyclictest directory, named for a pid not called
	 * deferbench.
	 */
	if (!dir ||
	    snprintf(file, sizeof(file), "%s/%d.json", dir, (int)pid) >= (int)sizeof(file) ||
	    owned_load(file, &f, err))
		return false;
	alive = owned_alive(&f);
	owned_free(&f);
	return alive;
}

/* name_pid - the pid in "<prefix><digits><end...>"; 0 when it does not match */
static pid_t name_pid(const char *name, const char *prefix, const char *ends)
{
	size_t n = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]))
		return 0;
	pid = strtol(name + n, &end, 10);
	if (pid <= 0 || !strchr(ends, *end))
		return 0;
	return (pid_t)pid;
}

/*
 * instance_rmdir - rmdir a tracefs instance; 0 also when another process removed it
 * first: another deferbench sweeping the same dead run's leftovers. tracefs unlinks the
 * trace array before the directory, and an rmdir between the two finds the directory
 * but no instance: ENODEV (instance_rmdir() in kernel/trace/trace.c), not ENOENT.
 */
static int instance_rmdir(const char *path)
{
	if (!rmdir(path) || errno == ENOENT || errno == ENODEV)
		return 0;
	return -1;
}

/* remove_instances - rmdir tracefs instances deferbench-<dead pid> */
static int remove_instances(FILE *report)
{
	struct stat seen = { 0 }, st;
	char path[512];
	struct dirent *de;
	int failed = 0;
	size_t i;
	DIR *d;

	for (i = 0; i < ARRAY_SIZE(instance_dirs); i++) {
		if (stat(instance_dirs[i], &st) || (st.st_dev == seen.st_dev && st.st_ino == seen.st_ino))
			continue;	/* not mounted, or the same tracefs twice */
		seen = st;
		d = opendir(instance_dirs[i]);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			pid_t pid = name_pid(de->d_name, NAME_INSTANCE_PREFIX, "");

			if (!pid || leftovers_pid_is_deferbench(pid))
				continue;
			snprintf(path, sizeof(path), "%s/%s", instance_dirs[i], de->d_name);
			if (instance_rmdir(path)) {
				err_msg("removing tracefs instance %s: %s", path, strerror(errno));
				failed++;
			} else {
				say(report, "removed tracefs instance %s", path);
			}
		}
		closedir(d);
	}
	return failed;
}

/* unescape - mountinfo writes ' ', '\t', '\n' and '\\' as \ooo */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[2]) &&
		    isdigit((unsigned char)s[3])) {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* under - path is dir or inside it */
static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

/* unmount_under - detach every mount at or below dir, the last mounted first */
static int unmount_under(const char *dir, FILE *report)
{
	char *text = read_whole_file("/proc/self/mountinfo", NULL), *line, *save = NULL;
	char *mps[64];
	int n = 0, failed = 0;

	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line && n < 64; line = strtok_r(NULL, "\n", &save)) {
		char *mp = line;
		int f;

		for (f = 0; f < 4 && mp; f++)
			mp = strchr(mp, ' ') ? strchr(mp, ' ') + 1 : NULL;
		if (!mp)
			continue;
		mp[strcspn(mp, " ")] = '\0';
		unescape(mp);
		if (under(mp, dir))
			mps[n++] = mp;
	}
	while (n--) {
		if (umount2(mps[n], MNT_DETACH)) {
			err_msg("unmounting %s: %s", mps[n], strerror(errno));
			failed++;
		} else {
			say(report, "unmounted %s", mps[n]);
		}
	}
	free(text);
	return failed;
}

/* detach_loops - loop devices whose backing file is inside dir */
static void detach_loops(const char *dir, FILE *report)
{
	char path[512], file[4096];
	struct dirent *de;
	DIR *d = opendir("/sys/block");
	int fd;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4) || strchr(de->d_name, '/'))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", de->d_name);
		if (read_file(path, file, sizeof(file)) || !under(file, dir))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && !ioctl(fd, LOOP_CLR_FD, 0))
			say(report, "detached %s (%s)", path, file);
		if (fd >= 0)
			close(fd);
	}
	closedir(d);
}

/*
 * results_removed - what removing results at path (WHAT: "unfinished", "replaced") came
 * to, said: 0 removed, 2 kept (it holds files deferbench did not write), 1 failed
 */
static int results_removed(int ret, const char *path, const char *what, FILE *report)
{
	if (ret == -ENOTEMPTY) {
		say(report, "kept %s: it holds files deferbench did not write; it is yours now, "
		    "deferbench forgets it", path);
		return 2;
	}
	if (ret) {
		err_msg("removing %s: %s", path, strerror(-ret));
		return 1;
	}
	say(report, "removed the %s results %s", what, path);
	return 0;
}

/* remove_tmpdir - a deferbench-* temporary directory, what is mounted there first */
static int remove_tmpdir(const char *path, FILE *report)
{
	int failed = unmount_under(path, report);

	detach_loops(path, report);
	if (path_rm_rf(path)) {
		err_msg("removing %s: some files remain", path);
		return failed + 1;
	}
	say(report, "removed %s", path);
	return failed;
}

/* remove_tmp_dirs - /tmp/deferbench-block-<dead pid>-* and -timer- owned by us */
static int remove_tmp_dirs(FILE *report)
{
	static const char *const prefixes[] = { NAME_BLOCK_DIR_DEFAULT, NAME_TIMER_DIR };
	char path[512];
	struct dirent *de;
	struct stat st;
	int failed = 0;
	size_t i;
	DIR *d = opendir("/tmp");

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		for (i = 0; i < ARRAY_SIZE(prefixes); i++) {
			pid_t pid = name_pid(de->d_name, strrchr(prefixes[i], '/') + 1, "-");

			if (!pid || leftovers_pid_is_deferbench(pid))
				continue;
			snprintf(path, sizeof(path), "/tmp/%s", de->d_name);
			if (lstat(path, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
				continue;
			failed += remove_tmpdir(path, report);
		}
	}
	closedir(d);
	return failed;
}

/* base_has_pid - the last component of path is "<prefix><digits>" or has "<infix><digits>" */
static bool base_ends_pid(const char *path, const char *infix)
{
	const char *base = strrchr(path, '/'), *p;

	base = base ? base + 1 : path;
	p = strstr(base, infix);
	if (!p || !isdigit((unsigned char)p[strlen(infix)]))
		return false;
	for (p += strlen(infix); isdigit((unsigned char)*p); p++)
		;
	return !*p;
}

static bool base_starts(const char *path, const char *prefix)
{
	const char *base = strrchr(path, '/');

	return !strncmp(base ? base + 1 : path, prefix, strlen(prefix));
}

/* is_tracefs_mount - path is the mount point of a tracefs */
static bool is_tracefs_mount(const char *path)
{
	char *text = read_whole_file("/proc/self/mounts", NULL), *line, *save = NULL;
	bool found = false;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char dev[64], mp[PATH_MAX], type[32];

		if (sscanf(line, "%63s %4095s %31s", dev, mp, type) == 3) {
			unescape(mp);
			found = !strcmp(type, "tracefs") && !strcmp(mp, path);
		}
	}
	free(text);
	return found;
}

/* live_instance - a tracefs instance of a deferbench that still runs, under mp */
static bool live_instance(const char *mp, char *name, size_t len)
{
	char dir[PATH_MAX + 16];
	struct dirent *de;
	bool live = false;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/instances", mp);
	d = opendir(dir);
	if (!d)
		return false;
	while (!live && (de = readdir(d))) {
		pid_t pid = name_pid(de->d_name, NAME_INSTANCE_PREFIX, "");

		if (pid && leftovers_pid_is_deferbench(pid)) {
			snprintf(name, len, "%s", de->d_name);
			live = true;
		}
	}
	closedir(d);
	return live;
}

/* option_of_tracefs - path is MOUNT/options/NAME of a tracefs mounted at MOUNT */
static bool option_of_tracefs(const char *path, const char *name)
{
	char mp[PATH_MAX], tail[PATH_MAX];
	size_t n = strlen(path);

	snprintf(tail, sizeof(tail), "/options/%s", name);
	if (n <= strlen(tail) || strcmp(path + n - strlen(tail), tail) ||
	    n - strlen(tail) >= sizeof(mp))
		return false;
	snprintf(mp, sizeof(mp), "%.*s", (int)(n - strlen(tail)), path);
	return is_tracefs_mount(mp);
}

/*
 * softirq_trigger - path is INSTANCE/events/irq/softirq_entry/trigger of a deferbench
 * instance (record --stacks sets its stacktrace trigger there)
 */
static bool softirq_trigger(const char *path)
{
	static const char tail[] = "/events/irq/softirq_entry/trigger";
	char inst[PATH_MAX];
	size_t n = strlen(path);

	if (n <= strlen(tail) || strcmp(path + n - strlen(tail), tail) ||
	    n - strlen(tail) >= sizeof(inst))
		return false;
	snprintf(inst, sizeof(inst), "%.*s", (int)(n - strlen(tail)), path);
	return base_starts(inst, NAME_INSTANCE_PREFIX) &&
	       base_ends_pid(inst, NAME_INSTANCE_PREFIX) && strstr(inst, "/instances/");
}

/*
 * clean_one - undo one journaled resource; 0 when it is gone, 1 when it stays, 2 when
 * it stays on purpose (a staging directory holding the user's files: reported once,
 * then no longer deferbench's to remove, nor a reason for restore to fail). Each
 * kind is checked to be what deferbench makes before anything is removed: a damaged
 * file must not make restore delete what is not deferbench's.
 */
static int clean_one(const struct owned_file *f, const struct owned_res *r, FILE *report)
{
	char target[PATH_MAX], name[256], ns[64];
	struct stat st;
	int ret;

	if (lstat(r->path, &st) && errno == ENOENT && r->kind != OWN_MOUNT)
		return 0;	/* already gone */
	switch (r->kind) {
	case OWN_INSTANCE:
		if (!base_starts(r->path, NAME_INSTANCE_PREFIX) ||
		    !base_ends_pid(r->path, NAME_INSTANCE_PREFIX))
			break;
		if (instance_rmdir(r->path)) {
			err_msg("removing tracefs instance %s: %s", r->path, strerror(errno));
			return 1;
		}
		say(report, "removed tracefs instance %s", r->path);
		return 0;
	case OWN_MOUNT:
		/* a mount belongs to its namespace: that of a dead run is gone with it */
		owned_mnt_ns_self(ns, sizeof(ns));
		if (f->mnt_ns[0] && strcmp(f->mnt_ns, ns))
			return 0;
		if (!is_tracefs_mount(r->path))
			return 0;	/* unmounted since, or never mounted */
		if (live_instance(r->path, name, sizeof(name))) {
			say(report, "kept the tracefs mount at %s: %s still uses it", r->path, name);
			return 1;
		}
		if (umount(r->path)) {
			err_msg("unmounting %s: %s", r->path, strerror(errno));
			return 1;
		}
		say(report, "unmounted the tracefs deferbench mounted at %s", r->path);
		return 0;
	case OWN_STAGING:
		if (!base_ends_pid(r->path, ".partial-") || !S_ISDIR(st.st_mode))
			break;
		/* what its log says the writer made (outw.h); an older deferbench's: by name */
		ret = outw_staging_remove(r->path);
		if (ret == -ENOENT)
			ret = outdir_results_remove(r->path);
		return results_removed(ret, r->path, "unfinished", report);
	case OWN_OLD:
		if (!base_ends_pid(r->path, ".old-"))
			break;
		/* killed between moving the old results aside and the new ones in */
		snprintf(target, sizeof(target), "%s", r->path);
		*strrchr(target, '.') = '\0';
		if (lstat(target, &st) && errno == ENOENT && !rename(r->path, target)) {
			say(report, "put the earlier results %s back as %s", r->path, target);
			return 0;
		}
		return results_removed(outdir_results_remove(r->path), r->path, "replaced",
				       report);
	case OWN_TMPDIR:
		if (!base_starts(r->path, "deferbench-") || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid())
			break;
		return remove_tmpdir(r->path, report) ? 1 : 0;
	case OWN_OPTION_OFF:
		/* only the one option record turns off, in a tracefs mount's top level */
		if (!S_ISREG(st.st_mode) || !option_of_tracefs(r->path, "record-cmd"))
			break;
		ret = write_file(r->path, "1");
		if (ret) {
			err_msg("turning %s back on: %s", r->path, strerror(-ret));
			return 1;
		}
		say(report, "turned the tracefs option %s back on", r->path);
		return 0;
	case OWN_TRIGGER:
		/* removed before its instance (newest first); rmdir would drop it too */
		if (!S_ISREG(st.st_mode) || !softirq_trigger(r->path))
			break;
		ret = write_file(r->path, "!stacktrace");
		/* a capture killed while paused had taken it off already */
		if (ret && ret != -ENOENT) {
			err_msg("removing the stacktrace trigger %s: %s", r->path, strerror(-ret));
			return 1;
		}
		say(report, "removed the stacktrace trigger %s", r->path);
		return 0;
	default:
		break;
	}
	err_msg("not removing %s (journaled as %s): not a name deferbench makes", r->path,
		owned_kind_names[r->kind]);
	return 1;
}

/*
 * sweep_tmp - the "NAME.tmp.PID" files write_atomic_file() of a dead process left in dir (a
 * journal killed while it was rewritten): removed, and said. NAME must end in .json.
 * Returns how many could not be removed.
 */
static int sweep_tmp(const char *dir, FILE *report)
{
	char path[PATH_MAX];
	struct dirent *de;
	const char *t;
	int failed = 0;
	pid_t pid;
	DIR *d;

	if (!dir || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		t = strstr(de->d_name, ".json.tmp.");
		if (!t || !(pid = name_pid(t + strlen(".json"), ".tmp.", "")) ||
		    leftovers_pid_is_deferbench(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path) && errno != ENOENT) {
			err_msg("removing %s: %s", path, strerror(errno));
			failed++;
			continue;
		}
		say(report, "removed %s, half a journal a killed deferbench was writing", path);
	}
	closedir(d);
	return failed;
}

int leftovers_remove_owned(const char *dir, FILE *report)
{
	char file[PATH_MAX], err[ERRBUF_LEN];
	struct owned_file f;
	struct dirent *de;
	int failed = 0, i, left, ret;
	DIR *d;

	if (!dir || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		pid_t pid = name_pid(de->d_name, "", ".");

		if (!pid || strcmp(strchr(de->d_name, '.'), ".json"))
			continue;
		snprintf(file, sizeof(file), "%s/%s", dir, de->d_name);
		ret = owned_load(file, &f, err);
		if (ret == -ENOENT)
			continue;	/* its process removed it since readdir: nothing left */
		if (ret) {
			err_msg("%s; remove it once what it lists is gone", err);
			failed++;
			continue;
		}
		if (owned_alive(&f)) {
			owned_free(&f);
			continue;
		}
		/* newest first: an instance goes before the tracefs mount it lives in */
		for (i = f.n - 1, left = 0; i >= 0; i--) {
			int r = clean_one(&f, &f.res[i], report);

			if (r != 1) {
				memmove(&f.res[i], &f.res[i + 1], (f.n - i - 1) * sizeof(f.res[0]));
				f.n--;
			} else {
				left++;
			}
		}
		if (owned_save(&f)) {
			err_msg("cannot update %s", file);
			failed++;
		}
		failed += left;
		owned_free(&f);
	}
	closedir(d);
	return failed + sweep_tmp(dir, report);
}

int leftovers_remove(FILE *report)
{
	char jdir[PATH_MAX], *slash;
	int failed = leftovers_remove_owned(owned_dir(), report);

	/* the knobs journal's directory: its half-written copies too */
	snprintf(jdir, sizeof(jdir), "%s", journal_path());
	slash = strrchr(jdir, '/');
	if (slash && slash != jdir) {
		*slash = '\0';
		failed += sweep_tmp(jdir, report);
	}

	if (geteuid() != 0)
		return failed;	/* instances and /tmp names of other users are not ours */
	return failed + remove_instances(report) + remove_tmp_dirs(report);
}
