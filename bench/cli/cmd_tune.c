// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_tune.c - `deferbench tune`: the configuration for the user's own workload,
 * decided on the live machine (docs/tune.md).
 *
 *   command started -> survey: a capture of its first seconds, the groups of deferred
 *   work that carry most of the wait ranked (tune.h), candidates from them and --try ->
 *   DIR/tune.ini: one alternating segment, the machine as it is against every candidate,
 *   the running command adopted as its workload (or, with --probe, one of deferbench's
 *   workloads measured beside it) -> deferbench run of it into DIR/run -> advise ->
 *   the answer, DIR/tune.json, and with --apply the settings as a script (and, =now,
 *   on the machine with a journal that `deferbench restore` undoes).
 *
 * --verify DIR alternates the applied settings with the ones they replaced (tune.json)
 * and says whether the gain held.
 */
#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "advise.h"
#include "capture.h"
#include "cli.h"
#include "jsonread.h"
#include "jsonw.h"
#include "knobs.h"
#include "leftovers.h"
#include "result_files.h"
#include "rundir.h"
#include "tune.h"
#include "workload.h"
#include "file.h"
#include "msg.h"
#include "proc.h"
#include "outw.h"
#include "parse.h"
#include "placement.h"
#include "sys.h"
#define DEFERBENCH_ALLOW_TUNE_INT_H
#include "tune_int.h"

/* set_probe - --probe WORKLOAD: one of the workloads that measure their own latency */
static int set_probe(const struct opt_desc *o __unused, const char *arg, void *args,
		     char *errbuf)
{
	((struct tune_args *)args)->probe = tune_probe_named(arg);
	if (!((struct tune_args *)args)->probe)
		return set_err(errbuf, "'%s' is not a probe (net, timer, tty, audio, block)", arg);
	return 0;
}

/* set_metric_format - --latency-format FORMAT */
static int set_metric_format(const struct opt_desc *o __unused, const char *arg, void *args,
			     char *errbuf)
{
	((struct tune_args *)args)->metric_format = tune_format_named(arg);
	if (!((struct tune_args *)args)->metric_format)
		return set_err(errbuf, "'%s' is not a latency format (auto, line, fio, ping, "
			       "intervals)", arg);
	return 0;
}

/* set_allow - --allow CLASSES */
static int set_allow(const struct opt_desc *o __unused, const char *arg, void *args,
		     char *errbuf)
{
	return tune_allow_parse(arg, &((struct tune_args *)args)->allow, errbuf) ? -EINVAL : 0;
}

/* set_phase - --phase DUR: a multiple of 500ms, at least 1s (the interval grid) */
static int set_phase(const struct opt_desc *o __unused, const char *arg, void *args,
		     char *errbuf)
{
	uint64_t *ns = &((struct tune_args *)args)->phase_ns;

	if (parse_duration_ns(arg, ns, errbuf))
		return -EINVAL;
	if (*ns < NSEC_PER_SEC || *ns % (500 * NSEC_PER_MSEC))
		return set_err(errbuf, "%s is not a multiple of 500ms of at least 1s", arg);
	return 0;
}

/* set_apply - --apply[=now] */
static int set_apply(const struct opt_desc *o __unused, const char *arg, void *args,
		     char *errbuf)
{
	if (arg && strcmp(arg, "now"))
		return set_err(errbuf, "'%s' is not 'now'", arg);
	((struct tune_args *)args)->apply = arg ? 2 : 1;
	return 0;
}

