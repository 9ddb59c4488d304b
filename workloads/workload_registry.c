// SPDX-License-Identifier: GPL-2.0
/*
 * workload_registry.c - every workload deferbench can run. Adding one: a new workloads/NAME.c
 * exporting 'const struct workload_ops NAME_workload', and one line here.
 */
#include <string.h>

#include "workload.h"

extern const struct workload_ops timer_workload;
extern const struct workload_ops audio_workload;
extern const struct workload_ops tty_workload;
extern const struct workload_ops block_workload;
extern const struct workload_ops hog_workload;
extern const struct workload_ops net_workload;
extern const struct workload_ops command_workload;

const struct workload_ops *const workload_registry[] = {
	&timer_workload,
	&audio_workload,
	&tty_workload,
	&block_workload,
	&hog_workload,
	&net_workload,
	&command_workload,
	NULL,
};

const struct workload_ops *workload_find(const char *name)
{
	const struct workload_ops *const *r;

	for (r = workload_registry; *r; r++)
		if (!strcmp((*r)->name, name))
			return *r;
	return NULL;
}
