// SPDX-License-Identifier: GPL-2.0
/*
 * ci_export.c - primary metrics for KCIDB, LAVA and result.txt (see ci_export.h).
 */
#include "ci_export.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "grow.h"
#include "msg.h"

enum ci_result ci_result_of(enum verdict v)
{
	switch (v) {
	case V_WORSE:
		return CI_FAIL;
	case V_BETTER:
	case V_NO_CHANGE:
	case V_HIGHER:		/* by an amount that may lie within the margin */
	case V_LOWER:
		return CI_PASS;
	case V_CANNOT_TELL:
		return CI_UNKNOWN;
	default:
		return CI_SKIP;
	}
}

static const char *const lava_words[CI_NR] = {
	[CI_PASS] = "pass", [CI_FAIL] = "fail", [CI_UNKNOWN] = "unknown", [CI_SKIP] = "skip",
};
/* test-definitions' parser drops "unknown": undecided is reported as skipped */
static const char *const result_txt_words[CI_NR] = {
	[CI_PASS] = "pass", [CI_FAIL] = "fail", [CI_UNKNOWN] = "skip", [CI_SKIP] = "skip",
};

static const struct cmp_row *find_cmp(const struct cmp_result *cmp, const char *wl,
				      const char *cfg, const char *id)
{
	size_t i;

	for (i = 0; cmp && i < cmp->nrows; i++) {
		const struct cmp_row *r = &cmp->rows[i];

		if (!strcmp(r->workload, wl) && !strcmp(r->config, cfg) &&
		    (!strcmp(r->id, id) || !strcmp(r->id, "*")))
			return r;
	}
	return NULL;
}

/*
 * pooled_value - k's figure as the verdicts read it: the repetitions they read pooled,
 * nearest rank, the bucket's midpoint (the report's tables show the same number); NaN
 * when the pool has fewer than min_tail samples beyond the percentile, as a verdict
 * would not read it either
 */
static double pooled_value(const struct cellset *s, const struct metric_key *k,
			   unsigned int min_tail)
{
	struct hist *h = malloc(sizeof(*h));
	double v = NAN;

	if (!h)
		return NAN;
	hist_init(h);
	if (!cellset_pooled_verdict(s, k, h) && metric_usable(k->stat, h->count, min_tail))
		v = (double)hist_percentile_mid(h, metric_stat_q[k->stat]);
	free(h);
	return v;
}

static void fill_values(struct ci_row *r, const struct cellset *s,
			const struct metric_key *k, unsigned int min_tail)
{
	uint64_t count;
	size_t i;
	double v;

	for (i = 0; i < s->n; i++) {
		const struct cell *c = s->cell[i];

		if (!c->ok || (c->rec.cap.lossy && metric_trace_derived(k)))
			continue;
		if (!metric_value(&c->rec, k, &v, &count) &&
		    metric_usable(k->stat, count, min_tail))
			r->v[r->n++] = v;
	}
	r->value = pooled_value(s, k, min_tail);
	r->lo = r->hi = NAN;
	for (i = 0; i < r->n; i++) {
		r->lo = i ? fmin(r->lo, r->v[i]) : r->v[i];
		r->hi = i ? fmax(r->hi, r->v[i]) : r->v[i];
	}
}

static int add_set(struct ci_rows *out, const struct cellset *s,
		   const struct cmp_result *cmp, unsigned int min_tail)
{
	struct keylist kl = { 0 };
	char id[METRIC_ID_LEN];
	size_t i;
	int ret;

	ret = keylist_collect(s, false, &kl);
	for (i = 0; !ret && i < kl.n; i++) {
		const struct cmp_row *c;
		struct ci_row *r, *p;

		metric_id(&kl.k[i], id, sizeof(id));
		if (!cmp_is_primary(NULL, s, id))
			continue;
		p = grow_array(out->r, out->n, sizeof(*p));
		if (!p) {
			ret = -ENOMEM;
			break;
		}
		out->r = p;
		r = &out->r[out->n++];
		memset(r, 0, sizeof(*r));
		snprintf(r->workload, sizeof(r->workload), "%s", s->workload);
		snprintf(r->config, sizeof(r->config), "%s", s->config);
		snprintf(r->metric, sizeof(r->metric), "%s", id);
		fill_values(r, s, &kl.k[i], min_tail);
		r->result = CI_SKIP;
		c = find_cmp(cmp, s->workload, s->config, id);
		if (c && c->judged) {
			r->judged = true;
			r->j = c->j;
			r->result = ci_result_of(c->j.v);
		}
	}
	keylist_free(&kl);
	return ret;
}

