// SPDX-License-Identifier: GPL-2.0
/*
 * wl_output.c - the only place a workload's metrics are formatted: the terminal
 * table, workload.json and workload-hist.csv (docs/results-format.md).
 */
#include "jsonw.h"
#include "workload.h"

#include <csv.h>
#include <errno.h>
#include <json.h>
#include <limits.h>
#include <math.h>
#include <string.h>

static const struct wl_counter *counter_find(const struct wl_run *w, const char *name)
{
	int i;

	for (i = 0; i < w->metrics.ncounters; i++)
		if (!strcmp(w->metrics.counter[i].name, name))
			return &w->metrics.counter[i];
	return NULL;
}

/* us - nanoseconds as microseconds for the terminal table */
static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

void wl_print(const struct wl_run *w, FILE *f)
{
	const struct wl_counter *asked = counter_find(w, "rate_asked");
	const struct wl_counter *got = counter_find(w, "rate_achieved");
	struct hist_stats st;
	int i, n = 0;

	fprintf(f, "%s: %.3f s", w->ops->name, wl_window_s(w));
	if (w->window_ns)
		fprintf(f, " measured, after %.3f s of warm-up", wl_warmup_s(w));
	fprintf(f, ", seed %llu\n", (unsigned long long)w->seed);
	if (asked && got)
		fprintf(f, "  rate: %.1f/s achieved of %.1f/s asked (%.1f%%)\n", got->value,
			asked->value, asked->value > 0 ? 100.0 * got->value / asked->value : 0);
	if (w->metrics.nmetrics)
		fprintf(f, "  %-14s %10s %10s %10s %10s %10s %10s  (us)\n", "metric", "count",
			"min", "p50", "p99", "p99.9", "max");
	for (i = 0; i < w->metrics.nmetrics; i++) {
		const struct wl_metric *m = &w->metrics.metric[i];

		hist_get_stats(&m->hist, &st);
		fprintf(f, "  %-14s %10llu %10.1f %10.1f %10.1f %10.1f %10.1f\n", m->name,
			(unsigned long long)st.count, us(st.min), us(st.p50), us(st.p99),
			us(st.p999), us(st.max));
	}
	/* every counter, misses and lost operations included, next to the latencies */
	for (i = 0; i < w->metrics.ncounters; i++) {
		const struct wl_counter *c = &w->metrics.counter[i];

		if (c == asked || c == got)
			continue;
		fprintf(f, "%s%s %.10g", n % 5 ? ", " : (n ? "\n  " : "  "), c->name, c->value);
		n++;
	}
	if (n)
		fputc('\n', f);
	if (asked && got && asked->value > 0 && got->value < 0.9 * asked->value)
		fprintf(f, "  note: the rate asked was not reached; latencies measured from the "
			"intended start include the backlog\n");
}

static struct json_object *stats_json(const struct wl_metric *m)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(m->name));
	json_object_object_add(o, "unit", json_object_new_string(m->unit ? m->unit : "ns"));
	json_object_object_add(o, "desc", json_object_new_string(m->desc ? m->desc : ""));
	jsonw_stats_into(o, &m->hist);
	return o;
}

/* number_json - counters are mostly counts: write 1000, not 1000.0 */
static struct json_object *number_json(double v)
{
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double(v);
}

static struct json_object *results_json(const struct wl_run *w)
{
	struct json_object *root = json_object_new_object(), *opts, *arr, *cnt;
	const struct wl_option *o;
	char val[512];
	int i;

	json_object_object_add(root, "schema", json_object_new_string("deferbench-workload/1"));
	json_object_object_add(root, "workload", json_object_new_string(w->ops->name));
	opts = json_object_new_object();
	for (o = w->ops->options; o && o->name; o++)
		if (!wl_option_value(w, o, val, sizeof(val)))
			json_object_object_add(opts, o->name, json_object_new_string(val));
	json_object_object_add(root, "options", opts);
	json_object_object_add(root, "seed", json_object_new_uint64(w->seed));
	/* what the metrics cover (the window), and how long the load ran before it */
	json_object_object_add(root, "duration_s", json_object_new_double(wl_window_s(w)));
	json_object_object_add(root, "warmup_s", json_object_new_double(wl_warmup_s(w)));
	arr = json_object_new_array();
	for (i = 0; i < w->metrics.nmetrics; i++)
		json_object_array_add(arr, stats_json(&w->metrics.metric[i]));
	json_object_object_add(root, "metrics", arr);
	cnt = json_object_new_object();
	for (i = 0; i < w->metrics.ncounters; i++)
		json_object_object_add(cnt, w->metrics.counter[i].name,
				       number_json(w->metrics.counter[i].value));
	json_object_object_add(root, "counters", cnt);
	if (wl_error(w))
		json_object_object_add(root, "error", json_object_new_string(wl_error(w)));
	return root;
}

static int write_json(const struct wl_run *w, const char *path)
{
	struct json_object *root = results_json(w);
	int ret = 0;

	/* 10 significant digits, not json-c's 17 (2.0002131190000001) */
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_THREAD);
	if (json_object_to_file_ext(path, root, JSON_C_TO_STRING_PRETTY |
				    JSON_C_TO_STRING_NOSLASHESCAPE))
		ret = errno ? -errno : -EIO;
	json_c_set_serialization_double_format(NULL, JSON_C_OPTION_THREAD);
	json_object_put(root);
	return ret;
}

/* write_hist_csv - metric,lo_ns,hi_ns,count: the non-empty buckets of every metric */
static int write_hist_csv(const struct wl_run *w, const char *path)
{
	FILE *f = fopen(path, "we");
	unsigned int b;
	int i;

	if (!f)
		return -errno;
	fprintf(f, "metric,lo_ns,hi_ns,count\n");
	for (i = 0; i < w->metrics.nmetrics; i++) {
		const struct wl_metric *m = &w->metrics.metric[i];

		for (b = 0; b < HIST_BUCKETS; b++) {
			uint64_t lo = hist_bucket_lo(b);

			if (!m->hist.bucket[b])
				continue;
			csv_fwrite(f, m->name, strlen(m->name));
			fprintf(f, ",%llu,%llu,%llu\n", (unsigned long long)lo,
				(unsigned long long)(lo + hist_bucket_width(b)),
				(unsigned long long)m->hist.bucket[b]);
		}
	}
	if (ferror(f)) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

int wl_write_results(const struct wl_run *w, const char *dir)
{
	char path[PATH_MAX];
	int ret;

	ret = mkdir_p(dir, 0755);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/workload.json", dir);
	ret = write_json(w, path);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/workload-hist.csv", dir);
	return write_hist_csv(w, path);
}
