// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_baseline.c - deferbench baseline save|show|path|list: a stored reference run per
 * host, <root>/<host>/<name>/, that CI compares new runs against.
 *
 * save copies only what report and compare read (run.json, scenario.ini, and the files
 * of each finished cell; never raw/ captures or .partial- cells), into a temporary
 * directory renamed into place, so a reader never sees half a baseline.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "jsonw.h"
#include "outw.h"
#include "rundir.h"
#include "msg.h"
#include "file.h"
#include "grow.h"
#include "sys.h"

static const struct opt_desc baseline_opts[] = {
	OPT_STRING('D', "dir", baseline_args, root, "ROOT",
		   "baseline store (default $DEFERBENCH_BASELINE_DIR or "
		   BASELINE_DEFAULT_ROOT ")"),
	CLI_OPT_HOST(baseline_args, host,
		     "host the baseline belongs to (default: the run's host for save, this host "
		     "otherwise)"),
	OPT_STRING(0, "name", baseline_args, name, "NAME", "baseline name"),
	CLI_OPT_FORCE(baseline_args, force, "replace the noise.json an earlier calibrate "
		      "wrote (unchanged); save replaces with --replace"),
	OPT_BOOL(0, "accept-incomplete", baseline_args, accept_incomplete,
		 "save: accept an incomplete run, or one that lost events"),
	OPT_BOOL(0, "replace", baseline_args, replace,
		 "save: replace a baseline of that name (refused otherwise)"),
	OPT_INT(0, "runs", baseline_args, runs, "N", 3, CALIBRATE_MAX_RUNS,
		"calibrate: run the scenario N times (3-20, default 5)"),
	OPT_BOOL(0, "from", baseline_args, use_from,
		 "calibrate: from the runs given (3 or more), running nothing"),
	CLI_OPT_OUTPUT(baseline_args, output, "FILE",
		       "calibrate: write noise.json here instead of beside the baseline"),
	OPT_ALIAS('d', NULL, "dir", "-d means --duration"),
	OPT_ALIAS('n', NULL, "name", "-n means --dry-run"),
	OPT_HELP(),
	OPT_END(),
};

static void baseline_defaults(void *args)
{
	struct baseline_args *a = args;

	memset(a, 0, sizeof(*a));
	a->name = "default";
	a->runs = 5;
}

const struct cli_command cli_baseline = {
	.name = "baseline",
	.fn = cmd_baseline,
	.summary = "save, show or locate the stored baseline run of a host",
	.usage = "deferbench baseline save RUN | show | path | list [OPTIONS]\n"
		 "       deferbench baseline calibrate [--runs N] SCENARIO | --from RUN RUN... "
		 "[OPTIONS]",
	.desc =
	"Store a reference run per host (<root>/<host>/<name>/) and find it again.\n"
	"'path' prints the directory and exits 1 when there is none. 'calibrate' measures\n"
	"the host's noise floors (runs the scenario N times, nothing changed, and compares\n"
	"every pair) and stores them as noise.json beside the baseline: compare then never\n"
	"uses a margin below them.",
	.examples = "deferbench baseline save results/HOST/KERNEL/RUN\n"
		    "deferbench baseline calibrate --runs 3 ci/regression.ini",
	.opts = baseline_opts,
	.args_size = sizeof(struct baseline_args),
	.defaults = baseline_defaults,
};

static bool name_ok(const char *s)
{
	if (!*s || *s == '.' || strlen(s) >= NAME_LEN)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '_'))
			return false;
	return true;
}

static int baseline_verb(const char *s, enum baseline_verb *v)
{
	static const char *const verbs[] = { [BL_SAVE] = "save", [BL_SHOW] = "show",
					     [BL_PATH] = "path", [BL_LIST] = "list",
					     [BL_CALIBRATE] = "calibrate" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(s, verbs[i])) {
			*v = (enum baseline_verb)i;
			return 0;
		}
	return -EINVAL;
}

