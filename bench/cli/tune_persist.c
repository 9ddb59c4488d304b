// SPDX-License-Identifier: GPL-2.0
/*
 * tune_persist.c - the settings tune decided, in the forms that survive a reboot,
 * written beside apply.sh into DIR/persist/ and installed by nobody (docs/tune.md,
 * "Settings that survive a reboot"):
 *
 *   kernel-cmdline.txt   the workqueue parameters that have a boot parameter
 *                        (workqueue.default_affinity_scope=, .cpu_intensive_thresh_us=,
 *                        .unbound_cpus= for wq.cpumask): set before any workqueue exists
 *   tmpfiles.conf        systemd-tmpfiles 'w' lines for workqueue sysfs attributes (and,
 *                        commented out, the parameters kernel-cmdline.txt sets)
 *   sysctl.conf          sysctl.d lines for sysctl.net.core.*
 *   udev.rules           udev rules for network device attributes (netdev.<dev>.*)
 *   deferbench-tune.service  a oneshot unit for kernel thread priorities (sched.*)
 *
 * Each file opens with NOT INSTALLED and says where it goes and how to apply it. Only
 * the files some setting needs are written. Pure but for the files: the values are the
 * knobs' canonical ones, as knob_parse() makes them (masks against `online`).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knobs.h"
#include "msg.h"
#include "outw.h"
#include "cpulist.h"
#include "parse.h"
#define DEFERBENCH_ALLOW_TUNE_INT_H
#include "tune_int.h"

enum persist_file { PF_CMDLINE, PF_TMPFILES, PF_SYSCTL, PF_UDEV, PF_UNIT, PF_NR };

static const struct {
	const char *name;	/* under DIR/persist/ */
	const char *install;	/* how it is installed, and applied before a reboot */
} persist_files[PF_NR] = {
	[PF_CMDLINE] = { "kernel-cmdline.txt", "add the line below to the kernel command "
			 "line (GRUB_CMDLINE_LINUX in /etc/default/grub, then update-grub) and "
			 "reboot; workqueue.unbound_cpus needs Linux 6.6 or later" },
	[PF_TMPFILES] = { "tmpfiles.conf", "copy it to /etc/tmpfiles.d/deferbench-tune.conf "
			  "(applied at each boot; now: systemd-tmpfiles --create "
			  "/etc/tmpfiles.d/deferbench-tune.conf)" },
	[PF_SYSCTL] = { "sysctl.conf", "copy it to /etc/sysctl.d/90-deferbench-tune.conf "
			"(applied at each boot; now: sysctl -p "
			"/etc/sysctl.d/90-deferbench-tune.conf)" },
	[PF_UDEV] = { "udev.rules", "copy it to /etc/udev/rules.d/90-deferbench-tune.rules "
		      "(applied when each device appears; now: udevadm control --reload && "
		      "udevadm trigger --action=add --subsystem-match=net)" },
	[PF_UNIT] = { "deferbench-tune.service", "copy it to "
		      "/etc/systemd/system/deferbench-tune.service, then systemctl daemon-reload "
		      "&& systemctl enable --now deferbench-tune.service (threads of CPUs "
		      "brought online later are not covered)" },
};

/* the boot parameter of a workqueue module parameter or of wq.cpumask, or NULL */
static const char *boot_param(const struct knob *k)
{
	if (k->type->cls == KNOB_WQ_PARAM)
		return k->type->attr;		/* workqueue.<name>= */
	if (k->type->cls == KNOB_WQ_UNBOUND)
		return "unbound_cpus";		/* Linux 6.6+: a CPU list */
	return NULL;
}

struct persist {
	FILE *f[PF_NR];			/* the lines of each file, in memory (open_memstream) */
	char *text[PF_NR];
	size_t len[PF_NR];
};

static int add(struct persist *p, enum persist_file f, const char *fmt, ...) __printf(3, 4);

static int add(struct persist *p, enum persist_file f, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->f[f])
		p->f[f] = open_memstream(&p->text[f], &p->len[f]);
	if (!p->f[f])
		return -ENOMEM;
	va_start(ap, fmt);
	n = vfprintf(p->f[f], fmt, ap);
	va_end(ap);
	return n < 0 ? -ENOMEM : 0;
}

/* sched_cmd - the shell command that gives thread $p the policy of spec */
static int sched_cmd(const char *spec, char *buf, size_t len, char *errbuf)
{
	struct sched_spec sp;

	if (knob_sched_spec_parse(spec, &sp, errbuf))
		return -EINVAL;
	switch (sp.policy) {
	case SCHED_FIFO:
	case SCHED_RR:
		snprintf(buf, len, "chrt %s -p %d $$p", sp.policy == SCHED_FIFO ? "-f" : "-r",
			 sp.prio);
		break;
	case SCHED_IDLE:
		snprintf(buf, len, "chrt -i -p 0 $$p");
		break;
	default:
		snprintf(buf, len, "chrt %s -p 0 $$p && renice -n %d -p $$p >/dev/null",
			 sp.policy == SCHED_BATCH ? "-b" : "-o", sp.nice);
	}
	return 0;
}

