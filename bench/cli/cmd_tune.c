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
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
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
#include "outw.h"
#include "parse.h"
#include "sys.h"

#define TUNE_MAX_TRY 6
#define TUNE_SCHEMA "deferbench-tune/1"

struct tune_args {
	uint64_t duration_ns, survey_ns, phase_ns;
	const char *out_dir;
	const char *metric;
	const char *probe;
	const char *try[TUNE_MAX_TRY + 1];
	size_t ntry;
	unsigned int allow;
	bool live;
	int apply;			/* 0 no, 1 script, 2 script and now */
	bool verify;
	char **cmd;
};

static const char *const tune_probes[] = { "net", "timer", "tty", "audio", "block" };

/* set_probe - --probe WORKLOAD: one of the workloads that measure their own latency */
static int set_probe(const struct opt_desc *o __unused, const char *arg, void *args,
		     char *errbuf)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tune_probes); i++)
		if (!strcmp(arg, tune_probes[i])) {
			((struct tune_args *)args)->probe = tune_probes[i];
			return 0;
		}
	return set_err(errbuf, "'%s' is not a probe (net, timer, tty, audio, block)", arg);
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
	OPT_STRING(0, "metric", tune_args, metric, "FILE",
		   "the command's own latency: a workload-intervals.csv it writes, intervals "
		   "of 500ms (deferbench load -i 500ms -o DIR writes DIR/workload-intervals.csv)"),
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
	.usage = "deferbench tune [-d DUR] [-o DIR] [--metric FILE | --probe WORKLOAD] "
		 "[--try KNOB=VAL]... [--allow CLASSES] [--apply[=now]] (-- COMMAND [ARGS] | --live)",
	.desc =
	"Find the configuration of deferred work that suits your own workload on this\n"
	"machine: watch COMMAND's first seconds, pick candidates from the deferred work that\n"
	"waits most, then alternate the machine as it is with each candidate in phases while\n"
	"COMMAND runs, and judge them on that work's wait and (--metric, --probe) your\n"
	"workload's latency, block by block. Every setting is restored at the end.\n"
	"See docs/tune.md. Needs root.",
	.opts = tune_opts,
	.args_size = sizeof(struct tune_args),
	.defaults = tune_defaults,
};

static int tune_parse_args(int argc, char **argv, struct tune_args *a, char *errbuf)
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
	if (a->metric && a->probe)
		return set_err(errbuf, "--metric and --probe: choose one way to judge the workload");
	if (a->metric && a->live)
		return set_err(errbuf, "--metric needs a COMMAND that writes it");
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

