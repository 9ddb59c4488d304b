// SPDX-License-Identifier: GPL-2.0
/*
 * jsonw.c - JSON files and the statistics object (see jsonw.h).
 */
#include "jsonw.h"

#include <errno.h>
#include <string.h>

#include "file.h"

void jsonw_stats_into(json_object *o, const struct hist *h)
{
	struct hist_stats st;

	hist_get_stats(h, &st);
	json_object_object_add(o, "count", json_object_new_uint64(st.count));
	json_object_object_add(o, "min", json_object_new_uint64(st.min));
	json_object_object_add(o, "mean", json_object_new_double(st.mean));
	json_object_object_add(o, "stddev", json_object_new_double(st.stddev));
	json_object_object_add(o, "p50", json_object_new_uint64(st.p50));
	json_object_object_add(o, "p90", json_object_new_uint64(st.p90));
	json_object_object_add(o, "p99", json_object_new_uint64(st.p99));
	json_object_object_add(o, "p999", json_object_new_uint64(st.p999));
	json_object_object_add(o, "max", json_object_new_uint64(st.max));
}

json_object *jsonw_stats(const struct hist *h)
{
	json_object *o = json_object_new_object();

	jsonw_stats_into(o, h);
	return o;
}

int jsonw_write(const char *path, json_object *obj, mode_t mode, int flags)
{
	const char *s = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!s)
		return -ENOMEM;
	return write_atomic_file(path, s, strlen(s), mode, flags);
}