static const struct opt_desc tune_opts[] = {
	OPT_DURATION('d', "duration", tune_args, duration_ns, "DUR", NSEC_PER_SEC, 0,
		     "how long to alternate the candidates (the command must run that long "
		     "after the survey)"),
	CLI_OPT_OUTPUT(tune_args, out_dir, "DIR",
		       "where the survey, the run, tune.json and apply.sh go (default "
		       "results/<host>/<kernel>/<time>-tune)"),
	OPT_STRING(0, "latency", tune_args, metric, "FILE",
		   "your workload's own latency, read while it runs: a file it appends to or a "
		   "FIFO, one sample a line ('[TIMESTAMP] LATENCY[UNIT]'), fio's latency log or "
		   "ping's output; or a workload-intervals.csv it writes (intervals of 500ms)"),
	OPT_STRING(0, "latency-cmd", tune_args, metric_cmd, "CMD",
		   "your workload's own latency from the standard output of a shell command run "
		   "beside it (ping -D ..., tail -F LOG)"),
	OPT_CALLBACK(0, "latency-format", tune_args, metric_format, "FORMAT", set_metric_format,
		     "the format of --latency or --latency-cmd: auto (the default: intervals for a name ending in "
		     ".csv, else from its first sample), line, fio, ping, intervals"),
	OPT_CALLBACK(0, "probe", tune_args, probe, "WORKLOAD", set_probe,
		     "judge by one of deferbench's workloads run beside the command (net, "
		     "timer, tty, audio, block)"),
	OPT_STRING_LIST(0, "try", tune_args, try, ntry, "KNOB=VAL[,...]",
			"a candidate of your own (docs/scenarios.md lists the knobs)"),
	OPT_CALLBACK(0, "allow", tune_args, allow, "CLASSES", set_allow,
		     "what tune may try from the survey: nice, scope, napi, ksoftirqd, cpumask, "
		     "all (default nice,scope,napi,ksoftirqd: nothing that takes CPUs from work)"),
	OPT_DURATION(0, "survey", tune_args, survey_ns, "DUR", NSEC_PER_SEC, 0,
		     "watch the command this long before choosing candidates"),
	OPT_CALLBACK(0, "phase", tune_args, phase_ns, "DUR", set_phase,
		     "one candidate's turn (default 2s)"),
	OPT_BOOL(0, "live", tune_args, live, "no command: tune for whatever the machine runs now"),
	OPT_CALLBACK_OPTARG(0, "apply", tune_args, apply, "now", set_apply,
			    "write DIR/apply.sh that sets the decided configuration (=now: also "
			    "set it now, journaled: 'deferbench restore' undoes it)"),
	OPT_BOOL(0, "verify", tune_args, verify,
		 "with -o DIR of an earlier tune: alternate its decided settings with the ones "
		 "they replaced and say whether the gain held"),
	OPT_ALIAS(0, "metric", "latency", "in compare and history --metric is a PATTERN of "
		  "metrics"),
	OPT_HELP(),
	OPT_END(),
};

static void tune_defaults(void *args)
{
	struct tune_args *a = args;

	memset(a, 0, sizeof(*a));
	a->duration_ns = 60 * NSEC_PER_SEC;
	a->survey_ns = 5 * NSEC_PER_SEC;
	a->phase_ns = 2 * NSEC_PER_SEC;
	a->allow = TUNE_ALLOW_DEFAULT;
}

const struct cli_command cli_tune = {
	.name = "tune",
	.fn = cmd_tune,
	.summary = "the configuration for your own workload, decided on this machine",
	.usage = "deferbench tune [-d DUR] [-o DIR] [--latency FILE | --latency-cmd CMD | --probe "
		 "WORKLOAD] "
		 "[--try KNOB=VAL]... [--allow CLASSES] [--apply[=now]] (-- COMMAND [ARGS] | --live)",
	.desc =
	"Find the configuration of deferred work that suits your own workload on this\n"
	"machine: watch COMMAND's first seconds, pick candidates from the deferred work that\n"
	"waits most, then alternate the machine as it is with each candidate in phases while\n"
	"COMMAND runs, and judge them on that work's wait and (--latency, --latency-cmd,\n"
	"--probe) your workload's latency, block by block. Every setting is restored at\n"
	"the end.\n"
	"Needs root.",
	.examples = "deferbench tune -d 2m -o /tmp/tune -- ./my-service --port 8080\n"
		    "deferbench tune --live -o /tmp/tune --allow nice,scope",
	.opts = tune_opts,
	.args_size = sizeof(struct tune_args),
	.defaults = tune_defaults,
};

/* metric_intervals - --latency is deferbench's own workload-intervals.csv (read at stop) */
static bool metric_intervals(const struct tune_args *a)
{
	size_t n = a->metric ? strlen(a->metric) : 0;

	if (a->metric_format)
		return !strcmp(a->metric_format, "intervals");
	return n >= 4 && !strcmp(a->metric + n - 4, ".csv");
}