/* survey - a capture of survey_ns into dir, read back into rec */
static int survey(const struct tune_args *a, const char *dir, struct record *rec)
{
	struct capture_opts co = { .buffer_kb = CAPTURE_DEFAULT_BUFFER_KB,
				   .command = "deferbench tune (survey)" };
	char err[ERRBUF_LEN] = "";
	struct capture *c;
	int ret;

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
	capture_free(c);
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

/* write_scenario - DIR/tune.ini: one segment, the machine as it is and each candidate */
static int write_scenario(const struct tune_args *a, const char *path, const char *base_name,
			  const struct tune_cand *base, const struct tune_cand *cands,
			  size_t ncand, const struct tune_group *top, size_t ntop,
			  unsigned int blocks)
{
	const char *wl = a->probe ? "probe" : "user";
	FILE *f = out_fopen(path);
	size_t i, np = 0;

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
	fprintf(f, "primary = ");
	if (a->metric || a->probe) {
		fprintf(f, "workload:*:p50, workload:*:p90, workload:*:p99");
		np = 3;
	}
	for (i = 0; i < ntop && np + 2 <= PRIMARY_MAX; i++, np += 2) {
		char id[METRIC_ID_LEN], *colon;

		snprintf(id, sizeof(id), "%s", top[i].id);
		colon = strrchr(id, ':');
		if (colon)
			*colon = '\0';
		fprintf(f, "%s%s:p50, %s:p90", np ? ", " : "", id, id);
	}
	if (!np)
		fprintf(f, "*:p90");
	fprintf(f, "\n");
	write_config(f, base_name, "the machine as it is", base, a->probe);
	for (i = 0; i < ncand; i++)
		write_config(f, cands[i].name, cands[i].why, &cands[i], a->probe);
	return fclose(f) ? -errno : 0;
}

/* ---- the answer ---- */

static void print_row(const char *id, const struct judgement *j)
{
	printf("    %-44s x%-6.3g", id, j->ratio);
	if (!isnan(j->lo))
		printf(" [%.3g, %.3g]", j->lo, j->hi);
	printf(" %s (margin %.3g%%", verdict_names[j->v], j->margin * 100);
	if (!isnan(j->mdc))
		printf(", detects %.3g%%", j->mdc * 100);
	printf(")\n");
}

/* answer - what the alternation decided; the chosen candidate, or NULL */
static const struct adv_cfg *answer(const struct advice *adv)
{
	const struct adv_workload *w = adv->n ? &adv->wl[0] : NULL;
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
		printf("tune: keep what you have: no candidate is better, each is worse or "
		       "equivalent within the margin where decided\n");
		break;
	case ADV_UNDECIDED:
		printf("tune: keep what you have for now: no candidate was shown better or worse; "
		       "a longer -d would decide more (see below)\n");
		break;
	case ADV_EXPLORATORY:
		printf("tune: exploratory, nothing decidable: %s\n", w->cfg[0].j[0].why);
		break;
	}
	for (i = 0; i < w->ncfg; i++) {
		const struct adv_cfg *c = &w->cfg[i];

		printf("  %s %s against %s: %zu better, %zu worse, %zu no change, %zu undecided\n",
		       c == w->best ? "*" : "-", c->s->config, w->ref->config, c->better,
		       c->worse, c->same, c->undecided);
		for (k = 0; k < w->nprim; k++)
			print_row(w->prim_id[k], &c->j[k]);
		if (c->better && c->worse)
			printf("    trade-off: better on %zu, worse on %zu of these\n", c->better,
			       c->worse);
	}
	return w->best;
}

/* ---- tune.json, apply.sh, apply now ---- */

static const struct tune_cand *cand_named(const struct tune_cand *c, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return &c[i];
	return NULL;
}

/*
 * knob_now - the value a knob has now, canonical (its first target), for tune.json's
 * "previous"; "" when it cannot be read (a thread knob without threads)
 */
static void knob_now(const char *name, const char *value, char *buf, size_t len)
{
	struct knob_target *t;
	struct knob k;
	char err[ERRBUF_LEN];
	int n;

	buf[0] = '\0';
	if (knob_parse(name, value, &k, NULL, err) ||
	    knob_resolve(&k, boot_ticks(), &t, &n, err))
		return;
	if (n)
		snprintf(buf, len, "%s", t[0].orig);
	free(t);
}

static int write_json(const char *path, const struct tune_cand *c, const char *run_dir,
		      const struct tune_args *a)
{
	json_object *o = json_object_new_object(), *set = json_object_new_array();
	char prev[KNOB_VALUE_MAX];
	size_t k;
	int ret;

	json_object_object_add(o, "schema", json_object_new_string(TUNE_SCHEMA));
	json_object_object_add(o, "run", json_object_new_string(run_dir));
	json_object_object_add(o, "use", c ? json_object_new_string(c->name) : NULL);
	json_object_object_add(o, "probe", a->probe ? json_object_new_string(a->probe) : NULL);
	json_object_object_add(o, "metric", a->metric ? json_object_new_string(a->metric) : NULL);
	for (k = 0; c && k < c->nknobs; k++) {
		json_object *e = json_object_new_object();

		knob_now(c->knob[k], c->value[k], prev, sizeof(prev));
		json_object_object_add(e, "knob", json_object_new_string(c->knob[k]));
		json_object_object_add(e, "value", json_object_new_string(c->value[k]));
		json_object_object_add(e, "previous", json_object_new_string(prev));
		json_object_array_add(set, e);
	}
	json_object_object_add(o, "settings", set);
	ret = jsonw_write(path, o, 0644, WA_EXCL);
	json_object_put(o);
	return ret;
}

/*
 * write_script - apply.sh: each setting written and read back (the sysfs files of this
 * machine, as the knob resolves now); a workload option (opt.*) is not a machine setting
 */
