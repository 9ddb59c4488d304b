// SPDX-License-Identifier: GPL-2.0
/*
 * tune_apply.c - deferbench tune's decision kept: tune.json, apply.sh, the settings
 * applied now (journaled), and what --verify reads back (docs/tune.md); the probes and
 * latency formats by name, which --probe, --latency-format and tune.json share.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "journal.h"
#include "jsonread.h"
#include "jsonw.h"
#include "knobs.h"
#include "msg.h"
#include "outw.h"
#define DEFERBENCH_ALLOW_TUNE_INT_H
#include "tune_int.h"

/* named - the entry of list[0..n) spelled name, or NULL */
static const char *named(const char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return list[i];
	return NULL;
}

static const char *const tune_probes[] = { "net", "timer", "tty", "audio", "block" };

const char *tune_probe_named(const char *name)
{
	return named(tune_probes, ARRAY_SIZE(tune_probes), name);
}

static const char *const metric_formats[] = { "auto", "line", "fio", "ping", "intervals" };

const char *tune_format_named(const char *name)
{
	return named(metric_formats, ARRAY_SIZE(metric_formats), name);
}

/* ---- what tune writes into its files, checked ---- */

/* one_line - printable ASCII, no space at either end: what an ini value or a shell word
 * of tune's may hold */
static bool one_line(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || s[0] == ' ' || s[n - 1] == ' ')
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return false;
	return true;
}

int tune_value_ok(const char *knob, const char *value, char *errbuf)
{
	char err[ERRBUF_LEN];
	struct knob k;
	size_t i;

	if (!one_line(knob) || !one_line(value))
		return set_err(errbuf, "'%s = %s' is not one line of plain text", knob, value);
	if (!strncmp(knob, "opt.", 4)) {
		/* a probe's option (opt.probe.napi): a word, as the workload's options are */
		for (i = 0; value[i]; i++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:,-",
				    value[i]))
				return set_err(errbuf, "%s: '%s' is not a workload option's value",
					       knob, value);
		return 0;
	}
	if (knob_parse(knob, value, &k, NULL, err))
		return set_err(errbuf, "%s = %s: %s", knob, value, err);
	return 0;
}

int tune_path_ok(const char *path, char *errbuf)
{
	if (!one_line(path) || strstr(path, ";") || strstr(path, "#") ||
	    strlen(path) >= TUNE_PATH_MAX)
		return set_err(errbuf, "'%s' cannot be written into tune.ini: give a path of "
			       "plain text without ';' or '#', shorter than %d bytes", path,
			       TUNE_PATH_MAX);
	return 0;
}

/* pattern_ok - a primary metric pattern: what metric ids and fnmatch are made of */
static bool pattern_ok(const char *p)
{
	return *p && strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_:.-*?[]") == strlen(p);
}

int tune_primary_ok(const char *line, char *errbuf)
{
	char copy[TUNE_INI_LINE + 1], *tok, *save = NULL;
	int n = 0;

	if (strlen(line) > TUNE_INI_LINE)
		return set_err(errbuf, "longer than %d characters", TUNE_INI_LINE);
	snprintf(copy, sizeof(copy), "%s", line);
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save), n++)
		if (!pattern_ok(tok) || n == PRIMARY_MAX)
			return set_err(errbuf, "'%s' is not a list of up to %d metric patterns "
				       "(softirq:NET_RX:delay:p[59]0, workload:*:p99)", line,
				       PRIMARY_MAX);
	return n ? 0 : set_err(errbuf, "is empty");
}

/* ---- tune.json, apply.sh, apply now ---- */

const struct tune_cand *tune_cand_named(const struct tune_cand *c, size_t n, const char *name)
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
	    knob_resolve(&k, knob_boot_ticks(), &t, &n, err))
		return;
	if (n)
		snprintf(buf, len, "%s", t[0].orig);
	free(t);
}

int tune_write_json(const char *path, const struct tune_cand *c, const char *run_dir,
		    const struct tune_args *a, const char *primary)
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
	json_object_object_add(o, "metric_cmd", a->metric_cmd ?
			       json_object_new_string(a->metric_cmd) : NULL);
	json_object_object_add(o, "metric_format", a->metric_format ?
			       json_object_new_string(a->metric_format) : NULL);
	/* what it was judged on: --verify judges by the same */
	json_object_object_add(o, "primary", json_object_new_string(primary));
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
 * tune_write_script - apply.sh: each setting written and read back (the sysfs files of this
 * machine, as the knob resolves now); a workload option (opt.*) is not a machine setting
 */
int tune_write_script(const char *path, const struct tune_cand *c)
{
	struct knob_target *t;
	char err[ERRBUF_LEN], desc[TGT_PATH_MAX + 32];
	struct knob k;
	size_t i;
	int n, j;
	FILE *f = out_fopen_mode(path, 0755);

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
		    knob_resolve(&k, knob_boot_ticks(), &t, &n, err)) {
			fclose(f);
			unlink(path);
			err_msg("apply.sh: %s: %s", c->knob[i], err);
			return -EINVAL;
		}
		for (j = 0; j < n; j++) {
			knob_target_describe(&t[j], desc, sizeof(desc));
			if (t[j].kind == TGT_FILE)
				fprintf(f, "set_file %s '%s'	# %s\n", t[j].path, k.value, c->knob[i]);
			else
				fprintf(f, "set_thread %d '%s'	# %s: %s\n", (int)t[j].pid, k.value,
					c->knob[i], desc);
		}
		free(t);
	}
	fprintf(f, "echo 'apply.sh: %s set'\n", c->name);
	n = out_ferror(f);
	if (fclose(f) && !n)
		n = -errno;
	return n;
}

