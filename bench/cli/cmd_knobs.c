// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_knobs.c - `deferbench knobs show | list | set`.
 *
 * `knobs set` goes through the same journal as `run`: every knob is saved before the
 * first write and restored on Ctrl-C, SIGTERM, the end of --duration, or an error; after a
 * SIGKILL, `deferbench restore` undoes it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "journal.h"
#include "knobs.h"
#include "knobs_show.h"
#include "msg.h"
#include "proc.h"
#include "sys.h"

static void knobs_list(FILE *f)
{
	const struct knob_type *t;

	fprintf(f, "knobs (in [config] sections, or deferbench knobs set NAME=VALUE):\n");
	for (t = knob_type_next(NULL); t; t = knob_type_next(t))
		fprintf(f, "  %-36s %s\n", t->pattern, t->help);
	fprintf(f, "masks are hexadecimal as in sysfs (1 = CPU 0, 2 = CPU 1, 3 = both); "
		"policies: fifo:P, rr:P, other[:NICE], batch[:NICE], idle\n");
}

/* parse_assignments - "name=value" arguments into knobs, checked on this machine */
static int parse_assignments(int argc, char **argv, struct knob *ks)
{
	char err[ERRBUF_LEN], name[KNOB_NAME_MAX];
	int i;

	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i] || (size_t)(eq - argv[i]) >= sizeof(name)) {
			err_msg("'%s' is not KNOB=VALUE", argv[i]);
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[i]), argv[i]);
		if (knob_parse(name, eq + 1, &ks[i], NULL, err) || knob_check(&ks[i], err)) {
			err_msg("%s: %s", name, err);
			return -EINVAL;
		}
	}
	if (knobs_check_set(ks, argc, err)) {
		err_msg("%s", err);
		return -EINVAL;
	}
	return 0;
}

/* apply_all - save every knob, then apply them rank by rank */
static int apply_all(struct journal *j, const struct knob *ks, int n)
{
	struct knob_result r;
	char err[ERRBUF_LEN];
	int i, rank;

	for (i = 0; i < n; i++)
		if (journal_save(j, &ks[i], err)) {
			err_msg("saving %s: %s", ks[i].name, err);
			return -EIO;
		}
	for (rank = 0; rank < KNOB_RANKS; rank++)
		for (i = 0; i < n; i++) {
			if (journal_apply_rank(&ks[i]) != rank)
				continue;
			if (journal_apply(j, &ks[i], &r, err)) {
				err_msg("%s = %s: %s", ks[i].name, ks[i].value, err);
				return -EIO;
			}
			if (r.targets)
				printf("%s = %s (%d target%s, reads %s)\n", ks[i].name, ks[i].value,
				       r.targets, r.targets > 1 ? "s" : "", r.value);
			else
				printf("%s = %s: no thread matched\n", ks[i].name, ks[i].value);
		}
	return 0;
}

static const struct opt_desc knobs_opts[] = {
	CLI_OPT_DURATION(knobs_args, hold_ns,
			 "set: restore after DUR (default: at Ctrl-C or SIGTERM)"),
	OPT_ALIAS('t', "time", "duration", "-t means --threshold"),
	OPT_HELP(),
	OPT_END(),
};

static void knobs_verbs(FILE *f)
{
	fprintf(f, "\n  show   this machine's workqueue settings, softirq threads and worker pools "
		"(the default)\n"
		"  list   the knobs scenario files may set\n"
		"  set    set knobs until Ctrl-C or --duration (saved first; 'deferbench restore' "
		"after a crash)\n");
}

static void knobs_defaults(void *args)
{
	memset(args, 0, sizeof(struct knobs_args));
}

const struct cli_command cli_knobs = {
	.name = "knobs",
	.fn = cmd_knobs,
	.summary = "show workqueue settings and worker pools; list or set knobs",
	.usage = "deferbench knobs [show] | list | set [-d DUR] KNOB=VALUE...",
	.desc =
	"Show this machine's workqueue settings, list the knobs, or set knobs for a while:\n"
	"they are saved first, read back, and restored at Ctrl-C, SIGTERM or the end of\n"
	"--duration.",
	.examples = "deferbench knobs show\n"
		    "deferbench knobs set -d 30s wq.writeback.nice=-5",
	.opts = knobs_opts,
	.args_size = sizeof(struct knobs_args),
	.defaults = knobs_defaults,
	.more = knobs_verbs,
};