static int write_script(const char *path, const struct tune_cand *c)
{
	struct knob_target *t;
	char err[ERRBUF_LEN], desc[TGT_PATH_MAX + 32];
	struct knob k;
	size_t i;
	int n, j;
	FILE *f = out_fopen(path);

	if (!f)
		return -errno;
	fprintf(f, "#!/bin/sh\n# apply.sh - written by deferbench tune: the configuration it "
		"decided (%s).\n# Run as root; every value is read back. The previous values "
		"are in tune.json.\nset -eu\n\n# set FILE VALUE - write, then insist the kernel "
		"kept it\nset_file() {\n\techo \"$2\" > \"$1\"\n\tgot=$(cat \"$1\")\n"
		"\t[ \"$got\" = \"$2\" ] || { echo \"apply.sh: $1 reads $got after writing $2\" "
		">&2; exit 1; }\n}\n\n# set_thread PID POLICY:PRIO - a kernel thread's policy "
		"(this boot's pid), read back\nset_thread() {\n\tpol=${2%%%%:*} prio=${2#*:}\n"
		"\tcase $pol in fifo) chrt -f -p \"$prio\" \"$1\" ;; rr) chrt -r -p \"$prio\" "
		"\"$1\" ;;\n\tother) chrt -o -p 0 \"$1\"; renice -n \"$prio\" -p \"$1\" "
		">/dev/null ;; esac\n\tchrt -p \"$1\" | grep -qi \"$pol\" || { echo \"apply.sh: "
		"thread $1 is not $pol\" >&2; exit 1; }\n}\n\n", c->name);
	for (i = 0; i < c->nknobs; i++) {
		if (!strncmp(c->knob[i], "opt.", 4)) {
			fprintf(f, "# %s = %s: an option of deferbench's probe, not a setting of "
				"the machine\n", c->knob[i], c->value[i]);
			continue;
		}
		if (knob_parse(c->knob[i], c->value[i], &k, NULL, err) ||
		    knob_resolve(&k, boot_ticks(), &t, &n, err)) {
			fclose(f);
			unlink(path);
			err_msg("apply.sh: %s: %s", c->knob[i], err);
			return -EINVAL;
		}
		for (j = 0; j < n; j++) {
			target_describe(&t[j], desc, sizeof(desc));
			if (t[j].kind == TGT_FILE)
				fprintf(f, "set_file %s '%s'	# %s\n", t[j].path, k.value, c->knob[i]);
			else
				fprintf(f, "set_thread %d '%s'	# %s: %s\n", (int)t[j].pid, k.value,
					c->knob[i], desc);
		}
		free(t);
	}
	fprintf(f, "echo 'apply.sh: %s set'\n", c->name);
	fchmod(fileno(f), 0755);
	return fclose(f) ? -errno : 0;
}

/* apply_now - the settings on the machine, journaled: 'deferbench restore' undoes them */
static int apply_now(const struct tune_cand *c, const char *command)
{
	struct knob_result res;
	char err[ERRBUF_LEN];
	struct journal j;
	struct knob k;
	size_t i;
	int ret;

	ret = journal_create(&j, journal_path(), command, err);
	if (ret) {
		err_msg("--apply=now: %s", err);
		return ret;
	}
	for (i = 0; !ret && i < c->nknobs; i++) {
		if (!strncmp(c->knob[i], "opt.", 4))
			continue;
		ret = knob_parse(c->knob[i], c->value[i], &k, NULL, err);
		ret = ret ?: journal_apply(&j, &k, &res, err);
		if (!ret)
			printf("tune: %s = %s (reads %s)\n", k.name, k.value, res.value);
	}
	if (ret) {
		err_msg("--apply=now: %s; putting every setting back", err);
		journal_restore(&j, NULL);
		journal_remove(&j);
	} else {
		printf("tune: applied and journaled in %s: 'deferbench restore' puts the previous "
		       "values back ('deferbench run' refuses to start until then)\n", j.path);
	}
	journal_free(&j);
	return ret;
}

/* ---- verify ---- */

/* verify_cands - from DIR/tune.json: the decided settings and the ones they replaced */
static int verify_cands(const char *dir, struct tune_cand *applied, struct tune_cand *prev,
			struct tune_args *a)
{
	char path[PATH_MAX + 32], err[ERRBUF_LEN], probe[32] = "";
	struct jr j = { .path = path, .errbuf = err };
	json_object *root, *set, *e;
	size_t i;
	int ret;

