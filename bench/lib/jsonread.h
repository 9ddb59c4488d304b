/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonread.h - typed field access on json-c objects with errors that name the file and
 * the field path:  malformed file F: field 'softirq[3].delay_ns.p99' missing
 *
 * 'where' is the path of the parent object ("" for the root); the helpers append the key.
 * All return 0 or -EINVAL (message in jr->errbuf, ERRBUF_LEN bytes).
 */
#ifndef DEFERBENCH_JSONREAD_H
#define DEFERBENCH_JSONREAD_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "rundata.h"
#include "common.h"

struct jr {
	const char *path;	/* the file, for messages */
	char *errbuf;
};

/*
 * jr_load - parse a whole file (a regular file of bounded size: read_input) holding
 * one JSON object; syntax errors name the byte offset. Caller puts *out.
 */
int jr_load(struct jr *j, struct json_object **out);
/* jr_parse - the same from len bytes of text; j->path names it in messages */
int jr_parse(struct jr *j, const char *text, size_t len, struct json_object **out);

/* jr_get - the member key of o with the given type (json_type_null: any type) */
int jr_get(const struct jr *j, struct json_object *o, const char *where, const char *key,
	   enum json_type type, struct json_object **out);
/* jr_has - true when o has key (of any type) */
bool jr_has(struct json_object *o, const char *key);

int jr_u64(const struct jr *j, struct json_object *o, const char *where, const char *key,
	   uint64_t *out);
int jr_int(const struct jr *j, struct json_object *o, const char *where, const char *key,
	   long min, long max, int *out);
int jr_double(const struct jr *j, struct json_object *o, const char *where,
	      const char *key, double *out);
int jr_bool(const struct jr *j, struct json_object *o, const char *where, const char *key,
	    bool *out);
int jr_str(const struct jr *j, struct json_object *o, const char *where, const char *key,
	   char *buf, size_t len);
/* jr_str_opt - like jr_str, but a missing member gives "" (a wrong type is an error) */
int jr_str_opt(const struct jr *j, struct json_object *o, const char *where,
	       const char *key, char *buf, size_t len);
/* jr_scalar_text - any scalar as text ("250", "true", "idle"); "" when missing */
int jr_scalar_text(const struct jr *j, struct json_object *o, const char *where,
		   const char *key, char *buf, size_t len);
/*
 * jr_strings - an array of strings into out[max][len] (a missing member gives n = 0);
 * more than max, or one longer than len - 1, is an error
 */
int jr_strings(const struct jr *j, struct json_object *o, const char *where, const char *key,
	       char *out, size_t len, size_t max, size_t *n);
/*
 * jr_array - the array key of root: n elements of size sz, allocated (caller frees *out,
 * also on error), each an object filled by fn(j, element, its path, element's memory).
 * parent is the path of root ("" for the file's root).
 */
int jr_array(const struct jr *j, struct json_object *root, const char *parent, const char *key,
	     size_t sz, void **out, size_t *n,
	     int (*fn)(const struct jr *, struct json_object *, const char *, void *));
/*
 * jr_kv - the member key of root, an object of scalars ({"rate": "1000"}, {"sent": 10}),
 * as text pairs in *out (caller frees)
 */
int jr_kv(const struct jr *j, struct json_object *root, const char *key, struct kv **out,
	  size_t *n);
/* jr_stats - a statistics object: count, min, mean, stddev, p50, p90, p99, p999, max */
int jr_stats(const struct jr *j, struct json_object *o, const char *where, const char *key,
	     struct hist_stats *st);
/* jr_stats_in - the same nine members directly in s, whose path is 'path' */
int jr_stats_in(const struct jr *j, struct json_object *s, const char *path,
		struct hist_stats *st);
/* jr_schema - the member "schema" must equal want */
int jr_schema(const struct jr *j, struct json_object *root, const char *want);
/* jr_fail - "malformed file F: field 'where.key' ..."; returns -EINVAL */
int jr_fail(const struct jr *j, const char *where, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
