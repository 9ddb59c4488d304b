// SPDX-License-Identifier: GPL-2.0
/*
 * run_meta.c - what run.json says about the machine: kernel, preemption model, threaded
 * interrupts, the PREEMPT_RT BH lock, sched_ext, HZ, NO_HZ, command line, CPUs and
 * governor. The kernel config comes from /boot/config-$(uname -r) or /proc/config.gz;
 * the current preemption model of a PREEMPT_DYNAMIC kernel from debugfs when it is
 * mounted (deferbench mounts nothing for metadata), else from preempt= on the command
 * line, else the config's default; sched_ext's state from /sys/kernel/sched_ext.
 */
#include "run_meta.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cpulist.h"
#include "parse.h"
#include "file.h"
#include "sys.h"
#include "grow.h"

/* config_line - the value after "KEY=" on a line of the config text, or NULL */
static const char *config_line(const char *config, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = config; p && (p = strstr(p, key)); p += n)
		if ((p == config || p[-1] == '\n') && p[n] == '=')
			return p + n + 1;
	return NULL;
}

static bool config_yes(const char *config, const char *key)
{
	const char *v = config_line(config, key);

	return v && *v == 'y' && (v[1] == '\n' || !v[1]);
}

static int config_int(const char *config, const char *key)
{
	const char *v = config_line(config, key);
	char *end;
	long n;

	if (!v)
		return 0;
	n = strtol(v, &end, 10);
	return (end != v && (*end == '\n' || !*end) && n > 0 && n < 100000) ? (int)n : 0;
}

/* preempt_debugfs - "none voluntary (full) lazy": the current one is in parentheses */
static bool preempt_debugfs(struct run_meta *m, const char *s)
{
	const char *open = s ? strchr(s, '(') : NULL, *close = open ? strchr(open, ')') : NULL;

	if (!close || close - open < 2 || close - open > (long)sizeof(m->preempt))
		return false;
	snprintf(m->preempt, sizeof(m->preempt), "%.*s", (int)(close - open - 1), open + 1);
	snprintf(m->preempt_source, sizeof(m->preempt_source), "debugfs");
	return true;
}

/* preempt_cmdline - preempt=MODE chooses the model of a PREEMPT_DYNAMIC kernel */
static bool preempt_cmdline(struct run_meta *m, const char *cmdline)
{
	const char *p;

	for (p = cmdline; p && (p = strstr(p, "preempt=")); p++)
		if (p == cmdline || p[-1] == ' ') {
			p += 8;
			snprintf(m->preempt, sizeof(m->preempt), "%.*s", (int)strcspn(p, " \n"), p);
			snprintf(m->preempt_source, sizeof(m->preempt_source), "cmdline");
			return m->preempt[0] != '\0';
		}
	return false;
}

/* preempt_config - the model the kernel was built with (its default if dynamic) */
static bool preempt_config(struct run_meta *m, const char *config)
{
	static const struct {
		const char *key, *name;
	} models[] = {
		{ "CONFIG_PREEMPT_RT", "rt" },
		{ "CONFIG_PREEMPT_LAZY", "lazy" },
		{ "CONFIG_PREEMPT", "full" },
		{ "CONFIG_PREEMPT_VOLUNTARY", "voluntary" },
		{ "CONFIG_PREEMPT_NONE", "none" },
	};
	size_t i;

	for (i = 0; config && i < ARRAY_SIZE(models); i++)
		if (config_yes(config, models[i].key)) {
			snprintf(m->preempt, sizeof(m->preempt), "%s", models[i].name);
			snprintf(m->preempt_source, sizeof(m->preempt_source), "config");
			return true;
		}
	return false;
}

/* preempt_uname - "#1 SMP PREEMPT_DYNAMIC ...": the last resort */
static void preempt_uname(struct run_meta *m, const char *v)
{
	const char *model = "unknown";

	if (v && strstr(v, "PREEMPT_RT"))
		model = "rt";
	else if (v && strstr(v, "PREEMPT_DYNAMIC"))
		model = "unknown";	/* dynamic: the build does not say which */
	else if (v && strstr(v, "PREEMPT_LAZY"))
		model = "lazy";
	else if (v && strstr(v, "PREEMPT"))
		model = "full";
	else if (v)
		model = "none";
	snprintf(m->preempt, sizeof(m->preempt), "%s", model);
	snprintf(m->preempt_source, sizeof(m->preempt_source), "uname");
}

