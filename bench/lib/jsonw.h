/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonw.h - how deferbench writes JSON: every file through jsonw_write, every
 * histogram as the same statistics object.
 */
#ifndef DEFERBENCH_JSONW_H
#define DEFERBENCH_JSONW_H

#include <json.h>
#include <sys/types.h>

#include "hist.h"

/* jsonw_u64 - add the member k = v (an unsigned 64-bit integer) to o */
static inline void jsonw_u64(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

/* jsonw_stats_into - add count, min, mean, stddev, p50, p90, p99, p999, max to o */
void jsonw_stats_into(json_object *o, const struct hist *h);
/* jsonw_stats - a new object holding only those; the caller owns it */
json_object *jsonw_stats(const struct hist *h);

/*
 * jsonw_write - obj as indented JSON (slashes not escaped, no trailing newline) into
 * path, atomically (write_atomic_file: flags 0 or WA_EXCL). 0 or -errno.
 */
int jsonw_write(const char *path, json_object *obj, mode_t mode, int flags);

#endif