/* check_ini_value - a value tune.ini can hold as the workload's option, or why not */
static int check_ini_value(const char *opt, const char *v, char *errbuf)
{
	if (strlen(v) >= WL_STR_MAX)
		return set_err(errbuf, "%s: longer than %d characters; put it in a script and "
			       "give the script", opt, WL_STR_MAX - 1);
	if (strchr(v, ';') || strchr(v, '\n') || strchr(v, '#'))
		return set_err(errbuf, "%s '%s': ';', '#' and newlines cannot be written into "
			       "tune.ini; "
			       "use && or put it in a script", opt, v);
	if (isspace((unsigned char)v[0]) || (v[0] && isspace((unsigned char)v[strlen(v) - 1])))
		return set_err(errbuf, "%s '%s': leading or trailing blanks", opt, v);
	return 0;
}

int tune_parse_args(int argc, char **argv, struct tune_args *a, char *errbuf)
{
	int first, ret;

	tune_defaults(a);
	ret = opts_parse(tune_opts, OPTS_IN_ORDER, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	if (first < argc)
		a->cmd = argv + first;
	if (!a->cmd && !a->live)
		return set_err(errbuf, "what to tune for? give '-- COMMAND [ARGS]' (your workload) "
			       "or --live (whatever the machine runs now)");
	if (a->cmd && a->live)
		return set_err(errbuf, "--live and a COMMAND contradict each other: choose one");
	if (a->metric && a->metric_cmd)
		return set_err(errbuf, "--latency and --latency-cmd: choose one source of your "
			       "workload's latency");
	if ((a->metric || a->metric_cmd) && a->probe)
		return set_err(errbuf, "--%s and --probe: choose one way to judge the workload",
			       a->metric ? "latency" : "latency-cmd");
	if (a->metric_format && !a->metric && !a->metric_cmd)
		return set_err(errbuf, "--latency-format: of which latency? give --latency or "
			       "--latency-cmd");
	if (a->metric_cmd && a->metric_format && !strcmp(a->metric_format, "intervals"))
		return set_err(errbuf, "--latency-format intervals is a file's: --latency FILE");
	if (a->live && a->metric && metric_intervals(a))
		return set_err(errbuf, "--live: a workload-intervals.csv is read when its COMMAND "
			       "stops; judge a running service by a stream (--latency FILE in the "
			       "line format, fio's or ping's, or --latency-cmd)");
	/* into tune.ini, one line each: libinih reads 199 characters, ' ;' starts a comment */
	if ((a->metric && check_ini_value("--latency", a->metric, errbuf)) ||
	    (a->metric_cmd && check_ini_value("--latency-cmd", a->metric_cmd, errbuf)))
		return -EINVAL;
	if (a->verify && !a->out_dir)
		return set_err(errbuf, "--verify needs -o DIR: the directory of the tune to verify");
	if (a->verify && (a->ntry || a->apply))
		return set_err(errbuf, "--verify checks an earlier tune: no --try or --apply");
	return 0;
}

/* ---- the command ---- */

/* start_command - the user's command, in a process group of its own, adopted later */
static int start_command(char **cmd, pid_t *pid, int *log_fd, char *err)
{
	int ret = command_spawn(cmd, pid, log_fd, err);

	if (!ret)
		command_workload_adopt(*pid, *log_fd);
	return ret;
}

/* ---- the survey ---- */

static bool wq_has_sysfs(const char *wq, void *ctx __unused)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "/sys/devices/virtual/workqueue/%s", wq);
	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* netdev_usable - dev is a device of this namespace with sysfs NAPI attributes */
static bool netdev_usable(const char *dev, void *ctx __unused)
{
	char p[PATH_MAX];

	if (!*dev || strlen(dev) >= IFNAMSIZ || strchr(dev, '/') || !strcmp(dev, "..") ||
	    !strcmp(dev, "."))
		return false;
	snprintf(p, sizeof(p), "/sys/class/net/%s/threaded", dev);
	return !access(p, W_OK);
}