int ci_rows_build(const struct run *run, const struct cmp_result *cmp,
		  unsigned int min_tail, struct ci_rows *out, char *errbuf)
{
	struct cellsets cs;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = cellsets_build(run, &cs);
	for (i = 0; !ret && i < cs.n; i++)
		ret = add_set(out, &cs.s[i], cmp, min_tail);
	cellsets_free(&cs);
	if (ret) {
		ci_rows_free(out);
		return errno_msg(errbuf, ret, "%s: %s", run->dir, strerror(-ret));
	}
	return 0;
}

void ci_rows_free(struct ci_rows *rows)
{
	free(rows->r);
	memset(rows, 0, sizeof(*rows));
}

/* safe_name - [A-Za-z0-9._-] only: LAVA test names, KCIDB path parts */
static void safe_name(char *dst, size_t len, const char *src, bool keep_dot)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++) {
		char c = src[i];

		dst[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '_' || (keep_dot && c == '.')
			 ? c : '_';
	}
	dst[i] = '\0';
}

static void case_name(const struct ci_row *r, char *buf, size_t len, bool keep_dot)
{
	char raw[METRIC_ID_LEN + 2 * NAME_LEN + 4];

	snprintf(raw, sizeof(raw), "%s_%s_%s", r->workload, r->config, r->metric);
	safe_name(buf, len, raw, keep_dot);
}

void ci_write_lava(FILE *f, const struct ci_rows *rows)
{
	char set[2 * NAME_LEN + 2], raw[2 * NAME_LEN + 2], name[512];
	size_t i;

	for (i = 0; i < rows->n; i++) {
		const struct ci_row *r = &rows->r[i];

		snprintf(raw, sizeof(raw), "%s_%s", r->workload, r->config);
		safe_name(set, sizeof(set), raw, true);
		case_name(r, name, sizeof(name), true);
		fprintf(f, "%s\t%s\t%s\t", set, name, lava_words[r->result]);
		if (!isnan(r->value))
			fprintf(f, "%.3f\tus\n", r->value / 1e3);
		else
			fprintf(f, "\t\n");
	}
}

void ci_write_result_txt(FILE *f, const struct ci_rows *rows)
{
	char name[512];
	size_t i;

	for (i = 0; i < rows->n; i++) {
		const struct ci_row *r = &rows->r[i];

		case_name(r, name, sizeof(name), true);
		fprintf(f, "%s %s", name, result_txt_words[r->result]);
		if (!isnan(r->value))
			fprintf(f, " %.3f us", r->value / 1e3);
		fputc('\n', f);
	}
}

bool ci_kcidb_origin_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static const char *kcidb_status(const struct ci_row *r)
{
	if (isnan(r->value))
		return "SKIP";
	return r->result == CI_PASS ? "PASS" : r->result == CI_FAIL ? "FAIL" : "DONE";
}

/* jnum - v with 7 significant digits ("0.000436224", not 0.00043622399999999998) */
static json_object *jnum(double v)
{
	char s[32];

	if (!isfinite(v))
		return NULL;
	snprintf(s, sizeof(s), "%.7g", v);
	return json_object_new_double_s(v, s);
}

static json_object *pair(double a, double b)
{
	json_object *arr = json_object_new_array();

	json_object_array_add(arr, jnum(a));
	json_object_array_add(arr, jnum(b));
	return arr;
}

static json_object *row_misc(const struct run *run, const struct ci_row *r)
{
	json_object *m = json_object_new_object(), *reps = json_object_new_array();
	size_t i;

	for (i = 0; i < r->n; i++)
		json_object_array_add(reps, jnum(r->v[i] / 1e3));
	json_object_object_add(m, "host", json_object_new_string(run->meta[RM_HOSTNAME]));
	json_object_object_add(m, "kernel", json_object_new_string(run->meta[RM_KERNEL]));
	json_object_object_add(m, "scenario", json_object_new_string(run->scenario));
	json_object_object_add(m, "workload", json_object_new_string(r->workload));
	json_object_object_add(m, "config", json_object_new_string(r->config));
	json_object_object_add(m, "metric", json_object_new_string(r->metric));
	json_object_object_add(m, "unit", json_object_new_string("us"));
	json_object_object_add(m, "repetitions", reps);
	json_object_object_add(m, "range", pair(r->lo / 1e3, r->hi / 1e3));
	if (r->judged) {
		json_object_object_add(m, "verdict", json_object_new_string(judge_verdict_names[r->j.v]));
		json_object_object_add(m, "ratio", jnum(r->j.ratio));
		json_object_object_add(m, "interval", pair(r->j.lo, r->j.hi));
		json_object_object_add(m, "why", json_object_new_string(r->j.why));
	}
	return m;
}

