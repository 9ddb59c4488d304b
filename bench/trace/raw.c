// SPDX-License-Identifier: GPL-2.0
/*
 * raw.c - save and load the side files of a raw capture (see raw.h).
 */
#include "raw.h"

#include <errno.h>
#include <json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "jsonread.h"
#include "jsonw.h"
#include "util.h"

static int save_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	if (fwrite(text, 1, len, f) != len) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

int raw_save_formats(const char *rawdir, const char *header, size_t hlen,
		     char *const formats[EV_NR])
{
	char path[PATH_MAX];
	int k, ret;

	snprintf(path, sizeof(path), "%s/header_page", rawdir);
	ret = save_text(path, header, hlen);
	for (k = 0; k < EV_NR && !ret; k++) {
		if (!formats[k])
			continue;
		snprintf(path, sizeof(path), "%s/formats/%s", rawdir, ev_names[k].system);
		ret = mkdir_p(path, 0755);
		if (ret)
			break;
		snprintf(path, sizeof(path), "%s/formats/%s/%s", rawdir, ev_names[k].system,
			 ev_names[k].name);
		ret = save_text(path, formats[k], strlen(formats[k]));
	}
	return ret;
}

int raw_load_formats(const char *rawdir, char **header, size_t *hlen, char *formats[EV_NR],
		     char *errbuf)
{
	char path[PATH_MAX];
	int k;

	snprintf(path, sizeof(path), "%s/header_page", rawdir);
	*header = read_file_alloc(path, hlen);
	if (!*header)
		return set_err(errbuf, "cannot read %s: %s", path, strerror(errno));
	for (k = 0; k < EV_NR; k++) {
		snprintf(path, sizeof(path), "%s/formats/%s/%s", rawdir, ev_names[k].system,
			 ev_names[k].name);
		formats[k] = read_file_alloc(path, NULL);
		if (!formats[k] && errno != ENOENT) {
			while (k-- > 0)
				free(formats[k]);
			free(*header);
			return set_err(errbuf, "cannot read %s: %s", path, strerror(errno));
		}
	}
	return 0;
}

static int comms_write(const char *rawdir, const struct comm_entry *c, size_t n,
		       const char *mode)
{
	char path[PATH_MAX];
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "%s/comms", rawdir);
	f = fopen(path, mode);
	if (!f)
		return -errno;
	for (i = 0; i < n; i++)
		fprintf(f, "%d %s\n", c[i].pid, c[i].comm);
	return fclose(f) ? -errno : 0;
}

int raw_save_comms(const char *rawdir, const struct comm_entry *c, size_t n)
{
	return comms_write(rawdir, c, n, "w");
}

int raw_add_comms(const char *rawdir, const struct comm_entry *c, size_t n)
{
	return comms_write(rawdir, c, n, "a");
}

int raw_load_comms(const char *rawdir, struct comm_entry **out, size_t *n, char *errbuf)
{
	char path[PATH_MAX], line[128];
	struct comm_entry *c = NULL, *nc;
	size_t cap = 0, lineno = 0;
	FILE *f;

	*n = 0;
	snprintf(path, sizeof(path), "%s/comms", rawdir);
	f = fopen(path, "r");
	if (!f)
		return set_err(errbuf, "cannot read %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' '), *nl;
		int pid;

		lineno++;
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!sp)
			goto bad;
		*sp = '\0';
		if (parse_int(line, 0, INT32_MAX, &pid, NULL) || strlen(sp + 1) > 15)
			goto bad;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			nc = realloc(c, cap * sizeof(*c));
			if (!nc)
				goto bad;
			c = nc;
		}
		c[*n].pid = pid;
		snprintf(c[*n].comm, sizeof(c[*n].comm), "%s", sp + 1);
		(*n)++;
	}
	fclose(f);
	*out = c;
	return 0;
bad:
	fclose(f);
	free(c);
	return set_err(errbuf, "%s:%zu: malformed line (expected 'pid comm')", path, lineno);
}