/* tune_apply_now - the settings on the machine, journaled: 'deferbench restore' undoes them */
int tune_apply_now(const struct tune_cand *c, const char *command)
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

/*
 * read_primary - the primary line of DIR/tune.ini, checked: for a tune.json written
 * before it recorded its own; -errno
 */
static int read_primary(const char *dir, char *primary, size_t len)
{
	char path[PATH_MAX + 32], *text, *line, *save = NULL, why[ERRBUF_LEN];
	size_t n;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/tune.ini", dir);
	if (read_input(path, INPUT_MAX_TEXT, &text, &n, NULL))
		return -ENOENT;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "primary = ", 10)) {
			snprintf(primary, len, "%s", line + 10);
			ret = tune_primary_ok(primary, why) ? -EINVAL : 0;
			break;
		}
	free(text);
	return ret;
}

/* tune_verify_cands - from DIR/tune.json: the decided settings and the ones they replaced */
int tune_verify_cands(const char *dir, struct tune_cand *applied, struct tune_cand *prev,
		      struct tune_args *a, char *primary, size_t plen)
{
	static char metric[TUNE_PATH_MAX], metric_cmd[TUNE_PATH_MAX];
	char path[PATH_MAX + 32], err[ERRBUF_LEN], why[ERRBUF_LEN], probe[32] = "", fmt[32] = "";
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
		/* each becomes a line of tune-verify.ini: a knob's value, nothing else */
		if (!ret && tune_value_ok(applied->knob[i], applied->value[i], why))
			ret = jr_fail(&j, "settings[]", "value", "%s", why);
		if (!ret && tune_value_ok(prev->knob[i], prev->value[i], why))
			ret = jr_fail(&j, "settings[]", "previous", "%s", why);
		applied->nknobs = prev->nknobs = i + 1;
	}
	if (!ret && jr_has(root, "probe") &&
	    json_object_is_type(json_object_object_get(root, "probe"), json_type_string)) {
		ret = jr_str(&j, root, "", "probe", probe, sizeof(probe));
		if (!ret && !tune_probe_named(probe))
			ret = jr_fail(&j, "", "probe", "'%s' is not a probe (net, timer, tty, "
				      "audio, block)", probe);
	}
	metric[0] = metric_cmd[0] = '\0';
	if (!ret && jr_has(root, "metric") &&
	    json_object_is_type(json_object_object_get(root, "metric"), json_type_string)) {
		ret = jr_str(&j, root, "", "metric", metric, sizeof(metric));
		if (!ret && tune_path_ok(metric, why))
			ret = jr_fail(&j, "", "metric", "%s", why);
	}
	if (!ret && jr_has(root, "metric_cmd") &&
	    json_object_is_type(json_object_object_get(root, "metric_cmd"), json_type_string)) {
		ret = jr_str(&j, root, "", "metric_cmd", metric_cmd, sizeof(metric_cmd));
		if (!ret && tune_path_ok(metric_cmd, why))
			ret = jr_fail(&j, "", "metric_cmd", "%s", why);
	}
	if (!ret && jr_has(root, "metric_format") &&
	    json_object_is_type(json_object_object_get(root, "metric_format"), json_type_string)) {
		ret = jr_str(&j, root, "", "metric_format", fmt, sizeof(fmt));
		if (!ret && !tune_format_named(fmt))
			ret = jr_fail(&j, "", "metric_format", "'%s' is not a latency format (auto, "
				      "line, fio, ping, intervals)", fmt);
	}
	/* tune.json of a tune before the field: what tune.ini judged, read back */
	primary[0] = '\0';
	if (!ret && jr_has(root, "primary")) {
		ret = jr_str(&j, root, "", "primary", primary, plen);
		if (!ret && tune_primary_ok(primary, why))
			ret = jr_fail(&j, "", "primary", "%s", why);
	}
	json_object_put(root);
	if (ret) {
		err_msg("--verify: %s", err);
		return ret;
	}
	if (!primary[0] && read_primary(dir, primary, plen)) {
		err_msg("--verify: %s/tune.json does not say what the tune was judged on, and "
			"%s/tune.ini cannot tell: verify it with --latency, --latency-cmd or "
			"--probe", dir, dir);
		return -EINVAL;
	}
	if (probe[0] && !a->probe)
		a->probe = tune_probe_named(probe);
	/* the tune's own latency source, unless the verify was given one of its own */
	if (!a->metric && !a->metric_cmd && !a->probe) {
		a->metric = metric[0] ? metric : NULL;
		a->metric_cmd = metric_cmd[0] ? metric_cmd : NULL;
		if (!a->metric_format && (a->metric || a->metric_cmd))
			a->metric_format = tune_format_named(fmt);
	}
	return 0;
}

/*
 * tune_take_back - a journal left by tune --apply=now: its settings restored (the
 * run that verifies them sets them itself), *reapply set so that they go back on after
 */
int tune_take_back(bool *reapply)
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