int baseline_parse(int argc, char **argv, struct baseline_args *a, char *errbuf)
{
	const char *verb;
	int first, ret;

	baseline_defaults(a);
	/* options may come before the verb too: "baseline -D DIR save RUN" */
	ret = opts_parse(baseline_opts, OPTS_PERMUTE, argc, argv, a, &first, errbuf);
	if (ret)
		return ret;
	if (first >= argc)
		return set_err(errbuf, "need save, show, path, list or calibrate");
	verb = argv[first++];
	if (baseline_verb(verb, &a->verb))
		return set_err(errbuf, "unknown baseline command '%s': need save, show, path, "
			       "list or calibrate", verb);
	/* the positional arguments after the verb */
	argv += first;
	argc -= first;
	if (!name_ok(a->name) || (a->host && !name_ok(a->host)))
		return set_err(errbuf, "names may hold letters, digits, '.', '-' and '_' and "
			       "must not start with '.'");
	if ((a->use_from || a->output) && a->verb != BL_CALIBRATE)
		return set_err(errbuf, "--from and --output go with calibrate");
	if ((a->replace || a->accept_incomplete) && a->verb != BL_SAVE)
		return set_err(errbuf, "--%s goes with save", a->replace ? "replace" :
			       "accept-incomplete");
	/* -f once accepted a damaged run here: say where that went, never guess */
	if (a->force && a->verb == BL_SAVE)
		return set_err(errbuf, "save: -f, --force replaces output everywhere: use "
			       "--replace to replace a saved baseline, --accept-incomplete to save "
			       "an incomplete or lossy run");
	if (a->force && a->verb != BL_CALIBRATE)
		return set_err(errbuf, "-f, --force goes with calibrate");
	if (a->verb == BL_SAVE) {
		if (argc != 1)
			return set_err(errbuf, "save: need the run directory");
		a->run = argv[0];
	} else if (a->verb == BL_CALIBRATE && a->use_from) {
		if (argc < 3)
			return set_err(errbuf, "calibrate --from: need 3 or more run directories (the "
				       "spread between runs is estimated from them; 2 leave it unknown)");
		if (argc > CALIBRATE_MAX_RUNS)
			return set_err(errbuf, "calibrate --from: at most %d runs",
				       CALIBRATE_MAX_RUNS);
		a->from = argv;
		a->nfrom = argc;
	} else if (a->verb == BL_CALIBRATE) {
		if (argc != 1)
			return set_err(errbuf, "calibrate: need one scenario file (or --from RUN "
				       "RUN...)");
		a->scenario = argv[0];
	} else if (argc) {
		return set_err(errbuf, "%s takes no arguments besides options ('%s')", verb,
			       argv[0]);
	}
	return 0;
}

/* pathf - a formatted path; -ENAMETOOLONG rather than a silently cut one */
static int __printf(3, 4) pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* copy_file - src (a regular file of bounded size) to dst, a new output file */
static int copy_file(const char *src, const char *dst)
{
	char buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	in = open_input(src, INPUT_MAX_DATA, NULL);
	if (in < 0)
		return in;
	out = out_create(dst, 0644);
	if (out < 0) {
		close(in);
		return out;
	}
	while (!ret && (n = read(in, buf, sizeof(buf))) > 0) {
		ssize_t off = 0, w;

		/* after a short write, the next one says why: ENOSPC, EFBIG (ulimit -f) */
		while (!ret && off < n) {
			w = write(out, buf + off, (size_t)(n - off));
			if (w < 0 && errno != EINTR)
				ret = -errno;
			off += w > 0 ? w : 0;
		}
	}
	if (n < 0)
		ret = -errno;
	close(in);
	if (close(out) && !ret)
		ret = -errno;
	return ret;
}

/* wanted - the result files report and compare read; not reports, plots or raw data */
static bool wanted(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && name[0] != '.' && (!strcmp(dot, ".json") || !strcmp(dot, ".csv") ||
					 !strcmp(dot, ".ini"));
}