int raw_save_meta(const char *rawdir, const struct result *r, unsigned int subbuf_size)
{
	json_object *o = json_object_new_object(), *loss = json_object_new_array();
	json_object *missing = json_object_new_array();
	char path[PATH_MAX];
	int c, k, ret = 0;

	json_object_object_add(o, "schema", json_object_new_string(RAW_SCHEMA));
	json_object_object_add(o, "cpus", json_object_new_int(r->ncpus));
	jsonw_u64(o, "subbuf_size", subbuf_size);
	jsonw_u64(o, "start_ts", r->start_ts);
	jsonw_u64(o, "end_ts", r->end_ts);
	jsonw_u64(o, "interval_ns", r->meta.interval_ns);
	jsonw_u64(o, "interval_origin_ns", r->m.t0);
	jsonw_u64(o, "buffer_kb", r->meta.buffer_kb);
	if (r->meta.sched_events[0])
		json_object_object_add(o, "sched_events",
				       json_object_new_string(r->meta.sched_events));
	json_object_object_add(o, "capture_cpu_s", json_object_new_double(r->meta.capture_cpu_s));
	json_object_object_add(o, "kernel", json_object_new_string(r->meta.kernel));
	json_object_object_add(o, "hostname", json_object_new_string(r->meta.hostname));
	json_object_object_add(o, "started", json_object_new_string(r->meta.started));
	json_object_object_add(o, "command", json_object_new_string(r->meta.command));
	json_object_object_add(o, "trace_clock", json_object_new_string(r->meta.trace_clock));
	for (k = 0; k < EV_NR; k++)
		if (r->meta.missing[k])
			json_object_array_add(missing, json_object_new_string(ev_names[k].id));
	json_object_object_add(o, "events_missing", missing);
	for (c = 0; c < r->ncpus; c++) {
		json_object *l = json_object_new_object();

		jsonw_u64(l, "entries", r->loss[c].entries);
		jsonw_u64(l, "overrun", r->loss[c].overrun);
		jsonw_u64(l, "commit_overrun", r->loss[c].commit_overrun);
		jsonw_u64(l, "dropped", r->loss[c].dropped);
		jsonw_u64(l, "read_events", r->loss[c].read_events);
		json_object_array_add(loss, l);
	}
	json_object_object_add(o, "loss", loss);
	snprintf(path, sizeof(path), "%s/capture.json", rawdir);
	ret = jsonw_write(path, o, 0644, 0);
	json_object_put(o);
	return ret;
}

/* read_loss - capture.json's per-CPU loss counters, one entry per CPU */
static int read_loss(const struct jr *j, json_object *o, struct raw_meta *rm)
{
	static const char *const keys[] = { "entries", "overrun", "commit_overrun", "dropped",
					    "read_events" };
	char where[32];
	json_object *loss;
	uint64_t *v[5];
	size_t k;
	int c, ret;

	ret = jr_get(j, o, "", "loss", json_type_array, &loss);
	if (ret)
		return ret;
	if (json_object_array_length(loss) != (size_t)rm->ncpus)
		return jr_fail(j, "", "loss", "lists %zu CPUs, not %d", json_object_array_length(loss),
			       rm->ncpus);
	rm->loss = calloc(rm->ncpus, sizeof(*rm->loss));
	if (!rm->loss)
		return set_errno(j->errbuf, -ENOMEM, "out of memory");
	for (c = 0; c < rm->ncpus; c++) {
		json_object *l = json_object_array_get_idx(loss, c);

		v[0] = &rm->loss[c].entries;
		v[1] = &rm->loss[c].overrun;
		v[2] = &rm->loss[c].commit_overrun;
		v[3] = &rm->loss[c].dropped;
		v[4] = &rm->loss[c].read_events;
		snprintf(where, sizeof(where), "loss[%d]", c);
		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if ((ret = jr_u64(j, l, where, keys[k], v[k])))
				return ret;
	}
	return 0;
}

