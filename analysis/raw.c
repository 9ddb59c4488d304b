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
#include "output.h"
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

/* a format file is a few hundred bytes; the header page fewer */
#define FORMAT_MAX (64 * 1024)

int raw_load_formats(const char *rawdir, char **header, size_t *hlen, char *formats[EV_NR],
		     char *errbuf)
{
	char path[PATH_MAX];
	int k, ret;

	snprintf(path, sizeof(path), "%s/header_page", rawdir);
	if (read_input(path, FORMAT_MAX, header, hlen, errbuf))
		return -EINVAL;
	for (k = 0; k < EV_NR; k++) {
		snprintf(path, sizeof(path), "%s/formats/%s/%s", rawdir, ev_names[k].system,
			 ev_names[k].name);
		ret = read_input(path, FORMAT_MAX, &formats[k], NULL, errbuf);
		if (ret && ret != -ENOENT) {
			while (k-- > 0) {
				free(formats[k]);
				formats[k] = NULL;
			}
			free(*header);
			*header = NULL;
			return -EINVAL;
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

/* comm_ok - what the kernel can name a task: 1..15 bytes, no control characters */
static bool comm_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 15)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

int raw_load_comms(const char *rawdir, struct comm_entry **out, size_t *n, char *errbuf)
{
	char path[PATH_MAX], *text;
	size_t len;
	int ret;

	*out = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/comms", rawdir);
	if (read_input(path, 16 * INPUT_MAX_TEXT, &text, &len, errbuf))
		return -EINVAL;
	ret = raw_parse_comms(text, len, path, out, n, errbuf);
	free(text);
	return ret;
}

int raw_parse_comms(char *text, size_t len, const char *path, struct comm_entry **out,
		    size_t *n, char *errbuf)
{
	struct comm_entry *c = NULL, *nc;
	size_t cap = 0, lineno = 0;
	char *line, *next;

	*out = NULL;
	*n = 0;
	if (strlen(text) != len)
		return set_err(errbuf, "%s holds a NUL byte: not a comms file", path);
	for (line = text; *line; line = next) {
		char *sp, *nl = strchr(line, '\n');
		int pid;

		lineno++;
		next = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = '\0';
		sp = strchr(line, ' ');
		if (!sp)
			goto bad;
		*sp = '\0';
		if (parse_int(line, 0, INT32_MAX, &pid, NULL) || !comm_ok(sp + 1))
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
	*out = c;
	return 0;
bad:
	free(c);
	*n = 0;
	return set_err(errbuf, "%s:%zu: malformed line (expected 'pid comm', a comm of 1 to 15 "
		       "printable bytes)", path, lineno);
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
	if (r->meta.cmd_ended)
		json_object_object_add(o, "command_status", json_command_status(&r->meta));
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

/* get_str - a string member; control characters become '?' (they are printed) */
static void get_str(json_object *o, const char *k, char *buf, size_t len)
{
	json_object *j = get(o, k, json_type_string);
	char *p;

	snprintf(buf, len, "%s", j ? json_object_get_string(j) : "");
	for (p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* get_command_status - "command_status" of record -- COMMAND, when there is one */
static int get_command_status(json_object *o, struct result_meta *m, const char *path,
			      char *errbuf)
{
	json_object *cs = NULL, *v, *stopped;

	if (!json_object_object_get_ex(o, "command_status", &cs))
		return 0;
	stopped = get(cs, "stopped_by_deferbench", json_type_boolean);
	if (!json_object_is_type(cs, json_type_object) || !stopped)
		return set_err(errbuf, "%s: 'command_status' is malformed", path);
	m->cmd_ended = true;
	m->cmd_stopped = json_object_get_boolean(stopped);
	m->cmd_exit = -1;
	if ((v = get(cs, "signal", json_type_int))) {
		m->cmd_signal = json_object_get_int(v);
		if (m->cmd_signal < 1 || m->cmd_signal > 64)
			return set_err(errbuf, "%s: command_status.signal is out of range", path);
	} else if ((v = get(cs, "exit", json_type_int))) {
		m->cmd_exit = json_object_get_int(v);
		if (m->cmd_exit < 0 || m->cmd_exit > 255)
			return set_err(errbuf, "%s: command_status.exit is out of range", path);
	} else {
		return set_err(errbuf, "%s: 'command_status' has neither 'exit' nor 'signal'", path);
	}
	return 0;
}

/* parse_json - one JSON object, with nothing after it */
static json_object *parse_json(const char *text, size_t len, const char *path, char *errbuf)
{
	struct json_tokener *tok;
	json_object *o = NULL;

	if (len > INT32_MAX) {
		set_err(errbuf, "%s is too large", path);
		return NULL;
	}
	tok = json_tokener_new();
	if (tok)
		o = json_tokener_parse_ex(tok, text, (int)len);
	if (!tok) {
		set_err(errbuf, "out of memory");
	} else if (!o || json_tokener_get_parse_end(tok) < len) {
		set_err(errbuf, "%s: not valid JSON (%s at byte %zu)", path,
			o ? "trailing data" : json_tokener_error_desc(json_tokener_get_error(tok)),
			json_tokener_get_parse_end(tok));
		json_object_put(o);
		o = NULL;
	} else if (!json_object_is_type(o, json_type_object)) {
		set_err(errbuf, "%s: not a JSON object", path);
		json_object_put(o);
		o = NULL;
	}
	if (tok)
		json_tokener_free(tok);
	return o;
}

int raw_load_meta(const char *rawdir, struct raw_meta *rm, char *errbuf)
{
	char path[PATH_MAX], *text;
	size_t len;
	int ret;

	memset(rm, 0, sizeof(*rm));
	snprintf(path, sizeof(path), "%s/capture.json", rawdir);
	if (read_input(path, INPUT_MAX_TEXT, &text, &len, errbuf))
		return -EINVAL;
	ret = raw_parse_meta(text, len, path, rm, errbuf);
	free(text);
	return ret;
}

int raw_parse_meta(const char *text, size_t len, const char *path, struct raw_meta *rm,
		   char *errbuf)
{
	json_object *o, *loss, *missing, *s;
	uint64_t v;
	size_t i;
	int c, k, ret;

	memset(rm, 0, sizeof(*rm));
	o = parse_json(text, len, path, errbuf);
	if (!o)
		return -EINVAL;
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
	/* the kernel's sub-buffers are pages: a power of two, so records stay aligned */
	if (v < 4096 || v > (1 << 20) || (v & (v - 1))) {
		set_err(errbuf, "%s: subbuf_size %llu is not a power of two in [4096, 1048576]",
			path, (unsigned long long)v);
		goto out;
	}
	rm->subbuf_size = (unsigned int)v;
	if (get_u64(o, "start_ts", &rm->start_ts, path, errbuf) ||
	    get_u64(o, "end_ts", &rm->end_ts, path, errbuf) ||
	    get_u64(o, "interval_ns", &rm->interval_ns, path, errbuf) ||
	    get_u64(o, "buffer_kb", &v, path, errbuf))
		goto out;
	if (rm->end_ts < rm->start_ts) {
		set_err(errbuf, "%s: end_ts is before start_ts", path);
		goto out;
	}
	/* record --interval is at least 10 ms */
	if (rm->interval_ns && rm->interval_ns < 10 * NSEC_PER_MSEC) {
		set_err(errbuf, "%s: interval_ns %llu is shorter than 10 ms", path,
			(unsigned long long)rm->interval_ns);
		goto out;
	}
	if (v > UINT32_MAX) {
		set_err(errbuf, "%s: buffer_kb %llu is out of range", path, (unsigned long long)v);
		goto out;
	}
	rm->meta.buffer_kb = (unsigned int)v;
	s = get(o, "capture_cpu_s", json_type_double);
	rm->meta.capture_cpu_s = s ? json_object_get_double(s) : 0.0;
	rm->meta.interval_ns = rm->interval_ns;
	get_str(o, "kernel", rm->meta.kernel, sizeof(rm->meta.kernel));
	get_str(o, "hostname", rm->meta.hostname, sizeof(rm->meta.hostname));
	get_str(o, "started", rm->meta.started, sizeof(rm->meta.started));
	get_str(o, "command", rm->meta.command, sizeof(rm->meta.command));
	get_str(o, "trace_clock", rm->meta.trace_clock, sizeof(rm->meta.trace_clock));
	if (get_command_status(o, &rm->meta, path, errbuf))
		goto out;
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
