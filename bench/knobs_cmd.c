// SPDX-License-Identifier: GPL-2.0
/*
 * knobs_cmd.c - `deferbench knobs show | list | set`.
 *
 * `knobs set` goes through the same journal as `run`: every knob is saved before the
 * first write and restored on Ctrl-C, SIGTERM, the end of --time, or an error; after a
 * SIGKILL, `deferbench restore` undoes it.
 */
#include "knobs_cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "journal.h"
#include "knobs.h"
#include "opts.h"
#include "util.h"

#define SET_MAX_KNOBS 32

void command_line(int argc, char **argv, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < argc && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}

static void knobs_list(FILE *f)
{
	const struct knob_type *t;

	fprintf(f, "knobs (in [config] sections, or deferbench knobs set NAME=VALUE):\n");
	for (t = knob_types; t->pattern; t++)
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
			if (knob_apply_rank(&ks[i]) != rank)
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

static const struct opt_desc set_opts[] = {
	{ "time", 't', required_argument, "DURATION",
	  "restore after DURATION (default: at Ctrl-C or SIGTERM)" },
	{ "help", 'h', no_argument, NULL, "this help" },
	{ 0 },
};

static int knobs_set(int argc, char **argv)
{
	static const char usage[] = "deferbench knobs set [-t DURATION] KNOB=VALUE...";
	uint64_t hold = 0, deadline = UINT64_MAX;
	char cmd[256], err[ERRBUF_LEN], ob[32];
	struct knob ks[SET_MAX_KNOBS];
	struct opts_parser p;
	struct journal j;
	int c, n, ret = 0, failed;

	opts_build_permute(&p, set_opts);
	opts_reset();
	while ((c = getopt_long(argc, argv, p.shortopts, p.longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_duration_ns(optarg, &hold, err)) {
				err_msg("--time: %s", err);
				return 1;
			}
			break;
		case 'h':
			opts_usage(stdout, usage, "Set knobs, show them read back, keep them until "
				   "Ctrl-C, SIGTERM or --time, then restore them.", set_opts);
			return 0;
		default:
			err_msg("%s: bad option or missing argument; see --help",
				opts_name(set_opts, optopt, ob, sizeof(ob)));
			return 1;
		}
	}
	n = argc - optind;
	if (n <= 0 || n > SET_MAX_KNOBS) {
		err_msg("usage: %s (1 to %d knobs)", usage, SET_MAX_KNOBS);
		return 1;
	}
	if (!is_root()) {
		err_msg("knobs set changes kernel settings: run as root");
		return 1;
	}
	if (parse_assignments(n, argv + optind, ks))
		return 1;
	signals_install();
	snprintf(cmd, sizeof(cmd), "deferbench knobs ");
	command_line(argc, argv, cmd + strlen(cmd), sizeof(cmd) - strlen(cmd));
	if (journal_create(&j, journal_path(), cmd, err)) {
		err_msg("%s", err);
		return 1;
	}
	if (apply_all(&j, ks, n))
		ret = 1;
	if (!ret) {
		if (hold)
			deadline = now_ns() + hold;
		printf("applied; %s\n", hold ? "restoring when the time is up or at Ctrl-C" :
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
	static const char usage[] =
		"usage: deferbench knobs show | list | set [-t DURATION] KNOB=VALUE...\n\n"
		"  show   this machine's workqueue settings, softirq threads and worker pools\n"
		"  list   the knobs scenario files may set\n"
		"  set    set knobs until Ctrl-C (saved first; 'deferbench restore' after a crash)\n";

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2;
	}
	if (!strcmp(argv[1], "show"))
		return knobs_show(stdout) ? 1 : 0;
	if (!strcmp(argv[1], "list")) {
		knobs_list(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "set"))
		return knobs_set(argc - 1, argv + 1);
	err_msg("unknown knobs command '%s'; see 'deferbench knobs --help'", argv[1]);
	return 1;
}