	snprintf(path, sizeof(path), "%s/tune.json", dir);
	ret = jr_load(&j, &root);
	ret = ret ?: jr_schema(&j, root, TUNE_SCHEMA);
	ret = ret ?: jr_get(&j, root, "", "settings", json_type_array, &set);
	if (!ret && !json_object_array_length(set))
		ret = jr_fail(&j, "", "settings", "is empty: that tune decided to keep what there "
			      "was; nothing to verify");
	memset(applied, 0, sizeof(*applied));
	memset(prev, 0, sizeof(*prev));
	snprintf(applied->name, sizeof(applied->name), "applied");
	snprintf(prev->name, sizeof(prev->name), "previous");
	for (i = 0; !ret && i < json_object_array_length(set) && i < TUNE_MAX_KNOBS; i++) {
		e = json_object_array_get_idx(set, i);
		ret = jr_str(&j, e, "settings[]", "knob", applied->knob[i], NAME_LEN);
		ret = ret ?: jr_str(&j, e, "settings[]", "value", applied->value[i], NAME_LEN);
		ret = ret ?: jr_str(&j, e, "settings[]", "previous", prev->value[i], NAME_LEN);
		snprintf(prev->knob[i], NAME_LEN, "%s", applied->knob[i]);
		if (!ret && !prev->value[i][0])
			ret = jr_fail(&j, "settings[]", "previous", "is empty for %s: the value it "
				      "replaced was not known", applied->knob[i]);
		applied->nknobs = prev->nknobs = i + 1;
	}
	if (!ret && jr_has(root, "probe") &&
	    json_object_is_type(json_object_object_get(root, "probe"), json_type_string))
		ret = jr_str(&j, root, "", "probe", probe, sizeof(probe));
	if (ret) {
		err_msg("--verify: %s", err);
		return ret;
	}
	if (probe[0] && !a->probe)
		a->probe = strdup(probe);
	json_object_put(root);
	return 0;
}

/*
 * take_back_applied - a journal left by tune --apply=now: its settings restored (the
 * run that verifies them sets them itself), *reapply set so that they go back on after
 */
static int take_back_applied(bool *reapply)
{
	char err[ERRBUF_LEN];
	struct journal j;
	int ret;

	*reapply = false;
	ret = journal_load(&j, journal_path(), err);
	if (ret == -ENOENT)
		return 0;
	if (ret) {
		err_msg("--verify: %s", err);
		return ret;
	}
	if (!strstr(j.command, "tune") || journal_owner_alive(&j)) {
		err_msg("--verify: %s holds the settings of '%s'; 'deferbench restore' first",
			j.path, j.command);
		journal_free(&j);
		return -EBUSY;
	}
	printf("tune --verify: the applied settings go back to the previous values while they "
	       "are compared, and on again after\n");
	if (journal_restore(&j, NULL) || journal_remove(&j)) {
		err_msg("--verify: could not put the applied settings back; run 'deferbench restore'");
		journal_free(&j);
		return -EIO;
	}
	journal_free(&j);
	*reapply = true;
	return 0;
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
					     "apply.sh" };
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
	kernel_release(kernel, sizeof(kernel));
	return run_dir_default(buf, len, host, kernel, time(NULL), "tune");
}