/* napi_facts - the survey's busiest NAPI device, if any, into f (dev holds its name) */
static void napi_facts(const struct record *rec, struct tune_facts *f, char *dev, size_t len)
{
	char p[PATH_MAX], val[16];

	if (!tune_napi_device(rec, netdev_usable, NULL, dev, len))
		return;
	f->napi_dev = dev;
	snprintf(p, sizeof(p), "/sys/class/net/%s/threaded", dev);
	f->napi_threaded = !read_file(p, val, sizeof(val)) && strtol(val, NULL, 10) != 0;
	/* a NIC has a parent device; a veth, a bridge or a tunnel has none */
	snprintf(p, sizeof(p), "/sys/class/net/%s/device", dev);
	f->napi_hw = !access(p, F_OK);
}

/* survey - a capture of survey_ns into dir, read back into rec */
static int survey(const struct tune_args *a, const char *dir, struct record *rec)
{
	struct capture_opts co = { .buffer_kb = CAPTURE_DEFAULT_BUFFER_KB,
				   .command = "deferbench tune (survey)" };
	char err[ERRBUF_LEN] = "";
	struct capture *c;
	int ret, e;

	c = capture_new(&co, err);
	if (!c) {
		err_msg("survey: %s", err);
		return -EINVAL;
	}
	ret = capture_start(c);
	if (!ret && sleep_until_or_stop(now_ns() + a->survey_ns))
		ret = -EINTR;
	capture_stop(c);
	ret = ret ?: out_mkdir_p(dir);
	ret = ret ?: result_write_dir(capture_result(c), dir);
	e = capture_free(c);
	ret = ret ?: e;
	if (ret) {
		err_msg("survey: %s", strerror(-ret));
		return ret;
	}
	ret = record_load(dir, rec, err);
	if (ret)
		err_msg("survey: %s", err);
	return ret;
}

/* ---- the scenario ---- */

/* write_config - one [config] section: the candidate's knobs, the user's load */
static void write_config(FILE *f, const char *name, const char *desc,
			 const struct tune_cand *c, bool load)
{
	size_t k;

	fprintf(f, "\n[config %s]\ndescription = %s\n", name, desc);
	if (load)
		fprintf(f, "load = user\n");
	for (k = 0; c && k < c->nknobs; k++)
		fprintf(f, "%s = %s\n", c->knob[k], c->value[k]);
}

/*
 * primary_line - what the candidates are judged on, as tune.ini's primary: the
 * workload's own latency (--latency, --latency-cmd, --probe) and the surveyed groups' delay
 */
static void primary_line(const struct tune_args *a, const struct tune_group *top, size_t ntop,
			 char *line, size_t size)
{
	bool own = a->metric || a->metric_cmd || a->probe;
	size_t i, np, len;

	/*
	 * one line, which libinih reads up to 200 characters: p50 and p90 as one pattern
	 * each, and the groups that do not fit are left advisory (judged, not primary)
	 */
	len = (size_t)snprintf(line, size, "%s", own ? "workload:*:p[59]0, workload:*:p99" : "");
	np = own ? 2 : 0;
	for (i = 0; i < ntop && np < PRIMARY_MAX; i++) {
		char id[METRIC_ID_LEN], *colon;
		int n;

		snprintf(id, sizeof(id), "%s", top[i].id);
		colon = strrchr(id, ':');
		if (colon)
			*colon = '\0';
		n = snprintf(line + len, size - len, "%s%s:p[59]0", np ? ", " : "", id);
		if (n < 0 || len + (size_t)n > TUNE_INI_LINE - 10) {
			line[len] = '\0';
			continue;
		}
		len += (size_t)n;
		np++;
	}
	if (!np)
		snprintf(line, size, "*:p90");
}