/* cmdline_word - word (or word=...) is on the command line */
static bool cmdline_word(const char *cmdline, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = cmdline; p && (p = strstr(p, word)); p += n)
		if ((p == cmdline || p[-1] == ' ') && (!p[n] || p[n] == ' ' || p[n] == '\n' ||
						       p[n] == '='))
			return true;
	return false;
}

/* config_unset - "# KEY is not set": the option exists in this kernel, off */
static bool config_unset(const char *config, const char *key)
{
	char line[96];

	snprintf(line, sizeof(line), "# %s is not set", key);
	return config && strstr(config, line);
}

/*
 * threaded - how interrupts and softirqs run: force_irqthreads() is true on PREEMPT_RT
 * and with threadirqs (then ktimers/N run the timer softirqs, kernel/softirq.c); on
 * PREEMPT_RT, CONFIG_PREEMPT_RT_NEEDS_BH_LOCK (6.18) keeps local_bh_disable()'s per-CPU
 * lock, which kernels before it always took
 */
static void threaded(struct run_meta *m, const char *config, const char *cmdline)
{
	bool rt = !strcmp(m->preempt, "rt") ||
		  (config && config_yes(config, "CONFIG_PREEMPT_RT"));

	if (rt || (cmdline_word(cmdline, "threadirqs") &&
		   (!config || config_yes(config, "CONFIG_IRQ_FORCED_THREADING"))))
		snprintf(m->threadirqs, sizeof(m->threadirqs), "yes");
	else if (config || m->preempt_source[0])
		snprintf(m->threadirqs, sizeof(m->threadirqs), "no");
	if (!rt || !config)
		return;
	if (config_yes(config, "CONFIG_PREEMPT_RT_NEEDS_BH_LOCK"))
		snprintf(m->rt_bh_lock, sizeof(m->rt_bh_lock), "yes");
	else if (config_unset(config, "CONFIG_PREEMPT_RT_NEEDS_BH_LOCK"))
		snprintf(m->rt_bh_lock, sizeof(m->rt_bh_lock), "no");
	else
		snprintf(m->rt_bh_lock, sizeof(m->rt_bh_lock), "yes (before 6.18)");
}

void run_meta_sched_ext(struct run_meta *m, const char *state, const char *ops)
{
	size_t n;

	if (!state || !*state) {
		snprintf(m->sched_ext, sizeof(m->sched_ext), "none");
		return;
	}
	n = strcspn(state, "\n");
	if (ops && *ops && !strncmp(state, "enabled", n))
		snprintf(m->sched_ext, sizeof(m->sched_ext), "%.*s (%.*s)", (int)n, state,
			 (int)strcspn(ops, "\n"), ops);
	else
		snprintf(m->sched_ext, sizeof(m->sched_ext), "%.*s", (int)n, state);
}

void run_meta_kernel(struct run_meta *m, const char *config, const char *uname_v,
		     const char *dbg_preempt, const char *cmdline)
{
	m->preempt_dynamic = (config && config_yes(config, "CONFIG_PREEMPT_DYNAMIC")) ||
			     (uname_v && strstr(uname_v, "PREEMPT_DYNAMIC"));
	if (!preempt_debugfs(m, dbg_preempt) &&
	    !(m->preempt_dynamic && preempt_cmdline(m, cmdline)) &&
	    !preempt_config(m, config))
		preempt_uname(m, uname_v);
	m->threadirqs[0] = m->rt_bh_lock[0] = '\0';
	threaded(m, config, cmdline);
	m->hz = config ? config_int(config, "CONFIG_HZ") : 0;
	m->nohz[0] = '\0';
	if (config && config_yes(config, "CONFIG_NO_HZ_FULL"))
		snprintf(m->nohz, sizeof(m->nohz), "full");
	else if (config && config_yes(config, "CONFIG_NO_HZ_IDLE"))
		snprintf(m->nohz, sizeof(m->nohz), "idle");
	else if (config && config_yes(config, "CONFIG_HZ_PERIODIC"))
		snprintf(m->nohz, sizeof(m->nohz), "periodic");
}

