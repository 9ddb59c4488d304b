// SPDX-License-Identifier: GPL-2.0
/*
 * leftovers.c - remove the tracefs instances and temporary directories of deferbench
 * processes that died without cleaning up. Only names deferbench itself makes are
 * touched, and only when their pid no longer runs deferbench.
 */
#include "leftovers.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knobs.h"
#include "names.h"
#include "util.h"

static const char *const instance_dirs[] = {
	"/sys/kernel/tracing/instances",
	"/sys/kernel/debug/tracing/instances",
};

bool pid_is_deferbench(pid_t pid)
{
	struct thread_info ti;

	return !thread_info_read(pid, &ti) && ti.state != 'Z' && ti.state != 'X' &&
	       !strcmp(ti.comm, "deferbench");
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

			if (!pid || pid_is_deferbench(pid))
				continue;
			snprintf(path, sizeof(path), "%s/%s", instance_dirs[i], de->d_name);
			if (rmdir(path)) {
				err_msg("removing tracefs instance %s: %s", path, strerror(errno));
				failed++;
			} else {
				fprintf(report, "removed tracefs instance %s\n", path);
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
	char *text = read_file_alloc("/proc/self/mountinfo", NULL), *line, *save = NULL;
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
			fprintf(report, "unmounted %s\n", mps[n]);
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
			fprintf(report, "detached %s (%s)\n", path, file);
		if (fd >= 0)
			close(fd);
	}
	closedir(d);
}

/* remove_block_dirs - /tmp/deferbench-block-<dead pid>-* owned by us */
static int remove_block_dirs(FILE *report)
{
	const char *prefix = strrchr(NAME_BLOCK_DIR_DEFAULT, '/') + 1;
	char path[512];
	struct dirent *de;
	struct stat st;
	int failed = 0;
	DIR *d = opendir("/tmp");

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid_t pid = name_pid(de->d_name, prefix, "-");

		if (!pid || pid_is_deferbench(pid))
			continue;
		snprintf(path, sizeof(path), "/tmp/%s", de->d_name);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		failed += unmount_under(path, report);
		detach_loops(path, report);
		if (rm_rf(path)) {
			err_msg("removing %s: some files remain", path);
			failed++;
		} else {
			fprintf(report, "removed %s\n", path);
		}
	}
	closedir(d);
	return failed;
}

int leftovers_remove(FILE *report)
{
	return remove_instances(report) + remove_block_dirs(report);
}