/* write_scenario - DIR/tune.ini: one segment, the machine as it is and each candidate */
static int write_scenario(const struct tune_args *a, const char *path, const char *base_name,
			  const struct tune_cand *base, const struct tune_cand *cands,
			  size_t ncand, const char *primary, unsigned int blocks)
{
	const char *wl = a->probe ? "probe" : "user";
	FILE *f = out_fopen(path);
	size_t i;
	int ret;

	if (!f)
		return -errno;
	fprintf(f, "; written by deferbench tune: the machine as it is (%s) against each "
		"candidate,\n; alternated in phases while the workload runs (docs/tune.md)\n\n"
		"[global]\ndesign = alternate\nblocks = %u\nphase = %llums\nsettle = 500ms\n"
		"interval = 500ms\nwarmup = 2s\ncontrol = no\nseed = 1\n", base_name, blocks,
		(unsigned long long)(a->phase_ns / NSEC_PER_MSEC));
	if (a->probe)
		fprintf(f, "\n[load user]\ntype = command\n");
	fprintf(f, "\n[workload %s]\ntype = %s\n", wl, a->probe ? a->probe : "command");
	if (a->metric)
		fprintf(f, "metric = %s\n", a->metric);
	if (a->metric_cmd)
		fprintf(f, "metric_cmd = %s\n", a->metric_cmd);
	if (a->metric_format)
		fprintf(f, "metric_format = %s\n", a->metric_format);
	fprintf(f, "primary = %s\n", primary);
	write_config(f, base_name, "the machine as it is", base, a->probe);
	for (i = 0; i < ncand; i++)
		write_config(f, cands[i].name, cands[i].why, &cands[i], a->probe);
	fflush(f);
	ret = out_ferror(f);
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* ---- the answer ---- */

static void print_row(const char *id, const struct judgement *j)
{
	printf("    %-44s x%-6.3g", id, j->ratio);
	if (!isnan(j->lo))
		printf(" [%.3g, %.3g]", j->lo, j->hi);
	printf(" %s (margin %.3g%%", judge_verdict_names[j->v], j->margin * 100);
	if (!isnan(j->mdc))
		printf(", detects %.3g%%", j->mdc * 100);
	printf(")\n");
}

/* print_placement - did each setting of c move the work it targets (placement.h)? */
static void print_placement(const struct adv_workload *w, const struct adv_cfg *c)
{
	struct placement p[TUNE_MAX_KNOBS];
	char line[1024];
	size_t i, n = placement_sets(w->ref, c->s, p, TUNE_MAX_KNOBS);

	for (i = 0; i < n; i++)
		if (p[i].v != PLV_NOT_PLACEMENT)
			printf("    placement: %s\n", placement_describe(&p[i], line, sizeof(line)));
}

/* answer - what the alternation decided; the chosen candidate, or NULL */
static const struct adv_cfg *answer(const struct advice *adv)
{
	const struct adv_workload *w = adv->n ? &adv->wl[0] : NULL;
	char b[512];
	size_t i, k;

	if (!w || !w->ncfg) {
		printf("tune: nothing was judged (no candidate finished)\n");
		return NULL;
	}
	switch (w->answer) {
	case ADV_USE:
		printf("tune: use %s: better on %zu primary metric(s), worse on none%s\n",
		       w->best->s->config, w->best->better, w->best_decided ?
		       ", every primary metric decided" : "; some still undecided");
		break;
	case ADV_KEEP:
		printf("tune: keep what you have: each candidate is worse on a primary metric, "
		       "or equivalent within the margin on every one\n");
		break;
	case ADV_UNDECIDED:
		advise_bound(w, b, sizeof(b));
		printf("tune: keep what you have for now: no candidate was shown better; %s; a "
		       "longer -d would decide more (see below)\n", b);
		break;
	case ADV_WAIT_ONLY:
		advise_wait_only(w, b, sizeof(b));
		printf("tune: %s\n", b);
		break;
	case ADV_EXPLORATORY:
		printf("tune: exploratory, nothing decidable: %s\n", w->cfg[0].j[0].why);
		break;
	case ADV_LOAD_EFFECT:	/* tune's candidates start no load */
		advise_load_effect(w, b, sizeof(b));
		printf("tune: %s\n", b);
		break;
	}
	for (i = 0; i < w->ncfg; i++) {
		const struct adv_cfg *c = &w->cfg[i];

		printf("  %s %s against %s: %zu better, %zu worse, %zu no change, %zu undecided\n",
		       c == w->best ? "*" : "-", c->s->config, w->ref->config, c->better,
		       c->worse, c->same, c->undecided);
		for (k = 0; k < w->nprim; k++)
			print_row(w->prim_id[k], &c->j[k]);
		print_placement(w, c);
		if (c->better && c->worse)
			printf("    trade-off: better on %zu, worse on %zu of these\n", c->better,
			       c->worse);
	}
	return w->best;
}

/* ---- main ---- */

/* blocks_for - blocks of narms phases that fit in d after the warm-up */
static unsigned int blocks_for(const struct tune_args *a, int narms)
{
	uint64_t warm = 2 * NSEC_PER_SEC;

	return a->duration_ns > warm ?
	       (unsigned int)((a->duration_ns - warm) / ((uint64_t)narms * a->phase_ns)) : 0;
}

/* list_outputs - what tune wrote into its directory, in its manifest; the writer closed */
static void list_outputs(struct outw *w)
{
	static const char *const names[] = { "survey", "tune.ini", "run", "tune.json",
					     "apply.sh", "persist" };
	char p[PATH_MAX + NAME_MAX + 2], err[ERRBUF_LEN];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(p, sizeof(p), "%s/%s", w->target, names[i]);
		if (!access(p, F_OK) && outw_live_add(w, names[i], err))
			err_msg("%s", err);
	}
	outw_abort(w);	/* written in place: nothing to move, only to close */
}