static int tune_main(struct tune_args *a, const char *command)
{
	struct tune_cand cands[TUNE_MAX_CANDS + TUNE_MAX_TRY], base = { 0 }, prev;
	struct tune_facts facts = { .sysfs = wq_has_sysfs, .probe = a->probe, .first_cpu = 0 };
	struct tune_group top[TUNE_TOP];
	char dir[PATH_MAX], p[PATH_MAX + 32], runp[PATH_MAX + 32], err[ERRBUF_LEN];
	struct record rec = { 0 };
	struct run_opts ro = { 0 };
	const struct adv_cfg *best;
	struct advice adv;
	struct run run;
	size_t ncand = 0, ntop = 0;
	unsigned int blocks;
	int i, ret, log_fd = -1;
	struct outw w = { .pfd = -1 };
	bool reapply = false;
	pid_t pid = 0;

	if (out_dir(a, dir, sizeof(dir)) || path_check(dir, err))
		return err_msg("-o: %s", err), 1;
	/* like run's: a new or empty directory, no link, no input, no system directory */
	if (!a->verify &&
	    outw_open(&w, dir, &(struct outw_opts){ .kind = OUTW_LIVE, .by = "tune",
		      .inputs = (const char *const[]){ a->metric, NULL } }, err))
		return err_msg("%s", err), 1;
	if (a->verify) {
		ret = verify_cands(dir, &cands[0], &prev, a);
		if (ret)
			return 1;
		base = prev;
		ncand = 1;
		snprintf(cands[0].why, sizeof(cands[0].why), "the settings tune decided");
		/* settings applied with --apply=now: put back for the comparison, then again */
		ret = take_back_applied(&reapply);
		if (ret)
			return 1;
	} else {
		for (i = 0; i < (int)a->ntry; i++)
			if (tune_try_parse(a->try[i], i + 1, &cands[ncand++], err))
				return err_msg("%s", err), 1;
	}
	if (a->cmd && start_command(a->cmd, &pid, &log_fd, err))
		return err_msg("%s", err), 1;
	if (!a->verify && a->survey_ns) {
		snprintf(p, sizeof(p), "%s/survey", dir);
		printf("tune: watching %s for %.1f s to choose candidates\n",
		       a->cmd ? a->cmd[0] : "the machine", a->survey_ns / 1e9);
		fflush(stdout);
		ret = survey(a, p, &rec);
		if (ret)
			goto out;
		ntop = tune_rank(&rec, top, TUNE_TOP);
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
	if (!ncand) {
		printf("tune: nothing to try: the survey suggests no candidate this tune may try "
		       "(--allow), and no --try was given; keep what you have\n");
		ret = 0;
		goto out;
	}
	for (i = 0; i < (int)ncand; i++)
		printf("tune: candidate %-20s %s\n", cands[i].name, cands[i].why);
	blocks = blocks_for(a, (int)ncand + 1);
	if (blocks < 6) {
		err_msg("-d %.0f s holds %u blocks of %zu phases of %.1f s: at least 6 are needed "
			"to decide; give -d %.0f s or more (or fewer candidates)",
			a->duration_ns / 1e9, blocks, ncand + 1, a->phase_ns / 1e9,
			2 + 6.0 * (double)(ncand + 1) * a->phase_ns / 1e9);
		ret = -EINVAL;
		goto out;
	}
	snprintf(p, sizeof(p), "%s/tune%s.ini", dir, a->verify ? "-verify" : "");
	ret = write_scenario(a, p, a->verify ? "previous" : "current", a->verify ? &base : NULL,
			     cands, ncand, top, ntop, blocks);
	if (ret) {
		err_msg("writing %s: %s", p, strerror(-ret));
		goto out;
	}
	snprintf(runp, sizeof(runp), "%s/%s", dir, a->verify ? "verify" : "run");
	ro.scenario = p;
	ro.outdir = runp;
	ro.command = command;
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
			ret = apply_now(&cands[0], command);
	} else {
		const struct tune_cand *c = best ? cand_named(cands, ncand, best->s->config) : NULL;

		snprintf(p, sizeof(p), "%s/tune.json", dir);
		ret = write_json(p, c, runp, a);
		if (!ret && c && a->apply) {
			snprintf(p, sizeof(p), "%s/apply.sh", dir);
			ret = write_script(p, c);
			if (!ret)
				printf("tune: %s sets it (every value read back)\n", p);
		}
		if (!ret && c && a->apply == 2)
			ret = apply_now(c, command);
		if (!ret && !c && a->apply)
			printf("tune: nothing to apply: keep what you have\n");
	}
	advise_free(&adv);
	run_free(&run);
	printf("tune: results in %s\n", dir);
out:
	if (!a->verify)
		list_outputs(&w);
	record_free(&rec);
	if (pid > 0)
		command_workload_end();
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
	if (!is_root()) {
		err_msg("tune changes kernel settings and traces the kernel: run as root");
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "deferbench ");
	command_line(argc, argv, cmd + strlen(cmd), sizeof(cmd) - strlen(cmd));
	leftovers_remove(NULL);
	signals_install();
	return tune_main(&a, cmd);
}