/* one_knob - the lines knob k needs, in the files it belongs to */
static int one_knob(struct persist *p, const struct knob *k, char *errbuf)
{
	const char *param = boot_param(k), *thread;
	char path[TGT_PATH_MAX], cmd[96], list[256];
	cpu_set_t set;
	int ret = 0;

	switch (k->type->cls) {
	case KNOB_WQ_ATTR:
		return add(p, PF_TMPFILES, "w %s/%s/%s - - - - %s\n", WQ_SYSFS_DIR, k->obj,
			   k->type->attr, k->value);
	case KNOB_WQ_UNBOUND:
	case KNOB_WQ_PARAM:
		if (k->type->cls == KNOB_WQ_UNBOUND) {
			snprintf(path, sizeof(path), WQ_SYSFS_DIR "/cpumask");
			if (knob_cpumask_parse_hex(k->value, &set, errbuf))
				return -EINVAL;
			ret = add(p, PF_CMDLINE, "workqueue.%s=%s\n", param,
				  cpulist_format(&set, list, sizeof(list)));
		} else {
			snprintf(path, sizeof(path), WQ_PARAM_DIR "/%s", k->type->attr);
			ret = add(p, PF_CMDLINE, "workqueue.%s=%s\n", param, k->value);
		}
		return ret ?: add(p, PF_TMPFILES, "# kernel-cmdline.txt sets %s from boot; "
				  "without it, uncomment:\n# w %s - - - - %s\n", k->name, path,
				  k->value);
	case KNOB_SYSCTL:
		return add(p, PF_SYSCTL, "net.core.%s = %s\n", k->type->attr, k->value);
	case KNOB_NETDEV:
		if (!strcmp(k->type->attr, "rps_cpus"))
			/* one file per receive queue: a loop, since ATTR{} takes no pattern */
			return add(p, PF_UDEV, "ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\"%s\", "
				   "RUN+=\"/bin/sh -c 'for q in /sys/class/net/%s/queues/rx-*/"
				   "rps_cpus; do echo %s > $$q; done'\"\n", k->obj, k->obj,
				   k->value);
		return add(p, PF_UDEV, "ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\"%s\", "
			   "ATTR{%s}=\"%s\"\n", k->obj, k->type->attr, k->value);
	case KNOB_SCHED_KSOFTIRQD:
	case KNOB_SCHED_RT:
		/* per-CPU threads: ksoftirqd/N, PREEMPT_RT's ktimers/N, rcuc/N, ... */
		thread = k->type->cls == KNOB_SCHED_RT ? k->type->attr : "ksoftirqd";
		if (sched_cmd(k->value, cmd, sizeof(cmd), errbuf))
			return -EINVAL;
		if (k->cpu < 0)
			return add(p, PF_UNIT, "ExecStart=/bin/sh -c 'for p in $$(pgrep "
				   "\"^%s/\"); do %s || exit 1; done'\n", thread, cmd);
		return add(p, PF_UNIT, "ExecStart=/bin/sh -c 'p=$$(pgrep -x %s/%d) && "
			   "%s'\n", thread, k->cpu, cmd);
	case KNOB_SCHED_NAPI:
		return 0;	/* the probe's own veth: nothing of the machine's to keep */
	}
	return 0;
}

/* header - what the file is, that nobody installed it, how to install it */
static int header(FILE *f, enum persist_file pf, const struct tune_cand *c)
{
	fprintf(f, "# NOT INSTALLED. Written by deferbench tune: the settings of '%s' in a "
		"form that\n# survives a reboot. To install, %s.\n# apply.sh beside it sets "
		"them for this boot only; tune.json has the values they\n# replace.\n",
		c->name, persist_files[pf].install);
	if (pf == PF_UNIT)
		fprintf(f, "\n[Unit]\nDescription=deferbench tune: kernel thread scheduling of '%s'"
			"\nAfter=sysinit.target\n\n[Service]\nType=oneshot\nRemainAfterExit=yes\n",
			c->name);
	return ferror(f) ? -EIO : 0;
}

/* write_one - DIR/persist/NAME: its header and lines */
static int write_one(const char *dir, enum persist_file pf, const struct persist *p,
		     const struct tune_cand *c, char *errbuf)
{
	char path[PATH_MAX];
	FILE *f;
	char *nl;

	snprintf(path, sizeof(path), "%s/%s", dir, persist_files[pf].name);
	f = out_fopen(path);
	if (!f)
		return errno_msg(errbuf, -errno, "%s: %s", path, strerror(errno));
	header(f, pf, c);
	if (pf == PF_CMDLINE) {
		/* one line of space-separated parameters */
		for (nl = p->text[pf]; (nl = strchr(nl, '\n')) && nl[1]; )
			*nl = ' ';
	}
	fputs(p->text[pf], f);
	if (pf == PF_UNIT)
		fprintf(f, "\n[Install]\nWantedBy=multi-user.target\n");
	if (fclose(f))
		return errno_msg(errbuf, -errno, "%s: %s", path, strerror(errno));
	return 0;
}

int tune_write_persist(const char *dir, const struct tune_cand *c, const char *online,
		       char *errbuf)
{
	struct persist p = { 0 };
	struct knob k;
	int ret = 0, n = 0, i;
	size_t j;

	for (j = 0; !ret && j < c->nknobs; j++) {
		if (!strncmp(c->knob[j], "opt.", 4))
			continue;	/* an option of deferbench's probe */
		ret = knob_parse(c->knob[j], c->value[j], &k, online, errbuf);
		ret = ret ?: one_knob(&p, &k, errbuf);
	}
	for (i = 0; i < PF_NR; i++)
		if (p.f[i] && fclose(p.f[i]))
			ret = ret ?: errno_msg(errbuf, -ENOMEM, "out of memory");
	for (i = 0; !ret && i < PF_NR; i++)
		if (p.len[i]) {
			if (!n && (ret = out_mkdir(dir)))
				errno_msg(errbuf, ret, "%s: %s", dir, strerror(-ret));
			ret = ret ?: write_one(dir, (enum persist_file)i, &p, c, errbuf);
			n++;
		}
	for (i = 0; i < PF_NR; i++)
		free(p.text[i]);
	return ret ?: n;
}