/* out_dir - -o, or results/<host>/<kernel>/<UTC time>-tune */
static int out_dir(const struct tune_args *a, char *buf, size_t len)
{
	char host[128], kernel[128];

	if (a->out_dir) {
		snprintf(buf, len, "%s", a->out_dir);
		return 0;
	}
	host_name(host, sizeof(host));
	host_kernel_release(kernel, sizeof(kernel));
	return run_dir_default(buf, len, host, kernel, time(NULL), "tune");
}

/*
 * check_args - what the user gave, before anything starts or is made: each --try a
 * candidate of knobs with values of their grammar that this machine has, --latency a
 * path tune.ini can hold, -d long enough for six blocks with one candidate at least
 */
static int check_args(const struct tune_args *a, struct tune_cand *cands, size_t *ncand)
{
	char err[ERRBUF_LEN];
	unsigned int blocks;
	size_t i, k;
	int narms;

	for (i = 0; i < a->ntry; i++) {
		struct tune_cand *c = &cands[(*ncand)++];

		if (tune_try_parse(a->try[i], (int)i + 1, c, err))
			return err_msg("%s", err), -EINVAL;
		for (k = 0; k < c->nknobs; k++) {
			struct knob kb;

			if (tune_value_ok(c->knob[k], c->value[k], err))
				return err_msg("--try: %s", err), -EINVAL;
			if (strncmp(c->knob[k], "opt.", 4) &&
			    (knob_parse(c->knob[k], c->value[k], &kb, NULL, err) ||
			     knob_check(&kb, err)))
				return err_msg("--try: %s: %s", c->knob[k], err), -EINVAL;
		}
	}
	if (a->metric && tune_path_ok(a->metric, err))
		return err_msg("--latency: %s", err), -EINVAL;
	narms = (int)(a->ntry > 1 ? a->ntry : 1) + 1;
	blocks = blocks_for(a, narms);
	if (blocks < 6) {
		err_msg("-d %.0f s holds %u blocks of %d phases of %.1f s: at least 6 are needed "
			"to decide; give -d %.0f s or more (or fewer candidates)",
			a->duration_ns / 1e9, blocks, narms, a->phase_ns / 1e9,
			2 + 6.0 * narms * a->phase_ns / 1e9);
		return -EINVAL;
	}
	return 0;
}

/*
 * discard - a tune that ends before its run leaves nothing behind: what it wrote
 * (unchanged: the manifest's rule), and DIR when tune made it
 */
static void discard(struct outw *w, const char *dir, bool existed)
{
	static const char *const names[] = { "survey", "tune.ini" };
	char p[PATH_MAX + NAME_MAX + 2], err[ERRBUF_LEN];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(p, sizeof(p), "%s/%s", w->target, names[i]);
		if (!access(p, F_OK) && outw_live_add(w, names[i], err))
			err_msg("%s", err);
	}
	if (w->sfd >= 0 && !manifest_remove(&w->live, w->sfd, ""))
		unlinkat(w->sfd, MANIFEST_NAME, 0);
	outw_abort(w);
	if (!existed)
		rmdir(dir);
}

/* verify_names - DIR/tune-verify[-N].ini and DIR/verify[-N]: the first pair not there */
static int verify_names(const char *dir, char *ini, char *runp, size_t len)
{
	int n;

	for (n = 1; n < 1000; n++) {
		snprintf(ini, len, "%s/tune-verify%s%.0d.ini", dir, n > 1 ? "-" : "", n > 1 ? n : 0);
		snprintf(runp, len, "%s/verify%s%.0d", dir, n > 1 ? "-" : "", n > 1 ? n : 0);
		if (access(ini, F_OK) && access(runp, F_OK))
			return 0;
	}
	return -EEXIST;
}