static json_object *row_test(const struct run *run, const struct ci_row *r,
			     const struct kcidb_opts *o, const char *build_id)
{
	json_object *t = json_object_new_object(), *num, *env;
	char id[1024], path[512], name[512], part[2][NAME_LEN], host[NAME_LEN];

	case_name(r, name, sizeof(name), false);
	safe_name(part[0], sizeof(part[0]), r->workload, false);
	safe_name(part[1], sizeof(part[1]), r->config, false);
	safe_name(host, sizeof(host), run->meta[RM_HOSTNAME], true);
	snprintf(id, sizeof(id), "%.64s:deferbench.%.64s.%.64s.%.500s", o->origin, host,
		 run->meta[RM_STARTED], name);
	safe_name(path, sizeof(path), r->metric, false);
	snprintf(name, sizeof(name), "deferbench.%.60s.%.60s.%.300s", part[0], part[1], path);
	json_object_object_add(t, "id", json_object_new_string(id));
	json_object_object_add(t, "build_id", json_object_new_string(build_id));
	json_object_object_add(t, "origin", json_object_new_string(o->origin));
	json_object_object_add(t, "path", json_object_new_string(name));
	json_object_object_add(t, "status", json_object_new_string(kcidb_status(r)));
	if (run->meta[RM_STARTED][0])
		json_object_object_add(t, "start_time",
				       json_object_new_string(run->meta[RM_STARTED]));
	env = json_object_new_object();
	snprintf(path, sizeof(path), "host %.64s, kernel %.200s", run->meta[RM_HOSTNAME],
		 run->meta[RM_KERNEL]);
	json_object_object_add(env, "comment", json_object_new_string(path));
	json_object_object_add(t, "environment", env);
	if (!isnan(r->value)) {
		num = json_object_new_object();
		json_object_object_add(num, "value", jnum(r->value / 1e9));
		json_object_object_add(num, "unit", json_object_new_string("s"));
		json_object_object_add(num, "prefix", json_object_new_string("metric"));
		json_object_object_add(t, "number", num);
	}
	json_object_object_add(t, "misc", row_misc(run, r));
	return t;
}

int ci_write_kcidb(FILE *f, const struct run *run, const struct ci_rows *rows,
		   const struct kcidb_opts *o, char *errbuf)
{
	json_object *root, *ver, *tests;
	char build[1024];
	size_t i;
	int ret = 0;

	if (!ci_kcidb_origin_ok(o->origin))
		return set_err(errbuf, "origin '%s': KCIDB wants lowercase letters, digits and "
			      "'_' only", o->origin);
	if (o->build_id)
		snprintf(build, sizeof(build), "%s", o->build_id);
	else
		snprintf(build, sizeof(build), "%.64s:%.200s", o->origin, run->meta[RM_KERNEL]);
	if (!strchr(build, ':'))
		return set_err(errbuf, "build id '%s': KCIDB ids are 'origin:rest'", build);
	root = json_object_new_object();
	ver = json_object_new_object();
	tests = json_object_new_array();
	if (!root || !ver || !tests) {
		json_object_put(root);
		json_object_put(ver);
		json_object_put(tests);
		return errno_msg(errbuf, -ENOMEM, "out of memory");
	}
	json_object_object_add(ver, "major", json_object_new_int(4));
	json_object_object_add(ver, "minor", json_object_new_int(3));
	json_object_object_add(root, "version", ver);
	for (i = 0; i < rows->n; i++)
		json_object_array_add(tests, row_test(run, &rows->r[i], o, build));
	json_object_object_add(root, "tests", tests);
	if (fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
			JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		ret = errno_msg(errbuf, -EIO, "cannot write the KCIDB JSON");
	json_object_put(root);
	return ret;
}