int knobs_parse_args(int argc, char **argv, struct knobs_args *a, char *errbuf)
{
	static const char *const verbs[] = { [KNOBS_SHOW] = "show", [KNOBS_LIST] = "list",
					     [KNOBS_SET] = "set" };
	int first, ret;
	size_t v;

	knobs_defaults(a);
	/* alone, it shows the settings (README, like 'git remote') */
	if (argc < 2) {
		a->verb = KNOBS_SHOW;
		return 0;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return CLI_HELP;
	for (v = 0; v < ARRAY_SIZE(verbs) && strcmp(argv[1], verbs[v]); v++)
		;
	if (v == ARRAY_SIZE(verbs))
		return set_err(errbuf, "unknown knobs command '%s': need show, list or set",
			       argv[1]);
	a->verb = (enum knobs_verb)v;
	/* the verb stands where getopt expects the command's name */
	ret = opts_parse(knobs_opts, OPTS_PERMUTE, argc - 1, argv + 1, a, &first, errbuf);
	if (ret)
		return ret;
	if (a->hold_ns && a->verb != KNOBS_SET)
		return set_err(errbuf, "--duration goes with 'set'");
	a->assign = argv + 1 + first;
	a->nassign = argc - 1 - first;
	if (a->verb != KNOBS_SET && a->nassign)
		return set_err(errbuf, "%s takes no arguments", verbs[a->verb]);
	if (a->verb == KNOBS_SET && (a->nassign < 1 || a->nassign > KNOBS_SET_MAX))
		return set_err(errbuf, "set needs 1 to %d KNOB=VALUE arguments", KNOBS_SET_MAX);
	return 0;
}

/* knobs_set - apply, hold until a signal or the time is up, restore */
static int knobs_set(const struct knobs_args *a, int argc, char **argv)
{
	uint64_t deadline = UINT64_MAX;
	char cmd[256], err[ERRBUF_LEN];
	struct knob ks[KNOBS_SET_MAX];
	struct journal j;
	int ret = 0, failed;

	if (!host_is_root()) {
		err_msg("knobs set changes kernel settings: run as root");
		return 1;
	}
	if (parse_assignments(a->nassign, a->assign, ks))
		return 1;
	stop_on_signals();
	snprintf(cmd, sizeof(cmd), "deferbench ");
	proc_command_line(argc, argv, cmd + strlen(cmd), sizeof(cmd) - strlen(cmd));
	if (journal_create(&j, journal_path(), cmd, err)) {
		err_msg("%s", err);
		return 1;
	}
	if (apply_all(&j, ks, a->nassign))
		ret = 1;
	if (!ret) {
		if (a->hold_ns)
			deadline = now_ns() + a->hold_ns;
		printf("applied; %s\n", a->hold_ns ? "restoring when the time is up or at Ctrl-C" :
		       "press Ctrl-C to restore");
		fflush(stdout);
		sleep_until_or_stop(deadline);
	}
	failed = journal_restore(&j, NULL);
	if (!failed && !journal_remove(&j)) {
		printf("restored\n");
	} else {
		err_msg("%d setting(s) not restored; %s is kept: run 'deferbench restore'",
			failed, j.path);
		ret = 1;
	}
	journal_free(&j);
	return ret;
}

int cmd_knobs(int argc, char **argv)
{
	char err[ERRBUF_LEN];
	struct knobs_args a;
	int ret;

	ret = cli_parsed(knobs_parse_args(argc, argv, &a, err), &cli_knobs, err, 1);
	if (ret >= 0)
		return ret;
	switch (a.verb) {
	case KNOBS_SHOW:
		return knobs_show(stdout) ? 1 : 0;
	case KNOBS_LIST:
		knobs_list(stdout);
		return 0;
	case KNOBS_SET:
		break;
	}
	return knobs_set(&a, argc, argv);
}
