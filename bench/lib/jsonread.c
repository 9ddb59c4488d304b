// SPDX-License-Identifier: GPL-2.0
/*
 * jsonread.c - json-c field helpers with file and field-path errors (see jsonread.h).
 */
#include "jsonread.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "file.h"

int jr_fail(const struct jr *j, const char *where, const char *key, const char *fmt, ...)
{
	char msg[ERRBUF_LEN / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return set_err(j->errbuf, "malformed file %s: field '%s%s%s' %s", j->path,
		      where, *where ? "." : "", key, msg);
}

int jr_load(struct jr *j, struct json_object **out)
{
	char *text;
	size_t len;
	int ret;

	*out = NULL;
	ret = read_input(j->path, INPUT_MAX_DATA, &text, &len, j->errbuf);
	if (ret)
		return ret;
	ret = jr_parse(j, text, len, out);
	free(text);
	return ret;
}

int jr_parse(struct jr *j, const char *text, size_t len, struct json_object **out)
{
	struct json_tokener *tok;
	enum json_tokener_error e;
	struct json_object *o;
	int ret = 0;
	size_t at;

	*out = NULL;
	if (len > INT32_MAX)
		return errno_msg(j->errbuf, -EFBIG, "%s is too large", j->path);
	tok = json_tokener_new();
	if (!tok)
		return errno_msg(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
	o = json_tokener_parse_ex(tok, text, (int)len);
	e = json_tokener_get_error(tok);
	at = json_tokener_get_parse_end(tok);
	if (!o && e == json_tokener_continue) {
		/* the end of the text: "null" or "12" is whole there, '{"a":' is not */
		o = json_tokener_parse_ex(tok, "", 1);
		e = json_tokener_get_error(tok) == json_tokener_success ? json_tokener_success :
		    json_tokener_continue;
		at = len;
	}
	if (!o || at < len) {
		if (o)
			ret = set_err(j->errbuf, "malformed file %s: more text after the JSON "
				      "object, at byte %zu", j->path, at);
		else if (strspn(text, " \t\r\n") == len)
			ret = set_err(j->errbuf, "malformed file %s: not JSON: the file is empty (cut "
				      "short, or never written)", j->path);
		else if (e == json_tokener_continue)
			ret = set_err(j->errbuf, "malformed file %s: not JSON: the text ends before "
				      "it is complete, after %zu bytes (a file cut short?)", j->path,
				      len);
		else if (e == json_tokener_success)
			ret = set_err(j->errbuf, "malformed file %s: not a JSON object (it holds "
				      "null)", j->path);
		else
			ret = set_err(j->errbuf, "malformed file %s: not JSON: %s at byte %zu",
				      j->path, json_tokener_error_desc(e), at);
		json_object_put(o);
		o = NULL;
	} else if (!json_object_is_type(o, json_type_object)) {
		ret = set_err(j->errbuf, "malformed file %s: not a JSON object", j->path);
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	*out = o;
	return ret;
}

bool jr_has(struct json_object *o, const char *key)
{
	return json_object_object_get_ex(o, key, NULL);
}

static const char *type_name(enum json_type t)
{
	switch (t) {
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a fractional number";
	case json_type_int: return "a whole number";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	default: return "null";
	}
}

int jr_get(const struct jr *j, struct json_object *o, const char *where, const char *key,
	   enum json_type type, struct json_object **out)
{
	struct json_object *v;
	enum json_type t;

	if (!json_object_object_get_ex(o, key, &v))
		return jr_fail(j, where, key, "missing");
	t = json_object_get_type(v);
	if (type == json_type_double && (t == json_type_int || t == json_type_double))
		t = type;
	if (type != json_type_null && t != type)
		return jr_fail(j, where, key, "is %s (%.40s), expected %s", type_name(t),
			       json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN),
			       type == json_type_double ? "a number" : type_name(type));
	*out = v;
	return 0;
}

int jr_u64(const struct jr *j, struct json_object *o, const char *where, const char *key,
	   uint64_t *out)
{
	struct json_object *v;
	double d;
	int ret;

	ret = jr_get(j, o, where, key, json_type_double, &v);
	if (ret)
		return ret;
	if (json_object_is_type(v, json_type_int)) {
		if (json_object_get_int64(v) < 0)
			return jr_fail(j, where, key, "is negative");
		*out = json_object_get_uint64(v);
	} else {
		d = json_object_get_double(v);
		if (!(d >= 0 && d < 1.8e19) || d != floor(d))
			return jr_fail(j, where, key, "is %g, not a non-negative integer", d);
		*out = (uint64_t)d;
	}
	/*
	 * No count or time deferbench writes reaches 2^63 (CLOCK_MONOTONIC ns: 292
	 * years); json-c reads 2^64 and beyond as 2^64 - 1
	 */
	if (*out > INT64_MAX)
		return jr_fail(j, where, key, "is %llu, more than any count or time (2^63 - 1)",
			       (unsigned long long)*out);
	return 0;
}

/* jr_peek - the member key of o, or NULL */
static struct json_object *jr_peek(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

int jr_int(const struct jr *j, struct json_object *o, const char *where, const char *key,
	   long min, long max, int *out)
{
	struct json_object *v;
	int64_t i;
	double d;
	int ret;

	ret = jr_get(j, o, where, key, json_object_is_type(jr_peek(o, key), json_type_double) ?
		     json_type_double : json_type_int, &v);
	if (ret)
		return ret;
	if (!json_object_is_type(v, json_type_int)) {
		/* 1e308 is no fractional number: say what it is and what is expected */
		d = json_object_get_double(v);
		if (!isfinite(d) || d != floor(d))
			return jr_fail(j, where, key, "is %g, not a whole number", d);
		return jr_fail(j, where, key, "is %g, outside [%ld, %ld]", d, min, max);
	}
	i = json_object_get_int64(v);
	if (json_object_get_uint64(v) > INT64_MAX)
		return jr_fail(j, where, key, "is %llu, outside [%ld, %ld]",
			       (unsigned long long)json_object_get_uint64(v), min, max);
	if (i < min || i > max)
		return jr_fail(j, where, key, "is %lld, outside [%ld, %ld]", (long long)i,
			       min, max);
	*out = (int)i;
	return 0;
}

int jr_double(const struct jr *j, struct json_object *o, const char *where,
	      const char *key, double *out)
{
	struct json_object *v;
	int ret;

	ret = jr_get(j, o, where, key, json_type_double, &v);
	if (ret)
		return ret;
	*out = json_object_get_double(v);
	if (!isfinite(*out))
		return jr_fail(j, where, key, "is not finite");
	return 0;
}

int jr_bool(const struct jr *j, struct json_object *o, const char *where, const char *key,
	    bool *out)
{
	struct json_object *v;
	int ret;

	ret = jr_get(j, o, where, key, json_type_boolean, &v);
	if (!ret)
		*out = json_object_get_boolean(v);
	return ret;
}

static int copy_str(const struct jr *j, struct json_object *v, const char *where,
		    const char *key, char *buf, size_t len)
{
	const char *s = json_object_get_string(v);

	if (strlen(s) >= len)
		return jr_fail(j, where, key, "is longer than %zu characters", len - 1);
	strcpy(buf, s);
	return 0;
}

int jr_str(const struct jr *j, struct json_object *o, const char *where, const char *key,
	   char *buf, size_t len)
{
	struct json_object *v;
	int ret;

	ret = jr_get(j, o, where, key, json_type_string, &v);
	if (ret)
		return ret;
	return copy_str(j, v, where, key, buf, len);
}

int jr_str_opt(const struct jr *j, struct json_object *o, const char *where,
	       const char *key, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!jr_has(o, key))
		return 0;
	return jr_str(j, o, where, key, buf, len);
}

int jr_scalar_text(const struct jr *j, struct json_object *o, const char *where,
		   const char *key, char *buf, size_t len)
{
	struct json_object *v;

	buf[0] = '\0';
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	switch (json_object_get_type(v)) {
	case json_type_object:
	case json_type_array:
		return jr_fail(j, where, key, "is %s, expected a scalar",
			       type_name(json_object_get_type(v)));
	default:
		return copy_str(j, v, where, key, buf, len);
	}
}

int jr_stats_in(const struct jr *j, struct json_object *s, const char *path,
		struct hist_stats *st)
{
	static const char *const pct[] = { "p50", "p90", "p99", "p999" };
	uint64_t *const pv[] = { &st->p50, &st->p90, &st->p99, &st->p999 };
	size_t i;
	int ret;

	ret = jr_u64(j, s, path, "count", &st->count);
	ret = ret ?: jr_u64(j, s, path, "min", &st->min);
	ret = ret ?: jr_u64(j, s, path, "max", &st->max);
	ret = ret ?: jr_double(j, s, path, "mean", &st->mean);
	ret = ret ?: jr_double(j, s, path, "stddev", &st->stddev);
	for (i = 0; !ret && i < ARRAY_SIZE(pct); i++)
		ret = jr_u64(j, s, path, pct[i], pv[i]);
	if (!ret && st->count && (st->min > st->p50 || st->p50 > st->p90 ||
				  st->p90 > st->p99 || st->p99 > st->p999 || st->p999 > st->max))
		return jr_fail(j, path, "p50", "is inconsistent: want min <= p50 <= p90 <= "
			       "p99 <= p999 <= max");
	return ret;
}

int jr_stats(const struct jr *j, struct json_object *o, const char *where, const char *key,
	     struct hist_stats *st)
{
	struct json_object *s;
	char path[256];
	int ret;

	ret = jr_get(j, o, where, key, json_type_object, &s);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s%s%s", where, *where ? "." : "", key);
	return jr_stats_in(j, s, path, st);
}

int jr_schema(const struct jr *j, struct json_object *root, const char *want)
{
	char got[64];
	int ret;

	if (!json_object_is_type(root, json_type_object))
		return set_err(j->errbuf, "malformed file %s: not a JSON object", j->path);
	ret = jr_str(j, root, "", "schema", got, sizeof(got));
	if (ret)
		return ret;
	if (strcmp(got, want))
		return jr_fail(j, "", "schema", "is '%s', expected '%s'", got, want);
	return 0;
}

int jr_strings(const struct jr *j, struct json_object *o, const char *where, const char *key,
	       char *out, size_t len, size_t max, size_t *n)
{
	struct json_object *a, *e;
	size_t i, k;
	int ret;

	*n = 0;
	if (!jr_has(o, key))
		return 0;
	ret = jr_get(j, o, where, key, json_type_array, &a);
	if (ret)
		return ret;
	k = json_object_array_length(a);
	if (k > max)
		return jr_fail(j, where, key, "has %zu entries, at most %zu", k, max);
	for (i = 0; i < k; i++) {
		e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_string))
			return jr_fail(j, where, key, "entry %zu is not a string", i);
		if (strlen(json_object_get_string(e)) >= len)
			return jr_fail(j, where, key, "entry %zu is too long", i);
		strcpy(out + i * len, json_object_get_string(e));
	}
	*n = k;
	return 0;
}

