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

int raw_save_comms(const char *rawdir, const struct comm_entry *c, size_t n)
{
	char path[PATH_MAX];
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "%s/comms", rawdir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	for (i = 0; i < n; i++)
		fprintf(f, "%d %s\n", c[i].pid, c[i].comm);
	return fclose(f) ? -errno : 0;
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

static void jadd_u64(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

int raw_save_meta(const char *rawdir, const struct result *r, unsigned int subbuf_size)
{
	json_object *o = json_object_new_object(), *loss = json_object_new_array();
	json_object *missing = json_object_new_array();
	char path[PATH_MAX];
	int c, k, ret = 0;

	json_object_object_add(o, "schema", json_object_new_string("deferbench-raw/1"));
	json_object_object_add(o, "cpus", json_object_new_int(r->ncpus));
	jadd_u64(o, "subbuf_size", subbuf_size);
	jadd_u64(o, "start_ts", r->start_ts);
	jadd_u64(o, "end_ts", r->end_ts);
	jadd_u64(o, "interval_ns", r->meta.interval_ns);
	jadd_u64(o, "buffer_kb", r->meta.buffer_kb);
	json_object_object_add(o, "capture_cpu_s", json_object_new_double(r->meta.capture_cpu_s));
	json_object_object_add(o, "kernel", json_object_new_string(r->meta.kernel));
	json_object_object_add(o, "hostname", json_object_new_string(r->meta.hostname));
	json_object_object_add(o, "started", json_object_new_string(r->meta.started));
	json_object_object_add(o, "command", json_object_new_string(r->meta.command));
	json_object_object_add(o, "trace_clock", json_object_new_string(r->meta.trace_clock));
	for (k = 0; k < EV_NR; k++)
		if (r->meta.missing[k])
			json_object_array_add(missing, json_object_new_string(ev_kind_names[k]));
	json_object_object_add(o, "events_missing", missing);
	for (c = 0; c < r->ncpus; c++) {
		json_object *l = json_object_new_object();

		jadd_u64(l, "entries", r->loss[c].entries);
		jadd_u64(l, "overrun", r->loss[c].overrun);
		jadd_u64(l, "commit_overrun", r->loss[c].commit_overrun);
		jadd_u64(l, "dropped", r->loss[c].dropped);
		jadd_u64(l, "read_events", r->loss[c].read_events);
		json_object_array_add(loss, l);
	}
	json_object_object_add(o, "loss", loss);
	snprintf(path, sizeof(path), "%s/capture.json", rawdir);
	if (json_object_to_file_ext(path, o, JSON_C_TO_STRING_PRETTY))
		ret = -EIO;
	json_object_put(o);
	return ret;
}

/* get - a member of o with the wanted type, or NULL */
static json_object *get(json_object *o, const char *k, json_type t)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, t))
		return NULL;
	return v;
}

static int get_u64(json_object *o, const char *k, uint64_t *v, const char *path, char *errbuf)
{
	json_object *j = get(o, k, json_type_int);

	if (!j)
		return set_err(errbuf, "%s: field '%s' is missing or not an integer", path, k);
	*v = json_object_get_uint64(j);
	return 0;
}

static void get_str(json_object *o, const char *k, char *buf, size_t len)
{
	json_object *j = get(o, k, json_type_string);

	snprintf(buf, len, "%s", j ? json_object_get_string(j) : "");
}

int raw_load_meta(const char *rawdir, struct raw_meta *rm, char *errbuf)
{
	json_object *o, *loss, *missing, *s;
	char path[PATH_MAX];
	uint64_t v;
	size_t i;
	int c, k, ret;

	memset(rm, 0, sizeof(*rm));
	snprintf(path, sizeof(path), "%s/capture.json", rawdir);
	o = json_object_from_file(path);
	if (!o)
		return set_err(errbuf, "cannot read %s: %s", path, json_util_get_last_err());
	s = get(o, "schema", json_type_string);
	ret = -EINVAL;
	if (!s || strcmp(json_object_get_string(s), "deferbench-raw/1")) {
		set_err(errbuf, "%s: not a deferbench raw capture (schema deferbench-raw/1)", path);
		goto out;
	}
	if (get_u64(o, "cpus", &v, path, errbuf))
		goto out;
	if (v < 1 || v > 8192) {
		set_err(errbuf, "%s: cpus %llu is out of range", path, (unsigned long long)v);
		goto out;
	}
	rm->ncpus = (int)v;
	if (get_u64(o, "subbuf_size", &v, path, errbuf))
		goto out;
	if (v < 64 || v > (1 << 20)) {
		set_err(errbuf, "%s: subbuf_size %llu is out of range", path, (unsigned long long)v);
		goto out;
	}
	rm->subbuf_size = (unsigned int)v;
	if (get_u64(o, "start_ts", &rm->start_ts, path, errbuf) ||
	    get_u64(o, "end_ts", &rm->end_ts, path, errbuf) ||
	    get_u64(o, "interval_ns", &rm->interval_ns, path, errbuf) ||
	    get_u64(o, "buffer_kb", &v, path, errbuf))
		goto out;
	rm->meta.buffer_kb = (unsigned int)v;
	s = get(o, "capture_cpu_s", json_type_double);
	rm->meta.capture_cpu_s = s ? json_object_get_double(s) : 0.0;
	rm->meta.interval_ns = rm->interval_ns;
	get_str(o, "kernel", rm->meta.kernel, sizeof(rm->meta.kernel));
	get_str(o, "hostname", rm->meta.hostname, sizeof(rm->meta.hostname));
	get_str(o, "started", rm->meta.started, sizeof(rm->meta.started));
	get_str(o, "command", rm->meta.command, sizeof(rm->meta.command));
	get_str(o, "trace_clock", rm->meta.trace_clock, sizeof(rm->meta.trace_clock));
	missing = get(o, "events_missing", json_type_array);
	for (i = 0; missing && i < json_object_array_length(missing); i++) {
		const char *name = json_object_get_string(json_object_array_get_idx(missing, i));

		for (k = 0; k < EV_NR; k++)
			if (name && !strcmp(name, ev_kind_names[k]))
				rm->meta.missing[k] = true;
	}
	loss = get(o, "loss", json_type_array);
	if (!loss || json_object_array_length(loss) != (size_t)rm->ncpus) {
		set_err(errbuf, "%s: 'loss' must list one entry per CPU", path);
		goto out;
	}
	rm->loss = calloc(rm->ncpus, sizeof(*rm->loss));
	if (!rm->loss) {
		ret = set_err(errbuf, "out of memory");
		goto out;
	}
	for (c = 0; c < rm->ncpus; c++) {
		json_object *l = json_object_array_get_idx(loss, c);

		if (get_u64(l, "entries", &rm->loss[c].entries, path, errbuf) ||
		    get_u64(l, "overrun", &rm->loss[c].overrun, path, errbuf) ||
		    get_u64(l, "commit_overrun", &rm->loss[c].commit_overrun, path, errbuf) ||
		    get_u64(l, "dropped", &rm->loss[c].dropped, path, errbuf) ||
		    get_u64(l, "read_events", &rm->loss[c].read_events, path, errbuf)) {
			free(rm->loss);
			rm->loss = NULL;
			goto out;
		}
	}
	ret = 0;
out:
	json_object_put(o);
	return ret;
}