/* read_missing - the events the kernel lacked */
static int read_missing(const struct jr *j, json_object *o, struct raw_meta *rm)
{
	json_object *missing;
	size_t i;
	int k;

	if (!jr_has(o, "events_missing"))
		return 0;
	if (jr_get(j, o, "", "events_missing", json_type_array, &missing))
		return -EINVAL;
	for (i = 0; i < json_object_array_length(missing); i++) {
		const char *name = json_object_get_string(json_object_array_get_idx(missing, i));

		for (k = 0; k < EV_NR; k++)
			if (name && !strcmp(name, ev_names[k].id))
				rm->meta.missing[k] = true;
	}
	return 0;
}

int raw_load_meta(const char *rawdir, struct raw_meta *rm, char *errbuf)
{
	char path[PATH_MAX];
	struct jr j = { path, errbuf };
	json_object *o;
	int ncpus, ret;
	uint64_t v;

	memset(rm, 0, sizeof(*rm));
	if (path_join(path, sizeof(path), rawdir, "capture.json"))
		return set_errno(errbuf, -ENAMETOOLONG, "%s: path too long", rawdir);
	ret = jr_load(&j, &o);
	if (ret)
		return ret;
	ret = jr_schema(&j, o, RAW_SCHEMA);
	ret = ret ?: jr_int(&j, o, "", "cpus", 1, 8192, &ncpus);
	ret = ret ?: jr_u64(&j, o, "", "subbuf_size", &v);
	if (!ret && (v < 64 || v > (1 << 20)))
		ret = jr_fail(&j, "", "subbuf_size", "%llu is out of range [64, 1048576]",
			      (unsigned long long)v);
	rm->ncpus = ncpus;
	rm->subbuf_size = (unsigned int)v;
	ret = ret ?: jr_u64(&j, o, "", "start_ts", &rm->start_ts);
	ret = ret ?: jr_u64(&j, o, "", "end_ts", &rm->end_ts);
	ret = ret ?: jr_u64(&j, o, "", "interval_ns", &rm->interval_ns);
	/* captures from before --align-intervals started their intervals at start_ts */
	rm->interval_origin_ns = rm->start_ts;
	if (!ret && jr_has(o, "interval_origin_ns"))
		ret = jr_u64(&j, o, "", "interval_origin_ns", &rm->interval_origin_ns);
	if (!ret && (rm->interval_origin_ns > rm->start_ts ||
		     (rm->interval_ns && rm->start_ts - rm->interval_origin_ns >= rm->interval_ns)))
		ret = jr_fail(&j, "", "interval_origin_ns", "is not within an interval before "
			      "start_ts");
	ret = ret ?: jr_u64(&j, o, "", "buffer_kb", &v);
	rm->meta.buffer_kb = (unsigned int)v;
	rm->meta.interval_ns = rm->interval_ns;
	if (!ret && jr_has(o, "capture_cpu_s"))
		ret = jr_double(&j, o, "", "capture_cpu_s", &rm->meta.capture_cpu_s);
	ret = ret ?: jr_str_opt(&j, o, "", "sched_events", rm->meta.sched_events,
				sizeof(rm->meta.sched_events));
	ret = ret ?: jr_str_opt(&j, o, "", "kernel", rm->meta.kernel, sizeof(rm->meta.kernel));
	ret = ret ?: jr_str_opt(&j, o, "", "hostname", rm->meta.hostname,
				sizeof(rm->meta.hostname));
	ret = ret ?: jr_str_opt(&j, o, "", "started", rm->meta.started, sizeof(rm->meta.started));
	ret = ret ?: jr_str_opt(&j, o, "", "command", rm->meta.command, sizeof(rm->meta.command));
	ret = ret ?: jr_str_opt(&j, o, "", "trace_clock", rm->meta.trace_clock,
				sizeof(rm->meta.trace_clock));
	ret = ret ?: read_missing(&j, o, rm);
	ret = ret ?: read_loss(&j, o, rm);
	if (ret) {
		free(rm->loss);
		rm->loss = NULL;
	}
	json_object_put(o);
	return ret;
}