/* read_config - the running kernel's config text, or NULL (caller frees) */
static char *read_config(const char *release)
{
	char path[256], *text = NULL;
	size_t len = 0, cap = 0;
	char buf[65536];
	size_t n;
	FILE *p;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	text = read_whole_file(path, NULL);
	if (text)
		return text;
	if (access("/proc/config.gz", R_OK))
		return NULL;
	/* a fixed command, no user input: gzip is everywhere config.gz is */
	p = popen("gzip -dc /proc/config.gz 2>/dev/null", "r");
	if (!p)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0) {
		if (GROW(text, cap, len + n + 1))
			break;
		memcpy(text + len, buf, n);
		len += n;
		text[len] = '\0';
	}
	if (pclose(p) && text) {
		free(text);
		text = NULL;
	}
	return text;
}

/* cpu_model - "model name" (x86), "Hardware" or "Model" (arm) in /proc/cpuinfo */
static void cpu_model(char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "Hardware", "Model", "cpu model" };
	char *text = read_whole_file("/proc/cpuinfo", NULL), *p, *colon;
	size_t i;

	snprintf(buf, len, "unknown");
	for (i = 0; text && i < ARRAY_SIZE(keys); i++) {
		for (p = text; (p = strstr(p, keys[i])); p++) {
			if (p != text && p[-1] != '\n')
				continue;
			colon = strchr(p, ':');
			if (!colon)
				break;
			colon += 1 + strspn(colon + 1, " \t");
			snprintf(buf, len, "%.*s", (int)strcspn(colon, "\n"), colon);
			free(text);
			return;
		}
	}
	free(text);
}

void run_meta_collect(struct run_meta *m)
{
	char *config, dbg[128], *dbgp = NULL, scx[64], ops[64];
	struct utsname u;
	cpu_set_t set;

	memset(m, 0, sizeof(*m));
	uname(&u);
	snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	if (host_name(m->hostname, sizeof(m->hostname)))
		snprintf(m->hostname, sizeof(m->hostname), "unknown");
	m->cpus = cpulist_online(&set);
	cpu_model(m->cpu_model, sizeof(m->cpu_model));
	read_file("/proc/cmdline", m->cmdline, sizeof(m->cmdline));
	if (read_file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", m->governor,
		      sizeof(m->governor)))
		m->governor[0] = '\0';
	if (!read_file("/sys/kernel/debug/sched/preempt", dbg, sizeof(dbg)))
		dbgp = dbg;
	config = read_config(u.release);
	run_meta_kernel(m, config, u.version, dbgp, m->cmdline);
	free(config);
	run_meta_sched_ext(m, read_file("/sys/kernel/sched_ext/state", scx, sizeof(scx)) ? NULL :
			   scx, read_file("/sys/kernel/sched_ext/root/ops", ops, sizeof(ops)) ?
			   NULL : ops);
	iso_time_now(m->started, sizeof(m->started));
}

/* clean - a name safe as one path component: no '/', no leading '.' */
static void clean(char *s)
{
	char *p;

	for (p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-')
			*p = '_';
	for (p = s; *p == '.'; p++)
		*p = '_';
	if (!*s)
		strcpy(s, "_");
}

int run_dir_default(char *buf, size_t len, const char *host, const char *kernel, time_t t,
		    const char *scenario)
{
	char h[128], k[128], ts[32];
	struct tm tm;

	snprintf(h, sizeof(h), "%s", host);
	snprintf(k, sizeof(k), "%s", kernel);
	clean(h);
	clean(k);
	gmtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
	if ((size_t)snprintf(buf, len, "results/%s/%s/%s-%s", h, k, ts, scenario) >= len)
		return -ENAMETOOLONG;
	return 0;
}