/* copy_files - the wanted regular files of src (not subdirectories) into dst, created */
static int copy_files(const char *src, const char *dst)
{
	char s[PATH_MAX], d[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int ret;

	ret = out_mkdir_p(dst);
	if (ret)
		return ret;
	dir = opendir(src);
	if (!dir)
		return -errno;
	while (!ret && (de = readdir(dir))) {
		if (path_join(s, sizeof(s), src, de->d_name) ||
		    path_join(d, sizeof(d), dst, de->d_name)) {
			ret = -ENAMETOOLONG;
			break;
		}
		/* a link in the run is not copied: what it points to is no result */
		if (wanted(de->d_name) && lstat(s, &st) == 0 && S_ISREG(st.st_mode))
			ret = copy_file(s, d);
	}
	closedir(dir);
	return ret;
}

/*
 * copied_before - cell i shares its directory with an earlier cell: every arm and block
 * of an alternating run's segment is a cell read from the one segment directory
 */
static bool copied_before(const struct run *run, size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (!strcmp(run->cells[k].dir, run->cells[i].dir))
			return true;
	return false;
}

/* copy_run - what report and compare read of run into dst; each directory once */
static int copy_run(const struct run *run, const char *dst)
{
	char d[PATH_MAX];
	size_t i;
	int ret;

	ret = copy_files(run->dir, dst);
	for (i = 0; !ret && !run->is_record && i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];

		if (access(c->dir, F_OK) || copied_before(run, i))
			continue;
		/* the same relative place: <dst>/<cell dir relative to the run> */
		ret = path_join(d, sizeof(d), dst, c->dir + strlen(run->dir) + 1);
		ret = ret ?: copy_files(c->dir, d);
	}
	return ret;
}

static int write_info(const char *dir, const struct run *run)
{
	struct json_object *o = json_object_new_object();
	char p[PATH_MAX], now[64], src[PATH_MAX];
	int ret;

	iso_time_now(now, sizeof(now));
	if (!realpath(run->dir, src))
		snprintf(src, sizeof(src), "%s", run->dir);
	json_object_object_add(o, "schema", json_object_new_string("deferbench-baseline/1"));
	json_object_object_add(o, "source", json_object_new_string(src));
	json_object_object_add(o, "saved", json_object_new_string(now));
	ret = path_join(p, sizeof(p), dir, "baseline.json");
	ret = ret ?: jsonw_write(p, o, 0644, 0);
	json_object_put(o);
	return ret;
}

/* usable_as_baseline - a baseline must be complete and loss-free unless forced */
static int usable_as_baseline(const struct run *run, bool force)
{
	size_t i, ok = 0, lossy = 0;

	for (i = 0; i < run->ncells; i++) {
		ok += run->cells[i].ok;
		lossy += run->cells[i].ok && run->cells[i].rec.cap.lossy;
	}
	if (!ok) {
		err_msg("%s: no cell of this run finished (%zu in run.json%s): there is nothing to "
			"compare against; save a run that finished", run->dir, run->ncells,
			run->complete ? "" : ", and the run was interrupted or failed");
		return -EINVAL;
	}
	if (run->complete && ok == run->ncells && !lossy)
		return 0;
	(force ? warn_msg : err_msg)("%s: the run is %s: %zu of %zu cells finished, %zu of "
				     "them lost events%s", run->dir, run->complete ? "complete" :
				     "incomplete (interrupted or failed)", ok, run->ncells, lossy,
				     force ? "; saved anyway (--accept-incomplete)" :
				     "; use --accept-incomplete to save it anyway");
	return force ? 0 : -EINVAL;
}

/*
 * save_inputs - what save reads, for the output writer: run_inputs(), and the run's
 * directory itself, which (unlike report's and compare's) no baseline may lie in
 */
static char **save_inputs(const struct run *run)
{
	char **in = run_inputs(run), **more;
	size_t n = 0;

	while (in && in[n])
		n++;
	more = in ? grow_to(in, n + 1, n + 2, sizeof(*in)) : NULL;
	if (!more || !(more[n] = strdup(run->dir))) {
		run_inputs_free(more ? more : in);
		return NULL;
	}
	more[n + 1] = NULL;
	return more;
}