static int tune_main(struct tune_args *a, const char *command)
{
	struct tune_cand cands[TUNE_MAX_CANDS + TUNE_MAX_TRY], base = { 0 }, prev;
	struct tune_facts facts = { .sysfs = wq_has_sysfs, .probe = a->probe, .first_cpu = 0 };
	struct tune_group top[TUNE_TOP];
	char dir[PATH_MAX], p[PATH_MAX + 32], runp[PATH_MAX + 32], err[ERRBUF_LEN];
	char primary[TUNE_INI_LINE + 1], napi_dev[IFNAMSIZ];
	struct record rec = { 0 };
	struct run_opts ro = { 0 };
	const struct adv_cfg *best;
	struct advice adv;
	struct run run;
	size_t ncand = 0, ntop = 0;
	unsigned int blocks;
	int i, ret, log_fd = -1;
	struct outw w = { .pfd = -1, .sfd = -1 };
	bool reapply = false, existed, ran = false;
	pid_t pid = 0;

	if (out_dir(a, dir, sizeof(dir)) || path_check(dir, err))
		return err_msg("-o: %s", err), 1;
	existed = !access(dir, F_OK);
	if (a->verify) {
		/* tune.json's values become tune-verify.ini: each checked there */
		ret = tune_verify_cands(dir, &cands[0], &prev, a, primary, sizeof(primary));
		if (ret)
			return 1;
		if (verify_names(dir, p, runp, sizeof(p)))
			return err_msg("--verify: %s holds a thousand verifications", dir), 1;
		base = prev;
		ncand = 1;
		snprintf(cands[0].why, sizeof(cands[0].why), "the settings tune decided");
	} else if (check_args(a, cands, &ncand)) {
		return 1;
	}
	/* like run's: a new or empty directory, no link, no input, no system directory */
	if (!a->verify &&
	    outw_open(&w, dir, &(struct outw_opts){ .kind = OUTW_LIVE, .by = "tune",
		      .inputs = (const char *const[]){ a->metric, NULL } }, err))
		return err_msg("%s", err), 1;
	/* settings applied with --apply=now: put back for the comparison, then again */
	if (a->verify && tune_take_back(&reapply))
		return 1;
	if (a->cmd && start_command(a->cmd, &pid, &log_fd, err)) {
		ret = -EINVAL;
		err_msg("%s", err);
		goto out;
	}
	if (!a->verify && a->survey_ns) {
		snprintf(p, sizeof(p), "%s/survey", dir);
		printf("tune: watching %s for %.1f s to choose candidates\n",
		       a->cmd ? a->cmd[0] : "the machine", a->survey_ns / 1e9);
		fflush(stdout);
		ret = survey(a, p, &rec);
		if (ret)
			goto out;
		ntop = tune_rank(&rec, top, TUNE_TOP);
		napi_facts(&rec, &facts, napi_dev, sizeof(napi_dev));
		for (i = 0; i < (int)ntop; i++)
			printf("tune: %-52s waited %8.3f s over %llu items\n", top[i].id,
			       top[i].wait_s, (unsigned long long)top[i].count);
		if (a->probe && !strcmp(a->probe, "net") && (a->allow & (1U << TC_NAPI)))
			tune_candidates(&(struct tune_group){ .key = { .src = MS_SOFTIRQ,
				.name = "NET_RX" } }, 1, 1U << TC_NAPI, &facts, &cands[ncand],
				1) ? ncand++ : 0;
		ncand += tune_candidates(top, ntop, a->allow, &facts, &cands[ncand],
					 TUNE_MAX_CANDS + TUNE_MAX_TRY - ncand);
	}
	/* a command that ended or detached meanwhile: no run would judge it */
	ret = command_check(err);
	if (ret) {
		err_msg("%s", err);
		goto out;
	}
	if (!ncand) {
		printf("tune: nothing to try: the survey suggests no candidate this tune may try "
		       "(--allow), and no --try was given; keep what you have\n");
		ret = 0;
		ran = true;	/* an answer: the survey stays */
		goto out;
	}
	for (i = 0; i < (int)ncand; i++)
		printf("tune: candidate %-20s %s\n", cands[i].name, cands[i].why);
	blocks = blocks_for(a, (int)ncand + 1);
	if (blocks < 6) {
		err_msg("-d %.0f s holds %u blocks of %zu phases of %.1f s: at least 6 are needed "
			"to decide; give -d %.0f s or more (or fewer candidates, --allow)",
			a->duration_ns / 1e9, blocks, ncand + 1, a->phase_ns / 1e9,
			2 + 6.0 * (double)(ncand + 1) * a->phase_ns / 1e9);
		ret = -EINVAL;
		goto out;
	}
	if (!a->verify) {
		primary_line(a, top, ntop, primary, sizeof(primary));
		snprintf(p, sizeof(p), "%s/tune.ini", dir);
		snprintf(runp, sizeof(runp), "%s/run", dir);
	}
	ret = write_scenario(a, p, a->verify ? "previous" : "current", a->verify ? &base : NULL,
			     cands, ncand, primary, blocks);
	if (ret) {
		err_msg("writing %s: %s", p, strerror(-ret));
		goto out;
	}
	ro.scenario = p;
	ro.outdir = runp;
	ro.command = command;
	ran = true;
	ret = run_scenario(&ro, run_engine());
	if (ret) {
		ret = -EIO;
		goto out;
	}
	ret = run_load(runp, &run, err);
	if (ret) {
		err_msg("%s", err);
		goto out;
	}
	{
		struct judge_opts jo;

		judge_opts_default(&jo);
		ret = advise_run(&run, &jo, &adv, err);
	}
	if (ret) {
		err_msg("%s", err);
		run_free(&run);
		goto out;
	}
	best = answer(&adv);
	if (a->verify) {
		printf("tune --verify: %s\n", best ? "the gain held: the applied settings are "
		       "better than the ones they replaced" :
		       "the gain did not hold: the applied settings were not shown better");
		if (reapply)
			ret = tune_apply_now(&cands[0], command);
	} else {
		const struct tune_cand *c = best ? tune_cand_named(cands, ncand, best->s->config) : NULL;

		snprintf(p, sizeof(p), "%s/tune.json", dir);
		ret = tune_write_json(p, c, runp, a, primary);
		if (!ret && c && a->apply) {
			snprintf(p, sizeof(p), "%s/apply.sh", dir);
			ret = tune_write_script(p, c);
			if (!ret)
				printf("tune: %s sets it (every value read back)\n", p);
			snprintf(p, sizeof(p), "%s/persist", dir);
			ret = ret ?: tune_write_persist(p, c, NULL, err);
			if (ret > 0)
				printf("tune: %s/ holds the same settings in forms that survive a "
				       "reboot (not installed: each file says where it goes)\n", p);
			else if (ret < 0)
				err_msg("%s", err);
			ret = ret > 0 ? 0 : ret;
		}
		if (!ret && c && a->apply == 2)
			ret = tune_apply_now(c, command);
		if (!ret && !c && a->apply)
			printf("tune: nothing to apply: keep what you have\n");
	}
	advise_free(&adv);
	run_free(&run);
	printf("tune: results in %s\n", dir);
out:
	if (!a->verify && ran)
		list_outputs(&w);
	else if (!a->verify)
		discard(&w, dir, existed);
	record_free(&rec);
	if (pid > 0)
		command_workload_end();
	if (a->verify && reapply && !ran)
		tune_apply_now(&cands[0], command);	/* what --verify took back goes on again */
	return ret ? 1 : 0;
}

int cmd_tune(int argc, char **argv)
{
	char cmd[512], err[ERRBUF_LEN];
	struct tune_args a;
	int ret;

	ret = cli_parsed(tune_parse_args(argc, argv, &a, err), &cli_tune, err, 1);
	if (ret >= 0)
		return ret;
	if (!host_is_root()) {
		err_msg("tune changes kernel settings and traces the kernel: run as root");
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "deferbench ");
	proc_command_line(argc, argv, cmd + strlen(cmd), sizeof(cmd) - strlen(cmd));
	leftovers_remove(NULL);
	stop_on_signals();
	return tune_main(&a, cmd);
}