int jr_array(const struct jr *j, struct json_object *root, const char *parent, const char *key,
	     size_t sz, void **out, size_t *n,
	     int (*fn)(const struct jr *, struct json_object *, const char *, void *))
{
	struct json_object *arr;
	char where[96];
	size_t i, len;
	char *v;
	int ret;

	ret = jr_get(j, root, parent, key, json_type_array, &arr);
	if (ret)
		return ret;
	len = json_object_array_length(arr);
	v = calloc(len ? len : 1, sz);
	if (!v)
		return errno_msg(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
	*out = v;
	*n = len;
	for (i = 0; i < len; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);

		snprintf(where, sizeof(where), "%s%s%s[%zu]", parent, *parent ? "." : "", key, i);
		if (!json_object_is_type(e, json_type_object))
			return jr_fail(j, "", where, "is not an object");
		ret = fn(j, e, where, v + i * sz);
		if (ret)
			return ret;
	}
	return 0;
}

int jr_kv(const struct jr *j, struct json_object *root, const char *key, struct kv **out,
	  size_t *n)
{
	struct json_object *o;
	size_t i = 0;
	int ret;

	ret = jr_get(j, root, "", key, json_type_object, &o);
	if (ret)
		return ret;
	*n = (size_t)json_object_object_length(o);
	*out = calloc(*n ? *n : 1, sizeof(**out));
	if (!*out)
		return errno_msg(j->errbuf, -ENOMEM, "%s: out of memory", j->path);
	json_object_object_foreach(o, k, v) {
		(void)v;
		if (strlen(k) >= sizeof((*out)[i].key))
			return jr_fail(j, key, k, "has a name longer than %zu characters",
				       sizeof((*out)[i].key) - 1);
		strcpy((*out)[i].key, k);
		ret = jr_scalar_text(j, o, key, k, (*out)[i].val, sizeof((*out)[i].val));
		if (ret)
			return ret;
		i++;
	}
	return 0;
}