static int baseline_save(const struct baseline_args *a)
{
	char rel[PATH_MAX], dest[PATH_MAX], err[ERRBUF_LEN] = "", **inputs = NULL;
	const char *host;
	struct outw w;
	struct run run;
	int ret;

	if (run_load(a->run, &run, err)) {
		err_msg("%s", err);
		return 1;
	}
	host = a->host ? a->host : run.meta[RM_HOSTNAME];
	ret = usable_as_baseline(&run, a->accept_incomplete);
	if (!ret && !name_ok(host)) {
		err_msg("the run's host name '%s' cannot name a directory; use --host", host);
		ret = -EINVAL;
	}
	if (ret)
		goto out;
	ret = pathf(rel, sizeof(rel), "%s/%s", host, a->name);
	ret = ret ?: pathf(dest, sizeof(dest), "%s/%s", baseline_root(a), rel);
	if (!ret && !a->replace && !access(dest, F_OK)) {
		err_msg("baseline %s exists; pass --replace to replace it (or save under another "
			"--name)", dest);
		goto out_ret;
	}
	/* <host>/<name> is composed from what the run says: no link on the way is followed */
	inputs = ret ? NULL : save_inputs(&run);
	ret = ret ?: !inputs ? -ENOMEM : outw_open(&w, rel, &(struct outw_opts){
			.kind = OUTW_DIR, .by = "baseline save", .force = a->replace,
			.force_opt = "--replace", .base = baseline_root(a),
			.inputs = (const char *const *)inputs }, err);
	if (ret) {
		err_msg("%s", err[0] ? err : strerror(-ret));
		goto out;
	}
	ret = copy_run(&run, outw_dir(&w));
	ret = ret ?: write_info(outw_dir(&w), &run);
	if (ret) {
		err_msg("cannot save the baseline in %s: %s", dest, strerror(-ret));
		outw_abort(&w);
	} else if ((ret = outw_commit(&w, err))) {
		err_msg("%s", err);
	} else {
		printf("%s\n", dest);
	}
out:
	run_inputs_free(inputs);
	run_free(&run);
	return ret ? 1 : 0;
out_ret:
	run_free(&run);
	return 1;
}

static int baseline_show(const struct baseline_args *a, bool path_only)
{
	char dir[PATH_MAX], info[PATH_MAX], err[ERRBUF_LEN], *text;
	struct run run;
	size_t f;

	if (baseline_dir(a, dir, sizeof(dir))) {
		err_msg("no baseline '%s' at %s: save one with 'deferbench baseline save RUN' "
			"(--dir, --host and --name choose another)", a->name, dir);
		return 1;
	}
	if (path_only) {
		printf("%s\n", dir);
		return 0;
	}
	if (run_load(dir, &run, err)) {
		err_msg("baseline %s is unreadable: %s", dir, err);
		return 1;
	}
	printf("baseline: %s\nscenario: %s\ncells: %zu\ncomplete: %s\n", dir, run.scenario,
	       run.ncells, run.complete ? "yes" : "no");
	for (f = 0; f < RM_NR; f++)
		if (run.meta[f][0])
			printf("%s: %s\n", run_meta_names[f], run.meta[f]);
	if (!path_join(info, sizeof(info), dir, "baseline.json") &&
	    (text = read_whole_file(info, NULL))) {
		printf("saved from: %s\n", text);
		free(text);
	}
	run_free(&run);
	return 0;
}

static int baseline_list(const struct baseline_args *a)
{
	char dir[PATH_MAX], host[NAME_LEN];
	struct dirent *de;
	DIR *d;

	if (a->host)
		snprintf(host, sizeof(host), "%s", a->host);
	else if (host_name(host, sizeof(host)))
		return 1;
	if (pathf(dir, sizeof(dir), "%s/%s", baseline_root(a), host))
		return 1;
	d = opendir(dir);
	if (!d) {
		err_msg("no baselines for host %s in %s: save one with 'deferbench baseline save "
			"RUN' (--dir and --host look elsewhere)", host, baseline_root(a));
		return 1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			printf("%s/%s\n", dir, de->d_name);
	closedir(d);
	return 0;
}

int cmd_baseline(int argc, char **argv)
{
	struct baseline_args a;
	char err[ERRBUF_LEN];
	int ret;

	ret = cli_parsed(baseline_parse(argc, argv, &a, err), &cli_baseline, err, 1);
	if (ret >= 0)
		return ret;
	switch (a.verb) {
	case BL_SAVE: return baseline_save(&a);
	case BL_SHOW: return baseline_show(&a, false);
	case BL_PATH: return baseline_show(&a, true);
	case BL_LIST: return baseline_list(&a);
	case BL_CALIBRATE: return calibrate_baseline(&a);
	}
	return 1;
}
